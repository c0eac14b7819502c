//! The façade's error type.

/// Everything that can go wrong in the `ccd` façade.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The mesh could not be turned into a hierarchy.
    #[error(transparent)]
    Build(#[from] ccd_bvh::BuildError),
    /// A `.bvh` file could not be written, opened or viewed.
    #[error(transparent)]
    File(#[from] ccd_bvh::FileError),
    /// A mesh file could not be read, or its mesh could not be built (feature `io`).
    #[cfg(feature = "io")]
    #[error(transparent)]
    Mesh(#[from] crate::io::MeshError),
    /// A pose, motion or request field given to a query is outside the supported range
    /// ([`ccd_bv::limits`]); the error names the value and the limit.
    #[error(transparent)]
    OutOfRange(#[from] ccd_bv::RangeError),
}

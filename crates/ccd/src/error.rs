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
    /// A mesh file could not be read, or its mesh could not be built.
    #[error(transparent)]
    Mesh(#[from] crate::io::MeshError),
    /// A query request has an invalid field.
    #[error("invalid request: {reason}")]
    InvalidRequest {
        /// What is wrong.
        reason: String,
    },
    /// A pose given to a query has a NaN or infinite component.
    #[error("the pose of model {which} is not finite")]
    NonFinitePose {
        /// `'a'` or `'b'`.
        which: char,
    },
}

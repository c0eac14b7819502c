//! Errors of tree construction.

/// Why a hierarchy could not be built from the given mesh.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum BuildError {
    /// The vertex list is empty.
    #[error("the mesh has no vertices")]
    NoVertices,
    /// The triangle list is empty.
    #[error("the mesh has no triangles")]
    NoTriangles,
    /// A vertex coordinate is NaN, infinite or outside the supported range of the scalar type
    /// ([`ccd_bv::limits`]).
    #[error("{range}")]
    VertexOutOfRange {
        /// Index of the vertex.
        vertex: usize,
        /// The coordinate, its value and the limit.
        range: ccd_bv::RangeError,
    },
    /// The mesh's largest coordinate magnitude is below the smallest supported scale of the scalar type
    /// ([`ccd_bv::Limits::scale_min`]): every coordinate is zero or tiny.
    #[error("{0}")]
    ScaleOutOfRange(ccd_bv::RangeError),
    /// A triangle refers to a vertex that does not exist.
    #[error("triangle {face} refers to vertex {index}, but there are only {len} vertices")]
    FaceIndexOutOfRange {
        /// Index of the triangle.
        face: usize,
        /// The out-of-range vertex index.
        index: u32,
        /// Number of vertices.
        len: usize,
    },
    /// The mesh has more triangles or vertices than the node encoding or
    /// 32-bit indices can address.
    #[error("the mesh is too large: {count} {what} (at most {max})")]
    TooLarge {
        /// What overflowed ("triangles", "vertices", "nodes").
        what: &'static str,
        /// How many there are.
        count: usize,
        /// The limit.
        max: u64,
    },
    /// The requested leaf size is not in `1..=MAX_LEAF_SIZE`.
    #[error("leaf size {leaf_size} is out of range 1..={max}")]
    InvalidLeafSize {
        /// The requested size.
        leaf_size: u32,
        /// The largest allowed size.
        max: u32,
    },
}

/// Why a `.bvh` file could not be written, opened or viewed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum FileError {
    /// Reading or writing the file failed.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: std::path::PathBuf,
        /// The operating-system error.
        #[source]
        source: std::io::Error,
    },
    /// The bytes do not start with the `.bvh` magic (an empty file, a mesh
    /// file, anything else).
    #[error("not a ccd .bvh file (bad magic bytes)")]
    NotABvhFile,
    /// The file was written with another format version.
    #[error(
        "unsupported .bvh format version {found} (this build reads version {supported}); rebuild the file with `ccd build`"
    )]
    VersionMismatch {
        /// Version in the file.
        found: u32,
        /// Version this build reads.
        supported: u32,
    },
    /// The archive failed structural validation (truncated or damaged).
    #[error("invalid .bvh archive: {0}")]
    Invalid(String),
    /// The payload does not match the checksum stored with it: the file was
    /// damaged after it was written (a flipped bit, a stray write, a bad copy).
    #[error(
        "{}checksum mismatch: the file is damaged (stored {stored:#018x}, content {computed:#018x}); rebuild it with `ccd build`",
        path.as_ref().map_or(String::new(), |p| format!("{}: ", p.display()))
    )]
    ChecksumMismatch {
        /// The file, where known (not for in-memory bytes).
        path: Option<std::path::PathBuf>,
        /// Checksum in the file's header.
        stored: u64,
        /// Checksum of the file's payload.
        computed: u64,
    },
    /// The archive is well formed but its content is inconsistent.
    #[error("corrupt .bvh file: {0}")]
    Corrupt(String),
    /// The file holds another scalar or volume type than requested.
    #[error("the file holds a {found} tree, not {expected}")]
    WrongKind {
        /// Requested types.
        expected: String,
        /// Types in the file.
        found: String,
    },
    /// In-memory bytes do not start at a 16-byte-aligned address.
    #[error("the bytes of a .bvh archive must start at a 16-byte-aligned address")]
    Misaligned,
    /// `.bvh` files are little-endian; this host is big-endian.
    #[error(".bvh files are little-endian and this host is big-endian")]
    UnsupportedPlatform,
}

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
    /// A vertex coordinate is NaN or infinite.
    #[error("vertex {vertex} has a non-finite coordinate {value}")]
    NonFiniteVertex {
        /// Index of the vertex.
        vertex: usize,
        /// The offending coordinate, as f64.
        value: f64,
    },
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

//! The owned hierarchy.

use ccd_bv::{BoundingVolume, Real};

use crate::build::{self, BuildOptions};
use crate::{BuildError, Face, Hierarchy, Node};

/// A bounding-volume tree that owns its node, face and vertex arrays.
///
/// Built top-down (Gottschalk §3): each node's volume is fitted to its
/// triangles, which are split by the plane through their area-weighted
/// centroid orthogonal to the major axis of their surface covariance; the
/// same split is used for every volume type, so comparisons between types
/// are fair.
#[derive(Clone, Debug)]
pub struct Bvh<T: Real, B: BoundingVolume<T>> {
    nodes: Vec<Node<T, B>>,
    faces: Vec<Face>,
    vertices: Vec<[T; 3]>,
    options: BuildOptions,
}

impl<T: Real, B: BoundingVolume<T>> Bvh<T, B> {
    /// Builds a tree over `triangles` (indices into `vertices`).
    ///
    /// Zero-area triangles are accepted. The triangles are reordered in the
    /// face array; [`Face::id`] keeps each one's index in `triangles`.
    ///
    /// # Errors
    /// [`BuildError`] for an empty mesh, a non-finite coordinate, an
    /// out-of-range index, an invalid leaf size, or a mesh too large for
    /// the node encoding.
    pub fn build(
        vertices: Vec<[T; 3]>,
        triangles: &[[u32; 3]],
        options: &BuildOptions,
    ) -> Result<Self, BuildError> {
        build::validate(&vertices, triangles, options)?;
        let (nodes, faces) = build::build::<T, B>(&vertices, triangles, options);
        Ok(Self {
            nodes,
            faces,
            vertices,
            options: *options,
        })
    }

    /// The options the tree was built with.
    pub fn options(&self) -> &BuildOptions {
        &self.options
    }
}

impl<T: Real, B: BoundingVolume<T>> Hierarchy for Bvh<T, B> {
    type Scalar = T;
    type Bv = B;

    #[inline(always)]
    fn nodes(&self) -> &[Node<T, B>] {
        &self.nodes
    }

    #[inline(always)]
    fn faces(&self) -> &[Face] {
        &self.faces
    }

    #[inline(always)]
    fn vertices(&self) -> &[[T; 3]] {
        &self.vertices
    }
}

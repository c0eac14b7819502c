//! A collision model: a mesh with its bounding-volume hierarchy.

use std::path::Path;

use ccd_bv::{BoundingVolume, Obb, Real};
use ccd_bvh::{BuildOptions, Bvh, BvhFile, Face, FileInfo, Hierarchy, MappedBvh, Node};

use crate::Error;

/// A rigid triangle mesh ready for queries: its vertices, triangles and
/// bounding-volume tree.
///
/// `T` is the scalar (`f64` by default, `f32` supported end to end) and `B`
/// the bounding-volume type (OBB by default).
///
/// ```
/// use ccd::{Model, CollideRequest};
/// use ccd::nalgebra::{Isometry3, Vector3};
///
/// let tetra = || Model::<f64>::new(
///     vec![[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]],
///     &[[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]],
/// );
/// let (a, b) = (tetra()?, tetra()?);
/// let near = Isometry3::translation(0.5, 0.0, 0.0);
/// let hit = ccd::collide(&a, &Isometry3::identity(), &b, &near, &CollideRequest::all())?;
/// assert!(hit.is_colliding());
/// let far = Isometry3::translation(3.0, 0.0, 0.0);
/// assert!(!ccd::collide(&a, &Isometry3::identity(), &b, &far, &CollideRequest::first())?.is_colliding());
/// # Ok::<(), ccd::Error>(())
/// ```
#[derive(Debug)]
pub struct Model<T: Real = f64, B: BoundingVolume<T> = Obb<T>> {
    tree: Tree<T, B>,
}

/// Where a model's arrays live.
#[derive(Debug)]
enum Tree<T: Real, B: BoundingVolume<T>> {
    /// Built in memory.
    Owned(Bvh<T, B>),
    /// Memory-mapped from a `.bvh` file, queried in place.
    Mapped(MappedBvh<T, B>),
}

impl<T: Real, B: BoundingVolume<T>> Model<T, B> {
    /// Builds a model from vertices and triangles (indices into
    /// `vertices`) with the default [`BuildOptions`].
    ///
    /// # Errors
    /// [`Error::Build`] for an empty mesh, a NaN or infinite coordinate, or
    /// an out-of-range index. Zero-area triangles are accepted.
    pub fn new(vertices: Vec<[T; 3]>, triangles: &[[u32; 3]]) -> Result<Self, Error> {
        Self::with_options(vertices, triangles, &BuildOptions::default())
    }

    /// Builds a model with explicit build options (leaf size, OBB fitting).
    ///
    /// # Errors
    /// As [`Model::new`], plus an invalid leaf size.
    pub fn with_options(
        vertices: Vec<[T; 3]>,
        triangles: &[[u32; 3]],
        options: &BuildOptions,
    ) -> Result<Self, Error> {
        Ok(Self {
            bvh: Bvh::build(vertices, triangles, options)?,
        })
    }

    /// The model's hierarchy.
    pub fn bvh(&self) -> &Bvh<T, B> {
        &self.bvh
    }
}

impl<T: Real, B: BoundingVolume<T>> Hierarchy for Model<T, B> {
    type Scalar = T;
    type Bv = B;

    #[inline(always)]
    fn nodes(&self) -> &[Node<T, B>] {
        match &self.tree {
            Tree::Owned(t) => t.nodes(),
            Tree::Mapped(t) => t.nodes(),
        }
    }

    #[inline(always)]
    fn faces(&self) -> &[Face] {
        match &self.tree {
            Tree::Owned(t) => t.faces(),
            Tree::Mapped(t) => t.faces(),
        }
    }

    #[inline(always)]
    fn vertices(&self) -> &[[T; 3]] {
        match &self.tree {
            Tree::Owned(t) => t.vertices(),
            Tree::Mapped(t) => t.vertices(),
        }
    }
}

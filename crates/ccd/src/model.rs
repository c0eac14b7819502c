//! A collision model: a mesh with its bounding-volume hierarchy.

use std::path::Path;

use ccd_bv::{BoundingVolume, Obb, Real, VolumeProfile};
use ccd_bvh::{BuildOptions, Bvh, BvhFile, Face, FileInfo, Hierarchy, MappedBvh, Node};

use crate::Error;

/// A rigid triangle mesh ready for queries: its vertices, triangles and
/// bounding-volume tree.
///
/// `T` is the scalar (`f64` by default, `f32` supported end to end) and `B`
/// the bounding-volume type (OBB by default).
///
/// Queries name triangles by their index in the list the model was built from (the *caller's id*). Turn an id
/// back into its corners with [`Hierarchy::triangle_by_id`], on a built and on a memory-mapped model alike;
/// [`Hierarchy::triangle`] indexes the tree's reordered face array instead. The id → slot map behind it is
/// derived from the stored faces on first use and kept (4 bytes per triangle).
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
/// // Contacts carry the caller's triangle ids.
/// use ccd::Hierarchy;
/// let c = hit.contacts[0];
/// let [p, q, r] = a.triangle_by_id(c.a).expect("a triangle of A");
/// assert!([p, q, r].iter().all(|v| v.iter().all(|x| (0.0..=1.0).contains(x))));
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
        Ok(Self::from_bvh(Bvh::build(vertices, triangles, options)?))
    }

    /// A model around an already built hierarchy.
    pub fn from_bvh(bvh: Bvh<T, B>) -> Self {
        Self {
            tree: Tree::Owned(bvh),
        }
    }

    /// Saves the model's hierarchy as a `.bvh` file (precompute once; later
    /// [`Model::open`] maps it in place).
    ///
    /// The file is replaced atomically ([`ccd_bvh::replace_file`]): an
    /// interrupted save leaves the previous file intact, processes that have
    /// the previous file mapped keep reading it, and a model opened from a
    /// file may be saved over that very file (it keeps its mapping of the
    /// old contents; reopen to map the new file).
    ///
    /// # Errors
    /// [`Error::File`] if the file cannot be written. A model that was itself
    /// opened from a file is saved by copying that file's bytes.
    pub fn save(&self, path: impl AsRef<Path>) -> Result<(), Error> {
        match &self.tree {
            Tree::Owned(bvh) => bvh.save(path)?,
            Tree::Mapped(m) => ccd_bvh::replace_file(path.as_ref(), m.bytes())?,
        }
        Ok(())
    }

    /// Memory-maps a `.bvh` file and validates it (see
    /// [`ccd_bvh::BvhFile::open`]); queries then read the mapping in place,
    /// with no deserialisation and no rebuild.
    ///
    /// # Errors
    /// [`Error::File`] for an unreadable, foreign, truncated, damaged or
    /// newer-version file, or one holding another scalar or volume type.
    pub fn open(path: impl AsRef<Path>) -> Result<Self, Error> {
        Self::from_file(BvhFile::open(path)?)
    }

    /// A model reading an already opened file (validated by
    /// [`BvhFile::open`], or trusted via [`BvhFile::open_unchecked`]); no
    /// second pass over the file.
    ///
    /// # Errors
    /// [`Error::File`] if the file holds another scalar or volume type.
    pub fn from_file(file: BvhFile) -> Result<Self, Error> {
        Ok(Self {
            tree: Tree::Mapped(file.into_typed()?),
        })
    }

    /// [`Model::open`] without validating the archive.
    ///
    /// # Safety
    /// As [`ccd_bvh::BvhFile::open_unchecked`]: the file must have been
    /// written by [`Model::save`] of this version and not altered since.
    ///
    /// # Errors
    /// As [`Model::open`] for the checks still made (magic, version, types).
    pub unsafe fn open_unchecked(path: impl AsRef<Path>) -> Result<Self, Error> {
        // SAFETY: forwarded from this function's contract.
        Self::from_file(unsafe { BvhFile::open_unchecked(path) }?)
    }

    /// The header of the file the model was opened from, or `None` for a
    /// model built in memory.
    pub fn file_info(&self) -> Option<&FileInfo> {
        match &self.tree {
            Tree::Owned(_) => None,
            Tree::Mapped(m) => Some(m.info()),
        }
    }

    /// The options the hierarchy was built with.
    pub fn build_options(&self) -> BuildOptions {
        match &self.tree {
            Tree::Owned(bvh) => *bvh.options(),
            Tree::Mapped(m) => m.info().options,
        }
    }

    /// Whether the model reads a memory-mapped file.
    pub fn is_mapped(&self) -> bool {
        matches!(self.tree, Tree::Mapped(_))
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

    /// The tree's own map (derived on first use, 4 bytes per face), owned or memory-mapped alike.
    fn face_slot(&self, id: u32) -> Option<usize> {
        match &self.tree {
            Tree::Owned(t) => t.face_slot(id),
            Tree::Mapped(t) => t.face_slot(id),
        }
    }

    fn volume_profile(&self) -> Option<VolumeProfile<T>> {
        match &self.tree {
            Tree::Owned(t) => t.volume_profile(),
            Tree::Mapped(t) => t.volume_profile(),
        }
    }
}

//! The owned hierarchy.

use std::sync::OnceLock;

use ccd_bv::{BoundingVolume, Real, VolumeProfile};

use crate::build::{self, BuildOptions};
use crate::{BuildError, Face, FaceSlots, FileError, Hierarchy, Node};

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
    /// The profile of `nodes`' volumes, computed on the first
    /// [`Hierarchy::volume_profile`] call (`O(n)`): only the queries that bound
    /// distances read it, so a build and the other queries never pay for it.
    profile: OnceLock<VolumeProfile<T>>,
    /// Caller id → face slot, derived on the first [`Hierarchy::face_slot`] call (4 bytes per face).
    slots: OnceLock<FaceSlots>,
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
        Self::build_with_progress(vertices, triangles, options, &|_| {})
    }

    /// [`Bvh::build`], calling `progress(n)` from time to time (about every
    /// 4096 triangles, from the build's threads) with the number `n` of
    /// triangles already placed in their leaves, and once at the end with
    /// the triangle count.
    ///
    /// # Errors
    /// As [`Bvh::build`].
    pub fn build_with_progress(
        vertices: Vec<[T; 3]>,
        triangles: &[[u32; 3]],
        options: &BuildOptions,
        progress: &(dyn Fn(usize) + Sync),
    ) -> Result<Self, BuildError> {
        build::validate(&vertices, triangles, options)?;
        let build::Built { nodes, faces } = build::build::<T, B>(
            &vertices,
            triangles,
            options,
            &build::Progress::new(progress),
        );
        progress(triangles.len());
        Ok(Self {
            profile: OnceLock::new(),
            nodes,
            faces,
            vertices,
            options: *options,
            slots: OnceLock::new(),
        })
    }

    /// The bytes of the tree's `.bvh` file (see [`archive`](crate::archive)).
    ///
    /// # Errors
    /// [`FileError::UnsupportedPlatform`] on big-endian hosts.
    pub fn to_bytes(&self) -> Result<Vec<u8>, FileError> {
        crate::archive::ensure_little_endian()?;
        let mut out = std::io::Cursor::new(Vec::new());
        crate::archive::write_image(self, &mut out)
            .map_err(|e| FileError::Invalid(format!("serialising the tree: {e}")))?;
        Ok(out.into_inner())
    }

    /// Writes the tree to `path` as a `.bvh` file, to be memory-mapped later
    /// with [`BvhFile::open`](crate::BvhFile::open).
    ///
    /// The file is replaced atomically ([`replace_file`](crate::replace_file)):
    /// an interrupted save leaves the previous file intact, and processes that
    /// have the previous file mapped keep reading it.
    ///
    /// The archive streams to the file: besides the tree, memory holds one
    /// copy of its blocks, not the archive.
    ///
    /// # Errors
    /// [`FileError::Io`] if the file cannot be written;
    /// [`FileError::UnsupportedPlatform`] on big-endian hosts.
    pub fn save(&self, path: impl AsRef<std::path::Path>) -> Result<(), FileError> {
        crate::archive::ensure_little_endian()?;
        crate::replace::replace_file_with(path.as_ref(), |file| {
            let mut out = std::io::BufWriter::with_capacity(1 << 20, file);
            crate::archive::write_image(self, &mut out)?;
            std::io::Write::flush(&mut out)
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

    /// From a [`FaceSlots`] map derived from the faces on the first call and kept (4 bytes per face).
    fn face_slot(&self, id: u32) -> Option<usize> {
        self.slots
            .get_or_init(|| FaceSlots::of(&self.faces))
            .get(id)
    }

    /// Computed from the tree's volumes on the first call and kept.
    fn volume_profile(&self) -> Option<VolumeProfile<T>> {
        Some(
            *self
                .profile
                .get_or_init(|| VolumeProfile::of(self.nodes.iter().map(|n| &n.bv))),
        )
    }
}

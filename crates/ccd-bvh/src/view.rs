//! Zero-copy views of saved hierarchies.

use std::marker::PhantomData;
use std::path::Path;
use std::sync::OnceLock;

use ccd_bv::{BoundingVolume, Real, VolumeProfile};

use crate::archive::{FileInfo, ScalarKind, Sections, blocks, parse};
use crate::{Face, FaceSlots, FileError, Hierarchy, Node};

/// A hierarchy read in place from the bytes of a `.bvh` file: the node, face
/// and vertex arrays are borrowed from the bytes, not copied.
///
/// Queries run on it through [`Hierarchy`] exactly as on an owned
/// [`Bvh`](crate::Bvh), with identical results and counters.
#[derive(Clone, Copy, Debug)]
pub struct BvhView<'a, T: Real, B: BoundingVolume<T>> {
    nodes: &'a [Node<T, B>],
    faces: &'a [Face],
    vertices: &'a [[T; 3]],
    info: FileInfo,
    /// The volumes' profile where known ([`BvhView::from_bytes`] computes it; a [`MappedBvh`]'s view carries
    /// its own once computed).
    profile: Option<VolumeProfile<T>>,
    /// The caller id → slot map, where a [`MappedBvh`] lends the one it keeps; without it, ids are found by a
    /// scan of the faces.
    slots: Option<&'a FaceSlots>,
}

impl<'a, T: Real, B: BoundingVolume<T>> BvhView<'a, T, B> {
    /// Validates `bytes` (a whole file, e.g. from [`Bvh::to_bytes`](crate::Bvh::to_bytes))
    /// and views it. `bytes` must start at a 16-byte-aligned address.
    ///
    /// # Errors
    /// Everything [`BvhFile::open`] reports, plus [`FileError::Misaligned`].
    pub fn from_bytes(bytes: &'a [u8]) -> Result<Self, FileError> {
        // SAFETY: `checked = true`: the archive is validated, so any bytes are allowed.
        let sections = unsafe { parse(bytes, true) }?;
        let mut view = Self::from_sections(bytes, &sections)?;
        view.profile = Some(VolumeProfile::of(view.nodes.iter().map(|n| &n.bv)));
        Ok(view)
    }

    /// The view of already parsed sections; checks the requested types.
    fn from_sections(bytes: &'a [u8], s: &Sections) -> Result<Self, FileError> {
        let expected = (ScalarKind::of::<T>(), B::KIND);
        if (s.info.scalar, s.info.bv) != expected {
            return Err(FileError::WrongKind {
                expected: format!("{} {}", expected.0.name(), expected.1.name()),
                found: format!("{} {}", s.info.scalar.name(), s.info.bv.name()),
            });
        }
        let (nodes, faces, vertices) = blocks::<T, B>(bytes, s)?;
        Ok(Self {
            nodes,
            faces,
            vertices,
            info: s.info,
            profile: None,
            slots: None,
        })
    }

    /// The file's header.
    pub fn info(&self) -> &FileInfo {
        &self.info
    }
}

impl<T: Real, B: BoundingVolume<T>> Hierarchy for BvhView<'_, T, B> {
    type Scalar = T;
    type Bv = B;

    #[inline(always)]
    fn nodes(&self) -> &[Node<T, B>] {
        self.nodes
    }

    #[inline(always)]
    fn faces(&self) -> &[Face] {
        self.faces
    }

    #[inline(always)]
    fn vertices(&self) -> &[[T; 3]] {
        self.vertices
    }

    /// From the map of the [`MappedBvh`] that lent this view once it has one; otherwise a scan of the faces
    /// (`O(n)`; a view keeps no state of its own).
    fn face_slot(&self, id: u32) -> Option<usize> {
        match self.slots {
            Some(slots) => slots.get(id),
            None => self.faces.iter().position(|f| f.id == id),
        }
    }

    fn volume_profile(&self) -> Option<VolumeProfile<T>> {
        self.profile
    }
}

/// A memory-mapped `.bvh` file whose header and structure have been checked.
///
/// The file must not be modified or truncated while it is mapped (by this
/// or another process); that is the usual contract of memory-mapped files.
#[derive(Debug)]
pub struct BvhFile {
    map: memmap2::Mmap,
    sections: Sections,
}

impl BvhFile {
    /// Maps `path` and validates it: magic, version, byte order, the content
    /// checksum, the rkyv structure (bytecheck), the tree and the containment
    /// of every subtree in its node's volume (see the [format docs](crate::archive)).
    /// Nothing is copied; the checks run in parallel.
    ///
    /// # Guarantee
    /// Queries on an opened file are as sound as on a freshly built tree:
    /// every triangle lies in the volume of every node above it (with the
    /// rounding stated in the format docs).
    ///
    /// # Cost
    /// The checksum reads every byte once; the tree walk visits every node once; the containment proof tests
    /// every vertex of every triangle against every node above it, so its work grows as the number of triangles
    /// times the tree's depth, and dominates. On a 2-core Intel Xeon VM with AVX-512, a 327,680-triangle OBB
    /// file opens in 20–22 ms (`f32`, 49 MB) and 25–27 ms (`f64`, 93 MB): 2.7–3.5× the time of a structural check
    /// alone (`cargo xtask bench-archive`). [`open_unchecked`](Self::open_unchecked) maps a file this program
    /// wrote itself in about 10 µs.
    ///
    /// # Errors
    /// [`FileError::Io`] if the file cannot be read; [`FileError::NotABvhFile`]
    /// for anything that is not a `.bvh` file (an OBJ, an empty file);
    /// [`FileError::VersionMismatch`] for another format version;
    /// [`FileError::ChecksumMismatch`] (naming the file) for a damaged one;
    /// [`FileError::Invalid`] / [`FileError::Corrupt`] for a truncated file or
    /// inconsistent content (an edited file with a matching checksum).
    pub fn open(path: impl AsRef<Path>) -> Result<Self, FileError> {
        let path = path.as_ref();
        let map = map_file(path)?;
        // SAFETY: `checked = true`: the archive is validated, so any bytes are allowed.
        let sections = unsafe { parse(&map, true) }.map_err(|e| match e {
            FileError::ChecksumMismatch {
                stored, computed, ..
            } => FileError::ChecksumMismatch {
                path: Some(path.to_path_buf()),
                stored,
                computed,
            },
            e => e,
        })?;
        Ok(Self { map, sections })
    }

    /// Maps `path` **without validating** the archive or the tree: only the
    /// preamble (magic, version, byte order, payload length) and the block
    /// lengths are read; the checksum is not computed.
    /// The unchecked counterpart of [`open`](Self::open), for files this
    /// program wrote itself.
    ///
    /// # Safety
    /// The file must be a `.bvh` file written by [`Bvh::save`](crate::Bvh::save)
    /// of this format version and not altered since. A corrupted file is
    /// undefined behaviour (rkyv's relative pointers are followed unchecked).
    ///
    /// # Errors
    /// As [`open`](Self::open) for the checks it still makes.
    pub unsafe fn open_unchecked(path: impl AsRef<Path>) -> Result<Self, FileError> {
        let map = map_file(path.as_ref())?;
        // SAFETY: forwarded from this function's contract: the file is an
        // unaltered archive written by `Bvh::save`.
        let sections = unsafe { parse(&map, false) }?;
        Ok(Self { map, sections })
    }

    /// The file's header.
    pub fn info(&self) -> &FileInfo {
        &self.sections.info
    }

    /// A typed view of the mapped hierarchy.
    ///
    /// # Errors
    /// [`FileError::WrongKind`] if the file holds another scalar or volume type.
    pub fn view<T: Real, B: BoundingVolume<T>>(&self) -> Result<BvhView<'_, T, B>, FileError> {
        BvhView::from_sections(&self.map, &self.sections)
    }

    /// Checks that the file holds `T` and `B` and turns it into an owning,
    /// typed hierarchy.
    ///
    /// # Errors
    /// [`FileError::WrongKind`] if the file holds another scalar or volume type.
    pub fn into_typed<T: Real, B: BoundingVolume<T>>(self) -> Result<MappedBvh<T, B>, FileError> {
        self.view::<T, B>()?;
        Ok(MappedBvh {
            file: self,
            profile: OnceLock::new(),
            slots: OnceLock::new(),
            _types: PhantomData,
        })
    }
}

/// Maps `path` read-only, without pre-faulting its pages: a validated open
/// reads every page first in the parallel checksum, whose threads fault them
/// in side by side (pre-faulting in the `mmap` call runs on one thread and
/// made the 327,680-triangle validated open 1.5 ms (f32) and 3 ms (f64)
/// slower).
fn map_file(path: &Path) -> Result<memmap2::Mmap, FileError> {
    let io = |source| FileError::Io {
        path: path.to_path_buf(),
        source,
    };
    let file = std::fs::File::open(path).map_err(io)?;
    if file.metadata().map_err(io)?.len() == 0 {
        return Err(FileError::NotABvhFile);
    }
    // SAFETY: the map is read-only and private to this process; the
    // remaining hazard — another process changing the file while it is
    // mapped — is excluded by the documented contract of `BvhFile`.
    unsafe { memmap2::Mmap::map(&file) }.map_err(io)
}

/// A memory-mapped hierarchy of known types that owns its mapping: what
/// [`BvhFile::into_typed`] returns, and what a long-lived model holds.
#[derive(Debug)]
pub struct MappedBvh<T: Real, B: BoundingVolume<T>> {
    file: BvhFile,
    /// The profile of the mapped volumes, computed on first use (`O(n)`), so opening stays as cheap as it was.
    profile: OnceLock<VolumeProfile<T>>,
    /// Caller id → face slot, derived from the mapped faces' ids on the first [`Hierarchy::face_slot`] call
    /// (`O(n)`, 4 bytes per face, on the heap: the file does not store it).
    slots: OnceLock<FaceSlots>,
    _types: PhantomData<fn() -> (T, B)>,
}

impl<T: Real, B: BoundingVolume<T>> MappedBvh<T, B> {
    /// The file's header.
    pub fn info(&self) -> &FileInfo {
        self.file.info()
    }

    /// The mapped file's bytes.
    pub fn bytes(&self) -> &[u8] {
        &self.file.map
    }

    /// The typed view of the mapping.
    pub fn view(&self) -> BvhView<'_, T, B> {
        // The types and casts were checked in `into_typed` on these very
        // bytes, and the mapping does not move, so this cannot fail; an
        // empty view (on which every query finds nothing) is the fallback.
        let view = self.file.view().unwrap_or(BvhView {
            nodes: &[],
            faces: &[],
            vertices: &[],
            info: *self.file.info(),
            profile: None,
            slots: None,
        });
        // `get`, not `get_or_init`: computing the profile calls `view` again.
        BvhView {
            profile: self.profile.get().copied(),
            slots: self.slots.get(),
            ..view
        }
    }
}

impl<T: Real, B: BoundingVolume<T>> Hierarchy for MappedBvh<T, B> {
    type Scalar = T;
    type Bv = B;

    fn nodes(&self) -> &[Node<T, B>] {
        self.view().nodes
    }

    fn faces(&self) -> &[Face] {
        self.view().faces
    }

    fn vertices(&self) -> &[[T; 3]] {
        self.view().vertices
    }

    /// From a [`FaceSlots`] map derived from the mapped faces' ids on the first call and kept. The validated
    /// open checked that the ids are a permutation of `0..faces`.
    fn face_slot(&self, id: u32) -> Option<usize> {
        self.slots
            .get_or_init(|| FaceSlots::of(self.faces()))
            .get(id)
    }

    /// Computed from the mapped volumes on the first call and kept.
    fn volume_profile(&self) -> Option<VolumeProfile<T>> {
        Some(
            *self
                .profile
                .get_or_init(|| VolumeProfile::of(self.nodes().iter().map(|n| &n.bv))),
        )
    }
}

//! The typed header of a `.bvh` file: the scalar kind, what the file holds ([`FileInfo`]) and where its blocks
//! lie ([`Sections`]). Shared by the writer and parser (`image`) and the tree checks (`verify`): `image` calls
//! `verify`, and `verify` needs nothing of `image`.

use std::ops::Range;

use ccd_bv::{BvKind, Real};

use crate::BuildOptions;

/// The scalar type a file was written with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ScalarKind {
    /// `f32` volumes and vertices.
    F32,
    /// `f64` volumes and vertices.
    F64,
}

impl ScalarKind {
    /// The kind of `T`.
    pub fn of<T: Real>() -> Self {
        if size_of::<T>() == 4 {
            ScalarKind::F32
        } else {
            ScalarKind::F64
        }
    }

    /// `"f32"` or `"f64"`.
    pub fn name(self) -> &'static str {
        match self {
            ScalarKind::F32 => "f32",
            ScalarKind::F64 => "f64",
        }
    }

    pub(super) fn code(self) -> u8 {
        self as u8
    }

    pub(super) fn from_code(c: u8) -> Option<Self> {
        [ScalarKind::F32, ScalarKind::F64]
            .into_iter()
            .find(|k| k.code() == c)
    }
}

/// What a `.bvh` file holds, read from its header.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FileInfo {
    /// Format version of the file.
    pub version: u32,
    /// Scalar type of volumes and vertices.
    pub scalar: ScalarKind,
    /// Bounding-volume type.
    pub bv: BvKind,
    /// Options the tree was built with.
    pub options: BuildOptions,
    /// Number of nodes.
    pub nodes: usize,
    /// Number of triangles.
    pub faces: usize,
    /// Number of vertices.
    pub vertices: usize,
    /// Number of levels of the tree.
    pub depth: usize,
    /// Size of the file in bytes.
    pub bytes: usize,
}

/// Where the blocks of a parsed file lie, as byte ranges of the whole file.
#[derive(Clone, Debug)]
pub(crate) struct Sections {
    pub info: FileInfo,
    pub nodes: Range<usize>,
    pub faces: Range<usize>,
    pub vertices: Range<usize>,
}

//! The archived image: header fields and the three data blocks.

use std::ops::Range;

use ccd_bv::{BoundingVolume, BvKind, FitMethod, Real};
use rkyv::rancor;

use super::cast::node_bytes;
use super::{BYTE_ORDER_MARK, FORMAT_VERSION, MAGIC, PREAMBLE_LEN};
use crate::{BuildOptions, Bvh, FileError, Hierarchy, MAX_LEAF_SIZE};

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

    fn code(self) -> u8 {
        self as u8
    }

    fn from_code(c: u8) -> Option<Self> {
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

/// The archived part of a file.
#[derive(rkyv::Archive, rkyv::Serialize)]
struct Image {
    scalar: u8,
    bv: u8,
    fit: u8,
    leaf_size: u32,
    depth: u32,
    node_count: u64,
    face_count: u64,
    vertex_count: u64,
    nodes: Vec<u64>,
    faces: Vec<u64>,
    vertices: Vec<u64>,
}

/// Where the blocks of a parsed file lie, as byte ranges of the whole file.
#[derive(Clone, Debug)]
pub(crate) struct Sections {
    pub info: FileInfo,
    pub nodes: Range<usize>,
    pub faces: Range<usize>,
    pub vertices: Range<usize>,
}

fn bv_code(k: BvKind) -> u8 {
    k as u8
}

fn bv_from_code(c: u8) -> Option<BvKind> {
    [BvKind::Sphere, BvKind::Aabb, BvKind::Obb, BvKind::Rss]
        .into_iter()
        .find(|&k| bv_code(k) == c)
}

fn fit_code(f: FitMethod) -> u8 {
    match f {
        FitMethod::HullSurface => 0,
        FitMethod::TriangleSurface => 1,
    }
}

fn fit_from_code(c: u8) -> Option<FitMethod> {
    [FitMethod::HullSurface, FitMethod::TriangleSurface]
        .into_iter()
        .find(|&f| fit_code(f) == c)
}

/// Packs bytes into little-endian words (zero-padded), the block format.
fn words(bytes: &[u8]) -> Vec<u64> {
    bytes
        .chunks(8)
        .map(|c| {
            let mut w = [0u8; 8];
            w[..c.len()].copy_from_slice(c);
            u64::from_le_bytes(w)
        })
        .collect()
}

/// Serialises a tree into the bytes of a `.bvh` file.
pub(crate) fn write_image<T: Real, B: BoundingVolume<T>>(
    bvh: &Bvh<T, B>,
) -> Result<Vec<u8>, FileError> {
    if cfg!(target_endian = "big") {
        return Err(FileError::UnsupportedPlatform);
    }
    let mut node_block = Vec::with_capacity(size_of_val(bvh.nodes()));
    for n in bvh.nodes() {
        node_bytes(n, &mut node_block);
    }
    let options = bvh.options();
    let image = Image {
        scalar: ScalarKind::of::<T>().code(),
        bv: bv_code(B::KIND),
        fit: fit_code(options.fit),
        leaf_size: options.leaf_size,
        depth: bvh.stats().depth as u32,
        node_count: bvh.nodes().len() as u64,
        face_count: bvh.faces().len() as u64,
        vertex_count: bvh.vertices().len() as u64,
        nodes: words(&node_block),
        faces: words(bytemuck::cast_slice(bvh.faces())),
        vertices: words(bytemuck::cast_slice(bvh.vertices())),
    };
    let archive =
        rkyv::to_bytes::<rancor::Error>(&image).map_err(|e| FileError::Invalid(e.to_string()))?;
    let mut out = Vec::with_capacity(PREAMBLE_LEN + archive.len());
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    out.extend_from_slice(&BYTE_ORDER_MARK.to_le_bytes());
    out.extend_from_slice(&archive);
    Ok(out)
}

/// Checks the preamble and the archive of `bytes` (a whole file, 16-byte
/// aligned) and returns its header and block ranges.
///
/// With `checked` the archive is validated with bytecheck and the tree with
/// [`verify`](super::verify); without it neither happens.
///
/// # Safety
/// With `checked == false` the caller guarantees that `bytes` is a file
/// written by [`write_image`] of this format version (a corrupted archive
/// is undefined behaviour).
pub(crate) unsafe fn parse(bytes: &[u8], checked: bool) -> Result<Sections, FileError> {
    if cfg!(target_endian = "big") {
        return Err(FileError::UnsupportedPlatform);
    }
    if bytes.len() < PREAMBLE_LEN || bytes[..8] != MAGIC {
        return Err(FileError::NotABvhFile);
    }
    let word =
        |at: usize| u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]]);
    let version = word(8);
    if version != FORMAT_VERSION {
        return Err(FileError::VersionMismatch {
            found: version,
            supported: FORMAT_VERSION,
        });
    }
    if word(12) != BYTE_ORDER_MARK {
        return Err(FileError::Invalid(format!(
            "byte-order mark {:#010x} is not {BYTE_ORDER_MARK:#010x}",
            word(12)
        )));
    }
    let body = &bytes[PREAMBLE_LEN..];
    if !(body.as_ptr() as usize).is_multiple_of(16) {
        return Err(FileError::Misaligned);
    }
    let image: &ArchivedImage = if checked {
        rkyv::access::<ArchivedImage, rancor::Error>(body)
            .map_err(|e| FileError::Invalid(validation_message(&e.to_string())))?
    } else {
        if body.len() < size_of::<ArchivedImage>() {
            return Err(FileError::Invalid("file too short".into()));
        }
        // SAFETY: the caller of this unchecked path guarantees the bytes are
        // an archive written by `write_image` (see `# Safety`); the buffer is
        // 16-aligned (checked above) as rkyv requires.
        unsafe { rkyv::access_unchecked::<ArchivedImage>(body) }
    };
    let corrupt = |what: &str| FileError::Corrupt(what.to_string());
    let scalar =
        ScalarKind::from_code(image.scalar).ok_or_else(|| corrupt("unknown scalar code"))?;
    let bv = bv_from_code(image.bv).ok_or_else(|| corrupt("unknown bounding-volume code"))?;
    let fit = fit_from_code(image.fit).ok_or_else(|| corrupt("unknown fit code"))?;
    let leaf_size = image.leaf_size.to_native();
    if !(1..=MAX_LEAF_SIZE).contains(&leaf_size) {
        return Err(corrupt("leaf size out of range"));
    }
    let count = |c: u64| usize::try_from(c).map_err(|_| corrupt("count too large"));
    let info = FileInfo {
        version,
        scalar,
        bv,
        options: BuildOptions {
            leaf_size,
            fit,
            ..BuildOptions::default()
        },
        nodes: count(image.node_count.to_native())?,
        faces: count(image.face_count.to_native())?,
        vertices: count(image.vertex_count.to_native())?,
        depth: image.depth.to_native() as usize,
        bytes: bytes.len(),
    };
    let scalar_size = if scalar == ScalarKind::F32 { 4 } else { 8 };
    let node_size = scalar_size * (bv_scalars(bv) + 1);
    let block =
        |words: &rkyv::vec::ArchivedVec<rkyv::rend::u64_le>, len: Option<usize>, what: &str| {
            let start = words.as_slice().as_ptr() as usize - bytes.as_ptr() as usize;
            match len {
                Some(len) if len <= words.len() * 8 && words.len() * 8 - len < 8 => {
                    Ok(start..start + len)
                }
                _ => Err(corrupt(&format!(
                    "{what} block length does not match the header"
                ))),
            }
        };
    let sections = Sections {
        nodes: block(&image.nodes, info.nodes.checked_mul(node_size), "node")?,
        faces: block(&image.faces, info.faces.checked_mul(16), "face")?,
        vertices: block(
            &image.vertices,
            info.vertices.checked_mul(3 * scalar_size),
            "vertex",
        )?,
        info,
    };
    if checked {
        super::verify::verify_any(bytes, &sections)?;
    }
    Ok(sections)
}

/// Number of scalars in a volume of each kind.
fn bv_scalars(bv: BvKind) -> usize {
    match bv {
        BvKind::Sphere => 4,
        BvKind::Aabb => 6,
        BvKind::Obb => 15,
        BvKind::Rss => 15,
    }
}

/// A bytecheck failure as a user-facing message: the file is truncated or
/// damaged, followed by rkyv's reason when it has one, with memory addresses
/// (meaningless to the user, different on every run) replaced by `…`.
fn validation_message(reason: &str) -> String {
    if reason.contains("without error information") {
        // rkyv's release builds report no reason at all.
        return "truncated or damaged file".to_string();
    }
    let scrubbed: Vec<&str> = reason
        .split_whitespace()
        .map(|w| {
            if w.trim_start_matches(['(', '[']).starts_with("0x") {
                "…"
            } else {
                w
            }
        })
        .collect();
    format!("truncated or damaged file ({})", scrubbed.join(" "))
}

#[cfg(test)]
mod tests {
    use super::validation_message;

    #[test]
    fn validation_messages_hide_addresses() {
        let m = validation_message(
            "unaligned pointer: ptr 0x00007f3a2c000010 unaligned for alignment 8",
        );
        assert_eq!(
            m,
            "truncated or damaged file (unaligned pointer: ptr … unaligned for alignment 8)"
        );
    }
}

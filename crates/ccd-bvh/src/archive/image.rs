//! The archived image: header fields and the three data blocks.

use ccd_bv::{BoundingVolume, BvKind, FitMethod, Real};
use rkyv::rancor;
use rkyv::ser::writer::IoWriter;
use std::io::{self, Seek, SeekFrom, Write};

use super::cast::node_bytes;
use super::checksum::{Checksummed, Chunks};
use super::header::{FileInfo, ScalarKind, Sections};
use super::{BYTE_ORDER_MARK, CHECKSUM_OFFSET, FORMAT_VERSION, MAGIC, PREAMBLE_LEN};
use crate::{BuildOptions, Bvh, FileError, Hierarchy, MAX_LEAF_SIZE, Node};

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
    let mut out = vec![0u64; bytes.len().div_ceil(8)];
    bytemuck::cast_slice_mut::<u64, u8>(&mut out)[..bytes.len()].copy_from_slice(bytes);
    out
}

/// The node block as words, packed node by node (no intermediate copy of
/// the whole block).
fn node_words<T: Real, B: BoundingVolume<T>>(bvh: &Bvh<T, B>) -> Vec<u64> {
    let nodes = bvh.nodes();
    let size = size_of::<Node<T, B>>();
    let mut out = vec![0u64; size_of_val(nodes).div_ceil(8)];
    let bytes = bytemuck::cast_slice_mut::<u64, u8>(&mut out);
    let mut one = Vec::with_capacity(size);
    for (slot, n) in bytes.chunks_mut(size).zip(nodes) {
        one.clear();
        node_bytes(n, &mut one);
        slot[..one.len()].copy_from_slice(&one);
    }
    out
}

/// The preamble with the given checksum and payload length.
fn preamble(checksum: u64, payload_len: u64) -> [u8; PREAMBLE_LEN] {
    let mut p = [0u8; PREAMBLE_LEN];
    p[..8].copy_from_slice(&MAGIC);
    p[8..12].copy_from_slice(&FORMAT_VERSION.to_le_bytes());
    p[12..16].copy_from_slice(&BYTE_ORDER_MARK.to_le_bytes());
    p[CHECKSUM_OFFSET..CHECKSUM_OFFSET + 8].copy_from_slice(&checksum.to_le_bytes());
    p[CHECKSUM_OFFSET + 8..].copy_from_slice(&payload_len.to_le_bytes());
    p
}

/// Writes a tree as a `.bvh` file to `out`, from its current position:
/// the preamble, then the archive streamed through the checksum, then the
/// checksum and the payload length patched into the preamble. Besides the
/// tree, memory holds one copy of the blocks (the image) and no copy of
/// the archive.
///
/// # Errors
/// Those of `out`; [`FileError::UnsupportedPlatform`] is checked by the
/// callers ([`ensure_little_endian`]).
pub(crate) fn write_image<T: Real, B: BoundingVolume<T>, W: Write + Seek>(
    bvh: &Bvh<T, B>,
    out: &mut W,
) -> io::Result<()> {
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
        nodes: node_words(bvh),
        faces: words(bytemuck::cast_slice(bvh.faces())),
        vertices: words(bytemuck::cast_slice(bvh.vertices())),
    };
    let start = out.stream_position()?;
    out.write_all(&preamble(0, 0))?;
    let mut sink = Checksummed::new(&mut *out);
    rkyv::api::high::to_bytes_in::<_, rancor::Error>(&image, IoWriter::new(&mut sink))
        .map_err(io::Error::other)?;
    let (out, sum) = sink.finish();
    let end = out.stream_position()?;
    let len = end - start - PREAMBLE_LEN as u64;
    out.seek(SeekFrom::Start(start))?;
    out.write_all(&preamble(sum, len))?;
    out.seek(SeekFrom::Start(end))?;
    Ok(())
}

/// [`FileError::UnsupportedPlatform`] on big-endian hosts.
pub(crate) fn ensure_little_endian() -> Result<(), FileError> {
    if cfg!(target_endian = "big") {
        return Err(FileError::UnsupportedPlatform);
    }
    Ok(())
}

/// Checks the preamble and the archive of `bytes` (a whole file, 16-byte
/// aligned) and returns its header and block ranges.
///
/// With `checked` the archive is validated with bytecheck and the tree with
/// [`verify`](super::verify) while the payload's checksum is computed, and a
/// checksum mismatch is the error whatever else they found; without it none
/// of these happens.
///
/// # Safety
/// With `checked == false` the caller guarantees that `bytes` is a file
/// written by [`write_image`] of this format version (a corrupted archive
/// is undefined behaviour).
pub(crate) unsafe fn parse(bytes: &[u8], checked: bool) -> Result<Sections, FileError> {
    if cfg!(target_endian = "big") {
        return Err(FileError::UnsupportedPlatform);
    }
    if bytes.len() < 16 || bytes[..8] != MAGIC {
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
    if bytes.len() < PREAMBLE_LEN {
        return Err(FileError::Invalid(
            "truncated file (no room for the header)".into(),
        ));
    }
    let long = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().expect("8 bytes"));
    let payload_len = long(CHECKSUM_OFFSET + 8);
    let body = &bytes[PREAMBLE_LEN..];
    if payload_len != body.len() as u64 {
        return Err(FileError::Invalid(format!(
            "the header announces {payload_len} bytes after it, the file has {} (truncated or extended)",
            body.len()
        )));
    }
    if !checked {
        // SAFETY: forwarded from this function's contract.
        return unsafe { sections(bytes, body, version, None) };
    }
    // The chunks are hashed as the validation reads them (`checksum` module docs); a mismatch is the error
    // whatever else the validation found, as if the checksum had been compared before anything else.
    let chunks = Chunks::new(body);
    // SAFETY: with `Some(chunks)` the archive is validated: any bytes are allowed.
    let found = unsafe { sections(bytes, body, version, Some(&chunks)) };
    let (stored, computed) = (long(CHECKSUM_OFFSET), chunks.finish());
    if stored != computed {
        return Err(FileError::ChecksumMismatch {
            path: None,
            stored,
            computed,
        });
    }
    found
}

/// The header and block ranges of the archive `body` of the file `bytes` (format `version`), validated with
/// bytecheck and [`verify`](super::verify) where `chunks` (its checksum, hashed on the way) is given.
///
/// # Safety
/// With `chunks == None`, as [`parse`] with `checked == false`.
unsafe fn sections(
    bytes: &[u8],
    body: &[u8],
    version: u32,
    chunks: Option<&Chunks<'_>>,
) -> Result<Sections, FileError> {
    let checked = chunks.is_some();
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
    if let Some(chunks) = chunks {
        super::verify::verify_any(bytes, &sections, chunks)?;
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

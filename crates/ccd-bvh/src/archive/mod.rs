//! The `.bvh` file format: a hierarchy saved once and memory-mapped later,
//! queried in place with no deserialisation.
//!
//! # Layout
//! ```text
//! offset 0   8 bytes  magic  b"ccd-bvh\0"
//! offset 8   u32 LE   format version (FORMAT_VERSION)
//! offset 12  u32 LE   byte-order mark 0x0102_0304 as written by a little-endian host
//! offset 16  u64 LE   checksum of the payload (CHECKSUM_OFFSET; see `payload_checksum`)
//! offset 24  u64 LE   payload length in bytes
//! offset 32  …        payload: rkyv 0.8 archive of the image: header fields (scalar type,
//!                     BV type, build options, counts, depth) and the node, face and vertex
//!                     arrays as 8-byte-aligned little-endian word blocks
//! ```
//! The node, face and vertex blocks hold the in-memory representation of
//! [`Node`](crate::Node), [`Face`](crate::Face) and `[T; 3]` (`#[repr(C)]`,
//! no padding, little-endian), so a validated file is viewed as typed slices
//! by a cast: no copy, no deserialisation. Saving streams the archive to the
//! file through the checksum and patches the preamble at the end.
//!
//! # Validation
//! [`BvhFile::open`](crate::BvhFile::open) and
//! [`BvhView::from_bytes`](crate::BvhView::from_bytes) check, before
//! handing out a view, in this order:
//! - the magic, the version, the byte-order mark and the payload length;
//! - the checksum: a mismatch is
//!   [`FileError::ChecksumMismatch`](crate::FileError::ChecksumMismatch)
//!   ("checksum mismatch: the file is damaged", naming the file), whatever
//!   else the checks below find (they run while the checksum is computed, each
//!   1 MiB chunk hashed just before the tree walk reads it, so that the file
//!   is read from memory once; every check is safe on any bytes);
//! - the rkyv structure with bytecheck (every relative pointer and length in
//!   bounds, alignment);
//! - the header: known scalar and BV codes, block lengths matching the counts;
//! - the tree: every child index after its parent and in bounds, every node
//!   but the root with exactly one parent, leaf face ranges in bounds and
//!   covering every face slot exactly once, every node's faces its children's
//!   (adjacent ranges);
//! - the header's build fields against the tree: leaves within the recorded
//!   leaf size and internal nodes above it (the builder splits exactly
//!   those), the recorded depth equal to the tree's and at most the
//!   `65 + ⌈log2 faces⌉` levels a build has (deeper trees, such as chains on
//!   which the containment proof would take quadratic time, are refused);
//! - the faces: vertex indices in bounds, ids a permutation of `0..faces`
//!   (each input triangle exactly once);
//! - every vertex coordinate in the supported range of the scalar type
//!   ([`ccd_bv::limits`]), every volume parameter finite and of magnitude at
//!   most [`ccd_bv::VOLUME_MAGNITUDE_FACTOR`] times its largest coordinate
//!   ([`ccd_bv::supported_magnitude`])
//!   (what any fit of such vertices stays below; a volume edited to lie
//!   absurdly far away could otherwise pass the containment tests through
//!   an overflow), every size non-negative;
//! - soundness: OBB and RSS axes orthonormal within `Real::SAT_GUARD / 8`, and
//!   every node's volume containing every vertex of every triangle of its
//!   subtree, certified despite the rounding of the test (per volume type:
//!   exactly for spheres, AABBs and OBBs; RSS within `16 ε (‖p − c‖₁ + r)`,
//!   inside the allowance every RSS test subtracts), see the private
//!   `enclose` and `soundness` modules. Fitted trees always pass.
//!
//! Not checked: the fit method in the header (it changes only how
//! orientations were chosen, which no query relies on; the checksum guards it
//! against damage).
//!
//! # Compatibility
//! - Version 2 (this version): the layout above. Bounding-volume codes: 0 sphere, 1 AABB, 2 OBB, 3 RSS.
//! - Version 1 (16-byte preamble, no checksum) and any other version are refused with
//!   [`FileError::VersionMismatch`](crate::FileError::VersionMismatch), whose message says to rebuild the
//!   file with `ccd build`; the version is bumped whenever the layout of the preamble, the image or a node
//!   changes.
//! - Big-endian hosts can neither write nor read files
//!   ([`FileError::UnsupportedPlatform`](crate::FileError::UnsupportedPlatform)).

mod cast;
mod checksum;
mod corners;
mod enclose;
mod header;
mod image;
#[cfg(target_arch = "x86_64")]
mod obb_lanes;
#[cfg(target_arch = "x86_64")]
mod obb_run_simd;
mod soundness;
mod verify;
mod walk;

pub(crate) use header::Sections;
pub use header::{FileInfo, ScalarKind};
pub(crate) use image::{ensure_little_endian, parse, write_image};
pub(crate) use verify::blocks;

/// The eight bytes every `.bvh` file starts with.
pub const MAGIC: [u8; 8] = *b"ccd-bvh\0";

/// The format version this build writes and reads.
pub const FORMAT_VERSION: u32 = 2;

/// Byte-order mark written after the version.
pub(crate) const BYTE_ORDER_MARK: u32 = 0x0102_0304;

/// Offset of the payload checksum in the preamble; the payload length follows it.
pub const CHECKSUM_OFFSET: usize = 16;

/// Length of the preamble before the rkyv archive (keeps it 16-aligned).
pub const PREAMBLE_LEN: usize = 32;

/// The checksum of a file's payload (the bytes after the [`PREAMBLE_LEN`]-byte preamble), as stored at
/// [`CHECKSUM_OFFSET`]: XXH3-64 over 1 MiB chunks, then over the chunk digests. For tools and tests that edit
/// files on purpose; `None` if `file` is shorter than the preamble.
pub fn payload_checksum(file: &[u8]) -> Option<u64> {
    file.get(PREAMBLE_LEN..).map(checksum::checksum)
}

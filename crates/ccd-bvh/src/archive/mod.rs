//! The `.bvh` file format: a hierarchy saved once and memory-mapped later,
//! queried in place with no deserialisation.
//!
//! # Layout
//! ```text
//! offset 0   8 bytes  magic  b"ccd-bvh\0"
//! offset 8   u32 LE   format version (FORMAT_VERSION)
//! offset 12  u32 LE   byte-order mark 0x0102_0304 as written by a little-endian host
//! offset 16  …        rkyv 0.8 archive of the image: header fields (scalar type, BV type,
//!                     build options, counts, depth) and the node, face and vertex arrays
//!                     as 8-byte-aligned little-endian word blocks
//! ```
//! The node, face and vertex blocks hold the in-memory representation of
//! [`Node`](crate::Node), [`Face`](crate::Face) and `[T; 3]` (`#[repr(C)]`,
//! no padding, little-endian), so a validated file is viewed as typed slices
//! by a cast: no copy, no deserialisation.
//!
//! # Validation
//! [`BvhFile::open`](crate::BvhFile::open) and
//! [`BvhView::from_bytes`](crate::BvhView::from_bytes) check, before
//! handing out a view:
//! - the magic, the version and the byte-order mark;
//! - the rkyv structure with bytecheck (every relative pointer and length in
//!   bounds, alignment);
//! - the header: known scalar and BV codes, block lengths matching the counts;
//! - the tree: every child index after its parent and in bounds, every node
//!   but the root with exactly one parent, leaf face ranges in bounds and
//!   covering every face exactly once, leaf sizes within the recorded leaf size;
//! - the faces: vertex indices in bounds, ids a permutation of `0..faces`;
//! - every volume and vertex coordinate finite.
//!
//! Not checked: that each volume contains its triangles (a file edited to
//! break that yields wrong answers, never a crash).
//!
//! # Compatibility
//! - Version 1 (this version): the layout above. Bounding-volume codes: 0 sphere, 1 AABB, 2 OBB, 3 RSS (added
//!   within version 1: no existing code or layout changed, so older files open unchanged; builds before it
//!   refuse a code-3 file as corrupt).
//! - A file with another version is refused with
//!   [`FileError::VersionMismatch`](crate::FileError::VersionMismatch); the
//!   version is bumped whenever the layout of the image or of a node changes.
//! - Big-endian hosts can neither write nor read files
//!   ([`FileError::UnsupportedPlatform`](crate::FileError::UnsupportedPlatform)).

mod cast;
mod image;
mod verify;

pub use image::{FileInfo, ScalarKind};
pub(crate) use image::{Sections, parse, write_image};
pub(crate) use verify::blocks;

/// The eight bytes every `.bvh` file starts with.
pub const MAGIC: [u8; 8] = *b"ccd-bvh\0";

/// The format version this build writes and reads.
pub const FORMAT_VERSION: u32 = 1;

/// Byte-order mark written after the version.
pub(crate) const BYTE_ORDER_MARK: u32 = 0x0102_0304;

/// Length of the preamble before the rkyv archive (keeps it 16-aligned).
pub(crate) const PREAMBLE_LEN: usize = 16;

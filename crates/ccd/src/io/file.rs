//! Reading a mesh file into memory, bounded by its size.
//!
//! Every reader parses from the bytes this module returns, so no reader can
//! read more than the file held when it was opened, and an endless source
//! (`/dev/zero`, a pipe) is refused before a byte is read.

use std::fs::{File, Metadata};
use std::io::Read;
use std::path::Path;

use super::MeshError;
use super::error::io_error;

/// The largest mesh file the readers accept: 16 GiB.
///
/// That is about 340 million triangles of binary STL, well past what the
/// 32-bit indices of a model address in practice, and small enough that the
/// whole file fits in a large machine's memory, which the readers need.
/// Longer files are refused with [`MeshError::FileTooLarge`] before anything
/// is read.
pub const MAX_MESH_FILE_BYTES: u64 = 1 << 34;

/// The whole content of the regular file at `path`, at most its length at
/// the time it was opened.
///
/// # Errors
/// - [`MeshError::Io`] if it cannot be inspected, opened or read;
/// - [`MeshError::NotAFile`] if it is not a regular file (checked before
///   opening, so that a pipe without a writer cannot block, and again on the
///   opened file);
/// - [`MeshError::FileTooLarge`] past [`MAX_MESH_FILE_BYTES`];
/// - [`MeshError::OutOfMemory`] if the buffer cannot be allocated.
pub(super) fn read_bounded(path: &Path) -> Result<Vec<u8>, MeshError> {
    regular_len(
        path,
        &std::fs::metadata(path).map_err(|e| io_error(path, e))?,
    )?;
    let file = File::open(path).map_err(|e| io_error(path, e))?;
    let len = regular_len(path, &file.metadata().map_err(|e| io_error(path, e))?)?;
    if len > MAX_MESH_FILE_BYTES {
        return Err(MeshError::FileTooLarge {
            path: path.to_path_buf(),
            bytes: len,
            max: MAX_MESH_FILE_BYTES,
        });
    }
    let mut bytes = Vec::new();
    let capacity = usize::try_from(len).ok();
    capacity
        .and_then(|n| bytes.try_reserve_exact(n).ok())
        .ok_or_else(|| MeshError::OutOfMemory {
            path: path.to_path_buf(),
            what: "file contents",
            bytes: len,
        })?;
    file.take(len)
        .read_to_end(&mut bytes)
        .map_err(|e| io_error(path, e))?;
    Ok(bytes)
}

/// The length of a regular file, or [`MeshError::NotAFile`].
fn regular_len(path: &Path, metadata: &Metadata) -> Result<u64, MeshError> {
    if metadata.is_file() {
        Ok(metadata.len())
    } else {
        Err(MeshError::NotAFile {
            path: path.to_path_buf(),
            kind: kind(metadata),
        })
    }
}

/// What a non-regular file is, in words.
fn kind(metadata: &Metadata) -> &'static str {
    if metadata.is_dir() {
        return "a directory";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        let t = metadata.file_type();
        if t.is_char_device() {
            return "a character device";
        }
        if t.is_block_device() {
            return "a block device";
        }
        if t.is_fifo() {
            return "a pipe";
        }
        if t.is_socket() {
            return "a socket";
        }
    }
    "a special file"
}

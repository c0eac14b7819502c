//! Atomic, non-destructive replacement of a file: what every save in ccd goes through.
//!
//! The bytes go to a new temporary file beside the target (same directory, so the same file system), which is
//! flushed to disk (`fsync`) and then renamed over the target. A rename replaces the directory entry in one step:
//! readers see either the whole old file or the whole new one, never a truncated mix, and a process that has the
//! old file memory-mapped keeps a valid mapping of the old contents (the old inode lives until it is unmapped). An
//! interrupted write (disk full, a file-size limit, a kill) leaves the target as it was; only the temporary file
//! (`.NAME.PID.N.tmp` beside it) may remain after a kill, since a killed process cannot remove it.
//!
//! # What this cannot prevent
//! Another program that truncates or rewrites a mapped `.bvh` file **in place** (not by renaming a new file over
//! it) changes the pages under the mapping: the next query may then read the new bytes or, past the new end of
//! the file, receive `SIGBUS`. No library can stop that short of copying the file into memory; ccd writes every
//! file by replacement, and [`BvhFile`](crate::BvhFile) documents the contract that mapped files are not modified
//! in place. [`BvhFile::open`](crate::BvhFile::open) validates the file once, at open.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use crate::FileError;

/// Writes `bytes` to `path` by atomic replacement (module docs): the target is either left as it was or holds
/// exactly `bytes`. A symbolic link at `path` is followed (the file it names is replaced); an existing file's
/// permissions are kept.
///
/// # Errors
/// [`FileError::Io`] naming `path` if the temporary file cannot be created, written, synced or renamed (the
/// temporary file is removed then).
pub fn replace_file(path: &Path, bytes: &[u8]) -> Result<(), FileError> {
    replace_file_with(path, |file| file.write_all(bytes))
}

/// [`replace_file`] with the content produced by `write`, which receives the temporary file (positioned at its
/// start) and may stream into it, seek and patch; whatever it leaves there replaces `path`.
///
/// # Errors
/// As [`replace_file`], including `write`'s errors.
pub fn replace_file_with(
    path: &Path,
    write: impl FnOnce(&mut File) -> io::Result<()>,
) -> Result<(), FileError> {
    let io = |source| FileError::Io {
        path: path.to_path_buf(),
        source,
    };
    // Follow a symbolic link, so the link keeps pointing at the (replaced) file.
    let target = match fs::canonicalize(path) {
        Ok(real) => real,
        Err(e) if e.kind() == io::ErrorKind::NotFound => path.to_path_buf(),
        Err(e) => return Err(io(e)),
    };
    let temp = temporary_beside(&target).map_err(io)?;
    let written = write_synced(&temp, &target, write).and_then(|()| fs::rename(&temp, &target));
    if let Err(e) = written {
        // Best effort: the error that matters is the write's.
        let _ = fs::remove_file(&temp);
        return Err(io(e));
    }
    sync_directory(&target);
    Ok(())
}

/// A fresh name `.NAME.PID.N.tmp` in `target`'s directory.
fn temporary_beside(target: &Path) -> io::Result<PathBuf> {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let name = target.file_name().ok_or_else(|| {
        io::Error::new(
            io::ErrorKind::InvalidInput,
            "the path names no file (it ends in `..` or is a root)",
        )
    })?;
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let mut temp = std::ffi::OsString::from(".");
    temp.push(name);
    temp.push(format!(".{}.{n}.tmp", std::process::id()));
    Ok(target.with_file_name(temp))
}

/// Creates `temp` (never an existing file), lets `write` fill it, copies `target`'s permissions if it exists,
/// and flushes the data to disk.
fn write_synced(
    temp: &Path,
    target: &Path,
    write: impl FnOnce(&mut File) -> io::Result<()>,
) -> io::Result<()> {
    let mut file: File = OpenOptions::new().write(true).create_new(true).open(temp)?;
    write(&mut file)?;
    if let Ok(meta) = fs::metadata(target) {
        file.set_permissions(meta.permissions())?;
    }
    file.sync_all()
}

/// Flushes the directory entry of the rename (Unix; best effort: the data itself is already on disk, and a
/// failure here only weakens durability across a power loss, not atomicity).
fn sync_directory(target: &Path) {
    #[cfg(unix)]
    if let Some(dir) = target.parent() {
        let dir = if dir.as_os_str().is_empty() {
            Path::new(".")
        } else {
            dir
        };
        if let Ok(d) = File::open(dir) {
            let _ = d.sync_all();
        }
    }
    #[cfg(not(unix))]
    let _ = target;
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `name` in a scratch directory of the test `test` alone (tests run in parallel in one process, and one test's
    /// temporary file must not look like another's leftover).
    fn scratch(test: &str, name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("ccd-replace-{}-{test}", std::process::id()));
        fs::create_dir_all(&dir).expect("scratch directory");
        dir.join(name)
    }

    /// New files are created, existing ones replaced whole, and no temporary file is left behind.
    #[test]
    fn creates_and_replaces_leaving_nothing_behind() {
        let p = scratch("creates", "plain.bin");
        replace_file(&p, b"first version").expect("create");
        assert_eq!(fs::read(&p).expect("read"), b"first version");
        replace_file(&p, b"2nd").expect("replace");
        assert_eq!(fs::read(&p).expect("read"), b"2nd");
        let dir = p.parent().expect("a directory");
        let leftovers: Vec<_> = fs::read_dir(dir)
            .expect("list")
            .filter_map(Result::ok)
            .filter(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
            .collect();
        assert!(leftovers.is_empty(), "{leftovers:?}");
    }

    /// A failed write (here: a missing directory) is an error naming the path and changes nothing.
    #[test]
    fn failure_is_reported_with_the_path() {
        let p = scratch("failure", "no-such-dir").join("x.bvh");
        match replace_file(&p, b"data") {
            Err(FileError::Io { path, .. }) => assert_eq!(path, p),
            other => panic!("{other:?}"),
        }
        assert!(!p.exists());
    }

    /// A symbolic link keeps pointing at the file, which is replaced.
    #[cfg(unix)]
    #[test]
    fn follows_symbolic_links() {
        let (real, link) = (scratch("links", "real.bin"), scratch("links", "link.bin"));
        let _ = fs::remove_file(&link);
        replace_file(&real, b"old").expect("create");
        std::os::unix::fs::symlink(&real, &link).expect("symlink");
        replace_file(&link, b"new").expect("replace through the link");
        assert!(
            fs::symlink_metadata(&link)
                .expect("link")
                .file_type()
                .is_symlink()
        );
        assert_eq!(fs::read(&real).expect("read"), b"new");
    }
}

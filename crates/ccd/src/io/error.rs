//! [`MeshError`]: why a mesh file was refused, naming the file, the field and the value.

use std::fmt;
use std::path::{Path, PathBuf};

use ccd_bvh::BuildError;

/// Why a mesh file could not be read or turned into a model.
///
/// Every variant names the file; its `Display` is one line: the path, then
/// the cause, with the offending field and value.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum MeshError {
    /// The file could not be opened or read.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The operating-system error.
        #[source]
        source: std::io::Error,
    },
    /// The path names something other than a regular file (a directory, a
    /// device such as `/dev/zero`, a pipe, a socket), whose size is not known
    /// before reading. Symbolic links are followed.
    #[error("{}: not a regular file but {kind}; mesh files must be regular files", path.display())]
    NotAFile {
        /// The path as given.
        path: PathBuf,
        /// What it is, e.g. `"a character device"`.
        kind: &'static str,
    },
    /// The file is longer than [`MAX_MESH_FILE_BYTES`](super::MAX_MESH_FILE_BYTES).
    #[error("{}: the file has {bytes} bytes, more than the {max} bytes a mesh file may have", path.display())]
    FileTooLarge {
        /// The file.
        path: PathBuf,
        /// Its length.
        bytes: u64,
        /// The limit.
        max: u64,
    },
    /// Memory for the file or for the mesh it declares could not be
    /// allocated (reported instead of aborting the process).
    #[error("{}: out of memory: cannot allocate {bytes} bytes for the {what}", path.display())]
    OutOfMemory {
        /// The file.
        path: PathBuf,
        /// What the memory was for (`"file contents"`, `"triangles"`).
        what: &'static str,
        /// The size of the failed allocation.
        bytes: u64,
    },
    /// The file is not a well-formed file of its format (bad syntax, a
    /// binary file too short for its header, a missing vertex property, …).
    #[error("{}: invalid {format} file: {message}", path.display())]
    Parse {
        /// The file.
        path: PathBuf,
        /// `"OBJ"`, `"STL"` or `"PLY"`.
        format: &'static str,
        /// What the parser reported, on one line.
        message: String,
    },
    /// A binary STL whose length is not `84 + 50 × count` for the triangle
    /// count its header declares, and which is not ASCII STL either (that
    /// starts with `solid` and holds no NUL byte). Its triangles are not read:
    /// a prefix or an overrun would be a different mesh.
    #[error("{}: {}", path.display(), StlCount { declared: *declared, bytes: *bytes, holds: *holds })]
    StlCountMismatch {
        /// The file.
        path: PathBuf,
        /// The triangle count in the header (bytes 80–83).
        declared: u32,
        /// The file's length.
        bytes: u64,
        /// The triangle count the length implies, when it is a whole number
        /// of 50-byte triangles after the 84-byte header.
        holds: Option<u64>,
    },
    /// A PLY header declares more elements than the rest of the file can
    /// hold, counting each element's smallest possible encoding (one byte
    /// per property in ASCII, the property sizes in binary, at least one
    /// byte per element). Nothing is allocated for such counts.
    #[error(
        "{}: the PLY header declares {count} `{element}` elements, which with the elements \
         before them take at least {needs} bytes, but {available} bytes follow the header",
        path.display()
    )]
    PlyCountTooLarge {
        /// The file.
        path: PathBuf,
        /// The element's name (`vertex`, `face`, …).
        element: String,
        /// Its declared count.
        count: u64,
        /// The smallest payload holding this and the earlier elements.
        needs: u64,
        /// The bytes after the header.
        available: u64,
    },
    /// The file extension is not `.obj`, `.stl` or `.ply` (in any case).
    #[error("{}: unsupported mesh format (expected a .obj, .stl or .ply file)", path.display())]
    UnsupportedFormat {
        /// The file.
        path: PathBuf,
    },
    /// A face has fewer than three vertices.
    #[error(
        "{}{}: face {face} has {vertices} vertices, but a face needs at least 3",
        path.display(),
        LineSuffix(*line)
    )]
    NotTriangles {
        /// The file.
        path: PathBuf,
        /// The line of the face, counted from 1 (OBJ and ASCII PLY).
        line: Option<usize>,
        /// Index of the face, counted from 0 in file order.
        face: usize,
        /// Its number of vertices.
        vertices: usize,
    },
    /// A face refers to a vertex that cannot exist, found while reading: in
    /// OBJ any index outside the vertex list (the OBJ reader resolves them),
    /// in PLY a negative index or one past `u32::MAX`. Other out-of-range PLY
    /// indices are reported by the builder as [`MeshError::Invalid`].
    #[error(
        "{}{}: face {face} refers to vertex {index}, but there are only {vertices} vertices",
        path.display(),
        LineSuffix(*line)
    )]
    IndexOutOfRange {
        /// The file.
        path: PathBuf,
        /// The line of the face, counted from 1 (OBJ and ASCII PLY).
        line: Option<usize>,
        /// Index of the face, counted from 0 in file order (in OBJ, over the
        /// `f` statements).
        face: usize,
        /// The index as written in the file (1-based or negative relative in
        /// OBJ, 0-based in PLY).
        index: i64,
        /// Number of vertices (in OBJ, those declared before the face).
        vertices: usize,
    },
    /// The file has more vertices or triangles than 32-bit indices can
    /// address.
    #[error("{}: the mesh is too large: {count} {what} (at most {max})", path.display())]
    TooLarge {
        /// The file.
        path: PathBuf,
        /// What overflowed (`"vertices"`, `"triangles"`).
        what: &'static str,
        /// How many there are.
        count: usize,
        /// The limit.
        max: u64,
    },
    /// The file was read, but its mesh was rejected by the builder: no
    /// triangles, a NaN or infinite coordinate (also one that overflows when
    /// rounded to `f32`), an index past the last vertex.
    #[error("{}: {source}", path.display())]
    Invalid {
        /// The file.
        path: PathBuf,
        /// The builder's diagnosis.
        #[source]
        source: BuildError,
    },
}

/// Renders `:LINE` after the path when the line is known.
struct LineSuffix(Option<usize>);

impl fmt::Display for LineSuffix {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Some(line) => write!(f, ":{line}"),
            None => Ok(()),
        }
    }
}

/// The message of [`MeshError::StlCountMismatch`].
struct StlCount {
    declared: u32,
    bytes: u64,
    holds: Option<u64>,
}

impl fmt::Display for StlCount {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let StlCount {
            declared,
            bytes,
            holds,
        } = *self;
        let plural = if declared == 1 { "" } else { "s" };
        write!(f, "binary STL header declares {declared} triangle{plural}")?;
        match holds {
            Some(holds) => write!(f, " but the file holds {holds} ({bytes} bytes)"),
            None => write!(
                f,
                " ({} bytes) but the file has {bytes} bytes, \
                 not an 84-byte header and whole 50-byte triangles",
                super::stl::binary_len(declared)
            ),
        }
    }
}

/// A [`MeshError::Parse`] whose message is flattened to one line.
pub(super) fn parse_error(
    path: &Path,
    format: &'static str,
    message: impl fmt::Display,
) -> MeshError {
    let message = message.to_string();
    let message = message.split_whitespace().collect::<Vec<_>>().join(" ");
    MeshError::Parse {
        path: path.to_path_buf(),
        format,
        message,
    }
}

/// The longest line text quoted in an error message, in characters.
const QUOTE_CHARS: usize = 60;

/// A [`MeshError::Parse`] for line `number` (from 1) of a text file whose bytes are `text`: "line N: `what`:
/// `text`", the text trimmed and cut to [`QUOTE_CHARS`] characters.
pub(super) fn line_error(
    path: &Path,
    format: &'static str,
    number: usize,
    text: &[u8],
    what: impl fmt::Display,
) -> MeshError {
    let text: String = String::from_utf8_lossy(text)
        .trim()
        .chars()
        .take(QUOTE_CHARS)
        .collect();
    parse_error(
        path,
        format,
        format_args!("line {number}: {what}: `{text}`"),
    )
}

/// A word of a text file as written, in double quotes (bytes that are not UTF-8 shown as U+FFFD).
pub(super) struct Quoted<'a>(pub &'a [u8]);

impl fmt::Display for Quoted<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "\"{}\"", String::from_utf8_lossy(self.0))
    }
}

/// An [`MeshError::Io`] for `path`.
pub(super) fn io_error(path: &Path, source: std::io::Error) -> MeshError {
    MeshError::Io {
        path: path.to_path_buf(),
        source,
    }
}

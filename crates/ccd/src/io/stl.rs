//! STL (ASCII and binary) through `stl_io`.

use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::io::Cursor;
use std::path::Path;

use super::error::{Quoted, line_error, parse_error};
use super::file::read_bounded;
use super::{MeshData, MeshError, check_vertex_count};
use crate::Error;
use crate::number::finite_f32;

const FORMAT: &str = "STL";

/// Bytes before the first triangle of a binary STL: an 80-byte header and
/// the little-endian `u32` triangle count.
const BINARY_HEADER: usize = 84;

/// Bytes per triangle of a binary STL: normal, three vertices, attribute.
const BINARY_TRIANGLE: u64 = 50;

/// Reads an STL file, ASCII or binary, and merges equal vertices so the
/// mesh is indexed: two corners share a vertex exactly when their three
/// `f32` coordinates are equal (`-0.0` equals `0.0`; a NaN coordinate is
/// kept as read). Facet normals are ignored.
///
/// The encoding is decided from the whole file, never guessed from a prefix:
/// a file whose length is exactly that of a binary STL with the triangle
/// count in its header (`84 + 50 × count` bytes) is binary, even if its
/// header starts with `solid` (as some exporters write); otherwise a file
/// starting with `solid` and holding no NUL byte is ASCII; anything else is
/// refused, so a binary file is never read short or past its end.
///
/// # Errors
/// [`Error::Mesh`] with
/// - the errors of bounded reading: [`MeshError::Io`],
///   [`MeshError::NotAFile`], [`MeshError::FileTooLarge`],
///   [`MeshError::OutOfMemory`] (see the [module docs](super));
/// - [`MeshError::StlCountMismatch`] for a binary file whose length does not
///   match its declared triangle count (naming the count, the length and
///   the count the length implies);
/// - [`MeshError::Parse`] for malformed ASCII (a coordinate that is not a
///   finite `f32`, such as `nan` or `1e39`, named with its line, facet,
///   vertex and text) or a file too short for a binary header that is not
///   ASCII;
/// - [`MeshError::TooLarge`] past 2³² distinct vertices.
pub fn read_stl(path: impl AsRef<Path>) -> Result<MeshData, Error> {
    let path = path.as_ref();
    let mut bytes = read_bounded(path)?;
    let encoding = prepare(path, &mut bytes)?;

    let mut out = MeshData::default();
    if let Encoding::Binary { triangles } = encoding {
        // The count is bounded by the file's length, checked in `prepare`.
        out.triangles
            .try_reserve_exact(triangles as usize)
            .map_err(|_| MeshError::OutOfMemory {
                path: path.to_path_buf(),
                what: "triangles",
                bytes: u64::from(triangles) * size_of::<[u32; 3]>() as u64,
            })?;
    }
    let mut cursor = Cursor::new(bytes);
    let refusal = match stl_io::create_stl_reader(&mut cursor) {
        Ok(reader) => index(path, reader, &mut out)?,
        Err(e) => Some(e),
    };
    match refusal {
        None => Ok(out),
        Some(e) => {
            let named = match encoding {
                Encoding::Ascii => ascii_number_error(path, cursor.get_ref()),
                Encoding::Binary { .. } => None,
            };
            Err(named.unwrap_or_else(|| parse_error(path, FORMAT, e)).into())
        }
    }
}

/// Appends the `triangles` that `stl_io` reads to `out`, merging equal vertices (see [`read_stl`]). Returns
/// the error that ended the reading, if one did.
fn index(
    path: &Path,
    triangles: impl Iterator<Item = std::io::Result<stl_io::Triangle>>,
    out: &mut MeshData,
) -> Result<Option<std::io::Error>, MeshError> {
    let mut index_of: HashMap<[u32; 3], u32> = HashMap::new();
    for triangle in triangles {
        let triangle = match triangle {
            Ok(t) => t,
            Err(e) => return Ok(Some(e)),
        };
        let mut corners = [0u32; 3];
        for (corner, vertex) in corners.iter_mut().zip(triangle.vertices) {
            let p: [f32; 3] = vertex.into();
            // Adding +0.0 maps -0.0 to +0.0 and leaves every other value alone.
            let key = p.map(|c| (c + 0.0).to_bits());
            *corner = match index_of.entry(key) {
                Entry::Occupied(e) => *e.get(),
                Entry::Vacant(e) => {
                    check_vertex_count(path, out.vertices.len() + 1)?;
                    out.vertices.push(p.map(f64::from));
                    *e.insert((out.vertices.len() - 1) as u32)
                }
            };
        }
        out.triangles.push(corners);
    }
    Ok(None)
}

/// For an ASCII file that `stl_io` refused, the first coordinate of a `facet normal` or `vertex` line that
/// is not a finite `f32`, as an error naming its line, facet and vertex (both from 0), axis and text; `None`
/// if every coordinate is one (the refusal was about something else).
fn ascii_number_error(path: &Path, bytes: &[u8]) -> Option<MeshError> {
    let (mut facet, mut corner) = (0usize, 0usize);
    for (number, text) in (1..).zip(bytes.split(|&b| b == b'\n')) {
        let mut words = text
            .split(u8::is_ascii_whitespace)
            .filter(|w| !w.is_empty());
        let place = match words.next() {
            Some(b"facet") if words.next() == Some(b"normal") => {
                corner = 0;
                format!("facet {facet}, normal")
            }
            Some(b"vertex") => {
                corner += 1;
                format!("facet {facet}, vertex {}", corner - 1)
            }
            Some(b"endfacet") => {
                facet += 1;
                continue;
            }
            _ => continue,
        };
        for (word, axis) in words.zip(["x", "y", "z"]) {
            if let Err(bad) = finite_f32(&String::from_utf8_lossy(word)) {
                let what = format_args!("{place}: {axis} = {} {bad}", Quoted(word));
                return Some(line_error(path, FORMAT, number, text, what));
            }
        }
    }
    None
}

/// The length of a binary STL with `triangles` triangles.
pub(super) fn binary_len(triangles: u32) -> u64 {
    BINARY_HEADER as u64 + BINARY_TRIANGLE * u64::from(triangles)
}

/// How an STL file is encoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Encoding {
    /// Binary, with this many triangles (its length matches).
    Binary { triangles: u32 },
    /// ASCII (`solid …`).
    Ascii,
}

/// Decides ASCII or binary and adjusts `bytes` so that `stl_io`, which
/// decides by a leading `solid ` alone, reads them that way.
fn prepare(path: &Path, bytes: &mut Vec<u8>) -> Result<Encoding, MeshError> {
    let len = bytes.len() as u64;
    let declared = bytes
        .get(80..BINARY_HEADER)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]));
    let starts_solid = bytes.starts_with(b"solid");

    if let Some(triangles) = declared
        && binary_len(triangles) == len
    {
        // The header is free text: blank a leading `solid` so that `stl_io`
        // does not take the file for ASCII.
        if starts_solid {
            bytes[..5].fill(b' ');
        }
        return Ok(Encoding::Binary { triangles });
    }
    if starts_solid && !bytes.contains(&0) {
        // `stl_io` wants `solid ` with a space; the name is optional.
        if matches!(bytes.get(5), None | Some(b'\r' | b'\n')) {
            bytes
                .try_reserve_exact(1)
                .map_err(|_| MeshError::OutOfMemory {
                    path: path.to_path_buf(),
                    what: "file contents",
                    bytes: len + 1,
                })?;
            bytes.insert(5, b' ');
        }
        return Ok(Encoding::Ascii);
    }
    match declared {
        Some(declared) => {
            let payload = len - BINARY_HEADER as u64;
            Err(MeshError::StlCountMismatch {
                path: path.to_path_buf(),
                declared,
                bytes: len,
                holds: payload
                    .is_multiple_of(BINARY_TRIANGLE)
                    .then_some(payload / BINARY_TRIANGLE),
            })
        }
        None => Err(parse_error(
            path,
            FORMAT,
            format_args!(
                "{len} bytes is too short for a binary STL (84-byte header) and the file is \
                 not ASCII STL (which starts with `solid` and holds no NUL byte)"
            ),
        )),
    }
}

//! STL (ASCII and binary) through `stl_io`.

use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::io::Cursor;
use std::path::Path;

use super::{MeshData, MeshError, check_vertex_count, io_error, parse_error};
use crate::Error;

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
/// A file whose length is exactly that of a binary STL with the triangle
/// count in its header is read as binary, even if its header starts with
/// `solid` (as some exporters write); otherwise a file starting with `solid`
/// is read as ASCII, and anything else as binary.
///
/// # Errors
/// [`Error::Mesh`] with
/// - [`MeshError::Io`] if the file cannot be read;
/// - [`MeshError::Parse`] for malformed ASCII or a binary file shorter than
///   its header says;
/// - [`MeshError::TooLarge`] past 2³² distinct vertices.
pub fn read_stl(path: impl AsRef<Path>) -> Result<MeshData, Error> {
    let path = path.as_ref();
    let mut bytes = std::fs::read(path).map_err(|e| io_error(path, e))?;
    prepare(path, &mut bytes)?;
    let mut cursor = Cursor::new(bytes);
    let reader =
        stl_io::create_stl_reader(&mut cursor).map_err(|e| parse_error(path, FORMAT, e))?;

    let mut out = MeshData::default();
    let mut index_of: HashMap<[u32; 3], u32> = HashMap::new();
    for triangle in reader {
        let triangle = triangle.map_err(|e| parse_error(path, FORMAT, e))?;
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
    Ok(out)
}

/// Decides ASCII or binary and adjusts `bytes` so that `stl_io`, which
/// decides by a leading `solid ` alone, reads them that way.
fn prepare(path: &Path, bytes: &mut Vec<u8>) -> Result<(), MeshError> {
    let declared = bytes
        .get(80..BINARY_HEADER)
        .map(|c| u64::from(u32::from_le_bytes([c[0], c[1], c[2], c[3]])));
    let expected = declared.map(|n| BINARY_HEADER as u64 + BINARY_TRIANGLE * n);
    let len = bytes.len() as u64;
    let starts_solid = bytes.starts_with(b"solid");

    if expected == Some(len) {
        // Binary. The header is free text: blank a leading `solid` so that
        // `stl_io` does not take the file for ASCII.
        if starts_solid {
            bytes[..5].fill(b' ');
        }
        return Ok(());
    }
    if starts_solid {
        // ASCII. `stl_io` wants `solid ` with a space; the name is optional.
        if matches!(bytes.get(5), None | Some(b'\r' | b'\n')) {
            bytes.insert(5, b' ');
        }
        return Ok(());
    }
    match (declared, expected) {
        (Some(n), Some(expected)) if len < expected => Err(parse_error(
            path,
            FORMAT,
            format_args!(
                "truncated binary STL: the header declares {n} triangles ({expected} bytes) \
                 but the file has {len} bytes (and it is not ASCII STL, which starts with `solid`)"
            ),
        )),
        (Some(_), Some(_)) => Ok(()),
        _ => Err(parse_error(
            path,
            FORMAT,
            format_args!(
                "{len} bytes is too short for a binary STL (84-byte header) \
                 and the file is not ASCII STL (which starts with `solid`)"
            ),
        )),
    }
}

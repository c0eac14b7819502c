//! STL, binary and ASCII, read by this crate.

use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::path::Path;

use super::error::parse_error;
use super::file::read_bounded;
use super::stl_ascii::read_ascii;
use super::{MeshData, MeshError, check_vertex_count};
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
/// kept as read). Facet normals are ignored. An ASCII file may hold several
/// `solid … endsolid` blocks one after another: all are read.
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
/// - [`MeshError::Parse`] for malformed ASCII, naming the line, what was
///   expected there, and for a coordinate that is not a finite `f32` (such
///   as `nan` or `1e39`) its facet, vertex and text; or for a file too short
///   for a binary header that is not ASCII;
/// - [`MeshError::TooLarge`] past 2³² distinct vertices.
pub fn read_stl(path: impl AsRef<Path>) -> Result<MeshData, Error> {
    let path = path.as_ref();
    let bytes = read_bounded(path)?;
    let mut mesh = Indexed::new(path);
    match decide(path, &bytes)? {
        Encoding::Binary { triangles } => {
            // The count is bounded by the file's length, checked in `decide`.
            mesh.out
                .triangles
                .try_reserve_exact(triangles as usize)
                .map_err(|_| MeshError::OutOfMemory {
                    path: path.to_path_buf(),
                    what: "triangles",
                    bytes: u64::from(triangles) * size_of::<[u32; 3]>() as u64,
                })?;
            for record in bytes[BINARY_HEADER..].chunks_exact(BINARY_TRIANGLE as usize) {
                // After the normal's 12 bytes, three vertices of three little-endian `f32`s.
                let value = |k: usize| {
                    let at = 12 + 4 * k;
                    f32::from_le_bytes([record[at], record[at + 1], record[at + 2], record[at + 3]])
                };
                mesh.add([0, 1, 2].map(|v| [0, 1, 2].map(|a| value(3 * v + a))))?;
            }
        }
        Encoding::Ascii => read_ascii(path, &bytes, |corners| mesh.add(corners))?,
    }
    Ok(mesh.out)
}

/// A mesh being indexed: equal corners merged into one vertex (see [`read_stl`]).
struct Indexed<'a> {
    path: &'a Path,
    out: MeshData,
    index_of: HashMap<[u32; 3], u32>,
}

impl<'a> Indexed<'a> {
    fn new(path: &'a Path) -> Self {
        Indexed {
            path,
            out: MeshData::default(),
            index_of: HashMap::new(),
        }
    }

    /// Appends the triangle with these corners, each an existing vertex if one is equal to it.
    fn add(&mut self, triangle: [[f32; 3]; 3]) -> Result<(), MeshError> {
        let mut corners = [0u32; 3];
        for (corner, p) in corners.iter_mut().zip(triangle) {
            // Adding +0.0 maps -0.0 to +0.0 and leaves every other value alone.
            let key = p.map(|c| (c + 0.0).to_bits());
            *corner = match self.index_of.entry(key) {
                Entry::Occupied(e) => *e.get(),
                Entry::Vacant(e) => {
                    check_vertex_count(self.path, self.out.vertices.len() + 1)?;
                    self.out.vertices.push(p.map(f64::from));
                    *e.insert((self.out.vertices.len() - 1) as u32)
                }
            };
        }
        self.out.triangles.push(corners);
        Ok(())
    }
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

/// Decides ASCII or binary (see [`read_stl`]).
fn decide(path: &Path, bytes: &[u8]) -> Result<Encoding, MeshError> {
    let len = bytes.len() as u64;
    let declared = bytes
        .get(80..BINARY_HEADER)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]));
    let starts_solid = bytes.starts_with(b"solid");

    if let Some(triangles) = declared
        && binary_len(triangles) == len
    {
        return Ok(Encoding::Binary { triangles });
    }
    if starts_solid && !bytes.contains(&0) {
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

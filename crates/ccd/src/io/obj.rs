//! Wavefront OBJ, read line by line in the file's own numbering.

use std::path::Path;

use super::error::{Quoted, line_error};
use super::file::read_bounded;
use super::{MeshData, MeshError, check_vertex_count};
use crate::Error;
use crate::number::finite;

const FORMAT: &str = "OBJ";

/// The names of a `v` statement's values, with a weight `w` or a colour.
const WEIGHTED: [&str; 4] = ["x", "y", "z", "w"];
const COLOURED: [&str; 6] = ["x", "y", "z", "r", "g", "b"];

/// Reads a Wavefront OBJ file: vertex positions (`v`) and faces (`f`), every
/// object and group merged into one mesh.
///
/// Vertices are kept as the file declares them, in its order, used by a face
/// or not: vertex `i` of the result is the file's `i + 1`-th `v` statement,
/// so every later message that names a vertex by its index (from 0, as
/// everywhere in this library; faces too) names the file's. A face's indices count from 1, or back from the last vertex
/// declared before it when negative (`-1` is that vertex); its `/vt` and
/// `/vn` parts must be integers where present and are otherwise ignored.
/// Polygons are split into triangle fans around their first vertex (exact
/// for convex polygons). A `v` with a fourth value `w` is divided by it; one
/// with six values carries a colour, which is ignored. Normals, texture
/// coordinates, lines (`l`), points (`p`), groups, materials (`mtllib`
/// files are not opened) and free-form geometry are skipped: they bound no
/// volume. A `#` starts a comment up to the end of its line. Lines other
/// than `v` and `f` lines may hold any bytes.
///
/// Each coordinate is the `f64` nearest its decimal text; a coordinate that
/// is not finite (`nan`, `inf`) or whose magnitude is past the largest `f64`
/// (`1e400`) is refused at its line, so the mesh holds only finite values.
///
/// # Errors
/// [`Error::Mesh`] with
/// - the errors of bounded reading: [`MeshError::Io`],
///   [`MeshError::NotAFile`], [`MeshError::FileTooLarge`],
///   [`MeshError::OutOfMemory`] (see the [module docs](super));
/// - [`MeshError::Parse`] naming the line, its text and what is wrong: a
///   coordinate that is not a number, not finite or out of range (naming the
///   vertex and the coordinate), a `v` without three coordinates, `w = 0`, an
///   index that is not an integer, or the index 0;
/// - [`MeshError::NotTriangles`] for a face with fewer than three vertices;
/// - [`MeshError::IndexOutOfRange`] for a face index outside the vertices
///   declared before it, naming its line;
/// - [`MeshError::TooLarge`] past 2³² vertices.
pub fn read_obj(path: impl AsRef<Path>) -> Result<MeshData, Error> {
    let path = path.as_ref();
    let bytes = read_bounded(path)?;
    Ok(parse(path, &bytes)?)
}

/// The mesh of the OBJ text `bytes`, read from `path` (for messages).
fn parse(path: &Path, bytes: &[u8]) -> Result<MeshData, MeshError> {
    let mut mesh = MeshData::default();
    let mut faces = 0usize;
    let mut polygon: Vec<u32> = Vec::new();
    for (number, text) in (1..).zip(bytes.split(|&b| b == b'\n')) {
        let line = Line { path, number, text };
        let content = text.split(|&b| b == b'#').next().unwrap_or_default();
        let mut words = content
            .split(u8::is_ascii_whitespace)
            .filter(|w| !w.is_empty());
        match words.next() {
            Some(b"v") => {
                let vertex = line.vertex(mesh.vertices.len(), words)?;
                check_vertex_count(path, mesh.vertices.len() + 1)?;
                grow(path, &mut mesh.vertices, "vertices")?;
                mesh.vertices.push(vertex);
            }
            Some(b"f") => {
                line.polygon(faces, mesh.vertices.len(), words, &mut polygon)?;
                for k in 1..polygon.len() - 1 {
                    grow(path, &mut mesh.triangles, "triangles")?;
                    mesh.triangles
                        .push([polygon[0], polygon[k], polygon[k + 1]]);
                }
                faces += 1;
            }
            _ => {}
        }
    }
    Ok(mesh)
}

/// Makes room for one more element of `list`, or [`MeshError::OutOfMemory`] (naming `what`) if the memory
/// cannot be had: the lists of a file near [`super::MAX_MESH_FILE_BYTES`] may need several times its size.
fn grow<T>(path: &Path, list: &mut Vec<T>, what: &'static str) -> Result<(), MeshError> {
    if list.len() < list.capacity() {
        return Ok(());
    }
    let more = list.len().max(1024);
    list.try_reserve(more).map_err(|_| MeshError::OutOfMemory {
        path: path.to_path_buf(),
        what,
        bytes: ((list.len() + more) * size_of::<T>()) as u64,
    })
}

/// One line of the file, for reading its statement and naming it in errors.
struct Line<'a> {
    path: &'a Path,
    /// Its number, from 1.
    number: usize,
    /// Its bytes, without the line break.
    text: &'a [u8],
}

impl Line<'_> {
    /// The `v` statement whose values are `words`: the position of vertex `index` (from 0).
    fn vertex<'w>(
        &self,
        index: usize,
        words: impl Iterator<Item = &'w [u8]>,
    ) -> Result<[f64; 3], MeshError> {
        let mut written: [&[u8]; 6] = [&[]; 6];
        let mut count = 0;
        for word in words {
            if let Some(slot) = written.get_mut(count) {
                *slot = word;
            }
            count += 1;
        }
        let names: &[&str] = match count {
            3 | 4 => &WEIGHTED[..count],
            6 => &COLOURED,
            n => {
                return Err(self.error(format_args!(
                    "vertex {index} has {n} values, but a vertex is x y z, x y z w or x y z r g b"
                )));
            }
        };
        let mut values = [0.0; 6];
        for ((value, word), name) in values.iter_mut().zip(written).zip(names) {
            *value = finite(&String::from_utf8_lossy(word)).map_err(|bad| {
                self.error(format_args!(
                    "vertex {index}: {name} = {} {bad}",
                    Quoted(word)
                ))
            })?;
        }
        let [x, y, z, w, ..] = values;
        if count != 4 {
            return Ok([x, y, z]);
        }
        if w == 0.0 {
            return Err(self.error(format_args!(
                "vertex {index}: w = 0 cannot divide its coordinates"
            )));
        }
        let divided = [x / w, y / w, z / w];
        match divided.iter().position(|c| !c.is_finite()) {
            Some(axis) => Err(self.error(format_args!(
                "vertex {index}: {} / w = {} / {} is past the largest f64",
                WEIGHTED[axis],
                Quoted(written[axis]),
                Quoted(written[3])
            ))),
            None => Ok(divided),
        }
    }

    /// The `f` statement whose vertices are `words`, face `face` (from 0) of the file, `vertices` vertices
    /// declared before it: its vertex indices (from 0) into `polygon`, at least three.
    fn polygon<'w>(
        &self,
        face: usize,
        vertices: usize,
        words: impl Iterator<Item = &'w [u8]>,
        polygon: &mut Vec<u32>,
    ) -> Result<(), MeshError> {
        polygon.clear();
        for word in words {
            let mut parts = word.split(|&b| b == b'/');
            let first = parts.next().unwrap_or_default();
            let index = integer(first).ok_or_else(|| {
                let digits = first.strip_prefix(b"-").unwrap_or(first);
                if !digits.is_empty() && digits.iter().all(u8::is_ascii_digit) {
                    self.error(format_args!(
                        "face {face}: vertex index {} names no vertex: there are {vertices}",
                        Quoted(first)
                    ))
                } else {
                    self.error(format_args!(
                        "face {face}: vertex index {} is not an integer",
                        Quoted(word)
                    ))
                }
            })?;
            if parts.any(|p| !p.is_empty() && integer(p).is_none()) {
                return Err(self.error(format_args!(
                    "face {face}: {} is not v, v/vt, v//vn or v/vt/vn with integer indices",
                    Quoted(word)
                )));
            }
            let resolved = match index {
                0 => {
                    return Err(self.error(format_args!(
                        "face {face}: vertex index 0 names no vertex (indices count from 1, or back from -1)"
                    )));
                }
                i if i > 0 => (i as u64 - 1).try_into().ok(),
                i => vertices.checked_sub(i.unsigned_abs().try_into().unwrap_or(usize::MAX)),
            };
            match resolved.filter(|&r: &usize| r < vertices) {
                // Below `vertices`, which never passes `MAX_VERTICES` = 2³²: a `u32`.
                Some(r) => polygon.push(r as u32),
                None => {
                    return Err(MeshError::IndexOutOfRange {
                        path: self.path.to_path_buf(),
                        line: Some(self.number),
                        face,
                        index,
                        vertices,
                    });
                }
            }
        }
        if polygon.len() < 3 {
            return Err(MeshError::NotTriangles {
                path: self.path.to_path_buf(),
                line: Some(self.number),
                face,
                vertices: polygon.len(),
            });
        }
        Ok(())
    }

    /// A [`MeshError::Parse`] naming this line, then `what`, then the line's text.
    fn error(&self, what: std::fmt::Arguments<'_>) -> MeshError {
        line_error(self.path, FORMAT, self.number, self.text, what)
    }
}

/// `word` as a decimal integer, if it is one that fits in `i64`.
fn integer(word: &[u8]) -> Option<i64> {
    std::str::from_utf8(word).ok()?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// A polygon's vertex, written as one of the four OBJ forms (`form`), counted from 1 or, if `back`,
    /// from the end of the `n` vertices.
    fn index_word(i: usize, n: usize, back: bool, form: u8) -> String {
        let v = if back {
            format!("-{}", n - i)
        } else {
            (i + 1).to_string()
        };
        match form % 4 {
            0 => v,
            1 => format!("{v}/{}", i + 3),
            2 => format!("{v}//-{}", i + 1),
            _ => format!("{v}/7/8"),
        }
    }

    /// Statements that bound no volume, which the reader skips, and spacing it must accept.
    const NOISE: [&str; 7] = [
        "# a comment\n",
        "\n",
        "vn 0 0 1\n",
        "vt 0.5 0.5\n",
        "o part\tone\n",
        "l 1 2\n",
        "g caf\u{e9} \u{ff}\n",
    ];

    proptest! {
        /// Every finite coordinate written out (shortest decimal or scientific), every index written in any
        /// of its forms, counted from either end, reads back exactly: the file's vertices in its order, each
        /// polygon as a fan around its first vertex, whatever comments, skipped statements, tabs and CRLF line
        /// ends surround them.
        #[test]
        fn written_meshes_read_back_exactly(
            bits in proptest::collection::vec(proptest::num::u64::ANY, 3..60),
            polygons in proptest::collection::vec(
                proptest::collection::vec((any::<prop::sample::Index>(), any::<bool>(), any::<u8>()), 3..7),
                1..20,
            ),
            noise in proptest::collection::vec(any::<prop::sample::Index>(), 0..8),
            scientific in any::<bool>(),
            crlf in any::<bool>(),
        ) {
            let coordinates: Vec<f64> = bits.iter().map(|&b| f64::from_bits(b)).filter(|c| c.is_finite()).collect();
            let vertices: Vec<[f64; 3]> = coordinates.chunks_exact(3).map(|c| [c[0], c[1], c[2]]).collect();
            prop_assume!(!vertices.is_empty());
            let n = vertices.len();
            let end = if crlf { "\r\n" } else { "\n" };
            let mut text = String::new();
            for (k, v) in vertices.iter().enumerate() {
                if let Some(i) = noise.get(k) {
                    text.push_str(NOISE[i.index(NOISE.len())]);
                }
                let [x, y, z] = v.map(|c| if scientific { format!("{c:e}") } else { c.to_string() });
                text.push_str(&format!("v {x}\t{y}  {z}{end}"));
            }
            let mut expected = Vec::new();
            for polygon in &polygons {
                let indices: Vec<u32> = polygon.iter().map(|(i, _, _)| i.index(n) as u32).collect();
                let words: Vec<String> = polygon
                    .iter()
                    .map(|(i, back, form)| index_word(i.index(n), n, *back, *form))
                    .collect();
                text.push_str(&format!("f {} # polygon{end}", words.join(" ")));
                expected.extend((1..indices.len() - 1).map(|k| [indices[0], indices[k], indices[k + 1]]));
            }
            let mesh = parse(Path::new("m.obj"), text.as_bytes()).map_err(|e| TestCaseError::fail(e.to_string()))?;
            prop_assert_eq!(
                mesh.vertices.iter().flatten().map(|c| c.to_bits()).collect::<Vec<_>>(),
                vertices.iter().flatten().map(|c| c.to_bits()).collect::<Vec<_>>()
            );
            prop_assert_eq!(mesh.triangles, expected);
        }

        /// Whatever the bytes (drawn from OBJ's own words so that most lines are near-statements), reading
        /// returns: a mesh whose coordinates are finite and whose indices name its vertices, or an error
        /// that names the file on one line.
        #[test]
        fn any_text_reads_to_a_sound_mesh_or_a_one_line_error(
            words in proptest::collection::vec(
                prop::sample::select(vec![
                    "v", "f", "vn", "#", "\n", "\r\n", " ", "/", "//", "0", "1", "2", "-1", "-3", "3",
                    "1e400", "nan", "-inf", "0.5", "x", "\u{e9}", "99999999999999999999", "1e-10", "2e300",
                ]),
                0..200,
            ),
        ) {
            let text = words.join(" ").replace(" \n ", "\n");
            match parse(Path::new("m.obj"), text.as_bytes()) {
                Ok(mesh) => {
                    prop_assert!(mesh.vertices.iter().flatten().all(|c| c.is_finite()));
                    let n = mesh.vertices.len() as u32;
                    prop_assert!(mesh.triangles.iter().flatten().all(|&i| i < n));
                }
                Err(e) => {
                    let message = e.to_string();
                    prop_assert!(message.starts_with("m.obj") && !message.contains('\n'), "{}", message);
                }
            }
        }
    }
}

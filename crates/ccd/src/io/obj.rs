//! Wavefront OBJ through `tobj`.

use std::path::Path;

use super::error::parse_error;
use super::file::read_bounded;
use super::{MeshData, MeshError, check_vertex_count};
use crate::Error;

const FORMAT: &str = "OBJ";

/// Reads a Wavefront OBJ file: vertex positions (`v`) and faces (`f`), every
/// object and group merged into one mesh. Polygons are split into triangle
/// fans around their first vertex (exact for convex polygons). Normals,
/// texture coordinates and materials are ignored (`mtllib` files are not
/// opened).
///
/// Each object keeps only the vertices its faces use, numbered in order of
/// first use: a vertex shared by two objects appears twice and unused
/// vertices are dropped. Coordinates
/// are read as `f64`; a `w` component divides the other three. Polyline
/// (`l`) elements are read as faces, as `tobj` does.
///
/// # Errors
/// [`Error::Mesh`] with
/// - the errors of bounded reading: [`MeshError::Io`],
///   [`MeshError::NotAFile`], [`MeshError::FileTooLarge`],
///   [`MeshError::OutOfMemory`] (see the [module docs](super));
/// - [`MeshError::Parse`] for malformed lines (a `v` with too few numbers, a
///   face with a non-numeric index, invalid UTF-8, …);
/// - [`MeshError::NotTriangles`] for a face (or `l` element) with fewer than
///   three vertices;
/// - [`MeshError::IndexOutOfRange`] for a face index outside the vertices
///   declared before it, naming its line (OBJ indices are resolved while
///   reading);
/// - [`MeshError::TooLarge`] past 2³² vertices.
pub fn read_obj(path: impl AsRef<Path>) -> Result<MeshData, Error> {
    let path = path.as_ref();
    let bytes = read_bounded(path)?;
    let options = tobj::LoadOptions {
        single_index: false,
        triangulate: false,
        ignore_points: false,
        ignore_lines: false,
    };
    // Materials are never needed: answer every `mtllib` with an empty library.
    let (models, _materials) =
        tobj::load_obj_buf(&mut bytes.as_slice(), &options, |_| Ok(Default::default()))
            .map_err(|e| load_error(path, &bytes, e))?;
    Ok(merge(path, models)?)
}

/// Concatenates the models' meshes, splitting polygons into fans.
fn merge(path: &Path, models: Vec<tobj::Model>) -> Result<MeshData, MeshError> {
    let mut out = MeshData::default();
    let mut face = 0usize;
    for model in models {
        let mesh = model.mesh;
        let base = out.vertices.len();
        out.vertices
            .extend(mesh.positions.chunks_exact(3).map(|p| [p[0], p[1], p[2]]));
        check_vertex_count(path, out.vertices.len())?;
        // Every vertex index of the merged mesh is below its vertex count,
        // which fits in `u32` addressing, so these additions cannot overflow.
        let at = |i: u32| (base + i as usize) as u32;
        if mesh.face_arities.is_empty() {
            // All faces are triangles.
            for t in mesh.indices.chunks_exact(3) {
                out.triangles.push([at(t[0]), at(t[1]), at(t[2])]);
            }
            face += mesh.indices.len() / 3;
            continue;
        }
        let mut next = 0usize;
        for &arity in &mesh.face_arities {
            let n = arity as usize;
            let polygon = &mesh.indices[next..next + n];
            next += n;
            if n < 3 {
                return Err(MeshError::NotTriangles {
                    path: path.to_path_buf(),
                    face,
                    vertices: n,
                });
            }
            for k in 1..n - 1 {
                out.triangles
                    .push([at(polygon[0]), at(polygon[k]), at(polygon[k + 1])]);
            }
            face += 1;
        }
    }
    Ok(out)
}

/// Translates a `tobj` error, which names no line, into one that names the
/// offending line of the file's `bytes` and its text (or, for an index out of
/// range, the index) where it can be found.
fn load_error(path: &Path, bytes: &[u8], e: tobj::LoadError) -> MeshError {
    use tobj::LoadError as L;
    let keywords: &[&str] = match e {
        L::FaceVertexOutOfBounds => {
            return find_bad_index(path, bytes).unwrap_or_else(|| parse_error(path, FORMAT, e));
        }
        L::ReadError => {
            return match bytes
                .split(|&b| b == b'\n')
                .position(|line| std::str::from_utf8(line).is_err())
            {
                Some(i) => {
                    parse_error(path, FORMAT, format_args!("line {}: not UTF-8 text", i + 1))
                }
                None => parse_error(path, FORMAT, "read error"),
            };
        }
        L::PositionParseError | L::ScalingByZeroError | L::ColorParseError => &["v"],
        L::TexcoordParseError => &["vt"],
        L::NormalParseError => &["vn"],
        L::FaceParseError => &["f", "l"],
        other => return parse_error(path, FORMAT, other),
    };
    match find_bad_line(bytes, keywords) {
        Some((number, line)) => {
            parse_error(path, FORMAT, format_args!("line {number}: {e}: `{line}`"))
        }
        None => parse_error(path, FORMAT, e),
    }
}

/// The longest line text quoted in an error message, in characters.
const QUOTE_CHARS: usize = 60;

/// The first line starting with one of `keywords` that `tobj` rejects, with
/// its number (from 1) and its text (cut to [`QUOTE_CHARS`]): a `v` needs
/// three numbers, then nothing, a non-zero `w` or three colour values; a
/// `vt` two numbers and a `vn` three; every index of an `f` or `l` element
/// must be an integer (whether it names a vertex is [`find_bad_index`]'s
/// question).
fn find_bad_line(bytes: &[u8], keywords: &[&str]) -> Option<(usize, String)> {
    let text = String::from_utf8_lossy(bytes);
    let number = |w: &&str| w.parse::<f64>().is_ok();
    let numbers = |values: &[&str], n: usize| values.len() >= n && values[..n].iter().all(number);
    for (index, line) in (1..).zip(text.lines()) {
        let mut words = line.split_whitespace();
        let Some(keyword) = words.next().filter(|k| keywords.contains(k)) else {
            continue;
        };
        let values: Vec<&str> = words.collect();
        let good = match keyword {
            "v" => {
                numbers(&values, 3)
                    && match values.len() {
                        3 | 6 => true,
                        4 => values[3].parse::<f64>().is_ok_and(|w| w != 0.0),
                        _ => false,
                    }
            }
            "vt" => numbers(&values, 2),
            "vn" => numbers(&values, 3),
            _ => values
                .iter()
                .flat_map(|w| w.split('/'))
                .all(|c| c.is_empty() || c.parse::<i64>().is_ok()),
        };
        if !good {
            return Some((index, line.trim().chars().take(QUOTE_CHARS).collect()));
        }
    }
    None
}

/// Finds the first face index that refers to no vertex declared before the
/// face, for an error message that names it. `tobj` only reports that one
/// exists; this re-scans the file on that error path alone.
fn find_bad_index(path: &Path, bytes: &[u8]) -> Option<MeshError> {
    let text = String::from_utf8_lossy(bytes);
    let (mut vertices, mut face) = (0usize, 0usize);
    for (number, line) in (1..).zip(text.lines()) {
        let mut words = line.split_whitespace();
        match words.next() {
            Some("v") => vertices += 1,
            Some("f" | "l") => {
                for word in words {
                    let index: i64 = word.split('/').next()?.parse().ok()?;
                    let valid = match index {
                        i if i > 0 => i as u64 <= vertices as u64,
                        i if i < 0 => i.unsigned_abs() <= vertices as u64,
                        _ => false,
                    };
                    if !valid {
                        return Some(MeshError::IndexOutOfRange {
                            path: path.to_path_buf(),
                            line: Some(number),
                            face,
                            index,
                            vertices,
                        });
                    }
                }
                face += 1;
            }
            _ => {}
        }
    }
    None
}

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

/// Translates a `tobj` error, locating an out-of-range index in the file's
/// `bytes`.
fn load_error(path: &Path, bytes: &[u8], e: tobj::LoadError) -> MeshError {
    match e {
        tobj::LoadError::FaceVertexOutOfBounds => {
            find_bad_index(path, bytes).unwrap_or_else(|| parse_error(path, FORMAT, e))
        }
        tobj::LoadError::ReadError => parse_error(
            path,
            FORMAT,
            "read error (the file could not be read or is not UTF-8 text)",
        ),
        other => parse_error(path, FORMAT, other),
    }
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

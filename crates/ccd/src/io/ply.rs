//! Stanford PLY (ASCII and binary) through `ply-rs-bw`.

use std::fs::File;
use std::io::{BufRead, BufReader};
use std::path::Path;

use ply_rs_bw::parser::{Parser, Reader};
use ply_rs_bw::ply::{
    ElementDef, Property, PropertyAccess, PropertyAccessResult, PropertyType, ScalarType,
};

use super::{MeshData, MeshError, check_vertex_count, io_error, parse_error};
use crate::Error;

const FORMAT: &str = "PLY";

/// Names of the face property holding the vertex indices, in order of
/// preference.
const INDEX_LISTS: [&str; 2] = ["vertex_indices", "vertex_index"];

/// Reads a PLY file (ASCII, binary little- or big-endian): the `x`, `y`, `z`
/// properties of the `vertex` element (any numeric type, usually `float` or
/// `double`) and the `vertex_indices` (or `vertex_index`) integer list of the
/// `face` element. Faces are split into triangle fans around their first
/// vertex (exact for convex polygons). Other properties and elements are
/// skipped; a file without a `face` element has no triangles.
///
/// # Errors
/// [`Error::Mesh`] with
/// - [`MeshError::Io`] if the file cannot be opened;
/// - [`MeshError::Parse`] for a malformed header or payload (including a
///   truncated binary file), a missing `vertex` element or `x`/`y`/`z`
///   property, or a `face` element without an integer index list;
/// - [`MeshError::NotTriangles`] for a face with fewer than three vertices;
/// - [`MeshError::IndexOutOfRange`] for a negative index or one past
///   `u32::MAX` (other out-of-range indices are left to the builder);
/// - [`MeshError::TooLarge`] past 2³² vertices.
pub fn read_ply(path: impl AsRef<Path>) -> Result<MeshData, Error> {
    let path = path.as_ref();
    let file = File::open(path).map_err(|e| io_error(path, e))?;
    let mut buffered = BufReader::new(file);
    let head = buffered.fill_buf().map_err(|e| io_error(path, e))?;
    if !(head.starts_with(b"ply") && matches!(head.get(3), Some(b'\n' | b'\r'))) {
        return Err(parse_error(
            path,
            FORMAT,
            "not a PLY file: it does not start with a `ply` line",
        )
        .into());
    }
    let mut reader = Reader::new(buffered);
    let parse = |e| parse_error(path, FORMAT, e);

    let header = Parser::<Vertex>::new()
        .read_header(&mut reader)
        .map_err(parse)?;
    let vertex_def = header
        .elements
        .get("vertex")
        .ok_or_else(|| parse_error(path, FORMAT, "no `vertex` element"))?;
    for axis in ["x", "y", "z"] {
        match vertex_def.properties.get(axis).map(|p| &p.data_type) {
            Some(PropertyType::Scalar(_)) => {}
            _ => {
                return Err(parse_error(
                    path,
                    FORMAT,
                    format_args!("the `vertex` element has no numeric `{axis}` property"),
                )
                .into());
            }
        }
    }

    // Elements must be read in file order, skipping the ones not needed;
    // those after the last needed one are not read at all.
    let mut out = MeshData::default();
    let mut faces: Vec<Vec<i64>> = Vec::new();
    let mut needed = 1 + usize::from(header.elements.contains_key("face"));
    for element in header.elements.values() {
        if needed == 0 {
            break;
        }
        match element.name.as_str() {
            "vertex" => {
                let vertices: Vec<Vertex> = Parser::new()
                    .read_payload_for_element(&mut reader, element, &header)
                    .map_err(parse)?;
                out.vertices = vertices.into_iter().map(|v| v.0).collect();
                needed -= 1;
            }
            "face" => {
                let list = index_list_name(element).map_err(|m| parse_error(path, FORMAT, m))?;
                let read: Vec<Face> = Parser::new()
                    .read_payload_for_element(&mut reader, element, &header)
                    .map_err(parse)?;
                let slot = usize::from(list != INDEX_LISTS[0]);
                faces = read
                    .into_iter()
                    .map(|mut f| std::mem::take(&mut f.0[slot]))
                    .collect();
                needed -= 1;
            }
            _ => {
                Parser::<Skip>::new()
                    .read_payload_for_element(&mut reader, element, &header)
                    .map_err(parse)?;
            }
        }
    }
    check_vertex_count(path, out.vertices.len())?;

    for (face, polygon) in faces.iter().enumerate() {
        let n = polygon.len();
        if n < 3 {
            return Err(MeshError::NotTriangles {
                path: path.to_path_buf(),
                face,
                vertices: n,
            }
            .into());
        }
        let index = |i: i64| {
            u32::try_from(i).map_err(|_| MeshError::IndexOutOfRange {
                path: path.to_path_buf(),
                face,
                index: i,
                vertices: out.vertices.len(),
            })
        };
        let first = index(polygon[0])?;
        for k in 1..n - 1 {
            let triangle = [first, index(polygon[k])?, index(polygon[k + 1])?];
            out.triangles.push(triangle);
        }
    }
    Ok(out)
}

/// The name of the face element's integer index list.
fn index_list_name(face: &ElementDef) -> Result<&'static str, String> {
    for name in INDEX_LISTS {
        match face.properties.get(name).map(|p| &p.data_type) {
            Some(PropertyType::List(_, ScalarType::Float | ScalarType::Double)) => {
                return Err(format!(
                    "the `face` property `{name}` is not an integer list"
                ));
            }
            Some(PropertyType::List(_, _)) => return Ok(name),
            Some(PropertyType::Scalar(_)) => {
                return Err(format!("the `face` property `{name}` is not a list"));
            }
            None => {}
        }
    }
    Err("the `face` element has no `vertex_indices` (or `vertex_index`) list".to_string())
}

/// One `vertex` element: its position.
struct Vertex([f64; 3]);

impl PropertyAccess for Vertex {
    fn new() -> Self {
        Vertex([0.0; 3])
    }

    fn set_property(&mut self, name: &str, property: Property) -> PropertyAccessResult {
        let axis = match name {
            "x" => 0,
            "y" => 1,
            "z" => 2,
            _ => return PropertyAccessResult::Ignored,
        };
        let value = match property {
            Property::Char(v) => f64::from(v),
            Property::UChar(v) => f64::from(v),
            Property::Short(v) => f64::from(v),
            Property::UShort(v) => f64::from(v),
            Property::Int(v) => f64::from(v),
            Property::UInt(v) => f64::from(v),
            Property::Float(v) => f64::from(v),
            Property::Double(v) => v,
            _ => return PropertyAccessResult::UnsupportedType,
        };
        self.0[axis] = value;
        PropertyAccessResult::Set
    }
}

/// One `face` element: its vertex indices as written, under each name of
/// [`INDEX_LISTS`] (a file may have both; only one is used).
struct Face([Vec<i64>; 2]);

impl PropertyAccess for Face {
    fn new() -> Self {
        Face([Vec::new(), Vec::new()])
    }

    fn set_property(&mut self, name: &str, property: Property) -> PropertyAccessResult {
        let Some(slot) = INDEX_LISTS.iter().position(|&n| n == name) else {
            return PropertyAccessResult::Ignored;
        };
        fn widen<I: Into<i64>>(v: Vec<I>) -> Vec<i64> {
            v.into_iter().map(Into::into).collect()
        }
        self.0[slot] = match property {
            Property::ListChar(v) => widen(v),
            Property::ListUChar(v) => widen(v),
            Property::ListShort(v) => widen(v),
            Property::ListUShort(v) => widen(v),
            Property::ListInt(v) => widen(v),
            Property::ListUInt(v) => widen(v),
            _ => return PropertyAccessResult::UnsupportedType,
        };
        PropertyAccessResult::Set
    }
}

/// Any element not needed: every property ignored.
struct Skip;

impl PropertyAccess for Skip {
    fn new() -> Self {
        Skip
    }
}

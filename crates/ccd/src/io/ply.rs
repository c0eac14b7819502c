//! Stanford PLY (ASCII and binary) through `ply-rs-bw`.

use std::path::Path;

use ply_rs_bw::parser::{Parser, Reader};
use ply_rs_bw::ply::{
    ElementDef, Encoding, Header, Property, PropertyAccess, PropertyAccessResult, PropertyType,
    ScalarType,
};

use super::error::{Quoted, line_error, parse_error};
use super::file::read_bounded;
use super::{MeshData, MeshError, check_vertex_count};
use crate::Error;
use crate::number::{finite, finite_f32};

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
/// - the errors of bounded reading: [`MeshError::Io`],
///   [`MeshError::NotAFile`], [`MeshError::FileTooLarge`],
///   [`MeshError::OutOfMemory`] (see the [module docs](super));
/// - [`MeshError::PlyCountTooLarge`] for an element count the rest of the
///   file cannot hold (checked before any element is read);
/// - [`MeshError::Parse`] for a malformed header or payload (including a
///   truncated binary file), a missing `vertex` element or `x`/`y`/`z`
///   property, or a `face` element without an integer index list; in an
///   ASCII file, a coordinate that is not a finite number of its type (such
///   as `nan`, or `1e39` for a `float`) is named with its line, vertex and
///   text (a binary file's non-finite values are the builder's to refuse);
/// - [`MeshError::NotTriangles`] for a face with fewer than three vertices;
/// - [`MeshError::IndexOutOfRange`] for a negative index or one past
///   `u32::MAX` (other out-of-range indices are left to the builder);
/// - [`MeshError::TooLarge`] past 2³² vertices.
pub fn read_ply(path: impl AsRef<Path>) -> Result<MeshData, Error> {
    let path = path.as_ref();
    let bytes = read_bounded(path)?;
    if !(bytes.starts_with(b"ply") && matches!(bytes.get(3), Some(b'\n' | b'\r'))) {
        return Err(parse_error(
            path,
            FORMAT,
            "not a PLY file: it does not start with a `ply` line",
        )
        .into());
    }
    let mut reader = Reader::new(bytes.as_slice());
    let parse = |e| parse_error(path, FORMAT, e);

    let header = Parser::<Vertex>::new()
        .read_header(&mut reader)
        .map_err(parse)?;
    check_counts(path, &header, reader.get_ref().len() as u64)?;
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
                let vertices: Result<Vec<Vertex>, _> =
                    Parser::new().read_payload_for_element(&mut reader, element, &header);
                let named = || ascii_vertex_error(path, &bytes, &header);
                out.vertices = match vertices {
                    Ok(v) => v.into_iter().map(|v| v.0).collect(),
                    Err(e) => return Err(named().unwrap_or_else(|| parse(e)).into()),
                };
                if out.vertices.iter().flatten().any(|c| !c.is_finite())
                    && let Some(e) = named()
                {
                    return Err(e.into());
                }
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
                line: None,
                face,
                vertices: n,
            }
            .into());
        }
        let index = |i: i64| {
            u32::try_from(i).map_err(|_| MeshError::IndexOutOfRange {
                path: path.to_path_buf(),
                line: None,
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

/// For an ASCII file, the first `x`, `y` or `z` of a `vertex` row that is not a finite number of its
/// property's type (`float`: `f32`, `double`: `f64`), as an error naming its line, vertex (from 0), property
/// and text; `None` for a binary file, or if every coordinate is one.
///
/// Rows are lines, one element each, after the `end_header` line, in the header's order of elements.
fn ascii_vertex_error(path: &Path, bytes: &[u8], header: &Header) -> Option<MeshError> {
    if header.encoding != Encoding::Ascii {
        return None;
    }
    let mut lines = (1..).zip(bytes.split(|&b| b == b'\n'));
    lines.find(|(_, text)| text.trim_ascii() == b"end_header")?;
    for element in header.elements.values() {
        if element.name == "vertex" {
            break;
        }
        // Counts are bounded by the file's length (`check_counts`).
        for _ in 0..element.count {
            lines.next()?;
        }
    }
    let vertex = header.elements.get("vertex")?;
    for (i, (number, text)) in lines.take(vertex.count).enumerate() {
        let mut words = text
            .split(u8::is_ascii_whitespace)
            .filter(|w| !w.is_empty());
        for (name, property) in &vertex.properties {
            match &property.data_type {
                PropertyType::Scalar(scalar) => {
                    let word = words.next()?;
                    if !["x", "y", "z"].contains(&name.as_str()) {
                        continue;
                    }
                    let written = String::from_utf8_lossy(word);
                    let bad = match scalar {
                        ScalarType::Float => finite_f32(&written).err(),
                        ScalarType::Double => finite(&written).err(),
                        _ => None,
                    };
                    if let Some(bad) = bad {
                        let what = format_args!("vertex {i}: {name} = {} {bad}", Quoted(word));
                        return Some(line_error(path, FORMAT, number, text, what));
                    }
                }
                PropertyType::List(..) => {
                    let n: usize = std::str::from_utf8(words.next()?).ok()?.parse().ok()?;
                    for _ in 0..n {
                        words.next()?;
                    }
                }
            }
        }
    }
    None
}

/// Fails with [`MeshError::PlyCountTooLarge`] if the elements the header
/// declares cannot fit in the `available` bytes after it, so that no count
/// from the header drives an allocation or a loop past what the file holds.
fn check_counts(path: &Path, header: &Header, available: u64) -> Result<(), MeshError> {
    let mut needs = 0u64;
    for element in header.elements.values() {
        let count = element.count as u64;
        let row = smallest_row(element, &header.encoding).max(1);
        needs = needs.saturating_add(count.saturating_mul(row));
        if needs > available {
            return Err(MeshError::PlyCountTooLarge {
                path: path.to_path_buf(),
                element: element.name.clone(),
                count,
                needs,
                available,
            });
        }
    }
    Ok(())
}

/// The fewest bytes one `element` can take in the payload: in ASCII one
/// character per property (lists: their count), in binary the size of each
/// scalar property and of each list's count (an empty list).
fn smallest_row(element: &ElementDef, encoding: &Encoding) -> u64 {
    let properties = element.properties.values();
    match encoding {
        Encoding::Ascii => properties.len() as u64,
        Encoding::BinaryBigEndian | Encoding::BinaryLittleEndian => properties
            .map(|p| match &p.data_type {
                PropertyType::Scalar(t) | PropertyType::List(t, _) => scalar_size(t),
            })
            .sum(),
    }
}

/// The size of a binary PLY scalar.
fn scalar_size(t: &ScalarType) -> u64 {
    match t {
        ScalarType::Char | ScalarType::UChar => 1,
        ScalarType::Short | ScalarType::UShort => 2,
        ScalarType::Int | ScalarType::UInt | ScalarType::Float => 4,
        ScalarType::Double => 8,
    }
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

//! Stanford PLY: the header and binary payloads through `ply-rs-bw`, ASCII payloads by `ply_ascii`.

use std::path::Path;

use ply_rs_bw::parser::{Parser, Reader};
use ply_rs_bw::ply::{
    ElementDef, Encoding, Header, Property, PropertyAccess, PropertyAccessResult, PropertyType,
    ScalarType,
};

use super::error::parse_error;
use super::file::read_bounded;
use super::ply_ascii::read_payload;
use super::{MeshData, MeshError, check_vertex_count};
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

    let list = match header.elements.get("face") {
        Some(face) => Some(index_list_name(face).map_err(|m| parse_error(path, FORMAT, m))?),
        None => None,
    };
    let mut out = MeshData::default();
    // The line of each face, where the file is text.
    let mut lines = Vec::new();
    let faces = if header.encoding == Encoding::Ascii {
        let payload = reader.get_ref();
        let start = bytes.len() - payload.len();
        let first_line = 1 + bytes[..start].iter().filter(|&&b| b == b'\n').count();
        let read = read_payload(path, payload, first_line, &header, list)?;
        out.vertices = read.vertices;
        lines = read.face_lines;
        read.faces
    } else {
        read_with_ply_rs(path, &mut reader, &header, list, &mut out.vertices)?
    };
    check_vertex_count(path, out.vertices.len())?;

    for (face, polygon) in faces.iter().enumerate() {
        let line = lines.get(face).copied();
        let n = polygon.len();
        if n < 3 {
            return Err(MeshError::NotTriangles {
                path: path.to_path_buf(),
                line,
                face,
                vertices: n,
            }
            .into());
        }
        let index = |i: i64| {
            u32::try_from(i).map_err(|_| MeshError::IndexOutOfRange {
                path: path.to_path_buf(),
                line,
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

/// Reads the payload with `ply-rs-bw` (used for binary files; ASCII ones are read by [`read_payload`], which
/// checks every word): the `vertex` positions into `vertices`, and each `face`'s `list` (its index list) as
/// written.
fn read_with_ply_rs(
    path: &Path,
    reader: &mut Reader<&[u8]>,
    header: &Header,
    list: Option<&str>,
    vertices: &mut Vec<[f64; 3]>,
) -> Result<Vec<Vec<i64>>, MeshError> {
    let parse = |e| parse_error(path, FORMAT, e);
    // Elements must be read in file order, skipping the ones not needed;
    // those after the last needed one are not read at all.
    let mut faces: Vec<Vec<i64>> = Vec::new();
    let mut needed = 1 + usize::from(list.is_some());
    for element in header.elements.values() {
        if needed == 0 {
            break;
        }
        match element.name.as_str() {
            "vertex" => {
                let read: Vec<Vertex> = Parser::new()
                    .read_payload_for_element(reader, element, header)
                    .map_err(parse)?;
                *vertices = read.into_iter().map(|v| v.0).collect();
                needed -= 1;
            }
            "face" => {
                let read: Vec<Face> = Parser::new()
                    .read_payload_for_element(reader, element, header)
                    .map_err(parse)?;
                let slot = usize::from(list != Some(INDEX_LISTS[0]));
                faces = read
                    .into_iter()
                    .map(|mut f| std::mem::take(&mut f.0[slot]))
                    .collect();
                needed -= 1;
            }
            _ => {
                Parser::<Skip>::new()
                    .read_payload_for_element(reader, element, header)
                    .map_err(parse)?;
            }
        }
    }
    Ok(faces)
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

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// A scalar type's PLY name and a word of it drawn from `seed`.
    fn scalar(kind: u8, seed: u64) -> (&'static str, String) {
        match kind % 4 {
            0 => ("uchar", (seed % 256).to_string()),
            1 => ("int", (seed as i32).to_string()),
            2 => (
                "float",
                f32::from_bits(seed as u32 & 0x7f7f_ffff).to_string(),
            ),
            _ => (
                "double",
                format!("{:e}", f64::from_bits(seed & 0x7fef_ffff_ffff_ffff)),
            ),
        }
    }

    proptest! {
        /// Every well-formed ASCII file (coordinates of any type among other scalar and list properties, other
        /// elements before and after, `vertex_index` or `vertex_indices`) reads as `ply-rs-bw` reads it:
        /// the same positions, bit for bit, and the same index lists.
        #[test]
        fn ascii_rows_read_as_ply_rs_reads_them(
            coordinate in 0u8..4,
            extra in proptest::collection::vec((any::<u8>(), any::<bool>()), 0..4),
            seeds in proptest::collection::vec(any::<u64>(), 1..30),
            faces in proptest::collection::vec(proptest::collection::vec(any::<u8>(), 0..6), 0..10),
            before in any::<bool>(),
            short_name in any::<bool>(),
        ) {
            let kinds = ["uchar", "int", "float", "double"];
            let mut head = String::from("ply\nformat ascii 1.0\ncomment generated\n");
            let mut body = String::new();
            if before {
                head.push_str("element material 2\nproperty list uchar int ids\nproperty float shine\n");
                body.push_str("2 -7 8 0.5\n0 1e-3\n");
            }
            head.push_str(&format!("element vertex {}\n", seeds.len()));
            let axes = ["x", "y", "z"];
            let names: Vec<String> = (0..3 + extra.len()).map(|k| axes.get(k).map_or(format!("p{k}"), |a| a.to_string())).collect();
            // The coordinates in the middle of the extra properties, in their declared order.
            let mut order: Vec<usize> = (0..names.len()).collect();
            order.rotate_left(extra.len() / 2);
            for &k in &order {
                match k.checked_sub(3).map(|e| extra[e]) {
                    None => head.push_str(&format!("property {} {}\n", kinds[coordinate as usize], names[k])),
                    Some((kind, true)) => head.push_str(&format!("property list uchar {} {}\n", kinds[kind as usize % 4], names[k])),
                    Some((kind, false)) => head.push_str(&format!("property {} {}\n", kinds[kind as usize % 4], names[k])),
                }
            }
            for (i, &seed) in seeds.iter().enumerate() {
                let words: Vec<String> = order.iter().map(|&k| {
                    let s = seed.rotate_left(k as u32 * 7) ^ i as u64;
                    match k.checked_sub(3).map(|e| extra[e]) {
                        None => scalar(coordinate, s).1,
                        Some((kind, true)) => format!("2 {} {}", scalar(kind, s).1, scalar(kind, !s).1),
                        Some((kind, false)) => scalar(kind, s).1,
                    }
                }).collect();
                body.push_str(&words.join(" "));
                body.push('\n');
            }
            let list = if short_name { "vertex_index" } else { "vertex_indices" };
            head.push_str(&format!("element face {}\nproperty uchar flags\nproperty list uchar int {list}\n", faces.len()));
            for face in &faces {
                let items: Vec<String> = face.iter().map(|&v| (i32::from(v) - 3).to_string()).collect();
                body.push_str(&format!("1 {} {}\n", face.len(), items.join(" ")));
            }
            head.push_str("element edge 1\nproperty int a\nend_header\n");
            body.push_str("4\n");
            let bytes = (head + &body).into_bytes();
            let mut reader = Reader::new(bytes.as_slice());
            let header = Parser::<Vertex>::new().read_header(&mut reader).unwrap();
            let payload = reader.get_ref();
            let path = Path::new("m.ply");
            let ours = read_payload(path, payload, 1, &header, Some(list)).map_err(|e| TestCaseError::fail(e.to_string()))?;
            let mut vertices = Vec::new();
            let theirs = read_with_ply_rs(path, &mut reader, &header, Some(list), &mut vertices).map_err(|e| TestCaseError::fail(e.to_string()))?;
            prop_assert_eq!(
                ours.vertices.iter().flatten().map(|c| c.to_bits()).collect::<Vec<_>>(),
                vertices.iter().flatten().map(|c| c.to_bits()).collect::<Vec<_>>()
            );
            prop_assert_eq!(ours.faces, theirs);
        }
    }
}

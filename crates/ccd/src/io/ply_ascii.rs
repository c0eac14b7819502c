//! The payload of an ASCII PLY file, read row by row and word by word: every word checked against its
//! property's type, every row holding exactly its element's properties.

use std::path::Path;

use ply_rs_bw::ply::{ElementDef, Header, PropertyType, ScalarType};

use super::MeshError;
use super::error::{Quoted, line_error};
use crate::number::{finite, finite_f32};

const FORMAT: &str = "PLY";

/// What an ASCII payload holds for the mesh: the `vertex` positions, each `face`'s index list as written and
/// the line it was written on.
#[derive(Default)]
pub(super) struct Payload {
    pub(super) vertices: Vec<[f64; 3]>,
    pub(super) faces: Vec<Vec<i64>>,
    pub(super) face_lines: Vec<usize>,
}

/// Reads the ASCII `payload` (the bytes after the header, whose first line is line `first_line` of the
/// file) of the elements `header` declares: one row per line, in the header's order, each word a number of
/// its property's type (integers within their type's range, `float` and `double` values finite numbers of
/// that precision), each list as long as its count says, no word left over. Keeps the `x`, `y` and `z` of
/// every `vertex` and the list `index_list` of every `face`. Lines after the last element are not read.
///
/// # Errors
/// [`MeshError::Parse`] naming the line, the element and its index (from 0), the property, the word and
/// what is wrong with it, and the line's text; [`MeshError::OutOfMemory`] if the rows cannot be stored.
pub(super) fn read_payload(
    path: &Path,
    payload: &[u8],
    first_line: usize,
    header: &Header,
    index_list: Option<&str>,
) -> Result<Payload, MeshError> {
    let mut out = Payload::default();
    let mut lines = (first_line..).zip(payload.split(|&b| b == b'\n'));
    let mut last = first_line - 1;
    for element in header.elements.values() {
        let kind = match element.name.as_str() {
            "vertex" => Kind::Vertex,
            "face" => Kind::Face(index_list),
            _ => Kind::Other,
        };
        reserve(path, &mut out, kind, element.count)?;
        // The count is bounded by the file's length (checked against the payload before this is called).
        for i in 0..element.count {
            // Past the last line, an empty row after it (which ends before its first property).
            let (number, text) = lines.next().unwrap_or((last + 1, &[]));
            last = number;
            let row = Row {
                path,
                number,
                text,
                element,
                index: i,
            };
            row.read(kind, &mut out)?;
        }
    }
    Ok(out)
}

/// What is kept of an element's rows.
#[derive(Clone, Copy)]
enum Kind<'a> {
    /// `x`, `y`, `z`.
    Vertex,
    /// The index list of this name, if the element has one.
    Face(Option<&'a str>),
    /// Nothing.
    Other,
}

/// Makes room for `count` rows of an element of `kind`.
fn reserve(path: &Path, out: &mut Payload, kind: Kind<'_>, count: usize) -> Result<(), MeshError> {
    let (reserved, bytes) = match kind {
        Kind::Vertex => (
            out.vertices.try_reserve_exact(count),
            count * size_of::<[f64; 3]>(),
        ),
        Kind::Face(_) => (
            out.faces
                .try_reserve_exact(count)
                .and_then(|()| out.face_lines.try_reserve_exact(count)),
            count * (size_of::<Vec<i64>>() + size_of::<usize>()),
        ),
        Kind::Other => return Ok(()),
    };
    reserved.map_err(|_| MeshError::OutOfMemory {
        path: path.to_path_buf(),
        what: "PLY elements",
        bytes: bytes as u64,
    })
}

/// One row of the payload: element `index` of `element`, on line `number`.
struct Row<'a> {
    path: &'a Path,
    number: usize,
    text: &'a [u8],
    element: &'a ElementDef,
    index: usize,
}

impl Row<'_> {
    /// Checks every word of the row and keeps what `kind` asks for in `out`.
    fn read(&self, kind: Kind<'_>, out: &mut Payload) -> Result<(), MeshError> {
        let mut words = self
            .text
            .split(u8::is_ascii_whitespace)
            .filter(|w| !w.is_empty());
        let mut position = [0.0; 3];
        let mut list = Vec::new();
        for (name, property) in &self.element.properties {
            let mut next = || {
                words.next().ok_or_else(|| {
                    self.error(format_args!("the row ends before its property `{name}`"))
                })
            };
            match &property.data_type {
                PropertyType::Scalar(scalar) => {
                    let word = next()?;
                    let value = self.number(name, scalar, word)?;
                    if let (Kind::Vertex, Some(axis)) =
                        (kind, ["x", "y", "z"].iter().position(|a| a == name))
                    {
                        position[axis] = value;
                    }
                }
                PropertyType::List(count, item) => {
                    let word = next()?;
                    let n = self.number(name, count, word)?;
                    if n < 0.0 {
                        return Err(self.error(format_args!(
                            "{name} has {} items, a negative count",
                            Quoted(word)
                        )));
                    }
                    let keep = matches!(kind, Kind::Face(Some(keep)) if keep == name);
                    // An integer count of at most `u32::MAX` (the largest count type).
                    for _ in 0..n as u64 {
                        let word = next()?;
                        let value = self.number(name, item, word)?;
                        if keep {
                            // Integer item types only (the face reader checks): exact in `f64`.
                            list.push(value as i64);
                        }
                    }
                }
            }
        }
        if let Some(word) = words.next() {
            return Err(self.error(format_args!("{} follows the last property", Quoted(word))));
        }
        match kind {
            Kind::Vertex => out.vertices.push(position),
            Kind::Face(_) => {
                out.faces.push(list);
                out.face_lines.push(self.number);
            }
            Kind::Other => {}
        }
        Ok(())
    }

    /// `word`, the value of property `name` of type `scalar`, as an `f64` (exact for every integer type and
    /// for `float`), or the error that says why it is not one.
    fn number(&self, name: &str, scalar: &ScalarType, word: &[u8]) -> Result<f64, MeshError> {
        let written = String::from_utf8_lossy(word);
        let refused = |reason: &dyn std::fmt::Display| {
            self.error(format_args!("{name} = {} {reason}", Quoted(word)))
        };
        let (min, max) = match scalar {
            ScalarType::Float => {
                return finite_f32(&written).map(f64::from).map_err(|b| refused(&b));
            }
            ScalarType::Double => return finite(&written).map_err(|b| refused(&b)),
            ScalarType::Char => (i64::from(i8::MIN), i64::from(i8::MAX)),
            ScalarType::UChar => (0, i64::from(u8::MAX)),
            ScalarType::Short => (i64::from(i16::MIN), i64::from(i16::MAX)),
            ScalarType::UShort => (0, i64::from(u16::MAX)),
            ScalarType::Int => (i64::from(i32::MIN), i64::from(i32::MAX)),
            ScalarType::UInt => (0, i64::from(u32::MAX)),
        };
        let out_of_range = || {
            refused(&format_args!(
                "is out of range for its type: it must lie in [{min}, {max}]"
            ))
        };
        // An integer word is parsed once; the `f64` reading only tells why another word is refused.
        match written.parse::<i64>() {
            Ok(v) if (min..=max).contains(&v) => Ok(v as f64),
            Ok(_) => Err(out_of_range()),
            Err(_) => match finite(&written) {
                Ok(v) if v.fract() == 0.0 && !written.contains(['.', 'e', 'E']) => {
                    Err(out_of_range())
                }
                Ok(_) => Err(refused(&"is not an integer, which its type needs")),
                Err(bad) => Err(refused(&bad)),
            },
        }
    }

    /// A [`MeshError::Parse`] naming this row's line, element and index, then `what`.
    fn error(&self, what: std::fmt::Arguments<'_>) -> MeshError {
        let what = format_args!("{} {}: {what}", self.element.name, self.index);
        line_error(self.path, FORMAT, self.number, self.text, what)
    }
}

//! The statements of an ASCII STL file, read line by line: every solid, every facet, every coordinate.

use std::path::Path;

use super::MeshError;
use super::error::{Quoted, line_error, parse_error};
use crate::number::finite_f32;

const FORMAT: &str = "STL";

/// What the reader expects next.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Expect {
    /// `solid`, or the end of the file once a solid has ended.
    Solid,
    /// `facet normal`, or `endsolid`.
    Facet,
    /// `outer loop`.
    Loop,
    /// The facet's vertex `k` (from 0).
    Vertex(usize),
    /// `endloop`.
    EndLoop,
    /// `endfacet`.
    EndFacet,
}

/// Where a statement's three numbers belong, for messages (formatted only on the error path).
#[derive(Clone, Copy)]
enum Place {
    /// The normal of facet `.0` (from 0).
    Normal(usize),
    /// Vertex `.1` of facet `.0` (both from 0).
    Vertex(usize, usize),
}

impl std::fmt::Display for Place {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Place::Normal(facet) => write!(f, "facet {facet}, normal"),
            Place::Vertex(facet, k) => write!(f, "facet {facet}, vertex {k}"),
        }
    }
}

impl Expect {
    /// What is expected, in words.
    fn words(self) -> &'static str {
        match self {
            Expect::Solid => "`solid` or the end of the file",
            Expect::Facet => "`facet normal` or `endsolid`",
            Expect::Loop => "`outer loop`",
            Expect::Vertex(_) => "`vertex`",
            Expect::EndLoop => "`endloop`",
            Expect::EndFacet => "`endfacet`",
        }
    }
}

/// Reads the ASCII STL `bytes` (from `path`, for messages): every `solid … endsolid` block in turn (files
/// that concatenate several solids are read whole), each facet's three vertices passed to `triangle` in
/// order. Keywords match in any case; blank lines are skipped; a solid's name is free text. Every facet is
/// `facet normal nx ny nz`, `outer loop`, three `vertex x y z`, `endloop`, `endfacet`, one statement per
/// line, and every number a finite `f32` (the normal is checked and ignored).
///
/// # Errors
/// [`MeshError::Parse`] naming the line, what was expected there and the line's text, or for a coordinate
/// that is not a finite `f32` (`nan`, `1e39`, `x`), its facet and vertex (from 0), axis and text; the
/// errors of `triangle`.
pub(super) fn read_ascii(
    path: &Path,
    bytes: &[u8],
    mut triangle: impl FnMut([[f32; 3]; 3]) -> Result<(), MeshError>,
) -> Result<(), MeshError> {
    let mut expect = Expect::Solid;
    let (mut facet, mut corners) = (0usize, [[0f32; 3]; 3]);
    let mut last = 0;
    for (number, text) in (1..).zip(bytes.split(|&b| b == b'\n')) {
        last = number;
        let mut words = text
            .split(u8::is_ascii_whitespace)
            .filter(|w| !w.is_empty());
        let Some(first) = words.next() else {
            continue;
        };
        let error = |what: std::fmt::Arguments<'_>| line_error(path, FORMAT, number, text, what);
        let keyword = |k: &[u8]| first.eq_ignore_ascii_case(k);
        let unexpected = || error(format_args!("expected {}", expect.words()));
        let numbers = |words: &mut dyn Iterator<Item = &[u8]>, place: Place| {
            let mut values = [0f32; 3];
            for (value, axis) in values.iter_mut().zip(["x", "y", "z"]) {
                let word = words.next().ok_or_else(|| {
                    error(format_args!("{place}: the statement ends before {axis}"))
                })?;
                *value = finite_f32(&String::from_utf8_lossy(word)).map_err(|bad| {
                    error(format_args!("{place}: {axis} = {} {bad}", Quoted(word)))
                })?;
            }
            match words.next() {
                Some(extra) => Err(error(format_args!("{place}: {} follows z", Quoted(extra)))),
                None => Ok(values),
            }
        };
        expect = match expect {
            Expect::Solid if keyword(b"solid") => Expect::Facet,
            Expect::Facet if keyword(b"endsolid") => Expect::Solid,
            Expect::Facet if keyword(b"facet") => {
                if !words
                    .next()
                    .is_some_and(|w| w.eq_ignore_ascii_case(b"normal"))
                {
                    return Err(error(format_args!(
                        "facet {facet}: expected `facet normal`"
                    )));
                }
                numbers(&mut words, Place::Normal(facet))?;
                Expect::Loop
            }
            Expect::Loop
                if keyword(b"outer")
                    && words
                        .next()
                        .is_some_and(|w| w.eq_ignore_ascii_case(b"loop"))
                    && words.next().is_none() =>
            {
                Expect::Vertex(0)
            }
            Expect::Vertex(k) if keyword(b"vertex") => {
                corners[k] = numbers(&mut words, Place::Vertex(facet, k))?;
                if k == 2 {
                    Expect::EndLoop
                } else {
                    Expect::Vertex(k + 1)
                }
            }
            Expect::EndLoop if keyword(b"endloop") && words.next().is_none() => Expect::EndFacet,
            Expect::EndFacet if keyword(b"endfacet") && words.next().is_none() => {
                triangle(corners)?;
                facet += 1;
                Expect::Facet
            }
            _ => return Err(unexpected()),
        };
    }
    if expect != Expect::Solid {
        return Err(parse_error(
            path,
            FORMAT,
            format_args!(
                "line {last}: the file ends where {} is expected",
                expect.words()
            ),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The triangles `read_ascii` passes on, or its error's message.
    fn read(text: &str) -> Result<Vec<[[f32; 3]; 3]>, String> {
        let mut triangles = Vec::new();
        read_ascii(Path::new("m.stl"), text.as_bytes(), |t| {
            triangles.push(t);
            Ok(())
        })
        .map_err(|e| e.to_string())?;
        Ok(triangles)
    }

    /// `word` in upper case where `upper` says so.
    fn cased(word: &str, upper: bool) -> String {
        if upper {
            word.to_ascii_uppercase()
        } else {
            word.to_string()
        }
    }

    proptest! {
        /// Every finite `f32` triangle written out reads back bit for bit, in order, across any number of
        /// solids, whatever the keywords' case, indentation, blank lines, CRLF line ends and solid names.
        #[test]
        fn written_triangles_read_back_exactly(
            solids in proptest::collection::vec(
                proptest::collection::vec(proptest::collection::vec(any::<u32>(), 9), 0..6),
                1..4,
            ),
            upper in any::<bool>(),
            crlf in any::<bool>(),
            blank in any::<bool>(),
        ) {
            let end = if crlf { "\r\n" } else { "\n" };
            let finite = |bits: u32| {
                let v = f32::from_bits(bits);
                if v.is_finite() { v } else { f32::from_bits(bits & 0x3fff_ffff) }
            };
            let k = |w: &str| cased(w, upper);
            let mut text = String::new();
            let mut expected = Vec::new();
            for (s, solid) in solids.iter().enumerate() {
                text.push_str(&format!("{} part {s}{end}", k("solid")));
                for values in solid {
                    let t: Vec<f32> = values.iter().map(|&b| finite(b)).collect();
                    let corners = [0, 1, 2].map(|v| [t[3 * v], t[3 * v + 1], t[3 * v + 2]]);
                    expected.push(corners);
                    text.push_str(&format!("  {} {} 0 0 1{end}    {} {}{end}", k("facet"), k("normal"), k("outer"), k("loop")));
                    if blank {
                        text.push_str(end);
                    }
                    for c in corners {
                        text.push_str(&format!("\t{} {:e} {} {}{end}", k("vertex"), c[0], c[1], c[2]));
                    }
                    text.push_str(&format!("    {}{end}  {}{end}", k("endloop"), k("endfacet")));
                }
                text.push_str(&format!("{} part {s}{end}", k("endsolid")));
            }
            if blank {
                text.push_str(end);
            }
            let read = read(&text).map_err(TestCaseError::fail)?;
            let bits = |ts: &[[[f32; 3]; 3]]| ts.iter().flatten().flatten().map(|c| c.to_bits()).collect::<Vec<_>>();
            prop_assert_eq!(bits(&read), bits(&expected));
        }
    }

    #[test]
    fn every_malformed_statement_is_named_at_its_line() {
        let facet = |vertices: &str| {
            format!(
                "solid t\nfacet normal 0 0 1\nouter loop\n{vertices}endloop\nendfacet\nendsolid t\n"
            )
        };
        let three = "vertex 0 0 0\nvertex 1 0 0\nvertex 0 1 0\n";
        assert_eq!(read(&facet(three)).map(|t| t.len()), Ok(1));
        for (text, message) in [
            (
                facet("vertex 0 0 0\nvertex 1 0 0 7\nvertex 0 1 0\n"),
                "line 5: facet 0, vertex 1: \"7\" follows z: `vertex 1 0 0 7`",
            ),
            (
                facet("vertex 0 0 0\nvertex 1 0\nvertex 0 1 0\n"),
                "line 5: facet 0, vertex 1: the statement ends before z: `vertex 1 0`",
            ),
            (
                facet(&format!("{three}vertex 2 2 2\n")),
                "line 7: expected `endloop`: `vertex 2 2 2`",
            ),
            (
                facet("vertex 0 0 0\nvertex 1 0 0\n"),
                "line 6: expected `vertex`: `endloop`",
            ),
            (
                facet("vertex 0 0 0\nvertex 1 1e39 0\nvertex 0 1 0\n"),
                "line 5: facet 0, vertex 1: y = \"1e39\" is out of the supported range: its magnitude exceeds \
                 the largest f32, 3.4028235e38: `vertex 1 1e39 0`",
            ),
            (
                "solid t\nfacet normal 0 nan 1\n".to_string(),
                "line 2: facet 0, normal: y = \"nan\" is not finite: `facet normal 0 nan 1`",
            ),
            (
                "solid t\nfacet 0 0 1\n".to_string(),
                "line 2: facet 0: expected `facet normal`: `facet 0 0 1`",
            ),
            (
                facet(three) + "garbage here\n",
                "line 10: expected `solid` or the end of the file: `garbage here`",
            ),
            (
                facet(three).replace("endsolid t\n", ""),
                "line 9: the file ends where `facet normal` or `endsolid` is expected",
            ),
            (
                facet(three).replace("outer loop", "outer"),
                "line 3: expected `outer loop`: `outer`",
            ),
        ] {
            let e = read(&text).unwrap_err();
            assert!(
                e.ends_with(&format!("m.stl: invalid STL file: {message}")),
                "{e}"
            );
        }
    }
}

//! Text mesh files (ASCII STL and PLY) read exactly: every coordinate a finite number of its type, every
//! row or statement complete, each refusal naming the line, the element, the field and the value as
//! written; files of several STL solids read whole. (OBJ's are in `io.rs`.)

use std::path::{Path, PathBuf};

use ccd::io::{read_mesh, read_ply, read_stl};
use ccd::{Error, MeshData, MeshError};

/// Writes `text` to the scratch file `name` and returns its path.
fn write(name: &str, text: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("ccd-text-format-tests");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

/// `e` is a one-line parse error that names the file `name` and ends with "invalid `message`".
fn assert_refusal(e: &Error, name: &str, message: &str) {
    assert!(
        matches!(e, Error::Mesh(MeshError::Parse { .. })),
        "{name}: {e:?}"
    );
    let text = e.to_string();
    assert!(!text.contains('\n'), "multi-line message: {text:?}");
    assert!(
        text.ends_with(&format!("{name}: invalid {message}")),
        "{text}"
    );
}

/// The first corner of triangle `t`.
fn first_corner(mesh: &MeshData, t: usize) -> [f64; 3] {
    mesh.vertices[mesh.triangles[t][0] as usize]
}

/// ASCII STL and PLY name the line, the vertex and the text of a coordinate that is not a finite number
/// of its type, past other elements and list properties.
#[test]
fn text_stl_and_ply_coordinates_are_named_at_their_line() {
    let stl = |value: &str| {
        format!(
            "solid t\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 0 1 0\n\
             endloop\nendfacet\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 {value} 0\n\
             vertex 0 1 0\nendloop\nendfacet\nendsolid t\n"
        )
    };
    let ply = |kind: &str, value: &str| {
        format!(
            "ply\nformat ascii 1.0\nelement material 2\nproperty list uchar int ids\nproperty float shine\n\
             element vertex 3\nproperty {kind} x\nproperty list uchar float extra\nproperty {kind} y\n\
             property {kind} z\nelement face 1\nproperty list uchar int vertex_indices\nend_header\n\
             2 7 8 0.5\n0 0.5\n0 0 0 0\n1 2 0.5 0.5 0 {value}\n0 0 1 0\n3 0 1 2\n"
        )
    };
    let cases = [
        (
            "over.stl",
            stl("1e39"),
            "STL file: line 12: facet 1, vertex 1: y = \"1e39\" is out of the supported range: its \
             magnitude exceeds the largest f32, 3.4028235e38: `vertex 1 1e39 0`",
        ),
        (
            "nan.stl",
            stl("NaN"),
            "STL file: line 12: facet 1, vertex 1: y = \"NaN\" is not finite: `vertex 1 NaN 0`",
        ),
        (
            "over.ply",
            ply("double", "-1e400"),
            "PLY file: line 17: vertex 1: z = \"-1e400\" is out of the supported range: its magnitude \
             exceeds the largest f64, 1.7976931348623157e308: `1 2 0.5 0.5 0 -1e400`",
        ),
        (
            "over32.ply",
            ply("float", "4e38"),
            "PLY file: line 17: vertex 1: z = \"4e38\" is out of the supported range: its magnitude \
             exceeds the largest f32, 3.4028235e38: `1 2 0.5 0.5 0 4e38`",
        ),
        (
            "inf.ply",
            ply("double", "inf"),
            "PLY file: line 17: vertex 1: z = \"inf\" is not finite: `1 2 0.5 0.5 0 inf`",
        ),
    ];
    for (name, text, message) in cases {
        assert_refusal(&read_mesh(write(name, &text)).unwrap_err(), name, message);
    }
    // The same files with a finite value in its place read, with it.
    let path = write("finite.ply", &ply("double", "-1e300"));
    assert_eq!(read_ply(&path).unwrap().vertices[1], [1.0, 0.0, -1e300]);
    let path = write("finite.stl", &stl("3e38"));
    assert!(
        read_stl(&path)
            .unwrap()
            .vertices
            .contains(&[1.0, f64::from(3e38f32), 0.0])
    );
    // A file of two solids is read whole: both facets of each, the second solid's moved by 5 in z.
    let two = stl("1") + &stl("1").replace("vertex 0 0 0", "vertex 0 0 5");
    let mesh = read_stl(write("two-solids.stl", &two)).unwrap();
    assert_eq!(mesh.triangles.len(), 4);
    assert_eq!(first_corner(&mesh, 2), [0.0, 0.0, 5.0]);
}

/// Every row of an ASCII PLY holds exactly its element's properties, each word a number of its type: a
/// row too short or too long, a word that is not a number, not an integer or out of its type's range, or a
/// file that ends before its last row is named with its line, element, property and text.
#[test]
fn ascii_ply_rows_are_read_exactly() {
    let ply = |rows: &str| {
        format!(
            "ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\n\
             property float z\nproperty uchar red\nelement face 1\nproperty list uchar int \
             vertex_indices\nend_header\n{rows}"
        )
    };
    let good = "0 0 0 1\n1 0 0 2\n0 1 0 3\n3 0 1 2\n";
    assert_eq!(
        read_ply(write("good.ply", &ply(good))).unwrap().triangles,
        [[0, 1, 2]]
    );
    let cases = [
        (
            "0 0 0 1\n1 0 0\n0 1 0 3\n3 0 1 2\n",
            "line 12: vertex 1: the row ends before its property `red`: `1 0 0`",
        ),
        (
            "0 0 0 1\n1 0 0 2 7\n0 1 0 3\n3 0 1 2\n",
            "line 12: vertex 1: \"7\" follows the last property: `1 0 0 2 7`",
        ),
        (
            "0 0 0 1\n1 0 0 256\n0 1 0 3\n3 0 1 2\n",
            "line 12: vertex 1: red = \"256\" is out of range for its type: it must lie in [0, 255]: `1 0 0 256`",
        ),
        (
            "0 0 0 1\n1 0 0 2\n0 1 0 3\n3 0 1.5 2\n",
            "line 14: face 0: vertex_indices = \"1.5\" is not an integer, which its type needs: `3 0 1.5 2`",
        ),
        (
            "0 0 0 1\n1 0 0 2\n0 1 0 3\n3 0 1 99999999999\n",
            "line 14: face 0: vertex_indices = \"99999999999\" is out of range for its type: it must lie in [-2147483648, 2147483647]: `3 0 1 99999999999`",
        ),
        (
            "0 0 0 1\n1 0 0 2\n0 1 0 3\n-1 0 1 2\n",
            "line 14: face 0: vertex_indices = \"-1\" is out of range for its type: it must lie in [0, 255]: `-1 0 1 2`",
        ),
        (
            "0 0 0 1 1 0 0 2 0 1 0 3 3 0 1 2",
            "line 11: vertex 0: \"1\" follows the last property: `0 0 0 1 1 0 0 2 0 1 0 3 3 0 1 2`",
        ),
        (
            "0 0 0 1\n1 0 0 2\n0 1 0 3\n",
            "line 14: face 0: the row ends before its property `vertex_indices`: ``",
        ),
    ];
    for (rows, message) in cases {
        let e = read_ply(write("rows.ply", &ply(rows))).unwrap_err();
        assert_refusal(&e, "rows.ply", &format!("PLY file: {message}"));
    }
    // A face of two vertices is named at its line.
    let e = read_ply(write(
        "rows.ply",
        &ply("0 0 0 1\n1 0 0 2\n0 1 0 3\n2 0 1\n"),
    ))
    .unwrap_err();
    assert!(
        matches!(
            &e,
            Error::Mesh(MeshError::NotTriangles {
                line: Some(14),
                face: 0,
                vertices: 2,
                ..
            })
        ),
        "{e:?}"
    );
    assert!(
        e.to_string()
            .ends_with("rows.ply:14: face 0 has 2 vertices, but a face needs at least 3"),
        "{e}"
    );
}

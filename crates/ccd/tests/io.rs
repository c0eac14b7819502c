//! Mesh-file reading: every committed fixture under `fixtures/meshes` (see `fixtures/README.md`),
//! typed errors for the bad ones, and `.bvh` round trips of models built from files.

use std::path::{Path, PathBuf};

use ccd::io::{read_mesh, read_obj, read_ply, read_stl};
use ccd::nalgebra::{Isometry3, Vector3};
use ccd::{
    Aabb, BoundingVolume, BuildError, BuildOptions, CollideRequest, CollideResult, Error,
    Hierarchy, MeshData, MeshError, Model, Obb, Real, Sphere,
};
use ccd_testkit::{icosphere, mesh_fixture as fixture};

/// A scratch directory for files written by the tests.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("ccd-io-tests");
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// Every good fixture with its vertex and triangle counts.
const GOOD: [(&str, usize, usize); 10] = [
    ("tetrahedron.obj", 4, 4),
    ("cube.obj", 8, 12),
    ("two-tetrahedra.obj", 8, 8),
    ("degenerate.obj", 5, 5),
    ("cube-ascii.stl", 8, 12),
    ("cube-binary.stl", 8, 12),
    ("cube-binary-solid-header.stl", 8, 12),
    ("cube.ply", 8, 12),
    ("icosphere-1.ply", 42, 80),
    ("icosphere-2-binary.ply", 162, 320),
];

/// The triangles as corner coordinates, in order: equal for the same mesh
/// whatever the vertex numbering.
fn corners(m: &MeshData) -> Vec<[[f64; 3]; 3]> {
    m.triangles
        .iter()
        .map(|t| t.map(|i| m.vertices[i as usize]))
        .collect()
}

#[test]
fn good_fixtures_load_with_expected_counts() {
    for (name, vertices, triangles) in GOOD {
        let mesh = read_mesh(fixture(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(
            (mesh.vertices.len(), mesh.triangles.len()),
            (vertices, triangles),
            "{name}"
        );
        assert!(mesh.vertices.iter().flatten().all(|c| c.is_finite()));
        let model = Model::<f64>::from_mesh_file(fixture(name), &BuildOptions::default())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(model.faces().len(), triangles, "{name}");
    }
}

#[test]
fn readers_by_name_agree_with_read_mesh() {
    assert_eq!(
        read_obj(fixture("cube.obj")).unwrap(),
        read_mesh(fixture("cube.obj")).unwrap()
    );
    assert_eq!(
        read_stl(fixture("cube-ascii.stl")).unwrap(),
        read_mesh(fixture("cube-ascii.stl")).unwrap()
    );
    assert_eq!(
        read_ply(fixture("cube.ply")).unwrap(),
        read_mesh(fixture("cube.ply")).unwrap()
    );
    // The extension is matched in any case.
    let upper = scratch("CUBE.OBJ");
    std::fs::copy(fixture("cube.obj"), &upper).unwrap();
    assert_eq!(
        read_mesh(&upper).unwrap(),
        read_mesh(fixture("cube.obj")).unwrap()
    );
}

#[test]
fn cube_quads_become_fans() {
    let mesh = read_obj(fixture("cube.obj")).unwrap();
    // Face `f 1 5 7 3` splits into (1 5 7) and (1 7 3); vertices keep the file's order, so the
    // file's vertex i is index i - 1.
    let [v1, v5, v7, v3] = [
        [-0.5, -0.5, -0.5],
        [-0.5, -0.5, 0.5],
        [-0.5, 0.5, 0.5],
        [-0.5, 0.5, -0.5],
    ];
    assert_eq!(corners(&mesh)[..2], [[v1, v5, v7], [v1, v7, v3]]);
    assert_eq!(mesh.triangles[..2], [[0, 4, 6], [0, 6, 2]]);
    assert_eq!([0, 4, 6, 2].map(|i| mesh.vertices[i]), [v1, v5, v7, v3]);
}

#[test]
fn obj_objects_are_merged_with_relative_indices_resolved() {
    let mesh = read_obj(fixture("two-tetrahedra.obj")).unwrap();
    let c = corners(&mesh);
    for (first, second) in c[..4].iter().zip(&c[4..]) {
        let shifted = first.map(|p| [p[0] + 2.0, p[1], p[2]]);
        assert_eq!(&shifted, second);
    }
}

#[test]
fn degenerate_triangle_is_kept() {
    let mesh = read_obj(fixture("degenerate.obj")).unwrap();
    assert_eq!(
        corners(&mesh)[4],
        [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.5, 0.0, 0.0]]
    );
    let model = Model::<f64>::from_obj(fixture("degenerate.obj")).unwrap();
    assert_eq!(model.faces().len(), 5);
}

#[test]
fn stl_is_deduplicated_and_ascii_equals_binary() {
    let ascii = read_stl(fixture("cube-ascii.stl")).unwrap();
    let binary = read_stl(fixture("cube-binary.stl")).unwrap();
    let solid_header = read_stl(fixture("cube-binary-solid-header.stl")).unwrap();
    assert_eq!(ascii.vertices.len(), 8);
    assert_eq!(ascii, binary);
    assert_eq!(binary, solid_header);
}

#[test]
fn icosphere_ply_matches_the_generator() {
    let ico1 = icosphere(1, 1.0);
    let ascii = read_ply(fixture("icosphere-1.ply")).unwrap();
    assert_eq!(
        (ascii.vertices.len(), ascii.triangles.len()),
        (ico1.vertices.len(), ico1.len())
    );
    // Written with shortest round-trip decimals: read back exactly.
    assert_eq!(ascii.vertices, ico1.vertices);
    assert_eq!(ascii.triangles, ico1.triangles);

    let ico2 = icosphere(2, 1.0);
    let binary = read_ply(fixture("icosphere-2-binary.ply")).unwrap();
    assert_eq!(
        (binary.vertices.len(), binary.triangles.len()),
        (ico2.vertices.len(), ico2.len())
    );
    // Written as `float`: the generator's vertices rounded to f32.
    let rounded: Vec<[f64; 3]> = ico2
        .vertices
        .iter()
        .map(|v| v.map(|c| f64::from(c as f32)))
        .collect();
    assert_eq!(binary.vertices, rounded);
    assert_eq!(binary.triangles, ico2.triangles);
}

/// B's poses in a sweep through and past the models (A stays at the origin).
fn probe_poses() -> Vec<Isometry3<f64>> {
    let mut poses = Vec::new();
    for (i, t) in [
        [0.0, 0.0, 0.0],
        [0.3, 0.2, 0.1],
        [0.9, 0.2, 0.1],
        [1.05, -0.3, 0.4],
        [1.3, 0.4, -0.2],
        [2.4, 0.1, 0.2],
        [4.0, 0.0, 0.0],
    ]
    .into_iter()
    .enumerate()
    {
        let axis = Vector3::new(1.0, 2.0, 3.0 - i as f64).normalize();
        poses.push(Isometry3::new(Vector3::from(t), axis * (0.4 * i as f64)));
    }
    poses
}

/// A small icosphere to collide against.
fn probe<T: Real, B: BoundingVolume<T>>() -> Model<T, B> {
    let m = icosphere(1, 0.45);
    let vertices = m.vertices.iter().map(|v| v.map(T::lit)).collect();
    Model::new(vertices, &m.triangles).unwrap()
}

/// Collide results of `model` against the probe at every probe pose, contacts sorted.
fn sweep<T: Real, B: BoundingVolume<T>>(model: &Model<T, B>) -> Vec<CollideResult> {
    let probe = probe::<T, B>();
    let cast = |p: &Isometry3<f64>| p.cast::<T>();
    probe_poses()
        .iter()
        .map(|pose| {
            let mut r = ccd::collide(
                model,
                &Isometry3::identity(),
                &probe,
                &cast(pose),
                &CollideRequest::all(),
            )
            .unwrap();
            r.contacts.sort();
            r
        })
        .collect()
}

#[test]
fn same_cube_in_every_format_collides_the_same() {
    let reference = read_mesh(fixture("cube.obj")).unwrap();
    let expected = sweep(&Model::<f64>::from_obj(fixture("cube.obj")).unwrap());
    assert!(expected.iter().any(|r| r.is_colliding()));
    assert!(expected.iter().any(|r| !r.is_colliding()));
    for name in ["cube-ascii.stl", "cube-binary.stl", "cube.ply"] {
        let mesh = read_mesh(fixture(name)).unwrap();
        assert_eq!(corners(&mesh), corners(&reference), "{name}");
        let model = Model::<f64>::from_mesh_file(fixture(name), &BuildOptions::default()).unwrap();
        // Same triangles in the same order: same tree, same contacts and operation counts.
        assert_eq!(sweep(&model), expected, "{name}");
    }
    let f32_stl = sweep(&Model::<f32>::from_stl(fixture("cube-binary.stl")).unwrap());
    let f32_ply = sweep(&Model::<f32>::from_ply(fixture("cube.ply")).unwrap());
    assert_eq!(f32_stl, f32_ply);
}

/// Asserts that `e` prints as one line naming the file `name`.
fn assert_one_line_naming(e: &Error, name: &str) {
    let text = e.to_string();
    assert!(!text.contains('\n'), "multi-line message: {text:?}");
    assert!(text.contains(name), "{text:?} does not name {name}");
}

fn model_error(name: &str) -> Error {
    Model::<f64>::from_mesh_file(fixture(name), &BuildOptions::default()).unwrap_err()
}

#[test]
fn obj_coordinates_that_are_not_finite_are_refused_at_their_line() {
    let e = read_obj(fixture("bad/nan.obj")).unwrap_err();
    assert!(
        matches!(&e, Error::Mesh(MeshError::Parse { format: "OBJ", .. })),
        "{e:?}"
    );
    assert!(
        e.to_string().ends_with(
            "nan.obj: invalid OBJ file: line 3: vertex 0: x = \"nan\" is not finite: `v nan 0 0`"
        ),
        "{e}"
    );
    assert_one_line_naming(&model_error("bad/nan.obj"), "nan.obj");
}

/// The file's own vertex order (numbered from 0) and the coordinate as written: a vertex no face uses
/// still counts, and a value past the largest `f64` is out of range, not "inf".
#[test]
fn obj_errors_name_the_files_vertex_and_the_written_value() {
    let cases: [(&str, &str, &str); 4] = [
        (
            "overflow.obj",
            "v 0 0 0\nv 5 5 5\nv 1 1e400 0\nv 0 1 0\nf 1 3 4\n",
            "line 3: vertex 2: y = \"1e400\" is out of the supported range: its magnitude exceeds the \
             largest f64, 1.7976931348623157e308: `v 1 1e400 0`",
        ),
        (
            "negative-overflow.obj",
            "# c\n\nv 0 0 0\r\nv 0 0 -2e308 # far\r\n",
            "line 4: vertex 1: z = \"-2e308\" is out of the supported range: its magnitude exceeds the \
             largest f64, 1.7976931348623157e308: `v 0 0 -2e308 # far`",
        ),
        (
            "infinite-w.obj",
            "v 1 2 3 -inf\n",
            "line 1: vertex 0: w = \"-inf\" is not finite: `v 1 2 3 -inf`",
        ),
        (
            "colour.obj",
            "v 0 0 0\nv 1 1 1 0.5 x 0.5\n",
            "line 2: vertex 1: g = \"x\" is not a number: `v 1 1 1 0.5 x 0.5`",
        ),
    ];
    for (name, text, message) in cases {
        assert_obj_refused(name, text.as_bytes(), message);
    }
}

/// Writes `bytes` to the scratch file `name`: reading it as OBJ is a one-line parse error that names the
/// file and ends with `message`.
fn assert_obj_refused(name: &str, bytes: &[u8], message: &str) {
    let path = scratch(name);
    std::fs::write(&path, bytes).unwrap();
    let e = read_obj(&path).unwrap_err();
    assert!(
        matches!(&e, Error::Mesh(MeshError::Parse { format: "OBJ", .. })),
        "{name}: {e:?}"
    );
    assert_one_line_naming(&e, name);
    assert!(
        e.to_string()
            .ends_with(&format!("{name}: invalid OBJ file: {message}")),
        "{e}"
    );
}

#[test]
fn obj_index_out_of_range_names_the_face() {
    let e = read_obj(fixture("bad/index-out-of-range.obj")).unwrap_err();
    assert!(
        matches!(
            &e,
            Error::Mesh(MeshError::IndexOutOfRange {
                line: Some(10),
                face: 3,
                index: 9,
                vertices: 4,
                ..
            })
        ),
        "{e:?}"
    );
    assert!(
        e.to_string().ends_with(
            "index-out-of-range.obj:10: face 3 refers to vertex 9, but there are only 4 vertices"
        ),
        "{e}"
    );
    assert!(matches!(
        model_error("bad/index-out-of-range.obj"),
        Error::Mesh(MeshError::IndexOutOfRange { .. })
    ));
}

#[test]
fn obj_syntax_errors_name_the_line_and_its_text() {
    let cases: [(&str, &[u8], &str); 9] = [
        (
            "coordinate.obj",
            b"v 0 0 0\nv 1 x 0\n",
            "line 2: vertex 1: y = \"x\" is not a number: `v 1 x 0`",
        ),
        (
            "two-numbers.obj",
            b"# c\n\nv 1 2\n",
            "line 3: vertex 0 has 2 values, but a vertex is x y z, x y z w or x y z r g b: `v 1 2`",
        ),
        (
            "w-zero.obj",
            b"v 1 2 3 0\n",
            "line 1: vertex 0: w = 0 cannot divide its coordinates: `v 1 2 3 0`",
        ),
        (
            "w-tiny.obj",
            b"v 1 2e300 3 1e-10\n",
            "line 1: vertex 0: y / w = \"2e300\" / \"1e-10\" is past the largest f64: `v 1 2e300 3 1e-10`",
        ),
        (
            "face.obj",
            b"v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 three\n",
            "line 4: face 0: vertex index \"three\" is not an integer: `f 1 2 three`",
        ),
        (
            "texture-index.obj",
            b"v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1/1 2/x 3/3\n",
            "line 4: face 0: \"2/x\" is not v, v/vt, v//vn or v/vt/vn with integer indices: `f 1/1 2/x 3/3`",
        ),
        (
            "index-overflow.obj",
            b"v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 -99999999999999999999/1\n",
            "line 4: face 0: vertex index \"-99999999999999999999\" names no vertex: there are 3: \
             `f 1 2 -99999999999999999999/1`",
        ),
        (
            "index-zero.obj",
            b"v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\nf 0 1 2\n",
            "line 5: face 1: vertex index 0 names no vertex (indices count from 1, or back from -1): `f 0 1 2`",
        ),
        (
            "latin1.obj",
            b"v 0 0 0\nv 0 \xe9 0\n",
            "line 2: vertex 1: y = \"\u{fffd}\" is not a number: `v 0 \u{fffd} 0`",
        ),
    ];
    for (name, bytes, message) in cases {
        assert_obj_refused(name, bytes, message);
    }
}

#[test]
fn ply_index_out_of_range_is_rejected_by_the_builder() {
    let raw = read_ply(fixture("bad/index-out-of-range.ply")).unwrap();
    assert_eq!(raw.triangles[3], [1, 2, 7]);
    let e = model_error("bad/index-out-of-range.ply");
    assert!(
        matches!(
            &e,
            Error::Mesh(MeshError::Invalid {
                source: BuildError::FaceIndexOutOfRange {
                    face: 3,
                    index: 7,
                    len: 4
                },
                ..
            })
        ),
        "{e:?}"
    );
    assert_one_line_naming(&e, "index-out-of-range.ply");
}

#[test]
fn ply_negative_index_is_out_of_range() {
    let e = read_ply(fixture("bad/negative-index.ply")).unwrap_err();
    assert!(
        matches!(
            &e,
            Error::Mesh(MeshError::IndexOutOfRange {
                line: Some(18),
                face: 3,
                index: -1,
                vertices: 4,
                ..
            })
        ),
        "{e:?}"
    );
    assert_one_line_naming(&e, "negative-index.ply");
    assert!(
        e.to_string().ends_with(
            "negative-index.ply:18: face 3 refers to vertex -1, but there are only 4 vertices"
        ),
        "{e}"
    );
}

#[test]
fn file_without_faces_has_no_triangles() {
    let raw = read_obj(fixture("bad/empty.obj")).unwrap();
    assert!(raw.triangles.is_empty());
    let e = model_error("bad/empty.obj");
    assert!(
        matches!(
            &e,
            Error::Mesh(MeshError::Invalid {
                source: BuildError::NoTriangles,
                ..
            })
        ),
        "{e:?}"
    );
    assert_one_line_naming(&e, "empty.obj");
}

#[test]
fn two_vertex_face_is_not_a_triangle() {
    let e = model_error("bad/two-vertex-face.obj");
    assert!(
        matches!(
            &e,
            Error::Mesh(MeshError::NotTriangles {
                line: Some(6),
                face: 1,
                vertices: 2,
                ..
            })
        ),
        "{e:?}"
    );
    assert_one_line_naming(&e, "two-vertex-face.obj");
    assert!(
        e.to_string()
            .ends_with("two-vertex-face.obj:6: face 1 has 2 vertices, but a face needs at least 3"),
        "{e}"
    );
}

#[test]
fn truncated_binary_stl_is_a_count_mismatch() {
    let e = model_error("bad/truncated-binary.stl");
    assert!(
        matches!(
            &e,
            Error::Mesh(MeshError::StlCountMismatch {
                declared: 12,
                bytes: 454,
                holds: None,
                ..
            })
        ),
        "{e:?}"
    );
    assert_one_line_naming(&e, "truncated-binary.stl");
    assert!(
        e.to_string()
            .contains("declares 12 triangles (684 bytes) but the file has 454 bytes"),
        "{e}"
    );
}

#[test]
fn garbage_ply_is_a_parse_error() {
    let e = model_error("bad/garbage.ply");
    assert!(
        matches!(&e, Error::Mesh(MeshError::Parse { format: "PLY", .. })),
        "{e:?}"
    );
    assert_one_line_naming(&e, "garbage.ply");
}

#[test]
fn unknown_extension_and_missing_file() {
    for name in ["mesh.xyz", "mesh", "mesh.obj.gz"] {
        let e = read_mesh(name).unwrap_err();
        assert!(
            matches!(&e, Error::Mesh(MeshError::UnsupportedFormat { path }) if path == Path::new(name)),
            "{e:?}"
        );
        assert_one_line_naming(&e, name);
    }
    for name in ["missing.obj", "missing.stl", "missing.ply"] {
        let e = read_mesh(fixture(name)).unwrap_err();
        assert!(
            matches!(&e, Error::Mesh(MeshError::Io { source, .. }) if source.kind() == std::io::ErrorKind::NotFound),
            "{e:?}"
        );
        assert_one_line_naming(&e, name);
    }
}

#[test]
fn f32_overflow_is_rejected() {
    let path = scratch("huge.obj");
    std::fs::write(&path, "v 1e30 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n").unwrap();
    assert!(Model::<f64>::from_obj(&path).is_ok());
    // 1e30 is beyond f32's supported 2^40: refused with the value and the limit.
    let e = Model::<f32>::from_obj(&path).unwrap_err();
    assert!(
        matches!(
            &e,
            Error::Mesh(MeshError::Invalid {
                source: BuildError::VertexOutOfRange { vertex: 0, range },
                ..
            }) if range.value == f64::from(1e30_f32)
        ),
        "{e:?}"
    );
    assert!(e.to_string().contains("1.099511627776e12"), "{e}");
    std::fs::write(&path, "v 1e300 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n").unwrap();
    let e = Model::<f64>::from_obj(&path).unwrap_err();
    assert!(
        e.to_string().contains("vertex 0 coordinate x = 1e300"),
        "{e}"
    );
}

#[test]
fn build_options_are_applied_and_checked() {
    let options = BuildOptions {
        leaf_size: 4,
        ..BuildOptions::default()
    };
    let model = Model::<f64>::from_mesh_file(fixture("icosphere-2-binary.ply"), &options).unwrap();
    assert_eq!(model.build_options().leaf_size, 4);
    assert!(model.stats().max_leaf_faces <= 4);
    let bad = BuildOptions {
        leaf_size: 0,
        ..BuildOptions::default()
    };
    let e = Model::<f64>::from_mesh_file(fixture("cube.obj"), &bad).unwrap_err();
    assert!(
        matches!(
            &e,
            Error::Mesh(MeshError::Invalid {
                source: BuildError::InvalidLeafSize { .. },
                ..
            })
        ),
        "{e:?}"
    );
}

/// Builds `name` in memory, saves it, reopens it mapped, and checks that the two models have the
/// same header counts, tree statistics and collide results (contacts and operation counts).
fn assert_round_trip<T: Real, B: BoundingVolume<T>>(name: &str, tag: &str) {
    let owned = Model::<T, B>::from_mesh_file(fixture(name), &BuildOptions::default())
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    let path = scratch(&format!("{name}.{tag}.bvh").replace('/', "_"));
    owned.save(&path).unwrap();
    let mapped = Model::<T, B>::open(&path).unwrap_or_else(|e| panic!("{name}: {e}"));
    assert!(mapped.is_mapped());
    let info = mapped.file_info().expect("a mapped model has a header");
    assert_eq!(
        (info.faces, info.vertices, info.nodes),
        (
            owned.faces().len(),
            owned.vertices().len(),
            owned.nodes().len()
        ),
        "{name} {tag}"
    );
    assert_eq!(mapped.stats(), owned.stats(), "{name} {tag}");
    assert_eq!(sweep(&mapped), sweep(&owned), "{name} {tag}");
}

#[test]
fn saved_models_reopen_identically() {
    for (name, _, _) in GOOD {
        assert_round_trip::<f64, Obb<f64>>(name, "f64-obb");
        assert_round_trip::<f32, Obb<f32>>(name, "f32-obb");
    }
    assert_round_trip::<f64, Aabb<f64>>("icosphere-2-binary.ply", "f64-aabb");
    assert_round_trip::<f32, Sphere<f32>>("cube.obj", "f32-sphere");
}

#[test]
fn malformed_ply_payloads_are_parse_errors() {
    let bytes = std::fs::read(fixture("icosphere-2-binary.ply")).unwrap();
    let truncated = scratch("truncated-binary.ply");
    std::fs::write(&truncated, &bytes[..bytes.len() - 700]).unwrap();

    let header = "ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\n";
    let no_z = scratch("no-z.ply");
    std::fs::write(
        &no_z,
        format!("{header}element face 1\nproperty list uchar int vertex_indices\nend_header\n0 0\n1 0\n0 1\n3 0 1 2\n"),
    )
    .unwrap();
    let float_list = scratch("float-list.ply");
    std::fs::write(
        &float_list,
        format!("{header}property float z\nelement face 1\nproperty list uchar float vertex_indices\nend_header\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n"),
    )
    .unwrap();
    let short_payload = scratch("short-payload.ply");
    std::fs::write(
        &short_payload,
        format!("{header}property float z\nelement face 1\nproperty list uchar int vertex_indices\nend_header\n0 0 0\n1 0 0\n"),
    )
    .unwrap();
    let bad_header = scratch("bad-header.ply");
    std::fs::write(&bad_header, "ply\nformat zip 9.0\nend_header\n").unwrap();
    for path in [truncated, no_z, float_list, short_payload, bad_header] {
        let e = read_ply(&path).unwrap_err();
        assert!(
            matches!(&e, Error::Mesh(MeshError::Parse { format: "PLY", .. })),
            "{}: {e:?}",
            path.display()
        );
        let name = path.file_name().unwrap().to_str().unwrap();
        assert_one_line_naming(&e, name);
    }
}

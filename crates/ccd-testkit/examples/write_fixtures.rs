//! Writes the committed test fixtures under `fixtures/` (mesh files in OBJ, STL and PLY, good and
//! bad, and a `.bvh` format-stability file).
//!
//! ```text
//! cargo run -p ccd-testkit --example write_fixtures            # (re)write fixtures/
//! cargo run -p ccd-testkit --example write_fixtures -- --check # fail if a committed file differs
//! cargo run -p ccd-testkit --example write_fixtures -- DIR     # write under DIR instead
//! ```
//!
//! Every file is written by hand from the meshes below (the mesh readers under test play no part),
//! deterministically: running it twice gives the same bytes. `fixtures/README.md` lists the files
//! and what each one exercises.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use ccd::{Model, Obb};
use ccd_testkit::{
    Mesh, SplitMix64, icosphere, is_closed_oriented_manifold, signed_volume, tetrahedron,
};

/// One fixture: its path under the fixtures directory and its bytes.
struct Fixture {
    path: &'static str,
    bytes: Vec<u8>,
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let check = args.iter().any(|a| a == "--check");
    let root = args
        .iter()
        .find(|a| !a.starts_with("--"))
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures"));
    println!("fixtures directory: {}", root.display());

    let mut stale = 0;
    for Fixture { path, bytes } in fixtures() {
        let target = root.join(path);
        if check {
            if std::fs::read(&target).ok().as_deref() != Some(&bytes[..]) {
                eprintln!("differs: {}", target.display());
                stale += 1;
            }
        } else {
            std::fs::create_dir_all(target.parent().expect("fixture paths have a directory"))
                .expect("create the fixture directory");
            std::fs::write(&target, &bytes).expect("write a fixture");
            println!("wrote {path} ({} bytes)", bytes.len());
        }
    }
    if stale > 0 {
        eprintln!("{stale} fixture(s) differ; rerun without --check to rewrite them");
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}

/// Every fixture, in a fixed order.
fn fixtures() -> Vec<Fixture> {
    let tetra = tetrahedron();
    let cube = cube_quads();
    let cube_tris = fan(&cube);
    assert!(is_closed_oriented_manifold(&tetra) && signed_volume(&tetra) > 0.0);
    assert!(is_closed_oriented_manifold(&cube_tris) && signed_volume(&cube_tris) > 0.0);
    let ico1 = icosphere(1, 1.0);
    let ico2 = icosphere(2, 1.0);

    let mut degenerate = tetra.clone();
    // The midpoint of edge 0–1: the triangle (0, 1, midpoint) has zero area.
    degenerate.vertices.push([0.5, 0.0, 0.0]);
    degenerate.triangles.push([0, 1, 4]);

    let cube_binary = binary_stl(&cube_tris, b"binary STL of a cube, written by ccd-testkit");
    let mut truncated = cube_binary.clone();
    truncated.truncate(84 + 50 * 7 + 20);
    let tetra_text = obj(&as_polygons(&tetra), "tetrahedron");
    let mut nan_obj = tetra_text.replacen("v 0 0 0", "v nan 0 0", 1);
    nan_obj.insert_str(
        0,
        "# A tetrahedron whose first vertex has a NaN x coordinate.\n",
    );
    let mut bad_index = tetra_text.replacen("f 2 3 4", "f 2 3 9", 1);
    bad_index.insert_str(
        0,
        "# A tetrahedron whose last face refers to vertex 9 of 4.\n",
    );
    let mut bad_ply_index = ascii_ply(&as_polygons(&tetra), "double", "vertex_indices");
    bad_ply_index = bad_ply_index.replacen("3 1 2 3", "3 1 2 7", 1);
    let negative_ply_index = bad_ply_index.replacen("3 1 2 7", "3 1 2 -1", 1);
    let mut garbage = vec![0u8; 256];
    let mut rng = SplitMix64::new(0x5eed_f1c5);
    for chunk in garbage.chunks_mut(8) {
        chunk.copy_from_slice(&rng.next_u64().to_le_bytes()[..chunk.len()]);
    }

    let text = |path, s: String| Fixture {
        path,
        bytes: s.into_bytes(),
    };
    let bytes = |path, bytes| Fixture { path, bytes };
    vec![
        text("meshes/tetrahedron.obj", tetra_text.clone()),
        text("meshes/cube.obj", obj(&cube, "cube")),
        text("meshes/two-tetrahedra.obj", two_objects_obj(&tetra)),
        text(
            "meshes/degenerate.obj",
            obj(
                &as_polygons(&degenerate),
                "tetrahedron plus a zero-area triangle",
            ),
        ),
        text("meshes/cube-ascii.stl", ascii_stl(&cube_tris, "cube")),
        bytes("meshes/cube-binary.stl", cube_binary),
        bytes(
            "meshes/cube-binary-solid-header.stl",
            binary_stl(&cube_tris, b"solid header, yet a binary STL of a cube"),
        ),
        text(
            "meshes/cube.ply",
            ascii_ply(&cube, "double", "vertex_indices"),
        ),
        text(
            "meshes/icosphere-1.ply",
            ascii_ply(&as_polygons(&ico1), "double", "vertex_indices"),
        ),
        bytes("meshes/icosphere-2-binary.ply", binary_ply(&ico2)),
        text("meshes/bad/nan.obj", nan_obj),
        text("meshes/bad/index-out-of-range.obj", bad_index),
        text(
            "meshes/bad/empty.obj",
            "# Vertices but no faces.\nv 0 0 0\nv 1 0 0\nv 0 1 0\n".to_string(),
        ),
        text(
            "meshes/bad/two-vertex-face.obj",
            "# The second face has two vertices.\nv 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\nf 1 2\n"
                .to_string(),
        ),
        bytes("meshes/bad/truncated-binary.stl", truncated),
        bytes("meshes/bad/garbage.ply", garbage),
        text("meshes/bad/index-out-of-range.ply", bad_ply_index),
        text("meshes/bad/negative-index.ply", negative_ply_index),
        bytes("bvh/icosphere-2-obb-f32-v2.bvh", icosphere_bvh(&ico2)),
    ]
}

/// A polygon mesh: vertices and faces of any arity.
struct Polygons {
    vertices: Vec<[f64; 3]>,
    faces: Vec<Vec<u32>>,
}

/// The cube [-0.5, 0.5]³ as six outward quads. Vertex `i` has coordinate `k` equal to +0.5 when
/// bit `k` of `i` is set.
fn cube_quads() -> Polygons {
    let vertices = (0..8)
        .map(|i| [0, 1, 2].map(|k| if i >> k & 1 == 1 { 0.5 } else { -0.5 }))
        .collect();
    let faces = [
        [0, 4, 6, 2], // -x
        [1, 3, 7, 5], // +x
        [0, 1, 5, 4], // -y
        [2, 6, 7, 3], // +y
        [0, 2, 3, 1], // -z
        [4, 5, 7, 6], // +z
    ];
    Polygons {
        vertices,
        faces: faces.iter().map(|f| f.to_vec()).collect(),
    }
}

/// Splits each polygon into a fan around its first vertex, as the readers do.
fn fan(p: &Polygons) -> Mesh {
    let mut triangles = Vec::new();
    for f in &p.faces {
        for k in 1..f.len() - 1 {
            triangles.push([f[0], f[k], f[k + 1]]);
        }
    }
    Mesh {
        vertices: p.vertices.clone(),
        triangles,
    }
}

fn as_polygons(m: &Mesh) -> Polygons {
    Polygons {
        vertices: m.vertices.clone(),
        faces: m.triangles.iter().map(|t| t.to_vec()).collect(),
    }
}

/// Wavefront OBJ: `v` lines with shortest round-trip decimals, then 1-based `f` lines.
fn obj(p: &Polygons, what: &str) -> String {
    let mut s = format!(
        "# {what}: {} vertices, {} faces\n",
        p.vertices.len(),
        p.faces.len()
    );
    for v in &p.vertices {
        writeln!(s, "v {} {} {}", v[0], v[1], v[2]).unwrap();
    }
    for f in &p.faces {
        let ids: Vec<String> = f.iter().map(|i| (i + 1).to_string()).collect();
        writeln!(s, "f {}", ids.join(" ")).unwrap();
    }
    s
}

/// Two tetrahedra as two OBJ objects, the second shifted by 2 along x and indexed with negative
/// (relative) indices.
fn two_objects_obj(tetra: &Mesh) -> String {
    let mut s = String::from(
        "# Two tetrahedra as two objects; the second uses relative indices.\no first\n",
    );
    for v in &tetra.vertices {
        writeln!(s, "v {} {} {}", v[0], v[1], v[2]).unwrap();
    }
    for t in &tetra.triangles {
        writeln!(s, "f {} {} {}", t[0] + 1, t[1] + 1, t[2] + 1).unwrap();
    }
    s.push_str("o second\n");
    for v in &tetra.vertices {
        writeln!(s, "v {} {} {}", v[0] + 2.0, v[1], v[2]).unwrap();
    }
    let n = tetra.vertices.len() as i64;
    for t in &tetra.triangles {
        let r = t.map(|i| i64::from(i) - n);
        writeln!(s, "f {} {} {}", r[0], r[1], r[2]).unwrap();
    }
    s
}

/// The unit normal of each triangle, in `f32` (STL stores normals; readers ignore them).
fn normals(m: &Mesh) -> Vec<[f32; 3]> {
    m.triangle_corners()
        .map(|[a, b, c]| {
            let (u, v) = (
                [0, 1, 2].map(|k| b[k] - a[k]),
                [0, 1, 2].map(|k| c[k] - a[k]),
            );
            let n = [
                u[1] * v[2] - u[2] * v[1],
                u[2] * v[0] - u[0] * v[2],
                u[0] * v[1] - u[1] * v[0],
            ];
            let len = (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt();
            n.map(|c| (c / len) as f32)
        })
        .collect()
}

/// ASCII STL with `f32` coordinates.
fn ascii_stl(m: &Mesh, name: &str) -> String {
    let mut s = format!("solid {name}\n");
    for (corners, n) in m.triangle_corners().zip(normals(m)) {
        writeln!(s, "  facet normal {:e} {:e} {:e}", n[0], n[1], n[2]).unwrap();
        s.push_str("    outer loop\n");
        for p in corners {
            let p = p.map(|c| c as f32);
            writeln!(s, "      vertex {:e} {:e} {:e}", p[0], p[1], p[2]).unwrap();
        }
        s.push_str("    endloop\n  endfacet\n");
    }
    writeln!(s, "endsolid {name}").unwrap();
    s
}

/// Binary STL: an 80-byte header (`header`, zero-padded), the triangle count, then per triangle the
/// normal, three vertices (`f32` little-endian) and a zero attribute word.
fn binary_stl(m: &Mesh, header: &[u8]) -> Vec<u8> {
    let mut out = header.to_vec();
    out.resize(80, 0);
    out.extend((m.len() as u32).to_le_bytes());
    for (corners, n) in m.triangle_corners().zip(normals(m)) {
        for c in n {
            out.extend(c.to_le_bytes());
        }
        for p in corners {
            for c in p {
                out.extend((c as f32).to_le_bytes());
            }
        }
        out.extend([0, 0]);
    }
    out
}

/// ASCII PLY with `scalar` (`float` or `double`) coordinates and a `list uchar int` face list
/// named `list`.
fn ascii_ply(p: &Polygons, scalar: &str, list: &str) -> String {
    let mut s =
        String::from("ply\nformat ascii 1.0\ncomment written by ccd-testkit write_fixtures\n");
    writeln!(s, "element vertex {}", p.vertices.len()).unwrap();
    for axis in ["x", "y", "z"] {
        writeln!(s, "property {scalar} {axis}").unwrap();
    }
    writeln!(s, "element face {}", p.faces.len()).unwrap();
    writeln!(s, "property list uchar int {list}\nend_header").unwrap();
    for v in &p.vertices {
        writeln!(s, "{} {} {}", v[0], v[1], v[2]).unwrap();
    }
    for f in &p.faces {
        let ids: Vec<String> = f.iter().map(u32::to_string).collect();
        writeln!(s, "{} {}", f.len(), ids.join(" ")).unwrap();
    }
    s
}

/// Binary little-endian PLY: `float` x, y, z and per-vertex normal (nx, ny, nz, to be skipped by
/// readers), an extra `material` element (also to be skipped), then a `list uchar uint
/// vertex_index` face list.
fn binary_ply(m: &Mesh) -> Vec<u8> {
    let mut header = String::from(
        "ply\nformat binary_little_endian 1.0\ncomment written by ccd-testkit write_fixtures\n",
    );
    writeln!(header, "element vertex {}", m.vertices.len()).unwrap();
    for name in ["x", "y", "z", "nx", "ny", "nz"] {
        writeln!(header, "property float {name}").unwrap();
    }
    header.push_str("element material 1\nproperty uchar red\nproperty uchar green\n");
    header.push_str("property uchar blue\nproperty list uchar uchar tags\n");
    writeln!(header, "element face {}", m.len()).unwrap();
    header.push_str("property list uchar uint vertex_index\n");
    header.push_str("end_header\n");
    let mut out = header.into_bytes();
    for v in &m.vertices {
        // On the unit sphere the outward normal is the position itself.
        for c in v.iter().chain(v) {
            out.extend((*c as f32).to_le_bytes());
        }
    }
    out.extend([200, 120, 40, 2, 7, 9]);
    for t in &m.triangles {
        out.push(3);
        for i in t {
            out.extend(i.to_le_bytes());
        }
    }
    out
}

/// The `.bvh` file of an `f32` OBB model of `m`, built with the default options.
fn icosphere_bvh(m: &Mesh) -> Vec<u8> {
    let vertices = m.vertices.iter().map(|v| v.map(|c| c as f32)).collect();
    let model = Model::<f32, Obb<f32>>::new(vertices, &m.triangles).expect("the icosphere builds");
    let path = std::env::temp_dir().join(format!("ccd-write-fixtures-{}.bvh", std::process::id()));
    model.save(&path).expect("save the .bvh fixture");
    let bytes = std::fs::read(&path).expect("read back the .bvh fixture");
    std::fs::remove_file(&path).expect("remove the temporary .bvh file");
    bytes
}

//! `ccd collide --export FILE.ply` and `--exit-code`, end to end: the exported file parses, holds both posed
//! meshes in their input order, and its coloured faces are exactly the reported contact set (with a mesh and a
//! memory-mapped `.bvh` input); `--exit-code` exits 1 when colliding, 0 when not, 2 on an error; both quaternion
//! orders give the contacts of the equivalent rotation vector.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use ccd::nalgebra::{Point3, UnitQuaternion, Vector3};
use ccd_cli::args::{QuatOrder, parse_pose};
use ccd_testkit::mesh_fixture as fixture;
use ply_rs_bw::parser::Parser;
use ply_rs_bw::ply::{DefaultElement, Property};
use serde_json::Value;

fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("collide_export");
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir.join(name)
}

fn ccd(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ccd"))
        .args(args)
        .output()
        .expect("the ccd binary runs")
}

fn path(p: &Path) -> &str {
    p.to_str().expect("utf-8 path")
}

/// The contact pairs of a `--json` run.
fn contacts(out: &Output) -> BTreeSet<(u32, u32)> {
    assert!(out.status.code().is_some(), "killed: {out:?}");
    let v: Value =
        serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("not JSON ({e}): {out:?}"));
    v["contacts"]
        .as_array()
        .expect("contacts")
        .iter()
        .map(|c| (c[0].as_u64().unwrap() as u32, c[1].as_u64().unwrap() as u32))
        .collect()
}

fn colour(e: &DefaultElement) -> [u8; 3] {
    ["red", "green", "blue"].map(|k| match e.get(k) {
        Some(Property::UChar(v)) => *v,
        other => panic!("{k}: {other:?}"),
    })
}

const POSE_B: &str = "0.3,0.2,0.1,0.3,0.5,0.7";

#[test]
fn export_colours_exactly_the_contact_set_for_mesh_and_bvh_inputs() {
    let (cube, sphere) = (fixture("cube-binary.stl"), fixture("icosphere-1.ply"));
    let bvh = scratch("cube.bvh");
    assert!(
        ccd(&["build", path(&cube), "-o", path(&bvh)])
            .status
            .success()
    );
    for a in [&cube, &bvh] {
        let export = scratch("export.ply");
        let _ = std::fs::remove_file(&export);
        let out = ccd(&[
            "collide",
            path(a),
            path(&sphere),
            "--pose-b",
            POSE_B,
            "--json",
            "--export",
            path(&export),
        ]);
        assert!(out.status.success(), "{out:?}");
        let pairs = contacts(&out);
        assert!(!pairs.is_empty(), "the scene should collide");

        // Geometry: the file reads as a mesh, A's triangles in input order, then B's posed ones.
        let mesh_a = ccd::io::read_mesh(&cube).unwrap();
        let mesh_b = ccd::io::read_mesh(&sphere).unwrap();
        let (na, nb) = (mesh_a.triangles.len(), mesh_b.triangles.len());
        let read = ccd::io::read_ply(&export).expect("the export parses");
        assert_eq!(read.triangles.len(), na + nb);
        let pose_b = parse_pose(POSE_B).unwrap().isometry::<f64>(QuatOrder::Wxyz);
        for (f, tri) in read.triangles.iter().enumerate() {
            let (mesh, pose) = if f < na {
                (&mesh_a, ccd::nalgebra::Isometry3::identity())
            } else {
                (&mesh_b, pose_b)
            };
            let input = mesh.triangles[if f < na { f } else { f - na }];
            for k in 0..3 {
                let want = pose * Point3::from(mesh.vertices[input[k] as usize]);
                let got = Point3::from(read.vertices[tri[k] as usize]);
                assert!(
                    (want - got).norm() < 1e-12,
                    "face {f} corner {k}: {got} vs {want}"
                );
            }
        }

        // Colours: the coloured faces are the contact set, on each side.
        let ply = Parser::<DefaultElement>::new()
            .read_ply(&mut std::fs::File::open(&export).unwrap())
            .expect("ply-rs reads the export");
        let faces = &ply.payload["face"];
        let vertices = &ply.payload["vertex"];
        assert_eq!(faces.len(), na + nb);
        let red: BTreeSet<u32> = (0..na)
            .filter(|&f| colour(&faces[f]) == [220, 30, 30])
            .map(|f| f as u32)
            .collect();
        let orange: BTreeSet<u32> = (na..na + nb)
            .filter(|&f| colour(&faces[f]) == [255, 150, 0])
            .map(|f| (f - na) as u32)
            .collect();
        assert_eq!(
            red,
            pairs.iter().map(|p| p.0).collect::<BTreeSet<_>>(),
            "A's coloured faces"
        );
        assert_eq!(
            orange,
            pairs.iter().map(|p| p.1).collect::<BTreeSet<_>>(),
            "B's coloured faces"
        );
        // Vertex colours repeat the face colours (three unshared vertices per face).
        assert_eq!(vertices.len(), 3 * (na + nb));
        for (f, face) in faces.iter().enumerate() {
            for v in 0..3 {
                assert_eq!(
                    colour(&vertices[3 * f + v]),
                    colour(face),
                    "face {f} vertex {v}"
                );
            }
        }
    }
}

#[test]
fn exit_code_is_1_when_colliding_0_when_not_and_2_on_errors() {
    let sphere = fixture("icosphere-1.ply");
    let s = path(&sphere);
    let code = |extra: &[&str]| {
        let mut args = vec!["collide", s, s];
        args.extend_from_slice(extra);
        ccd(&args).status.code().expect("exited")
    };
    assert_eq!(code(&["--pose-b", "0.2,0,0", "--exit-code"]), 1);
    assert_eq!(code(&["--pose-b", "0.2,0,0", "--exit-code", "--json"]), 1);
    assert_eq!(code(&["--pose-b", "10,0,0", "--exit-code"]), 0);
    // Without the flag a collision is a success, as before.
    assert_eq!(code(&["--pose-b", "0.2,0,0"]), 0);
    let missing = ccd(&["collide", s, "/nonexistent/x.obj", "--exit-code"]);
    assert_eq!(missing.status.code(), Some(2), "{missing:?}");
    assert!(String::from_utf8_lossy(&missing.stderr).starts_with("error: "));
    let missing = ccd(&["collide", s, "/nonexistent/x.obj"]);
    assert_eq!(missing.status.code(), Some(1), "{missing:?}");
}

#[test]
fn both_quaternion_orders_give_the_contacts_of_the_rotation_vector() {
    let (cube, sphere) = (fixture("cube.obj"), fixture("icosphere-1.ply"));
    let r = Vector3::new(0.4, -0.9, 0.3);
    let q = UnitQuaternion::from_scaled_axis(r);
    let run = |pose: String, order: &str| {
        contacts(&ccd(&[
            "collide",
            path(&cube),
            path(&sphere),
            "--pose-b",
            &pose,
            "--json",
            "--quat-order",
            order,
        ]))
    };
    let expected = run(format!("0.4,0.1,0,{},{},{}", r.x, r.y, r.z), "wxyz");
    assert!(!expected.is_empty());
    assert_eq!(
        run(format!("0.4,0.1,0,{},{},{},{}", q.w, q.i, q.j, q.k), "wxyz"),
        expected
    );
    assert_eq!(
        run(format!("0.4,0.1,0,{},{},{},{}", q.i, q.j, q.k, q.w), "xyzw"),
        expected
    );
    // The scalar-last numbers read in the default order are another rotation, with other contacts.
    assert_ne!(
        run(format!("0.4,0.1,0,{},{},{},{}", q.i, q.j, q.k, q.w), "wxyz"),
        expected
    );
    let bad = ccd(&[
        "collide",
        path(&cube),
        path(&sphere),
        "--quat-order",
        "zyxw",
    ]);
    assert_eq!(bad.status.code(), Some(2));
}

/// An export that cannot be written is refused in one line naming the file and the system's reason once each.
#[test]
fn an_unwritable_export_names_the_file_and_the_reason_once() {
    let missing = scratch("missing-dir").join("hits.ply");
    let cube = fixture("cube.obj");
    let out = ccd(&[
        "collide",
        path(&cube),
        path(&cube),
        "--pose-b",
        "0.5,0,0",
        "--export",
        path(&missing),
    ]);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    let shown = missing.display().to_string();
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with(&format!("error: cannot write {shown}: ")),
        "{err}"
    );
    assert_eq!(err.matches(&shown).count(), 1, "{err}");
    assert_eq!(err.matches("(os error").count(), 1, "{err}");
}

//! End-to-end tests of the `ccd` binary on the mesh fixtures.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};

use ccd_testkit::{ToolRun, run_tool};
use serde_json::Value;

/// One run of `ccd`.
fn ccd<I, S>(args: I) -> ToolRun
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    run_tool(env!("CARGO_BIN_EXE_ccd"), args)
}

/// What these tests expect of a run.
trait Expect {
    /// Asserts success and returns stdout.
    fn ok(self) -> String;
    /// Asserts success and parses stdout as JSON.
    fn json(self) -> Value;
    /// Asserts the error contract: status `code`, nothing on stdout, and
    /// exactly one stderr line, starting with `error:`; returns that line.
    fn fails(self, code: i32) -> String;
}

impl Expect for ToolRun {
    fn ok(self) -> String {
        assert_eq!(self.code, 0, "ccd failed: {}", self.stderr);
        self.stdout
    }

    fn json(self) -> Value {
        let out = self.ok();
        serde_json::from_str(&out).unwrap_or_else(|e| panic!("not JSON ({e}): {out}"))
    }

    fn fails(self, code: i32) -> String {
        assert_eq!(
            self.code, code,
            "stdout: {}\nstderr: {}",
            self.stdout, self.stderr
        );
        assert_eq!(self.stdout, "", "stdout of a failure");
        let lines: Vec<&str> = self.stderr.lines().collect();
        assert_eq!(lines.len(), 1, "stderr is not one line: {:?}", self.stderr);
        assert!(lines[0].starts_with("error: "), "stderr: {:?}", self.stderr);
        lines[0].to_string()
    }
}

fn fixture(name: &str) -> PathBuf {
    let dir = if name.ends_with(".bvh") {
        "bvh"
    } else {
        "meshes"
    };
    let path = ccd_testkit::fixture(dir).join(name);
    assert!(path.exists(), "missing fixture {}", path.display());
    path
}

/// A fresh scratch directory for one test.
fn scratch(test: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("ccd-cli")
        .join(test);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

/// The flags selecting each of the eight tree types.
const TYPES: [&[&str]; 8] = [
    &["--bv", "obb"],
    &["--bv", "aabb"],
    &["--bv", "sphere"],
    &["--bv", "rss"],
    &["--bv", "obb", "--f32"],
    &["--bv", "aabb", "--f32"],
    &["--bv", "sphere", "--f32"],
    &["--bv", "rss", "--f32"],
];

/// Poses of B against a unit-size A that make them overlap.
const NEAR: &str = "0.3,0.2,0.1,0.3,0.5,0.7";

fn collide_json(a: &Path, b: &Path, extra: &[&str]) -> Value {
    let mut args: Vec<&OsStr> = vec![
        "collide".as_ref(),
        a.as_ref(),
        b.as_ref(),
        "--json".as_ref(),
    ];
    args.extend(extra.iter().map(OsStr::new));
    ccd(args).json()
}

#[test]
fn build_info_collide_chain_matches_in_memory_results() {
    let dir = scratch("chain");
    let (cube, sphere) = (fixture("cube.obj"), fixture("icosphere-2-binary.ply"));
    for flags in TYPES {
        let f32 = flags.contains(&"--f32");
        let tag = flags.join("");
        let (cube_bvh, sphere_bvh) = (
            dir.join(format!("cube{tag}.bvh")),
            dir.join(format!("sphere{tag}.bvh")),
        );
        for (mesh, bvh) in [(&cube, &cube_bvh), (&sphere, &sphere_bvh)] {
            let mut args: Vec<&OsStr> =
                vec!["build".as_ref(), mesh.as_ref(), "-o".as_ref(), bvh.as_ref()];
            args.extend(flags.iter().map(OsStr::new));
            let summary = ccd(args).ok();
            assert_eq!(summary.lines().count(), 1, "{summary}");
            assert!(
                summary.contains("triangles") && summary.contains("nodes"),
                "{summary}"
            );
        }

        let info = ccd([OsStr::new("info"), cube_bvh.as_ref(), "--json".as_ref()]).json();
        assert_eq!(info["source"], "bvh");
        assert_eq!(info["format_version"], 2);
        assert_eq!(info["scalar"], if f32 { "f32" } else { "f64" });
        assert_eq!(info["bv"], flags[1]);
        assert_eq!(info["triangles"], 12);
        assert_eq!(info["vertices"], 8);
        assert_eq!(info["options"]["leaf_size"], 1);
        assert_eq!(info["options"]["fit"], "hull");
        assert_eq!(info["nodes"], 23);
        assert_eq!(
            info["file_bytes"],
            std::fs::metadata(&cube_bvh).unwrap().len()
        );

        // The same query from meshes, from .bvh files, and mixed.
        let pose = ["--pose-b", NEAR];
        let mut with_flags = pose.to_vec();
        with_flags.extend_from_slice(flags);
        let reference = collide_json(&cube, &sphere, &with_flags);
        assert_eq!(reference["colliding"], true, "{reference}");
        assert!(!reference["contacts"].as_array().unwrap().is_empty());
        assert_eq!(
            collide_json(&cube_bvh, &sphere_bvh, &pose),
            reference,
            "{flags:?}"
        );
        assert_eq!(
            collide_json(&cube_bvh, &sphere, &pose),
            reference,
            "{flags:?}"
        );
        assert_eq!(
            collide_json(&cube, &sphere_bvh, &with_flags),
            reference,
            "{flags:?}"
        );
    }
}

#[test]
fn json_outputs_have_their_fields() {
    let (cube, tetra) = (fixture("cube.obj"), fixture("tetrahedron.obj"));
    let hit = collide_json(&cube, &tetra, &["--pose-b", "0.3,0.3,0.3"]);
    assert_eq!(hit["colliding"], true);
    let contacts = hit["contacts"].as_array().unwrap();
    assert!(contacts.iter().all(|c| {
        c.as_array()
            .is_some_and(|p| p.len() == 2 && p.iter().all(Value::is_u64))
    }));
    let stats = &hit["stats"];
    for field in [
        "bv_tests",
        "bv_disjoint",
        "bv_overlapping",
        "tri_tests",
        "contacts",
    ] {
        assert!(stats[field].is_u64(), "stats.{field} in {hit}");
    }
    assert_eq!(stats["contacts"], contacts.len() as u64);
    assert_eq!(
        stats["bv_tests"].as_u64(),
        Some(stats["bv_disjoint"].as_u64().unwrap() + stats["bv_overlapping"].as_u64().unwrap())
    );

    let info = ccd([
        OsStr::new("info"),
        tetra.as_ref(),
        "--json".as_ref(),
        "--bv".as_ref(),
        "aabb".as_ref(),
    ])
    .json();
    assert_eq!(info["source"], "mesh");
    assert_eq!(info["format_version"], Value::Null);
    assert_eq!(
        (info["bv"].as_str(), info["scalar"].as_str()),
        (Some("aabb"), Some("f64"))
    );
    assert_eq!(
        (info["triangles"].as_u64(), info["vertices"].as_u64()),
        (Some(4), Some(4))
    );
    for field in ["nodes", "leaves", "max_leaf_faces", "depth", "file_bytes"] {
        assert!(info[field].is_u64(), "{field} in {info}");
    }
    let memory = &info["memory"];
    let parts: u64 = ["nodes", "faces", "vertices"]
        .iter()
        .map(|f| memory[f].as_u64().unwrap())
        .sum();
    assert_eq!(memory["total"].as_u64(), Some(parts));
}

#[test]
fn text_outputs() {
    let dir = scratch("text");
    let (cube, tetra) = (fixture("cube.obj"), fixture("tetrahedron.obj"));
    let bvh = dir.join("tetra.bvh");
    let summary = ccd([
        OsStr::new("build"),
        tetra.as_ref(),
        "-o".as_ref(),
        bvh.as_ref(),
        "--leaf-size".as_ref(),
        "2".as_ref(),
    ])
    .ok();
    assert!(
        summary.starts_with(&format!("{}: 4 triangles", bvh.display())),
        "{summary}"
    );

    let info = ccd([OsStr::new("info"), bvh.as_ref()]).ok();
    for needle in [
        "format version 2",
        "types:      f64 obb",
        "leaf size 2, fit hull",
        "triangles:  4",
        "memory:",
    ] {
        assert!(info.contains(needle), "{needle:?} not in {info}");
    }
    let info = ccd([OsStr::new("info"), tetra.as_ref()]).ok();
    assert!(info.contains("built in memory"), "{info}");

    let hit = ccd([
        OsStr::new("collide"),
        cube.as_ref(),
        bvh.as_ref(),
        "--pose-b=-0.2,0.1,0.2,0,0,1".as_ref(),
    ])
    .ok();
    let lines: Vec<&str> = hit.lines().collect();
    let (pairs, tail) = lines.split_at(lines.len() - 2);
    assert!(!pairs.is_empty(), "{hit}");
    for pair in pairs {
        let ids: Vec<u32> = pair.split(' ').map(|n| n.parse().unwrap()).collect();
        assert!(ids.len() == 2 && ids[0] < 12 && ids[1] < 4, "{pair}");
    }
    assert!(tail[0].starts_with("colliding ("), "{hit}");
    assert!(tail[1].starts_with("bv_tests "), "{hit}");

    let help = ccd(["collide", "--help"]).ok();
    assert!(
        help.contains("tx,ty,tz,rx,ry,rz")
            && help.contains("wxyz (scalar first, the default)")
            && help.contains("rpy:tx,ty,tz,roll,pitch,yaw")
            && help.contains("matrix:m00"),
        "{help}"
    );
}

#[test]
fn first_reports_at_most_one_contact() {
    let sphere = fixture("icosphere-2-binary.ply");
    let all = collide_json(&sphere, &sphere, &["--pose-b", "0.2,0,0"]);
    assert!(all["contacts"].as_array().unwrap().len() > 1, "{all}");
    for flags in TYPES {
        let mut extra = vec!["--first", "--pose-b", "0.2,0,0"];
        extra.extend_from_slice(flags);
        let first = collide_json(&sphere, &sphere, &extra);
        assert_eq!(first["contacts"].as_array().unwrap().len(), 1, "{first}");
        assert_eq!(first["colliding"], true);
    }
}

#[test]
fn far_apart_models_do_not_collide() {
    let (cube, sphere) = (fixture("cube-binary.stl"), fixture("icosphere-1.ply"));
    for pose in ["10,0,0", "0,-10,0,1,2,3", "0,0,10,0.5,0.5,0.5,0.5"] {
        let far = collide_json(&cube, &sphere, &["--pose-b", pose]);
        assert_eq!(far["colliding"], false, "{far}");
        assert_eq!(far["contacts"], Value::Array(vec![]));
        assert_eq!(far["stats"]["tri_tests"], 0);
    }
    let text = ccd([
        OsStr::new("collide"),
        cube.as_ref(),
        sphere.as_ref(),
        "--pose-a".as_ref(),
        "-10,0,0".as_ref(),
    ])
    .ok();
    assert!(text.starts_with("not colliding (0 contacts"), "{text}");
    // Both STL flavours hold the same cube.
    let ascii = collide_json(&fixture("cube-ascii.stl"), &sphere, &["--pose-b", NEAR]);
    assert_eq!(collide_json(&cube, &sphere, &["--pose-b", NEAR]), ascii);
}

#[test]
fn bad_inputs_fail_with_one_error_line_naming_the_file() {
    let dir = scratch("bad");
    let tetra = fixture("tetrahedron.obj");
    let good = dir.join("good.bvh");
    ccd([
        OsStr::new("build"),
        tetra.as_ref(),
        "-o".as_ref(),
        good.as_ref(),
    ])
    .ok();
    let bytes = std::fs::read(&good).unwrap();

    let truncated = dir.join("truncated.bvh");
    std::fs::write(&truncated, &bytes[..bytes.len() / 2]).unwrap();
    let flipped = dir.join("flipped.bvh");
    let mut damaged = bytes.clone();
    let at = damaged.len() - 20;
    damaged[at] ^= 0xff;
    std::fs::write(&flipped, &damaged).unwrap();
    let garbage = dir.join("garbage.bvh");
    std::fs::write(&garbage, b"this is not a hierarchy, just some text\n").unwrap();
    let empty = dir.join("empty.bvh");
    std::fs::write(&empty, b"").unwrap();
    let unknown = dir.join("mesh.xyz");
    std::fs::write(&unknown, b"1 2 3\n").unwrap();
    let missing = dir.join("does-not-exist.obj");

    let mut bad: Vec<PathBuf> = vec![truncated, garbage, empty, unknown, missing];
    for name in [
        "nan.obj",
        "index-out-of-range.obj",
        "empty.obj",
        "two-vertex-face.obj",
        "truncated-binary.stl",
        "garbage.ply",
        "index-out-of-range.ply",
        "negative-index.ply",
    ] {
        bad.push(fixture(&format!("bad/{name}")));
    }
    for path in &bad {
        let name = path.file_name().unwrap().to_str().unwrap();
        let line = ccd([OsStr::new("info"), path.as_ref()]).fails(1);
        assert!(line.contains(name), "{line}");
        let line = ccd([OsStr::new("collide"), tetra.as_ref(), path.as_ref()]).fails(1);
        assert!(line.contains(name), "{line}");
        let line = ccd([
            OsStr::new("build"),
            path.as_ref(),
            "-o".as_ref(),
            dir.join("out.bvh").as_ref(),
        ])
        .fails(1);
        assert!(line.contains(name), "{line}");
    }
    // A flipped byte in the tree data is caught by validation or harmless;
    // either way no panic and, on failure, one line.
    let run = ccd([OsStr::new("info"), flipped.as_ref()]);
    if run.code != 0 {
        run.fails(1);
    }

    // Mixed types between two .bvh files, or against explicit flags.
    let aabb = dir.join("aabb.bvh");
    ccd([
        OsStr::new("build"),
        tetra.as_ref(),
        "-o".as_ref(),
        aabb.as_ref(),
        "--bv".as_ref(),
        "aabb".as_ref(),
    ])
    .ok();
    let line = ccd([OsStr::new("collide"), good.as_ref(), aabb.as_ref()]).fails(1);
    assert!(
        line.contains("f64 obb") && line.contains("f64 aabb"),
        "{line}"
    );
    let line = ccd([
        OsStr::new("collide"),
        good.as_ref(),
        tetra.as_ref(),
        "--f32".as_ref(),
    ])
    .fails(1);
    assert!(line.contains("good.bvh"), "{line}");
    // `build` wants a mesh.
    let line = ccd([
        OsStr::new("build"),
        good.as_ref(),
        "-o".as_ref(),
        dir.join("again.bvh").as_ref(),
    ])
    .fails(1);
    assert!(line.contains("good.bvh"), "{line}");
    // An unwritable output.
    let line = ccd([
        OsStr::new("build"),
        tetra.as_ref(),
        "-o".as_ref(),
        dir.join("no/such/dir.bvh").as_ref(),
    ])
    .fails(1);
    assert!(line.contains("dir.bvh"), "{line}");
}

#[test]
fn mesh_inputs_that_disagree_with_their_file_fail_naming_file_and_value() {
    let dir = scratch("mesh-limits");
    let out = dir.join("out.bvh");
    // The binary cube (12 triangles, 684 bytes) with a header that declares 1.
    let mut bytes = std::fs::read(fixture("cube-binary.stl")).unwrap();
    bytes[80..84].copy_from_slice(&1u32.to_le_bytes());
    let stl = dir.join("cube.stl");
    std::fs::write(&stl, &bytes).unwrap();
    let line = ccd([
        OsStr::new("build"),
        stl.as_ref(),
        "-o".as_ref(),
        out.as_ref(),
    ])
    .fails(1);
    assert!(
        line.ends_with(
            "cube.stl: binary STL header declares 1 triangle but the file holds 12 (684 bytes)"
        ),
        "{line}"
    );
    assert!(!out.exists(), "nothing is written for a refused mesh");

    let ply = dir.join("absurd.ply");
    std::fs::write(
        &ply,
        "ply\nformat ascii 1.0\nelement vertex 99999999999\nproperty float x\n\
         property float y\nproperty float z\nend_header\n0 0 0\n",
    )
    .unwrap();
    let line = ccd([OsStr::new("info"), ply.as_ref()]).fails(1);
    assert!(
        line.contains("absurd.ply: the PLY header declares 99999999999 `vertex` elements"),
        "{line}"
    );

    #[cfg(target_os = "linux")]
    for name in ["zero.obj", "zero.stl", "zero.ply"] {
        let tetra = fixture("tetrahedron.obj");
        let link = dir.join(name);
        std::os::unix::fs::symlink("/dev/zero", &link).unwrap();
        let line = ccd([OsStr::new("collide"), tetra.as_ref(), link.as_ref()]).fails(1);
        assert!(
            line.ends_with(&format!(
                "{name}: not a regular file but a character device; mesh files must be regular files"
            )),
            "{line}"
        );
    }
}

#[test]
fn usage_errors_exit_2_with_one_line() {
    let tetra = fixture("tetrahedron.obj");
    for pose in ["1,2", "1,2,x", "1,2,3,4", "nan,0,0", "0,0,0,2,0,0,0", ""] {
        let line = ccd([
            OsStr::new("collide"),
            tetra.as_ref(),
            tetra.as_ref(),
            "--pose-b".as_ref(),
            pose.as_ref(),
        ])
        .fails(2);
        assert!(line.contains("--pose-b"), "{line}");
    }
    ccd(["collide", "only-one.obj"]).fails(2);
    ccd(["build", "x.obj"]).fails(2);
    ccd(["build", "x.obj", "-o", "x.bvh", "--leaf-size", "0"]).fails(2);
    ccd(["build", "x.obj", "-o", "x.bvh", "--bv", "kdop"]).fails(2);
    ccd(["frobnicate"]).fails(2);
    ccd(Vec::<&str>::new()).fails(2);
}

#[test]
fn committed_bvh_fixture_opens_and_matches_its_mesh() {
    let bvh = fixture("icosphere-2-obb-f32-v2.bvh");
    let info = ccd([OsStr::new("info"), bvh.as_ref(), "--json".as_ref()]).json();
    assert_eq!(
        (info["scalar"].as_str(), info["bv"].as_str()),
        (Some("f32"), Some("obb"))
    );
    assert_eq!(
        (info["triangles"].as_u64(), info["nodes"].as_u64()),
        (Some(320), Some(639))
    );
    let mesh = fixture("icosphere-2-binary.ply");
    let pose = ["--pose-b", "0.4,0.1,0,0.2,0,0"];
    // The .bvh input decides the types; the mesh is built to match.
    let mapped = collide_json(&bvh, &mesh, &pose);
    let built = collide_json(&mesh, &mesh, &["--pose-b", pose[1], "--f32"]);
    // The same contact set; the counters may differ where the build algorithm has changed since the
    // fixture was written (fixtures/README.md).
    assert!(!contact_pairs(&mapped).is_empty());
    assert_eq!(contact_pairs(&mapped), contact_pairs(&built));
    assert_eq!(mapped["scalar"], "f32");
    assert_eq!(built["scalar"], "f32");
}

/// The contact pairs of a `collide --json` answer, sorted.
fn contact_pairs(v: &Value) -> Vec<(u64, u64)> {
    let mut p: Vec<(u64, u64)> = v["contacts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| (c[0].as_u64().unwrap(), c[1].as_u64().unwrap()))
        .collect();
    p.sort_unstable();
    p
}

/// A mesh against itself at one shared rotated pose reports the same contact set as at the identity pose
/// (every pair that touches, exactly), in f32 and f64.
#[test]
fn shared_rotated_pose_reports_every_touching_pair() {
    let sphere = fixture("icosphere-2-binary.ply");
    for precision in [&[][..], &["--f32"][..]] {
        let at_identity = contact_pairs(&collide_json(&sphere, &sphere, precision));
        assert!(at_identity.len() > 1000, "{}", at_identity.len());
        let pose = "0,0,0,0.2,0.4,0.6";
        let mut extra = vec!["--pose-a", pose, "--pose-b", pose];
        extra.extend_from_slice(precision);
        assert_eq!(
            contact_pairs(&collide_json(&sphere, &sphere, &extra)),
            at_identity
        );
    }
}

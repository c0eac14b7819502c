//! `ccd build` never destroys data: it refuses to write over its input, and an interrupted write leaves the
//! previous output intact (the archive is written beside it and renamed over it).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use ccd_testkit::mesh_fixture as mesh;

fn ccd(args: &[&Path]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ccd"))
        .args(args)
        .output()
        .expect("the ccd binary runs")
}

fn scratch(test: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("ccd-cli-build-output")
        .join(test);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

/// Asserts the one-line error contract (status 1, one `error:` line) and returns the line.
fn refused(out: &Output) -> String {
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("error: "), "{err}");
    err
}

/// `ccd build x.obj -o x.obj` (also through a hard link or a symbolic link) is refused and leaves the mesh as
/// it was.
#[test]
fn output_over_the_input_is_refused() {
    let dir = scratch("same");
    let obj = dir.join("cube.obj");
    std::fs::copy(mesh("cube.obj"), &obj).expect("copy the mesh");
    let before = std::fs::read(&obj).expect("read");
    let hard = dir.join("hard.obj");
    std::fs::hard_link(&obj, &hard).expect("hard link");
    let mut aliases = vec![obj.clone(), hard];
    #[cfg(unix)]
    {
        let soft = dir.join("soft.bvh");
        std::os::unix::fs::symlink(&obj, &soft).expect("symlink");
        aliases.push(soft);
    }
    for out in &aliases {
        let line = refused(&ccd(&[Path::new("build"), &obj, Path::new("-o"), out]));
        assert!(line.contains("is the input mesh"), "{line}");
        assert_eq!(
            std::fs::read(&obj).expect("read"),
            before,
            "{}",
            out.display()
        );
    }
    // A different output is fine.
    let ok = ccd(&[
        Path::new("build"),
        &obj,
        Path::new("-o"),
        &dir.join("cube.bvh"),
    ]);
    assert!(ok.status.success(), "{ok:?}");
}

/// A build killed by a file-size limit while writing leaves the previous archive byte for byte, still valid.
#[cfg(unix)]
#[test]
fn interrupted_write_leaves_the_previous_file() {
    let dir = scratch("interrupted");
    let out = dir.join("model.bvh");
    let small = ccd(&[Path::new("build"), &mesh("cube.obj"), Path::new("-o"), &out]);
    assert!(small.status.success(), "{small:?}");
    let before = std::fs::read(&out).expect("read");
    // 8 blocks of 512 bytes: more than the cube's archive, less than the icosphere's.
    assert!(before.len() < 4096, "{} bytes", before.len());
    let limited = Command::new("sh")
        .arg("-c")
        .arg("ulimit -f 8 && exec \"$0\" build \"$1\" -o \"$2\"")
        .arg(env!("CARGO_BIN_EXE_ccd"))
        .arg(mesh("icosphere-2-binary.ply"))
        .arg(&out)
        .output()
        .expect("sh runs");
    assert!(
        !limited.status.success(),
        "the limited build should fail: {limited:?}"
    );
    assert_eq!(
        std::fs::read(&out).expect("read"),
        before,
        "the previous archive changed"
    );
    let info = ccd(&[Path::new("info"), &out]);
    assert!(info.status.success(), "{info:?}");
    // Without the limit the same build replaces it.
    let full = ccd(&[
        Path::new("build"),
        &mesh("icosphere-2-binary.ply"),
        Path::new("-o"),
        &out,
    ]);
    assert!(full.status.success(), "{full:?}");
    assert!(std::fs::read(&out).expect("read").len() > before.len());
}

/// A mesh file with vertices but no faces is refused as having no triangles (not "no vertices").
#[test]
fn a_mesh_without_faces_has_no_triangles() {
    let dir = scratch("faceless");
    let obj = dir.join("points.obj");
    std::fs::write(&obj, "v 0 0 0\nv 1 0 0\nv 0 1 0\n").expect("write");
    let line = refused(&ccd(&[
        Path::new("build"),
        &obj,
        Path::new("-o"),
        &dir.join("p.bvh"),
    ]));
    assert!(line.contains("no triangles"), "{line}");
}

/// An output that cannot be written (a directory, a missing directory) is refused in one line that names the
/// file once and gives the system's reason once.
#[test]
fn an_unwritable_output_names_the_file_and_the_reason_once() {
    let dir = scratch("unwritable");
    let taken = dir.join("taken.bvh");
    std::fs::create_dir(&taken).expect("a directory in the way");
    let missing = dir.join("missing").join("x.bvh");
    for out in [&taken, &missing] {
        let line = refused(&ccd(&[
            Path::new("build"),
            &mesh("cube.obj"),
            Path::new("-o"),
            out,
        ]));
        let shown = out.display().to_string();
        assert!(
            line.starts_with(&format!("error: cannot write {shown}: ")),
            "{line}"
        );
        assert_eq!(line.matches(&shown).count(), 1, "{line}");
        assert_eq!(line.matches("(os error").count(), 1, "{line}");
    }
}

/// `ccd build --method fast|reference` writes exactly the archive of the library's build with that method (and
/// the default is `fast`); the two methods' trees differ on this mesh, so the flag is not ignored.
#[test]
fn build_method_flag_selects_the_library_method() {
    use ccd::{BuildMethod, BuildOptions, Bvh, Obb};

    let dir = scratch("method");
    let input = mesh("icosphere-2-binary.ply");
    let loaded = ccd::io::read_mesh(&input).expect("fixture mesh");
    let archive = |method: BuildMethod| {
        let options = BuildOptions {
            method,
            ..BuildOptions::default()
        };
        Bvh::<f64, Obb<f64>>::build(loaded.vertices.clone(), &loaded.triangles, &options)
            .expect("valid mesh")
            .to_bytes()
            .expect("serialisable")
    };
    let run = |extra: &[&str], name: &str| {
        let out = dir.join(name);
        let mut args: Vec<&Path> = vec![Path::new("build"), &input, Path::new("-o"), &out];
        args.extend(extra.iter().map(Path::new));
        let status = ccd(&args);
        assert!(status.status.success(), "{status:?}");
        std::fs::read(&out).expect("archive written")
    };
    let (fast, reference) = (archive(BuildMethod::Fast), archive(BuildMethod::Reference));
    assert_ne!(fast, reference, "the two methods build the same tree here");
    assert_eq!(run(&[], "default.bvh"), fast);
    assert_eq!(run(&["--method", "fast"], "fast.bvh"), fast);
    assert_eq!(run(&["--method", "reference"], "reference.bvh"), reference);
}

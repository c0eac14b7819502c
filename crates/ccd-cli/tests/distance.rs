//! End-to-end tests of `ccd distance` and `ccd within` on the mesh fixtures: analytic distances, the
//! `--max-distance` and tolerance answers, JSON output, and one-line errors with a non-zero exit.

use ccd_testkit::{mesh_fixture, run_tool};
use serde_json::Value;

/// Runs `ccd` and returns (status, stdout, stderr).
fn ccd(args: &[&str]) -> (i32, String, String) {
    let run = run_tool(env!("CARGO_BIN_EXE_ccd"), args);
    (run.code, run.stdout, run.stderr)
}

fn fixture(name: &str) -> String {
    let p = mesh_fixture(name);
    assert!(p.exists(), "missing fixture {}", p.display());
    p.to_string_lossy().into_owned()
}

fn json(args: &[&str]) -> Value {
    let (code, stdout, stderr) = ccd(args);
    assert_eq!(code, 0, "ccd failed: {stderr}");
    serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("not JSON ({e}): {stdout}"))
}

/// Two unit cubes (half-extent 0.5) with centres 3 apart along x, the second turned 90° about z (a symmetry):
/// their faces x = 0.5 and x = 2.5 are 2 apart; the closest points lie on those faces.
#[test]
fn cubes_three_apart_are_two_apart() {
    let c = fixture("cube.obj");
    for scalar in [&[][..], &["--f32"][..]] {
        let mut args = vec![
            "distance",
            &c,
            &c,
            "--pose-b",
            "3,0,0,0,0,1.5707963267948966",
            "--json",
        ];
        args.extend_from_slice(scalar);
        let v = json(&args);
        let d = v["closest"]["distance"].as_f64().unwrap();
        assert!((d - 2.0).abs() < 1e-6, "{v}");
        let (pa, pb) = (&v["closest"]["point_a"], &v["closest"]["point_b"]);
        assert!(
            (pa[0].as_f64().unwrap() - 0.5).abs() < 1e-6
                && (pb[0].as_f64().unwrap() - 2.5).abs() < 1e-6,
            "{v}"
        );
        assert!(v["stats"]["bv_tests"].as_u64().unwrap() >= 1);
    }
    // Text output and max-distance.
    let (code, out, _) = ccd(&["distance", &c, &c, "--pose-b", "3,0,0"]);
    assert_eq!(code, 0);
    assert!(out.starts_with("distance 2\n"), "{out}");
    let v = json(&[
        "distance",
        &c,
        &c,
        "--pose-b",
        "3,0,0",
        "--max-distance",
        "1",
        "--json",
    ]);
    assert!(v["closest"].is_null() && v["beyond"] == 1.0, "{v}");
    // Overlapping cubes: distance 0.
    let v = json(&["distance", &c, &c, "--pose-b", "0.5,0,0", "--json"]);
    assert_eq!(v["closest"]["distance"], 0.0, "{v}");
}

/// `within` answers by the tolerance: the cubes 2 apart are within 2.5 and not within 1.5.
#[test]
fn within_answers_by_the_tolerance() {
    let c = fixture("cube.obj");
    let v = json(&[
        "within",
        &c,
        &c,
        "--pose-b",
        "3,0,0",
        "--tolerance",
        "2.5",
        "--json",
    ]);
    assert_eq!(v["within"], true, "{v}");
    assert!(v["witness"]["distance"].as_f64().unwrap() <= 2.5);
    let v = json(&[
        "within",
        &c,
        &c,
        "--pose-b",
        "3,0,0",
        "--tolerance",
        "1.5",
        "--json",
    ]);
    assert_eq!(v["within"], false, "{v}");
    assert!(v["witness"].is_null());
    let (code, out, _) = ccd(&["within", &c, &c, "--pose-b", "3,0,0", "--tolerance", "1.5"]);
    assert_eq!(code, 0);
    assert!(out.starts_with("not within 1.5"), "{out}");
}

/// Bad input: a NaN or negative error bound, a pose out of range, a NaN mesh: one line, non-zero exit.
#[test]
fn bad_input_is_one_line_and_a_non_zero_exit() {
    let c = fixture("cube.obj");
    for args in [
        vec!["distance", &c, &c, "--rel-err", "nan"],
        vec!["distance", &c, &c, "--abs-err=-1"],
        vec!["within", &c, &c, "--tolerance=-0.5"],
        vec![
            "within",
            &c,
            &c,
            "--tolerance",
            "1",
            "--pose-b",
            "1e300,0,0",
        ],
        vec!["distance", &c, &c, "--pose-a", "0,0,0,1e200,1e200,0"],
    ] {
        let (code, stdout, stderr) = ccd(&args);
        assert_ne!(code, 0, "{args:?} succeeded: {stdout}");
        assert_eq!(stderr.trim().lines().count(), 1, "{args:?}: {stderr}");
        assert!(stderr.starts_with("error:"), "{stderr}");
    }
    // Each refusal says what is wrong with the number as typed: negative (written with or without `=`), not a
    // number, not finite, or finite but beyond the largest f64 (out of range, not "not finite").
    for (args, reason) in [
        (
            vec!["within", &c, &c, "--tolerance", "-1"],
            r#""-1" is negative: it must be at least 0"#,
        ),
        (
            vec!["within", &c, &c, "--tolerance=-1"],
            r#""-1" is negative: it must be at least 0"#,
        ),
        (
            vec!["distance", &c, &c, "--abs-err", "abc"],
            r#""abc" is not a number"#,
        ),
        (
            vec!["distance", &c, &c, "--rel-err", "inf"],
            r#""inf" is not finite"#,
        ),
        (
            vec!["within", &c, &c, "--tolerance", "1e400"],
            r#""1e400" is out of the supported range"#,
        ),
        (
            vec!["distance", &c, &c, "--pose-b", "1e400,0,0"],
            r#"component 1 ("1e400") is out of the supported range"#,
        ),
    ] {
        let (code, _, stderr) = ccd(&args);
        assert_eq!(code, 2, "{args:?}: {stderr}");
        assert_eq!(stderr.trim().lines().count(), 1, "{args:?}: {stderr}");
        assert!(stderr.contains(reason), "{args:?}: {stderr}");
    }
    let bad = fixture("bad/nan.obj");
    let (code, _, stderr) = ccd(&["distance", &c, &bad]);
    assert_eq!(code, 1);
    assert!(
        stderr.contains("nan.obj")
            && stderr.contains(r#"line 3: vertex 0: x = "nan" is not finite"#),
        "{stderr}"
    );
}

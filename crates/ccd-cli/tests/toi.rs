//! End-to-end tests of `ccd toi` on the mesh fixtures: a bracket around the analytic time of a closing gap,
//! a certified miss, and the one-line error contract for a malformed MOTION.

use std::path::{Path, PathBuf};

use ccd_testkit::run_tool;
use serde_json::Value;

/// Runs `ccd` and returns (status, stdout, stderr).
fn ccd(args: &[&str]) -> (i32, String, String) {
    let run = run_tool(env!("CARGO_BIN_EXE_ccd"), args);
    (run.code, run.stdout, run.stderr)
}

/// The unit cube fixture (half-extent 0.5, centred at the origin).
fn cube() -> String {
    let path: PathBuf =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/meshes/cube.obj");
    assert!(path.exists(), "missing fixture {}", path.display());
    path.to_string_lossy().into_owned()
}

fn toi_json(args: &[&str]) -> Value {
    let (code, stdout, stderr) = ccd(args);
    assert_eq!(code, 0, "ccd failed: {stderr}");
    serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("not JSON ({e}): {stdout}"))
}

#[test]
fn approaching_cubes_bracket_the_analytic_time() {
    // B starts at x = 3 and slides to x = −3: the faces x = ±0.5 meet when 3 − 6t = 1, t* = 1/3.
    let c = cube();
    let truth = 1.0 / 3.0;
    for flags in [&[][..], &["--bv", "aabb"], &["--bv", "sphere"], &["--f32"]] {
        let mut args = vec![
            "toi",
            &c,
            &c,
            "--motion-a",
            "static",
            "--motion-b",
            "translate:-6,0,0",
            "--pose-b",
            "3,0,0",
            "--json",
        ];
        args.extend_from_slice(flags);
        let r = toi_json(&args);
        assert_eq!(r["contact"], true, "{flags:?}: {r}");
        let (lo, hi) = (
            r["toi"]["t_lo"].as_f64().unwrap(),
            r["toi"]["t_hi"].as_f64().unwrap(),
        );
        let slack = if flags.contains(&"--f32") {
            1e-5
        } else {
            1e-12
        };
        assert!(
            lo <= truth + slack && truth - slack <= hi,
            "{flags:?}: [{lo}, {hi}]"
        );
        assert!(
            hi - lo <= 2e-6 + 2.0 * slack,
            "{flags:?}: bracket [{lo}, {hi}] too wide"
        );
        for field in [
            "bv_tests",
            "primitive_tests",
            "queue_pushes",
            "motion_enclosures",
        ] {
            assert!(r["stats"][field].is_u64(), "stats.{field} in {r}");
        }
    }

    // Both move, in text form: A slides +3, B screws along x (no turn) by −3 from x = 3; same t* = 1/3.
    let (code, stdout, stderr) = ccd(&[
        "toi",
        &c,
        &c,
        "--motion-a",
        "translate:3,0,0",
        "--motion-b",
        "screw:1,0,0,0,-3",
        "--pose-b",
        "3,0,0",
        "--tolerance",
        "1e-4",
    ]);
    assert_eq!(code, 0, "{stderr}");
    let first: Vec<f64> = stdout
        .lines()
        .next()
        .unwrap()
        .split_whitespace()
        .map(|x| x.parse().unwrap())
        .collect();
    assert!(first[0] <= truth && truth <= first[1] + 1e-9, "{stdout}");
    assert!(
        stdout.contains("triangles ") && stdout.contains("feature "),
        "{stdout}"
    );
    assert!(stdout.contains("bv_tests "), "{stdout}");
}

/// Issue 12: the degenerate fixture (a tetrahedron and a collinear triangle on the x axis) against itself three
/// along x, closing at speed 6, first touches at t = 1/3 (it was reported at t = 0, triangles 4 and 4); and a
/// screw axis of length 2 is normalised: the same answer as the unit axis.
#[test]
fn degenerate_fixture_meets_at_a_third() {
    let path: PathBuf =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/meshes/degenerate.obj");
    let m = path.to_string_lossy().into_owned();
    let args = |motion: &'static str| -> Vec<String> {
        [
            "toi",
            &m,
            &m,
            "--motion-a",
            "static",
            "--motion-b",
            motion,
            "--pose-b",
            "3,0,0",
            "--json",
        ]
        .map(String::from)
        .to_vec()
    };
    let run = |motion| toi_json(&args(motion).iter().map(String::as_str).collect::<Vec<_>>());
    let r = run("translate:-6,0,0");
    let (lo, hi) = (
        r["toi"]["t_lo"].as_f64().unwrap(),
        r["toi"]["t_hi"].as_f64().unwrap(),
    );
    assert!(
        lo <= 1.0 / 3.0 && 1.0 / 3.0 <= hi && hi - lo <= 1.000001e-6,
        "{r}"
    );
    let (long, unit) = (run("screw:2,0,0,1,-6"), run("screw:1,0,0,1,-6"));
    assert_eq!(long["toi"], unit["toi"]);
    assert_eq!(long["stats"], unit["stats"]);
    let lo = unit["toi"]["t_lo"].as_f64().unwrap();
    assert!(lo <= 1.0 / 3.0 && 1.0 / 3.0 - lo <= 1e-6, "{unit}");
}

/// A motion left out is `static`: the issue's own command (`--motion-b` only) brackets t = 1/3 for the cubes,
/// and either motion left out answers exactly as `--motion-a static` / `--motion-b static` written out.
#[test]
fn a_motion_left_out_is_static() {
    let c = cube();
    let base = ["toi", &c, &c, "--pose-b", "3,0,0", "--json"];
    let with = |extra: &[&str]| toi_json(&[&base[..], extra].concat());
    let implicit = with(&["--motion-b", "translate:-6,0,0"]);
    let explicit = with(&["--motion-a", "static", "--motion-b", "translate:-6,0,0"]);
    assert_eq!(implicit, explicit);
    let lo = implicit["toi"]["t_lo"].as_f64().unwrap();
    let hi = implicit["toi"]["t_hi"].as_f64().unwrap();
    assert!(lo <= 1.0 / 3.0 && 1.0 / 3.0 <= hi, "{implicit}");
    // A moving towards a resting B: the same time, from the other side.
    let implicit = with(&["--motion-a", "translate:6,0,0"]);
    let explicit = with(&["--motion-a", "translate:6,0,0", "--motion-b", "static"]);
    assert_eq!(implicit, explicit);
    assert_eq!(implicit["contact"], true, "{implicit}");
    // Neither motion: both rest, three apart, so they never meet.
    let rest = with(&[]);
    assert_eq!(rest["contact"], false, "{rest}");
}

#[test]
fn far_motion_gives_no_contact() {
    let c = cube();
    let r = toi_json(&[
        "toi",
        &c,
        &c,
        "--motion-a",
        "rotate-translate:0,0,1,20,0,0,0",
        "--motion-b",
        "translate:0,6,0",
        "--pose-b",
        "3,0,0",
        "--json",
    ]);
    assert_eq!(r["contact"], false, "{r}");
    assert_eq!(r["toi"], Value::Null);
    let (code, stdout, _) = ccd(&[
        "toi",
        &c,
        &c,
        "--motion-a",
        "static",
        "--motion-b",
        "interp:3,0,0;3,5,0,0,0,3",
    ]);
    assert_eq!(code, 0);
    assert!(stdout.starts_with("no contact in [0, 1]"), "{stdout}");
}

#[test]
fn malformed_motion_is_one_usage_error() {
    let c = cube();
    for spec in [
        "translate:1,2",
        "spin:0,0,1",
        "screw:0,0,0,1,1",
        "interp:1,0,0",
    ] {
        let (code, stdout, stderr) =
            ccd(&["toi", &c, &c, "--motion-a", "static", "--motion-b", spec]);
        assert_eq!(code, 2, "{spec}: {stderr}");
        assert_eq!(stdout, "");
        let lines: Vec<&str> = stderr.lines().collect();
        assert_eq!(lines.len(), 1, "{spec}: {stderr:?}");
        assert!(lines[0].starts_with("error: "), "{spec}: {stderr:?}");
    }
    // A start pose next to an interp motion is refused at run time (status 1, one line).
    let (code, _, stderr) = ccd(&[
        "toi",
        &c,
        &c,
        "--motion-a",
        "static",
        "--motion-b",
        "interp:3,0,0;0,0,0",
        "--pose-b",
        "1,0,0",
    ]);
    assert_eq!(code, 1);
    assert_eq!(stderr.lines().count(), 1, "{stderr:?}");
    assert!(stderr.starts_with("error: "), "{stderr:?}");
}

/// The three inputs that used to run for minutes: an axis of huge components (normalised safely now, so the
/// query runs and finds the overlap at t = 0), a translation far outside the supported lengths, and a spin of
/// 10⁶ rad (beyond the angle limit). Each ends at once, with an answer or a one-line typed error naming the
/// value and the limit.
#[test]
fn out_of_range_motions_end_with_an_answer_or_a_typed_error() {
    let c = cube();
    let v = toi_json(&[
        "toi",
        &c,
        &c,
        "--motion-a",
        "static",
        "--motion-b",
        "screw:1e200,1e200,0,1,1",
        "--json",
    ]);
    assert_eq!(v["outcome"], "contact", "{v}");
    assert_eq!(v["toi"]["t_lo"], 0.0);
    for (args, needle) in [
        (
            vec![
                "--pose-b",
                "1e308,0,0",
                "--motion-b",
                "translate:-1e308,0,0",
            ],
            "motion of model b: start pose: translation x = 1e308 is out of the supported range for f64",
        ),
        (
            vec!["--motion-b", "rotate-translate:0,0,1,1e6,-6,0,0"],
            "motion of model b: angle = 1e6 is out of the supported range for f64: it must lie in [-4096, 4096]",
        ),
        (
            vec!["--t-max", "2"],
            "request t_max = 2 is out of the supported range",
        ),
    ] {
        let mut full = vec!["toi", &c, &c, "--motion-a", "static"];
        if !args.contains(&"--motion-b") {
            full.extend(["--motion-b", "static"]);
        }
        full.extend(args.iter().copied());
        let (code, stdout, stderr) = ccd(&full);
        assert_eq!(code, 1, "{full:?}: {stdout}");
        assert!(stderr.contains(needle), "{full:?}: {stderr}");
        assert_eq!(stderr.trim().lines().count(), 1, "{stderr}");
    }
}

/// A tiny budget turns a long search into an undecided answer with its certified t_lo, in text and JSON.
#[test]
fn a_tiny_budget_answers_undecided() {
    let c = cube();
    let args = [
        "toi",
        &c,
        &c,
        "--motion-a",
        "static",
        "--pose-b",
        "3,0,0",
        "--motion-b",
        "rotate-translate:1,1,0,400,-6,0,0",
        "--max-volume-tests",
        "50",
    ];
    let v = toi_json(&[&args[..], &["--json"]].concat());
    assert_eq!(v["outcome"], "undecided", "{v}");
    let t_lo = v["undecided_t_lo"].as_f64().expect("a certified t_lo");
    // The cubes (half-extent 0.5, corners at √3/2) cannot meet before B's centre is within √3 of A's:
    // 3 − 6t ≤ √3 at t ≥ 0.2113.
    assert!((0.0..=0.2113).contains(&t_lo), "{t_lo}");
    let (code, stdout, _) = ccd(&args);
    assert_eq!(code, 0);
    assert!(
        stdout.starts_with("undecided within the budget: no contact before"),
        "{stdout}"
    );
}

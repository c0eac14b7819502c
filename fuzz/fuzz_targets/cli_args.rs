//! Any bytes → a string (lossy UTF-8) → the CLI's `parse_pose` and `parse_motion` (also as `interp:` pose
//! pairs and every motion prefix) must return `Ok` or `Err`, never panic; every accepted pose is finite (its
//! translation and unit quaternion, also for a rotation vector of any size: one whose angle exceeds the supported
//! 4096 rad is refused) and every accepted motion's numbers are finite.
//!
//! The seeded counterpart that runs in CI is `crates/ccd-cli/tests/args_fuzz.rs`.

#![no_main]

use ccd_cli::args::{MotionArg, PoseArg, QuatOrder, parse_motion, parse_pose};
use libfuzzer_sys::fuzz_target;

fn assert_finite_pose(p: &PoseArg, input: &str) {
    let iso = p.isometry::<f64>(QuatOrder::Wxyz);
    let q = iso.rotation.quaternion().coords;
    assert!(
        iso.translation.vector.iter().all(|x| x.is_finite())
            && q.iter().all(|x| x.is_finite())
            && (q.norm() - 1.0).abs() < 1e-9,
        "accepted pose {input:?} is not finite: {iso:?}"
    );
}

fn assert_finite_motion(m: &MotionArg, input: &str) {
    let finite = |v: &[f64]| v.iter().all(|x| x.is_finite());
    match m {
        MotionArg::Static => {}
        MotionArg::Translate(d) => assert!(finite(d), "{input:?}"),
        MotionArg::Screw {
            axis,
            angle,
            distance,
        } => assert!(
            finite(axis) && axis.iter().any(|&c| c != 0.0) && finite(&[*angle, *distance]),
            "{input:?}: {m:?}"
        ),
        MotionArg::RotateTranslate {
            axis,
            angle,
            displacement,
        } => assert!(
            finite(axis)
                && axis.iter().any(|&c| c != 0.0)
                && angle.is_finite()
                && finite(displacement),
            "{input:?}: {m:?}"
        ),
        MotionArg::Interp(p0, p1) => {
            let rest = input.split_once(':').map_or("", |(_, r)| r);
            let (s0, s1) = rest.split_once(';').unwrap_or((rest, ""));
            assert_finite_pose(p0, s0);
            assert_finite_pose(p1, s1);
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let s = String::from_utf8_lossy(data);
    if let Ok(p) = parse_pose(&s) {
        assert_finite_pose(&p, &s);
    }
    for prefix in [
        "",
        "static:",
        "translate:",
        "screw:",
        "rotate-translate:",
        "interp:",
    ] {
        let m = format!("{prefix}{s}");
        if let Ok(arg) = parse_motion(&m) {
            assert_finite_motion(&arg, &m);
        }
    }
});

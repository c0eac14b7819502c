//! The optimised 15-axis SAT against a brute-force corner-projection oracle,
//! its guard, and `Obb::overlaps` (Gottschalk 2000, §4.2–4.5).

mod common;

use ccd_bv::nalgebra::{Matrix3, Vector3};
use ccd_bv::sat::{obb_disjoint, obb_separation};
use ccd_bv::{BoundingVolume, Obb, Pose, Real};
use common::{Rng, arr, oracle_disjoint};

/// A random box pair in A's frame: (R, T, a, b), with exactly parallel axes
/// in about half of the cases and gaps of the order of the boxes.
fn pair(rng: &mut Rng) -> (Matrix3<f64>, Vector3<f64>, [f64; 3], [f64; 3]) {
    let r = rng.rotation_mixed();
    let t = rng.vec(-2.5, 2.5);
    (r, t, rng.half(), rng.half())
}

#[test]
fn unguarded_sat_matches_oracle() {
    let mut rng = Rng::new(1);
    let (mut overlapping, mut mismatches) = (0, 0);
    for _ in 0..20_000 {
        let (r, t, a, b) = pair(&mut rng);
        let oracle = oracle_disjoint(&r, &t, &a, &b);
        overlapping += usize::from(!oracle);
        mismatches += usize::from(obb_disjoint(&r, &t, &a, &b, 0.0) != oracle);
    }
    assert_eq!(mismatches, 0);
    assert!(
        overlapping > 3_000 && overlapping < 17_000,
        "{overlapping} overlapping pairs: unbalanced sample"
    );
}

#[test]
fn guarded_sat_is_conservative() {
    let mut rng = Rng::new(2);
    let mut extra = 0;
    for _ in 0..20_000 {
        let (r, t, a, b) = pair(&mut rng);
        let oracle = oracle_disjoint(&r, &t, &a, &b);
        let guarded = obb_disjoint(&r, &t, &a, &b, f64::SAT_GUARD);
        assert!(
            !guarded || oracle,
            "guarded SAT separates overlapping boxes: {r:?} {t:?} {a:?} {b:?}"
        );
        extra += usize::from(oracle && !guarded);
        // f32 with its own guard: conservative against the exact f64 oracle
        // of the f32-rounded boxes.
        let (r32, t32): (Matrix3<f32>, Vector3<f32>) = (r.cast(), t.cast());
        let (a32, b32) = (a.map(|x| x as f32), b.map(|x| x as f32));
        let oracle32 = oracle_disjoint(
            &r32.cast(),
            &t32.cast(),
            &a32.map(f64::from),
            &b32.map(f64::from),
        );
        assert!(!obb_disjoint(&r32, &t32, &a32, &b32, f32::SAT_GUARD) || oracle32);
    }
    assert!(
        extra < 200,
        "the guard made {extra} of 20000 disjoint pairs overlap"
    );
}

#[test]
fn near_parallel_edges_with_noisy_rotations_never_false_disjoint() {
    // A turn about A's z axis with independent round-off-sized noise on every
    // entry (the thesis §4.5 failure mode: a product of rotations is only
    // nearly orthonormal, so A_2 ∥ B_2 only up to round-off), A flat across
    // the shared axis. Without the guard a share of these pairs is falsely
    // separated by the A_2 × B_2 axis.
    let mut rng = Rng::new(3);
    let (mut checked, mut unguarded_false) = (0, 0);
    for _ in 0..5_000 {
        let (s, c) = rng.range(0.0, 6.3).sin_cos();
        let turn = Matrix3::new(c, -s, 0.0, s, c, 0.0, 0.0, 0.0, 1.0);
        let r = turn + Matrix3::from_fn(|_, _| rng.range(-1e-15, 1e-15));
        let a = [0.0, rng.range(0.1, 3.0), rng.range(0.1, 3.0)];
        let b = [
            rng.range(0.1, 3.0),
            rng.range(0.1, 3.0),
            rng.range(0.1, 3.0),
        ];
        let t = rng.vec(-3.0, 3.0);
        if !oracle_disjoint(&r, &t, &a, &b) {
            checked += 1;
            assert!(
                !obb_disjoint(&r, &t, &a, &b, f64::SAT_GUARD),
                "{r:?} {t:?} {a:?} {b:?}"
            );
            unguarded_false += usize::from(obb_disjoint(&r, &t, &a, &b, 0.0));
        }
    }
    assert!(checked > 1_000, "{checked}");
    assert!(
        unguarded_false > 0,
        "the scenario does not exercise the guard"
    );
}

#[test]
fn thesis_regression_case() {
    let a = [3.53553, 1.76777, 0.0];
    let b = [2.33155, 0.565685, 0.56452];
    let t = Vector3::new(-0.147256, 1.76777, 1.80947);
    let exact = Matrix3::new(
        -0.0641566, 0.0, -0.99794, 0.0, 1.0, 0.0, -0.99794, 0.0, 0.0641566,
    );
    let noisy = Matrix3::new(
        -0.0641566,
        -5.54743e-16,
        -0.99794,
        1.54303e-17,
        1.0,
        -2.22883e-16,
        -0.99794,
        6.41346e-20,
        0.0641566,
    );
    assert!(
        obb_disjoint(&noisy, &t, &a, &b, 0.0),
        "unguarded test must fail on the perturbed rotation"
    );
    assert!(!obb_disjoint(&noisy, &t, &a, &b, 1e-6));
    assert!(!obb_disjoint(&exact, &t, &a, &b, 0.0));
    assert!(!obb_disjoint(&exact, &t, &a, &b, 1e-6));
    assert!(!oracle_disjoint(&exact, &t, &a, &b));
}

#[test]
fn axis_aligned_threshold() {
    let one = [1.0; 3];
    let at = |g: f64, guard: f64| {
        obb_disjoint(
            &Matrix3::identity(),
            &Vector3::new(2.0 + g, 0.0, 0.0),
            &one,
            &one,
            guard,
        )
    };
    assert!(!at(0.0, 0.0) && !at(0.0, 1e-6), "touching boxes overlap");
    assert!(at(1e-9, 0.0));
    assert!(!at(2.9e-6, 1e-6));
    assert!(at(3.1e-6, 1e-6));
    // R = I reduces to the per-axis interval test.
    let mut rng = Rng::new(4);
    for _ in 0..2_000 {
        let (t, a, b) = (rng.vec(-3.0, 3.0), rng.half(), rng.half());
        let expect = (0..3).any(|i| t[i].abs() > a[i] + b[i]);
        assert_eq!(obb_disjoint(&Matrix3::identity(), &t, &a, &b, 0.0), expect);
    }
}

#[test]
fn symmetric_under_swap() {
    let mut rng = Rng::new(5);
    for _ in 0..10_000 {
        let (r, t, a, b) = pair(&mut rng);
        let (rs, ts) = (r.transpose(), -(r.transpose() * t));
        assert_eq!(
            obb_disjoint(&r, &t, &a, &b, 0.0),
            obb_disjoint(&rs, &ts, &b, &a, 0.0),
            "{r:?} {t:?} {a:?} {b:?}"
        );
    }
}

#[test]
fn no_nan_for_parallel_and_flat_boxes() {
    let flat = [1.0, 0.0, 0.0];
    let s = obb_separation(
        &Matrix3::identity(),
        &Vector3::new(5.0, 0.0, 0.0),
        &flat,
        &flat,
        0.0,
    );
    assert_eq!(s, 3.0);
    assert!(obb_disjoint(
        &Matrix3::identity(),
        &Vector3::new(5.0, 0.0, 0.0),
        &flat,
        &flat,
        0.0
    ));
    assert!(!obb_disjoint(
        &Matrix3::identity(),
        &Vector3::zeros(),
        &[0.0; 3],
        &[0.0; 3],
        0.0
    ));
    assert_eq!(
        obb_separation(
            &Matrix3::identity(),
            &Vector3::zeros(),
            &[0.0; 3],
            &[0.0; 3],
            0.0
        ),
        0.0
    );
}

#[test]
fn separation_is_zero_exactly_when_test_says_overlap() {
    let mut rng = Rng::new(6);
    for _ in 0..10_000 {
        let (r, t, a, b) = pair(&mut rng);
        let s = obb_separation(&r, &t, &a, &b, 0.0);
        assert!(s.is_finite() && s >= 0.0);
        assert_eq!(
            s > 0.0,
            obb_disjoint(&r, &t, &a, &b, 0.0),
            "{r:?} {t:?} {a:?} {b:?}"
        );
    }
}

/// A random OBB in some model frame.
fn random_obb(rng: &mut Rng) -> Obb<f64> {
    Obb {
        rot: rng.rotation_mixed().into(),
        center: arr(&rng.vec(-2.0, 2.0)),
        half: rng.half(),
    }
}

#[test]
fn obb_overlaps_is_sat_on_composed_transform_and_motion_invariant() {
    let mut rng = Rng::new(7);
    let (mut hits, n) = (0, 5_000);
    for _ in 0..n {
        let (a, b) = (random_obb(&mut rng), random_obb(&mut rng));
        let pose = Pose::from_parts(rng.rotation_mixed(), rng.vec(-3.0, 3.0));
        let got = a.overlaps(&b, &pose);
        hits += usize::from(got);
        // Independently: B moved into A's model frame, then into A's box frame.
        let bm = b.transformed(&pose);
        let (ra, rb) = (Matrix3::from(a.rot), Matrix3::from(bm.rot));
        let r = ra.transpose() * rb;
        let t = ra.transpose() * (Vector3::from(bm.center) - Vector3::from(a.center));
        assert_eq!(got, !obb_disjoint(&r, &t, &a.half, &b.half, f64::SAT_GUARD));
        assert!(
            got || oracle_disjoint(&r, &t, &a.half, &b.half),
            "false disjoint"
        );
        // A common rigid motion of both boxes changes nothing.
        let m = Pose::from_parts(rng.rotation(), rng.vec(-10.0, 10.0));
        let (am, bmm) = (a.transformed(&m), bm.transformed(&m));
        assert_eq!(am.overlaps(&bmm, &Pose::identity()), got);
    }
    assert!(hits > n / 10 && hits < n * 9 / 10, "{hits} of {n}");
}

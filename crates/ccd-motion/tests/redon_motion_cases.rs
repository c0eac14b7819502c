//! The motion cases of Jørgensen 2006 (its test runs AB00–AB02, §10 and Appendix B, and the bugs they exposed), as unit tests.

use std::f64::consts::{FRAC_1_SQRT_2, FRAC_PI_2, PI};

use ccd_interval::IMat3;
use ccd_motion::{Bucketed, ConstantRotationTranslation, Interp, Motion};
use nalgebra::{Isometry3, Quaternion, Rotation3, Translation3, UnitQuaternion, Vector3};

fn pose(t: [f64; 3], q: UnitQuaternion<f64>) -> Isometry3<f64> {
    Isometry3::from_parts(Translation3::new(t[0], t[1], t[2]), q)
}

/// Both pose-to-pose motions of the report's kind (`arbitrary_constant` in Jørgensen 2006).
fn both(start: Isometry3<f64>, end: Isometry3<f64>) -> [Box<dyn Motion<f64>>; 2] {
    [
        Box::new(Interp::new(start, end)),
        Box::new(ConstantRotationTranslation::between(&start, &end)),
    ]
}

/// The quaternion of a pose with the sign that makes its first nonzero component positive.
fn canonical(q: &UnitQuaternion<f64>) -> Quaternion<f64> {
    let q = q.into_inner();
    let first = [q.w, q.i, q.j, q.k]
        .into_iter()
        .find(|c| c.abs() > 1e-12)
        .unwrap_or(1.0);
    if first < 0.0 { -q } else { q }
}

#[test]
fn ab00_static_identity() {
    let p = pose([0.0; 3], UnitQuaternion::identity());
    for m in both(p, p) {
        for i in 0..=8 {
            let got = m.pose(f64::from(i) / 8.0);
            assert_eq!(got, p, "{m:?} at {i}/8");
        }
    }
}

#[test]
fn ab01_translation_along_x() {
    let a = pose([0.0; 3], UnitQuaternion::identity());
    let b = pose([10.0, 0.0, 0.0], UnitQuaternion::identity());
    for m in both(a, b) {
        for i in 0..=8 {
            let got = m.pose(f64::from(i) / 8.0);
            assert_eq!(
                got.translation.vector,
                Vector3::new(1.25 * f64::from(i), 0.0, 0.0)
            );
            assert_eq!(got.rotation, UnitQuaternion::identity());
        }
    }
}

#[test]
fn ab02_half_turn_about_x() {
    // The report converts Rx(π) from a matrix, which gives (6.1e-17, 1, 0, 0): near, not at, the tie.
    let r1 =
        UnitQuaternion::from_rotation_matrix(&Rotation3::from_axis_angle(&Vector3::x_axis(), PI));
    let a = pose([0.0; 3], UnitQuaternion::identity());
    let b = pose([0.0; 3], r1);
    for m in both(a, b) {
        for i in 0..=8 {
            let t = f64::from(i) / 8.0;
            let q = m.pose(t);
            assert_eq!(q.translation.vector, Vector3::zeros());
            let q = q.rotation.into_inner();
            assert!((q.norm() - 1.0).abs() < 1e-15);
            // ±(cos(iπ/16), ±sin(iπ/16), 0, 0): a half-angle of iπ/16.
            let half = f64::from(i) * PI / 16.0;
            assert!((q.w.abs() - half.cos()).abs() < 1e-15, "{m:?} {i}: {q:?}");
            assert!((q.i.abs() - half.sin()).abs() < 1e-15, "{m:?} {i}: {q:?}");
            assert!(q.j.abs() < 1e-15 && q.k.abs() < 1e-15);
        }
        let end = m.pose(1.0).rotation.to_rotation_matrix();
        assert!((end.matrix() - r1.to_rotation_matrix().matrix()).norm() < 1e-15);
    }
}

#[test]
fn quarter_turn_stays_unit() {
    // Jørgensen 2006's inverted flip shrank |q(0.5)| to 0.414 (bodies to 17 %); here q(t) = (cos(πt/4), sin(πt/4), 0, 0).
    let a = pose([0.0; 3], UnitQuaternion::identity());
    let b = pose(
        [0.0; 3],
        UnitQuaternion::from_axis_angle(&Vector3::x_axis(), FRAC_PI_2),
    );
    for m in both(a, b) {
        for i in 0..=64 {
            let t = f64::from(i) / 64.0;
            let q = canonical(&m.pose(t).rotation);
            assert!((q.norm() - 1.0).abs() < 1e-15);
            let want = Quaternion::new((PI * t / 4.0).cos(), (PI * t / 4.0).sin(), 0.0, 0.0);
            assert!((q - want).norm() < 1e-15, "{m:?} at {t}: {q:?}");
        }
    }
}

#[test]
fn antipodal_quaternions_stand_still() {
    // q1 = −q0 is the same orientation: Jørgensen 2006 spun the body through 360°.
    let q0 = UnitQuaternion::from_euler_angles(0.4, -1.1, 2.5);
    let a = pose([1.0, 2.0, 3.0], q0);
    let b = pose(
        [1.0, 2.0, 3.0],
        UnitQuaternion::new_unchecked(-q0.into_inner()),
    );
    for m in both(a, b) {
        for i in 0..=16 {
            let got = m.pose(f64::from(i) / 16.0);
            assert!(got.rotation.angle_to(&q0) < 1e-15, "{m:?} at {i}/16");
            assert_eq!(got.translation, a.translation);
        }
        assert_eq!(m.is_pure_translation(), Some(Vector3::zeros()));
    }
}

#[test]
fn matrix_form_uses_u_star_r0() {
    let q0 = UnitQuaternion::from_euler_angles(0.3, 0.7, -0.2);
    let q1 = UnitQuaternion::from_euler_angles(-1.0, 0.1, 1.4);
    let m = ConstantRotationTranslation::between(&pose([0.0; 3], q0), &pose([1.0, 0.0, 0.0], q1));
    let (_, b, _) = m.matrix_form();
    let r0 = q0.to_rotation_matrix().into_inner();
    let r1 = q1.to_rotation_matrix().into_inner();
    let u_star = m.axis().cross_matrix();
    assert!((b - u_star * r0).norm() < 1e-15, "B must be u*·R0");
    // The report's B = u*·R1 would miss the end pose.
    assert!((b - u_star * r1).norm() > 1e-3);
    assert!((m.rotation_matrix(0.0) - r0).norm() < 1e-15);
    assert!((m.rotation_matrix(1.0) - r1).norm() < 1e-14);
    for i in 0..=10 {
        let r = m.rotation_matrix(f64::from(i) / 10.0);
        assert!((r.transpose() * r - nalgebra::Matrix3::identity()).norm() < 1e-14);
    }
}

#[test]
fn rotation_bound_is_not_endpoint_bound() {
    // A = (√½, √½, 0, 0), B = (√½, 0, √½, 0): the slerp's scalar part peaks at 0.8165 at t = ½ while both ends are
    // √½, so an endpoint min/max (as in Jørgensen 2006) missed the middle of the motion.
    let a = UnitQuaternion::new_unchecked(Quaternion::new(FRAC_1_SQRT_2, FRAC_1_SQRT_2, 0.0, 0.0));
    let b = UnitQuaternion::new_unchecked(Quaternion::new(FRAC_1_SQRT_2, 0.0, FRAC_1_SQRT_2, 0.0));
    let m = Interp::new(pose([0.0; 3], a), pose([0.0; 3], b));
    let mid = m.pose(0.5).rotation.into_inner();
    assert!((mid.w - (2.0f64 / 3.0).sqrt()).abs() < 1e-15);
    // An endpoint-only box of the rotation matrix misses the middle pose …
    let r0 = IMat3::point(a.to_rotation_matrix().matrix());
    let r1 = IMat3::point(b.to_rotation_matrix().matrix());
    let endpoint_box = r0.hull(&r1);
    assert!(!endpoint_box.contains(m.pose(0.5).rotation.to_rotation_matrix().matrix()));
    // … the enclosure does not, over [0, 1] nor over any of 1000 sampled sub-intervals.
    let whole = m.enclose(0.0, 1.0);
    for i in 0..=1000 {
        let t = f64::from(i) / 1000.0;
        assert!(whole.contains(&m.pose(t)), "t = {t}");
        let (t0, t1) = ((t - 0.01).max(0.0), (t + 0.003).min(1.0));
        assert!(m.enclose(t0, t1).contains(&m.pose(t)), "t = {t}");
    }
}

#[test]
fn buckets_of_level_seven() {
    let q1 = UnitQuaternion::from_euler_angles(1.0, 2.0, 0.5);
    let inner = Interp::new(
        pose([0.0; 3], UnitQuaternion::identity()),
        pose([3.0, -1.0, 2.0], q1),
    );
    let m = Bucketed::new(inner, Bucketed::<f64, Interp<f64>>::DEFAULT_LEVEL);
    assert_eq!(m.bucket_count(), 128);
    assert_eq!(m.step(), 0.0078125);
    assert_eq!(m.bucket_lower(0.3), 38);
    assert_eq!(m.bucket_upper(0.3), 39);
    assert_eq!(m.bucket_lower(1.0), 127, "t = 1 clamps to the last bucket");
    assert_eq!(m.bucket_upper(1.0), 128);
    assert_eq!(m.bucket_lower(0.0), 0);
    // 128 bucket bounds and 129 boundary poses, consistent with the wrapped motion (and kept by Clone).
    let copy = m.clone();
    for i in 0..=128 {
        let t = i as f64 / 128.0;
        assert_eq!(*copy.bucket_pose(i), m.inner().pose(t));
        if i < 128 {
            let bound = copy.bucket_bound(i);
            for k in 0..=8 {
                let s = t + f64::from(k) / 8.0 / 128.0;
                assert!(bound.contains(&m.pose(s)), "bucket {i} at {s}");
            }
        }
    }
    // Enclosures from the tables cover arbitrary intervals.
    for (t0, t1) in [
        (0.3, 0.3),
        (0.3, 0.31),
        (0.0, 1.0),
        (0.99, 1.0),
        (1.0, 1.0),
        (0.5, 0.5),
    ] {
        let e = m.enclose(t0, t1);
        for k in 0..=20 {
            let t = t0 + (t1 - t0) * f64::from(k) / 20.0;
            assert!(e.contains(&m.pose(t)), "[{t0}, {t1}] at {t}");
        }
    }
}

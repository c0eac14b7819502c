//! The POSE forms against nalgebra: a quaternion in either `--quat-order` gives the rotation of the equivalent
//! rotation vector, roll-pitch-yaw is `Rz(yaw)·Ry(pitch)·Rx(roll)` built from elementary rotations, and a 4×4
//! row-major matrix gives back the isometry it was printed from; bad matrices and counts are refused with a
//! message, never a panic.

use ccd::nalgebra::{Isometry3, Matrix4, Point3, Rotation3, Translation3, UnitQuaternion, Vector3};
use ccd_cli::args::{QuatOrder, parse_pose};
use proptest::prelude::*;

/// Largest distance between the images of a few points under `x` and `y`.
fn gap(x: &Isometry3<f64>, y: &Isometry3<f64>) -> f64 {
    [
        [1.0, 0.0, 0.0],
        [0.0, 1.0, 0.0],
        [0.0, 0.0, 1.0],
        [0.3, -0.7, 0.2],
    ]
    .into_iter()
    .map(|p| (x * Point3::from(p) - y * Point3::from(p)).norm())
    .fold(0.0, f64::max)
}

fn pose(s: &str, order: QuatOrder) -> Isometry3<f64> {
    parse_pose(s)
        .unwrap_or_else(|e| panic!("{s:?}: {e}"))
        .isometry(order)
}

fn list(v: &[f64]) -> String {
    v.iter()
        .map(|x| format!("{x:?}"))
        .collect::<Vec<_>>()
        .join(",")
}

fn translation() -> impl Strategy<Value = [f64; 3]> {
    prop::array::uniform3(-10.0..10.0f64)
}

fn rotation_vector() -> impl Strategy<Value = [f64; 3]> {
    // Angles below π: the rotation vector is then the unique one of its rotation.
    prop::array::uniform3(-1.8..1.8f64)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn both_quaternion_orders_match_the_rotation_vector(t in translation(), r in rotation_vector()) {
        let expected = pose(&list(&[t[0], t[1], t[2], r[0], r[1], r[2]]), QuatOrder::Wxyz);
        let q = UnitQuaternion::from_scaled_axis(Vector3::from(r));
        let wxyz = pose(&list(&[t[0], t[1], t[2], q.w, q.i, q.j, q.k]), QuatOrder::Wxyz);
        let xyzw = pose(&list(&[t[0], t[1], t[2], q.i, q.j, q.k, q.w]), QuatOrder::Xyzw);
        prop_assert!(gap(&wxyz, &expected) < 1e-12, "wxyz: {wxyz:?} vs {expected:?}");
        prop_assert!(gap(&xyzw, &expected) < 1e-12, "xyzw: {xyzw:?} vs {expected:?}");
        // The same four numbers read in the other order are another rotation (unless the angle is tiny).
        if q.angle() > 1e-3 {
            let swapped = pose(&list(&[t[0], t[1], t[2], q.i, q.j, q.k, q.w]), QuatOrder::Wxyz);
            prop_assert!(gap(&swapped, &expected) > 1e-6);
        }
    }

    #[test]
    fn roll_pitch_yaw_is_rz_ry_rx(t in translation(), a in prop::array::uniform3(-7.0..7.0f64)) {
        let [roll, pitch, yaw] = a;
        let r = Rotation3::from_axis_angle(&Vector3::z_axis(), yaw)
            * Rotation3::from_axis_angle(&Vector3::y_axis(), pitch)
            * Rotation3::from_axis_angle(&Vector3::x_axis(), roll);
        let expected = Isometry3::from_parts(Translation3::from(Vector3::from(t)), r.into());
        let got = pose(&format!("rpy:{}", list(&[t[0], t[1], t[2], roll, pitch, yaw])), QuatOrder::Xyzw);
        prop_assert!(gap(&got, &expected) < 1e-12, "{got:?} vs {expected:?}");
    }

    #[test]
    fn a_printed_matrix_gives_its_isometry_back(t in translation(), r in rotation_vector()) {
        let expected = Isometry3::new(Vector3::from(t), Vector3::from(r));
        let m: Matrix4<f64> = expected.to_homogeneous();
        let row_major: Vec<f64> = (0..4).flat_map(|i| (0..4).map(move |j| m[(i, j)])).collect();
        let got = pose(&format!("matrix:{}", list(&row_major)), QuatOrder::Wxyz);
        prop_assert!(gap(&got, &expected) < 1e-12, "{got:?} vs {expected:?}");
        // Six printed decimals (a typical log) are still accepted, within the printing error.
        let short: Vec<String> = row_major.iter().map(|x| format!("{x:.6}")).collect();
        let got = pose(&format!("matrix:{}", short.join(",")), QuatOrder::Wxyz);
        prop_assert!(gap(&got, &expected) < 1e-4, "{got:?} vs {expected:?}");
    }
}

#[test]
fn bad_matrices_and_counts_are_refused_with_a_reason() {
    let id = "1,0,0,0, 0,1,0,0, 0,0,1,0";
    for (s, reason) in [
        (format!("matrix:{id}"), "expected 16"),
        (format!("matrix:{id},0,0,0,1,5"), "expected 16"),
        (format!("matrix:{id},0,0,1,1"), "last row"),
        (
            "matrix:2,0,0,0, 0,1,0,0, 0,0,1,0, 0,0,0,1".into(),
            "more than 1",
        ),
        (
            "matrix:1,0.1,0,0, 0,1,0,0, 0,0,1,0, 0,0,0,1".into(),
            "not orthonormal",
        ),
        (
            "matrix:0.5,0,0,0, 0,0.5,0,0, 0,0,0.5,0, 0,0,0,1".into(),
            "not orthonormal",
        ),
        (
            "matrix:-1,0,0,0, 0,1,0,0, 0,0,1,0, 0,0,0,1".into(),
            "reflection",
        ),
        (
            "matrix:1,0,0,0, 0,1,0,0, 0,0,1,0, 0,0,0,nan".into(),
            "not finite",
        ),
        ("rpy:1,2,3,4,5".into(), "expected 6"),
        ("rpy:0,0,0,0,0,1e300".into(), "yaw"),
        ("1,2,3,4,5".into(), "expected 3"),
        ("0,0,0,1,1,0,0".into(), "norm"),
    ] {
        let e = parse_pose(&s).expect_err(&s);
        assert!(e.contains(reason), "{s:?}: {e}");
    }
}

#[test]
fn the_default_order_is_scalar_first() {
    // 90 degrees about z, scalar first: (cos 45°, 0, 0, sin 45°).
    let h = std::f64::consts::FRAC_1_SQRT_2;
    let p = pose(
        &list(&[0.0, 0.0, 0.0, h, 0.0, 0.0, h]),
        QuatOrder::default(),
    );
    assert!((p * Point3::new(1.0, 0.0, 0.0) - Point3::new(0.0, 1.0, 0.0)).norm() < 1e-12);
}

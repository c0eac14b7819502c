//! Interpolation and rigidity: pose(0) is the start and pose(1) the end within a few ulps, and R(t) is
//! orthonormal at random t, for every motion type in `f64` and `f32`.

mod common;

use ccd_interval::Real;
use ccd_motion::{ConstantRotationTranslation, Interp, Motion, Screw, Static, Translation};
use ccd_testkit::SplitMix64;
use common::{ROT_KINDS, Scenario, iso_t, orthonormality_error, rotation_gap, vec_t};
use nalgebra::{Isometry3, Point3, Unit, UnitQuaternion, Vector3};

/// Asserts two poses agree: rotations within `rot_ulps` ulps of angle, translations within `ulps` ulps of `scale`.
fn assert_close<T: Real>(
    what: &str,
    got: &Isometry3<T>,
    want: &Isometry3<T>,
    scale: f64,
    ulps: f64,
) {
    let eps = T::EPSILON.to_f64_exact();
    let gap = rotation_gap(&got.rotation, &want.rotation);
    // Rotation angles near zero come from a chord of the 3-sphere: its rounding (an ulp of 1) shows up as an angle
    // of about 4·√ε at worst; compare rotation matrices instead, entry by entry.
    let rg = got.rotation.to_rotation_matrix().into_inner();
    let rw = want.rotation.to_rotation_matrix().into_inner();
    let entry_gap = (rg - rw)
        .iter()
        .fold(0.0f64, |m, x| m.max(x.to_f64_exact().abs()));
    assert!(
        entry_gap <= ulps * eps || gap <= ulps * eps,
        "{what}: rotation off by {entry_gap:e} (angle {gap:e})\n got {got:?}\nwant {want:?}"
    );
    let dt = (got.translation.vector - want.translation.vector)
        .iter()
        .fold(0.0f64, |m, x| m.max(x.to_f64_exact().abs()));
    assert!(
        dt <= ulps * eps * scale,
        "{what}: translation off by {dt:e} (scale {scale})\n got {got:?}\nwant {want:?}"
    );
}

fn endpoints<T: Real>(seed: u64) {
    let mut rng = SplitMix64::new(seed);
    for kind in ROT_KINDS {
        for _ in 0..30 {
            let s = Scenario::draw(&mut rng, kind);
            let start = iso_t::<T>(&s.start);
            let end = iso_t::<T>(&s.end);
            let scale = s.scale.max(s.start.translation.vector.norm()) * 4.0;
            let axis = Unit::new_normalize(vec_t::<T>(&s.axis));
            let angle = T::lit(s.angle);
            let disp = vec_t::<T>(&s.displacement);
            let point = Point3::from(vec_t::<T>(&s.point));
            let slide = T::lit(s.slide);
            // Reference end of the spinning motions, computed independently (rotation vector → quaternion).
            let spun = UnitQuaternion::from_scaled_axis(axis.into_inner() * angle) * start.rotation;

            let m = Static::new(start);
            assert_close("static(0)", &m.pose(T::zero()), &start, scale, 0.0);
            assert_close("static(1)", &m.pose(T::one()), &start, scale, 0.0);

            let m = Translation::new(start, disp);
            assert_close("translation(0)", &m.pose(T::zero()), &start, scale, 0.0);
            let want =
                Isometry3::from_parts((start.translation.vector + disp).into(), start.rotation);
            assert_close("translation(1)", &m.pose(T::one()), &want, scale, 0.0);

            let m = ConstantRotationTranslation::between(&start, &end);
            assert_close("crt-between(0)", &m.pose(T::zero()), &start, scale, 0.0);
            assert_close("crt-between(1)", &m.pose(T::one()), &end, scale, 16.0);

            let m = ConstantRotationTranslation::new(start, axis, angle, disp);
            assert_close("crt-spin(0)", &m.pose(T::zero()), &start, scale, 0.0);
            let want = Isometry3::from_parts((start.translation.vector + disp).into(), spun);
            // The spin reference rounds the angle's sine and cosine independently: allow ulps of the angle.
            let ulps = 16.0 + 2.0 * s.angle.abs();
            assert_close("crt-spin(1)", &m.pose(T::one()), &want, scale, ulps);

            let m = Screw::new(start, axis, point, angle, slide);
            let scale_c = scale + 4.0 * s.point.norm() + s.slide.abs();
            assert_close("screw-spin(0)", &m.pose(T::zero()), &start, scale_c, 4.0);
            let c = point.coords;
            let p1 = spun * start.rotation.inverse() * (start.translation.vector - c)
                + c
                + axis.into_inner() * slide;
            let want = Isometry3::from_parts(p1.into(), spun);
            assert_close(
                "screw-spin(1)",
                &m.pose(T::one()),
                &want,
                scale_c,
                ulps * 4.0,
            );

            let m = Screw::between(&start, &end);
            let reach = (start.translation.vector - m.point().coords)
                .norm()
                .to_f64_exact()
                + m.point().coords.norm().to_f64_exact();
            assert_close(
                "screw-between(0)",
                &m.pose(T::zero()),
                &start,
                scale + 4.0 * reach,
                4.0,
            );
            assert_close(
                "screw-between(1)",
                &m.pose(T::one()),
                &end,
                scale + 4.0 * reach,
                32.0,
            );

            let m = Interp::new(start, end);
            assert_close("interp(0)", &m.pose(T::zero()), &start, scale, 2.0);
            assert_close("interp(1)", &m.pose(T::one()), &end, scale, 2.0);
            // The translation is reproduced exactly at both ends.
            assert_eq!(m.pose(T::zero()).translation, start.translation);
            assert_eq!(m.pose(T::one()).translation, end.translation);
        }
    }
}

#[test]
fn endpoints_f64() {
    endpoints::<f64>(1);
}

#[test]
fn endpoints_f32() {
    endpoints::<f32>(2);
}

fn orthonormal<T: Real>(seed: u64, tol: f64) {
    let mut rng = SplitMix64::new(seed);
    for kind in ROT_KINDS {
        for _ in 0..20 {
            let s = Scenario::draw(&mut rng, kind);
            let crt = ConstantRotationTranslation::new(
                iso_t::<T>(&s.start),
                Unit::new_normalize(vec_t::<T>(&s.axis)),
                T::lit(s.angle),
                vec_t::<T>(&s.displacement),
            );
            for named in common::motions::<T>(&s) {
                for _ in 0..10 {
                    let t = T::lit(rng.next_f64());
                    let r = named
                        .motion
                        .pose(t)
                        .rotation
                        .to_rotation_matrix()
                        .into_inner();
                    let err = orthonormality_error(&r);
                    assert!(err < tol, "{} at t = {t}: |RᵀR − I| = {err:e}", named.name);
                    assert!((r.determinant().to_f64_exact() - 1.0).abs() < 4.0 * tol);
                }
            }
            // The matrix form cos(ωt)·A + sin(ωt)·B + C is orthonormal too (B = u*·R0; with the report's u*·R1 it
            // would not be).
            for _ in 0..10 {
                let t = T::lit(rng.next_f64());
                let r = crt.rotation_matrix(t);
                let err = orthonormality_error(&r);
                assert!(err < tol, "matrix form at t = {t}: |RᵀR − I| = {err:e}");
            }
        }
    }
}

#[test]
fn rotations_orthonormal_f64() {
    orthonormal::<f64>(3, 1e-14);
}

#[test]
fn rotations_orthonormal_f32() {
    orthonormal::<f32>(4, 2e-6);
}

#[test]
fn pure_translation_is_reported() {
    let start = Isometry3::new(Vector3::new(1.0, 2.0, 3.0), Vector3::new(0.1, 0.2, 0.3));
    let d = Vector3::new(0.5, -1.0, 2.0);
    let end = Isometry3::from_parts((start.translation.vector + d).into(), start.rotation);
    assert_eq!(
        Static::new(start).is_pure_translation(),
        Some(Vector3::zeros())
    );
    assert_eq!(Translation::new(start, d).is_pure_translation(), Some(d));
    assert_eq!(Interp::new(start, end).is_pure_translation(), Some(d));
    assert_eq!(
        ConstantRotationTranslation::between(&start, &end).is_pure_translation(),
        Some(d)
    );
    let screw = Screw::between(&start, &end).is_pure_translation().unwrap();
    assert!((screw - d).norm() < 1e-15);
    let turned = Isometry3::new(end.translation.vector, Vector3::new(0.1, 0.2, 0.31));
    assert_eq!(Interp::new(start, turned).is_pure_translation(), None);
    assert_eq!(
        ConstantRotationTranslation::new(start, Vector3::z_axis(), 7.0, d).is_pure_translation(),
        None
    );
    assert_eq!(
        Screw::new(start, Vector3::z_axis(), Point3::origin(), 0.0, 2.0).is_pure_translation(),
        Some(Vector3::new(0.0, 0.0, 2.0))
    );
}

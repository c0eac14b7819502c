//! Minimal reproductions of what the seeded property tests of `toi_range.rs` (and the fuzz target
//! `toi_motions`) found, kept as regression tests now that the library handles them: motion constructors used to
//! panic on non-finite axes and rotations, and `time_of_impact` and `collide` used to refuse two in-range poses
//! whose relative translation was not an input length.

mod common;

use ccd_bv::{Aabb, Obb, Sphere};
use ccd_motion::{ConstantRotationTranslation, Interp, Motion, Screw, Static};
use ccd_query::{
    CollideRequest, ContinuousVolume, ToiOutcome, ToiRequest, collide, time_of_impact,
};
use common::toi_range::limits::{Sc, Verdict, derived_length, is_length, wide};
use common::toi_range::scene::{Scene, pose_f64};
use nalgebra::{Isometry3, Point3, Quaternion, Translation3, Unit, UnitQuaternion, Vector3};

/// A rotation with unchecked components `w, i, j, k`.
fn rotation(w: f64, i: f64, j: f64, k: f64) -> UnitQuaternion<f64> {
    UnitQuaternion::new_unchecked(Quaternion::new(w, i, j, k))
}

/// `Screw::new`, `ConstantRotationTranslation::new` and `Interp::new` build interval frames from the axis and the
/// start rotation (`AxisFrame::new`); on a non-finite one (NaN or infinite, or the NaN axis of `Interp`'s short arc
/// from a start quaternion with a huge component) they used to panic in interval arithmetic, so the range error
/// was never reached. Each now builds, and both its `check_range` and `time_of_impact` refuse it, naming the
/// motion; so do the controls (`Static::new` and `Interp`'s end rotation, which never panicked, and a zero axis).
#[test]
fn motions_from_non_finite_parameters_are_built_and_refused() {
    let id = Isometry3::identity();
    let at = |q: UnitQuaternion<f64>| Isometry3::from_parts(Translation3::identity(), q);
    let starts = [
        ("NaN", at(rotation(f64::NAN, 0.0, 0.0, 0.0))),
        ("infinite", at(rotation(1.0, f64::INFINITY, 0.0, 0.0))),
        ("huge", at(rotation(1.0, 0.0, 0.0, f64::MAX))),
    ];
    let z = Vector3::z_axis();
    let axes = [
        ("NaN", Unit::new_unchecked(Vector3::new(f64::NAN, 0.0, 0.0))),
        (
            "infinite",
            Unit::new_unchecked(Vector3::new(f64::INFINITY, 0.0, 0.0)),
        ),
        ("zero", Unit::new_unchecked(Vector3::zeros())),
    ];
    let tilted = at(rotation(1.0, 0.0, 1f64.next_up(), 0.0));
    let origin = Point3::origin();
    let mut motions: Vec<(String, Box<dyn Motion<f64>>)> = Vec::new();
    for (name, start) in starts {
        motions.push((
            format!("Screw::new, {name} start rotation"),
            Box::new(Screw::new(start, z, origin, 1.0, 0.0)),
        ));
        motions.push((
            format!("ConstantRotationTranslation::new, {name} start rotation"),
            Box::new(ConstantRotationTranslation::new(
                start,
                z,
                1.0,
                Vector3::zeros(),
            )),
        ));
        motions.push((
            format!("Interp::new, {name} start rotation"),
            Box::new(Interp::new(start, tilted)),
        ));
        motions.push((
            format!("Interp::new, {name} end rotation"),
            Box::new(Interp::new(id, start)),
        ));
        motions.push((
            format!("Static::new, {name} rotation"),
            Box::new(Static::new(start)),
        ));
    }
    for (name, axis) in axes {
        motions.push((
            format!("Screw::new, {name} axis"),
            Box::new(Screw::new(id, axis, origin, 1.0, 0.0)),
        ));
        motions.push((
            format!("ConstantRotationTranslation::new, {name} axis"),
            Box::new(ConstantRotationTranslation::new(
                id,
                axis,
                1.0,
                Vector3::zeros(),
            )),
        ));
    }
    let scene = Scene::<f64, Obb<f64>>::new();
    let still = Static::new(Isometry3::translation(5.0, 0.0, 0.0));
    for (name, m) in &motions {
        assert!(m.check_range().is_err(), "{name}: check_range accepted it");
        for (a, b, which) in [
            (&**m, &still as &dyn Motion<f64>, "motion of model a"),
            (&still, &**m, "motion of model b"),
        ] {
            match time_of_impact(&scene.a, a, &scene.b, b, &ToiRequest::default()) {
                Ok(r) => panic!("{name} as the {which}: accepted, {:?}", r.outcome),
                Err(e) => assert!(e.what.starts_with(which), "{name}: {e}"),
            }
        }
    }
}

/// Two supported poses whose difference is not an input length: below `length_min` (two nearby tiny positions,
/// or a tiny one rotated), or up to `2·√3·length_max` (opposite corners of the range, A turned so that the whole
/// difference falls on one axis). The relative pose that `collide` and the discrete check of `time_of_impact` at
/// t = 0 derive is a derived length (no minimum, at most `4·length_max`), so neither refuses them; they used to,
/// with "relative pose translation … is out of the supported range".
fn poses_with_a_tiny_or_huge_difference_are_accepted<T: Sc, B: ContinuousVolume<T>>() {
    let t = T::TABLE;
    let (min, max) = (t.length_min, t.length_max);
    let turn = UnitQuaternion::from_axis_angle(&Vector3::z_axis(), 0.7);
    let diagonal = UnitQuaternion::rotation_between(&Vector3::x(), &Vector3::repeat(1.0))
        .expect("not opposite");
    let pose = |x: [f64; 3], q: UnitQuaternion<f64>| {
        Isometry3::from_parts(
            Translation3::new(T::lit(x[0]), T::lit(x[1]), T::lit(x[2])),
            q.cast::<T>(),
        )
    };
    let id = UnitQuaternion::identity();
    // (A, B): B inside A (concentric up to a tiny offset), or far apart; no contact either way.
    let cases = [
        (pose([1.5 * min, 0.0, 0.0], id), pose([min, 0.0, 0.0], id)),
        (
            pose([min, 0.0, 0.0], turn),
            pose([1.25 * min, 0.0, 0.0], id),
        ),
        (pose([0.0; 3], turn), pose([min, 0.0, 0.0], id)),
        (
            pose([0.75 * max, 0.0, 0.0], id),
            pose([-0.75 * max, 0.0, 0.0], id),
        ),
        (pose([max; 3], diagonal), pose([-max; 3], id)),
    ];
    let scene = Scene::<T, B>::new();
    for (a, b) in cases {
        let (ma, mb) = (Static::new(a), Static::new(b));
        assert!(ma.check_range().is_ok() && mb.check_range().is_ok());
        let (a64, b64) = (pose_f64(&a), pose_f64(&b));
        let rel = a64.rotation.inverse() * (b64.translation.vector - a64.translation.vector);
        assert!(
            rel.iter().any(|&c| !is_length(c, &t))
                && rel.iter().all(|&c| derived_length(c, &t) == Verdict::In),
            "{}: the difference {rel:?} should be a derived length but no input length",
            T::NAME
        );
        let name = format!(
            "{}: A at {:?}, B at {:?}",
            T::NAME,
            a.translation.vector.map(wide),
            b.translation.vector.map(wide)
        );
        match collide(&scene.a, &a, &scene.b, &b, &CollideRequest::first()) {
            Ok(r) => assert!(!r.is_colliding(), "{name}: collide found a contact"),
            Err(e) => panic!("{name}: collide refused in-range poses: {e}"),
        }
        match time_of_impact(&scene.a, &ma, &scene.b, &mb, &ToiRequest::default()) {
            Ok(r) => assert!(
                matches!(r.outcome, ToiOutcome::NoContact),
                "{name}: time_of_impact answered {:?}",
                r.outcome
            ),
            Err(e) => panic!("{name}: time_of_impact refused in-range motions: {e}"),
        }
    }
}

#[test]
fn in_range_poses_with_a_tiny_or_huge_difference_are_accepted() {
    poses_with_a_tiny_or_huge_difference_are_accepted::<f64, Obb<f64>>();
    poses_with_a_tiny_or_huge_difference_are_accepted::<f64, Aabb<f64>>();
    poses_with_a_tiny_or_huge_difference_are_accepted::<f64, Sphere<f64>>();
    poses_with_a_tiny_or_huge_difference_are_accepted::<f32, Obb<f32>>();
    poses_with_a_tiny_or_huge_difference_are_accepted::<f32, Sphere<f32>>();
}

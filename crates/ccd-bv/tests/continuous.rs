//! Continuous bounding-volume tests (`ccd_bv::continuous`) against dense
//! sampling of the static tests on the posed volumes, and the rotating-rod
//! test of Jørgensen 2006 (Appendix B).
//!
//! The sampling oracle poses both boxes with the motions' floating-point
//! `pose(t)` and runs the static 15-axis SAT (`sat::obb_disjoint`, guard 0)
//! on boxes shrunk by 1e-9: the continuous test certifies the exact rigid
//! motions, and the shrink keeps the comparison away from the 1e-16-level
//! differences between exact and floating-point poses.

mod common;

use std::f64::consts::{FRAC_PI_2, PI};

use ccd_bv::continuous::{
    Certainty, first_possible_contact, obb_disjoint_during, obb_disjoint_over,
    sphere_disjoint_during,
};
use ccd_bv::nalgebra::{Isometry3, Matrix3, Point3, Translation3, UnitQuaternion, Vector3};
use ccd_bv::sat::obb_disjoint;
use ccd_bv::{Obb, Sphere};
use ccd_interval::{IMat3, IVec3, Interval};
use ccd_motion::{
    ConstantRotationTranslation, Interp, IntervalPose, Motion, Screw, Static, Translation,
};
use common::Rng;
use proptest::prelude::*;

type V = Vector3<f64>;

fn obb(r: &Matrix3<f64>, c: V, h: [f64; 3]) -> Obb<f64> {
    Obb {
        rot: std::array::from_fn(|j| [r[(0, j)], r[(1, j)], r[(2, j)]]),
        center: [c.x, c.y, c.z],
        half: h,
    }
}

/// Whether the boxes posed at `pa`, `pb` overlap by the static SAT (guard 0),
/// both shrunk by `shrink` (relative and absolute).
fn posed_overlap(
    a: &Obb<f64>,
    pa: &Isometry3<f64>,
    b: &Obb<f64>,
    pb: &Isometry3<f64>,
    shrink: f64,
) -> bool {
    let world = |o: &Obb<f64>, p: &Isometry3<f64>| {
        let r = p.rotation.to_rotation_matrix().into_inner() * Matrix3::from(o.rot);
        let c = p * Point3::from(V::from(o.center));
        (
            r,
            c.coords,
            o.half.map(|h| (h * (1.0 - shrink) - shrink).max(0.0)),
        )
    };
    let (ra, ca, ha) = world(a, pa);
    let (rb, cb, hb) = world(b, pb);
    !obb_disjoint(
        &(ra.transpose() * rb),
        &(ra.transpose() * (cb - ca)),
        &ha,
        &hb,
        0.0,
    )
}

/// A random pose with translation in `[-s, s]³`.
fn random_pose(rng: &mut Rng, s: f64) -> Isometry3<f64> {
    let r = UnitQuaternion::from_matrix(&rng.rotation());
    Isometry3::from_parts(Translation3::from(rng.vec(-s, s)), r)
}

/// A random motion of one of the five kinds, starting near `centre`.
fn random_motion(rng: &mut Rng, centre: V) -> Box<dyn Motion<f64>> {
    let mut start = random_pose(rng, 0.5);
    start.translation.vector += centre;
    let d = rng.vec(-3.0, 3.0);
    let axis = ccd_bv::nalgebra::Unit::new_normalize(rng.vec(-1.0, 1.0));
    let angle = rng.range(-2.0 * PI, 2.0 * PI);
    match rng.below(5) {
        0 => Box::new(Static::new(start)),
        1 => Box::new(Translation::new(start, d)),
        2 => Box::new(ConstantRotationTranslation::new(start, axis, angle, d)),
        3 => Box::new(Screw::new(
            start,
            axis,
            Point3::from(centre + rng.vec(-1.0, 1.0)),
            angle,
            rng.range(-2.0, 2.0),
        )),
        _ => {
            let mut end = random_pose(rng, 0.5);
            end.translation.vector += centre + d;
            Box::new(Interp::new(start, end))
        }
    }
}

/// A random time interval in `[0, 1]`, often short.
fn random_interval(rng: &mut Rng) -> (f64, f64) {
    let t0 = rng.range(0.0, 1.0);
    let w = [1.0, 0.25, 1.0 / 16.0, 1.0 / 256.0][rng.below(4)];
    (t0 * (1.0 - w), t0 * (1.0 - w) + w)
}

/// One random case: boxes, motions, interval. Returns the verdict and
/// whether dense sampling found an overlap.
fn obb_case(seed: u64) -> (Certainty, bool) {
    let mut rng = Rng::new(seed);
    let a = obb(&rng.rotation_mixed(), rng.vec(-0.5, 0.5), rng.half());
    let b = obb(&rng.rotation_mixed(), rng.vec(-0.5, 0.5), rng.half());
    let ma = random_motion(&mut rng, V::zeros());
    let cb = rng.vec(-4.0, 4.0);
    let mb = random_motion(&mut rng, cb);
    let (t0, t1) = random_interval(&mut rng);
    let verdict = obb_disjoint_during(&a, &ma, &b, &mb, t0, t1);
    let n = 200;
    let hit = (0..=n).any(|k| {
        let t = if k == n {
            t1
        } else {
            t0 + (t1 - t0) * k as f64 / n as f64
        };
        posed_overlap(&a, &ma.pose(t), &b, &mb.pose(t), 1e-9)
    });
    (verdict, hit)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Never "disjoint" on an interval where sampling finds an overlap.
    #[test]
    fn obb_disjoint_over_never_misses_a_sampled_overlap(seed in any::<u64>()) {
        let (verdict, hit) = obb_case(seed);
        prop_assert!(!(verdict == Certainty::Disjoint && hit), "seed {seed}: disjoint, but sampling overlaps");
    }

    /// The same for spheres.
    #[test]
    fn sphere_disjoint_over_never_misses_a_sampled_overlap(seed in any::<u64>()) {
        let mut rng = Rng::new(seed);
        let sa = Sphere { center: rng.vec(-1.0, 1.0).into(), radius: rng.range(0.0, 2.0) };
        let sb = Sphere { center: rng.vec(-1.0, 1.0).into(), radius: rng.range(0.0, 2.0) };
        let ma = random_motion(&mut rng, V::zeros());
        let cb = rng.vec(-4.0, 4.0);
    let mb = random_motion(&mut rng, cb);
        let (t0, t1) = random_interval(&mut rng);
        if sphere_disjoint_during(&sa, &ma, &sb, &mb, t0, t1).is_disjoint() {
            for k in 0..=200 {
                let t = t0 + (t1 - t0) * k as f64 / 200.0;
                let ca = ma.pose(t) * Point3::from(V::from(sa.center));
                let cb = mb.pose(t) * Point3::from(V::from(sb.center));
                prop_assert!((cb - ca).norm() > (sa.radius + sb.radius) * (1.0 - 1e-9), "seed {seed}, t {t}");
            }
        }
    }
}

/// The deterministic version of the property, with tallies: the test must
/// certify a good share of the pairs that sampling finds apart (a test that
/// always answered "may overlap" would pass the property above).
#[test]
fn obb_verdicts_are_conservative_and_useful() {
    let (mut disjoint, mut apart, mut hits) = (0, 0, 0);
    for seed in 0..3000u64 {
        let (verdict, hit) = obb_case(seed * 7919 + 1);
        assert!(
            !(verdict.is_disjoint() && hit),
            "case {seed}: disjoint but sampling overlaps"
        );
        hits += usize::from(hit);
        if !hit {
            apart += 1;
            disjoint += usize::from(verdict.is_disjoint());
        }
    }
    eprintln!("sampled overlaps {hits}, apart {apart}, certified {disjoint}");
    assert!(hits > 200, "{hits}");
    assert!(
        disjoint * 2 > apart,
        "only {disjoint} of {apart} separated pairs certified"
    );
}

/// With static poses the test is the static SAT: it certifies every pair
/// the SAT separates by a margin, and no pair that overlaps by a margin.
#[test]
fn static_poses_match_the_static_sat() {
    let mut rng = Rng::new(11);
    let (mut sep, mut ov) = (0, 0);
    for case in 0..20_000 {
        let a = obb(&rng.rotation_mixed(), rng.vec(-1.0, 1.0), rng.half());
        let b = obb(&rng.rotation_mixed(), rng.vec(-1.0, 1.0), rng.half());
        let (pa, pb) = (random_pose(&mut rng, 2.0), random_pose(&mut rng, 2.0));
        let verdict = obb_disjoint_over(
            &a,
            &IntervalPose::from_pose(&pa),
            &b,
            &IntervalPose::from_pose(&pb),
        );
        if !posed_overlap(&a, &pa, &b, &pb, -1e-9) {
            sep += 1;
            assert_eq!(
                verdict,
                Certainty::Disjoint,
                "case {case}: separated by > 1e-9, not certified"
            );
        }
        if posed_overlap(&a, &pa, &b, &pb, 1e-9) {
            ov += 1;
            assert_eq!(
                verdict,
                Certainty::MayOverlap,
                "case {case}: overlapping, certified disjoint"
            );
        }
    }
    assert!(sep > 3000 && ov > 3000, "{sep} {ov}");
}

/// Hand-built enclosures of pure translations.
#[test]
fn translation_enclosures() {
    let unit = obb(&Matrix3::identity(), V::zeros(), [1.0; 3]);
    let fixed = IntervalPose {
        rot: IMat3::identity(),
        trans: IVec3::point(&V::zeros()),
    };
    let sweep = |lo: f64, hi: f64| IntervalPose {
        rot: IMat3::identity(),
        trans: IVec3::new(
            Interval::new(lo, hi),
            Interval::point(0.5),
            Interval::point(0.0),
        ),
    };
    assert_eq!(
        obb_disjoint_over(&unit, &fixed, &unit, &sweep(3.0, 5.0)),
        Certainty::Disjoint
    );
    assert_eq!(
        obb_disjoint_over(&unit, &fixed, &unit, &sweep(2.0 + 1e-12, 5.0)),
        Certainty::Disjoint
    );
    // Touching at x = 2 is overlap.
    assert_eq!(
        obb_disjoint_over(&unit, &fixed, &unit, &sweep(2.0, 5.0)),
        Certainty::MayOverlap
    );
    assert_eq!(
        obb_disjoint_over(&unit, &fixed, &unit, &sweep(1.5, 5.0)),
        Certainty::MayOverlap
    );
    assert_eq!(
        obb_disjoint_over(&unit, &sweep(-5.0, -3.0), &unit, &fixed),
        Certainty::Disjoint
    );
    let ball = Sphere {
        center: [0.0; 3],
        radius: 1.0,
    };
    assert!(
        ccd_bv::continuous::sphere_disjoint_over(&ball, &fixed, &ball, &sweep(2.5, 5.0))
            .is_disjoint()
    );
    assert!(
        !ccd_bv::continuous::sphere_disjoint_over(&ball, &fixed, &ball, &sweep(1.5, 1.9))
            .is_disjoint()
    );
}

// ---------------------------------------------------------------------------
// The rotating rod (Jørgensen 2006, Appendix B). A: half-extents (2, 0.1, 0.1) at the
// origin, turning from I to Rz(π/2); B: a static unit box at (0, 3, 0).
// First contact t* = 0.9363910 (A's corner (2, 0.1) meets B's face y = 2).

const T_STAR: f64 = 0.936_391_0;

fn rod(
    b_y: f64,
) -> (
    Obb<f64>,
    ConstantRotationTranslation<f64>,
    Obb<f64>,
    Static<f64>,
) {
    let a = obb(&Matrix3::identity(), V::zeros(), [2.0, 0.1, 0.1]);
    let ma = ConstantRotationTranslation::new(
        Isometry3::identity(),
        Vector3::z_axis(),
        FRAC_PI_2,
        V::zeros(),
    );
    let b = obb(&Matrix3::identity(), V::zeros(), [1.0; 3]);
    let mb = Static::new(Isometry3::translation(0.0, b_y, 0.0));
    (a, ma, b, mb)
}

#[test]
fn rotating_rod_is_bracketed() {
    let (a, ma, b, mb) = rod(3.0);
    let test = |s: f64, e: f64| obb_disjoint_during(&a, &ma, &b, &mb, s, e);
    // The oracle itself: the corner (2, 0.1) at angle θ has y = 2 sin θ + 0.1 cos θ = 2.
    let theta = FRAC_PI_2 * T_STAR;
    assert!((2.0 * theta.sin() + 0.1 * theta.cos() - 2.0).abs() < 1e-6);
    // Every dyadic interval containing t* may overlap.
    for level in 0..=14 {
        let n = 1u32 << level;
        let k = (T_STAR * f64::from(n)) as u32;
        let (s, e) = (f64::from(k) / f64::from(n), f64::from(k + 1) / f64::from(n));
        assert_eq!(test(s, e), Certainty::MayOverlap, "[{s}, {e}] contains t*");
    }
    // Intervals of 1/1024 ending well before t* are certified.
    for k in 0..1024 {
        let (s, e) = (f64::from(k) / 1024.0, f64::from(k + 1) / 1024.0);
        if e < T_STAR - 0.02 {
            assert_eq!(
                test(s, e),
                Certainty::Disjoint,
                "[{s}, {e}] is well before t*"
            );
        }
    }
    // Bisection brackets t* from below.
    let mut calls = 0;
    let lo = first_possible_contact(0.0, 1.0, 1e-6, |s, e| {
        calls += 1;
        test(s, e)
    })
    .expect("the rod hits the box");
    eprintln!(
        "rotating rod: first possible contact {lo:.7} (t* = {T_STAR}), {calls} interval tests"
    );
    assert!(lo <= T_STAR && T_STAR - lo < 2e-3, "{lo}");
}

#[test]
fn rotating_rod_negative() {
    let (a, ma, b, mb) = rod(3.5);
    let found = first_possible_contact(0.0, 1.0, 1.0 / 128.0, |s, e| {
        obb_disjoint_during(&a, &ma, &b, &mb, s, e)
    });
    assert_eq!(found, None);
}

/// `first_possible_contact` is a lower bound of the sampled first contact on
/// random moving boxes.
#[test]
fn first_possible_contact_is_a_lower_bound() {
    let mut rng = Rng::new(21);
    let mut found = 0;
    for case in 0..300 {
        let a = obb(&rng.rotation(), rng.vec(-0.5, 0.5), rng.half());
        let b = obb(&rng.rotation(), rng.vec(-0.5, 0.5), rng.half());
        let ma = random_motion(&mut rng, V::zeros());
        let cb = rng.vec(-3.0, 3.0);
        let mb = random_motion(&mut rng, cb);
        let first = first_possible_contact(0.0, 1.0, 1e-3, |s, e| {
            obb_disjoint_during(&a, &ma, &b, &mb, s, e)
        });
        let sampled = (0..=2000)
            .map(|k| k as f64 / 2000.0)
            .find(|&t| posed_overlap(&a, &ma.pose(t), &b, &mb.pose(t), 1e-9));
        if let Some(ts) = sampled {
            found += 1;
            let lo = first.unwrap_or_else(|| panic!("case {case}: missed the contact at {ts}"));
            assert!(lo <= ts, "case {case}: {lo} after the sampled contact {ts}");
        }
    }
    assert!(found > 30, "{found}");
}

/// `f32` boxes and poses: conservative against the `f64` SAT of the same
/// (rounded) data, and certifying pairs separated by a clear margin.
#[test]
fn f32_static_poses() {
    let mut rng = Rng::new(31);
    let (mut sep, mut ov) = (0, 0);
    for case in 0..5000 {
        let a = obb(&rng.rotation(), rng.vec(-1.0, 1.0), rng.half());
        let b = obb(&rng.rotation(), rng.vec(-1.0, 1.0), rng.half());
        let (pa, pb) = (random_pose(&mut rng, 2.0), random_pose(&mut rng, 2.0));
        let to32 = |o: &Obb<f64>| Obb {
            rot: o.rot.map(|c| c.map(|x| x as f32)),
            center: o.center.map(|x| x as f32),
            half: o.half.map(|x| x as f32),
        };
        let to64 = |o: &Obb<f32>| Obb {
            rot: o.rot.map(|c| c.map(f64::from)),
            center: o.center.map(f64::from),
            half: o.half.map(f64::from),
        };
        let (a32, b32) = (to32(&a), to32(&b));
        let (pa32, pb32) = (pa.cast::<f32>(), pb.cast::<f32>());
        let verdict = obb_disjoint_over(
            &a32,
            &IntervalPose::from_pose(&pa32),
            &b32,
            &IntervalPose::from_pose(&pb32),
        );
        let (a64, b64, pa64, pb64) = (
            to64(&a32),
            to64(&b32),
            pa32.cast::<f64>(),
            pb32.cast::<f64>(),
        );
        if posed_overlap(&a64, &pa64, &b64, &pb64, 1e-5) {
            ov += 1;
            assert_eq!(
                verdict,
                Certainty::MayOverlap,
                "f32 case {case}: overlapping, certified disjoint"
            );
        }
        if !posed_overlap(&a64, &pa64, &b64, &pb64, -1e-3) {
            sep += 1;
            assert_eq!(
                verdict,
                Certainty::Disjoint,
                "f32 case {case}: separated by 1e-3, not certified"
            );
        }
    }
    assert!(sep > 1000 && ov > 1000, "{sep} {ov}");
}

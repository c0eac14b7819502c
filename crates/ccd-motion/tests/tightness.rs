//! Tightness: enclosures shrink with the time interval. Over [t, t + h] a body point moves at most
//! max_speed·h and a rotation entry changes at most |ω|·h, so the widths must be within a small constant of
//! that plus rounding, and must fall as h does.

mod common;

use ccd_interval::{IVec3, Real};
use ccd_testkit::SplitMix64;
use common::{ROT_KINDS, RotKind, Scenario, motions, vec_t, vector};

fn ivec_width<T: Real>(v: &IVec3<T>) -> f64 {
    v.x.width().max(v.y.width()).max(v.z.width()).to_f64_exact()
}

/// Widths over [t, t + h] against C·(speed·h) + rounding, where rounding is `round` ulps of the scene scale.
fn widths_shrink<T: Real>(seed: u64, h: f64, round: f64) {
    let mut rng = SplitMix64::new(seed);
    let eps = T::EPSILON.to_f64_exact();
    for kind in ROT_KINDS {
        for _ in 0..25 {
            let s = Scenario::draw(&mut rng, kind);
            let p = vec_t::<T>(&vector(&mut rng, s.scale));
            let radius = p.norm().to_f64_exact();
            for named in motions::<T>(&s) {
                if named.name.starts_with("bucketed") {
                    continue; // bucket tables are as wide as a bucket by design
                }
                let m = &named.motion;
                let t = rng.next_f64() * (1.0 - h);
                let (t0, t1) = (T::lit(t), T::lit(t + h));
                let dt = (t1 - t0).to_f64_exact();
                let e = m.enclose(t0, t1);
                // Entries of R(t) move at most |ω| per unit time; the body origin at most max_speed(0).
                let rot_w = e.rot_width().to_f64_exact();
                let rot_allow =
                    3.0 * named.angle.abs() * dt + round * eps * (1.0 + named.angle.abs());
                assert!(
                    rot_w <= rot_allow,
                    "{} {kind:?}: rot width {rot_w:e} > {rot_allow:e}",
                    named.name
                );
                let v0 = m.max_speed(T::zero()).to_f64_exact();
                let reach = s.scale + s.point.norm() + s.start.translation.vector.norm();
                let tr_w = e.trans_width().to_f64_exact();
                let tr_allow = 3.0 * v0 * dt + round * eps * reach * (1.0 + named.angle.abs());
                assert!(
                    tr_w <= tr_allow,
                    "{} {kind:?}: trans width {tr_w:e} > {tr_allow:e}",
                    named.name
                );
                let vp = m.max_speed(T::lit(radius)).to_f64_exact();
                let pb_w = ivec_width(&m.point_bound(&p, t0, t1));
                let pb_allow =
                    3.0 * vp * dt + round * eps * (reach + radius) * (1.0 + named.angle.abs());
                assert!(
                    pb_w <= pb_allow,
                    "{} {kind:?}: point width {pb_w:e} > {pb_allow:e}",
                    named.name
                );
            }
        }
    }
}

#[test]
fn widths_over_a_microsecond_f64() {
    widths_shrink::<f64>(11, 1e-6, 200.0);
}

#[test]
fn widths_over_a_millisecond_f64() {
    widths_shrink::<f64>(12, 1e-3, 200.0);
}

#[test]
fn widths_over_a_millisecond_f32() {
    widths_shrink::<f32>(13, 1e-3, 200.0);
}

#[test]
fn widths_fall_with_the_interval() {
    // For a turning, moving body the widths over [t, t + h] fall roughly in proportion to h.
    let mut rng = SplitMix64::new(14);
    for _ in 0..50 {
        let s = Scenario::draw(&mut rng, RotKind::Generic);
        for named in motions::<f64>(&s) {
            if named.name.starts_with("bucketed") || named.angle.abs() < 1e-3 {
                continue;
            }
            let t = rng.next_f64() * 0.9;
            let wide = named.motion.enclose(t, t + 1e-2).rot_width();
            let narrow = named.motion.enclose(t, t + 1e-5).rot_width();
            assert!(
                narrow * 100.0 < wide,
                "{}: {narrow:e} vs {wide:e}",
                named.name
            );
        }
    }
}

#[test]
fn zero_width_intervals_are_ulp_tight() {
    let mut rng = SplitMix64::new(15);
    for kind in ROT_KINDS {
        for _ in 0..20 {
            let s = Scenario::draw(&mut rng, kind);
            for named in motions::<f64>(&s) {
                if named.name.starts_with("bucketed") {
                    continue;
                }
                let t = rng.next_f64();
                let e = named.motion.enclose(t, t);
                let w = e.rot_width();
                assert!(
                    w < 1e-12 * (1.0 + named.angle.abs()),
                    "{} {kind:?}: {w:e}",
                    named.name
                );
            }
        }
    }
}

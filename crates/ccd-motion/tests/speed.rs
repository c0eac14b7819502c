//! `max_speed` is an upper bound: finite-difference speeds of sampled body points never exceed it.

mod common;

use ccd_interval::Real;
use ccd_testkit::SplitMix64;
use common::{ROT_KINDS, Scenario, motions, unit, vec_t};
use nalgebra::Point3;

fn speeds<T: Real>(seed: u64, steps: usize, noise_ulps: f64) {
    let mut rng = SplitMix64::new(seed);
    let eps = T::EPSILON.to_f64_exact();
    for kind in ROT_KINDS {
        for _ in 0..20 {
            let s = Scenario::draw(&mut rng, kind);
            let radius = s.scale * rng.next_f64() * 3.0;
            let points: Vec<_> = (0..4)
                .map(|_| vec_t::<T>(&(unit(&mut rng) * radius)))
                .collect();
            for named in motions::<T>(&s) {
                let m = &named.motion;
                let bound = m.max_speed(T::lit(radius)).to_f64_exact();
                assert!(bound >= 0.0 && bound.is_finite());
                for p in &points {
                    let x = |t: f64| (m.pose(T::lit(t)) * Point3::from(*p)).coords;
                    let mut prev = x(0.0);
                    for k in 1..=steps {
                        let t = k as f64 / steps as f64;
                        let next = x(t);
                        let moved = (next - prev).norm().to_f64_exact();
                        let mag = next.norm().to_f64_exact() + prev.norm().to_f64_exact();
                        // The chord over a step is at most the path length, at most bound·Δt; the evaluation of the
                        // two poses adds a few ulps of their magnitude.
                        let allow = bound / steps as f64 + noise_ulps * eps * (mag + s.scale);
                        assert!(
                            moved <= allow,
                            "{} {kind:?}: moved {moved:e} in 1/{steps}, bound {bound:e} allows {allow:e}",
                            named.name
                        );
                        prev = next;
                    }
                }
            }
        }
    }
}

#[test]
fn max_speed_bounds_sampled_speeds_f64() {
    speeds::<f64>(21, 500, 64.0);
}

#[test]
fn max_speed_bounds_sampled_speeds_f32() {
    speeds::<f32>(22, 100, 64.0);
}

#[test]
fn max_speed_is_attained_for_pure_spins() {
    // A point on the rim of a body spinning about its origin moves at exactly |ω|·r: the bound is tight.
    use ccd_motion::{ConstantRotationTranslation, Motion};
    use nalgebra::{Isometry3, Vector3};
    let m = ConstantRotationTranslation::new(
        Isometry3::identity(),
        Vector3::z_axis(),
        10.0f64,
        Vector3::zeros(),
    );
    let v = m.max_speed(2.0);
    assert!((v - 20.0).abs() < 1e-12);
    let h = 1e-6;
    let a = m.pose(0.5) * Point3::new(2.0, 0.0, 0.0);
    let b = m.pose(0.5 + h) * Point3::new(2.0, 0.0, 0.0);
    assert!(((b - a).norm() / h - 20.0).abs() < 1e-6);
}

/// A motion that only implements the required methods, to exercise the trait's default `point_bound` and
/// `velocity_bound`.
#[derive(Debug)]
struct Minimal<M>(M);

impl<T: Real, M: ccd_motion::Motion<T>> ccd_motion::Motion<T> for Minimal<M> {
    fn pose(&self, t: T) -> nalgebra::Isometry3<T> {
        self.0.pose(t)
    }
    fn enclose(&self, t0: T, t1: T) -> ccd_motion::IntervalPose<T> {
        self.0.enclose(t0, t1)
    }
    fn max_speed(&self, radius: T) -> T {
        self.0.max_speed(radius)
    }
    fn check_range(&self) -> Result<(), ccd_interval::RangeError> {
        self.0.check_range()
    }
}

fn velocities<T: Real>(seed: u64, noise_ulps: f64) {
    use ccd_motion::Motion;
    let mut rng = SplitMix64::new(seed);
    let eps = T::EPSILON.to_f64_exact();
    for kind in ROT_KINDS {
        for _ in 0..20 {
            let s = Scenario::draw(&mut rng, kind);
            let p = vec_t::<T>(&(unit(&mut rng) * s.scale * rng.next_f64() * 3.0));
            let mut all = motions::<T>(&s);
            let first = motions::<T>(&s).swap_remove(3).motion;
            all.push(common::Named {
                name: "defaults",
                motion: Box::new(Minimal(first)),
                angle: 0.0,
            });
            for named in all {
                let m = &named.motion;
                for _ in 0..5 {
                    let a = rng.next_f64();
                    let b = (a + 10f64.powf(rng.range(-3.0, 0.0))).min(1.0);
                    let (t0, t1) = (T::lit(a), T::lit(b));
                    if t1 <= t0 {
                        continue;
                    }
                    let x0 = (m.pose(t0) * Point3::from(p)).coords;
                    let x1 = (m.pose(t1) * Point3::from(p)).coords;
                    let dt = (t1 - t0).to_f64_exact();
                    let v = m.velocity_bound(&p, t0, t1);
                    let noise =
                        noise_ulps * eps * ((x0.norm() + x1.norm()).to_f64_exact() + s.scale) / dt;
                    for (k, iv) in [v.x, v.y, v.z].into_iter().enumerate() {
                        let q = (x1[k] - x0[k]).to_f64_exact() / dt;
                        let (lo, hi) = (
                            iv.lo().to_f64_exact() - noise,
                            iv.hi().to_f64_exact() + noise,
                        );
                        assert!(
                            lo <= q && q <= hi,
                            "{} {kind:?}: quotient {q:e} outside [{lo:e}, {hi:e}] on [{a}, {b}]",
                            named.name
                        );
                    }
                    // The velocity box is consistent with the speed bound.
                    let speed = m
                        .max_speed(T::lit(p.norm().to_f64_exact() * (1.0 + 1e-6)))
                        .to_f64_exact();
                    let m_lo = [v.x, v.y, v.z]
                        .iter()
                        .map(|c| c.mig().to_f64_exact())
                        .fold(0.0, f64::max);
                    assert!(
                        m_lo <= speed * (1.0 + 1e-5) + noise,
                        "{}: {m_lo:e} > {speed:e}",
                        named.name
                    );
                }
            }
        }
    }
}

#[test]
fn velocity_bounds_contain_difference_quotients_f64() {
    velocities::<f64>(23, 64.0);
}

#[test]
fn velocity_bounds_contain_difference_quotients_f32() {
    velocities::<f32>(24, 64.0);
}

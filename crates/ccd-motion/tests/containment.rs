//! Enclosure containment: for random motions of every type (rotations near π, tiny rotations, antipodal
//! quaternions, spins of several turns) and random sub-intervals [t0, t1] (zero width included), densely sampled
//! poses and body points lie inside `enclose(t0, t1)` and `point_bound(p, t0, t1)`, in `f64` and `f32`.

mod common;

use ccd_interval::Real;
use ccd_motion::Motion;
use ccd_testkit::SplitMix64;
use common::{ROT_KINDS, Scenario, motions, samples, time_interval, vec_t, vector};
use nalgebra::Point3;
use proptest::prelude::*;

/// Checks every motion of one scenario over one interval; returns a description of the first failure.
fn check<T: Real>(seed: u64, rot_kind: usize, interval_kind: u8) -> Result<(), String> {
    let mut rng = SplitMix64::new(seed);
    let scenario = Scenario::draw(&mut rng, ROT_KINDS[rot_kind]);
    let (t0, t1) = time_interval::<T>(&mut rng, interval_kind);
    let mut points = vec![nalgebra::Vector3::zeros()];
    for _ in 0..4 {
        points.push(vec_t::<T>(&vector(&mut rng, 2.0 * scenario.scale)));
    }
    let ts = samples(t0, t1, 64);
    for named in motions::<T>(&scenario) {
        let m = &named.motion;
        let e = m.enclose(t0, t1);
        let bounds: Vec<_> = points.iter().map(|p| m.point_bound(p, t0, t1)).collect();
        let via_pose: Vec<_> = points.iter().map(|p| e.point_bound(p)).collect();
        for &t in &ts {
            let pose = m.pose(t);
            if !e.contains(&pose) {
                return Err(format!(
                    "{}: enclose({t0}, {t1}) misses pose({t}) = {pose:?}\nenclosure {e:?}",
                    named.name
                ));
            }
            for ((p, b), v) in points.iter().zip(&bounds).zip(&via_pose) {
                let x = (pose * Point3::from(*p)).coords;
                if !b.contains(&x) || !v.contains(&x) {
                    return Err(format!(
                        "{}: point {p:?} at t = {t} is {x:?}, outside point_bound {b:?} or enclosure bound {v:?}",
                        named.name
                    ));
                }
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn enclosures_contain_sampled_poses_f64(seed in any::<u64>(), rot in 0usize..6, interval in 0u8..4) {
        if let Err(msg) = check::<f64>(seed, rot, interval) {
            prop_assert!(false, "{}", msg);
        }
    }

    #[test]
    fn enclosures_contain_sampled_poses_f32(seed in any::<u64>(), rot in 0usize..6, interval in 0u8..4) {
        if let Err(msg) = check::<f32>(seed, rot, interval) {
            prop_assert!(false, "{}", msg);
        }
    }
}

/// A deterministic sweep over every rotation kind and interval kind (so each combination is hit on every run,
/// whatever proptest draws).
#[test]
fn every_kind_combination() {
    for seed in 0..40u64 {
        for rot in 0..ROT_KINDS.len() {
            for interval in 0..4 {
                check::<f64>(seed * 31 + 7, rot, interval).unwrap();
                check::<f32>(seed * 31 + 7, rot, interval).unwrap();
            }
        }
    }
}

/// Sub-intervals taken by repeated bisection, the way a time-of-impact search uses them: every leaf interval of a
/// depth-12 bisection encloses its samples.
#[test]
fn bisection_leaves_enclose() {
    let mut rng = SplitMix64::new(99);
    for kind in ROT_KINDS {
        let s = Scenario::draw(&mut rng, kind);
        for named in motions::<f64>(&s) {
            let mut lo = 0.0;
            let mut hi = 1.0;
            for _ in 0..12 {
                let mid = 0.5 * (lo + hi);
                if rng.chance(0.5) {
                    hi = mid
                } else {
                    lo = mid
                }
                let e = named.motion.enclose(lo, hi);
                for t in samples(lo, hi, 16) {
                    assert!(
                        e.contains(&named.motion.pose(t)),
                        "{} [{lo}, {hi}] t = {t}",
                        named.name
                    );
                }
            }
        }
    }
}

//! The interval sphere test over a time interval (Jørgensen 2006, §6.1).

use ccd_interval::Interval;
use ccd_motion::IntervalPose;
use nalgebra::Vector3;

use super::Certainty;
use crate::{Real, Sphere};

/// Whether spheres `a` and `b` are **certainly disjoint at every time** of the
/// interval that the enclosures `enc_a` and `enc_b` cover.
///
/// Each centre is bounded in world coordinates over the interval
/// ([`IntervalPose::point_bound`]); the spheres are disjoint if the smallest
/// squared distance between the two centre boxes exceeds `(r_A + r_B)²`:
/// `inf(|C_B − C_A|²) > sup((r_A + r_B)²)`, with `|·|²` a sum of interval
/// squares (not products, so a component straddling 0 has lower bound 0, not
/// a negative number as in the report's code).
///
/// # Guarantee
/// [`Certainty::Disjoint`] is certified: for every rigid pose in `enc_a`
/// and every rigid pose in `enc_b` (a rigid motion keeps the radius, so only
/// the centre needs bounding) the posed balls are disjoint, hence so are the
/// balls moved by the enclosed motions at every time of the interval.
/// Outward-rounded interval arithmetic throughout.
/// [`Certainty::MayOverlap`] is not a claim of contact.
///
/// # Frames
/// Centres in the models' frames; enclosures map model to world.
///
/// # Behaviour
/// Touching is overlap.
///
/// # Panics
/// Non-finite input trips the interval crate's debug assertion in debug
/// builds; release builds answer [`Certainty::MayOverlap`].
pub fn sphere_disjoint_over<T: Real>(
    a: &Sphere<T>,
    enc_a: &IntervalPose<T>,
    b: &Sphere<T>,
    enc_b: &IntervalPose<T>,
) -> Certainty {
    let ca = enc_a.point_bound(&Vector3::from(a.center));
    let cb = enc_b.point_bound(&Vector3::from(b.center));
    let d2 = (cb - ca).norm_sqr();
    let r = Interval::point(a.radius) + b.radius;
    if d2.certainly_gt(r.sqr()) {
        Certainty::Disjoint
    } else {
        Certainty::MayOverlap
    }
}

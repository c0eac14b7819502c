//! Continuous bounding-volume tests: are two volumes, each carried by a rigid
//! motion, certainly disjoint during a whole time interval?
//!
//! | volume | function | method |
//! |---|---|---|
//! | [`Obb`] | [`obb_disjoint_over`] | interval 15-axis SAT in A's model frame |
//! | [`Sphere`] | [`sphere_disjoint_over`] | interval centre distance |
//!
//! Both take the volumes in their model frames and each model's
//! [`IntervalPose`](ccd_motion::IntervalPose) over `[t0, t1]` (from [`Motion::enclose`]); the `_during`
//! helpers take the motions and the interval instead. [`first_possible_contact`]
//! bisects time with any such test to bound the first time of contact from
//! below.
//!
//! # Guarantee
//! Certified, never a false "disjoint": [`Certainty::Disjoint`] means that
//! for every time in the interval (indeed for every combination of rigid
//! poses the enclosures contain) the volumes are disjoint. It rests on the
//! [`Motion`] contract (enclosures contain every pose) and on
//! outward-rounded interval arithmetic for every quantity the verdict depends
//! on. [`Certainty::MayOverlap`] may be a false alarm: enclosures widen with
//! the interval length and the rotation speed.
//!
//! # Reference
//! Redon et al. 2002; Jørgensen 2006, §6.1 (spheres), §6.3 (OBBs), §9.3 and
//! Appendix B (the rotating rod test), whose bucket scan and non-conservative
//! rounding are both avoided here.

mod obb;
mod sphere;

pub use obb::obb_disjoint_over;
pub use sphere::sphere_disjoint_over;

use ccd_motion::Motion;

use crate::{Obb, Real, Sphere};

/// The verdict of a continuous bounding-volume test over a time interval.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Certainty {
    /// Certainly disjoint at every time of the interval.
    Disjoint,
    /// Not certified disjoint: they may touch or overlap at some time (or
    /// the enclosures are too loose to tell).
    MayOverlap,
}

impl Certainty {
    /// `true` for [`Certainty::Disjoint`].
    pub fn is_disjoint(self) -> bool {
        self == Certainty::Disjoint
    }
}

/// [`obb_disjoint_over`] with the enclosures of `motion_a` and `motion_b`
/// over `[t0, t1]` (normalised time).
///
/// # Guarantee
/// As [`obb_disjoint_over`], for the boxes carried by the motions at every
/// `t ∈ [t0, t1]` (through the [`Motion::enclose`] contract).
///
/// # Panics
/// If `t0 > t1` or either is NaN (from [`Motion::enclose`]).
pub fn obb_disjoint_during<T, MA, MB>(
    a: &Obb<T>,
    motion_a: &MA,
    b: &Obb<T>,
    motion_b: &MB,
    t0: T,
    t1: T,
) -> Certainty
where
    T: Real,
    MA: Motion<T> + ?Sized,
    MB: Motion<T> + ?Sized,
{
    obb_disjoint_over(a, &motion_a.enclose(t0, t1), b, &motion_b.enclose(t0, t1))
}

/// [`sphere_disjoint_over`] with the enclosures of `motion_a` and `motion_b`
/// over `[t0, t1]`.
///
/// # Guarantee
/// As [`sphere_disjoint_over`], at every `t ∈ [t0, t1]`.
///
/// # Panics
/// If `t0 > t1` or either is NaN (from [`Motion::enclose`]).
pub fn sphere_disjoint_during<T, MA, MB>(
    a: &Sphere<T>,
    motion_a: &MA,
    b: &Sphere<T>,
    motion_b: &MB,
    t0: T,
    t1: T,
) -> Certainty
where
    T: Real,
    MA: Motion<T> + ?Sized,
    MB: Motion<T> + ?Sized,
{
    sphere_disjoint_over(a, &motion_a.enclose(t0, t1), b, &motion_b.enclose(t0, t1))
}

/// A lower bound on the first time in `[t0, t1]` at which two volumes may
/// touch, by bisecting time with a continuous test.
///
/// `disjoint_over(s, e)` must answer for the sub-interval `[s, e]` (for
/// example `|s, e| obb_disjoint_during(&a, &ma, &b, &mb, s, e)`). The search
/// is depth-first, earlier half first: an interval certified
/// [`Certainty::Disjoint`] is dropped, one that is not is halved until it is
/// no wider than `resolution`, and the start of the first such interval is
/// returned. `None`: the whole interval is certified disjoint.
///
/// # Guarantee
/// Conservative when `disjoint_over` is: every time before the returned value
/// lies in an interval certified disjoint, so the volumes do not touch
/// before it (it is a lower bound on the first contact), and `None` means no
/// contact anywhere in `[t0, t1]`. The returned value may be early by the
/// width of one interval plus the enclosures' slack (a false alarm).
///
/// # Cost
/// At most about `2·(t1 − t0)/resolution` calls in the worst case (every
/// interval a false alarm); typically a few per halving level.
///
/// # Behaviour
/// `resolution ≤ 0` halves down to intervals that floating point cannot
/// split. An interval that cannot be split is treated as at the resolution.
/// `t0 > t1` is passed to `disjoint_over` as is (the `_during` helpers panic
/// on it).
pub fn first_possible_contact<T: Real>(
    t0: T,
    t1: T,
    resolution: T,
    mut disjoint_over: impl FnMut(T, T) -> Certainty,
) -> Option<T> {
    let mut stack = vec![(t0, t1)];
    while let Some((lo, hi)) = stack.pop() {
        if disjoint_over(lo, hi).is_disjoint() {
            continue;
        }
        let mid = lo + (hi - lo) * T::lit(0.5);
        if hi - lo <= resolution || !(lo < mid && mid < hi) {
            return Some(lo);
        }
        stack.push((mid, hi));
        stack.push((lo, mid));
    }
    None
}

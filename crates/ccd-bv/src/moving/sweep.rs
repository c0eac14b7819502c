//! The per-axis sweep of Eberly's constant-velocity test (Eberly, *Dynamic
//! Collision Detection using Oriented Bounding Boxes*, §2.2.2), with rounding margins that make it conservative.
//!
//! On an axis `L`, object A projects to `[a_lo, a_hi]` and object B to
//! `[b_lo, b_hi]` at `t = 0`; B moves relative to A with the projected speed
//! `s = L·W`, `W = v_B − v_A`. The projections overlap at time `t` iff
//! `b_lo + t·s ≤ a_hi` and `b_hi + t·s ≥ a_lo`, i.e.
//!
//! ```text
//!     t·s ≤ P  and  −t·s ≤ Q,     P = a_hi − b_lo,  Q = b_hi − a_lo.
//! ```
//!
//! Each axis contributes the time set where this holds; the objects can only
//! touch inside the intersection of these sets over all axes (and, when the
//! axes are the facet normals of the Minkowski difference, exactly there).
//! The first time of contact is the largest entry time, provided it does not
//! exceed the smallest exit time.
//!
//! # Rounding margin
//! `P`, `Q` and `s` are computed in `T`. With `‖L‖₁ = |L_x| + |L_y| + |L_z|`
//! and the objects' coordinate scales `S_A`, `S_B` (largest coordinate of a
//! centre or vertex plus the half-extents) and speeds `V = ‖v_A‖∞ + ‖v_B‖∞`,
//! every computed `P`, `Q` lies within `γ·‖L‖₁·(S_A + S_B)` of the value the
//! same formula has in exact arithmetic on the same inputs, and `s` within
//! `γ·‖L‖₁·V`: a box bound `L·c ± Σ h_k |L·A_k|` takes 8 rounded operations
//! (3-term dot products with `|L_i x_i| ≤ ‖L‖₁‖x‖∞` each, the scaled sum, the
//! centre ± radius) and `P = a_hi − b_lo + margin` two more, so the classic
//! bound `γ_10 = 10u/(1 − 10u)`, `u = EPSILON/2`, applies; `γ = 8·EPSILON =
//! 16u` leaves room for the rounding of the margin itself. An absolute `η`
//! (64 smallest normal `f32`s) covers underflow. The sweep widens `P` and
//! `Q` by these bounds, takes `s` as the interval `[s − e, s + e]`, solves
//! the two linear inequalities for `t ≥ 0` and rounds every quotient outward
//! (`step_down` for entry times, `step_up` for exit times). The time set it
//! keeps on each axis therefore contains the exact one, so the first time it
//! reports is never later than the exact first time on the same axes, and it
//! never reports a miss when the exact sets intersect.

use nalgebra::Vector3;

use crate::Real;

/// Relative error factor `γ` of the margins, in units of `T::EPSILON`.
const GAMMA_EPS: f64 = 8.0;

/// Which side of A object B comes from along the last-entered axis.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Side {
    /// B comes from the `−L` side: A's minimum feature meets B's maximum one.
    Below,
    /// B comes from the `+L` side: A's maximum feature meets B's minimum one.
    Above,
}

/// The axis that set the current first-contact time.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Entered<T: Real> {
    /// The axis, unnormalised, as swept.
    pub(crate) axis: Vector3<T>,
    /// Where B came from.
    pub(crate) side: Side,
}

/// The running intersection of the per-axis time sets.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Sweep<T: Real> {
    /// Largest entry time so far (starts at 0).
    first: T,
    /// Smallest exit time so far (starts at `t_max`).
    last: T,
    /// The axis of the last strict increase of `first`.
    entered: Option<Entered<T>>,
    /// `γ·(S_A + S_B)`: multiplied by `‖L‖₁`, the margin on `P` and `Q`.
    gap_err: T,
    /// `γ·V`: multiplied by `‖L‖₁`, the margin on the speed.
    speed_err: T,
    /// Absolute margin for underflow.
    eta: T,
}

/// Result of sweeping all axes without a miss.
pub(crate) enum Outcome<T: Real> {
    /// Every axis overlaps at `t = 0`.
    AtStart,
    /// First contact at `time`, set by `entered`.
    First { time: T, entered: Entered<T> },
}

impl<T: Real> Sweep<T> {
    /// A sweep over `[0, t_max]` for objects of coordinate scales `scale_a`,
    /// `scale_b` moving with velocities `va`, `vb`.
    pub(crate) fn new(t_max: T, scale_a: T, scale_b: T, va: &Vector3<T>, vb: &Vector3<T>) -> Self {
        let gamma = T::lit(GAMMA_EPS) * T::EPSILON;
        let v = va.amax() + vb.amax();
        Self {
            first: T::zero(),
            last: t_max,
            entered: None,
            gap_err: gamma * (scale_a + scale_b),
            speed_err: gamma * v,
            eta: T::lit(64.0 * f64::from(f32::MIN_POSITIVE)),
        }
    }

    /// Adds axis `l`, on which A projects to `a`, B to `b` (both `[lo, hi]`
    /// at `t = 0`) and B moves relative to A with computed speed `speed`.
    /// Returns `false` once the time sets are known to be disjoint (a miss).
    #[inline]
    pub(crate) fn axis(&mut self, l: &Vector3<T>, a: (T, T), b: (T, T), speed: T) -> bool {
        let l1 = l.x.abs() + l.y.abs() + l.z.abs();
        let margin = self.gap_err * l1 + self.eta;
        let e = self.speed_err * l1 + self.eta;
        let p = (a.1 - b.0) + margin;
        let q = (b.1 - a.0) + margin;
        let (s_lo, s_hi) = (speed - e, speed + e);
        let zero = T::zero();
        let mut enter = zero;
        let mut side = Side::Above;
        let mut exit = self.last;
        // t·s ≤ P for some s ∈ [s_lo, s_hi]  ⇔  t·s_lo ≤ P.
        if s_lo > zero {
            exit = exit.min((p / s_lo).step_up());
        } else if p < zero {
            if s_lo < zero {
                enter = (p / s_lo).step_down();
            } else {
                return false;
            }
        }
        // −t·s ≤ Q for some s  ⇔  t·(−s_hi) ≤ Q.
        let r = -s_hi;
        if r > zero {
            exit = exit.min((q / r).step_up());
        } else if q < zero {
            if r < zero {
                let t = (q / r).step_down();
                if t > enter {
                    enter = t;
                    side = Side::Below;
                }
            } else {
                return false;
            }
        }
        if enter > self.first {
            self.first = enter;
            self.entered = Some(Entered { axis: *l, side });
        }
        self.last = exit;
        // Written so that a NaN keeps the sweep going (no false miss).
        self.first.partial_cmp(&self.last) != Some(std::cmp::Ordering::Greater)
    }

    /// The verdict after every axis was swept without a miss.
    pub(crate) fn finish(self) -> Outcome<T> {
        match self.entered {
            Some(entered) if self.first > T::zero() => Outcome::First {
                time: self.first,
                entered,
            },
            _ => Outcome::AtStart,
        }
    }
}

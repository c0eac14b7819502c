//! The [`Motion`] trait (a rigid motion over normalised time t ∈ [0, 1]) and [`Static`], the motion that does not
//! move.

use std::sync::Arc;

use ccd_interval::limits::check_isometry;
use ccd_interval::{IVec3, RangeError, Real};
use nalgebra::{Isometry3, Vector3};

use crate::enclosure::IntervalPose;

/// A rigid in-between motion: a continuous path of poses over normalised time t ∈ [0, 1] from a start pose
/// (t = 0) to an end pose (t = 1).
///
/// # Frames
/// Every pose maps body coordinates to world coordinates: a body point x is at R(t)·x + p(t) at time t, where
/// R(t) is the rotation and p(t) the world position of the body origin.
///
/// # Contract for implementers
/// - [`pose`](Self::pose) is continuous in t, rigid, and interpolates: `pose(0)` is the start pose and `pose(1)`
///   the end pose, up to a few ulps of floating-point evaluation.
/// - [`enclose`](Self::enclose) is **conservative over every sub-interval**: for any 0 ≤ t0 ≤ t1 ≤ 1 it contains
///   the exact pose at every real t ∈ [t0, t1], and the floating-point `pose(t)` at every float t ∈ [t0, t1]. It
///   must not be built from endpoint values alone (a rotation's entries have interior extrema).
/// - [`point_bound`](Self::point_bound) is conservative in the same sense for one body point, and
///   [`max_speed`](Self::max_speed) is an upper bound, never an estimate.
/// - Time outside [0, 1] is not part of the contract (implementations extrapolate the same formula).
///
/// # Reference
/// Redon's in-between motions (Redon et al. 2002; Jørgensen 2006, §4.1): continuity, interpolation of the two known poses, rigidity.
pub trait Motion<T: Real>: Send + Sync + std::fmt::Debug {
    /// The pose at normalised time `t` (body → world).
    fn pose(&self, t: T) -> Isometry3<T>;

    /// An interval pose containing every pose over [t0, t1].
    ///
    /// # Guarantee
    /// Conservative: contains the exact pose for every real t ∈ [t0, t1] and `pose(t)` for every float t in it.
    /// May over-approximate (interval dependency, outward rounding); the width shrinks to a few ulps as
    /// t1 − t0 → 0.
    ///
    /// # Panics
    /// If `t0 > t1` or either is NaN.
    fn enclose(&self, t0: T, t1: T) -> IntervalPose<T>;

    /// Encloses the world position of the body point `p` for every t ∈ [t0, t1].
    ///
    /// The default bounds through [`enclose`](Self::enclose); implementations override it with a tighter form
    /// (the point's own trajectory) where they can.
    ///
    /// # Guarantee
    /// Conservative: contains R(t)·p + p(t) for every real t ∈ [t0, t1], and `pose(t) * p` for every float t.
    ///
    /// # Frames
    /// `p` in body coordinates; the result in world coordinates.
    ///
    /// # Panics
    /// If `t0 > t1` or either is NaN.
    fn point_bound(&self, p: &Vector3<T>, t0: T, t1: T) -> IVec3<T> {
        self.enclose(t0, t1).point_bound(p)
    }

    /// An upper bound on the speed |d/dt (R(t)·x + p(t))| over t ∈ [0, 1] of every body point x with
    /// |x| ≤ `radius` (world length units per unit of normalised time).
    ///
    /// Conservative advancement uses it: no point of a body of that radius (about its origin) moves more than
    /// `max_speed(radius)·Δt` in time Δt.
    fn max_speed(&self, radius: T) -> T;

    /// Encloses the velocity d/dt (R(t)·p + p(t)) of the body point `p` for every t ∈ [t0, t1] (world frame, per
    /// unit of normalised time): the derivative enclosure an interval Newton step needs.
    ///
    /// The default is the box of half-width [`max_speed`](Self::max_speed)(|p|) about zero; implementations
    /// override it with the derivative of their own formula.
    ///
    /// # Guarantee
    /// Conservative for the exact motion: by the mean value theorem each component of
    /// (x(t1) − x(t0))/(t1 − t0) lies in the matching component of the bound.
    ///
    /// # Panics
    /// If `t0 > t1` or either is NaN.
    fn velocity_bound(&self, p: &Vector3<T>, t0: T, t1: T) -> IVec3<T> {
        crate::enclosure::time_interval(t0, t1);
        let v = self.max_speed(crate::enclosure::norm_upper(p));
        let c = ccd_interval::Interval::new(-v, v);
        IVec3::new(c, c, c)
    }

    /// `Some(displacement over [0, 1])` if the motion is a pure translation at constant velocity (constant
    /// rotation), else `None`. Queries use it to take the exact constant-velocity (Eberly) path.
    fn is_pure_translation(&self) -> Option<Vector3<T>> {
        None
    }

    /// Checks every parameter of the motion against the supported range of `T` ([`ccd_interval::limits`]):
    /// poses, displacements and points as lengths, rotation angles against the angle limit, axes and quaternions
    /// unit. Queries call it at their entry point.
    ///
    /// # Errors
    /// A [`RangeError`] naming the parameter, its value and the limit.
    fn check_range(&self) -> Result<(), RangeError>;
}

macro_rules! forward_motion {
    ($($ptr:ty),*) => {$(
        impl<T: Real, M: Motion<T> + ?Sized> Motion<T> for $ptr {
            fn pose(&self, t: T) -> Isometry3<T> {
                (**self).pose(t)
            }
            fn enclose(&self, t0: T, t1: T) -> IntervalPose<T> {
                (**self).enclose(t0, t1)
            }
            fn point_bound(&self, p: &Vector3<T>, t0: T, t1: T) -> IVec3<T> {
                (**self).point_bound(p, t0, t1)
            }
            fn max_speed(&self, radius: T) -> T {
                (**self).max_speed(radius)
            }
            fn velocity_bound(&self, p: &Vector3<T>, t0: T, t1: T) -> IVec3<T> {
                (**self).velocity_bound(p, t0, t1)
            }
            fn is_pure_translation(&self) -> Option<Vector3<T>> {
                (**self).is_pure_translation()
            }
            fn check_range(&self) -> Result<(), RangeError> {
                (**self).check_range()
            }
        }
    )*};
}

forward_motion!(&M, Box<M>, Arc<M>);

/// A body at rest: the same pose at every t.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Static<T: Real> {
    /// The constant pose (body → world).
    pub pose: Isometry3<T>,
}

impl<T: Real> Static<T> {
    /// A body resting at `pose`.
    pub fn new(pose: Isometry3<T>) -> Self {
        Self { pose }
    }
}

impl<T: Real> Motion<T> for Static<T> {
    fn check_range(&self) -> Result<(), RangeError> {
        check_isometry(&self.pose).map_err(|e| e.within("pose"))
    }

    fn pose(&self, _t: T) -> Isometry3<T> {
        self.pose
    }

    fn enclose(&self, t0: T, t1: T) -> IntervalPose<T> {
        crate::enclosure::time_interval(t0, t1);
        IntervalPose::from_pose(&self.pose)
    }

    fn max_speed(&self, _radius: T) -> T {
        T::zero()
    }

    fn velocity_bound(&self, _p: &Vector3<T>, t0: T, t1: T) -> IVec3<T> {
        crate::enclosure::time_interval(t0, t1);
        IVec3::point(&Vector3::zeros())
    }

    fn is_pure_translation(&self) -> Option<Vector3<T>> {
        Some(Vector3::zeros())
    }
}

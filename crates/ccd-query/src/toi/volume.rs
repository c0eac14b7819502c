//! [`ContinuousVolume`]: what the continuous traversal needs from a bounding-volume type.

use ccd_bv::apart::{
    aabb_apart, obb_apart, obb_origin_radius, rss_apart, rss_origin_radius, sphere_apart,
};
use ccd_bv::{Aabb, BoundingVolume, Obb, Pose, Real, Rss, Sphere};
use ccd_interval::bound_up;
use nalgebra::Vector3;

/// A bounding volume the continuous query can test over a time interval.
///
/// The traversal stands each time interval's poses in for by one float relative pose plus a slack that bounds
/// how far the motions carry any point of the volumes from it
/// ([`RelativeSpan`](ccd_motion::RelativeSpan)); a volume pair is certainly disjoint over the interval when the
/// two volumes, static at that pose, are farther apart than the slack.
///
/// # Contract for implementers
/// [`apart`](Self::apart) returns `true` only if the volumes are certainly farther apart than `gap` (rounding
/// included, for any rigid transform within `defect` of `b_in_a.rot`); [`origin_radius`](Self::origin_radius) is
/// an upper bound, never an estimate.
pub trait ContinuousVolume<T: Real>: BoundingVolume<T> {
    /// `true` if `self` (A's frame) and `other` moved by `b_in_a` are certainly farther apart than `gap`.
    fn apart(&self, other: &Self, b_in_a: &Pose<T>, gap: T, defect: T) -> bool;

    /// An upper bound on the distance from the model origin of every point of the volume.
    fn origin_radius(&self) -> T;
}

impl<T: Real> ContinuousVolume<T> for Obb<T> {
    #[inline]
    fn apart(&self, other: &Self, b_in_a: &Pose<T>, gap: T, defect: T) -> bool {
        obb_apart(self, other, b_in_a, gap, defect)
    }

    #[inline]
    fn origin_radius(&self) -> T {
        obb_origin_radius(self)
    }
}

impl<T: Real> ContinuousVolume<T> for Sphere<T> {
    #[inline]
    fn apart(&self, other: &Self, b_in_a: &Pose<T>, gap: T, defect: T) -> bool {
        sphere_apart(self, other, b_in_a, gap, defect)
    }

    #[inline]
    fn origin_radius(&self) -> T {
        bound_up(Vector3::from(self.center).norm() + self.radius)
    }
}

impl<T: Real> ContinuousVolume<T> for Aabb<T> {
    #[inline]
    fn apart(&self, other: &Self, b_in_a: &Pose<T>, gap: T, defect: T) -> bool {
        aabb_apart(self, other, b_in_a, gap, defect)
    }

    #[inline]
    fn origin_radius(&self) -> T {
        bound_up(Vector3::from(self.center).norm() + Vector3::from(self.half).norm())
    }
}

impl<T: Real> ContinuousVolume<T> for Rss<T> {
    #[inline]
    fn apart(&self, other: &Self, b_in_a: &Pose<T>, gap: T, defect: T) -> bool {
        rss_apart(self, other, b_in_a, gap, defect)
    }

    #[inline]
    fn origin_radius(&self) -> T {
        rss_origin_radius(self)
    }
}

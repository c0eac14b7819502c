//! [`ContinuousVolume`]: the continuous overlap test the traversal needs from a bounding-volume type.

use ccd_bv::continuous::{obb_disjoint_over, sphere_disjoint_over};
use ccd_bv::{Aabb, BoundingVolume, Obb, Real, Sphere};
use ccd_motion::IntervalPose;

/// A bounding volume that can be tested for overlap while both volumes move.
///
/// # Contract for implementers
/// [`disjoint_over`](Self::disjoint_over) returns `true` only if the two volumes, each carried by every pose
/// of its enclosure, are certainly disjoint (no false "disjoint"). [`centre`](Self::centre) is any point of
/// the volume (used only to choose between descending and bisecting time).
pub trait ContinuousVolume<T: Real>: BoundingVolume<T> {
    /// `true` if `self` (model frame A, poses `enc`) and `other` (model frame B, poses `enc_other`) are
    /// certainly disjoint for every pair of poses of the enclosures.
    ///
    /// # Guarantee
    /// Conservative: never `true` for volumes that touch under some pair of enclosed poses.
    fn disjoint_over(
        &self,
        enc: &IntervalPose<T>,
        other: &Self,
        enc_other: &IntervalPose<T>,
    ) -> bool;

    /// A point inside the volume, model frame.
    fn centre(&self) -> [T; 3];
}

impl<T: Real> ContinuousVolume<T> for Obb<T> {
    fn disjoint_over(
        &self,
        enc: &IntervalPose<T>,
        other: &Self,
        enc_other: &IntervalPose<T>,
    ) -> bool {
        obb_disjoint_over(self, enc, other, enc_other).is_disjoint()
    }

    fn centre(&self) -> [T; 3] {
        self.center
    }
}

impl<T: Real> ContinuousVolume<T> for Sphere<T> {
    fn disjoint_over(
        &self,
        enc: &IntervalPose<T>,
        other: &Self,
        enc_other: &IntervalPose<T>,
    ) -> bool {
        sphere_disjoint_over(self, enc, other, enc_other).is_disjoint()
    }

    fn centre(&self) -> [T; 3] {
        self.center
    }
}

/// An AABB is tested as the OBB with identity axes and the same centre and half-extents: the same set of
/// points, so the test is exactly as conservative as the OBB test.
impl<T: Real> ContinuousVolume<T> for Aabb<T> {
    fn disjoint_over(
        &self,
        enc: &IntervalPose<T>,
        other: &Self,
        enc_other: &IntervalPose<T>,
    ) -> bool {
        obb_disjoint_over(&as_obb(self), enc, &as_obb(other), enc_other).is_disjoint()
    }

    fn centre(&self) -> [T; 3] {
        self.center
    }
}

fn as_obb<T: Real>(b: &Aabb<T>) -> Obb<T> {
    let (o, l) = (T::zero(), T::one());
    Obb {
        rot: [[l, o, o], [o, l, o], [o, o, l]],
        center: b.center,
        half: b.half,
    }
}

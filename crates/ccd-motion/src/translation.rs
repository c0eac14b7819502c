//! [`Translation`]: constant-velocity translation at a fixed orientation.

use ccd_interval::limits::{check_isometry, check_vector};
use ccd_interval::{IVec3, RangeError, Real};
use nalgebra::{Isometry3, Translation3, Vector3};

use crate::enclosure::{
    IntervalPose, eval_pad, norm_upper, rotation_pad, time_interval, widen_vec,
};
use crate::motion::Motion;

/// Constant-velocity translation: the body keeps the start orientation and its origin moves on the segment
/// p(t) = p0 + t·d.
///
/// # Frames
/// `start` maps body to world at t = 0; `displacement` d is in world coordinates.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Translation<T: Real> {
    start: Isometry3<T>,
    displacement: Vector3<T>,
    /// Per-component pad covering the rounding of p0 + d·t.
    trans_pad: Vector3<T>,
}

impl<T: Real> Translation<T> {
    /// Translation by `displacement` (world frame) over t ∈ [0, 1], starting at `start`.
    pub fn new(start: Isometry3<T>, displacement: Vector3<T>) -> Self {
        let p0 = start.translation.vector;
        let trans_pad = p0.zip_map(&displacement, |a, b| {
            T::EPSILON * T::lit(4.0) * (a.abs() + b.abs())
        });
        Self {
            start,
            displacement,
            trans_pad,
        }
    }

    /// The translation from `start` to the position `end` (world frame), keeping the start orientation.
    pub fn to_position(start: Isometry3<T>, end: Vector3<T>) -> Self {
        Self::new(start, end - start.translation.vector)
    }

    /// The start pose (t = 0).
    pub fn start(&self) -> &Isometry3<T> {
        &self.start
    }

    /// The displacement of the body over t ∈ [0, 1] (world frame).
    pub fn displacement(&self) -> &Vector3<T> {
        &self.displacement
    }

    /// The end pose (t = 1).
    pub fn end(&self) -> Isometry3<T> {
        self.pose(T::one())
    }

    fn trans_bound(&self, t0: T, t1: T) -> IVec3<T> {
        let time = time_interval(t0, t1);
        let moved = IVec3::point(&self.displacement) * time + self.start.translation.vector;
        widen_vec(moved, &self.trans_pad)
    }
}

impl<T: Real> Motion<T> for Translation<T> {
    fn check_range(&self) -> Result<(), RangeError> {
        check_isometry(&self.start).map_err(|e| e.within("start pose"))?;
        check_vector(&self.displacement, "displacement")
    }

    fn pose(&self, t: T) -> Isometry3<T> {
        let p = self.start.translation.vector + self.displacement * t;
        Isometry3::from_parts(Translation3::from(p), self.start.rotation)
    }

    fn enclose(&self, t0: T, t1: T) -> IntervalPose<T> {
        let rot = IntervalPose::from_pose(&self.start).rot;
        IntervalPose {
            rot,
            trans: self.trans_bound(t0, t1),
        }
    }

    fn point_bound(&self, p: &Vector3<T>, t0: T, t1: T) -> IVec3<T> {
        // The rotated point is one fixed vector; only the translation sweeps.
        let r = *self.start.rotation.to_rotation_matrix().matrix();
        let rotated = ccd_interval::IMat3::point(&r).mul_real_vec(p);
        let pad = rotation_pad(T::zero()) * crate::enclosure::l1(p);
        let rotated = widen_vec(rotated, &Vector3::repeat(pad));
        eval_pad(rotated + self.trans_bound(t0, t1), p)
    }

    fn max_speed(&self, _radius: T) -> T {
        norm_upper(&self.displacement)
    }

    fn velocity_bound(&self, _p: &Vector3<T>, t0: T, t1: T) -> IVec3<T> {
        time_interval(t0, t1);
        IVec3::point(&self.displacement)
    }

    fn is_pure_translation(&self) -> Option<Vector3<T>> {
        Some(self.displacement)
    }
}

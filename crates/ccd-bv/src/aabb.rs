//! Axis-aligned bounding box: centre and half-extents.

use bytemuck::{Pod, Zeroable};
use nalgebra::Vector3;

use crate::{
    BoundingVolume, BvKind, FitFrame, FitMethod, MoveRounding, Pose, Real, box_measure, fit,
    lower_bound,
};

/// An axis-aligned box `{x : |x_i − c_i| ≤ h_i}` (closed) in its model frame.
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(C)]
pub struct Aabb<T> {
    /// Centre.
    pub center: [T; 3],
    /// Half-extents (≥ 0).
    pub half: [T; 3],
}

// SAFETY: `Aabb<T>` is `repr(C)` and both fields are arrays of `T: Pod` (same
// size and alignment), so there is no padding and every bit pattern is valid;
// the all-zero pattern is too.
unsafe impl<T: Real> Zeroable for Aabb<T> {}
// SAFETY: as above; `T: Pod` is also `Copy + 'static`.
unsafe impl<T: Real> Pod for Aabb<T> {}

impl<T: Real> Aabb<T> {
    /// The box from its lower and upper corners (rounded to nearest; not
    /// padded).
    pub fn from_corners(lo: [T; 3], hi: [T; 3]) -> Self {
        let two = T::lit(2.0);
        Self {
            center: std::array::from_fn(|i| (lo[i] + hi[i]) / two),
            half: std::array::from_fn(|i| (hi[i] - lo[i]) / two),
        }
    }

    /// The axis-aligned box of this box moved by `pose` (thesis §2.3.2):
    /// `c' = R·c + t`, `h'_i = Σ_j |R_ij|·h_j`, as vectors.
    #[inline(always)]
    pub fn wrap(&self, pose: &Pose<T>) -> (Vector3<T>, Vector3<T>) {
        let c = pose.rot * Vector3::from(self.center) + pose.trans;
        let h = pose.abs_rot * Vector3::from(self.half);
        (c, h)
    }
}

impl<T: Real> BoundingVolume<T> for Aabb<T> {
    const KIND: BvKind = BvKind::Aabb;

    /// The vertices' coordinate ranges, made conservative in `T` as described
    /// in [`fit`]; `method` is ignored.
    fn fit(vertices: &[[T; 3]], faces: &[[u32; 3]], _method: FitMethod) -> Self {
        fit::fit_aabb(vertices, faces)
    }

    /// As [`fit`](BoundingVolume::fit) on the given vertices (no frame to choose).
    fn fit_shared(
        vertices: &[[T; 3]],
        _faces: &[[u32; 3]],
        ids: &[u32],
        _frame: &FitFrame,
    ) -> Self {
        fit::fit_aabb_of(vertices, ids)
    }

    /// The wrap of the moved box ([`Aabb::wrap`]): contains the moved box,
    /// exact only for axis-permuting rotations.
    fn transformed(&self, pose: &Pose<T>) -> Self {
        let (c, h) = self.wrap(pose);
        Self {
            center: c.into(),
            half: h.into(),
        }
    }

    /// `other` is wrapped into `self`'s frame (model-space update, thesis
    /// §2.3.3), then the three coordinate intervals are compared.
    ///
    /// # Guarantee
    /// Conservative (the wrap contains B); touching is overlap. Round-off of
    /// the transform itself (a few ulps) is not guarded.
    #[inline]
    fn overlaps(&self, other: &Self, b_in_a: &Pose<T>) -> bool {
        let (c, h) = other.wrap(b_in_a);
        (0..3).all(|i| (c[i] - self.center[i]).abs() <= self.half[i] + h[i])
    }

    /// The three coordinate intervals compared directly (both boxes in one
    /// frame, no wrap).
    #[inline]
    fn overlaps_local(&self, other: &Self) -> bool {
        (0..3).all(|i| (other.center[i] - self.center[i]).abs() <= self.half[i] + other.half[i])
    }

    /// The distance between `self` and the wrap of `other` (the norm of the
    /// per-axis gaps) less the allowance
    /// ([`lower_bound::aabb_lower_bound`]), clamped at 0.
    ///
    /// # Guarantee
    /// Never exceeds the distance between A and B moved by the pose evaluated
    /// exactly, rounding included: the exact wrap contains the moved box for
    /// any matrix.
    fn distance_lower_bound(&self, other: &Self, b_in_a: &Pose<T>) -> T {
        lower_bound::aabb_lower_bound(self, other, b_in_a)
    }

    /// As [`BoundingVolume::magnitude`].
    #[inline]
    fn magnitude(&self) -> T {
        lower_bound::l1(&self.center) + lower_bound::l1(&self.half)
    }

    /// As [`BoundingVolume::axis_defect`].
    #[inline]
    fn axis_defect(&self) -> T {
        T::zero()
    }

    /// The norm of the per-axis gaps between the two boxes, less the
    /// allowance ([`lower_bound::aabb_lower_bound_local`]), clamped at 0.
    ///
    /// # Guarantee
    /// As [`BoundingVolume::distance_lower_bound_local`] (the moved content
    /// is the content of the wrap `other_moved`).
    fn distance_lower_bound_local(&self, other_moved: &Self, moved: &MoveRounding<T>) -> T {
        lower_bound::aabb_lower_bound_local(self, other_moved, moved)
    }

    /// `|p_i − c_i| ≤ h_i + tol` on every axis.
    fn contains_point(&self, p: &[T; 3], tol: T) -> bool {
        (0..3).all(|i| (p[i] - self.center[i]).abs() <= self.half[i] + tol)
    }

    /// `2·‖half‖` (`box_measure::diameter`).
    fn diameter(&self) -> T {
        box_measure::diameter(&self.half)
    }

    /// `4·‖half‖²` as the diameter sums it (`box_measure::diameter_squared`).
    #[inline]
    fn diameter_squared(&self) -> T {
        box_measure::diameter_squared(&self.half)
    }

    /// `8·(h₀h₁ + h₁h₂ + h₂h₀)`.
    fn area(&self) -> T {
        box_measure::area(&self.half)
    }

    /// `8·h₀h₁h₂`.
    fn volume(&self) -> T {
        box_measure::volume(&self.half)
    }

    /// `2·min_i half_i`.
    fn thickness(&self) -> T {
        box_measure::thickness(&self.half)
    }

    /// Centre and half-extents of magnitude at most `most`, half-extents ≥ 0.
    fn is_well_formed_within(&self, most: T) -> bool {
        let all: &[T; 6] = bytemuck::cast_ref(self);
        crate::well_formed::well_formed(all, &self.half, most)
    }
}

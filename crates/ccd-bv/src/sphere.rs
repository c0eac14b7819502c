//! Bounding sphere: centre and radius.

use bytemuck::{Pod, Zeroable};
use nalgebra::Vector3;

use crate::{
    BoundingVolume, BvKind, FitFrame, FitMethod, MoveRounding, Pose, Real, fit, lower_bound,
};

/// A ball `{x : ‖x − c‖ ≤ r}` (closed).
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(C)]
pub struct Sphere<T> {
    /// Centre.
    pub center: [T; 3],
    /// Radius (≥ 0).
    pub radius: T,
}

// SAFETY: `Sphere<T>` is `repr(C)` with a `[T; 3]` and a `T` field, `T: Pod`,
// so the fields are contiguous with no padding (same alignment, sizes a
// multiple of it) and every bit pattern is valid; so is all-zero.
unsafe impl<T: Real> Zeroable for Sphere<T> {}
// SAFETY: as above; `T: Pod` is also `Copy + 'static`.
unsafe impl<T: Real> Pod for Sphere<T> {}

impl<T: Real> Sphere<T> {
    /// Squared distance from the centre to `p`, evaluated exactly as
    /// [`contains_point`](BoundingVolume::contains_point) and the fit's
    /// containment guarantee evaluate it.
    #[inline]
    pub fn dist2(&self, p: &[T; 3]) -> T {
        let d = [
            p[0] - self.center[0],
            p[1] - self.center[1],
            p[2] - self.center[2],
        ];
        d[0] * d[0] + d[1] * d[1] + d[2] * d[2]
    }

    /// The centre of `other` moved by `b_in_a`, minus this centre.
    #[inline(always)]
    fn offset(&self, other: &Self, b_in_a: &Pose<T>) -> Vector3<T> {
        b_in_a.rot * Vector3::from(other.center) + b_in_a.trans - Vector3::from(self.center)
    }
}

impl<T: Real> BoundingVolume<T> for Sphere<T> {
    const KIND: BvKind = BvKind::Sphere;

    /// The best of a few centres, whichever gives the smallest radius: the
    /// centre of the vertices' bounding box, the centre of their
    /// covariance-aligned box (triangle covariance) and, for a single
    /// triangle, the centre of its smallest enclosing ball (so leaf spheres
    /// are optimal). The radius is the largest vertex distance, made
    /// conservative in `T` as described in [`fit`]. `method` is ignored.
    fn fit(vertices: &[[T; 3]], faces: &[[u32; 3]], _method: FitMethod) -> Self {
        fit::fit_sphere(vertices, faces)
    }

    /// As [`fit`](BoundingVolume::fit) on the given vertices (no frame to choose).
    fn fit_shared(vertices: &[[T; 3]], faces: &[[u32; 3]], ids: &[u32], _frame: &FitFrame) -> Self {
        fit::fit_sphere_of(vertices, faces, ids)
    }

    /// Exact up to round-off: centre `R·c + t`, same radius.
    fn transformed(&self, pose: &Pose<T>) -> Self {
        Self {
            center: pose.transform_array(&self.center),
            radius: self.radius,
        }
    }

    /// `‖c_A − (R·c_B + t)‖² ≤ (r_A + r_B)²`; touching is overlap.
    ///
    /// # Guarantee
    /// Exact predicate on the rounded quantities; round-off of the transform
    /// (a few ulps) is not guarded.
    #[inline]
    fn overlaps(&self, other: &Self, b_in_a: &Pose<T>) -> bool {
        let r = self.radius + other.radius;
        self.offset(other, b_in_a).norm_squared() <= r * r
    }

    /// `‖c_A − c_B‖² ≤ (r_A + r_B)²`, both centres in one frame.
    #[inline]
    fn overlaps_local(&self, other: &Self) -> bool {
        let r = self.radius + other.radius;
        self.dist2(&other.center) <= r * r
    }

    /// `‖c_A − (R·c_B + t)‖ − r_A − r_B` less the allowance
    /// ([`lower_bound::sphere_lower_bound`]), clamped at 0.
    ///
    /// # Guarantee
    /// Never exceeds the distance between the balls, rounding included, B's
    /// ball moved by the pose evaluated exactly (an ellipsoid when the
    /// rotation is not orthonormal, covered by its measured defect).
    fn distance_lower_bound(&self, other: &Self, b_in_a: &Pose<T>) -> T {
        lower_bound::sphere_lower_bound(self, other, b_in_a)
    }

    /// As [`BoundingVolume::magnitude`].
    #[inline]
    fn magnitude(&self) -> T {
        lower_bound::l1(&self.center) + self.radius
    }

    /// As [`BoundingVolume::axis_defect`].
    #[inline]
    fn axis_defect(&self) -> T {
        T::zero()
    }

    /// `‖c_A − c_B‖ − r_A − r_B` less the allowance
    /// ([`lower_bound::sphere_lower_bound_local`]), clamped at 0.
    ///
    /// # Guarantee
    /// As [`BoundingVolume::distance_lower_bound_local`].
    fn distance_lower_bound_local(&self, other_moved: &Self, moved: &MoveRounding<T>) -> T {
        lower_bound::sphere_lower_bound_local(self, other_moved, moved)
    }

    /// `‖p − c‖² ≤ (r + tol)²` (and `r + tol ≥ 0`).
    fn contains_point(&self, p: &[T; 3], tol: T) -> bool {
        let r = self.radius + tol;
        r >= T::zero() && self.dist2(p) <= r * r
    }

    /// `2r`.
    fn diameter(&self) -> T {
        T::lit(2.0) * self.radius
    }

    /// `4πr²`.
    fn area(&self) -> T {
        T::lit(4.0 * std::f64::consts::PI) * self.radius * self.radius
    }

    /// `(4/3)πr³`.
    fn volume(&self) -> T {
        T::lit(4.0 / 3.0 * std::f64::consts::PI) * self.radius * self.radius * self.radius
    }

    /// `2r`: every slab containing a ball is at least its diameter thick.
    fn thickness(&self) -> T {
        T::lit(2.0) * self.radius
    }

    /// Centre and radius of magnitude at most `most`, radius ≥ 0.
    fn is_well_formed_within(&self, most: T) -> bool {
        let all: &[T; 4] = bytemuck::cast_ref(self);
        crate::well_formed::well_formed(all, &[self.radius], most)
    }
}

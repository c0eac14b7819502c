//! Oriented bounding box: rotation, centre and half-extents.

use bytemuck::{Pod, Zeroable};
use nalgebra::{Matrix3, Vector3};

use crate::{BoundingVolume, BvKind, FitMethod, Pose, Real, fit, sat};

/// An oriented box `{c + Σ_j s_j·h_j·axis_j : s_j ∈ [−1, 1]}` (closed).
///
/// `rot[j]` is axis `j`, a **column** of the box's rotation matrix, so
/// `Matrix3::from(rot)` is that matrix; the axes are orthonormal up to
/// round-off. Half-extents may be 0 (flat boxes around coplanar triangles).
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(C)]
pub struct Obb<T> {
    /// The box axes: `rot[j]` is axis `j` (column `j` of the rotation).
    pub rot: [[T; 3]; 3],
    /// Centre.
    pub center: [T; 3],
    /// Half-extents along the axes (≥ 0).
    pub half: [T; 3],
}

// SAFETY: `Obb<T>` is `repr(C)` and every field is an array of `T: Pod`, all
// of the same size and alignment, so it has no padding, and every bit pattern
// of its bytes is a valid value of each field; the all-zero pattern is too.
unsafe impl<T: Real> Zeroable for Obb<T> {}
// SAFETY: as above; `T: Pod` is also `Copy + 'static`.
unsafe impl<T: Real> Pod for Obb<T> {}

impl<T: Real> Obb<T> {
    /// The rotation whose columns are the box axes.
    #[inline(always)]
    pub fn rotation(&self) -> Matrix3<T> {
        Matrix3::from(self.rot)
    }

    /// Coordinates of `p` in the box frame: `Rᵀ(p − c)`. This exact
    /// evaluation is what [`contains_point`](BoundingVolume::contains_point)
    /// and the fit's containment guarantee use.
    #[inline]
    pub fn local_coords(&self, p: &[T; 3]) -> [T; 3] {
        let d = [
            p[0] - self.center[0],
            p[1] - self.center[1],
            p[2] - self.center[2],
        ];
        self.rot
            .map(|ax| ax[0] * d[0] + ax[1] * d[1] + ax[2] * d[2])
    }

    /// The relative transform of the SAT (digest 002-part1 §4.3.5): B's axes
    /// (columns) and centre in A's box frame, where `self` is A in A's model
    /// frame, `other` is B in B's model frame and `b_in_a` is B's model frame
    /// in A's: `R = Aᵀ·(P·B)`, `T = Aᵀ·(P·c_B + t − c_A)`.
    #[inline]
    pub fn relative(&self, other: &Self, b_in_a: &Pose<T>) -> (Matrix3<T>, Vector3<T>) {
        let at = self.rotation().transpose();
        let m = at * b_in_a.rot;
        let r = m * other.rotation();
        let d = b_in_a.trans - Vector3::from(self.center);
        let t = m * Vector3::from(other.center) + at * d;
        (r, t)
    }
}

impl<T: Real> BoundingVolume<T> for Obb<T> {
    const KIND: BvKind = BvKind::Obb;

    /// Axes from [`fit::obb_axes`] (one triangle: longest edge and normal;
    /// otherwise the eigenvectors of the hull-surface or triangle covariance),
    /// extents by projecting the vertices (thesis §3.2), made conservative in
    /// `T` as described in [`fit`].
    fn fit(vertices: &[[T; 3]], faces: &[[u32; 3]], method: FitMethod) -> Self {
        fit::fit_obb(vertices, faces, method)
    }

    /// Exact up to round-off: axes `R·axes`, centre `R·c + t`, same extents.
    fn transformed(&self, pose: &Pose<T>) -> Self {
        let rot = pose.rot * self.rotation();
        let center = pose.rot * Vector3::from(self.center) + pose.trans;
        Self {
            rot: rot.into(),
            center: center.into(),
            half: self.half,
        }
    }

    /// The 15-axis SAT ([`sat::obb_disjoint`]) with the guard
    /// [`Real::SAT_GUARD`] on B composed into A's box frame.
    ///
    /// # Guarantee
    /// Conservative: never "disjoint" for boxes that touch or intersect
    /// (up to the round-off of composing the transform, which the guard
    /// absorbs for rotations); may report overlap for boxes closer than the
    /// guard margins documented on [`sat::obb_disjoint`].
    #[inline]
    fn overlaps(&self, other: &Self, b_in_a: &Pose<T>) -> bool {
        let (r, t) = self.relative(other, b_in_a);
        !sat::obb_disjoint(&r, &t, &self.half, &other.half, T::SAT_GUARD)
    }

    /// The 15-axis SAT for two boxes in the same frame, computing row `i` of
    /// `R = Aᵀ·B` and `T_i = A_i·(c_B − c_A)` only when A's axis `i` is
    /// reached ([`sat::obb_disjoint_by_rows`]), so early exits are cheap.
    ///
    /// # Guarantee
    /// As [`overlaps`](BoundingVolume::overlaps).
    #[inline]
    fn overlaps_local(&self, other: &Self) -> bool {
        let d = [
            other.center[0] - self.center[0],
            other.center[1] - self.center[1],
            other.center[2] - self.center[2],
        ];
        let dot = |u: &[T; 3], v: &[T; 3]| u[0] * v[0] + u[1] * v[1] + u[2] * v[2];
        let row = |i: usize| {
            let ai = &self.rot[i];
            (
                [
                    dot(ai, &other.rot[0]),
                    dot(ai, &other.rot[1]),
                    dot(ai, &other.rot[2]),
                ],
                dot(ai, &d),
            )
        };
        !sat::obb_disjoint_by_rows(row, &self.half, &other.half, T::SAT_GUARD)
    }

    /// [`sat::obb_separation`] with the guard [`Real::SAT_GUARD`], shrunk by
    /// a few ulps so its own round-off cannot lift it above the distance.
    fn distance_lower_bound(&self, other: &Self, b_in_a: &Pose<T>) -> T {
        let (r, t) = self.relative(other, b_in_a);
        let s = sat::obb_separation(&r, &t, &self.half, &other.half, T::SAT_GUARD);
        s * (T::one() - T::lit(8.0) * T::EPSILON)
    }

    /// `|axis_j·(p − c)| ≤ half_j + tol` for every axis.
    fn contains_point(&self, p: &[T; 3], tol: T) -> bool {
        let l = self.local_coords(p);
        (0..3).all(|j| l[j].abs() <= self.half[j] + tol)
    }

    /// `2·‖half‖`.
    fn diameter(&self) -> T {
        Vector3::from(self.half).norm() * T::lit(2.0)
    }

    /// `8·(h₀h₁ + h₁h₂ + h₂h₀)`.
    fn area(&self) -> T {
        let [x, y, z] = self.half;
        T::lit(8.0) * (x * y + y * z + z * x)
    }

    /// `8·h₀h₁h₂`.
    fn volume(&self) -> T {
        let [x, y, z] = self.half;
        T::lit(8.0) * x * y * z
    }

    /// `2·min_j half_j`.
    fn thickness(&self) -> T {
        let [x, y, z] = self.half;
        T::lit(2.0) * x.min(y).min(z)
    }
}

//! Oriented bounding box: rotation, centre and half-extents.

use std::any::TypeId;

use bytemuck::{Pod, Zeroable};
use nalgebra::{Matrix3, Vector3};

use crate::bounding_volume::{bounds_by_pairs, overlaps_by_pairs};
use crate::sat::{self, Lanes};
use crate::{
    BoundingVolume, BvKind, FitFrame, FitMethod, MoveRounding, Pose, Real, box_measure, fit,
    lower_bound,
};

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

/// Coordinates of `p` in the frame with axes `rot` (each inner array is one axis) and origin `center`: `Rᵀ(p − c)`, one
/// rounded difference per coordinate, then three 3-term dot products (the evaluation the boxes' and RSSs'
/// containment guarantees refer to).
#[inline]
pub(crate) fn frame_coords<T: Real>(rot: &[[T; 3]; 3], center: &[T; 3], p: &[T; 3]) -> [T; 3] {
    let d = [p[0] - center[0], p[1] - center[1], p[2] - center[2]];
    rot.map(|ax| ax[0] * d[0] + ax[1] * d[1] + ax[2] * d[2])
}

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
        frame_coords(&self.rot, &self.center, p)
    }

    /// The relative transform of the SAT (Gottschalk 2000, §4.3): B's axes
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

    /// As [`fit`](BoundingVolume::fit) on the given vertices, with the given axes or the method's. With
    /// [`FitFrame::Axes`] or [`FitFrame::Tighter`] only `ids` is read: `faces` may be empty (a tree builder
    /// then skips collecting them).
    fn fit_shared(vertices: &[[T; 3]], faces: &[[u32; 3]], ids: &[u32], frame: &FitFrame) -> Self {
        fit::fit_obb_shared(vertices, faces, ids, frame)
    }

    /// The axes of [`FitFrame::Axes`] rounded to `T` as the box stores
    /// them; `None` for the other frames.
    fn range_axes(frame: &FitFrame) -> Option<Matrix3<f64>> {
        match frame {
            FitFrame::Axes(axes) => Some(fit::stored_axes::<T>(axes)),
            _ => None,
        }
    }

    /// The box around the ranges' middle with half their widths, plus a
    /// slack of `64·T::EPSILON·(‖c‖∞ + Σ half)` for the roundings the ranges
    /// and both containment tests may hide, then padded as a fit (a few dozen
    /// units in the last place looser than the fit's exact pass would make
    /// it).
    fn from_ranges(axes: &Matrix3<f64>, ranges: &(Vector3<f64>, Vector3<f64>)) -> Option<Self> {
        fit::obb_from_ranges(axes, ranges)
    }

    /// Exact up to round-off: axes `R·axes`, centre `R·c + t`, same extents.
    #[inline]
    fn transformed(&self, pose: &Pose<T>) -> Self {
        let [moved] = transformed_lanes([self], pose);
        moved
    }

    /// Both boxes moved in the two lanes of one computation ([`sat`]'s
    /// lane scheme); bit-identical to [`transformed`](BoundingVolume::transformed).
    #[inline(always)]
    fn transformed_pair(v: [&Self; 2], pose: &Pose<T>) -> [Self; 2] {
        transformed_lanes(v, pose)
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

    /// The 15-axis SAT for two boxes in the same frame: `R = Aᵀ·B` and
    /// `T = Aᵀ·(c_B − c_A)` by dot products, then
    /// [`sat::obb_disjoint`]'s axes with the guard [`Real::SAT_GUARD`].
    ///
    /// # Guarantee
    /// As [`overlaps`](BoundingVolume::overlaps).
    #[inline]
    fn overlaps_local(&self, other: &Self) -> bool {
        let [sep] = disjoint_local_lanes([self], [other]);
        !sep
    }

    /// Both pairs in the two lanes of one SAT (see [`sat`]); the same
    /// verdicts as [`overlaps_local`](BoundingVolume::overlaps_local), bit
    /// for bit.
    #[inline(always)]
    fn overlaps_local_pair(a: [&Self; 2], b: [&Self; 2]) -> [bool; 2] {
        let [s0, s1] = disjoint_local_lanes(a, b);
        [!s0, !s1]
    }

    /// For `f32` boxes, the four pairs in four lanes of one SAT (four `f32` fill a 128-bit register, which the
    /// vectoriser packs as it packs two `f64`); for `f64` boxes two two-lane SATs (four `f64` lanes need AVX:
    /// [`overlaps_local_cross_avx`](BoundingVolume::overlaps_local_cross_avx)). The same verdicts as
    /// [`overlaps_local`](BoundingVolume::overlaps_local), bit for bit.
    #[inline(always)]
    fn overlaps_local_cross(a: [&Self; 2], b: [&Self; 2]) -> [bool; 4] {
        if size_of::<T>() == 4 {
            let [s0, s1, s2, s3] =
                disjoint_local_lanes([a[0], a[0], a[1], a[1]], [b[0], b[1], b[0], b[1]]);
            return [!s0, !s1, !s2, !s3];
        }
        overlaps_by_pairs(a, b)
    }

    /// As [`overlaps_local_cross`](BoundingVolume::overlaps_local_cross) for the four bounds.
    ///
    /// # Guarantee
    /// As [`BoundingVolume::distance_lower_bound_local`].
    #[inline(always)]
    fn distance_lower_bound_local_cross(
        a: [&Self; 2],
        b: [&Self; 2],
        moved: &MoveRounding<T>,
    ) -> [T; 4] {
        if size_of::<T>() == 4 {
            return lower_bound::obb_lower_bound_lanes(
                [a[0], a[0], a[1], a[1]],
                [b[0], b[1], b[0], b[1]],
                moved,
            );
        }
        bounds_by_pairs(a, b, moved)
    }

    /// For `f64` boxes, the four pairs in the four lanes of one AVX register (`obb_avx`), the same verdicts as
    /// [`overlaps_local`](BoundingVolume::overlaps_local) bit for bit; for `f32` boxes the default.
    ///
    /// # Safety
    /// The processor must support AVX.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    unsafe fn overlaps_local_cross_avx(a: [&Self; 2], b: [&Self; 2]) -> [bool; 4] {
        if TypeId::of::<T>() == TypeId::of::<f64>() {
            // `T` is `f64`: the casts are identities.
            let a: [&Obb<f64>; 2] = [bytemuck::cast_ref(a[0]), bytemuck::cast_ref(a[1])];
            let b: [&Obb<f64>; 2] = [bytemuck::cast_ref(b[0]), bytemuck::cast_ref(b[1])];
            // SAFETY: the caller guarantees AVX, the kernel's only requirement.
            let [s0, s1, s2, s3] = unsafe { crate::obb_avx::disjoint_cross(a, b, f64::SAT_GUARD) };
            return [!s0, !s1, !s2, !s3];
        }
        Self::overlaps_local_cross(a, b)
    }

    /// The largest gap over the 15 SAT axes, less the allowance, cross axes
    /// divided by an upper bound of their length
    /// ([`lower_bound::obb_lower_bound`]), clamped at 0.
    ///
    /// # Guarantee
    /// Never exceeds the distance between the boxes, rounding and the
    /// measured non-orthonormality of both boxes' axes and of the pose
    /// included; 0 where that defect exceeds 1/16.
    fn distance_lower_bound(&self, other: &Self, b_in_a: &Pose<T>) -> T {
        lower_bound::obb_lower_bound(self, other, b_in_a)
    }

    /// As [`BoundingVolume::magnitude`].
    #[inline]
    fn magnitude(&self) -> T {
        lower_bound::l1(&self.center) + lower_bound::l1(&self.half)
    }

    /// As [`BoundingVolume::axis_defect`].
    #[inline]
    fn axis_defect(&self) -> T {
        lower_bound::frame_defect(&self.rot)
    }

    /// As [`distance_lower_bound`](BoundingVolume::distance_lower_bound) for
    /// two boxes in one frame ([`lower_bound::obb_lower_bound_local`]).
    ///
    /// # Guarantee
    /// As [`BoundingVolume::distance_lower_bound_local`].
    fn distance_lower_bound_local(&self, other_moved: &Self, moved: &MoveRounding<T>) -> T {
        lower_bound::obb_lower_bound_local(self, other_moved, moved)
    }

    /// Both pairs in the two lanes of one computation ([`lower_bound::obb_lower_bound_local`]'s formula, bit for
    /// bit).
    ///
    /// # Guarantee
    /// As [`BoundingVolume::distance_lower_bound_local_pair`].
    #[inline(always)]
    fn distance_lower_bound_local_pair(
        a: [&Self; 2],
        b: [&Self; 2],
        moved: &MoveRounding<T>,
    ) -> [T; 2] {
        lower_bound::obb_lower_bound_lanes(a, b, moved)
    }

    /// For `f64` boxes with a fixed allowance ([`MoveRounding::allowance`]), the four pairs in the four lanes of
    /// one AVX register (`obb_avx`), bit for bit the generic bound; otherwise the default.
    ///
    /// # Safety
    /// The processor must support AVX.
    ///
    /// # Guarantee
    /// As [`BoundingVolume::distance_lower_bound_local`].
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    unsafe fn distance_lower_bound_local_cross_avx(
        a: [&Self; 2],
        b: [&Self; 2],
        moved: &MoveRounding<T>,
    ) -> [T; 4] {
        if let Some(e) = moved.allowance
            && TypeId::of::<T>() == TypeId::of::<f64>()
        {
            // `T` is `f64`: the casts are identities.
            let a: [&Obb<f64>; 2] = [bytemuck::cast_ref(a[0]), bytemuck::cast_ref(a[1])];
            let b: [&Obb<f64>; 2] = [bytemuck::cast_ref(b[0]), bytemuck::cast_ref(b[1])];
            // SAFETY: the caller guarantees AVX, the kernel's only requirement.
            let lb = unsafe { crate::obb_avx::lower_bound_cross(a, b, e.to_f64_exact()) };
            return [T::lit(lb[0]), T::lit(lb[1]), T::lit(lb[2]), T::lit(lb[3])];
        }
        Self::distance_lower_bound_local_cross(a, b, moved)
    }

    /// `|axis_j·(p − c)| ≤ half_j + tol` for every axis.
    fn contains_point(&self, p: &[T; 3], tol: T) -> bool {
        let l = self.local_coords(p);
        (0..3).all(|j| l[j].abs() <= self.half[j] + tol)
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

    /// `2·min_j half_j`.
    fn thickness(&self) -> T {
        box_measure::thickness(&self.half)
    }

    /// Numbers of magnitude at most `most`, half-extents ≥ 0 (the axes may be anything within it:
    /// tests that need their orthonormality measure it, see
    /// [`obb_apart`](crate::apart::obb_apart)).
    fn is_well_formed_within(&self, most: T) -> bool {
        // The 15 numbers as one array: a fixed-length count compiles to vector code.
        let all: &[T; 15] = bytemuck::cast_ref(self);
        crate::well_formed::well_formed(all, &self.half, most)
    }
}

/// `v[k]` moved by `pose` in lane `k`: axis `j` becomes `P·axis_j` and the
/// centre `P·c + t`, each component summed as nalgebra's matrix products sum
/// it (`(P_i0·x_0 + P_i1·x_1) + P_i2·x_2`), so every lane is bit-identical to
/// `pose.rot * rotation()`.
#[inline(always)]
fn transformed_lanes<T: Real, const N: usize>(v: [&Obb<T>; N], pose: &Pose<T>) -> [Obb<T>; N] {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    if N == 2 && TypeId::of::<T>() == TypeId::of::<f64>() {
        // `T` is `f64`: the casts are identities, and the SSE2 copy computes the same formula bit for bit.
        let (mut rot, mut trans) = ([[0.0; 3]; 3], [0.0; 3]);
        for (i, (row, t)) in rot.iter_mut().zip(&mut trans).enumerate() {
            for (k, x) in row.iter_mut().enumerate() {
                *x = pose.rot[(i, k)].to_f64_exact();
            }
            *t = pose.trans[i].to_f64_exact();
        }
        let [m0, m1] = crate::obb_sse2::transformed_pair(
            [bytemuck::cast_ref(v[0]), bytemuck::cast_ref(v[1])],
            &rot,
            &trans,
        );
        let mut out = [Obb::zeroed(); N];
        out[0] = bytemuck::cast(m0);
        out[1] = bytemuck::cast(m1);
        return out;
    }
    let p = |i: usize, k: usize| Lanes::splat(pose.rot[(i, k)]);
    let apply = |x: [Lanes<T, N>; 3]| -> [Lanes<T, N>; 3] {
        let row = |i: usize| p(i, 0) * x[0] + p(i, 1) * x[1] + p(i, 2) * x[2];
        [row(0), row(1), row(2)]
    };
    let rot = [
        apply(gather(v, |o| &o.rot[0])),
        apply(gather(v, |o| &o.rot[1])),
        apply(gather(v, |o| &o.rot[2])),
    ];
    let c = apply(gather(v, |o| &o.center));
    let trans = |i: usize| Lanes::splat(pose.trans[i]);
    let center = [c[0] + trans(0), c[1] + trans(1), c[2] + trans(2)];
    let mut out = [Obb::zeroed(); N];
    for (n, o) in out.iter_mut().enumerate() {
        for (axis, lanes) in o.rot.iter_mut().zip(&rot) {
            for (x, l) in axis.iter_mut().zip(lanes) {
                *x = l.0[n];
            }
        }
        for (x, l) in o.center.iter_mut().zip(&center) {
            *x = l.0[n];
        }
        o.half = v[n].half;
    }
    out
}

/// Whether `a[k]` and `b[k]`, both in the same frame, are separated, in lane
/// `k`: row `i` of `R = Aᵀ·B` and `T_i = A_i·(c_B − c_A)` as dot products
/// (`(u_0·v_0 + u_1·v_1) + u_2·v_2`), then [`sat::obb_disjoint_lanes`] with
/// the guard [`Real::SAT_GUARD`].
#[inline(always)]
fn disjoint_local_lanes<T: Real, const N: usize>(a: [&Obb<T>; N], b: [&Obb<T>; N]) -> [bool; N] {
    let axes = |v: [&Obb<T>; N]| {
        [
            gather(v, |o| &o.rot[0]),
            gather(v, |o| &o.rot[1]),
            gather(v, |o| &o.rot[2]),
        ]
    };
    let (a_axes, b_axes) = (axes(a), axes(b));
    let (ca, cb) = (gather(a, |o| &o.center), gather(b, |o| &o.center));
    let d = [cb[0] - ca[0], cb[1] - ca[1], cb[2] - ca[2]];
    let dot = |u: &[Lanes<T, N>; 3], v: &[Lanes<T, N>; 3]| u[0] * v[0] + u[1] * v[1] + u[2] * v[2];
    let row = |i: usize| {
        let ai = &a_axes[i];
        [
            dot(ai, &b_axes[0]),
            dot(ai, &b_axes[1]),
            dot(ai, &b_axes[2]),
        ]
    };
    let t = [
        dot(&a_axes[0], &d),
        dot(&a_axes[1], &d),
        dot(&a_axes[2], &d),
    ];
    sat::obb_disjoint_lanes(
        &[row(0), row(1), row(2)],
        &t,
        &gather(a, |o| &o.half),
        &gather(b, |o| &o.half),
        T::SAT_GUARD,
        T::zero(),
    )
}

/// The 3-vector `field` of the boxes `v`, lane `k` from `v[k]`.
#[inline(always)]
pub(crate) fn gather<T: Real, const N: usize>(
    v: [&Obb<T>; N],
    field: impl Fn(&Obb<T>) -> &[T; 3],
) -> [Lanes<T, N>; 3] {
    let mut out = [Lanes::splat(T::zero()); 3];
    for (k, o) in v.into_iter().enumerate() {
        let x = field(o);
        for c in 0..3 {
            out[c].0[k] = x[c];
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use nalgebra::{UnitQuaternion, Vector3};

    use super::*;

    /// A small deterministic generator (xorshift64*), values in `[lo, hi)`.
    struct Gen(u64);

    impl Gen {
        fn next(&mut self, lo: f64, hi: f64) -> f64 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            let u = (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 11) as f64 / (1u64 << 53) as f64;
            lo + (hi - lo) * u
        }

        fn rotation(&mut self) -> Matrix3<f64> {
            let axis = Vector3::new(
                self.next(-1.0, 1.0),
                self.next(-1.0, 1.0),
                self.next(-1.0, 1.0),
            );
            UnitQuaternion::from_scaled_axis(axis * self.next(0.0, 3.0))
                .to_rotation_matrix()
                .into_inner()
        }

        fn obb(&mut self) -> Obb<f64> {
            let (scale, spread) = (self.next(0.0, 1.0), self.next(0.0, 1.0));
            Obb {
                rot: self.rotation().into(),
                center: [0; 3].map(|_| self.next(-spread, spread)),
                half: [0; 3].map(|_| self.next(0.0, scale)),
            }
        }
    }

    /// The pair and single-lane paths are the same computation: moved boxes
    /// bit-identical (also to nalgebra's products), the same verdicts and
    /// the same distance bounds.
    #[test]
    fn pair_paths_match_single_paths() {
        let mut g = Gen(0x9e37_79b9_7f4a_7c15);
        let (mut overlapping, mut positive) = (0, 0);
        let fixed = MoveRounding {
            allowance: Some(1e-9),
            ..MoveRounding::none()
        };
        for _ in 0..20_000 {
            let pose = Pose::from_parts(
                g.rotation(),
                Vector3::new(g.next(-1.0, 1.0), g.next(-1.0, 1.0), g.next(-1.0, 1.0)),
            );
            let (b0, b1) = (g.obb(), g.obb());
            let moved = Obb::transformed_pair([&b0, &b1], &pose);
            for (m, b) in moved.iter().zip([&b0, &b1]) {
                assert_eq!(*m, b.transformed(&pose));
                let rot: [[f64; 3]; 3] = (pose.rot * b.rotation()).into();
                let center: [f64; 3] = (pose.rot * Vector3::from(b.center) + pose.trans).into();
                assert_eq!((m.rot, m.center, m.half), (rot, center, b.half));
            }
            let (a0, a1) = (g.obb(), g.obb());
            for (x, y) in [
                ([&a0, &a1], [&moved[0], &moved[0]]),
                ([&a0, &a0], [&moved[0], &moved[1]]),
            ] {
                let pair = Obb::overlaps_local_pair(x, y);
                assert_eq!(pair, [x[0].overlaps_local(y[0]), x[1].overlaps_local(y[1])]);
                overlapping += usize::from(pair[0]) + usize::from(pair[1]);
                // The distance bound, measured and fixed allowance (the fixed one has its own SSE2 copy in
                // `f64` on x86_64): each lane bit for bit the single bound.
                for moved in [MoveRounding::of(&pose), fixed] {
                    let lb = Obb::distance_lower_bound_local_pair(x, y, &moved);
                    let single = |k: usize| x[k].distance_lower_bound_local(y[k], &moved);
                    assert_eq!(
                        lb.map(f64::to_bits),
                        [single(0), single(1)].map(f64::to_bits)
                    );
                    positive += usize::from(lb[0] > 0.0) + usize::from(lb[1] > 0.0);
                }
            }
        }
        assert!(
            (8_000..72_000).contains(&overlapping),
            "{overlapping} of 80000: unbalanced sample"
        );
        assert!(positive > 20_000, "{positive} of 160000 bounds positive");
    }

    /// The four-pair verdicts and distance bounds (the default lane paths and, where this processor has AVX, the
    /// 256-bit kernels) equal the single ones, bit for bit: on random boxes (all four pairs apart, all overlapping
    /// and mixed), flat boxes, shared frames (parallel edges, the cross axes' `0 > 0`), a box against itself, boxes
    /// at a rounded tie and NaN coordinates.
    fn cross_paths_agree<T: Real>() {
        let mut g = Gen(0x2545_f491_4f6c_dd1d);
        let (mut patterns, mut positive) = ([0usize; 16], 0);
        let cast = |o: Obb<f64>| Obb::<T> {
            rot: o.rot.map(|row| row.map(T::lit)),
            center: o.center.map(T::lit),
            half: o.half.map(T::lit),
        };
        for i in 0..40_000 {
            let mut boxes = [g.obb(), g.obb(), g.obb(), g.obb()].map(cast);
            let (zero, one, nan) = (T::zero(), T::one(), T::lit(f64::NAN));
            match i % 8 {
                // Flat: a zero half-width.
                0 => boxes[1].half[2] = zero,
                // One frame for all: every cross axis has parallel edges somewhere.
                1 => {
                    let rot = boxes[0].rot;
                    boxes.iter_mut().for_each(|o| o.rot = rot);
                }
                2 => boxes[2] = boxes[0],
                3 if i % 1000 == 3 => boxes[3].center[1] = nan,
                // A NaN extent: some gaps NaN, others finite (the bound skips the NaN ones).
                3 if i % 100 == 11 => boxes[3].half[1] = nan,
                // Spread apart: every pair disjoint more often (the early exit).
                4 => boxes[2..]
                    .iter_mut()
                    .for_each(|o| o.center[0] += T::lit(2.5)),
                // Axis-aligned B's at the rounded tie of A₀'s first face axis, or one ulp either side: the
                // verdicts hang on the exact sums and the strict comparison.
                5 => {
                    let (g, a) = (T::SAT_GUARD, boxes[0]);
                    for o in &mut boxes {
                        o.rot = [[one, zero, zero], [zero, one, zero], [zero, zero, one]];
                    }
                    boxes[1] = a;
                    for (k, o) in boxes[2..].iter_mut().enumerate() {
                        let h = o.half;
                        let tie = a.half[0] + h[0] * (one + g) + h[1] * g + h[2] * g;
                        let tie = [tie, tie.step_up(), tie.step_down()][(i / 8 + k) % 3];
                        o.center = a.center;
                        o.center[0] = a.center[0] + tie;
                    }
                }
                _ => {}
            }
            let [a0, a1, b0, b1] = &boxes;
            let single = [
                a0.overlaps_local(b0),
                a0.overlaps_local(b1),
                a1.overlaps_local(b0),
                a1.overlaps_local(b1),
            ];
            let what = format!("{} {i}", T::NAME);
            assert_eq!(
                Obb::overlaps_local_cross([a0, a1], [b0, b1]),
                single,
                "{what}"
            );
            #[cfg(target_arch = "x86_64")]
            if std::is_x86_feature_detected!("avx") {
                // SAFETY: this processor has AVX.
                let avx = unsafe { cross_avx([a0, a1], [b0, b1]) };
                assert_eq!(avx, single, "AVX {what}");
            }
            patterns[single.iter().rev().fold(0, |m, &k| 2 * m + usize::from(k))] += 1;
            // The distance bounds, measured and fixed allowance (the AVX kernel takes the fixed one).
            let fixed = MoveRounding {
                allowance: Some(T::lit([0.0, 1e-9, 1e-3][i % 3])),
                ..MoveRounding::none()
            };
            let bits = |l: [T; 4]| l.map(|x| x.to_f64_exact().to_bits());
            for moved in [MoveRounding::none(), fixed] {
                let single = [(a0, b0), (a0, b1), (a1, b0), (a1, b1)]
                    .map(|(x, y)| x.distance_lower_bound_local(y, &moved));
                let cross = Obb::distance_lower_bound_local_cross([a0, a1], [b0, b1], &moved);
                assert_eq!(bits(cross), bits(single), "bound {what}");
                #[cfg(target_arch = "x86_64")]
                if std::is_x86_feature_detected!("avx") {
                    // SAFETY: this processor has AVX.
                    let avx = unsafe { bound_avx([a0, a1], [b0, b1], &moved) };
                    assert_eq!(bits(avx), bits(single), "AVX bound {what}");
                }
                positive += single.iter().filter(|&&l| l > zero).count();
            }
        }
        assert!(positive > 40_000, "{positive} of 320000 bounds positive");
        assert!(
            patterns.iter().all(|&n| n > 100),
            "verdict patterns {patterns:?}: some combination untested"
        );
    }

    #[test]
    fn cross_paths_match_single_paths_f64() {
        cross_paths_agree::<f64>();
    }

    #[test]
    fn cross_paths_match_single_paths_f32() {
        cross_paths_agree::<f32>();
    }

    /// `Obb::overlaps_local_cross_avx` compiled with AVX, as the query engine's AVX copies compile it.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx")]
    fn cross_avx<T: Real>(a: [&Obb<T>; 2], b: [&Obb<T>; 2]) -> [bool; 4] {
        // SAFETY: this function is compiled with AVX, and callers run it only where the processor has it.
        unsafe { Obb::overlaps_local_cross_avx(a, b) }
    }

    /// `Obb::distance_lower_bound_local_cross_avx` compiled with AVX.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx")]
    fn bound_avx<T: Real>(a: [&Obb<T>; 2], b: [&Obb<T>; 2], moved: &MoveRounding<T>) -> [T; 4] {
        // SAFETY: this function is compiled with AVX, and callers run it only where the processor has it.
        unsafe { Obb::distance_lower_bound_local_cross_avx(a, b, moved) }
    }

    /// `diameter_squared` is within a relative `2ε` of `diameter()²`.
    #[test]
    fn diameter_squared_matches_diameter() {
        let mut g = Gen(7);
        for _ in 0..10_000 {
            let o = g.obb();
            let d = o.diameter();
            assert!((o.diameter_squared() - d * d).abs() <= 2.0 * f64::EPSILON * d * d);
        }
    }
}

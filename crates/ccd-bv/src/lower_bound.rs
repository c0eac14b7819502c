//! Certified distance lower bounds between two volumes, B's placed in A's frame: what
//! [`BoundingVolume::distance_lower_bound`](crate::BoundingVolume::distance_lower_bound) and
//! [`distance_lower_bound_local`](crate::BoundingVolume::distance_lower_bound_local) return.
//!
//! | volume | bound before the allowance |
//! |---|---|
//! | [`Sphere`] | centre distance minus both radii |
//! | [`Aabb`] | distance between A and the wrap of B (norm of the per-axis gaps) |
//! | [`Obb`] | largest gap over the 6 face axes of the SAT |
//! | [`Rss`] | rectangle gap along the direction of the closest rectangle points, minus both radii |
//!
//! # Guarantee
//! Each bound is at most the Euclidean distance between the point set of `a` and the point set of `b` moved by
//! `x ↦ rot·x + trans` **evaluated exactly** (rotation entries as stored, orthonormal or not), and also at most
//! the distance to the floating-point images `fl(rot·x + trans)` of B's points ([`Pose::transform_array`]), which
//! is how the queries move B's vertices. For volumes with axes (OBB, RSS) the points that pass
//! `contains_point(·, 0)` in exact arithmetic are covered as well: where the stored axes are not exactly
//! orthonormal (rounded to `f32`, say) they form a slightly different set, within the `γ` terms below.
//!
//! # Allowance
//! The rounding of every formula is bounded a priori, as in [`apart`](crate::apart): with the scale
//! `S = |trans|₁ + |c_a|₁ + |c_b|₁ + sizes` (half-extents, half-lengths, radii) and `γ` the sum of the measured
//! non-orthonormality `‖XᵀX − I‖₂` of the pose's rotation and of both volumes' axes, each formula is a fixed
//! chain of fewer than 40 rounded operations on quantities bounded by `(1 + γ)²·S`, whose error stays below
//! `64 ε S`; replacing the stored frames by the nearest orthonormal ones moves the bound by at most `13 γ S`
//! (the SAT's closed forms, `9 γ S`, through `T` and `R`; the points themselves, `2 γ S`, since
//! `‖X − Q‖₂ ≤ ‖XᵀX − I‖₂`; the pose's stretching of a radius, `γ r / 2`; each times `(1 + γ)² < 1.13`). The bound
//! subtracts `E = 16 (8 ε + γ) S`, at least the sum of both, and is clamped at 0; where `γ > 1/16`
//! (frames too far from rotations for the first-order estimate) it is 0. Moving a volume with
//! [`transformed`](crate::BoundingVolume::transformed) adds at most `8 ε (|trans|₁ + |c|₁ + sizes)` and the pose's
//! own defect: the `_local` variants take both from [`MoveRounding`] (the moved volume's magnitudes alone cannot
//! bound it: `|rot·c|` and `|trans|` may cancel).
//!
//! A query over two trees may fix the allowance once instead ([`MoveRounding::with_profiles`]): from the
//! largest magnitude and axis defect of each tree's volumes ([`VolumeProfile`](crate::VolumeProfile)) it takes
//! an `E` at least every pair's own, so the OBB and RSS bounds skip measuring the scale and the frames of each
//! pair; the bounds stay certified and are looser only by the ratio of the largest scale to the pair's.

use std::any::TypeId;

use ccd_interval::bound_down;
use nalgebra::Vector3;

use crate::apart::allowance;
use crate::obb::gather;
use crate::rect::Placed;
use crate::sat::Lanes;
use crate::{Aabb, Obb, Pose, Real, Rss, Sphere};

/// Frames whose measured defect `γ` exceeds this get the bound 0 (see the [module](self)).
const MAX_DEFECT: f64 = 1.0 / 16.0;

/// What moving volumes by one pose adds to their rounding: computed once per pose by [`MoveRounding::of`] and
/// passed to [`distance_lower_bound_local`](crate::BoundingVolume::distance_lower_bound_local).
///
/// # Guarantee
/// With `pose` the transform that moved a volume `b` (`b.transformed(pose)`), the exactly moved volume and the
/// images `fl(rot·x + trans)` of its points lie within `8 ε (2·translation + |c'|₁ + sizes) + defect·sizes` of the
/// moved one (`c'` its moved centre); the local bounds add `2·translation` to their scale and `defect` to their
/// `γ`, so their allowance covers this.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MoveRounding<T> {
    /// `|trans|₁` of the pose (0 for volumes fitted in the same frame).
    pub translation: T,
    /// An upper bound of `‖rotᵀrot − I‖₂` of the pose (0 for no move).
    pub defect: T,
    /// The allowance of every bound of a query fixed in advance from both trees' profiles
    /// ([`MoveRounding::with_profiles`]); `None`: each bound computes its own from its two volumes.
    pub allowance: Option<T>,
}

impl<T: Real> MoveRounding<T> {
    /// No move: both volumes were fitted in the same frame.
    pub fn none() -> Self {
        Self {
            translation: T::zero(),
            defect: T::zero(),
            allowance: None,
        }
    }

    /// The rounding bound of moving volumes by `pose`.
    pub fn of(pose: &Pose<T>) -> Self {
        Self {
            translation: l1(&pose.trans.into()),
            defect: pose_defect(pose),
            allowance: None,
        }
    }
}

/// `|x| + |y| + |z|`.
#[inline]
pub(crate) fn l1<T: Real>(v: &[T; 3]) -> T {
    v[0].abs() + v[1].abs() + v[2].abs()
}

/// An upper bound of `‖XᵀX − I‖₂` for the columns `x`: three times the sum of the `|x_i·x_j − δ_ij|` (a
/// symmetric 3 × 3 matrix has spectral norm at most three times its largest entry), plus `8ε` for the rounding of
/// the dot products of entries bounded by 1 (larger entries make the measured value large anyway). NaN stays NaN.
#[inline]
pub(crate) fn frame_defect<T: Real>(x: &[[T; 3]; 3]) -> T {
    let lane = |v: &[T; 3]| v.map(|c| Lanes([c]));
    frame_defect_lanes(&[lane(&x[0]), lane(&x[1]), lane(&x[2])]).0[0]
}

/// [`frame_defect`] of `N` frames, one per lane (the sum rather than the largest entry, so that a NaN anywhere
/// makes the lane's defect NaN).
#[inline(always)]
fn frame_defect_lanes<T: Real, const N: usize>(x: &[[Lanes<T, N>; 3]; 3]) -> Lanes<T, N> {
    let dot = |u: &[Lanes<T, N>; 3], v: &[Lanes<T, N>; 3]| u[0] * v[0] + u[1] * v[1] + u[2] * v[2];
    let one = Lanes::splat(T::one());
    let sum = (dot(&x[0], &x[0]) - one).abs()
        + (dot(&x[1], &x[1]) - one).abs()
        + (dot(&x[2], &x[2]) - one).abs()
        + dot(&x[0], &x[1]).abs()
        + dot(&x[0], &x[2]).abs()
        + dot(&x[1], &x[2]).abs();
    Lanes::splat(T::lit(3.0)) * sum + Lanes::splat(T::lit(8.0) * T::EPSILON)
}

/// [`frame_defect`] of a pose's rotation (its columns).
#[inline]
pub(crate) fn pose_defect<T: Real>(pose: &Pose<T>) -> T {
    frame_defect(&pose.rot.into())
}

/// Whether frames with the measured defect `γ` are close enough to rotations for the allowance: `γ ≤ 1/16`
/// (false for NaN).
#[inline]
pub(crate) fn usable<T: Real>(defect: T) -> bool {
    defect <= T::lit(MAX_DEFECT)
}

/// `raw − E(scale, defect)` rounded down and clamped at 0; 0 where the defect is too large or anything is NaN.
#[inline]
pub(crate) fn certified<T: Real>(raw: T, scale: T, defect: T) -> T {
    if !usable(defect) {
        return T::zero();
    }
    less_allowance(raw, allowance(scale, defect))
}

/// `raw − e` rounded down and clamped at 0 (0 for NaN).
#[inline(always)]
pub(crate) fn less_allowance<T: Real>(raw: T, e: T) -> T {
    let d = raw - e;
    if d > T::zero() {
        bound_down(d)
    } else {
        T::zero()
    }
}

/// Lower bound of the distance between sphere `a` and sphere `b` moved by `b_in_a` ([module](self)).
///
/// # Guarantee
/// At most the distance between `a` and `b` moved by `b_in_a` evaluated exactly, rounding included; 0 where they
/// may overlap ([module](self)).
pub fn sphere_lower_bound<T: Real>(a: &Sphere<T>, b: &Sphere<T>, b_in_a: &Pose<T>) -> T {
    let cb = b_in_a.rot * Vector3::from(b.center) + b_in_a.trans;
    let scale = l1(&b_in_a.trans.into()) + l1(&a.center) + l1(&b.center) + a.radius + b.radius;
    let d = (cb - Vector3::from(a.center)).norm() - a.radius - b.radius;
    certified(d, scale, pose_defect(b_in_a))
}

/// Lower bound of the distance between sphere `a` and `b_moved`, moved into A's frame with rounding `moved`.
///
/// # Guarantee
/// At most the distance between `a` and the exactly moved content of `b_moved`, rounding of the move (bounded by
/// `moved`) and of the bound included; 0 where they may overlap ([module](self)).
pub fn sphere_lower_bound_local<T: Real>(
    a: &Sphere<T>,
    b_moved: &Sphere<T>,
    moved: &MoveRounding<T>,
) -> T {
    let scale = moved.translation * T::lit(2.0)
        + l1(&a.center)
        + l1(&b_moved.center)
        + a.radius
        + b_moved.radius;
    let d = a.dist2(&b_moved.center).sqrt() - a.radius - b_moved.radius;
    certified(d, scale, moved.defect)
}

/// The norm of the per-axis gaps between the boxes `(ca, ha)` and `(cb, hb)`.
#[inline]
fn box_gap<T: Real>(ca: &[T; 3], ha: &[T; 3], cb: &Vector3<T>, hb: &Vector3<T>) -> T {
    Vector3::from_fn(|i, _| ((cb[i] - ca[i]).abs() - ha[i] - hb[i]).max(T::zero())).norm()
}

/// Lower bound of the distance between box `a` and box `b` moved by `b_in_a` (through B's wrap, which contains
/// the moved box for any matrix).
///
/// # Guarantee
/// At most the distance between `a` and `b` moved by `b_in_a` evaluated exactly, rounding included; 0 where they
/// may overlap ([module](self)).
pub fn aabb_lower_bound<T: Real>(a: &Aabb<T>, b: &Aabb<T>, b_in_a: &Pose<T>) -> T {
    let (c, h) = b.wrap(b_in_a);
    let scale =
        l1(&b_in_a.trans.into()) + l1(&a.center) + l1(&b.center) + l1(&a.half) + l1(&b.half);
    certified(
        box_gap(&a.center, &a.half, &c, &h),
        scale,
        pose_defect(b_in_a),
    )
}

/// Lower bound of the distance between box `a` and `b_moved` (a wrap in A's frame), moved with rounding `moved`.
///
/// # Guarantee
/// At most the distance between `a` and the exactly moved content of `b_moved`, rounding of the move (bounded by
/// `moved`) and of the bound included; 0 where they may overlap ([module](self)).
pub fn aabb_lower_bound_local<T: Real>(
    a: &Aabb<T>,
    b_moved: &Aabb<T>,
    moved: &MoveRounding<T>,
) -> T {
    let (c, h) = (Vector3::from(b_moved.center), Vector3::from(b_moved.half));
    let scale = moved.translation * T::lit(2.0)
        + l1(&a.center)
        + l1(&b_moved.center)
        + l1(&a.half)
        + l1(&b_moved.half);
    certified(box_gap(&a.center, &a.half, &c, &h), scale, moved.defect)
}

/// Lower bound of the distance between box `a` and box `b` moved by `b_in_a` ([module](self)): `b` moved by
/// [`transformed`](crate::BoundingVolume::transformed), then [`obb_lower_bound_local`].
///
/// # Guarantee
/// At most the distance between `a` and `b` moved by `b_in_a` evaluated exactly, rounding included; 0 where they
/// may overlap ([module](self)).
pub fn obb_lower_bound<T: Real>(a: &Obb<T>, b: &Obb<T>, b_in_a: &Pose<T>) -> T {
    use crate::BoundingVolume;
    obb_lower_bound_local(a, &b.transformed(b_in_a), &MoveRounding::of(b_in_a))
}

/// Lower bound of the distance between box `a` and `b_moved`, moved into A's frame with rounding `moved`.
///
/// # Guarantee
/// At most the distance between `a` and the exactly moved content of `b_moved`, rounding of the move (bounded by
/// `moved`) and of the bound included; 0 where they may overlap ([module](self)).
pub fn obb_lower_bound_local<T: Real>(a: &Obb<T>, b_moved: &Obb<T>, moved: &MoveRounding<T>) -> T {
    let [lb] = obb_lower_bound_lanes([a], [b_moved], moved);
    lb
}

/// [`obb_lower_bound_local`] of `N` box pairs, one per lane (the traversals bound the two children of a split
/// node together, in the two lanes of SIMD registers, as [`sat`](crate::sat) does for the overlap test).
///
/// The gaps along the 6 face axes in A's frame (`R = AᵀB`, `T = Aᵀ(c_B − c_A)` by dot products; no guard: the
/// allowance covers the rounding), the largest less the allowance `E`: the pair's own ([module](self)), or the
/// query's fixed in advance ([`MoveRounding::allowance`]). A face axis is a unit vector of the nearest orthonormal
/// frames, so its gap bounds the distance. The nine cross axes of the SAT are left out: a distance query only
/// descends into pairs whose bound stays below its best distance so far, where they almost never lift it enough
/// (0.4 % more pairs on the parallel close proximity benchmark without them, in about 15 % less time).
///
/// # Guarantee
/// Each lane as [`obb_lower_bound_local`]: never above the distance between the boxes ([module](self)).
#[inline(always)]
pub(crate) fn obb_lower_bound_lanes<T: Real, const N: usize>(
    a: [&Obb<T>; N],
    b: [&Obb<T>; N],
    moved: &MoveRounding<T>,
) -> [T; N] {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    if let (2, Some(e)) = (N, moved.allowance)
        && TypeId::of::<T>() == TypeId::of::<f64>()
    {
        // `T` is `f64`: the casts are identities, and the SSE2 copy computes the same formula bit for bit.
        let lb = crate::obb_sse2::obb_lower_bound_pair(
            [f64_box(a[0]), f64_box(a[1])],
            [f64_box(b[0]), f64_box(b[1])],
            e.to_f64_exact(),
        );
        let mut out = [T::zero(); N];
        out[0] = T::lit(lb[0]);
        out[1] = T::lit(lb[1]);
        return out;
    }
    let axes = |v: [&Obb<T>; N]| {
        [
            gather(v, |o| &o.rot[0]),
            gather(v, |o| &o.rot[1]),
            gather(v, |o| &o.rot[2]),
        ]
    };
    let (xa, xb) = (axes(a), axes(b));
    let dot = |u: &[Lanes<T, N>; 3], v: &[Lanes<T, N>; 3]| u[0] * v[0] + u[1] * v[1] + u[2] * v[2];
    let row = |i: usize| {
        [
            dot(&xa[i], &xb[0]),
            dot(&xa[i], &xb[1]),
            dot(&xa[i], &xb[2]),
        ]
    };
    let r = [row(0), row(1), row(2)];
    let f_row = |i: usize| [r[i][0].abs(), r[i][1].abs(), r[i][2].abs()];
    let f = [f_row(0), f_row(1), f_row(2)];
    let (ca, cb) = (gather(a, |o| &o.center), gather(b, |o| &o.center));
    let d = [cb[0] - ca[0], cb[1] - ca[1], cb[2] - ca[2]];
    let t = [dot(&xa[0], &d), dot(&xa[1], &d), dot(&xa[2], &d)];
    let (ha, hb) = (gather(a, |o| &o.half), gather(b, |o| &o.half));
    // The allowance E per lane, and whether the lane's frames allow a bound at all.
    let (e, ok) = match moved.allowance {
        Some(e) => (Lanes::splat(e), [true; N]),
        None => measured_allowance([&xa, &xb], [&ca, &cb], [&ha, &hb], moved),
    };
    // Branch-free lane by lane, so that the whole bound stays in SIMD registers: a NaN gap is skipped by
    // `larger` (the other axes still bound the distance), and `raw − E` rounded down and clamped at 0 is
    // [`less_allowance`] written as a select.
    let mut best = Lanes::splat(T::zero());
    for i in 0..3 {
        let rhs = ha[i] + hb[0] * f[i][0] + hb[1] * f[i][1] + hb[2] * f[i][2];
        best = best.larger(t[i].abs() - rhs);
    }
    for j in 0..3 {
        let lhs = (t[0] * r[0][j] + t[1] * r[1][j] + t[2] * r[2][j]).abs();
        let rhs = hb[j] + ha[0] * f[0][j] + ha[1] * f[1][j] + ha[2] * f[2][j];
        best = best.larger(lhs - rhs);
    }
    let lb = (best - e).positive_or_zero() * Lanes::splat(T::one() - T::lit(8.0) * T::EPSILON);
    let mut out = lb.0;
    for (o, ok) in out.iter_mut().zip(ok) {
        if !ok {
            *o = T::zero();
        }
    }
    out
}

/// `o` as an `Obb<f64>`: the identity where `T` is `f64` (the only use); panics otherwise (bytemuck's size check).
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[inline(always)]
fn f64_box<T: Real>(o: &Obb<T>) -> &Obb<f64> {
    bytemuck::cast_ref(o)
}

/// The allowance `E` of [`obb_lower_bound_lanes`] measured on each lane's own pair ([module](self)): the scale of
/// its centres and half-extents, the defect of its frames; and whether the frames are usable. Kept out of line:
/// queries with a fixed allowance never call it, and inlined it kept the compiler from vectorising the rest.
#[inline(never)]
fn measured_allowance<T: Real, const N: usize>(
    frames: [&[[Lanes<T, N>; 3]; 3]; 2],
    centres: [&[Lanes<T, N>; 3]; 2],
    halves: [&[Lanes<T, N>; 3]; 2],
    moved: &MoveRounding<T>,
) -> (Lanes<T, N>, [bool; N]) {
    let l1 = |v: &[Lanes<T, N>; 3]| v[0].abs() + v[1].abs() + v[2].abs();
    let scale = Lanes::splat(moved.translation * T::lit(2.0))
        + l1(centres[0])
        + l1(centres[1])
        + l1(halves[0])
        + l1(halves[1]);
    let defect =
        Lanes::splat(moved.defect) + frame_defect_lanes(frames[0]) + frame_defect_lanes(frames[1]);
    // allowance(scale, defect) = bound_up(16 (8ε + γ) S), lane by lane.
    let e = Lanes::splat(T::lit(16.0))
        * (Lanes::splat(T::lit(8.0) * T::EPSILON) + defect)
        * scale
        * Lanes::splat(T::one() + T::lit(8.0) * T::EPSILON)
        + Lanes::splat(T::lit(f64::from(f32::MIN_POSITIVE)));
    let mut ok = [false; N];
    for (k, o) in ok.iter_mut().enumerate() {
        *o = usable(defect.0[k]);
    }
    (e, ok)
}

/// Lower bound of the distance between rectangle swept sphere `a` and `b` moved by `b_in_a` ([module](self)).
///
/// # Guarantee
/// At most the distance between `a` and `b` moved by `b_in_a` evaluated exactly, rounding included; 0 where they
/// may overlap ([module](self)).
pub fn rss_lower_bound<T: Real>(a: &Rss<T>, b: &Rss<T>, b_in_a: &Pose<T>) -> T {
    Placed::posed(a, b, b_in_a).lower_bound()
}

/// Lower bound of the distance between rectangle swept sphere `a` and `b_moved`, moved into A's frame with
/// rounding `moved`.
///
/// # Guarantee
/// At most the distance between `a` and the exactly moved content of `b_moved`, rounding of the move (bounded by
/// `moved`) and of the bound included; 0 where they may overlap ([module](self)).
pub fn rss_lower_bound_local<T: Real>(a: &Rss<T>, b_moved: &Rss<T>, moved: &MoveRounding<T>) -> T {
    Placed::local(a, b_moved, moved).lower_bound()
}

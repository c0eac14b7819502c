//! Certified distance lower bounds between two volumes, B's placed in A's frame: what
//! [`BoundingVolume::distance_lower_bound`](crate::BoundingVolume::distance_lower_bound) and
//! [`distance_lower_bound_local`](crate::BoundingVolume::distance_lower_bound_local) return.
//!
//! | volume | bound before the allowance |
//! |---|---|
//! | [`Sphere`] | centre distance minus both radii |
//! | [`Aabb`] | distance between A and the wrap of B (norm of the per-axis gaps) |
//! | [`Obb`] | largest gap over the 15 SAT axes, cross axes divided by an upper bound of their length |
//! | [`Rss`](crate::Rss) | rectangle gap along the direction of the closest rectangle points, minus both radii |
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

use ccd_interval::{bound_down, bound_up};
use nalgebra::{Matrix3, Vector3};

use crate::apart::allowance;
use crate::rect::Placed;
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
}

impl<T: Real> MoveRounding<T> {
    /// No move: both volumes were fitted in the same frame.
    pub fn none() -> Self {
        Self {
            translation: T::zero(),
            defect: T::zero(),
        }
    }

    /// The rounding bound of moving volumes by `pose`.
    pub fn of(pose: &Pose<T>) -> Self {
        Self {
            translation: l1(&pose.trans.into()),
            defect: pose_defect(pose),
        }
    }
}

/// `|x| + |y| + |z|`.
#[inline]
pub(crate) fn l1<T: Real>(v: &[T; 3]) -> T {
    v[0].abs() + v[1].abs() + v[2].abs()
}

/// An upper bound of `‖XᵀX − I‖₂` for the columns `x`: three times the largest `|x_i·x_j − δ_ij|` (a symmetric
/// 3 × 3 matrix has spectral norm at most three times its largest entry), plus `8ε` for the rounding of the dot
/// products of entries bounded by 1 (larger entries make the measured value large anyway). NaN stays NaN.
#[inline]
pub(crate) fn frame_defect<T: Real>(x: &[[T; 3]; 3]) -> T {
    let dot = |u: &[T; 3], v: &[T; 3]| u[0] * v[0] + u[1] * v[1] + u[2] * v[2];
    let one = T::one();
    let e = [
        dot(&x[0], &x[0]) - one,
        dot(&x[1], &x[1]) - one,
        dot(&x[2], &x[2]) - one,
        dot(&x[0], &x[1]),
        dot(&x[0], &x[2]),
        dot(&x[1], &x[2]),
    ];
    let worst = e.iter().fold(T::zero(), |m, v| {
        let a = v.abs();
        if a > m || a.partial_cmp(&a).is_none() {
            a
        } else {
            m
        }
    });
    T::lit(3.0) * worst + T::lit(8.0) * T::EPSILON
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
    let d = raw - allowance(scale, defect);
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

/// Lower bound of the distance between box `a` and box `b` moved by `b_in_a` ([module](self)).
///
/// # Guarantee
/// At most the distance between `a` and `b` moved by `b_in_a` evaluated exactly, rounding included; 0 where they
/// may overlap ([module](self)).
pub fn obb_lower_bound<T: Real>(a: &Obb<T>, b: &Obb<T>, b_in_a: &Pose<T>) -> T {
    let (r, t) = a.relative(b, b_in_a);
    let scale =
        l1(&b_in_a.trans.into()) + l1(&a.center) + l1(&b.center) + l1(&a.half) + l1(&b.half);
    let defect = pose_defect(b_in_a) + frame_defect(&a.rot) + frame_defect(&b.rot);
    obb_bound(&r, &t, &a.half, &b.half, scale, defect)
}

/// Lower bound of the distance between box `a` and `b_moved`, moved into A's frame with rounding `moved`.
///
/// # Guarantee
/// At most the distance between `a` and the exactly moved content of `b_moved`, rounding of the move (bounded by
/// `moved`) and of the bound included; 0 where they may overlap ([module](self)).
pub fn obb_lower_bound_local<T: Real>(a: &Obb<T>, b_moved: &Obb<T>, moved: &MoveRounding<T>) -> T {
    let at = a.rotation().transpose();
    let r = at * b_moved.rotation();
    let t = at * (Vector3::from(b_moved.center) - Vector3::from(a.center));
    let scale = moved.translation * T::lit(2.0)
        + l1(&a.center)
        + l1(&b_moved.center)
        + l1(&a.half)
        + l1(&b_moved.half);
    let defect = moved.defect + frame_defect(&a.rot) + frame_defect(&b_moved.rot);
    obb_bound(&r, &t, &a.half, &b_moved.half, scale, defect)
}

/// The 15 SAT gaps (no guard: the allowance covers the rounding) less the allowance `E`; a face axis is a unit
/// vector of the nearest orthonormal frames, a cross axis `A_i × B_j` has length at most
/// `min(1, √(R_i1j² + R_i2j²) + 4γ)` (the entries of `R` are within `2γ + 8ε` of the orthonormal ones, and
/// `γ ≥ 16ε`), so each gap divided by that length bounds the distance.
fn obb_bound<T: Real>(
    r: &Matrix3<T>,
    t: &Vector3<T>,
    a: &[T; 3],
    b: &[T; 3],
    scale: T,
    defect: T,
) -> T {
    if !usable(defect) {
        return T::zero();
    }
    let e = allowance(scale, defect);
    let f = r.abs();
    let mut best = T::zero();
    for i in 0..3 {
        let rhs = a[i] + b[0] * f[(i, 0)] + b[1] * f[(i, 1)] + b[2] * f[(i, 2)];
        best = best.max(t[i].abs() - rhs - e);
    }
    for j in 0..3 {
        let lhs = (t[0] * r[(0, j)] + t[1] * r[(1, j)] + t[2] * r[(2, j)]).abs();
        let rhs = b[j] + a[0] * f[(0, j)] + a[1] * f[(1, j)] + a[2] * f[(2, j)];
        best = best.max(lhs - rhs - e);
    }
    let four_gamma = T::lit(4.0) * defect;
    for i in 0..3 {
        let (i1, i2) = ((i + 1) % 3, (i + 2) % 3);
        for j in 0..3 {
            let (j1, j2) = ((j + 1) % 3, (j + 2) % 3);
            let lhs = (t[i2] * r[(i1, j)] - t[i1] * r[(i2, j)]).abs();
            let rhs =
                a[i1] * f[(i2, j)] + a[i2] * f[(i1, j)] + b[j1] * f[(i, j2)] + b[j2] * f[(i, j1)];
            let gap = lhs - rhs - e;
            if gap > T::zero() {
                let len2 = r[(i1, j)] * r[(i1, j)] + r[(i2, j)] * r[(i2, j)];
                let len = (bound_up(len2.sqrt()) + four_gamma).min(T::one());
                best = best.max(gap / len);
            }
        }
    }
    if best > T::zero() {
        bound_down(best)
    } else {
        T::zero()
    }
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

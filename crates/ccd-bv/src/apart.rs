//! Certified separation beyond a gap: are two volumes, B's placed in A's frame by a floating-point rigid
//! transform, farther apart than a given distance? The continuous queries use it on the float poses of a time
//! interval's midpoint with the gap set to the motions' slack over the interval
//! ([`RelativeSpan`](ccd_motion::RelativeSpan)), so one static test stands for the whole interval.
//!
//! | volume | function | test |
//! |---|---|---|
//! | [`Obb`] | [`obb_apart`] | the 15-axis SAT with every left-hand side reduced by the gap |
//! | [`Aabb`] | [`aabb_apart`] | as an OBB with identity axes |
//! | [`Sphere`] | [`sphere_apart`] | centre distance |
//! | [`Rss`] | [`rss_apart`] | rectangle gap along the closest-point direction (see [`lower_bound`](crate::lower_bound)) |
//!
//! # Guarantee
//! `true` only if the volume `a` and the volume `b` moved by `b_in_a` are farther apart than `gap` (Euclidean), for
//! the exact rigid transform within `defect` of `b_in_a.rot` and despite the rounding of every operation. The
//! rounding is bounded a priori rather than by interval arithmetic: each test evaluates a fixed formula of
//! fewer than 20 operations per quantity, on rotation entries bounded by `1 + defect` and lengths bounded by the
//! scale `S = |trans|₁ + |c_a|₁ + |c_b|₁ + Σ h_a + Σ h_b` (`h` the half-extents or radii), so its absolute error
//! is below `64 ε S` for orthonormal axes. Non-orthonormal axes distort the SAT's closed forms by at most
//! `4 γ S`, `γ` the sum of the transform's `defect` and both boxes' own axis defects `γ_box ≥ ‖XᵀX − I‖₂`,
//! which [`obb_apart`] measures on the spot (`3 max |a_i·a_j − δ_ij|` plus its rounding), so a box read from any
//! file is covered, not only fitted ones. The test subtracts `16 (8 ε + γ) S`, at least twice both, from every
//! separation before comparing.

use ccd_interval::bound_up;
use nalgebra::Vector3;

use crate::rect::Placed;
use crate::sat::obb_disjoint_by;
use crate::{Aabb, Obb, Pose, Real, Rss, Sphere};

/// `16·(8ε + defect)·scale`, rounded up: the allowance for rounding and non-orthonormal axes (module docs).
#[inline]
pub(crate) fn allowance<T: Real>(scale: T, defect: T) -> T {
    bound_up(T::lit(16.0) * (T::lit(8.0) * T::EPSILON + defect) * scale)
}

#[inline]
fn l1<T: Real>(v: &[T; 3]) -> T {
    v[0].abs() + v[1].abs() + v[2].abs()
}

/// Whether box `a` and box `b` moved by `b_in_a` are certainly farther apart than `gap`.
///
/// # Guarantee
/// See the [module](self): never `true` for boxes (under any rigid transform within `defect` of `b_in_a.rot`)
/// that come within `gap` of each other. Conservative also through the SAT's `|R| + ε` guard
/// ([`Real::SAT_GUARD`]). `gap ≤ 0` asks whether the boxes are disjoint.
#[inline]
pub fn obb_apart<T: Real>(a: &Obb<T>, b: &Obb<T>, b_in_a: &Pose<T>, gap: T, defect: T) -> bool {
    let (r, t) = a.relative(b, b_in_a);
    let tr = [b_in_a.trans.x, b_in_a.trans.y, b_in_a.trans.z];
    let scale = l1(&tr) + l1(&a.center) + l1(&b.center) + l1(&a.half) + l1(&b.half);
    let defect = defect + axis_defect(a) + axis_defect(b);
    // Axes this far from orthonormal (only a hand-made file has them) void the derivation: never "apart".
    if defect.partial_cmp(&T::lit(1.0 / 16.0)) != Some(std::cmp::Ordering::Less) {
        return false;
    }
    let margin = gap.max(T::zero()) + allowance(scale, defect);
    obb_disjoint_by(&r, &t, &a.half, &b.half, T::SAT_GUARD, margin)
}

/// An upper bound of `‖AᵀA − I‖₂` for the box axes `A`: three times the largest `|a_i·a_j − δ_ij|` (the
/// Frobenius norm of a symmetric 3 × 3 matrix is at most three times its largest entry), plus `8ε` for the
/// rounding of the dot products of entries bounded by 1 (larger entries make the measured value large anyway).
#[inline]
fn axis_defect<T: Real>(b: &Obb<T>) -> T {
    let [a0, a1, a2] = b.rot;
    let dot = |x: [T; 3], y: [T; 3]| x[0] * y[0] + x[1] * y[1] + x[2] * y[2];
    let one = T::one();
    let worst = (dot(a0, a0) - one)
        .abs()
        .max((dot(a1, a1) - one).abs())
        .max((dot(a2, a2) - one).abs())
        .max(dot(a0, a1).abs())
        .max(dot(a0, a2).abs())
        .max(dot(a1, a2).abs());
    T::lit(3.0) * worst + T::lit(8.0) * T::EPSILON
}

/// [`obb_apart`] for axis-aligned boxes (each is the OBB with identity axes, the same point set).
#[inline]
pub fn aabb_apart<T: Real>(a: &Aabb<T>, b: &Aabb<T>, b_in_a: &Pose<T>, gap: T, defect: T) -> bool {
    obb_apart(&as_obb(a), &as_obb(b), b_in_a, gap, defect)
}

fn as_obb<T: Real>(b: &Aabb<T>) -> Obb<T> {
    let (o, l) = (T::zero(), T::one());
    Obb {
        rot: [[l, o, o], [o, l, o], [o, o, l]],
        center: b.center,
        half: b.half,
    }
}

/// Whether sphere `a` and sphere `b` moved by `b_in_a` are certainly farther apart than `gap`: the centre distance
/// minus both radii, less the rounding allowance, exceeds `gap`.
///
/// # Guarantee
/// As [`obb_apart`].
#[inline]
pub fn sphere_apart<T: Real>(
    a: &Sphere<T>,
    b: &Sphere<T>,
    b_in_a: &Pose<T>,
    gap: T,
    defect: T,
) -> bool {
    let cb = b_in_a.rot * Vector3::from(b.center) + b_in_a.trans;
    let d = (cb - Vector3::from(a.center)).norm();
    let tr = [b_in_a.trans.x, b_in_a.trans.y, b_in_a.trans.z];
    let scale = l1(&tr) + l1(&a.center) + l1(&b.center) + a.radius + b.radius;
    d - a.radius - b.radius - allowance(scale, defect) > gap.max(T::zero())
}

/// Whether rectangle swept sphere `a` and `b` moved by `b_in_a` are certainly farther apart than `gap`: a
/// rectangle gap along the centre direction, a normal or the closest-point direction, minus both radii and the
/// allowance `16 (8ε + γ) S` of [`lower_bound`](crate::lower_bound) (`γ` the `defect` plus both volumes'
/// measured axis defects), exceeds `gap`.
///
/// # Guarantee
/// As [`obb_apart`]; the rectangle gap itself needs no orthonormality (the support function of a parallelogram
/// is exact for any axes), the rigid transform within `defect` of `b_in_a.rot` moves B's rectangle by at most
/// `defect·S` along any unit direction and leaves its ball a ball.
#[inline]
pub fn rss_apart<T: Real>(a: &Rss<T>, b: &Rss<T>, b_in_a: &Pose<T>, gap: T, defect: T) -> bool {
    Placed::moved(a, b, b_in_a, defect).apart_by(gap)
}

/// An upper bound on the distance from the model origin of any point of the volume: `|c| + Σ h_j |a_j| + r`,
/// rounded up (the axes' own lengths, so non-unit axes are covered).
///
/// # Guarantee
/// An upper bound, never an estimate: every point `c + s₀a₀ + s₁a₁ + u` (`|s_j| ≤ h_j`, `|u| ≤ r`) is within
/// `|c| + Σ h_j |a_j| + r` of the origin, and [`bound_up`] covers the rounding of those few operations.
pub fn rss_origin_radius<T: Real>(b: &Rss<T>) -> T {
    let reach = |j: usize| b.half[j] * Vector3::from(b.rot[j]).norm();
    bound_up(Vector3::from(b.center).norm() + reach(0) + reach(1) + b.radius)
}

/// An upper bound on the distance from the model origin of any point of the box (`|c| + |h|`, rounded up).
pub fn obb_origin_radius<T: Real>(b: &Obb<T>) -> T {
    let r = Vector3::from(b.center).norm() + Vector3::from(b.half).norm();
    bound_up(r)
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::{Isometry3, Translation3, UnitQuaternion};

    fn pose(x: f64, y: f64, z: f64, r: (f64, f64, f64)) -> Pose<f64> {
        Pose::from_isometry(&Isometry3::from_parts(
            Translation3::new(x, y, z),
            UnitQuaternion::from_euler_angles(r.0, r.1, r.2),
        ))
    }

    /// Boxes 1.5 apart along a face axis: apart by 1.4, not by 1.5 (the property test in `tests/apart.rs`
    /// compares random pairs against the exact box distance).
    #[test]
    fn far_boxes_are_apart_and_touching_are_not() {
        let a = Obb {
            rot: [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]],
            center: [0.0; 3],
            half: [1.0, 1.0, 1.0],
        };
        let p = pose(3.5, 0.0, 0.0, (0.0, 0.0, 0.0));
        assert!(obb_apart(&a, &a, &p, 1.4, 0.0));
        assert!(!obb_apart(&a, &a, &p, 1.5, 0.0));
        let s = Sphere {
            center: [0.0; 3],
            radius: 1.0,
        };
        assert!(sphere_apart(&s, &s, &p, 1.49, 0.0));
        assert!(!sphere_apart(&s, &s, &p, 1.5, 0.0));
    }
}

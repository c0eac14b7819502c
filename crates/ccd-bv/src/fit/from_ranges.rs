//! Boxes built from the ranges of their vertices' projections, gathered by a tree builder where it visits the
//! vertices of smaller nodes below (so the largest nodes need no pass over their own vertices):
//! [`BoundingVolume::from_ranges`](crate::BoundingVolume::from_ranges).

use nalgebra::{Matrix3, Vector3};

use super::bounds::pad;
use super::covariance::to_f64;
use crate::{Obb, Real};

/// Slack, in units of `T::EPSILON·(‖c‖∞ + Σᵢ hᵢ)`, added to the half-extents of a box built from ranges before
/// its padding ([`obb_from_ranges`]).
const SLACK_ULPS: f64 = 64.0;

/// The axes of `axes` (columns) as a box stores them: rounded to `T`, widened back.
pub(crate) fn stored_axes<T: Real>(axes: &Matrix3<f64>) -> Matrix3<f64> {
    axes.map(|x| T::lit(x).to_f64_exact())
}

/// The box with the axes `axes` (columns, as [`stored_axes`] gives them) around every point `p` whose
/// projections `fl(a_i·p)`, computed in `f64` on `p` widened exactly ([`super::widen_ranges`]), lie in
/// `[lo_i, hi_i]`; `None` where a parameter would not be finite.
///
/// # Guarantee
/// Every such point passes the box's `contains_point(p, 0)` as evaluated in `T`, the box padded as a fit's
/// ([`super::bounds::pad`]). With the centre `c` (the middle of the ranges mapped back, rounded to `T`) and
/// `hᵢ = (hiᵢ − loᵢ)/2`, what can move `|aᵢ·(p − c)|` beyond `hᵢ`, in units of `ε_T·(‖c‖∞ + Σᵢ hᵢ)`
/// (`ε_T = T::EPSILON ≥ ε = f64::EPSILON`): the projections' rounding (within `1.5ε‖p‖₁`, about 6), the
/// middle's and the half-widths' (about 2), the axes' departure from orthonormality once rounded to `T`
/// (`‖AᵀA − I‖₂ ≤ √3·ε_T` plus the `f64` axes' own, about 10), the centre's rounding to `T` and its mapping
/// back (about 6), and the evaluation of `contains_point` in `T` (one rounded difference and a three-term dot
/// product, within `2ε_T‖p − c‖₁`, about 4): about 28 in all. Each half-extent gets `SLACK_ULPS = 64` of these
/// units, rounded up to `T`, before the padding, so the box is that much (a few dozen units of `T` in the last
/// place of the centre's magnitude) looser than a fit to the same vertices with the same axes, whose exact
/// containment pass makes it tight.
pub(crate) fn obb_from_ranges<T: Real>(
    axes: &Matrix3<f64>,
    (lo, hi): &(Vector3<f64>, Vector3<f64>),
) -> Option<Obb<T>> {
    let mid = (lo + hi) * 0.5;
    let center = axes * mid;
    let center: [T; 3] = std::array::from_fn(|k| T::lit(center[k]));
    let half = (hi - lo) * 0.5;
    let c = to_f64(&center);
    let scale = c.amax() + half.sum();
    let slack = SLACK_ULPS * T::EPSILON.to_f64_exact() * scale;
    let mut obb = Obb {
        rot: std::array::from_fn(|j| std::array::from_fn(|k| T::lit(axes[(k, j)]))),
        center,
        half: std::array::from_fn(|i| T::lit(half[i] + slack).step_up()),
    };
    let e = obb.half[0].max(obb.half[1]).max(obb.half[2]);
    let p = pad(&obb.center, e);
    obb.half = obb.half.map(|h| h + p);
    let finite = |v: &[T; 3]| v.iter().all(|x| x.to_f64_exact().is_finite());
    (finite(&obb.center) && finite(&obb.half) && lo.iter().chain(hi.iter()).all(|x| x.is_finite()))
        .then_some(obb)
}

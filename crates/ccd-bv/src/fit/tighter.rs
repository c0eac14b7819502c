//! [`FitFrame::Tighter`](crate::FitFrame::Tighter): of two candidate frames, the one in which the vertices' box is
//! smaller.

use nalgebra::{Matrix3, Vector3};

use super::bounds::projected_ranges;
use super::frame::vertex_covariance;
use super::principal_axes;
use crate::Real;

/// The frame [`FitFrame::Tighter`](crate::FitFrame::Tighter) picks for the vertices `ids`: `vertex_axes` (the
/// principal axes of their covariance, computed here when `None`) unless the box along `axes` has a smaller
/// volume; with the picked frame's projected ranges, computed on the vertices scaled by `2^k` (in one pass for
/// both frames). The volumes are compared as the products of the ranges' widths, so the first frame stays on
/// ties (and where a product is NaN).
pub(super) fn tighter<T: Real>(
    vertices: &[[T; 3]],
    ids: &[u32],
    k: i32,
    axes: &Matrix3<f64>,
    vertex_axes: Option<&Matrix3<f64>>,
) -> (Matrix3<f64>, (Vector3<f64>, Vector3<f64>)) {
    let vertex_axes = match vertex_axes {
        Some(a) => *a,
        None => principal_axes(&vertex_covariance(vertices, ids)),
    };
    let [first, second] = projected_ranges(vertices, ids, k, [&vertex_axes, axes]);
    let volume = |(lo, hi): &(Vector3<f64>, Vector3<f64>)| (hi - lo).product();
    if volume(&second) < volume(&first) {
        (*axes, second)
    } else {
        (vertex_axes, first)
    }
}

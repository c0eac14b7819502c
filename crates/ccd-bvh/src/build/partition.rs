//! The split rule: plane through the area-weighted centroid, orthogonal to
//! the major axis of the triangles' surface covariance (Gottschalk §3.6),
//! with a median split when one side would be empty.

use ccd_bv::Real;
use ccd_bv::fit::{principal_axes, triangle_covariance};
use nalgebra::Vector3;

/// Centroid of a triangle, in f64.
fn centroid<T: Real>(vertices: &[[T; 3]], tri: &[u32; 3]) -> Vector3<f64> {
    let mut c = Vector3::zeros();
    for &v in tri {
        let p = vertices[v as usize];
        c += Vector3::new(
            p[0].to_f64_exact(),
            p[1].to_f64_exact(),
            p[2].to_f64_exact(),
        );
    }
    c / 3.0
}

/// Reorders `tris` (and `ids` in lockstep) into two non-empty groups and
/// returns the size of the first. Requires `tris.len() >= 2`.
///
/// A triangle goes first iff its centroid projects strictly below the
/// area-weighted mean on the major axis. If that leaves a side empty (all
/// centroids on one side, e.g. coincident), the triangles are split at the
/// median projection instead, so recursion always shrinks.
pub(crate) fn split<T: Real>(vertices: &[[T; 3]], tris: &mut [[u32; 3]], ids: &mut [u32]) -> usize {
    debug_assert!(tris.len() >= 2 && tris.len() == ids.len());
    let (axis, cut) = major_axis(vertices, tris);
    let key = |t: &[u32; 3]| axis.dot(&centroid(vertices, t));

    let lo = partition_in_place(tris, |t| key(t) < cut, |i, j| ids.swap(i, j));
    if lo != 0 && lo != tris.len() {
        return lo;
    }
    median_by(tris, ids, key)
}

/// Moves the items for which `below` holds to the front, in place (Hoare-style: the first item that fails is
/// swapped with the last unexamined one), calling `also_swap(i, j)` with every swap so that a parallel array can
/// follow; returns how many items went first.
pub(crate) fn partition_in_place<X>(
    items: &mut [X],
    below: impl Fn(&X) -> bool,
    mut also_swap: impl FnMut(usize, usize),
) -> usize {
    let (mut lo, mut hi) = (0usize, items.len());
    while lo < hi {
        if below(&items[lo]) {
            lo += 1;
        } else {
            hi -= 1;
            items.swap(lo, hi);
            also_swap(lo, hi);
        }
    }
    lo
}

/// Major axis of the triangles' surface covariance and the projection of
/// their area-weighted mean on it.
fn major_axis<T: Real>(vertices: &[[T; 3]], tris: &[[u32; 3]]) -> (Vector3<f64>, f64) {
    let (mean, cov, _) = triangle_covariance(vertices, tris);
    let axis: Vector3<f64> = principal_axes(&cov).column(0).into_owned();
    (axis, axis.dot(&mean))
}

/// Splits at the median centroid projection on the major axis; both halves
/// are non-empty. Requires `tris.len() >= 2`.
pub(crate) fn median_split<T: Real>(
    vertices: &[[T; 3]],
    tris: &mut [[u32; 3]],
    ids: &mut [u32],
) -> usize {
    let (axis, _) = major_axis(vertices, tris);
    median_by(tris, ids, |t| axis.dot(&centroid(vertices, t)))
}

/// Splits at the median of `key` (ties broken arbitrarily), so both halves
/// are non-empty.
fn median_by(tris: &mut [[u32; 3]], ids: &mut [u32], key: impl Fn(&[u32; 3]) -> f64) -> usize {
    let mut order: Vec<(f64, [u32; 3], u32)> = tris
        .iter()
        .zip(ids.iter())
        .map(|(t, &id)| (key(t), *t, id))
        .collect();
    let mid = order.len() / 2;
    order.select_nth_unstable_by(mid, |x, y| x.0.total_cmp(&y.0));
    for (k, (_, t, id)) in order.into_iter().enumerate() {
        tris[k] = t;
        ids[k] = id;
    }
    mid
}

//! The rectangle swept sphere fit (Larsen, Gottschalk, Lin, Manocha 1999, §4), computed in `f64` on the
//! vertices scaled by `2^k` (see [`super`]) and made conservative in `T`.

use nalgebra::{Vector2, Vector3};

use super::bounds::{pad, root_up, squares_reliable};
use super::covariance::to_f64;
use super::distinct_vertices;
use super::frame::{axes_scaled, vertex_exponent};
use super::scale::scaled;
use crate::{FitFrame, FitMethod, Real, Rss};
use ccd_interval::pow2::ldexp;

/// The RSS of `faces` (see [`Rss`]'s `fit`).
///
/// 1. Axes from the OBB frame (descending spread): axes 0 and 1 span the rectangle, axis 2 is the normal.
/// 2. In that frame, the radius `r` is half the vertices' extent along the normal and the rectangle's plane
///    its middle; a vertex at height `z` above that plane is covered by the ball around any rectangle point
///    within `ρ = √(r² − z²)` of its in-plane position.
/// 3. Each side is pulled in as far as every vertex allows, `min(x + ρ)` and `max(x − ρ)` (a side that would
///    cross its opposite collapses to their middle); a vertex beyond a corner in both directions by more than
///    its `ρ` then pushes one of the two sides back out, whichever adds less area.
/// 4. In `T`: the parameters rounded to nearest, the radius raised until every vertex passes `contains_point`
///    as evaluated (and, where squares under- or overflow in `T`, covers the true distance), then padded; an
///    infinite radius where that evaluation overflows to NaN (coordinates near the largest `T`).
pub(crate) fn fit_rss<T: Real>(
    vertices: &[[T; 3]],
    faces: &[[u32; 3]],
    method: FitMethod,
) -> Rss<T> {
    let ids = distinct_vertices(faces);
    fit_rss_shared(vertices, faces, &ids, &FitFrame::Method(method))
}

/// The RSS of `faces`, whose distinct vertices are `ids`, oriented by
/// `frame` ([`BoundingVolume::fit_shared`](crate::BoundingVolume::fit_shared)).
pub(crate) fn fit_rss_shared<T: Real>(
    vertices: &[[T; 3]],
    faces: &[[u32; 3]],
    ids: &[u32],
    frame: &FitFrame,
) -> Rss<T> {
    let k = vertex_exponent(vertices, ids);
    let axes = axes_scaled(vertices, faces, ids, k, frame);
    let at = axes.transpose();
    let pts: Vec<Vector3<f64>> = ids
        .iter()
        .map(|&i| scaled(&to_f64(&vertices[i as usize]), k))
        .collect();
    let local: Vec<Vector3<f64>> = pts.iter().map(|p| at * p).collect();
    let (lo, hi, z0, r) = shrink(&local);
    let center = axes * Vector3::new((lo.x + hi.x) * 0.5, (lo.y + hi.y) * 0.5, z0);
    let center = scaled(&center, -k);
    let half = (hi - lo) * 0.5;
    let mut rss = Rss {
        rot: std::array::from_fn(|j| std::array::from_fn(|i| T::lit(axes[(i, j)]))),
        center: std::array::from_fn(|i| T::lit(center[i])),
        half: [0, 1].map(|j| T::lit(ldexp(half[j], -k))),
        radius: T::zero(),
    };
    // Exact containment as `contains_point` evaluates it, in `T`. Where that evaluation overflows into NaN
    // (`p − c` beyond the largest `T`), the volume reaches beyond it too: its radius is made infinite.
    let d2: Vec<T> = ids
        .iter()
        .map(|&i| rss.dist2(&vertices[i as usize]))
        .collect();
    if d2.iter().any(|d| d.partial_cmp(&T::zero()).is_none()) {
        rss.radius = T::lit(f64::INFINITY);
        return rss;
    }
    let r2 = d2.iter().fold(T::zero(), |a, &b| a.max(b));
    let mut radius = root_up(r2).max(T::lit(ldexp(r, -k)));
    if !squares_reliable(r2) {
        // Cover the true distances to the rounded rectangle, computed on the scaled copy, rounded up.
        let far = pts
            .iter()
            .map(|p| scaled_distance(&rss, p, k))
            .fold(0.0, f64::max);
        let bound = ldexp(far * (1.0 + 8.0 * f64::EPSILON), -k);
        radius = radius.max(T::lit(bound).step_up());
    }
    let e = rss.half[0].max(rss.half[1]).max(radius);
    rss.radius = radius + pad(&rss.center, e);
    rss
}

/// Steps 2 and 3 of [`fit_rss`] on the vertices in the frame of the axes: the rectangle's lower and upper
/// corners in the plane, the plane's height and the radius.
fn shrink(q: &[Vector3<f64>]) -> (Vector2<f64>, Vector2<f64>, f64, f64) {
    let (zlo, zhi) = q
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), p| {
            (l.min(p.z), h.max(p.z))
        });
    let (r, z0) = ((zhi - zlo) * 0.5, (zhi + zlo) * 0.5);
    let reach = |p: &Vector3<f64>| (r * r - (p.z - z0) * (p.z - z0)).max(0.0).sqrt();
    let mut lo = Vector2::repeat(f64::INFINITY);
    let mut hi = Vector2::repeat(f64::NEG_INFINITY);
    for p in q {
        let rho = reach(p);
        for j in 0..2 {
            lo[j] = lo[j].min(p[j] + rho);
            hi[j] = hi[j].max(p[j] - rho);
        }
    }
    for j in 0..2 {
        if lo[j] > hi[j] {
            let m = (lo[j] + hi[j]) * 0.5;
            (lo[j], hi[j]) = (m, m);
        }
    }
    // Corner regions: a vertex outside both in-plane ranges is covered iff its corner distance is at most ρ.
    for p in q {
        let rho = reach(p);
        let out = |j: usize| (lo[j] - p[j]).max(p[j] - hi[j]).max(0.0);
        let (dx, dy) = (out(0), out(1));
        if dx > 0.0 && dy > 0.0 && dx * dx + dy * dy > rho * rho {
            // Keep one excess, shrink the other to what ρ leaves; pick the side that adds less area.
            let keep = |d: f64| (rho * rho - d * d).max(0.0).sqrt();
            let grow_x = (dx - keep(dy)) * (hi.y - lo.y);
            let grow_y = (dy - keep(dx)) * (hi.x - lo.x);
            let (j, to) = if grow_x <= grow_y {
                (0, keep(dy))
            } else {
                (1, keep(dx))
            };
            if p[j] < lo[j] {
                lo[j] = p[j] + to;
            } else {
                hi[j] = p[j] - to;
            }
        }
    }
    (lo, hi, z0, r)
}

/// The distance from `p` (already scaled by `2^k`) to the rectangle of `rss` scaled by `2^k`, as `dist2`
/// evaluates it but in `f64` (where nothing under- or overflows).
fn scaled_distance<T: Real>(rss: &Rss<T>, p: &Vector3<f64>, k: i32) -> f64 {
    let d = p - scaled(&to_f64(&rss.center), k);
    let l = rss.rot.map(|a| to_f64(&a).dot(&d));
    let out = |j: usize| (l[j].abs() - ldexp(rss.half[j].to_f64_exact(), k)).max(0.0);
    (out(0).powi(2) + out(1).powi(2) + l[2] * l[2]).sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::BoundingVolume;

    /// A flat rectangle of triangles gets a flat RSS (radius at padding level) spanning it; a box of height 1
    /// gets radius 1/2 and keeps the full rectangle (its corners, half a unit off the plane, need it).
    #[test]
    fn flat_and_thick_sets() {
        let v: Vec<[f64; 3]> = vec![
            [0.0, 0.0, 0.0],
            [4.0, 0.0, 0.0],
            [4.0, 2.0, 0.0],
            [0.0, 2.0, 0.0],
        ];
        let f = [[0, 1, 2], [0, 2, 3]];
        let s = Rss::fit(&v, &f, FitMethod::default());
        assert!(s.radius < 1e-14, "{s:?}");
        assert!((s.half[0] - 2.0).abs() < 1e-12 && (s.half[1] - 1.0).abs() < 1e-12);
        let mut cube = v.clone();
        cube.extend(v.iter().map(|p| [p[0], p[1], 1.0]));
        let f: Vec<[u32; 3]> = (0..6).map(|i| [i, i + 1, i + 2]).collect();
        let s = Rss::fit(&cube, &f, FitMethod::default());
        assert!((s.radius - 0.5).abs() < 1e-12, "{s:?}");
        for p in &cube {
            assert!(s.contains_point(p, 0.0));
        }
        assert!((s.half[0] - 2.0).abs() < 1e-12 && (s.half[1] - 1.0).abs() < 1e-12);
    }
}

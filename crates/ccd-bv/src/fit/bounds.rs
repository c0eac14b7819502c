//! Extents of fitted volumes, computed in `f64` and made conservative in `T`.

use nalgebra::{Matrix3, Vector3};

use super::covariance::{to_f64, triangle_covariance};
use super::{distinct_vertices, obb_axes, principal_axes};
use crate::{Aabb, FitMethod, Obb, Real, Sphere};

/// Padding, in units of `T::EPSILON·(‖centre‖∞ + largest extent)`, added
/// after the exact containment pass (module docs of [`super`]).
const PAD_ULPS: f64 = 4.0;

/// The padding for a volume with centre `c` and largest extent `e`.
fn pad<T: Real>(c: &[T; 3], e: T) -> T {
    let scale = c[0].abs().max(c[1].abs()).max(c[2].abs()) + e;
    T::lit(PAD_ULPS) * T::EPSILON * scale
}

/// The OBB of `faces` (module docs of [`super`]).
pub(crate) fn fit_obb<T: Real>(
    vertices: &[[T; 3]],
    faces: &[[u32; 3]],
    method: FitMethod,
) -> Obb<T> {
    let axes = obb_axes(vertices, faces, method);
    let ids = distinct_vertices(faces);
    obb_with_axes(vertices, &ids, &axes)
}

/// The OBB with the given orthonormal axes (columns) around the vertices
/// `ids` (thesis §3.2): projected ranges give the extents and the centre.
fn obb_with_axes<T: Real>(vertices: &[[T; 3]], ids: &[u32], axes: &Matrix3<f64>) -> Obb<T> {
    let at = axes.transpose();
    let mut lo = Vector3::repeat(f64::INFINITY);
    let mut hi = Vector3::repeat(f64::NEG_INFINITY);
    for &i in ids {
        let q = at * to_f64(&vertices[i as usize]);
        lo = lo.inf(&q);
        hi = hi.sup(&q);
    }
    let center = axes * ((lo + hi) * 0.5);
    let half = (hi - lo) * 0.5;
    let mut obb = Obb {
        rot: std::array::from_fn(|j| std::array::from_fn(|k| T::lit(axes[(k, j)]))),
        center: std::array::from_fn(|k| T::lit(center[k])),
        half: std::array::from_fn(|j| T::lit(half[j])),
    };
    // Exact containment as `contains_point` evaluates it, in `T`.
    for &i in ids {
        let l = obb.local_coords(&vertices[i as usize]);
        for (h, x) in obb.half.iter_mut().zip(l) {
            *h = h.max(x.abs());
        }
    }
    let e = obb.half[0].max(obb.half[1]).max(obb.half[2]);
    let p = pad(&obb.center, e);
    obb.half = obb.half.map(|h| h + p);
    obb
}

/// The AABB of `faces` (module docs of [`super`]).
pub(crate) fn fit_aabb<T: Real>(vertices: &[[T; 3]], faces: &[[u32; 3]]) -> Aabb<T> {
    let ids = distinct_vertices(faces);
    let first = vertices[ids[0] as usize];
    let (mut lo, mut hi) = (first, first);
    for &i in &ids {
        let v = &vertices[i as usize];
        for k in 0..3 {
            lo[k] = lo[k].min(v[k]);
            hi[k] = hi[k].max(v[k]);
        }
    }
    let mut aabb = Aabb::from_corners(lo, hi);
    for &i in &ids {
        let v = vertices[i as usize];
        for ((h, x), c) in aabb.half.iter_mut().zip(v).zip(aabb.center) {
            *h = h.max((x - c).abs());
        }
    }
    let e = aabb.half[0].max(aabb.half[1]).max(aabb.half[2]);
    let p = pad(&aabb.center, e);
    aabb.half = aabb.half.map(|h| h + p);
    aabb
}

/// The sphere of `faces` (see [`Sphere`]'s `fit`): the best of the
/// bounding-box centre, the covariance-box centre and, for one triangle, the
/// centre of its smallest enclosing ball.
pub(crate) fn fit_sphere<T: Real>(vertices: &[[T; 3]], faces: &[[u32; 3]]) -> Sphere<T> {
    let ids = distinct_vertices(faces);
    let pts: Vec<Vector3<f64>> = ids.iter().map(|&i| to_f64(&vertices[i as usize])).collect();
    let axes = principal_axes(&triangle_covariance(vertices, faces).1);
    let triangle = match faces {
        [f] => triangle_ball_center(f.map(|i| to_f64(&vertices[i as usize]))),
        _ => None,
    };
    let candidates = [
        Some(box_center(&pts, &Matrix3::identity())),
        Some(box_center(&pts, &axes)),
        triangle,
    ];
    let radius2 = |c: &Vector3<f64>| {
        pts.iter()
            .map(|p| (p - c).norm_squared())
            .fold(0.0, f64::max)
    };
    let best = candidates
        .iter()
        .flatten()
        .min_by(|a, b| radius2(a).total_cmp(&radius2(b)))
        .copied()
        .unwrap_or_default();

    let mut s = Sphere {
        center: std::array::from_fn(|k| T::lit(best[k])),
        radius: T::zero(),
    };
    // Exact containment as `contains_point` evaluates it, in `T`.
    let r2 = ids
        .iter()
        .map(|&i| s.dist2(&vertices[i as usize]))
        .fold(T::zero(), |a, b| a.max(b));
    let mut r = r2.sqrt();
    while r * r < r2 {
        r = r.step_up();
    }
    s.radius = r + pad(&s.center, r);
    s
}

/// Centre of the box with axes `axes` (orthonormal columns) around `pts`.
fn box_center(pts: &[Vector3<f64>], axes: &Matrix3<f64>) -> Vector3<f64> {
    let at = axes.transpose();
    let mut lo = Vector3::repeat(f64::INFINITY);
    let mut hi = Vector3::repeat(f64::NEG_INFINITY);
    for p in pts {
        let q = at * p;
        lo = lo.inf(&q);
        hi = hi.sup(&q);
    }
    axes * ((lo + hi) * 0.5)
}

/// Centre of the smallest ball around a triangle: the midpoint of the
/// longest edge when the opposite angle is not acute, else the
/// circumcentre; `None` for a degenerate triangle.
fn triangle_ball_center(t: [Vector3<f64>; 3]) -> Option<Vector3<f64>> {
    for k in 0..3 {
        let (p, q, r) = (t[k], t[(k + 1) % 3], t[(k + 2) % 3]);
        // Angle at r is right or obtuse: the ball on edge pq holds r.
        if (p - r).dot(&(q - r)) <= 0.0 {
            return Some((p + q) * 0.5);
        }
    }
    let (a, b) = (t[0] - t[2], t[1] - t[2]);
    let n = a.cross(&b);
    let n2 = n.norm_squared();
    (n2 > 0.0).then(|| t[2] + (b * a.norm_squared() - a * b.norm_squared()).cross(&n) / (2.0 * n2))
}

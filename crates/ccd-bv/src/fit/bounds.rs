//! Extents of fitted volumes, computed in `f64` and made conservative in `T`.

use nalgebra::{Matrix3, Vector3};

use super::covariance::{to_f64, triangle_moments};
use super::frame::{axes_scaled, vertex_exponent};
use super::scale::scaled;
use super::tighter::tighter;
use super::{distinct_vertices, principal_axes};
use crate::{Aabb, FitFrame, FitMethod, Obb, Real, Sphere};
use ccd_interval::pow2::ldexp;

/// Padding, in units of `T::EPSILON·(‖centre‖∞ + largest extent)`, added
/// after the exact containment pass (module docs of [`super`]).
const PAD_ULPS: f64 = 4.0;

/// The padding for a volume with centre `c` and largest extent `e`:
/// `4ε·‖c‖∞ + 4ε·e` (`4ε` is a power of two, so this is `4ε·(‖c‖∞ + e)`
/// rounded, without overflowing where the sum would), and at least four
/// times the smallest subnormal, so that volumes of subnormal size also
/// absorb a differently ordered evaluation (whose absolute rounding errors
/// there are half that unit per operation).
pub(super) fn pad<T: Real>(c: &[T; 3], e: T) -> T {
    let ulps = T::lit(PAD_ULPS);
    let m = c[0].abs().max(c[1].abs()).max(c[2].abs());
    let p = ulps * T::EPSILON * m + ulps * T::EPSILON * e;
    p.max(ulps * T::zero().step_up())
}

/// The OBB of `faces` (module docs of [`super`]).
pub(crate) fn fit_obb<T: Real>(
    vertices: &[[T; 3]],
    faces: &[[u32; 3]],
    method: FitMethod,
) -> Obb<T> {
    let ids = distinct_vertices(faces);
    fit_obb_shared(vertices, faces, &ids, &FitFrame::Method(method))
}

/// The OBB of `faces`, whose distinct vertices are `ids`, oriented by
/// `frame` ([`BoundingVolume::fit_shared`](crate::BoundingVolume::fit_shared)).
pub(crate) fn fit_obb_shared<T: Real>(
    vertices: &[[T; 3]],
    faces: &[[u32; 3]],
    ids: &[u32],
    frame: &FitFrame,
) -> Obb<T> {
    // Given or chosen axes need no statistics, and the projections no scaling: the exact pass in `obb_in_ranges`
    // makes the box contain its vertices whatever the rounding of the projections.
    let (axes, k, ranges) = match frame {
        FitFrame::Axes(axes) => (*axes, 0, None),
        FitFrame::Tighter { axes, vertex_axes } => {
            let (axes, ranges) = tighter(vertices, ids, 0, axes, vertex_axes.as_ref());
            (axes, 0, Some(ranges))
        }
        _ => {
            let k = vertex_exponent(vertices, ids);
            (axes_scaled(vertices, faces, ids, k, frame), k, None)
        }
    };
    let ranges = ranges.unwrap_or_else(|| projected_ranges(vertices, ids, k, [&axes])[0]);
    obb_in_ranges(vertices, ids, &axes, k, ranges)
}

/// The range `(lo, hi)` of no point on three axes (every low end `+∞`, every high end `−∞`): what
/// [`widen_ranges`] starts from.
pub const EMPTY_RANGE: (Vector3<f64>, Vector3<f64>) = (
    Vector3::new(f64::INFINITY, f64::INFINITY, f64::INFINITY),
    Vector3::new(f64::NEG_INFINITY, f64::NEG_INFINITY, f64::NEG_INFINITY),
);

/// The ranges `(lo, hi)` of the vertices `ids`, scaled by `2^k`, projected on the columns of each of `frames`,
/// in one pass over the vertices.
pub(super) fn projected_ranges<T: Real, const N: usize>(
    vertices: &[[T; 3]],
    ids: &[u32],
    k: i32,
    frames: [&Matrix3<f64>; N],
) -> [(Vector3<f64>, Vector3<f64>); N] {
    let at = frames.map(|axes| axes.transpose());
    let mut ranges = [EMPTY_RANGE; N];
    project_into(vertices, ids, k, &at, &mut ranges);
    ranges
}

/// Widens each of `ranges` (low and high ends per axis) to the projections of the vertices `ids` on the
/// columns of the matching entry of `axes`: `axesᵀ·p` in `f64` for each vertex `p` widened exactly, each
/// component a three-term dot product (within `γ₃‖p‖₁ ≈ 1.5ε‖p‖₁` of its exact value, `ε = f64::EPSILON`), in one pass
/// over the vertices. What a tree builder gathers for [`BoundingVolume::from_ranges`](crate::BoundingVolume::from_ranges).
///
/// # Panics
/// If an index is out of range or `ranges` is shorter than `axes`.
pub fn widen_ranges<T: Real>(
    vertices: &[[T; 3]],
    ids: &[u32],
    axes: &[Matrix3<f64>],
    ranges: &mut [(Vector3<f64>, Vector3<f64>)],
) {
    let at: Vec<Matrix3<f64>> = axes.iter().map(|a| a.transpose()).collect();
    project_into(vertices, ids, 0, &at, &mut ranges[..axes.len()]);
}

/// [`projected_ranges`] and [`widen_ranges`]: `ranges[f]` widened to the projections `at[f]·p` of the vertices
/// `ids` scaled by `2^k`.
#[inline(always)]
fn project_into<T: Real>(
    vertices: &[[T; 3]],
    ids: &[u32],
    k: i32,
    at: &[Matrix3<f64>],
    ranges: &mut [(Vector3<f64>, Vector3<f64>)],
) {
    for &i in ids {
        let p = scaled(&to_f64(&vertices[i as usize]), k);
        for (at, (lo, hi)) in at.iter().zip(ranges.iter_mut()) {
            let q = at * p;
            *lo = lo.inf(&q);
            *hi = hi.sup(&q);
        }
    }
}

/// The OBB with the given orthonormal axes (columns) around the vertices
/// `ids` (thesis §3.2), whose ranges projected on the axes (scaled by `2^k`,
/// [`projected_ranges`]) are `(lo, hi)`: they give the extents and the
/// centre, scaled back.
fn obb_in_ranges<T: Real>(
    vertices: &[[T; 3]],
    ids: &[u32],
    axes: &Matrix3<f64>,
    k: i32,
    (lo, hi): (Vector3<f64>, Vector3<f64>),
) -> Obb<T> {
    let center = scaled(&(axes * ((lo + hi) * 0.5)), -k);
    let half = scaled(&((hi - lo) * 0.5), -k);
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
    fit_aabb_of(vertices, &distinct_vertices(faces))
}

/// The AABB of the vertices `ids` (non-empty).
pub(crate) fn fit_aabb_of<T: Real>(vertices: &[[T; 3]], ids: &[u32]) -> Aabb<T> {
    let first = vertices[ids[0] as usize];
    let (mut lo, mut hi) = (first, first);
    for &i in ids {
        let v = &vertices[i as usize];
        for k in 0..3 {
            lo[k] = lo[k].min(v[k]);
            hi[k] = hi[k].max(v[k]);
        }
    }
    // `Aabb::from_corners`, halving first where the sum or the difference
    // overflows.
    let two = T::lit(2.0);
    let finite_or = |x: T, y: T| if x.finite() { x } else { y };
    let mut aabb = Aabb {
        center: std::array::from_fn(|k| {
            finite_or((lo[k] + hi[k]) / two, lo[k] / two + hi[k] / two)
        }),
        half: std::array::from_fn(|k| finite_or((hi[k] - lo[k]) / two, hi[k] / two - lo[k] / two)),
    };
    for &i in ids {
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
/// centre of its smallest enclosing ball (chosen on vertices scaled by
/// `2^k`, see [`super`]).
pub(crate) fn fit_sphere<T: Real>(vertices: &[[T; 3]], faces: &[[u32; 3]]) -> Sphere<T> {
    fit_sphere_of(vertices, faces, &distinct_vertices(faces))
}

/// [`fit_sphere`] of `faces`, whose distinct vertices are `ids`.
pub(crate) fn fit_sphere_of<T: Real>(
    vertices: &[[T; 3]],
    faces: &[[u32; 3]],
    ids: &[u32],
) -> Sphere<T> {
    let k = vertex_exponent(vertices, ids);
    let at = |i: u32| scaled(&to_f64(&vertices[i as usize]), k);
    let pts: Vec<Vector3<f64>> = ids.iter().map(|&i| at(i)).collect();
    let axes = principal_axes(&triangle_moments(faces, at).1);
    let triangle = match faces {
        [f] => triangle_ball_center(f.map(at)),
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
    let center = |c: Vector3<f64>| -> [T; 3] { std::array::from_fn(|j| T::lit(ldexp(c[j], -k))) };
    let mut s = Sphere {
        center: center(best),
        radius: T::zero(),
    };
    if !s.center.iter().all(|x| x.finite()) {
        s.center = center(candidates[0].unwrap_or_default());
    }
    // Exact containment as `contains_point` evaluates it, in `T`.
    let r2 = ids
        .iter()
        .map(|&i| s.dist2(&vertices[i as usize]))
        .fold(T::zero(), |a, b| a.max(b));
    let mut r = root_up(r2);
    // Where the squares in `T` may have overflowed or lost their relative
    // accuracy to underflow (`r2` infinite or below `2^-918`, f32 `2^-80`),
    // also cover the true distances (computed scaled, rounded up), which the
    // evaluation in `T` does not bound there.
    if !squares_reliable(r2) {
        let c = scaled(&to_f64(&s.center), k);
        let far = pts.iter().map(|p| (p - c).norm()).fold(0.0, f64::max);
        let bound = ldexp(far * (1.0 + 8.0 * f64::EPSILON), -k);
        r = r.max(T::lit(bound).step_up());
    }
    s.radius = r + pad(&s.center, r);
    s
}

/// The least `r` with `r·r ≥ r2` as evaluated in `T`; where `r2` overflowed,
/// the least `r` whose square overflows (every square then passes).
pub(super) fn root_up<T: Real>(r2: T) -> T {
    if r2.finite() {
        let mut r = r2.sqrt();
        while r * r < r2 {
            r = r.step_up();
        }
        r
    } else {
        let mut r = T::lit(f64::INFINITY).step_down().sqrt();
        while (r * r).finite() {
            r = r.step_up();
        }
        r
    }
}

/// Whether a largest squared distance `r2` evaluated in `T` bounds the true
/// squares: finite and at least `2^-918` (f32 `2^-80`), above which none of
/// its terms lost relative accuracy to underflow.
pub(super) fn squares_reliable<T: Real>(r2: T) -> bool {
    let normal = T::zero().step_up() / T::EPSILON;
    r2.finite() && r2 >= normal / (T::EPSILON * T::EPSILON)
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
    let c = t[2] + (b * a.norm_squared() - a * b.norm_squared()).cross(&n) / (2.0 * n2);
    (n2 > 0.0 && c.iter().all(|x| x.is_finite())).then_some(c)
}

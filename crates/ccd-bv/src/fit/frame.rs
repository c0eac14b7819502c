//! Choosing an OBB's orientation (thesis §3.3, degenerate inputs §3.3.5).

use nalgebra::{Matrix3, Vector3};

use super::covariance::{
    eigen_sorted, orthonormal_frame, point_moments, polygon_major_axis, surface_moments, to_f64,
    triangle_moments,
};
use super::hull::{convex_hull, convex_hull_2d_into};
use super::scale::{max_abs, scaled, stats_exponent};
use super::tighter::tighter;
use super::{distinct_vertices, principal_axes};
use crate::{FitFrame, FitMethod, Real};

/// Relative eigenvalue threshold below which the vertex covariance is taken
/// to have lost a dimension (`λ_k ≤ DEGENERATE·λ_max`; spreads in a ratio
/// below 1e-6).
const DEGENERATE: f64 = 1e-12;

/// The axes (columns, orthonormal, right-handed, sorted by descending
/// spread) of the OBB that [`Obb`](crate::Obb)'s fit puts around `faces`.
///
/// - One triangle: axis 0 along its longest edge, axis 2 along its unit
///   normal, axis 1 = axis 2 × axis 0 (the leaf box of RAPID 2.01); a
///   zero-area triangle is treated as a segment, a point as below.
/// - Otherwise the intrinsic dimension of the distinct vertices is read from
///   their covariance eigenvalues (thesis §3.3.5): all equal → identity;
///   collinear → axis 0 along the line; coplanar → the normal is axis 2 and
///   the in-plane axes are the principal axes of the plane's convex polygon
///   (`HullSurface`) or of the triangles (`TriangleSurface`); otherwise the
///   principal axes of the convex-hull surface (`HullSurface`, thesis
///   §3.3.4) or of the triangles (`TriangleSurface`, §3.3.3).
///
/// # Guarantee
/// Finite and orthonormal for any finite input: the statistics are computed
/// on the vertices scaled by a power of two (see [`super`]), which leaves the
/// axes unchanged. The extents are not chosen here.
///
/// # Panics
/// If `faces` is empty or an index is out of range.
pub fn obb_axes<T: Real>(
    vertices: &[[T; 3]],
    faces: &[[u32; 3]],
    method: FitMethod,
) -> Matrix3<f64> {
    let ids = distinct_vertices(faces);
    let k = vertex_exponent(vertices, &ids);
    axes_scaled(vertices, faces, &ids, k, &FitFrame::Method(method))
}

/// The covariance of the vertices `ids` in the units the fits compute their
/// statistics in (the vertices scaled by `2^k`, `k` the exponent
/// [`super::statistics_exponent`] picks for these vertices alone; `k = 0`,
/// the coordinates as they are, while their largest magnitude lies in
/// `[2^-128, 2^128]`): what [`FitFrame::ProjectedHull`] decomposes, and
/// [`FitFrame::Tighter`] for its vertex axes.
///
/// # Panics
/// If an index is out of range.
pub fn vertex_covariance<T: Real>(vertices: &[[T; 3]], ids: &[u32]) -> Matrix3<f64> {
    vertex_covariance_scaled(vertices, ids, vertex_exponent(vertices, ids))
}

/// [`vertex_covariance`] on the vertices scaled by a given `2^k`, e.g. the
/// exponent [`super::statistics_exponent`] picks for the whole vertex array,
/// under which a tree builder computes the statistics of any subset without
/// overflow and without a pass to find each subset's own exponent (the axes
/// are the same wherever neither choice under- or overflows).
///
/// # Panics
/// If an index is out of range.
pub fn vertex_covariance_scaled<T: Real>(vertices: &[[T; 3]], ids: &[u32], k: i32) -> Matrix3<f64> {
    let at = |i: &u32| scaled(&to_f64(&vertices[*i as usize]), k);
    point_moments(ids.iter().map(at), ids.len()).1
}

/// The exponent [`stats_exponent`] picks for the vertices `ids`.
pub(crate) fn vertex_exponent<T: Real>(vertices: &[[T; 3]], ids: &[u32]) -> i32 {
    stats_exponent(max_abs(ids.iter().map(|&i| to_f64(&vertices[i as usize]))))
}

/// The axes `frame` gives `faces`, whose distinct vertices are `ids`,
/// computed on the vertices scaled by `2^k`: [`obb_axes`] for
/// [`FitFrame::Method`], the given axes for [`FitFrame::Axes`], the tighter
/// of the two for [`FitFrame::Tighter`], and for [`FitFrame::ProjectedHull`]
/// [`obb_axes`]'s rules with the planar hull of the coplanar case in place of
/// the 3-D hull.
pub(crate) fn axes_scaled<T: Real>(
    vertices: &[[T; 3]],
    faces: &[[u32; 3]],
    ids: &[u32],
    k: i32,
    frame: &FitFrame,
) -> Matrix3<f64> {
    let method = match frame {
        FitFrame::Axes(axes) => return *axes,
        FitFrame::Tighter { axes, vertex_axes } => {
            return tighter(vertices, ids, k, axes, vertex_axes.as_ref()).0;
        }
        FitFrame::Method(method) => *method,
        FitFrame::ProjectedHull => FitMethod::HullSurface,
    };
    let at = |i: u32| scaled(&to_f64(&vertices[i as usize]), k);
    if let [f] = faces {
        return triangle_frame(f.map(at));
    }
    let mut scratch = SCRATCH.with(|s| s.take());
    let axes = spread_axes(faces, ids, &at, frame, method, &mut scratch);
    // A small fit's buffers are kept for the next; a large one's memory is given back.
    if scratch.pts.capacity() <= KEEP_POINTS {
        SCRATCH.with(|s| s.replace(scratch));
    }
    axes
}

/// The most points whose buffers a thread keeps between fits.
const KEEP_POINTS: usize = 256;

/// Buffers of [`axes_scaled`], kept per thread between the many small fits of a tree build.
#[derive(Default)]
struct Scratch {
    pts: Vec<Vector3<f64>>,
    flat: Vec<[f64; 2]>,
    keys: Vec<(i64, i64, u32)>,
    hull: Vec<u32>,
}

thread_local! {
    static SCRATCH: std::cell::RefCell<Scratch> = std::cell::RefCell::default();
}

/// [`axes_scaled`] for more than one face, by the spread of the vertices `ids` (vertex `i` is `at(i)`).
fn spread_axes(
    faces: &[[u32; 3]],
    ids: &[u32],
    at: &impl Fn(u32) -> Vector3<f64>,
    frame: &FitFrame,
    method: FitMethod,
    scratch: &mut Scratch,
) -> Matrix3<f64> {
    scratch.pts.clear();
    scratch.pts.extend(ids.iter().map(|&i| at(i)));
    let pts = &scratch.pts;
    let (axes, l) = eigen_sorted(&point_moments(pts.iter().copied(), pts.len()).1);
    if l[0] <= 0.0 || pts.iter().all(|p| *p == pts[0]) {
        return Matrix3::identity();
    }
    if l[1] <= DEGENERATE * l[0] {
        return line_frame(&axes.column(0).into());
    }
    let projected = *frame == FitFrame::ProjectedHull;
    if l[2] <= DEGENERATE * l[0] || projected {
        return planar_frame(faces, at, &axes, method, scratch);
    }
    match method {
        FitMethod::TriangleSurface => principal_axes(&triangle_moments(faces, at).1),
        FitMethod::HullSurface => match convex_hull(pts) {
            Some(hull) => {
                let tris = hull.iter().map(|f| f.map(|i| pts[i as usize]));
                surface_moments(tris).map_or(axes, |(_, c, _)| principal_axes(&c))
            }
            None => planar_frame(faces, at, &axes, method, scratch),
        },
    }
}

/// RAPID's leaf frame for one triangle.
fn triangle_frame([p, q, r]: [Vector3<f64>; 3]) -> Matrix3<f64> {
    // The longest edge, the last of equally long ones.
    let mut longest = q - p;
    for e in [r - q, p - r] {
        if e.norm_squared() >= longest.norm_squared() {
            longest = e;
        }
    }
    if longest == Vector3::zeros() {
        return Matrix3::identity();
    }
    let normal = (q - p).cross(&(r - p));
    if normal == Vector3::zeros() {
        return line_frame(&longest);
    }
    frame_with_normal(&longest, &normal)
}

/// The right-handed frame `(x, n × x, n)` with `x` along `dir` and `n` along
/// the part of `normal` orthogonal to it.
fn frame_with_normal(dir: &Vector3<f64>, normal: &Vector3<f64>) -> Matrix3<f64> {
    let f = orthonormal_frame(dir, normal);
    let (x, n) = (f.column(0).into_owned(), f.column(1).into_owned());
    Matrix3::from_columns(&[x, n.cross(&x), n])
}

/// A right-handed frame with axis 0 along `dir`.
fn line_frame(dir: &Vector3<f64>) -> Matrix3<f64> {
    orthonormal_frame(dir, &Vector3::zeros())
}

/// Frame for coplanar vertices `scratch.pts` (vertex `i` of `faces` is
/// `at(i)`) whose vertex-covariance axes are `axes` (axis 2 is the normal);
/// also the projected-hull frame ([`FitFrame::ProjectedHull`]) of vertices
/// that are not quite coplanar, whose projections on the plane of axes 0 and
/// 1 it uses.
fn planar_frame(
    faces: &[[u32; 3]],
    at: &impl Fn(u32) -> Vector3<f64>,
    axes: &Matrix3<f64>,
    method: FitMethod,
    scratch: &mut Scratch,
) -> Matrix3<f64> {
    let normal: Vector3<f64> = axes.column(2).into();
    let major = match method {
        FitMethod::TriangleSurface => surface_moments(faces.iter().map(|f| f.map(at)))
            .map(|m| principal_axes(&m.1).column(0).into_owned()),
        FitMethod::HullSurface => {
            // In-plane coordinates, planar hull, its major axis of area.
            let (u, v) = (axes.column(0).into_owned(), axes.column(1).into_owned());
            let Scratch {
                pts,
                flat,
                keys,
                hull,
            } = scratch;
            flat.clear();
            flat.extend(pts.iter().map(|p| [u.dot(p), v.dot(p)]));
            convex_hull_2d_into(flat, keys, hull);
            polygon_major_axis(flat, hull).map(|[x, y]| u * x + v * y)
        }
    };
    match major {
        // Major in-plane axis, with the normal kept exactly as axis 2.
        Some(major) => frame_with_normal(&(major - normal * normal.dot(&major)), &normal),
        None => *axes,
    }
}

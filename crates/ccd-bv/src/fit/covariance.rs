//! Covariance of point sets and of triangle surfaces (thesis §3.4), in `f64`.

use nalgebra::{Matrix3, SMatrix, Vector3};

pub(crate) use super::eigen::eigen_sorted;
use super::scale::{max_abs, scaled, stats_exponent};
use crate::Real;
use ccd_interval::pow2::ldexp;

/// Mean and (population) covariance of a point set, two-pass (centred).
///
/// # Guarantee
/// `C = (1/n) Σ (p − m)(p − m)ᵀ` up to `f64` round-off. Computed on the
/// points scaled by a power of two (see [`super`]), so the mean is finite
/// for finite input and an entry of `C` is infinite only where its value
/// exceeds the `f64` range (coordinates spread beyond about `2^511`); tiny
/// entries round to subnormals or 0 only where their values do. An empty set
/// gives zeros.
pub fn point_covariance<T: Real>(points: &[[T; 3]]) -> (Vector3<f64>, Matrix3<f64>) {
    let k = stats_exponent(max_abs(points.iter().map(to_f64)));
    let pts = points.iter().map(|p| scaled(&to_f64(p), k));
    let (m, c) = point_moments(pts, points.len());
    (unscaled(m, k), unscaled(c, 2 * k))
}

/// Mean, covariance and total area of the union of the triangles `faces`
/// (indices into `vertices`), with uniform density over their area
/// (Gottschalk 2000, §3.4.3; §3.4.2's printed covariance E[x_i − E x_i]·E[x_j − E x_j] is read as E[(x_i − E x_i)(x_j − E x_j)]).
///
/// Each triangle `p, q, r` with area `A` and centroid `m` contributes the
/// second moment `(A/12)(9 m mᵀ + p pᵀ + q qᵀ + r rᵀ)`; the sum is divided by
/// the total area. Two passes: the area-weighted mean first, then the moments
/// of the centred vertices, so no `m mᵀ` term is subtracted.
///
/// # Guarantee
/// Exact closed form up to `f64` round-off, invariant under re-tessellation.
/// Zero-area triangles carry no weight. When the total area is 0 (every
/// triangle degenerate) the result is the covariance of the triangles'
/// vertices (each index once) and the returned area is 0; never NaN for
/// finite input. Computed on vertices scaled by a power of two (see
/// [`super`]): the mean is finite for finite input; the covariance and the
/// area are infinite only where their values exceed the `f64` range
/// (coordinates spread beyond about `2^511`), and [`principal_axes`] then
/// gives the identity.
///
/// # Panics
/// If an index is out of range.
pub fn triangle_covariance<T: Real>(
    vertices: &[[T; 3]],
    faces: &[[u32; 3]],
) -> (Vector3<f64>, Matrix3<f64>, f64) {
    let at = |i: u32| to_f64(&vertices[i as usize]);
    let k = stats_exponent(max_abs(faces.iter().flatten().map(|&i| at(i))));
    let (m, c, a) = triangle_moments(faces, |i| scaled(&at(i), k));
    (unscaled(m, k), unscaled(c, 2 * k), ldexp(a, -2 * k))
}

/// Mean, covariance and area of the triangles `faces` whose vertex `i` is
/// `at(i)`, as [`triangle_covariance`] defines them, in the units of `at`.
pub(crate) fn triangle_moments(
    faces: &[[u32; 3]],
    at: impl Fn(u32) -> Vector3<f64>,
) -> (Vector3<f64>, Matrix3<f64>, f64) {
    surface_moments(faces.iter().map(|f| f.map(&at))).unwrap_or_else(|| {
        let ids = super::distinct_vertices(faces);
        let (m, c) = point_moments(ids.iter().map(|&i| at(i)), ids.len());
        (m, c, 0.0)
    })
}

/// Entries of `m` times `2^-k` (statistics back from scaled units).
fn unscaled<const R: usize, const C: usize>(m: SMatrix<f64, R, C>, k: i32) -> SMatrix<f64, R, C> {
    m.map(|x| ldexp(x, -k))
}

/// The eigenvectors of a symmetric 3×3 matrix as the columns of a rotation,
/// sorted by **descending** eigenvalue (column 0 is the direction of largest
/// spread: the split axis).
///
/// # Guarantee
/// The result is orthonormal and right-handed (`col2 = col0 × col1`) to
/// `f64` round-off. Repeated eigenvalues give an arbitrary orthonormal basis
/// of their eigenspace; a non-finite input gives the identity.
pub fn principal_axes(cov: &Matrix3<f64>) -> Matrix3<f64> {
    eigen_sorted(cov).0
}

/// [`principal_axes`] of each matrix of `covs` with its eigenvalues (descending; the Rayleigh quotients of the
/// returned columns), appended to `out` in order.
///
/// # Guarantee
/// Bit for bit what [`principal_axes`] returns for each matrix, computed eight at a time where the processor has
/// AVX (about a quarter of the time per matrix), one at a time elsewhere.
pub fn principal_axes_many(covs: &[Matrix3<f64>], out: &mut Vec<(Matrix3<f64>, [f64; 3])>) {
    super::eigen_lanes::eigen_sorted_many(covs, out);
}

/// A right-handed orthonormal frame whose first column is `u` (normalised)
/// and whose second lies in the plane of `u` and `v` (Gram–Schmidt, applied
/// twice: one pass leaves the second column off orthogonal by about
/// `ε / sin∠(u, v)`, e.g. 2e-12 for the normal of a sliver triangle, which a
/// box 1e13 long turns into a separating-axis error of tens of units; the
/// second pass brings it to round-off). When `v` is (nearly) parallel to `u`,
/// any unit vector orthogonal to `u` is used; when `u` is zero, the
/// identity.
pub(crate) fn orthonormal_frame(u: &Vector3<f64>, v: &Vector3<f64>) -> Matrix3<f64> {
    let n = u.norm();
    if !(n > 0.0 && n.is_finite()) {
        return Matrix3::identity();
    }
    // Scaled by the reciprocal (one division instead of three; a rounding more, which the second
    // Gram–Schmidt pass and the fits' exact extents absorb).
    let x = u * (1.0 / n);
    let w = v - x * x.dot(v);
    let w = w - x * x.dot(&w);
    let wn = w.norm();
    let y = if wn > 1e-9 * v.norm() && wn.is_finite() {
        w * (1.0 / wn)
    } else {
        any_orthogonal(&x)
    };
    Matrix3::from_columns(&[x, y, x.cross(&y)])
}

/// A unit vector orthogonal to the unit vector `x`.
pub(crate) fn any_orthogonal(x: &Vector3<f64>) -> Vector3<f64> {
    // Cross with the coordinate axis least aligned with x.
    let k = x.iamin();
    let w = x.cross(&Vector3::ith(k, 1.0));
    w / w.norm()
}

/// Widens a vertex to `f64` (exact).
pub(crate) fn to_f64<T: Real>(p: &[T; 3]) -> Vector3<f64> {
    Vector3::new(
        p[0].to_f64_exact(),
        p[1].to_f64_exact(),
        p[2].to_f64_exact(),
    )
}

/// Two-pass mean and covariance of `n` points yielded by a cloneable
/// iterator.
pub(crate) fn point_moments<I>(points: I, n: usize) -> (Vector3<f64>, Matrix3<f64>)
where
    I: Iterator<Item = Vector3<f64>> + Clone,
{
    if n == 0 {
        return (Vector3::zeros(), Matrix3::zeros());
    }
    let inv = 1.0 / n as f64;
    let mean = points.clone().fold(Vector3::zeros(), |s, p| s + p) * inv;
    let mut c = Matrix3::zeros();
    for p in points {
        let d = p - mean;
        c += d * d.transpose();
    }
    (mean, c * inv)
}

/// The unit direction of largest spread of the area of the convex polygon
/// `poly` (indices into `points`, in order), `(cos φ, sin φ)` with
/// `tan 2φ = 2c_xy / (c_xx − c_yy)` for its area covariance `c` (the 2-D
/// case of [`principal_axes`], in closed form; `(1, 0)` when the spread is
/// the same in every direction); `None` for a polygon of zero area.
///
/// Two passes over the fan from `poly[0]`, as [`surface_moments`]: the
/// area-weighted centroid, then the second moments `(A/12)(9 m mᵀ + Σ p pᵀ)`
/// of the centred triangles.
pub(crate) fn polygon_major_axis(points: &[[f64; 2]], poly: &[u32]) -> Option<[f64; 2]> {
    let at = |k: usize| points[poly[k] as usize];
    let fan = || {
        (1..poly.len().saturating_sub(1)).map(move |k| {
            let [p, q, r] = [at(0), at(k), at(k + 1)];
            let area = 0.5 * ((q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])).abs();
            (p, q, r, area)
        })
    };
    let (mut area, mut first) = (0.0, [0.0; 2]);
    for (p, q, r, a) in fan() {
        area += a;
        for i in 0..2 {
            first[i] += (p[i] + q[i] + r[i]) * (a / 3.0);
        }
    }
    if !(area > 0.0 && area.is_finite()) {
        return None;
    }
    let mean = first.map(|x| x / area);
    let (mut xx, mut yy, mut xy) = (0.0, 0.0, 0.0);
    for (p, q, r, a) in fan() {
        let c = |x: [f64; 2]| [x[0] - mean[0], x[1] - mean[1]];
        let (p, q, r) = (c(p), c(q), c(r));
        let m = [(p[0] + q[0] + r[0]) / 3.0, (p[1] + q[1] + r[1]) / 3.0];
        let w = a / 12.0;
        xx += w * (9.0 * m[0] * m[0] + p[0] * p[0] + q[0] * q[0] + r[0] * r[0]);
        yy += w * (9.0 * m[1] * m[1] + p[1] * p[1] + q[1] * q[1] + r[1] * r[1]);
        xy += w * (9.0 * m[0] * m[1] + p[0] * p[1] + q[0] * q[1] + r[0] * r[1]);
    }
    Some(major_direction(xx - yy, xy))
}

/// The unit major eigenvector `(cos φ, sin φ)`, `tan 2φ = 2b / d`, of the symmetric 2×2 matrix with diagonal
/// difference `d = a − c` and off-diagonal `b`, without trigonometry: with `r = √(d² + 4b²)`, the vector
/// `(r + d, 2b)` (for `d ≥ 0`) or `(2|b|, ±(r − d))` with the sign of `b` (otherwise) normalised, whose sums
/// add terms of one sign so nothing cancels, and whose sign is that of the angle `φ = ½·atan2(2b, d)` in
/// `(−π/2, π/2]`; `(1, 0)` when `d = b = 0` (every direction is major). `d` and `b` are second moments on
/// coordinates scaled into `[2^-128, 2^128]` ([`super::scale`]), so `d² + 4b²` neither overflows nor, unless
/// both are negligible against the polygon's spread, underflows.
fn major_direction(d: f64, b: f64) -> [f64; 2] {
    let r = (d * d + 4.0 * b * b).sqrt();
    let v = if d >= 0.0 {
        [r + d, 2.0 * b]
    } else {
        [2.0 * b.abs(), (r - d).copysign(b)]
    };
    let n = (v[0] * v[0] + v[1] * v[1]).sqrt();
    if n > 0.0 && n.is_finite() {
        [v[0] / n, v[1] / n]
    } else {
        [1.0, 0.0]
    }
}

/// Two-pass area-weighted mean, covariance and area of triangles yielded by
/// a cloneable iterator; `None` when the total area is 0.
pub(crate) fn surface_moments<I>(tris: I) -> Option<(Vector3<f64>, Matrix3<f64>, f64)>
where
    I: Iterator<Item = [Vector3<f64>; 3]> + Clone,
{
    let mut area = 0.0;
    let mut first = Vector3::zeros();
    for [p, q, r] in tris.clone() {
        let a = 0.5 * (q - p).cross(&(r - p)).norm();
        area += a;
        first += (p + q + r) * (a / 3.0);
    }
    if !(area > 0.0 && area.is_finite()) {
        return None;
    }
    let mean = first / area;
    let mut second = Matrix3::zeros();
    for [p, q, r] in tris {
        let (p, q, r) = (p - mean, q - mean, r - mean);
        let a = 0.5 * (q - p).cross(&(r - p)).norm();
        let m = (p + q + r) / 3.0;
        second +=
            (m * m.transpose() * 9.0 + p * p.transpose() + q * q.transpose() + r * r.transpose())
                * (a / 12.0);
    }
    Some((mean, second / area, area))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fit::hull::convex_hull_2d_into;
    use proptest::prelude::*;

    proptest! {
        /// Orthonormal to round-off however close to parallel `v` is to `u` (above the fallback's 1e-9): one
        /// Gram–Schmidt pass leaves an error of about ε / sin∠(u, v).
        #[test]
        fn orthonormal_frame_is_orthonormal_for_nearly_parallel_vectors(
            u in prop::array::uniform3(-1e3f64..1e3),
            d in prop::array::uniform3(-1.0f64..1.0),
            angle in 1e-8f64..1e-2,
        ) {
            let u = Vector3::from(u);
            prop_assume!(u.norm() > 1e-3);
            let v = u + Vector3::from(d) * (angle * u.norm());
            let f = orthonormal_frame(&u, &v);
            let defect = (f.transpose() * f - Matrix3::identity()).amax();
            prop_assert!(defect <= 4.0 * f64::EPSILON, "defect {defect:e}");
            prop_assert!((f.determinant() - 1.0).abs() <= 4.0 * f64::EPSILON);
        }

        /// The trigonometry-free direction is `(cos φ, sin φ)` for `φ = ½·atan2(2b, d)`, signs included.
        #[test]
        fn major_direction_is_the_half_angle(
            d in prop_oneof![Just(0.0), Just(-0.0), -1e3f64..1e3],
            b in prop_oneof![Just(0.0), Just(-0.0), -1e3f64..1e3],
        ) {
            let [x, y] = major_direction(d, b);
            let phi = 0.5 * (2.0 * b).atan2(d);
            let want = if d == 0.0 && b == 0.0 { [1.0, 0.0] } else { [phi.cos(), phi.sin()] };
            prop_assert!((x - want[0]).abs() <= 1e-15 && (y - want[1]).abs() <= 1e-15, "{d} {b}: {x} {y} vs {want:?}");
        }

        /// The closed form is the 3-D solver's major axis of the same polygon lying in the plane z = 0,
        /// wherever that axis is well defined (the two spreads differ by more than 1e-6 of the larger).
        #[test]
        fn polygon_major_axis_is_the_surface_major_axis(
            pts in prop::collection::vec(prop::array::uniform2(-10.0f64..10.0), 3..40),
            stretch in 0.05f64..20.0,
        ) {
            let pts: Vec<[f64; 2]> = pts.iter().map(|p| [p[0] * stretch, p[1]]).collect();
            let mut poly = Vec::new();
            convex_hull_2d_into(&pts, &mut Vec::new(), &mut poly);
            let lift = |k: usize| Vector3::new(pts[poly[k] as usize][0], pts[poly[k] as usize][1], 0.0);
            let fan = (1..poly.len().saturating_sub(1)).map(|k| [lift(0), lift(k), lift(k + 1)]);
            match (polygon_major_axis(&pts, &poly), surface_moments(fan)) {
                (None, None) => {}
                (Some([x, y]), Some((_, c, _))) => {
                    let (axes, l) = eigen_sorted(&c);
                    prop_assume!(l[0] - l[1] > 1e-6 * l[0]);
                    let dot = (axes[(0, 0)] * x + axes[(1, 0)] * y).abs();
                    prop_assert!(dot > 1.0 - 1e-9, "dot {dot}");
                }
                (ours, theirs) => prop_assert!(false, "{ours:?} vs {}", theirs.is_some()),
            }
        }
    }
}

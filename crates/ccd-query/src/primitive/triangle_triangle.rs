//! Exact overlap test for two closed triangles in 3-D, degenerate triangles included.
//!
//! Every decision is the sign of an orientation determinant evaluated exactly by Shewchuk's adaptive predicates
//! (`robust::orient3d`, `robust::orient2d`), or an exact comparison of two coordinates. No intersection point or
//! length is ever computed and there is no tolerance to tune; the one rounded quantity, a triangle's normal, only
//! feeds a filter whose error is bounded and which defers to the exact predicate when in doubt.
//!
//! # Method
//! Write `[a, b, c, d]` for the sign of det(b − a, c − a, d − a), positive when `d` lies on the side of the plane
//! `abc` that (b − a) × (c − a) points to. It is alternating in its four arguments and affine in each.
//!
//! 1. *Plane rejection.* If the three vertices of B lie strictly on one side of A's plane, or vice versa, the
//!    triangles are disjoint (6 predicates; the common case in a traversal). Each triangle's normal is computed
//!    once and shared by its three tests, a filter with a rigorous rounding-error bound settles clear-cut signs in a
//!    few flops, and `robust::orient3d` decides the rest exactly (see `Plane`).
//! 2. *Transversal case* (both planes proper, each triangle has a vertex alone on its closed side of the other's
//!    plane). The planes then meet in a line L and each triangle meets L in a segment. Rotate A so that p₁ is that
//!    lone vertex and swap B's last two vertices if needed so that p₁ is strictly above B's plane; do the same for
//!    B's lone vertex q₁ against A. A ∩ L = [J, I] with I on p₁p₂ and J on p₁p₃, B ∩ L = [K, M] with K on q₁q₂
//!    and M on q₁q₃, both listed in the order of d = n_A × n_B. Substituting I for p₂ and K for q₂ (affinity,
//!    positive factors) gives sign [p₁, p₂, q₁, q₂] = sign((K − I)·d), because det(I − p₁, q₁ − K, d) =
//!    s_A(p₁)·s_B(q₁) > 0 by the Binet–Cauchy identity; likewise for the other pair. So the triangles meet iff
//!    K ≤ I and J ≤ M along d, i.e. iff `[p₁, p₂, q₁, q₂] ≤ 0` and `[p₁, p₃, q₁, q₃] ≥ 0` (2 more predicates).
//!    This is the interval-overlap idea of Devillers and Guigue (2002), re-derived here for closed triangles.
//! 3. *Everything else* (coplanar triangles, a degenerate triangle, a triangle touching the other's plane in a
//!    single vertex). Two compact convex sets meet iff an edge of one meets the other (an extreme point of the
//!    intersection lies on the relative boundary of one of them), and a degenerate triangle is the union of its
//!    edges. Each closed segment is tested against the closed triangle: by the plane signs of its endpoints, then
//!    by the three signs [p, q, tᵢ, tᵢ₊₁] (the line pq meets the triangle iff no two are strictly opposite); in
//!    the triangle's plane, in 2-D. Coplanar proper triangles go straight to a 2-D triangle test.
//!
//! 2-D tests run in a coordinate projection: for a proper triangle the one in which its projected orientation is
//! non-zero (that projection is injective on its plane, so no axis is ever picked from an inexact normal); for two
//! segments, all three projections (if they are coplanar, some projection is injective on a plane holding both,
//! and an intersection projects to an intersection, so "meet in all three" is exact).

use robust::{Coord, Coord3D, orient2d, orient3d};

type Point = [f64; 3];
type Triangle = [Point; 3];

/// Whether two closed triangles in 3-D share at least one point.
///
/// Triangles are given by their corners in a common frame. A triangle whose corners are collinear (or coincide) is
/// the segment (or point) they span, and is tested as such.
///
/// # Guarantee
/// **Exact for the given coordinates**: the answer is the one exact real arithmetic gives for the `f64` values as
/// stored, never a rounded one. It rests only on the signs of `robust::orient3d` / `robust::orient2d` (some first
/// settled by a floating-point filter with a proven error bound), and on coordinate comparisons, which are exact as
/// long as no intermediate product overflows or underflows (Shewchuk's assumption), for instance when every
/// coordinate is zero or of magnitude between 1e-50 and 1e50.
///
/// # Behavior
/// Closed sets: touching counts as intersecting: a shared vertex, a vertex on the other triangle's edge or face,
/// edges crossing, coplanar overlap of any area (or none: coplanar triangles sharing only a boundary point
/// intersect). Degenerate triangles (repeated or collinear corners) are handled exactly as segments or points.
/// The result is symmetric in `a` and `b` and independent of the order of each triangle's corners.
/// Non-finite coordinates give an unspecified answer; the function never panics and never allocates.
///
/// # Cost
/// Triangles separated by a plane: 3 or 6 plane-side signs sharing one normal per triangle, a few flops each unless
/// a point is nearly on the plane. Crossing planes: 2 more `orient3d`. Coplanar, degenerate and single-vertex
/// touching inputs take a slower exhaustive path (tens of predicates).
///
/// # Example
/// ```
/// use ccd_query::primitive::triangles_intersect;
/// let a = [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]];
/// let touching = [[1.0, 0.0, 0.0], [1.0, 0.0, 1.0], [2.0, 1.0, 1.0]]; // shares a's corner (1, 0, 0)
/// let above = [[0.0, 0.0, 1e-40], [1.0, 0.0, 1e-40], [0.0, 1.0, 1e-40]];
/// assert!(triangles_intersect(&a, &touching));
/// assert!(!triangles_intersect(&a, &above));
/// ```
///
/// # Reference
/// J. R. Shewchuk, *Adaptive precision floating-point arithmetic and fast robust geometric predicates* (1997);
/// O. Devillers, P. Guigue, *Faster triangle-triangle intersection tests* (INRIA RR-4488, 2002). DESIGN.md §7 and
/// Gottschalk 2000, §5.3.1: touching counts as contact.
#[inline]
pub fn triangles_intersect(a: &Triangle, b: &Triangle) -> bool {
    // 1. Plane rejection.
    let sb = Plane::new(a).sides(b);
    if sb[0] != 0 && sb[0] == sb[1] && sb[0] == sb[2] {
        return false;
    }
    let sa = Plane::new(b).sides(a);
    if sa[0] != 0 && sa[0] == sa[1] && sa[0] == sa[2] {
        return false;
    }

    // 2. Transversal case.
    if let (Some((i, side_a)), Some((j, side_b))) = (lone_vertex(sa), lone_vertex(sb)) {
        let p1 = &a[i];
        let (mut p2, mut p3) = (&a[(i + 1) % 3], &a[(i + 2) % 3]);
        let q1 = &b[j];
        let (mut q2, mut q3) = (&b[(j + 1) % 3], &b[(j + 2) % 3]);
        if side_a < 0 {
            // Reverse B's normal so that p₁ is strictly above B's plane.
            std::mem::swap(&mut q2, &mut q3);
        }
        if side_b < 0 {
            std::mem::swap(&mut p2, &mut p3);
        }
        return orient(p1, p2, q1, q2) <= 0 && orient(p1, p3, q1, q3) >= 0;
    }

    // 3. Coplanar, degenerate, or touching the other plane in a single vertex.
    exhaustive(a, b, sb)
}

/// The slow, complete path: some edge of one triangle meets the other (closed) triangle.
///
/// `sb` holds the signs of B's vertices against A's plane.
#[cold]
fn exhaustive(a: &Triangle, b: &Triangle, sb: [i8; 3]) -> bool {
    match (projection_axis(a), projection_axis(b)) {
        (Some(ka), Some(_)) if sb == [0, 0, 0] => {
            // Coplanar proper triangles: projection `ka` is injective on the common plane.
            let (pa, pb) = (project_triangle(a, ka), project_triangle(b, ka));
            triangles_intersect_2d(&pa, &pb)
        }
        (Some(ka), Some(kb)) => {
            edges_meet_triangle(a, b, Some(kb)) || edges_meet_triangle(b, a, Some(ka))
        }
        // A degenerate triangle is the union of its edges, so its edges alone decide.
        (None, kb) => edges_meet_triangle(a, b, kb),
        (Some(ka), None) => edges_meet_triangle(b, a, Some(ka)),
    }
}

/// Whether some edge of `s` meets the closed triangle `t`; `t_axis` is [`projection_axis`]`(t)`.
fn edges_meet_triangle(s: &Triangle, t: &Triangle, t_axis: Option<usize>) -> bool {
    (0..3).any(|k| segment_meets_triangle(&s[k], &s[(k + 1) % 3], t, t_axis))
}

/// Whether the closed segment pq (possibly a point) meets the closed triangle `t` (possibly degenerate).
///
/// `axis` is [`projection_axis`]`(t)`: `Some` for a proper triangle, `None` for a degenerate one.
fn segment_meets_triangle(p: &Point, q: &Point, t: &Triangle, axis: Option<usize>) -> bool {
    let Some(k) = axis else {
        let [t0, t1, t2] = t;
        return segments_meet(p, q, t0, t1)
            || segments_meet(p, q, t1, t2)
            || segments_meet(p, q, t2, t0);
    };
    let [t0, t1, t2] = t;
    let sp = orient(t0, t1, t2, p);
    let sq = orient(t0, t1, t2, q);
    if sp * sq > 0 {
        return false;
    }
    if sp == 0 && sq == 0 {
        return segment_meets_triangle_2d(project(p, k), project(q, k), &project_triangle(t, k));
    }
    // The line pq crosses the plane in exactly one point, which lies on the segment; the line meets the closed
    // triangle iff it passes no two edges on strictly opposite sides.
    no_strictly_opposite([
        orient(p, q, t0, t1),
        orient(p, q, t1, t2),
        orient(p, q, t2, t0),
    ])
}

/// Whether the closed segments pq and rs (either possibly a point) share a point in 3-D.
fn segments_meet(p: &Point, q: &Point, r: &Point, s: &Point) -> bool {
    orient(p, q, r, s) == 0
        && (0..3)
            .all(|k| segments_meet_2d(project(p, k), project(q, k), project(r, k), project(s, k)))
}

/// Index of a coordinate projection in which `t` keeps a non-zero orientation, `None` when `t` is degenerate.
///
/// The projected orientations are the components of (t₁ − t₀) × (t₂ − t₀), so all three vanish exactly when the
/// corners are collinear, and a non-zero one means the projection is injective on the triangle's plane.
fn projection_axis(t: &Triangle) -> Option<usize> {
    (0..3).find(|&k| orient_2d(project(&t[0], k), project(&t[1], k), project(&t[2], k)) != 0)
}

// --- 2-D tests in a coordinate projection ---------------------------------------------------------------------

type Point2 = Coord<f64>;

/// Whether two coplanar proper triangles (non-zero projected orientation) share a point.
fn triangles_intersect_2d(a: &[Point2; 3], b: &[Point2; 3]) -> bool {
    // If no edges meet, the boundaries are disjoint, so the triangles are disjoint or one contains the other.
    (0..3).any(|i| (0..3).any(|j| segments_meet_2d(a[i], a[(i + 1) % 3], b[j], b[(j + 1) % 3])))
        || point_in_triangle_2d(a[0], b)
        || point_in_triangle_2d(b[0], a)
}

/// Whether the closed segment pq (possibly a point) meets the closed proper triangle `t`.
fn segment_meets_triangle_2d(p: Point2, q: Point2, t: &[Point2; 3]) -> bool {
    point_in_triangle_2d(p, t)
        || point_in_triangle_2d(q, t)
        || (0..3).any(|k| segments_meet_2d(p, q, t[k], t[(k + 1) % 3]))
}

/// Whether `x` lies in the closed proper triangle `t`.
///
/// The three edge orientations sum to the triangle's (non-zero) orientation, so "no two strictly opposite" is
/// "all on the inner side or on an edge".
fn point_in_triangle_2d(x: Point2, t: &[Point2; 3]) -> bool {
    no_strictly_opposite([
        orient_2d(t[0], t[1], x),
        orient_2d(t[1], t[2], x),
        orient_2d(t[2], t[0], x),
    ])
}

/// Whether the closed segments pq and rs (either possibly a point) share a point in the plane.
fn segments_meet_2d(p: Point2, q: Point2, r: Point2, s: Point2) -> bool {
    let o1 = orient_2d(p, q, r);
    let o2 = orient_2d(p, q, s);
    let o3 = orient_2d(r, s, p);
    let o4 = orient_2d(r, s, q);
    // Proper crossing, or an endpoint of one lying on the other (this covers collinear overlap and points).
    (o1 * o2 < 0 && o3 * o4 < 0)
        || (o1 == 0 && in_box(p, q, r))
        || (o2 == 0 && in_box(p, q, s))
        || (o3 == 0 && in_box(r, s, p))
        || (o4 == 0 && in_box(r, s, q))
}

/// For `x` collinear with pq: whether `x` lies on the closed segment pq (exact coordinate comparisons).
#[inline]
fn in_box(p: Point2, q: Point2, x: Point2) -> bool {
    p.x.min(q.x) <= x.x && x.x <= p.x.max(q.x) && p.y.min(q.y) <= x.y && x.y <= p.y.max(q.y)
}

// --- predicates --------------------------------------------------------------------------------------------------

/// A triangle's plane, set up to give the exact side of several points cheaply.
///
/// `side(p)` is the sign of det(t₁ − t₀, t₂ − t₀, p − t₀), evaluated as (p − t₀)·n with n = (t₁ − t₀) × (t₂ − t₀)
/// shared by all points, and trusted only when it exceeds a rigorous bound on its rounding error; otherwise
/// (near-coplanar points, possible underflow, non-finite values) `robust::orient3d` decides exactly.
///
/// Error bound (unit roundoff u = 2⁻⁵³): rounding the three differences perturbs each of the six terms of the
/// determinant by a factor within (1 ± u)³, and the products, differences and sums of the evaluation by at most five
/// more factors (1 ± u), so |computed − exact| ≤ (8u + O(u²))·P, with P = Σ|terms| computed in floating point (P
/// itself within (1 ± u)⁵). We trust the filter only beyond 16u·P, twice that bound, and only when P > 1e-250,
/// where underflow (absolute error below 1e-320 per operation) cannot matter; `inf`/NaN fail the comparison.
struct Plane<'a> {
    t: &'a Triangle,
    /// n = (t₁ − t₀) × (t₂ − t₀), rounded.
    n: [f64; 3],
    /// |terms| of each component of n: |u_y v_z| + |u_z v_y| and cyclic.
    m: [f64; 3],
}

/// 16u with u = 2⁻⁵³ the unit roundoff (`f64::EPSILON` is 2u).
const PLANE_ERRBOUND: f64 = 8.0 * f64::EPSILON;
/// Below this permanent the filter defers to the exact predicate (underflow guard).
const PLANE_MIN_PERMANENT: f64 = 1e-250;

impl<'a> Plane<'a> {
    #[inline(always)]
    fn new(t: &'a Triangle) -> Self {
        let [t0, t1, t2] = t;
        let u = [t1[0] - t0[0], t1[1] - t0[1], t1[2] - t0[2]];
        let v = [t2[0] - t0[0], t2[1] - t0[1], t2[2] - t0[2]];
        let (yz, zy) = (u[1] * v[2], u[2] * v[1]);
        let (zx, xz) = (u[2] * v[0], u[0] * v[2]);
        let (xy, yx) = (u[0] * v[1], u[1] * v[0]);
        Self {
            t,
            n: [yz - zy, zx - xz, xy - yx],
            m: [
                yz.abs() + zy.abs(),
                zx.abs() + xz.abs(),
                xy.abs() + yx.abs(),
            ],
        }
    }

    /// Exact sign of det(t₁ − t₀, t₂ − t₀, p − t₀).
    #[inline(always)]
    fn side(&self, p: &Point) -> i8 {
        let t0 = &self.t[0];
        let w = [p[0] - t0[0], p[1] - t0[1], p[2] - t0[2]];
        let d = w[0] * self.n[0] + w[1] * self.n[1] + w[2] * self.n[2];
        let permanent = w[0].abs() * self.m[0] + w[1].abs() * self.m[1] + w[2].abs() * self.m[2];
        let bound = PLANE_ERRBOUND * permanent;
        if permanent > PLANE_MIN_PERMANENT {
            if d > bound {
                return 1;
            }
            if -d > bound {
                return -1;
            }
        }
        orient(&self.t[0], &self.t[1], &self.t[2], p)
    }

    /// [`side`](Self::side) of each corner of `t`.
    #[inline(always)]
    fn sides(&self, t: &Triangle) -> [i8; 3] {
        [self.side(&t[0]), self.side(&t[1]), self.side(&t[2])]
    }
}

/// Sign of det(b − a, c − a, d − a): +1 when `d` is on the side of plane abc that (b − a) × (c − a) points to.
#[inline(always)]
fn orient(a: &Point, b: &Point, c: &Point, d: &Point) -> i8 {
    // robust::orient3d(a, b, c, d) = det(a − d, b − d, c − d) = −det(b − a, c − a, d − a).
    -sign(orient3d(coord3(a), coord3(b), coord3(c), coord3(d)))
}

/// Sign of the 2-D orientation of (a, b, c): +1 counter-clockwise, −1 clockwise, 0 collinear.
#[inline(always)]
fn orient_2d(a: Point2, b: Point2, c: Point2) -> i8 {
    sign(orient2d(a, b, c))
}

/// −1, 0 or +1; NaN maps to 0 (only reachable with non-finite input).
#[inline(always)]
fn sign(x: f64) -> i8 {
    i8::from(x > 0.0) - i8::from(x < 0.0)
}

#[inline(always)]
fn coord3(p: &Point) -> Coord3D<f64> {
    Coord3D {
        x: p[0],
        y: p[1],
        z: p[2],
    }
}

/// The projection dropping coordinate `k` (0: onto yz, 1: onto zx, 2: onto xy).
#[inline]
fn project(p: &Point, k: usize) -> Point2 {
    Coord {
        x: p[(k + 1) % 3],
        y: p[(k + 2) % 3],
    }
}

fn project_triangle(t: &Triangle, k: usize) -> [Point2; 3] {
    [project(&t[0], k), project(&t[1], k), project(&t[2], k)]
}

/// The vertex alone on its closed side of the other triangle's plane, with its (non-zero) side: index i with
/// `s[i] ≠ 0` and both other signs in {0, −s[i]}. `None` if there is none (all zero, or one zero and two equal).
#[inline]
fn lone_vertex(s: [i8; 3]) -> Option<(usize, i8)> {
    (0..3)
        .find(|&i| s[i] != 0 && s[(i + 1) % 3] != s[i] && s[(i + 2) % 3] != s[i])
        .map(|i| (i, s[i]))
}

#[inline]
fn no_strictly_opposite(s: [i8; 3]) -> bool {
    !(s.contains(&1) && s.contains(&-1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lone_vertex_cases() {
        assert_eq!(lone_vertex([1, -1, -1]), Some((0, 1)));
        assert_eq!(lone_vertex([1, 1, -1]), Some((2, -1)));
        assert_eq!(lone_vertex([0, 0, -1]), Some((2, -1)));
        assert_eq!(lone_vertex([0, 1, -1]), Some((1, 1)));
        assert_eq!(lone_vertex([0, 1, 1]), None);
        assert_eq!(lone_vertex([0, 0, 0]), None);
    }

    #[test]
    fn plane_filter_agrees_with_exact_predicate() {
        // Points on or within a few ulps of a triangle's plane (computed in f64, so the filter is often undecided),
        // and points far off it, at several scales and offsets.
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 11) as f64 / (1u64 << 53) as f64 - 0.5
        };
        let mut undecided = 0;
        for i in 0..20_000 {
            let scale = [1e-40, 1e-3, 1.0, 1e4, 1e40][i % 5];
            let offset = [0.0, 1.0, 1e6][i % 3] * scale;
            let r: [f64; 14] = std::array::from_fn(|_| next());
            let pt = |k: usize| {
                [
                    offset + scale * r[k],
                    offset + scale * r[k + 1],
                    offset + scale * r[k + 2],
                ]
            };
            let t = [pt(0), pt(3), pt(6)];
            let mut p: Point = std::array::from_fn(|k| {
                t[0][k] + r[12] * (t[1][k] - t[0][k]) + r[13] * (t[2][k] - t[0][k])
            });
            if i % 4 == 0 {
                p[i % 3] = f64::from_bits(p[i % 3].to_bits().wrapping_add(1));
            } else if i % 4 == 1 {
                p = pt(9);
            }
            let plane = Plane::new(&t);
            assert_eq!(
                plane.side(&p),
                orient(&t[0], &t[1], &t[2], &p),
                "t={t:?} p={p:?}"
            );
            let w: Point = std::array::from_fn(|k| p[k] - t[0][k]);
            let d: f64 = (0..3).map(|k| w[k] * plane.n[k]).sum();
            let perm: f64 = (0..3).map(|k| w[k].abs() * plane.m[k]).sum();
            undecided += usize::from(d.abs() <= PLANE_ERRBOUND * perm);
        }
        // The test must reach both the filter and the exact fallback.
        assert!(
            undecided > 1000 && undecided < 15_000,
            "undecided {undecided}"
        );
    }

    #[test]
    fn segments_meet_2d_t_junctions() {
        let c = |x: f64, y: f64| Coord { x, y };
        let (p, q) = (c(0.0, 0.0), c(2.0, 0.0));
        let (r, s) = (c(1.0, 0.0), c(1.0, 1.0));
        // The touching endpoint in each of the four argument slots.
        assert!(segments_meet_2d(p, q, r, s));
        assert!(segments_meet_2d(p, q, s, r));
        assert!(segments_meet_2d(r, s, p, q));
        assert!(segments_meet_2d(s, r, p, q));
        assert!(!segments_meet_2d(p, q, c(1.0, 0.5), s));
        // Collinear: overlapping, touching at one point, apart; and points.
        assert!(segments_meet_2d(p, q, c(1.0, 0.0), c(3.0, 0.0)));
        assert!(segments_meet_2d(p, q, c(2.0, 0.0), c(3.0, 0.0)));
        assert!(!segments_meet_2d(p, q, c(2.5, 0.0), c(3.0, 0.0)));
        assert!(segments_meet_2d(p, q, r, r));
        assert!(!segments_meet_2d(p, q, s, s));
        assert!(segments_meet_2d(r, r, r, r));
    }

    #[test]
    fn orient_sign_convention() {
        let o = [0.0, 0.0, 0.0];
        let (x, y, z) = ([1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]);
        assert_eq!(orient(&o, &x, &y, &z), 1);
        assert_eq!(orient(&o, &y, &x, &z), -1);
        assert_eq!(orient(&o, &x, &y, &[5.0, 5.0, 0.0]), 0);
        assert_eq!(sign(f64::NAN), 0);
    }
}

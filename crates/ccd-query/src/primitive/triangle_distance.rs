//! Distance between two closed triangles in 3-D, with closest points.
//!
//! # Method
//! Whether the triangles meet is decided exactly by [`triangles_intersect`]. If they do not, a closest pair has a
//! corner of one triangle as one of its points, or lies on two edges (Ericson §5.1.9): were one point interior to a
//! face and the other interior to an edge or face, that edge or face would be parallel to the face (else the
//! distance would drop along it), and the pair could slide at constant distance to a corner or an edge. So the
//! distance is the least of the 6 corner–triangle and 9 edge–edge distances, degenerate triangles included (their
//! corner–triangle queries fall back to edges).
//!
//! If they meet, the distance is 0 and a common point is wanted. Two compact convex sets that meet have a common
//! point on an edge of one of them, and an edge either crosses the other triangle's plane there or meets one of
//! its edges or contains one of its corners. So the 15 pairs above plus, for each of the 6 edges, the crossing
//! point with the other plane (when its ends are on opposite sides) and that point's closest point on the other
//! triangle, contain a pair of distance ~0; its midpoint is returned.
//!
//! # Error analysis
//! Every candidate is computed by the point–triangle and segment–segment code (errors ≤ 176u and ≤ 180u in the
//! working frame, S ≤ 1), so the least one is within 180u = 90·ε·S of the exact distance. For meeting triangles the
//! crossing point is off along its edge by Δ with Δ·sin α ≤ 56u (α the angle between edge and plane, the heights
//! being off by ≤ 28u each); following the edge from the exact crossing to the computed one, the projection
//! either stays in the other triangle or leaves it through an edge, so some candidate has computed distance
//! ≤ 56u + 180u + 10u. The midpoint of that pair is within 125u + 61u of both triangles.

use ccd_interval::Real;
use nalgebra::Vector3;

use super::frame::{Frame, V};
use super::point_triangle::Triangle;
use super::segment_segment::{closest_segment_segment, point_at};
use super::triangles_intersect;

/// Closest points of two triangles, the result of [`distance_triangle_triangle`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TriangleDistance<T> {
    /// Euclidean distance between the closed triangles, ≥ 0; exactly zero when `intersecting` (and possibly for
    /// disjoint triangles closer than the error bound).
    pub distance: T,
    /// Closest point on triangle `a` (a common point when `intersecting`).
    pub point_a: Vector3<T>,
    /// Closest point on triangle `b` (equal to `point_a` when `intersecting`).
    pub point_b: Vector3<T>,
    /// Whether the closed triangles share a point, decided exactly by [`triangles_intersect`].
    pub intersecting: bool,
}

/// Distance between the closed triangles `a` and `b`, with a closest pair of points.
///
/// Both triangles are in one common frame. A triangle whose corners are collinear (or coincide) is the segment
/// (or point) they span.
///
/// # Guarantee
/// `intersecting` is exact for the given coordinates: [`triangles_intersect`] runs on an exact power-of-two rescaling
/// (largest magnitude in [1/2, 1)), so its predicates cannot overflow, and they cannot underflow while nonzero
/// coordinate differences exceed about 2^-300·S (for `f32` input: always). The distance is then exactly 0. Otherwise
/// tolerance, for finite input (derivation in the module source): let S be the largest coordinate magnitude of the
/// six corners, ε = `T::EPSILON`, η the smallest positive subnormal of `T`, and c = 128 for `f64`, 4 for `f32` (the
/// work is done in `f64` on exact widenings, so for `f32` the final rounding dominates). Then |`distance` − d| ≤
/// c·ε·S + η for the exact distance d of the given coordinates; `point_a` and `point_b` lie within c·ε·S + η of `a`
/// and `b` respectively (of both when `intersecting`); and |`point_a` − `point_b`| is within c·ε·S + η of `distance`.
/// Results beyond `T::MAX` overflow to infinity.
///
/// # Behaviour
/// Touching counts as intersecting (closed sets). Parallel and coplanar triangles return one closest pair of
/// the many. Degenerate triangles are handled as the segments or points they are. Non-finite coordinates give
/// an unspecified result; the function never panics and never allocates.
///
/// # Example
/// ```
/// use ccd_query::primitive::distance_triangle_triangle;
/// use nalgebra::Vector3;
/// let a = [Vector3::new(0.0f64, 0.0, 0.0), Vector3::new(1.0, 0.0, 0.0), Vector3::new(0.0, 1.0, 0.0)];
/// let b = a.map(|v| v + Vector3::new(0.0, 0.0, 1.0)); // a, lifted by 1
/// let r = distance_triangle_triangle(&a, &b);
/// assert!((r.distance - 1.0).abs() <= 128.0 * f64::EPSILON);
/// assert!(!r.intersecting);
/// ```
///
/// # Reference
/// C. Ericson, *Real-Time Collision Detection* (2005), §5.1.9 (closest points of two triangles).
pub fn distance_triangle_triangle<T: Real>(
    a: &[Vector3<T>; 3],
    b: &[Vector3<T>; 3],
) -> TriangleDistance<T> {
    let frame = Frame::covering(a.iter().chain(b));
    let a = a.each_ref().map(|v| frame.load(v));
    let b = b.each_ref().map(|v| frame.load(v));
    let intersecting = triangles_intersect(&a.map(Into::into), &b.map(Into::into));
    let best = closest_pair(&Triangle::new(a), &Triangle::new(b), intersecting);
    if intersecting {
        let common = frame.store(&((best.on_a + best.on_b) * 0.5));
        TriangleDistance {
            distance: T::zero(),
            point_a: common,
            point_b: common,
            intersecting,
        }
    } else {
        TriangleDistance {
            distance: frame.length(best.dist2.sqrt()),
            point_a: frame.store(&best.on_a),
            point_b: frame.store(&best.on_b),
            intersecting,
        }
    }
}

/// A candidate pair of points, in the working frame.
#[derive(Clone, Copy, Debug)]
struct Pair {
    on_a: V,
    on_b: V,
    dist2: f64,
}

impl Pair {
    /// The same pair with the roles of the triangles exchanged.
    fn swapped(self) -> Self {
        Pair {
            on_a: self.on_b,
            on_b: self.on_a,
            dist2: self.dist2,
        }
    }
}

/// The candidate of least computed distance (see the module docs); `crossings` adds the edge–plane crossings.
fn closest_pair(a: &Triangle, b: &Triangle, crossings: bool) -> Pair {
    let mut best = Pair {
        on_a: a.v[0],
        on_b: b.v[0],
        dist2: f64::INFINITY,
    };
    let mut keep = |c: Pair| {
        if c.dist2 < best.dist2 {
            best = c;
        }
    };
    for i in 0..3 {
        keep(corner_triangle(&a.v[i], b));
        keep(corner_triangle(&b.v[i], a).swapped());
        for j in 0..3 {
            let s = closest_segment_segment(&a.v[i], &a.v[(i + 1) % 3], &b.v[j], &b.v[(j + 1) % 3]);
            keep(Pair {
                on_a: s.on_p,
                on_b: s.on_q,
                dist2: s.dist2,
            });
        }
        if crossings {
            if let Some(c) = edge_crossing(&a.v[i], &a.v[(i + 1) % 3], b) {
                keep(c);
            }
            if let Some(c) = edge_crossing(&b.v[i], &b.v[(i + 1) % 3], a) {
                keep(c.swapped());
            }
        }
    }
    best
}

/// The corner `p` and its closest point on `t`.
fn corner_triangle(p: &V, t: &Triangle) -> Pair {
    let c = t.closest(p);
    Pair {
        on_a: *p,
        on_b: c.point,
        dist2: c.dist2,
    }
}

/// Where the segment `u0u1` crosses the plane of the proper triangle `t`, with its closest point on `t`; `None`
/// when both ends are strictly on one side, both on the plane, or `t` is degenerate.
fn edge_crossing(u0: &V, u1: &V, t: &Triangle) -> Option<Pair> {
    let (h0, h1) = (t.height(u0)?, t.height(u1)?);
    let opposite = (h0 <= 0.0 && h1 >= 0.0) || (h0 >= 0.0 && h1 <= 0.0);
    if !opposite || h0 == h1 {
        return None;
    }
    // |h₀ − h₁| = |h₀| + |h₁| here, so the ratio is in [0, 1] even after rounding.
    let x = point_at(u0, u1, &(u1 - u0), (h0 / (h0 - h1)).clamp(0.0, 1.0));
    Some(corner_triangle(&x, t))
}

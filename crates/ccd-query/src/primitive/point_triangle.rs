//! Distance from a point to a closed triangle in 3-D, with the closest point and the feature holding it.
//!
//! # Method
//! Ericson §5.1.5 in two steps. *Face*: if the projection q of p onto the triangle's plane lies inside the
//! triangle, q is the closest point. *Boundary*: otherwise the closest point lies on an edge, and the nearest of
//! the three point–segment closest points (see `segment_segment.rs`) is taken. A degenerate triangle (collinear
//! or coincident corners) has no face and is the union of its edges, so the boundary step alone is exact for it.
//!
//! # Error analysis
//! In the working frame of `segment_segment.rs` (S ≤ 1, u = 2^-53). Rounding e₁ = b − a, e₂ = c − a and
//! p − a replaces the triangle T and p by T′, p′ whose points move by ≤ 3.5u; distances change by as much.
//!
//! - The normal of T′ is formed with Kahan's FMA determinants: direction within 3u after normalising, however
//!   thin the triangle. A plain cross product would not do: for a sliver its direction error grows like
//!   u/sin(angle), and so would the distance error.
//! - The inside test evaluates, per edge, g = (p − v)·(n̂ × e) (v the edge's first corner, e its direction,
//!   all from e₁, e₂, p − a so that they describe T′): the signed in-plane distance of q from the edge's line
//!   times |e|, with error ≤ 13.5u·|p − v|·|e|. The face is taken only when every g exceeds the margin
//!   16u·|p − v|·|e|; then q is certainly inside T′. Otherwise q lies outside T′ or within 29.5u·|p − v| ≤ 102u of
//!   its boundary, and the nearest edge point is at most 102u farther than q.
//! - The face point p − (n̂·(p − a))·n̂ is within 57u of q.
//!
//! So a returned point lies within 61u of its feature, and |d̃ − d| ≤ 102u + 4·3.5u + 60u (point–segment) ≈
//! 176u = 88·ε·S for `f64`.

use ccd_interval::Real;
use nalgebra::Vector3;

use super::frame::{Frame, V, unit_normal};
use super::segment_segment::point_segment;

/// Safety margin of the inside test, squared: (16u)² with u = 2^-53 (the test's error is below 13.5u).
const MARGIN2: f64 = 64.0 * f64::EPSILON * f64::EPSILON;

/// The part of a triangle `[v0, v1, v2]` that holds a closest point.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TriangleFeature {
    /// Corner `i` (the point is that corner, bit for bit, unless some coordinate of the query is below 2^-1000
    /// times the largest, which the working frame may round).
    Vertex(usize),
    /// The relative interior of edge `i`, from corner `i` to corner `(i + 1) % 3`.
    Edge(usize),
    /// The interior of the triangle (never reported for a degenerate triangle).
    Face,
}

/// Distance from a point to a triangle, the result of [`distance_point_triangle`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PointTriangle<T> {
    /// Euclidean distance from the point to the closed triangle, ≥ 0 (up to the documented bound: a point on
    /// the triangle may give a tiny positive value).
    pub distance: T,
    /// Closest point of the triangle.
    pub point: Vector3<T>,
    /// The feature of the triangle holding `point`.
    pub feature: TriangleFeature,
}

/// Distance from `p` to the closed triangle `tri`, with the closest point and the feature holding it.
///
/// Point and triangle are in one common frame. A triangle whose corners are collinear (or coincide) is the
/// segment (or point) they span.
///
/// # Guarantee
/// Tolerance, for finite input (derivation in the module source). Let S be the largest coordinate magnitude of
/// `p` and `tri`, ε = `T::EPSILON`, η the smallest positive subnormal of `T`, and c = 128 for `f64`, 4 for `f32`
/// (the work is done in `f64` on exact widenings, so for `f32` the final rounding dominates). Then
/// |`distance` − d| ≤ c·ε·S + η for the exact distance d of the given coordinates; `point` lies within
/// c·ε·S + η of the reported feature (it is the corner for [`TriangleFeature::Vertex`]); and |p − `point`| is
/// within c·ε·S + η of `distance`. Results beyond `T::MAX` overflow to infinity.
///
/// # Behaviour
/// The feature is decided under rounding: a point whose projection lies inside the triangle but within about
/// 100·ε·S of an edge may be reported on that edge (at the same distance up to the bound). Degenerate triangles
/// report a vertex or an edge, never the face; for coincident corners the lowest index wins ties. Non-finite
/// coordinates give an unspecified result; the function never panics and never allocates.
///
/// # Reference
/// C. Ericson, *Real-Time Collision Detection* (2005), §5.1.5; W. Kahan's 2×2 determinant with a fused
/// multiply–add, analysed by C.-P. Jeannerod, N. Louvet, J.-M. Muller, *Math. Comp.* 82 (2013).
pub fn distance_point_triangle<T: Real>(p: &Vector3<T>, tri: &[Vector3<T>; 3]) -> PointTriangle<T> {
    let frame = Frame::covering(std::iter::once(p).chain(tri));
    let c = Triangle::new(tri.each_ref().map(|v| frame.load(v))).closest(&frame.load(p));
    PointTriangle {
        distance: frame.length(c.dist2.sqrt()),
        point: frame.store(&c.point),
        feature: c.feature,
    }
}

/// A triangle in the working frame, with what its closest-point queries share.
#[derive(Clone, Copy, Debug)]
pub(super) struct Triangle {
    /// The corners.
    pub(super) v: [V; 3],
    /// The face data; `None` for a degenerate triangle.
    face: Option<Face>,
}

/// The face of a proper triangle: unit normal and, per edge, what the inside test needs.
#[derive(Clone, Copy, Debug)]
struct Face {
    /// Unit normal n̂ of (v₁ − v₀) × (v₂ − v₀).
    n: V,
    /// v₁ − v₀ and v₂ − v₀ as rounded: the offsets of the edges' first corners from v₀.
    e1: V,
    e2: V,
    /// Per edge i (from corner i), the inward in-plane normal n̂ × eᵢ, scaled by |eᵢ|.
    inward: [V; 3],
    /// Its squared length.
    inward2: [f64; 3],
}

/// A closest point of a triangle, in the working frame.
#[derive(Clone, Copy, Debug)]
pub(super) struct OnTriangle {
    /// The point.
    pub(super) point: V,
    /// Computed squared distance from the query point to `point`.
    pub(super) dist2: f64,
    /// The feature holding `point`.
    pub(super) feature: TriangleFeature,
}

impl Triangle {
    /// The triangle with corners `v`.
    pub(super) fn new(v: [V; 3]) -> Self {
        let e1 = v[1] - v[0];
        let e2 = v[2] - v[0];
        let face = unit_normal(&e1, &e2).map(|(n, _)| {
            // Edge directions of T′ (corner 1 → 2 is e₂ − e₁, corner 2 → 0 is −e₂).
            let inward = [e1, e2 - e1, -e2].map(|e| n.cross(&e));
            Face {
                n,
                e1,
                e2,
                inward,
                inward2: inward.map(|k| k.norm_squared()),
            }
        });
        Triangle { v, face }
    }

    /// Signed height of `p` over the plane (in the normal's direction), or `None` for a degenerate triangle.
    pub(super) fn height(&self, p: &V) -> Option<f64> {
        self.face.map(|f| f.n.dot(&(p - self.v[0])))
    }

    /// The closest point of the triangle to `p`.
    pub(super) fn closest(&self, p: &V) -> OnTriangle {
        if let Some(c) = self.face.and_then(|f| f.project(&self.v[0], p)) {
            return c;
        }
        let on_edge = |i: usize| {
            let j = (i + 1) % 3;
            let c = point_segment(p, &self.v[i], &self.v[j]);
            let feature = if c.t <= 0.0 {
                TriangleFeature::Vertex(i)
            } else if c.t >= 1.0 {
                TriangleFeature::Vertex(j)
            } else {
                TriangleFeature::Edge(i)
            };
            OnTriangle {
                point: c.point,
                dist2: c.dist2,
                feature,
            }
        };
        let mut best = on_edge(0);
        for c in [on_edge(1), on_edge(2)] {
            if c.dist2 < best.dist2 {
                best = c;
            }
        }
        best
    }
}

impl Face {
    /// The projection of `p` onto the plane through corner `a`, when it is certainly inside the triangle.
    fn project(&self, a: &V, p: &V) -> Option<OnTriangle> {
        let wa = p - a;
        let w = [wa, wa - self.e1, wa - self.e2];
        for ((w, k), k2) in w.iter().zip(&self.inward).zip(self.inward2) {
            let g = w.dot(k);
            if !(g > 0.0 && g * g > MARGIN2 * w.norm_squared() * k2) {
                return None;
            }
        }
        let point = p - self.n * self.n.dot(&wa);
        Some(OnTriangle {
            point,
            dist2: (p - point).norm_squared(),
            feature: TriangleFeature::Face,
        })
    }
}

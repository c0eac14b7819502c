//! Distance between two closed segments in 3-D, with closest points, and the point–segment distance it reduces
//! to; also the `f64` working frame shared by the three primitive distance files.
//!
//! # Working frame
//! Every query widens its coordinates exactly to `f64` and multiplies them by one power of two 2^k chosen so that
//! the largest magnitude S lands in [1/2, 1) (`Frame`). The scaling is exact (apart from coordinates more than
//! 2^1000 times smaller than S, which move by less than 2^-1074·S), so the error analysis below may assume
//! S ≤ 1, no overflow, and no underflow that matters: a product that underflows is at most 2^-1074 off, a factor
//! 2^1021 below the bounds. Results are scaled back by 2^-k (exact but for subnormal results) and rounded to `T`
//! once. For `f32` input the `f64` error is then negligible and the final rounding dominates.
//!
//! # Method
//! Write u = 2^-53 for the unit roundoff of `f64`. Every candidate is a pair of points computed on the two
//! segments, and the candidate with the least computed squared distance wins, so each returned point lies on
//! its segment up to the rounding of `a + t·(b − a)` (≤ 5u per coordinate, 9u in length) whatever the accuracy
//! of the parameters. Near-optimality is the part that needs care:
//!
//! - *Point–segment*: t = clamp((p − a)·e / e·e) with e = b − a. The numerator and denominator are off by
//!   ≤ 5.01u·|p − a|·|e| and ≤ 5.01u·e·e, so the point moves by |e|·|Δt| ≤ 11.1u·|p − a| ≤ 38.5u along the
//!   segment (clamping is 1-Lipschitz). With the 9u of the point and 3.5u·|p − x| ≤ 12.2u for the norm, the
//!   computed distance is within 60u of the exact one.
//! - *Segment–segment* (Lumelsky's case split, Ericson §5.1.9): with a normal n of the two directions the
//!   closest point of the first *line* is s = (q₀ − p₀)·(d₂ × n)/|n|². Computing n as a difference of products
//!   loses all relative accuracy for nearly parallel segments, so each component is a 2×2 determinant in
//!   Kahan's FMA algorithm (relative error ≤ 2u, Jeannerod–Louvet–Muller 2013). Then s is off along the first
//!   segment by Δ with Δ·sin φ ≤ 16u·|q₀ − p₀| ≤ 55u (φ the angle between the segments) — and moving a point a
//!   distance Δ along one line away from the common perpendicular raises its distance to the other line by at
//!   most Δ·sin φ. The second point is the point–segment projection of the first. If neither parameter needed
//!   clamping that pair is returned (its distance exceeds the lines' distance by ≤ 55u + 9u + 38.5u + 60u);
//!   otherwise the four endpoint–segment pairs join the candidates: following the first line from the exact
//!   closest pair towards the computed one, the projection leaves the second segment at one of its endpoints
//!   at distance ≤ d + 55u, so some endpoint pair is as good. The rounding of the differences d₁, d₂, q₀ − p₀
//!   moves endpoints by ≤ 2·3.5u and the distance by ≤ 10.4u. In all, |d̃ − d| ≤ 180u = 90·ε·S for `f64`.
//! - Zero-length and parallel segments (|n|² below 2^-897, which makes the segments lie within 2^-448 of
//!   parallel ones in the frame) use the endpoint pairs only, which is exact for parallel segments.

use ccd_interval::Real;
use nalgebra::Vector3;

use super::frame::{Frame, V, unit_normal};

/// Closest points of two closed segments, the result of [`distance_segment_segment`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SegmentSegment<T> {
    /// Euclidean distance between the segments, ≥ 0 (up to the documented bound: segments that meet may give a
    /// tiny positive value).
    pub distance: T,
    /// Parameter of `point_p` on the first segment, in [0, 1]: `point_p ≈ p0 + s·(p1 − p0)`.
    pub s: T,
    /// Parameter of `point_q` on the second segment, in [0, 1]: `point_q ≈ q0 + t·(q1 − q0)`.
    pub t: T,
    /// Closest point on the first segment; `p0` or `p1` when `s` is 0 or 1 (bit for bit, unless some coordinate
    /// is below 2^-1000 times the largest, which the working frame may round).
    pub point_p: Vector3<T>,
    /// Closest point on the second segment; `q0` or `q1` when `t` is 0 or 1 (as for `point_p`).
    pub point_q: Vector3<T>,
}

/// Distance between the closed segments `p0p1` and `q0q1`, with a closest pair of points and its parameters.
///
/// All four points are in one common frame. A segment whose endpoints coincide is the point.
///
/// # Guarantee
/// Tolerance, for finite input (derivation in the module source). Let S be the largest coordinate magnitude of
/// the four points, ε = `T::EPSILON`, η the smallest positive subnormal of `T`, and c = 128 for `f64`, 4 for
/// `f32` (the work is done in `f64` on exact widenings, so for `f32` the final rounding dominates). Then
/// |`distance` − d| ≤ c·ε·S + η for the exact distance d of the given coordinates; `point_p` and `point_q` lie
/// within c·ε·S + η of their segments and of `p0 + s·(p1 − p0)`, `q0 + t·(q1 − q0)`; and |`point_p` −
/// `point_q`| is within c·ε·S + η of `distance`. Results beyond `T::MAX` overflow to infinity.
///
/// # Behaviour
/// Parallel, collinear and overlapping segments return one of their closest pairs (an endpoint of one segment
/// and its projection on the other). Zero-length segments are points. Crossing segments give distance ~0 (within
/// the bound, not necessarily exactly 0). Non-finite coordinates give an unspecified result; the function never
/// panics and never allocates.
///
/// # Reference
/// V. J. Lumelsky, *On fast computation of distance between line segments* (IPL 21, 1985); C. Ericson,
/// *Real-Time Collision Detection* (2005), §5.1.9.
pub fn distance_segment_segment<T: Real>(
    p0: &Vector3<T>,
    p1: &Vector3<T>,
    q0: &Vector3<T>,
    q1: &Vector3<T>,
) -> SegmentSegment<T> {
    let frame = Frame::covering([p0, p1, q0, q1]);
    let [p0, p1, q0, q1] = [p0, p1, q0, q1].map(|v| frame.load(v));
    let c = closest_segment_segment(&p0, &p1, &q0, &q1);
    SegmentSegment {
        distance: frame.length(c.dist2.sqrt()),
        s: T::lit(c.s),
        t: T::lit(c.t),
        point_p: frame.store(&c.on_p),
        point_q: frame.store(&c.on_q),
    }
}

/// The point at parameter `t ∈ [0, 1]` of the segment `a → b` whose computed direction is `e`: exactly `a` or
/// `b` at the ends, else `a + t·e` (within 5u per coordinate of the segment).
pub(super) fn point_at(a: &V, b: &V, e: &V, t: f64) -> V {
    if t <= 0.0 {
        *a
    } else if t >= 1.0 {
        *b
    } else {
        a + e * t
    }
}

/// The closest point of a segment to a point, in the working frame.
#[derive(Clone, Copy, Debug)]
pub(super) struct OnSegment {
    /// Parameter on the segment, in [0, 1].
    pub(super) t: f64,
    /// The point at `t`.
    pub(super) point: V,
    /// Computed squared distance from the query point to `point`.
    pub(super) dist2: f64,
    /// Whether the parameter needed no clamping.
    pub(super) within: bool,
}

/// Closest point of the segment `ab` to `p` (Ericson §5.1.2): the clamped projection; `a` when `a = b`.
pub(super) fn point_segment(p: &V, a: &V, b: &V) -> OnSegment {
    let e = b - a;
    let len2 = e.norm_squared();
    let raw = if len2 > 0.0 {
        (p - a).dot(&e) / len2
    } else {
        0.0
    };
    let t = raw.clamp(0.0, 1.0);
    let point = point_at(a, b, &e, t);
    OnSegment {
        t,
        point,
        dist2: (p - point).norm_squared(),
        within: (0.0..=1.0).contains(&raw),
    }
}

/// A closest pair of two segments, in the working frame.
#[derive(Clone, Copy, Debug)]
pub(super) struct SegmentPair {
    /// Parameter on the first segment.
    pub(super) s: f64,
    /// Parameter on the second segment.
    pub(super) t: f64,
    /// The point on the first segment.
    pub(super) on_p: V,
    /// The point on the second segment.
    pub(super) on_q: V,
    /// Computed squared distance between the two points.
    pub(super) dist2: f64,
}

/// Closest points of the segments `p0p1` and `q0q1` in the working frame (see the module docs).
pub(super) fn closest_segment_segment(p0: &V, p1: &V, q0: &V, q1: &V) -> SegmentPair {
    let d1 = p1 - p0;
    let mut best = None;
    if let Some((n, len)) = unit_normal(&d1, &(q1 - q0)) {
        // Closest point of the first line to the second: s = (q₀ − p₀)·(d₂ × n̂)/|n|.
        let s_raw = (q0 - p0).dot(&(q1 - q0).cross(&n)) / len;
        let s = s_raw.clamp(0.0, 1.0);
        let on_p = point_at(p0, p1, &d1, s);
        let q = point_segment(&on_p, q0, q1);
        let pair = SegmentPair {
            s,
            t: q.t,
            on_p,
            on_q: q.point,
            dist2: q.dist2,
        };
        if q.within && (0.0..=1.0).contains(&s_raw) {
            return pair;
        }
        best = Some(pair);
    }
    let from_p = |s: f64, p: &V| {
        let c = point_segment(p, q0, q1);
        SegmentPair {
            s,
            t: c.t,
            on_p: *p,
            on_q: c.point,
            dist2: c.dist2,
        }
    };
    let from_q = |t: f64, q: &V| {
        let c = point_segment(q, p0, p1);
        SegmentPair {
            s: c.t,
            t,
            on_p: c.point,
            on_q: *q,
            dist2: c.dist2,
        }
    };
    let ends = [
        from_p(0.0, p0),
        from_p(1.0, p1),
        from_q(0.0, q0),
        from_q(1.0, q1),
    ];
    let mut best = best.unwrap_or(ends[0]);
    for c in ends {
        if c.dist2 < best.dist2 {
            best = c;
        }
    }
    best
}

//! Certified continuous vertex–face test for linear vertex trajectories (the Wang et al. 2021 benchmark
//! setting).
//!
//! The vertex meets the closed triangle at time `t` iff `F(t, u, v) = p(t) − (a(t) + u·(b − a)(t) +
//! v·(c − a)(t))` vanishes for some `u, v >= 0`, `u + v <= 1`; the zero set is isolated by the shared
//! solver of `linear_ccd.rs` (coplanarity cubic and interval projection tests).

use ccd_interval::Real;

use super::linear_ccd::{LinearCcdRequest, LinearCcdResult, Multilinear, isolate};

/// Continuous test of a vertex against a triangle, every point moving linearly from its start to its end
/// position over `t ∈ [0, 1]`.
///
/// Each argument is `[position at t = 0, position at t = 1]`, all in one common frame. Contact means the
/// vertex lies in the closed triangle (boundary and vertices included), or within Euclidean distance
/// `req.min_separation` of it (the meaning [`ToiRequest::min_separation`](crate::ToiRequest::min_separation) has).
///
/// # Guarantee
///
/// Conservative, under floating point (every bound is outward-rounded interval arithmetic or a floating-point
/// evaluation widened by a derived error bound):
/// [`NoContact`](super::LinearCcdOutcome::NoContact) is certified, and for
/// [`Contact`](super::LinearCcdOutcome::Contact) `{ t_lo, t_hi }` no contact happens before `t_lo`. What may
/// be over-reported: a near miss whose distance is within about `tolerance ×` (the speeds of the points), an
/// approach within the max-norm cube of half-side `min_separation` (Euclidean up to `√3·min_separation`), and
/// the bracket may sit a few tolerances before the true first contact; any input once `max_iterations` is hit
/// (`hit_cap` set).
///
/// # Degenerate input
///
/// Zero-area or collapsing triangles, coplanar motion, static configurations, contacts at exactly `t = 0`
/// or `t = 1` and a vertex sliding along an edge need no special case: the enclosures are valid for every
/// input, so they are never missed. A non-finite coordinate gives `Contact { t_lo: 0, t_hi: 1 }`.
///
/// # Example
///
/// ```
/// use ccd_query::primitive::{ccd_vertex_face_linear, LinearCcdOutcome, LinearCcdRequest};
///
/// // A vertex crossing the static triangle z = 0 at t = 0.5.
/// let tri = |x: [f64; 3]| [x, x];
/// let r = ccd_vertex_face_linear(
///     [[0.2, 0.2, 1.0], [0.2, 0.2, -1.0]],
///     tri([0.0, 0.0, 0.0]),
///     tri([1.0, 0.0, 0.0]),
///     tri([0.0, 1.0, 0.0]),
///     &LinearCcdRequest::default(),
/// );
/// let LinearCcdOutcome::Contact { t_lo, t_hi } = r.outcome else { panic!() };
/// assert!(t_lo <= 0.5 && 0.5 - t_lo <= 1e-6 && t_hi >= t_lo);
/// ```
pub fn ccd_vertex_face_linear<T: Real>(
    p: [[T; 3]; 2],
    a: [[T; 3]; 2],
    b: [[T; 3]; 2],
    c: [[T; 3]; 2],
    req: &LinearCcdRequest<T>,
) -> LinearCcdResult<T> {
    // F = (p − a) + u·(a − b) + v·(a − c).
    let at = |i: usize| [[p[i], a[i]], [a[i], b[i]], [a[i], c[i]]];
    isolate(Multilinear::new(at(0), at(1), true), req)
}

//! Certified continuous edge–edge test for linear vertex trajectories (the Wang et al. 2021 benchmark
//! setting).
//!
//! The closed segments meet at time `t` iff `F(t, u, v) = (p₀ + u·(p₁ − p₀))(t) − (q₀ + v·(q₁ − q₀))(t)`
//! vanishes for some `u, v ∈ [0, 1]`; the zero set is isolated by the shared solver of `linear_ccd.rs`
//! (coplanarity cubic and interval projection tests).

use ccd_interval::Real;

use super::linear_ccd::{LinearCcdRequest, LinearCcdResult, Multilinear, isolate};

/// Continuous test of segment `p₀p₁` against segment `q₀q₁`, every endpoint moving linearly from its start to
/// its end position over `t ∈ [0, 1]`.
///
/// Each argument is `[position at t = 0, position at t = 1]`, all in one common frame. Contact means the
/// closed segments share a point (endpoints included), or come within Euclidean distance `req.min_separation`
/// (the meaning [`ToiRequest::min_separation`](crate::ToiRequest::min_separation) has).
///
/// # Guarantee
///
/// Conservative, under floating point (outward-rounded interval arithmetic, or floating point widened by a
/// derived error bound):
/// [`NoContact`](super::LinearCcdOutcome::NoContact) is certified, and for
/// [`Contact`](super::LinearCcdOutcome::Contact) `{ t_lo, t_hi }` no contact happens before `t_lo`. What may
/// be over-reported: a near miss within about `tolerance ×` (the speeds of the endpoints), an approach within
/// the max-norm cube of half-side `min_separation` (Euclidean up to `√3·min_separation`), and the bracket may
/// sit a few tolerances before the true first contact; any input once `max_iterations` is hit (`hit_cap` set).
///
/// # Degenerate input
///
/// Parallel or collinear edges, zero-length edges, coplanar motion, static configurations and contacts at
/// exactly `t = 0` or `t = 1` need no special case and are never missed. A non-finite coordinate gives
/// `Contact { t_lo: 0, t_hi: 1 }`.
pub fn ccd_edge_edge_linear<T: Real>(
    p0: [[T; 3]; 2],
    p1: [[T; 3]; 2],
    q0: [[T; 3]; 2],
    q1: [[T; 3]; 2],
    req: &LinearCcdRequest<T>,
) -> LinearCcdResult<T> {
    // F = (p₀ − q₀) + u·(p₁ − p₀) + v·(q₀ − q₁).
    let at = |i: usize| [[p0[i], q0[i]], [p1[i], p0[i]], [q0[i], q1[i]]];
    isolate(Multilinear::new(at(0), at(1), false), req)
}

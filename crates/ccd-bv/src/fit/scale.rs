//! Scaling by powers of two, so that statistics and predicates of huge or
//! tiny coordinates neither overflow nor underflow.
//!
//! Multiplying by `2^k` only changes the exponent: it is exact unless the
//! result overflows or falls below the normal range (`|x·2^k| < 2^-1022`),
//! and it commutes with rounding, so every `+ − × / √` of scaled values is
//! the scaled result of the same operation on the originals while no
//! intermediate leaves the normal range.

use ccd_interval::pow2::{ldexp, pow2, unit_exponent};
use nalgebra::Vector3;

/// While the largest coordinate magnitude lies in
/// `[2^-STATS_WINDOW, 2^STATS_WINDOW]`, the statistics are computed on the
/// coordinates as they are (bit for bit the unscaled computation): products
/// of up to five coordinate differences (the smallest-ball centre) stay
/// within `2^±650`, far inside the normal range.
const STATS_WINDOW: i32 = 128;

/// `p·2^k`, component-wise ([`ldexp`]).
#[inline]
pub(crate) fn scaled(p: &Vector3<f64>, k: i32) -> Vector3<f64> {
    if k == 0 {
        // Every input inside the statistics window: the common case costs nothing.
        return *p;
    }
    p.map(|x| ldexp(x, k))
}

/// The exponent the fitting statistics use for points whose largest
/// coordinate magnitude is `m`: 0 (no scaling) while `m` lies in
/// `[2^-128, 2^128]`, else [`unit_exponent`].
pub(crate) fn stats_exponent(m: f64) -> i32 {
    let inside = m == 0.0 || (pow2(-STATS_WINDOW)..=pow2(STATS_WINDOW)).contains(&m);
    if inside { 0 } else { unit_exponent(m) }
}

/// The exponent `k` the fits' statistics use for a whole vertex array
/// (0 while its largest coordinate magnitude lies in `[2^-128, 2^128]`),
/// and the vertices widened to `f64` and scaled by `2^k` are then
/// [`scaled_vertex`]: a tree builder computes statistics of any subset on
/// these without overflow, as the fits do on their own subsets.
pub fn statistics_exponent<T: crate::Real>(vertices: &[[T; 3]]) -> i32 {
    stats_exponent(max_abs(vertices.iter().map(super::covariance::to_f64)))
}

/// Vertex `p` widened to `f64` (exactly) and scaled by `2^k` (see
/// [`statistics_exponent`]).
pub fn scaled_vertex<T: crate::Real>(p: &[T; 3], k: i32) -> Vector3<f64> {
    scaled(&super::covariance::to_f64(p), k)
}

/// The largest coordinate magnitude of `points` (0 for none; NaN is
/// skipped, an infinity returned).
pub(crate) fn max_abs(points: impl Iterator<Item = Vector3<f64>>) -> f64 {
    points.fold(0.0, |m, p| m.max(p.amax()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stats_window() {
        assert_eq!(stats_exponent(1e30), 0);
        assert_eq!(stats_exponent(0.0), 0);
        assert_eq!(stats_exponent(1e300), unit_exponent(1e300));
        assert_eq!(
            scaled(&Vector3::new(1.0, -3.0, 0.5), 2),
            Vector3::new(4.0, -12.0, 2.0)
        );
    }
}

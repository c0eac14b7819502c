//! Every directed (outward) rounding of the crate, in one place to audit.
//!
//! # Method
//!
//! Each operation is evaluated in the default IEEE 754 mode (round to nearest,
//! ties to even; Rust never changes it and never flushes subnormals), giving a
//! result `r`. A lower bound is then `nextDown(r)` ([`Real::step_down`]) and an
//! upper bound `nextUp(r)` ([`Real::step_up`]).
//!
//! One step is always enough: round to nearest means the exact value `e` is at
//! least as close to `r` as to either neighbour of `r`, so
//! `nextDown(r) <= e <= nextUp(r)`. This includes
//!
//! - overflow: `r = +inf` only when `e > MAX`, and `nextDown(+inf) = MAX` is
//!   still a lower bound (symmetrically for `-inf`);
//! - underflow: an `e` that rounds to `0` gives `[-tiny, +tiny]`, the least
//!   subnormals;
//! - double rounding on x87 targets: the error stays below one ulp.
//!
//! # Exact cases (no step)
//!
//! - A product with an exact zero factor is `0` (this also defines `0 · ∞ = 0`,
//!   the right value for interval endpoints: every *real* member times zero is
//!   zero).
//! - A quotient with a zero dividend is `0`; a finite dividend over an infinite
//!   divisor gives the limit `0`, which bounds every finite quotient in the
//!   direction the callers need (see [`div_down`]).
//! - `sqrt(0) = 0`; a square root lower bound is clamped at `0`.
//! - Negation, `abs`, `min`, `max` and comparisons are exact and live with
//!   their callers.
//!
//! Elementary functions from the platform libm (`sin`, `cos`) are not correctly
//! rounded; they are widened by [`LIBM_ULPS`] ulps instead (see
//! [`libm_down`]).

use crate::Real;

/// `+∞` of `T`.
#[inline(always)]
pub(crate) fn inf<T: Real>() -> T {
    T::lit(f64::INFINITY)
}

/// The largest finite value of `T`.
#[inline(always)]
pub(crate) fn max_finite<T: Real>() -> T {
    inf::<T>().step_down()
}

/// `min` that never sees NaN (interval endpoints are never NaN).
#[inline(always)]
pub(crate) fn min<T: Real>(a: T, b: T) -> T {
    if b < a { b } else { a }
}

/// `max` that never sees NaN (interval endpoints are never NaN).
#[inline(always)]
pub(crate) fn max<T: Real>(a: T, b: T) -> T {
    if b > a { b } else { a }
}

/// Lower bound of `a + b`.
#[inline(always)]
pub(crate) fn add_down<T: Real>(a: T, b: T) -> T {
    (a + b).step_down()
}

/// Upper bound of `a + b`.
#[inline(always)]
pub(crate) fn add_up<T: Real>(a: T, b: T) -> T {
    (a + b).step_up()
}

/// Lower bound of `a - b`.
#[inline(always)]
pub(crate) fn sub_down<T: Real>(a: T, b: T) -> T {
    (a - b).step_down()
}

/// Upper bound of `a - b`.
#[inline(always)]
pub(crate) fn sub_up<T: Real>(a: T, b: T) -> T {
    (a - b).step_up()
}

/// Lower bound of `a · b`; exactly `0` when a factor is zero (so `0 · ∞ = 0`).
#[inline(always)]
pub(crate) fn mul_down<T: Real>(a: T, b: T) -> T {
    if a == T::zero() || b == T::zero() {
        T::zero()
    } else {
        (a * b).step_down()
    }
}

/// Upper bound of `a · b`; exactly `0` when a factor is zero (so `0 · ∞ = 0`).
#[inline(always)]
pub(crate) fn mul_up<T: Real>(a: T, b: T) -> T {
    if a == T::zero() || b == T::zero() {
        T::zero()
    } else {
        (a * b).step_up()
    }
}

/// Lower bound of `a / b`, for `b != 0`.
///
/// `0 / b` and `finite / ±∞` are exactly `0`. The second is the limit of
/// `a / d` as `d → ±∞`; callers only use it where `0` is the infimum (or
/// supremum) they need, e.g. `a / [d, +∞]` for `a >= 0`.
#[inline(always)]
pub(crate) fn div_down<T: Real>(a: T, b: T) -> T {
    if a == T::zero() || !b.finite() {
        T::zero()
    } else {
        (a / b).step_down()
    }
}

/// Upper bound of `a / b`, for `b != 0`; the exact cases of [`div_down`].
#[inline(always)]
pub(crate) fn div_up<T: Real>(a: T, b: T) -> T {
    if a == T::zero() || !b.finite() {
        T::zero()
    } else {
        (a / b).step_up()
    }
}

/// Lower bound of `√a` for `a >= 0` (IEEE `sqrt` is correctly rounded, so one
/// step suffices), clamped at `0`; `0` for `a <= 0`.
#[inline(always)]
pub(crate) fn sqrt_down<T: Real>(a: T) -> T {
    if a <= T::zero() {
        T::zero()
    } else {
        max(a.sqrt().step_down(), T::zero())
    }
}

/// Upper bound of `√a` for `a >= 0`; exactly `0` for `a == 0`.
#[inline(always)]
pub(crate) fn sqrt_up<T: Real>(a: T) -> T {
    if a == T::zero() {
        T::zero()
    } else {
        a.sqrt().step_up()
    }
}

/// The greatest `T` not above the `f64` value `x` (exact for `T = f64`).
#[inline(always)]
pub(crate) fn from_f64_down<T: Real>(x: f64) -> T {
    let t = T::lit(x);
    if t.to_f64_exact() > x {
        t.step_down()
    } else {
        t
    }
}

/// The least `T` not below the `f64` value `x` (exact for `T = f64`).
#[inline(always)]
pub(crate) fn from_f64_up<T: Real>(x: f64) -> T {
    let t = T::lit(x);
    if t.to_f64_exact() < x { t.step_up() } else { t }
}

/// Ulps by which a platform libm result is widened on each side.
///
/// The libms Rust links against (glibc, musl and the BSD/macOS msun family,
/// MSVC's CRT) document or are measured at under 1 ulp of error for `sin` and
/// `cos` over the whole `f64` range (they reduce the argument with an exact
/// multi-word `π`). Two ulps leave a factor-two margin.
pub(crate) const LIBM_ULPS: u32 = 2;

/// Lower bound of the exact value of a libm result `v` (see [`LIBM_ULPS`]).
#[inline(always)]
pub(crate) fn libm_down(v: f64) -> f64 {
    (0..LIBM_ULPS).fold(v, |x, _| x.next_down())
}

/// Upper bound of the exact value of a libm result `v` (see [`LIBM_ULPS`]).
#[inline(always)]
pub(crate) fn libm_up(v: f64) -> f64 {
    (0..LIBM_ULPS).fold(v, |x, _| x.next_up())
}

/// An upper bound of a non-negative quantity that was computed in floating point by a handful of rounded
/// operations (sums and products of non-negative terms, a square root): `x·(1 + 8ε) + λ`, `λ` the least
/// positive normal `f32`.
///
/// # Guarantee
/// Each rounding to nearest has a relative error of at most `ε/2`, so up to about 15 of them along any term
/// keep the computed value within a factor `1 + 8ε` of the exact one; `λ` covers terms that underflowed. The
/// callers document how many operations they round.
#[inline(always)]
pub fn bound_up<T: Real>(x: T) -> T {
    x * (T::one() + T::lit(8.0) * T::EPSILON) + T::lit(f64::from(f32::MIN_POSITIVE))
}

/// A lower bound of a non-negative quantity computed by a handful of rounded operations: `x·(1 − 8ε)` (see
/// [`bound_up`]; no underflow allowance is needed below, as a lower bound may always be smaller).
#[inline(always)]
pub fn bound_down<T: Real>(x: T) -> T {
    x * (T::one() - T::lit(8.0) * T::EPSILON)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zero_products_are_exact() {
        assert_eq!(mul_down(0.0f64, f64::INFINITY), 0.0);
        assert_eq!(mul_up(-0.0f32, f32::NEG_INFINITY), 0.0);
        assert!(mul_down(3.0f64, 0.1) < 3.0 * 0.1);
    }

    #[test]
    fn overflow_and_underflow_stay_bounds() {
        assert_eq!(add_down(f64::MAX, f64::MAX), f64::MAX);
        assert_eq!(add_up(f64::MAX, f64::MAX), f64::INFINITY);
        let tiny = f64::from_bits(1);
        assert_eq!(mul_down(tiny, 0.5), -tiny);
        assert_eq!(mul_up(tiny, 0.5), tiny);
        assert_eq!(max_finite::<f32>(), f32::MAX);
    }

    #[test]
    fn directed_f64_to_f32() {
        let x = 0.1f64;
        let lo: f32 = from_f64_down(x);
        let hi: f32 = from_f64_up(x);
        assert!(f64::from(lo) <= x && x <= f64::from(hi));
        assert_eq!(hi, lo.next_up());
        assert_eq!(from_f64_down::<f32>(0.5), 0.5);
        assert_eq!(from_f64_up::<f32>(1e300), f32::INFINITY);
        assert_eq!(from_f64_down::<f32>(1e300), f32::MAX);
    }

    /// `bound_down ≤ exact ≤ bound_up` for f32 sums of products of non-negative numbers (exact in f64).
    #[test]
    fn few_op_bounds_bracket_exact_values() {
        let mut x = 0.123_456_f32;
        for _ in 0..10_000 {
            x = (x * 3.7 + 0.31).fract();
            let (a, b, c, d) = (x * 7.0, (x * 13.0).fract(), x * x, 1.0 - x);
            let computed = a * b + c * d + (a + c).sqrt();
            let exact = f64::from(a) * f64::from(b)
                + f64::from(c) * f64::from(d)
                + (f64::from(a) + f64::from(c)).sqrt();
            assert!(f64::from(super::bound_down(computed)) <= exact);
            assert!(f64::from(super::bound_up(computed)) >= exact);
        }
    }
}

//! Elementary functions of intervals: `abs`, `sqrt`, `sin`, `cos`.
//!
//! `sin` and `cos` are evaluated in `f64` for both scalar types (exact
//! widening of the endpoints), bounded there, then converted to `T` with
//! directed rounding.

use std::f64::consts::{FRAC_PI_2, PI, TAU};

use crate::round::{self, libm_down, libm_up};
use crate::{Interval, Real};

impl<T: Real> Interval<T> {
    /// `{ |x| : x ∈ X }` (exact): `[mig, mag]`.
    #[inline]
    pub fn abs(self) -> Self {
        Self::raw(self.mig(), self.mag())
    }

    /// `{ √x : x ∈ X, x >= 0 }` enclosed, or `None` if `hi < 0` (no member
    /// has a real square root).
    ///
    /// The negative part of `X` is ignored (clamped to `0`). Endpoints are
    /// the correctly rounded IEEE square roots widened by one ulp.
    #[inline]
    pub fn sqrt(self) -> Option<Self> {
        if self.hi < T::zero() {
            return None;
        }
        Some(Self::raw(
            round::sqrt_down(self.lo),
            round::sqrt_up(self.hi),
        ))
    }

    /// `{ sin x : x ∈ X }` enclosed.
    ///
    /// Interior extrema are handled: the upper bound is `1` when some
    /// `π/2 + 2kπ` lies in `X`, the lower bound `-1` when some `-π/2 + 2kπ`
    /// does; otherwise the bounds come from the endpoint values. See
    /// [`Interval::cos`] for the accuracy argument.
    #[inline]
    pub fn sin(self) -> Self {
        let (lo, hi) = range(self, f64::sin, FRAC_PI_2, -FRAC_PI_2);
        self.convert(lo, hi)
    }

    /// `{ cos x : x ∈ X }` enclosed.
    ///
    /// The upper bound is `1` when some `2kπ` lies in `X`, the lower bound
    /// `-1` when some `π + 2kπ` does; otherwise the bounds are the endpoint
    /// values.
    ///
    /// # Guarantee
    ///
    /// - Endpoint values come from the platform libm in `f64`, assumed within
    ///   1 ulp, and are widened by 2 ulps each side (the `round` module), then
    ///   rounded outward to `T` and clamped to `[-1, 1]`.
    /// - The extremum test is conservative: it computes the range of `k` in
    ///   `f64` and widens it by `(|x| + 2) · 10⁻¹⁵`, about ten times the
    ///   worst rounding error of that computation, so an extremum inside `X`
    ///   is never missed (one within ~`10⁻¹⁴ · |x|` outside may be counted,
    ///   which only loosens the bound by a negligible amount).
    /// - A non-finite endpoint gives `[-1, 1]`.
    #[inline]
    pub fn cos(self) -> Self {
        let (lo, hi) = range(self, f64::cos, 0.0, PI);
        self.convert(lo, hi)
    }

    #[inline(always)]
    fn convert(self, lo: f64, hi: f64) -> Self {
        let one = T::one();
        Self::raw(
            round::max(round::from_f64_down(lo), -one),
            round::min(round::from_f64_up(hi), one),
        )
    }
}

/// Bounds of a `2π`-periodic `f` over `x`, whose maxima are at
/// `peak + 2kπ` and minima at `trough + 2kπ` (in `f64`, outward).
#[inline(always)]
fn range<T: Real>(x: Interval<T>, f: fn(f64) -> f64, peak: f64, trough: f64) -> (f64, f64) {
    let (a, b) = (x.lo.to_f64_exact(), x.hi.to_f64_exact());
    if !(a.is_finite() && b.is_finite()) || b - a >= TAU {
        return (-1.0, 1.0);
    }
    let (fa, fb) = (f(a), f(b));
    let mut lo = libm_down(fa.min(fb));
    let mut hi = libm_up(fa.max(fb));
    if contains_phase(a, b, peak) {
        hi = 1.0;
    }
    if contains_phase(a, b, trough) {
        lo = -1.0;
    }
    (lo.max(-1.0), hi.min(1.0))
}

/// Conservatively decides whether `[a, b]` contains `c + 2kπ` for an integer
/// `k` (`c` is `0`, `±π/2` or `π` rounded to `f64`).
///
/// `k` ranges over `[(a - c) / 2π, (b - c) / 2π]`. Evaluated in `f64`, each
/// end carries an error of at most about `10⁻¹⁶ + 5·10⁻¹⁷ · |x|` (the
/// rounding of `c`, of `2π`, of the subtraction and of the division); the
/// margin `(|x| + 2) · 10⁻¹⁵` exceeds that tenfold, so the answer is `true`
/// whenever the exact answer is. For huge `|x|` the margin exceeds `1/2` and
/// the answer is always `true` (the bound becomes `±1`, still valid).
#[inline(always)]
fn contains_phase(a: f64, b: f64, c: f64) -> bool {
    let ka = (a - c) / TAU - (a.abs() + 2.0) * 1e-15;
    let kb = (b - c) / TAU + (b.abs() + 2.0) * 1e-15;
    ka.ceil() <= kb.floor()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn phase_near_endpoint_is_included() {
        // π/2 in f64 is just below the true π/2; a peak at the endpoint counts.
        assert!(contains_phase(0.0, FRAC_PI_2, FRAC_PI_2));
        assert!(contains_phase(FRAC_PI_2.next_up(), 3.0, FRAC_PI_2));
        assert!(!contains_phase(0.0, 1.5, FRAC_PI_2));
        assert!(contains_phase(-0.1, 0.1, 0.0));
        assert!(contains_phase(TAU - 0.1, TAU + 0.1, 0.0));
        assert!(!contains_phase(0.1, 1.0, 0.0));
    }

    #[test]
    fn sqrt_of_straddling_interval() {
        let x = Interval::new(-4.0f64, 4.0).sqrt().unwrap();
        assert_eq!(x.lo(), 0.0);
        assert!(x.hi() > 2.0 && x.hi() < 2.0 + 1e-15);
        assert!(Interval::new(-4.0f32, -1.0).sqrt().is_none());
    }
}

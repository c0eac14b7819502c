//! The [`Interval`] type: construction, accessors, set operations and
//! "certainly" comparisons. Arithmetic lives in `arith.rs`, elementary
//! functions in `elementary.rs`.

use std::fmt;

use crate::Real;
use crate::round::{self, inf, max_finite};

/// A closed interval `[lo, hi]` of real numbers with floating-point endpoints.
///
/// # Invariants
///
/// `lo <= hi`, neither endpoint is NaN, `lo != +∞` and `hi != -∞`. Infinite
/// endpoints (`lo = -∞`, `hi = +∞`) appear only where documented: overflow
/// (e.g. `[MAX, MAX] + [MAX, MAX] = [MAX, +∞]`), the rays of a [`Division`],
/// and [`Interval::entire`].
///
/// # Guarantee
///
/// Every operation is *inclusion-preserving*: for an operation `∘`,
/// `X ∘ Y` contains `x ∘ y` for every real `x ∈ X`, `y ∈ Y`. Endpoints are
/// rounded outward (see the `round` module), so this holds exactly, not up to
/// round-off.
///
/// `PartialEq` compares endpoints exactly (set equality).
///
/// [`Division`]: crate::Division
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Interval<T> {
    pub(crate) lo: T,
    pub(crate) hi: T,
}

impl<T: Real> Interval<T> {
    /// The interval `[lo, hi]`.
    ///
    /// An infinite endpoint that no real number could reach is pulled in to
    /// the largest finite value: `lo = +∞` becomes `MAX` and `hi = -∞` becomes
    /// `-MAX` (an overflowed value, known only to lie beyond `MAX`).
    ///
    /// # Panics
    ///
    /// In debug builds, if [`Interval::try_new`] would return `None`
    /// (`lo > hi` or a NaN endpoint). Release builds repair the input
    /// conservatively: swapped endpoints are reordered and a NaN endpoint
    /// gives [`Interval::entire`].
    #[inline]
    pub fn new(lo: T, hi: T) -> Self {
        match Self::try_new(lo, hi) {
            Some(x) => x,
            None => {
                debug_assert!(false, "Interval::new({lo}, {hi}): lo > hi or NaN");
                if is_nan(lo) || is_nan(hi) {
                    Self::entire()
                } else {
                    Self::normalized(hi, lo)
                }
            }
        }
    }

    /// The interval `[lo, hi]`, or `None` if `lo > hi` or an endpoint is NaN.
    ///
    /// Infinite endpoints are normalized as in [`Interval::new`].
    #[inline]
    pub fn try_new(lo: T, hi: T) -> Option<Self> {
        if lo <= hi {
            Some(Self::normalized(lo, hi))
        } else {
            None
        }
    }

    #[inline(always)]
    fn normalized(lo: T, hi: T) -> Self {
        let lo = if lo == inf() { max_finite() } else { lo };
        let hi = if hi == -inf::<T>() {
            -max_finite::<T>()
        } else {
            hi
        };
        Self { lo, hi }
    }

    /// The degenerate interval `[x, x]` (exact).
    ///
    /// `x = ±∞` gives the overflow ray `[MAX, +∞]` / `[-∞, -MAX]`.
    ///
    /// # Panics
    ///
    /// In debug builds, if `x` is NaN (release builds return
    /// [`Interval::entire`]).
    #[inline]
    pub fn point(x: T) -> Self {
        if x.finite() {
            Self { lo: x, hi: x }
        } else {
            Self::new(x, x)
        }
    }

    /// The whole real line `[-∞, +∞]`.
    #[inline]
    pub fn entire() -> Self {
        Self {
            lo: -inf::<T>(),
            hi: inf(),
        }
    }

    /// Builds an interval from endpoints the caller knows satisfy the
    /// invariants (checked in debug builds only).
    #[inline(always)]
    pub(crate) fn raw(lo: T, hi: T) -> Self {
        debug_assert!(
            lo <= hi && lo != inf::<T>() && hi != -inf::<T>(),
            "[{lo}, {hi}]"
        );
        Self { lo, hi }
    }

    /// The lower endpoint.
    #[inline(always)]
    pub fn lo(self) -> T {
        self.lo
    }

    /// The upper endpoint.
    #[inline(always)]
    pub fn hi(self) -> T {
        self.hi
    }

    /// `true` if `lo == hi`.
    #[inline]
    pub fn is_point(self) -> bool {
        self.lo == self.hi
    }

    /// `true` if both endpoints are finite.
    #[inline]
    pub fn is_bounded(self) -> bool {
        self.lo.finite() && self.hi.finite()
    }

    /// A point of the interval near its centre.
    ///
    /// # Guarantee
    ///
    /// `lo <= midpoint <= hi`, always (the rounded centre is clamped into the
    /// interval). Unbounded intervals give `0` for `[-∞, +∞]` and `∓MAX` for a
    /// half-line.
    #[inline]
    pub fn midpoint(self) -> T {
        let (lo, hi) = (self.lo, self.hi);
        if lo == hi {
            return lo;
        }
        let neg_inf = -inf::<T>();
        match (lo == neg_inf, hi == inf()) {
            (true, true) => return T::zero(),
            (true, false) => return -max_finite::<T>(),
            (false, true) => return max_finite(),
            (false, false) => {}
        }
        let half = T::lit(0.5);
        let mut m = (lo + hi) * half;
        if !m.finite() {
            m = lo * half + hi * half;
        }
        round::min(round::max(m, lo), hi)
    }

    /// Upper bound of `hi - lo` (`0` for a point, `+∞` if unbounded).
    #[inline]
    pub fn width(self) -> T {
        if self.lo == self.hi {
            T::zero()
        } else {
            round::sub_up(self.hi, self.lo)
        }
    }

    /// The mignitude `min { |x| : x ∈ X }` (exact; `0` if `X` contains 0).
    #[inline]
    pub fn mig(self) -> T {
        if self.lo > T::zero() {
            self.lo
        } else if self.hi < T::zero() {
            -self.hi
        } else {
            T::zero()
        }
    }

    /// The magnitude `max { |x| : x ∈ X }` (exact).
    #[inline]
    pub fn mag(self) -> T {
        round::max(-self.lo, self.hi)
    }

    /// `true` if `lo <= x <= hi` (`false` for NaN).
    #[inline]
    pub fn contains(self, x: T) -> bool {
        self.lo <= x && x <= self.hi
    }

    /// `true` if `0 ∈ X`.
    #[inline]
    pub fn contains_zero(self) -> bool {
        self.lo <= T::zero() && T::zero() <= self.hi
    }

    /// `true` if `other ⊆ self`.
    #[inline]
    pub fn contains_interval(self, other: Self) -> bool {
        self.lo <= other.lo && other.hi <= self.hi
    }

    /// The smallest interval containing both `self` and `other` (exact).
    #[inline]
    pub fn hull(self, other: Self) -> Self {
        Self::raw(round::min(self.lo, other.lo), round::max(self.hi, other.hi))
    }

    /// `X ∩ Y`, or `None` if they are disjoint (exact).
    #[inline]
    pub fn intersect(self, other: Self) -> Option<Self> {
        let lo = round::max(self.lo, other.lo);
        let hi = round::min(self.hi, other.hi);
        if lo <= hi {
            Some(Self::raw(lo, hi))
        } else {
            None
        }
    }

    /// Splits at [`Interval::midpoint`] into `[lo, m]` and `[m, hi]`, whose
    /// union is `self`.
    #[inline]
    pub fn bisect(self) -> (Self, Self) {
        let m = self.midpoint();
        (Self::raw(self.lo, m), Self::raw(m, self.hi))
    }

    /// `true` if `x < y` for every `x ∈ self`, `y ∈ o` (`hi < o.lo`).
    #[inline]
    pub fn certainly_lt(self, o: Self) -> bool {
        self.hi < o.lo
    }

    /// `true` if `x <= y` for every `x ∈ self`, `y ∈ o` (`hi <= o.lo`).
    #[inline]
    pub fn certainly_le(self, o: Self) -> bool {
        self.hi <= o.lo
    }

    /// `true` if `x > y` for every `x ∈ self`, `y ∈ o` (`lo > o.hi`).
    #[inline]
    pub fn certainly_gt(self, o: Self) -> bool {
        self.lo > o.hi
    }

    /// `true` if `x >= y` for every `x ∈ self`, `y ∈ o` (`lo >= o.hi`).
    #[inline]
    pub fn certainly_ge(self, o: Self) -> bool {
        self.lo >= o.hi
    }

    /// `true` if every member is `> 0`.
    #[inline]
    pub fn certainly_positive(self) -> bool {
        self.lo > T::zero()
    }

    /// `true` if every member is `< 0`.
    #[inline]
    pub fn certainly_negative(self) -> bool {
        self.hi < T::zero()
    }
}

impl<T: Real> Default for Interval<T> {
    /// `[0, 0]`.
    fn default() -> Self {
        Self::point(T::zero())
    }
}

impl<T: Real> fmt::Display for Interval<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "[{}, {}]", self.lo, self.hi)
    }
}

#[inline(always)]
fn is_nan<T: Real>(x: T) -> bool {
    x.to_f64_exact().is_nan()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn construction() {
        assert!(Interval::try_new(2.0, 1.0).is_none());
        assert!(Interval::try_new(f64::NAN, 1.0).is_none());
        let x = Interval::new(f64::INFINITY, f64::INFINITY);
        assert_eq!((x.lo(), x.hi()), (f64::MAX, f64::INFINITY));
        assert_eq!(Interval::point(-0.0f32).mig(), 0.0);
    }

    #[test]
    fn midpoint_stays_inside() {
        let tiny = f64::from_bits(1);
        let x = Interval::new(tiny, tiny.step_up());
        assert!(x.contains(x.midpoint()));
        let big = Interval::new(-f64::MAX, f64::MAX);
        assert_eq!(big.midpoint(), 0.0);
        let huge = Interval::new(f64::MAX / 2.0, f64::MAX);
        assert!(huge.contains(huge.midpoint()));
        assert_eq!(Interval::<f64>::entire().midpoint(), 0.0);
    }
}

//! Interval arithmetic: `+`, `-`, `·`, negation, `sqr`, reciprocal and
//! division, with interval and mixed interval/scalar operands.
//!
//! Every result contains `x ∘ y` for all `x ∈ X`, `y ∈ Y` (or `x ∘ s` for
//! the scalar `s`); endpoints are rounded outward by the `round` module.
//! Scalar operands must be finite (checked in debug builds).

use std::iter::Sum;
use std::ops::{Add, AddAssign, Mul, MulAssign, Neg, Sub, SubAssign};

use crate::round::{self, inf};
use crate::{Interval, Real};

/// Result of an interval division `X / D` (or reciprocal `1 / D`).
///
/// # Guarantee
///
/// The union of the returned intervals contains `x / d` for every `x ∈ X`
/// and every *nonzero* `d ∈ D`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Division<T> {
    /// One interval. It is finite whenever `0 ∉ D`, `X` is finite and no
    /// quotient overflows; when zero is an *endpoint* of `D` (e.g.
    /// `[1, 2] / [0, 4]`) it is a ray with one infinite end (`[1/4, +∞]`).
    Bounded(Interval<T>),
    /// `D` strictly straddles zero and `0 ∉ X`: the two rays
    /// `[-∞, a]` and `[b, +∞]`, `a < b`, in that order (rays that would
    /// meet give [`Division::Unbounded`] instead).
    Split(Interval<T>, Interval<T>),
    /// No information: `0 ∈ X` and `0 ∈ D` (any real is a limit of quotients),
    /// `D = [0, 0]` (no quotient exists), or two rays that meet.
    Unbounded,
}

impl<T: Real> Division<T> {
    /// The single interval when the result is [`Division::Bounded`].
    #[inline]
    pub fn bounded(self) -> Option<Interval<T>> {
        match self {
            Division::Bounded(x) => Some(x),
            _ => None,
        }
    }

    /// One interval containing the whole result (`[-∞, +∞]` unless
    /// [`Division::Bounded`]).
    #[inline]
    pub fn hull(self) -> Interval<T> {
        self.bounded().unwrap_or_else(Interval::entire)
    }

    /// `true` if `q` lies in the result set.
    #[inline]
    pub fn contains(self, q: T) -> bool {
        match self {
            Division::Bounded(x) => x.contains(q),
            Division::Split(a, b) => a.contains(q) || b.contains(q),
            Division::Unbounded => !q.to_f64_exact().is_nan(),
        }
    }
}

impl<T: Real> Interval<T> {
    /// `{ x² : x ∈ X }` enclosed: tighter than `X · X`, lower bound `0` when
    /// `X` straddles zero, never negative.
    #[inline]
    pub fn sqr(self) -> Self {
        let zero = T::zero();
        if self.lo >= zero {
            Self::raw(
                round::max(round::mul_down(self.lo, self.lo), zero),
                round::mul_up(self.hi, self.hi),
            )
        } else if self.hi <= zero {
            Self::raw(
                round::max(round::mul_down(self.hi, self.hi), zero),
                round::mul_up(self.lo, self.lo),
            )
        } else {
            let m = self.mag();
            Self::raw(zero, round::mul_up(m, m))
        }
    }

    /// `s - X` for a finite scalar `s`: `[s - hi, s - lo]`, rounded outward
    /// (the generic form of `s - X`, which std's operator traits only allow
    /// for concrete `f32`/`f64`).
    #[inline]
    pub fn rsub(self, s: T) -> Self {
        sub_si(s, self)
    }

    /// `1 / X`: contains `1 / x` for every nonzero `x ∈ X`; see [`Division`]
    /// for the cases where `0 ∈ X`.
    #[inline]
    pub fn recip(self) -> Division<T> {
        Self::point(T::one()).div(self)
    }

    /// `X / D`: contains `x / d` for every `x ∈ X` and nonzero `d ∈ D`.
    ///
    /// A divisor containing zero gives a ray ([`Division::Bounded`] with an
    /// infinite end), two rays ([`Division::Split`]) or
    /// [`Division::Unbounded`]; a divisor excluding zero gives a finite
    /// [`Division::Bounded`] (for finite `X`).
    #[allow(clippy::should_implement_trait)] // the result is a `Division`, not an `Interval`
    #[inline]
    pub fn div(self, d: Self) -> Division<T> {
        let zero = T::zero();
        if d.lo > zero {
            return Division::Bounded(div_positive(self, d));
        }
        if d.hi < zero {
            return Division::Bounded(-div_positive(self, -d));
        }
        // 0 ∈ D from here on.
        if self.contains_zero() || (d.lo == zero && d.hi == zero) {
            return Division::Unbounded;
        }
        let neg_inf = -inf::<T>();
        // `x` is the member of X nearest zero; `below`/`above` are the rays
        // obtained from divisors in [d.lo, 0) and (0, d.hi].
        let (below, above) = if self.lo > zero {
            let x = self.lo;
            (
                Self::raw(neg_inf, round::div_up(x, d.lo)),
                Self::raw(round::div_down(x, d.hi), inf()),
            )
        } else {
            let x = self.hi;
            (
                Self::raw(neg_inf, round::div_up(x, d.hi)),
                Self::raw(round::div_down(x, d.lo), inf()),
            )
        };
        // A zero endpoint of D leaves only the ray from its nonzero side.
        // For X > 0: d ∈ (0, d.hi] gives `above`, d ∈ [d.lo, 0) gives `below`;
        // for X < 0 the roles swap.
        let positive_x = self.lo > zero;
        match (d.lo == zero, d.hi == zero) {
            (true, _) => Division::Bounded(if positive_x { above } else { below }),
            (_, true) => Division::Bounded(if positive_x { below } else { above }),
            // Rays that meet (quotients underflowing to zero, or an infinite
            // end of D) cover the whole line.
            _ if below.hi >= above.lo => Division::Unbounded,
            _ => Division::Split(below, above),
        }
    }
}

/// `X / D` for `D > 0` (`d.lo > 0`).
///
/// For `d > 0`, `x / d` increases with `x`; for fixed `x` it decreases with
/// `d` when `x >= 0` and increases when `x < 0`. So the minimum is
/// `lo / d.hi` (if `lo >= 0`) or `lo / d.lo`, the maximum `hi / d.lo` (if
/// `hi >= 0`) or `hi / d.hi`. The exact cases of `round::div_down` (zero
/// dividend, infinite divisor) only occur where `0` is the needed bound.
#[inline(always)]
fn div_positive<T: Real>(x: Interval<T>, d: Interval<T>) -> Interval<T> {
    let zero = T::zero();
    let lo = if x.lo >= zero {
        round::div_down(x.lo, d.hi)
    } else {
        round::div_down(x.lo, d.lo)
    };
    let hi = if x.hi >= zero {
        round::div_up(x.hi, d.lo)
    } else {
        round::div_up(x.hi, d.hi)
    };
    Interval::raw(lo, hi)
}

/// `X · Y`: the min and max of the four endpoint products, each rounded
/// outward (`0 · ∞` counts as `0`). Correct for every sign combination.
#[inline(always)]
fn mul_ii<T: Real>(a: Interval<T>, b: Interval<T>) -> Interval<T> {
    let lo = round::min(
        round::min(round::mul_down(a.lo, b.lo), round::mul_down(a.lo, b.hi)),
        round::min(round::mul_down(a.hi, b.lo), round::mul_down(a.hi, b.hi)),
    );
    let hi = round::max(
        round::max(round::mul_up(a.lo, b.lo), round::mul_up(a.lo, b.hi)),
        round::max(round::mul_up(a.hi, b.lo), round::mul_up(a.hi, b.hi)),
    );
    Interval::raw(lo, hi)
}

/// `X · s` for a finite scalar: one sign test picks the endpoint order;
/// `s = 0` gives exactly `[0, 0]`.
#[inline(always)]
fn mul_is<T: Real>(a: Interval<T>, s: T) -> Interval<T> {
    debug_assert!(s.finite(), "scalar operand {s} must be finite");
    let zero = T::zero();
    if s > zero {
        Interval::raw(round::mul_down(a.lo, s), round::mul_up(a.hi, s))
    } else if s < zero {
        Interval::raw(round::mul_down(a.hi, s), round::mul_up(a.lo, s))
    } else {
        Interval::raw(zero, zero)
    }
}

#[inline(always)]
fn add_is<T: Real>(a: Interval<T>, s: T) -> Interval<T> {
    debug_assert!(s.finite(), "scalar operand {s} must be finite");
    Interval::raw(round::add_down(a.lo, s), round::add_up(a.hi, s))
}

#[inline(always)]
fn sub_is<T: Real>(a: Interval<T>, s: T) -> Interval<T> {
    debug_assert!(s.finite(), "scalar operand {s} must be finite");
    Interval::raw(round::sub_down(a.lo, s), round::sub_up(a.hi, s))
}

#[inline(always)]
fn sub_si<T: Real>(s: T, a: Interval<T>) -> Interval<T> {
    debug_assert!(s.finite(), "scalar operand {s} must be finite");
    Interval::raw(round::sub_down(s, a.hi), round::sub_up(s, a.lo))
}

impl<T: Real> Neg for Interval<T> {
    type Output = Self;
    /// `[-hi, -lo]` (exact).
    #[inline(always)]
    fn neg(self) -> Self {
        Interval::raw(-self.hi, -self.lo)
    }
}

impl<T: Real> Add for Interval<T> {
    type Output = Self;
    /// `[lo + o.lo, hi + o.hi]`, rounded outward.
    #[inline(always)]
    fn add(self, o: Self) -> Self {
        Interval::raw(round::add_down(self.lo, o.lo), round::add_up(self.hi, o.hi))
    }
}

impl<T: Real> Sub for Interval<T> {
    type Output = Self;
    /// `[lo - o.hi, hi - o.lo]`, rounded outward.
    #[inline(always)]
    fn sub(self, o: Self) -> Self {
        Interval::raw(round::sub_down(self.lo, o.hi), round::sub_up(self.hi, o.lo))
    }
}

impl<T: Real> Mul for Interval<T> {
    type Output = Self;
    /// Min/max of the four endpoint products, rounded outward.
    #[inline(always)]
    fn mul(self, o: Self) -> Self {
        mul_ii(self, o)
    }
}

impl<T: Real> Add<T> for Interval<T> {
    type Output = Self;
    /// `[lo + s, hi + s]`, rounded outward.
    #[inline(always)]
    fn add(self, s: T) -> Self {
        add_is(self, s)
    }
}

impl<T: Real> Sub<T> for Interval<T> {
    type Output = Self;
    /// `[lo - s, hi - s]`, rounded outward.
    #[inline(always)]
    fn sub(self, s: T) -> Self {
        sub_is(self, s)
    }
}

impl<T: Real> Mul<T> for Interval<T> {
    type Output = Self;
    /// `X · s` with one sign test, rounded outward (`s = 0` is exact).
    #[inline(always)]
    fn mul(self, s: T) -> Self {
        mul_is(self, s)
    }
}

macro_rules! scalar_lhs {
    ($($t:ty),*) => {$(
        impl Add<Interval<$t>> for $t {
            type Output = Interval<$t>;
            /// `s + X`, rounded outward.
            #[inline(always)]
            fn add(self, x: Interval<$t>) -> Interval<$t> {
                add_is(x, self)
            }
        }

        impl Sub<Interval<$t>> for $t {
            type Output = Interval<$t>;
            /// `[s - hi, s - lo]`, rounded outward.
            #[inline(always)]
            fn sub(self, x: Interval<$t>) -> Interval<$t> {
                sub_si(self, x)
            }
        }

        impl Mul<Interval<$t>> for $t {
            type Output = Interval<$t>;
            /// `s · X`, rounded outward.
            #[inline(always)]
            fn mul(self, x: Interval<$t>) -> Interval<$t> {
                mul_is(x, self)
            }
        }
    )*};
}

scalar_lhs!(f32, f64);

macro_rules! assign_ops {
    ($($tr:ident $m:ident $op:tt),*) => {$(
        impl<T: Real> $tr for Interval<T> {
            #[inline(always)]
            fn $m(&mut self, o: Self) {
                *self = *self $op o;
            }
        }

        impl<T: Real> $tr<T> for Interval<T> {
            #[inline(always)]
            fn $m(&mut self, s: T) {
                *self = *self $op s;
            }
        }
    )*};
}

assign_ops!(AddAssign add_assign +, SubAssign sub_assign -, MulAssign mul_assign *);

impl<T: Real> Sum for Interval<T> {
    /// Outward-rounded sum, starting from `[0, 0]`.
    fn sum<I: Iterator<Item = Self>>(iter: I) -> Self {
        iter.fold(Interval::point(T::zero()), |a, b| a + b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sign_cases_of_the_product() {
        let i = |a: f64, b: f64| Interval::new(a, b);
        for (x, y, lo, hi) in [
            (i(-1.0, 2.0), i(-3.0, 1.0), -6.0, 3.0),
            (i(0.0, 2.0), i(0.0, 3.0), 0.0, 6.0),
            (i(-3.0, 1.0), i(0.0, 2.0), -6.0, 2.0),
        ] {
            let p = x * y;
            assert!(p.lo() <= lo && lo - p.lo() < 1e-14, "{p}");
            assert!(p.hi() >= hi && p.hi() - hi < 1e-14, "{p}");
        }
    }

    #[test]
    fn division_shapes() {
        let i = |a: f64, b: f64| Interval::new(a, b);
        assert!(matches!(i(1.0, 2.0).div(i(-1.0, 1.0)), Division::Split(..)));
        assert_eq!(i(1.0, 2.0).div(i(0.0, 0.0)), Division::Unbounded);
        assert_eq!(i(-1.0, 2.0).div(i(-1.0, 1.0)), Division::Unbounded);
        let ray = i(1.0, 2.0).div(i(0.0, 4.0)).bounded().unwrap();
        assert!(ray.lo() <= 0.25 && ray.hi() == f64::INFINITY);
    }
}

//! Shared strategies and exact-arithmetic oracles for the property tests.
//!
//! Oracle: every finite `f32`/`f64` is a dyadic rational, so the exact value
//! of a polynomial expression of members is a `BigRational`; an interval
//! result must contain it (an infinite endpoint counts as unbounded).

#![allow(dead_code)]

use ccd_interval::{Interval, Real};
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{Signed, Zero};
use proptest::prelude::*;

/// The exact rational value of a finite scalar.
pub fn q<T: Real>(x: T) -> BigRational {
    BigRational::from_float(x.to_f64_exact()).expect("finite")
}

/// `lo <= e`, with `lo = -∞` always true.
pub fn lo_le<T: Real>(lo: T, e: &BigRational) -> bool {
    let f = lo.to_f64_exact();
    if f == f64::NEG_INFINITY {
        true
    } else if f.is_finite() {
        q(lo) <= *e
    } else {
        false
    }
}

/// `e <= hi`, with `hi = +∞` always true.
pub fn hi_ge<T: Real>(hi: T, e: &BigRational) -> bool {
    let f = hi.to_f64_exact();
    if f == f64::INFINITY {
        true
    } else if f.is_finite() {
        *e <= q(hi)
    } else {
        false
    }
}

/// `e ∈ x` in exact arithmetic.
pub fn encloses<T: Real>(x: Interval<T>, e: &BigRational) -> bool {
    lo_le(x.lo(), e) && hi_ge(x.hi(), e)
}

/// Tightness: `lo` is at most two ulps below the exact lower bound `e`
/// (one for the outward step, one for round-to-nearest), unless `lo`
/// overflowed or `e` is beyond `T`'s finite range.
pub fn lo_tight<T: Real>(lo: T, e: &BigRational) -> bool {
    if !lo.finite() || lo.abs() == T::max_value().unwrap() || e.abs() >= q(T::max_value().unwrap())
    {
        return true;
    }
    let u = lo.step_up().step_up();
    !u.finite() || *e <= q(u)
}

/// Tightness of an upper bound, as [`lo_tight`].
pub fn hi_tight<T: Real>(hi: T, e: &BigRational) -> bool {
    if !hi.finite() || hi.abs() == T::max_value().unwrap() || e.abs() >= q(T::max_value().unwrap())
    {
        return true;
    }
    let d = hi.step_down().step_down();
    !d.finite() || q(d) <= *e
}

/// Exact `m · 2^e` in `f64` up to the final rounding (no intermediate
/// overflow/underflow).
pub fn ldexp(m: f64, e: i32) -> f64 {
    let mut v = m;
    let mut e = e;
    while e > 500 {
        v *= 2f64.powi(500);
        e -= 500;
    }
    while e < -500 {
        v *= 2f64.powi(-500);
        e += 500;
    }
    v * 2f64.powi(e)
}

/// Scalars mixing specials (±0, ±1, subnormals, the largest finite), small
/// integers, moderate uniform values and log-uniform values over the whole
/// exponent range of `T`.
pub fn scalar<T: Real>() -> BoxedStrategy<T> {
    let (emin, emax) = if T::NAME == "f32" {
        (-149, 127)
    } else {
        (-1074, 1023)
    };
    let max = T::max_value().unwrap();
    let tiny = T::zero().step_up();
    let min_normal = T::lit(if T::NAME == "f32" {
        f32::MIN_POSITIVE as f64
    } else {
        f64::MIN_POSITIVE
    });
    let specials = vec![
        T::zero(),
        -T::zero(),
        T::one(),
        -T::one(),
        T::lit(0.5),
        T::lit(-2.0),
        tiny,
        -tiny,
        tiny.step_up(),
        min_normal,
        -min_normal,
        min_normal.step_down(),
        max,
        -max,
        max.step_down(),
        T::EPSILON,
        T::one().step_up(),
        T::one().step_down(),
    ];
    prop_oneof![
        2 => prop::sample::select(specials),
        2 => (-20i32..=20).prop_map(|i| T::lit(i as f64)),
        3 => (-1.0e3f64..1.0e3).prop_map(T::lit),
        3 => (any::<bool>(), 1.0f64..2.0, emin..=emax).prop_map(move |(neg, m, e)| {
            let v = T::lit(ldexp(if neg { -m } else { m }, e));
            if v.finite() {
                v
            } else if v > T::zero() {
                max
            } else {
                -max
            }
        }),
    ]
    .boxed()
}

/// Finite intervals: points, general pairs, straddling zero, touching ±0,
/// and a few ulps wide.
pub fn interval<T: Real>() -> BoxedStrategy<Interval<T>> {
    prop_oneof![
        1 => scalar::<T>().prop_map(Interval::point),
        3 => (scalar::<T>(), scalar::<T>()).prop_map(|(a, b)| {
            if a <= b { Interval::new(a, b) } else { Interval::new(b, a) }
        }),
        1 => (scalar::<T>(), scalar::<T>()).prop_map(|(a, b)| Interval::new(-a.abs(), b.abs())),
        1 => (scalar::<T>(), any::<bool>()).prop_map(|(a, neg)| {
            let z = if neg { -T::zero() } else { T::zero() };
            if a >= T::zero() { Interval::new(z, a) } else { Interval::new(a, z) }
        }),
        1 => (scalar::<T>(), 0u32..4).prop_map(|(a, k)| {
            let mut b = a;
            for _ in 0..k {
                if b.step_up().finite() {
                    b = b.step_up();
                }
            }
            Interval::new(a, b)
        }),
    ]
    .boxed()
}

/// Proptest configuration: `cases` cases (or `PROPTEST_CASES` when set, for
/// soak runs), failures persisted next to the test source
/// (`tests/<name>.proptest-regressions`).
pub fn config(cases: u32) -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(cases);
    ProptestConfig {
        cases,
        failure_persistence: Some(Box::new(
            proptest::test_runner::FileFailurePersistence::WithSource("proptest-regressions"),
        )),
        ..ProptestConfig::default()
    }
}

/// A selector for [`member`].
pub fn pick() -> BoxedStrategy<(u8, f64)> {
    (any::<u8>(), 0.0f64..=1.0).boxed()
}

/// A member of the finite interval `x` chosen by `(sel, frac)`: an endpoint,
/// the midpoint, zero (if inside), or the point at fraction `frac`.
pub fn member<T: Real>(x: Interval<T>, (sel, frac): (u8, f64)) -> T {
    let (lo, hi) = (x.lo(), x.hi());
    let v = match sel % 6 {
        0 => lo,
        1 => hi,
        2 => x.midpoint(),
        3 if x.contains_zero() => T::zero(),
        _ => {
            let (a, b) = (lo.to_f64_exact(), hi.to_f64_exact());
            let mut f = a + frac * (b - a);
            if !f.is_finite() {
                f = a * (1.0 - frac) + b * frac;
            }
            T::lit(f)
        }
    };
    if v < lo {
        lo
    } else if v > hi {
        hi
    } else {
        v
    }
}

/// Encloses `sin x` (`cos = false`) or `cos x` for a rational `|x| <= 4`: the
/// Taylor polynomial `s` and the Lagrange remainder bound `r`, so the exact
/// value lies in `[s - r, s + r]` with `r < 10⁻⁶⁰`.
pub fn taylor(x: &BigRational, cos: bool) -> (BigRational, BigRational) {
    let x2 = x * x;
    let mut term = if cos {
        BigRational::from_integer(1.into())
    } else {
        x.clone()
    };
    let mut n: i64 = if cos { 0 } else { 1 };
    let mut sum = BigRational::zero();
    let eps = BigRational::new(1.into(), BigInt::from(10).pow(60));
    loop {
        sum += &term;
        term = -(term * &x2) / BigRational::from_integer(BigInt::from((n + 1) * (n + 2)));
        n += 2;
        if term.abs() < eps && n > 10 {
            // |R| <= |x|^n / n! = |term| (the skipped degree has a zero coefficient).
            return (sum, term.abs());
        }
    }
}

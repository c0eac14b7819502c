//! `sqrt`, `sin` and `cos` of intervals.
//!
//! Oracles:
//! - `sqrt`: exact, in rationals: `lo <= √x` ⇔ `lo <= 0 ∨ lo² <= x`, and
//!   `√x <= hi` ⇔ `x <= hi²`.
//! - `sin`/`cos` for `|x| <= 4`: a Taylor polynomial with a Lagrange
//!   remainder bound in rationals (independent of libm); the result must
//!   contain the whole enclosure `[s - r, s + r]`, `r < 10⁻⁶⁰`.
//! - `sin`/`cos` for larger `|x|`: the platform libm value widened by one ulp
//!   on each side must lie in the result (this checks containment and the
//!   outward direction of the widening, trusting libm to 1 ulp).
//!
//! Members are sampled from each interval, including the float nearest to a
//! multiple of `π/2` inside it, so a missed interior extremum fails.

mod common;

use std::f64::consts::FRAC_PI_2;

use ccd_interval::{Interval, Real};
use common::*;
use proptest::prelude::*;

fn check_sqrt<T: Real>(x: Interval<T>, a: T) -> Result<(), TestCaseError> {
    match x.sqrt() {
        None => prop_assert!(x.hi() < T::zero()),
        Some(r) => {
            prop_assert!(r.lo() >= T::zero());
            if a >= T::zero() {
                let qa = q(a);
                let lo_ok = r.lo() <= T::zero() || q(r.lo()) * q(r.lo()) <= qa;
                let hi_ok = !r.hi().finite() || qa <= q(r.hi()) * q(r.hi());
                prop_assert!(lo_ok && hi_ok, "sqrt {x} = {r} misses sqrt {a}");
            }
            // One ulp from the correctly rounded root.
            if x.hi() > T::zero() && x.hi().finite() {
                prop_assert!(r.hi() == x.hi().sqrt().step_up());
            }
        }
    }
    Ok(())
}

/// A member of `x` near a multiple of `π/2` (a candidate extremum), if any.
fn near_extremum<T: Real>(x: Interval<T>) -> T {
    let c = x.midpoint().to_f64_exact();
    let k = (c / FRAC_PI_2).round();
    let v = T::lit(k * FRAC_PI_2);
    if v < x.lo() {
        x.lo()
    } else if v > x.hi() {
        x.hi()
    } else {
        v
    }
}

fn check_trig<T: Real>(x: Interval<T>, a: T) -> Result<(), TestCaseError> {
    for (cos, r) in [(false, x.sin()), (true, x.cos())] {
        let name = if cos { "cos" } else { "sin" };
        prop_assert!(r.lo() >= -T::one() && r.hi() <= T::one() && r.lo() <= r.hi());
        for v in [a, near_extremum(x)] {
            let f = v.to_f64_exact();
            if f.abs() <= 4.0 {
                let (s, err) = taylor(&q(v), cos);
                prop_assert!(
                    lo_le(r.lo(), &(&s - &err)) && hi_ge(r.hi(), &(&s + &err)),
                    "{name} {x} = {r} misses {name}({v})"
                );
            } else {
                let y = if cos { f.cos() } else { f.sin() };
                let (lo, hi) = (r.lo().to_f64_exact(), r.hi().to_f64_exact());
                prop_assert!(
                    lo <= y.next_down().max(-1.0) && y.next_up().min(1.0) <= hi,
                    "{name} {x} = {r} misses libm {name}({v}) = {y}"
                );
            }
        }
    }
    Ok(())
}

/// Intervals around multiples of `π/2`, where the extremum logic matters.
fn trig_interval<T: Real>() -> BoxedStrategy<Interval<T>> {
    prop_oneof![
        2 => interval::<T>(),
        3 => (-12i32..12, -1e-3f64..1e-3, 0.0f64..1e-3).prop_map(|(k, off, w)| {
            let a = T::lit(k as f64 * FRAC_PI_2 + off);
            let b = T::lit(k as f64 * FRAC_PI_2 + off + w);
            Interval::new(a, if b < a { a } else { b })
        }),
        2 => (-12i32..12, 0u32..3, 0u32..3).prop_map(|(k, dl, dh)| {
            // A few ulps around the float nearest to k·π/2.
            let c = T::lit(k as f64 * FRAC_PI_2);
            let (mut a, mut b) = (c, c);
            for _ in 0..dl { a = a.step_down(); }
            for _ in 0..dh { b = b.step_up(); }
            Interval::new(a, b)
        }),
        2 => (-10.0f64..10.0, 0.0f64..7.0).prop_map(|(a, w)| Interval::new(T::lit(a), T::lit(a + w))),
    ]
    .boxed()
}

macro_rules! elementary_tests {
    ($m:ident, $t:ty) => {
        mod $m {
            use super::*;

            proptest! {
                #![proptest_config(config(256))]

                #[test]
                fn sqrt_inclusion((x, pa) in (interval::<$t>(), pick())) {
                    check_sqrt(x, member(x, pa))?;
                }

                #[test]
                fn sin_cos_inclusion((x, pa) in (trig_interval::<$t>(), pick())) {
                    check_trig(x, member(x, pa))?;
                }
            }
        }
    };
}

elementary_tests!(f32_elem, f32);
elementary_tests!(f64_elem, f64);

#[test]
fn wide_and_unbounded_give_unit_range() {
    let full = Interval::new(-1.0, 1.0);
    assert_eq!(Interval::new(0.0, 7.0).sin(), full);
    assert_eq!(Interval::new(1.0, f64::INFINITY).cos(), full);
    assert_eq!(Interval::new(-1e300, 1e300).sin(), full);
}

#[test]
fn monotone_pieces_are_tight() {
    let x = Interval::new(0.1f64, 0.2);
    let s = x.sin();
    assert!(s.lo() < 0.1f64.sin() && 0.1f64.sin() - s.lo() < 1e-16);
    assert!(s.hi() > 0.2f64.sin() && s.hi() - 0.2f64.sin() < 1e-16);
    let c = x.cos();
    assert!(c.lo() < 0.2f64.cos() && c.hi() > 0.1f64.cos() && c.hi() < 1.0);
}

#[test]
fn extrema_inside_are_reached() {
    // Peak of cos at 2π·3, trough of sin at -π/2.
    let c = Interval::new(
        6.0 * std::f64::consts::PI - 0.01,
        6.0 * std::f64::consts::PI + 0.01,
    )
    .cos();
    assert_eq!(c.hi(), 1.0);
    let s = Interval::new(-1.6f32, -1.5).sin();
    assert_eq!(s.lo(), -1.0);
    assert!(s.hi() < -0.99);
}

#[test]
fn sqrt_of_exact_squares() {
    let r = Interval::new(4.0f64, 9.0).sqrt().unwrap();
    assert!(r.lo() < 2.0 && r.lo() == 2.0f64.next_down());
    assert_eq!(r.hi(), 3.0f64.next_up());
    assert_eq!(
        Interval::new(-0.0f64, 0.0).sqrt().unwrap(),
        Interval::point(0.0)
    );
}

//! Interval products in every sign case, subtraction, reciprocal, mig/mag and sin/cos with interior extrema, plus
//! the division cases. Outward rounding may widen a result by a few ulps, so
//! "expected `[a, b]`" is checked as "contains `[a, b]`, within `1e-12`".

use std::f64::consts::{FRAC_PI_2, PI};

use ccd_interval::{Division, Interval};

fn i(lo: f64, hi: f64) -> Interval<f64> {
    Interval::new(lo, hi)
}

/// `got ⊇ [lo, hi]` and each end within `1e-12` of the expected one.
fn assert_close(got: Interval<f64>, lo: f64, hi: f64) {
    assert!(
        got.lo() <= lo && got.hi() >= hi,
        "{got} does not contain [{lo}, {hi}]"
    );
    assert!(
        lo - got.lo() < 1e-12 && got.hi() - hi < 1e-12,
        "{got} is loose around [{lo}, {hi}]"
    );
}

#[test]
fn product_both_straddle_zero() {
    // The interval.h of Jørgensen 2006 gives [-1, 3].
    assert_close(i(-1.0, 2.0) * i(-3.0, 1.0), -6.0, 3.0);
}

#[test]
fn product_both_touch_zero() {
    // The interval.h of Jørgensen 2006 gives [0, 0].
    assert_close(i(0.0, 2.0) * i(0.0, 3.0), 0.0, 6.0);
}

#[test]
fn product_straddle_times_touch() {
    // The interval.h of Jørgensen 2006 gives [-6, 0].
    assert_close(i(-3.0, 1.0) * i(0.0, 2.0), -6.0, 2.0);
}

#[test]
fn product_positive_times_straddle() {
    assert_close(i(1.0, 2.0) * i(-3.0, 1.0), -6.0, 2.0);
}

#[test]
fn product_both_negative() {
    assert_close(i(-2.0, -1.0) * i(-3.0, -1.0), 1.0, 6.0);
}

#[test]
fn difference_is_lo_minus_hi() {
    let (a1, a2, b1, b2) = (-1.5, 4.0, 0.25, 2.0);
    assert_close(i(a1, a2) - i(b1, b2), a1 - b2, a2 - b1);
}

#[test]
fn reciprocal() {
    match i(2.0, 4.0).recip() {
        Division::Bounded(r) => assert_close(r, 0.25, 0.5),
        other => panic!("1/[2, 4] gave {other:?}"),
    }
    // 1/[-1, 1] must be an extended result: two rays.
    match i(-1.0, 1.0).recip() {
        Division::Split(a, b) => {
            assert_eq!(a.lo(), f64::NEG_INFINITY);
            assert_close(Interval::new(-1.0, a.hi()), -1.0, -1.0);
            assert_close(Interval::new(b.lo(), 1.0), 1.0, 1.0);
            assert_eq!(b.hi(), f64::INFINITY);
        }
        other => panic!("1/[-1, 1] gave {other:?}"),
    }
}

#[test]
fn division_by_zero_containing_divisors() {
    assert!(matches!(i(1.0, 2.0).div(i(-1.0, 3.0)), Division::Split(..)));
    assert!(matches!(
        i(-2.0, -1.0).div(i(-1.0, 3.0)),
        Division::Split(..)
    ));
    assert_eq!(i(1.0, 2.0).div(i(0.0, 0.0)), Division::Unbounded);
    assert_eq!(i(0.0, 0.0).div(i(0.0, 0.0)), Division::Unbounded);
    assert_eq!(i(-1.0, 1.0).div(i(-2.0, 0.0)), Division::Unbounded);
    // Zero as a divisor endpoint: a single ray.
    let r = i(1.0, 2.0).div(i(-4.0, 0.0)).bounded().unwrap();
    assert_eq!(r.lo(), f64::NEG_INFINITY);
    assert_close(Interval::new(-1.0, r.hi()), -1.0, -0.25);
}

#[test]
fn mig_and_mag() {
    assert_eq!(i(-2.0, 3.0).mig(), 0.0);
    assert_eq!(i(1.0, 3.0).mig(), 1.0);
    assert_eq!(i(-3.0, -1.0).mig(), 1.0);
    assert_eq!(i(-3.0, 2.0).mag(), 3.0);
    assert_eq!(i(-1.0, 2.0).mag(), 2.0);
}

#[test]
fn sqrt2_sin_plus_cos_encloses_true_range() {
    // True range of √2·sin t + cos t on [0, π/2] is [1, √3] (the report's
    // [1, √2] is wrong); the naive enclosure is [0, 1 + √2].
    let t = i(0.0, FRAC_PI_2);
    let sqrt2 = Interval::point(2.0).sqrt().unwrap();
    let u = sqrt2 * t.sin() + t.cos();
    assert!(u.lo() <= 1.0 && u.hi() >= 3f64.sqrt(), "{u}");
    // ... and no looser than the naive [0, 1 + √2] (the lower end is
    // cos(fl(π/2)) ≈ 6e-17 > 0, since fl(π/2) < π/2).
    assert!(
        u.lo() >= -1e-12 && u.hi() <= 1.0 + 2f64.sqrt() + 1e-12,
        "{u}"
    );
}

#[test]
fn sin_with_interior_peak() {
    let s = i(0.0, PI).sin();
    assert!(s.lo() <= 0.0 && s.hi() >= 1.0, "{s}");
    assert_close(s, 0.0, 1.0);
}

#[test]
fn cos_around_its_zero() {
    let c = i(FRAC_PI_2 - 0.1, FRAC_PI_2 + 0.1).cos();
    assert!(c.lo() <= -0.0998 && c.hi() >= 0.0998, "{c}");
    assert_close(c, -(0.1f64.sin()), 0.1f64.sin());
}

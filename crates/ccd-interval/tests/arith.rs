//! Inclusion (and two-ulp tightness) of the arithmetic operations against
//! exact rational arithmetic, for `f32` and `f64`.

mod common;

use ccd_interval::{Division, Interval, Real};
use common::*;
use num_rational::BigRational;
use num_traits::Signed;
use proptest::prelude::*;

type R = BigRational;

fn min4(v: [R; 4]) -> R {
    v.into_iter()
        .reduce(|a, b| if b < a { b } else { a })
        .unwrap()
}

fn max4(v: [R; 4]) -> R {
    v.into_iter()
        .reduce(|a, b| if b > a { b } else { a })
        .unwrap()
}

fn check_binary<T: Real>(x: Interval<T>, a: T, y: Interval<T>, b: T) -> Result<(), TestCaseError> {
    let (qa, qb) = (q(a), q(b));
    let (xl, xh, yl, yh) = (q(x.lo()), q(x.hi()), q(y.lo()), q(y.hi()));

    let s = x + y;
    prop_assert!(
        encloses(s, &(&qa + &qb)),
        "{x} + {y} = {s} misses {a} + {b}"
    );
    prop_assert!(
        lo_tight(s.lo(), &(&xl + &yl)) && hi_tight(s.hi(), &(&xh + &yh)),
        "loose {s}"
    );

    let d = x - y;
    prop_assert!(
        encloses(d, &(&qa - &qb)),
        "{x} - {y} = {d} misses {a} - {b}"
    );
    prop_assert!(
        lo_tight(d.lo(), &(&xl - &yh)) && hi_tight(d.hi(), &(&xh - &yl)),
        "loose {d}"
    );

    let p = x * y;
    prop_assert!(
        encloses(p, &(&qa * &qb)),
        "{x} * {y} = {p} misses {a} * {b}"
    );
    let ends = || [&xl * &yl, &xl * &yh, &xh * &yl, &xh * &yh];
    prop_assert!(
        lo_tight(p.lo(), &min4(ends())) && hi_tight(p.hi(), &max4(ends())),
        "loose {p}"
    );

    // Mixed fast paths: X ∘ b with the scalar b.
    prop_assert!(encloses(x + b, &(&qa + &qb)));
    prop_assert!(encloses(x - b, &(&qa - &qb)));
    prop_assert!(
        encloses(x * b, &(&qa * &qb)),
        "{x} * {b} = {} misses",
        x * b
    );
    prop_assert!(encloses(x.rsub(b), &(&qb - &qa)));
    let pm = x * b;
    let e = [&xl * &qb, &xh * &qb];
    let (lo, hi) = if e[0] <= e[1] {
        (&e[0], &e[1])
    } else {
        (&e[1], &e[0])
    };
    prop_assert!(lo_tight(pm.lo(), lo) && hi_tight(pm.hi(), hi), "loose {pm}");

    // Assignment forms agree with the operators.
    let mut z = x;
    z += y;
    z -= b;
    z *= y;
    prop_assert_eq!(z, ((x + y) - b) * y);
    prop_assert_eq!(
        [x, y].into_iter().sum::<Interval<T>>(),
        Interval::point(T::zero()) + x + y
    );
    Ok(())
}

fn check_unary<T: Real>(x: Interval<T>, a: T) -> Result<(), TestCaseError> {
    let qa = q(a);
    prop_assert!(encloses(-x, &-qa.clone()));
    prop_assert_eq!((-x).lo(), -x.hi());
    let s = x.sqr();
    prop_assert!(encloses(s, &(&qa * &qa)), "sqr {x} = {s} misses {a}²");
    prop_assert!(s.lo() >= T::zero());
    let m = x.mag();
    let sq_hi = q(m) * q(m);
    prop_assert!(hi_tight(s.hi(), &sq_hi));
    let ab = x.abs();
    prop_assert!(encloses(ab, &qa.abs()));
    prop_assert!(ab.lo() == x.mig() && ab.hi() == x.mag());
    Ok(())
}

fn in_division<T: Real>(r: Division<T>, e: &R) -> bool {
    match r {
        Division::Bounded(i) => encloses(i, e),
        Division::Split(a, b) => encloses(a, e) || encloses(b, e),
        Division::Unbounded => true,
    }
}

fn check_div<T: Real>(x: Interval<T>, a: T, d: Interval<T>, b: T) -> Result<(), TestCaseError> {
    let r = x.div(d);
    let zero = T::zero();
    // Shape of the result.
    let straddles = d.lo() < zero && zero < d.hi();
    match r {
        Division::Bounded(_) => {
            prop_assert!(!straddles || x.contains_zero(), "{x}/{d}: expected Split");
        }
        Division::Split(lo_ray, hi_ray) => {
            prop_assert!(straddles && !x.contains_zero());
            prop_assert!(
                lo_ray.lo() == -T::lit(f64::INFINITY) && hi_ray.hi() == T::lit(f64::INFINITY)
            );
            prop_assert!(lo_ray.hi() < hi_ray.lo());
        }
        Division::Unbounded => prop_assert!(d.contains_zero(), "{x}/{d}: unexpected Unbounded"),
    }
    if b != zero {
        let e = q(a) / q(b);
        prop_assert!(in_division(r, &e), "{x} / {d} = {r:?} misses {a} / {b}");
        let rc = d.recip();
        let e = R::from_integer(1.into()) / q(b);
        prop_assert!(in_division(rc, &e), "1 / {d} = {rc:?} misses 1 / {b}");
        if !d.contains_zero() {
            // Tightness: bounds within two ulps of the exact endpoint quotients.
            let i = r.bounded().unwrap();
            let (xl, xh, dl, dh) = (q(x.lo()), q(x.hi()), q(d.lo()), q(d.hi()));
            let ends = || [&xl / &dl, &xl / &dh, &xh / &dl, &xh / &dh];
            prop_assert!(
                lo_tight(i.lo(), &min4(ends())) && hi_tight(i.hi(), &max4(ends())),
                "loose {i}"
            );
        }
    }
    Ok(())
}

macro_rules! inclusion_tests {
    ($m:ident, $t:ty) => {
        mod $m {
            use super::*;

            proptest! {
                #![proptest_config(config(512))]

                #[test]
                fn binary_ops((x, y, pa, pb) in (interval::<$t>(), interval::<$t>(), pick(), pick())) {
                    check_binary(x, member(x, pa), y, member(y, pb))?;
                }

                #[test]
                fn unary_ops((x, pa) in (interval::<$t>(), pick())) {
                    check_unary(x, member(x, pa))?;
                }

                #[test]
                fn division((x, d, pa, pb) in (interval::<$t>(), interval::<$t>(), pick(), pick())) {
                    check_div(x, member(x, pa), d, member(d, pb))?;
                }

                #[test]
                fn scalar_on_the_left((x, pa, s) in (interval::<$t>(), pick(), scalar::<$t>())) {
                    let a = member(x, pa);
                    let (qa, qs) = (q(a), q(s));
                    prop_assert!(encloses(s + x, &(&qs + &qa)));
                    prop_assert!(encloses(s - x, &(&qs - &qa)));
                    prop_assert!(encloses(s * x, &(&qs * &qa)));
                    prop_assert_eq!(s - x, x.rsub(s));
                }
            }
        }
    };
}

inclusion_tests!(f32_ops, f32);
inclusion_tests!(f64_ops, f64);

#[test]
fn infinite_endpoints_never_produce_nan() {
    let inf = f64::INFINITY;
    let rays = [
        Interval::new(1.0, inf),
        Interval::new(-inf, -1.0),
        Interval::new(0.0, inf),
        Interval::new(-inf, 0.0),
        Interval::<f64>::entire(),
        Interval::point(0.0),
        Interval::new(-2.0, 3.0),
    ];
    for x in rays {
        for y in rays {
            for r in [x + y, x - y, x * y, x.sqr(), -x, x * 0.0, x * -3.0, x + 1.0] {
                assert!(r.lo() <= r.hi(), "{x} {y} -> {r}");
                assert!(r.lo() != inf && r.hi() != -inf);
            }
            match x.div(y) {
                Division::Bounded(r) => assert!(r.lo() <= r.hi(), "{x}/{y} -> {r}"),
                Division::Split(a, b) => assert!(a.hi() < b.lo()),
                Division::Unbounded => assert!(y.contains_zero()),
            }
        }
    }
    // 0 · ∞ counts as 0: [0, 0] · [1, ∞] = [0, 0].
    assert_eq!(
        Interval::point(0.0) * Interval::new(1.0, inf),
        Interval::point(0.0)
    );
    assert_eq!(
        Interval::new(1.0, inf) * Interval::new(2.0, inf),
        Interval::new(2.0f64.next_down(), inf)
    );
}

#[test]
fn zero_is_kept_exact() {
    let x = Interval::new(0.0f64, 2.0) * Interval::new(0.0, 3.0);
    assert_eq!(x.lo(), 0.0);
    assert_eq!(Interval::new(-1.0f32, 2.0) * 0.0f32, Interval::point(0.0));
    assert_eq!(Interval::new(0.0f64, 3.0).sqr().lo(), 0.0);
}

//! Set operations, magnitudes and comparisons against their exact
//! definitions on members, for `f32` and `f64`.

mod common;

use ccd_interval::{Interval, Real};
use common::*;
use num_rational::BigRational;
use proptest::prelude::*;

fn check<T: Real>(x: Interval<T>, a: T, y: Interval<T>, b: T) -> Result<(), TestCaseError> {
    // hull contains both operands; it is the smallest such interval.
    let h = x.hull(y);
    prop_assert!(h.contains(a) && h.contains(b));
    prop_assert!(h.contains_interval(x) && h.contains_interval(y));
    prop_assert!(h.lo() == x.lo() || h.lo() == y.lo());
    prop_assert!(h.hi() == x.hi() || h.hi() == y.hi());

    // intersect: a common member lies in it; None only for disjoint inputs.
    match x.intersect(y) {
        Some(i) => {
            prop_assert!(x.contains_interval(i) && y.contains_interval(i));
            if y.contains(a) {
                prop_assert!(i.contains(a));
            }
        }
        None => prop_assert!(x.certainly_lt(y) || x.certainly_gt(y)),
    }
    if y.contains(a) {
        prop_assert!(x.intersect(y).is_some());
    }

    // midpoint, bisect, width.
    let m = x.midpoint();
    prop_assert!(x.contains(m), "midpoint {m} of {x}");
    let (l, r) = x.bisect();
    prop_assert!(l.lo() == x.lo() && l.hi() == m && r.lo() == m && r.hi() == x.hi());
    prop_assert!(l.contains(a) || r.contains(a));
    let w = x.width();
    let exact_w = q(x.hi()) - q(x.lo());
    prop_assert!(hi_ge(w, &exact_w), "width {w} of {x}");
    prop_assert!(hi_tight(w, &exact_w));
    if x.lo().finite() && x.hi().finite() && x.lo() != x.hi() {
        // A non-degenerate finite interval splits into two narrower halves
        // unless it is only a couple of ulps wide.
        prop_assert!(l.width() <= w && r.width() <= w);
    }

    // mig / mag are attained bounds of |x|.
    let abs_a = a.abs();
    prop_assert!(x.mig() <= abs_a && abs_a <= x.mag());
    prop_assert!(x.mig() >= T::zero());
    prop_assert!(x.contains(x.mig()) || x.contains(-x.mig()));
    prop_assert!(x.contains(x.mag()) || x.contains(-x.mag()));

    // contains / contains_zero.
    prop_assert!(x.contains(a));
    prop_assert_eq!(x.contains_zero(), x.contains(T::zero()));

    // certainly_*: when true, the relation holds for the members (exactly).
    let (qa, qb) = (q(a), q(b));
    if x.certainly_lt(y) {
        prop_assert!(qa < qb);
    }
    if x.certainly_le(y) {
        prop_assert!(qa <= qb);
    }
    if x.certainly_gt(y) {
        prop_assert!(qa > qb);
    }
    if x.certainly_ge(y) {
        prop_assert!(qa >= qb);
    }
    let zero = BigRational::from_integer(0.into());
    if x.certainly_positive() {
        prop_assert!(qa > zero);
    }
    if x.certainly_negative() {
        prop_assert!(qa < zero);
    }
    // ... and they are decided exactly on the endpoints.
    prop_assert_eq!(x.certainly_lt(y), x.hi() < y.lo());
    prop_assert_eq!(x.certainly_ge(y), x.lo() >= y.hi());
    prop_assert_eq!(
        x.certainly_positive(),
        x.certainly_gt(Interval::point(T::zero()))
    );
    Ok(())
}

macro_rules! set_tests {
    ($m:ident, $t:ty) => {
        mod $m {
            use super::*;

            proptest! {
                #![proptest_config(config(512))]

                #[test]
                fn set_ops((x, y, pa, pb) in (interval::<$t>(), interval::<$t>(), pick(), pick())) {
                    check(x, member(x, pa), y, member(y, pb))?;
                }

                #[test]
                fn comparisons_at_touching_endpoints(x in interval::<$t>(), k in 0usize..3, w in scalar::<$t>()) {
                    // `y` starts one ulp below, at, or one ulp above `x.hi`.
                    let s = [x.hi().step_down(), x.hi(), x.hi().step_up()][k];
                    prop_assume!(s.finite());
                    let t = s + w.abs();
                    let y = Interval::new(s, if t.is_finite() { t } else { s });
                    // "Certainly" means: for the extreme members, so exactly the
                    // endpoint relation, decided in exact arithmetic.
                    let (xl, xh, yl, yh) = (q(x.lo()), q(x.hi()), q(y.lo()), q(y.hi()));
                    prop_assert_eq!(x.certainly_lt(y), xh < yl);
                    prop_assert_eq!(x.certainly_le(y), xh <= yl);
                    prop_assert_eq!(y.certainly_gt(x), yl > xh);
                    prop_assert_eq!(y.certainly_ge(x), yl >= xh);
                    prop_assert_eq!(x.certainly_gt(y), xl > yh);
                    prop_assert_eq!(x.certainly_ge(y), xl >= yh);
                }

                #[test]
                fn constructors(a in scalar::<$t>(), b in scalar::<$t>()) {
                    let p = Interval::point(a);
                    prop_assert_eq!((p.lo(), p.hi()), (a, a));
                    prop_assert_eq!(Interval::try_new(a, b).is_some(), a <= b);
                    if a <= b {
                        prop_assert_eq!(Interval::new(a, b), Interval::try_new(a, b).unwrap());
                    }
                    prop_assert!(Interval::try_new(a, <$t>::NAN).is_none());
                }
            }
        }
    };
}

set_tests!(f32_set, f32);
set_tests!(f64_set, f64);

#[test]
fn midpoint_of_unbounded_intervals() {
    let inf = f64::INFINITY;
    assert_eq!(Interval::new(-inf, 3.0).midpoint(), -f64::MAX);
    assert_eq!(Interval::new(3.0, inf).midpoint(), f64::MAX);
    assert_eq!(Interval::new(-f32::MAX, f32::MAX).midpoint(), 0.0);
    assert_eq!(Interval::new(1.0, inf).width(), inf);
}

#[test]
#[cfg(debug_assertions)]
#[should_panic(expected = "lo > hi")]
fn new_rejects_swapped_endpoints_in_debug() {
    let _ = Interval::new(2.0, 1.0);
}

//! Two `f64` lanes in one SSE2 register: the building block of the explicit two-lane kernels (the distance
//! traversal's box bound and box move here, the triangle plane-gap bound in `ccd-query`).
//!
//! Every operation is one SSE2 instruction with the IEEE semantics of the scalar operation it stands for (SSE2
//! has no fused multiply-add), so a kernel written in the order of a scalar formula gives, in each lane, that
//! formula's result bit for bit. Compiled only where SSE2 is enabled at compile time (every `x86_64` target has
//! it in its baseline).

use std::arch::x86_64::{
    __m128d, _mm_add_pd, _mm_and_pd, _mm_andnot_pd, _mm_cmpeq_pd, _mm_cmpgt_pd, _mm_cvtsd_f64,
    _mm_div_pd, _mm_max_pd, _mm_min_pd, _mm_mul_pd, _mm_or_pd, _mm_set_pd, _mm_set1_pd,
    _mm_shuffle_pd, _mm_sqrt_pd, _mm_sub_pd, _mm_unpackhi_pd,
};
use std::ops::{Add, Div, Mul, Sub};

/// Two `f64` lanes in one SSE2 register.
///
/// SAFETY (for each `unsafe` block below): the intrinsics called are `#[target_feature(enable = "sse2")]`
/// functions without pointer arguments, whose only precondition is that the processor has SSE2; this module is
/// compiled only with `target_feature = "sse2"` enabled, so every processor the program can run on has it.
#[derive(Clone, Copy, Debug)]
pub struct F64x2(__m128d);

/// A lane mask: all bits set in the lanes where a comparison held, clear elsewhere.
#[derive(Clone, Copy, Debug)]
pub struct Mask2(__m128d);

impl F64x2 {
    /// `[lane 0, lane 1]`.
    #[inline(always)]
    pub fn new(l0: f64, l1: f64) -> Self {
        // SAFETY: see the type's documentation.
        Self(unsafe { _mm_set_pd(l1, l0) })
    }

    /// `x` in both lanes.
    #[inline(always)]
    pub fn splat(x: f64) -> Self {
        // SAFETY: see the type's documentation.
        Self(unsafe { _mm_set1_pd(x) })
    }

    /// `|x|`: the sign bit cleared, as `f64::abs`.
    #[inline(always)]
    pub fn abs(self) -> Self {
        // SAFETY: see the type's documentation.
        Self(unsafe { _mm_andnot_pd(_mm_set1_pd(-0.0), self.0) })
    }

    /// `y` where `y > self`, else `self` (`maxpd` returns its second operand unless the first is larger): a NaN
    /// `y` is skipped, and a NaN `self` is kept.
    #[inline(always)]
    pub fn larger(self, y: Self) -> Self {
        // SAFETY: see the type's documentation.
        Self(unsafe { _mm_max_pd(y.0, self.0) })
    }

    /// `y` where `y < self`, else `self` (the mirror of [`larger`](Self::larger)).
    #[inline(always)]
    pub fn smaller(self, y: Self) -> Self {
        // SAFETY: see the type's documentation.
        Self(unsafe { _mm_min_pd(y.0, self.0) })
    }

    /// The correctly rounded square root, lane by lane (as `f64::sqrt`).
    #[inline(always)]
    pub fn sqrt(self) -> Self {
        // SAFETY: see the type's documentation.
        Self(unsafe { _mm_sqrt_pd(self.0) })
    }

    /// The lanes exchanged: `[lane 1, lane 0]`.
    #[inline(always)]
    pub fn swap(self) -> Self {
        // SAFETY: see the type's documentation.
        Self(unsafe { _mm_shuffle_pd::<1>(self.0, self.0) })
    }

    /// Where `self > y` (false where either is NaN).
    #[inline(always)]
    pub fn gt(self, y: Self) -> Mask2 {
        // SAFETY: see the type's documentation.
        Mask2(unsafe { _mm_cmpgt_pd(self.0, y.0) })
    }

    /// Where `self == y` (false where either is NaN).
    #[inline(always)]
    pub fn eq(self, y: Self) -> Mask2 {
        // SAFETY: see the type's documentation.
        Mask2(unsafe { _mm_cmpeq_pd(self.0, y.0) })
    }

    /// `self` where `m` holds, `0.0` elsewhere.
    #[inline(always)]
    pub fn or_zero(self, m: Mask2) -> Self {
        // SAFETY: see the type's documentation.
        Self(unsafe { _mm_and_pd(m.0, self.0) })
    }

    /// `self` where `m` holds, `other` elsewhere.
    #[inline(always)]
    pub fn select(self, m: Mask2, other: Self) -> Self {
        // SAFETY: see the type's documentation.
        Self(unsafe { _mm_or_pd(_mm_and_pd(m.0, self.0), _mm_andnot_pd(m.0, other.0)) })
    }

    /// `[lane 0, lane 1]`.
    #[inline(always)]
    pub fn lanes(self) -> [f64; 2] {
        // SAFETY: see the type's documentation.
        unsafe {
            [
                _mm_cvtsd_f64(self.0),
                _mm_cvtsd_f64(_mm_unpackhi_pd(self.0, self.0)),
            ]
        }
    }
}

impl Mask2 {
    /// Where both `self` and `m` hold.
    #[inline(always)]
    pub fn and(self, m: Self) -> Self {
        // SAFETY: see `F64x2`'s documentation.
        Self(unsafe { _mm_and_pd(self.0, m.0) })
    }

    /// Where `self` or `m` holds.
    #[inline(always)]
    pub fn or(self, m: Self) -> Self {
        // SAFETY: see `F64x2`'s documentation.
        Self(unsafe { _mm_or_pd(self.0, m.0) })
    }
}

macro_rules! lane_op {
    ($trait:ident, $method:ident, $intrinsic:ident) => {
        impl $trait for F64x2 {
            type Output = Self;
            #[inline(always)]
            fn $method(self, rhs: Self) -> Self {
                // SAFETY: see the type's documentation.
                Self(unsafe { $intrinsic(self.0, rhs.0) })
            }
        }
    };
}

lane_op!(Add, add, _mm_add_pd);
lane_op!(Sub, sub, _mm_sub_pd);
lane_op!(Mul, mul, _mm_mul_pd);
lane_op!(Div, div, _mm_div_pd);

#[cfg(test)]
mod tests {
    use super::*;

    /// Every operation equals its scalar counterpart bit for bit in each lane, on ordinary values, signed zeros,
    /// infinities, subnormals and NaN where the scalar rule is stated.
    #[test]
    fn lanes_are_the_scalar_operations() {
        let values = [
            0.0,
            -0.0,
            1.0,
            -2.5,
            1e-310,
            3.0e300,
            f64::INFINITY,
            f64::NEG_INFINITY,
            0.1,
            7.0,
        ];
        let bits = |x: F64x2| x.lanes().map(f64::to_bits);
        let mut compared = 0;
        for &x in &values {
            for &y in &values {
                let (p, q) = (F64x2::new(x, y), F64x2::new(y, x));
                let scalar = |f: fn(f64, f64) -> f64| [f(x, y), f(y, x)].map(f64::to_bits);
                assert_eq!(bits(p + q), scalar(|u, v| u + v));
                assert_eq!(bits(p - q), scalar(|u, v| u - v));
                assert_eq!(bits(p * q), scalar(|u, v| u * v));
                let div = (p / q).lanes();
                for (k, (u, v)) in [(x, y), (y, x)].into_iter().enumerate() {
                    let d = u / v;
                    assert!(d.to_bits() == div[k].to_bits() || (d.is_nan() && div[k].is_nan()));
                }
                assert_eq!(bits(p.abs()), [x.abs(), y.abs()].map(f64::to_bits));
                assert_eq!(bits(p.swap()), [y, x].map(f64::to_bits));
                let larger = p.larger(q).lanes();
                let smaller = p.smaller(q).lanes();
                for (k, (u, v)) in [(x, y), (y, x)].into_iter().enumerate() {
                    assert_eq!(larger[k].to_bits(), if v > u { v } else { u }.to_bits());
                    assert_eq!(smaller[k].to_bits(), if v < u { v } else { u }.to_bits());
                    let gt = p.gt(q);
                    let pick = F64x2::splat(1.0).select(gt, F64x2::splat(2.0)).lanes()[k];
                    assert_eq!(pick, if u > v { 1.0 } else { 2.0 });
                    let eq = F64x2::splat(3.0).or_zero(p.eq(q).or(gt).and(gt)).lanes()[k];
                    assert_eq!(eq, if u > v { 3.0 } else { 0.0 });
                }
                compared += 1;
            }
        }
        let root = F64x2::new(2.0, 1e-300).sqrt().lanes();
        assert_eq!(root, [2f64.sqrt(), 1e-300f64.sqrt()]);
        assert!(F64x2::splat(-1.0).sqrt().lanes()[0].is_nan());
        let nan = F64x2::new(f64::NAN, 1.0);
        assert_eq!(nan.gt(F64x2::splat(0.0)).lanes_bits(), [0, u64::MAX]);
        assert_eq!(nan.eq(nan).lanes_bits(), [0, u64::MAX]);
        assert_eq!(compared, values.len() * values.len());
    }

    impl Mask2 {
        fn lanes_bits(self) -> [u64; 2] {
            F64x2(self.0).lanes().map(f64::to_bits)
        }
    }
}

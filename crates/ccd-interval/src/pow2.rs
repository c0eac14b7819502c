//! Exact scaling by powers of two, so that computations on huge or tiny values neither overflow nor underflow.
//!
//! Multiplying by `2^k` only changes the exponent: it is exact unless the result overflows or falls below the
//! normal range (`|x·2^k| < 2^-1022`), and it commutes with rounding, so every `+ − × / √` of scaled values is
//! the scaled result of the same operation on the originals while no intermediate leaves the normal range.

/// `2^k` for `k` in `-1074..=1023` (every power of two that is an `f64`).
#[inline]
pub fn pow2(k: i32) -> f64 {
    debug_assert!((-1074..=1023).contains(&k));
    if k >= -1022 {
        f64::from_bits(((k + 1023) as u64) << 52)
    } else {
        f64::from_bits(1u64 << (k + 1074).clamp(0, 51))
    }
}

/// `x·2^k`, for `k` in `-2148..=2046`.
///
/// One multiplication (one rounding) for `k` in `-1074..=1023`. Beyond that,
/// first an exact step (`x·2^1023` for `k > 1023`, exact unless it overflows;
/// `x·2^-1022` for `k < -1074`, exact while the intermediate is normal), then
/// the rest: the result is rounded once unless the intermediate itself fell
/// below the normal range.
#[inline]
pub fn ldexp(x: f64, k: i32) -> f64 {
    if k > 1023 {
        ldexp(x * pow2(1023), k - 1023)
    } else if k < -1074 {
        ldexp(x * pow2(-1022), k + 1022)
    } else {
        x * pow2(k)
    }
}

/// The `k` with `m·2^k ∈ [0.5, 1)` for finite `m > 0` (`-1024..=1074`);
/// 0 for zero, NaN or an infinity.
pub fn unit_exponent(m: f64) -> i32 {
    if !(m > 0.0 && m.is_finite()) {
        return 0;
    }
    // Subnormal: read the exponent of m·2^64 instead.
    let (n, bias) = if m < f64::MIN_POSITIVE {
        (m * pow2(64), 64)
    } else {
        (m, 0)
    };
    let e = ((n.to_bits() >> 52) & 0x7ff) as i32 - 1023; // n ∈ [2^e, 2^(e+1))
    bias - e - 1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn powers_and_exponents() {
        for k in -1022..=1023 {
            assert_eq!(pow2(k), 2f64.powi(k), "2^{k}");
        }
        for k in -1074..-1022 {
            assert_eq!(pow2(k), f64::MIN_POSITIVE / 2f64.powi(-1022 - k), "2^{k}");
        }
        let cases = [
            (1.0, -1),
            (0.75, 0),
            (f64::MAX, -1024),
            (f64::MIN_POSITIVE, 1021),
            (pow2(-1074), 1073),
            (3.0 * pow2(-1074), 1072),
        ];
        for (m, k) in cases {
            assert_eq!(unit_exponent(m), k, "{m:e}");
            let s = ldexp(m, k);
            assert!((0.5..1.0).contains(&s), "{m:e} scaled to {s}");
            assert_eq!(ldexp(s, -k), m, "{m:e} round trip");
        }
    }
}

//! [`SplitMix64`]: a small, fast, seeded pseudo-random generator.
//!
//! The generator is Vigna's SplitMix64 (a Weyl sequence with a 64-bit output mix). It passes BigCrush, needs eight
//! bytes of state and, unlike `rand`'s generators, its sequence for a seed is fixed forever, so benchmark outputs
//! stamped with a seed stay reproducible across dependency upgrades.

/// Increment of the Weyl sequence (2^64 / φ, odd).
const GOLDEN_GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

/// A seeded SplitMix64 generator.
///
/// Two generators created with the same seed produce the same sequence.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// A generator whose sequence is determined by `seed`.
    pub fn new(seed: u64) -> Self {
        Self { state: seed }
    }

    /// The next 64 uniformly distributed bits.
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(GOLDEN_GAMMA);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A uniform `f64` in `[0, 1)`: the top 53 bits of [`next_u64`](Self::next_u64) scaled by 2^-53, so every value
    /// is a multiple of 2^-53 and `1.0` is never returned.
    #[inline]
    pub fn next_f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// A uniform `f64` in `[lo, hi)`, computed as `lo + (hi - lo) * next_f64()`.
    ///
    /// Rounding of that expression can return `hi` itself when `hi - lo` is tiny relative to `lo`; callers that need a
    /// strict upper bound must check. `lo > hi` is allowed and gives values in `(hi, lo]`.
    #[inline]
    pub fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.next_f64()
    }

    /// A uniform integer in `0..n`, without modulo bias (Lemire's multiply-and-reject).
    ///
    /// # Panics
    /// If `n == 0`.
    #[inline]
    pub fn below(&mut self, n: u64) -> u64 {
        assert!(n > 0, "SplitMix64::below(0): empty range");
        let mut m = u128::from(self.next_u64()) * u128::from(n);
        if (m as u64) < n {
            // Reject the low products that would make some outputs one more likely than others.
            let threshold = n.wrapping_neg() % n;
            while (m as u64) < threshold {
                m = u128::from(self.next_u64()) * u128::from(n);
            }
        }
        (m >> 64) as u64
    }

    /// `true` with probability `p` (clamped to `[0, 1]`).
    #[inline]
    pub fn chance(&mut self, p: f64) -> bool {
        self.next_f64() < p
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_sequence() {
        let mut a = SplitMix64::new(42);
        let mut b = SplitMix64::new(42);
        for _ in 0..1000 {
            assert_eq!(a.next_u64(), b.next_u64());
        }
        let mut c = SplitMix64::new(43);
        let mut a = SplitMix64::new(42);
        assert!((0..10).any(|_| a.next_u64() != c.next_u64()));
    }

    #[test]
    fn known_first_outputs() {
        // Reference values of SplitMix64 for seed 0 (the published test vector of the algorithm).
        let mut r = SplitMix64::new(0);
        assert_eq!(r.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(r.next_u64(), 0x6E78_9E6A_A1B9_65F4);
        assert_eq!(r.next_u64(), 0x06C4_5D18_8009_454F);
    }

    #[test]
    fn f64_in_unit_interval_with_mean_one_half() {
        let mut r = SplitMix64::new(7);
        let n = 100_000;
        let mut sum = 0.0;
        for _ in 0..n {
            let x = r.next_f64();
            assert!((0.0..1.0).contains(&x));
            sum += x;
        }
        let mean = sum / f64::from(n);
        assert!((mean - 0.5).abs() < 0.01, "mean {mean}");
    }

    #[test]
    fn range_and_below_stay_in_bounds() {
        let mut r = SplitMix64::new(9);
        let mut counts = [0u32; 7];
        for _ in 0..70_000 {
            let x = r.range(-2.0, 3.0);
            assert!((-2.0..3.0).contains(&x));
            let k = r.below(7);
            counts[k as usize] += 1;
        }
        for c in counts {
            assert!((9_000..11_000).contains(&c), "{counts:?}");
        }
        assert_eq!(r.below(1), 0);
        let big = u64::MAX - 3;
        assert!(r.below(big) < big);
    }

    #[test]
    #[should_panic(expected = "empty range")]
    fn below_zero_panics() {
        SplitMix64::new(1).below(0);
    }
}

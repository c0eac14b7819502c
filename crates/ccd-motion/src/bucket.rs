//! [`Bucketed`]: a motion with its enclosures precomputed over 2ⁿ equal time buckets (the lookup tables of Jørgensen 2006, §9.3,
//! kept consistent under cloning).

use ccd_interval::Real;
use nalgebra::{Isometry3, Vector3};

use crate::enclosure::IntervalPose;
use crate::motion::Motion;

/// A motion wrapped with precomputed enclosures over the 2ⁿ buckets [i/2ⁿ, (i+1)/2ⁿ] and poses at the 2ⁿ + 1
/// bucket boundaries i/2ⁿ.
///
/// [`enclose`](Motion::enclose) answers from the tables: the hull of the buckets that cover [t0, t1]. That is a
/// lookup instead of interval trigonometry, at the price of width: an interval inside one bucket gets the whole
/// bucket's enclosure. `pose`, `max_speed`, `velocity_bound` and `is_pure_translation` are the wrapped motion's.
///
/// # Guarantee
/// Conservative, as the wrapped motion's enclosures are: the covering buckets contain [t0, t1] (bucket boundaries
/// i/2ⁿ are exact floats).
///
/// # Reference
/// Jørgensen 2006, §9.3 and `arbitrary_constant.h`: 128 precomputed buckets (n = 7); its `bucket_lower(1.0)` indexed past the
/// table, clamped here.
#[derive(Clone, Debug)]
pub struct Bucketed<T: Real, M> {
    motion: M,
    level: u32,
    bounds: Vec<IntervalPose<T>>,
    poses: Vec<Isometry3<T>>,
}

impl<T: Real, M: Motion<T>> Bucketed<T, M> {
    /// The refinement level of Jørgensen 2006 (§9.3): 2⁷ = 128 buckets.
    pub const DEFAULT_LEVEL: u32 = 7;

    /// The largest accepted level (2²⁰ buckets, about a million enclosures).
    pub const MAX_LEVEL: u32 = 20;

    /// Precomputes `motion` over 2^`level` buckets.
    ///
    /// # Panics
    /// If `level > MAX_LEVEL`.
    pub fn new(motion: M, level: u32) -> Self {
        assert!(
            level <= Self::MAX_LEVEL,
            "bucket level {level} exceeds {}",
            Self::MAX_LEVEL
        );
        let n = 1usize << level;
        let step = Self::step_of(level);
        let at = |i: usize| T::lit(i as f64) * step;
        let bounds = (0..n).map(|i| motion.enclose(at(i), at(i + 1))).collect();
        let poses = (0..=n).map(|i| motion.pose(at(i))).collect();
        Self {
            motion,
            level,
            bounds,
            poses,
        }
    }

    fn step_of(level: u32) -> T {
        T::lit(1.0 / (1u64 << level) as f64)
    }

    /// The wrapped motion.
    pub fn inner(&self) -> &M {
        &self.motion
    }

    /// The refinement level n (2ⁿ buckets).
    pub fn level(&self) -> u32 {
        self.level
    }

    /// The number of buckets, 2ⁿ.
    pub fn bucket_count(&self) -> usize {
        self.bounds.len()
    }

    /// The bucket width 1/2ⁿ.
    pub fn step(&self) -> T {
        Self::step_of(self.level)
    }

    /// The bucket containing `t`: ⌊t·2ⁿ⌋, clamped to 0..2ⁿ (so t = 1 is in the last bucket).
    pub fn bucket_lower(&self, t: T) -> usize {
        let scaled = (t * T::lit((1u64 << self.level) as f64)).floor();
        let i = scaled.to_f64_exact().max(0.0) as usize;
        i.min(self.bucket_count() - 1)
    }

    /// The first bucket boundary at or after `t`: ⌈t·2ⁿ⌉, clamped to 0..=2ⁿ.
    pub fn bucket_upper(&self, t: T) -> usize {
        let scaled = (t * T::lit((1u64 << self.level) as f64)).ceil();
        let i = scaled.to_f64_exact().max(0.0) as usize;
        i.min(self.bucket_count())
    }

    /// The precomputed enclosure over bucket `i`, [i/2ⁿ, (i+1)/2ⁿ].
    ///
    /// # Panics
    /// If `i >= bucket_count()`.
    pub fn bucket_bound(&self, i: usize) -> &IntervalPose<T> {
        &self.bounds[i]
    }

    /// The precomputed pose at the boundary i/2ⁿ, `i` in 0..=2ⁿ.
    ///
    /// # Panics
    /// If `i > bucket_count()`.
    pub fn bucket_pose(&self, i: usize) -> &Isometry3<T> {
        &self.poses[i]
    }
}

impl<T: Real, M: Motion<T>> Motion<T> for Bucketed<T, M> {
    fn pose(&self, t: T) -> Isometry3<T> {
        self.motion.pose(t)
    }

    fn enclose(&self, t0: T, t1: T) -> IntervalPose<T> {
        crate::enclosure::time_interval(t0, t1);
        let first = self.bucket_lower(t0);
        let last = self.bucket_upper(t1).max(first + 1);
        self.bounds[first + 1..last]
            .iter()
            .fold(self.bounds[first], |acc, b| acc.hull(b))
    }

    fn max_speed(&self, radius: T) -> T {
        self.motion.max_speed(radius)
    }

    fn velocity_bound(&self, p: &Vector3<T>, t0: T, t1: T) -> ccd_interval::IVec3<T> {
        self.motion.velocity_bound(p, t0, t1)
    }

    fn is_pure_translation(&self) -> Option<Vector3<T>> {
        self.motion.is_pure_translation()
    }

    fn check_range(&self) -> Result<(), ccd_interval::RangeError> {
        self.motion.check_range()
    }
}

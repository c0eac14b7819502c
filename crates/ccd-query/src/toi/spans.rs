//! The relative spans of the two motions, one per time interval of the search, computed once and shared by
//! every node pair and triangle time box over that interval.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use ccd_bv::{Pose, Real};
use ccd_interval::bound_up;
use ccd_motion::{IntervalPose, Motion, PoseSpan, RelativeSpan};

use super::request::ToiStats;

/// B's frame in A's frame over one time interval, ready for the static tests.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Span<T: Real> {
    /// The float relative pose and the slack of the motions (see [`RelativeSpan`]).
    pub rel: RelativeSpan<T>,
    /// `rel`'s rotation and translation in the form the volume tests take.
    pub pose: Pose<T>,
    /// Upper bound of the distance between the two body origins at every time of the interval (for the radial
    /// shell test).
    pub origin_gap: T,
}

/// Spans keyed by their time interval.
pub(crate) struct Spans<'q, T: Real, MA: ?Sized, MB: ?Sized> {
    motion_a: &'q MA,
    motion_b: &'q MB,
    map: HashMap<(u64, u64), Span<T>, BuildHasherDefault<TimeHasher>>,
}

impl<'q, T: Real, MA: Motion<T> + ?Sized, MB: Motion<T> + ?Sized> Spans<'q, T, MA, MB> {
    pub fn new(motion_a: &'q MA, motion_b: &'q MB) -> Self {
        Self {
            motion_a,
            motion_b,
            map: HashMap::default(),
        }
    }

    /// The span over `[t0, t1]` (two motion enclosures, counted in `stats`, the first time it is asked for).
    pub fn get(&mut self, t0: T, t1: T, stats: &mut ToiStats) -> Span<T> {
        let key = (t0.to_f64_exact().to_bits(), t1.to_f64_exact().to_bits());
        *self.map.entry(key).or_insert_with(|| {
            stats.motion_enclosures += 2;
            let a = PoseSpan::new(self.motion_a, t0, t1);
            let b = PoseSpan::new(self.motion_b, t0, t1);
            let rel = a.relative(&b);
            Span {
                rel,
                pose: Pose::from_parts(rel.rot, rel.trans),
                origin_gap: bound_up((b.trans - a.trans).norm() + a.trans_dev + b.trans_dev),
            }
        })
    }

    /// Both motions' enclosures over `[t0, t1]` (counted in `stats`).
    pub fn enclose(
        &self,
        t0: T,
        t1: T,
        stats: &mut ToiStats,
    ) -> (IntervalPose<T>, IntervalPose<T>) {
        stats.motion_enclosures += 2;
        (self.motion_a.enclose(t0, t1), self.motion_b.enclose(t0, t1))
    }
}

/// A multiply–rotate hash for the keys of [`Spans`] (two float bit patterns, not attacker-controlled): far
/// cheaper than the default SipHash, which showed in profiles of the traversal.
#[derive(Default)]
pub(crate) struct TimeHasher(u64);

impl Hasher for TimeHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.write_u64(u64::from(*b));
        }
    }

    #[inline]
    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(5) ^ x).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

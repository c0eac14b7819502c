//! Counters returned by every query.

use std::ops::AddAssign;

/// Exact operation counts of one query: what the thesis's benchmarks compare
/// (N_v, N_p, K) and the bounding-volume test tree outcomes D and I.
///
/// For binary trees with single-triangle leaves an all-contacts query
/// satisfies `bv_disjoint − bv_overlapping + 2·(tri_tests − contacts) +
/// 2·contacts = 1` (Gottschalk §2.5.1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct QueryStats {
    /// Bounding-volume pair tests performed (N_v).
    pub bv_tests: u64,
    /// Tests that found the volumes disjoint (D).
    pub bv_disjoint: u64,
    /// Tests that found the volumes overlapping (I).
    pub bv_overlapping: u64,
    /// Triangle pair tests performed (N_p).
    pub tri_tests: u64,
    /// Triangle pairs found in contact (K).
    pub contacts: u64,
}

impl AddAssign for QueryStats {
    fn add_assign(&mut self, o: Self) {
        self.bv_tests += o.bv_tests;
        self.bv_disjoint += o.bv_disjoint;
        self.bv_overlapping += o.bv_overlapping;
        self.tri_tests += o.tri_tests;
        self.contacts += o.contacts;
    }
}

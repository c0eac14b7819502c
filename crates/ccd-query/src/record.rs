//! Recording the volume pairs a collision query tests, for replaying them through the overlap tests (the
//! measurement behind Gottschalk's Tables 5.1 and 5.2, §5.2: pairs recorded from real queries on tessellated
//! spheres, split into disjoint and overlapping lists, each list timed through each test).

use ccd_bv::{BoundingVolume, Pose, RangeError, Real};
use ccd_bvh::Hierarchy;

use crate::engine::{DepthFirstVisitor, Flow, MovedVolumes, depth_first};
use crate::{DescentRule, QueryStats};

/// One volume pair tested by a traversal: A's volume and B's volume moved into A's frame, with the verdict.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TestedPair<V> {
    /// A node's volume of A, in A's model frame.
    pub a: V,
    /// A node's volume of B, moved into A's model frame ([`BoundingVolume::transformed`] by `b_in_a`).
    pub b: V,
    /// The verdict of [`BoundingVolume::overlaps_local`] on `(a, b)`: `true` if the pair was kept.
    pub overlapping: bool,
}

/// Outcome of [`record_collide_tests`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RecordedTests<V> {
    /// Every tested pair, in test order: `stats.bv_tests` entries, `stats.bv_overlapping` of them overlapping.
    pub pairs: Vec<TestedPair<V>>,
    /// The query's counters (BV counters only: kept leaf pairs are not tested for contact).
    pub stats: QueryStats,
}

/// The volume pairs an all-contacts [`collide_relative`](crate::collide_relative) of `a` and `b` tests, in test
/// order, with the query's counters.
///
/// The walk is the collide query's own depth-first engine with a visitor that applies the collide visitor's
/// pruning test ([`BoundingVolume::overlaps_local`], whose verdicts equal the paired
/// [`BoundingVolume::overlaps_local_pair`] the collide visitor calls) and records every pair it is given. Kept
/// leaf pairs are not tested for triangle contact, so the returned `tri_tests` and `contacts` are 0; the BV
/// counters (`bv_tests`, `bv_disjoint`, `bv_overlapping`) are those of the all-contacts query, and the returned
/// list has one entry per counted test: `bv_tests` entries, `bv_overlapping` of them overlapping.
///
/// # Frames
/// `b_in_a` is B's pose in A's frame; every recorded volume is in A's model frame.
///
/// # Errors
/// [`RangeError`] if `b_in_a` fails [`Pose::check`], as for [`collide_relative`](crate::collide_relative).
pub fn record_collide_tests<A, B>(
    a: &A,
    b: &B,
    b_in_a: &Pose<A::Scalar>,
    descent: DescentRule,
) -> Result<RecordedTests<A::Bv>, RangeError>
where
    A: Hierarchy,
    B: Hierarchy<Scalar = A::Scalar, Bv = A::Bv>,
{
    b_in_a.check()?;
    let mut recorder = Recorder { pairs: Vec::new() };
    let mut stats = QueryStats::default();
    depth_first(
        a,
        b,
        &mut MovedVolumes::new(b_in_a),
        (0, 0),
        descent,
        &mut recorder,
        &mut stats,
    );
    Ok(RecordedTests {
        pairs: recorder.pairs,
        stats,
    })
}

/// Records every tested pair; the pruning test is the collide visitor's.
struct Recorder<V> {
    pairs: Vec<TestedPair<V>>,
}

impl<A, B, T: Real> DepthFirstVisitor<A, B> for Recorder<A::Bv>
where
    A: Hierarchy<Scalar = T>,
    B: Hierarchy<Scalar = T, Bv = A::Bv>,
{
    type Key = ();

    fn keep(&mut self, a: &A::Bv, b: &A::Bv) -> Option<()> {
        let overlapping = a.overlaps_local(b);
        self.pairs.push(TestedPair {
            a: *a,
            b: *b,
            overlapping,
        });
        overlapping.then_some(())
    }

    fn leaves(&mut self, _a: &A, _na: usize, _b: &B, _nb: usize, _stats: &mut QueryStats) -> Flow {
        Flow::Continue
    }
}

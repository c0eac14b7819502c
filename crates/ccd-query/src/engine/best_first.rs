//! Best-first traversal of the bounding volume test tree: a priority queue of entries (a node pair plus the
//! query's own extra state, such as a time interval) keyed by a lower bound the visitor computes, smallest first.

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use ccd_bvh::Hierarchy;

use super::descent::{child_pairs, split};
use super::{FaceRef, Flow, for_each_face_pair};
use crate::DescentRule;

/// One queued entry: a node of A, a node of B and the query's extra state, with its key.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Entry<K, X> {
    /// Priority: smaller keys are handled first (ties: lower node indices first).
    pub key: K,
    /// Node of A.
    pub na: u32,
    /// Node of B.
    pub nb: u32,
    /// The query's extra state (a time interval for time of impact, nothing for distance).
    pub extra: X,
}

/// What the visitor decides for a popped entry.
pub(crate) enum Step<K, X> {
    /// Nothing below this entry can matter: drop it.
    Prune,
    /// Hand every face pair of the two leaves to [`BestFirstVisitor::face_pair`].
    Leaves,
    /// Split a node (or both) by the descent rule (never a leaf when the other is not).
    Descend,
    /// Replace the entry by two with the same nodes and new extra state (e.g. the halves of a time interval).
    SplitExtra([(K, X); 2]),
    /// End the traversal now (e.g. a work budget is spent).
    Stop,
}

/// A best-first query: its key, its pruning and splitting decisions and what it does with face pairs.
pub(crate) trait BestFirstVisitor<A: Hierarchy, B: Hierarchy<Scalar = A::Scalar, Bv = A::Bv>> {
    /// Priority of an entry: a lower bound of what it can still contribute (a distance, a contact time).
    type Key: Ord + Copy;
    /// State an entry carries besides its node pair.
    type Extra: Copy;

    /// `true` when no entry with this key (or a larger one) can change the answer: the traversal ends.
    fn done(&self, key: &Self::Key) -> bool;

    /// Decides what to do with a popped entry (the pruning test is the visitor's).
    fn visit(
        &mut self,
        a: &A,
        b: &B,
        e: &Entry<Self::Key, Self::Extra>,
    ) -> Step<Self::Key, Self::Extra>;

    /// The key of a child entry (nodes `na`, `nb`) of `parent` when `parent` is split, or `None` to prune it at
    /// once.
    fn child_key(
        &mut self,
        a: &A,
        b: &B,
        parent: &Entry<Self::Key, Self::Extra>,
        na: usize,
        nb: usize,
    ) -> Option<Self::Key>;

    /// Handles one face pair of a pair of leaves.
    fn face_pair(
        &mut self,
        a: &A,
        fa: FaceRef,
        b: &B,
        fb: FaceRef,
        e: &Entry<Self::Key, Self::Extra>,
    ) -> Flow;
}

/// Counters of the traversal itself (the visitor counts its own tests).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct QueueStats {
    /// Entries created, the root included (queued, or handled at once from the local stack).
    pub pushes: u64,
    /// Largest number of entries waiting at once (queue and local stack).
    pub peak: u64,
}

/// Heap wrapper: reversed order on (key, na, nb) so that `BinaryHeap` pops the smallest.
struct Queued<K, X>(Entry<K, X>);

impl<K: Ord, X> Queued<K, X> {
    fn rank(&self) -> (&K, u32, u32) {
        (&self.0.key, self.0.na, self.0.nb)
    }
}

impl<K: Ord, X> PartialEq for Queued<K, X> {
    fn eq(&self, o: &Self) -> bool {
        self.rank() == o.rank()
    }
}
impl<K: Ord, X> Eq for Queued<K, X> {}
impl<K: Ord, X> PartialOrd for Queued<K, X> {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}
impl<K: Ord, X> Ord for Queued<K, X> {
    #[inline]
    fn cmp(&self, o: &Self) -> Ordering {
        o.rank().cmp(&self.rank())
    }
}

/// Walks the test tree of `a` × `b` from `root`, smallest key first, as `visitor` decides; returns the queue
/// counters and the entries still queued when the queue reached `capacity` (smallest key first; empty when the
/// walk ended for any other reason).
///
/// Entries whose key is no larger than the key being handled are the smallest anywhere (every queued key is at
/// least that large), so they are handled at once, depth first, from a local stack: only entries with larger
/// keys go through the priority queue. Children of a split pair are pushed last child first, so child 0 (of a
/// pair whose nodes are both split: A's child 0 with B's child 0) is handled first; of a [`Step::SplitExtra`]
/// pair, the second first.
///
/// `capacity` bounds the entries waiting (queue and local stack, PQP's `qsize`): once that many wait, the walk
/// hands them all back, for the caller to finish another way (distance: depth first
/// from each, closest first). `usize::MAX` walks to the end.
pub(crate) fn best_first<A, B, V>(
    a: &A,
    b: &B,
    root: Entry<V::Key, V::Extra>,
    rule: DescentRule,
    visitor: &mut V,
    capacity: usize,
) -> (QueueStats, Rest<V::Key, V::Extra>)
where
    A: Hierarchy,
    B: Hierarchy<Scalar = A::Scalar, Bv = A::Bv>,
    V: BestFirstVisitor<A, B>,
{
    let stats = walk(a, b, root, rule, visitor, capacity);
    match stats {
        Walked::Ended(stats) => (stats, Vec::new()),
        Walked::Full(stats, heap) => {
            // `Queued` orders by reversed key: its ascending order is the keys' descending one.
            let mut rest: Vec<_> = heap.into_sorted_vec().into_iter().map(|q| q.0).collect();
            rest.reverse();
            (stats, rest)
        }
    }
}

/// The entries a full queue hands back, smallest key first.
pub(crate) type Rest<K, X> = Vec<Entry<K, X>>;

/// How [`walk`] ended: by itself, or with the queue full.
enum Walked<K, X> {
    Ended(QueueStats),
    Full(QueueStats, BinaryHeap<Queued<K, X>>),
}

/// [`best_first`]'s loop.
fn walk<A, B, V>(
    a: &A,
    b: &B,
    root: Entry<V::Key, V::Extra>,
    rule: DescentRule,
    visitor: &mut V,
    capacity: usize,
) -> Walked<V::Key, V::Extra>
where
    A: Hierarchy,
    B: Hierarchy<Scalar = A::Scalar, Bv = A::Bv>,
    V: BestFirstVisitor<A, B>,
{
    let mut stats = QueueStats { pushes: 1, peak: 1 };
    if a.nodes().is_empty() || b.nodes().is_empty() {
        return Walked::Ended(stats);
    }
    let mut heap = BinaryHeap::new();
    heap.push(Queued(root));
    let mut now: Vec<Entry<V::Key, V::Extra>> = Vec::new();
    while let Some(Queued(first)) = heap.pop() {
        now.push(first);
        while let Some(e) = now.pop() {
            if heap.len() + now.len() >= capacity {
                heap.extend(now.drain(..).chain([e]).map(Queued));
                return Walked::Full(stats, heap);
            }
            if visitor.done(&e.key) {
                return Walked::Ended(stats);
            }
            let mut place = |x: Entry<V::Key, V::Extra>, now: &mut Vec<_>| {
                stats.pushes += 1;
                if x.key <= e.key {
                    now.push(x);
                } else {
                    heap.push(Queued(x));
                }
            };
            match visitor.visit(a, b, &e) {
                Step::Prune => {}
                Step::Stop => return Walked::Ended(stats),
                Step::Leaves => {
                    let flow = for_each_face_pair(a, e.na as usize, b, e.nb as usize, |fa, fb| {
                        visitor.face_pair(a, fa, b, fb, &e)
                    });
                    if flow == Flow::Stop {
                        return Walked::Ended(stats);
                    }
                }
                Step::SplitExtra(halves) => {
                    for (key, extra) in halves.into_iter().rev() {
                        place(Entry { key, extra, ..e }, &mut now);
                    }
                }
                Step::Descend => {
                    let (na, nb) = (&a.nodes()[e.na as usize], &b.nodes()[e.nb as usize]);
                    let how = split(rule, &na.bv, na.is_leaf(), &nb.bv, nb.is_leaf());
                    let (pairs, n) = child_pairs(
                        how,
                        (e.na as usize, na.first_child()),
                        (e.nb as usize, nb.first_child()),
                    );
                    for &(ca, cb) in pairs[..n].iter().rev() {
                        if let Some(key) = visitor.child_key(a, b, &e, ca, cb) {
                            let child = Entry {
                                key,
                                na: ca as u32,
                                nb: cb as u32,
                                extra: e.extra,
                            };
                            place(child, &mut now);
                        }
                    }
                }
            }
            stats.peak = stats.peak.max((heap.len() + now.len()) as u64);
        }
    }
    Walked::Ended(stats)
}

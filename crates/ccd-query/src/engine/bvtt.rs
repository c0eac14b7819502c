//! Depth-first tandem traversal of two trees: the bounding volume test tree
//! (Gottschalk §2.5) walked with an explicit stack.

use ccd_bv::{BoundingVolume, Pose, Real};
use ccd_bvh::Hierarchy;

use super::descent::descend_a;
use crate::{DescentRule, QueryStats};

/// Whether a traversal goes on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Flow {
    /// Keep traversing.
    Continue,
    /// Stop now (e.g. first contact found).
    Stop,
}

/// What a query does at the kept pairs of leaves.
pub(crate) trait LeafVisitor<A: Hierarchy, B: Hierarchy<Scalar = A::Scalar, Bv = A::Bv>> {
    /// Handles a pair of leaves whose volumes overlap.
    fn leaves(&mut self, a: &A, na: usize, b: &B, nb: usize, stats: &mut QueryStats) -> Flow;
}

/// One pending pair: nodes of A and B whose volumes overlap, with B's volume
/// already moved into A's frame (model-space update, done once per node of B
/// per descent and reused while A is descended).
#[derive(Clone, Copy)]
struct Pending<V> {
    na: u32,
    nb: u32,
    b_moved: V,
}

impl<V: bytemuck::Zeroable> Pending<V> {
    fn zeroed() -> Self {
        Self {
            na: 0,
            nb: 0,
            b_moved: V::zeroed(),
        }
    }
}

/// Walks the test tree of `a` × `b` depth first (child 0 first), splitting
/// overlapping pairs by `rule`, and hands overlapping leaf pairs to
/// `visitor`. Counts volume tests, disjoint and overlapping, in `stats`.
///
/// Children are tested as soon as their parent pair is split, so the stack
/// only holds overlapping pairs; the set of tests (the BVTT) is the same as
/// testing on pop, only their order differs.
pub(crate) fn depth_first<A, B, V>(
    a: &A,
    b: &B,
    b_in_a: &Pose<A::Scalar>,
    rule: DescentRule,
    visitor: &mut V,
    stats: &mut QueryStats,
) where
    A: Hierarchy,
    B: Hierarchy<Scalar = A::Scalar, Bv = A::Bv>,
    V: LeafVisitor<A, B>,
{
    let (nodes_a, nodes_b) = (a.nodes(), b.nodes());
    let mut stack = PairStack::new();
    let root_b = nodes_b[0].bv.transformed(b_in_a);
    stack.push_if(
        test(&nodes_a[0].bv, &root_b, stats),
        Pending {
            na: 0,
            nb: 0,
            b_moved: root_b,
        },
    );
    while let Some(Pending { na, nb, b_moved }) = stack.pop() {
        let (na, nb) = (na as usize, nb as usize);
        let (node_a, node_b) = (&nodes_a[na], &nodes_b[nb]);
        let (leaf_a, leaf_b) = (node_a.is_leaf(), node_b.is_leaf());
        if leaf_a && leaf_b {
            if visitor.leaves(a, na, b, nb, stats) == Flow::Stop {
                return;
            }
        } else if descend_a(rule, &node_a.bv, leaf_a, &node_b.bv, leaf_b) {
            // Push child 1 first so child 0 is popped first.
            let c = node_a.first_child();
            for child in [c + 1, c] {
                let keep = test(&nodes_a[child].bv, &b_moved, stats);
                stack.push_if(
                    keep,
                    Pending {
                        na: child as u32,
                        nb: nb as u32,
                        b_moved,
                    },
                );
            }
        } else {
            let c = node_b.first_child();
            for child in [c + 1, c] {
                let moved = nodes_b[child].bv.transformed(b_in_a);
                let keep = test(&node_a.bv, &moved, stats);
                stack.push_if(
                    keep,
                    Pending {
                        na: na as u32,
                        nb: child as u32,
                        b_moved: moved,
                    },
                );
            }
        }
    }
}

/// One volume test, counted.
#[inline(always)]
fn test<T: Real, V: BoundingVolume<T>>(a: &V, b_moved: &V, stats: &mut QueryStats) -> bool {
    let keep = a.overlaps_local(b_moved);
    stats.bv_tests += 1;
    stats.bv_overlapping += u64::from(keep);
    stats.bv_disjoint += u64::from(!keep);
    keep
}

/// The traversal stack. `push_if` writes the entry unconditionally and only
/// advances the top when `keep` holds: whether a volume test overlaps is a
/// coin flip in close proximity, and a data dependency is cheaper than a
/// mispredicted branch.
struct PairStack<V> {
    slots: Vec<Pending<V>>,
    top: usize,
}

impl<V: Copy + bytemuck::Zeroable> PairStack<V> {
    fn new() -> Self {
        Self {
            slots: vec![Pending::zeroed(); 64],
            top: 0,
        }
    }

    #[inline(always)]
    fn push_if(&mut self, keep: bool, p: Pending<V>) {
        if self.top == self.slots.len() {
            self.slots.resize(2 * self.top, Pending::zeroed());
        }
        self.slots[self.top] = p;
        self.top += usize::from(keep);
    }

    #[inline(always)]
    fn pop(&mut self) -> Option<Pending<V>> {
        self.top = self.top.checked_sub(1)?;
        Some(self.slots[self.top])
    }
}

//! Depth-first tandem traversal of two trees: the bounding volume test tree
//! (Gottschalk §2.5) walked with an explicit stack.

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

/// What a query does at the nodes of the test tree.
pub(crate) trait PairVisitor<A: Hierarchy, B: Hierarchy<Scalar = A::Scalar, Bv = A::Bv>> {
    /// Tests the volumes of nodes `na` of A and `nb` of B; `true` keeps the
    /// pair (it is descended or, for two leaves, handed to `leaves`).
    fn volumes(&mut self, a: &A, na: usize, b: &B, nb: usize) -> bool;

    /// Handles a kept pair of leaves.
    fn leaves(&mut self, a: &A, na: usize, b: &B, nb: usize, stats: &mut QueryStats) -> Flow;
}

/// Walks the test tree of `a` × `b` depth first, children in order (child 0
/// first), splitting by `rule`. Counts volume tests in `stats`.
pub(crate) fn depth_first<A, B, V>(
    a: &A,
    b: &B,
    rule: DescentRule,
    visitor: &mut V,
    stats: &mut QueryStats,
) where
    A: Hierarchy,
    B: Hierarchy<Scalar = A::Scalar, Bv = A::Bv>,
    V: PairVisitor<A, B>,
{
    let (nodes_a, nodes_b) = (a.nodes(), b.nodes());
    let mut stack: Vec<(u32, u32)> = Vec::with_capacity(128);
    stack.push((0, 0));
    while let Some((na, nb)) = stack.pop() {
        let (na, nb) = (na as usize, nb as usize);
        stats.bv_tests += 1;
        if !visitor.volumes(a, na, b, nb) {
            stats.bv_disjoint += 1;
            continue;
        }
        stats.bv_overlapping += 1;
        let (node_a, node_b) = (&nodes_a[na], &nodes_b[nb]);
        let (leaf_a, leaf_b) = (node_a.is_leaf(), node_b.is_leaf());
        if leaf_a && leaf_b {
            if visitor.leaves(a, na, b, nb, stats) == Flow::Stop {
                return;
            }
        } else if descend_a(rule, &node_a.bv, leaf_a, &node_b.bv, leaf_b) {
            let c = node_a.first_child() as u32;
            stack.push((c + 1, nb as u32));
            stack.push((c, nb as u32));
        } else {
            let c = node_b.first_child() as u32;
            stack.push((na as u32, c + 1));
            stack.push((na as u32, c));
        }
    }
}

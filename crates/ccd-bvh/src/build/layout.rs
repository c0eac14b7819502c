//! Where the build writes each node: straight into the final node array, in
//! FPQ's depth-first layout (root at 0, the two children of every internal
//! node in adjacent slots, each subtree's descendants after its earlier
//! siblings'), with no intermediate tree to allocate, move and flatten.
//!
//! A subtree over `m` faces has at most `2m − 1` nodes (exactly that many
//! with one face per leaf), so each subtree is handed a slice of `2m − 2`
//! slots for its descendants before it is built, and the two halves of a
//! split are built into disjoint slices (in parallel where the build forks).
//! Leaves that hold several faces leave their unused slots behind; one pass
//! ([`compact`]) then closes those gaps, keeping the order.

use ccd_bv::{BoundingVolume, Real, VolumeProfile};

use crate::node::{Node, NodeKind};

/// The slots for the descendants of one subtree: `nodes[0]` is the absolute
/// slot `base`.
pub(super) struct Below<'a, T: Real, B> {
    nodes: &'a mut [Node<T, B>],
    base: usize,
}

/// The nodes a build produced: its own node, how many descendant slots it
/// filled and the profile of its subtree's volumes (computed as each volume
/// is placed, while it is in the cache, instead of in a pass over the node
/// array after the build).
pub(super) struct Placed<T: Real, B> {
    node: Node<T, B>,
    used: usize,
    profile: VolumeProfile<T>,
}

/// A leaf over `count` faces from `start` (checked against the encoding in
/// `validate`).
pub(super) fn leaf<T: Real, B: BoundingVolume<T>>(
    bv: B,
    start: usize,
    count: usize,
) -> Placed<T, B> {
    Placed {
        profile: VolumeProfile::empty().with(&bv),
        node: Node::leaf(bv, start, count)
            .expect("face offsets and counts were checked against the encoding in `validate`"),
        used: 0,
    }
}

/// The two adjacent slots of a node's children, filled once both are built.
pub(super) struct Pair<'a, T: Real, B> {
    slots: &'a mut [Node<T, B>],
    base: usize,
}

impl<'a, T: Real, B: BoundingVolume<T>> Below<'a, T, B> {
    /// The descendant slots of the node over `count` faces split at `mid`:
    /// the slots of its two children, then the descendant slots of the left
    /// child and of the right child.
    pub(super) fn split(self, mid: usize, count: usize) -> (Pair<'a, T, B>, Self, Self) {
        let (pair, rest) = self.nodes.split_at_mut(2);
        let (left, right) = rest.split_at_mut(2 * mid - 2);
        debug_assert_eq!(right.len(), 2 * (count - mid) - 2);
        let base = self.base;
        (
            Pair { slots: pair, base },
            Below {
                nodes: left,
                base: base + 2,
            },
            Below {
                nodes: right,
                base: base + 2 * mid,
            },
        )
    }
}

impl<T: Real, B: BoundingVolume<T>> Pair<'_, T, B> {
    /// Writes the built children `l` and `r` into their slots and returns the
    /// internal node `bv` above them.
    pub(super) fn join(self, bv: B, l: Placed<T, B>, r: Placed<T, B>) -> Placed<T, B> {
        self.slots[0] = l.node;
        self.slots[1] = r.node;
        Placed {
            profile: l.profile.merge(r.profile).with(&bv),
            node: Node::internal(bv, self.base)
                .expect("node indices were checked against the encoding in `validate`"),
            used: 2 + l.used + r.used,
        }
    }
}

/// Builds a tree over `faces` faces: `root` builds the root's subtree into
/// the slots it is given; the result is the node array, gaps closed, and the
/// profile of its volumes (`VolumeProfile::of` the nodes' volumes).
pub(super) fn build<T: Real, B: BoundingVolume<T>>(
    faces: usize,
    root: impl FnOnce(Below<'_, T, B>) -> Placed<T, B>,
) -> (Vec<Node<T, B>>, VolumeProfile<T>) {
    let filler = Node::leaf(B::zeroed(), 0, 1).expect("a one-face leaf at 0 is encodable");
    let mut nodes = vec![filler; 2 * faces - 1];
    let (first, rest) = nodes.split_at_mut(1);
    let placed = root(Below {
        nodes: rest,
        base: 1,
    });
    first[0] = placed.node;
    let nodes = if placed.used + 1 == nodes.len() {
        nodes
    } else {
        compact(&nodes, placed.used + 1)
    };
    (nodes, placed.profile)
}

/// The tree rooted at `nodes[0]` laid out again without gaps (`len` nodes),
/// in the same depth-first order.
fn compact<T: Real, B: BoundingVolume<T>>(nodes: &[Node<T, B>], len: usize) -> Vec<Node<T, B>> {
    let mut out = Vec::with_capacity(len);
    out.push(nodes[0]);
    // (source node, its slot in `out`), children placed as their parent is reached.
    let mut stack = vec![(0usize, 0usize)];
    while let Some((from, to)) = stack.pop() {
        if let NodeKind::Internal { first_child } = nodes[from].kind() {
            let first = out.len();
            out.push(nodes[first_child]);
            out.push(nodes[first_child + 1]);
            out[to] = Node::internal(nodes[from].bv, first)
                .expect("a compacted index is below the original");
            // Right pushed first: the left subtree is laid out first.
            stack.push((first_child + 1, first + 1));
            stack.push((first_child, first));
        }
    }
    out
}

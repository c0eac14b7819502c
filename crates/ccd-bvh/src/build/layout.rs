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

use ccd_bv::{BoundingVolume, Real};

use crate::node::{Node, NodeKind};

/// Where one subtree goes: the slot of its own node and the slots for its
/// descendants (`below[0]` is the absolute slot `base`).
pub(super) struct Site<'a, T: Real, B> {
    node: &'a mut Node<T, B>,
    below: &'a mut [Node<T, B>],
    base: usize,
}

/// What a subtree's build reports once it has written its nodes: how many
/// descendant slots it filled.
pub(super) struct Placed {
    used: usize,
}

impl Placed {
    /// Nothing placed yet (what a level-by-level build starts from).
    pub(super) fn empty() -> Self {
        Self { used: 0 }
    }

    /// Adds the nodes of another part of the same subtree (a leaf placed by a
    /// level-by-level build).
    pub(super) fn absorb(&mut self, other: Self) {
        self.used += other.used;
    }
}

/// The slot of an internal node whose children are being built, and the
/// absolute slot of its first child.
pub(super) struct Fork<'a, T: Real, B> {
    node: &'a mut Node<T, B>,
    first_child: usize,
}

/// The slots of a subtree's descendants while they are built in a scratch
/// array ([`Site::staged`]).
pub(super) struct Staged<'a, T: Real, B> {
    below: &'a mut [Node<T, B>],
}

impl<T: Real, B: BoundingVolume<T>> Staged<'_, T, B> {
    /// Copies the descendants built in `scratch` into their slots, in one
    /// sequential pass (slots a subtree leaves unused, under leaves of
    /// several faces, get whatever `scratch` held: [`compact`] never reads
    /// them).
    pub(super) fn finish(self, scratch: &[Node<T, B>]) {
        self.below.copy_from_slice(&scratch[..self.below.len()]);
    }
}

impl<'a, T: Real, B: BoundingVolume<T>> Site<'a, T, B> {
    /// This site with its descendants' slots moved to the front of `scratch`
    /// (grown to their count where shorter; node links keep the slots'
    /// places in the tree): a subtree built there writes its nodes in an
    /// array that stays in the cache, and [`Staged::finish`] copies them into
    /// place in one pass.
    pub(super) fn staged<'s>(
        self,
        scratch: &'s mut Vec<Node<T, B>>,
    ) -> (Site<'s, T, B>, Staged<'a, T, B>)
    where
        'a: 's,
    {
        let n = self.below.len();
        if scratch.len() < n {
            scratch.resize(n, bytemuck::Zeroable::zeroed());
        }
        (
            Site {
                node: self.node,
                below: &mut scratch[..n],
                base: self.base,
            },
            Staged { below: self.below },
        )
    }

    /// Writes the leaf over `count` faces from `start` (checked against the
    /// encoding in `validate`).
    pub(super) fn leaf(self, bv: B, start: usize, count: usize) -> Placed {
        *self.node = Node::leaf(bv, start, count)
            .expect("face offsets and counts were checked against the encoding in `validate`");
        Placed { used: 0 }
    }

    /// Writes the internal node `bv` over `count` faces split at `mid` before
    /// its children are built (a build that goes level by level), counts it
    /// in `placed`, and returns its children's sites.
    pub(super) fn internal(
        self,
        bv: B,
        mid: usize,
        count: usize,
        placed: &mut Placed,
    ) -> (Self, Self) {
        let (fork, l, r) = self.split(mid, count);
        placed.used += 2;
        *fork.node = Node::internal(bv, fork.first_child)
            .expect("node indices were checked against the encoding in `validate`");
        (l, r)
    }

    /// The sites of the two children of the node over `count` faces split
    /// at `mid`: their two adjacent slots come first, then the descendant
    /// slots of the left child and of the right child.
    pub(super) fn split(self, mid: usize, count: usize) -> (Fork<'a, T, B>, Self, Self) {
        let (pair, rest) = self.below.split_at_mut(2);
        let (below_l, below_r) = rest.split_at_mut(2 * mid - 2);
        debug_assert_eq!(below_r.len(), 2 * (count - mid) - 2);
        let (node_l, node_r) = pair.split_at_mut(1);
        let base = self.base;
        (
            Fork {
                node: self.node,
                first_child: base,
            },
            Site {
                node: &mut node_l[0],
                below: below_l,
                base: base + 2,
            },
            Site {
                node: &mut node_r[0],
                below: below_r,
                base: base + 2 * mid,
            },
        )
    }
}

impl<T: Real, B: BoundingVolume<T>> Fork<'_, T, B> {
    /// Writes the internal node `bv` above the children built as `l` and `r`.
    pub(super) fn join(self, bv: B, l: Placed, r: Placed) -> Placed {
        *self.node = Node::internal(bv, self.first_child)
            .expect("node indices were checked against the encoding in `validate`");
        Placed {
            used: 2 + l.used + r.used,
        }
    }
}

/// Builds a tree over `faces` faces: `root` builds the root's subtree into
/// the slots it is given; the result is the node array, gaps closed.
pub(super) fn build<T: Real, B: BoundingVolume<T>>(
    faces: usize,
    root: impl FnOnce(Site<'_, T, B>) -> Placed,
) -> Vec<Node<T, B>> {
    // Zeroed memory (no pass writing a placeholder into each slot): every slot the tree uses is written by the
    // build, and `compact` reads only those.
    let mut nodes: Vec<Node<T, B>> = bytemuck::zeroed_vec(2 * faces - 1);
    let (first, rest) = nodes.split_at_mut(1);
    let placed = root(Site {
        node: &mut first[0],
        below: rest,
        base: 1,
    });
    if placed.used + 1 == nodes.len() {
        nodes
    } else {
        compact(&nodes, placed.used + 1)
    }
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

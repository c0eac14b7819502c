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
//!
//! The array starts uninitialised: every slot the tree uses is written once
//! by the build, and a zeroing pass over the 10 MB of a 40,000-triangle OBB
//! tree took about 1 ms more. Beside each slot a flag, set only where the
//! slot is written ([`Slot::write`]) or copied from a flagged slot
//! ([`Staged::finish`]), says which slots hold a node: the array becomes a
//! `Vec<Node>` once every flag is seen set, and [`compact`] reads only
//! flagged slots.

use std::mem::MaybeUninit;

use ccd_bv::{BoundingVolume, Real};

use crate::node::{Node, NodeKind};

/// Where one subtree goes: the slot of its own node and the slots for its
/// descendants (`below[0]` is the absolute slot `base`).
pub(super) struct Site<'a, T: Real, B> {
    node: Slot<'a, T, B>,
    below: Slots<'a, T, B>,
    base: usize,
}

/// One node slot and its written flag.
struct Slot<'a, T: Real, B> {
    node: &'a mut MaybeUninit<Node<T, B>>,
    written: &'a mut bool,
}

impl<T: Real, B> Slot<'_, T, B> {
    /// Writes `node` and flags the slot written.
    fn write(self, node: Node<T, B>) {
        self.node.write(node);
        *self.written = true;
    }
}

/// Consecutive node slots and their written flags (as many of each).
struct Slots<'a, T: Real, B> {
    nodes: &'a mut [MaybeUninit<Node<T, B>>],
    written: &'a mut [bool],
}

impl<'a, T: Real, B> Slots<'a, T, B> {
    /// The first `mid` slots and the rest.
    fn split_at(self, mid: usize) -> (Self, Self) {
        let (nodes_a, nodes_b) = self.nodes.split_at_mut(mid);
        let (written_a, written_b) = self.written.split_at_mut(mid);
        (
            Slots {
                nodes: nodes_a,
                written: written_a,
            },
            Slots {
                nodes: nodes_b,
                written: written_b,
            },
        )
    }

    /// The first slot and the rest (`None` for no slots).
    fn split_first(self) -> Option<(Slot<'a, T, B>, Self)> {
        let (node, nodes) = self.nodes.split_first_mut()?;
        let (written, rest) = self.written.split_first_mut()?;
        Some((
            Slot { node, written },
            Slots {
                nodes,
                written: rest,
            },
        ))
    }
}

/// A task's scratch node slots for subtrees built in the cache
/// ([`Site::staged`]), kept from one subtree to the next.
pub(super) struct Staging<T: Real, B> {
    nodes: Vec<MaybeUninit<Node<T, B>>>,
    written: Vec<bool>,
}

impl<T: Real, B> Default for Staging<T, B> {
    fn default() -> Self {
        Self {
            nodes: Vec::new(),
            written: Vec::new(),
        }
    }
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
    node: Slot<'a, T, B>,
    first_child: usize,
}

/// The slots of a subtree's descendants while they are built in a staging
/// array ([`Site::staged`]).
pub(super) struct Staged<'a, T: Real, B> {
    below: Slots<'a, T, B>,
}

impl<T: Real, B: BoundingVolume<T>> Staged<'_, T, B> {
    /// Copies the slots of the subtree built in `staging`, with their flags,
    /// into place in one sequential pass (slots left unused under leaves of
    /// several faces stay unflagged).
    pub(super) fn finish(self, staging: &Staging<T, B>) {
        let n = self.below.nodes.len();
        self.below.nodes.copy_from_slice(&staging.nodes[..n]);
        self.below.written.copy_from_slice(&staging.written[..n]);
    }
}

impl<'a, T: Real, B: BoundingVolume<T>> Site<'a, T, B> {
    /// This site with its descendants' slots moved to the front of `staging`
    /// (grown to their count where shorter; node links keep the slots'
    /// places in the tree): a subtree built there writes its nodes in an
    /// array that stays in the cache, and [`Staged::finish`] copies them into
    /// place in one pass.
    pub(super) fn staged<'s>(
        self,
        staging: &'s mut Staging<T, B>,
    ) -> (Site<'s, T, B>, Staged<'a, T, B>)
    where
        'a: 's,
    {
        let n = self.below.nodes.len();
        if staging.nodes.len() < n {
            staging.nodes.resize(n, MaybeUninit::uninit());
            staging.written.resize(n, false);
        }
        // A previous subtree's flags would vouch for its nodes, which are initialised, but the copy back should
        // flag only what this subtree writes.
        staging.written[..n].fill(false);
        (
            Site {
                node: self.node,
                below: Slots {
                    nodes: &mut staging.nodes[..n],
                    written: &mut staging.written[..n],
                },
                base: self.base,
            },
            Staged { below: self.below },
        )
    }

    /// Writes the leaf over `count` faces from `start` (checked against the
    /// encoding in `validate`).
    pub(super) fn leaf(self, bv: B, start: usize, count: usize) -> Placed {
        self.node.write(
            Node::leaf(bv, start, count)
                .expect("face offsets and counts were checked against the encoding in `validate`"),
        );
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
        fork.node.write(
            Node::internal(bv, fork.first_child)
                .expect("node indices were checked against the encoding in `validate`"),
        );
        (l, r)
    }

    /// The sites of the two children of the node over `count` faces split
    /// at `mid`: their two adjacent slots come first, then the descendant
    /// slots of the left child and of the right child.
    pub(super) fn split(self, mid: usize, count: usize) -> (Fork<'a, T, B>, Self, Self) {
        let (pair, rest) = self.below.split_at(2);
        let (below_l, below_r) = rest.split_at(2 * mid - 2);
        debug_assert_eq!(below_r.nodes.len(), 2 * (count - mid) - 2);
        let (node_l, pair) = pair.split_first().expect("a split node has two children");
        let (node_r, _) = pair.split_first().expect("a split node has two children");
        let base = self.base;
        (
            Fork {
                node: self.node,
                first_child: base,
            },
            Site {
                node: node_l,
                below: below_l,
                base: base + 2,
            },
            Site {
                node: node_r,
                below: below_r,
                base: base + 2 * mid,
            },
        )
    }
}

impl<T: Real, B: BoundingVolume<T>> Fork<'_, T, B> {
    /// Writes the internal node `bv` above the children built as `l` and `r`.
    pub(super) fn join(self, bv: B, l: Placed, r: Placed) -> Placed {
        self.node.write(
            Node::internal(bv, self.first_child)
                .expect("node indices were checked against the encoding in `validate`"),
        );
        Placed {
            used: 2 + l.used + r.used,
        }
    }
}

/// Builds a tree over `faces` faces: `root` builds the root's subtree into
/// the slots it is given; the result is the node array, gaps closed.
///
/// # Panics
/// If `root` leaves a slot of its tree unwritten (a bug of the build).
pub(super) fn build<T: Real, B: BoundingVolume<T>>(
    faces: usize,
    root: impl FnOnce(Site<'_, T, B>) -> Placed,
) -> Vec<Node<T, B>> {
    let len = 2 * faces - 1;
    let mut nodes = Box::<[Node<T, B>]>::new_uninit_slice(len);
    let mut written = vec![false; len];
    let (node, below) = Slots {
        nodes: &mut nodes,
        written: &mut written,
    }
    .split_first()
    .expect("a tree has a root");
    let placed = root(Site {
        node,
        below,
        base: 1,
    });
    if placed.used + 1 == len && written.iter().all(|&w| w) {
        // SAFETY: every slot is flagged, and a flag is set only where its slot was written (`Slot::write`) or
        // copied with the flag from a flagged slot (`Staged::finish`), so every slot holds a node.
        unsafe { nodes.assume_init() }.into_vec()
    } else {
        compact(&nodes, &written, placed.used + 1)
    }
}

/// The tree rooted at `nodes[0]` laid out again without gaps (`len` nodes),
/// in the same depth-first order, reading only slots flagged `written`.
///
/// # Panics
/// If the tree reaches a slot that is not flagged.
fn compact<T: Real, B: BoundingVolume<T>>(
    nodes: &[MaybeUninit<Node<T, B>>],
    written: &[bool],
    len: usize,
) -> Vec<Node<T, B>> {
    let at = |i: usize| -> Node<T, B> {
        assert!(written[i], "the build left slot {i} of its tree unwritten");
        // SAFETY: a flagged slot holds a node (see `build`); `Node` is `Copy`, so the slot keeps it.
        unsafe { nodes[i].assume_init_read() }
    };
    let mut out = Vec::with_capacity(len);
    out.push(at(0));
    // Slots of `out` whose node still links into `nodes`: a parent's children are copied as it is reached.
    let mut stack = vec![0usize];
    while let Some(to) = stack.pop() {
        if let NodeKind::Internal { first_child } = out[to].kind() {
            let first = out.len();
            out.push(at(first_child));
            out.push(at(first_child + 1));
            out[to] =
                Node::internal(out[to].bv, first).expect("a compacted index is below the original");
            // Right pushed first: the left subtree is laid out first.
            stack.push(first + 1);
            stack.push(first);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use ccd_bv::Aabb;

    type N = Node<f64, Aabb<f64>>;

    /// A volume told apart by its first coordinate.
    fn bv(x: f64) -> Aabb<f64> {
        Aabb {
            center: [x, 0.0, 0.0],
            half: [1.0; 3],
        }
    }

    /// Trees whose descendants are written through one staging array, a larger one first: each node array holds
    /// its own nodes in place.
    #[test]
    fn staged_nodes_land_in_place() {
        let mut staging = Staging::default();
        // A first subtree fills more staging slots than the second uses.
        let first = build::<f64, Aabb<f64>>(3, |site| {
            let (site, staged) = site.staged(&mut staging);
            let mut placed = Placed::empty();
            let (l, r) = site.internal(bv(1.0), 1, 3, &mut placed);
            placed.absorb(l.leaf(bv(2.0), 0, 1));
            let (rl, rr) = r.internal(bv(3.0), 1, 2, &mut placed);
            placed.absorb(rl.leaf(bv(4.0), 1, 1));
            placed.absorb(rr.leaf(bv(5.0), 2, 1));
            staged.finish(&staging);
            placed
        });
        let centres = |nodes: &[N]| nodes.iter().map(|n| n.bv.center[0]).collect::<Vec<_>>();
        assert_eq!(centres(&first), [1.0, 2.0, 3.0, 4.0, 5.0]);
        let second = build::<f64, Aabb<f64>>(2, |site| {
            let (site, staged) = site.staged(&mut staging);
            let mut placed = Placed::empty();
            let (l, r) = site.internal(bv(6.0), 1, 2, &mut placed);
            placed.absorb(l.leaf(bv(7.0), 0, 1));
            placed.absorb(r.leaf(bv(8.0), 1, 1));
            staged.finish(&staging);
            placed
        });
        assert_eq!(centres(&second), [6.0, 7.0, 8.0]);
        assert_eq!(second[0].kind(), NodeKind::Internal { first_child: 1 });
    }

    /// A build that leaves a slot of its tree unwritten (its root's right child) is refused with a panic, never
    /// read.
    #[test]
    #[should_panic(expected = "unwritten")]
    fn an_unwritten_slot_is_never_read() {
        build::<f64, Aabb<f64>>(2, |site| {
            let (fork, l, _r) = site.split(1, 2);
            let l = l.leaf(bv(1.0), 0, 1);
            fork.join(bv(0.0), l, Placed::empty())
        });
    }

    /// Slots left unused under a leaf of several faces are skipped: the compacted array is the tree's nodes.
    #[test]
    fn leaves_of_several_faces_are_compacted() {
        let nodes = build::<f64, Aabb<f64>>(3, |site| {
            let (fork, l, r) = site.split(1, 3);
            let l = l.leaf(bv(1.0), 0, 1);
            let r = r.leaf(bv(2.0), 1, 2);
            fork.join(bv(0.0), l, r)
        });
        assert_eq!(nodes.len(), 3);
        assert_eq!(nodes[0].kind(), NodeKind::Internal { first_child: 1 });
        assert_eq!(nodes[2].bv.center[0], 2.0);
    }
}

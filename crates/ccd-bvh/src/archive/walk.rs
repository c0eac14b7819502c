//! The structural check of a file's tree: one walk from the root, in parallel over subtrees, that checks every
//! node it reaches and computes every node's face slots and whether its descendants lie side by side ([`Spans`]).
//!
//! The walk descends from the root to every child it is told of, checking as it goes:
//! - an internal node's children lie after it and in bounds (so every path is strictly increasing and ends);
//! - a leaf's faces lie in `0..faces` and are at most the recorded leaf size;
//! - an internal node's faces are its first child's followed by its second child's (adjacent), and more than
//!   the recorded leaf size (the builder splits exactly those);
//! - no node lies deeper than the header's depth, which is at most [`max_levels`]`(faces)`, the most levels a
//!   build of that many faces has (so no walk, and no containment proof after it, runs down a hostile chain);
//! - every volume is well formed within the supported magnitude ([`BoundingVolume::is_well_formed_within`]
//!   [`supported_magnitude`]: finite parameters of bounded magnitude, non-negative sizes).
//!
//! Then it requires that it reached exactly `nodes` nodes, that the root's faces are `0..faces` and that the
//! tree has exactly the header's depth. Together these are the tree checks of the format docs (every node but
//! the root with exactly one parent, leaves covering every face slot exactly once):
//! - a node reached along two paths has the same faces on both (a node's faces depend on its subtree only);
//!   as every internal node's faces are its children's side by side, every leaf reached lies in the root's faces
//!   once per path to it, so two paths would put the same non-empty faces twice side by side: impossible.
//!   Hence no node is reached twice, the walk reached `nodes` distinct nodes, i.e. all of them, each from one
//!   parent, and nodes that no reachable node names as a child do not exist;
//! - the leaves reached tile the root's faces without overlap; being `0..faces`, every face slot is in exactly
//!   one leaf.
//!
//! The walk stops as soon as it has reached more than `nodes` nodes (some node was reached twice), so a file
//! whose children are shared, however often, costs no more than one pass over its nodes.

use std::ops::Range;
use std::sync::atomic::{AtomicU32, AtomicU64, AtomicUsize, Ordering::Relaxed};

use ccd_bv::{BoundingVolume, Real, supported_magnitude};

use super::checksum::Chunks;
use crate::{FileError, Node};

/// Levels below the root whose subtrees are walked as separate parallel tasks (up to `2^PARALLEL_LEVELS`).
const PARALLEL_LEVELS: usize = 8;

/// Nodes a task reaches between two updates of the shared count.
const BATCH: usize = 4096;

/// The most levels a tree built over `faces` triangles has: nodes above depth `MEAN_SPLIT_DEPTH` are split at
/// the mean (which may peel off one triangle), deeper ones at the median (halving), so a leaf lies at most
/// `MEAN_SPLIT_DEPTH + ⌈log2 faces⌉` below the root.
pub(crate) fn max_levels(faces: usize) -> usize {
    let log2 = faces
        .checked_next_power_of_two()
        .map_or(usize::BITS, usize::trailing_zeros);
    crate::build::MEAN_SPLIT_DEPTH as usize + 1 + log2 as usize
}

/// Every node's face slots and where its descendants lie, written once by the walk (atomically, as parallel
/// tasks share the arrays) and read by the containment proof.
///
/// A slot range `start..end` is stored as `start | (end − 1) << 32`, which holds any non-empty range of a file of
/// at most `2^32` faces (the ids of more faces cannot be a permutation).
///
/// A node's descendants are recorded as a count `m` where they are exactly the `m` nodes from its first child
/// on, side by side (as in every file the builder writes), [`UNLISTED`] otherwise. The walk records `m` where
/// the subtree's nodes number `m + 1` and its largest index is the first child's plus `m − 1`: every descendant
/// lies at or after the first child (children lie after their parents) and, once the walk has accepted the
/// tree, no node is reached twice, so `m` distinct indices in a range of `m` fill it.
pub(crate) struct Spans {
    slots: Vec<AtomicU64>,
    descendants: Vec<AtomicU32>,
}

/// The recorded count of a node whose descendants are not the nodes side by side from its first child on (or
/// are too many to count in a `u32`).
const UNLISTED: u32 = u32::MAX;

impl Spans {
    /// `n` empty spans, or a typed error where they cannot be allocated.
    fn new(n: usize) -> Result<Self, FileError> {
        let no_memory =
            || FileError::Invalid(format!("not enough memory to verify the file ({n} nodes)"));
        let mut slots = Vec::new();
        slots.try_reserve_exact(n).map_err(|_| no_memory())?;
        slots.extend((0..n).map(|_| AtomicU64::new(0)));
        let mut descendants = Vec::new();
        descendants.try_reserve_exact(n).map_err(|_| no_memory())?;
        descendants.extend((0..n).map(|_| AtomicU32::new(UNLISTED)));
        Ok(Spans { slots, descendants })
    }

    /// The face slots of node `i`.
    #[inline(always)]
    pub(crate) fn get(&self, i: usize) -> Range<usize> {
        let w = self.slots[i].load(Relaxed);
        (w & 0xffff_ffff) as usize..(w >> 32) as usize + 1
    }

    /// The number of face slots of node `i`.
    #[inline(always)]
    pub(crate) fn len(&self, i: usize) -> usize {
        let w = self.slots[i].load(Relaxed);
        (w >> 32) as usize + 1 - (w & 0xffff_ffff) as usize
    }

    /// The number `m` of node `i`'s descendants where they are exactly the `m` nodes from its first child on,
    /// side by side; `None` where they are not (or `i` is a leaf).
    #[inline(always)]
    pub(crate) fn side_by_side(&self, i: usize) -> Option<usize> {
        match self.descendants[i].load(Relaxed) {
            UNLISTED => None,
            m => Some(m as usize),
        }
    }

    fn set(&self, i: usize, r: &Range<usize>) {
        self.slots[i].store(r.start as u64 | ((r.end - 1) as u64) << 32, Relaxed);
    }

    /// Records the subtree of the internal node `i` with first child `c`: `nodes` nodes, `last` the largest
    /// index (type docs).
    fn set_subtree(&self, i: usize, c: usize, sub: &Subtree) {
        let m = sub.nodes - 1;
        if sub.last + 1 - c == m
            && let Ok(m) = u32::try_from(m)
            && m != UNLISTED
        {
            self.descendants[i].store(m, Relaxed);
        }
    }
}

/// The nodes of a walked subtree: how many, and the largest index.
#[derive(Clone, Copy)]
struct Subtree {
    nodes: usize,
    last: usize,
}

impl Subtree {
    /// The subtree of a leaf `i`.
    fn leaf(i: usize) -> Self {
        Subtree { nodes: 1, last: i }
    }

    /// The subtree of a node above the subtrees `a` and `b` of its children.
    fn join(a: &Self, b: &Self) -> Self {
        Subtree {
            nodes: 1 + a.nodes + b.nodes,
            last: a.last.max(b.last),
        }
    }
}

/// Whether `bv` is well formed within the supported magnitude (module docs).
#[inline(always)]
fn well_formed<T: Real, B: BoundingVolume<T>>(bv: &B) -> bool {
    bv.is_well_formed_within(supported_magnitude::<T>())
}

fn corrupt(what: impl Into<String>) -> FileError {
    FileError::Corrupt(what.into())
}

/// What a walk of a subtree found besides errors: its faces, its levels and whether its volumes are all well
/// formed.
struct Found {
    span: Range<usize>,
    levels: usize,
    well_formed: bool,
    nodes: Subtree,
}

/// What a serial walk counts on its way: nodes reached since the last update of the shared count, levels
/// below its start, whether every volume so far is well formed, and the checksum chunk of the last node.
struct Tally {
    batch: usize,
    levels: usize,
    well_formed: bool,
    chunk: usize,
}

/// The checksum of the file whose node block starts `offset` bytes into the payload: the walk hashes the chunk
/// of each node before it reads the node ([`Chunks::touch`]).
#[derive(Clone, Copy)]
pub(crate) struct NodeChunks<'c, 'a> {
    pub(crate) chunks: &'c Chunks<'a>,
    pub(crate) offset: usize,
}

/// A walk of one file's tree (module docs).
struct Walk<'a, T: Real, B> {
    nodes: &'a [Node<T, B>],
    faces: usize,
    leaf_size: usize,
    /// The header's depth (number of levels).
    depth: usize,
    spans: Spans,
    /// Nodes reached so far, updated by every task every [`BATCH`] nodes and at its end.
    reached: AtomicUsize,
    hashing: Option<NodeChunks<'a, 'a>>,
}

/// Checks the tree of a file whose header records `leaf_size` and `depth` (module docs) and returns every
/// node's face slots; hashes the checksum chunks of the nodes on the way (`hashing`).
pub(crate) fn walk_tree<T: Real, B: BoundingVolume<T>>(
    nodes: &[Node<T, B>],
    faces: usize,
    leaf_size: usize,
    depth: usize,
    hashing: Option<NodeChunks<'_, '_>>,
) -> Result<Spans, FileError> {
    if faces as u64 > 1 << 32 {
        return Err(corrupt(format!(
            "{faces} faces: more than the 2^32 ids of faces can number"
        )));
    }
    let most = max_levels(faces);
    if depth > most {
        return Err(corrupt(format!(
            "the header records depth {depth}, more than the {most} levels a tree of {faces} faces is built with"
        )));
    }
    let walk = Walk {
        nodes,
        faces,
        leaf_size,
        depth,
        spans: Spans::new(nodes.len())?,
        reached: AtomicUsize::new(0),
        hashing,
    };
    let found = walk.subtree(0, 0)?;
    let n = nodes.len();
    if walk.reached.load(Relaxed) != n {
        return Err(corrupt("a node is not reachable from the root"));
    }
    if found.span != (0..faces) {
        return Err(corrupt("a face is in no leaf"));
    }
    if found.levels != depth {
        return Err(corrupt(format!(
            "the header records depth {depth}, the tree has {} levels",
            found.levels
        )));
    }
    if !found.well_formed {
        return Err(malformed(nodes));
    }
    Ok(walk.spans)
}

/// The error for a tree with a volume that is not well formed within the supported magnitude: it names the
/// first such node, the number that breaks the bound (or, where every number is within it, a negative size) and
/// the volume.
#[cold]
#[inline(never)]
fn malformed<T: Real, B: BoundingVolume<T>>(nodes: &[Node<T, B>]) -> FileError {
    let most = supported_magnitude::<T>();
    let Some(i) = nodes.iter().position(|n| !well_formed(&n.bv)) else {
        return corrupt("a bounding volume is not well formed");
    };
    let bv = &nodes[i].bv;
    let numbers: &[T] = bytemuck::cast_slice(std::slice::from_ref(bv));
    let why = match numbers.iter().find(|x| !x.finite() || x.abs() > most) {
        Some(x) if x.finite() => format!(
            "the number {:e} is out of the supported range: volume numbers must have a magnitude of at most \
             {:e} ({} times the largest supported coordinate)",
            x.to_f64_exact(),
            most.to_f64_exact(),
            ccd_bv::VOLUME_MAGNITUDE_FACTOR
        ),
        Some(x) => format!("the number {x} is not finite"),
        None => "the volume has a negative size".into(),
    };
    corrupt(format!("node {i}: {why}: {bv:?}"))
}

impl<T: Real, B: BoundingVolume<T>> Walk<'_, T, B> {
    /// Walks the subtree of node `i` at depth `level` (the root's is 0): the top [`PARALLEL_LEVELS`] as
    /// parallel tasks, below that one task per subtree.
    fn subtree(&self, i: usize, level: usize) -> Result<Found, FileError> {
        if level >= PARALLEL_LEVELS || self.nodes[i].is_leaf() {
            return self.serial(i, level);
        }
        let mut last = usize::MAX;
        self.touch(i, &mut last);
        let c = self.enter(i, level)?;
        self.count(1)?;
        let (a, b) = rayon::join(
            || self.subtree(c, level + 1),
            || self.subtree(c + 1, level + 1),
        );
        let (a, b) = (a?, b?);
        let span = self.join(i, &a.span, &b.span)?;
        let nodes = Subtree::join(&a.nodes, &b.nodes);
        self.spans.set_subtree(i, c, &nodes);
        Ok(Found {
            span,
            levels: a.levels.max(b.levels),
            well_formed: a.well_formed & b.well_formed & well_formed(&self.nodes[i].bv),
            nodes,
        })
    }

    /// Walks the subtree of node `i` at depth `level` in one task, depth first (children after their parent,
    /// the parent's faces from its children's).
    fn serial(&self, i: usize, level: usize) -> Result<Found, FileError> {
        let mut tally = Tally {
            batch: 0,
            levels: 0,
            well_formed: true,
            chunk: usize::MAX,
        };
        let (span, nodes) = self.descend(i, level, &mut tally)?;
        self.count(tally.batch)?;
        Ok(Found {
            span,
            levels: tally.levels,
            well_formed: tally.well_formed,
            nodes,
        })
    }

    /// The recursion of [`serial`](Self::serial): node `j` at depth `lv`, then its children, then its faces
    /// from theirs. The recursion is as deep as the tree, which [`enter`](Self::enter) bounds by the header's
    /// depth, itself at most [`max_levels`] (under a hundred levels for any file).
    fn descend(
        &self,
        j: usize,
        lv: usize,
        tally: &mut Tally,
    ) -> Result<(Range<usize>, Subtree), FileError> {
        tally.batch += 1;
        if tally.batch == BATCH {
            self.count(tally.batch)?;
            tally.batch = 0;
        }
        tally.levels = tally.levels.max(lv + 1);
        self.touch(j, &mut tally.chunk);
        let node = &self.nodes[j];
        tally.well_formed &= well_formed(&node.bv);
        if node.is_leaf() {
            let r = self.leaf(j)?;
            self.spans.set(j, &r);
            Ok((r, Subtree::leaf(j)))
        } else {
            let c = self.enter(j, lv)?;
            let (a, sa) = self.descend(c, lv + 1, tally)?;
            let (b, sb) = self.descend(c + 1, lv + 1, tally)?;
            let sub = Subtree::join(&sa, &sb);
            self.spans.set_subtree(j, c, &sub);
            Ok((self.join(j, &a, &b)?, sub))
        }
    }

    /// Hashes the checksum chunk of node `j` unless it is `last`, the chunk of the task's last node, which is
    /// then `j`'s.
    #[inline(always)]
    fn touch(&self, j: usize, last: &mut usize) {
        if let Some(h) = self.hashing {
            let k = Chunks::chunk_of(h.offset + j * size_of::<Node<T, B>>());
            if k != *last {
                h.chunks.touch(k);
                *last = k;
            }
        }
    }

    /// Adds `k` reached nodes; an error once more nodes were reached than there are (one was reached twice).
    fn count(&self, k: usize) -> Result<(), FileError> {
        if self.reached.fetch_add(k, Relaxed) + k > self.nodes.len() {
            return Err(corrupt(format!(
                "a node has two parents (the walk from the root reaches more than the {} nodes)",
                self.nodes.len()
            )));
        }
        Ok(())
    }

    /// The first child of the internal node `i` at depth `level`, checked: after `i`, in bounds, and its
    /// children not deeper than the header's depth.
    fn enter(&self, i: usize, level: usize) -> Result<usize, FileError> {
        let (c, n) = (self.nodes[i].first_child(), self.nodes.len());
        if c <= i || c >= n - 1 {
            return Err(corrupt(format!(
                "node {i} has children {c}, {} (nodes: {n})",
                c.wrapping_add(1)
            )));
        }
        if level + 2 > self.depth {
            return Err(corrupt(format!(
                "the header records depth {}, the tree has more levels (node {c} is at depth {})",
                self.depth,
                level + 1
            )));
        }
        Ok(c)
    }

    /// The faces of the leaf `i`, checked: in bounds and at most the leaf size.
    fn leaf(&self, i: usize) -> Result<Range<usize>, FileError> {
        let r = self.nodes[i].leaf_faces();
        if r.end > self.faces || r.len() > self.leaf_size {
            return Err(corrupt(format!(
                "leaf {i} has faces {r:?} (faces: {}, leaf size {})",
                self.faces, self.leaf_size
            )));
        }
        Ok(r)
    }

    /// The faces of the internal node `i` from its children's `a` and `b`, checked: adjacent, and more than
    /// the leaf size.
    fn join(
        &self,
        i: usize,
        a: &Range<usize>,
        b: &Range<usize>,
    ) -> Result<Range<usize>, FileError> {
        if a.end != b.start {
            return Err(corrupt(format!(
                "node {i}: its children's faces {a:?} and {b:?} are not adjacent"
            )));
        }
        if b.end - a.start <= self.leaf_size {
            return Err(corrupt(format!(
                "node {i} holds {} faces, within the recorded leaf size {}, but is not a leaf",
                b.end - a.start,
                self.leaf_size
            )));
        }
        self.spans.set(i, &(a.start..b.end));
        Ok(a.start..b.end)
    }
}

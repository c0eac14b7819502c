//! The containment proof of validation: every node's volume contains every triangle of its subtree, which is
//! what makes pruning a node on a disjoint volume correct.
//!
//! A node's subtree's faces are a contiguous run of face slots (the tree check proves that every internal
//! node's slots are its children's side by side), and the corners of all faces are gathered once in slot order
//! ([`Corners`]), so the vertices of any subtree are one contiguous run of corners. Nodes are split by the size
//! of that run:
//! - a *small* node (at most [`SMALL`] faces; every leaf is small) has every corner of its run tested against
//!   its volume ([`RunTest`], [`Enclose::holds_point`] on each). Fitted trees are not nested: a child's volume,
//!   turned against its parent's, pokes out at its corners although every triangle lies in both, and at these
//!   sizes a descendant's volume is almost never certainly inside its ancestor's (OBB trees of a 327,680-triangle
//!   icosphere: 66 of 557,121 tries succeed for ancestors of 2 to 15 faces, 2% for 16 to 31), so volume tests
//!   would only add work;
//! - a *large* node `P` has its subtree searched from its children, level by level: a large node whose volume
//!   lies certainly inside `P`'s ([`Enclose::holds`]) closes its whole subtree; otherwise its children are
//!   queued, and a small node reached has the corners of its run tested against `P`.
//!
//! So every vertex of every triangle is proven inside every ancestor's volume, directly or through a chain of
//! certainly nested volumes. Every node is the outer side of tests exactly once, as itself (small) or as the
//! root of its search (large), and its axes are measured first (their defect bounds the frame, and enters each
//! [`Enclose::holds`] with the node inside). Nodes are checked in parallel, in index order, so that consecutive
//! small nodes read nearby corners.

use std::collections::VecDeque;
use std::ops::Range;

use ccd_bv::Real;
use rayon::prelude::*;

use super::corners::{Corners, RunTest};
use super::enclose::{Enclose, max_defect, wide};
use crate::{Face, FileError, Node};

/// The most faces of a node whose corners are tested directly (at least the largest leaf).
const SMALL: usize = 64;

const _: () = assert!(SMALL >= crate::MAX_LEAF_SIZE as usize);

/// Consecutive nodes one parallel task checks.
const CHUNK: usize = 256;

/// A verified tree, its face slots and corners, read by every check.
struct Proof<'a, T: Real, B> {
    nodes: &'a [Node<T, B>],
    faces: &'a [Face],
    spans: &'a [Range<usize>],
    corners: Corners<T>,
    run_test: RunTest,
}

/// Proves that every node's volume contains its subtree's triangles (module docs). Requires a verified tree
/// (indices in bounds, children after parents, vertex indices in bounds) and every node's face slots `spans`.
pub(crate) fn verify_containment<T: Real, B: Enclose<T>>(
    nodes: &[Node<T, B>],
    faces: &[Face],
    vertices: &[[T; 3]],
    spans: &[Range<usize>],
) -> Result<(), FileError> {
    let proof = Proof {
        nodes,
        faces,
        spans,
        corners: Corners::of(faces, vertices),
        run_test: RunTest::detect(),
    };
    (0..nodes.len().div_ceil(CHUNK))
        .into_par_iter()
        .try_for_each_init(VecDeque::new, |queue, chunk| {
            for p in chunk * CHUNK..nodes.len().min((chunk + 1) * CHUNK) {
                let outer = proof.outer(p)?;
                if proof.small(p) {
                    proof.test_corners(p, &outer, p)?;
                } else {
                    proof.search(p, &outer, queue)?;
                }
            }
            Ok(())
        })
}

impl<T: Real, B: Enclose<T>> Proof<'_, T, B> {
    fn small(&self, i: usize) -> bool {
        self.spans[i].len() <= SMALL
    }

    /// Node `i` as the outer side of tests: its axes checked, then widened.
    fn outer(&self, i: usize) -> Result<B::Wide, FileError> {
        let bv = &self.nodes[i].bv;
        if B::AXES {
            let d = bv.defect();
            if d.is_nan() || d > max_defect::<T>() {
                return Err(FileError::Corrupt(format!(
                    "node {i}: the volume's axes are not orthonormal (allowed defect {:.1e})",
                    max_defect::<T>()
                )));
            }
        }
        Ok(bv.widen())
    }

    /// Tests the corners of node `q`'s faces against node `p`'s volume `outer`; the error names `p` and the
    /// first face with a corner refused.
    fn test_corners(&self, p: usize, outer: &B::Wide, q: usize) -> Result<(), FileError> {
        let run = self.corners.of_slots(self.spans[q].clone());
        if self.run_test.holds::<T, B>(outer, run) {
            return Ok(());
        }
        let k = (0..run.len())
            .position(|k| !B::holds_point(outer, wide(&run.get(k))))
            .unwrap_or(0);
        Err(FileError::Corrupt(format!(
            "node {p}: the volume does not contain triangle {} of its subtree",
            self.faces[self.spans[q].start + k / 3].id
        )))
    }

    /// The subtree of the large node `p` against its volume `outer` (module docs), level by level (a queue:
    /// the nodes of a level are read before any of their children, which keeps more memory reads in flight
    /// than a depth-first search).
    fn search(
        &self,
        p: usize,
        outer: &B::Wide,
        queue: &mut VecDeque<usize>,
    ) -> Result<(), FileError> {
        let c = self.nodes[p].first_child();
        queue.clear();
        queue.extend([c, c + 1]);
        while let Some(q) = queue.pop_front() {
            if self.small(q) {
                self.test_corners(p, outer, q)?;
            } else {
                let bv = &self.nodes[q].bv;
                if !B::holds(outer, bv, bv.defect()) {
                    let c = self.nodes[q].first_child();
                    queue.extend([c, c + 1]);
                }
            }
        }
        Ok(())
    }
}

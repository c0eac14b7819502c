//! The containment proof of validation: every node's volume contains every triangle of its subtree, which is
//! what makes pruning a node on a disjoint volume correct.
//!
//! A node's subtree's faces are a contiguous run of face slots (the tree check proves that every internal
//! node's slots are its children's side by side), and the corners of all faces are gathered once in slot order
//! ([`Corners`]), so the vertices of any subtree are one contiguous run of corners. Nodes are split by the size
//! of that run:
//! - a *small* node (at most [`SMALL`] faces; every leaf is small) has every corner of its run tested against
//!   its volume ([`Enclose::holds_points`]: [`Enclose::holds_point`] on each). Fitted trees are not nested: a
//!   child's volume, turned against its parent's, pokes out at its corners although every triangle lies in
//!   both, so a descendant's volume is rarely certainly inside a near ancestor's (OBB trees of a
//!   327,680-triangle icosphere: 66 of 557,121 tries succeed for ancestors of 2 to 15 faces, 2% for 16 to 31),
//!   and in a search (below) every descendant that reaches the ancestor's boundary fails, down to the nodes
//!   whose corners it then tests. Up to a few hundred faces the direct test is the cheaper proof: with
//!   [`SMALL`] = 512 rather than 64 the single-thread proof of OBB trees of 300,000 to 330,000 triangles (an
//!   icosphere, a noisy sphere, a wavy terrain, a triangle soup) takes 10–17 % less time, and 256 or 1,024
//!   faces do no better;
//! - a *large* node `P` has its subtree searched from its children, level by level: a large node whose volume
//!   lies certainly inside `P`'s ([`Enclose::holds`]) closes its whole subtree; otherwise its children are
//!   queued, and a small node reached has the corners of its run tested against `P`.
//!
//! So every vertex of every triangle is proven inside every ancestor's volume, directly or through a chain of
//! certainly nested volumes. Every node is the outer side of tests exactly once, as itself (small) or as the
//! root of its search (large), and its axes are measured first (their defect bounds the frame, and enters each
//! [`Enclose::holds`] with the node inside). Nodes are checked in parallel, in index order, so that consecutive
//! small nodes read nearby corners.
//!
//! The check of a range of nodes is compiled three times, as is, with AVX2 and with AVX-512 F enabled, and the
//! widest copy the CPU has runs ([`Simd::fastest`]): its instructions are wider, and its OBB run test is written
//! with that instruction set (`obb_run_simd`), but every arithmetic operation is the same IEEE-754 double
//! operation on the same operands in the same order (Rust never fuses `a·b + c` into one rounding, even where
//! the target has FMA), so every copy computes bit for bit the same values and reaches the same verdict.

use std::collections::VecDeque;
use std::ops::Range;

use ccd_bv::Real;
use rayon::prelude::*;

use super::corners::Corners;
use super::enclose::{Enclose, Simd, max_defect, wide};
use super::walk::Spans;
use crate::{Face, FileError, Node};

/// The most faces of a node whose corners are tested directly (at least the largest leaf; module docs).
const SMALL: usize = 512;

const _: () = assert!(SMALL >= crate::MAX_LEAF_SIZE as usize);

/// Consecutive nodes one parallel task checks.
const CHUNK: usize = 256;

/// A verified tree, its face slots and corners, read by every check.
struct Proof<'a, T: Real, B> {
    nodes: &'a [Node<T, B>],
    faces: &'a [Face],
    spans: &'a Spans,
    corners: Corners<T>,
}

/// Proves that every node's volume contains its subtree's triangles (module docs). Requires a verified tree
/// (indices in bounds, children after parents), every node's face slots `spans` and the faces' `corners`.
pub(crate) fn verify_containment<T: Real, B: Enclose<T>>(
    nodes: &[Node<T, B>],
    faces: &[Face],
    corners: Corners<T>,
    spans: &Spans,
) -> Result<(), FileError> {
    let proof = Proof {
        nodes,
        faces,
        spans,
        corners,
    };
    let simd = Simd::fastest();
    (0..nodes.len().div_ceil(CHUNK))
        .into_par_iter()
        .try_for_each_init(VecDeque::new, |queue, chunk| {
            let range = chunk * CHUNK..nodes.len().min((chunk + 1) * CHUNK);
            proof.check_in(simd, range, queue)
        })
}

/// Defines `$name`: [`Proof::check`] with the run tests of `$simd`, compiled with the target features
/// `$features` (module docs).
macro_rules! check_copy {
    ($name:ident, $features:literal, $simd:expr) => {
        /// [`Proof::check`] compiled with the target features named in its attribute (module docs).
        ///
        /// # Safety
        /// The CPU must support those target features.
        #[cfg(target_arch = "x86_64")]
        #[target_feature(enable = $features)]
        unsafe fn $name<T: Real, B: Enclose<T>>(
            proof: &Proof<'_, T, B>,
            nodes: Range<usize>,
            queue: &mut VecDeque<usize>,
        ) -> Result<(), FileError> {
            // SAFETY: this copy runs only where the CPU has these target features (contract).
            unsafe { proof.check(nodes, queue, $simd) }
        }
    };
}

check_copy!(check_avx2, "avx2", Simd::Avx2);
check_copy!(check_avx512, "avx512f", Simd::Avx512);

impl<T: Real, B: Enclose<T>> Proof<'_, T, B> {
    /// [`Proof::check`] in its copy for `simd`, an instruction set of this CPU ([`Simd::available`]).
    fn check_in(
        &self,
        simd: Simd,
        nodes: Range<usize>,
        queue: &mut VecDeque<usize>,
    ) -> Result<(), FileError> {
        #[cfg(target_arch = "x86_64")]
        match simd {
            Simd::Avx512 => {
                // SAFETY: `simd` is an instruction set of this CPU (`Simd::available`): AVX-512 F.
                return unsafe { check_avx512(self, nodes, queue) };
            }
            Simd::Avx2 => {
                // SAFETY: `simd` is an instruction set of this CPU (`Simd::available`): AVX2.
                return unsafe { check_avx2(self, nodes, queue) };
            }
            Simd::Plain => {}
        }
        // Other targets have no vector copies: `simd` is `Plain` there.
        let _ = simd;
        // SAFETY: `Simd::Plain` needs no instructions beyond the target's.
        unsafe { self.check(nodes, queue, Simd::Plain) }
    }

    /// Checks every node of `nodes` as the outer side of its tests (module docs), with the run tests of
    /// `simd`. Everything it calls is inlined, so that each copy ([`check_avx2`], [`check_avx512`]) runs all
    /// of it with its target features, and `simd` is a constant there.
    ///
    /// # Safety
    /// The CPU must have the instructions of `simd`.
    #[inline(always)]
    unsafe fn check(
        &self,
        nodes: Range<usize>,
        queue: &mut VecDeque<usize>,
        simd: Simd,
    ) -> Result<(), FileError> {
        for p in nodes {
            if !self.orthonormal(p) {
                return Err(not_orthonormal::<T>(p));
            }
            let outer = self.nodes[p].bv.widen();
            if self.small(p) {
                self.test_corners(p, &outer, p, simd)?;
            } else {
                self.search(p, &outer, queue, simd)?;
            }
        }
        Ok(())
    }

    #[inline(always)]
    fn small(&self, i: usize) -> bool {
        self.spans.len(i) <= SMALL
    }

    /// Whether node `i`'s axes (if its volume has any) are orthonormal within [`max_defect`]: checked before
    /// the node is the outer side of tests (a plain flag, so that the widened volume is not moved through a
    /// `Result`).
    #[inline(always)]
    fn orthonormal(&self, i: usize) -> bool {
        !B::AXES || self.nodes[i].bv.defect() <= max_defect::<T>()
    }

    /// Tests the corners of node `q`'s faces against node `p`'s volume `outer`; the error names `p` and the
    /// first face with a corner refused.
    #[inline(always)]
    fn test_corners(
        &self,
        p: usize,
        outer: &B::Wide,
        q: usize,
        simd: Simd,
    ) -> Result<(), FileError> {
        let run = self.corners.of_slots(self.spans.get(q));
        // SAFETY: `simd` is an instruction set of this CPU (the contract of `check`, the only caller).
        let held = unsafe { B::holds_points_simd(outer, run, simd) };
        if held {
            Ok(())
        } else {
            Err(self.refusal(p, outer, q))
        }
    }

    /// The error for a corner of node `q`'s faces outside node `p`'s volume `outer`.
    #[cold]
    #[inline(never)]
    fn refusal(&self, p: usize, outer: &B::Wide, q: usize) -> FileError {
        let run = self.corners.of_slots(self.spans.get(q));
        let k = (0..run.len())
            .position(|k| !B::holds_point(outer, wide(&run.get(k))))
            .unwrap_or(0);
        FileError::Corrupt(format!(
            "node {p}: the volume does not contain triangle {} of its subtree",
            self.faces[self.spans.get(q).start + k / 3].id
        ))
    }

    /// The subtree of the large node `p` against its volume `outer` (module docs), level by level (a queue:
    /// the nodes of a level are read before any of their children, which keeps more memory reads in flight
    /// than a depth-first search).
    #[inline(always)]
    fn search(
        &self,
        p: usize,
        outer: &B::Wide,
        queue: &mut VecDeque<usize>,
        simd: Simd,
    ) -> Result<(), FileError> {
        let c = self.nodes[p].first_child();
        queue.clear();
        queue.extend([c, c + 1]);
        while let Some(q) = queue.pop_front() {
            if self.small(q) {
                self.test_corners(p, outer, q, simd)?;
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

/// The error for node `i`, whose axes are not orthonormal.
#[cold]
#[inline(never)]
fn not_orthonormal<T: Real>(i: usize) -> FileError {
    FileError::Corrupt(format!(
        "node {i}: the volume's axes are not orthonormal (allowed defect {:.1e})",
        max_defect::<T>()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::archive::walk::walk_tree;
    use crate::{BuildOptions, Bvh, Hierarchy};
    use ccd_bv::Obb;
    use ccd_testkit::{SplitMix64, icosphere};

    /// The verdict of every chunk of nodes, in the copy for `simd`.
    fn verdicts<T: Real, B: Enclose<T>>(
        proof: &Proof<'_, T, B>,
        simd: Simd,
    ) -> Vec<Result<(), String>> {
        let n = proof.nodes.len();
        (0..n.div_ceil(CHUNK))
            .map(|c| {
                let range = c * CHUNK..n.min((c + 1) * CHUNK);
                proof
                    .check_in(simd, range, &mut VecDeque::new())
                    .map_err(|e| e.to_string())
            })
            .collect()
    }

    /// Every copy of the check (as compiled, and with AVX2 and AVX-512 where the CPU has them) reaches the same
    /// verdict with the same message for every chunk of nodes, on a fitted tree and on trees with one vertex
    /// moved.
    fn copies_agree<T: Real>() {
        let mesh = icosphere(3, 1.0);
        let vertices: Vec<[T; 3]> = mesh.vertices.iter().map(|p| p.map(T::lit)).collect();
        let bvh =
            Bvh::<T, Obb<T>>::build(vertices, &mesh.triangles, &BuildOptions::default()).unwrap();
        let (nodes, faces) = (bvh.nodes(), bvh.faces());
        let spans = walk_tree(nodes, faces.len(), 1, bvh.stats().depth).unwrap();
        let mut rng = SplitMix64::new(7);
        let (mut accepted, mut refused) = (0, 0);
        for trial in 0..60 {
            let mut vertices = bvh.vertices().to_vec();
            if trial > 0 {
                let v = (rng.next_u64() % vertices.len() as u64) as usize;
                let size = 10f64.powf(-17.0 + 15.0 * rng.next_f64());
                for x in &mut vertices[v] {
                    *x = T::lit(x.to_f64_exact() + size * (2.0 * rng.next_f64() - 1.0));
                }
            }
            let proof = Proof {
                nodes,
                faces,
                spans: &spans,
                corners: Corners::of(faces, &vertices).expect("memory for the corners"),
            };
            let plain = verdicts(&proof, Simd::Plain);
            for simd in Simd::available() {
                assert_eq!(verdicts(&proof, simd), plain, "{simd:?}");
            }
            if plain.iter().all(Result::is_ok) {
                accepted += 1;
            } else {
                refused += 1;
            }
        }
        assert!(accepted >= 1 && refused >= 10, "{accepted} {refused}");
    }

    #[test]
    fn every_copy_of_the_check_agrees() {
        copies_agree::<f32>();
        copies_agree::<f64>();
    }
}

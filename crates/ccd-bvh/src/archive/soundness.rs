//! The containment proof of validation: every node's volume contains every triangle of its subtree, which is
//! what makes pruning a node on a disjoint volume correct.
//!
//! A node's subtree's faces are a contiguous run of face slots (the tree check proves that every internal
//! node's slots are its children's side by side). Nodes are split by the size of that run:
//! - a *small* node (at most [`SMALL`] faces; every leaf is small) has every vertex of its faces tested
//!   against its volume ([`Enclose::holds_points`]: [`Enclose::holds_point`] on each);
//! - a *large* node has the vertices of its subtree tested through the *frontier* below it: the small nodes
//!   whose parent is large, whose runs tile the large node's. Each frontier node's distinct vertices (about a
//!   sixth of its corners on a closed mesh, where six triangles meet at a vertex) are tested against the volume
//!   of every large ancestor.
//!
//! So every vertex of every triangle is tested against the volume of every node above it: the proof accepts
//! exactly the files in which every node's point test accepts every vertex of its subtree. Each node's axes are
//! measured before its volume is the outer side of tests (their defect bounds the frame). Fitted trees are not
//! nested — a child's volume, turned against its parent's, pokes out at its corners although every triangle
//! lies in both — so tests of whole volumes against their ancestors' rarely succeed (OBB trees of a
//! 327,680-triangle icosphere: 66 of 557,121 tries for ancestors of 2 to 15 faces, 2 % for 16 to 31), and the
//! proof tests vertices only. Testing a large node's distinct vertices rather than its corners made the
//! validated open of that icosphere's f32 OBB file 7 % faster (12.5–12.6 against 13.4–13.6 ms, alternating)
//! than a search through nested volumes down to the corners of small nodes. [`SMALL`] = 512: 128 and 256 do
//! no better and 64 is slower, as each frontier node is then tested against more ancestors one call at a time.
//!
//! The frontier nodes are the proof's parallel tasks. Each gathers the corners of its faces and its distinct
//! vertices into buffers the task reuses ([`Corners`]; a file-sized array of every corner, gathered once, cost
//! its page faults at every open and `9·size_of::<T>()` bytes per face), tests every node of its subtree
//! against those corners, and then its distinct vertices against each large ancestor. The nodes of a subtree
//! are taken in index order where they lie side by side from the frontier node's first child on, as in every
//! file the builder writes (as the tree walk found them, [`Spans::side_by_side`]), else by walking the
//! subtree. The check of a frontier node's subtree is compiled three times, as is, with AVX2 and with AVX-512 F
//! enabled, and the widest copy the CPU has runs ([`Simd::fastest`]), as does the run test of the large nodes:
//! its instructions are wider, and its OBB run test is written with that instruction set (`obb_run_simd`), but
//! every arithmetic operation is the same IEEE-754 double operation on the same operands in the same order
//! (Rust never fuses `a·b + c` into one rounding, even where the target has FMA), so every copy computes bit
//! for bit the same values and reaches the same verdict. Nodes of one or two faces ([`SHORT_RUN`] corners) use
//! the plain run test in every copy: a vector loop of one or two iterations costs more than it saves. The
//! AVX-512 copy checks OBB nodes eight at a time, one per lane (`obb_lanes`: the axis check, the test constant
//! and the corners of one-face leaves computed for eight nodes per instruction, to the same verdicts), and
//! names the first node of a group that fails.

use std::ops::Range;

use ccd_bv::Real;
use rayon::prelude::*;

use super::corners::{Corners, Points};
use super::enclose::{Enclose, Simd, max_defect, wide};
#[cfg(target_arch = "x86_64")]
use super::obb_lanes::{GROUP, group_holds};
use super::walk::Spans;
use crate::{Face, FileError, Node};

/// The most faces of a node whose corners are tested directly (at least the largest leaf; module docs).
pub(super) const SMALL: usize = 512;

const _: () = assert!(SMALL >= crate::MAX_LEAF_SIZE as usize);

/// The most corners a small node tests with [`Enclose::holds_points`] rather than its vector copy (the same
/// verdict): those of one or two faces, for which the vector loop runs once or twice and its set-up costs more
/// than it saves (validated open of a 327,680-triangle OBB file 4 % faster with 6 than with none, slower with 12).
const SHORT_RUN: usize = 6;

/// Whether the corners `run` of a small node lie in its volume `outer`: [`Enclose::holds_points`] for runs of
/// at most [`SHORT_RUN`] corners, its copy for `simd` for longer ones (the same verdict).
///
/// # Safety
/// The CPU must have the instructions of `simd`.
#[inline(always)]
pub(super) unsafe fn holds_run<T: Real, B: Enclose<T>>(
    outer: &B::Wide,
    run: Points<'_, T>,
    simd: Simd,
) -> bool {
    if run.len() <= SHORT_RUN {
        B::holds_points(outer, run)
    } else {
        // SAFETY: forwarded from this function's contract.
        unsafe { B::holds_points_simd(outer, run, simd) }
    }
}

/// A verified tree, its face slots and vertices, read by every check.
struct Proof<'a, T: Real, B> {
    nodes: &'a [Node<T, B>],
    faces: &'a [Face],
    vertices: &'a [[T; 3]],
    spans: &'a Spans,
}

/// Proves that every node's volume contains its subtree's triangles (module docs). Requires a verified tree
/// (indices in bounds, children after parents), every node's face slots `spans` and the faces' vertex indices
/// in bounds of `vertices`. The error is the first frontier node's in the order of the walk from the root,
/// whatever the threads.
pub(crate) fn verify_containment<T: Real, B: Enclose<T>>(
    nodes: &[Node<T, B>],
    faces: &[Face],
    vertices: &[[T; 3]],
    spans: &Spans,
) -> Result<(), FileError> {
    let proof = Proof {
        nodes,
        faces,
        vertices,
        spans,
    };
    let simd = Simd::fastest();
    let ancestry = proof.ancestry()?;
    let first_refusal = ancestry
        .frontier
        .par_iter()
        .map_init(Scratch::default, |scratch, (q, chain)| {
            proof.check_frontier(scratch, simd, *q, &ancestry, chain.clone())
        })
        .find_first(Result::is_err);
    first_refusal.unwrap_or(Ok(()))
}

/// What a task of the proof reuses from one frontier node to the next: the corners and distinct vertices of
/// its faces, and the nodes of its subtree with a stack to walk it.
#[derive(Default)]
struct Scratch<T> {
    corners: Corners<T>,
    below: Vec<u32>,
    stack: Vec<u32>,
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
            nodes: &[u32],
            corners: &Corners<T>,
        ) -> Result<(), FileError> {
            // SAFETY: this copy runs only where the CPU has these target features (contract).
            unsafe { proof.check(nodes, corners, $simd) }
        }
    };
}

check_copy!(check_avx2, "avx2", Simd::Avx2);
check_copy!(check_avx512, "avx512f", Simd::Avx512);

impl<T: Real, B: Enclose<T>> Proof<'_, T, B> {
    /// The whole proof below the frontier node `q`, whose large ancestors are `ancestry.chains[chain]`: every
    /// node of its subtree against the corners of its faces ([`Proof::check_in`]), then the distinct vertices
    /// of `q`'s faces against each large ancestor's volume, with the run tests of `simd`, an instruction set of
    /// this CPU ([`Simd::available`]).
    fn check_frontier(
        &self,
        scratch: &mut Scratch<T>,
        simd: Simd,
        q: usize,
        ancestry: &Ancestry<B::Wide>,
        chain: Range<usize>,
    ) -> Result<(), FileError> {
        let slots = self.spans.get(q);
        let corners = &mut scratch.corners;
        corners.gather(self.faces, self.vertices, slots.clone())?;
        self.subtree(q, &mut scratch.below, &mut scratch.stack);
        self.check_in(simd, &scratch.below, corners)?;
        let run = corners.distinct();
        for &k in &ancestry.chains[chain] {
            let (p, outer) = &ancestry.outers[k as usize];
            // SAFETY: `simd` is an instruction set of this CPU (`Simd::available`).
            if !unsafe { B::holds_points_simd(outer, run, simd) } {
                return Err(self.refusal(*p, outer, q));
            }
        }
        Ok(())
    }

    /// Writes the nodes of `q`'s subtree to `below`, `q` first; `stack` is scratch.
    ///
    /// Where the walk found `q`'s descendants to be the nodes from its first child on, side by side (as in every
    /// file the builder writes, [`Spans::side_by_side`]), they follow in index order. Otherwise the subtree is
    /// walked, each node before its children.
    fn subtree(&self, q: usize, below: &mut Vec<u32>, stack: &mut Vec<u32>) {
        below.clear();
        below.push(q as u32);
        if self.nodes[q].is_leaf() {
            return;
        }
        let first = self.nodes[q].first_child();
        if let Some(m) = self.spans.side_by_side(q) {
            below.extend(first as u32..(first + m) as u32);
            return;
        }
        stack.clear();
        let c = first as u32;
        stack.extend([c + 1, c]);
        while let Some(i) = stack.pop() {
            below.push(i);
            let node = &self.nodes[i as usize];
            if !node.is_leaf() {
                let c = node.first_child() as u32;
                stack.extend([c + 1, c]);
            }
        }
    }

    /// [`Proof::check`] in its copy for `simd`, an instruction set of this CPU ([`Simd::available`]).
    fn check_in(&self, simd: Simd, nodes: &[u32], corners: &Corners<T>) -> Result<(), FileError> {
        #[cfg(target_arch = "x86_64")]
        match simd {
            Simd::Avx512 => {
                // SAFETY: `simd` is an instruction set of this CPU (`Simd::available`): AVX-512 F.
                return unsafe { check_avx512(self, nodes, corners) };
            }
            Simd::Avx2 => {
                // SAFETY: `simd` is an instruction set of this CPU (`Simd::available`): AVX2.
                return unsafe { check_avx2(self, nodes, corners) };
            }
            Simd::Plain => {}
        }
        // Other targets have no vector copies: `simd` is `Plain` there.
        let _ = simd;
        // SAFETY: `Simd::Plain` needs no instructions beyond the target's.
        unsafe { self.check(nodes, corners, Simd::Plain) }
    }

    /// Checks every node of `nodes` (the small nodes below one frontier node, whose faces' corners `corners`
    /// holds) against the corners of its faces (module docs), with the run tests of `simd`.
    /// Everything it calls is inlined, so that each copy ([`check_avx2`], [`check_avx512`]) runs all of it with
    /// its target features, and `simd` is a constant there. The error is the first failing node's in that
    /// order.
    ///
    /// # Safety
    /// The CPU must have the instructions of `simd`.
    #[inline(always)]
    unsafe fn check(
        &self,
        nodes: &[u32],
        corners: &Corners<T>,
        simd: Simd,
    ) -> Result<(), FileError> {
        #[cfg(target_arch = "x86_64")]
        if simd == Simd::Avx512
            && let Some(obb) = B::as_obb_nodes(self.nodes)
        {
            for group in nodes.chunks(GROUP) {
                // SAFETY: `simd` is AVX-512 F, an instruction set of this CPU (contract).
                if let Err(lane) = unsafe { group_holds(obb, group, self.spans, corners) } {
                    return Err(self.failure(group[lane] as usize));
                }
            }
            return Ok(());
        }
        for &p in nodes {
            let p = p as usize;
            if !self.orthonormal(p) {
                return Err(not_orthonormal::<T>(p));
            }
            let outer = self.nodes[p].bv.widen();
            let run = corners.of_slots(self.spans.get(p));
            // SAFETY: `simd` is an instruction set of this CPU (contract).
            if !unsafe { holds_run::<T, B>(&outer, run, simd) } {
                return Err(self.refusal(p, &outer, p));
            }
        }
        Ok(())
    }

    /// The error for node `p`, which fails the proof: its axes, or a vertex of its faces outside its volume.
    #[cold]
    #[inline(never)]
    fn failure(&self, p: usize) -> FileError {
        if self.orthonormal(p) {
            self.refusal(p, &self.nodes[p].bv.widen(), p)
        } else {
            not_orthonormal::<T>(p)
        }
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

    /// The error for a vertex of node `q`'s faces outside node `p`'s volume `outer`: it names the first face
    /// with such a vertex.
    #[cold]
    #[inline(never)]
    fn refusal(&self, p: usize, outer: &B::Wide, q: usize) -> FileError {
        let slots = self.spans.get(q);
        let slot = slots
            .clone()
            .find(|&k| {
                self.faces[k]
                    .vertices
                    .iter()
                    .any(|&v| !B::holds_point(outer, wide(&self.vertices[v as usize])))
            })
            .unwrap_or(slots.start);
        FileError::Corrupt(format!(
            "node {p}: the volume does not contain triangle {} of its subtree",
            self.faces[slot].id
        ))
    }

    /// The large nodes, their axes checked and volumes widened, and the frontier nodes below them with their
    /// large ancestors (module docs), from the root down.
    fn ancestry(&self) -> Result<Ancestry<B::Wide>, FileError> {
        let mut a = Ancestry {
            outers: Vec::new(),
            chains: Vec::new(),
            frontier: Vec::new(),
        };
        let mut path: Vec<u32> = Vec::new();
        let mut stack = vec![(0usize, 0usize)];
        while let Some((p, above)) = stack.pop() {
            path.truncate(above);
            if self.small(p) {
                let start = a.chains.len();
                a.chains.extend_from_slice(&path);
                a.frontier.push((p, start..a.chains.len()));
                continue;
            }
            if !self.orthonormal(p) {
                return Err(not_orthonormal::<T>(p));
            }
            path.push(a.outers.len() as u32);
            a.outers.push((p, self.nodes[p].bv.widen()));
            let c = self.nodes[p].first_child();
            stack.push((c + 1, path.len()));
            stack.push((c, path.len()));
        }
        Ok(a)
    }
}

/// The large nodes and the frontier nodes below them (module docs).
struct Ancestry<W> {
    /// Every large node and its widened volume.
    outers: Vec<(usize, W)>,
    /// The large ancestors of the frontier nodes (indices into `outers`), one run per frontier node.
    chains: Vec<u32>,
    /// Every frontier node and its run of `chains`.
    frontier: Vec<(usize, Range<usize>)>,
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

    /// The verdict of the large nodes' axes, then of the proof below every frontier node, in the copy for
    /// `simd`.
    fn verdicts<T: Real, B: Enclose<T>>(
        proof: &Proof<'_, T, B>,
        simd: Simd,
    ) -> Vec<Result<(), String>> {
        let ancestry = match proof.ancestry() {
            Ok(a) => a,
            Err(e) => return vec![Err(e.to_string())],
        };
        let mut scratch = Scratch::default();
        ancestry
            .frontier
            .iter()
            .map(|(q, chain)| {
                proof
                    .check_frontier(&mut scratch, simd, *q, &ancestry, chain.clone())
                    .map_err(|e| e.to_string())
            })
            .collect()
    }

    /// Every copy of the check (as compiled, and with AVX2 and AVX-512 where the CPU has them; for OBBs the
    /// AVX-512 copy checks eight nodes per instruction) reaches the same verdict with the same message for every
    /// chunk of nodes, on fitted trees (one face per leaf, and up to four) and on trees with one vertex moved,
    /// one node's centre moved or one of its axes stretched.
    fn copies_agree<T: Real>() {
        let mesh = icosphere(3, 1.0);
        let vertices: Vec<[T; 3]> = mesh.vertices.iter().map(|p| p.map(T::lit)).collect();
        let mut rng = SplitMix64::new(7);
        let (mut accepted, mut refused) = (0, 0);
        for leaf_size in [1, 4] {
            let options = BuildOptions {
                leaf_size,
                ..BuildOptions::default()
            };
            let bvh = Bvh::<T, Obb<T>>::build(vertices.clone(), &mesh.triangles, &options).unwrap();
            let faces = bvh.faces();
            let spans = walk_tree(
                bvh.nodes(),
                faces.len(),
                leaf_size as usize,
                bvh.stats().depth,
                None,
            )
            .unwrap();
            for trial in 0..90 {
                let mut vertices = bvh.vertices().to_vec();
                let mut nodes = bvh.nodes().to_vec();
                let size = 10f64.powf(-17.0 + 15.0 * rng.next_f64());
                let (v, n) = (
                    rng.next_u64() as usize % vertices.len(),
                    rng.next_u64() as usize % nodes.len(),
                );
                let mut nudge = |x: &mut T| {
                    *x = T::lit(x.to_f64_exact() * (1.0 + size * (2.0 * rng.next_f64() - 1.0)))
                };
                match trial % 3 {
                    _ if trial < 3 => {}
                    0 => {
                        vertices[v].iter_mut().for_each(&mut nudge);
                    }
                    1 => {
                        nodes[n].bv.center.iter_mut().for_each(&mut nudge);
                    }
                    _ => {
                        nodes[n].bv.rot[trial % 9 / 3]
                            .iter_mut()
                            .for_each(&mut nudge);
                    }
                }
                let proof = Proof {
                    nodes: &nodes,
                    faces,
                    vertices: &vertices,
                    spans: &spans,
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
        }
        assert!(accepted >= 10 && refused >= 30, "{accepted} {refused}");
    }

    /// `nodes` laid out level by level (children still after their parent and side by side), so that no
    /// node's descendants lie side by side from its first child on.
    fn level_order<T: Real>(nodes: &[Node<T, Obb<T>>]) -> Vec<Node<T, Obb<T>>> {
        let mut order = vec![0usize];
        let mut k = 0;
        while k < order.len() {
            let node = &nodes[order[k]];
            if !node.is_leaf() {
                order.extend([node.first_child(), node.first_child() + 1]);
            }
            k += 1;
        }
        let mut place = vec![0usize; nodes.len()];
        for (new, &old) in order.iter().enumerate() {
            place[old] = new;
        }
        order
            .iter()
            .map(|&old| {
                let n = &nodes[old];
                if n.is_leaf() {
                    let f = n.leaf_faces();
                    Node::leaf(n.bv, f.start, f.len()).unwrap()
                } else {
                    Node::internal(n.bv, place[n.first_child()]).unwrap()
                }
            })
            .collect()
    }

    /// A tree laid out level by level (each frontier node's subtree walked node by node) gets the verdicts of
    /// the same tree laid out depth first as the builder writes it (its descendants found from the face slots
    /// in index order), on fitted trees and with one vertex moved: every frontier node passes or fails alike.
    #[test]
    fn the_layout_does_not_change_the_verdict() {
        let mesh = icosphere(5, 1.0);
        let bvh = Bvh::<f64, Obb<f64>>::build(
            mesh.vertices.clone(),
            &mesh.triangles,
            &BuildOptions::default(),
        )
        .unwrap();
        let faces = bvh.faces();
        let depth_first = bvh.nodes().to_vec();
        let by_level = level_order(&depth_first);
        let mut rng = SplitMix64::new(11);
        let (mut accepted, mut refused) = (0, 0);
        for trial in 0..40 {
            let mut vertices = bvh.vertices().to_vec();
            if trial > 0 {
                let v = rng.next_u64() as usize % vertices.len();
                let size = 10f64.powf(-19.0 + 10.0 * rng.next_f64());
                vertices[v].iter_mut().for_each(|x| *x *= 1.0 + size);
            }
            let verdict = |nodes: &[Node<f64, Obb<f64>>]| {
                let spans = walk_tree(nodes, faces.len(), 1, bvh.stats().depth, None).unwrap();
                let proof = Proof {
                    nodes,
                    faces,
                    vertices: &vertices,
                    spans: &spans,
                };
                let (mut contiguous, mut below, mut stack) = (0, Vec::new(), Vec::new());
                for (q, _) in &proof.ancestry().unwrap().frontier {
                    proof.subtree(*q, &mut below, &mut stack);
                    contiguous += usize::from(below.windows(2).skip(1).all(|w| w[1] == w[0] + 1));
                }
                (verdicts(&proof, Simd::fastest()), contiguous)
            };
            let (expected, contiguous) = verdict(&depth_first);
            let (got, scattered) = verdict(&by_level);
            // The same frontier nodes pass; where one fails, each layout names the first refusal in its own
            // order of the subtree's nodes.
            let outcome = |v: &[Result<(), String>]| {
                v.iter()
                    .map(|r| {
                        r.as_ref()
                            .map(|_| ())
                            .map_err(|m| m.contains("does not contain triangle"))
                    })
                    .collect::<Vec<_>>()
            };
            assert_eq!(outcome(&got), outcome(&expected));
            assert!(
                contiguous > 10 && scattered == 0,
                "{contiguous} {scattered}"
            );
            if expected.iter().all(Result::is_ok) {
                accepted += 1;
            } else {
                refused += 1;
            }
        }
        assert!(accepted >= 5 && refused >= 5, "{accepted} {refused}");
    }

    #[test]
    fn every_copy_of_the_check_agrees() {
        copies_agree::<f32>();
        copies_agree::<f64>();
    }

    /// The walk records a node's descendants as side by side exactly where they are the nodes from its first
    /// child on (found here by a plain walk of the subtree), with their number: in trees as the builder lays
    /// them out (every internal node) and laid out level by level (only some), for leaves of one face and four.
    #[test]
    fn the_walk_finds_the_descendants_side_by_side() {
        let mesh = icosphere(4, 1.0);
        for leaf_size in [1, 4] {
            let options = BuildOptions {
                leaf_size,
                ..BuildOptions::default()
            };
            let bvh = Bvh::<f64, Obb<f64>>::build(mesh.vertices.clone(), &mesh.triangles, &options)
                .unwrap();
            let faces = bvh.faces().len();
            for (layout, nodes) in [
                ("depth first", bvh.nodes().to_vec()),
                ("by level", level_order(bvh.nodes())),
            ] {
                let spans =
                    walk_tree(&nodes, faces, leaf_size as usize, bvh.stats().depth, None).unwrap();
                let (mut listed, mut unlisted) = (0, 0);
                for (i, node) in nodes.iter().enumerate() {
                    if node.is_leaf() {
                        assert_eq!(spans.side_by_side(i), None);
                        continue;
                    }
                    let mut below = Vec::new();
                    let mut stack = vec![node.first_child(), node.first_child() + 1];
                    while let Some(j) = stack.pop() {
                        below.push(j);
                        if !nodes[j].is_leaf() {
                            stack.extend([nodes[j].first_child(), nodes[j].first_child() + 1]);
                        }
                    }
                    below.sort_unstable();
                    let first = node.first_child();
                    let expected = below
                        .iter()
                        .enumerate()
                        .all(|(k, &j)| j == first + k)
                        .then_some(below.len());
                    assert_eq!(spans.side_by_side(i), expected, "{layout}, node {i}");
                    if expected.is_some() {
                        listed += 1;
                    } else {
                        unlisted += 1;
                    }
                }
                match layout {
                    "depth first" => assert_eq!(unlisted, 0),
                    _ => assert!(listed > 10 && unlisted > 10, "{listed} {unlisted}"),
                }
            }
        }
    }
}

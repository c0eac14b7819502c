//! Depth-first tandem traversal of two trees: the bounding volume test tree
//! (Gottschalk §2.5) walked with an explicit stack, pruned by the visitor's test.

use ccd_bv::{BoundingVolume, Real};
use ccd_bvh::{Hierarchy, Node};

use super::Flow;
use super::descent::{Split, split};
use super::moved::MovedVolumes;
use super::prefetch::prefetch_unchecked;
use crate::{DescentRule, QueryStats};

/// A depth-first query: its pruning test on volume pairs, the order of kept siblings and what it does at kept
/// pairs of leaves.
pub(crate) trait DepthFirstVisitor<A: Hierarchy, B: Hierarchy<Scalar = A::Scalar, Bv = A::Bv>> {
    /// What a kept pair carries until it is handled: its rank among kept siblings (the smaller is handled first;
    /// ties and incomparable keys keep child 0 first) and what [`still_open`](Self::still_open) re-checks. `()`
    /// for queries that need neither (collide).
    type Key: Copy + PartialOrd;

    /// Whether the walk should run in a copy compiled with AVX-512 (32 vector registers instead of 16) where the
    /// processor has it ([`depth_first`]). For visitors whose tests keep more values live than 16 registers hold
    /// (the distance bound spilled a sixth of its instructions to the stack); the collide test ran 1.75× slower
    /// in that copy, so the default is no.
    const WIDE_REGISTERS: bool = false;

    /// Whether the pair of A's volume `a` and B's volume `b` (moved into A's frame) may hold something the query
    /// looks for, with its key; `None` prunes the pair. Must be conservative for the query's guarantee.
    fn keep(&mut self, a: &A::Bv, b: &A::Bv) -> Option<Self::Key>;

    /// [`keep`](Self::keep) of two pairs at once (the two children of a split pair); override to test them
    /// together (two SIMD lanes).
    #[inline(always)]
    fn keep_pair(&mut self, a: [&A::Bv; 2], b: [&A::Bv; 2]) -> [Option<Self::Key>; 2] {
        [self.keep(a[0], b[0]), self.keep(a[1], b[1])]
    }

    /// [`keep`](Self::keep) of the four pairs of A's volumes `a` with B's volumes `b` (the children of a pair
    /// whose nodes are both split, [`DescentRule::Both`]), in the order `[(a₀, b₀), (a₀, b₁), (a₁, b₀),
    /// (a₁, b₁)]`. Default: two [`keep_pair`](Self::keep_pair) calls, each on one child of A against both
    /// children of B.
    #[inline(always)]
    fn keep_quad(&mut self, a: [&A::Bv; 2], b: [&A::Bv; 2]) -> [Option<Self::Key>; 4] {
        let [k0, k1] = self.keep_pair([a[0], a[0]], b);
        let [k2, k3] = self.keep_pair([a[1], a[1]], b);
        [k0, k1, k2, k3]
    }

    /// [`keep_quad`](Self::keep_quad) as the walk's copies compiled with AVX call it: override with a test that
    /// uses 256-bit instructions (the same verdicts and keys, bit for bit). Default: `keep_quad`.
    ///
    /// # Safety
    /// The processor must support AVX.
    #[inline(always)]
    unsafe fn keep_quad_avx(&mut self, a: [&A::Bv; 2], b: [&A::Bv; 2]) -> [Option<Self::Key>; 4] {
        self.keep_quad(a, b)
    }

    /// Whether a kept pair still matters when its turn comes (a distance query has found closer pairs since it
    /// was kept); `false` drops it untouched. Default: always.
    #[inline(always)]
    fn still_open(&self, key: &Self::Key) -> bool {
        let _ = key;
        true
    }

    /// Handles a kept pair of leaves (see [`for_each_face_pair`](super::for_each_face_pair)).
    fn leaves(&mut self, a: &A, na: usize, b: &B, nb: usize, stats: &mut QueryStats) -> Flow;
}

/// One pending pair: nodes of A and B whose volumes overlap, with its key.
///
/// B's volumes moved into A's frame (model-space update, Gottschalk §2.3.3) are not part of the entry: they
/// come from the query's [`MovedVolumes`], so splitting A copies no volumes and a node of B split against many
/// nodes of A is mostly moved once.
#[derive(Clone, Copy)]
struct Pending<K> {
    na: u32,
    nb: u32,
    key: K,
}

/// Walks the test tree of `a` × `b` below the node pair `start` (the roots: `(0, 0)`) depth first (of two kept children, the
/// one with the smaller key first, child 0 on ties), splitting kept pairs by
/// `rule`, and hands kept leaf pairs to `visitor`. Counts volume tests in
/// `stats`: kept ones as overlapping, pruned ones as disjoint. Returns the
/// largest number of pairs that waited on the stack at once.
///
/// The two children of a split pair are tested together, as soon as the
/// pair is split ([`DepthFirstVisitor::keep_pair`]), so the stack only
/// holds kept pairs; the set of tests (the BVTT) is the same as
/// testing on pop, only their order differs.
///
/// Never inlined: the SLP vectoriser's packing of the two-lane tests
/// depends on the surrounding code, and inlined into a large caller it fell
/// back to shuffle-heavy code (about 30% more instructions per test in the
/// `xtask` build); as a function of its own the loop compiles the same
/// wherever it is instantiated.
///
/// On `x86_64` processors with AVX the loop runs in a copy compiled with AVX
/// ([`walk_avx`]): the same IEEE operations in the same order (no fused
/// multiply-add), so the same verdicts and counters, but with three-operand
/// instructions that need none of the register copies of SSE2's two-operand
/// forms. Visitors that ask for [`WIDE_REGISTERS`](DepthFirstVisitor::WIDE_REGISTERS)
/// get a copy compiled with AVX-512 (F and VL) where the processor has it:
/// again the same operations (Rust never fuses a multiply and an add), with
/// twice the registers.
#[inline(never)]
pub(crate) fn depth_first<A, B, V>(
    a: &A,
    b: &B,
    moved: &mut MovedVolumes<A::Scalar, A::Bv>,
    start: (u32, u32),
    rule: DescentRule,
    visitor: &mut V,
    stats: &mut QueryStats,
) -> usize
where
    A: Hierarchy,
    B: Hierarchy<Scalar = A::Scalar, Bv = A::Bv>,
    V: DepthFirstVisitor<A, B>,
{
    #[cfg(target_arch = "x86_64")]
    {
        if V::WIDE_REGISTERS
            && std::is_x86_feature_detected!("avx512f")
            && std::is_x86_feature_detected!("avx512vl")
        {
            // SAFETY: this processor supports AVX-512 F and VL, the only requirement of `walk_avx512`.
            return unsafe { walk_avx512(a, b, moved, start, rule, visitor, stats) };
        }
        if std::is_x86_feature_detected!("avx") {
            // SAFETY: this processor supports AVX, the only requirement of `walk_avx`.
            return unsafe { walk_avx(a, b, moved, start, rule, visitor, stats) };
        }
    }
    walk::<A, B, V, false>(a, b, moved, start, rule, visitor, stats)
}

/// Defines `$name`: [`walk`] compiled with the target features `$features` (one of the copies [`depth_first`]
/// chooses from at run time). Every copy's features include AVX: the walk's `AVX` is true in them.
macro_rules! walk_copy {
    ($(#[$doc:meta])* $name:ident, $features:literal) => {
        $(#[$doc])*
        #[cfg(target_arch = "x86_64")]
        #[target_feature(enable = $features)]
        unsafe fn $name<A, B, V>(
            a: &A,
            b: &B,
            moved: &mut MovedVolumes<A::Scalar, A::Bv>,
            start: (u32, u32),
            rule: DescentRule,
            visitor: &mut V,
            stats: &mut QueryStats,
        ) -> usize
        where
            A: Hierarchy,
            B: Hierarchy<Scalar = A::Scalar, Bv = A::Bv>,
            V: DepthFirstVisitor<A, B>,
        {
            walk::<A, B, V, true>(a, b, moved, start, rule, visitor, stats)
        }
    };
}

walk_copy!(
    /// [`walk`] compiled with AVX-512 F and VL ([`depth_first`]).
    ///
    /// # Safety
    /// The processor must support AVX-512 F and VL.
    walk_avx512,
    "avx512f,avx512vl"
);

walk_copy!(
    /// [`walk`] compiled with AVX ([`depth_first`]).
    ///
    /// # Safety
    /// The processor must support AVX.
    walk_avx,
    "avx"
);

/// The loop of [`depth_first`], inlined into each of its copies; `AVX`: whether the copy is compiled with AVX
/// (then the visitor's [`keep_quad_avx`](DepthFirstVisitor::keep_quad_avx) tests split pairs of nodes).
#[inline(always)]
fn walk<A, B, V, const AVX: bool>(
    a: &A,
    b: &B,
    moved: &mut MovedVolumes<A::Scalar, A::Bv>,
    start: (u32, u32),
    rule: DescentRule,
    visitor: &mut V,
    stats: &mut QueryStats,
) -> usize
where
    A: Hierarchy,
    B: Hierarchy<Scalar = A::Scalar, Bv = A::Bv>,
    V: DepthFirstVisitor<A, B>,
{
    let (nodes_a, nodes_b) = (a.nodes(), b.nodes());
    let mut stack: Vec<Pending<V::Key>> = Vec::with_capacity(64);
    let (na, nb) = start;
    // Counted locally and added to `stats` once: `stats` is also handed to
    // the visitor, so updating it in the loop would go through memory.
    let (mut tests, mut overlapping) = (1u64, 0u64);
    // The pair handled next: the first of a split's kept children is carried here instead of pushed and popped
    // at once; the stack holds the others.
    let mut next = visitor
        .keep(&nodes_a[na as usize].bv, moved.one(nodes_b, nb as usize))
        .map(|key| Pending { na, nb, key });
    overlapping += u64::from(next.is_some());
    let mut peak = usize::from(next.is_some());
    while let Some(Pending { na, nb, key }) = next.take().or_else(|| stack.pop()) {
        let (na, nb) = (na as usize, nb as usize);
        let (node_a, node_b) = (&nodes_a[na], &nodes_b[nb]);
        let (leaf_a, leaf_b) = (node_a.is_leaf(), node_b.is_leaf());
        if !visitor.still_open(&key) {
            continue;
        }
        if leaf_a && leaf_b {
            if visitor.leaves(a, na, b, nb, stats) == Flow::Stop {
                break;
            }
        } else {
            match split(rule, &node_a.bv, leaf_a, &node_b.bv, leaf_b) {
                Split::A => {
                    let c = node_a.first_child();
                    warm(nodes_a, c);
                    warm(nodes_a, c + 1);
                    let b_moved = moved.one(nodes_b, nb);
                    let keep =
                        visitor.keep_pair([&nodes_a[c].bv, &nodes_a[c + 1].bv], [b_moved, b_moved]);
                    tests += 2;
                    overlapping += kept(&keep);
                    let (nb, c) = (nb as u32, c as u32);
                    next = order(&mut stack, keep, |k| (c + k, nb));
                }
                Split::B => {
                    let c = node_b.first_child();
                    warm(nodes_b, c);
                    warm(nodes_b, c + 1);
                    let children = moved.siblings(nodes_b, c);
                    let keep = visitor.keep_pair([&node_a.bv, &node_a.bv], children);
                    tests += 2;
                    overlapping += kept(&keep);
                    let (na, c) = (na as u32, c as u32);
                    next = order(&mut stack, keep, |k| (na, c + k));
                }
                Split::Both => {
                    let (ca, cb) = (node_a.first_child(), node_b.first_child());
                    warm(nodes_a, ca);
                    warm(nodes_a, ca + 1);
                    warm(nodes_b, cb);
                    warm(nodes_b, cb + 1);
                    let [b0, b1] = moved.siblings(nodes_b, cb);
                    let (a0, a1) = (&nodes_a[ca].bv, &nodes_a[ca + 1].bv);
                    let keep = if AVX {
                        // SAFETY: `AVX` is true only in the copies compiled with AVX or AVX-512 (which includes
                        // it), and `depth_first` runs those only where the processor has it.
                        unsafe { visitor.keep_quad_avx([a0, a1], [b0, b1]) }
                    } else {
                        visitor.keep_quad([a0, a1], [b0, b1])
                    };
                    tests += 4;
                    overlapping += kept(&keep);
                    let (ca, cb) = (ca as u32, cb as u32);
                    next = order_quad(&mut stack, keep, |k| (ca + k / 2, cb + k % 2));
                }
            }
        }
        peak = peak.max(stack.len() + usize::from(next.is_some()));
    }
    stats.bv_tests += tests;
    stats.bv_overlapping += overlapping;
    stats.bv_disjoint += tests - overlapping;
    peak
}

/// How many of the verdicts keep their pair.
#[inline(always)]
fn kept<K, const N: usize>(keep: &[Option<K>; N]) -> u64 {
    keep.iter().map(|k| u64::from(k.is_some())).sum()
}

/// Orders the kept children of a split pair: the one with the smaller key (child 0 on ties, incomparable keys and
/// `()` keys) is returned, to be handled next, and the other, if kept, is pushed; `place(k)` gives child `k`'s
/// nodes. The order is that of pushing both and popping one.
///
/// The pushes are branches, not a branch-free "write, then advance the top by the verdict": which test overlaps
/// is a coin flip in close proximity, but a predicted branch lets the processor start the next pair's node loads
/// (mostly cache misses) while the current tests are still being computed, and a mispredicted one costs less than
/// waiting for every verdict before the next load can issue.
#[inline(always)]
fn order<K: Copy + PartialOrd>(
    stack: &mut Vec<Pending<K>>,
    keep: [Option<K>; 2],
    place: impl Fn(u32) -> (u32, u32),
) -> Option<Pending<K>> {
    let pending = |k: u32, key: K| {
        let (na, nb) = place(k);
        Pending { na, nb, key }
    };
    match keep {
        [Some(k0), Some(k1)] if k1 < k0 => {
            stack.push(pending(0, k0));
            Some(pending(1, k1))
        }
        [Some(k0), Some(k1)] => {
            stack.push(pending(1, k1));
            Some(pending(0, k0))
        }
        [Some(k0), None] => Some(pending(0, k0)),
        [None, Some(k1)] => Some(pending(1, k1)),
        [None, None] => None,
    }
}

/// [`order`] for the four kept children of a pair whose nodes are both split (child `k` is A's child `k / 2`
/// with B's child `k % 2`): the one with the smallest key is returned and the other kept ones are pushed, largest
/// key first, so that they are popped in increasing key order; equal and incomparable keys keep the children's
/// order (a stable insertion sort on `<`).
#[inline(always)]
fn order_quad<K: Copy + PartialOrd>(
    stack: &mut Vec<Pending<K>>,
    keep: [Option<K>; 4],
    place: impl Fn(u32) -> (u32, u32),
) -> Option<Pending<K>> {
    // Compacted without branches (which children are kept is a coin flip): every child is written at the end
    // of the list, which grows only where it is kept; the filler key of the ones dropped is never read.
    let fill = keep.iter().flatten().next()?;
    let mut list = [Pending {
        na: 0,
        nb: 0,
        key: *fill,
    }; 4];
    let mut n = 0;
    for (k, key) in (0u32..).zip(keep) {
        let (na, nb) = place(k);
        list[n] = Pending {
            na,
            nb,
            key: key.unwrap_or(*fill),
        };
        n += usize::from(key.is_some());
    }
    for i in 1..n {
        let mut j = i;
        while j > 0 && list[j].key < list[j - 1].key {
            list.swap(j, j - 1);
            j -= 1;
        }
    }
    stack.extend(list[1..n].iter().rev());
    Some(list[0])
}

/// Prefetches the children of `nodes[i]` (two adjacent nodes) if it has any.
///
/// Called on both children of a split node before they are tested: a kept child is split when its pair is
/// popped (usually next, depth first), and its own children's volumes are then the loads that miss the cache;
/// issuing them before the test overlaps them with it. A pruned child's prefetch is wasted. Measured
/// (alternating runs, parallel close proximity at ε = 1e-3, 40,000 triangles, f64): 12.1 ms median without
/// prefetching, 10.5 ms prefetching after the test for kept children only, 9.9 ms before the test for both.
///
/// A leaf prefetches itself and its neighbour instead (lines already loaded), chosen by a select rather than a
/// branch: whether a child is a leaf is a coin flip near the leaves, and a mispredicted branch here cost more
/// than the hint saves. The range is not bounds-checked ([`prefetch_unchecked`]): in a well-formed tree it is in
/// bounds, and the checks were half the instructions of the hint.
#[inline(always)]
fn warm<T: Real, B: BoundingVolume<T>>(nodes: &[Node<T, B>], i: usize) {
    let node = &nodes[i];
    let c = if node.is_leaf() {
        i
    } else {
        node.first_child()
    };
    prefetch_unchecked(nodes, c, 2);
}

#[cfg(test)]
mod tests {
    use ccd_bv::{MoveRounding, Obb, Pose, Real};
    use ccd_bvh::{BuildOptions, Bvh};
    use ccd_testkit::{Mesh, SplitMix64, random_blob, random_rotation};
    use nalgebra::{Isometry3, Translation3};

    use super::*;

    /// Keeps pairs whose certified distance bound is below `reach` (the distance query's test, with a fixed
    /// allowance so that `f64` boxes take their SSE2 kernels) and records every kept pair of leaves.
    struct Near<T: Real> {
        reach: T,
        moved: MoveRounding<T>,
        leaves: Vec<(usize, usize)>,
    }

    impl<T: Real, A, B> DepthFirstVisitor<A, B> for Near<T>
    where
        A: Hierarchy<Scalar = T, Bv = Obb<T>>,
        B: Hierarchy<Scalar = T, Bv = Obb<T>>,
    {
        type Key = T;

        fn keep(&mut self, a: &Obb<T>, b: &Obb<T>) -> Option<T> {
            let lb = a.distance_lower_bound_local(b, &self.moved);
            (lb < self.reach).then_some(lb)
        }

        fn keep_pair(&mut self, a: [&Obb<T>; 2], b: [&Obb<T>; 2]) -> [Option<T>; 2] {
            Obb::distance_lower_bound_local_pair(a, b, &self.moved)
                .map(|lb| (lb < self.reach).then_some(lb))
        }

        fn keep_quad(&mut self, a: [&Obb<T>; 2], b: [&Obb<T>; 2]) -> [Option<T>; 4] {
            Obb::distance_lower_bound_local_cross(a, b, &self.moved)
                .map(|lb| (lb < self.reach).then_some(lb))
        }

        unsafe fn keep_quad_avx(&mut self, a: [&Obb<T>; 2], b: [&Obb<T>; 2]) -> [Option<T>; 4] {
            // SAFETY: the processor supports AVX (this method's contract, passed on).
            unsafe { Obb::distance_lower_bound_local_cross_avx(a, b, &self.moved) }
                .map(|lb| (lb < self.reach).then_some(lb))
        }

        fn leaves(&mut self, _: &A, na: usize, _: &B, nb: usize, _: &mut QueryStats) -> Flow {
            self.leaves.push((na, nb));
            Flow::Continue
        }
    }

    fn tree<T: Real>(mesh: &Mesh) -> Bvh<T, Obb<T>> {
        let vertices = mesh.vertices.iter().map(|p| p.map(T::lit)).collect();
        Bvh::build(vertices, &mesh.triangles, &BuildOptions::default()).expect("valid mesh")
    }

    /// An `f64` or `f32` box tree.
    type Tree<T> = Bvh<T, Obb<T>>;

    /// Runs the walk's copy `copy` (0: as compiled, 1: with AVX, 2: with AVX-512) over `a` × `b` at `pose`;
    /// returns the visitor, the counters and the stack peak.
    fn run_copy<T: Real, V>(
        copy: u8,
        (a, b): (&Tree<T>, &Tree<T>),
        pose: &Pose<T>,
        rule: DescentRule,
        mut v: V,
    ) -> (V, QueryStats, usize)
    where
        V: DepthFirstVisitor<Tree<T>, Tree<T>>,
    {
        let mut stats = QueryStats::default();
        let mut cache = MovedVolumes::new(pose);
        let args = (a, b, &mut cache, (0, 0), rule);
        let peak = match copy {
            0 => walk::<_, _, _, false>(args.0, args.1, args.2, args.3, args.4, &mut v, &mut stats),
            #[cfg(target_arch = "x86_64")]
            // SAFETY: only called where the processor has AVX (checked by `agree`).
            1 => unsafe { walk_avx(args.0, args.1, args.2, args.3, args.4, &mut v, &mut stats) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: only called where the processor has AVX-512 F and VL (checked by `agree`).
            2 => unsafe { walk_avx512(args.0, args.1, args.2, args.3, args.4, &mut v, &mut stats) },
            _ => unreachable!(),
        };
        (v, stats, peak)
    }

    /// `run(copy)` for every copy of the walk this processor can run: all equal to the copy as compiled, which
    /// is returned.
    fn agree<R: PartialEq + std::fmt::Debug>(what: &str, run: impl Fn(u8) -> R) -> R {
        let plain = run(0);
        #[cfg(target_arch = "x86_64")]
        {
            if std::is_x86_feature_detected!("avx") {
                assert_eq!(run(1), plain, "AVX, {what}");
            }
            if std::is_x86_feature_detected!("avx512f") && std::is_x86_feature_detected!("avx512vl")
            {
                assert_eq!(run(2), plain, "AVX-512, {what}");
            }
        }
        plain
    }

    /// Every copy of the walk (as compiled, and with AVX and AVX-512 where this processor has them) on two blobs at
    /// random relative poses, for the distance bound's test (descending the larger node, and both nodes) and the
    /// collision test (both nodes); with both nodes split, the copies with AVX test four pairs at once with the
    /// box's 256-bit kernels in `f64`. Every copy keeps the same leaf pairs or contacts in the same order, with
    /// the same counters and stack peak.
    fn copies_agree<T: Real>() {
        let mut rng = SplitMix64::new(17);
        let (ma, mb) = (
            random_blob(&mut rng, 3, 1.0, 0.2),
            random_blob(&mut rng, 3, 0.8, 0.2),
        );
        let trees = (&tree::<T>(&ma), &tree::<T>(&mb));
        let (mut kept, mut contacts) = (0, 0);
        for i in 0..20 {
            let shift = 1.0 + 0.05 * f64::from(i);
            let iso = Isometry3::from_parts(
                Translation3::new(shift, 0.1, 0.0),
                random_rotation(&mut rng),
            );
            let pose = Pose::from_parts(
                iso.rotation.to_rotation_matrix().matrix().map(T::lit),
                iso.translation.vector.map(T::lit),
            );
            let moved = crate::distance::move_rounding(trees.0, trees.1, &pose);
            let what = format!("{} pose {i}", T::NAME);
            for rule in [DescentRule::LargestDiameter, DescentRule::Both] {
                let near = agree(&format!("distance bound, {rule:?}, {what}"), |copy| {
                    let v = Near {
                        reach: T::lit(0.05),
                        moved,
                        leaves: Vec::new(),
                    };
                    let (v, stats, peak) = run_copy(copy, trees, &pose, rule, v);
                    (v.leaves, stats, peak)
                });
                kept += near.0.len();
            }
            let collide = agree(&format!("collide, {what}"), |copy| {
                let v = crate::collide::Collider::new(&pose, false);
                let (v, stats, peak) = run_copy(copy, trees, &pose, DescentRule::Both, v);
                (v.contacts, stats, peak)
            });
            contacts += collide.0.len();
        }
        assert!(
            kept > 100 && contacts > 100,
            "{kept} leaf pairs kept, {contacts} contacts: the sample tests nothing"
        );
    }

    #[test]
    fn every_copy_agrees_f64() {
        copies_agree::<f64>();
    }

    #[test]
    fn every_copy_agrees_f32() {
        copies_agree::<f32>();
    }
}

//! Keep tests by distance: the depth-first keep tests of the queries that prune a pair of volumes on the
//! certified lower bound of their distance (distance, tolerance). Each computes the bounds of one, two or four
//! pairs with the volume's kernel for that many pairs ([`BoundingVolume::distance_lower_bound_local`] and its
//! `_pair`, `_cross` and `_cross_avx` forms, bit for bit the same values) and keeps a pair, with its bound as
//! the key, where the query's [`BoundRule`] admits the bound.
//!
//! Plain functions, `#[inline(always)]`, with the four verdicts written out: closures and `map` here were not
//! always inlined into the walk's copies compiled with AVX (see `ccd_bv::obb_avx`).

use ccd_bv::lower_bound::MoveRounding;
use ccd_bv::{BoundingVolume, Real};

/// A query's rule for a certified lower bound of a pair's distance.
pub(crate) trait BoundRule<T> {
    /// Whether a pair of volumes whose content is at least `lb` apart may still hold what the query looks for
    /// (false prunes it). Must be conservative for the query's guarantee.
    fn admits(&self, lb: T) -> bool;
}

/// The pair `(a, b)` (B's volume moved into A's frame by `moved`), kept with its bound where `rule` admits it.
#[inline(always)]
pub(crate) fn keep_one<T: Real, V: BoundingVolume<T>>(
    rule: &impl BoundRule<T>,
    a: &V,
    b: &V,
    moved: &MoveRounding<T>,
) -> Option<T> {
    let lb = a.distance_lower_bound_local(b, moved);
    rule.admits(lb).then_some(lb)
}

/// [`keep_one`] of the pairs `(a[0], b[0])` and `(a[1], b[1])`, bounded together.
#[inline(always)]
pub(crate) fn keep_two<T: Real, V: BoundingVolume<T>>(
    rule: &impl BoundRule<T>,
    a: [&V; 2],
    b: [&V; 2],
    moved: &MoveRounding<T>,
) -> [Option<T>; 2] {
    let [l0, l1] = V::distance_lower_bound_local_pair(a, b, moved);
    [rule.admits(l0).then_some(l0), rule.admits(l1).then_some(l1)]
}

/// [`keep_one`] of the four pairs of `a` × `b`, in the order `[(a₀, b₀), (a₀, b₁), (a₁, b₀), (a₁, b₁)]`,
/// bounded together.
#[inline(always)]
pub(crate) fn keep_four<T: Real, V: BoundingVolume<T>>(
    rule: &impl BoundRule<T>,
    a: [&V; 2],
    b: [&V; 2],
    moved: &MoveRounding<T>,
) -> [Option<T>; 4] {
    admitted4(rule, V::distance_lower_bound_local_cross(a, b, moved))
}

/// [`keep_four`] with the volume's AVX kernel for four bounds
/// ([`BoundingVolume::distance_lower_bound_local_cross_avx`]), for the walk's copies compiled with AVX.
///
/// # Safety
/// The processor must support AVX.
#[inline(always)]
pub(crate) unsafe fn keep_four_avx<T: Real, V: BoundingVolume<T>>(
    rule: &impl BoundRule<T>,
    a: [&V; 2],
    b: [&V; 2],
    moved: &MoveRounding<T>,
) -> [Option<T>; 4] {
    // SAFETY: the processor supports AVX (this function's contract, passed on).
    admitted4(rule, unsafe {
        V::distance_lower_bound_local_cross_avx(a, b, moved)
    })
}

/// Four bounds as keep verdicts, written out.
#[inline(always)]
fn admitted4<T: Real>(rule: &impl BoundRule<T>, [l0, l1, l2, l3]: [T; 4]) -> [Option<T>; 4] {
    [
        rule.admits(l0).then_some(l0),
        rule.admits(l1).then_some(l1),
        rule.admits(l2).then_some(l2),
        rule.admits(l3).then_some(l3),
    ]
}

/// The keep tests of a [`DepthFirstVisitor`](super::DepthFirstVisitor) impl whose visitor is its own
/// [`BoundRule`] and holds the rounding of B's moved volumes in its field `moved`: `keep`, `keep_pair`,
/// `keep_quad` and `keep_quad_avx` as [`keep_one`], [`keep_two`], [`keep_four`] and [`keep_four_avx`]. Used
/// inside the impl, whose `A` is the first hierarchy.
macro_rules! keep_by_bound {
    () => {
        #[inline]
        fn keep(&mut self, a: &A::Bv, b: &A::Bv) -> Option<A::Scalar> {
            $crate::engine::keep_one(self, a, b, &self.moved)
        }

        #[inline(always)]
        fn keep_pair(&mut self, a: [&A::Bv; 2], b: [&A::Bv; 2]) -> [Option<A::Scalar>; 2] {
            $crate::engine::keep_two(self, a, b, &self.moved)
        }

        #[inline(always)]
        fn keep_quad(&mut self, a: [&A::Bv; 2], b: [&A::Bv; 2]) -> [Option<A::Scalar>; 4] {
            $crate::engine::keep_four(self, a, b, &self.moved)
        }

        /// The volume's AVX kernel for four bounds (`keep_four_avx`).
        #[inline(always)]
        unsafe fn keep_quad_avx(
            &mut self,
            a: [&A::Bv; 2],
            b: [&A::Bv; 2],
        ) -> [Option<A::Scalar>; 4] {
            // SAFETY: the processor supports AVX (this method's contract, passed on).
            unsafe { $crate::engine::keep_four_avx(self, a, b, &self.moved) }
        }
    };
}
pub(crate) use keep_by_bound;

//! The containment proof of small OBB nodes eight at a time, one node per AVX-512 lane: the per-node part of
//! the proof (the axis check, the widened test constant `τ`, and the corners of one-face leaves, half of all
//! nodes) costs more there than the corner tests themselves when it runs one node at a time.
//!
//! A group of up to eight nodes (of one frontier node's subtree, consecutive in a file the builder wrote) is read
//! by gathers (field `k` of every node of the group in one
//! instruction), widened exactly to `f64`, and each lane computes what the one-node path computes for its node,
//! the same IEEE-754 double operations on the same operands in the same order (Rust never fuses them):
//! - the axis check: for each pair `i ≤ j`, `3·|a_i·a_j − δ_ij| + 8ε ≤` [`max_defect`]. The one-node path tests
//!   `3·max_ij |a_i·a_j − δ_ij| + 8ε`, and as each rounded operation is monotone the maximum passes exactly when
//!   every pair does. A `NaN` pair (skipped by the maximum, refused here) needs a product `a_ik·a_jk` of
//!   infinite size, so `|a_ik|` or `|a_jk|` is above `2^511` and `a_i·a_i` or `a_j·a_j` is infinite: refused by
//!   both;
//! - `τ = 2.0156 ε ‖h‖₂` as [`Enclose::widen`](super::enclose::Enclose::widen) computes it;
//! - for a node of one face, the point test of its three corners.
//!
//! Nodes of more faces take their corner run through the same run tests as on the one-node path, with the
//! lanes' widened volume. So a group passes exactly when each of its nodes passes on the one-node path; where
//! one fails, the first that fails (in the group's order) is named, and the proof's error reports why
//! ([`Proof`](super::soundness)).

use std::arch::x86_64::*;

use ccd_bv::{Obb, Real};

use super::corners::Corners;
use super::enclose::{Simd, WideObb, max_defect};
use super::soundness::holds_run;
use super::walk::Spans;
use crate::Node;

/// Nodes per group: the `f64` lanes of an AVX-512 register.
pub(super) const GROUP: usize = 8;

/// Scalars per OBB node: the axes (`rot`, nine), the centre (three), the half-extents (three) and the link.
const NODE_SCALARS: usize = 16;

const _: () = assert!(size_of::<Node<f64, Obb<f64>>>() == NODE_SCALARS * 8);
const _: () = assert!(size_of::<Node<f32, Obb<f32>>>() == NODE_SCALARS * 4);

/// Whether every node of `group` (at most [`GROUP`] small nodes below one frontier node, in bounds of `nodes`)
/// passes the one-node proof: axes orthonormal and every corner of its faces in its volume (module docs); else
/// the first of them (in `group`'s order) that fails. `spans` is the proof's, `corners` the corners of the
/// frontier node's faces.
///
/// # Safety
/// The CPU must have AVX-512 F.
#[inline]
#[target_feature(enable = "avx512f")]
pub(super) unsafe fn group_holds<T: Real>(
    nodes: &[Node<T, Obb<T>>],
    group: &[u32],
    spans: &Spans,
    corners: &Corners<T>,
) -> Result<(), usize> {
    assert!(!group.is_empty() && group.len() <= GROUP);
    assert!(group.iter().all(|&i| (i as usize) < nodes.len()));
    let (orthonormal, single, held, lane) = {
        // SAFETY: forwarded from this function's contract; `group` is as asserted.
        unsafe { lanes(nodes, group, spans, corners) }
    };
    let small = u8::MAX >> (GROUP - group.len());
    let failed = small & !(orthonormal & (!single | held));
    // The corner runs of the other nodes, in order, up to the first node that failed above.
    let first_failed = failed.trailing_zeros() as usize;
    let runs = small & !single;
    for (l, &i) in group.iter().enumerate().take(first_failed) {
        if runs >> l & 1 == 0 {
            continue;
        }
        let v = |k: usize| lane[k][l];
        let outer = WideObb {
            c: [v(0), v(1), v(2)],
            h: [v(3), v(4), v(5)],
            a: [
                [v(6), v(7), v(8)],
                [v(9), v(10), v(11)],
                [v(12), v(13), v(14)],
            ],
            tau: v(15),
        };
        let run = corners.of_slots(spans.get(i as usize));
        // SAFETY: the CPU has AVX-512 F (contract).
        if !unsafe { holds_run::<T, Obb<T>>(&outer, run, Simd::Avx512) } {
            return Err(l);
        }
    }
    if failed != 0 {
        return Err(first_failed);
    }
    Ok(())
}

/// The lanes' part of [`group_holds`]: per lane (bit `l` for the group's node `l`), whether its axes are
/// orthonormal, whether it has one face, and whether those three corners lie in its volume; and the widened
/// volumes' sixteen parameters (in the order of the fields of `WideObb`), each by lane.
///
/// # Safety
/// The CPU must have AVX-512 F; `group` as [`group_holds`] asserts.
#[inline]
#[target_feature(enable = "avx512f")]
unsafe fn lanes<T: Real>(
    nodes: &[Node<T, Obb<T>>],
    group: &[u32],
    spans: &Spans,
    corners: &Corners<T>,
) -> (u8, u8, u8, [[f64; GROUP]; 16]) {
    let [xs, ys, zs] = corners.coordinates();
    // Per lane: the node (lanes past the group repeat its first node, so every gather reads a node of the
    // file), and the first corner of one-face nodes (0 for the others: read, then ignored).
    let mut node_at = [group[0] as i64 * NODE_SCALARS as i64; GROUP];
    let mut corner_at = [0i64; GROUP];
    let mut single = 0u8;
    for (l, &i) in group.iter().enumerate() {
        node_at[l] = i as i64 * NODE_SCALARS as i64;
        let slots = spans.get(i as usize);
        if slots.len() == 1 {
            let first = corners.first_corner(slots.start);
            // The gathers below read these corners: a slot of the frontier node's faces (the node lies below it).
            assert!(first + 2 < xs.len());
            single |= 1 << l;
            corner_at[l] = first as i64;
        }
    }
    let base = nodes.as_ptr().cast::<T>();
    // SAFETY: `node_at` holds eight `i64`s.
    let node_at = unsafe { _mm512_loadu_epi64(node_at.as_ptr()) };
    // SAFETY: every lane reads a scalar of a node of the group (`node_at` the start of a node in bounds of
    // `nodes`, asserted above, and `k < NODE_SCALARS`): the node type is 16 scalars without padding (asserted
    // above), and the CPU has AVX-512 F (contract).
    let field = |k: usize| unsafe { gather(base.add(k), node_at) };
    let a: [[__m512d; 3]; 3] = [
        [field(0), field(1), field(2)],
        [field(3), field(4), field(5)],
        [field(6), field(7), field(8)],
    ];
    let c = [field(9), field(10), field(11)];
    let h = [field(12), field(13), field(14)];
    let dot = |u: &[__m512d; 3], v: &[__m512d; 3]| {
        _mm512_add_pd(
            _mm512_add_pd(_mm512_mul_pd(u[0], v[0]), _mm512_mul_pd(u[1], v[1])),
            _mm512_mul_pd(u[2], v[2]),
        )
    };
    // The axis check of every lane.
    let (three, eight_eps, most) = (
        _mm512_set1_pd(3.0),
        _mm512_set1_pd(8.0 * f64::EPSILON),
        _mm512_set1_pd(max_defect::<T>()),
    );
    let mut orthonormal = u8::MAX;
    for i in 0..3 {
        for j in i..3 {
            let target = _mm512_set1_pd(if i == j { 1.0 } else { 0.0 });
            let gap = _mm512_abs_pd(_mm512_sub_pd(dot(&a[i], &a[j]), target));
            let bound = _mm512_add_pd(_mm512_mul_pd(three, gap), eight_eps);
            orthonormal &= _mm512_cmp_pd_mask::<_CMP_LE_OQ>(bound, most);
        }
    }
    let tau = _mm512_mul_pd(
        _mm512_set1_pd(2.0156 * f64::EPSILON),
        _mm512_sqrt_pd(dot(&h, &h)),
    );
    // The three corners of every one-face node.
    let mut held = u8::MAX;
    if single != 0 {
        // SAFETY: `corner_at` holds eight `i64`s.
        let at = unsafe { _mm512_loadu_epi64(corner_at.as_ptr()) };
        for q in 0..3 {
            let at = _mm512_add_epi64(at, _mm512_set1_epi64(q));
            // SAFETY: `corner_at + q` is in bounds of the coordinates for every lane (checked above; 0 for the
            // lanes that are not one-face nodes), and the CPU has AVX-512 F.
            let p = unsafe {
                [
                    gather(xs.as_ptr(), at),
                    gather(ys.as_ptr(), at),
                    gather(zs.as_ptr(), at),
                ]
            };
            let d = [
                _mm512_sub_pd(p[0], c[0]),
                _mm512_sub_pd(p[1], c[1]),
                _mm512_sub_pd(p[2], c[2]),
            ];
            for j in 0..3 {
                let gap = _mm512_sub_pd(h[j], _mm512_abs_pd(dot(&a[j], &d)));
                held &= _mm512_cmp_pd_mask::<_CMP_GE_OQ>(gap, tau);
            }
        }
    }
    let mut lane = [[0.0f64; GROUP]; 16];
    let fields = [
        c[0], c[1], c[2], h[0], h[1], h[2], a[0][0], a[0][1], a[0][2], a[1][0], a[1][1], a[1][2],
        a[2][0], a[2][1], a[2][2], tau,
    ];
    for (out, v) in lane.iter_mut().zip(fields) {
        // SAFETY: `out` holds eight doubles; the CPU has AVX-512 F.
        unsafe { _mm512_storeu_pd(out.as_mut_ptr(), v) };
    }
    (orthonormal, single, held, lane)
}

/// The scalars at `base + at[l]` of every lane `l`, widened exactly to `f64`.
///
/// # Safety
/// Every `base + at[l]` must be a readable scalar; the CPU must have AVX-512 F.
#[inline]
#[target_feature(enable = "avx512f")]
unsafe fn gather<T: Real>(base: *const T, at: __m512i) -> __m512d {
    if size_of::<T>() == 4 {
        // SAFETY: forwarded from the contract (`T` is `f32`: `Real` is implemented for `f32` and `f64` only).
        _mm512_cvtps_pd(unsafe { _mm512_i64gather_ps::<4>(at, base.cast::<f32>()) })
    } else {
        // SAFETY: as above, `T` being `f64`.
        unsafe { _mm512_i64gather_pd::<8>(at, base.cast::<f64>()) }
    }
}

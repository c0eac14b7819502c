//! The OBB's run test ([`Enclose::holds_points`](super::enclose::Enclose::holds_points)) written with AVX2
//! instructions, four corners per instruction: the containment proof spends most of its time in it.
//!
//! Every lane computes exactly the scalar test `h_j − |a_j·(p − c)| ≥ τ` of
//! [`Enclose::holds_point`](super::enclose::Enclose::holds_point): `d = p − c` by coordinate, the dot product
//! summed as `(a_j0·d_0 + a_j1·d_1) + a_j2·d_2`, each operation one IEEE-754 double operation on the same
//! operands in the same order (no fused multiply-add), the comparison false for NaN as the scalar `>=`. So the
//! verdict is the scalar one, bit for bit. The corners of a run are read in whole chunks of
//! [`LANES`] (the coordinate slices reach past the run for that), and the lanes past its end are ignored.

use std::any::TypeId;
use std::arch::x86_64::*;

use ccd_bv::Real;

use super::corners::{LANES, Points};
use super::enclose::WideObb;

const _: () = assert!(LANES == 4, "one __m256d per chunk");

/// The chunk of four values of `v` from `k`, widened exactly to `f64`.
///
/// # Safety
/// The CPU must support AVX2; `v` must hold at least `k + 4` values.
#[inline(always)]
unsafe fn load<T: Real>(v: &[T], k: usize) -> __m256d {
    debug_assert!(k + LANES <= v.len());
    if TypeId::of::<T>() == TypeId::of::<f32>() {
        let v: &[f32] = bytemuck::cast_slice(v);
        // SAFETY: `k + 4 <= v.len()` (contract), so the four values are in bounds; the widening is exact.
        unsafe { _mm256_cvtps_pd(_mm_loadu_ps(v.as_ptr().add(k))) }
    } else {
        let v: &[f64] = bytemuck::cast_slice(v);
        // SAFETY: as above (`T` is `f64`: `Real` is implemented for `f32` and `f64` only).
        unsafe { _mm256_loadu_pd(v.as_ptr().add(k)) }
    }
}

/// Whether every corner of `points` passes the point test of `outer` (module docs).
///
/// # Safety
/// The CPU must support AVX2.
#[inline]
#[target_feature(enable = "avx2")]
pub(super) unsafe fn holds_points<T: Real>(outer: &WideObb, points: Points<'_, T>) -> bool {
    let n = points.len();
    let (xs, ys, zs) = (points.xs, points.ys, points.zs);
    assert!(xs.len().min(ys.len()).min(zs.len()) >= n.next_multiple_of(LANES));
    let splat = |x: f64| _mm256_set1_pd(x);
    let c = outer.c.map(splat);
    let h = outer.h.map(splat);
    let a = outer.a.map(|row| row.map(splat));
    let tau = splat(outer.tau);
    // Clears the sign bit: |x|.
    let sign = splat(-0.0);
    let mut refused = 0;
    for k in (0..n).step_by(LANES) {
        // SAFETY: `k + 4 <= n.next_multiple_of(4) <= len` for every coordinate slice (asserted above).
        let p = unsafe { [load(xs, k), load(ys, k), load(zs, k)] };
        let d = [0, 1, 2].map(|i| _mm256_sub_pd(p[i], c[i]));
        let mut held = _mm256_castsi256_pd(_mm256_set1_epi64x(-1));
        for j in 0..3 {
            let m = |i: usize| _mm256_mul_pd(a[j][i], d[i]);
            let dot = _mm256_add_pd(_mm256_add_pd(m(0), m(1)), m(2));
            let gap = _mm256_sub_pd(h[j], _mm256_andnot_pd(sign, dot));
            held = _mm256_and_pd(held, _mm256_cmp_pd::<_CMP_GE_OQ>(gap, tau));
        }
        // Lanes at or past the run's end are not corners of the run.
        let valid = (1 << (n - k).min(LANES)) - 1;
        refused |= !_mm256_movemask_pd(held) & valid;
    }
    refused == 0
}

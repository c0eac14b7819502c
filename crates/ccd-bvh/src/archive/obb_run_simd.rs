//! The OBB's run test ([`Enclose::holds_points`](super::enclose::Enclose::holds_points)) written with vector
//! instructions: AVX2 (four corners per instruction) and AVX-512 F (eight). The containment proof spends most
//! of its time in it.
//!
//! Both copies are one body ([`obb_run!`]) instantiated with the operations of each instruction set. Every lane
//! computes exactly the scalar test `h_j − |a_j·(p − c)| ≥ τ` of
//! [`Enclose::holds_point`](super::enclose::Enclose::holds_point): `d = p − c` by coordinate, the dot product
//! summed as `(a_j0·d_0 + a_j1·d_1) + a_j2·d_2`, each operation one IEEE-754 double operation on the same
//! operands in the same order (Rust never fuses a multiply and an add, even where the target has FMA), `|x|`
//! by clearing the sign bit, the comparison false for NaN as the scalar `>=`. So the verdict is the scalar one,
//! bit for bit. A run is read in whole chunks of the copy's width (the coordinate slices reach
//! [`READ_PAST`] values past the run for that), and the lanes past its end are ignored.

use std::any::TypeId;
use std::arch::x86_64::*;

use ccd_bv::Real;

use super::corners::{Points, READ_PAST};
use super::enclose::WideObb;

/// Defines `$name`: the run test in `$lanes`-lane vectors `$V` of the target features `$features`, with the
/// instruction set's operations: `$splat` (broadcast), `$load_f32` / `$load_f64` (`$lanes` values from a
/// pointer, widened exactly to `f64`), `$sub`, `$mul`, `$add`, `$abs` and `$ge` (the lanes where `a ≥ b`, as
/// the low bits of a `u32`; false for NaN).
macro_rules! obb_run {
    (
        $(#[$doc:meta])* $name:ident, $features:literal, $V:ty, $lanes:literal,
        $splat:expr, $load_f32:expr, $load_f64:expr,
        $sub:expr, $mul:expr, $add:expr, $abs:expr, $ge:expr $(,)?
    ) => {
        $(#[$doc])*
        ///
        /// # Safety
        /// The CPU must support the target features named above.
        #[inline]
        #[target_feature(enable = $features)]
        pub(super) unsafe fn $name<T: Real>(outer: &WideObb, points: Points<'_, T>) -> bool {
            const _: () = assert!($lanes - 1 <= READ_PAST, "a chunk reads at most READ_PAST past a run");
            let n = points.len();
            let (xs, ys, zs) = (points.xs, points.ys, points.zs);
            assert!(xs.len().min(ys.len()).min(zs.len()) >= n.next_multiple_of($lanes));
            // The chunk of `$lanes` values of `v` from `k`, widened exactly to `f64`.
            let load = |v: &[T], k: usize| -> $V {
                if TypeId::of::<T>() == TypeId::of::<f32>() {
                    let v: &[f32] = bytemuck::cast_slice(v);
                    // SAFETY: `k + $lanes <= v.len()` (asserted above for every chunk of the run).
                    unsafe { $load_f32(v.as_ptr().add(k)) }
                } else {
                    // `T` is `f64`: `Real` is implemented for `f32` and `f64` only.
                    let v: &[f64] = bytemuck::cast_slice(v);
                    // SAFETY: as above.
                    unsafe { $load_f64(v.as_ptr().add(k)) }
                }
            };
            let splat = $splat;
            let c = outer.c.map(splat);
            let h = outer.h.map(splat);
            let a = outer.a.map(|row| row.map(splat));
            let tau = splat(outer.tau);
            let mut refused = 0u32;
            for k in (0..n).step_by($lanes) {
                let p = [load(xs, k), load(ys, k), load(zs, k)];
                let d = [0, 1, 2].map(|i| $sub(p[i], c[i]));
                let mut held = u32::MAX;
                for j in 0..3 {
                    let m = |i: usize| $mul(a[j][i], d[i]);
                    let dot = $add($add(m(0), m(1)), m(2));
                    held &= $ge($sub(h[j], $abs(dot)), tau);
                }
                // Lanes at or past the run's end are not corners of the run.
                let valid = (1u32 << (n - k).min($lanes)) - 1;
                refused |= !held & valid;
            }
            refused == 0
        }
    };
}

obb_run!(
    /// The run test, four corners per AVX2 instruction.
    holds_points_avx2,
    "avx2",
    __m256d,
    4,
    |x: f64| _mm256_set1_pd(x),
    |p: *const f32| _mm256_cvtps_pd(_mm_loadu_ps(p)),
    |p: *const f64| _mm256_loadu_pd(p),
    |x, y| _mm256_sub_pd(x, y),
    |x, y| _mm256_mul_pd(x, y),
    |x, y| _mm256_add_pd(x, y),
    |x| _mm256_andnot_pd(_mm256_set1_pd(-0.0), x),
    |x, y| _mm256_movemask_pd(_mm256_cmp_pd::<_CMP_GE_OQ>(x, y)) as u32,
);

obb_run!(
    /// The run test, eight corners per AVX-512 instruction.
    holds_points_avx512,
    "avx512f",
    __m512d,
    8,
    |x: f64| _mm512_set1_pd(x),
    |p: *const f32| _mm512_cvtps_pd(_mm256_loadu_ps(p)),
    |p: *const f64| _mm512_loadu_pd(p),
    |x, y| _mm512_sub_pd(x, y),
    |x, y| _mm512_mul_pd(x, y),
    |x, y| _mm512_add_pd(x, y),
    |x| _mm512_abs_pd(x),
    |x, y| u32::from(_mm512_cmp_pd_mask::<_CMP_GE_OQ>(x, y)),
);

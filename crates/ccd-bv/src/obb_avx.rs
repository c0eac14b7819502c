//! The separating-axis test and the distance lower bound of every pair of two boxes of A with two boxes of B (the
//! four child pairs of two split nodes) in the four `f64` lanes of one AVX register: lane `k` is `a[k / 2]` with
//! `b[k % 2]`.
//!
//! Every function is compiled with AVX (`#[target_feature]`): safe to call from code compiled with AVX, and
//! `unsafe` elsewhere, where the caller must make sure the processor has it. Inlined into the query engine's AVX
//! copies, a kernel's intrinsics become single instructions; each lane performs the generic lanes' IEEE operations
//! in their order (AVX has no fused multiply-add), so each lane's result is bit for bit the scalar one.

use std::arch::x86_64::{
    __m256d, _CMP_GT_OQ, _mm256_add_pd, _mm256_andnot_pd, _mm256_cmp_pd, _mm256_max_pd,
    _mm256_movemask_pd, _mm256_mul_pd, _mm256_or_pd, _mm256_set_pd, _mm256_set1_pd,
    _mm256_storeu_pd, _mm256_sub_pd,
};

use crate::Obb;

/// The quantities of the four pairs' separating-axis tests, lane `k` for `a[k / 2]` against `b[k % 2]`: `R = AᵀB`
/// and `T = Aᵀ(c_B − c_A)` by dot products (`(u₀v₀ + u₁v₁) + u₂v₂`, the generic lanes' order) and both boxes'
/// half-widths.
struct Frames {
    r: [[__m256d; 3]; 3],
    t: [__m256d; 3],
    ha: [__m256d; 3],
    hb: [__m256d; 3],
}

/// `|x|`: the sign bit cleared, as `f64::abs`.
#[target_feature(enable = "avx")]
#[inline]
fn abs(x: __m256d) -> __m256d {
    _mm256_andnot_pd(_mm256_set1_pd(-0.0), x)
}

/// `((u₀v₀ + u₁v₁) + u₂v₂)` per lane.
#[target_feature(enable = "avx")]
#[inline]
fn dot(u: &[__m256d; 3], v: &[__m256d; 3]) -> __m256d {
    _mm256_add_pd(
        _mm256_add_pd(_mm256_mul_pd(u[0], v[0]), _mm256_mul_pd(u[1], v[1])),
        _mm256_mul_pd(u[2], v[2]),
    )
}

/// `((x + y·p) + z·q) + w·s` per lane: the right-hand sides' order.
#[target_feature(enable = "avx")]
#[inline]
fn sum3(x: __m256d, [y, z, w]: [__m256d; 3], [p, q, s]: [__m256d; 3]) -> __m256d {
    _mm256_add_pd(
        _mm256_add_pd(_mm256_add_pd(x, _mm256_mul_pd(y, p)), _mm256_mul_pd(z, q)),
        _mm256_mul_pd(w, s),
    )
}

/// The 3-vector `field` of A's boxes in lanes `[a₀, a₀, a₁, a₁]`.
#[target_feature(enable = "avx")]
#[inline]
fn of_a(a: [&Obb<f64>; 2], field: impl Fn(&Obb<f64>) -> &[f64; 3]) -> [__m256d; 3] {
    let (p, q) = (field(a[0]), field(a[1]));
    [0, 1, 2].map(|c| _mm256_set_pd(q[c], q[c], p[c], p[c]))
}

/// The 3-vector `field` of B's boxes in lanes `[b₀, b₁, b₀, b₁]`.
#[target_feature(enable = "avx")]
#[inline]
fn of_b(b: [&Obb<f64>; 2], field: impl Fn(&Obb<f64>) -> &[f64; 3]) -> [__m256d; 3] {
    let (p, q) = (field(b[0]), field(b[1]));
    [0, 1, 2].map(|c| _mm256_set_pd(q[c], p[c], q[c], p[c]))
}

/// [`Frames`] of the four pairs of `a` × `b`: a macro rather than a function, so that it is part of each kernel
/// wherever the kernel is inlined (a function with target features may not be forced inline, and left out of
/// line in the walk's AVX-512 copy it returned its registers through memory).
macro_rules! frames {
    ($a:expr, $b:expr) => {{
        let (a, b) = ($a, $b);
        let xa = [0, 1, 2].map(|i| of_a(a, |o| &o.rot[i]));
        let xb = [0, 1, 2].map(|j| of_b(b, |o| &o.rot[j]));
        let (ca, cb) = (of_a(a, |o| &o.center), of_b(b, |o| &o.center));
        let d = [0, 1, 2].map(|c| _mm256_sub_pd(cb[c], ca[c]));
        Frames {
            r: [0, 1, 2].map(|i| [0, 1, 2].map(|j| dot(&xa[i], &xb[j]))),
            t: [0, 1, 2].map(|i| dot(&xa[i], &d)),
            ha: of_a(a, |o| &o.half),
            hb: of_b(b, |o| &o.half),
        }
    }};
}

/// Per lane `k`, whether `a[k / 2]` and `b[k % 2]` are disjoint: bit for bit the verdict of the generic
/// lanes' SAT (`disjoint_local_lanes`, guard `guard`), the same operations in the same order.
#[target_feature(enable = "avx")]
#[inline]
pub(crate) fn disjoint_cross(a: [&Obb<f64>; 2], b: [&Obb<f64>; 2], guard: f64) -> [bool; 4] {
    let Frames { r, t, ha, hb } = frames!(a, b);
    let g = _mm256_set1_pd(guard);
    let f = r.map(|row| row.map(|x| _mm256_add_pd(abs(x), g)));
    let mut sep = _mm256_set1_pd(0.0);
    let axis = |sep: &mut __m256d, lhs, rhs| {
        *sep = _mm256_or_pd(*sep, _mm256_cmp_pd::<_CMP_GT_OQ>(lhs, rhs));
    };
    // Face axes of A, then of B.
    for i in 0..3 {
        axis(&mut sep, abs(t[i]), sum3(ha[i], hb, f[i]));
    }
    for j in 0..3 {
        let lhs = abs(dot(&t, &[r[0][j], r[1][j], r[2][j]]));
        axis(&mut sep, lhs, sum3(hb[j], ha, [f[0][j], f[1][j], f[2][j]]));
    }
    // The cross axes unless every lane is already separated.
    if _mm256_movemask_pd(sep) != 0b1111 {
        for i in 0..3 {
            let (i1, i2) = ((i + 1) % 3, (i + 2) % 3);
            for j in 0..3 {
                let (j1, j2) = ((j + 1) % 3, (j + 2) % 3);
                let lhs = abs(_mm256_sub_pd(
                    _mm256_mul_pd(t[i2], r[i1][j]),
                    _mm256_mul_pd(t[i1], r[i2][j]),
                ));
                let rhs = _mm256_add_pd(
                    _mm256_add_pd(
                        _mm256_add_pd(
                            _mm256_mul_pd(ha[i1], f[i2][j]),
                            _mm256_mul_pd(ha[i2], f[i1][j]),
                        ),
                        _mm256_mul_pd(hb[j1], f[i][j2]),
                    ),
                    _mm256_mul_pd(hb[j2], f[i][j1]),
                );
                axis(&mut sep, lhs, rhs);
            }
        }
    }
    let m = _mm256_movemask_pd(sep);
    [m & 1 != 0, m & 2 != 0, m & 4 != 0, m & 8 != 0]
}

/// Per lane `k`, the distance lower bound of `a[k / 2]` and `b[k % 2]` with the fixed allowance `e`: bit for
/// bit the generic lanes' bound (`obb_lower_bound_lanes`, face axes only), the same operations in the same order.
#[target_feature(enable = "avx")]
#[inline]
pub(crate) fn lower_bound_cross(a: [&Obb<f64>; 2], b: [&Obb<f64>; 2], e: f64) -> [f64; 4] {
    let Frames { r, t, ha, hb } = frames!(a, b);
    let f = r.map(|row| row.map(|x| abs(x)));
    // `larger(best, y)` is `y > best ? y : best` (`maxpd` returns its second operand unless the first is
    // larger): a NaN gap is skipped.
    let mut best = _mm256_set1_pd(0.0);
    for i in 0..3 {
        best = _mm256_max_pd(_mm256_sub_pd(abs(t[i]), sum3(ha[i], hb, f[i])), best);
    }
    for j in 0..3 {
        let lhs = abs(dot(&t, &[r[0][j], r[1][j], r[2][j]]));
        let rhs = sum3(hb[j], ha, [f[0][j], f[1][j], f[2][j]]);
        best = _mm256_max_pd(_mm256_sub_pd(lhs, rhs), best);
    }
    // `raw − E` clamped at 0 (NaN too), then rounded down by `1 − 8ε`.
    let lb = _mm256_mul_pd(
        _mm256_max_pd(_mm256_sub_pd(best, _mm256_set1_pd(e)), _mm256_set1_pd(0.0)),
        _mm256_set1_pd(1.0 - 8.0 * f64::EPSILON),
    );
    let mut out = [0.0; 4];
    // SAFETY: `out` holds four `f64`, the 32 bytes the unaligned store writes.
    unsafe { _mm256_storeu_pd(out.as_mut_ptr(), lb) };
    out
}

//! The separating-axis test and the distance lower bound of every pair of two boxes of A with two boxes of B (the
//! four child pairs of two split nodes) in the four `f64` lanes of one AVX register: lane `k` is `a[k / 2]` with
//! `b[k % 2]`.
//!
//! Both kernels are compiled with AVX (`#[target_feature]`): safe to call from code compiled with AVX, and
//! `unsafe` elsewhere, where the caller must make sure the processor has it. Each lane performs the generic lanes'
//! IEEE operations in their order (AVX has no fused multiply-add), so each lane's result is bit for bit the scalar
//! one.
//!
//! The kernels' parts are macros and plain loops, not helper functions, closures or `array::map`: a function
//! with target features cannot be forced inline, and closures and `map` were left out of line in some builds
//! (the parallel close proximity benchmark then ran 2–5× slower).

use std::arch::x86_64::{
    __m256d, _CMP_GT_OQ, _mm256_add_pd, _mm256_andnot_pd, _mm256_cmp_pd, _mm256_max_pd,
    _mm256_movemask_pd, _mm256_mul_pd, _mm256_or_pd, _mm256_set_pd, _mm256_set1_pd,
    _mm256_setzero_pd, _mm256_storeu_pd, _mm256_sub_pd,
};

use crate::Obb;

/// The quantities of the four pairs' separating-axis tests, lane `k` for `a[k / 2]` against `b[k % 2]`: `R = AᵀB`
/// and `T = Aᵀ(c_B − c_A)` by dot products and both boxes' half-widths.
struct Frames {
    r: [[__m256d; 3]; 3],
    t: [__m256d; 3],
    ha: [__m256d; 3],
    hb: [__m256d; 3],
}

/// `|x|`: the sign bit cleared, as `f64::abs`.
macro_rules! abs {
    ($x:expr) => {
        _mm256_andnot_pd(_mm256_set1_pd(-0.0), $x)
    };
}

/// `(u₀v₀ + u₁v₁) + u₂v₂` per lane: the generic lanes' dot product.
macro_rules! dot {
    ($u:expr, $v:expr) => {
        _mm256_add_pd(
            _mm256_add_pd(_mm256_mul_pd($u[0], $v[0]), _mm256_mul_pd($u[1], $v[1])),
            _mm256_mul_pd($u[2], $v[2]),
        )
    };
}

/// `((x + y₀p₀) + y₁p₁) + y₂p₂` per lane: the right-hand sides' order.
macro_rules! sum3 {
    ($x:expr, $y:expr, $p:expr) => {
        _mm256_add_pd(
            _mm256_add_pd(
                _mm256_add_pd($x, _mm256_mul_pd($y[0], $p[0])),
                _mm256_mul_pd($y[1], $p[1]),
            ),
            _mm256_mul_pd($y[2], $p[2]),
        )
    };
}

/// The field `f[..]` of A's two boxes `a` in lanes `[a₀, a₀, a₁, a₁]`.
macro_rules! of_a {
    ($a:ident, $($f:tt)+) => {
        _mm256_set_pd($a[1].$($f)+, $a[1].$($f)+, $a[0].$($f)+, $a[0].$($f)+)
    };
}

/// The field `f[..]` of B's two boxes `b` in lanes `[b₀, b₁, b₀, b₁]`.
macro_rules! of_b {
    ($b:ident, $($f:tt)+) => {
        _mm256_set_pd($b[1].$($f)+, $b[0].$($f)+, $b[1].$($f)+, $b[0].$($f)+)
    };
}

/// [`Frames`] of the four pairs of the boxes `a` × `b`: A's quantities in lanes `[a₀, a₀, a₁, a₁]`, B's in
/// `[b₀, b₁, b₀, b₁]`.
macro_rules! frames {
    ($a:expr, $b:expr) => {{
        let (a, b): ([&Obb<f64>; 2], [&Obb<f64>; 2]) = ($a, $b);
        let zero = _mm256_setzero_pd();
        let (mut xa, mut xb) = ([[zero; 3]; 3], [[zero; 3]; 3]);
        for i in 0..3 {
            for c in 0..3 {
                xa[i][c] = of_a!(a, rot[i][c]);
            }
        }
        for j in 0..3 {
            for c in 0..3 {
                xb[j][c] = of_b!(b, rot[j][c]);
            }
        }
        let mut d = [zero; 3];
        for c in 0..3 {
            d[c] = _mm256_sub_pd(of_b!(b, center[c]), of_a!(a, center[c]));
        }
        let (mut r, mut t) = ([[zero; 3]; 3], [zero; 3]);
        for i in 0..3 {
            for j in 0..3 {
                r[i][j] = dot!(xa[i], xb[j]);
            }
        }
        for i in 0..3 {
            t[i] = dot!(xa[i], d);
        }
        let ha = [of_a!(a, half[0]), of_a!(a, half[1]), of_a!(a, half[2])];
        let hb = [of_b!(b, half[0]), of_b!(b, half[1]), of_b!(b, half[2])];
        Frames { r, t, ha, hb }
    }};
}

/// Per lane `k`, whether `a[k / 2]` and `b[k % 2]` are disjoint: bit for bit the verdict of the generic
/// lanes' SAT (`disjoint_local_lanes`, guard `guard`), the same operations in the same order.
#[target_feature(enable = "avx")]
#[inline]
pub(crate) fn disjoint_cross(a: [&Obb<f64>; 2], b: [&Obb<f64>; 2], guard: f64) -> [bool; 4] {
    let Frames { r, t, ha, hb } = frames!(a, b);
    let g = _mm256_set1_pd(guard);
    let mut f = r;
    for row in &mut f {
        for x in row {
            *x = _mm256_add_pd(abs!(*x), g);
        }
    }
    let mut sep = _mm256_setzero_pd();
    // Face axes of A, then of B.
    for i in 0..3 {
        let lhs = abs!(t[i]);
        sep = _mm256_or_pd(
            sep,
            _mm256_cmp_pd::<_CMP_GT_OQ>(lhs, sum3!(ha[i], hb, f[i])),
        );
    }
    for j in 0..3 {
        let lhs = abs!(dot!(t, [r[0][j], r[1][j], r[2][j]]));
        let rhs = sum3!(hb[j], ha, [f[0][j], f[1][j], f[2][j]]);
        sep = _mm256_or_pd(sep, _mm256_cmp_pd::<_CMP_GT_OQ>(lhs, rhs));
    }
    // The cross axes unless every lane is already separated.
    if _mm256_movemask_pd(sep) != 0b1111 {
        for i in 0..3 {
            let (i1, i2) = ((i + 1) % 3, (i + 2) % 3);
            for j in 0..3 {
                let (j1, j2) = ((j + 1) % 3, (j + 2) % 3);
                let lhs = abs!(_mm256_sub_pd(
                    _mm256_mul_pd(t[i2], r[i1][j]),
                    _mm256_mul_pd(t[i1], r[i2][j])
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
                sep = _mm256_or_pd(sep, _mm256_cmp_pd::<_CMP_GT_OQ>(lhs, rhs));
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
    let mut f = r;
    for row in &mut f {
        for x in row {
            *x = abs!(*x);
        }
    }
    // `larger(best, y)` is `y > best ? y : best` (`maxpd` returns its second operand unless the first is
    // larger): a NaN gap is skipped.
    let mut best = _mm256_setzero_pd();
    for i in 0..3 {
        let gap = _mm256_sub_pd(abs!(t[i]), sum3!(ha[i], hb, f[i]));
        best = _mm256_max_pd(gap, best);
    }
    for j in 0..3 {
        let lhs = abs!(dot!(t, [r[0][j], r[1][j], r[2][j]]));
        let rhs = sum3!(hb[j], ha, [f[0][j], f[1][j], f[2][j]]);
        best = _mm256_max_pd(_mm256_sub_pd(lhs, rhs), best);
    }
    // `raw − E` clamped at 0 (NaN too), then rounded down by `1 − 8ε`.
    let lb = _mm256_mul_pd(
        _mm256_max_pd(_mm256_sub_pd(best, _mm256_set1_pd(e)), _mm256_setzero_pd()),
        _mm256_set1_pd(1.0 - 8.0 * f64::EPSILON),
    );
    let mut out = [0.0; 4];
    // SAFETY: `out` holds four `f64`, the 32 bytes the unaligned store writes.
    unsafe { _mm256_storeu_pd(out.as_mut_ptr(), lb) };
    out
}

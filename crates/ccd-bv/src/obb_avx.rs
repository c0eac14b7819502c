//! The separating-axis test of every pair of two boxes of A against two boxes of B (four pairs) in the four
//! `f64` lanes of one AVX register: lane `k` tests `a[k / 2]` against `b[k % 2]`.

use std::arch::x86_64::{
    _CMP_GT_OQ, _mm256_add_pd, _mm256_andnot_pd, _mm256_cmp_pd, _mm256_movemask_pd, _mm256_mul_pd,
    _mm256_or_pd, _mm256_set_pd, _mm256_set1_pd, _mm256_sub_pd,
};

use crate::Obb;

/// Per lane `k`, whether `a[k / 2]` and `b[k % 2]` are disjoint: bit for bit the verdict of the generic
/// lanes' SAT (`disjoint_local_lanes`), same operations in the same order.
///
/// # Safety
/// The processor must support AVX.
#[target_feature(enable = "avx")]
#[inline]
pub(crate) unsafe fn disjoint_cross(a: [&Obb<f64>; 2], b: [&Obb<f64>; 2], guard: f64) -> [bool; 4] {
    macro_rules! add {
        ($x:expr, $y:expr) => {
            _mm256_add_pd($x, $y)
        };
    }
    macro_rules! mul {
        ($x:expr, $y:expr) => {
            _mm256_mul_pd($x, $y)
        };
    }
    let sign = _mm256_set1_pd(-0.0);
    macro_rules! abs {
        ($x:expr) => {
            _mm256_andnot_pd(sign, $x)
        };
    }
    macro_rules! dot {
        ($u:expr, $v:expr) => {
            add!(
                add!(mul!($u[0], $v[0]), mul!($u[1], $v[1])),
                mul!($u[2], $v[2])
            )
        };
    }
    macro_rules! lanes_a {
        ($($f:tt)+) => {{
            let (p, q) = (&a[0].$($f)+, &a[1].$($f)+);
            [
                _mm256_set_pd(q[0], q[0], p[0], p[0]),
                _mm256_set_pd(q[1], q[1], p[1], p[1]),
                _mm256_set_pd(q[2], q[2], p[2], p[2]),
            ]
        }};
    }
    macro_rules! lanes_b {
        ($($f:tt)+) => {{
            let (p, q) = (&b[0].$($f)+, &b[1].$($f)+);
            [
                _mm256_set_pd(q[0], p[0], q[0], p[0]),
                _mm256_set_pd(q[1], p[1], q[1], p[1]),
                _mm256_set_pd(q[2], p[2], q[2], p[2]),
            ]
        }};
    }
    let xa = [lanes_a!(rot[0]), lanes_a!(rot[1]), lanes_a!(rot[2])];
    let xb = [lanes_b!(rot[0]), lanes_b!(rot[1]), lanes_b!(rot[2])];
    let (ca, cb) = (lanes_a!(center), lanes_b!(center));
    let d = [
        _mm256_sub_pd(cb[0], ca[0]),
        _mm256_sub_pd(cb[1], ca[1]),
        _mm256_sub_pd(cb[2], ca[2]),
    ];
    let mut r = [[_mm256_set1_pd(0.0); 3]; 3];
    for i in 0..3 {
        for j in 0..3 {
            r[i][j] = dot!(xa[i], xb[j]);
        }
    }
    let t = [dot!(xa[0], d), dot!(xa[1], d), dot!(xa[2], d)];
    let (ha, hb) = (lanes_a!(half), lanes_b!(half));
    let g = _mm256_set1_pd(guard);
    let mut f = r;
    for row in &mut f {
        for x in row {
            *x = add!(abs!(*x), g);
        }
    }
    let mut sep = _mm256_set1_pd(0.0);
    macro_rules! axis {
        ($lhs:expr, $rhs:expr) => {
            sep = _mm256_or_pd(sep, _mm256_cmp_pd::<_CMP_GT_OQ>($lhs, $rhs))
        };
    }
    for i in 0..3 {
        let rhs = add!(
            add!(add!(ha[i], mul!(hb[0], f[i][0])), mul!(hb[1], f[i][1])),
            mul!(hb[2], f[i][2])
        );
        axis!(abs!(t[i]), rhs);
    }
    for j in 0..3 {
        let lhs = abs!(add!(
            add!(mul!(t[0], r[0][j]), mul!(t[1], r[1][j])),
            mul!(t[2], r[2][j])
        ));
        let rhs = add!(
            add!(add!(hb[j], mul!(ha[0], f[0][j])), mul!(ha[1], f[1][j])),
            mul!(ha[2], f[2][j])
        );
        axis!(lhs, rhs);
    }
    if _mm256_movemask_pd(sep) != 0b1111 {
        for i in 0..3 {
            let (i1, i2) = ((i + 1) % 3, (i + 2) % 3);
            for j in 0..3 {
                let (j1, j2) = ((j + 1) % 3, (j + 2) % 3);
                let lhs = abs!(_mm256_sub_pd(mul!(t[i2], r[i1][j]), mul!(t[i1], r[i2][j])));
                let rhs = add!(
                    add!(
                        add!(mul!(ha[i1], f[i2][j]), mul!(ha[i2], f[i1][j])),
                        mul!(hb[j1], f[i][j2])
                    ),
                    mul!(hb[j2], f[i][j1])
                );
                axis!(lhs, rhs);
            }
        }
    }
    let m = _mm256_movemask_pd(sep);
    [m & 1 != 0, m & 2 != 0, m & 4 != 0, m & 8 != 0]
}

//! The two-lane box kernels of the distance traversal for `f64`, written with SSE2 intrinsics: the lower bound
//! of [`obb_lower_bound_lanes`](crate::lower_bound) and the move of `Obb::transformed_pair`, one `__m128d` per
//! quantity, lane `k` for box (pair) `k`.
//!
//! The generic lane code leaves the vectorising to LLVM's SLP pass, which packs the overlap test well but
//! spilled and scalarised about half of these two (≈ 600 and 780 instructions per split node pair in the
//! distance traversal, against 340 and 500 here). Every operation is one packed instruction on both lanes, in
//! the same order and with the same IEEE semantics as the generic formula (SSE2 has no fused multiply-add), so
//! each lane is bit for bit the scalar result (the unit tests of `lower_bound` and `obb` compare them).
//!
//! Compiled only where SSE2 is enabled at compile time (every `x86_64` target has it in its baseline); the lane
//! type is [`F64x2`](crate::f64x2::F64x2).

use crate::Obb;
use crate::f64x2::F64x2 as X2;

/// `(u₀v₀ + u₁v₁) + u₂v₂`, the generic `dot`'s order.
#[inline(always)]
fn dot(u: &[X2; 3], v: &[X2; 3]) -> X2 {
    u[0] * v[0] + u[1] * v[1] + u[2] * v[2]
}

/// The 3-vector `get(v[k])` of two boxes, lane `k` from `v[k]`.
#[inline(always)]
fn field(v: [&Obb<f64>; 2], get: impl Fn(&Obb<f64>) -> &[f64; 3]) -> [X2; 3] {
    let (p, q) = (get(v[0]), get(v[1]));
    [
        X2::new(p[0], q[0]),
        X2::new(p[1], q[1]),
        X2::new(p[2], q[2]),
    ]
}

/// Both boxes moved by the pose with rotation rows `rot` and translation `trans`: axes `R·axis`, centre
/// `R·c + t`, the generic `transformed_lanes`' formula (each coordinate `(R_i0 x_0 + R_i1 x_1) + R_i2 x_2`), lane
/// `k` bit for bit `v[k].transformed(pose)`.
#[inline(always)]
pub(crate) fn transformed_pair(
    v: [&Obb<f64>; 2],
    rot: &[[f64; 3]; 3],
    trans: &[f64; 3],
) -> [Obb<f64>; 2] {
    let p = |i: usize, k: usize| X2::splat(rot[i][k]);
    let apply = |x: [X2; 3]| {
        let row = |i: usize| p(i, 0) * x[0] + p(i, 1) * x[1] + p(i, 2) * x[2];
        [row(0), row(1), row(2)]
    };
    let axes = [
        apply(field(v, |o| &o.rot[0])),
        apply(field(v, |o| &o.rot[1])),
        apply(field(v, |o| &o.rot[2])),
    ];
    let c = apply(field(v, |o| &o.center));
    let center = [
        c[0] + X2::splat(trans[0]),
        c[1] + X2::splat(trans[1]),
        c[2] + X2::splat(trans[2]),
    ];
    // Plain loops rather than `array::map`, whose closures LLVM does not always inline here.
    let mut out = [*v[0], *v[1]];
    for (j, axis) in axes.iter().enumerate() {
        for (c, x) in axis.iter().enumerate() {
            let [l0, l1] = x.lanes();
            out[0].rot[j][c] = l0;
            out[1].rot[j][c] = l1;
        }
    }
    for (c, x) in center.iter().enumerate() {
        let [l0, l1] = x.lanes();
        out[0].center[c] = l0;
        out[1].center[c] = l1;
    }
    out
}

/// The lower bounds of the pairs `(a[k], b[k])` with the fixed allowance `e`: the generic bound's formula
/// (see [`obb_lower_bound_lanes`](crate::lower_bound)), lane `k` bit for bit its scalar value.
#[inline(always)]
pub(crate) fn obb_lower_bound_pair(a: [&Obb<f64>; 2], b: [&Obb<f64>; 2], e: f64) -> [f64; 2] {
    let axes = |v: [&Obb<f64>; 2]| {
        [
            field(v, |o| &o.rot[0]),
            field(v, |o| &o.rot[1]),
            field(v, |o| &o.rot[2]),
        ]
    };
    let (xa, xb) = (axes(a), axes(b));
    let row = |i: usize| {
        [
            dot(&xa[i], &xb[0]),
            dot(&xa[i], &xb[1]),
            dot(&xa[i], &xb[2]),
        ]
    };
    let r = [row(0), row(1), row(2)];
    let f_row = |i: usize| [r[i][0].abs(), r[i][1].abs(), r[i][2].abs()];
    let f = [f_row(0), f_row(1), f_row(2)];
    let (ca, cb) = (field(a, |o| &o.center), field(b, |o| &o.center));
    let d = [cb[0] - ca[0], cb[1] - ca[1], cb[2] - ca[2]];
    let t = [dot(&xa[0], &d), dot(&xa[1], &d), dot(&xa[2], &d)];
    let (ha, hb) = (field(a, |o| &o.half), field(b, |o| &o.half));
    let mut best = X2::splat(0.0);
    for i in 0..3 {
        let rhs = ha[i] + hb[0] * f[i][0] + hb[1] * f[i][1] + hb[2] * f[i][2];
        best = best.larger(t[i].abs() - rhs);
    }
    for j in 0..3 {
        let lhs = (t[0] * r[0][j] + t[1] * r[1][j] + t[2] * r[2][j]).abs();
        let rhs = hb[j] + ha[0] * f[0][j] + ha[1] * f[1][j] + ha[2] * f[2][j];
        best = best.larger(lhs - rhs);
    }
    // `raw − E` clamped at 0 (NaN too: `larger` of 0 skips it), then rounded down by `1 − 8ε`.
    let lb = X2::splat(0.0).larger(best - X2::splat(e)) * X2::splat(1.0 - 8.0 * f64::EPSILON);
    lb.lanes()
}

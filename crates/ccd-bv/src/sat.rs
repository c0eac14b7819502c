//! Gottschalk's separating-axis test for two oriented boxes (thesis §4.3–4.6).
//!
//! Both functions work in box A's frame: A is centred at the origin with
//! axes `e₀, e₁, e₂` and half-widths `a`; B has axes the **columns** of `r`
//! (`r[(i, j)] = A_i · B_j`), centre `t` and half-widths `b`.
//!
//! The 15 candidate axes are A's 3 face normals, B's 3 face normals and the 9
//! edge-direction cross products `A_i × B_j`. The right-hand sides use
//! `|R_ij| + guard` instead of `|R_ij|` (thesis §4.5): when two edges are
//! almost parallel both sides of a cross-axis test are round-off noise, and the
//! guard makes the test say "may overlap" there instead of a false "disjoint".
//!
//! # Reference
//! Digest 002-part1 §4.5 (the corrected axis table: the thesis's printed
//! `TESTCASE1` is transposed and its first `TESTCASE3` is wrong, §4.8).

use nalgebra::{Matrix3, Vector3};

use crate::Real;

/// Whether box B is separated from box A by one of the 15 SAT axes.
///
/// `r`, `t`: B's axes (columns) and centre in A's frame; `a`, `b`: the
/// half-widths. `guard` is added to every `|r_ij|` on the right-hand sides
/// (use [`Real::SAT_GUARD`]; 0 gives the exact test on the given numbers).
///
/// # Guarantee
/// With `guard = 0` the result is the exact SAT verdict for the given `r`,
/// `t` (orthonormal `r`, up to the round-off of the 15 sums). With a
/// positive guard the test is conservative: it may report "not disjoint" for
/// boxes closer than `guard·Σb` (face axes of A), `guard·Σa` (face axes of B)
/// or `guard·(a_i1 + a_i2 + b_j1 + b_j2)/|A_i × B_j|` (cross axes), and never
/// reports "disjoint" for boxes that touch or intersect. Touching (equality)
/// is overlap. Parallel edges make their cross-axis test read `0 > 0`
/// (skipped); there is no division, so no NaN for finite input. Zero
/// half-widths (flat boxes) are allowed.
#[inline]
pub fn obb_disjoint<T: Real>(
    r: &Matrix3<T>,
    t: &Vector3<T>,
    a: &[T; 3],
    b: &[T; 3],
    guard: T,
) -> bool {
    obb_disjoint_by_rows(|i| ([r[(i, 0)], r[(i, 1)], r[(i, 2)]], t[i]), a, b, guard)
}

/// [`obb_disjoint`] with the rows of `r` and the entries of `t` produced on
/// demand: `row(i)` returns `([r_i0, r_i1, r_i2], t_i)`, and is called once
/// per `i`, in the order 2, 0, 1, just before the test on A's axis `i`
/// needs it. An early
/// exit on A's first axes thus skips the other rows — the saving when B's box
/// is given in A's parent frame and each `r_ij = A_i·B_j` costs a dot product.
///
/// # Guarantee
/// As [`obb_disjoint`] for the `r`, `t` the rows describe.
#[inline(always)]
pub fn obb_disjoint_by_rows<T: Real>(
    mut row: impl FnMut(usize) -> ([T; 3], T),
    a: &[T; 3],
    b: &[T; 3],
    guard: T,
) -> bool {
    let (a0, a1, a2) = (a[0], a[1], a[2]);
    let (b0, b1, b2) = (b[0], b[1], b[2]);
    // Face axes, thinnest-first: fitted boxes store their smallest-spread
    // axis last (column 2), and for nearby surfaces that is the axis most
    // likely to separate, so A2 and B2 go first. The order changes only the
    // cost of an early exit, never the verdict.
    let ([r20, r21, r22], t2) = row(2);
    let f20 = r20.abs() + guard;
    let f21 = r21.abs() + guard;
    let f22 = r22.abs() + guard;
    if t2.abs() > a2 + b0 * f20 + b1 * f21 + b2 * f22 {
        return true;
    }
    let ([r00, r01, r02], t0) = row(0);
    let f00 = r00.abs() + guard;
    let f01 = r01.abs() + guard;
    let f02 = r02.abs() + guard;
    if t0.abs() > a0 + b0 * f00 + b1 * f01 + b2 * f02 {
        return true;
    }
    let ([r10, r11, r12], t1) = row(1);
    let f10 = r10.abs() + guard;
    let f11 = r11.abs() + guard;
    let f12 = r12.abs() + guard;
    if t1.abs() > a1 + b0 * f10 + b1 * f11 + b2 * f12 {
        return true;
    }

    // Case 2: L = B_j, |T·B_j| > b_j + Σ_i a_i |R_ij|.
    if (t0 * r02 + t1 * r12 + t2 * r22).abs() > b2 + a0 * f02 + a1 * f12 + a2 * f22 {
        return true;
    }
    if (t0 * r00 + t1 * r10 + t2 * r20).abs() > b0 + a0 * f00 + a1 * f10 + a2 * f20 {
        return true;
    }
    if (t0 * r01 + t1 * r11 + t2 * r21).abs() > b1 + a0 * f01 + a1 * f11 + a2 * f21 {
        return true;
    }

    // Case 3: L = A_i × B_j,
    // |T_i2 R_i1j − T_i1 R_i2j| > a_i1 Rf_i2j + a_i2 Rf_i1j + b_j1 Rf_ij2 + b_j2 Rf_ij1.
    // Almost every pair that gets here overlaps, so the nine tests are
    // evaluated without branches (`|`, not `||`): independent comparisons
    // pipeline better than nine exits that are rarely taken.
    ((t2 * r10 - t1 * r20).abs() > a1 * f20 + a2 * f10 + b1 * f02 + b2 * f01)
        | ((t2 * r11 - t1 * r21).abs() > a1 * f21 + a2 * f11 + b0 * f02 + b2 * f00)
        | ((t2 * r12 - t1 * r22).abs() > a1 * f22 + a2 * f12 + b0 * f01 + b1 * f00)
        | ((t0 * r20 - t2 * r00).abs() > a0 * f20 + a2 * f00 + b1 * f12 + b2 * f11)
        | ((t0 * r21 - t2 * r01).abs() > a0 * f21 + a2 * f01 + b0 * f12 + b2 * f10)
        | ((t0 * r22 - t2 * r02).abs() > a0 * f22 + a2 * f02 + b0 * f11 + b1 * f10)
        | ((t1 * r00 - t0 * r10).abs() > a0 * f10 + a1 * f00 + b1 * f22 + b2 * f21)
        | ((t1 * r01 - t0 * r11).abs() > a0 * f11 + a1 * f01 + b0 * f22 + b2 * f20)
        | ((t1 * r02 - t0 * r12).abs() > a0 * f12 + a1 * f02 + b0 * f21 + b1 * f20)
}

/// The largest **normalised** separation of the two boxes over the 15 SAT
/// axes, clamped at 0 (same arguments as [`obb_disjoint`]).
///
/// Face axes are unit vectors; a cross axis `A_i × B_j` is divided by its
/// length `√(R_i1j² + R_i2j²)` and skipped when that length is below
/// `√guard` (nearly parallel edges, where the quotient is round-off noise;
/// with `guard = 0` only exactly parallel edges are skipped).
///
/// # Guarantee
/// A lower bound on the Euclidean distance between the boxes (for
/// orthonormal `r`): the gap between the projections on any unit axis is at
/// most the distance, and the guard only shrinks each gap. 0 when the boxes
/// may overlap. Used to order distance and tolerance traversals.
pub fn obb_separation<T: Real>(
    r: &Matrix3<T>,
    t: &Vector3<T>,
    a: &[T; 3],
    b: &[T; 3],
    guard: T,
) -> T {
    let f = r.abs().add_scalar(guard);
    let mut best = T::zero();
    for i in 0..3 {
        // L = A_i.
        let rhs = a[i] + b[0] * f[(i, 0)] + b[1] * f[(i, 1)] + b[2] * f[(i, 2)];
        best = best.max(t[i].abs() - rhs);
    }
    for j in 0..3 {
        // L = B_j (unit up to the round-off of `r`).
        let lhs = (t[0] * r[(0, j)] + t[1] * r[(1, j)] + t[2] * r[(2, j)]).abs();
        let rhs = b[j] + a[0] * f[(0, j)] + a[1] * f[(1, j)] + a[2] * f[(2, j)];
        best = best.max(lhs - rhs);
    }
    let min_len2 = guard;
    for i in 0..3 {
        let (i1, i2) = ((i + 1) % 3, (i + 2) % 3);
        for j in 0..3 {
            let (j1, j2) = ((j + 1) % 3, (j + 2) % 3);
            let len2 = r[(i1, j)] * r[(i1, j)] + r[(i2, j)] * r[(i2, j)];
            if len2 <= min_len2 || len2 <= T::zero() {
                continue;
            }
            let lhs = (t[i2] * r[(i1, j)] - t[i1] * r[(i2, j)]).abs();
            let rhs =
                a[i1] * f[(i2, j)] + a[i2] * f[(i1, j)] + b[j1] * f[(i, j2)] + b[j2] * f[(i, j1)];
            let gap = lhs - rhs;
            if gap > T::zero() {
                best = best.max(gap / len2.sqrt());
            }
        }
    }
    best
}

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
//! # Evaluation
//! The test is written once over a `Lanes` type, `N` box pairs side by side. With
//! `N = 1` it is the scalar test; the traversal runs the two children of a
//! split node as `N = 2`, which LLVM's SLP vectoriser turns into one SSE2
//! instruction per operation (two `f64` or two `f32` lanes) with no
//! shuffles: every operation combines the same lane of its operands. Each
//! lane performs exactly the scalar sequence of IEEE operations, so its
//! verdict is bit-for-bit the scalar one. The face axes come first and
//! without branches; the nine cross axes are skipped only when every lane is
//! already separated (close-proximity pairs overlap about half the time and
//! then need all 15 axes, and which face axis separates the others is
//! unpredictable, so finer early exits cost more in mispredicted branches
//! than they save).
//!
//! # Reference
//! Gottschalk 2000, §4.3 (the 15 axes) and §4.6 (program code), with the
//! axis table corrected: the printed `TESTCASE1` is transposed and its first
//! `TESTCASE3` is wrong.

use nalgebra::{Matrix3, Vector3};

use crate::Real;
pub(crate) use crate::lanes::Lanes;

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
    obb_disjoint_by(r, t, a, b, guard, T::zero())
}

/// Whether one of the 15 SAT axes separates box B from box A by more than `margin`: [`obb_disjoint`] with
/// `margin` subtracted from every left-hand side (`|T·L| − margin > r_A(L) + r_B(L)`).
///
/// # Guarantee
/// As [`obb_disjoint`]; in addition, for orthonormal `r` and the exact sums, a `true` means the boxes are
/// farther apart than `margin` (Euclidean), because every axis `L` the test uses has `|L| ≤ 1` (face axes are
/// unit, cross axes `A_i × B_j` have length `sin θ`) and the gap along a unit axis bounds the distance.
/// `margin = 0` is [`obb_disjoint`] exactly (`x − 0 = x`).
#[inline]
pub fn obb_disjoint_by<T: Real>(
    r: &Matrix3<T>,
    t: &Vector3<T>,
    a: &[T; 3],
    b: &[T; 3],
    guard: T,
    margin: T,
) -> bool {
    let one = |x: T| Lanes([x]);
    let row = |i: usize| [one(r[(i, 0)]), one(r[(i, 1)]), one(r[(i, 2)])];
    let [sep] = obb_disjoint_lanes(
        &[row(0), row(1), row(2)],
        &[one(t[0]), one(t[1]), one(t[2])],
        &[one(a[0]), one(a[1]), one(a[2])],
        &[one(b[0]), one(b[1]), one(b[2])],
        guard,
        margin,
    );
    sep
}

/// [`obb_disjoint`] for `N` box pairs at once, one per lane: `r[i][j]` is
/// `R_ij`, `t[i]` is `T_i`, `a`/`b` the half-widths. Returns, per lane,
/// whether that pair is separated (by more than `margin`: see [`obb_disjoint_by`]; `margin = 0` compiles to
/// the plain test, as `x − 0 = x` exactly).
///
/// # Guarantee
/// Per lane, exactly the verdict of [`obb_disjoint`] on that lane's numbers:
/// the same 15 comparisons of the same sums, evaluated in the same order;
/// skipping the cross axes when every lane is already separated cannot
/// change an OR that is already true.
#[inline(always)]
pub(crate) fn obb_disjoint_lanes<T: Real, const N: usize>(
    r: &[[Lanes<T, N>; 3]; 3],
    t: &[Lanes<T, N>; 3],
    a: &[Lanes<T, N>; 3],
    b: &[Lanes<T, N>; 3],
    guard: T,
    margin: T,
) -> [bool; N] {
    let g = Lanes::splat(guard);
    let m = Lanes::splat(margin);
    // f_ij = |R_ij| + guard, the guarded |R| of every right-hand side.
    let f_row = |i: usize| [r[i][0].abs() + g, r[i][1].abs() + g, r[i][2].abs() + g];
    let f = [f_row(0), f_row(1), f_row(2)];
    let mut sep = [false; N];
    let axis = |sep: &mut [bool; N], lhs: Lanes<T, N>, rhs: Lanes<T, N>| {
        let s = (lhs - m).gt(rhs);
        for k in 0..N {
            sep[k] |= s[k];
        }
    };
    // Case 1: L = A_i, |T_i| > a_i + Σ_j b_j |R_ij|.
    for i in 0..3 {
        axis(
            &mut sep,
            t[i].abs(),
            a[i] + b[0] * f[i][0] + b[1] * f[i][1] + b[2] * f[i][2],
        );
    }
    // Case 2: L = B_j, |T·B_j| > b_j + Σ_i a_i |R_ij|.
    for j in 0..3 {
        axis(
            &mut sep,
            (t[0] * r[0][j] + t[1] * r[1][j] + t[2] * r[2][j]).abs(),
            b[j] + a[0] * f[0][j] + a[1] * f[1][j] + a[2] * f[2][j],
        );
    }
    if sep.iter().all(|&s| s) {
        return sep;
    }
    // Case 3: L = A_i × B_j, with (i, i1, i2) and (j, j1, j2) cyclic:
    // |T_i2 R_i1j − T_i1 R_i2j| > a_i1 |R_i2j| + a_i2 |R_i1j| + b_j1 |R_ij2| + b_j2 |R_ij1|.
    // (The projection radius of A on A_i × B_j is Σ_k a_k |A_k·(A_i × B_j)|
    // = Σ_k a_k |B_j·(A_k × A_i)|, and A_i1 × A_i = −A_i2, A_i2 × A_i = A_i1;
    // B's is Σ_k b_k |A_i·(B_j × B_k)| with B_j × B_j1 = B_j2, B_j × B_j2 = −B_j1.)
    for i in 0..3 {
        let (i1, i2) = ((i + 1) % 3, (i + 2) % 3);
        for j in 0..3 {
            let (j1, j2) = ((j + 1) % 3, (j + 2) % 3);
            axis(
                &mut sep,
                (t[i2] * r[i1][j] - t[i1] * r[i2][j]).abs(),
                a[i1] * f[i2][j] + a[i2] * f[i1][j] + b[j1] * f[i][j2] + b[j2] * f[i][j1],
            );
        }
    }
    sep
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
/// may overlap. Not certified against rounding; the volumes' certified bound
/// is [`obb_lower_bound`](crate::lower_bound::obb_lower_bound).
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

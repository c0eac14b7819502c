//! The interval separating-axis test of two oriented boxes over a time
//! interval (Redon et al. 2002; Jørgensen 2006, §6.3 and `cont_coll_obb.h`, with its rounding and orthonormality assumptions fixed).

use ccd_interval::{IVec3, Interval};
use ccd_motion::IntervalPose;
use nalgebra::Vector3;

use super::Certainty;
use crate::{Obb, Real};

/// Whether boxes `a` and `b` are **certainly disjoint at every time** of the
/// interval that the enclosures `enc_a` and `enc_b` cover.
///
/// `a` is given in A's model frame and `enc_a` encloses the poses (model →
/// world) of A over `[t0, t1]`; likewise `b`, `enc_b`. The test is
/// Gottschalk's 15-axis SAT in A's model frame, where B's model frame sits at
/// the interval rigid transform `y ↦ Q·y + v`, `Q = R_Aᵀ·R_B`, containing
/// every relative pose of the two motions. Its ingredients are evaluated in
/// interval arithmetic, each rotation entering once where possible: the
/// relative rotation `c_ij = (R_A a_i)·(R_B b_j)` of the world axes, and the
/// centre offset in A's frame, `a_i·D = (R_A a_i)·(P_B − p_A) − a_i·c_A`, and
/// in B's frame. An axis separates for every member of the enclosures when
/// `inf |L·D| > sup(Σ a_k |L·a_k| + Σ b_k |L·Q b_k|)`. Early exit on the
/// first separating axis (A's faces, B's faces, then the 9 edge pairs).
///
/// # Guarantee
/// [`Certainty::Disjoint`] is certified: for every pair of poses
/// `(R_A, p_A) ∈ enc_a`, `(R_B, p_B) ∈ enc_b` in which `R_A`, `R_B` are
/// proper rotations (as the poses of rigid motions are), the posed boxes are
/// disjoint, hence so are the boxes carried by the enclosed motions at every
/// `t ∈ [t0, t1]`. The boxes are the closed point sets
/// `{c + Σ s_k h_k axis_k : |s_k| ≤ 1}` of the stored float axes, which are
/// orthonormal only up to round-off: face axes use their float Gram matrix,
/// and the closed forms of the edge axes (Gottschalk 2000, §4.3; Eberly §2.1) are widened by
/// certified bounds of the axes' distance from orthonormality (about `1e-16`
/// each; derivation in the source). Every quantity the verdict depends on is
/// computed with outward-rounded interval arithmetic ([`Interval`],
/// [`IVec3`], [`IMat3`](ccd_interval::IMat3)).
///
/// [`Certainty::MayOverlap`] is not a claim of contact: the enclosures
/// over-approximate the motion (more so for wide time intervals and fast
/// rotations), so disjoint boxes may not be certified. Bisecting the time
/// interval tightens the enclosures ([`first_possible_contact`]). With
/// single-pose enclosures the test is the static SAT up to the enclosures'
/// few-ulp pads.
///
/// [`first_possible_contact`]: super::first_possible_contact
///
/// # Frames
/// `a`, `b` in their own model frames; the enclosures map model to world.
///
/// # Behaviour
/// Touching is overlap (never certified disjoint). Zero half-extents are
/// allowed. Axes far from orthonormal (Gram defect ≥ 1/2 or a singular
/// frame) skip the 9 edge axes, which is conservative.
///
/// # Panics
/// Non-finite input trips the interval crate's debug assertion in debug
/// builds; release builds answer [`Certainty::MayOverlap`].
///
/// # Reference
/// Jørgensen 2006, §6.3 (the continuous SAT) and `cont_coll_obb.h` (its `check_pair`,
/// which assumed exactly orthonormal axes; the report
/// rounded to nearest and scanned fixed buckets; here every bound is
/// outward-rounded and the interval is arbitrary).
pub fn obb_disjoint_over<T: Real>(
    a: &Obb<T>,
    enc_a: &IntervalPose<T>,
    b: &Obb<T>,
    enc_b: &IntervalPose<T>,
) -> Certainty {
    if separated(a, enc_a, b, enc_b) {
        Certainty::Disjoint
    } else {
        Certainty::MayOverlap
    }
}

/// `Σ_k h_k |x_k|` as an interval (its upper bound is what the tests use).
#[inline(always)]
fn radius<T: Real>(h: &[T; 3], x: [Interval<T>; 3]) -> Interval<T> {
    x[0].abs() * h[0] + x[1].abs() * h[1] + x[2].abs() * h[2]
}

/// `‖x‖₁` of an interval vector, enclosed.
#[inline(always)]
fn norm1<T: Real>(x: &IVec3<T>) -> Interval<T> {
    x.x.abs() + x.y.abs() + x.z.abs()
}

/// `u · w` for float vectors, enclosed.
#[inline(always)]
fn dot_point<T: Real>(u: &Vector3<T>, w: &Vector3<T>) -> Interval<T> {
    IVec3::point(u).dot_real(w)
}

/// An upper bound of `γ = ‖XᵀX − I‖₂` for the float axes with Gram matrix
/// `gram` (by the entrywise 1-norm; about `1e-16` for a rotation's columns).
fn gram_defect<T: Real>(gram: &[[Interval<T>; 3]; 3]) -> T {
    let mut sum = Interval::point(T::zero());
    for (r, row) in gram.iter().enumerate() {
        for (k, g) in row.iter().enumerate() {
            sum += if r == k {
                (*g - T::one()).abs()
            } else {
                g.abs()
            };
        }
    }
    sum.hi()
}

/// The 15 interval axis tests; `true` when one certainly separates.
///
/// Notation: `a_k`, `b_k` are the float box axes (matrices `A`, `B`),
/// `R_A`, `R_B` any rotations of the enclosures, `Q = R_Aᵀ R_B`; in A's model
/// frame B's axes are `X_j = Q b_j` and the centre offset is
/// `D = R_Aᵀ(P_B − p_A) − c_A`, with `P = R c + p` the world centres.
///
/// - `c_ij = a_i · X_j = (R_A a_i)·(R_B b_j)` (world axes, each rotation
///   once);
/// - `T_i = a_i · D = (R_A a_i)·(P_B − p_A) − a_i·c_A`;
/// - `S_j = X_j · D = b_j · c_B − (R_B b_j)·(P_A − p_B)` (the offset in B's
///   frame, `Qᵀ D = R_Bᵀ(P_B − P_A)`).
///
/// Face axes are Gottschalk's tests with `|a_i·a_k|`, `|b_j·b_k|` from the
/// float Gram matrices. Cross axes `L = a_i × X_j`, with `(i, i1, i2)` and
/// `(j, j1, j2)` cyclic, use the closed forms of orthonormal axes plus
/// certified bounds of the axes' defect. With `γ_A ≥ ‖AᵀA − I‖₂` (< 1/2)
/// and the polar factorisation `A = U P`, `K_m = a_{m+1} × a_{m+2}` equals
/// `det(A) A⁻ᵀ e_m`, so `K_m − s a_m = s U (det(P) P⁻¹ − P) e_m` with
/// `s = sign det A`; the eigenvalues of `det(P) P⁻¹ − P` are `λ_iλ_j − λ_k`
/// with all `λ² ∈ [1 − γ, 1 + γ]`, hence `|K_m − s a_m| ≤ 2γ_A`. Then, as
/// `Q` is a rotation (`|X_j| = |b_j| ≤ 1 + γ_B`, `Q x × Q y = Q(x × y)`):
///
/// - `|L·a_i1| = |K_i2·X_j| ≤ |c_{i2 j}| + δ_A`, `|L·a_i2| ≤ |c_{i1 j}| + δ_A`,
///   `δ_A = 2γ_A(1 + γ_B)`;
/// - `|L·X_j1| = |a_i·Q J_j2| ≤ |c_{i j2}| + δ_B`, `|L·X_j2| ≤ |c_{i j1}| + δ_B`,
///   `δ_B = 2γ_B(1 + γ_A)`, `J_m = b_{m+1} × b_{m+2}`;
/// - `L·D = X_j·(D × a_i)` with `D = Σ_k T_k a_k + η`, `η = (I − AAᵀ)D`,
///   `|η| ≤ γ_A |P_B − P_A|`: `L·D ∈ s(T_i2 c_{i1 j} − T_i1 c_{i2 j}) ±
///   ((|T_i1| + |T_i2|) δ_A + (1 + γ_A)(1 + γ_B) γ_A |P_B − P_A|)`.
///
/// Axes too far from orthonormal (`γ ≥ 1/2`, or `det A` not certainly
/// nonzero) skip the cross axes, which is conservative.
fn separated<T: Real>(
    a: &Obb<T>,
    enc_a: &IntervalPose<T>,
    b: &Obb<T>,
    enc_b: &IntervalPose<T>,
) -> bool {
    let zero = Interval::point(T::zero());
    let (ha, hb) = (&a.half, &b.half);
    let ax: [Vector3<T>; 3] = a.rot.map(Vector3::from);
    let bx: [Vector3<T>; 3] = b.rot.map(Vector3::from);
    let (ca, cb) = (Vector3::from(a.center), Vector3::from(b.center));

    // B's world axes and centre; the offset from A's world origin.
    let mut eb = [IVec3::point(&Vector3::zeros()); 3];
    for (e, x) in eb.iter_mut().zip(&bx) {
        *e = enc_b.rot.mul_real_vec(x);
    }
    let pb = enc_b.rot.mul_real_vec(&cb) + enc_b.trans;
    let to_b = pb - enc_a.trans;

    // L = a_i: A's radius Σ_k a_k |a_i·a_k|, B's Σ_j b_j |c_ij|. Row i of the
    // Gram matrix is completed from the rows before it (symmetry).
    let mut ga = [[zero; 3]; 3];
    let mut c = [[zero; 3]; 3];
    let mut t = [zero; 3];
    for i in 0..3 {
        let ea = enc_a.rot.mul_real_vec(&ax[i]);
        for k in 0..3 {
            ga[i][k] = if k < i {
                ga[k][i]
            } else {
                dot_point(&ax[i], &ax[k])
            };
            c[i][k] = ea.dot(&eb[k]);
        }
        t[i] = ea.dot(&to_b) - dot_point(&ax[i], &ca);
        if t[i]
            .abs()
            .certainly_gt(radius(ha, ga[i]) + radius(hb, c[i]))
        {
            return true;
        }
    }

    // L = Q b_j: A's radius Σ_i a_i |c_ij|, B's Σ_k b_k |b_j·b_k|.
    let pa = enc_a.rot.mul_real_vec(&ca) + enc_a.trans;
    let to_a = pa - enc_b.trans;
    let mut gb = [[zero; 3]; 3];
    for j in 0..3 {
        for k in 0..3 {
            gb[j][k] = if k < j {
                gb[k][j]
            } else {
                dot_point(&bx[j], &bx[k])
            };
        }
        let s = dot_point(&bx[j], &cb) - eb[j].dot(&to_a);
        if s.abs()
            .certainly_gt(radius(ha, [c[0][j], c[1][j], c[2][j]]) + radius(hb, gb[j]))
        {
            return true;
        }
    }

    // L = a_i × Q b_j, with the defect bounds above.
    let (gam_a, gam_b) = (gram_defect(&ga), gram_defect(&gb));
    let half = T::lit(0.5);
    let det_a = IVec3::point(&ax[1]).cross_real(&ax[2]).dot_real(&ax[0]);
    if !(gam_a < half && gam_b < half) || det_a.contains_zero() {
        return false;
    }
    let flip = det_a.certainly_negative();
    let (one_a, one_b) = (
        Interval::point(T::one()) + gam_a,
        Interval::point(T::one()) + gam_b,
    );
    let two = T::lit(2.0);
    let del_a = (one_b * gam_a * two).hi();
    let del_b = (one_a * gam_b * two).hi();
    let eta = one_a * one_b * gam_a * norm1(&(pb - pa));
    let mut abs_a = [[zero; 3]; 3];
    let mut abs_b = [[zero; 3]; 3];
    for m in 0..3 {
        for k in 0..3 {
            let ac = c[m][k].abs();
            abs_a[m][k] = ac + del_a;
            abs_b[m][k] = ac + del_b;
        }
    }
    for (i, abs_bi) in abs_b.iter().enumerate() {
        let (i1, i2) = ((i + 1) % 3, (i + 2) % 3);
        let err_i = (t[i1].abs() + t[i2].abs()) * del_a + eta;
        for j in 0..3 {
            let (j1, j2) = ((j + 1) % 3, (j + 2) % 3);
            let r = abs_a[i2][j] * ha[i1]
                + abs_a[i1][j] * ha[i2]
                + abs_bi[j2] * hb[j1]
                + abs_bi[j1] * hb[j2];
            let core = t[i2] * c[i1][j] - t[i1] * c[i2][j];
            let core = if flip { -core } else { core };
            let err = err_i.hi();
            if (core + Interval::new(-err, err)).abs().certainly_gt(r) {
                return true;
            }
        }
    }
    false
}

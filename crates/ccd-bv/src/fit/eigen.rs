//! Eigen-decomposition of a symmetric 3×3 matrix in closed form: the
//! trigonometric roots of the characteristic cubic (Smith 1961) locate the
//! eigenvalue that stands apart from the other two, its eigenvector is the
//! longest cross product of two rows of `A − λI`, and the remaining pair is the
//! closed-form (Jacobi-rotation) solution of `A` restricted to the plane
//! orthogonal to it. A fixed sequence of about 170 flops, five square roots
//! and two divisions for the cubic's root (a polynomial refined by Newton
//! steps in place of `acos` and `cos`), instead of nalgebra's iterative `SymmetricEigen`, for
//! the per-node frames and split axes of a tree build (`cargo bench -p
//! ccd-benches --bench eigen`: 125 ns against 330 ns per matrix).
//!
//! # Accuracy
//! Backward stable like an iterative solver: the computed frame `V` is
//! orthonormal to round-off and `‖A·V − V·Λ‖` is a small multiple of
//! `ε‖A‖`, so each eigenvector is accurate to about `ε‖A‖ / gap` (`gap` the
//! distance of its eigenvalue to the others), and repeated eigenvalues get an
//! arbitrary orthonormal basis of their eigenspace; as in an iterative solver,
//! an off-diagonal entry of the 2×2 problem below `8ε` of the largest entry
//! counts as zero (deflation), so a matrix that is diagonal up to round-off
//! keeps its coordinate axes. The first eigenvector is
//! always that of a well separated eigenvalue: the roots `q + p·β` of the
//! cubic have `β ∈ [−2, 2]`, and the largest (for a non-negative
//! determinant of `(A − qI)/p`) or the smallest (otherwise) lies at least
//! `√3·p` from both others.

use ccd_interval::pow2::ldexp;
use nalgebra::{Matrix3, Vector3};

use super::covariance::any_orthogonal;
use super::scale::stats_exponent;

/// The eigenvectors of the symmetric `a` (lower triangle read) as the columns
/// of a right-handed rotation, with their eigenvalues, sorted by
/// **descending** eigenvalue; the identity and zeros for a non-finite or
/// zero matrix.
///
/// # Guarantee
/// Orthonormal and right-handed (`col2 = col0 × col1`) to `f64` round-off;
/// eigenvalues are the Rayleigh quotients `vᵀ·A·v` of the returned columns;
/// accuracy as the [module](self) states.
pub(crate) fn eigen_sorted(a: &Matrix3<f64>) -> (Matrix3<f64>, [f64; 3]) {
    let lower = [
        a[(0, 0)],
        a[(1, 0)],
        a[(2, 0)],
        a[(1, 1)],
        a[(2, 1)],
        a[(2, 2)],
    ];
    let scale = lower.iter().fold(0.0f64, |m, x| m.max(x.abs()));
    if !(scale > 0.0 && scale.is_finite()) {
        return (Matrix3::identity(), [0.0; 3]);
    }
    // Scaled exactly by 2^k into [2^-128, 2^128] where the largest entry lies
    // outside (k = 0, no scaling, otherwise): no cube below overflows, and
    // none underflows unless it is far below the largest entry's.
    let k = stats_exponent(scale);
    let [xx, xy, xz, yy, yz, zz] = if k == 0 {
        lower
    } else {
        lower.map(|x| ldexp(x, k))
    };
    // The deviatoric part B = A - qI: same eigenvectors, eigenvalues shifted by q.
    let q = (xx + yy + zz) * (1.0 / 3.0);
    let b = Shifted {
        unit: ldexp(scale, k),
        d: [xx - q, yy - q, zz - q],
        xy,
        xz,
        yz,
    };
    let first = b.isolated_eigenvector();
    let (u, w) = plane_basis(&first);
    let (second, third) = b.plane_eigenvectors(&u, &w);
    let value = |v: &Vector3<f64>| ldexp(b.quadratic(v) + q, -k);
    let mut pairs = [
        (value(&first), first),
        (value(&second), second),
        (value(&third), third),
    ];
    // Three compare-exchanges: descending by eigenvalue.
    for (i, j) in [(0, 1), (1, 2), (0, 1)] {
        if pairs[j].0 > pairs[i].0 {
            pairs.swap(i, j);
        }
    }
    let [(l0, x), (l1, y), (l2, _)] = pairs;
    (Matrix3::from_columns(&[x, y, x.cross(&y)]), [l0, l1, l2])
}

/// A symmetric matrix with zero trace (up to round-off): diagonal `d` and the
/// off-diagonal entries.
struct Shifted {
    /// The largest magnitude among the entries of `A` (before the shift).
    unit: f64,
    d: [f64; 3],
    xy: f64,
    xz: f64,
    yz: f64,
}

impl Shifted {
    /// `vᵀ·B·v`.
    fn quadratic(&self, v: &Vector3<f64>) -> f64 {
        let [dx, dy, dz] = self.d;
        dx * v.x * v.x
            + dy * v.y * v.y
            + dz * v.z * v.z
            + 2.0 * (self.xy * v.x * v.y + self.xz * v.x * v.z + self.yz * v.y * v.z)
    }

    /// `B·v`.
    fn apply(&self, v: &Vector3<f64>) -> Vector3<f64> {
        let [dx, dy, dz] = self.d;
        Vector3::new(
            dx * v.x + self.xy * v.y + self.xz * v.z,
            self.xy * v.x + dy * v.y + self.yz * v.z,
            self.xz * v.x + self.yz * v.y + dz * v.z,
        )
    }

    /// A unit eigenvector for the eigenvalue that lies at least `√3·p` from
    /// the other two (module docs); `x` when `B` is zero.
    fn isolated_eigenvector(&self) -> Vector3<f64> {
        let ([dx, dy, dz], xy, xz, yz) = (self.d, self.xy, self.xz, self.yz);
        let p2 = (dx * dx + dy * dy + dz * dz + 2.0 * (xy * xy + xz * xz + yz * yz)) * (1.0 / 6.0);
        if p2 == 0.0 {
            return Vector3::x();
        }
        let p = p2.sqrt();
        let det = dx * (dy * dz - yz * yz) - xy * (xy * dz - yz * xz) + xz * (xy * yz - dy * xz);
        let half_det = (det / (2.0 * p2 * p)).clamp(-1.0, 1.0);
        // The roots of β³ − 3β = 2·half_det are 2cos(acos(half_det)/3 + 2πk/3); the isolated one is the
        // largest for half_det ≥ 0 and the smallest (the negated largest for −half_det) otherwise.
        let beta = if half_det >= 0.0 {
            top_root(half_det)
        } else {
            -top_root(-half_det)
        };
        let l = p * beta;
        let rows = [
            Vector3::new(dx - l, xy, xz),
            Vector3::new(xy, dy - l, yz),
            Vector3::new(xz, yz, dz - l),
        ];
        let mut best = rows[0].cross(&rows[1]);
        let mut best_n = best.norm_squared();
        for c in [rows[0].cross(&rows[2]), rows[1].cross(&rows[2])] {
            let n = c.norm_squared();
            if n > best_n {
                (best, best_n) = (c, n);
            }
        }
        if best_n > 0.0 && best_n.is_finite() {
            best / best_n.sqrt()
        } else {
            Vector3::x()
        }
    }

    /// The eigenvectors of `B` restricted to the plane spanned by the
    /// orthonormal `u, w` (an invariant plane of `B`): the rotation that
    /// diagonalises `[uᵀBu, uᵀBw; wᵀBu, wᵀBw]`, as a Jacobi rotation.
    fn plane_eigenvectors(
        &self,
        u: &Vector3<f64>,
        w: &Vector3<f64>,
    ) -> (Vector3<f64>, Vector3<f64>) {
        let bw = self.apply(w);
        let (a, b, c) = (self.quadratic(u), u.dot(&bw), w.dot(&bw));
        if b.abs() <= TINY * self.unit {
            return (*u, *w);
        }
        // tan θ = t, the root of t² + 2τt − 1 = 0 with |θ| ≤ π/4; for huge |τ|, t ≈ 1/(2τ).
        let tau = (c - a) / (2.0 * b);
        let t = if tau.abs() < 1e150 {
            tau.signum() / (tau.abs() + (tau * tau + 1.0).sqrt())
        } else {
            0.5 / tau
        };
        let cos = 1.0 / (t * t + 1.0).sqrt();
        let sin = t * cos;
        (u * cos - w * sin, u * sin + w * cos)
    }
}

/// The largest root of `β³ − 3β = 2s` for `s ∈ [0, 1]`, which lies in `[√3, 2]`: `2cos(acos(s)/3)`,
/// computed without trigonometry as a cubic fit at the Chebyshev nodes (error below `8.2e-5`) refined by
/// two Newton steps (the cubic's slope there is at least 6 and it is convex, so each step squares the
/// error: relative error about `2.5e-16`). A NaN stays NaN.
fn top_root(s: f64) -> f64 {
    let [c0, c1, c2, c3] = top_root_poly();
    let x = c0 + s * (c1 + s * (c2 + s * c3));
    let step = |x: f64| x - (x * x * x - 3.0 * x - 2.0 * s) / (3.0 * x * x - 3.0);
    step(step(x))
}

/// The coefficients, constant term first, of `top_root`'s starting cubic.
pub(crate) const fn top_root_poly() -> [f64; 4] {
    [
        1.732_132_659_066_383_7,
        0.330_660_700_441_691_7,
        -0.081_382_394_845_779_1,
        0.018_639_367_794_966_707,
    ]
}

/// Off-diagonal magnitude of the 2×2 problem, relative to the largest entry
/// of `A`, below which it counts as diagonal (module docs).
pub(crate) const TINY: f64 = 8.0 * f64::EPSILON;

/// An orthonormal basis of the plane orthogonal to the unit vector `v`.
fn plane_basis(v: &Vector3<f64>) -> (Vector3<f64>, Vector3<f64>) {
    let u = any_orthogonal(v);
    (u, v.cross(&u))
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::{Rotation3, SymmetricEigen};
    use proptest::prelude::*;

    /// `‖A·V − V·Λ‖` relative to `‖A‖` (largest entries), the deviation of `VᵀV` from `I`,
    /// whether `V` is right-handed, and the eigenvalues against `expected`
    /// (descending) within `1e-14‖A‖`.
    fn check(a: &Matrix3<f64>, expected: [f64; 3]) -> Result<(), TestCaseError> {
        let (v, l) = eigen_sorted(a);
        // Largest entries, not Frobenius norms, whose squares underflow at 1e-200.
        let norm = a.amax().max(f64::MIN_POSITIVE);
        let residual = (a * v - v * Matrix3::from_diagonal(&l.into())).amax() / norm;
        prop_assert!(residual < 1e-14, "residual {residual:e} for {a}");
        prop_assert!((v.transpose() * v - Matrix3::identity()).norm() < 1e-14);
        prop_assert!((v.column(0).cross(&v.column(1)) - v.column(2)).norm() < 1e-14);
        prop_assert!(l[0] >= l[1] && l[1] >= l[2], "{l:?}");
        for (ours, theirs) in l.iter().zip(expected) {
            prop_assert!(
                (ours - theirs).abs() <= 1e-14 * norm,
                "{l:?} vs {expected:?}"
            );
        }
        Ok(())
    }

    fn rotation() -> impl Strategy<Value = Rotation3<f64>> {
        prop::array::uniform3(-4.0f64..4.0).prop_map(|r| Rotation3::new(Vector3::from(r)))
    }

    proptest! {
        /// Arbitrary symmetric matrices, eigenvalues as nalgebra's iterative
        /// solver finds them.
        #[test]
        fn decomposes_symmetric_matrices(e in prop::array::uniform6(-1e3f64..1e3)) {
            let a = Matrix3::new(e[0], e[3], e[4], e[3], e[1], e[5], e[4], e[5], e[2]);
            let mut theirs: Vec<f64> = SymmetricEigen::new(a).eigenvalues.iter().copied().collect();
            theirs.sort_by(|x, y| y.total_cmp(x));
            check(&a, [theirs[0], theirs[1], theirs[2]])?;
        }

        /// `R·diag(λ)·Rᵀ` with eigenvalues repeated, nearly repeated, zero or
        /// of very different magnitudes; the well separated eigenvectors are
        /// those of `R` (up to sign).
        #[test]
        fn recovers_planted_spectra(
            r in rotation(),
            base in -1e3f64..1e3,
            gaps in prop::array::uniform2(prop_oneof![Just(0.0), 1e-12f64..1e-9, 1e-3f64..1e3]),
            scale in prop_oneof![Just(1.0), Just(1e-200), Just(1e200)],
        ) {
            let l = [base + gaps[0] + gaps[1], base + gaps[1], base];
            let a = r.matrix() * Matrix3::from_diagonal(&l.into()) * r.matrix().transpose() * scale;
            check(&a, l.map(|x| x * scale))?;
            let (v, _) = eigen_sorted(&a);
            let spread = l[0].abs().max(l[2].abs()).max(1e-300);
            for (j, gap) in [(0, gaps[0]), (2, gaps[1])] {
                if gap > 1e-6 * spread {
                    let dot = v.column(j).dot(&r.matrix().column(j)).abs();
                    prop_assert!(dot > 1.0 - 1e-9, "column {j}: {dot}");
                }
            }
        }
    }

    /// The cubic's largest root agrees with the trigonometric formula to a few ulps on a dense grid of
    /// `[0, 1]` (ends included), and solves the cubic to round-off.
    #[test]
    fn top_root_is_the_trigonometric_root() {
        for k in 0..=100_000 {
            let s = f64::from(k) / 100_000.0;
            let (x, trig) = (top_root(s), 2.0 * (s.acos() / 3.0).cos());
            assert!(
                (x - trig).abs() <= 4.0 * f64::EPSILON * trig,
                "{s}: {x} {trig}"
            );
            assert!(
                (x * x * x - 3.0 * x - 2.0 * s).abs() <= 32.0 * f64::EPSILON,
                "{s}"
            );
        }
        assert!(top_root(f64::NAN).is_nan());
    }

    #[test]
    fn degenerate_inputs_give_the_identity() {
        for a in [
            Matrix3::zeros(),
            Matrix3::from_element(f64::NAN),
            Matrix3::from_element(f64::INFINITY),
        ] {
            assert_eq!(eigen_sorted(&a), (Matrix3::identity(), [0.0; 3]));
        }
        let (v, l) = eigen_sorted(&(Matrix3::identity() * 7.0));
        assert_eq!(l, [7.0; 3]);
        assert!((v.transpose() * v - Matrix3::identity()).norm() < 1e-15);
    }

    #[test]
    fn extreme_magnitudes_stay_finite() {
        for s in [1e300, f64::MIN_POSITIVE, 5e-324] {
            let a = Matrix3::new(1.0, 0.5, 0.0, 0.5, 1.0, 0.25, 0.0, 0.25, -1.0) * s;
            let (v, l) = eigen_sorted(&a);
            assert!(
                v.iter().chain(&l).all(|x| x.is_finite()),
                "{s:e}: {v} {l:?}"
            );
            assert!((v.transpose() * v - Matrix3::identity()).norm() < 1e-14);
        }
    }
}

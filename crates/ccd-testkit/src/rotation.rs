//! Uniformly distributed random rotations.

use nalgebra::{Quaternion, UnitQuaternion};

use crate::rng::SplitMix64;

/// A rotation drawn uniformly from SO(3) (Haar measure), by Shoemake's method.
///
/// With u₁, u₂, u₃ uniform in [0, 1), the quaternion
/// (√(1−u₁)·sin 2πu₂, √(1−u₁)·cos 2πu₂, √u₁·sin 2πu₃, √u₁·cos 2πu₃) is uniform on the unit 3-sphere, and unit
/// quaternions uniform on S³ give rotations uniform on SO(3). The result is renormalised to absorb rounding.
/// Consumes exactly three values of `rng`.
///
/// # Reference
/// K. Shoemake, "Uniform random rotations", Graphics Gems III (1992). Gottschalk 2000, §5.3.2 uses independent
/// uniform orientations per query.
pub fn random_rotation(rng: &mut SplitMix64) -> UnitQuaternion<f64> {
    let u1 = rng.next_f64();
    let u2 = rng.next_f64();
    let u3 = rng.next_f64();
    let tau = std::f64::consts::TAU;
    let (s1, c1) = ((1.0 - u1).sqrt(), u1.sqrt());
    let (sin2, cos2) = (tau * u2).sin_cos();
    let (sin3, cos3) = (tau * u3).sin_cos();
    // Quaternion::new takes (w, i, j, k).
    UnitQuaternion::from_quaternion(Quaternion::new(c1 * cos3, s1 * sin2, s1 * cos2, c1 * sin3))
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::Vector3;

    #[test]
    fn rotations_are_unit_and_orthonormal() {
        let mut rng = SplitMix64::new(3);
        for _ in 0..1000 {
            let q = random_rotation(&mut rng);
            assert!((q.norm() - 1.0).abs() < 1e-14);
            let m = q.to_rotation_matrix().into_inner();
            assert!((m.transpose() * m - nalgebra::Matrix3::identity()).norm() < 1e-13);
            assert!((m.determinant() - 1.0).abs() < 1e-13);
        }
    }

    #[test]
    fn rotated_axes_are_roughly_uniform() {
        // For a uniform rotation R, R·x is uniform on the unit sphere: mean 0, E[(R·x)_i²] = 1/3.
        let mut rng = SplitMix64::new(11);
        let n = 40_000;
        let mut mean = Vector3::zeros();
        let mut second = Vector3::zeros();
        for _ in 0..n {
            let v = random_rotation(&mut rng) * Vector3::x();
            mean += v;
            second += v.component_mul(&v);
        }
        mean /= f64::from(n);
        second /= f64::from(n);
        // Standard error of each mean component is sqrt(1/3 / n) ≈ 0.003.
        assert!(mean.norm() < 0.02, "mean {mean}");
        for i in 0..3 {
            assert!(
                (second[i] - 1.0 / 3.0).abs() < 0.01,
                "second moment {second}"
            );
        }
    }

    #[test]
    fn rotation_angle_distribution_matches_haar() {
        // Under the Haar measure the rotation angle θ has density (1 − cos θ)/π on [0, π], so P(θ < π/2) = 1/2 − 1/π.
        let mut rng = SplitMix64::new(5);
        let n = 40_000;
        let below = (0..n)
            .filter(|_| random_rotation(&mut rng).angle() < std::f64::consts::FRAC_PI_2)
            .count();
        let p = below as f64 / f64::from(n);
        let expected = 0.5 - 1.0 / std::f64::consts::PI;
        assert!((p - expected).abs() < 0.01, "p {p} expected {expected}");
    }
}

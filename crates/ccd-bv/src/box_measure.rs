//! Size measures of a box from its half-widths, shared by [`Aabb`](crate::Aabb) and [`Obb`](crate::Obb): the
//! measures do not depend on the box's orientation, so both volumes answer the
//! [`BoundingVolume`](crate::BoundingVolume) size methods from these.

use nalgebra::Vector3;

use crate::Real;

/// `2·‖half‖`, the length of the box's diagonal.
pub(crate) fn diameter<T: Real>(half: &[T; 3]) -> T {
    Vector3::from(*half).norm() * T::lit(2.0)
}

/// `4·s` with `s = (h₀² + h₁²) + h₂²`, summed as nalgebra's `norm` sums it: the [`diameter`] is `2·fl(√s)`, whose
/// square is within a relative `ε` of `4s`.
#[inline]
pub(crate) fn diameter_squared<T: Real>(half: &[T; 3]) -> T {
    let [x, y, z] = *half;
    T::lit(4.0) * (x * x + y * y + z * z)
}

/// `8·(h₀h₁ + h₁h₂ + h₂h₀)`, the surface area.
pub(crate) fn area<T: Real>(half: &[T; 3]) -> T {
    let [x, y, z] = *half;
    T::lit(8.0) * (x * y + y * z + z * x)
}

/// `8·h₀h₁h₂`, the volume.
pub(crate) fn volume<T: Real>(half: &[T; 3]) -> T {
    let [x, y, z] = *half;
    T::lit(8.0) * x * y * z
}

/// `2·min_i half_i`, the smallest width.
pub(crate) fn thickness<T: Real>(half: &[T; 3]) -> T {
    let [x, y, z] = *half;
    T::lit(2.0) * x.min(y).min(z)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each measure against its definition on boxes with exactly representable sizes (products of small powers
    /// of two, so every formula is exact and order-independent).
    #[test]
    fn measures_match_their_definitions() {
        for half in [[0.5, 1.0, 2.0], [0.0, 0.25, 4.0], [3.0, 3.0, 3.0]] {
            let [x, y, z]: [f64; 3] = half;
            let widths = [2.0 * x, 2.0 * y, 2.0 * z];
            assert_eq!(volume(&half), widths.iter().product::<f64>());
            let faces = widths[0] * widths[1] + widths[1] * widths[2] + widths[2] * widths[0];
            assert_eq!(area(&half), 2.0 * faces);
            assert_eq!(
                thickness(&half),
                widths.iter().copied().fold(f64::INFINITY, f64::min)
            );
            let d2: f64 = widths.iter().map(|w| w * w).sum();
            assert_eq!(diameter_squared(&half), d2);
            assert!((diameter(&half) - d2.sqrt()).abs() <= 2.0 * f64::EPSILON * d2.sqrt());
        }
    }
}

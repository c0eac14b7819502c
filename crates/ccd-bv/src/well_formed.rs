//! The check behind [`BoundingVolume::is_well_formed`](crate::BoundingVolume::is_well_formed), shared by every
//! volume type.

use crate::{BoundingVolume, Real};

/// Whether every number of `params` is finite and every one of `sizes` is at least zero (false for NaN).
///
/// The passes are and-ed as integers rather than combined as `bool`s or counted: an integer `&` is
/// associative, so the compiler evaluates the comparisons several per vector instruction and tests the lanes
/// once at the end, where a fold of `bool`s was reduced one byte at a time and a count of the passes became a
/// bit count in software (baseline x86-64 has no `popcnt`); archive validation checks every node of a file
/// with it.
#[inline(always)]
pub(crate) fn well_formed<T: Real>(params: &[T], sizes: &[T]) -> bool {
    let finite = params.iter().fold(1u32, |a, x| a & u32::from(x.finite()));
    let sized = sizes
        .iter()
        .fold(1u32, |a, s| a & u32::from(*s >= T::zero()));
    finite & sized == 1
}

/// How many times the largest supported coordinate ([`Limits::length_max`](crate::Limits::length_max)) a number
/// of a volume read from a file may reach in magnitude ([`within_supported_magnitude`]).
///
/// Every fit of vertices within the supported range stays below it: a centre coordinate is a combination of
/// the vertices' projections on orthonormal axes (at most `3·length_max`), a half-extent or radius at most
/// half a diameter (`√3·length_max`), each with pads of a few ulps; axes are unit vectors.
pub const VOLUME_MAGNITUDE_FACTOR: f64 = 4.0;

/// Whether every number of `bv` (centre, axes, half-extents, radius) is finite and of magnitude at most
/// [`VOLUME_MAGNITUDE_FACTOR`] times the largest supported coordinate of `T`: `2¹³⁰` for `f64`, `2⁴²` for
/// `f32`. False for NaN and infinities.
///
/// What archive validation requires of every volume besides
/// [`is_well_formed`](crate::BoundingVolume::is_well_formed) (which fits far outside the supported range also
/// meet): within this bound no containment test of a supported vertex overflows, as it squares differences of
/// at most `5·length_max`, so a volume edited to lie absurdly far from its triangles cannot pass such a test by
/// an infinite distance compared with an infinite reach. Branch-free, like the well-formedness check.
#[inline(always)]
pub fn within_supported_magnitude<T: Real, B: BoundingVolume<T>>(bv: &B) -> bool {
    let most = T::lit(VOLUME_MAGNITUDE_FACTOR * T::LIMITS.length_max);
    let numbers: &[T] = bytemuck::cast_slice(std::slice::from_ref(bv));
    // `|x| ≤ most` is false for NaN and infinities.
    numbers
        .iter()
        .fold(1u32, |a, x| a & u32::from(x.abs() <= most))
        == 1
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Obb, Rss, Sphere};

    /// Accepts every number up to the bound (in any position of a volume), refuses a NaN, an infinity or the
    /// next larger magnitude in any position, in `f64` and `f32`.
    #[test]
    fn magnitudes_are_bounded_in_every_position() {
        fn each<T: Real>() {
            let most = T::lit(VOLUME_MAGNITUDE_FACTOR * T::LIMITS.length_max);
            let past = most + most * T::EPSILON;
            let obb = Obb {
                center: [most, -most, T::zero()],
                half: [most, T::lit(0.5), T::zero()],
                rot: [
                    [T::one(), T::zero(), T::zero()],
                    [T::zero(), T::one(), T::zero()],
                    [T::zero(), T::zero(), T::one()],
                ],
            };
            assert!(within_supported_magnitude(&obb));
            let n = size_of::<Obb<T>>() / size_of::<T>();
            for bad in [past, -past, T::lit(f64::NAN), T::lit(f64::INFINITY)] {
                for k in 0..n {
                    let mut b = obb;
                    bytemuck::cast_slice_mut::<Obb<T>, T>(std::slice::from_mut(&mut b))[k] = bad;
                    assert!(!within_supported_magnitude(&b), "{} {k}", T::NAME);
                }
            }
            let sphere = Sphere {
                center: [T::one(); 3],
                radius: past,
            };
            assert!(!within_supported_magnitude(&sphere));
            let rss = Rss {
                center: [-past, T::zero(), T::zero()],
                half: [T::one(); 2],
                radius: T::one(),
                rot: obb.rot,
            };
            assert!(!within_supported_magnitude(&rss));
        }
        each::<f64>();
        each::<f32>();
    }

    /// Refuses a NaN, an infinity or a negative size in any position, accepts zero sizes and any finite value.
    #[test]
    fn refuses_each_bad_number_wherever_it_is() {
        let good = [1.0, -2.5, 0.0, 1e300, -1e-300];
        assert!(well_formed(&good, &[0.0, 3.0]));
        for bad in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
            for k in 0..good.len() {
                let mut p = good;
                p[k] = bad;
                assert!(!well_formed(&p, &[1.0]), "{bad} at {k}");
            }
            // An infinite size is not finite, but only `params` must be: sizes are checked for sign.
            assert_eq!(well_formed(&good, &[1.0, bad]), bad == f64::INFINITY);
        }
        assert!(!well_formed(&good, &[1.0, -1e-300]));
        assert!(!well_formed(&good, &[f64::NAN]));
        assert!(!well_formed::<f32>(&[f32::NAN], &[]));
        assert!(well_formed::<f32>(&[f32::MAX, f32::MIN], &[0.0]));
    }
}

//! The check behind [`BoundingVolume::is_well_formed`](crate::BoundingVolume::is_well_formed), shared by every
//! volume type.

use crate::Real;

/// Whether every number of `params` has magnitude at most `most` (so is finite, and not NaN) and every one of
/// `sizes` is at least zero (false for NaN).
///
/// The passes are and-ed as integers rather than combined as `bool`s or counted: an integer `&` is
/// associative, so the compiler evaluates the comparisons several per vector instruction and tests the lanes
/// once at the end, where a fold of `bool`s was reduced one byte at a time and a count of the passes became a
/// bit count in software (baseline x86-64 has no `popcnt`); archive validation checks every node of a file
/// with it, one comparison per number for both the finiteness and the magnitude.
#[inline(always)]
pub(crate) fn well_formed<T: Real>(params: &[T], sizes: &[T], most: T) -> bool {
    let bounded = params
        .iter()
        .fold(1u32, |a, x| a & u32::from(x.abs() <= most));
    let sized = sizes
        .iter()
        .fold(1u32, |a, s| a & u32::from(*s >= T::zero()));
    bounded & sized == 1
}

/// How many times the largest supported coordinate ([`Limits::length_max`](crate::Limits::length_max)) a number
/// of a volume read from a file may reach in magnitude ([`supported_magnitude`]).
///
/// Every fit of vertices within the supported range stays below it: a centre coordinate is a combination of
/// the vertices' projections on orthonormal axes (at most `3·length_max`), a half-extent or radius at most
/// half a diameter (`√3·length_max`), each with pads of a few ulps; axes are unit vectors.
pub const VOLUME_MAGNITUDE_FACTOR: f64 = 4.0;

/// The largest magnitude of a number of a volume read from a file: [`VOLUME_MAGNITUDE_FACTOR`] times the largest
/// supported coordinate of `T`, `2¹³⁰` for `f64` and `2⁴²` for `f32`. Archive validation requires
/// [`is_well_formed_within`](crate::BoundingVolume::is_well_formed_within) this bound of every volume: within
/// it no containment test of a supported vertex overflows, as it squares differences of at most
/// `5·length_max`, so a volume edited to lie absurdly far from its triangles cannot pass such a test by an
/// infinite distance compared with an infinite reach.
pub fn supported_magnitude<T: Real>() -> T {
    T::lit(VOLUME_MAGNITUDE_FACTOR * T::LIMITS.length_max)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{BoundingVolume, Obb, Rss, Sphere};

    /// Refuses a NaN, an infinity, a magnitude past the bound or a negative size in any position, accepts
    /// zero sizes and any value up to the bound.
    #[test]
    fn refuses_each_bad_number_wherever_it_is() {
        let most = 1e300;
        let good = [1.0, -2.5, 0.0, most, -most, -1e-300];
        assert!(well_formed(&good, &[0.0, 3.0], most));
        for bad in [
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
            1.0000001e300,
            -f64::MAX,
        ] {
            for k in 0..good.len() {
                let mut p = good;
                p[k] = bad;
                assert!(!well_formed(&p, &[1.0], most), "{bad} at {k}");
            }
            // Sizes are checked for sign only (they are among the parameters as well).
            assert_eq!(well_formed(&good, &[1.0, bad], most), bad > 0.0);
        }
        assert!(!well_formed(&good, &[1.0, -1e-300], most));
        assert!(!well_formed(&good, &[f64::NAN], most));
        assert!(!well_formed::<f32>(&[f32::NAN], &[], f32::MAX));
        assert!(well_formed::<f32>(&[f32::MAX, f32::MIN], &[0.0], f32::MAX));
    }

    /// Within the supported magnitude every number up to the bound passes in any position of a volume, and a
    /// NaN, an infinity or the next larger magnitude fails in any position, in `f64` and `f32`; plain
    /// well-formedness accepts any finite number.
    #[test]
    fn magnitudes_are_bounded_in_every_position() {
        fn each<T: Real>() {
            let most = supported_magnitude::<T>();
            let past = most + most * T::EPSILON;
            let (o, l) = (T::zero(), T::one());
            let obb = Obb {
                center: [most, -most, o],
                half: [most, T::lit(0.5), o],
                rot: [[l, o, o], [o, l, o], [o, o, l]],
            };
            assert!(obb.is_well_formed_within(most));
            let n = size_of::<Obb<T>>() / size_of::<T>();
            for bad in [past, -past, T::lit(f64::NAN), T::lit(f64::INFINITY)] {
                for k in 0..n {
                    let mut b = obb;
                    bytemuck::cast_slice_mut::<Obb<T>, T>(std::slice::from_mut(&mut b))[k] = bad;
                    assert!(!b.is_well_formed_within(most), "{} {k}", T::NAME);
                    // The half-extents (numbers 12 to 14 of the OBB) must not be negative either.
                    let size = (12..15).contains(&k);
                    let expected = bad.finite() && !(size && bad < o);
                    assert_eq!(b.is_well_formed(), expected, "{} {k}", T::NAME);
                }
            }
            let sphere = Sphere {
                center: [l; 3],
                radius: past,
            };
            assert!(!sphere.is_well_formed_within(most) && sphere.is_well_formed());
            let rss = Rss {
                center: [-past, o, o],
                half: [l; 2],
                radius: l,
                rot: obb.rot,
            };
            assert!(!rss.is_well_formed_within(most) && rss.is_well_formed());
        }
        each::<f64>();
        each::<f32>();
    }
}

//! The check behind [`BoundingVolume::is_well_formed`](crate::BoundingVolume::is_well_formed), shared by every
//! volume type.

use crate::Real;

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

#[cfg(test)]
mod tests {
    use super::*;

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

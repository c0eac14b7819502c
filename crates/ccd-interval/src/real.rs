//! The scalar trait shared by every ccd crate.

use std::fmt::{Debug, Display};

use nalgebra::RealField;
use num_traits::{FromPrimitive, ToPrimitive};

use crate::limits::Limits;

/// A floating-point scalar: `f32` or `f64`.
///
/// It is `nalgebra::RealField` (so all geometry is plain nalgebra) plus the few
/// extras ccd needs: literal conversion, exact widening to `f64`, one-ulp steps
/// for outward rounding, and the unsigned integer of the same width used as the
/// link field of archived tree nodes (so nodes carry no padding).
///
/// `num_traits::Float` is deliberately not a supertrait: it re-declares most of
/// `RealField`'s methods (`abs`, `sqrt`, …), which would make every method call
/// on a generic scalar ambiguous.
pub trait Real:
    RealField
    + Copy
    + Default
    + Debug
    + Display
    + FromPrimitive
    + ToPrimitive
    + bytemuck::Pod
    + Send
    + Sync
    + 'static
{
    /// Unsigned integer with the size and alignment of `Self` (`u32` for `f32`,
    /// `u64` for `f64`).
    type Bits: bytemuck::Pod + Copy + Eq + Debug + Send + Sync + Into<u64> + TryFrom<u64>;

    /// Name written in file headers and reports (`"f32"` / `"f64"`).
    const NAME: &'static str;

    /// Machine epsilon of the type (distance from 1 to the next float).
    const EPSILON: Self;

    /// The default guard added to every |R_ij| in the OBB separating-axis test
    /// (Gottschalk §4.5): 1e-6 for `f64`, 1e-5 for `f32`, whose rotation entries
    /// carry about 1e-7 of round-off each.
    const SAT_GUARD: Self;

    /// The supported range of inputs of this type ([`Limits::F32`] / [`Limits::F64`]).
    const LIMITS: Limits;

    /// Converts an `f64` literal (rounded to nearest for `f32`).
    fn lit(x: f64) -> Self;

    /// Widens to `f64` (exact for both `f32` and `f64`).
    fn to_f64_exact(self) -> f64;

    /// The least representable value greater than `self` (IEEE `nextUp`).
    fn step_up(self) -> Self;

    /// The greatest representable value less than `self` (IEEE `nextDown`).
    fn step_down(self) -> Self;

    /// `true` unless the value is NaN or infinite.
    fn finite(self) -> bool;
}

macro_rules! impl_real {
    ($t:ty, $bits:ty, $name:literal, $guard:expr, $limits:expr) => {
        impl Real for $t {
            type Bits = $bits;
            const NAME: &'static str = $name;
            const EPSILON: Self = <$t>::EPSILON;
            const SAT_GUARD: Self = $guard;
            const LIMITS: Limits = $limits;

            #[inline(always)]
            fn lit(x: f64) -> Self {
                x as $t
            }

            #[inline(always)]
            fn to_f64_exact(self) -> f64 {
                self as f64
            }

            #[inline(always)]
            fn step_up(self) -> Self {
                <$t>::next_up(self)
            }

            #[inline(always)]
            fn step_down(self) -> Self {
                <$t>::next_down(self)
            }

            #[inline(always)]
            fn finite(self) -> bool {
                <$t>::is_finite(self)
            }
        }
    };
}

impl_real!(f32, u32, "f32", 1e-5, Limits::F32);
impl_real!(f64, u64, "f64", 1e-6, Limits::F64);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bits_match_scalar_layout() {
        assert_eq!(size_of::<<f32 as Real>::Bits>(), size_of::<f32>());
        assert_eq!(align_of::<<f64 as Real>::Bits>(), align_of::<f64>());
        assert_eq!(size_of::<<f64 as Real>::Bits>(), size_of::<f64>());
    }

    #[test]
    fn steps_are_one_ulp() {
        assert!(1.0f64.step_up() > 1.0 && 1.0f64.step_down() < 1.0);
        assert_eq!(1.0f32.step_up(), 1.0 + f32::EPSILON);
        assert!(!f64::NAN.finite() && 0.0f32.finite());
    }
}

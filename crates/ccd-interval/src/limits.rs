//! The supported range of every numeric input, per scalar type, and the typed error that names a value outside it.
//!
//! # Why there is a range
//! Every guarantee of ccd (exact contact sets, conservative volume tests, certified times of impact) is derived
//! from IEEE rounding error bounds of the form `|fl(x ∘ y) − x ∘ y| ≤ ε·|x ∘ y|`. Those bounds fail when a
//! product overflows (it becomes infinite) or underflows (its relative error becomes unbounded). The volume tests
//! form products of up to three lengths, squared norms of cross products (four lengths) and sums of such terms;
//! the exact orientation predicates form products of three coordinate differences with error terms about 2¹⁰⁶
//! times smaller. So lengths are kept inside a band of magnitudes whose fourth powers, and whose smallest
//! differences cubed, stay comfortably inside the normal range:
//!
//! | | `f64` | `f32` |
//! |---|---|---|
//! | mesh coordinate, translation, displacement, `min_separation`, error bounds: magnitude at most | 2¹²⁸ ≈ 3.4e38 | 2⁴⁰ ≈ 1.1e12 |
//! | mesh coordinate, when not zero: magnitude at least | 2⁻²⁰⁰ ≈ 6.2e-61 | 2⁻¹⁰⁰ ≈ 7.9e-31 |
//! | a mesh's scale (its largest coordinate magnitude): at least | 2⁻¹²⁸ ≈ 2.9e-39 | 2⁻⁴⁰ ≈ 9.1e-13 |
//! | total rotation of a motion over `t ∈ [0, 1]` (radians) | 4096 | 1024 |
//! | deviation of a unit quaternion or axis from norm 1 | 2⁻²⁰ ≈ 9.5e-7 | 2⁻¹⁶ ≈ 1.5e-5 |
//! | times (`t_max`, tolerances in normalised time) | `[0, 1]` | `[0, 1]` |
//!
//! For `f64` the highest power formed, the fourth, stays below 2⁵¹², and the cube of the smallest non-zero
//! difference of two supported coordinates (2⁻²⁵²) stays above 2⁻⁷⁵⁶, with the exact predicates' error terms
//! (2¹⁰⁶ times smaller) still normal; measured, whole scenes scaled by 2ᵏ first lose contacts at
//! k ≤ −360 (underflow) and k ≥ 210 (sphere trees, overflow), so the band keeps a margin of 2⁸² on both sides.
//! For `f32` volumes are tested in `f32` itself: cubes of 2⁴⁰ times small constants stay below 2¹²⁸ and squares
//! of a mesh's scale, at least 2⁻⁴⁰, above the smallest normal 2⁻¹²⁶ (scaled scenes first fail at 2⁻⁷⁴ and
//! 2¹²⁸). Single coordinates may be much smaller than the scale (meshes converted from `f64` carry values such as
//! `cos(π/2) ≈ 6e-17`): the exact predicates run in `f64` on `f32` inputs, where no product of three differences of
//! `f32` values can underflow, and a volume's rounding allowance is relative to the scale of its own node; only
//! subnormal-range values (below 2⁻¹⁰⁰) are refused.
//!
//! Translations, displacements and separations have no lower limit: a pose's translation enters as a sum with
//! coordinates of the mesh's scale (a relative pose, the difference of two poses, can be arbitrarily small in any
//! case), so a tiny one adds no product that could underflow beyond what the mesh's own coordinates allow.
//!
//! The angle limit keeps motions whose rotation turns a body about four thousand times per query (f32: a
//! thousand) answerable within a work budget; it is not needed for finiteness. Quaternions and axes within the
//! unit tolerance are normalised where a pose enters a query; beyond it the input is refused rather than
//! reinterpreted (a quaternion of norm 0.1 is a bug, not a rotation).

use std::fmt;

use nalgebra::{Isometry3, UnitQuaternion, Vector3};

use crate::Real;

/// The supported magnitudes for one scalar type (see the [module](self) for the table and the reasons).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Limits {
    /// Largest magnitude of a length: a coordinate, a translation component, a displacement, a separation.
    pub length_max: f64,
    /// Smallest magnitude of a length that is not zero.
    pub length_min: f64,
    /// Smallest scale (largest coordinate magnitude) of a mesh.
    pub scale_min: f64,
    /// Largest total rotation angle of a motion over normalised time `[0, 1]`, in radians.
    pub angle_max: f64,
    /// Largest `|‖q‖ − 1|` of a quaternion or axis that stands for a unit one.
    pub unit_tolerance: f64,
}

impl Limits {
    /// The limits of `f64` inputs.
    pub const F64: Self = Self {
        length_max: 3.402_823_669_209_385e38,  // 2^128
        length_min: 6.223_015_277_861_142e-61, // 2^-200
        scale_min: 2.938_735_877_055_719e-39,  // 2^-128
        angle_max: 4096.0,
        unit_tolerance: 9.536_743_164_062_5e-7, // 2^-20
    };

    /// The limits of `f32` inputs.
    pub const F32: Self = Self {
        length_max: 1_099_511_627_776.0,       // 2^40
        length_min: 7.888_609_052_210_118e-31, // 2^-100
        scale_min: 9.094_947_017_729_282e-13,  // 2^-40
        angle_max: 1024.0,
        unit_tolerance: 1.525_878_906_25e-5, // 2^-16
    };
}

/// The rule a refused value broke.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Rule {
    /// The value must be finite (not NaN, not infinite).
    Finite,
    /// A length: zero, or a magnitude in `[min, max]`.
    Length {
        /// Smallest non-zero magnitude.
        min: f64,
        /// Largest magnitude.
        max: f64,
    },
    /// A value in the closed interval `[lo, hi]`.
    Within {
        /// Lower end.
        lo: f64,
        /// Upper end.
        hi: f64,
    },
    /// A norm within `tolerance` of 1.
    UnitNorm {
        /// Largest allowed `|norm − 1|`.
        tolerance: f64,
    },
    /// A count of at least `min`.
    AtLeast {
        /// Smallest allowed value.
        min: f64,
    },
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Rule::Finite => write!(f, "it must be finite"),
            Rule::Length { min, max } => write!(
                f,
                "a length must be 0 or have a magnitude in [{}, {}]",
                Shown(min),
                Shown(max)
            ),
            Rule::Within { lo, hi } => write!(f, "it must lie in [{}, {}]", Shown(lo), Shown(hi)),
            Rule::UnitNorm { tolerance } => write!(
                f,
                "a unit quaternion or axis must have norm 1 ± {}",
                Shown(tolerance)
            ),
            Rule::AtLeast { min } => write!(f, "it must be at least {}", Shown(min)),
        }
    }
}

/// A number as a message shows it: the shortest decimal that reads back as the same `f64`, positional between
/// 1e-4 and 1e6 (`4096`, `0.5`, `2`), in scientific notation outside (`1e300`, `3.402823669209385e38`), so that
/// neither a limit nor a refused value is printed as forty digits.
struct Shown(f64);

impl fmt::Display for Shown {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if positional(self.0) {
            write!(f, "{}", self.0)
        } else {
            write!(f, "{:e}", self.0)
        }
    }
}

/// Whether [`Shown`] writes `x` without an exponent.
fn positional(x: f64) -> bool {
    let a = x.abs();
    a == 0.0 || !a.is_finite() || (1e-4..1e6).contains(&a)
}

/// A refused value as its message shows it: as [`Shown`], but an `f32` value (widened exactly to `f64`) as the
/// shortest decimal that reads back as the same `f32` (`1e30`, not `1.0000000150474662e30`).
struct ShownValue {
    value: f64,
    scalar: &'static str,
}

impl fmt::Display for ShownValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let narrow = self.value as f32;
        // NaN fails the comparison, so it is shown as the f64 it is.
        if self.scalar != "f32" || f64::from(narrow) != self.value {
            Shown(self.value).fmt(f)
        } else if positional(self.value) {
            write!(f, "{narrow}")
        } else {
            write!(f, "{narrow:e}")
        }
    }
}

/// An input outside the supported range: names the input, its value and the limit.
///
/// ```
/// use ccd_interval::limits::check_length;
/// let e = check_length(1e300_f64, || "vertex 3 coordinate x".into()).unwrap_err();
/// assert_eq!(
///     e.to_string(),
///     "vertex 3 coordinate x = 1e300 is out of the supported range for f64: \
///      a length must be 0 or have a magnitude in [6.223015277861142e-61, 3.402823669209385e38]"
/// );
/// ```
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("{what} = {} is out of the supported range for {scalar}: {rule}", ShownValue { value: *value, scalar })]
pub struct RangeError {
    /// What the value is (e.g. "vertex 12 coordinate y", "pose of model b translation x").
    pub what: String,
    /// The refused value, widened to `f64`.
    pub value: f64,
    /// The rule it broke.
    pub rule: Rule,
    /// The scalar type the limit belongs to (`"f32"` / `"f64"`).
    pub scalar: &'static str,
}

impl RangeError {
    /// The same error with `context` put before the value's name (e.g. "motion of model b" + "angle").
    pub fn within(mut self, context: &str) -> Self {
        self.what = format!("{context}: {}", self.what);
        self
    }
}

fn refuse<T: Real>(value: f64, rule: Rule, what: impl FnOnce() -> String) -> RangeError {
    RangeError {
        what: what(),
        value,
        rule,
        scalar: T::NAME,
    }
}

/// Checks a length (coordinate, translation component, displacement, separation): finite, and zero or of a
/// magnitude within [`Limits::length_min`, `Limits::length_max`] of `T`.
///
/// # Errors
/// [`RangeError`] naming `what()` otherwise.
#[inline]
pub fn check_length<T: Real>(x: T, what: impl FnOnce() -> String) -> Result<(), RangeError> {
    let v = x.to_f64_exact();
    let (lo, hi) = (T::LIMITS.length_min, T::LIMITS.length_max);
    let a = v.abs();
    if a <= hi && (a >= lo || a == 0.0) {
        return Ok(());
    }
    let rule = if v.is_finite() {
        Rule::Length { min: lo, max: hi }
    } else {
        Rule::Finite
    };
    Err(refuse::<T>(v, rule, what))
}

/// Checks a magnitude (a translation component, a displacement, a separation, an error bound): finite and at most
/// [`Limits::length_max`] of `T`; any small value, zero included, is fine (see the module docs).
///
/// # Errors
/// [`RangeError`] naming `what()` otherwise.
#[inline]
pub fn check_magnitude<T: Real>(x: T, what: impl FnOnce() -> String) -> Result<(), RangeError> {
    let hi = T::LIMITS.length_max;
    check_within(x, -hi, hi, what)
}

/// Checks a non-negative magnitude (a separation, a tolerance, an error bound): as [`check_magnitude`], and not
/// negative.
///
/// # Errors
/// [`RangeError`] naming `what()` otherwise.
pub fn check_nonnegative_length<T: Real>(
    x: T,
    what: impl FnOnce() -> String,
) -> Result<(), RangeError> {
    let hi = T::LIMITS.length_max;
    check_within(x, 0.0, hi, what)
}

/// Checks that `x` is finite and lies in `[lo, hi]`.
///
/// # Errors
/// [`RangeError`] naming `what()` otherwise.
pub fn check_within<T: Real>(
    x: T,
    lo: f64,
    hi: f64,
    what: impl FnOnce() -> String,
) -> Result<(), RangeError> {
    let v = x.to_f64_exact();
    if v >= lo && v <= hi {
        return Ok(());
    }
    let rule = if v.is_finite() {
        Rule::Within { lo, hi }
    } else {
        Rule::Finite
    };
    Err(refuse::<T>(v, rule, what))
}

/// Checks a rotation angle against [`Limits::angle_max`] of `T` (either sign).
///
/// # Errors
/// [`RangeError`] naming `what()` otherwise.
pub fn check_angle<T: Real>(x: T, what: impl FnOnce() -> String) -> Result<(), RangeError> {
    let m = T::LIMITS.angle_max;
    check_within(x, -m, m, what)
}

/// Checks that the norm of the components `c` (a quaternion or an axis) is within
/// [`Limits::unit_tolerance`] of 1.
///
/// # Errors
/// [`RangeError`] naming `what()`, with the norm as the value, otherwise.
pub fn check_unit<T: Real>(c: &[T], what: impl FnOnce() -> String) -> Result<(), RangeError> {
    // The norm in f64 of values widened exactly: no overflow for any f32, and for f64 the components of a
    // would-be unit vector are small; a huge component gives an infinite norm, which is refused.
    let norm = c
        .iter()
        .map(|x| {
            let v = x.to_f64_exact();
            v * v
        })
        .sum::<f64>()
        .sqrt();
    let tolerance = T::LIMITS.unit_tolerance;
    if (norm - 1.0).abs() <= tolerance {
        return Ok(());
    }
    let rule = if c.iter().all(|x| x.finite()) {
        Rule::UnitNorm { tolerance }
    } else {
        Rule::Finite
    };
    Err(refuse::<T>(norm, rule, what))
}

/// Checks a rigid pose (model → world): every translation component a supported magnitude ([`check_magnitude`]),
/// the rotation quaternion unit within [`Limits::unit_tolerance`].
///
/// # Errors
/// [`RangeError`] naming `"translation x"` … or `"rotation quaternion norm"`.
pub fn check_isometry<T: Real>(pose: &Isometry3<T>) -> Result<(), RangeError> {
    check_vector(&pose.translation.vector, "translation")?;
    check_unit(pose.rotation.coords.as_slice(), || {
        "rotation quaternion norm".into()
    })
}

/// `q` renormalised when its norm has drifted from 1 by more than its own rounding (products of unit
/// quaternions, quaternions at the edge of the unit tolerance); returned unchanged, bit for bit, otherwise, so
/// ordinary inputs compute exactly what they did without it.
pub fn renormalized<T: Real>(q: UnitQuaternion<T>) -> UnitQuaternion<T> {
    let n2 = q.into_inner().norm_squared();
    if (n2 - T::one()).abs() <= T::EPSILON * T::lit(8.0) {
        q
    } else {
        UnitQuaternion::new_normalize(q.into_inner())
    }
}

/// Checks a vector of magnitudes (a translation, a displacement, a point) component by component
/// ([`check_magnitude`]).
///
/// # Errors
/// [`RangeError`] naming `"{name} x"` … otherwise.
pub fn check_vector<T: Real>(v: &Vector3<T>, name: &str) -> Result<(), RangeError> {
    for (k, axis) in ["x", "y", "z"].iter().enumerate() {
        check_magnitude(v[k], || format!("{name} {axis}"))?;
    }
    Ok(())
}

/// Checks a derived length (a relative translation, a difference of two supported lengths): finite and of a
/// magnitude at most `4·length_max`; any small value, zero included, is fine (differences of supported values are
/// multiples of their ulps, far above the underflow threshold, or exactly zero).
///
/// # Errors
/// [`RangeError`] naming `what()` otherwise.
pub fn check_derived_length<T: Real>(
    x: T,
    what: impl FnOnce() -> String,
) -> Result<(), RangeError> {
    let hi = 4.0 * T::LIMITS.length_max;
    check_within(x, -hi, hi, what)
}

/// Checks a mesh's scale, its largest coordinate magnitude, against [`Limits::scale_min`] of `T`.
///
/// # Errors
/// [`RangeError`] naming `what()` otherwise.
pub fn check_scale<T: Real>(scale: T, what: impl FnOnce() -> String) -> Result<(), RangeError> {
    let (lo, hi) = (T::LIMITS.scale_min, T::LIMITS.length_max);
    check_within(scale, lo, hi, what)
}

/// Checks a count (iterations, budgets) is at least `min`.
///
/// # Errors
/// [`RangeError`] naming `what()` otherwise.
pub fn check_count<T: Real>(
    n: u64,
    min: u64,
    what: impl FnOnce() -> String,
) -> Result<(), RangeError> {
    if n >= min {
        return Ok(());
    }
    Err(refuse::<T>(
        n as f64,
        Rule::AtLeast { min: min as f64 },
        what,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_are_the_stated_powers_of_two() {
        assert_eq!(Limits::F64.length_max, 2f64.powi(128));
        assert_eq!(Limits::F64.length_min, 2f64.powi(-200));
        assert_eq!(Limits::F64.unit_tolerance, 2f64.powi(-20));
        assert_eq!(Limits::F32.length_max, 2f64.powi(40));
        assert_eq!(Limits::F32.length_min, 2f64.powi(-100));
        assert_eq!(Limits::F32.scale_min, 2f64.powi(-40));
        assert_eq!(Limits::F64.scale_min, 2f64.powi(-128));
        assert_eq!(Limits::F32.unit_tolerance, 2f64.powi(-16));
        // Every f32 limit is an f32 value, so f32 inputs compare against it exactly.
        for x in [
            Limits::F32.length_max,
            Limits::F32.length_min,
            Limits::F32.scale_min,
        ] {
            assert_eq!(f64::from(x as f32), x);
        }
    }

    #[test]
    fn lengths_at_the_limits_pass_and_beyond_them_fail() {
        let l = Limits::F64;
        for x in [
            0.0,
            -0.0,
            l.length_max,
            -l.length_max,
            l.length_min,
            -l.length_min,
            1.0,
        ] {
            assert!(check_length(x, || "x".into()).is_ok(), "{x}");
        }
        let beyond = [
            l.length_max.next_up(),
            -l.length_max.next_up(),
            l.length_min.next_down(),
            f64::MIN_POSITIVE,
            1e300,
        ];
        for x in beyond {
            let e = check_length(x, || "x".into()).unwrap_err();
            assert!(matches!(e.rule, Rule::Length { .. }), "{x}");
            assert_eq!(e.value, x);
        }
        for x in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
            assert_eq!(
                check_length(x, || "x".into()).unwrap_err().rule,
                Rule::Finite
            );
        }
        let f = Limits::F32;
        assert!(check_length(f.length_max as f32, || "x".into()).is_ok());
        assert!(check_length((f.length_max as f32).next_up(), || "x".into()).is_err());
        assert!(check_length(1e-20_f32, || "x".into()).is_ok());
        assert!(check_length(1e-31_f32, || "x".into()).is_err());
        assert!(check_length(f32::MAX, || "x".into()).is_err());
    }

    #[test]
    fn units_angles_counts_and_intervals() {
        assert!(check_unit(&[1.0_f64, 0.0, 0.0, 0.0], || "q".into()).is_ok());
        let e = check_unit(&[0.1_f64, 0.0, 0.0, 0.0], || "q".into()).unwrap_err();
        assert!((e.value - 0.1).abs() < 1e-15);
        assert_eq!(
            check_unit(&[f64::NAN, 0.0, 0.0], || "axis".into())
                .unwrap_err()
                .rule,
            Rule::Finite
        );
        assert!(check_unit(&[1.0_f32 + 1e-6, 0.0, 0.0], || "q".into()).is_ok());
        assert!(check_unit(&[1.0_f64 + 1e-5, 0.0, 0.0], || "q".into()).is_err());
        assert!(check_angle(4096.0_f64, || "w".into()).is_ok());
        assert!(check_angle(-4096.5_f64, || "w".into()).is_err());
        assert!(check_angle(1025.0_f32, || "w".into()).is_err());
        assert!(check_within(0.5_f64, 0.0, 1.0, || "t".into()).is_ok());
        assert!(check_within(1.5_f64, 0.0, 1.0, || "t".into()).is_err());
        assert!(check_nonnegative_length(-1.0_f64, || "d".into()).is_err());
        assert!(check_count::<f64>(0, 1, || "n".into()).is_err());
        assert!(check_count::<f64>(1, 1, || "n".into()).is_ok());
    }

    #[test]
    fn messages_show_numbers_short_and_exact() {
        let t = check_within(2.0_f64, 0.0, 1.0, || "t_max".into()).unwrap_err();
        assert_eq!(
            t.to_string(),
            "t_max = 2 is out of the supported range for f64: it must lie in [0, 1]"
        );
        let l = Limits::F64.length_max;
        let x = check_magnitude(1e300_f64, || "translation x".into()).unwrap_err();
        assert_eq!(
            x.to_string(),
            format!(
                "translation x = 1e300 is out of the supported range for f64: it must lie in [{:e}, {:e}]",
                -l, l
            )
        );
        // An f32 value is shown as the f32 it is, not as its exact widening.
        let big = check_length(1e30_f32, || "vertex 1 coordinate y".into()).unwrap_err();
        assert!(
            big.to_string()
                .starts_with("vertex 1 coordinate y = 1e30 is out of the supported range for f32"),
            "{big}"
        );
        // Every number printed reads back as the value it stands for, whichever notation it takes.
        proptest::proptest!(|(bits in proptest::num::u64::ANY)| {
            let v = f64::from_bits(bits);
            let shown = Shown(v).to_string();
            proptest::prop_assert!(shown.len() <= 24, "{shown}");
            if v.is_nan() {
                proptest::prop_assert_eq!(shown, "NaN");
            } else {
                proptest::prop_assert_eq!(shown.parse::<f64>().unwrap().to_bits(), v.to_bits());
            }
        });
        proptest::proptest!(|(bits in proptest::num::u32::ANY)| {
            let v = f32::from_bits(bits);
            let shown = ShownValue { value: f64::from(v), scalar: "f32" }.to_string();
            proptest::prop_assert!(shown.len() <= 16, "{shown}");
            if !v.is_nan() {
                proptest::prop_assert_eq!(shown.parse::<f32>().unwrap().to_bits(), v.to_bits());
            }
        });
    }
}

//! The documented limits of `ccd_interval::limits`, restated independently (the property calls none of the
//! library's check functions), and the scalar types' extremes the cases draw from.

use std::fmt::Debug;

use ccd_bv::Real;

/// 2^k for a normal exponent, built from its bits (exact, and const).
pub const fn pow2(k: i32) -> f64 {
    f64::from_bits(((1023 + k) as u64) << 52)
}

/// The limits table of `ccd_interval::limits`, restated from its documentation.
///
/// The table bounds the inputs. A relative pose (`pose_a⁻¹·pose_b`, which `collide` and the discrete check of
/// `time_of_impact` at t = 0 derive from two supported poses) is not an input: its translation is a derived length
/// ([`derived_length`]), refused only when non-finite or beyond `4·length_max`, never for being small. Two
/// supported poses always give one (a magnitude of at most `2·√3·length_max`), so whether a query is refused
/// depends on its inputs alone.
#[derive(Clone, Copy, Debug)]
pub struct Table {
    /// Largest magnitude of a coordinate, translation, displacement, point, distance, `min_separation`.
    pub length_max: f64,
    /// Smallest non-zero magnitude of the same.
    pub length_min: f64,
    /// Largest total rotation (radians, either sign).
    pub angle_max: f64,
    /// Largest `|‖q‖ − 1|` of a unit quaternion or axis.
    pub unit_tolerance: f64,
}

/// The limits of `f64`.
pub const F64_TABLE: Table = Table {
    length_max: pow2(128),
    length_min: pow2(-200),
    angle_max: 4096.0,
    unit_tolerance: pow2(-20),
};

/// The limits of `f32`.
pub const F32_TABLE: Table = Table {
    length_max: pow2(40),
    length_min: pow2(-100),
    angle_max: 1024.0,
    unit_tolerance: pow2(-16),
};

/// Whether a value is inside its documented range.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Verdict {
    /// Inside.
    In,
    /// A unit norm within a few ulps of the tolerance: the table does not say how the norm is rounded, so either
    /// answer is accepted.
    Boundary,
    /// Outside.
    Out,
}

/// Whether `x` is a supported mesh coordinate: finite, and zero or of a magnitude in `[length_min, length_max]`.
pub fn is_length(x: f64, t: &Table) -> bool {
    let a = x.abs();
    x.is_finite() && (a == 0.0 || (t.length_min..=t.length_max).contains(&a))
}

/// A supported magnitude (a translation component, a displacement, a separation): finite, at most `length_max`;
/// any small value, zero included, is fine.
pub fn magnitude(x: f64, t: &Table) -> Verdict {
    if x.is_finite() && x.abs() <= t.length_max {
        Verdict::In
    } else {
        Verdict::Out
    }
}

/// A rotation angle: finite, of a magnitude at most `angle_max`.
pub fn angle(x: f64, t: &Table) -> Verdict {
    if x.is_finite() && x.abs() <= t.angle_max {
        Verdict::In
    } else {
        Verdict::Out
    }
}

/// A normalised time (`t_max`, a tolerance): in `[0, 1]`.
pub fn time(x: f64) -> Verdict {
    if (0.0..=1.0).contains(&x) {
        Verdict::In
    } else {
        Verdict::Out
    }
}

/// A derived length (a component of a relative translation): finite, of a magnitude at most `4·length_max`; any
/// small magnitude, zero included, is fine.
pub fn derived_length(x: f64, t: &Table) -> Verdict {
    if x.is_finite() && x.abs() <= 4.0 * t.length_max {
        Verdict::In
    } else {
        Verdict::Out
    }
}

/// A unit quaternion or axis: finite components whose norm is within the tolerance of 1. The norm is taken
/// with the components scaled by the largest magnitude first (no overflow or underflow); results within
/// `1e-8` of the tolerance (a few dozen ulps of 1) are [`Verdict::Boundary`].
pub fn unit(c: &[f64], t: &Table) -> Verdict {
    if !c.iter().all(|x| x.is_finite()) {
        return Verdict::Out;
    }
    let m = c.iter().fold(0.0f64, |m, x| m.max(x.abs()));
    if m == 0.0 {
        return Verdict::Out;
    }
    let norm = m * c.iter().map(|x| (x / m) * (x / m)).sum::<f64>().sqrt();
    let d = (norm - 1.0).abs();
    if d <= t.unit_tolerance * (1.0 - 1e-8) {
        Verdict::In
    } else if d >= t.unit_tolerance * (1.0 + 1e-8) {
        Verdict::Out
    } else {
        Verdict::Boundary
    }
}

/// The worst of some verdicts (`In` for none).
pub fn worst(vs: impl IntoIterator<Item = Verdict>) -> Verdict {
    vs.into_iter().max().unwrap_or(Verdict::In)
}

// ---------------------------------------------------------------------------------------------------------------
// Scalars.

/// What the test needs of a scalar type beyond [`Real`].
pub trait Sc: Real + Debug {
    /// The restated limits of this type.
    const TABLE: Table;
    /// The value of `bits` (the low 32 for `f32`) as this type.
    fn from_wild_bits(bits: u64) -> Self;
    /// `x` rounded to this type, then moved `steps` ulps (up if positive).
    fn near(x: f64, steps: i8) -> Self;
    /// IEEE specials and extremes of this type.
    fn special(k: u8) -> Self;
}

impl Sc for f64 {
    const TABLE: Table = F64_TABLE;
    fn from_wild_bits(bits: u64) -> Self {
        f64::from_bits(bits)
    }
    fn near(x: f64, steps: i8) -> Self {
        (0..steps.unsigned_abs()).fold(x, |v, _| {
            if steps > 0 {
                v.next_up()
            } else {
                v.next_down()
            }
        })
    }
    fn special(k: u8) -> Self {
        let table = [
            0.0,
            -0.0,
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::MIN_POSITIVE,
            -5e-324,
            f64::MAX,
            f64::MIN,
            1e-300,
            -1e300,
            1.0,
            -1.0,
            1e30,
            2.5e-40,
            0.5,
        ];
        table[usize::from(k) % table.len()]
    }
}

impl Sc for f32 {
    const TABLE: Table = F32_TABLE;
    fn from_wild_bits(bits: u64) -> Self {
        f32::from_bits(bits as u32)
    }
    fn near(x: f64, steps: i8) -> Self {
        (0..steps.unsigned_abs()).fold(x as f32, |v, _| {
            if steps > 0 {
                v.next_up()
            } else {
                v.next_down()
            }
        })
    }
    fn special(k: u8) -> Self {
        let table = [
            0.0,
            -0.0,
            f32::NAN,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::MIN_POSITIVE,
            -1e-45,
            f32::MAX,
            f32::MIN,
            1e-38,
            -1e38,
            1.0,
            -1.0,
            1e12,
            2.5e-31,
            0.5,
        ];
        table[usize::from(k) % table.len()]
    }
}

/// `x` in `f64` (exact).
pub fn wide<T: Real>(x: T) -> f64 {
    x.to_f64_exact()
}

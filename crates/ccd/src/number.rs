//! One number written as text (a command-line word, a coordinate of a text mesh file), read as `f64`, with a
//! refusal that says what is wrong with it: not a number, not finite (`nan`, `inf`), or written finitely but
//! beyond the largest `f64` (`1e400`), which is out of range rather than "not finite".

use std::fmt;

/// Why a word is not a usable number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BadNumber {
    /// Not a decimal number at all.
    NotANumber,
    /// `nan`, `inf` or `infinity` (any case, any sign).
    NotFinite,
    /// A finite decimal whose magnitude exceeds the largest value of the precision it is read in, so that it
    /// would read as infinite.
    TooLarge(Precision),
}

/// The floating-point type a word is read as.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Precision {
    /// `f32`, whose largest value is 3.4028235e38.
    F32,
    /// `f64`, whose largest value is 1.7976931348623157e308.
    F64,
}

impl fmt::Display for BadNumber {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BadNumber::NotANumber => f.write_str("is not a number"),
            BadNumber::NotFinite => f.write_str("is not finite"),
            BadNumber::TooLarge(precision) => {
                let (name, largest) = match precision {
                    Precision::F32 => ("f32", format!("{:e}", f32::MAX)),
                    Precision::F64 => ("f64", format!("{:e}", f64::MAX)),
                };
                write!(
                    f,
                    "is out of the supported range: its magnitude exceeds the largest {name}, {largest}"
                )
            }
        }
    }
}

/// `text` (surrounding white space ignored) as a finite `f64`, correctly rounded; numbers below the smallest
/// `f64` read as zero, as Rust reads them.
///
/// # Errors
/// The [`BadNumber`] that says why it is not one.
pub fn finite(text: &str) -> Result<f64, BadNumber> {
    read(text, Precision::F64)
}

/// `text` (surrounding white space ignored) as a finite `f32`, correctly rounded from the decimal (not through
/// `f64`); numbers below the smallest `f32` read as zero.
///
/// # Errors
/// The [`BadNumber`] that says why it is not one.
pub fn finite_f32(text: &str) -> Result<f32, BadNumber> {
    read(text, Precision::F32)
}

/// `text` read as `T`, the type of `precision`, or why it cannot be.
fn read<T: std::str::FromStr + num_traits::Float>(
    text: &str,
    precision: Precision,
) -> Result<T, BadNumber> {
    let text = text.trim();
    match text.parse::<T>() {
        Ok(v) if v.is_finite() => Ok(v),
        Ok(v) if v.is_nan() => Err(BadNumber::NotFinite),
        Ok(_) => {
            let magnitude = text.trim_start_matches(['+', '-']).to_ascii_lowercase();
            if magnitude == "inf" || magnitude == "infinity" {
                Err(BadNumber::NotFinite)
            } else {
                Err(BadNumber::TooLarge(precision))
            }
        }
        Err(_) => Err(BadNumber::NotANumber),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_kind_of_word_gets_its_reason() {
        for (text, expected) in [
            (" 1.5 ", Ok(1.5)),
            ("-0", Ok(-0.0)),
            ("1e-400", Ok(0.0)),
            ("1.7976931348623157e308", Ok(f64::MAX)),
            ("1e400", Err(BadNumber::TooLarge(Precision::F64))),
            ("-1.8e308", Err(BadNumber::TooLarge(Precision::F64))),
            ("nan", Err(BadNumber::NotFinite)),
            ("-Infinity", Err(BadNumber::NotFinite)),
            ("+inf", Err(BadNumber::NotFinite)),
            ("1,5", Err(BadNumber::NotANumber)),
            ("", Err(BadNumber::NotANumber)),
            ("x", Err(BadNumber::NotANumber)),
        ] {
            assert_eq!(finite(text), expected, "{text:?}");
        }
        for (text, expected) in [
            ("3.4028235e38", Ok(f32::MAX)),
            ("-3.4028235e38", Ok(f32::MIN)),
            // Below the midpoint 3.40282356779...e38 between the largest f32 and 2^128: rounds down.
            ("3.40282356e38", Ok(f32::MAX)),
            ("3.4028236e38", Err(BadNumber::TooLarge(Precision::F32))),
            ("1e39", Err(BadNumber::TooLarge(Precision::F32))),
            ("1e-50", Ok(0.0)),
            ("NaN", Err(BadNumber::NotFinite)),
            ("0x1p3", Err(BadNumber::NotANumber)),
        ] {
            assert_eq!(finite_f32(text), expected, "{text:?}");
        }
        assert_eq!(
            BadNumber::TooLarge(Precision::F32).to_string(),
            "is out of the supported range: its magnitude exceeds the largest f32, 3.4028235e38"
        );
        assert_eq!(
            BadNumber::TooLarge(Precision::F64).to_string(),
            "is out of the supported range: its magnitude exceeds the largest f64, 1.7976931348623157e308"
        );
    }

    proptest::proptest! {
        /// Every finite `f64`, written out, reads back as itself; beyond the largest one, a finite decimal is too
        /// large, never "not finite".
        #[test]
        fn finite_values_round_trip_and_larger_ones_are_too_large(bits in proptest::num::u64::ANY, k in 309u32..2000) {
            let v = f64::from_bits(bits);
            if v.is_finite() {
                proptest::prop_assert_eq!(finite(&v.to_string()).map(f64::to_bits), Ok(v.to_bits()));
                proptest::prop_assert_eq!(finite(&format!("{v:e}")).map(f64::to_bits), Ok(v.to_bits()));
            }
            proptest::prop_assert_eq!(finite(&format!("-1e{k}")), Err(BadNumber::TooLarge(Precision::F64)));
        }

        /// The same for every finite `f32`, read directly as `f32`: beyond its largest value a finite decimal is
        /// too large for `f32`.
        #[test]
        fn finite_f32_values_round_trip_and_larger_ones_are_too_large(bits in proptest::num::u32::ANY, k in 39u32..400) {
            let v = f32::from_bits(bits);
            if v.is_finite() {
                proptest::prop_assert_eq!(finite_f32(&v.to_string()).map(f32::to_bits), Ok(v.to_bits()));
                proptest::prop_assert_eq!(finite_f32(&format!("{v:e}")).map(f32::to_bits), Ok(v.to_bits()));
            }
            proptest::prop_assert_eq!(finite_f32(&format!("1e{k}")), Err(BadNumber::TooLarge(Precision::F32)));
        }
    }
}

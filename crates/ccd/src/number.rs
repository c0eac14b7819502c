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
    /// A finite decimal whose magnitude exceeds the largest `f64`, so that it would read as infinite.
    TooLarge,
}

impl fmt::Display for BadNumber {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            BadNumber::NotANumber => "is not a number",
            BadNumber::NotFinite => "is not finite",
            BadNumber::TooLarge => {
                "is out of the supported range: its magnitude exceeds the largest f64, 1.7976931348623157e308"
            }
        })
    }
}

/// `text` (surrounding white space ignored) as a finite `f64`, correctly rounded; numbers below the smallest
/// `f64` read as zero, as Rust reads them.
///
/// # Errors
/// The [`BadNumber`] that says why it is not one.
pub fn finite(text: &str) -> Result<f64, BadNumber> {
    let text = text.trim();
    match text.parse::<f64>() {
        Ok(v) if v.is_finite() => Ok(v),
        Ok(v) if v.is_nan() => Err(BadNumber::NotFinite),
        Ok(_) => {
            let magnitude = text.trim_start_matches(['+', '-']).to_ascii_lowercase();
            if magnitude == "inf" || magnitude == "infinity" {
                Err(BadNumber::NotFinite)
            } else {
                Err(BadNumber::TooLarge)
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
            ("1e400", Err(BadNumber::TooLarge)),
            ("-1.8e308", Err(BadNumber::TooLarge)),
            ("nan", Err(BadNumber::NotFinite)),
            ("-Infinity", Err(BadNumber::NotFinite)),
            ("+inf", Err(BadNumber::NotFinite)),
            ("1,5", Err(BadNumber::NotANumber)),
            ("", Err(BadNumber::NotANumber)),
            ("x", Err(BadNumber::NotANumber)),
        ] {
            assert_eq!(finite(text), expected, "{text:?}");
        }
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
            proptest::prop_assert_eq!(finite(&format!("-1e{k}")), Err(BadNumber::TooLarge));
        }
    }
}

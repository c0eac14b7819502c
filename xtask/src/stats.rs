//! Sample statistics of per-query counters: mean, standard deviation,
//! coefficient of variation, median, maximum.

/// Summary of one counter over the queries of a configuration.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Summary {
    /// Arithmetic mean.
    pub mean: f64,
    /// Sample standard deviation (n − 1 in the denominator; 0 for one value).
    pub std: f64,
    /// Coefficient of variation std/mean (0 when the mean is 0).
    pub cv: f64,
    /// Median (mean of the two middle values for an even count).
    pub median: f64,
    /// Largest value.
    pub max: f64,
}

impl Summary {
    /// Summarises `xs`; all fields are NaN for an empty slice.
    pub fn of(xs: &[f64]) -> Self {
        if xs.is_empty() {
            return Self {
                mean: f64::NAN,
                std: f64::NAN,
                cv: f64::NAN,
                median: f64::NAN,
                max: f64::NAN,
            };
        }
        let mean = mean(xs);
        let std = std_dev(xs);
        let cv = if mean == 0.0 { 0.0 } else { std / mean };
        Self {
            mean,
            std,
            cv,
            median: median(xs),
            max: xs.iter().copied().fold(f64::NEG_INFINITY, f64::max),
        }
    }
}

/// Arithmetic mean (NaN for an empty slice).
pub fn mean(xs: &[f64]) -> f64 {
    xs.iter().sum::<f64>() / xs.len() as f64
}

/// Sample standard deviation (0 for fewer than two values).
pub fn std_dev(xs: &[f64]) -> f64 {
    if xs.len() < 2 {
        return 0.0;
    }
    let m = mean(xs);
    (xs.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / (xs.len() - 1) as f64).sqrt()
}

/// Median (NaN for an empty slice; NaN values sort last).
pub fn median(xs: &[f64]) -> f64 {
    if xs.is_empty() {
        return f64::NAN;
    }
    let mut v = xs.to_vec();
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        0.5 * (v[n / 2 - 1] + v[n / 2])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn median_odd_even_and_unsorted() {
        assert_eq!(median(&[3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&[4.0, 1.0, 3.0, 2.0]), 2.5);
        assert_eq!(median(&[7.0]), 7.0);
        assert!(median(&[]).is_nan());
    }

    #[test]
    fn summary_of_known_sample() {
        // 2,4,4,4,5,5,7,9: mean 5, sum of squares 32, sample variance 32/7.
        let s = Summary::of(&[2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0]);
        assert_eq!(s.mean, 5.0);
        assert!((s.std - (32.0f64 / 7.0).sqrt()).abs() < 1e-12);
        assert!((s.cv - s.std / 5.0).abs() < 1e-15);
        assert_eq!(s.median, 4.5);
        assert_eq!(s.max, 9.0);
        assert_eq!(Summary::of(&[0.0, 0.0]).cv, 0.0);
        assert_eq!(std_dev(&[3.0]), 0.0);
    }
}

//! Curve analysis: least-squares lines in log-log space, and the ledge/ramp
//! decomposition of a parallel-close-proximity curve (Gottschalk 2000,
//! §5.3.2, Fig. 5.11).

/// A fitted line `y = slope·x + intercept`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Line {
    /// Slope.
    pub slope: f64,
    /// Value at `x = 0`.
    pub intercept: f64,
}

/// Ordinary least-squares line through `points`; `None` for fewer than two
/// points or when every `x` is the same.
pub fn least_squares(points: &[(f64, f64)]) -> Option<Line> {
    if points.len() < 2 {
        return None;
    }
    let n = points.len() as f64;
    let mx = points.iter().map(|p| p.0).sum::<f64>() / n;
    let my = points.iter().map(|p| p.1).sum::<f64>() / n;
    let sxx: f64 = points.iter().map(|p| (p.0 - mx) * (p.0 - mx)).sum();
    let sxy: f64 = points.iter().map(|p| (p.0 - mx) * (p.1 - my)).sum();
    if sxx <= 0.0 || !sxx.is_finite() {
        return None;
    }
    let slope = sxy / sxx;
    Some(Line {
        slope,
        intercept: my - slope * mx,
    })
}

/// Least-squares slope of `log10 y` against `log10 x`, over the points with
/// both coordinates positive and finite.
pub fn loglog_slope(points: &[(f64, f64)]) -> Option<f64> {
    let logs: Vec<(f64, f64)> = points
        .iter()
        .filter(|(x, y)| *x > 0.0 && *y > 0.0 && x.is_finite() && y.is_finite())
        .map(|(x, y)| (x.log10(), y.log10()))
        .collect();
    least_squares(&logs).map(|l| l.slope)
}

/// The ledges and ramp of a curve `N_v(ε)` sampled at increasing ε.
#[derive(Clone, Debug, PartialEq)]
pub struct RampAnalysis {
    /// `N_v` at the largest ε (the lower, right-hand ledge).
    pub right_ledge: f64,
    /// `N_v` at the smallest ε (the upper, left-hand ledge).
    pub left_ledge: f64,
    /// Indices of the ramp points.
    pub ramp: Vec<usize>,
    /// Least-squares slope of `log10 N_v` against `log10 ε` on the ramp
    /// (`None` with fewer than two ramp points).
    pub slope: Option<f64>,
    /// Steepest (most negative) slope between adjacent points anywhere on the
    /// curve, and the ε interval where it occurs.
    pub steepest: Option<(f64, f64, f64)>,
}

/// Selects the ramp of a curve given as `(ε, N_v)` points sorted by
/// increasing ε, and fits it.
///
/// With `h = log10 left_ledge − log10 right_ledge`, the ramp is every point
/// whose `log10 N_v` lies in `[log10 right + a·h, log10 right + b·h]`, where
/// `range = (a, b)` (the thesis reading is the middle half, `(0.25, 0.75)`).
///
/// # Panics
/// If `points` is empty.
pub fn analyse_ramp(points: &[(f64, f64)], range: (f64, f64)) -> RampAnalysis {
    let left_ledge = points.first().expect("empty curve").1;
    let right_ledge = points.last().expect("empty curve").1;
    let ys: Vec<f64> = points
        .iter()
        .map(|p| p.1.max(f64::MIN_POSITIVE).log10())
        .collect();
    let ramp = ramp_indices(&ys, ys[0], ys[ys.len() - 1], range);
    let ramp_points: Vec<(f64, f64)> = ramp.iter().map(|&i| points[i]).collect();
    RampAnalysis {
        right_ledge,
        left_ledge,
        slope: loglog_slope(&ramp_points),
        steepest: steepest_slope(points),
        ramp,
    }
}

/// Indices `i` with `ys[i]` within fractions `range` of the way from
/// `y_right` up to `y_left` (an empty set when the ledges coincide).
pub fn ramp_indices(ys: &[f64], y_left: f64, y_right: f64, range: (f64, f64)) -> Vec<usize> {
    let h = y_left - y_right;
    if h <= 0.0 {
        return Vec::new();
    }
    let (lo, hi) = (y_right + range.0 * h, y_right + range.1 * h);
    (0..ys.len())
        .filter(|&i| ys[i] >= lo && ys[i] <= hi)
        .collect()
}

/// The most negative log-log slope between adjacent points (sorted by x),
/// with the x interval it spans: `(slope, x_from, x_to)`.
pub fn steepest_slope(points: &[(f64, f64)]) -> Option<(f64, f64, f64)> {
    points
        .windows(2)
        .filter(|w| w[0].0 > 0.0 && w[1].0 > w[0].0 && w[0].1 > 0.0 && w[1].1 > 0.0)
        .map(|w| {
            (
                (w[1].1.log10() - w[0].1.log10()) / (w[1].0.log10() - w[0].0.log10()),
                w[0].0,
                w[1].0,
            )
        })
        .min_by(|a, b| a.0.total_cmp(&b.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn least_squares_recovers_a_line() {
        let pts: Vec<(f64, f64)> = (0..10).map(|i| (i as f64, 3.0 - 0.5 * i as f64)).collect();
        let l = least_squares(&pts).unwrap();
        assert!((l.slope + 0.5).abs() < 1e-12 && (l.intercept - 3.0).abs() < 1e-12);
        assert!(least_squares(&[(1.0, 2.0)]).is_none());
        assert!(least_squares(&[(1.0, 2.0), (1.0, 3.0)]).is_none());
    }

    #[test]
    fn loglog_slope_of_power_law_with_noise_averaging_out() {
        // y = 7 x^-2 with ±1% alternating noise: the fit stays close to -2.
        let pts: Vec<(f64, f64)> = (0..20)
            .map(|i| {
                let x = 10f64.powf(-6.0 + 0.25 * i as f64);
                let noise = if i % 2 == 0 { 1.01 } else { 0.99 };
                (x, 7.0 * x.powi(-2) * noise)
            })
            .collect();
        assert!((loglog_slope(&pts).unwrap() + 2.0).abs() < 0.01);
        // Non-positive points are ignored, not turned into -inf.
        let mut with_zero = pts.clone();
        with_zero.push((1.0, 0.0));
        assert!((loglog_slope(&with_zero).unwrap() + 2.0).abs() < 0.01);
    }

    /// A synthetic PCP curve: upper ledge 1e4, slope -1 ramp, lower ledge 15.
    fn synthetic_curve() -> Vec<(f64, f64)> {
        (0..29)
            .map(|i| {
                let eps = 10f64.powf(-6.0 + 0.25 * i as f64);
                (eps, (0.1 / eps).clamp(15.0, 1e4))
            })
            .collect()
    }

    #[test]
    fn ramp_is_the_middle_half_and_fits_the_slope() {
        let c = synthetic_curve();
        let r = analyse_ramp(&c, (0.25, 0.75));
        assert_eq!(r.left_ledge, 1e4);
        assert_eq!(r.right_ledge, 15.0);
        // log N_v = 5 - i/4 between the ledges 4 and log10 15 = 1.176; the
        // middle half is [1.882, 3.294], i.e. i = 7..=12.
        for &i in &r.ramp {
            let y = c[i].1.log10();
            assert!(
                (1.88..=3.30).contains(&y),
                "point {i} with log N_v {y} is not mid-ramp"
            );
        }
        assert_eq!(r.ramp, vec![7, 8, 9, 10, 11, 12]);
        assert!((r.slope.unwrap() + 1.0).abs() < 1e-9);
        // Ledge-to-ramp transitions have slopes between 0 and -1; the
        // steepest step is on the ramp itself.
        assert!((r.steepest.unwrap().0 + 1.0).abs() < 1e-9);
    }

    #[test]
    fn ramp_range_override_and_flat_curve() {
        let c = synthetic_curve();
        let wide = analyse_ramp(&c, (0.0, 1.0));
        assert!(wide.ramp.len() > analyse_ramp(&c, (0.25, 0.75)).ramp.len());
        let flat: Vec<(f64, f64)> = (1..5).map(|i| (i as f64, 15.0)).collect();
        let r = analyse_ramp(&flat, (0.25, 0.75));
        assert!(r.ramp.is_empty() && r.slope.is_none());
    }

    #[test]
    fn steepest_slope_finds_the_cliff() {
        let pts = [(1.0, 1000.0), (10.0, 100.0), (100.0, 1.0), (1000.0, 0.5)];
        let (s, from, to) = steepest_slope(&pts).unwrap();
        assert!((s + 2.0).abs() < 1e-12 && from == 10.0 && to == 100.0);
    }
}

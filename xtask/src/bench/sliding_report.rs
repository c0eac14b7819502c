//! What `bench-sliding` derives from its per-position samples: the hard checks (contact sets across BV types and
//! against the all-pairs count, first contact against all contacts, the BVTT identity), the thesis's shape
//! figures (contacts per unit length of the intersection circle, where the BV tests peak, where triangle tests
//! start, the BV-test ratios to OBB trees before, inside and after contact, the contact-cost minimum), the text
//! summary per band of positions and the plots (Figs. 5.4–5.8 and the time per position).

use std::path::Path;

use anyhow::Result;
use plotters::prelude::SeriesLabelPosition;

use super::sliding::{BvRun, circumference, x_at};
use super::{BVTT_IDENTITY, Sample, Verdict};
use crate::flags::BvType;
use crate::plot::{Chart, Series, bv_color, lighter};
use crate::report::{Table, num};
use crate::stats::median;

/// Half-width in x of the window that smooths ratios and contact costs (neighbouring positions are independent
/// random orientations).
const WINDOW_X: f64 = 0.02;

/// Median wall time of `samples`, milliseconds.
pub fn median_ms(samples: &[Sample]) -> f64 {
    median(
        &samples
            .iter()
            .map(|s| s.time.as_secs_f64() * 1e3)
            .collect::<Vec<_>>(),
    )
}

/// Mean of a counter over `samples`.
pub fn mean_of(samples: &[Sample], f: fn(&Sample) -> u64) -> f64 {
    samples.iter().map(|s| f(s) as f64).sum::<f64>() / samples.len().max(1) as f64
}

/// Shape figures of one BV type.
#[derive(Clone, Debug)]
pub struct Shape {
    /// Volume type.
    pub bv: BvType,
    /// Position of the largest N_v.
    pub peak_x: f64,
    /// Largest N_v over the median N_v of 0.3 ≤ x ≤ 1.7 (how sharp the peak is).
    pub peak_ratio: f64,
    /// First position with a triangle test.
    pub first_np_x: Option<f64>,
    /// Smoothed N_v/K minimum over 0.25 ≤ x ≤ 1.75 and where.
    pub cost_min: Option<(f64, f64)>,
    /// Against OBB trees (other types, when OBB ran): the ratio of the summed N_v just before contact
    /// (0.18 ≤ x < 0.2), just before the surfaces part (1.78 ≤ x < 1.8), and the smoothed ratio's minimum (with
    /// its x) and maximum over 0.25 ≤ x ≤ 1.75.
    pub vs_obb: Option<[f64; 5]>,
}

/// Everything checked or compared.
#[derive(Clone, Debug)]
pub struct Checks {
    /// Positions whose contact set differs from the first BV type's.
    pub mismatches: usize,
    /// All-contacts queries breaking the BVTT identity.
    pub bvtt_bad: usize,
    /// First-contact queries that found a contact where there is none or none where there is one.
    pub first_bad: usize,
    /// Positions checked against the all-pairs count.
    pub oracle_positions: usize,
    /// `x=…: …` for each failed all-pairs check.
    pub oracle_bad: Vec<String>,
    /// Least-squares `c` in contacts ≈ c·circumference(x) over 0.2 < x < 1.8 (thesis: 70).
    pub length_constant: Option<f64>,
    /// Per BV type.
    pub shapes: Vec<Shape>,
}

/// Sums of `f` over the window around each position.
fn windowed(samples: &[Sample], half: usize, f: fn(&Sample) -> u64) -> Vec<f64> {
    (0..samples.len())
        .map(|i| {
            let lo = i.saturating_sub(half);
            let hi = (i + half + 1).min(samples.len());
            samples[lo..hi].iter().map(|s| f(s) as f64).sum()
        })
        .collect()
}

/// The smallest finite value of `ys` over positions with `lo ≤ x ≤ hi`, and its x.
fn min_over(ys: &[f64], steps: usize, lo: f64, hi: f64) -> Option<(f64, f64)> {
    (0..ys.len())
        .map(|i| (x_at(i, steps), ys[i]))
        .filter(|&(x, y)| (lo..=hi).contains(&x) && y.is_finite())
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(x, y)| (y, x))
}

impl Checks {
    /// Derives the checks from the runs over `steps` positions.
    pub fn new(runs: &[BvRun], steps: usize) -> Self {
        let sig = |s: &Sample| (s.stats.contacts, s.contact_hash);
        let mismatches = runs.split_first().map_or(0, |(r0, rest)| {
            rest.iter()
                .map(|r| {
                    r.all
                        .iter()
                        .zip(&r0.all)
                        .filter(|(a, b)| sig(a) != sig(b))
                        .count()
                })
                .sum()
        });
        let bvtt_bad = runs
            .iter()
            .map(|r| r.all.iter().filter(|s| !s.bvtt_holds()).count())
            .sum();
        let first_bad = runs
            .iter()
            .map(|r| {
                r.all
                    .iter()
                    .zip(&r.first)
                    .filter(|(a, f)| {
                        f.stats.contacts > 1 || (a.stats.contacts > 0) != (f.stats.contacts > 0)
                    })
                    .count()
            })
            .sum();
        let oracle: Vec<_> = runs.iter().flat_map(|r| &r.oracle).collect();
        let oracle_bad = oracle
            .iter()
            .filter(|c| !c.same_set || c.oracle != c.query)
            .map(|c| {
                format!(
                    "x={:.3}: all-pairs {} contacts, query {} (sets {})",
                    x_at(c.step, steps),
                    c.oracle,
                    c.query,
                    if c.same_set { "equal" } else { "differ" }
                )
            })
            .collect();
        let length_constant = runs.first().and_then(|r| {
            let (mut kc, mut cc) = (0.0, 0.0);
            for (i, s) in r.all.iter().enumerate() {
                let c = circumference(x_at(i, steps));
                kc += s.stats.contacts as f64 * c;
                cc += c * c;
            }
            (cc > 0.0).then(|| kc / cc)
        });
        let half = ((WINDOW_X * (steps - 1) as f64 / 2.0).round() as usize).max(1);
        let obb = runs.iter().find(|r| r.bv == BvType::Obb);
        let shapes = runs
            .iter()
            .map(|r| {
                let nv: Vec<f64> = r.all.iter().map(|s| s.stats.bv_tests as f64).collect();
                let (peak_i, peak) = nv
                    .iter()
                    .copied()
                    .enumerate()
                    .max_by(|a, b| a.1.total_cmp(&b.1))
                    .unwrap_or((0, f64::NAN));
                let mid: Vec<f64> = (0..nv.len())
                    .filter(|&i| (0.3..=1.7).contains(&x_at(i, steps)))
                    .map(|i| nv[i])
                    .collect();
                let first_np_x = r
                    .all
                    .iter()
                    .position(|s| s.stats.tri_tests > 0)
                    .map(|i| x_at(i, steps));
                let (wnv, wk) = (
                    windowed(&r.all, half, |s| s.stats.bv_tests),
                    windowed(&r.all, half, |s| s.stats.contacts),
                );
                let cost: Vec<f64> = wnv
                    .iter()
                    .zip(&wk)
                    .map(|(n, k)| if *k > 0.0 { n / k } else { f64::NAN })
                    .collect();
                let vs_obb = obb.filter(|o| o.bv != r.bv).map(|o| {
                    // Half-open [lo, hi) with a rounding margin on the grid's x values.
                    let range_mean = |lo: f64, hi: f64| {
                        let (mut num, mut den) = (0.0, 0.0);
                        for (i, (n, s)) in nv.iter().zip(&o.all).enumerate() {
                            let x = x_at(i, steps);
                            if x >= lo - 1e-9 && x < hi - 1e-9 {
                                num += n;
                                den += s.stats.bv_tests as f64;
                            }
                        }
                        num / den
                    };
                    let wo = windowed(&o.all, half, |s| s.stats.bv_tests);
                    let ratio: Vec<f64> = wnv.iter().zip(&wo).map(|(a, b)| a / b).collect();
                    let (lo, lo_x) =
                        min_over(&ratio, steps, 0.25, 1.75).unwrap_or((f64::NAN, f64::NAN));
                    let neg: Vec<f64> = ratio.iter().map(|v| -v).collect();
                    let hi = min_over(&neg, steps, 0.25, 1.75).map_or(f64::NAN, |(v, _)| -v);
                    [range_mean(0.18, 0.2), range_mean(1.78, 1.8), lo, lo_x, hi]
                });
                Shape {
                    bv: r.bv,
                    peak_x: x_at(peak_i, steps),
                    peak_ratio: peak / median(&mid),
                    first_np_x,
                    cost_min: min_over(&cost, steps, 0.25, 1.75),
                    vs_obb,
                }
            })
            .collect();
        Self {
            mismatches,
            bvtt_bad,
            first_bad,
            oracle_positions: oracle.len(),
            oracle_bad,
            length_constant,
            shapes,
        }
    }

    /// Fails on any hard check.
    pub fn verdict(&self) -> Verdict {
        if self.mismatches > 0 {
            Verdict::Fail(format!(
                "{} positions have BV-type-dependent contact sets",
                self.mismatches
            ))
        } else if !self.oracle_bad.is_empty() {
            Verdict::Fail(format!(
                "all-pairs count differs: {}",
                self.oracle_bad.join("; ")
            ))
        } else if self.first_bad > 0 {
            Verdict::Fail(format!(
                "{} first-contact queries disagree with all contacts",
                self.first_bad
            ))
        } else if self.bvtt_bad > 0 {
            Verdict::Fail(format!(
                "BVTT invariant violated in {} queries",
                self.bvtt_bad
            ))
        } else {
            Verdict::Pass
        }
    }
}

/// Prints per band of 0.1 in x and per BV type: mean contacts, BV and triangle tests, median times.
pub fn print_bands(runs: &[BvRun], steps: usize) {
    let mut t = Table::new(&[
        "band",
        "bv",
        "contacts_mean",
        "nv_mean",
        "np_mean",
        "time_ms_median",
        "first_time_us_median",
    ]);
    for r in runs {
        for band in 0..20 {
            let idx: Vec<usize> = (0..steps)
                .filter(|&i| {
                    let b = (x_at(i, steps) * 10.0 + 1e-9).floor() as usize;
                    b.min(19) == band
                })
                .collect();
            if idx.is_empty() {
                continue;
            }
            let pick = |v: &[Sample]| idx.iter().map(|&i| v[i]).collect::<Vec<_>>();
            let (all, first) = (pick(&r.all), pick(&r.first));
            t.rows.push(vec![
                format!("{:.1}-{:.1}", band as f64 / 10.0, (band + 1) as f64 / 10.0),
                r.bv.name().into(),
                num(mean_of(&all, |s| s.stats.contacts)),
                num(mean_of(&all, |s| s.stats.bv_tests)),
                num(mean_of(&all, |s| s.stats.tri_tests)),
                format!("{:.4}", median_ms(&all)),
                format!("{:.2}", 1e3 * median_ms(&first)),
            ]);
        }
    }
    print!("{}", t.render_body());
}

/// The comparison block against the thesis's §5.3.1.
pub fn print_comparison(
    runs: &[BvRun],
    checks: &Checks,
    steps: usize,
    threads: usize,
    quick: bool,
) {
    println!();
    println!("## comparison with the thesis (Gottschalk 2000, §5.3.1, Figs. 5.4–5.8)");
    if quick {
        println!("note: --quick numbers are indicative only (small meshes, {steps} positions)");
    }
    let identical = match (runs.len(), checks.mismatches) {
        (0 | 1, _) => "n/a (one BV type)".to_owned(),
        (b, 0) => format!("yes ({b} BV types × {steps} positions)"),
        (_, m) => format!("NO: {m} positions differ"),
    };
    println!("contacts identical across BV types: {identical} (thesis: identical)");
    if checks.oracle_positions == 0 {
        println!("all-pairs check: skipped (--oracle 0)");
    } else if checks.oracle_bad.is_empty() {
        println!(
            "all-pairs check: contact sets equal at {} evenly spaced positions (exact count: sweep over x on the \
             triangles' exact f64 boxes, then the brute force's exact triangle test on every box-overlapping pair)",
            checks.oracle_positions
        );
    } else {
        println!("all-pairs check: FAILED: {}", checks.oracle_bad.join("; "));
    }
    println!(
        "first contact: {}",
        match checks.first_bad {
            0 => "found exactly at the positions with contacts, at most one".to_owned(),
            n => format!("DISAGREES at {n} queries"),
        }
    );
    println!(
        "{BVTT_IDENTITY}: {}",
        match checks.bvtt_bad {
            0 => "holds in every query".to_owned(),
            n => format!("VIOLATED in {n} queries"),
        }
    );
    if let Some(c) = checks.length_constant {
        println!(
            "contacts ≈ c·2πr(x) with c={c:.1} per unit length (thesis ≈ 70 at 40k triangles)"
        );
    }
    for s in &checks.shapes {
        println!(
            "{}: N_v peak at x={:.3}, peak/median(0.3..1.7)={:.2} (thesis: sphere and aabb peak sharply near 0.25, \
             obb no sharp peak); first triangle test at x={} (thesis: sphere ≈0.1, aabb after, obb just below 0.2)",
            s.bv.name(),
            s.peak_x,
            s.peak_ratio,
            s.first_np_x
                .map_or_else(|| "none".into(), |x| format!("{x:.3}")),
        );
        if let Some((c, x)) = s.cost_min {
            println!(
                "{}: contact cost N_v/K smallest {c:.1} at x={x:.3} (thesis ≈1.28; surfaces perpendicular at √1.64 = 1.281)",
                s.bv.name()
            );
        }
        if let Some([before, parting, lo, lo_x, hi]) = s.vs_obb {
            let thesis = if s.bv == BvType::Sphere {
                "≈30"
            } else {
                "≈25"
            };
            println!(
                "N_v {}/obb: just before contact (0.18 ≤ x < 0.2) {before:.1} (thesis {thesis}), just before parting \
                 (1.78 ≤ x < 1.8) {parting:.1}, inside contact (0.25..1.75, smoothed) {lo:.1}..{hi:.1} with the \
                 minimum at x={lo_x:.3} (thesis 2–9, minimum near 1.30)",
                s.bv.name()
            );
        }
    }
    let advice = if threads > 1 {
        "; use --threads 1 for timing figures"
    } else {
        ""
    };
    for r in runs {
        println!(
            "speed {}: all contacts median {:.4} ms/position (mean {:.4}), first contact median {:.2} µs; mean BV \
             tests {} / tri tests {} per position [threads={threads}{advice}]",
            r.bv.name(),
            median_ms(&r.all),
            mean_of(&r.all, |s| s.time.as_nanos() as u64) / 1e6,
            1e3 * median_ms(&r.first),
            num(mean_of(&r.all, |s| s.stats.bv_tests)),
            num(mean_of(&r.all, |s| s.stats.tri_tests)),
        );
    }
}

/// Figs. 5.4–5.8 and the time per position as SVG files in `out`.
pub fn write_plots(runs: &[BvRun], checks: &Checks, steps: usize, out: &Path) -> Result<()> {
    let pts = |v: &[Sample], f: &dyn Fn(&Sample) -> f64| -> Vec<(f64, f64)> {
        v.iter()
            .enumerate()
            .map(|(i, s)| (x_at(i, steps), f(s)))
            .collect()
    };
    let scatter = |r: &BvRun, f: &dyn Fn(&Sample) -> f64| {
        Series::scatter(r.bv.name(), bv_color(r.bv), pts(&r.all, f))
    };
    let curve = |c: f64| -> Vec<(f64, f64)> {
        (0..steps)
            .map(|i| x_at(i, steps))
            .map(|x| (x, c * circumference(x)))
            .collect()
    };
    let mut contacts: Vec<Series> = runs
        .first()
        .map(|r| {
            Series::scatter(
                "contacts (every BV type)",
                bv_color(r.bv),
                pts(&r.all, &|s| s.stats.contacts as f64),
            )
        })
        .into_iter()
        .collect();
    contacts.push(Series::reference("70·c(x) (thesis)", curve(70.0)));
    if let Some(c) = checks.length_constant {
        contacts.push(Series {
            color: plotters::style::RGBColor(0, 0, 0),
            ..Series::reference(format!("{c:.1}·c(x) (fitted)"), curve(c))
        });
    }
    let nv: Vec<Series> = runs
        .iter()
        .map(|r| scatter(r, &|s| s.stats.bv_tests as f64))
        .collect();
    let np: Vec<Series> = runs
        .iter()
        .map(|r| scatter(r, &|s| s.stats.tri_tests as f64))
        .collect();
    let cost: Vec<Series> = runs
        .iter()
        .map(|r| {
            scatter(r, &|s| {
                if s.stats.contacts > 0 {
                    s.stats.bv_tests as f64 / s.stats.contacts as f64
                } else {
                    f64::NAN
                }
            })
        })
        .collect();
    let mut ratio = Vec::new();
    if let Some(o) = runs.iter().find(|r| r.bv == BvType::Obb) {
        for r in runs.iter().filter(|r| r.bv != BvType::Obb) {
            let p = r
                .all
                .iter()
                .zip(&o.all)
                .enumerate()
                .map(|(i, (a, b))| {
                    (
                        x_at(i, steps),
                        a.stats.bv_tests as f64 / b.stats.bv_tests as f64,
                    )
                })
                .collect();
            ratio.push(Series::scatter(
                format!("{} / obb", r.bv.name()),
                bv_color(r.bv),
                p,
            ));
        }
    }
    let mut time = Vec::new();
    for r in runs {
        time.push(Series::scatter(
            format!("{} all", r.bv.name()),
            bv_color(r.bv),
            pts(&r.all, &|s| s.time.as_secs_f64() * 1e3),
        ));
        time.push(Series::scatter(
            format!("{} first", r.bv.name()),
            lighter(bv_color(r.bv)),
            pts(&r.first, &|s| s.time.as_secs_f64() * 1e3),
        ));
    }
    let files = [
        (
            "sliding_contacts.svg",
            "contacts (Fig. 5.4)",
            "contacts K",
            contacts,
        ),
        ("sliding_nv.svg", "BV tests (Fig. 5.5)", "BV tests N_v", nv),
        (
            "sliding_np.svg",
            "triangle tests (Fig. 5.6)",
            "triangle tests N_p",
            np,
        ),
        (
            "sliding_ratio.svg",
            "BV-test ratio to OBB trees (Fig. 5.7)",
            "N_v / N_v(obb)",
            ratio,
        ),
        (
            "sliding_contact_cost.svg",
            "contact cost (Fig. 5.8)",
            "contact cost N_v / K",
            cost,
        ),
        (
            "sliding_time.svg",
            "time per query, all and first contact",
            "milliseconds per query",
            time,
        ),
    ];
    for (file, what, y_label, series) in files {
        if series.is_empty() {
            continue;
        }
        Chart {
            title: format!("Sliding sphere: {what} vs position ({steps} positions)"),
            x_label: "centre of the radius-0.8 sphere, x".into(),
            y_label: y_label.into(),
            x_log: false,
            series,
            legend: SeriesLabelPosition::UpperRight,
        }
        .write_svg(&out.join(file))?;
    }
    Ok(())
}

//! `bench-proximity`: parallel close proximity (Gottschalk 2000, §5.3.2,
//! Figs. 5.11 and 5.17).
//!
//! Two concentric tessellated spheres a gap ε apart, both rotated uniformly
//! at random about the origin before each all-contacts query. The mean
//! number of BV tests N_v against ε has an upper ledge (small ε: leaves
//! touch), a ramp of slope −2/r for a BV type of convergence rate r (−2 for
//! spheres and AABBs, −1 for OBBs; the thesis measured −1.14) and a lower
//! ledge (large ε; 15 tests for OBBs).
//!
//! By default the outer sphere is the inner mesh scaled by (1+ε)/d_min, with
//! d_min the smallest distance from the centre to a face plane of the inner
//! mesh: every outer point then lies at least 1+ε from the centre and every
//! inner point at most 1, so the meshes cannot touch and any contact is a
//! bug (a hard check). `--unscaled` uses the thesis-literal radius 1+ε, where
//! contacts can appear for ε ≤ 1/ρ_min − 1.

use anyhow::{Result, bail, ensure};
use ccd::nalgebra::{Isometry3, Translation3};
use ccd::{BoundingVolume, CollideRequest, DescentRule, Real};
use ccd_testkit::{Mesh, min_face_plane_distance};
use indicatif::ProgressBar;
use plotters::prelude::SeriesLabelPosition;
use serde_json::json;

use super::levels::{self, LevelRow};
use super::{
    BVTT_IDENTITY, BvJob, Counters, PosePair, Verdict, build_model, config, dispatch, progress_bar,
    run_queries,
};
use crate::fit::{RampAnalysis, analyse_ramp};
use crate::flags::{BvType, Descend, ProximityFlags};
use crate::mesh::Tessellation;
use crate::plot::{Chart, Series};
use crate::report::{Stamp, Table, json_num, num, slope, write_json};

/// Default mesh: latlong(101, 200), 40,000 triangles.
const DEFAULT_TRIS: usize = 40_000;
/// `--quick` mesh: latlong(31, 60), 3,600 triangles.
const QUICK_TRIS: usize = 3_600;
/// The ε whose timings `--json` and the speed lines report (the grid value
/// closest to it in log scale).
const SPEED_EPS: f64 = 1e-3;
/// A point belongs to the right (lower) ledge when its log N_v is within this
/// fraction of the ledge-to-ledge log range above the right-ledge value.
const RIGHT_LEDGE_BAND: f64 = 0.1;

/// Results of one ε for one BV type.
#[derive(Clone, Debug)]
struct EpsRow {
    eps: f64,
    counters: Counters,
}

/// Results of one BV type.
#[derive(Clone, Debug)]
struct BvResult {
    bv: BvType,
    rows: Vec<EpsRow>,
    levels: Vec<LevelRow>,
}

/// The per-BV work: build the inner tree once, the outer tree per ε, run
/// the queries.
struct Job<'a> {
    inner: &'a Mesh,
    outer_scale: &'a dyn Fn(f64) -> f64,
    eps: &'a [f64],
    poses: &'a [PosePair],
    progress: &'a ProgressBar,
    levels: bool,
    descent: DescentRule,
}

impl BvJob for Job<'_> {
    type Output = BvResult;

    fn run<T: Real, B: BoundingVolume<T>>(&mut self, bv: BvType) -> Result<BvResult> {
        let inner = build_model::<T, B>(self.inner)?;
        let levels = if self.levels {
            levels::per_level(&inner)
        } else {
            Vec::new()
        };
        let mut rows = Vec::with_capacity(self.eps.len());
        for &eps in self.eps {
            self.progress
                .set_message(format!("{} ε={eps:.2e}", bv.name()));
            let outer = build_model::<T, B>(&self.inner.clone().scaled((self.outer_scale)(eps)))?;
            let samples = run_queries(
                &inner,
                &outer,
                self.poses,
                &CollideRequest::all().with_descent(self.descent),
                self.progress,
            )?;
            rows.push(EpsRow {
                eps,
                counters: Counters::of(&samples),
            });
        }
        Ok(BvResult { bv, rows, levels })
    }
}

/// The ε values to run: `--eps` if given, else the log-spaced grid.
fn eps_values(flags: &ProximityFlags) -> Result<Vec<f64>> {
    let mut eps = if flags.eps.is_empty() {
        let per_decade = flags
            .per_decade
            .unwrap_or(if flags.common.quick { 2 } else { 4 });
        log_grid(flags.eps_min, flags.eps_max, per_decade)?
    } else {
        flags.eps.clone()
    };
    ensure!(
        eps.iter().all(|e| e.is_finite() && *e > 0.0),
        "every ε must be positive and finite"
    );
    eps.sort_by(f64::total_cmp);
    eps.dedup();
    Ok(eps)
}

/// `per_decade` log-spaced points per decade from `min` to `max` (both
/// included when `max/min` is a whole number of steps).
pub fn log_grid(min: f64, max: f64, per_decade: u32) -> Result<Vec<f64>> {
    ensure!(
        min > 0.0 && max >= min && min.is_finite() && max.is_finite(),
        "need 0 < --eps-min <= --eps-max"
    );
    ensure!(per_decade >= 1, "--per-decade must be at least 1");
    let (lo, hi, pd) = (min.log10(), max.log10(), f64::from(per_decade));
    let steps = ((hi - lo) * pd + 1e-9).floor() as usize;
    Ok((0..=steps)
        .map(|k| 10f64.powf(lo + k as f64 / pd))
        .collect())
}

/// Everything fixed before the queries run.
struct Setup {
    tess: Tessellation,
    queries: usize,
    eps: Vec<f64>,
    bvs: Vec<BvType>,
    threads: usize,
    precision: &'static str,
    /// Smallest distance from the centre to a face plane of the inner mesh
    /// (ρ_min, the radius being 1).
    d_min: f64,
    /// 1/ρ_min − 1: radius-(1+ε) copies cannot touch for larger ε.
    eps_contact: f64,
    /// Outer mesh scaled by (1+ε)/d_min (the default) rather than 1+ε.
    scaled: bool,
    /// The grid ε whose timings are reported.
    speed_eps: f64,
    /// Descent rule of the queries.
    descend: Descend,
}

impl Setup {
    fn new(
        flags: &ProximityFlags,
        inner: &Mesh,
        tess: Tessellation,
        threads: usize,
    ) -> Result<Self> {
        let common = &flags.common;
        let queries = common
            .queries
            .unwrap_or(if common.quick { 10 } else { 100 });
        ensure!(queries >= 1, "--queries must be at least 1");
        let eps = eps_values(flags)?;
        let d_min = min_face_plane_distance(inner, [0.0; 3]);
        if !(d_min > 0.0 && d_min <= 1.0) {
            bail!("unexpected face-plane distance {d_min} of the inner mesh");
        }
        Ok(Self {
            tess,
            queries,
            speed_eps: closest_log(&eps, SPEED_EPS),
            eps,
            bvs: common.bv_types(),
            threads,
            precision: if common.f32 { "f32" } else { "f64" },
            d_min,
            eps_contact: 1.0 / d_min - 1.0,
            scaled: !flags.unscaled,
            descend: flags.descend.descend,
        })
    }

    /// Scale of the outer mesh for gap `eps`.
    fn outer_scale(&self, eps: f64) -> f64 {
        if self.scaled {
            (1.0 + eps) / self.d_min
        } else {
            1.0 + eps
        }
    }

    /// Whether the meshes cannot touch at gap `eps`.
    fn cannot_touch(&self, eps: f64) -> bool {
        self.scaled || eps > self.eps_contact
    }

    /// The stamped header lines.
    fn header(&self, seed: u64, stamp: &Stamp) -> Vec<String> {
        let (d_min, eps_contact) = (self.d_min, self.eps_contact);
        let mut lines = vec![
            format!(
                "bench-proximity tris={} {} queries={} seed={seed} {} precision={} threads={} bv={}",
                self.tess.tris(),
                self.tess.describe(),
                self.queries,
                config(self.descend),
                self.precision,
                self.threads,
                self.bvs
                    .iter()
                    .map(|b| b.name())
                    .collect::<Vec<_>>()
                    .join(","),
            ),
            if self.scaled {
                format!(
                    "outer scaled so meshes cannot touch: yes (outer = inner·(1+ε)/d_min, d_min={d_min:.9}); \
                     any contact fails the run"
                )
            } else {
                "outer scaled so meshes cannot touch: no (--unscaled: thesis-literal radius 1+ε); \
                 contacts may appear for ε <= eps_contact"
                    .to_owned()
            },
            format!(
                "eps_contact={eps_contact:.6e} (= 1/ρ_min − 1, ρ_min={d_min:.9}: below it radius-(1+ε) copies can touch)"
            ),
            format!(
                "eps: {} values from {:.3e} to {:.3e}; time = wall time of the collide call only",
                self.eps.len(),
                self.eps[0],
                self.eps[self.eps.len() - 1]
            ),
            format!(
                "median_ms in --json and the speed lines: at the ε closest to {SPEED_EPS:e} (ε={:.4e})",
                self.speed_eps
            ),
            stamp.line(),
        ];
        if self.precision == "f32" {
            lines.push(
                "f32: coordinates carry ~1e-7 relative rounding, comparable to the smallest gaps"
                    .into(),
            );
        }
        lines
    }
}

/// The hard and soft checks derived from the results.
struct Checks {
    /// Ledges and ramp per BV type (empty with fewer than 3 ε values).
    analyses: Vec<(BvType, RampAnalysis)>,
    /// Largest contact count where the meshes cannot touch (`None` if no
    /// such ε was run).
    max_contacts_disjoint: Option<f64>,
    /// Queries breaking the BVTT invariant.
    bvtt_bad: usize,
    /// Largest cv off the right ledge, and where.
    max_cv: Option<(f64, BvType, f64)>,
    /// Largest cv on the ramps, and where.
    ramp_cv: Option<(f64, BvType, f64)>,
}

impl Checks {
    fn new(setup: &Setup, results: &[BvResult], ramp_range: (f64, f64)) -> Self {
        // Ledges and ramps need a curve: skip them for one or two ε values.
        let analyses: Vec<(BvType, RampAnalysis)> = results
            .iter()
            .filter(|_| setup.eps.len() >= 3)
            .map(|r| (r.bv, analyse_ramp(&nv_curve(r), ramp_range)))
            .collect();
        let rows = || results.iter().flat_map(|r| r.rows.iter());
        let max_contacts_disjoint = rows()
            .filter(|row| setup.cannot_touch(row.eps))
            .map(|row| row.counters.k.max)
            .reduce(f64::max);
        let ramp_cv = results
            .iter()
            .zip(&analyses)
            .flat_map(|(r, (_, a))| {
                a.ramp
                    .iter()
                    .map(move |&i| (r.rows[i].counters.nv.cv, r.bv, r.rows[i].eps))
            })
            .max_by(|a, b| a.0.total_cmp(&b.0));
        Self {
            max_cv: max_cv_outside_right_ledge(results, &analyses),
            analyses,
            max_contacts_disjoint,
            bvtt_bad: rows().map(|row| row.counters.bvtt_violations).sum(),
            ramp_cv,
        }
    }

    fn analysis(&self, bv: BvType) -> Option<&RampAnalysis> {
        self.analyses.iter().find(|(b, _)| *b == bv).map(|(_, a)| a)
    }

    fn verdict(&self) -> Verdict {
        match (self.max_contacts_disjoint, self.bvtt_bad) {
            (Some(k), _) if k > 0.0 => {
                Verdict::Fail(format!("{k} contacts where the meshes cannot touch"))
            }
            (_, bad) if bad > 0 => {
                Verdict::Fail(format!("BVTT invariant violated in {bad} queries"))
            }
            _ => Verdict::Pass,
        }
    }
}

/// `(ε, mean N_v)` of one BV type, by increasing ε.
fn nv_curve(r: &BvResult) -> Vec<(f64, f64)> {
    r.rows
        .iter()
        .map(|row| (row.eps, row.counters.nv.mean))
        .collect()
}

/// Runs the suite.
pub fn run(flags: &ProximityFlags) -> Result<Verdict> {
    let common = &flags.common;
    let threads = super::configure_threads(common.threads)?;
    let tess = Tessellation::from_flags(
        &flags.mesh,
        if common.quick {
            QUICK_TRIS
        } else {
            DEFAULT_TRIS
        },
    )?;
    let inner = tess.mesh(1.0);
    let setup = Setup::new(flags, &inner, tess, threads)?;
    let poses: Vec<PosePair> = super::rotation_pairs(common.seed, setup.queries)
        .into_iter()
        .map(|(a, b)| {
            (
                Isometry3::from_parts(Translation3::identity(), a),
                Isometry3::from_parts(Translation3::identity(), b),
            )
        })
        .collect();

    let stamp = Stamp::collect();
    let header = setup.header(common.seed, &stamp);
    for line in &header {
        println!("# {line}");
    }

    let progress = progress_bar((setup.bvs.len() * setup.eps.len() * setup.queries) as u64);
    let outer_scale = |eps: f64| setup.outer_scale(eps);
    let mut results = Vec::new();
    for &bv in &setup.bvs {
        let mut job = Job {
            inner: &inner,
            outer_scale: &outer_scale,
            eps: &setup.eps,
            poses: &poses,
            progress: &progress,
            levels: flags.levels,
            descent: setup.descend.rule(),
        };
        results.push(dispatch(&mut job, bv, common.f32)?);
    }
    progress.finish_and_clear();

    let mut table = Table::new(&[
        "bv",
        "eps",
        "nv_mean",
        "nv_std",
        "nv_cv",
        "np_mean",
        "k_mean",
        "k_max",
        "time_ms_median",
        "time_ms_mean",
    ]);
    table.comments = header;
    for r in &results {
        for row in &r.rows {
            let c = &row.counters;
            table.rows.push(vec![
                r.bv.name().into(),
                format!("{:.4e}", row.eps),
                num(c.nv.mean),
                num(c.nv.std),
                format!("{:.5}", c.nv.cv),
                num(c.np.mean),
                num(c.k.mean),
                num(c.k.max),
                format!("{:.4}", c.time_ms.median),
                format!("{:.4}", c.time_ms.mean),
            ]);
        }
    }
    print!("{}", table.render_body());
    let out = &common.out_dir();
    table.write(&out.join("proximity.csv"))?;

    let checks = Checks::new(&setup, &results, flags.ramp_range.unwrap_or((0.25, 0.75)));
    print_comparison(&setup, &results, &checks, common.quick);

    if flags.levels {
        let trees: Vec<_> = results.iter().map(|r| (r.bv, r.levels.clone())).collect();
        levels::report(&trees, out, &table.comments[0])?;
    }

    Chart {
        title: format!(
            "Parallel close proximity: mean BV tests vs ε ({} tris, {} queries)",
            setup.tess.tris(),
            setup.queries
        ),
        x_label: "gap ε".into(),
        y_label: "mean BV tests per query".into(),
        x_log: true,
        legend: SeriesLabelPosition::UpperRight,
        series: results
            .iter()
            .map(|r| Series::bv(r.bv, nv_curve(r)))
            .collect(),
    }
    .write_svg(&out.join("proximity.svg"))?;
    eprintln!(
        "wrote {} and {}",
        out.join("proximity.csv").display(),
        out.join("proximity.svg").display()
    );

    if let Some(path) = &common.json {
        write_json(
            path,
            &json_summary(&setup, &results, &checks, common.seed, &stamp),
        )?;
    }
    Ok(checks.verdict())
}

/// Mean counters at the speed ε.
fn at_speed_eps(setup: &Setup, r: &BvResult) -> Option<Counters> {
    r.rows
        .iter()
        .find(|row| row.eps == setup.speed_eps)
        .map(|row| row.counters)
}

/// The comparison block against the thesis numbers.
fn print_comparison(setup: &Setup, results: &[BvResult], checks: &Checks, quick: bool) {
    println!();
    println!("## comparison with the thesis (Gottschalk 2000, §5.3.2)");
    if quick {
        println!(
            "note: --quick numbers are indicative only ({} triangles, {} queries, {} ε values)",
            setup.tess.tris(),
            setup.queries,
            setup.eps.len()
        );
    }
    if checks.analyses.is_empty() {
        println!(
            "ledge/ramp analysis skipped: it needs at least 3 ε values (got {})",
            setup.eps.len()
        );
    }
    for r in [BvType::Obb, BvType::Aabb, BvType::Sphere]
        .iter()
        .filter_map(|bv| results.iter().find(|r| r.bv == *bv))
    {
        let Some(a) = checks.analysis(r.bv) else {
            continue;
        };
        let thesis = if r.bv == BvType::Obb {
            "(thesis -1.14, theory -1)"
        } else {
            "(thesis ≈ -2, theory -2)"
        };
        let span = match (a.ramp.first(), a.ramp.last()) {
            (Some(&i), Some(&j)) if i != j => {
                format!(
                    "ramp: {} points, ε {:.2e} … {:.2e}",
                    a.ramp.len(),
                    r.rows[i].eps,
                    r.rows[j].eps
                )
            }
            _ => "ramp: fewer than 2 points".into(),
        };
        println!(
            "slope {}={} {thesis}  [{span}]",
            r.bv.name(),
            slope(a.slope)
        );
    }
    for r in results {
        let (Some(a), Some(last)) = (checks.analysis(r.bv), r.rows.last()) else {
            continue;
        };
        let thesis = if r.bv == BvType::Obb {
            "(thesis 15)"
        } else {
            "(thesis: not stated)"
        };
        println!(
            "right-ledge {}={} {thesis}  [mean D={} disjoint, I={} overlapping at ε={:.2e}]",
            r.bv.name(),
            num(a.right_ledge),
            num(last.counters.d.mean),
            num(last.counters.i.mean),
            last.eps
        );
    }
    for (bv, a) in &checks.analyses {
        println!(
            "left-ledge {}={} (thesis: depends on tessellation and packing)",
            bv.name(),
            num(a.left_ledge)
        );
    }
    for (bv, a) in &checks.analyses {
        if let Some((s, from, to)) = a.steepest {
            println!(
                "steepest local slope {}={s:.3} between ε={from:.2e} and {to:.2e} \
                 (thesis: a short, even steeper descent into the lower ledge)",
                bv.name()
            );
        }
    }
    match checks.max_cv {
        Some((cv, bv, e)) => println!(
            "max cv outside right ledge={cv:.4} at {} ε={e:.2e} (thesis < 0.02)",
            bv.name()
        ),
        None if !checks.analyses.is_empty() => {
            println!("max cv outside right ledge=n/a (no points off the right ledge)")
        }
        None => {}
    }
    if let Some((cv, bv, e)) = checks.ramp_cv {
        println!(
            "max cv on the ramps={cv:.4} at {} ε={e:.2e} (the thesis: < 0.02)",
            bv.name()
        );
    }
    match checks.max_contacts_disjoint {
        Some(k) => println!(
            "max contacts where the meshes cannot touch={} (must be 0)",
            num(k)
        ),
        None => println!("max contacts where the meshes cannot touch=n/a (no ε above eps_contact)"),
    }
    let bvtt = match checks.bvtt_bad {
        0 => "holds in every query".to_owned(),
        bad => format!("VIOLATED in {bad} queries"),
    };
    println!("{BVTT_IDENTITY}: {bvtt}");
    let advice = if setup.threads > 1 {
        "; use --threads 1 for timing figures"
    } else {
        ""
    };
    for r in results {
        if let Some(c) = at_speed_eps(setup, r) {
            println!(
                "speed {} ε={:.3e}: median {:.4} ms/query (mean {:.4}), mean BV tests/query {}, mean tri tests/query {} \
                 [threads={}{advice}]",
                r.bv.name(),
                setup.speed_eps,
                c.time_ms.median,
                c.time_ms.mean,
                num(c.nv.mean),
                num(c.np.mean),
                setup.threads,
            );
        }
    }
}

/// The `--json` summary.
fn json_summary(
    setup: &Setup,
    results: &[BvResult],
    checks: &Checks,
    seed: u64,
    stamp: &Stamp,
) -> serde_json::Value {
    let by_bv = |f: &dyn Fn(BvType) -> Option<f64>| {
        serde_json::Value::Object(
            setup
                .bvs
                .iter()
                .map(|&b| (b.name().to_owned(), json_num(f(b))))
                .collect(),
        )
    };
    let result = |b: BvType| results.iter().find(|r| r.bv == b);
    json!({
        "suite": "bench-proximity",
        "tris": setup.tess.tris(),
        "mesh": setup.tess.describe(),
        "queries": setup.queries,
        "seed": seed,
        "precision": setup.precision,
        "threads": setup.threads,
        "scaled": setup.scaled,
        "eps_contact": setup.eps_contact,
        "slopes": by_bv(&|b| checks.analysis(b).and_then(|a| a.slope)),
        "right_ledge": by_bv(&|b| checks.analysis(b).map(|a| a.right_ledge)),
        "left_ledge": by_bv(&|b| checks.analysis(b).map(|a| a.left_ledge)),
        "max_contacts_where_disjoint": json_num(checks.max_contacts_disjoint),
        "max_cv_outside_right_ledge": json_num(checks.max_cv.map(|m| m.0)),
        "median_ms_eps": setup.speed_eps,
        "median_ms": by_bv(&|b| result(b).and_then(|r| at_speed_eps(setup, r)).map(|c| c.time_ms.median)),
        "revision": stamp.revision,
        "host": stamp.host,
    })
}

/// The largest cv of N_v over the points off the right ledge (see
/// [`RIGHT_LEDGE_BAND`]), with where it occurs.
fn max_cv_outside_right_ledge(
    results: &[BvResult],
    analyses: &[(BvType, RampAnalysis)],
) -> Option<(f64, BvType, f64)> {
    let mut best: Option<(f64, BvType, f64)> = None;
    for (r, (_, a)) in results.iter().zip(analyses) {
        let h = a.left_ledge.log10() - a.right_ledge.log10();
        if h.is_nan() || h <= 0.0 {
            continue;
        }
        let threshold = a.right_ledge.log10() + RIGHT_LEDGE_BAND * h;
        for row in r
            .rows
            .iter()
            .filter(|row| row.counters.nv.mean.log10() > threshold)
        {
            if best.is_none_or(|b| row.counters.nv.cv > b.0) {
                best = Some((row.counters.nv.cv, r.bv, row.eps));
            }
        }
    }
    best
}

/// The value of `xs` closest to `target` in log scale.
fn closest_log(xs: &[f64], target: f64) -> f64 {
    xs.iter()
        .copied()
        .min_by(|a, b| (a / target).ln().abs().total_cmp(&(b / target).ln().abs()))
        .unwrap_or(target)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_grid_has_29_values_4_per_decade() {
        let g = log_grid(1e-6, 1e1, 4).unwrap();
        assert_eq!(g.len(), 29);
        assert!((g[0] - 1e-6).abs() < 1e-18 && (g[28] - 10.0).abs() < 1e-12);
        assert!((g[4] - 1e-5).abs() < 1e-17);
        assert_eq!(log_grid(1e-6, 1e1, 2).unwrap().len(), 15);
        assert!(log_grid(1e-3, 1e-4, 4).is_err());
        assert_eq!(closest_log(&g, 1e-3), g[12]);
    }
}

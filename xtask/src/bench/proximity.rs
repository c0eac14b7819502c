//! `bench-proximity`: parallel close proximity (Gottschalk §5.3.2, Fig. 5.11;
//! digest 002-part2 §1.5 and §5.2).
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
use ccd::{BoundingVolume, Real};
use ccd_testkit::{Mesh, min_face_plane_distance};
use indicatif::ProgressBar;
use serde_json::json;

use super::levels::{self, LevelRow};
use super::{BvJob, Counters, FIXED_CONFIG, PosePair, Verdict, build_model, dispatch, progress_bar, run_queries};
use crate::fit::{RampAnalysis, analyse_ramp};
use crate::flags::{BvType, ProximityFlags};
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
}

impl BvJob for Job<'_> {
    type Output = BvResult;

    fn run<T: Real, B: BoundingVolume<T>>(&mut self, bv: BvType) -> Result<BvResult> {
        let inner = build_model::<T, B>(self.inner)?;
        let levels = if self.levels { levels::per_level(&inner) } else { Vec::new() };
        let mut rows = Vec::with_capacity(self.eps.len());
        for &eps in self.eps {
            self.progress.set_message(format!("{} ε={eps:.2e}", bv.name()));
            let outer = build_model::<T, B>(&self.inner.clone().scaled((self.outer_scale)(eps)))?;
            let samples = run_queries(&inner, &outer, self.poses, self.progress)?;
            rows.push(EpsRow { eps, counters: Counters::of(&samples) });
        }
        Ok(BvResult { bv, rows, levels })
    }
}

/// The ε values to run: `--eps` if given, else the log-spaced grid.
fn eps_values(flags: &ProximityFlags) -> Result<Vec<f64>> {
    let mut eps = if flags.eps.is_empty() {
        let per_decade = flags.per_decade.unwrap_or(if flags.common.quick { 2 } else { 4 });
        log_grid(flags.eps_min, flags.eps_max, per_decade)?
    } else {
        flags.eps.clone()
    };
    ensure!(eps.iter().all(|e| e.is_finite() && *e > 0.0), "every ε must be positive and finite");
    eps.sort_by(f64::total_cmp);
    eps.dedup();
    Ok(eps)
}

/// `per_decade` log-spaced points per decade from `min` to `max` (both
/// included when `max/min` is a whole number of steps).
pub fn log_grid(min: f64, max: f64, per_decade: u32) -> Result<Vec<f64>> {
    ensure!(min > 0.0 && max >= min && min.is_finite() && max.is_finite(), "need 0 < --eps-min <= --eps-max");
    ensure!(per_decade >= 1, "--per-decade must be at least 1");
    let (lo, hi, pd) = (min.log10(), max.log10(), f64::from(per_decade));
    let steps = ((hi - lo) * pd + 1e-9).floor() as usize;
    Ok((0..=steps).map(|k| 10f64.powf(lo + k as f64 / pd)).collect())
}

/// Runs the suite.
pub fn run(flags: &ProximityFlags) -> Result<Verdict> {
    let common = &flags.common;
    let threads = super::configure_threads(common.threads)?;
    let tess = Tessellation::from_flags(&flags.mesh, if common.quick { QUICK_TRIS } else { DEFAULT_TRIS })?;
    let queries = common.queries.unwrap_or(if common.quick { 10 } else { 100 });
    ensure!(queries >= 1, "--queries must be at least 1");
    let eps = eps_values(flags)?;
    let bvs = common.bv_types();
    let ramp_range = flags.ramp_range.unwrap_or((0.25, 0.75));

    let inner = tess.mesh(1.0);
    let d_min = min_face_plane_distance(&inner, [0.0; 3]);
    if !(d_min > 0.0 && d_min <= 1.0) {
        bail!("unexpected face-plane distance {d_min} of the inner mesh");
    }
    let eps_contact = 1.0 / d_min - 1.0;
    let scaled = !flags.unscaled;
    let outer_scale = move |e: f64| if scaled { (1.0 + e) / d_min } else { 1.0 + e };
    let poses: Vec<PosePair> = super::rotation_pairs(common.seed, queries)
        .into_iter()
        .map(|(a, b)| (Isometry3::from_parts(Translation3::identity(), a), Isometry3::from_parts(Translation3::identity(), b)))
        .collect();

    let stamp = Stamp::collect();
    let precision = if common.f32 { "f32" } else { "f64" };
    let speed_eps = closest_log(&eps, SPEED_EPS);
    let mut comments = vec![
        format!(
            "bench-proximity tris={} {} queries={queries} seed={} {FIXED_CONFIG} precision={precision} threads={threads} bv={}",
            tess.tris(),
            tess.describe(),
            common.seed,
            bvs.iter().map(|b| b.name()).collect::<Vec<_>>().join(","),
        ),
        if scaled {
            format!("outer scaled so meshes cannot touch: yes (outer = inner·(1+ε)/d_min, d_min={d_min:.9}); any contact fails the run")
        } else {
            format!("outer scaled so meshes cannot touch: no (--unscaled: thesis-literal radius 1+ε); contacts may appear for ε <= eps_contact")
        },
        format!("eps_contact={eps_contact:.6e} (= 1/ρ_min − 1, ρ_min={d_min:.9}: below it radius-(1+ε) copies can touch)"),
        format!("eps: {} values from {:.3e} to {:.3e}; time = wall time of the collide call only", eps.len(), eps[0], eps[eps.len() - 1]),
        format!("median_ms in --json and the speed lines: at the ε closest to {SPEED_EPS:e} (ε={speed_eps:.4e})"),
        stamp.line(),
    ];
    if common.f32 {
        comments.push("f32: coordinates carry ~1e-7 relative rounding, comparable to the smallest gaps".into());
    }
    for c in &comments {
        println!("# {c}");
    }

    let progress = progress_bar((bvs.len() * eps.len() * queries) as u64);
    let mut results = Vec::new();
    for &bv in &bvs {
        let mut job =
            Job { inner: &inner, outer_scale: &outer_scale, eps: &eps, poses: &poses, progress: &progress, levels: flags.levels };
        results.push(dispatch(&mut job, bv, common.f32)?);
    }
    progress.finish_and_clear();

    let mut table = Table::new(&[
        "bv", "eps", "nv_mean", "nv_std", "nv_cv", "np_mean", "k_mean", "k_max", "time_ms_median", "time_ms_mean",
    ]);
    table.comments = comments;
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
    let rendered = table.render();
    let body_start = rendered.find("bv,eps").unwrap_or(0);
    print!("{}", &rendered[body_start..]);
    let out = &common.out;
    table.write(&out.join("proximity.csv"))?;

    // Analysis.
    let analyses: Vec<(BvType, RampAnalysis)> = results
        .iter()
        .map(|r| (r.bv, analyse_ramp(&r.rows.iter().map(|row| (row.eps, row.counters.nv.mean)).collect::<Vec<_>>(), ramp_range)))
        .collect();
    let cannot_touch = |e: f64| scaled || e > eps_contact;
    let max_contacts_disjoint = results
        .iter()
        .flat_map(|r| r.rows.iter())
        .filter(|row| cannot_touch(row.eps))
        .map(|row| row.counters.k.max)
        .fold(0.0, f64::max);
    let any_disjoint_rows = results.iter().flat_map(|r| r.rows.iter()).any(|row| cannot_touch(row.eps));
    let bvtt_bad: usize = results.iter().flat_map(|r| r.rows.iter()).map(|row| row.counters.bvtt_violations).sum();
    let max_cv = max_cv_outside_right_ledge(&results, &analyses);

    println!();
    println!("## comparison with the thesis (Gottschalk 2000, §5.3.2; digest 002-part2 §5.5)");
    if common.quick {
        println!("note: --quick numbers are indicative only ({} triangles, {queries} queries, {} ε values)", tess.tris(), eps.len());
    }
    for bv in [BvType::Obb, BvType::Aabb, BvType::Sphere] {
        let Some((_, a)) = analyses.iter().find(|(b, _)| *b == bv) else { continue };
        let thesis = match bv {
            BvType::Obb => "(thesis -1.14, theory -1)",
            _ => "(thesis ≈ -2, theory -2)",
        };
        let r = results.iter().find(|r| r.bv == bv).expect("result per analysed bv");
        let span = match (a.ramp.first(), a.ramp.last()) {
            (Some(&i), Some(&j)) => format!("ramp: {} points, ε {:.2e} … {:.2e}", a.ramp.len(), r.rows[i].eps, r.rows[j].eps),
            _ => "ramp: fewer than 2 points".into(),
        };
        println!("slope {}={} {thesis}  [{span}]", bv.name(), slope(a.slope));
    }
    for (bv, a) in &analyses {
        let thesis = if *bv == BvType::Obb { "(thesis 15)" } else { "(thesis: not stated)" };
        println!("right-ledge {}={} {thesis}", bv.name(), num(a.right_ledge));
    }
    for (bv, a) in &analyses {
        println!("left-ledge {}={} (thesis: depends on tessellation and packing)", bv.name(), num(a.left_ledge));
    }
    for (bv, a) in &analyses {
        if let Some((s, from, to)) = a.steepest {
            println!(
                "steepest local slope {}={s:.3} between ε={from:.2e} and {to:.2e} (thesis: a short, even steeper descent into the lower ledge)",
                bv.name()
            );
        }
    }
    match max_cv {
        Some((cv, bv, e)) => println!("max cv outside right ledge={cv:.4} at {} ε={e:.2e} (thesis < 0.02)", bv.name()),
        None => println!("max cv outside right ledge=n/a (no points off the right ledge)"),
    }
    if any_disjoint_rows {
        println!("max contacts where the meshes cannot touch={} (must be 0)", num(max_contacts_disjoint));
    } else {
        println!("max contacts where the meshes cannot touch=n/a (no ε above eps_contact)");
    }
    println!(
        "bvtt invariant D − I + 2·N_p = 1: {}",
        if bvtt_bad == 0 { "holds in every query".to_owned() } else { format!("VIOLATED in {bvtt_bad} queries") }
    );
    let median_at_speed_eps = |r: &BvResult| r.rows.iter().find(|row| row.eps == speed_eps).map(|row| row.counters);
    for r in &results {
        if let Some(c) = median_at_speed_eps(r) {
            println!(
                "speed {} ε={speed_eps:.3e}: median {:.4} ms/query (mean {:.4}), mean BV tests/query {}, mean tri tests/query {} [threads={threads}{}]",
                r.bv.name(),
                c.time_ms.median,
                c.time_ms.mean,
                num(c.nv.mean),
                num(c.np.mean),
                if threads > 1 { "; use --threads 1 for timing figures" } else { "" },
            );
        }
    }

    // Levels (Fig. 5.17).
    if flags.levels {
        levels::report(&results.iter().map(|r| (r.bv, r.levels.clone())).collect::<Vec<_>>(), out, &table.comments[0])?;
    }

    // Plot (Fig. 5.11).
    let chart = Chart {
        title: format!("Parallel close proximity: mean BV tests vs ε ({} tris, {queries} queries)", tess.tris()),
        x_label: "gap ε".into(),
        y_label: "mean BV tests per query".into(),
        x_log: true,
        series: results.iter().map(|r| Series::bv(r.bv, r.rows.iter().map(|row| (row.eps, row.counters.nv.mean)).collect())).collect(),
    };
    chart.write_svg(&out.join("proximity.svg"))?;
    eprintln!("wrote {} and {}", out.join("proximity.csv").display(), out.join("proximity.svg").display());

    if let Some(path) = &common.json {
        let by_bv = |f: &dyn Fn(&BvType) -> serde_json::Value| {
            serde_json::Value::Object(bvs.iter().map(|b| (b.name().to_owned(), f(b))).collect())
        };
        let analysis = |b: &BvType| analyses.iter().find(|(x, _)| x == b).map(|(_, a)| a);
        let value = json!({
            "suite": "bench-proximity",
            "tris": tess.tris(),
            "mesh": tess.describe(),
            "queries": queries,
            "seed": common.seed,
            "precision": precision,
            "threads": threads,
            "scaled": scaled,
            "eps_contact": eps_contact,
            "slopes": by_bv(&|b| json_num(analysis(b).and_then(|a| a.slope))),
            "right_ledge": by_bv(&|b| json_num(analysis(b).map(|a| a.right_ledge))),
            "left_ledge": by_bv(&|b| json_num(analysis(b).map(|a| a.left_ledge))),
            "max_contacts_where_disjoint": json_num(any_disjoint_rows.then_some(max_contacts_disjoint)),
            "max_cv_outside_right_ledge": json_num(max_cv.map(|m| m.0)),
            "median_ms_eps": speed_eps,
            "median_ms": by_bv(&|b| json_num(results.iter().find(|r| r.bv == *b).and_then(median_at_speed_eps).map(|c| c.time_ms.median))),
            "revision": stamp.revision,
            "host": stamp.host,
        });
        write_json(path, &value)?;
    }

    Ok(if max_contacts_disjoint > 0.0 {
        Verdict::Fail(format!("{max_contacts_disjoint} contacts where the meshes cannot touch"))
    } else if bvtt_bad > 0 {
        Verdict::Fail(format!("BVTT invariant violated in {bvtt_bad} queries"))
    } else {
        Verdict::Pass
    })
}

/// The largest cv of N_v over the points off the right ledge (see
/// [`RIGHT_LEDGE_BAND`]), with where it occurs.
fn max_cv_outside_right_ledge(results: &[BvResult], analyses: &[(BvType, RampAnalysis)]) -> Option<(f64, BvType, f64)> {
    let mut best: Option<(f64, BvType, f64)> = None;
    for (r, (_, a)) in results.iter().zip(analyses) {
        let h = a.left_ledge.log10() - a.right_ledge.log10();
        if !(h > 0.0) {
            continue;
        }
        let threshold = a.right_ledge.log10() + RIGHT_LEDGE_BAND * h;
        for row in r.rows.iter().filter(|row| row.counters.nv.mean.log10() > threshold) {
            if best.is_none_or(|b| row.counters.nv.cv > b.0) {
                best = Some((row.counters.nv.cv, r.bv, row.eps));
            }
        }
    }
    best
}

/// The value of `xs` closest to `target` in log scale.
fn closest_log(xs: &[f64], target: f64) -> f64 {
    xs.iter().copied().min_by(|a, b| (a / target).ln().abs().total_cmp(&(b / target).ln().abs())).unwrap_or(target)
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

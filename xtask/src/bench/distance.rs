//! `cargo xtask bench-distance`: the distance and tolerance queries on the thesis's scenes.
//!
//! - **Parallel close proximity**: the lat/long sphere and its copy scaled by `(1 + ε)/d_min` (so no point of the
//!   outer mesh is closer than `1 + ε` to the centre and the meshes are at least `ε` apart), both at the origin
//!   under random rotations. Every reported distance must be at least `ε`; every volume type must find the same
//!   exact distance (the minimum is unique up to rounding); with `rel_err` the answer must lie within
//!   `(1 + rel_err)` of the exact one; the tolerance query must answer "no" at `τ = ε/2` and "yes" at
//!   `τ = max(2ε, d)`.
//! - **Transverse contact**: unit spheres `√2` apart under random rotations: distance 0 every time.
//! - **Sliding-sphere path** ([`distance_path`](super::distance_path)): the radius-0.8 sphere's centre from
//!   `x = 0` to 2 beside the unit sphere, new random rotations at each position: the distance against the
//!   analytic curve, within the tessellation's band.
//!
//! Times are wall time of the query call alone, medians over the queries, one thread by default.

use std::time::Instant;

use anyhow::{Result, ensure};
use ccd::nalgebra::{Isometry3, Translation3, Vector3};
use ccd::{BoundingVolume, DistanceRequest, Model, Real};
use ccd_testkit::measure::min_face_plane_distance;
use plotters::prelude::SeriesLabelPosition;
use serde_json::{Value, json};

use super::distance_path::{PathStep, outside_band, run_path, summary};
use super::{BvJob, Verdict, build_model, cast_pose, dispatch, progress_bar, rotation_pairs};
use crate::flags::{BvType, DistanceFlags};
use crate::mesh::Tessellation;
use crate::plot::{Chart, Series};
use crate::report::{Stamp, Table, write_json};
use crate::stats::median;

/// One configuration's measurements.
#[derive(Clone, Debug)]
struct Row {
    bv: BvType,
    scene: &'static str,
    eps: f64,
    rel_err: f64,
    /// Median wall time per query, milliseconds.
    ms: f64,
    bv_tests: f64,
    primitive_tests: f64,
    pushes: f64,
    peak: f64,
    /// Median reported distance.
    distance: f64,
}

/// The queries of one volume type.
struct Job<'a> {
    flags: &'a DistanceFlags,
    tess: Tessellation,
    d_min: f64,
    eps: Vec<f64>,
    rel_errs: Vec<f64>,
    queries: usize,
    rows: Vec<Row>,
    /// Exact distances per (ε index, query), to compare volume types.
    exact: Vec<Vec<f64>>,
    /// Positions of the sliding-sphere path (0: skipped).
    path_steps: usize,
    /// The path's positions, every volume type.
    path: Vec<PathStep>,
    failures: Vec<String>,
}

/// Runs `f` once per query (each with its own poses) and returns its wall times and results.
fn timed<R>(n: usize, mut f: impl FnMut(usize) -> Result<R>) -> Result<(Vec<f64>, Vec<R>)> {
    let (mut ms, mut out) = (Vec::with_capacity(n), Vec::with_capacity(n));
    for i in 0..n {
        let start = Instant::now();
        let r = f(i)?;
        ms.push(start.elapsed().as_secs_f64() * 1e3);
        out.push(r);
    }
    Ok((ms, out))
}

impl BvJob for Job<'_> {
    type Output = ();

    fn run<T: Real, B: BoundingVolume<T>>(&mut self, bv: BvType) -> Result<()> {
        let inner = build_model::<T, B>(&self.tess.mesh(1.0))?;
        let rotations = rotation_pairs(self.flags.common.seed, self.queries);
        let poses: Vec<(Isometry3<T>, Isometry3<T>)> = rotations
            .iter()
            .map(|(ra, rb)| {
                let iso = |q| cast_pose::<T>(&Isometry3::from_parts(Translation3::identity(), q));
                (iso(*ra), iso(*rb))
            })
            .collect();
        let bar = progress_bar((self.eps.len() * self.rel_errs.len() * self.queries) as u64);
        for (k, &eps) in self.eps.clone().iter().enumerate() {
            let outer = build_model::<T, B>(&self.tess.mesh((1.0 + eps) / self.d_min))?;
            let mut exact_here = Vec::new();
            for &rel in &self.rel_errs.clone() {
                let request = DistanceRequest {
                    rel_err: T::lit(rel),
                    ..DistanceRequest::exact()
                };
                let (ms, results) = timed(self.queries, |i| {
                    let (pa, pb) = &poses[i];
                    let r = ccd::distance(&inner, pa, &outer, pb, &request)?;
                    bar.inc(1);
                    Ok(r)
                })?;
                let ds: Vec<f64> = results
                    .iter()
                    .map(|r| {
                        r.closest()
                            .map_or(f64::INFINITY, |c| c.distance.to_f64_exact())
                    })
                    .collect();
                for (i, &d) in ds.iter().enumerate() {
                    // The meshes are at least ε apart; allow the primitive's rounding (scale ≈ 1).
                    if d < eps - 1e-5 * eps.max(1e-3) {
                        self.failures.push(format!(
                            "{} ε={eps:e} query {i}: distance {d} < ε",
                            bv.name()
                        ));
                    }
                    if rel == 0.0 {
                        exact_here.push(d);
                    } else if let Some(&e) = exact_here.get(i) {
                        let bound = e * (1.0 + rel) + 1e-5 * e.max(1e-3);
                        if d > bound || d < e - 1e-5 * e.max(1e-3) {
                            self.failures.push(format!(
                                "{} ε={eps:e} rel {rel} query {i}: {d} outside [{e}, {bound}]",
                                bv.name()
                            ));
                        }
                    }
                }
                let stat = |f: &dyn Fn(&ccd::DistanceStats) -> u64| {
                    results.iter().map(|r| f(&r.stats) as f64).sum::<f64>() / results.len() as f64
                };
                self.rows.push(Row {
                    bv,
                    scene: "proximity",
                    eps,
                    rel_err: rel,
                    ms: median(&ms),
                    bv_tests: stat(&|s| s.bv_tests),
                    primitive_tests: stat(&|s| s.primitive_tests),
                    pushes: stat(&|s| s.queue_pushes),
                    peak: stat(&|s| s.queue_peak),
                    distance: median(&ds),
                });
            }
            self.tolerance_checks::<T, B>(bv, &inner, &outer, &poses, eps, &exact_here)?;
            match self.exact.get(k) {
                Some(prev) => {
                    for (i, (&d0, &d1)) in prev.iter().zip(&exact_here).enumerate() {
                        if (d0 - d1).abs() > 1e-5 * d0.max(1e-3) {
                            self.failures.push(format!(
                                "ε={eps:e} query {i}: {} gives {d1}, an earlier type {d0}",
                                bv.name()
                            ));
                        }
                    }
                }
                None => self.exact.push(exact_here),
            }
        }
        bar.finish_and_clear();
        self.transverse::<T, B>(bv)?;
        if self.path_steps >= 2 {
            let steps = run_path::<T, B>(bv, self.tess, self.path_steps, self.flags.common.seed)?;
            self.failures.extend(outside_band(&steps, 1.0 - self.d_min));
            let (ms, bv_tests, primitive_tests) = summary(&steps);
            let ds: Vec<f64> = steps.iter().map(|p| p.distance).collect();
            self.rows.push(Row {
                bv,
                scene: "sliding path",
                eps: 0.0,
                rel_err: 0.0,
                ms,
                bv_tests,
                primitive_tests,
                pushes: f64::NAN,
                peak: f64::NAN,
                distance: median(&ds),
            });
            self.path.extend(steps);
        }
        Ok(())
    }
}

impl Job<'_> {
    /// Tolerance queries at `ε/2` (no: the meshes are at least `ε` apart) and at `max(2ε, d)` (yes).
    fn tolerance_checks<T: Real, B: BoundingVolume<T>>(
        &mut self,
        bv: BvType,
        inner: &Model<T, B>,
        outer: &Model<T, B>,
        poses: &[(Isometry3<T>, Isometry3<T>)],
        eps: f64,
        exact: &[f64],
    ) -> Result<()> {
        for (label, yes) in [("tolerance eps/2", false), ("tolerance 2eps", true)] {
            let (ms, results) = timed(self.queries, |i| {
                let (pa, pb) = &poses[i];
                let tau = if yes {
                    (2.0 * eps).max(exact[i] * 1.001)
                } else {
                    eps * 0.5
                };
                Ok(ccd::within_distance(inner, pa, outer, pb, T::lit(tau))?)
            })?;
            let wrong = results.iter().filter(|r| r.is_within() != yes).count();
            if wrong > 0 {
                self.failures.push(format!(
                    "{} ε={eps:e} {label}: {wrong} wrong answers",
                    bv.name()
                ));
            }
            let stat = |f: &dyn Fn(&ccd::QueryStats) -> u64| {
                results.iter().map(|r| f(&r.stats) as f64).sum::<f64>() / results.len() as f64
            };
            self.rows.push(Row {
                bv,
                scene: label,
                eps,
                rel_err: 0.0,
                ms: median(&ms),
                bv_tests: stat(&|s| s.bv_tests),
                primitive_tests: stat(&|s| s.tri_tests),
                pushes: 0.0,
                peak: 0.0,
                distance: f64::NAN,
            });
        }
        Ok(())
    }

    /// Transverse contact: two unit spheres √2 apart intersect, so the distance is 0 under every rotation.
    fn transverse<T: Real, B: BoundingVolume<T>>(&mut self, bv: BvType) -> Result<()> {
        let sphere = build_model::<T, B>(&self.tess.mesh(1.0))?;
        let rotations = rotation_pairs(self.flags.common.seed ^ 0x5eed, self.queries);
        let (ms, results) = timed(self.queries, |i| {
            let (ra, rb) = rotations[i];
            let pa = cast_pose::<T>(&Isometry3::from_parts(Translation3::identity(), ra));
            let pb = cast_pose::<T>(&Isometry3::from_parts(
                Translation3::from(Vector3::new(std::f64::consts::SQRT_2, 0.0, 0.0)),
                rb,
            ));
            Ok(ccd::distance(
                &sphere,
                &pa,
                &sphere,
                &pb,
                &DistanceRequest::exact(),
            )?)
        })?;
        let nonzero = results
            .iter()
            .filter(|r| r.closest().is_none_or(|c| c.distance != T::zero()))
            .count();
        if nonzero > 0 {
            self.failures.push(format!(
                "{} transverse: {nonzero} queries did not answer 0",
                bv.name()
            ));
        }
        let stat = |f: &dyn Fn(&ccd::DistanceStats) -> u64| {
            results.iter().map(|r| f(&r.stats) as f64).sum::<f64>() / results.len() as f64
        };
        self.rows.push(Row {
            bv,
            scene: "transverse",
            eps: 0.0,
            rel_err: 0.0,
            ms: median(&ms),
            bv_tests: stat(&|s| s.bv_tests),
            primitive_tests: stat(&|s| s.primitive_tests),
            pushes: stat(&|s| s.queue_pushes),
            peak: stat(&|s| s.queue_peak),
            distance: 0.0,
        });
        Ok(())
    }
}

/// Runs the suite.
pub fn run(flags: &DistanceFlags) -> Result<Verdict> {
    let common = &flags.common;
    super::configure_threads(Some(common.threads.unwrap_or(1)))?;
    let default_tris = if common.quick { 3_600 } else { 40_000 };
    let tess = Tessellation::from_flags(&flags.mesh, default_tris)?;
    let queries = common.queries.unwrap_or(if common.quick { 5 } else { 50 });
    ensure!(queries >= 1, "--queries must be at least 1");
    let path_steps = flags
        .path_steps
        .unwrap_or(if common.quick { 101 } else { 1001 });
    ensure!(
        path_steps != 1,
        "--path-steps must be 0 (skip) or at least 2"
    );
    let eps = if flags.eps.is_empty() {
        vec![1e-3, 1e-2, 1e-1]
    } else {
        flags.eps.clone()
    };
    ensure!(
        eps.iter().all(|e| *e > 0.0 && e.is_finite()),
        "--eps values must be positive"
    );
    let d_min = min_face_plane_distance(&tess.mesh(1.0), [0.0; 3]);
    let stamp = Stamp::collect();
    let header = vec![
        format!(
            "bench-distance tris={} {} queries={queries} seed={} precision={} threads=1",
            tess.tris(),
            tess.describe(),
            common.seed,
            if common.f32 { "f32" } else { "f64" },
        ),
        format!(
            "proximity: outer = inner·(1+ε)/d_min (d_min={d_min:.9}), so every distance is at least ε"
        ),
        "time = wall time of the distance / within_distance call; medians; counters are means"
            .into(),
        format!(
            "sliding path: {path_steps} positions x in [0, 2] of the radius-0.8 sphere, band = analytic ± sagitta {:.3e}",
            1.0 - d_min
        ),
        stamp.line(),
    ];
    for h in &header {
        println!("# {h}");
    }
    let mut job = Job {
        flags,
        tess,
        d_min,
        eps,
        rel_errs: vec![0.0, 0.1],
        queries,
        rows: Vec::new(),
        exact: Vec::new(),
        path_steps,
        path: Vec::new(),
        failures: Vec::new(),
    };
    for bv in common.bv_types() {
        dispatch(&mut job, bv, common.f32)?;
        eprintln!("bench-distance: {} done", bv.name());
    }
    let mut table = Table::new(&[
        "bv",
        "scene",
        "eps",
        "rel_err",
        "time_ms_median",
        "bv_tests",
        "primitive_tests",
        "queue_pushes",
        "queue_peak",
        "distance_median",
    ]);
    table.comments = header;
    for r in &job.rows {
        table.rows.push(vec![
            r.bv.name().into(),
            r.scene.into(),
            format!("{:e}", r.eps),
            r.rel_err.to_string(),
            format!("{:.4}", r.ms),
            format!("{:.1}", r.bv_tests),
            format!("{:.1}", r.primitive_tests),
            format!("{:.1}", r.pushes),
            format!("{:.1}", r.peak),
            format!("{:.9e}", r.distance),
        ]);
    }
    print!("{}", table.render_body());
    let out = common.out_dir();
    table.write(&out.join("distance.csv"))?;
    let curve = |bv: BvType, scene: &str, rel: f64| -> Vec<(f64, f64)> {
        job.rows
            .iter()
            .filter(|r| r.bv == bv && r.scene == scene && r.rel_err == rel)
            .map(|r| (r.eps, r.ms))
            .collect()
    };
    let bvs = common.bv_types();
    Chart {
        title: format!(
            "Distance, parallel close proximity ({} triangles): time per query",
            job.tess.tris()
        ),
        x_label: "gap ε".into(),
        y_label: "median time per query (ms)".into(),
        x_log: true,
        series: bvs
            .iter()
            .map(|&bv| Series::bv(bv, curve(bv, "proximity", 0.0)))
            .chain(bvs.iter().map(|&bv| {
                let mut s = Series::bv(bv, curve(bv, "proximity", 0.1));
                s.label = format!("{} rel_err 0.1", bv.name());
                s.reference = true;
                s
            }))
            .collect(),
        legend: SeriesLabelPosition::UpperRight,
    }
    .write_svg(&out.join("distance.svg"))?;
    if !job.path.is_empty() {
        write_path(&job.path, &bvs, &out)?;
    }
    if let Some(path) = &common.json {
        let rows: Vec<Value> = job
            .rows
            .iter()
            .map(|r| {
                json!({"bv": r.bv.name(), "scene": r.scene, "eps": r.eps, "rel_err": r.rel_err,
                       "time_ms_median": r.ms, "bv_tests": r.bv_tests, "primitive_tests": r.primitive_tests,
                       "queue_pushes": r.pushes, "queue_peak": r.peak, "distance_median": r.distance})
            })
            .collect();
        let steps: Vec<Value> = job
            .path
            .iter()
            .map(|p| {
                json!({"bv": p.bv.name(), "x": p.x, "distance": p.distance, "analytic": p.analytic,
                       "time_ms": p.ms, "bv_tests": p.bv_tests, "primitive_tests": p.primitive_tests})
            })
            .collect();
        write_json(
            path,
            &json!({"stamp": stamp.line(), "rows": rows, "path": steps, "failures": job.failures}),
        )?;
    }
    println!(
        "## outputs: {0}/distance.csv, {0}/distance.svg, {0}/distance_path.csv, {0}/distance_path.svg",
        out.display()
    );
    if job.failures.is_empty() {
        println!(
            "## checks: every distance >= ε, types agree, rel_err bound held, tolerance answers right, transverse 0, \
             path within the analytic band"
        );
        Ok(Verdict::Pass)
    } else {
        for f in &job.failures {
            println!("## FAIL {f}");
        }
        Ok(Verdict::Fail(format!(
            "{} checks failed",
            job.failures.len()
        )))
    }
}

/// The path's CSV (every position, every volume type) and its plot: the distance along the path per volume type
/// with the analytic curve, and the time per query.
fn write_path(path: &[PathStep], bvs: &[BvType], out: &std::path::Path) -> Result<()> {
    let mut table = Table::new(&[
        "bv",
        "x",
        "distance",
        "analytic",
        "time_ms",
        "bv_tests",
        "primitive_tests",
    ]);
    for p in path {
        table.rows.push(vec![
            p.bv.name().into(),
            format!("{:.4}", p.x),
            format!("{:.9e}", p.distance),
            format!("{:.9e}", p.analytic),
            format!("{:.4}", p.ms),
            p.bv_tests.to_string(),
            p.primitive_tests.to_string(),
        ]);
    }
    table.write(&out.join("distance_path.csv"))?;
    let of = |bv: BvType, f: fn(&PathStep) -> f64| -> Vec<(f64, f64)> {
        path.iter()
            .filter(|p| p.bv == bv)
            .map(|p| (p.x, f(p)))
            .collect()
    };
    let analytic = of(bvs[0], |p| p.analytic);
    let mut series: Vec<Series> = bvs
        .iter()
        .map(|&bv| Series::bv(bv, of(bv, |p| p.distance)))
        .collect();
    series.push(Series::reference("analytic (spheres)", analytic));
    Chart {
        title: "Distance along the sliding-sphere path (exact query)".into(),
        x_label: "centre of the radius-0.8 sphere, x".into(),
        y_label: "distance".into(),
        x_log: false,
        series,
        legend: SeriesLabelPosition::UpperMiddle,
    }
    .write_svg(&out.join("distance_path.svg"))?;
    Chart {
        title: "Distance along the sliding-sphere path: time per query".into(),
        x_label: "centre of the radius-0.8 sphere, x".into(),
        y_label: "time per query (ms)".into(),
        x_log: false,
        series: bvs
            .iter()
            .map(|&bv| Series::bv(bv, of(bv, |p| p.ms)))
            .collect(),
        legend: SeriesLabelPosition::UpperRight,
    }
    .write_svg(&out.join("distance_path_time.svg"))
}

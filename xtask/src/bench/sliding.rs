//! `bench-sliding`: the sliding sphere (Gottschalk §5.3.1, Figs. 5.4–5.8; the angle of Figs. 5.18–5.19).
//!
//! The unit sphere sits at the origin; the radius-0.8 sphere's centre moves along x from 0 to 2 in equal steps
//! (1,001 positions, step 0.002), and both spheres get new random orientations about their centres at every
//! position (the same sequence for every BV type). Per position an all-contacts and a first-contact query are
//! timed, with their counters. The thesis found contacts proportional to the length of the intersection circle
//! (about 70 per unit length at 40,000 triangles), sphere and AABB trees peaking sharply near x = 0.25 where
//! OBB trees level off, and OBB trees needing far fewer tests just before and after contact.
//!
//! Every contact set is compared across BV types, and at a sample of positions with an exact all-pairs count
//! ([`super::all_pairs`]).

use anyhow::{Result, ensure};
use ccd::nalgebra::{Isometry3, Translation3, Vector3};
use ccd::{BoundingVolume, CollideRequest, DescentRule, Pose, Real};
use ccd_testkit::Mesh;
use indicatif::ProgressBar;
use serde_json::json;

use super::distance_path::SMALL_RADIUS;
use super::sliding_report::{self, Checks};
use super::{
    BvJob, PosePair, Sample, Verdict, all_pairs, build_model, cast_pose, config, dispatch,
    progress_bar, rotation_pairs, run_queries,
};
use crate::flags::{BvType, SlidingFlags};
use crate::mesh::Tessellation;
use crate::report::{Stamp, Table, json_num, num, write_json};

/// Default mesh: latlong(101, 200), 40,000 triangles.
const DEFAULT_TRIS: usize = 40_000;
/// `--quick` mesh: latlong(31, 60), 3,600 triangles.
const QUICK_TRIS: usize = 3_600;

/// The radius of the circle in which the unit sphere and the radius-0.8 sphere with centres `x` apart meet
/// (thesis §5.3.1): `r(x) = √(0.8² − ((1 − 0.8² − x²)/(2x))²)`; `None` where they do not meet.
pub fn circle_radius(x: f64) -> Option<f64> {
    if x <= 1.0 - SMALL_RADIUS || x >= 1.0 + SMALL_RADIUS {
        return None;
    }
    let h = (1.0 - SMALL_RADIUS * SMALL_RADIUS - x * x) / (2.0 * x);
    Some((SMALL_RADIUS * SMALL_RADIUS - h * h).max(0.0).sqrt())
}

/// The length `c(x) = 2π·r(x)` of the intersection circle (0 where the spheres do not meet).
pub fn circumference(x: f64) -> f64 {
    circle_radius(x).map_or(0.0, |r| std::f64::consts::TAU * r)
}

/// The angle between the surface normals along the intersection circle, in degrees (the thesis's Figs.
/// 5.18–5.19, by the law of cosines: `cos φ = (1 + 0.8² − x²)/(2·0.8)`, valid over the whole contact range; the
/// printed `acos r + acos(r/0.8)` holds only for x ≥ 0.6). `None` where the spheres do not meet.
pub fn crossing_angle_deg(x: f64) -> Option<f64> {
    circle_radius(x)?;
    let c = (1.0 + SMALL_RADIUS * SMALL_RADIUS - x * x) / (2.0 * SMALL_RADIUS);
    Some(c.clamp(-1.0, 1.0).acos().to_degrees())
}

/// The `count` evenly spaced position indices (first and last included) out of `steps`.
pub fn sample_positions(steps: usize, count: usize) -> Vec<usize> {
    match count {
        0 => Vec::new(),
        1 => vec![steps / 2],
        _ => {
            let mut v: Vec<usize> = (0..count)
                .map(|k| (k * (steps - 1) + (count - 1) / 2) / (count - 1))
                .collect();
            v.dedup();
            v
        }
    }
}

/// The all-pairs check at one position.
#[derive(Clone, Debug)]
pub struct OracleCheck {
    /// Position index.
    pub step: usize,
    /// Contacts counted by the all-pairs oracle.
    pub oracle: usize,
    /// Contacts of the all-contacts query.
    pub query: usize,
    /// Whether the two contact sets are equal (not only their sizes).
    pub same_set: bool,
}

/// Results of one BV type.
#[derive(Clone, Debug)]
pub struct BvRun {
    /// Volume type.
    pub bv: BvType,
    /// Per position: the all-contacts query.
    pub all: Vec<Sample>,
    /// Per position: the first-contact query.
    pub first: Vec<Sample>,
    /// The all-pairs checks (run for the first BV type only: contact sets are compared across types).
    pub oracle: Vec<OracleCheck>,
}

/// The per-BV work: both trees, both queries at every position, the all-pairs checks.
struct Job<'a> {
    big: &'a Mesh,
    small: &'a Mesh,
    poses: &'a [PosePair],
    oracle_at: &'a [usize],
    progress: &'a ProgressBar,
    descent: DescentRule,
}

impl BvJob for Job<'_> {
    type Output = BvRun;

    fn run<T: Real, B: BoundingVolume<T>>(&mut self, bv: BvType) -> Result<BvRun> {
        let big = build_model::<T, B>(self.big)?;
        let small = build_model::<T, B>(self.small)?;
        self.progress.set_message(format!("{} all", bv.name()));
        let all = run_queries(
            &big,
            &small,
            self.poses,
            &CollideRequest::all().with_descent(self.descent),
            self.progress,
        )?;
        self.progress.set_message(format!("{} first", bv.name()));
        let first = run_queries(
            &big,
            &small,
            self.poses,
            &CollideRequest::first().with_descent(self.descent),
            self.progress,
        )?;
        let mut oracle = Vec::with_capacity(self.oracle_at.len());
        for &step in self.oracle_at {
            self.progress.set_message(format!(
                "{} all-pairs x={:.3}",
                bv.name(),
                x_at(step, self.poses.len())
            ));
            let (pa, pb) = &self.poses[step];
            let (pa, pb) = (cast_pose::<T>(pa), cast_pose::<T>(pb));
            let truth = all_pairs::contacts(&big, &small, &Pose::relative_checked(&pa, &pb)?);
            let mut found = ccd::collide(
                &big,
                &pa,
                &small,
                &pb,
                &CollideRequest::all().with_descent(self.descent),
            )?
            .contacts;
            found.sort_unstable();
            oracle.push(OracleCheck {
                step,
                oracle: truth.len(),
                query: all[step].stats.contacts as usize,
                same_set: found == truth,
            });
        }
        Ok(BvRun {
            bv,
            all,
            first,
            oracle,
        })
    }
}

/// The centre of the small sphere at position `i` of `steps`.
pub fn x_at(i: usize, steps: usize) -> f64 {
    2.0 * i as f64 / (steps - 1) as f64
}

/// Per position: the poses of the unit sphere (at the origin) and the small sphere (at `(x, 0, 0)`), each
/// rotated about its own centre.
pub fn sliding_poses(seed: u64, steps: usize) -> Vec<PosePair> {
    rotation_pairs(seed, steps)
        .into_iter()
        .enumerate()
        .map(|(i, (ra, rb))| {
            let offset = Translation3::from(Vector3::new(x_at(i, steps), 0.0, 0.0));
            (
                Isometry3::from_parts(Translation3::identity(), ra),
                Isometry3::from_parts(offset, rb),
            )
        })
        .collect()
}

/// Runs every BV type of `bvs` over the path; the all-pairs checks run with the first type.
pub fn run_path(
    tess: Tessellation,
    poses: &[PosePair],
    bvs: &[BvType],
    oracle_at: &[usize],
    (f32, descent): (bool, DescentRule),
    progress: &ProgressBar,
) -> Result<Vec<BvRun>> {
    let (big, small) = (tess.mesh(1.0), tess.mesh(SMALL_RADIUS));
    let mut runs = Vec::with_capacity(bvs.len());
    for (k, &bv) in bvs.iter().enumerate() {
        let mut job = Job {
            big: &big,
            small: &small,
            poses,
            oracle_at: if k == 0 { oracle_at } else { &[] },
            progress,
            descent,
        };
        runs.push(dispatch(&mut job, bv, f32)?);
    }
    Ok(runs)
}

/// Runs the suite.
pub fn run(flags: &SlidingFlags) -> Result<Verdict> {
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
    let steps = flags.steps.unwrap_or(if common.quick { 101 } else { 1001 });
    ensure!(steps >= 2, "--steps must be at least 2");
    let oracle_count = flags
        .oracle
        .unwrap_or(if common.quick { 6 } else { 21 })
        .min(steps);
    let oracle_at = sample_positions(steps, oracle_count);
    let bvs = common.bv_types();
    let poses = sliding_poses(common.seed, steps);

    let stamp = Stamp::collect();
    let precision = if common.f32 { "f32" } else { "f64" };
    let header = vec![
        format!(
            "bench-sliding tris={} steps={steps} seed={} {} precision={precision} threads={threads} bv={}",
            tess.tris(),
            common.seed,
            config(flags.descend.descend),
            bvs.iter().map(|b| b.name()).collect::<Vec<_>>().join(","),
        ),
        format!("{} for both spheres", tess.describe()),
        format!(
            "unit sphere at the origin, radius-{SMALL_RADIUS} sphere at (x,0,0), x = 0 … 2 in {steps} positions, both \
             rotated about their centres at every position; per position one all-contacts and one first-contact \
             query (time = collide call only); all-pairs check at {} positions",
            oracle_at.len()
        ),
        stamp.line(),
    ];
    for line in &header {
        println!("# {line}");
    }

    let progress = progress_bar((bvs.len() * steps * 2) as u64);
    let runs = run_path(
        tess,
        &poses,
        &bvs,
        &oracle_at,
        (common.f32, flags.descend.descend.rule()),
        &progress,
    )?;
    progress.finish_and_clear();

    let mut table = Table::new(&[
        "bv",
        "x",
        "contacts",
        "nv",
        "np",
        "time_ms",
        "first_found",
        "first_nv",
        "first_np",
        "first_time_us",
        "contacts_70c",
        "angle_deg",
    ]);
    table.comments = header;
    for r in &runs {
        for (i, (all, first)) in r.all.iter().zip(&r.first).enumerate() {
            let x = x_at(i, steps);
            table.rows.push(vec![
                r.bv.name().into(),
                format!("{x:.3}"),
                all.stats.contacts.to_string(),
                all.stats.bv_tests.to_string(),
                all.stats.tri_tests.to_string(),
                format!("{:.4}", all.time.as_secs_f64() * 1e3),
                u8::from(first.stats.contacts > 0).to_string(),
                first.stats.bv_tests.to_string(),
                first.stats.tri_tests.to_string(),
                format!("{:.2}", first.time.as_secs_f64() * 1e6),
                num(70.0 * circumference(x)),
                crossing_angle_deg(x).map_or_else(|| "nan".into(), |a| format!("{a:.3}")),
            ]);
        }
    }
    let out = &common.out_dir();
    table.write(&out.join("sliding.csv"))?;
    sliding_report::print_bands(&runs, steps);

    let checks = Checks::new(&runs, steps);
    sliding_report::print_comparison(&runs, &checks, steps, threads, common.quick);
    sliding_report::write_plots(&runs, &checks, steps, out)?;
    eprintln!(
        "wrote {} and sliding_*.svg",
        out.join("sliding.csv").display()
    );

    if let Some(path) = &common.json {
        let by_bv = |f: &dyn Fn(&BvRun) -> Option<f64>| -> serde_json::Value {
            serde_json::Value::Object(
                runs.iter()
                    .map(|r| (r.bv.name().to_owned(), json_num(f(r))))
                    .collect(),
            )
        };
        let value = json!({
            "suite": "bench-sliding",
            "tris": tess.tris(),
            "mesh": tess.describe(),
            "steps": steps,
            "seed": common.seed,
            "precision": precision,
            "threads": threads,
            "median_ms_all": by_bv(&|r| Some(sliding_report::median_ms(&r.all))),
            "median_us_first": by_bv(&|r| Some(1e3 * sliding_report::median_ms(&r.first))),
            "mean_bv_tests": by_bv(&|r| Some(sliding_report::mean_of(&r.all, |s| s.stats.bv_tests))),
            "contacts_per_unit_length": json_num(checks.length_constant),
            "contacts_identical": checks.mismatches == 0,
            "all_pairs_positions": checks.oracle_positions,
            "all_pairs_equal": checks.oracle_bad.is_empty(),
            "first_contact_consistent": checks.first_bad == 0,
            "revision": stamp.revision,
            "host": stamp.host,
        });
        write_json(path, &value)?;
    }
    Ok(checks.verdict())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn intersection_circle_and_angle() {
        // The circle shrinks to a point at x = 0.2 and 1.8 (tangency).
        assert!(
            circle_radius(0.2).is_none_or(|r| r < 1e-6)
                && circle_radius(1.8).is_none_or(|r| r < 1e-6)
        );
        assert!(circle_radius(0.2001).unwrap() > 0.0 && circle_radius(1.7999).unwrap() > 0.0);
        assert!(circle_radius(0.1).is_none() && circle_radius(1.9).is_none());
        // Largest circle at x = 0.6: the small sphere's equator (r = 0.8).
        assert!((circle_radius(0.6).unwrap() - 0.8).abs() < 1e-12);
        assert!((70.0 * circumference(0.6) - 351.86).abs() < 0.01);
        assert_eq!(circumference(2.0), 0.0);
        // Perpendicular at x = √1.64; the printed formula agrees for x ≥ 0.6.
        assert!((crossing_angle_deg(1.64f64.sqrt()).unwrap() - 90.0).abs() < 1e-9);
        for x in [0.6, 1.0, 1.5, 1.7] {
            let r = circle_radius(x).unwrap();
            let printed = (r.acos() + (r / SMALL_RADIUS).acos()).to_degrees();
            assert!(
                (crossing_angle_deg(x).unwrap() - printed).abs() < 1e-6,
                "x = {x}"
            );
        }
    }

    #[test]
    fn positions_and_samples() {
        assert_eq!(x_at(0, 1001), 0.0);
        assert_eq!(x_at(1000, 1001), 2.0);
        assert!((x_at(1, 1001) - 0.002).abs() < 1e-15);
        assert_eq!(sample_positions(1001, 21)[..3], [0, 50, 100]);
        assert_eq!(*sample_positions(1001, 21).last().unwrap(), 1000);
        assert_eq!(sample_positions(101, 6), vec![0, 20, 40, 60, 80, 100]);
        assert_eq!(sample_positions(5, 0), Vec::<usize>::new());
        assert_eq!(sample_positions(3, 3), vec![0, 1, 2]);
    }

    /// The suite's per-position contact counts on small meshes equal the brute-force count, for every BV type
    /// and the thesis's and the library's descent rules, and the first-contact queries find a contact exactly
    /// where there are contacts.
    #[test]
    fn per_position_contacts_equal_brute_force() {
        let tess = Tessellation::LatLong { t: 11, s: 20 };
        let steps = 11;
        let poses = sliding_poses(7, steps);
        let bvs = [BvType::Sphere, BvType::Aabb, BvType::Obb, BvType::Rss];
        let (big, small) = (
            build_model::<f64, ccd::Obb<f64>>(&tess.mesh(1.0)).unwrap(),
            build_model::<f64, ccd::Obb<f64>>(&tess.mesh(SMALL_RADIUS)).unwrap(),
        );
        for rule in [DescentRule::LargestDiameter, DescentRule::Both] {
            let runs = run_path(
                tess,
                &poses,
                &bvs,
                &[0, 3, 5],
                (false, rule),
                &ProgressBar::hidden(),
            )
            .unwrap();
            let mut crossing = 0;
            for (i, (pa, pb)) in poses.iter().enumerate() {
                let b_in_a = Pose::relative_checked(pa, pb).unwrap();
                let truth = ccd_query::collide_brute_force(&big, &small, &b_in_a).len() as u64;
                crossing += usize::from(truth > 0);
                for r in &runs {
                    assert_eq!(
                        r.all[i].stats.contacts,
                        truth,
                        "{rule:?} {} x = {}",
                        r.bv.name(),
                        x_at(i, steps)
                    );
                    assert_eq!(r.first[i].stats.contacts > 0, truth > 0);
                }
            }
            assert!(
                crossing >= 5 && crossing < steps,
                "{crossing} crossing positions"
            );
            let oracle = &runs[0].oracle;
            assert_eq!(oracle.len(), 3);
            assert!(oracle.iter().all(|c| c.same_set && c.oracle == c.query));
            let checks = Checks::new(&runs, steps);
            assert_eq!(checks.verdict(), Verdict::Pass, "{rule:?}");
        }
    }
}

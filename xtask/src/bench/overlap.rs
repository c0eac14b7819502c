//! `bench-overlap`: the cost of one overlap test per BV type on volume pairs recorded from real traversals
//! (Gottschalk §5.2, Tables 5.1 and 5.2).
//!
//! The thesis recorded the BV pairs that collision queries on tessellated spheres tested, split them into a
//! disjoint and an overlapping list, and timed each test running through each whole list, so that the pairs are
//! representative and traversal time is left out; its times include the update (moving one box into the other's
//! frame). Here the pairs come from [`ccd_query::record_collide_tests`] (the collide query's own engine and
//! pruning test) on two scenes of the other suites: parallel close proximity at ε = 1e-3 and transverse contact.
//! Each list is replayed through the volume's test alone (`overlaps_local`, B's volume already in A's frame) and
//! through a model-space update plus the test (B's volume moved by an identity pose the compiler cannot see
//! through, which costs the arithmetic of any transform and leaves the pair unchanged). Replayed verdicts must
//! equal the recorded ones.
//!
//! Lists longer than `--max-pairs` are thinned to evenly spaced pairs, so that a replayed list stays within the
//! caches as the traversal's working set does (the full lists of a 40,000-triangle query reach hundreds of
//! megabytes); the recorded counts are printed beside the replayed ones.

use std::hint::black_box;
use std::time::Instant;

use anyhow::{Result, ensure};
use ccd::nalgebra::{Isometry3, Translation3};
use ccd::{BoundingVolume, DescentRule, Pose, Real};
use ccd_query::{TestedPair, record_collide_tests};
use ccd_testkit::{Mesh, min_face_plane_distance};
use serde_json::json;

use super::transverse::CENTRE_DISTANCE;
use super::{
    BvJob, PosePair, Verdict, build_model, cast_pose, dispatch, progress_bar, rotation_pairs,
};
use crate::flags::{BvType, MeshKind, OverlapFlags};
use crate::mesh::Tessellation;
use crate::report::{Stamp, Table, json_num, num, write_json};
use crate::stats::median;

/// Pairs replayed per list at most (evenly spaced over the recorded list).
const MAX_PAIRS: usize = 65_536;
/// Tests per timed pass at least (short lists are run several times per pass).
const TESTS_PER_PASS: usize = 1_000_000;
/// Gap of the parallel-close-proximity scene.
const PCP_EPS: f64 = 1e-3;

/// Thesis Table 5.2 (µs per test on a 250 MHz R4400, update included) as ratios to the sphere test:
/// `(disjoint, overlapping)`; `None` for volumes the thesis did not time.
pub fn thesis_ratio(bv: BvType) -> Option<(f64, f64)> {
    let (sphere_d, sphere_i) = (0.97, 0.92);
    match bv {
        BvType::Sphere => Some((1.0, 1.0)),
        BvType::Aabb => Some((1.36 / sphere_d, 1.38 / sphere_i)),
        BvType::Obb => Some((5.09 / sphere_d, 7.44 / sphere_i)),
        BvType::Rss => None,
    }
}

/// One scene: the two meshes and the query poses.
struct Scene {
    name: &'static str,
    a: Mesh,
    b: Mesh,
    poses: Vec<PosePair>,
}

/// The measurements of one list.
#[derive(Clone, Debug)]
struct ListRow {
    scene: &'static str,
    bv: BvType,
    overlapping: bool,
    recorded: usize,
    replayed: usize,
    ns_test: f64,
    ns_update_test: f64,
    /// Replayed verdicts that differ from the recorded ones: test alone, update plus test.
    bad: (usize, usize),
}

/// Every `⌈len/max⌉`-th pair (all of them when the list is short).
fn thin<V: Copy>(pairs: &[TestedPair<V>], max: usize) -> Vec<TestedPair<V>> {
    let stride = pairs.len().div_ceil(max.max(1)).max(1);
    pairs.iter().step_by(stride).copied().collect()
}

/// The test alone on every pair; the number found overlapping.
#[inline(never)]
fn replay_test<T: Real, B: BoundingVolume<T>>(pairs: &[TestedPair<B>]) -> usize {
    pairs
        .iter()
        .filter(|p| black_box(&p.a).overlaps_local(black_box(&p.b)))
        .count()
}

/// B's volume moved by `pose`, then the test, on every pair; the number found overlapping.
#[inline(never)]
fn replay_update_test<T: Real, B: BoundingVolume<T>>(
    pairs: &[TestedPair<B>],
    pose: &Pose<T>,
) -> usize {
    pairs
        .iter()
        .filter(|p| {
            let moved = black_box(&p.b).transformed(black_box(pose));
            black_box(&p.a).overlaps_local(&moved)
        })
        .count()
}

/// Median nanoseconds per pair of `run` over `passes` passes of about [`TESTS_PER_PASS`] tests.
fn time_per_test(len: usize, passes: usize, run: &dyn Fn() -> usize) -> f64 {
    let reps = TESTS_PER_PASS.div_ceil(len.max(1));
    let samples: Vec<f64> = (0..passes)
        .map(|_| {
            let start = Instant::now();
            for _ in 0..reps {
                black_box(run());
            }
            start.elapsed().as_nanos() as f64 / (reps * len) as f64
        })
        .collect();
    median(&samples)
}

/// The per-BV work: record each scene's pairs, split, thin and replay them.
struct Job<'a> {
    scenes: &'a [Scene],
    max_pairs: usize,
    passes: usize,
}

impl BvJob for Job<'_> {
    type Output = Vec<ListRow>;

    fn run<T: Real, B: BoundingVolume<T>>(&mut self, bv: BvType) -> Result<Vec<ListRow>> {
        let mut rows = Vec::new();
        for scene in self.scenes {
            let (a, b) = (
                build_model::<T, B>(&scene.a)?,
                build_model::<T, B>(&scene.b)?,
            );
            let mut lists: [Vec<TestedPair<B>>; 2] = [Vec::new(), Vec::new()];
            for (pa, pb) in &scene.poses {
                let b_in_a = Pose::relative_checked(&cast_pose::<T>(pa), &cast_pose::<T>(pb))?;
                let recorded = record_collide_tests(&a, &b, &b_in_a, DescentRule::LargestDiameter)?;
                for p in recorded.pairs {
                    lists[usize::from(p.overlapping)].push(p);
                }
            }
            let identity = Pose::<T>::identity();
            for (overlapping, list) in [false, true].into_iter().zip(&lists) {
                let sample = thin(list, self.max_pairs);
                let expected = if overlapping { sample.len() } else { 0 };
                let bad = (
                    replay_test(&sample).abs_diff(expected),
                    replay_update_test(&sample, &identity).abs_diff(expected),
                );
                let ns_test = time_per_test(sample.len(), self.passes, &|| replay_test(&sample));
                let ns_update_test = time_per_test(sample.len(), self.passes, &|| {
                    replay_update_test(&sample, &identity)
                });
                rows.push(ListRow {
                    scene: scene.name,
                    bv,
                    overlapping,
                    recorded: list.len(),
                    replayed: sample.len(),
                    ns_test,
                    ns_update_test,
                    bad,
                });
            }
        }
        Ok(rows)
    }
}

/// The two scenes.
fn scenes(quick: bool, queries: usize, seed: u64) -> Vec<Scene> {
    let (pcp_tris, transverse_tris) = if quick {
        (3_600, 3_024)
    } else {
        (40_000, 20_448)
    };
    let inner = Tessellation::for_tris(MeshKind::Latlong, pcp_tris).mesh(1.0);
    let d_min = min_face_plane_distance(&inner, [0.0; 3]);
    let outer = inner.clone().scaled((1.0 + PCP_EPS) / d_min);
    let sphere = Tessellation::for_tris(MeshKind::Latlong, transverse_tris).mesh(1.0);
    let rotations = rotation_pairs(seed, queries);
    let place = |offset: Translation3<f64>| -> Vec<PosePair> {
        rotations
            .iter()
            .map(|(ra, rb)| {
                (
                    Isometry3::from_parts(Translation3::identity(), *ra),
                    Isometry3::from_parts(offset, *rb),
                )
            })
            .collect()
    };
    vec![
        Scene {
            name: "pcp",
            a: inner,
            b: outer,
            poses: place(Translation3::identity()),
        },
        Scene {
            name: "transverse",
            a: sphere.clone(),
            b: sphere,
            poses: place(Translation3::new(CENTRE_DISTANCE, 0.0, 0.0)),
        },
    ]
}

/// Runs the suite.
pub fn run(flags: &OverlapFlags) -> Result<Verdict> {
    let common = &flags.common;
    let threads = super::configure_threads(common.threads)?;
    let queries = common.queries.unwrap_or(if common.quick { 1 } else { 2 });
    let passes = flags.passes.unwrap_or(if common.quick { 5 } else { 15 });
    ensure!(
        queries >= 1 && passes >= 1,
        "--queries and --passes must be at least 1"
    );
    let max_pairs = flags.max_pairs.unwrap_or(MAX_PAIRS);
    let bvs = if common.bv.is_empty() {
        vec![BvType::Sphere, BvType::Aabb, BvType::Obb, BvType::Rss]
    } else {
        common.bv_types()
    };
    let scenes = scenes(common.quick, queries, common.seed);

    let stamp = Stamp::collect();
    let precision = if common.f32 { "f32" } else { "f64" };
    let header = vec![
        format!(
            "bench-overlap queries={queries} passes={passes} max_pairs={max_pairs} seed={} precision={precision} \
             threads={threads} bv={}",
            common.seed,
            bvs.iter().map(|b| b.name()).collect::<Vec<_>>().join(","),
        ),
        format!(
            "scenes: pcp = latlong {} triangles, outer mesh scaled so the meshes cannot touch, ε={PCP_EPS}; transverse = \
             latlong {} triangles, centres {CENTRE_DISTANCE} apart; pairs recorded by ccd_query::record_collide_tests \
             (descend=largest-diameter update=model leaf=1)",
            scenes[0].a.len(),
            scenes[1].a.len(),
        ),
        "ns_test: overlaps_local on B's recorded volume (already in A's frame); ns_update_test: B's volume moved by an \
         opaque identity pose, then the test; ratios to the sphere test of the same scene and verdict; thesis: Table \
         5.2 (update included)"
            .to_owned(),
        stamp.line(),
    ];
    for line in &header {
        println!("# {line}");
    }
    let progress = progress_bar(bvs.len() as u64);
    let mut rows: Vec<ListRow> = Vec::new();
    for &bv in &bvs {
        progress.set_message(format!("{} record + replay", bv.name()));
        let mut job = Job {
            scenes: &scenes,
            max_pairs,
            passes,
        };
        rows.extend(dispatch(&mut job, bv, common.f32)?);
        progress.inc(1);
    }
    progress.finish_and_clear();

    let sphere_of = |r: &ListRow| {
        rows.iter().find(|s| {
            s.bv == BvType::Sphere && s.scene == r.scene && s.overlapping == r.overlapping
        })
    };
    let mut table = Table::new(&[
        "scene",
        "bv",
        "verdict",
        "recorded",
        "replayed",
        "ns_test",
        "ns_update_test",
        "ratio_test",
        "ratio_update_test",
        "thesis_ratio",
    ]);
    table.comments = header;
    for r in &rows {
        let ratio = |f: fn(&ListRow) -> f64| sphere_of(r).map_or(f64::NAN, |s| f(r) / f(s));
        let thesis =
            thesis_ratio(r.bv).map_or(f64::NAN, |(d, i)| if r.overlapping { i } else { d });
        table.rows.push(vec![
            r.scene.into(),
            r.bv.name().into(),
            if r.overlapping {
                "overlapping"
            } else {
                "disjoint"
            }
            .into(),
            r.recorded.to_string(),
            r.replayed.to_string(),
            format!("{:.3}", r.ns_test),
            format!("{:.3}", r.ns_update_test),
            num(ratio(|r| r.ns_test)),
            num(ratio(|r| r.ns_update_test)),
            num(thesis),
        ]);
    }
    print!("{}", table.render_body());
    let out = &common.out_dir();
    table.write(&out.join("overlap.csv"))?;

    println!();
    println!(
        "## comparison with the thesis (Gottschalk 2000, §5.2, Table 5.2: sphere 0.97/0.92, AABB 1.36/1.38, OBB 5.09/7.44 µs, disjoint/intersecting)"
    );
    for r in rows.iter().filter(|r| r.bv != BvType::Sphere) {
        let Some(s) = sphere_of(r) else { continue };
        let thesis = thesis_ratio(r.bv).map_or_else(
            || "not timed".to_owned(),
            |(d, i)| format!("{:.2}×", if r.overlapping { i } else { d }),
        );
        println!(
            "{} {} {}: {:.2} ns with update ({:.2}× sphere; thesis {thesis}), {:.2} ns test alone ({:.2}× sphere)",
            r.scene,
            r.bv.name(),
            if r.overlapping {
                "overlapping"
            } else {
                "disjoint"
            },
            r.ns_update_test,
            r.ns_update_test / s.ns_update_test,
            r.ns_test,
            r.ns_test / s.ns_test,
        );
    }
    let bad: usize = rows.iter().map(|r| r.bad.0 + r.bad.1).sum();
    println!(
        "replayed verdicts equal the recorded ones: {}",
        if bad == 0 {
            "yes".to_owned()
        } else {
            format!("NO ({bad} differ)")
        }
    );
    eprintln!("wrote {}", out.join("overlap.csv").display());

    if let Some(path) = &common.json {
        let value = json!({
            "suite": "bench-overlap",
            "queries": queries,
            "passes": passes,
            "max_pairs": max_pairs,
            "seed": common.seed,
            "precision": precision,
            "threads": threads,
            "rows": rows.iter().map(|r| json!({
                "scene": r.scene,
                "bv": r.bv.name(),
                "overlapping": r.overlapping,
                "recorded": r.recorded,
                "replayed": r.replayed,
                "ns_test": json_num(Some(r.ns_test)),
                "ns_update_test": json_num(Some(r.ns_update_test)),
                "ratio_update_test": json_num(sphere_of(r).map(|s| r.ns_update_test / s.ns_update_test)),
            })).collect::<Vec<_>>(),
            "verdicts_equal": bad == 0,
            "revision": stamp.revision,
            "host": stamp.host,
        });
        write_json(path, &value)?;
    }
    Ok(if bad == 0 {
        Verdict::Pass
    } else {
        Verdict::Fail(format!(
            "{bad} replayed verdicts differ from the recorded ones"
        ))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thesis_ratios() {
        let (d, i) = thesis_ratio(BvType::Obb).unwrap();
        assert!((d - 5.247).abs() < 1e-3 && (i - 8.087).abs() < 1e-3);
        let (d, i) = thesis_ratio(BvType::Aabb).unwrap();
        assert!((d - 1.402).abs() < 1e-3 && (i - 1.5).abs() < 1e-12);
        assert!(thesis_ratio(BvType::Rss).is_none());
    }

    #[test]
    fn thinning_keeps_evenly_spaced_pairs() {
        let v: Vec<TestedPair<u8>> = (0..10)
            .map(|k| TestedPair {
                a: k,
                b: k,
                overlapping: k % 2 == 0,
            })
            .collect();
        assert_eq!(thin(&v, 100).len(), 10);
        let t = thin(&v, 4);
        assert_eq!(t.iter().map(|p| p.a).collect::<Vec<_>>(), vec![0, 3, 6, 9]);
    }

    /// Replaying recorded pairs gives back the recorded verdicts, with and without the identity update.
    #[test]
    fn replay_reproduces_recorded_verdicts() {
        let scenes = scenes(true, 1, 3);
        let mut job = Job {
            scenes: &scenes[1..],
            max_pairs: 2_000,
            passes: 1,
        };
        for bv in [BvType::Sphere, BvType::Aabb, BvType::Obb, BvType::Rss] {
            let rows = dispatch(&mut job, bv, false).unwrap();
            assert_eq!(rows.len(), 2);
            for r in rows {
                assert!(r.replayed > 100 && r.replayed <= 2_000, "{r:?}");
                assert_eq!(r.bad, (0, 0), "{r:?}");
                assert!(r.ns_test > 0.0 && r.ns_update_test > 0.0);
            }
        }
    }
}

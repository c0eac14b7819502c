//! The shared runner of the thesis suites: BV-type dispatch, the replayable
//! rotation sequence, per-query measurement (counters and the wall time of
//! the collide call alone), per-configuration summaries, the thread pool and
//! the progress bar.
//!
//! Fixed configuration, as in the thesis experiments (Gottschalk 2000, §5.3):
//! binary trees with one triangle per leaf, default top-down build,
//! descend-largest-diameter (`--descend` chooses another rule), model-space updates, all-contacts collision.

mod all_pairs;
pub mod archive;
pub mod build;
pub mod ccd;
pub mod distance;
mod distance_path;
mod levels;
pub mod overlap;
pub mod proximity;
pub mod sliding;
mod sliding_report;
pub mod transverse;

use std::time::{Duration, Instant};

use ::ccd::nalgebra::{Isometry3, Quaternion, Translation3, UnitQuaternion};
use ::ccd::{
    BoundingVolume, BuildOptions, CollideRequest, DescentRule, Model, QueryStats, Real, ScalarKind,
};
use anyhow::{Context, Result, ensure};
use ccd_testkit::{Mesh, SplitMix64, random_rotation};
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;

use crate::flags::{BvType, Descend};
use crate::stats::Summary;

/// How a suite ended when it did not error out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Every hard check held.
    Pass,
    /// A hard check failed (the reason); the process exits non-zero.
    Fail(String),
}

/// The configuration every header of a collide suite carries, with its descent rule.
pub fn config(descend: Descend) -> String {
    format!(
        "descend={} update=model leaf=1 build=top-down contacts=all",
        descend.name()
    )
}

/// Poses of the two models (A, B) of one query, in `f64`.
pub type PosePair = (Isometry3<f64>, Isometry3<f64>);

/// A computation generic over the scalar and the BV type, run for one
/// [`BvType`] by [`dispatch`].
pub trait BvJob {
    /// What the job returns.
    type Output;

    /// Runs the job with scalar `T` and volume `B` (`bv` names `B`).
    fn run<T: Real, B: BoundingVolume<T>>(&mut self, bv: BvType) -> Result<Self::Output>;
}

/// Runs `job` with the volume type `bv` in `f32` or `f64` (the one `match`
/// that turns the runtime choice into monomorphised code).
pub fn dispatch<J: BvJob>(job: &mut J, bv: BvType, f32: bool) -> Result<J::Output> {
    let scalar = if f32 {
        ScalarKind::F32
    } else {
        ScalarKind::F64
    };
    ::ccd::with_types!(scalar, bv.kind(), |T, B| job.run::<T, B>(bv))
}

/// `n` pairs of independent uniform random rotations (one per model) drawn
/// in order from `SplitMix64::new(seed)`: query `i` always gets the same
/// pair, whatever the BV type or configuration.
pub fn rotation_pairs(seed: u64, n: usize) -> Vec<(UnitQuaternion<f64>, UnitQuaternion<f64>)> {
    let mut rng = SplitMix64::new(seed);
    (0..n)
        .map(|_| {
            let a = random_rotation(&mut rng);
            (a, random_rotation(&mut rng))
        })
        .collect()
}

/// Builds a model of `mesh` (converted to `T`) with the default options.
pub fn build_model<T: Real, B: BoundingVolume<T>>(mesh: &Mesh) -> Result<Model<T, B>> {
    let vertices = mesh.vertices.iter().map(|v| v.map(T::lit)).collect();
    Model::with_options(vertices, &mesh.triangles, &BuildOptions::default())
        .with_context(|| format!("building a {}-triangle {} tree", mesh.len(), B::KIND.name()))
}

/// `pose` rounded to `T` (the rotation renormalised in `T`).
pub fn cast_pose<T: Real>(pose: &Isometry3<f64>) -> Isometry3<T> {
    let q = pose.rotation.quaternion();
    let t = &pose.translation.vector;
    Isometry3::from_parts(
        Translation3::new(T::lit(t.x), T::lit(t.y), T::lit(t.z)),
        UnitQuaternion::from_quaternion(Quaternion::new(
            T::lit(q.w),
            T::lit(q.i),
            T::lit(q.j),
            T::lit(q.k),
        )),
    )
}

/// What one query measured.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Sample {
    /// The query's counters (N_v, D, I, N_p, K).
    pub stats: QueryStats,
    /// Wall time of the collide call alone.
    pub time: Duration,
    /// FNV-1a hash of the sorted contact set (compares contact sets across
    /// BV types without keeping them).
    pub contact_hash: u64,
    /// The query's descent rule.
    pub descent: DescentRule,
}

impl Sample {
    /// Whether the query's counters obey the test-tree identity of its descent rule ([`bvtt_holds`]).
    pub fn bvtt_holds(&self) -> bool {
        bvtt_holds(self.descent, &self.stats)
    }
}

/// Runs one query `request` (all contacts or first contact) of `a` against
/// `b` per pose pair, in parallel on the current rayon pool, ticking
/// `progress` once per query. Samples come back in pose order.
pub fn run_queries<T: Real, B: BoundingVolume<T>>(
    a: &Model<T, B>,
    b: &Model<T, B>,
    poses: &[PosePair],
    request: &CollideRequest,
    progress: &ProgressBar,
) -> Result<Vec<Sample>> {
    poses
        .par_iter()
        .map(|(pa, pb)| {
            let (pa, pb) = (cast_pose::<T>(pa), cast_pose::<T>(pb));
            let start = Instant::now();
            let result = ::ccd::collide(a, &pa, b, &pb, request);
            let time = start.elapsed();
            let mut result = result?;
            result.contacts.sort_unstable();
            let contact_hash = result
                .contacts
                .iter()
                .fold(0xcbf2_9ce4_8422_2325u64, |h, c| {
                    let h = (h ^ u64::from(c.a)).wrapping_mul(0x0100_0000_01b3);
                    (h ^ u64::from(c.b)).wrapping_mul(0x0100_0000_01b3)
                });
            progress.inc(1);
            Ok(Sample {
                stats: result.stats,
                time,
                contact_hash,
                descent: request.descent,
            })
        })
        .collect()
}

/// Summaries of the counters over the queries of one configuration.
#[derive(Clone, Copy, Debug, Default)]
pub struct Counters {
    /// BV tests N_v.
    pub nv: Summary,
    /// Triangle tests N_p.
    pub np: Summary,
    /// Contacts K.
    pub k: Summary,
    /// Disjoint BV tests D.
    pub d: Summary,
    /// Overlapping BV tests I.
    pub i: Summary,
    /// Wall time of the collide call, milliseconds.
    pub time_ms: Summary,
    /// Queries breaking the binary BVTT invariant `D − I + 2·N_p = 1`
    /// (Gottschalk §2.5.1, one triangle per leaf); must be 0.
    pub bvtt_violations: usize,
}

impl Counters {
    /// Summarises `samples`.
    pub fn of(samples: &[Sample]) -> Self {
        let col =
            |f: &dyn Fn(&Sample) -> f64| Summary::of(&samples.iter().map(f).collect::<Vec<_>>());
        Self {
            nv: col(&|s| s.stats.bv_tests as f64),
            np: col(&|s| s.stats.tri_tests as f64),
            k: col(&|s| s.stats.contacts as f64),
            d: col(&|s| s.stats.bv_disjoint as f64),
            i: col(&|s| s.stats.bv_overlapping as f64),
            time_ms: col(&|s| s.time.as_secs_f64() * 1e3),
            bvtt_violations: samples.iter().filter(|s| !s.bvtt_holds()).count(),
        }
    }
}

/// What the suites print the identity of [`bvtt_holds`] as.
pub const BVTT_IDENTITY: &str =
    "bvtt identity D − I + 2·N_p = 1 (descend=both: 1 + 2·S₂, 0 ≤ S₂ ≤ I − N_p)";

/// The test-tree identity of `rule` on single-triangle leaves: [`bvtt_invariant_holds`] for the rules that split
/// one node per pair. [`DescentRule::Both`] splits `S₂` pairs on both sides (four tests each) and the others on
/// one side, so `D − I + 2·N_p = 1 + 2·S₂` with `0 ≤ S₂ ≤ I − N_p` (the kept pairs that are not leaf pairs): the
/// left side is odd and within those bounds.
pub fn bvtt_holds(rule: DescentRule, s: &QueryStats) -> bool {
    if rule != DescentRule::Both {
        return bvtt_invariant_holds(s);
    }
    let lhs = s.bv_disjoint as i128 - s.bv_overlapping as i128 + 2 * s.tri_tests as i128;
    let splits = s.bv_overlapping as i128 - s.tri_tests as i128;
    lhs >= 1 && (lhs - 1) % 2 == 0 && (lhs - 1) / 2 <= splits
}

/// `D − I + 2·N_p = 1`: the BVTT identity `D − I + 2S + 2K = 1` with
/// `S = N_p − K`, for binary trees with single-triangle leaves.
pub fn bvtt_invariant_holds(s: &QueryStats) -> bool {
    s.bv_disjoint as i128 - s.bv_overlapping as i128 + 2 * s.tri_tests as i128 == 1
}

/// Sets the size of rayon's global pool (all cores when `None`) and returns
/// the number of worker threads.
pub fn configure_threads(threads: Option<usize>) -> Result<usize> {
    if let Some(n) = threads {
        ensure!(n >= 1, "--threads must be at least 1");
        rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build_global()
            .context("configuring the thread pool")?;
    }
    Ok(rayon::current_num_threads())
}

/// A progress bar on stderr for `total` queries (hidden when stderr is not
/// a terminal).
pub fn progress_bar(total: u64) -> ProgressBar {
    let style = ProgressStyle::with_template(
        "{msg:>22} [{elapsed_precise}] {wide_bar} {pos}/{len} queries (eta {eta})",
    )
    .unwrap_or_else(|_| ProgressStyle::default_bar());
    ProgressBar::new(total).with_style(style)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rotation_sequence_is_replayable() {
        let a = rotation_pairs(7, 5);
        assert_eq!(a, rotation_pairs(7, 5));
        assert_eq!(a[..3], rotation_pairs(7, 3)[..]);
        assert_ne!(a, rotation_pairs(8, 5));
        assert_ne!(a[0].0, a[0].1);
    }

    #[test]
    fn bvtt_invariant_examples() {
        // Fig. 2.15: I = 10, D = 5, S = 2, K = 1 → N_p = 3.
        let s = QueryStats {
            bv_tests: 15,
            bv_disjoint: 5,
            bv_overlapping: 10,
            tri_tests: 3,
            contacts: 1,
        };
        assert!(bvtt_invariant_holds(&s));
        // PCP OBB right ledge: 7 overlapping, 8 disjoint, nothing else.
        let s = QueryStats {
            bv_tests: 15,
            bv_disjoint: 8,
            bv_overlapping: 7,
            tri_tests: 0,
            contacts: 0,
        };
        assert!(bvtt_invariant_holds(&s));
        assert!(!bvtt_invariant_holds(&QueryStats {
            bv_disjoint: 7,
            ..s
        }));
    }

    #[test]
    fn both_identity_examples() {
        // The roots kept and split on both sides, the four child pairs disjoint: S₂ = 1.
        let s = QueryStats {
            bv_tests: 5,
            bv_disjoint: 4,
            bv_overlapping: 1,
            tri_tests: 0,
            contacts: 0,
        };
        assert!(bvtt_holds(DescentRule::Both, &s));
        assert!(!bvtt_holds(DescentRule::LargestDiameter, &s));
        // One test fewer is impossible for either rule (even left side).
        let t = QueryStats {
            bv_tests: 4,
            bv_disjoint: 3,
            ..s
        };
        assert!(!bvtt_holds(DescentRule::Both, &t));
        // Two both-side splits claimed with one kept internal pair.
        let u = QueryStats {
            bv_tests: 7,
            bv_disjoint: 6,
            ..s
        };
        assert!(!bvtt_holds(DescentRule::Both, &u));
        // The binary example holds for Both too (S₂ = 0).
        let v = QueryStats {
            bv_tests: 15,
            bv_disjoint: 8,
            bv_overlapping: 7,
            tri_tests: 0,
            contacts: 0,
        };
        assert!(bvtt_holds(DescentRule::Both, &v));
    }

    /// Builds one tree of the mesh and runs it against itself; also
    /// returns its per-level rows.
    struct SelfQueries<'a> {
        mesh: &'a Mesh,
        poses: &'a [PosePair],
        descent: DescentRule,
    }

    impl BvJob for SelfQueries<'_> {
        type Output = (Vec<Sample>, Vec<levels::LevelRow>);

        fn run<T: Real, B: BoundingVolume<T>>(&mut self, _bv: BvType) -> Result<Self::Output> {
            let model = build_model::<T, B>(self.mesh)?;
            Ok((
                run_queries(
                    &model,
                    &model,
                    self.poses,
                    &CollideRequest::all().with_descent(self.descent),
                    &ProgressBar::hidden(),
                )?,
                levels::per_level(&model),
            ))
        }
    }

    #[test]
    fn contact_sets_agree_across_bv_types_and_rules() {
        let mesh = ccd_testkit::latlong(8, 16, 1.0);
        let offset = Translation3::new(1.2, 0.0, 0.0);
        let poses: Vec<PosePair> = rotation_pairs(3, 6)
            .into_iter()
            .map(|(a, b)| {
                (
                    Isometry3::from_parts(Translation3::identity(), a),
                    Isometry3::from_parts(offset, b),
                )
            })
            .collect();
        let rules = [DescentRule::LargestDiameter, DescentRule::Both];
        for f32 in [false, true] {
            let runs: Vec<_> = BvType::ALL
                .iter()
                .flat_map(|&bv| rules.map(|descent| (bv, descent)))
                .map(|(bv, descent)| {
                    dispatch(
                        &mut SelfQueries {
                            mesh: &mesh,
                            poses: &poses,
                            descent,
                        },
                        bv,
                        f32,
                    )
                    .unwrap()
                })
                .collect();
            let signature = |s: &[Sample]| {
                s.iter()
                    .map(|x| (x.stats.contacts, x.contact_hash))
                    .collect::<Vec<_>>()
            };
            assert!(
                runs[0].0.iter().all(|s| s.stats.contacts > 0),
                "the spheres intersect in every pose"
            );
            for (samples, levels) in &runs {
                assert_eq!(signature(samples), signature(&runs[0].0));
                assert!(samples.iter().all(Sample::bvtt_holds));
                // A binary tree with one triangle per leaf: 2n − 1 nodes, n leaves.
                assert_eq!(
                    levels.iter().map(|l| l.nodes).sum::<usize>(),
                    2 * mesh.len() - 1
                );
                assert_eq!(levels.iter().map(|l| l.leaves).sum::<usize>(), mesh.len());
                assert_eq!(levels[0].nodes, 1);
            }
            // Sphere thickness is the diameter.
            assert!(
                runs[0]
                    .1
                    .iter()
                    .all(|l| (l.thickness - l.diameter).abs() <= 1e-6 * l.diameter)
            );
        }
    }

    #[test]
    fn pose_cast_keeps_the_motion() {
        let (q, _) = rotation_pairs(1, 1)[0];
        let p = Isometry3::from_parts(Translation3::new(1.5, 0.0, 0.0), q);
        let p32 = cast_pose::<f32>(&p);
        let v = ::ccd::nalgebra::Point3::new(0.3, -0.2, 0.9);
        let w64 = p * v;
        let w32 = p32 * ::ccd::nalgebra::Point3::new(0.3f32, -0.2, 0.9);
        assert!((w64.x - f64::from(w32.x)).abs() < 1e-6 && (w64.z - f64::from(w32.z)).abs() < 1e-6);
    }
}

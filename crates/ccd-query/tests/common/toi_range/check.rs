//! The property: each case's verdict against the library's answer, the budget and times of an `Ok`, and the
//! sampling oracle; the runner and the tally of what the cases covered.

use std::cell::RefCell;

use ccd_motion::Motion;
use ccd_query::{
    CollideRequest, ContinuousVolume, DescentRule, ToiMode, ToiOutcome, ToiRequest, ToiResult,
    collide, time_of_impact,
};
use nalgebra::{Isometry3, UnitQuaternion};
use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed, TestError, TestRunner};

use super::cases::{Case, case};
use super::limits::{Sc, Verdict, derived_length, wide, worst};
use super::params::request_verdict;
use super::scene::{Scene, pose_f64};

/// What the cases covered (printed, and checked for a minimum mix).
#[derive(Debug, Default)]
pub struct Tally {
    pub cases: usize,
    pub refused: usize,
    pub in_range: usize,
    pub boundary: usize,
    pub contact: usize,
    pub contact_at_zero: usize,
    pub no_contact: usize,
    pub undecided: usize,
    /// In-range cases compared with sampling, and those in which sampling found a contact.
    pub sampled: usize,
    pub sampled_hits: usize,
    /// Sampled contacts compared with a reported `t_lo` after 0 (the informative comparisons).
    pub sampled_after_zero: usize,
    /// In-range cases whose relative translation at t = 0 (the test's own `f64` evaluation) has a non-zero
    /// component below `length_min`, or one beyond `length_max`: relative poses that are not input lengths, which
    /// the library must accept all the same (see [`Table`](super::limits::Table)).
    pub relative_tiny: usize,
    pub relative_huge: usize,
    /// Samples of the oracle whose poses `collide` refuses (skipped; see [`check_sampling`]).
    pub samples_refused: usize,
}

/// Samples in the discrete oracle.
const SAMPLES: u32 = 128;

/// Largest leaf-pair bisection depth: halving [0, 1] down to adjacent floats, subnormals included.
const MAX_DEPTH: u64 = 1100;

/// [`check_realised`], with the realised parameters added to a failure's message.
fn check_case<T: Sc, B: ContinuousVolume<T>>(
    case: &Case,
    scene: &Scene<T, B>,
    tally: &RefCell<Tally>,
) -> Result<(), TestCaseError> {
    check_realised(case, scene, tally).map_err(|e| match e {
        TestCaseError::Fail(why) => TestCaseError::fail(format!(
            "{why}\nmotion a: {:?}\nmotion b: {:?}\nrequest: {:?}",
            case.params::<T>(0),
            case.params::<T>(1),
            case.request::<T>()
        )),
        other => other,
    })
}

fn check_realised<T: Sc, B: ContinuousVolume<T>>(
    case: &Case,
    scene: &Scene<T, B>,
    tally: &RefCell<Tally>,
) -> Result<(), TestCaseError> {
    let (pa, pb) = (case.params::<T>(0), case.params::<T>(1));
    let request = case.request::<T>();
    let parts = [request_verdict(&request), pa.verdict(), pb.verdict()];
    let verdict = worst(parts);
    let mut tally = tally.borrow_mut();
    tally.cases += 1;
    match verdict {
        Verdict::In => tally.in_range += 1,
        Verdict::Boundary => tally.boundary += 1,
        Verdict::Out => tally.refused += 1,
    }
    let (ma, mb) = (pa.motion(), pb.motion());
    if verdict == Verdict::In {
        check_relative(&ma.pose(T::zero()), &mb.pose(T::zero()), &mut tally)?;
    }
    let result = time_of_impact(&scene.a, &*ma, &scene.b, &*mb, &request);
    let r = match (verdict, result) {
        (Verdict::Out, Ok(r)) => {
            return Err(TestCaseError::fail(format!(
                "accepted out-of-range parameters (request, a, b: {parts:?}): {:?}",
                r.outcome
            )));
        }
        (Verdict::Out, Err(e)) => {
            if !parts.contains(&Verdict::Boundary) {
                let first = parts.iter().position(|&v| v == Verdict::Out).unwrap_or(0);
                let name = ["request", "motion of model a", "motion of model b"][first];
                prop_assert!(
                    e.what.starts_with(name),
                    "the error should name {name}: {e}"
                );
            }
            return Ok(());
        }
        (Verdict::Boundary, Err(_)) => return Ok(()),
        (Verdict::In, Err(e)) => {
            return Err(TestCaseError::fail(format!(
                "refused in-range parameters: {e}"
            )));
        }
        (_, Ok(r)) => r,
    };
    check_result(&request, &r, scene, &*ma, &*mb, &mut tally)?;
    if verdict == Verdict::In && pa.moderate(1e3) && pb.moderate(1e3) {
        check_sampling(&request, &r, scene, &*ma, &*mb, &mut tally)?;
    }
    Ok(())
}

/// The restatement's relative-pose rule at t = 0: two in-range poses give a relative translation
/// `R_a⁻¹·(p_b − p_a)` (evaluated in `f64`, the rotation renormalised) whose components are derived lengths; counts
/// those that are not input lengths.
fn check_relative<T: Sc>(
    a: &Isometry3<T>,
    b: &Isometry3<T>,
    tally: &mut Tally,
) -> Result<(), TestCaseError> {
    let (a, b) = (pose_f64(a), pose_f64(b));
    let rot = UnitQuaternion::new_normalize(*a.rotation.quaternion());
    let rel = rot.inverse() * (b.translation.vector - a.translation.vector);
    let t = T::TABLE;
    prop_assert!(
        rel.iter().all(|&c| derived_length(c, &t) == Verdict::In),
        "in-range poses whose relative translation {rel:?} is not a derived length"
    );
    if rel.iter().any(|&c| c != 0.0 && c.abs() < t.length_min) {
        tally.relative_tiny += 1;
    }
    if rel.iter().any(|&c| c.abs() > t.length_max) {
        tally.relative_huge += 1;
    }
    Ok(())
}

fn check_result<T: Sc, B: ContinuousVolume<T>>(
    request: &ToiRequest<T>,
    r: &ToiResult<T>,
    scene: &Scene<T, B>,
    ma: &dyn Motion<T>,
    mb: &dyn Motion<T>,
    tally: &mut Tally,
) -> Result<(), TestCaseError> {
    // The discrete check at t = 0 is counted but runs before the budget's loop, which stops at the first entry
    // after a count exceeds its budget; each entry makes one volume test and at most one leaf pair's bisection.
    let zero = T::zero();
    let start = collide(
        &scene.a,
        &ma.pose(zero),
        &scene.b,
        &mb.pose(zero),
        // With the descent rule time_of_impact's own check uses.
        &if request.mode == ToiMode::AllFeaturePairs {
            CollideRequest::all()
        } else {
            CollideRequest::first()
        }
        .with_descent(DescentRule::LargestDiameter),
    )
    .expect("time_of_impact accepted these poses");
    let (budget, s) = (request.budget, &r.stats);
    prop_assert!(
        s.bv_tests <= (budget.volume_tests + 1).max(start.stats.bv_tests),
        "{} volume tests for a budget of {} (the check at t = 0: {})",
        s.bv_tests,
        budget.volume_tests,
        start.stats.bv_tests
    );
    let leaf = request.max_iterations as u64 + MAX_DEPTH;
    prop_assert!(
        s.primitive_tests <= (budget.primitive_tests + leaf).max(start.stats.tri_tests),
        "{} primitive tests for a budget of {} (the check at t = 0: {})",
        s.primitive_tests,
        budget.primitive_tests,
        start.stats.tri_tests
    );
    let t_max = request.t_max;
    let within = |t: T| zero <= t && t <= t_max;
    match &r.outcome {
        ToiOutcome::Contact(c) => {
            tally.contact += 1;
            if c.t_hi == zero {
                tally.contact_at_zero += 1;
            }
            prop_assert!(
                within(c.t_lo) && within(c.t_hi) && c.t_lo <= c.t_hi,
                "contact [{:?}, {:?}] outside [0, {t_max:?}]",
                c.t_lo,
                c.t_hi
            );
        }
        ToiOutcome::NoContact => tally.no_contact += 1,
        ToiOutcome::Undecided { t_lo, found } => {
            tally.undecided += 1;
            prop_assert!(
                within(*t_lo),
                "undecided t_lo {t_lo:?} outside [0, {t_max:?}]"
            );
            if let Some(c) = found {
                prop_assert!(
                    within(c.t_lo) && within(c.t_hi) && *t_lo <= c.t_lo && c.t_lo <= c.t_hi,
                    "found [{:?}, {:?}] with t_lo {t_lo:?}, t_max {t_max:?}",
                    c.t_lo,
                    c.t_hi
                );
            }
        }
    }
    for c in &r.at_impact {
        prop_assert!(
            within(c.t_lo) && c.t_lo <= c.t_hi,
            "feature pair [{:?}, {:?}] outside [0, {t_max:?}]",
            c.t_lo,
            c.t_hi
        );
    }
    Ok(())
}

/// No contact of the exact discrete test at evenly spaced times lies before the certified `t_lo`.
fn check_sampling<T: Sc, B: ContinuousVolume<T>>(
    request: &ToiRequest<T>,
    r: &ToiResult<T>,
    scene: &Scene<T, B>,
    ma: &dyn Motion<T>,
    mb: &dyn Motion<T>,
    tally: &mut Tally,
) -> Result<(), TestCaseError> {
    let t_max = request.t_max;
    let first = (0..=SAMPLES)
        .map(|i| T::lit(wide(t_max) * f64::from(i) / f64::from(SAMPLES)).min(t_max))
        .find(|&t| {
            let (pa, pb) = (pose_f64(&ma.pose(t)), pose_f64(&mb.pose(t)));
            match collide(&scene.a64, &pa, &scene.b64, &pb, &CollideRequest::first()) {
                Ok(c) => c.is_colliding(),
                // A sample whose poses `collide` refuses as inputs is skipped: an f32 quaternion within f32's unit
                // tolerance but not f64's; a quaternion `turn(t)·q0` of a screw or rotation-translation whose axis
                // and start rotation are each within the tolerance but whose product is not (about twice it);
                // a position between two tiny ones with a component below `length_min`.
                Err(_) => {
                    tally.samples_refused += 1;
                    false
                }
            }
        });
    tally.sampled += 1;
    let Some(s) = first else { return Ok(()) };
    tally.sampled_hits += 1;
    if r.t_lo().is_some_and(|t| t > T::zero()) {
        tally.sampled_after_zero += 1;
    }
    match &r.outcome {
        ToiOutcome::NoContact => Err(TestCaseError::fail(format!(
            "no contact reported, but the discrete test finds one at t = {s:?}"
        ))),
        ToiOutcome::Contact(c) => {
            prop_assert!(
                c.t_lo <= s,
                "t_lo {:?} after the sampled contact at {s:?}",
                c.t_lo
            );
            Ok(())
        }
        ToiOutcome::Undecided { t_lo, .. } => {
            prop_assert!(
                *t_lo <= s,
                "undecided t_lo {t_lo:?} after the sampled contact at {s:?}"
            );
            Ok(())
        }
    }
}

/// Runs `cases` cases (or `PROPTEST_CASES`) from a fixed seed (or `PROPTEST_RNG_SEED`), prints the tally and
/// checks the mix of outcomes.
pub fn run<T: Sc, B: ContinuousVolume<T>>(name: &str, cases: u32, seed: u64) -> Tally {
    let env = |k: &str| std::env::var(k).ok().and_then(|v| v.parse::<u64>().ok());
    let config = Config {
        cases: env("PROPTEST_CASES").map_or(cases, |c| c as u32),
        rng_seed: RngSeed::Fixed(env("PROPTEST_RNG_SEED").unwrap_or(seed)),
        failure_persistence: None,
        ..Config::default()
    };
    let scene = Scene::<T, B>::new();
    let tally = RefCell::new(Tally::default());
    let mut runner = TestRunner::new(config);
    let outcome = runner.run(&case(), |c| check_case(&c, &scene, &tally));
    let tally = tally.into_inner();
    println!("{name}: {tally:#?}");
    match outcome {
        Ok(()) => {}
        Err(TestError::Fail(why, case)) => panic!("{name}: {why}\nminimal case: {case:#?}"),
        Err(e) => panic!("{name}: {e}"),
    }
    tally
}

/// The cases mixed refusals and in-range queries, and every kind of outcome, in proportions well below those
/// seen (about 55 % refused, 8 % contacts, 25 % no contact, 9 % undecided, 4 % sampled contacts after t = 0).
pub fn assert_mix(t: &Tally) {
    let n = t.cases;
    assert!(
        t.refused * 4 >= n && t.in_range * 4 >= n,
        "in/out mix: {t:#?}"
    );
    assert!(
        t.contact * 40 >= n
            && t.no_contact * 10 >= n
            && t.undecided * 40 >= n
            && t.sampled_after_zero * 100 >= n,
        "outcome mix: {t:#?}"
    );
}

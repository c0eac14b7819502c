//! The continuous query: first time of impact of two rigid meshes, each carried by a rigid motion over
//! normalised time.
//!
//! # Method
//! 1. **Contact at the start.** The exact discrete [`collide`] at `t = 0`; a hit is reported as
//!    `t_lo = t_hi = 0` ([`Feature::Overlap`]).
//! 2. **Best-first traversal** (`search.rs`, a visitor of the engine's best-first walk): a priority queue of (node of A, node of B, `[t0, t1]`) keyed by
//!    `t0`, earliest first. Each time interval gets one *span* (`spans.rs`): B's float pose in A's frame at the
//!    interval's midpoint and the certified slack of both motions over the interval
//!    ([`RelativeSpan`](ccd_motion::RelativeSpan)), computed once from the motions' enclosures and shared by
//!    every node pair and triangle time box over that interval. A popped pair is dropped when its volumes, static
//!    at the span's pose, are certainly farther apart than the slack for their distance from the model origins
//!    ([`ContinuousVolume::apart`]); a pair of leaves goes to the leaf test; otherwise, if the slack is more than
//!    1/16 of the larger volume's diameter, time is halved, else the larger volume is split. Entries that start
//!    where the popped one does are handled at once from a local stack; only later halves of split intervals go
//!    through the queue. The walk stops when the earliest remaining entry starts no earlier than the best
//!    contact's `t_lo` (first contact) or after its `t_hi` (all feature pairs), or when the queue is empty.
//! 3. **Leaf test** (`leaf.rs`, whose header gives the derivation): earliest-first bisection of time with the
//!    same spans (a certified triangle gap against the slack), the first fine box confirmed and its features
//!    named by interval root exclusion of the 15 vertex–face and edge–edge feature functions on the rigid motions
//!    themselves.
//! # Guarantee
//! **Conservative: `t_lo` is never later than the first contact** (the first time any two triangles come within
//! `min_separation`), and `toi = None` only if there is none in `[0, t_max]`. The spans' slack is derived with
//! outward-rounded interval arithmetic from enclosures that contain every pose ([`Motion`] contract), the static
//! volume and triangle tests subtract an a-priori bound of their own rounding ([`ccd_bv::apart`]), and the
//! feature tests use interval arithmetic throughout, so nothing is excluded that could touch; at the first contact some vertex–face or edge–edge pair is within
//! `min_separation` (or the meshes already touch at `t = 0`). `t_hi`: within the bracket the features are not
//! certified apart, and the result says how close they certainly come: [`Toi::separation`] bounds, rounding
//! included, the triangles' distance throughout the confirmed box at the bracket's start (their distance at a
//! float pose of the box plus the motions' certified slack over it). That is the precise form of "a contact up to
//! the enclosures' slack": a near miss by less than `separation − min_separation` can be reported. With `f64`
//! the excess is about the motion over a box of `tolerance / 64` (measured up to 8e-6 of a scene of size 2 at
//! tolerance 1e-4); with `f32` models, whose poses are computed in `f32`, it reaches 1e-4 to 2e-4 of the scene
//! for fast rotations, so the exact contact can come after `t_hi` (`t_lo` stays certified). `toi_sampling.rs`
//! checks the bound against dense sampling for both types. The Eberly path is conservative up to its rounding margin of a few
//! ulps of the coordinates, which covers the rounding of posing the triangles at `t = 0`.
//!
//! # Frames
//! Each motion maps its model frame to the world; points and normals are reported in the world.
//!
//! # Reference
//! Redon et al. 2002; J. N. Jørgensen, *Kontinuerligt Kollisionsdetektering* (DIKU, University of Copenhagen, 2006), an implementation of Redon et al. 2002 in OpenTissue, §6.5, §7 and `cont_coll_bvh.h` … `cont_coll_obb.h`: its leaf test (a discrete check at the start of
//! each time leaf) missed tunnelling contacts and reported late times, tested edges in 2-D and skipped edge
//! (2, 0); here every time box is decided over its whole extent, in 3-D, for all nine edge pairs.

mod describe;
mod geometry;
mod leaf;
mod request;
mod search;
mod shells;
mod spans;
mod volume;

pub use request::{Feature, Toi, ToiBudget, ToiMode, ToiOutcome, ToiRequest, ToiResult, ToiStats};
pub use volume::ContinuousVolume;

use ccd_bv::{RangeError, Real};
use ccd_bvh::Hierarchy;
use ccd_motion::Motion;

use crate::{CollideRequest, DescentRule, collide};
use describe::{ModelPair, describe};

/// First time of impact of mesh `a` carried by `motion_a` and mesh `b` carried by `motion_b` over
/// `[0, request.t_max]`.
///
/// # Guarantee
/// Conservative: no contact (triangles within `request.min_separation`) before the reported `t_lo`; `None` only
/// if there is no contact in `[0, t_max]` ([`ToiOutcome::NoContact`]). At some time of `[t_lo, t_hi]` the reported triangles are within
/// [`Toi::separation`] (the motions' slack; see the module for its size in `f32` and `f64`), and
/// `t_hi − t_lo ≤ tolerance` unless a triangle pair ran out of `max_iterations` (then the wider box is
/// reported rather than dropped). See the [module](self) for the method.
///
/// # Frames
/// Motions map model → world over normalised time; `point` and `normal` are in the world frame at `t_hi`.
///
/// # Behaviour
/// Touching counts as contact. Meshes already intersecting at `t = 0` give `t_lo = t_hi = 0` with
/// [`Feature::Overlap`]. A mesh entirely inside the other without touching is not a contact (Jørgensen 2006,
/// §1.2, limitation L2).
///
/// # Cost
/// Bounded by `request.budget` (plus at most one leaf entry's work): when it runs out the outcome is
/// [`ToiOutcome::Undecided`] with the certified `t_lo` reached so far.
///
/// # Errors
/// [`RangeError`] if the request ([`ToiRequest::check`]) or a motion ([`Motion::check_range`]) is outside the
/// supported range. The hierarchies are trusted to hold supported coordinates, as every
/// [`ccd_bvh::Bvh`] build and validated file open ensures.
pub fn time_of_impact<A, B, MA, MB>(
    a: &A,
    motion_a: &MA,
    b: &B,
    motion_b: &MB,
    request: &ToiRequest<A::Scalar>,
) -> Result<ToiResult<A::Scalar>, RangeError>
where
    A: Hierarchy,
    B: Hierarchy<Scalar = A::Scalar, Bv = A::Bv>,
    A::Bv: ContinuousVolume<A::Scalar>,
    MA: Motion<A::Scalar> + ?Sized,
    MB: Motion<A::Scalar> + ?Sized,
{
    request.check()?;
    motion_a
        .check_range()
        .map_err(|e| e.within("motion of model a"))?;
    motion_b
        .check_range()
        .map_err(|e| e.within("motion of model b"))?;
    let zero = <A::Scalar as Real>::lit(0.0);
    let request = *request;
    let mut stats = ToiStats::default();

    // 1. Contact at the start: the exact discrete test.
    let all = request.mode == ToiMode::AllFeaturePairs;
    let start = collide(
        a,
        &motion_a.pose(zero),
        b,
        &motion_b.pose(zero),
        // The descent rule of the search below (largest diameter), so that the counters of both parts
        // describe one binary test tree.
        &if all {
            CollideRequest::all()
        } else {
            CollideRequest::first()
        }
        .with_descent(DescentRule::LargestDiameter),
    )?;
    stats.bv_tests += start.stats.bv_tests;
    stats.primitive_tests += start.stats.tri_tests;
    if let Some(first) = start.contacts.first() {
        let at = |ta: u32, tb: u32| {
            // Contacts name caller ids, which the discrete query took from these very faces.
            let fa = a.face_slot(ta).unwrap_or(0);
            let fb = b.face_slot(tb).unwrap_or(0);
            let pair = ModelPair {
                a: a.triangle(fa).map(Into::into),
                b: b.triangle(fb).map(Into::into),
            };
            let (point, normal) =
                describe(&pair, motion_a, motion_b, Feature::Overlap, (zero, zero));
            Toi {
                t_lo: zero,
                t_hi: zero,
                separation: zero,
                hit_cap: false,
                tri_a: ta,
                tri_b: tb,
                feature: Feature::Overlap,
                point,
                normal,
            }
        };
        let at_impact = if all {
            start.contacts.iter().map(|c| at(c.a, c.b)).collect()
        } else {
            Vec::new()
        };
        return Ok(ToiResult {
            outcome: ToiOutcome::Contact(at(first.a, first.b)),
            at_impact,
            stats,
        });
    }

    // 2–4. Best-first traversal with the leaf tests.
    let mut search = search::Search::new(motion_a, motion_b, request, stats);
    search.run(a, b);
    let toi = search.best;
    let mut at_impact = Vec::new();
    if let (true, Some(best)) = (all, &toi) {
        at_impact = search
            .found
            .into_iter()
            .filter(|c| c.t_lo <= best.t_hi)
            .collect();
        at_impact.sort_by(|x, y| {
            x.t_lo
                .partial_cmp(&y.t_lo)
                .unwrap_or(std::cmp::Ordering::Equal)
                .then((x.tri_a, x.tri_b).cmp(&(y.tri_a, y.tri_b)))
        });
    }
    let outcome = match (search.undecided_from, toi) {
        (Some(t), found) => ToiOutcome::Undecided {
            // In all-feature-pairs mode a contact found earlier than the frontier bounds the first contact too.
            t_lo: found.map_or(t, |f| if f.t_lo < t { f.t_lo } else { t }),
            found,
        },
        (None, Some(toi)) => ToiOutcome::Contact(toi),
        (None, None) => ToiOutcome::NoContact,
    };
    Ok(ToiResult {
        outcome,
        at_impact,
        stats: search.stats,
    })
}

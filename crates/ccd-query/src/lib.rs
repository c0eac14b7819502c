#![doc = include_str!("../README.md")]
//!
//! # Traversals
//!
//! Two traversals walk the bounding volume test tree (Gottschalk 2000, §2.5) of any two [`ccd_bvh::Hierarchy`]
//! implementations with the same volume type: a depth-first walk (collide, tolerance, and the second phase of
//! distance) and a best-first walk keyed by a lower bound (time of impact, and the first phase of distance, whose
//! bounded queue hands its waiting pairs to the depth-first walk). They share the descent rule and the leaf
//! iteration; each query is a small visitor that owns its pruning test and key.
//!
//! | query | guarantee |
//! |---|---|
//! | [`collide`] | exact contact set (orientation predicates on B's vertices mapped into A's frame); touching counts |
//! | [`distance`] | tolerance: `d − d* ≤ max(abs_err, rel_err·d*)` plus the primitive's rounding; never below `d*` beyond that rounding; intersection exact |
//! | [`within_distance`] | exact outside a rounding band of the primitive's bound around the tolerance |
//! | [`time_of_impact`] | conservative: the bracket's `t_lo` is never later than the first contact of the two moving meshes |
//!
//! Every result carries exact operation counts. [`record_collide_tests`] walks a collide query's test tree and
//! returns every volume pair it tests (for replaying them through the overlap tests).

mod collide;
mod distance;
mod engine;
pub mod primitive;
mod record;
mod request;
mod stats;
pub mod toi;
mod tolerance;

/// Re-export of the motion crate whose trait [`time_of_impact`] takes.
pub use ccd_motion;
pub use collide::{CollideResult, ContactPair, collide, collide_brute_force, collide_relative};
pub use distance::{
    Closest, DistanceOutcome, DistanceRequest, DistanceResult, DistanceStats, distance,
};
pub use record::{RecordedTests, TestedPair, record_collide_tests};
pub use request::{CollideRequest, ContactMode, DescentRule};
pub use stats::QueryStats;
pub use toi::{
    ContinuousVolume, Feature, Toi, ToiBudget, ToiMode, ToiOutcome, ToiRequest, ToiResult,
    ToiStats, time_of_impact,
};
pub use tolerance::{ToleranceOutcome, ToleranceResult, within_distance};

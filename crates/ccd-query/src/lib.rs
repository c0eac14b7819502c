//! Proximity queries between two bounding-volume hierarchies.
//!
//! One iterative engine walks the bounding volume test tree (Gottschalk §2.5)
//! of any two [`ccd_bvh::Hierarchy`] implementations with the same volume
//! type; each query is a small visitor on it.
//!
//! | query | guarantee |
//! |---|---|
//! | [`collide`] | exact contact set (orientation predicates on B's vertices mapped into A's frame); touching counts |
//! | [`time_of_impact`] | conservative: the bracket's `t_lo` is never later than the first contact of the two moving meshes |
//!
//! Every result carries [`QueryStats`]: exact counts of volume tests,
//! triangle tests and contacts.

mod collide;
mod distance;
mod engine;
pub mod primitive;
mod request;
mod stats;
pub mod toi;

/// Re-export of the motion crate whose trait [`time_of_impact`] takes.
pub use ccd_motion;
pub use collide::{CollideResult, ContactPair, collide, collide_brute_force, collide_relative};
pub use distance::{
    Closest, DistanceOutcome, DistanceRequest, DistanceResult, DistanceStats, distance,
};
pub use request::{CollideRequest, ContactMode, DescentRule};
pub use stats::QueryStats;
pub use toi::{
    ContinuousVolume, Feature, Toi, ToiBudget, ToiMode, ToiOutcome, ToiRequest, ToiResult,
    ToiStats, time_of_impact,
};

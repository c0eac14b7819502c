#![doc = include_str!("../README.md")]
//!
//! # Contents
//!
//! A [`Motion`] gives the pose of a body at any time (`pose(t)`, body → world) and, for continuous collision
//! detection, an [`IntervalPose`] that contains every pose over a time interval (`enclose(t0, t1)`), a tighter
//! bound on one body point's path (`point_bound`) and a speed bound for conservative advancement (`max_speed`).
//!
//! | motion | path | rotation enclosure |
//! |---|---|---|
//! | [`Static`] | constant pose | point (padded) |
//! | [`Translation`] | p0 + t·d, fixed orientation | point (padded) |
//! | [`ConstantRotationTranslation`] | Redon's M1: p0 + t·d, Rot_u(ωt)·R0 | cos(ωt)·A + sin(ωt)·B + C, interval trigonometry |
//! | [`Screw`] | Redon's M2: turn about and slide along one axis | same, plus the helix of the origin |
//! | [`Interp`] | lerp + short-arc slerp between two poses | as M1 (slerp is a constant-axis rotation) |
//! | [`Bucketed`] | any of the above | hull of 2ⁿ precomputed bucket enclosures |
//!
//! # Guarantee
//! Every enclosure is **conservative over every sub-interval** [t0, t1] ⊆ [0, 1]: it contains the exact pose at
//! every real t in it (outward-rounded interval arithmetic, interval sin/cos of the angle interval, never
//! endpoint values) and the floating-point `pose(t)` at every float t in it (a pad of a few dozen ulps covers the
//! float evaluation and the rounding of the stored parameters). Enclosures may over-approximate; their width
//! shrinks linearly with t1 − t0, down to a few ulps at t0 = t1.
//!
//! [`Motion::max_speed`] is an upper bound on the speed of every point of a body of given radius (conservative
//! advancement) and [`Motion::velocity_bound`] encloses one point's velocity over an interval (interval Newton).
//!
//! # Frames
//! Poses are nalgebra [`Isometry3`](nalgebra::Isometry3)s mapping body coordinates to world coordinates; axes,
//! points and displacements given to constructors are in world coordinates.
//!
//! # Reference
//! S. Redon, A. Kheddar, S. Coquillart, "Fast continuous collision detection between rigid bodies",
//! Eurographics 2002 (the in-between motions M1 and M2), and J. N. Jørgensen, *Kontinuerligt Kollisionsdetektering* (DIKU, University of Copenhagen, 2006), an implementation of Redon et al. 2002 in OpenTissue (report §4, §9.3 and its
//! `arbitrary_constant.h`), with that implementation's bugs fixed: B = u*·R0 in the matrix form, a correct
//! short-arc slerp, antipodal quaternions standing still, and enclosures that are conservative where its
//! endpoint bounds were not.
#![forbid(unsafe_code)]

mod arc;
mod bucket;
mod enclosure;
mod interp;
mod motion;
mod rotation_translation;
mod screw;
mod span;
mod translation;

pub use bucket::Bucketed;
pub use enclosure::IntervalPose;
pub use interp::Interp;
pub use motion::{Motion, Static};
pub use rotation_translation::ConstantRotationTranslation;
pub use screw::Screw;
pub use span::{PoseSpan, RelativeSpan};
pub use translation::Translation;

/// Re-export of the interval crate whose types appear in every enclosure.
pub use ccd_interval;
/// Re-export of the linear-algebra crate used in every public signature.
pub use nalgebra;

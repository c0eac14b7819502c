//! Eberly's constant-velocity tests: first time of contact and contact set of
//! two convex objects that translate with constant velocities over
//! `[0, t_max]` (no rotation).
//!
//! | pair | function | axes |
//! |---|---|---|
//! | box – box | [`moving_obb_obb`] | 15: `A_i`, `B_j`, `A_i × B_j` |
//! | triangle – box | [`moving_triangle_obb`] | 13: `N`, `A_k`, `E_i × A_k` |
//! | triangle – triangle | [`moving_triangle_triangle`] | 11: `N`, `M`, `E_i × F_j`; + 6 in-plane `N × E_i`, `N × F_j` when the planes are (nearly) parallel, or + 6 for two flat triangles (points, segments) |
//!
//! # Method
//! Interval intersection in time (Eberly §2.2.2): on
//! each axis the two projections are intervals, B's moving at the projected
//! relative speed; the time set where they overlap is an interval of `t`. The
//! objects touch first at the largest entry time over all axes, if it does
//! not exceed the smallest exit time. The axes above are the facet normals of
//! the Minkowski difference of the two (non-degenerate) objects, so this is
//! exact in exact arithmetic: it matched a linear-programming ground truth to
//! 1e-14 in trials on random boxes. The contact set comes from the features of
//! both objects that are extreme on the axis that entered last, moved to the
//! contact time (Eberly §2.3.2, §3.3.2, §4.3.2).
//!
//! # Guarantee
//! Conservative: the time is never later than the first time of contact of
//! the objects given (exact arithmetic on the input numbers), and
//! [`MovingContact::Separated`] is never reported for objects that touch or
//! overlap at some `t ∈ [0, t_max]`. Every computed projection, overlap
//! bound and speed is widened by a bound on its rounding error and every
//! entry time is rounded down (see the margin below). What this may
//! over-report: objects that come within about `16·EPSILON·(S_A + S_B)` of
//! each other along an axis count as touching, and the reported time may be
//! early by the time needed to close that gap (in `f64`, about `1e-15`
//! relative; in `f32`, about `1e-6`). Any set of axes gives a conservative
//! answer (overlap implies overlap on every axis), so a degenerate axis
//! never loses a contact; it can only make the time earlier.
//!
//! # Behaviour
//! Touching counts as contact. Objects that already touch or overlap at
//! `t = 0` give [`MovingContact::OverlappingAtStart`] (no contact set).
//! Degenerate input (zero half-extents, collinear or coincident triangle
//! vertices, zero velocities) is allowed and keeps the axis sets complete:
//! a flat triangle's zero normal is covered by the other object's axes, and
//! two flat triangles get axes of their own (see
//! [`moving_triangle_triangle`]).
//! `t_max < 0` is an empty interval ([`MovingContact::Separated`]).
//! Non-finite input gives an unspecified verdict (never a panic).
//!
//! # Rounding margin
//! On an axis `L`, every projection bound is within `γ·‖L‖₁·(S_A + S_B)` of
//! its exact value and the projected speed within `γ·‖L‖₁·(‖v_A‖∞ +
//! ‖v_B‖∞)`, with `‖L‖₁ = |L_x| + |L_y| + |L_z|`, `S` an object's coordinate
//! scale (largest `|coordinate|` of its centre or vertices, plus its
//! half-extents) and `γ = 8·EPSILON`, which exceeds the classic bound
//! `k·u/(1 − k·u)` (`u = EPSILON/2`) for the at most ten rounded operations
//! behind each quantity. The sweep solves its two linear inequalities in `t`
//! with these widened quantities and rounds each quotient outward, so the
//! time set it keeps on every axis contains the exact one.
//!
//! # Frames
//! Both objects, both velocities and every reported point are in one common
//! frame (usually the world frame). Velocities are per unit of `t`.
//!
//! # Reference
//! Eberly, *Dynamic Collision Detection using Oriented Bounding Boxes*,
//! §2.2.2, §2.3, §3.2.2, §3.3, §4.2.2, §4.3 (Magic Software, 1999; Geometric
//! Tools edition 2008); the tests check configurations worked by hand from
//! these formulas.

mod contact;
mod obb_obb;
mod shape;
mod sweep;
mod triangle_obb;
mod triangle_triangle;

pub use obb_obb::moving_obb_obb;
pub use triangle_obb::moving_triangle_obb;
pub use triangle_triangle::moving_triangle_triangle;

use nalgebra::Vector3;

use crate::Real;
use contact::Feature;
use shape::{BoxShape, TriShape};
use sweep::{Outcome, Side, Sweep};

/// The set where two objects touch at their first time of contact.
///
/// Points are in the common frame of the query. Polygon vertices are in
/// cyclic order; a polygon has at least 3 and at most 8 vertices.
#[derive(Clone, Debug, PartialEq)]
pub enum ContactSet<T> {
    /// A single point (vertex contact, or crossing edges).
    Point([T; 3]),
    /// A segment (edge on a face, or collinear edges).
    Segment([[T; 3]; 2]),
    /// A convex polygon (face on face).
    Polygon(Vec<[T; 3]>),
}

impl<T: Copy> ContactSet<T> {
    /// The points of the set: the point, the segment's ends or the polygon's
    /// vertices.
    pub fn points(&self) -> Vec<[T; 3]> {
        match self {
            ContactSet::Point(p) => vec![*p],
            ContactSet::Segment(s) => s.to_vec(),
            ContactSet::Polygon(v) => v.clone(),
        }
    }
}

/// Outcome of a constant-velocity test over `[0, t_max]`.
#[derive(Clone, Debug, PartialEq)]
pub enum MovingContact<T> {
    /// No contact anywhere in `[0, t_max]` (certain; see the module's
    /// guarantee).
    Separated,
    /// The objects are apart at `t = 0` and first touch at `time ∈ (0,
    /// t_max]` (a lower bound on the exact time, within the rounding margin);
    /// `contact` is where they touch then.
    Touching {
        /// First time of contact.
        time: T,
        /// The contact set at `time`, computed at the objects' positions then.
        contact: ContactSet<T>,
    },
    /// The objects already touch or overlap at `t = 0`.
    OverlappingAtStart,
}

impl<T: Real> MovingContact<T> {
    /// The first time of contact: `Some(0)` for
    /// [`OverlappingAtStart`](Self::OverlappingAtStart), `None` when
    /// [`Separated`](Self::Separated).
    pub fn time(&self) -> Option<T> {
        match self {
            MovingContact::Separated => None,
            MovingContact::Touching { time, .. } => Some(*time),
            MovingContact::OverlappingAtStart => Some(T::zero()),
        }
    }
}

/// What the sweep and the contact-set builder need from a convex object.
pub(crate) trait Convex<T: Real>: Copy {
    /// `[min, max]` of `l·x` over the object.
    fn project(&self, l: &Vector3<T>) -> (T, T);
    /// Coordinate scale of the rounding margins.
    fn scale(&self) -> T;
    /// Length scale of the contact tolerances.
    fn size(&self) -> T;
    /// The object translated by `d`.
    fn moved(&self, d: &Vector3<T>) -> Self;
    /// The feature extreme in the unit direction `dir`.
    fn feature(&self, dir: &Vector3<T>, tau: T) -> Feature<T>;
}

impl<T: Real> Convex<T> for BoxShape<T> {
    #[inline(always)]
    fn project(&self, l: &Vector3<T>) -> (T, T) {
        BoxShape::project(self, l)
    }
    fn scale(&self) -> T {
        BoxShape::scale(self)
    }
    fn size(&self) -> T {
        BoxShape::size(self)
    }
    fn moved(&self, d: &Vector3<T>) -> Self {
        BoxShape::moved(self, d)
    }
    fn feature(&self, dir: &Vector3<T>, tau: T) -> Feature<T> {
        BoxShape::feature(self, dir, tau)
    }
}

impl<T: Real> Convex<T> for TriShape<T> {
    #[inline(always)]
    fn project(&self, l: &Vector3<T>) -> (T, T) {
        TriShape::project(self, l)
    }
    fn scale(&self) -> T {
        TriShape::scale(self)
    }
    fn size(&self) -> T {
        TriShape::size(self)
    }
    fn moved(&self, d: &Vector3<T>) -> Self {
        TriShape::moved(self, d)
    }
    fn feature(&self, dir: &Vector3<T>, tau: T) -> Feature<T> {
        TriShape::feature(self, dir, tau)
    }
}

/// Runs the sweep of `a` (velocity `va`) and `b` (velocity `vb`) over
/// `axes`, quick-out on the first axis that proves a miss, then builds the
/// contact set.
pub(crate) fn run<T: Real, A: Convex<T>, B: Convex<T>>(
    a: &A,
    va: &Vector3<T>,
    b: &B,
    vb: &Vector3<T>,
    t_max: T,
    axes: &[Vector3<T>],
) -> MovingContact<T> {
    let mut sweep = Sweep::new(t_max, a.scale(), b.scale(), va, vb);
    let w = vb - va;
    for l in axes {
        if !sweep.axis(l, a.project(l), b.project(l), l.dot(&w)) {
            return MovingContact::Separated;
        }
    }
    match sweep.finish() {
        Outcome::AtStart => MovingContact::OverlappingAtStart,
        Outcome::First { time, entered } => {
            let (a, b) = (a.moved(&(va * time)), b.moved(&(vb * time)));
            let tau = T::EPSILON.sqrt();
            let tol =
                tau * (a.size() + b.size()) + T::lit(64.0) * T::EPSILON * (a.scale() + b.scale());
            let len = entered.axis.norm();
            let dir = if len > T::zero() {
                entered.axis / len
            } else {
                entered.axis
            };
            let (fa, fb) = match entered.side {
                Side::Below => (a.feature(&-dir, tau), b.feature(&dir, tau)),
                Side::Above => (a.feature(&dir, tau), b.feature(&-dir, tau)),
            };
            MovingContact::Touching {
                time,
                contact: contact::contact_set(&fa, &fb, &dir, tol, tau),
            }
        }
    }
}

//! Plain input and output structs of [`time_of_impact`](super::time_of_impact).

use ccd_bv::limits::{check_count, check_nonnegative_length, check_within};
use ccd_bv::{RangeError, Real};

/// What [`time_of_impact`](super::time_of_impact) reports.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum ToiMode {
    /// Only the first contact: [`ToiResult::toi`].
    #[default]
    FirstContact,
    /// The first contact and, in [`ToiResult::at_impact`], every surviving feature pair whose bracket overlaps
    /// the first contact's bracket.
    AllFeaturePairs,
}

/// Parameters of a continuous query over normalised time.
///
/// # Supported range
/// `t_max` and `tolerance` in `[0, 1]`; `min_separation` a non-negative supported length of `T`
/// ([`ccd_bv::limits`]); `max_iterations` and both budgets at least 1. [`ToiRequest::check`] says which field
/// is out of range; [`time_of_impact`](super::time_of_impact) calls it first.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ToiRequest<T> {
    /// End of the searched time interval `[0, t_max]`. Default 1.
    pub t_max: T,
    /// Width of the reported bracket `[t_lo, t_hi]` (normalised time). Default `1e-6`.
    pub tolerance: T,
    /// Features closer than this Euclidean distance (world length units) count as touching. Default 0. The
    /// same meaning as [`LinearCcdRequest::min_separation`](crate::primitive::LinearCcdRequest::min_separation).
    pub min_separation: T,
    /// Most time intervals (boxes) one primitive pair's search may examine — here each triangle pair, as
    /// [`LinearCcdRequest::max_iterations`](crate::primitive::LinearCcdRequest::max_iterations) for its one
    /// feature pair; when it runs out the current (wider) box is reported as a possible contact, never dropped,
    /// and flagged ([`Toi::hit_cap`]). Default 4096.
    pub max_iterations: usize,
    /// The work the query may do before it answers [`ToiOutcome::Undecided`]. Default
    /// [`ToiBudget::default`].
    pub budget: ToiBudget,
    /// First contact only, or every feature pair at the time of impact.
    pub mode: ToiMode,
}

/// A bound on the work of one [`time_of_impact`](super::time_of_impact) call. The query stops at the first
/// check after either count is exceeded (checks come between node-pair entries, and one leaf pair examines at
/// most `max_iterations` time boxes, so the overshoot is small) and answers [`ToiOutcome::Undecided`] with the
/// certified part of the answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ToiBudget {
    /// Most continuous volume tests. Default 8,000,000 (about a second on one core of a 2-core EPYC VM).
    pub volume_tests: u64,
    /// Most primitive tests (leaf time boxes and constant-velocity triangle tests). Default 2,000,000.
    pub primitive_tests: u64,
}

impl Default for ToiBudget {
    fn default() -> Self {
        Self {
            volume_tests: 8_000_000,
            primitive_tests: 2_000_000,
        }
    }
}

impl ToiBudget {
    /// No practical bound (`u64::MAX` of each).
    pub const UNLIMITED: Self = Self {
        volume_tests: u64::MAX,
        primitive_tests: u64::MAX,
    };

    /// Whether `stats` has used up this budget.
    #[inline]
    pub fn exhausted_by(&self, stats: &ToiStats) -> bool {
        stats.bv_tests > self.volume_tests || stats.primitive_tests > self.primitive_tests
    }
}

impl<T: Real> Default for ToiRequest<T> {
    fn default() -> Self {
        Self {
            t_max: T::one(),
            tolerance: T::lit(1e-6),
            min_separation: T::zero(),
            max_iterations: 4096,
            budget: ToiBudget::default(),
            mode: ToiMode::FirstContact,
        }
    }
}

impl<T: Real> ToiRequest<T> {
    /// Checks every field against its supported range (see the type's docs).
    ///
    /// # Errors
    /// [`RangeError`] naming the field, its value and the limit.
    pub fn check(&self) -> Result<(), RangeError> {
        check_within(self.t_max, 0.0, 1.0, || "request t_max".into())?;
        check_within(self.tolerance, 0.0, 1.0, || "request tolerance".into())?;
        check_nonnegative_length(self.min_separation, || "request min_separation".into())?;
        check_count::<T>(self.max_iterations as u64, 1, || {
            "request max_iterations".into()
        })?;
        check_count::<T>(self.budget.volume_tests, 1, || {
            "request budget.volume_tests".into()
        })?;
        check_count::<T>(self.budget.primitive_tests, 1, || {
            "request budget.primitive_tests".into()
        })
    }

    /// `true` if [`ToiRequest::check`] passes.
    pub fn is_valid(&self) -> bool {
        self.check().is_ok()
    }
}

/// The pair of features that touch at the time of impact. Edge `i` of a triangle joins its vertices `i` and
/// `(i + 1) % 3`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Feature {
    /// A vertex of one triangle meets the face of the other.
    VertexFace {
        /// `true`: vertex of A on the face of B; `false`: vertex of B on the face of A.
        vertex_of_a: bool,
        /// The vertex (0, 1 or 2) of its triangle.
        vertex: u8,
    },
    /// Two edges meet.
    EdgeEdge {
        /// Edge of A's triangle.
        edge_a: u8,
        /// Edge of B's triangle.
        edge_b: u8,
    },
    /// The triangles already intersect at `t = 0` (found by the exact discrete test); no single vertex–face or
    /// edge–edge pair need touch.
    Overlap,
}

/// One line for people: `vertex-face (vertex 1 of A's triangle on B's face)`, `edge-edge (edge 0 of A's
/// triangle, edge 2 of B's)`, `overlap (the triangles intersect at t = 0)`.
impl std::fmt::Display for Feature {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            Self::VertexFace {
                vertex_of_a,
                vertex,
            } => {
                let (of, on) = if vertex_of_a { ("A", "B") } else { ("B", "A") };
                write!(
                    f,
                    "vertex-face (vertex {vertex} of {of}'s triangle on {on}'s face)"
                )
            }
            Self::EdgeEdge { edge_a, edge_b } => {
                write!(
                    f,
                    "edge-edge (edge {edge_a} of A's triangle, edge {edge_b} of B's)"
                )
            }
            Self::Overlap => f.write_str("overlap (the triangles intersect at t = 0)"),
        }
    }
}

/// One contact: a time bracket, the triangle pair (the caller's triangle ids) and the features.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Toi<T> {
    /// No contact of these features (for [`ToiResult::toi`]: of the meshes) before `t_lo`.
    pub t_lo: T,
    /// End of the bracket: `t_hi − t_lo ≤` the request's tolerance (unless a pair ran out of
    /// `max_iterations`). At some time in `[t_lo, t_hi]` the two triangles are within [`Toi::separation`].
    pub t_hi: T,
    /// Upper bound, rounding included, of the two triangles' distance at every time of the first sub-box of
    /// `[t_lo, t_hi]` that the search confirmed (so at some time of the bracket): their distance at a float pose
    /// of that box plus the motions' certified slack over it. It is what "a contact within the enclosures' slack"
    /// amounts to: about `min_separation` plus `1e-12` of the scene's size in `f64`, but with `f32` models (whose
    /// poses are computed in `f32`) it can reach `1e-5` to `1e-4` of it for fast rotations, so `t_hi` may end
    /// before the exact first contact while `t_lo` stays certified. `0` for meshes intersecting at `t = 0`.
    pub separation: T,
    /// `true` if this triangle pair's time search ran out of the request's `max_iterations` before the bracket
    /// was as fine as asked: `t_lo` is still certified, but `t_hi − t_lo` may exceed the tolerance (as
    /// [`LinearCcdResult::hit_cap`](crate::primitive::LinearCcdResult::hit_cap)).
    pub hit_cap: bool,
    /// Triangle of A: its index in the triangle list A was built from (the caller's id,
    /// [`Face::id`](ccd_bvh::Face::id)), not a slot of the tree's face array; its corners are
    /// [`Hierarchy::triangle_by_id`](ccd_bvh::Hierarchy::triangle_by_id)`(tri_a)`.
    pub tri_a: u32,
    /// Triangle of B (caller id, as `tri_a`).
    pub tri_b: u32,
    /// The touching features.
    pub feature: Feature,
    /// World point between the two features' closest points at `t_hi`.
    pub point: [T; 3],
    /// Unit world normal pointing from B's feature towards A's (the direction A would move to separate);
    /// `[0, 0, 0]` when it cannot be determined (coincident degenerate features).
    pub normal: [T; 3],
}

/// Exact operation counts of one query.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ToiStats {
    /// Continuous bounding-volume tests (plus the discrete volume tests of the check at `t = 0`).
    pub bv_tests: u64,
    /// Triangle-pair tests: time boxes examined by the interval leaf search, constant-velocity (Eberly) tests,
    /// and the discrete triangle tests at `t = 0`.
    pub primitive_tests: u64,
    /// Node-pair × time-interval entries created (queued, or handled at once when they start where the current
    /// one does).
    pub queue_pushes: u64,
    /// Calls of [`Motion::enclose`](ccd_motion::Motion::enclose).
    pub motion_enclosures: u64,
}

/// What a [`time_of_impact`](super::time_of_impact) call decided.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum ToiOutcome<T> {
    /// The first contact: no contact before its `t_lo` (certified), a contact within the slack by its `t_hi`.
    Contact(Toi<T>),
    /// No contact anywhere in `[0, t_max]` (certified).
    NoContact,
    /// The budget ran out first. Certified: no contact before `t_lo`. Nothing is claimed after it except, when
    /// `found` is set, that contact (a contact within its bracket, like [`ToiOutcome::Contact`], though an
    /// earlier one in `[t_lo, found.t_lo)` is not excluded).
    Undecided {
        /// No contact in `[0, t_lo)`.
        t_lo: T,
        /// A contact found before the budget ran out, if any.
        found: Option<Toi<T>>,
    },
}

/// Outcome of [`time_of_impact`](super::time_of_impact).
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ToiResult<T> {
    /// The decision: first contact, no contact, or undecided within the budget.
    pub outcome: ToiOutcome<T>,
    /// With [`ToiMode::AllFeaturePairs`]: every contact whose bracket starts no later than the first contact's
    /// `t_hi`, earliest first. Empty with [`ToiMode::FirstContact`].
    pub at_impact: Vec<Toi<T>>,
    /// Operation counts.
    pub stats: ToiStats,
}

impl<T: Copy> ToiResult<T> {
    /// The first contact, when it was decided ([`ToiOutcome::Contact`]).
    pub fn toi(&self) -> Option<&Toi<T>> {
        match &self.outcome {
            ToiOutcome::Contact(toi) => Some(toi),
            _ => None,
        }
    }

    /// Whether a reported contact (the first one, or one of [`at_impact`](Self::at_impact)) ran out of the
    /// request's `max_iterations` ([`Toi::hit_cap`]): its bracket may be wider than the tolerance.
    pub fn hit_cap(&self) -> bool {
        let first = match &self.outcome {
            ToiOutcome::Contact(toi) => Some(toi),
            ToiOutcome::Undecided { found, .. } => found.as_ref(),
            ToiOutcome::NoContact => None,
        };
        first.into_iter().chain(&self.at_impact).any(|t| t.hit_cap)
    }

    /// Whether the budget ran out before the query could decide.
    pub fn is_undecided(&self) -> bool {
        matches!(self.outcome, ToiOutcome::Undecided { .. })
    }

    /// The certified lower bound of the first contact time: the contact's `t_lo`, the undecided outcome's `t_lo`,
    /// or `None` when there is no contact in `[0, t_max]`.
    pub fn t_lo(&self) -> Option<T> {
        match &self.outcome {
            ToiOutcome::Contact(toi) => Some(toi.t_lo),
            ToiOutcome::NoContact => None,
            ToiOutcome::Undecided { t_lo, .. } => Some(*t_lo),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Feature;

    #[test]
    fn feature_display_names_each_side() {
        let vf = |vertex_of_a| Feature::VertexFace {
            vertex_of_a,
            vertex: 2,
        };
        assert_eq!(
            vf(true).to_string(),
            "vertex-face (vertex 2 of A's triangle on B's face)"
        );
        assert_eq!(
            vf(false).to_string(),
            "vertex-face (vertex 2 of B's triangle on A's face)"
        );
        let ee = Feature::EdgeEdge {
            edge_a: 0,
            edge_b: 1,
        };
        assert_eq!(
            ee.to_string(),
            "edge-edge (edge 0 of A's triangle, edge 1 of B's)"
        );
        assert_eq!(
            Feature::Overlap.to_string(),
            "overlap (the triangles intersect at t = 0)"
        );
    }
}

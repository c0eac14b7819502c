//! Plain input and output structs of [`time_of_impact`](super::time_of_impact).

use ccd_bv::Real;

/// What [`time_of_impact`](super::time_of_impact) reports.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum ToiMode {
    /// Only the first contact: [`ToiResult::toi`].
    #[default]
    FirstContact,
    /// The first contact and, in [`ToiResult::at_impact`], every surviving feature pair whose bracket overlaps
    /// the first contact's bracket.
    AllFeaturePairs,
}

/// Parameters of a continuous query over normalised time.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ToiRequest<T> {
    /// End of the searched time interval `[0, t_max]`; clamped to `[0, 1]`. Default 1.
    pub t_max: T,
    /// Width of the reported bracket `[t_lo, t_hi]` (normalised time). Default `1e-6`.
    pub tolerance: T,
    /// Features closer than this (Euclidean, world length units) count as touching. Default 0.
    pub min_separation: T,
    /// Most time boxes one triangle pair may examine; when it runs out the current (wider) box is reported as a
    /// possible contact, never dropped. Default 4096.
    pub max_iterations: usize,
    /// First contact only, or every feature pair at the time of impact.
    pub mode: ToiMode,
}

impl<T: Real> Default for ToiRequest<T> {
    fn default() -> Self {
        Self {
            t_max: T::one(),
            tolerance: T::lit(1e-6),
            min_separation: T::zero(),
            max_iterations: 4096,
            mode: ToiMode::FirstContact,
        }
    }
}

impl<T: Real> ToiRequest<T> {
    /// `true` if every scalar field is finite and none is negative.
    pub fn is_valid(&self) -> bool {
        [self.t_max, self.tolerance, self.min_separation]
            .iter()
            .all(|x| x.finite() && *x >= T::zero())
    }
}

/// The pair of features that touch at the time of impact. Edge `i` of a triangle joins its vertices `i` and
/// `(i + 1) % 3`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
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

/// One contact: a time bracket, the triangle pair and the features.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Toi<T> {
    /// No contact of these features (for [`ToiResult::toi`]: of the meshes) before `t_lo`.
    pub t_lo: T,
    /// The features are within the tolerance of touching at some time in `[t_lo, t_hi]`.
    pub t_hi: T,
    /// Triangle of A (its index in the triangle list A was built from).
    pub tri_a: u32,
    /// Triangle of B.
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

/// Outcome of [`time_of_impact`](super::time_of_impact).
#[derive(Clone, Debug, PartialEq)]
pub struct ToiResult<T> {
    /// The first contact in `[0, t_max]`, or `None`: no contact anywhere in it (certified).
    pub toi: Option<Toi<T>>,
    /// With [`ToiMode::AllFeaturePairs`]: every contact whose bracket starts no later than the first contact's
    /// `t_hi`, earliest first. Empty with [`ToiMode::FirstContact`].
    pub at_impact: Vec<Toi<T>>,
    /// Operation counts.
    pub stats: ToiStats,
}

//! The tolerance query (PQP's `PQP_Tolerance`): are two placed meshes closer than a given distance? Early exit on
//! the first witness.

use ccd_bv::limits::check_nonnegative_length;
use ccd_bv::lower_bound::MoveRounding;
use ccd_bv::{Pose, RangeError, Real};
use ccd_bvh::Hierarchy;
use nalgebra::{Isometry3, Point3, Vector3};

use crate::distance::{Closest, leaf_distance, move_rounding};
use crate::engine::{
    BoundRule, DepthFirstVisitor, Flow, MovedVolumes, depth_first, for_each_face_pair,
    keep_by_bound,
};
use crate::{DescentRule, QueryStats};

/// What [`within_distance`] decided.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum ToleranceOutcome<T> {
    /// A triangle pair within the tolerance (the first one found): its distance, closest points (world frame) and
    /// triangles.
    Within(Closest<T>),
    /// No triangle pair within the tolerance.
    Beyond,
}

/// Outcome of [`within_distance`].
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ToleranceResult<T> {
    /// The decision and its witness.
    pub outcome: ToleranceOutcome<T>,
    /// Operation counts: volume tests (kept ones as overlapping, pruned ones as disjoint), triangle distances
    /// computed (`tri_tests`) and witnesses (`contacts`, 0 or 1).
    pub stats: QueryStats,
}

impl<T: Copy> ToleranceResult<T> {
    /// Whether the meshes are within the tolerance.
    pub fn is_within(&self) -> bool {
        matches!(self.outcome, ToleranceOutcome::Within(_))
    }
}

/// Whether mesh `a` placed at `pose_a` and mesh `b` placed at `pose_b` come within `tolerance` of each other.
///
/// # Method
/// Depth first over node pairs (the engine's walk), keeping a pair while the volumes' certified distance lower
/// bound ([`ccd_bv::BoundingVolume::distance_lower_bound`]) is at most `tolerance`, and stopping at the first triangle
/// pair whose distance ([`distance_triangle_triangle`](crate::primitive::distance_triangle_triangle), B's vertices mapped into A's frame as
/// [`crate::collide`] maps them) is at most `tolerance`.
///
/// # Guarantee
/// Exact up to a rounding band of width `δ` = the primitive's bound (`128 ε` of the coordinates' magnitude in
/// `f64`, `4 ε` in `f32`): [`ToleranceOutcome::Within`] means some pair is at most `tolerance + δ` apart (its
/// computed distance is reported); [`ToleranceOutcome::Beyond`] means every pair is more than `tolerance − δ`
/// apart. Pairs pruned by the volumes are certainly farther than `tolerance`. Touching or intersecting meshes are
/// within any tolerance, 0 included.
///
/// # Errors
/// [`RangeError`] if a pose is outside the supported range or `tolerance` is negative, NaN or beyond the supported
/// lengths.
pub fn within_distance<A, B>(
    a: &A,
    pose_a: &Isometry3<A::Scalar>,
    b: &B,
    pose_b: &Isometry3<A::Scalar>,
    tolerance: A::Scalar,
) -> Result<ToleranceResult<A::Scalar>, RangeError>
where
    A: Hierarchy,
    B: Hierarchy<Scalar = A::Scalar, Bv = A::Bv>,
{
    check_nonnegative_length(tolerance, || "tolerance".into())?;
    let b_in_a = Pose::relative_checked(pose_a, pose_b)?;
    let pose_a = ccd_bv::checked_isometry(pose_a)?;
    let mut visitor = Tolerance {
        b_in_a,
        moved: move_rounding(a, b, &b_in_a),
        tolerance,
        witness: None,
    };
    let mut stats = QueryStats::default();
    if !a.nodes().is_empty() && !b.nodes().is_empty() {
        depth_first(
            a,
            b,
            &mut MovedVolumes::new(&b_in_a),
            (0, 0),
            DescentRule::default(),
            &mut visitor,
            &mut stats,
        );
    }
    let world = |p: &Vector3<A::Scalar>| {
        let w = pose_a * Point3::from(*p);
        [w.x, w.y, w.z]
    };
    let outcome = match visitor.witness {
        Some((d, pa, pb, tri_a, tri_b)) => ToleranceOutcome::Within(Closest {
            distance: d,
            point_a: world(&pa),
            point_b: world(&pb),
            tri_a,
            tri_b,
        }),
        None => ToleranceOutcome::Beyond,
    };
    Ok(ToleranceResult { outcome, stats })
}

/// A witness: distance, points in A's frame, triangle ids.
type Witness<T> = (T, Vector3<T>, Vector3<T>, u32, u32);

/// The tolerance visitor of the depth-first engine.
struct Tolerance<T: Real> {
    b_in_a: Pose<T>,
    /// The rounding of moving B's volumes by `b_in_a`.
    moved: MoveRounding<T>,
    tolerance: T,
    witness: Option<Witness<T>>,
}

/// Kept while the bound allows a pair within the tolerance.
impl<T: Real> BoundRule<T> for Tolerance<T> {
    #[inline(always)]
    fn admits(&self, lb: T) -> bool {
        lb <= self.tolerance
    }
}

impl<A, B> DepthFirstVisitor<A, B> for Tolerance<A::Scalar>
where
    A: Hierarchy,
    B: Hierarchy<Scalar = A::Scalar, Bv = A::Bv>,
{
    /// Kept while the certified lower bound (B's volume already moved into A's frame, the rounding of that move
    /// accounted for) allows a pair within the tolerance.
    /// The key is the bound: the closer of two kept children is searched first, where a witness is likelier.
    type Key = A::Scalar;

    /// The distance bound's registers, as for [`crate::distance`].
    const WIDE_REGISTERS: bool = true;

    keep_by_bound!();

    fn leaves(&mut self, a: &A, na: usize, b: &B, nb: usize, stats: &mut QueryStats) -> Flow {
        for_each_face_pair(a, na, b, nb, |fa, fb| {
            stats.tri_tests += 1;
            let tolerance = self.tolerance;
            let Some(d) = leaf_distance(a, fa, b, fb, &self.b_in_a, |lb| lb > tolerance) else {
                return Flow::Continue;
            };
            if d.distance <= self.tolerance {
                stats.contacts += 1;
                self.witness = Some((d.distance, d.point_a, d.point_b, fa.id, fb.id));
                return Flow::Stop;
            }
            Flow::Continue
        })
    }
}

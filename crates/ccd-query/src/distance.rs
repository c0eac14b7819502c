//! The distance query: how far apart two placed meshes are, with the closest points and the triangle pair.

use ccd_bv::limits::check_nonnegative_length;
use ccd_bv::{BoundingVolume, Pose, RangeError, Real};
use ccd_bvh::Hierarchy;
use nalgebra::{Isometry3, Point3, Vector3};

use crate::DescentRule;
use crate::engine::{
    BestFirstVisitor, Entry, FaceRef, Flow, Step, best_first, descend_a, for_each_face_pair,
};
use crate::primitive::distance_triangle_triangle;

/// Options of [`distance`].
///
/// # Supported range
/// `rel_err`, `abs_err` and `max_distance` are non-negative supported lengths of `T` ([`ccd_bv::limits`];
/// `rel_err` is a ratio but obeys the same range); checked by [`distance`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DistanceRequest<T> {
    /// Relative error allowed (PQP's `rel_err`): the reported distance `d` satisfies `d ≤ (1 + rel_err)·d_true`
    /// or the absolute bound below. Default 0.
    pub rel_err: T,
    /// Absolute error allowed (PQP's `abs_err`): `d ≤ d_true + abs_err` or the relative bound above. Default 0.
    pub abs_err: T,
    /// When set, the query may stop as soon as the meshes are certainly farther apart than this and answer
    /// [`DistanceOutcome::Beyond`].
    pub max_distance: Option<T>,
    /// Descent rule of the traversal.
    pub descent: DescentRule,
}

impl<T: Real> Default for DistanceRequest<T> {
    fn default() -> Self {
        Self {
            rel_err: T::zero(),
            abs_err: T::zero(),
            max_distance: None,
            descent: DescentRule::default(),
        }
    }
}

impl<T: Real> DistanceRequest<T> {
    /// Exact distance (up to the primitive's rounding): `rel_err = abs_err = 0`.
    pub fn exact() -> Self {
        Self::default()
    }

    /// Checks every field against its supported range.
    ///
    /// # Errors
    /// [`RangeError`] naming the field.
    pub fn check(&self) -> Result<(), RangeError> {
        check_nonnegative_length(self.rel_err, || "request rel_err".into())?;
        check_nonnegative_length(self.abs_err, || "request abs_err".into())?;
        if let Some(m) = self.max_distance {
            check_nonnegative_length(m, || "request max_distance".into())?;
        }
        Ok(())
    }
}

/// The closest pair found by [`distance`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Closest<T> {
    /// The distance between the two triangles (0 when they intersect).
    pub distance: T,
    /// Closest point on A's triangle, in the world frame (`pose_a` applied).
    pub point_a: [T; 3],
    /// Closest point on B's triangle, in the world frame (a common point when they intersect).
    pub point_b: [T; 3],
    /// Triangle of A (its index in the triangle list A was built from).
    pub tri_a: u32,
    /// Triangle of B.
    pub tri_b: u32,
}

/// What [`distance`] decided.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum DistanceOutcome<T> {
    /// The closest triangle pair (see [`distance`] for the error bound).
    Closest(Closest<T>),
    /// Every triangle pair is farther apart than the request's `max_distance` (certified by the volumes' lower
    /// bounds and the primitive's rounding bound).
    Beyond(T),
}

/// Exact operation counts of one distance query.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct DistanceStats {
    /// Volume lower bounds computed.
    pub bv_tests: u64,
    /// Triangle-pair distances computed.
    pub primitive_tests: u64,
    /// Node-pair entries created (the root included).
    pub queue_pushes: u64,
    /// Largest number of entries waiting at once.
    pub queue_peak: u64,
}

/// Outcome of [`distance`].
#[derive(Clone, Debug, PartialEq)]
pub struct DistanceResult<T> {
    /// The closest pair, or "beyond `max_distance`".
    pub outcome: DistanceOutcome<T>,
    /// Operation counts.
    pub stats: DistanceStats,
}

impl<T: Copy> DistanceResult<T> {
    /// The closest pair, when one was found within `max_distance`.
    pub fn closest(&self) -> Option<&Closest<T>> {
        match &self.outcome {
            DistanceOutcome::Closest(c) => Some(c),
            DistanceOutcome::Beyond(_) => None,
        }
    }
}

/// The distance between mesh `a` placed at `pose_a` and mesh `b` placed at `pose_b`, with the closest points and
/// the triangle pair.
///
/// # Method
/// Best-first over node pairs (the engine's priority queue), keyed by the volumes' certified distance lower bound
/// ([`BoundingVolume::distance_lower_bound`], B's volume under `b_in_a = pose_a⁻¹·pose_b`); a pair is dropped as
/// soon as its bound, grown by the allowed error, reaches the best distance found; leaves give triangle distances
/// ([`distance_triangle_triangle`]) on A's vertices and B's vertices mapped into A's frame, as [`crate::collide`]
/// maps them.
///
/// # Guarantee
/// With `d` the reported distance and `d*` the exact distance between A's triangles and B's triangles mapped into
/// A's frame: `d*` is never more than `d` plus the primitive's rounding bound, and
/// `d − d* ≤ max(abs_err, rel_err·d*)` plus that bound (PQP's semantics; `d = d*` up to rounding when both are 0).
/// The rounding bound is that of [`distance_triangle_triangle`] (`128 ε` of the coordinates' magnitude in `f64`,
/// `4 ε` in `f32`). Intersecting meshes give distance 0 and an intersecting pair (decided exactly, the same pairs
/// [`crate::collide`] reports). With `max_distance`, [`DistanceOutcome::Beyond`] means every pair is at least
/// `max_distance` apart (up to the same rounding).
///
/// # Frames
/// Poses map model → world; the closest points are in the world frame.
///
/// # Errors
/// [`RangeError`] if a pose or the request is outside the supported range.
pub fn distance<A, B>(
    a: &A,
    pose_a: &Isometry3<A::Scalar>,
    b: &B,
    pose_b: &Isometry3<A::Scalar>,
    request: &DistanceRequest<A::Scalar>,
) -> Result<DistanceResult<A::Scalar>, RangeError>
where
    A: Hierarchy,
    B: Hierarchy<Scalar = A::Scalar, Bv = A::Bv>,
{
    request.check()?;
    let b_in_a = Pose::relative_checked(pose_a, pose_b)?;
    let pose_a = ccd_bv::checked_isometry(pose_a)?;
    let mut visitor = Nearest {
        b_in_a,
        request: *request,
        best: None,
        bound: request
            .max_distance
            .unwrap_or(<A::Scalar as Real>::lit(f64::INFINITY)),
        stats: DistanceStats::default(),
    };
    if !a.nodes().is_empty() && !b.nodes().is_empty() {
        visitor.dive(a, b);
        let lb = visitor.lower_bound(&a.nodes()[0].bv, &b.nodes()[0].bv);
        let root = Entry {
            key: key(lb),
            na: 0,
            nb: 0,
            extra: (),
        };
        let queue = best_first(a, b, root, request.descent, &mut visitor);
        visitor.stats.queue_pushes = queue.pushes;
        visitor.stats.queue_peak = queue.peak;
    }
    let world = |p: &Vector3<A::Scalar>| {
        let w = pose_a * Point3::from(*p);
        [w.x, w.y, w.z]
    };
    let outcome = match visitor.best {
        Some(f) => DistanceOutcome::Closest(Closest {
            distance: f.distance,
            point_a: world(&f.point_a),
            point_b: world(&f.point_b),
            tri_a: f.tri_a,
            tri_b: f.tri_b,
        }),
        None => DistanceOutcome::Beyond(visitor.bound),
    };
    Ok(DistanceResult {
        outcome,
        stats: visitor.stats,
    })
}

/// The queue key of a lower bound: its bits (a non-negative float orders like its bits).
fn key<T: Real>(lb: T) -> u64 {
    lb.max(T::zero()).to_f64_exact().to_bits()
}

/// The best pair so far, points in A's frame.
#[derive(Clone, Copy)]
struct Found<T> {
    distance: T,
    point_a: Vector3<T>,
    point_b: Vector3<T>,
    tri_a: u32,
    tri_b: u32,
}

/// The distance visitor of the best-first engine.
struct Nearest<T: Real> {
    b_in_a: Pose<T>,
    request: DistanceRequest<T>,
    best: Option<Found<T>>,
    /// The best distance so far (or `max_distance`, or infinity).
    bound: T,
    stats: DistanceStats,
}

impl<T: Real> Nearest<T> {
    fn lower_bound<V: BoundingVolume<T>>(&mut self, a: &V, b: &V) -> T {
        self.stats.bv_tests += 1;
        a.distance_lower_bound(b, &self.b_in_a).max(T::zero())
    }

    /// A first upper bound before the best-first walk: one greedy descent from the roots into the child pair with
    /// the smaller lower bound, then the distances of the leaf pair reached. Without it the walk expands every
    /// pair below the first leaf's distance before it knows any distance, and the queue holds all of them.
    fn dive<A, B>(&mut self, a: &A, b: &B)
    where
        A: Hierarchy<Scalar = T>,
        B: Hierarchy<Scalar = T, Bv = A::Bv>,
    {
        let (mut na, mut nb) = (0usize, 0usize);
        loop {
            let (x, y) = (&a.nodes()[na], &b.nodes()[nb]);
            if x.is_leaf() && y.is_leaf() {
                let root = Entry {
                    key: 0,
                    na: na as u32,
                    nb: nb as u32,
                    extra: (),
                };
                for_each_face_pair(a, na, b, nb, |fa, fb| {
                    BestFirstVisitor::<A, B>::face_pair(self, a, fa, b, fb, &root)
                });
                return;
            }
            let split_a = descend_a(self.request.descent, &x.bv, x.is_leaf(), &y.bv, y.is_leaf());
            let pair = |k: usize| {
                if split_a {
                    (x.first_child() + k, nb)
                } else {
                    (na, y.first_child() + k)
                }
            };
            let (p0, p1) = (pair(0), pair(1));
            let l0 = self.lower_bound(&a.nodes()[p0.0].bv, &b.nodes()[p0.1].bv);
            let l1 = self.lower_bound(&a.nodes()[p1.0].bv, &b.nodes()[p1.1].bv);
            (na, nb) = if l1 < l0 { p1 } else { p0 };
        }
    }

    /// Whether a pair whose distance is at least `lb` can no longer improve the answer enough to matter:
    /// `lb·(1 + rel_err) ≥ best` or `lb + abs_err ≥ best` (PQP's rule).
    fn hopeless(&self, lb: T) -> bool {
        let r = &self.request;
        lb * (T::one() + r.rel_err) >= self.bound || lb + r.abs_err >= self.bound
    }
}

impl<A, B> BestFirstVisitor<A, B> for Nearest<A::Scalar>
where
    A: Hierarchy,
    B: Hierarchy<Scalar = A::Scalar, Bv = A::Bv>,
{
    type Key = u64;
    type Extra = ();

    fn done(&self, key: &u64) -> bool {
        self.hopeless(<A::Scalar as Real>::lit(f64::from_bits(*key)))
    }

    fn visit(&mut self, a: &A, b: &B, e: &Entry<u64, ()>) -> Step<u64, ()> {
        let (na, nb) = (&a.nodes()[e.na as usize], &b.nodes()[e.nb as usize]);
        if na.is_leaf() && nb.is_leaf() {
            Step::Leaves
        } else {
            Step::Descend
        }
    }

    fn child_key(&mut self, a: &A, b: &B, _: &Entry<u64, ()>, na: usize, nb: usize) -> Option<u64> {
        let lb = self.lower_bound(&a.nodes()[na].bv, &b.nodes()[nb].bv);
        (!self.hopeless(lb)).then(|| key(lb))
    }

    fn face_pair(&mut self, a: &A, fa: FaceRef, b: &B, fb: FaceRef, _: &Entry<u64, ()>) -> Flow {
        self.stats.primitive_tests += 1;
        let ta = a.triangle(fa.slot).map(Vector3::from);
        let tb = b
            .triangle(fb.slot)
            .map(|p| Vector3::from(self.b_in_a.transform_array(&p)));
        let d = distance_triangle_triangle(&ta, &tb);
        if d.distance < self.bound {
            self.bound = d.distance;
            self.best = Some(Found {
                distance: d.distance,
                point_a: d.point_a,
                point_b: d.point_b,
                tri_a: fa.id,
                tri_b: fb.id,
            });
            if d.intersecting {
                // Nothing is closer than an intersection.
                return Flow::Stop;
            }
        }
        Flow::Continue
    }
}

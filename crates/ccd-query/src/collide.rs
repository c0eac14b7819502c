//! The discrete collision query.

use ccd_bv::{BoundingVolume, Pose, RangeError, Real};
use ccd_bvh::Hierarchy;
use nalgebra::Isometry3;

use crate::engine::{DepthFirstVisitor, Flow, MovedVolumes, depth_first, for_each_face_pair};
use crate::primitive::triangles_intersect;
use crate::{CollideRequest, ContactMode, QueryStats};

/// A pair of triangles in contact, by their indices in the triangle lists
/// the two hierarchies were built from (the caller's ids, [`Face::id`](ccd_bvh::Face::id)).
///
/// These are not slots of the trees' face arrays, which are in tree order: get a contact's corners with
/// [`Hierarchy::triangle_by_id`](ccd_bvh::Hierarchy::triangle_by_id)`(contact.a)`, not
/// [`Hierarchy::triangle`](ccd_bvh::Hierarchy::triangle).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ContactPair {
    /// Triangle of A (caller id).
    pub a: u32,
    /// Triangle of B (caller id).
    pub b: u32,
}

/// Outcome of [`collide`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct CollideResult {
    /// Triangle pairs in contact, in traversal order (at most one with
    /// [`ContactMode::First`]).
    pub contacts: Vec<ContactPair>,
    /// Operation counts.
    pub stats: QueryStats,
}

impl CollideResult {
    /// Whether any contact was found.
    pub fn is_colliding(&self) -> bool {
        !self.contacts.is_empty()
    }
}

/// Finds the triangle pairs of `a` (placed at `pose_a`) and `b` (at
/// `pose_b`) that intersect.
///
/// # Guarantee
/// Exact for B's vertices as mapped into A's frame: with `b_in_a =
/// pose_a⁻¹·pose_b` ([`Pose::relative`]), B's vertices are transformed once
/// into A's model frame (rounded to `T`), and each triangle pair is decided
/// by exact orientation predicates on those coordinates; touching counts as
/// contact. The volume tests are conservative, so the contact set equals
/// [`collide_brute_force`] on the same `b_in_a`, for every descent rule.
/// With [`ContactMode::First`] the one contact returned belongs to that set,
/// and one is returned iff the set is non-empty.
///
/// # Frames
/// Volumes are compared in A's model frame (model-space update: one
/// transform per test, Gottschalk §2.3.3).
///
/// # Errors
/// [`RangeError`] if a pose is outside the supported range of the scalar type ([`ccd_bv::limits`]): a translation
/// component that is not a supported length, or a quaternion whose norm is not within the unit tolerance of 1
/// (quaternions within it are renormalised). The hierarchies are trusted to hold supported coordinates, as every
/// [`ccd_bvh::Bvh`] build and validated file open ensures.
pub fn collide<A, B>(
    a: &A,
    pose_a: &Isometry3<A::Scalar>,
    b: &B,
    pose_b: &Isometry3<A::Scalar>,
    request: &CollideRequest,
) -> Result<CollideResult, RangeError>
where
    A: Hierarchy,
    B: Hierarchy<Scalar = A::Scalar, Bv = A::Bv>,
{
    collide_relative(a, b, &Pose::relative_checked(pose_a, pose_b)?, request)
}

/// [`collide`] given B's pose in A's frame directly.
///
/// # Errors
/// [`RangeError`] if `b_in_a` fails [`Pose::check`] (translation outside the supported lengths, or a rotation
/// matrix that is not orthonormal within the unit tolerance).
pub fn collide_relative<A, B>(
    a: &A,
    b: &B,
    b_in_a: &Pose<A::Scalar>,
    request: &CollideRequest,
) -> Result<CollideResult, RangeError>
where
    A: Hierarchy,
    B: Hierarchy<Scalar = A::Scalar, Bv = A::Bv>,
{
    b_in_a.check()?;
    let mut visitor = Collider::new(b_in_a, request.mode == ContactMode::First);
    let mut stats = QueryStats::default();
    depth_first(
        a,
        b,
        &mut MovedVolumes::new(b_in_a),
        (0, 0),
        request.descent,
        &mut visitor,
        &mut stats,
    );
    Ok(CollideResult {
        contacts: visitor.contacts,
        stats,
    })
}

/// Every intersecting triangle pair by testing all pairs (O(mn)), with B's
/// vertices mapped into A's frame exactly as [`collide`] does. The reference
/// that [`collide`] is tested against.
pub fn collide_brute_force<A, B>(a: &A, b: &B, b_in_a: &Pose<A::Scalar>) -> Vec<ContactPair>
where
    A: Hierarchy,
    B: Hierarchy<Scalar = A::Scalar>,
{
    let mut out = Vec::new();
    for fa in 0..a.faces().len() {
        let ta = widen(&a.triangle(fa));
        for fb in 0..b.faces().len() {
            if triangles_intersect(&ta, &moved(b, fb, b_in_a)) {
                out.push(ContactPair {
                    a: a.faces()[fa].id,
                    b: b.faces()[fb].id,
                });
            }
        }
    }
    out
}

/// Four overlap verdicts as the walk's keep verdicts.
#[inline(always)]
fn kept4([k0, k1, k2, k3]: [bool; 4]) -> [Option<()>; 4] {
    [
        k0.then_some(()),
        k1.then_some(()),
        k2.then_some(()),
        k3.then_some(()),
    ]
}

/// Exact widening of a triangle to f64.
#[inline(always)]
fn widen<T: Real>(t: &[[T; 3]; 3]) -> [[f64; 3]; 3] {
    // Written out rather than with `map`: the closures of nested maps are not always inlined in the leaf loop
    // (which codegen unit the loop lands in decides), and then cost a third of a collide query.
    let w = |p: &[T; 3]| {
        [
            p[0].to_f64_exact(),
            p[1].to_f64_exact(),
            p[2].to_f64_exact(),
        ]
    };
    [w(&t[0]), w(&t[1]), w(&t[2])]
}

/// Face `f` of `b` mapped into A's frame (rounded to `T`), widened to f64.
#[inline(always)]
fn moved<B: Hierarchy>(b: &B, f: usize, b_in_a: &Pose<B::Scalar>) -> [[f64; 3]; 3] {
    let t = b.triangle(f);
    widen(&[
        b_in_a.transform_array(&t[0]),
        b_in_a.transform_array(&t[1]),
        b_in_a.transform_array(&t[2]),
    ])
}

/// The collide visitor of the depth-first engine.
pub(crate) struct Collider<'p, T: Real> {
    b_in_a: &'p Pose<T>,
    first_only: bool,
    /// The contacts found so far, in traversal order.
    pub(crate) contacts: Vec<ContactPair>,
}

impl<'p, T: Real> Collider<'p, T> {
    /// A visitor for B at `b_in_a` in A's frame, stopping at the first contact if `first_only`.
    pub(crate) fn new(b_in_a: &'p Pose<T>, first_only: bool) -> Self {
        Self {
            b_in_a,
            first_only,
            contacts: Vec::new(),
        }
    }
}

impl<A, B> DepthFirstVisitor<A, B> for Collider<'_, A::Scalar>
where
    A: Hierarchy,
    B: Hierarchy<Scalar = A::Scalar, Bv = A::Bv>,
{
    type Key = ();

    /// Conservative overlap (the separating-axis test for OBBs).
    #[inline(always)]
    fn keep(&mut self, a: &A::Bv, b: &A::Bv) -> Option<()> {
        a.overlaps_local(b).then_some(())
    }

    #[inline(always)]
    fn keep_pair(&mut self, a: [&A::Bv; 2], b: [&A::Bv; 2]) -> [Option<()>; 2] {
        // Not `map`: a closure per lane is not always inlined in the traversal loop.
        let [k0, k1] = A::Bv::overlaps_local_pair(a, b);
        [k0.then_some(()), k1.then_some(())]
    }

    #[inline(always)]
    fn keep_quad(&mut self, a: [&A::Bv; 2], b: [&A::Bv; 2]) -> [Option<()>; 4] {
        kept4(A::Bv::overlaps_local_cross(a, b))
    }

    /// The volume's AVX kernel for four pairs ([`BoundingVolume::overlaps_local_cross_avx`]).
    #[inline(always)]
    unsafe fn keep_quad_avx(&mut self, a: [&A::Bv; 2], b: [&A::Bv; 2]) -> [Option<()>; 4] {
        // SAFETY: the processor supports AVX (this method's contract, passed on).
        kept4(unsafe { A::Bv::overlaps_local_cross_avx(a, b) })
    }

    fn leaves(&mut self, a: &A, na: usize, b: &B, nb: usize, stats: &mut QueryStats) -> Flow {
        let mut ta = None;
        for_each_face_pair(a, na, b, nb, |fa, fb| {
            // A's triangle is widened once per face of A (the outer loop).
            let t = match ta {
                Some((slot, t)) if slot == fa.slot => t,
                _ => {
                    let t = widen(&a.triangle(fa.slot));
                    ta = Some((fa.slot, t));
                    t
                }
            };
            stats.tri_tests += 1;
            if triangles_intersect(&t, &moved(b, fb.slot, self.b_in_a)) {
                stats.contacts += 1;
                self.contacts.push(ContactPair { a: fa.id, b: fb.id });
                if self.first_only {
                    return Flow::Stop;
                }
            }
            Flow::Continue
        })
    }
}

//! An exact all-pairs contact count for meshes too large for the O(mn) brute force
//! ([`ccd_query::collide_brute_force`]): the same exact triangle test on the same coordinates, with pairs skipped
//! only when the axis-aligned boxes of their two triangles are disjoint.
//!
//! # Why nothing is missed
//! The coordinates are those of the brute force: A's vertices widened exactly to `f64`, B's vertices mapped into
//! A's frame by [`Pose::transform_array`] (rounded to `T`, as the collide query does) and widened exactly. Each
//! triangle's box is the componentwise minimum and maximum of these three `f64` points, computed without
//! rounding. Two triangles that share a point have boxes that share it too, so a pair whose closed boxes are
//! disjoint cannot intersect. The pruning is a sweep over x with comparisons only (no arithmetic): the boxes of
//! both meshes are visited in order of their lower x bound, and each is compared with every box of the other
//! mesh still open (upper x bound not below the new lower bound); an intersecting pair has overlapping x
//! ranges, so whichever of its boxes is visited second finds the other open. Pairs whose boxes also overlap in
//! y and z are decided by [`triangles_intersect`], the brute force's predicate.

use ccd::{ContactPair, Hierarchy, Pose, Real};
use ccd_query::primitive::triangles_intersect;

/// A triangle widened to `f64`, its box and its caller id.
struct Boxed {
    tri: [[f64; 3]; 3],
    lo: [f64; 3],
    hi: [f64; 3],
    id: u32,
}

impl Boxed {
    fn new(tri: [[f64; 3]; 3], id: u32) -> Self {
        let lo = std::array::from_fn(|k| tri[0][k].min(tri[1][k]).min(tri[2][k]));
        let hi = std::array::from_fn(|k| tri[0][k].max(tri[1][k]).max(tri[2][k]));
        Self { tri, lo, hi, id }
    }

    /// Whether the closed boxes overlap in y and z (x is the sweep's).
    fn overlaps_yz(&self, o: &Boxed) -> bool {
        (1..3).all(|k| self.lo[k] <= o.hi[k] && o.lo[k] <= self.hi[k])
    }
}

/// One step of the sweep: `new` is visited; the boxes of the other mesh still open (indices into `other`) are
/// closed when they end before `new` starts, and the remaining ones whose boxes overlap `new`'s are returned.
fn visit<'o>(new: &Boxed, open: &mut Vec<usize>, other: &'o [Boxed]) -> Vec<&'o Boxed> {
    open.retain(|&j| other[j].hi[0] >= new.lo[0]);
    open.iter()
        .map(|&j| &other[j])
        .filter(|o| new.overlaps_yz(o))
        .collect()
}

/// Exact widening of a point to `f64`.
fn widen<T: Real>(p: &[T; 3]) -> [f64; 3] {
    p.map(|c| c.to_f64_exact())
}

/// Every intersecting triangle pair of `a` and `b` with B at `b_in_a` (B's pose in A's frame), sorted: the
/// contact set of [`ccd_query::collide_brute_force`] (module docs), in `O((m + n)·w)` tests for sweep width `w`.
pub fn contacts<A, B>(a: &A, b: &B, b_in_a: &Pose<A::Scalar>) -> Vec<ContactPair>
where
    A: Hierarchy,
    B: Hierarchy<Scalar = A::Scalar>,
{
    let boxes_a: Vec<Boxed> = (0..a.faces().len())
        .map(|f| Boxed::new(a.triangle(f).map(|p| widen(&p)), a.faces()[f].id))
        .collect();
    let boxes_b: Vec<Boxed> = (0..b.faces().len())
        .map(|f| {
            let t = b.triangle(f).map(|p| widen(&b_in_a.transform_array(&p)));
            Boxed::new(t, b.faces()[f].id)
        })
        .collect();
    let order = |boxes: &[Boxed]| {
        let mut idx: Vec<usize> = (0..boxes.len()).collect();
        idx.sort_by(|&i, &j| boxes[i].lo[0].total_cmp(&boxes[j].lo[0]));
        idx
    };
    let (order_a, order_b) = (order(&boxes_a), order(&boxes_b));
    let (mut open_a, mut open_b): (Vec<usize>, Vec<usize>) = (Vec::new(), Vec::new());
    let (mut ia, mut ib) = (0, 0);
    let mut out = Vec::new();
    while ia < order_a.len() || ib < order_b.len() {
        let take_a = ib == order_b.len()
            || (ia < order_a.len() && boxes_a[order_a[ia]].lo[0] <= boxes_b[order_b[ib]].lo[0]);
        if take_a {
            let p = &boxes_a[order_a[ia]];
            for q in visit(p, &mut open_b, &boxes_b) {
                if triangles_intersect(&p.tri, &q.tri) {
                    out.push(ContactPair { a: p.id, b: q.id });
                }
            }
            open_a.push(order_a[ia]);
            ia += 1;
        } else {
            let q = &boxes_b[order_b[ib]];
            for p in visit(q, &mut open_a, &boxes_a) {
                if triangles_intersect(&p.tri, &q.tri) {
                    out.push(ContactPair { a: p.id, b: q.id });
                }
            }
            open_b.push(order_b[ib]);
            ib += 1;
        }
    }
    out.sort_unstable();
    out
}

#[cfg(test)]
mod tests {
    use ccd::nalgebra::{Isometry3, Translation3, Vector3};
    use ccd::{Aabb, Obb};

    use super::*;
    use crate::bench::{build_model, cast_pose, rotation_pairs};

    /// Equal to the brute force on lat/long spheres crossing, nested, apart, and sharing faces (a sphere
    /// against itself at the identity: touching triangles everywhere), in f64 and f32.
    #[test]
    fn equals_brute_force() {
        let big = ccd_testkit::latlong(9, 18, 1.0);
        let small = ccd_testkit::latlong(8, 14, 0.8);
        let mut nonempty = 0;
        for (i, (ra, rb)) in rotation_pairs(11, 8).into_iter().enumerate() {
            let x = [0.0, 0.15, 0.25, 0.6, 1.0, 1.3, 1.75, 2.0][i];
            let pa = Isometry3::from_parts(Translation3::identity(), ra);
            let pb = Isometry3::from_parts(Translation3::from(Vector3::new(x, 0.0, 0.0)), rb);
            let b_in_a = Pose::relative_checked(&pa, &pb).unwrap();
            let (a, b) = (
                build_model::<f64, Obb<f64>>(&big).unwrap(),
                build_model::<f64, Obb<f64>>(&small).unwrap(),
            );
            let mut truth = ccd_query::collide_brute_force(&a, &b, &b_in_a);
            truth.sort_unstable();
            assert_eq!(contacts(&a, &b, &b_in_a), truth, "x = {x}");
            nonempty += usize::from(!truth.is_empty());
            let (pa, pb) = (cast_pose::<f32>(&pa), cast_pose::<f32>(&pb));
            let b_in_a = Pose::relative_checked(&pa, &pb).unwrap();
            let (a, b) = (
                build_model::<f32, Aabb<f32>>(&big).unwrap(),
                build_model::<f32, Aabb<f32>>(&small).unwrap(),
            );
            let mut truth = ccd_query::collide_brute_force(&a, &b, &b_in_a);
            truth.sort_unstable();
            assert_eq!(contacts(&a, &b, &b_in_a), truth, "f32 x = {x}");
        }
        assert!(nonempty >= 4, "too few crossing positions: {nonempty}");
        let a = build_model::<f64, Obb<f64>>(&big).unwrap();
        let mut truth = ccd_query::collide_brute_force(&a, &a, &Pose::identity());
        truth.sort_unstable();
        assert!(truth.len() > big.len());
        assert_eq!(contacts(&a, &a, &Pose::identity()), truth);
    }
}

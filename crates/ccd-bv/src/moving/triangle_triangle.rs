//! Triangle–triangle constant-velocity test (Eberly, *Dynamic Collision Detection using Oriented Bounding Boxes*, §4).

use nalgebra::Vector3;

use super::shape::TriShape;
use super::{MovingContact, run};
use crate::Real;

/// First time of contact and contact set of triangle `a` moving with
/// velocity `va` and triangle `b` moving with `vb`, over `t ∈ [0, t_max]`.
///
/// Sweeps the 11 axes `N`, `M` (the normals) and `E_i × F_j` (edge pairs).
/// When the normals are parallel up to `sin² ≤ √EPSILON` (coplanar or
/// parallel planes, which translation preserves) it adds the 6 in-plane axes
/// `N × E_i`, `N × F_j` (with `N` the longer normal), which separate
/// triangles in one plane (Eberly §1 and §4.1). When both triangles are
/// flat (points or segments: collinear or coincident vertices, up to
/// `‖N‖² ≤ √EPSILON·L⁴` with `L` the longest edge) it adds instead the 6
/// axes of `flat_pair_axes`. The contact set comes from the features
/// extreme on the last-entered axis at the contact time (§7.4): a point, a
/// segment, or (coplanar faces) a polygon of up to 6 vertices.
///
/// # Guarantee
/// Conservative, as described in [the module](crate::moving): any set of
/// axes is, and the rounding margins make coplanar triangles (whose normal
/// axis is round-off noise) never falsely separated. Exact up
/// to the margin for every pair, degenerate triangles included: the axes
/// contain the facet normals of the Minkowski difference of the two
/// triangles in each case (a prism or a triangle when one of them is flat,
/// a parallelogram, segment or point when both are).
///
/// # Frames
/// Vertices and velocities in one common frame; the contact set is in that
/// frame.
///
/// # Behaviour
/// Touching counts as contact; triangles already touching at `t = 0` give
/// [`MovingContact::OverlappingAtStart`].
pub fn moving_triangle_triangle<T: Real>(
    a: &[[T; 3]; 3],
    va: &Vector3<T>,
    b: &[[T; 3]; 3],
    vb: &Vector3<T>,
    t_max: T,
) -> MovingContact<T> {
    let (sa, sb) = (TriShape::new(a), TriShape::new(b));
    let edges = |t: &TriShape<T>| {
        let [p0, p1, p2] = t.v;
        [p1 - p0, p2 - p1, p0 - p2]
    };
    let (e, f) = (edges(&sa), edges(&sb));
    let (n, m) = (e[0].cross(&e[1]), f[0].cross(&f[1]));
    let mut axes = [Vector3::zeros(); 17];
    axes[0] = n;
    axes[1] = m;
    for i in 0..3 {
        for j in 0..3 {
            axes[2 + 3 * i + j] = e[i].cross(&f[j]);
        }
    }
    let (nn, mm) = (n.norm_squared(), m.norm_squared());
    let (da, db) = (longest(&e), longest(&f));
    let flat = |nn: T, d: &Vector3<T>| {
        let l2 = d.norm_squared();
        nn <= T::EPSILON.sqrt() * l2 * l2
    };
    let parallel = n.cross(&m).norm_squared() <= T::EPSILON.sqrt() * nn * mm;
    if flat(nn, &da) && flat(mm, &db) {
        axes[11..].copy_from_slice(&flat_pair_axes(&da, &db));
    } else if parallel {
        let normal = if nn >= mm { n } else { m };
        for i in 0..3 {
            axes[11 + i] = normal.cross(&e[i]);
            axes[14 + i] = normal.cross(&f[i]);
        }
    } else {
        return run(&sa, va, &sb, vb, t_max, &axes[..11]);
    }
    run(&sa, va, &sb, vb, t_max, &axes)
}

/// The longest of three edges (the first of equals).
fn longest<T: Real>(e: &[Vector3<T>; 3]) -> Vector3<T> {
    let l = e.map(|x| x.norm_squared());
    let k = if l[0] >= l[1] && l[0] >= l[2] {
        0
    } else if l[1] >= l[2] {
        1
    } else {
        2
    };
    e[k]
}

/// The extra axes for two flat triangles, each a point or a segment along its
/// longest edge `da`, `db` (zero for a point).
///
/// The Minkowski difference of the two is then a parallelogram with sides
/// `da`, `db`, degenerate to a segment or a point when they are parallel or
/// zero. Its facet normals (in the plane's normal `C = da × db` and the
/// in-plane `C × da`, `C × db`) separate it from any point when `C ≠ 0`;
/// three orthogonal axes through the longer direction `D` (`D` and two
/// perpendiculars, or `x`, `y`, `z` when both are points) separate the
/// segment or point left when `C = 0`. Both sets are returned, so that
/// nearly parallel segments, whose `C` is tiny, lose no accuracy either.
/// Zero axes (a `C` of zero) are harmless: every projection overlaps on them.
fn flat_pair_axes<T: Real>(da: &Vector3<T>, db: &Vector3<T>) -> [Vector3<T>; 6] {
    let c = da.cross(db);
    let d = if da.norm_squared() >= db.norm_squared() {
        da
    } else {
        db
    };
    let [p0, p1, p2] = if d.norm_squared() > T::zero() {
        // The coordinate axis least aligned with `d` gives a well-conditioned perpendicular.
        let a = d.abs();
        let k = if a.x <= a.y && a.x <= a.z {
            0
        } else if a.y <= a.z {
            1
        } else {
            2
        };
        let p = d.cross(&Vector3::ith(k, T::one()));
        [*d, p, d.cross(&p)]
    } else {
        [Vector3::x(), Vector3::y(), Vector3::z()]
    };
    [c, c.cross(da), c.cross(db), p0, p1, p2]
}

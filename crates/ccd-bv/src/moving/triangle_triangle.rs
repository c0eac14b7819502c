//! Triangle–triangle constant-velocity test (digest 003-004 §7.3–7.4).

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
/// triangles in one plane (digest 003-004 §7.3). The contact set comes from
/// the features extreme on the last-entered axis at the contact time
/// (§7.4): a point, a segment, or (coplanar faces) a polygon of up to 6
/// vertices.
///
/// # Guarantee
/// Conservative, as described in [the module](crate::moving): any set of
/// axes is, and the rounding margins make coplanar triangles (whose normal
/// axis is round-off noise, digest §10.3) never falsely separated. Exact up
/// to the margin for non-degenerate triangles; for degenerate ones (collinear
/// vertices) conservative, possibly early.
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
    let parallel = n.cross(&m).norm_squared() <= T::EPSILON.sqrt() * nn * mm;
    let count = if parallel {
        let normal = if nn >= mm { n } else { m };
        for i in 0..3 {
            axes[11 + i] = normal.cross(&e[i]);
            axes[14 + i] = normal.cross(&f[i]);
        }
        17
    } else {
        11
    };
    run(&sa, va, &sb, vb, t_max, &axes[..count])
}

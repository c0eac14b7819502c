//! Triangle–box constant-velocity test (Eberly, *Dynamic Collision Detection using Oriented Bounding Boxes*, §3.1–3.3).

use nalgebra::Vector3;

use super::shape::{BoxShape, TriShape};
use super::{MovingContact, run};
use crate::{Obb, Real};

/// First time of contact and contact set of triangle `tri` moving with
/// velocity `vt` and box `b` moving with `vb`, over `t ∈ [0, t_max]`.
///
/// Sweeps the 13 axes: the triangle normal `N`, the box axes `A_k` and the
/// cross products `E_i × A_k` of the triangle's edges with the box axes
/// (Eberly §3.2.2, interval intersection in time). The contact set comes from the
/// features (vertex, edge or face of either) extreme on the last-entered
/// axis at the contact time (§7.4): a point, a segment, or a polygon (a
/// triangle face clipped by a box face has at most 7 vertices).
///
/// # Guarantee
/// Conservative, as described in [the module](crate::moving). Exact up to
/// the rounding margin for a non-degenerate triangle; for a degenerate one
/// (collinear vertices) still conservative, possibly early.
///
/// # Frames
/// Triangle vertices, box and velocities in one common frame; the contact
/// set is in that frame.
///
/// # Behaviour
/// Touching counts as contact; objects already touching at `t = 0` give
/// [`MovingContact::OverlappingAtStart`].
pub fn moving_triangle_obb<T: Real>(
    tri: &[[T; 3]; 3],
    vt: &Vector3<T>,
    b: &Obb<T>,
    vb: &Vector3<T>,
    t_max: T,
) -> MovingContact<T> {
    let (st, sb) = (TriShape::new(tri), BoxShape::new(b));
    let [u0, u1, u2] = st.v;
    let e = [u1 - u0, u2 - u1, u0 - u2];
    let mut axes = [Vector3::zeros(); 13];
    axes[0] = e[0].cross(&e[1]);
    axes[1..4].copy_from_slice(&sb.axes);
    for i in 0..3 {
        for k in 0..3 {
            axes[4 + 3 * i + k] = e[i].cross(&sb.axes[k]);
        }
    }
    run(&st, vt, &sb, vb, t_max, &axes)
}

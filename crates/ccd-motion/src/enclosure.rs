//! [`IntervalPose`], the interval enclosure of a set of poses, and the interval machinery the motions share:
//! the time interval, rotation about a fixed axis over an angle interval, and the rounding pads.
//!
//! # Rounding pads
//! Every enclosure is computed with outward-rounded interval arithmetic, so it contains the exact motion defined
//! by the stored parameters. Two further, tiny sources of error are covered by explicit pads (a few dozen ulps):
//! the stored parameters are floats (a unit axis or quaternion is unit only to within an ulp), and
//! [`Motion::pose`](crate::Motion::pose) evaluates the motion in floating point. The pads make every enclosure
//! hold both the exact motion and the floating-point poses the same motion reports, so a test (or a caller)
//! sampling `pose(t)` never sees a point outside the bound.

use ccd_interval::{IMat3, IVec3, Interval, Real};
use nalgebra::{Isometry3, Matrix3, Unit, Vector3};

/// An interval rigid transform: an interval rotation matrix and an interval translation that together contain
/// every pose x ↦ R(t)·x + p(t) of a motion over a time interval.
///
/// # Frames
/// Maps body coordinates to world coordinates, like the [`Isometry3`] poses it encloses.
///
/// # Guarantee
/// Produced by [`Motion::enclose`](crate::Motion::enclose), it is conservative: `rot` contains the rotation
/// matrix and `trans` the translation of every pose of the motion over the time interval (the exact motion and
/// the floating-point values of `pose(t)`). It may be larger than the true set of poses (interval dependency
/// and outward rounding); it never misses one.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct IntervalPose<T> {
    /// Interval rotation matrix (row-major), containing R(t) for every t of the interval.
    pub rot: IMat3<T>,
    /// Interval translation, containing p(t) (the world position of the body origin) for every t.
    pub trans: IVec3<T>,
}

impl<T: Real> IntervalPose<T> {
    /// The enclosure of a single pose: its rotation matrix (padded by a few ulps for the quaternion-to-matrix
    /// conversion) and its exact translation.
    pub fn from_pose(pose: &Isometry3<T>) -> Self {
        let rot = pad_matrix(
            &IMat3::point(pose.rotation.to_rotation_matrix().matrix()),
            rotation_pad(T::zero()),
        );
        Self {
            rot,
            trans: IVec3::point(&pose.translation.vector),
        }
    }

    /// Encloses the world position R·p + τ of the body point `p` for every rotation R in `rot` and translation τ
    /// in `trans`.
    ///
    /// # Guarantee
    /// Conservative. The result is widened by a few ulps of |p| so that it also contains the floating-point value
    /// of `pose * p` (nalgebra's quaternion rotation) for every `pose` that [`contains`](Self::contains) accepts.
    ///
    /// # Frames
    /// `p` in body coordinates; the result in world coordinates.
    pub fn point_bound(&self, p: &Vector3<T>) -> IVec3<T> {
        eval_pad(self.rot.mul_real_vec(p) + self.trans, p)
    }

    /// `true` if the rotation matrix of `pose` (converted from its quaternion in floating point) lies in `rot` and
    /// its translation lies in `trans`.
    pub fn contains(&self, pose: &Isometry3<T>) -> bool {
        self.rot
            .contains(pose.rotation.to_rotation_matrix().matrix())
            && self.trans.contains(&pose.translation.vector)
    }

    /// The smallest interval pose containing both `self` and `other` (entrywise hull).
    pub fn hull(&self, other: &Self) -> Self {
        Self {
            rot: self.rot.hull(&other.rot),
            trans: self.trans.hull(other.trans),
        }
    }

    /// The widest rotation-matrix entry (dimensionless).
    pub fn rot_width(&self) -> T {
        self.rot
            .m
            .iter()
            .flatten()
            .fold(T::zero(), |w, e| w.max(e.width()))
    }

    /// The widest translation component (length units).
    pub fn trans_width(&self) -> T {
        vec_width(&self.trans)
    }
}

/// The widest component of an interval vector.
pub(crate) fn vec_width<T: Real>(v: &IVec3<T>) -> T {
    v.x.width().max(v.y.width()).max(v.z.width())
}

/// The time interval [t0, t1].
///
/// # Panics
/// If `t0 > t1` or either is NaN.
pub(crate) fn time_interval<T: Real>(t0: T, t1: T) -> Interval<T> {
    assert!(
        t0 <= t1,
        "motion enclosure over [{t0}, {t1}]: need t0 <= t1 (and no NaN)"
    );
    Interval::new(t0, t1)
}

/// Interval sine and versine (1 − cos) of the angle interval Θ = `angle` · `time`.
///
/// Uses interval sine of the whole angle interval, so interior extrema (and several turns for spins) are accounted
/// for; endpoint values alone are not conservative (a rotation's entries have interior extrema). The versine is evaluated as
/// 2·sin²(Θ/2): the same set as 1 − cos Θ, but with relative rather than absolute accuracy near Θ = 0, which keeps
/// enclosures of tiny rotations (and of points far from the axis) tight.
pub(crate) fn sin_vers<T: Real>(angle: T, time: Interval<T>) -> (Interval<T>, Interval<T>) {
    let theta = time * angle;
    let half = theta * T::lit(0.5);
    (theta.sin(), half.sin().sqr() * T::lit(2.0))
}

/// Widens every component of `iv` by `pad` on both sides (outward rounded).
pub(crate) fn widen<T: Real>(iv: Interval<T>, pad: T) -> Interval<T> {
    if pad > T::zero() {
        iv + Interval::new(-pad, pad)
    } else {
        iv
    }
}

/// Widens each component of `v` by the matching component of `pad`.
pub(crate) fn widen_vec<T: Real>(v: IVec3<T>, pad: &Vector3<T>) -> IVec3<T> {
    IVec3::new(widen(v.x, pad.x), widen(v.y, pad.y), widen(v.z, pad.z))
}

/// Widens every entry of `m` by `pad`.
pub(crate) fn pad_matrix<T: Real>(m: &IMat3<T>, pad: T) -> IMat3<T> {
    let mut out = *m;
    for e in out.m.iter_mut().flatten() {
        *e = widen(*e, pad);
    }
    out
}

/// Sum of absolute values (an upper bound on the Euclidean norm that needs no square root).
pub(crate) fn l1<T: Real>(v: &Vector3<T>) -> T {
    v.x.abs() + v.y.abs() + v.z.abs()
}

/// Tiny absolute pad (the least positive normal `f32`) so that products of pads with tiny values never round to
/// nothing.
pub(crate) fn tiny<T: Real>() -> T {
    T::lit(f64::from(f32::MIN_POSITIVE))
}

/// Pad on every rotation-matrix entry for a motion that turns through `angle` radians in total.
///
/// Covers the representation error of the stored unit axis / quaternion (a few ulps), the floating-point
/// evaluation of `pose(t)` and its quaternion-to-matrix conversion (a few dozen ulps), and the rounding of the
/// float angle ω·t (relative error ε, so an absolute error of up to ε·|ω|). The constant is generous; at `f64`
/// it is below 1e-13 for angles under 100 rad.
pub(crate) fn rotation_pad<T: Real>(angle: T) -> T {
    T::EPSILON * (T::lit(64.0) + T::lit(4.0) * angle.abs()) + tiny()
}

/// Widens a bound on R·p + τ so that it also contains nalgebra's floating-point `pose * p` (quaternion rotation
/// and addition: a few ulps of |p| plus an ulp of the result).
pub(crate) fn eval_pad<T: Real>(v: IVec3<T>, p: &Vector3<T>) -> IVec3<T> {
    let base = T::EPSILON * T::lit(32.0) * l1(p) + tiny();
    let pad_of = |c: &Interval<T>| base + T::EPSILON * T::lit(2.0) * c.mag();
    IVec3::new(
        widen(v.x, pad_of(&v.x)),
        widen(v.y, pad_of(&v.y)),
        widen(v.z, pad_of(&v.z)),
    )
}

/// An upper bound on the Euclidean norm of `v` (outward-rounded).
pub(crate) fn norm_upper<T: Real>(v: &Vector3<T>) -> T {
    IVec3::point(v)
        .norm_sqr()
        .sqrt()
        .map_or_else(|| l1(v), |n| n.hi())
}

/// Encloses (Rot_u(θ) − I)·w, the displacement of w turned about the unit axis u, for every θ whose sine lies in
/// `sin` and versine 1 − cos θ in `vers`, and every w in `w`.
///
/// Rodrigues' formula: the part of w along u stays, so (Rot_u(θ) − I)·w = sin θ·(u × w) − (1 − cos θ)·(w − u(u·w)).
/// Written as a displacement it stays accurate for points far from the axis turning through small angles, where
/// Rot_u(θ)·w − w would cancel.
pub(crate) fn turn_offset<T: Real>(
    u: &Unit<Vector3<T>>,
    w: &IVec3<T>,
    sin: Interval<T>,
    vers: Interval<T>,
) -> IVec3<T> {
    let iu = IVec3::point(u.as_ref());
    let across = *w - iu * w.dot_real(u.as_ref());
    // u × w = −(w × u).
    let turn = -w.cross_real(u.as_ref());
    turn * sin - across * vers
}

/// The constant matrices of Redon's constant-axis rotation R(θ) = cos θ·A + sin θ·B + C = Rot_u(θ)·R0, with
/// A = R0 − u uᵀ R0, B = u*·R0 (u* the cross-product matrix, u*·x = u × x) and C = u uᵀ R0, each held as
/// an interval matrix that contains the exact value for the stored (float) u and R0.
///
/// # Reference
/// Jørgensen 2006, §4.2 (Redon's motion M1 in matrix form), with its erratum corrected: B = u*·R0, not u*·R1.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct AxisFrame<T> {
    pub r0: IMat3<T>,
    pub a: IMat3<T>,
    pub b: IMat3<T>,
    pub c: IMat3<T>,
}

impl<T: Real> AxisFrame<T> {
    /// The frame for the unit axis `u` and the start rotation `r0`.
    ///
    /// A non-finite axis or rotation (which [`Motion::check_range`](crate::Motion::check_range) refuses before any
    /// query) gives the unbounded frame instead of panicking, so constructing a motion never panics.
    pub fn new(u: &Unit<Vector3<T>>, r0: &Matrix3<T>) -> Self {
        if !(u.iter().chain(r0.iter()).all(|x| x.finite())) {
            let all = IMat3 {
                m: [[Interval::entire(); 3]; 3],
            };
            return Self {
                r0: all,
                a: all,
                b: all,
                c: all,
            };
        }
        let zero = Interval::point(T::zero());
        let mut a = IMat3 { m: [[zero; 3]; 3] };
        let mut b = a;
        let mut c = a;
        let iu = IVec3::point(u.as_ref());
        for j in 0..3 {
            let col = IVec3::point(&r0.column(j).into_owned());
            let along = iu * col.dot_real(u.as_ref());
            let across = col - along;
            let turn = -col.cross_real(u.as_ref());
            for (i, (x, y, z)) in [
                (across.x, turn.x, along.x),
                (across.y, turn.y, along.y),
                (across.z, turn.z, along.z),
            ]
            .into_iter()
            .enumerate()
            {
                a.m[i][j] = x;
                b.m[i][j] = y;
                c.m[i][j] = z;
            }
        }
        Self {
            r0: IMat3::point(r0),
            a,
            b,
            c,
        }
    }

    /// Encloses cos θ·A + sin θ·B + C = R0 + sin θ·B − (1 − cos θ)·A for sin θ in `sin` and 1 − cos θ in
    /// `vers` (A + C = R0).
    pub fn rotation(&self, sin: Interval<T>, vers: Interval<T>) -> IMat3<T> {
        let mut out = self.r0;
        for i in 0..3 {
            for j in 0..3 {
                out.m[i][j] = self.r0.m[i][j] + self.b.m[i][j] * sin - self.a.m[i][j] * vers;
            }
        }
        out
    }

    /// Encloses R(θ)·p = R0·p + sin θ·(B·p) − (1 − cos θ)·(A·p), grouping by matrix first so that sin θ and the
    /// versine each enter once per component: tighter than multiplying the interval matrix by p.
    pub fn rotate_point(&self, p: &Vector3<T>, sin: Interval<T>, vers: Interval<T>) -> IVec3<T> {
        self.r0.mul_real_vec(p) + self.b.mul_real_vec(p) * sin - self.a.mul_real_vec(p) * vers
    }

    /// The float matrices (midpoints of the interval entries): A, B, C.
    pub fn midpoints(&self) -> (Matrix3<T>, Matrix3<T>, Matrix3<T>) {
        let mid = |m: &IMat3<T>| Matrix3::from_fn(|i, j| m.m[i][j].midpoint());
        (mid(&self.a), mid(&self.b), mid(&self.c))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::{Translation3, UnitQuaternion};

    #[test]
    fn point_enclosure_contains_its_pose_and_points() {
        let q = UnitQuaternion::from_euler_angles(0.3, -1.2, 2.0);
        let pose = Isometry3::from_parts(Translation3::new(1.0, -2.0, 3.5), q);
        let e = IntervalPose::from_pose(&pose);
        assert!(e.contains(&pose));
        let p = Vector3::new(0.7, 100.0, -3.0);
        assert!(
            e.point_bound(&p)
                .contains(&(pose * nalgebra::Point3::from(p)).coords)
        );
        assert!(e.rot_width() < 1e-12 && e.trans_width() == 0.0);
    }

    #[test]
    fn turn_offset_matches_rodrigues() {
        let u = Unit::new_normalize(Vector3::new(1.0, 2.0, -0.5));
        let w = Vector3::new(0.3, -4.0, 2.0);
        for theta in [0.0, 0.5, 3.0, -2.0, 40.0, 1e-9] {
            let (sin, vers) = sin_vers(theta, Interval::point(1.0));
            let got = turn_offset(&u, &IVec3::point(&w), sin, vers) + w;
            let want = UnitQuaternion::from_axis_angle(&u, theta) * w;
            let pad = Vector3::repeat(1e-14);
            assert!(widen_vec(got, &pad).contains(&want), "{theta}");
        }
    }

    #[test]
    fn frame_reproduces_start_rotation_at_zero() {
        let u = Unit::new_normalize(Vector3::new(0.0, 1.0, 1.0));
        let r0 = *UnitQuaternion::from_euler_angles(0.1, 0.2, 0.3)
            .to_rotation_matrix()
            .matrix();
        let f = AxisFrame::new(&u, &r0);
        let zero = Interval::point(0.0);
        assert!(f.rotation(zero, zero).contains(&r0));
        let (sin, vers) = sin_vers(2.0, Interval::new(0.0, 1.0));
        let quarter = UnitQuaternion::from_axis_angle(&u, 1.0).to_rotation_matrix();
        assert!(pad_matrix(&f.rotation(sin, vers), 1e-14).contains(&(quarter.matrix() * r0)));
    }
}

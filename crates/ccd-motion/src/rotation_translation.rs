//! [`ConstantRotationTranslation`]: Redon's motion M1, constant rotation about a fixed axis plus constant-velocity
//! translation of the body origin.

use ccd_interval::limits::{check_angle, check_isometry, check_unit, check_vector, renormalized};
use ccd_interval::{IVec3, RangeError, Real};
use nalgebra::{Isometry3, Matrix3, Translation3, Unit, UnitQuaternion, Vector3};

use crate::arc::short_arc;
use crate::enclosure::{
    AxisFrame, IntervalPose, eval_pad, l1, norm_upper, pad_matrix, rotation_pad, sin_vers,
    time_interval, widen_vec,
};
use crate::motion::Motion;

/// Redon's in-between motion M1: the body origin moves on a line, p(t) = p0 + t·d, while the body turns at
/// constant angular speed about a fixed world-space axis u through its origin, R(t) = Rot_u(ω·t)·R0.
///
/// In matrix form R(t) = cos(ωt)·A + sin(ωt)·B + C with A = R0 − u uᵀR0, B = u*·R0 (u* the cross-product
/// matrix) and C = u uᵀR0 ([`matrix_form`](Self::matrix_form)).
///
/// # Frames
/// Poses map body to world. The axis u and the displacement d are in world coordinates.
///
/// # Guarantee
/// [`enclose`](Motion::enclose) bounds every entry α·cos θ + β·sin θ + γ with interval trigonometry of the angle
/// interval ω·[t0, t1] (sin θ, and 1 − cos θ as 2·sin²(θ/2)), so it is conservative over every sub-interval and for
/// any total angle (spins of several turns included).
///
/// # Reference
/// Redon et al. 2002 (motion M1); Jørgensen 2006, §4.2, with its erratum: B = u*·R0, not u*·R1 (the report's (4.2.d) misses R(1) = R1).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ConstantRotationTranslation<T: Real> {
    start: Isometry3<T>,
    axis: Unit<Vector3<T>>,
    angle: T,
    displacement: Vector3<T>,
    frame: AxisFrame<T>,
    rot_pad: T,
    trans_pad: Vector3<T>,
}

impl<T: Real> ConstantRotationTranslation<T> {
    /// The motion from `start` that turns through `angle` radians (right-hand rule, any real value: several
    /// turns and negative angles are allowed) about the world axis `axis` through the body origin, while the
    /// origin moves by `displacement` (world frame).
    pub fn new(
        start: Isometry3<T>,
        axis: Unit<Vector3<T>>,
        angle: T,
        displacement: Vector3<T>,
    ) -> Self {
        let r0 = *start.rotation.to_rotation_matrix().matrix();
        let p0 = start.translation.vector;
        let trans_pad = p0.zip_map(&displacement, |a, b| {
            T::EPSILON * T::lit(4.0) * (a.abs() + b.abs())
        });
        Self {
            start,
            axis,
            angle,
            displacement,
            frame: AxisFrame::new(&axis, &r0),
            rot_pad: rotation_pad(angle),
            trans_pad,
        }
    }

    /// The motion from `start` to `end` taking the short rotation (angle in [0, π]; antipodal quaternions are the
    /// same orientation and give no rotation; an exact half-turn picks its axis sign deterministically).
    ///
    /// `pose(1)` equals `end` up to a few ulps.
    pub fn between(start: &Isometry3<T>, end: &Isometry3<T>) -> Self {
        let arc = short_arc(&start.rotation, &end.rotation);
        Self::new(
            *start,
            arc.axis,
            arc.angle,
            end.translation.vector - start.translation.vector,
        )
    }

    /// The start pose (t = 0).
    pub fn start(&self) -> &Isometry3<T> {
        &self.start
    }

    /// The world-frame rotation axis u.
    pub fn axis(&self) -> &Unit<Vector3<T>> {
        &self.axis
    }

    /// The total rotation angle ω over t ∈ [0, 1] (radians).
    pub fn angle(&self) -> T {
        self.angle
    }

    /// The displacement d of the body origin over t ∈ [0, 1] (world frame).
    pub fn displacement(&self) -> &Vector3<T> {
        &self.displacement
    }

    /// The angular velocity ω·u (world frame, radians per unit of normalised time).
    pub fn angular_velocity(&self) -> Vector3<T> {
        self.axis.into_inner() * self.angle
    }

    /// The end pose (t = 1).
    pub fn end(&self) -> Isometry3<T> {
        self.pose(T::one())
    }

    /// The constant matrices (A, B, C) of R(t) = cos(ωt)·A + sin(ωt)·B + C, rounded to floats.
    pub fn matrix_form(&self) -> (Matrix3<T>, Matrix3<T>, Matrix3<T>) {
        self.frame.midpoints()
    }

    /// R(t) evaluated in the matrix form cos(ωt)·A + sin(ωt)·B + C (floating point; equal to the rotation of
    /// [`pose`](Motion::pose) up to rounding).
    pub fn rotation_matrix(&self, t: T) -> Matrix3<T> {
        let (a, b, c) = self.matrix_form();
        let (s, co) = (self.angle * t).sin_cos();
        a * co + b * s + c
    }

    fn trans_bound(&self, t0: T, t1: T) -> IVec3<T> {
        let time = time_interval(t0, t1);
        let moved = IVec3::point(&self.displacement) * time + self.start.translation.vector;
        widen_vec(moved, &self.trans_pad)
    }
}

impl<T: Real> Motion<T> for ConstantRotationTranslation<T> {
    fn check_range(&self) -> Result<(), RangeError> {
        check_isometry(&self.start).map_err(|e| e.within("start pose"))?;
        check_unit(self.axis.as_slice(), || "axis norm".into())?;
        check_angle(self.angle, || "angle".into())?;
        check_vector(&self.displacement, "displacement")
    }

    fn pose(&self, t: T) -> Isometry3<T> {
        let turn = UnitQuaternion::from_axis_angle(&self.axis, self.angle * t);
        let p = self.start.translation.vector + self.displacement * t;
        Isometry3::from_parts(
            Translation3::from(p),
            renormalized(turn * self.start.rotation),
        )
    }

    fn enclose(&self, t0: T, t1: T) -> IntervalPose<T> {
        let (sin, vers) = sin_vers(self.angle, time_interval(t0, t1));
        IntervalPose {
            rot: pad_matrix(&self.frame.rotation(sin, vers), self.rot_pad),
            trans: self.trans_bound(t0, t1),
        }
    }

    fn point_bound(&self, p: &Vector3<T>, t0: T, t1: T) -> IVec3<T> {
        let (sin, vers) = sin_vers(self.angle, time_interval(t0, t1));
        let rotated = self.frame.rotate_point(p, sin, vers);
        let rotated = widen_vec(rotated, &Vector3::repeat(self.rot_pad * l1(p)));
        eval_pad(rotated + self.trans_bound(t0, t1), p)
    }

    fn max_speed(&self, radius: T) -> T {
        // d/dt (R(t)x + p(t)) = ω u × R(t)x + d, so |·| ≤ |ω|·|x| + |d|.
        ccd_interval::bound_up(self.angle.abs() * radius + norm_upper(&self.displacement))
    }

    fn velocity_bound(&self, p: &Vector3<T>, t0: T, t1: T) -> IVec3<T> {
        // d/dt (R(t)·p + p0 + t·d) = ω·u × (R(t)·p) + d.
        let (sin, vers) = sin_vers(self.angle, time_interval(t0, t1));
        let rotated = self.frame.rotate_point(p, sin, vers);
        let spin = -rotated.cross_real(self.axis.as_ref()) * self.angle;
        let pad = self.rot_pad * l1(p) * self.angle.abs();
        widen_vec(spin + self.displacement, &Vector3::repeat(pad))
    }

    fn is_pure_translation(&self) -> Option<Vector3<T>> {
        (self.angle == T::zero()).then_some(self.displacement)
    }
}

//! [`Interp`]: linear interpolation of position and short-arc spherical interpolation (slerp) of orientation
//! between two poses.

use ccd_interval::limits::check_isometry;
use ccd_interval::{IVec3, RangeError, Real};
use nalgebra::{Isometry3, Translation3, UnitQuaternion, Vector3};

use crate::arc::short_arc;
use crate::enclosure::IntervalPose;
use crate::motion::Motion;
use crate::rotation_translation::ConstantRotationTranslation;

/// Interpolation between two poses: the origin is lerped, p(t) = p0 + t·(p1 − p0), and the orientation slerped
/// along the short arc, q(t) = sin((1−t)φ)/sin φ·q0 + sin(tφ)/sin φ·q1 with q1's sign chosen so that q0·q1 ≥ 0.
///
/// Antipodal quaternions (q1 = −q0) are the same orientation: the body does not turn. An exact half-turn has two
/// equally short arcs; the choice is deterministic (see [`ConstantRotationTranslation::between`]).
///
/// Slerp on the short arc is a rotation at constant angular speed about the fixed axis of q1·q0⁻¹, so this is the
/// same path as [`ConstantRotationTranslation::between`]`(start, end)`: the enclosures are those of that motion
/// (interval sin/cos of the rotation-angle interval), never bounds on quaternion components taken at the
/// endpoints. The difference is evaluation: `pose(0)` and `pose(1)` reproduce `start` and `end` exactly (`end`'s
/// quaternion possibly negated, the same rotation).
///
/// # Frames
/// Poses map body to world.
///
/// # Reference
/// Jørgensen 2006, §9.3 and `arbitrary_constant.h`: that slerp inverted the short-arc flip (non-unit quaternions,
/// bodies shrinking to 17 % mid-way) and spun antipodal quaternions through a full turn.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Interp<T: Real> {
    start: Isometry3<T>,
    end: Isometry3<T>,
    /// `end.rotation` with the sign that puts it on the short arc from `start.rotation`.
    q1: UnitQuaternion<T>,
    /// Half the rotation angle: the arc between q0 and q1 on the unit 3-sphere.
    half_angle: T,
    sin_half_angle: T,
    /// The same path as a constant-axis motion, used for enclosures and speeds.
    path: ConstantRotationTranslation<T>,
}

impl<T: Real> Interp<T> {
    /// Interpolation from `start` (t = 0) to `end` (t = 1).
    pub fn new(start: Isometry3<T>, end: Isometry3<T>) -> Self {
        let arc = short_arc(&start.rotation, &end.rotation);
        let half_angle = arc.angle * T::lit(0.5);
        let path = ConstantRotationTranslation::new(
            start,
            arc.axis,
            arc.angle,
            end.translation.vector - start.translation.vector,
        );
        Self {
            start,
            end,
            q1: arc.q1,
            half_angle,
            sin_half_angle: half_angle.sin(),
            path,
        }
    }

    /// The start pose (t = 0).
    pub fn start(&self) -> &Isometry3<T> {
        &self.start
    }

    /// The end pose (t = 1).
    pub fn end(&self) -> &Isometry3<T> {
        &self.end
    }

    /// The same path as a [`ConstantRotationTranslation`] (axis, angle in [0, π], displacement).
    pub fn as_constant_rotation_translation(&self) -> &ConstantRotationTranslation<T> {
        &self.path
    }

    /// The short-arc slerp of the orientation at time `t`.
    fn slerp(&self, t: T) -> UnitQuaternion<T> {
        // The ends are returned as stored, so that they reproduce the poses bit for bit (q1 up to sign).
        if t <= T::zero() {
            return self.start.rotation;
        }
        if t >= T::one() {
            return self.q1;
        }
        let q0 = self.start.rotation.into_inner();
        let q1 = self.q1.into_inner();
        let q = if self.sin_half_angle > T::zero() {
            let a = ((T::one() - t) * self.half_angle).sin() / self.sin_half_angle;
            let b = (t * self.half_angle).sin() / self.sin_half_angle;
            q0 * a + q1 * b
        } else {
            // No rotation left to interpolate (q1 = ±q0 up to rounding): a normalised lerp keeps both ends exact.
            q0 * (T::one() - t) + q1 * t
        };
        UnitQuaternion::new_normalize(q)
    }

    /// The lerp of the origin, exact at both ends (from p0 for t < ½, from p1 for t ≥ ½).
    fn lerp(&self, t: T) -> Vector3<T> {
        let p0 = self.start.translation.vector;
        let p1 = self.end.translation.vector;
        let d = p1 - p0;
        if t < T::lit(0.5) {
            p0 + d * t
        } else {
            p1 - d * (T::one() - t)
        }
    }
}

impl<T: Real> Motion<T> for Interp<T> {
    fn check_range(&self) -> Result<(), RangeError> {
        check_isometry(&self.start).map_err(|e| e.within("start pose"))?;
        check_isometry(&self.end).map_err(|e| e.within("end pose"))
    }

    fn pose(&self, t: T) -> Isometry3<T> {
        Isometry3::from_parts(Translation3::from(self.lerp(t)), self.slerp(t))
    }

    fn enclose(&self, t0: T, t1: T) -> IntervalPose<T> {
        self.path.enclose(t0, t1)
    }

    fn point_bound(&self, p: &Vector3<T>, t0: T, t1: T) -> IVec3<T> {
        self.path.point_bound(p, t0, t1)
    }

    fn max_speed(&self, radius: T) -> T {
        self.path.max_speed(radius)
    }

    fn velocity_bound(&self, p: &Vector3<T>, t0: T, t1: T) -> IVec3<T> {
        self.path.velocity_bound(p, t0, t1)
    }

    fn is_pure_translation(&self) -> Option<Vector3<T>> {
        self.path.is_pure_translation()
    }
}

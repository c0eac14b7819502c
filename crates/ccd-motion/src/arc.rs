//! The short rotation arc between two orientations: the axis–angle form of q1·q0⁻¹, with antipodal quaternions
//! treated as the same orientation and the half-turn tie broken deterministically.

use ccd_interval::Real;
use nalgebra::{Unit, UnitQuaternion, Vector3};

/// The short arc from `q0` to `q1`: Rot_axis(angle)·q0 = q1 (as rotations), angle ∈ [0, π].
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct ShortArc<T: Real> {
    /// World-frame rotation axis (x when the angle is zero).
    pub axis: Unit<Vector3<T>>,
    /// Rotation angle in [0, π] (twice the quaternion arc).
    pub angle: T,
    /// `q1` with its sign chosen so that it lies on the short arc from `q0` (q1·q0 ≥ 0 as 4-vectors).
    pub q1: UnitQuaternion<T>,
}

/// Computes the short arc from `q0` to `q1`.
///
/// q and −q are the same rotation, so of the relative quaternions ±q1·q0⁻¹ the one with a non-negative scalar part
/// (the shorter of the two arcs) is taken. At an exact half-turn (scalar part exactly 0) both arcs are equally long;
/// the tie is broken by making the first nonzero component of the relative vector part positive, so the same
/// inputs always give the same path. The angle is computed as 2·atan2(|v|, w), accurate for tiny and near-π
/// rotations alike (acos of the dot product is not).
///
/// # Reference
/// Jørgensen 2006, §9.3 and `arbitrary_constant.h`: its flip rule was inverted and did not recompute the angle; its
/// antipodal branch spun a full turn instead of standing still.
pub(crate) fn short_arc<T: Real>(q0: &UnitQuaternion<T>, q1: &UnitQuaternion<T>) -> ShortArc<T> {
    // Equal or opposite quaternions are the same orientation exactly; the product below would leave a rounding
    // residue of an ulp and report a spurious 1e-16 rad turn.
    let (a, b) = (q0.quaternion(), q1.quaternion());
    if a == b || *a == -b {
        return ShortArc {
            axis: Vector3::x_axis(),
            angle: T::zero(),
            q1: *q0,
        };
    }
    let rel = q1.quaternion() * q0.quaternion().conjugate();
    let v = rel.imag();
    let w = rel.w;
    let flip = if w != T::zero() {
        w < T::zero()
    } else {
        let first = [v.x, v.y, v.z]
            .into_iter()
            .find(|c| *c != T::zero())
            .unwrap_or(T::one());
        first < T::zero()
    };
    let (w, v, q1) = if flip {
        (-w, -v, UnitQuaternion::new_unchecked(-q1.into_inner()))
    } else {
        (w, v, *q1)
    };
    let s = v.norm();
    if s > T::zero() {
        ShortArc {
            axis: Unit::new_unchecked(v / s),
            angle: T::lit(2.0) * s.atan2(w),
            q1,
        }
    } else {
        ShortArc {
            axis: Vector3::x_axis(),
            angle: T::zero(),
            q1,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::f64::consts::PI;

    #[test]
    fn quarter_turn_about_x() {
        let q0 = UnitQuaternion::identity();
        let q1 = UnitQuaternion::from_axis_angle(&Vector3::x_axis(), PI / 2.0);
        let a = short_arc(&q0, &q1);
        assert!((a.angle - PI / 2.0).abs() < 1e-15);
        assert!((a.axis.into_inner() - Vector3::x()).norm() < 1e-15);
    }

    #[test]
    fn antipodal_is_no_rotation() {
        let q0 = UnitQuaternion::from_euler_angles(0.3f64, 0.2, -1.0);
        let q1 = UnitQuaternion::new_unchecked(-q0.into_inner());
        let a = short_arc(&q0, &q1);
        assert!(a.angle.abs() < 1e-15);
        assert!((a.q1.into_inner() - q0.into_inner()).norm() < 1e-15);
    }

    #[test]
    fn long_way_round_is_shortened() {
        // 300° about z is −60° about z.
        let q0 = UnitQuaternion::identity();
        let q1 = UnitQuaternion::from_axis_angle(&Vector3::z_axis(), 300f64.to_radians());
        let a = short_arc(&q0, &q1);
        assert!((a.angle - 60f64.to_radians()).abs() < 1e-14);
        assert!((a.axis.into_inner() + Vector3::z()).norm() < 1e-14);
    }

    #[test]
    fn exact_half_turn_is_deterministic() {
        let q0 = UnitQuaternion::identity();
        // (0, 0, -1, 0) and (0, 0, 1, 0) are the same half-turn about y; both give the +y axis.
        for s in [1.0, -1.0] {
            let q1 = UnitQuaternion::new_unchecked(nalgebra::Quaternion::new(0.0, 0.0, s, 0.0));
            let a = short_arc(&q0, &q1);
            assert_eq!(a.angle, PI);
            assert_eq!(a.axis.into_inner(), Vector3::y());
        }
    }
}

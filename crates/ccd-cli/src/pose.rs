//! The POSE syntax of the command line: a translation with a rotation vector, a quaternion (in the order
//! `--quat-order` names), roll-pitch-yaw angles, or a 4×4 row-major matrix.

use ccd::Real;
use ccd::nalgebra::{
    Isometry3, Matrix3, Quaternion, Rotation3, Translation3, UnitQuaternion, Vector3,
};
use clap::{Args, ValueEnum};

/// The POSE syntax, shown by `--help` of every command that takes poses.
pub const POSE_HELP: &str = "\
POSE (model frame -> world frame), comma-separated numbers, no spaces needed:
  tx,ty,tz                  translation only
  tx,ty,tz,rx,ry,rz         translation, then a rotation vector in radians
                            (unit axis times angle; 0,0,1.5708 turns 90 degrees about z)
  tx,ty,tz,q,q,q,q          translation, then a unit quaternion in the order --quat-order
                            names: wxyz (scalar first, the default) or xyzw (scalar last,
                            as ROS, scipy's as_quat() and Eigen's coeffs()); its norm must
                            be within 1e-3 of 1; it is then normalised
  rpy:tx,ty,tz,roll,pitch,yaw
                            translation, then roll, pitch, yaw in radians about the fixed
                            x, y, z axes in that order: R = Rz(yaw) Ry(pitch) Rx(roll), as
                            ROS (tf2 setRPY, URDF) and nalgebra's from_euler_angles
  matrix:m00,m01,...,m33    the 4x4 homogeneous matrix [R t; 0 0 0 1], 16 numbers row by
                            row; R must be a rotation within 1e-3 (|R^T R - I| entries, and
                            not a reflection); it is then orthonormalised
The rotation is applied first: x_world = R x_model + t. Negative numbers are
fine (--pose-b -1,0,0). NaN and infinite values are refused.";

/// The order of the four numbers of a quaternion POSE.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum QuatOrder {
    /// Scalar first: `qw,qx,qy,qz` (the default, and ccd's order before the flag existed).
    #[default]
    Wxyz,
    /// Scalar last: `qx,qy,qz,qw` (ROS, scipy, Eigen's `coeffs()`).
    Xyzw,
}

/// How POSE values are read: the flags shared by every command that takes poses.
#[derive(Clone, Copy, Debug, Default, Args)]
pub struct PoseFormat {
    /// Order of the four quaternion numbers in a 7-number POSE: wxyz (scalar first) or xyzw (scalar
    /// last, as ROS, scipy and Eigen's coeffs()).
    #[arg(long, value_enum, default_value_t = QuatOrder::Wxyz, value_name = "ORDER")]
    pub quat_order: QuatOrder,
}

impl PoseFormat {
    /// `pose` as an isometry in `T`, the identity when absent.
    pub fn isometry<T: Real>(&self, pose: Option<PoseArg>) -> Isometry3<T> {
        pose.map_or_else(Isometry3::identity, |p| p.isometry(self.quat_order))
    }
}

/// A parsed POSE, kept in `f64` until the scalar type of the query is known.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PoseArg {
    translation: [f64; 3],
    rotation: Rotation,
}

/// A POSE's rotation.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Rotation {
    /// A unit quaternion `(w, x, y, z)`, whatever form it was typed in.
    Unit([f64; 4]),
    /// Four quaternion numbers as typed (normalised), to be read in the order `--quat-order` names.
    Typed([f64; 4]),
}

impl PoseArg {
    /// The rotation as a unit quaternion `(w, x, y, z)`, reading a typed quaternion in `order`.
    pub fn quaternion_wxyz(&self, order: QuatOrder) -> [f64; 4] {
        match (self.rotation, order) {
            (Rotation::Unit(q), _) | (Rotation::Typed(q), QuatOrder::Wxyz) => q,
            (Rotation::Typed([x, y, z, w]), QuatOrder::Xyzw) => [w, x, y, z],
        }
    }

    /// The pose as an isometry in scalar `T` (the quaternion is renormalised after rounding), reading a
    /// quaternion POSE in `order`.
    pub fn isometry<T: Real>(&self, order: QuatOrder) -> Isometry3<T> {
        let [x, y, z] = self.translation.map(T::lit);
        let [qw, qx, qy, qz] = self.quaternion_wxyz(order).map(T::lit);
        Isometry3::from_parts(
            Translation3::new(x, y, z),
            UnitQuaternion::from_quaternion(Quaternion::new(qw, qx, qy, qz)),
        )
    }
}

/// Largest accepted deviation of a quaternion's norm from 1, and of a matrix's `RᵀR` from the identity.
const UNIT_TOLERANCE: f64 = 1e-3;

/// Parses comma-separated finite numbers.
fn finite_numbers(s: &str) -> Result<Vec<f64>, String> {
    s.split(',')
        .enumerate()
        .map(|(i, part)| {
            ccd::number::finite(part)
                .map_err(|bad| format!("component {} ({:?}) {bad}", i + 1, part.trim()))
        })
        .collect()
}

/// Parses POSE (see [`POSE_HELP`]).
pub fn parse_pose(s: &str) -> Result<PoseArg, String> {
    if let Some(rest) = s.trim_start().strip_prefix("rpy:") {
        return parse_rpy(rest).map_err(|e| format!("rpy:tx,ty,tz,roll,pitch,yaw: {e}"));
    }
    if let Some(rest) = s.trim_start().strip_prefix("matrix:") {
        return parse_matrix(rest).map_err(|e| format!("matrix:m00,...,m33: {e}"));
    }
    let numbers = finite_numbers(s)?;
    let rotation = match numbers[..] {
        [_, _, _] => Rotation::Unit([1.0, 0.0, 0.0, 0.0]),
        [_, _, _, rx, ry, rz] => {
            // The angle is the vector's norm, computed without overflow (scaled by its largest component); beyond
            // the supported rotation angle a rotation vector is refused rather than reduced modulo 2π.
            let v = Vector3::new(rx, ry, rz);
            let m = v.amax();
            let angle = if m > 0.0 { (v / m).norm() * m } else { 0.0 };
            let max = ccd::Limits::F64.angle_max;
            if angle > max {
                return Err(format!(
                    "rotation vector ({rx:?}, {ry:?}, {rz:?}): angle {angle:e} rad is out of the supported range [0, {max}]"
                ));
            }
            let q = UnitQuaternion::from_scaled_axis(v);
            Rotation::Unit([q.w, q.i, q.j, q.k])
        }
        [_, _, _, q0, q1, q2, q3] => {
            let norm = (q0 * q0 + q1 * q1 + q2 * q2 + q3 * q3).sqrt();
            if (norm - 1.0).abs() > UNIT_TOLERANCE {
                return Err(format!(
                    "the quaternion ({q0}, {q1}, {q2}, {q3}) has norm {norm}, not 1 (use 6 numbers for a rotation \
                     vector)"
                ));
            }
            Rotation::Typed([q0, q1, q2, q3].map(|c| c / norm))
        }
        _ => {
            return Err(format!(
                "expected 3 (tx,ty,tz), 6 (+ rotation vector rx,ry,rz) or 7 (+ quaternion, see --quat-order) \
                 comma-separated numbers, or rpy:… / matrix:…, got {}",
                numbers.len()
            ));
        }
    };
    Ok(PoseArg {
        translation: [numbers[0], numbers[1], numbers[2]],
        rotation,
    })
}

/// `tx,ty,tz,roll,pitch,yaw`.
fn parse_rpy(s: &str) -> Result<PoseArg, String> {
    let v = finite_numbers(s)?;
    let [tx, ty, tz, roll, pitch, yaw] = v[..] else {
        return Err(format!(
            "expected 6 comma-separated numbers, got {}",
            v.len()
        ));
    };
    let max = ccd::Limits::F64.angle_max;
    for (name, a) in [("roll", roll), ("pitch", pitch), ("yaw", yaw)] {
        if a.abs() > max {
            return Err(format!(
                "{name} {a:e} rad is out of the supported range [-{max}, {max}]"
            ));
        }
    }
    // nalgebra applies roll about x, then pitch about y, then yaw about z, all fixed axes.
    let q = UnitQuaternion::from_euler_angles(roll, pitch, yaw);
    Ok(PoseArg {
        translation: [tx, ty, tz],
        rotation: Rotation::Unit([q.w, q.i, q.j, q.k]),
    })
}

/// `m00,…,m33`, row-major.
fn parse_matrix(s: &str) -> Result<PoseArg, String> {
    let v = finite_numbers(s)?;
    if v.len() != 16 {
        return Err(format!(
            "expected 16 comma-separated numbers (a 4x4 matrix, row by row), got {}",
            v.len()
        ));
    }
    let at = |r: usize, c: usize| v[4 * r + c];
    let last = [at(3, 0), at(3, 1), at(3, 2), at(3, 3)];
    if last != [0.0, 0.0, 0.0, 1.0] {
        return Err(format!(
            "the last row is {last:?}, not [0, 0, 0, 1] (a rigid pose has no projective part)"
        ));
    }
    let r = Matrix3::from_fn(at);
    // Entries up to 1 (after the check below), so RᵀR neither overflows nor loses the tolerance.
    if r.amax() > 1.0 + UNIT_TOLERANCE {
        return Err(format!(
            "the rotation part has an entry of magnitude {}, more than 1: not a rotation",
            r.amax()
        ));
    }
    let defect = (r.transpose() * r - Matrix3::identity()).amax();
    if defect > UNIT_TOLERANCE {
        return Err(format!(
            "the rotation part is not orthonormal: R^T R differs from the identity by {defect:e} (more than \
             {UNIT_TOLERANCE:e})"
        ));
    }
    let det = r.determinant();
    if det < 0.0 {
        return Err(format!(
            "the rotation part is a reflection (determinant {det}), not a rotation"
        ));
    }
    let q = UnitQuaternion::from_rotation_matrix(&Rotation3::from_matrix_unchecked(r));
    Ok(PoseArg {
        translation: [at(0, 3), at(1, 3), at(2, 3)],
        rotation: Rotation::Unit([q.w, q.i, q.j, q.k]),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use ccd::nalgebra::Point3;

    fn iso(s: &str, order: QuatOrder) -> Isometry3<f64> {
        parse_pose(s)
            .unwrap_or_else(|e| panic!("{s:?}: {e}"))
            .isometry(order)
    }

    #[test]
    fn poses_parse() {
        let t = parse_pose("1,-2,3.5").unwrap();
        assert_eq!(t.translation, [1.0, -2.0, 3.5]);
        assert_eq!(t.quaternion_wxyz(QuatOrder::Xyzw), [1.0, 0.0, 0.0, 0.0]);

        let r = iso("0,0,0,0,0,1.5707963267948966", QuatOrder::Wxyz);
        assert!((r * Point3::new(1.0, 0.0, 0.0) - Point3::new(0.0, 1.0, 0.0)).norm() < 1e-12);

        let q = parse_pose("0, 0, 0, 0.70710678, 0, 0, 0.70710678")
            .unwrap()
            .isometry::<f32>(QuatOrder::Wxyz);
        let x = q * Point3::new(1.0f32, 0.0, 0.0);
        assert!((x - Point3::new(0.0, 1.0, 0.0)).norm() < 1e-6);
    }

    #[test]
    fn bad_poses_are_refused() {
        for bad in [
            "",
            "1,2",
            "1,2,3,4",
            "1,2,x",
            "1,2,nan",
            "1,2,inf",
            "0,0,0,2,0,0,0",
            "1,2,3,4,5,6,7,8",
            "rpy:1,2,3",
            "rpy:0,0,0,0,0,1e9",
            "rpy:0,0,0,0,nan,0",
            "matrix:1,0,0,0,0,1,0,0,0,0,1,0",
        ] {
            assert!(parse_pose(bad).is_err(), "{bad:?} was accepted");
        }
    }
}

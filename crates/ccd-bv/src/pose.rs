//! Rigid transforms in the matrix form the overlap tests consume.

use nalgebra::{Isometry3, Matrix3, Point3, Vector3};

use crate::limits::check_isometry;
use crate::{RangeError, Real};

/// `pose` after [`check_isometry`], with its quaternion renormalised unless it is unit within 8 ε already.
///
/// # Errors
/// As [`check_isometry`].
pub fn checked_isometry<T: Real>(pose: &Isometry3<T>) -> Result<Isometry3<T>, RangeError> {
    check_isometry(pose)?;
    // Quaternions that are unit up to their own rounding (as every nalgebra constructor leaves them) pass
    // unchanged, so a checked query computes exactly what an unchecked one did.
    Ok(Isometry3::from_parts(
        pose.translation,
        crate::limits::renormalized(pose.rotation),
    ))
}

/// A rigid transform `x ↦ rot·x + trans`, stored as a rotation matrix (with its
/// element-wise absolute value cached) so that bounding-volume tests pay no
/// quaternion-to-matrix conversion.
///
/// In queries it is always the pose of B's model frame *in A's model frame*
/// (`b_in_a`), computed once per query.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pose<T: Real> {
    /// Rotation matrix (orthonormal up to round-off).
    pub rot: Matrix3<T>,
    /// Element-wise |rot|, used by the AABB wrap and the SAT.
    pub abs_rot: Matrix3<T>,
    /// Translation.
    pub trans: Vector3<T>,
}

impl<T: Real> Pose<T> {
    /// The identity transform.
    pub fn identity() -> Self {
        Self::from_parts(Matrix3::identity(), Vector3::zeros())
    }

    /// A transform from a rotation matrix and a translation.
    pub fn from_parts(rot: Matrix3<T>, trans: Vector3<T>) -> Self {
        Self {
            rot,
            abs_rot: rot.abs(),
            trans,
        }
    }

    /// The transform of an isometry.
    pub fn from_isometry(iso: &Isometry3<T>) -> Self {
        Self::from_parts(
            iso.rotation.to_rotation_matrix().into_inner(),
            iso.translation.vector,
        )
    }

    /// Pose of B's frame in A's frame, given both models' world poses:
    /// `pose_a⁻¹ · pose_b`.
    ///
    /// # Guarantee
    /// A shared rotation cancels exactly: where both quaternions are equal (or opposite: the same rotation), the
    /// relative rotation is the exact identity matrix rather than the rounded conversion of `q⁻¹q ≈ 1`, which
    /// scales by `1 − 4ε` or so and would move every one of B's vertices off A's. Equal translations give
    /// exactly zero. So two models at one pose see each other's vertices exactly where their own are, and a
    /// shared rotation with different positions leaves only the rounded offset. Otherwise the rotation is the
    /// rounded product, within a few ulps of the exact relative rotation.
    pub fn relative(pose_a: &Isometry3<T>, pose_b: &Isometry3<T>) -> Self {
        let inverse_a = pose_a.rotation.inverse();
        let trans =
            inverse_a.transform_vector(&(pose_b.translation.vector - pose_a.translation.vector));
        let (qa, qb) = (pose_a.rotation.coords, pose_b.rotation.coords);
        let rot = if qa == qb || qa == -qb {
            Matrix3::identity()
        } else {
            (inverse_a * pose_b.rotation)
                .to_rotation_matrix()
                .into_inner()
        };
        Self::from_parts(rot, trans)
    }

    /// [`Pose::relative`] of two poses checked against the supported range of `T`
    /// ([`crate::limits::check_isometry`]), their quaternions renormalised first (each is within the unit
    /// tolerance of norm 1, so this moves a rotation by at most that tolerance).
    ///
    /// # Errors
    /// [`RangeError`] naming `"pose of model a"` or `"pose of model b"` and the component.
    pub fn relative_checked(
        pose_a: &Isometry3<T>,
        pose_b: &Isometry3<T>,
    ) -> Result<Self, RangeError> {
        let a = checked_isometry(pose_a).map_err(|e| e.within("pose of model a"))?;
        let b = checked_isometry(pose_b).map_err(|e| e.within("pose of model b"))?;
        Ok(Self::relative(&a, &b))
    }

    /// Checks the transform against the supported range of `T`: every translation component a derived length
    /// ([`crate::limits::check_derived_length`]: finite, at most `4·length_max`, as the relative pose of two
    /// supported poses always is), and `rot` a rotation: finite, with `|rotᵀrot − I|` entrywise within the unit
    /// tolerance.
    ///
    /// # Errors
    /// [`RangeError`] naming the translation component, or the rotation's largest deviation from orthonormality.
    pub fn check(&self) -> Result<(), RangeError> {
        for (k, axis) in ["x", "y", "z"].iter().enumerate() {
            crate::limits::check_derived_length(self.trans[k], || {
                format!("relative pose translation {axis}")
            })?;
        }
        let gram = self.rot.transpose() * self.rot - Matrix3::identity();
        let worst = if gram.iter().all(|x| x.finite()) {
            gram.iter().fold(T::zero(), |m, x| m.max(x.abs()))
        } else {
            T::lit(f64::NAN)
        };
        crate::limits::check_within(worst, 0.0, T::LIMITS.unit_tolerance, || {
            "relative pose rotation: largest entry of |rotᵀrot − I|".into()
        })
    }

    /// Applies the transform to a point.
    #[inline(always)]
    pub fn transform_point(&self, p: &Point3<T>) -> Point3<T> {
        Point3::from(self.rot * p.coords + self.trans)
    }

    /// Applies the transform to a point stored as an array.
    #[inline(always)]
    pub fn transform_array(&self, p: &[T; 3]) -> [T; 3] {
        let v = self.rot * Vector3::from(*p) + self.trans;
        [v.x, v.y, v.z]
    }

    /// Applies the rotation only.
    #[inline(always)]
    pub fn rotate(&self, v: &Vector3<T>) -> Vector3<T> {
        self.rot * v
    }
}

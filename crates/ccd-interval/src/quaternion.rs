//! [`IQuat`]: a quaternion of intervals, for bounding rotations over a time
//! interval.

use nalgebra::{Quaternion, UnitQuaternion};

use crate::{IMat3, Interval, Real};

/// A quaternion whose four coordinates are intervals: a box in `ℝ⁴`.
///
/// # Guarantee
///
/// Every operation contains the exact result for every member quaternion of
/// the box(es); [`IQuat::to_rotation_matrix`] is valid for the *unit* members.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct IQuat<T> {
    /// Scalar part.
    pub w: Interval<T>,
    /// First imaginary coordinate (`i`).
    pub x: Interval<T>,
    /// Second imaginary coordinate (`j`).
    pub y: Interval<T>,
    /// Third imaginary coordinate (`k`).
    pub z: Interval<T>,
}

impl<T: Real> IQuat<T> {
    /// The box `w + x i + y j + z k`.
    #[inline]
    pub fn new(w: Interval<T>, x: Interval<T>, y: Interval<T>, z: Interval<T>) -> Self {
        Self { w, x, y, z }
    }

    /// The degenerate box `{q}` (exact).
    #[inline]
    pub fn point(q: &UnitQuaternion<T>) -> Self {
        let q = q.quaternion();
        Self::new(
            Interval::point(q.w),
            Interval::point(q.i),
            Interval::point(q.j),
            Interval::point(q.k),
        )
    }

    /// Encloses the Hamilton product `p q` (nalgebra's convention) for every
    /// `p ∈ self`, `q ∈ o`.
    #[inline]
    pub fn mul(&self, o: &Self) -> Self {
        let (a, b) = (self, o);
        Self::new(
            a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z,
            a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
            a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
            a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w,
        )
    }

    /// The conjugate `w - x i - y j - z k` (exact).
    #[inline]
    pub fn conjugate(&self) -> Self {
        Self::new(self.w, -self.x, -self.y, -self.z)
    }

    /// Encloses the rotation matrix `R(q)` for every *unit* quaternion `q` in
    /// the box.
    ///
    /// Uses the unit-quaternion form
    /// `R = I + 2 [[-(y²+z²), xy-wz, xz+wy], [xy+wz, -(x²+z²), yz-wx],
    /// [xz-wy, yz+wx, -(x²+y²)]]`, with [`Interval::sqr`] for the squares,
    /// then clamps each endpoint into `[-1, 1]` (entries of a rotation matrix
    /// lie there). The clamp relies on `|q| = 1`; non-unit members are not
    /// covered.
    pub fn to_rotation_matrix(&self) -> IMat3<T> {
        let two = T::lit(2.0);
        let one = T::one();
        let (w, x, y, z) = (self.w, self.x, self.y, self.z);
        let diag = |a: Interval<T>, b: Interval<T>| ((a.sqr() + b.sqr()) * two).rsub(one);
        let off = |p: Interval<T>, q: Interval<T>| p * two + q * two;
        let m = [
            [diag(y, z), off(x * y, -(w * z)), off(x * z, w * y)],
            [off(x * y, w * z), diag(x, z), off(y * z, -(w * x))],
            [off(x * z, -(w * y)), off(y * z, w * x), diag(x, y)],
        ];
        IMat3 {
            m: m.map(|row| row.map(|e| clamp_unit(e))),
        }
    }

    /// `true` if `q` lies in the box.
    #[inline]
    pub fn contains(&self, q: &Quaternion<T>) -> bool {
        self.w.contains(q.w) && self.x.contains(q.i) && self.y.contains(q.j) && self.z.contains(q.k)
    }

    /// The smallest box containing both (exact).
    #[inline]
    pub fn hull(&self, o: &Self) -> Self {
        Self::new(
            self.w.hull(o.w),
            self.x.hull(o.x),
            self.y.hull(o.y),
            self.z.hull(o.z),
        )
    }
}

/// Clamps both endpoints into `[-1, 1]` (monotone, so it keeps every member
/// that lies in `[-1, 1]`).
#[inline(always)]
fn clamp_unit<T: Real>(e: Interval<T>) -> Interval<T> {
    let one = T::one();
    let c = |v: T| {
        if v > one {
            one
        } else if v < -one {
            -one
        } else {
            v
        }
    };
    Interval::raw(c(e.lo), c(e.hi))
}

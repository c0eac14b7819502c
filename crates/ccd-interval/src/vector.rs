//! [`IVec3`]: a 3-vector of intervals (a box), with interval and mixed
//! interval/real products.

use std::ops::{Add, AddAssign, Mul, Neg, Sub, SubAssign};

use nalgebra::Vector3;

use crate::{Interval, Real};

/// A vector of three intervals: the axis-aligned box `x × y × z`.
///
/// # Guarantee
///
/// Every operation contains the exact result for every choice of members
/// (`u ∈ self`, `v ∈ other`), computed componentwise with the outward-rounded
/// operations of [`Interval`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct IVec3<T> {
    /// First component.
    pub x: Interval<T>,
    /// Second component.
    pub y: Interval<T>,
    /// Third component.
    pub z: Interval<T>,
}

impl<T: Real> IVec3<T> {
    /// The box `x × y × z`.
    #[inline]
    pub fn new(x: Interval<T>, y: Interval<T>, z: Interval<T>) -> Self {
        Self { x, y, z }
    }

    /// The degenerate box `{v}` (exact).
    #[inline]
    pub fn point(v: &Vector3<T>) -> Self {
        Self::new(
            Interval::point(v.x),
            Interval::point(v.y),
            Interval::point(v.z),
        )
    }

    /// The smallest box containing `self` and `o` (exact).
    #[inline]
    pub fn hull(self, o: Self) -> Self {
        Self::new(self.x.hull(o.x), self.y.hull(o.y), self.z.hull(o.z))
    }

    /// The components as an array `[x, y, z]`.
    #[inline]
    pub fn to_array(self) -> [Interval<T>; 3] {
        [self.x, self.y, self.z]
    }

    /// Lower corner (component `lo`s).
    #[inline]
    pub fn lo(&self) -> Vector3<T> {
        Vector3::new(self.x.lo(), self.y.lo(), self.z.lo())
    }

    /// Upper corner (component `hi`s).
    #[inline]
    pub fn hi(&self) -> Vector3<T> {
        Vector3::new(self.x.hi(), self.y.hi(), self.z.hi())
    }

    /// Encloses `u · v` for every `u ∈ self`, `v ∈ o`.
    #[inline]
    pub fn dot(&self, o: &Self) -> Interval<T> {
        self.x * o.x + self.y * o.y + self.z * o.z
    }

    /// Encloses `u · v` for every `u ∈ self` (mixed fast path: one sign test
    /// per component instead of four products).
    #[inline]
    pub fn dot_real(&self, v: &Vector3<T>) -> Interval<T> {
        self.x * v.x + self.y * v.y + self.z * v.z
    }

    /// Encloses `u × v` for every `u ∈ self`, `v ∈ o`.
    #[inline]
    pub fn cross(&self, o: &Self) -> Self {
        Self::new(
            self.y * o.z - self.z * o.y,
            self.z * o.x - self.x * o.z,
            self.x * o.y - self.y * o.x,
        )
    }

    /// Encloses `u × v` for every `u ∈ self` (mixed fast path).
    #[inline]
    pub fn cross_real(&self, v: &Vector3<T>) -> Self {
        Self::new(
            self.y * v.z - self.z * v.y,
            self.z * v.x - self.x * v.z,
            self.x * v.y - self.y * v.x,
        )
    }

    /// Encloses `s u` for every `s ∈ s`, `u ∈ self`.
    #[inline]
    pub fn scale(&self, s: Interval<T>) -> Self {
        Self::new(self.x * s, self.y * s, self.z * s)
    }

    /// Encloses `|u|²` for every `u ∈ self` (uses [`Interval::sqr`], so the
    /// lower bound is `>= 0`).
    #[inline]
    pub fn norm_sqr(&self) -> Interval<T> {
        self.x.sqr() + self.y.sqr() + self.z.sqr()
    }

    /// `true` if `v` lies in the box.
    #[inline]
    pub fn contains(&self, v: &Vector3<T>) -> bool {
        self.x.contains(v.x) && self.y.contains(v.y) && self.z.contains(v.z)
    }

    /// Per-component magnitude: `(mag x, mag y, mag z)`, an upper bound of
    /// `|u_i|` for every `u` in the box (exact).
    #[inline]
    pub fn mag(&self) -> Vector3<T> {
        Vector3::new(self.x.mag(), self.y.mag(), self.z.mag())
    }
}

impl<T: Real> Add for IVec3<T> {
    type Output = Self;
    /// Componentwise interval sum.
    #[inline]
    fn add(self, o: Self) -> Self {
        Self::new(self.x + o.x, self.y + o.y, self.z + o.z)
    }
}

impl<T: Real> Sub for IVec3<T> {
    type Output = Self;
    /// Componentwise interval difference.
    #[inline]
    fn sub(self, o: Self) -> Self {
        Self::new(self.x - o.x, self.y - o.y, self.z - o.z)
    }
}

impl<T: Real> Neg for IVec3<T> {
    type Output = Self;
    /// Componentwise negation (exact).
    #[inline]
    fn neg(self) -> Self {
        Self::new(-self.x, -self.y, -self.z)
    }
}

impl<T: Real> Add<Vector3<T>> for IVec3<T> {
    type Output = Self;
    /// Translation by a real vector.
    #[inline]
    fn add(self, v: Vector3<T>) -> Self {
        Self::new(self.x + v.x, self.y + v.y, self.z + v.z)
    }
}

impl<T: Real> Sub<Vector3<T>> for IVec3<T> {
    type Output = Self;
    /// Translation by minus a real vector.
    #[inline]
    fn sub(self, v: Vector3<T>) -> Self {
        Self::new(self.x - v.x, self.y - v.y, self.z - v.z)
    }
}

impl<T: Real> Mul<Interval<T>> for IVec3<T> {
    type Output = Self;
    /// Same as [`IVec3::scale`].
    #[inline]
    fn mul(self, s: Interval<T>) -> Self {
        self.scale(s)
    }
}

impl<T: Real> Mul<T> for IVec3<T> {
    type Output = Self;
    /// Scaling by a real (mixed fast path).
    #[inline]
    fn mul(self, s: T) -> Self {
        Self::new(self.x * s, self.y * s, self.z * s)
    }
}

impl<T: Real> AddAssign for IVec3<T> {
    #[inline]
    fn add_assign(&mut self, o: Self) {
        *self = *self + o;
    }
}

impl<T: Real> SubAssign for IVec3<T> {
    #[inline]
    fn sub_assign(&mut self, o: Self) {
        *self = *self - o;
    }
}

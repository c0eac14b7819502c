//! [`IMat3`]: a 3×3 matrix of intervals, with interval and mixed products.

use std::ops::{Add, Sub};

use nalgebra::{Matrix3, Vector3};

use crate::{IVec3, Interval, Real};

/// A 3×3 interval matrix, stored by rows: `m[row][col]`.
///
/// # Guarantee
///
/// Every product contains the exact product for every choice of member
/// matrices / vectors (each entry a sum of outward-rounded interval
/// products).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct IMat3<T> {
    /// Entries, `m[row][col]`.
    pub m: [[Interval<T>; 3]; 3],
}

impl<T: Real> IMat3<T> {
    /// The degenerate interval matrix `{m}` (exact).
    #[inline]
    pub fn point(m: &Matrix3<T>) -> Self {
        Self {
            m: std::array::from_fn(|r| std::array::from_fn(|c| Interval::point(m[(r, c)]))),
        }
    }

    /// The identity matrix (exact).
    #[inline]
    pub fn identity() -> Self {
        Self::point(&Matrix3::identity())
    }

    /// Row `r` as an interval vector.
    #[inline]
    pub fn row(&self, r: usize) -> IVec3<T> {
        let [x, y, z] = self.m[r];
        IVec3::new(x, y, z)
    }

    /// The transpose (exact).
    #[inline]
    pub fn transpose(&self) -> Self {
        Self {
            m: std::array::from_fn(|r| std::array::from_fn(|c| self.m[c][r])),
        }
    }

    /// Encloses `M v` for every `M ∈ self`, `v ∈ v`.
    #[inline]
    pub fn mul_vec(&self, v: &IVec3<T>) -> IVec3<T> {
        IVec3::new(self.row(0).dot(v), self.row(1).dot(v), self.row(2).dot(v))
    }

    /// Encloses `M v` for every `M ∈ self` (mixed fast path: each entry
    /// times a real with one sign test).
    #[inline]
    pub fn mul_real_vec(&self, v: &Vector3<T>) -> IVec3<T> {
        IVec3::new(
            self.row(0).dot_real(v),
            self.row(1).dot_real(v),
            self.row(2).dot_real(v),
        )
    }

    /// Encloses `A B` for every `A ∈ self`, `B ∈ o`.
    #[inline]
    pub fn mul(&self, o: &Self) -> Self {
        Self {
            m: std::array::from_fn(|r| {
                std::array::from_fn(|c| {
                    self.m[r][0] * o.m[0][c] + self.m[r][1] * o.m[1][c] + self.m[r][2] * o.m[2][c]
                })
            }),
        }
    }

    /// Encloses `A o` for every `A ∈ self` (mixed: `self · o`).
    #[inline]
    pub fn mul_real(&self, o: &Matrix3<T>) -> Self {
        Self {
            m: std::array::from_fn(|r| {
                std::array::from_fn(|c| {
                    self.m[r][0] * o[(0, c)] + self.m[r][1] * o[(1, c)] + self.m[r][2] * o[(2, c)]
                })
            }),
        }
    }

    /// Encloses `m B` for every `B ∈ o` (mixed: `m · o`).
    #[inline]
    pub fn real_mul(m: &Matrix3<T>, o: &Self) -> Self {
        Self {
            m: std::array::from_fn(|r| {
                std::array::from_fn(|c| {
                    o.m[0][c] * m[(r, 0)] + o.m[1][c] * m[(r, 1)] + o.m[2][c] * m[(r, 2)]
                })
            }),
        }
    }

    /// `true` if every entry of `m` lies in the corresponding interval.
    #[inline]
    pub fn contains(&self, m: &Matrix3<T>) -> bool {
        (0..3).all(|r| (0..3).all(|c| self.m[r][c].contains(m[(r, c)])))
    }

    /// Entrywise magnitude: an upper bound of `|M_rc|` for every member `M`
    /// (exact).
    #[inline]
    pub fn abs_upper(&self) -> Matrix3<T> {
        Matrix3::from_fn(|r, c| self.m[r][c].mag())
    }

    /// Entrywise hull (exact).
    #[inline]
    pub fn hull(&self, o: &Self) -> Self {
        Self {
            m: std::array::from_fn(|r| std::array::from_fn(|c| self.m[r][c].hull(o.m[r][c]))),
        }
    }
}

impl<T: Real> Add for IMat3<T> {
    type Output = Self;
    /// Entrywise interval sum.
    #[inline]
    fn add(self, o: Self) -> Self {
        Self {
            m: std::array::from_fn(|r| std::array::from_fn(|c| self.m[r][c] + o.m[r][c])),
        }
    }
}

impl<T: Real> Sub for IMat3<T> {
    type Output = Self;
    /// Entrywise interval difference.
    #[inline]
    fn sub(self, o: Self) -> Self {
        Self {
            m: std::array::from_fn(|r| std::array::from_fn(|c| self.m[r][c] - o.m[r][c])),
        }
    }
}

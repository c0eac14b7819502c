//! `N` values side by side, combined lane by lane: the evaluation type of the
//! separating-axis test ([`crate::sat`]) and of the batched eigen-decomposition
//! ([`crate::fit`]). Every operation is a plain loop over the lanes, which
//! LLVM turns into one vector instruction per operation where the target has
//! the width.

use std::ops::{Add, Div, Mul, Neg, Sub};

use crate::Real;

/// `N` independent values of `T`, combined lane by lane (the separating-axis test's and
/// the batched eigen-decomposition's evaluation: every lane performs the
/// scalar sequence of IEEE operations, so each lane's result is bit for bit
/// the scalar one).
///
/// The lane operations are plain loops rather than `array::from_fn` or
/// `map`: those go through closures that LLVM does not always inline in code
/// as large as the SAT, and one out-of-line call per operation defeats the
/// vectoriser.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Lanes<T, const N: usize>(pub(crate) [T; N]);

impl<T: Real, const N: usize> Lanes<T, N> {
    /// `x` in every lane.
    #[inline(always)]
    pub(crate) fn splat(x: T) -> Self {
        Self([x; N])
    }

    /// Lane-wise `f(self, rhs)`.
    #[inline(always)]
    fn zip(mut self, rhs: Self, f: impl Fn(T, T) -> T) -> Self {
        for k in 0..N {
            self.0[k] = f(self.0[k], rhs.0[k]);
        }
        self
    }

    /// Lane-wise `|x|`.
    #[inline(always)]
    pub(crate) fn abs(mut self) -> Self {
        for k in 0..N {
            self.0[k] = self.0[k].abs();
        }
        self
    }

    /// Lane-wise `rhs` where `rhs > self`, else `self` (so a NaN `rhs` is skipped): one `maxpd` per pair of
    /// lanes, where `f64::max`'s NaN rule needs a blend.
    #[inline(always)]
    pub(crate) fn larger(self, rhs: Self) -> Self {
        self.zip(rhs, |x, y| if y > x { y } else { x })
    }

    /// Lane-wise `x` where `x > 0`, else 0 (NaN gives 0).
    #[inline(always)]
    pub(crate) fn positive_or_zero(mut self) -> Self {
        for k in 0..N {
            let x = self.0[k];
            self.0[k] = if x > T::zero() { x } else { T::zero() };
        }
        self
    }

    /// Lane-wise `self > rhs` (false where either is NaN).
    #[inline(always)]
    pub(crate) fn gt(self, rhs: Self) -> [bool; N] {
        self.test(rhs, |x, y| x > y)
    }

    /// Lane-wise `f(self, rhs)`.
    #[inline(always)]
    fn test(self, rhs: Self, f: impl Fn(T, T) -> bool) -> [bool; N] {
        let mut m = [false; N];
        for (k, m) in m.iter_mut().enumerate() {
            *m = f(self.0[k], rhs.0[k]);
        }
        m
    }
}

impl<T: Real, const N: usize> Add for Lanes<T, N> {
    type Output = Self;
    #[inline(always)]
    fn add(self, rhs: Self) -> Self {
        self.zip(rhs, |x, y| x + y)
    }
}

impl<T: Real, const N: usize> Sub for Lanes<T, N> {
    type Output = Self;
    #[inline(always)]
    fn sub(self, rhs: Self) -> Self {
        self.zip(rhs, |x, y| x - y)
    }
}

impl<T: Real, const N: usize> Mul for Lanes<T, N> {
    type Output = Self;
    #[inline(always)]
    fn mul(self, rhs: Self) -> Self {
        self.zip(rhs, |x, y| x * y)
    }
}

impl<T: Real, const N: usize> Div for Lanes<T, N> {
    type Output = Self;
    #[inline(always)]
    fn div(self, rhs: Self) -> Self {
        self.zip(rhs, |x, y| x / y)
    }
}

impl<T: Real, const N: usize> Neg for Lanes<T, N> {
    type Output = Self;
    #[inline(always)]
    fn neg(mut self) -> Self {
        for k in 0..N {
            self.0[k] = -self.0[k];
        }
        self
    }
}

impl<T: Real, const N: usize> Lanes<T, N> {
    /// Lane-wise square root.
    #[inline(always)]
    pub(crate) fn sqrt(mut self) -> Self {
        for k in 0..N {
            self.0[k] = self.0[k].sqrt();
        }
        self
    }
}

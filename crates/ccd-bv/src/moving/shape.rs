//! The two convex shapes of the constant-velocity tests, as the sweep and the
//! contact-set builder see them: projections onto an axis, the coordinate
//! scale of the rounding margins, and the extreme feature in a direction.

use nalgebra::Vector3;

use super::contact::Feature;
use crate::{Obb, Real};

/// An oriented box `{c + Σ s_k·h_k·A_k : |s_k| ≤ 1}` in the common frame.
#[derive(Clone, Copy, Debug)]
pub(crate) struct BoxShape<T: Real> {
    /// Centre.
    pub(crate) c: Vector3<T>,
    /// Axes (unit up to round-off; the formulas below do not assume it).
    pub(crate) axes: [Vector3<T>; 3],
    /// Half-extents.
    pub(crate) half: [T; 3],
}

/// A triangle `conv{v₀, v₁, v₂}` in the common frame.
#[derive(Clone, Copy, Debug)]
pub(crate) struct TriShape<T: Real> {
    /// Vertices.
    pub(crate) v: [Vector3<T>; 3],
}

impl<T: Real> BoxShape<T> {
    /// The box of an [`Obb`].
    #[inline]
    pub(crate) fn new(o: &Obb<T>) -> Self {
        Self {
            c: Vector3::from(o.center),
            axes: o.rot.map(Vector3::from),
            half: o.half,
        }
    }

    /// `[min, max]` of `l·x` over the box: `l·c ∓ Σ h_k |l·A_k|` (the exact
    /// support function of the point set, orthonormal axes or not).
    #[inline(always)]
    pub(crate) fn project(&self, l: &Vector3<T>) -> (T, T) {
        let p = l.dot(&self.c);
        let r = self.half[0] * l.dot(&self.axes[0]).abs()
            + self.half[1] * l.dot(&self.axes[1]).abs()
            + self.half[2] * l.dot(&self.axes[2]).abs();
        (p - r, p + r)
    }

    /// `‖c‖∞ + Σ h_k ‖A_k‖∞`: bounds `Σ|l_i||x_i|`/`‖l‖₁` for every term
    /// of [`project`](Self::project).
    pub(crate) fn scale(&self) -> T {
        self.c.amax()
            + self.half[0] * self.axes[0].amax()
            + self.half[1] * self.axes[1].amax()
            + self.half[2] * self.axes[2].amax()
    }

    /// Diameter `2‖h‖` (axes taken as unit), the length scale of tolerances.
    pub(crate) fn size(&self) -> T {
        Vector3::from(self.half).norm() * T::lit(2.0)
    }

    /// The box translated by `d`.
    pub(crate) fn moved(&self, d: &Vector3<T>) -> Self {
        Self {
            c: self.c + d,
            ..*self
        }
    }

    /// The feature of the box extreme in direction `dir` (unit): the corners
    /// maximising `dir·x`. An axis with `|dir·A_k| ≤ tau` (or `h_k = 0`) is
    /// free, giving an edge (1 free axis) or a face (2); corners are listed in
    /// cyclic order.
    pub(crate) fn feature(&self, dir: &Vector3<T>, tau: T) -> Feature<T> {
        let zero = T::zero();
        let d = self.axes.map(|a| dir.dot(&a));
        let mut base = self.c;
        let mut free = [0usize; 3];
        let mut n_free = 0;
        for (k, (dk, (h, axis))) in d.iter().zip(self.half.iter().zip(&self.axes)).enumerate() {
            if dk.abs() <= tau && *h > zero {
                free[n_free] = k;
                n_free += 1;
            } else {
                let s = if *dk < zero { -*h } else { *h };
                base += axis * s;
            }
        }
        if n_free == 3 {
            // Only with a huge `tau`: fix the axis most aligned with `dir`.
            let mut k = 0;
            for i in 1..3 {
                if d[i].abs() > d[k].abs() {
                    k = i;
                }
            }
            let s = if d[k] < zero {
                -self.half[k]
            } else {
                self.half[k]
            };
            base += self.axes[k] * s;
            free = [(k + 1) % 3, (k + 2) % 3, 0];
            n_free = 2;
        }
        let e = |k: usize| self.axes[free[k]] * self.half[free[k]];
        match n_free {
            0 => Feature::point(base),
            1 => Feature::segment(base - e(0), base + e(0)),
            _ => {
                let (u, v) = (e(0), e(1));
                Feature::quad([base - u - v, base + u - v, base + u + v, base - u + v])
            }
        }
    }
}

impl<T: Real> TriShape<T> {
    /// The triangle with vertices `v`.
    #[inline]
    pub(crate) fn new(v: &[[T; 3]; 3]) -> Self {
        Self {
            v: v.map(Vector3::from),
        }
    }

    /// `[min, max]` of `l·v_k`.
    #[inline(always)]
    pub(crate) fn project(&self, l: &Vector3<T>) -> (T, T) {
        let p = self.v.map(|v| l.dot(&v));
        (p[0].min(p[1]).min(p[2]), p[0].max(p[1]).max(p[2]))
    }

    /// `max_k ‖v_k‖∞`.
    pub(crate) fn scale(&self) -> T {
        self.v[0].amax().max(self.v[1].amax()).max(self.v[2].amax())
    }

    /// Longest edge, the length scale of tolerances.
    pub(crate) fn size(&self) -> T {
        let [a, b, c] = self.v;
        (b - a).norm().max((c - b).norm()).max((a - c).norm())
    }

    /// The triangle translated by `d`.
    pub(crate) fn moved(&self, d: &Vector3<T>) -> Self {
        Self {
            v: self.v.map(|v| v + d),
        }
    }

    /// The vertices within `tau·size` of the maximum of `dir·v` (`dir`
    /// unit), in the triangle's order: a vertex, an edge or the face.
    pub(crate) fn feature(&self, dir: &Vector3<T>, tau: T) -> Feature<T> {
        let p = self.v.map(|v| dir.dot(&v));
        let m = p[0].max(p[1]).max(p[2]);
        let tol = tau * self.size();
        let mut f = Feature::empty();
        for (pk, vk) in p.iter().zip(&self.v) {
            if *pk >= m - tol {
                f.push(*vk);
            }
        }
        f
    }
}

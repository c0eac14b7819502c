//! Certified containment tests for validation: does a volume read from a file contain a vertex, despite the
//! rounding of the test itself?
//!
//! Every test is evaluated in `f64` (exact widening of `f32` files). `ε` below is `f64::EPSILON`, `ε_T` the
//! epsilon of the file's scalar type; `d = p − c` is a point relative to the volume's centre, `h` the
//! half-extents. The accepted sets:
//!
//! | volume | [`Enclose::holds_point`] accepts `p` only if | why fitted volumes pass |
//! |---|---|---|
//! | [`Sphere`] | `‖d‖ ≤ r` exactly (tested `fl(‖d‖²) ≤ fl(t²)`, `t = r − 2.5 ε r`) | the fit pads `r` by `4ε_T (‖c‖∞ + r)` |
//! | [`Aabb`] | `\|d_i\| ≤ h_i` exactly (tested `h_i − \|d_i\| ≥ 2 ε h_i`) | padded by `4ε_T (‖c‖∞ + max h)` |
//! | [`Obb`] | `\|a_j·d\| ≤ h_j` exactly (tested `h_j − \|a_j·d\| ≥ 2.0156 ε ‖h‖₂`) | as the AABB; the test's error is below `3.49 ε ‖h‖∞`, the pad's margin at least `3.5 ε_T ‖h‖∞` |
//! | [`Rss`] | the distance from `p` to the rectangle is at most `r + 16 ε_T (‖d‖₁ + r)` | padded by `4ε_T (‖c‖∞ + max(h, r))` |
//!
//! The OBB bound holds for axes whose measured defect `‖AᵀA − I‖₂` is at most [`max_defect`] (`Real::SAT_GUARD
//! / 8`, far above the round-off of fitted axes and the class of boxes the SAT's guard is sized for), which
//! validation checks on [`Enclose::defect`] first. The RSS tolerance is below the allowance `16 (8 ε_T + γ) S`
//! that every RSS overlap and distance test subtracts ([`ccd_bv::lower_bound`]), so the queries treat such a
//! vertex as inside.
//!
//! [`Enclose::holds_points`] is [`Enclose::holds_point`] on every point of a run, the same expressions, so it
//! accepts exactly the runs whose every point the point test accepts.
//!
//! The outer volume of a test is [`Enclose::Wide`]: its parameters widened to `f64` once, with the constant of
//! its test (the OBB's `2.0156 ε ‖h‖₂`, the RSS's `16 ε_T`) computed once, so a validation that tests many
//! vertices against one node evaluates the same expressions as above without repeating them.

use ccd_bv::{Aabb, BoundingVolume, Obb, Real, Rss, Sphere};

use super::corners::Points;
use crate::Node;

const EPS: f64 = f64::EPSILON;

/// Containment tests for one volume type (module docs).
pub(crate) trait Enclose<T: Real>: BoundingVolume<T> {
    /// Whether the volume has axes, whose [`Enclose::defect`] validation must bound by [`max_defect`].
    const AXES: bool = false;

    /// The volume widened to `f64`, with the constants of its tests, as the outer side of a test.
    type Wide: Copy + Send + Sync;

    /// An upper bound of the axis defect `‖AᵀA − I‖₂` (0 for volumes without axes).
    fn defect(&self) -> f64 {
        0.0
    }

    /// The volume as the outer side of tests.
    fn widen(&self) -> Self::Wide;

    /// `nodes` as nodes of OBBs where the volume type is [`Obb`] (for the proof's copy that checks eight OBB
    /// nodes per instruction), `None` for the other types.
    fn as_obb_nodes(nodes: &[Node<T, Self>]) -> Option<&[Node<T, Obb<T>>]> {
        let _ = nodes;
        None
    }

    /// Whether `p` (a vertex of the file, widened exactly) certainly lies in the volume `outer` (module docs).
    fn holds_point(outer: &Self::Wide, p: [f64; 3]) -> bool;

    /// Whether every point of `points` (widened exactly) passes [`Enclose::holds_point`]: that test on each,
    /// combined without branches so that the compiler evaluates it on several points per instruction.
    #[inline(always)]
    fn holds_points(outer: &Self::Wide, points: Points<'_, T>) -> bool {
        let n = points.len();
        let (xs, ys, zs) = (&points.xs[..n], &points.ys[..n], &points.zs[..n]);
        xs.iter().zip(ys).zip(zs).fold(true, |ok, ((&x, &y), &z)| {
            ok & Self::holds_point(outer, wide(&[x, y, z]))
        })
    }

    /// [`Enclose::holds_points`] in a copy written with the vector instructions `simd` where the volume type
    /// has one (the same verdict: every lane runs the same IEEE-754 operations in the same order), otherwise
    /// that method.
    ///
    /// # Safety
    /// The CPU must support the instructions of `simd`.
    #[inline(always)]
    unsafe fn holds_points_simd(outer: &Self::Wide, points: Points<'_, T>, simd: Simd) -> bool {
        let _ = simd;
        Self::holds_points(outer, points)
    }
}

/// The vector instruction set a copy of the containment proof, and the run tests it calls, are compiled for.
/// Only [`Simd::Plain`] occurs on targets other than `x86_64`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
pub(crate) enum Simd {
    /// No vector instructions beyond the target's baseline.
    Plain,
    /// AVX2 (`x86_64`).
    Avx2,
    /// AVX-512 F (`x86_64`).
    Avx512,
}

impl Simd {
    /// The widest instruction set this CPU has.
    pub(crate) fn fastest() -> Self {
        Self::available().pop().unwrap_or(Simd::Plain)
    }

    /// Every instruction set this CPU has, narrowest first ([`Simd::Plain`] always).
    pub(crate) fn available() -> Vec<Self> {
        let mut all = vec![Simd::Plain];
        #[cfg(target_arch = "x86_64")]
        {
            if std::is_x86_feature_detected!("avx2") {
                all.push(Simd::Avx2);
            }
            if std::is_x86_feature_detected!("avx512f") {
                all.push(Simd::Avx512);
            }
        }
        all
    }
}

/// The largest accepted axis defect of a file's OBB or RSS: `T::SAT_GUARD / 8`.
pub(crate) fn max_defect<T: Real>() -> f64 {
    T::SAT_GUARD.to_f64_exact() / 8.0
}

/// `v` widened exactly to `f64`.
#[inline(always)]
pub(crate) fn wide<T: Real>(v: &[T; 3]) -> [f64; 3] {
    v.map(T::to_f64_exact)
}

fn sub(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

fn dot(a: [f64; 3], b: [f64; 3]) -> f64 {
    (a[0] * b[0] + a[1] * b[1]) + a[2] * b[2]
}

fn l1(a: [f64; 3]) -> f64 {
    a[0].abs() + a[1].abs() + a[2].abs()
}

/// An upper bound of `‖AᵀA − I‖₂` for the axes `rot`: three times the largest `|a_i·a_j − δ_ij|` plus `8ε`.
fn defect<T: Real>(rot: &[[T; 3]; 3]) -> f64 {
    let a = rot.map(|x| wide(&x));
    let mut worst: f64 = 0.0;
    for i in 0..3 {
        for j in i..3 {
            let target = if i == j { 1.0 } else { 0.0 };
            worst = worst.max((dot(a[i], a[j]) - target).abs());
        }
    }
    3.0 * worst + 8.0 * EPS
}

/// A sphere widened: centre and the radius of its point test.
#[derive(Clone, Copy)]
pub(crate) struct WideSphere {
    c: [f64; 3],
    t: f64,
}

impl<T: Real> Enclose<T> for Sphere<T> {
    type Wide = WideSphere;

    fn widen(&self) -> WideSphere {
        let r = self.radius.to_f64_exact();
        WideSphere {
            c: wide(&self.center),
            t: r - 2.5 * EPS * r,
        }
    }

    #[inline(always)]
    fn holds_point(outer: &WideSphere, p: [f64; 3]) -> bool {
        // fl(‖d‖²) ≥ ‖d‖²(1 − 2.5ε) and fl(t²) ≤ t²(1 + ε/2), so acceptance gives ‖d‖ ≤ t(1 + 1.6ε) ≤ r.
        let d = sub(p, outer.c);
        dot(d, d) <= outer.t * outer.t
    }
}

/// An AABB widened: centre and half-extents.
#[derive(Clone, Copy)]
pub(crate) struct WideAabb {
    c: [f64; 3],
    h: [f64; 3],
}

impl<T: Real> Enclose<T> for Aabb<T> {
    type Wide = WideAabb;

    fn widen(&self) -> WideAabb {
        WideAabb {
            c: wide(&self.center),
            h: wide(&self.half),
        }
    }

    #[inline(always)]
    fn holds_point(outer: &WideAabb, p: [f64; 3]) -> bool {
        // |fl(d)| ≥ |d|(1 − ε/2) and the difference h − |fl(d)| is rounded by at most ε/2 of h.
        let (c, h) = (outer.c, outer.h);
        let ok = |i: usize| h[i] - (p[i] - c[i]).abs() >= 2.0 * EPS * h[i];
        ok(0) & ok(1) & ok(2)
    }
}

/// An OBB widened: centre, half-extents, axes and the margin `2.0156 ε ‖h‖₂` of its point test.
#[derive(Clone, Copy)]
pub(crate) struct WideObb {
    pub(super) c: [f64; 3],
    pub(super) h: [f64; 3],
    pub(super) a: [[f64; 3]; 3],
    pub(super) tau: f64,
}

impl<T: Real> Enclose<T> for Obb<T> {
    const AXES: bool = true;
    type Wide = WideObb;

    fn defect(&self) -> f64 {
        defect(&self.rot)
    }

    fn as_obb_nodes(nodes: &[Node<T, Self>]) -> Option<&[Node<T, Obb<T>>]> {
        Some(nodes)
    }

    fn widen(&self) -> WideObb {
        let h = wide(&self.half);
        WideObb {
            c: wide(&self.center),
            h,
            a: self.rot.map(|x| wide(&x)),
            tau: 2.0156 * EPS * dot(h, h).sqrt(),
        }
    }

    #[inline(always)]
    fn holds_point(outer: &WideObb, p: [f64; 3]) -> bool {
        // The error of fl(a_j·d) is at most (γ₃ + ε/2)·Σ|a_jk||d_k| ≤ 2ε(1 + γ)‖d‖₂, and an accepted point has
        // ‖d‖₂ ≤ ‖h‖₂(1 + γ) for axes of defect γ ≤ max_defect; 2.0156 covers both factors and the rounding of
        // ‖h‖₂ and of h_j − |a_j·d| (Sterbenz: exact where it matters).
        let WideObb { c, h, a, tau } = *outer;
        let d = sub(p, c);
        let ok = |j: usize| h[j] - dot(a[j], d).abs() >= tau;
        ok(0) & ok(1) & ok(2)
    }

    #[inline(always)]
    unsafe fn holds_points_simd(outer: &WideObb, points: Points<'_, T>, simd: Simd) -> bool {
        #[cfg(target_arch = "x86_64")]
        match simd {
            Simd::Avx512 => {
                // SAFETY: forwarded from this method's contract: the CPU has AVX-512 F.
                return unsafe { super::obb_run_simd::holds_points_avx512(outer, points) };
            }
            Simd::Avx2 => {
                // SAFETY: forwarded from this method's contract: the CPU has AVX2.
                return unsafe { super::obb_run_simd::holds_points_avx2(outer, points) };
            }
            Simd::Plain => {}
        }
        let _ = simd;
        Self::holds_points(outer, points)
    }
}

/// Squared distance from `l` (coordinates in the rectangle's frame) to the rectangle of half sides `h`.
fn rect_dist2(l: [f64; 3], h: [f64; 2]) -> f64 {
    let out = |j: usize| (l[j].abs() - h[j]).max(0.0);
    out(0) * out(0) + out(1) * out(1) + l[2] * l[2]
}

/// An RSS widened: centre, axes, half sides, radius and the factor `16 ε_T` of its point test.
#[derive(Clone, Copy)]
pub(crate) struct WideRss {
    c: [f64; 3],
    a: [[f64; 3]; 3],
    h: [f64; 2],
    r: f64,
    eps16: f64,
}

impl WideRss {
    /// `p` in the frame of the volume: `Aᵀ(p − c)`.
    fn local(&self, p: [f64; 3]) -> [f64; 3] {
        let d = sub(p, self.c);
        self.a.map(|a| dot(a, d))
    }
}

impl<T: Real> Enclose<T> for Rss<T> {
    const AXES: bool = true;
    type Wide = WideRss;

    fn defect(&self) -> f64 {
        defect(&self.rot)
    }

    fn widen(&self) -> WideRss {
        WideRss {
            c: wide(&self.center),
            a: self.rot.map(|x| wide(&x)),
            h: self.half.map(T::to_f64_exact),
            r: self.radius.to_f64_exact(),
            eps16: 16.0 * T::EPSILON.to_f64_exact(),
        }
    }

    #[inline(always)]
    fn holds_point(outer: &WideRss, p: [f64; 3]) -> bool {
        let reach = outer.r + outer.eps16 * (l1(sub(p, outer.c)) + outer.r);
        rect_dist2(outer.local(p), outer.h) <= reach * reach
    }
}

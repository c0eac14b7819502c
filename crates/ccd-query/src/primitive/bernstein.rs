//! The coplanarity cubic of the linear continuous tests, in Bernstein form with interval coefficients.
//!
//! # What it encloses
//!
//! With `D(t), E₁(t), E₂(t)` affine in `t` (see `linear_ccd.rs`), `F(t, u, v) = D + u·E₁ + v·E₂` can only vanish
//! when `D(t)` lies in the span of `E₁(t), E₂(t)`, that is when
//!
//! ```text
//! p(t) = det[D(t), E₁(t), E₂(t)] = D(t) · (E₁(t) × E₂(t)) = 0.
//! ```
//!
//! `p` is a cubic. Writing `X(t) = (1 − t)·X₀ + t·X₁` and expanding the trilinear determinant gives its
//! Bernstein coefficients on `[0, 1]`; this module holds those of `q = 3p` (same roots and signs, no division):
//!
//! ```text
//! C₀₀ = E₁₀ × E₂₀,   C₁₁ = E₁₁ × E₂₁,   Cₘ = E₁₁ × E₂₀ + E₁₀ × E₂₁,
//! β₀ = 3 D₀·C₀₀,   β₁ = D₁·C₀₀ + D₀·Cₘ,   β₂ = D₀·C₁₁ + D₁·Cₘ,   β₃ = 3 D₁·C₁₁,
//! q(t) = β₀ (1 − t)³ + 3β₁ t(1 − t)² + 3β₂ t²(1 − t) + β₃ t³.
//! ```
//!
//! Everything here is in `f64`, for `f32` input as well (widened exactly): the cubic's precision then does not
//! limit `f32` brackets. Each coefficient is enclosed in an interval that contains the exact coefficient of the
//! exact input: by a floating-point evaluation widened by an a-priori bound of its rounding error (see
//! [`filtered`] for the derivation and its range guard, which `f32` input always meets), or, when the guard
//! fails, in `ccd-interval`'s outward-rounded arithmetic.
//!
//! # What is certified
//!
//! - *Range*: on a cell `[t₀, t₁]`, `q` lies in the hull of its Bernstein coefficients on that cell (the
//!   basis is non-negative and sums to one). All coefficients certainly of one strict sign ⇒ no root.
//! - *Subdivision*: the coefficients on the two halves of a cell are exact averages of its own (de Casteljau
//!   at `1/2`); averaging intervals in outward-rounded arithmetic encloses them.
//! - *Monotonicity*: `q'` has Bernstein coefficients `3(βₖ₊₁ − βₖ)` on the cell, so all differences certainly
//!   of one strict sign ⇒ `q` strictly monotone there, with at most one root.
//! - *Point values*: the power form `q(t) = α₀ + α₁t + α₂t² + α₃t³` (`α₀ = β₀`, `α₁ = 3(β₁ − β₀)`,
//!   `α₂ = 3(β₀ − 2β₁ + β₂)`, `α₃ = β₃ − 3β₂ + 3β₁ − β₀`), converted and then evaluated by Horner's rule in
//!   interval arithmetic, encloses `q(x)` at any float `x`.
//!
//! [`bracket_root`] combines the last two: on a monotone cell, a plain floating-point Newton iteration
//! (uncertified, only a guess) proposes the root `r`; points `r ∓ w` whose enclosures certainly have the signs
//! before and after the root then bracket every root of the cell, by monotonicity.
//!
//! All coefficients containing zero at `[0, 1]` (identically coplanar motion, parallel edges, a degenerate
//! triangle or edge, or a cancelling input) makes every subdivided coefficient contain zero as well (averages
//! of intervals containing zero), so the cubic can never exclude anything: [`Cubic::coplanarity`] then
//! returns `None`.

use ccd_interval::{Interval, Real};

type I = Interval<f64>;
type IVec = [I; 3];

/// The input of the cubic: `[time][vector D, E₁, E₂][lhs, rhs]` points, each vector being `lhs − rhs`,
/// widened exactly to `f64`.
pub(crate) type Pairs = [[[[f64; 3]; 2]; 3]; 2];

fn icross(a: &IVec, b: &IVec) -> IVec {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

fn idot(a: &IVec, b: &IVec) -> I {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

/// Strict sign of every member of `x`: `1`, `-1`, or `0` when `x` contains zero.
#[inline]
fn strict_sign(x: I) -> i8 {
    if x.lo() > 0.0 {
        1
    } else if x.hi() < 0.0 {
        -1
    } else {
        0
    }
}

/// Common strict sign of every member of every interval (`0` if any may be zero or signs differ).
#[inline]
fn common_sign(xs: &[I]) -> i8 {
    let s = strict_sign(xs[0]);
    if s != 0 && xs[1..].iter().all(|&x| strict_sign(x) == s) {
        s
    } else {
        0
    }
}

/// The four coefficients in interval arithmetic.
fn enclosed(p: &Pairs) -> [I; 4] {
    let [x0, x1] =
        p.map(|t| t.map(|[l, r]| std::array::from_fn(|k| I::point(l[k]) - I::point(r[k]))));
    let [d0, e10, e20] = &x0;
    let [d1, e11, e21] = &x1;
    let c00 = icross(e10, e20);
    let c11 = icross(e11, e21);
    let a = icross(e11, e20);
    let b = icross(e10, e21);
    let cm = [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
    [
        idot(d0, &c00) * 3.0,
        idot(d1, &c00) + idot(d0, &cm),
        idot(d0, &c11) + idot(d1, &cm),
        idot(d1, &c11) * 3.0,
    ]
}

fn fcross(a: &[f64; 3], b: &[f64; 3]) -> [f64; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

/// The cross product's pattern with every difference turned into a sum (for absolute values).
fn fcross_abs(a: &[f64; 3], b: &[f64; 3]) -> [f64; 3] {
    [
        a[1] * b[2] + a[2] * b[1],
        a[2] * b[0] + a[0] * b[2],
        a[0] * b[1] + a[1] * b[0],
    ]
}

fn fdot(a: &[f64; 3], b: &[f64; 3]) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

fn fadd(a: &[f64; 3], b: &[f64; 3]) -> [f64; 3] {
    [a[0] + b[0], a[1] + b[1], a[2] + b[2]]
}

/// Range guard of [`filtered`]: every non-zero rounded difference lies in `[2⁻³⁰⁰, 2³⁰⁰]`.
const GUARD: (f64, f64) = (
    f64::from_bits((1023 - 300) << 52),
    f64::from_bits((1023 + 300) << 52),
);

/// The four coefficients in plain `f64` arithmetic, each widened by an a-priori bound of its rounding error;
/// `None` when the range guard fails.
///
/// # Error bound
///
/// Let `u = 2⁻⁵³` be the unit roundoff, `x̃` a difference of two input coordinates rounded to nearest and `x`
/// the exact one: `x̃ = x(1 + δ)`, `|δ| <= u` (a difference that is subnormal is exact).
///
/// *Range guard*: every `x̃` is `0` or has `2⁻³⁰⁰ <= |x̃| <= 2³⁰⁰` (always true for `f32` input, whose
/// non-zero differences lie in `[2⁻¹⁴⁹, 2¹²⁹]`). Then every `x̃` is a multiple of `2⁻³⁵²` (its ulp), so
/// every product of two, and every sum or difference of such products (a cross product's component), is a
/// multiple of `2⁻⁷⁰⁴` (rounding to nearest keeps that: the grid is finer than the result's ulp), hence `0` or
/// at least `2⁻⁷⁰⁴`; its product with a third difference is `0` or at least `2⁻¹⁰⁰⁴`, above the least normal
/// `2⁻¹⁰²²`. No value overflows either (each coefficient has at most 18 terms, each `<= 2⁹⁰⁰(1 + u)⁷`, far
/// below `2¹⁰²⁴`). So every operation obeys `fl(a ∘ b) = (a ∘ b)(1 + δ)`, `|δ| <= u` (sums and differences
/// do regardless of underflow), and a zero factor gives an exact zero.
///
/// *Value*: each coefficient is a signed sum of terms `x̃ỹz̃` (times `3` for `β₀`, `β₃`); along each term's
/// path there are at most 7 roundings (product `yz`, the cross product's difference, the sum forming `Cₘ`
/// or the product by `3`, the product by `x`, two sums of the dot product, the final sum of `β₁`, `β₂`), so
/// the computed value is `Σ ±x̃ỹz̃·(1 + θ)`, `|θ| <= γ₇`, `γₖ = ku / (1 − ku)`; with `x̃ỹz̃ = xyz(1 + θ')`,
/// `|θ'| <= γ₃`, it differs from the exact coefficient by at most `γ₁₀·P`, `P = Σ |xyz|` over its terms.
///
/// *Bound*: `P̃` is evaluated by the same expression on absolute values with every difference replaced by a
/// sum; all its terms are non-negative, so `P̃ >= (1 − γ₇)(1 − u)³·P`. Hence the error is at most
/// `γ₁₀ / ((1 − γ₇)(1 − u)³)·P̃ < 10.01u·P̃`, below `e = 16u·P̃`, which is computed exactly (a power-of-two
/// scaling of `0` or of a sum of non-negative terms each `>= 2⁻⁹⁰⁰`, staying normal). The returned interval
/// is `[b̃ − e, b̃ + e]`, rounded outward.
fn filtered(p: &Pairs) -> Option<[I; 4]> {
    let [x0, x1] = p.map(|t| t.map(|[l, r]| [l[0] - r[0], l[1] - r[1], l[2] - r[2]]));
    let guard = x0.iter().chain(&x1).flatten().all(|&c| {
        let a = c.abs();
        a == 0.0 || (GUARD.0..=GUARD.1).contains(&a)
    });
    if !guard {
        return None;
    }
    let [d0, e10, e20] = &x0;
    let [d1, e11, e21] = &x1;
    let c00 = fcross(e10, e20);
    let c11 = fcross(e11, e21);
    let cm = fadd(&fcross(e11, e20), &fcross(e10, e21));
    let value = [
        fdot(d0, &c00) * 3.0,
        fdot(d1, &c00) + fdot(d0, &cm),
        fdot(d0, &c11) + fdot(d1, &cm),
        fdot(d1, &c11) * 3.0,
    ];
    let abs = |v: &[f64; 3]| v.map(f64::abs);
    let [d0, e10, e20, d1, e11, e21] = [d0, e10, e20, d1, e11, e21].map(abs);
    let c00 = fcross_abs(&e10, &e20);
    let c11 = fcross_abs(&e11, &e21);
    let cm = fadd(&fcross_abs(&e11, &e20), &fcross_abs(&e10, &e21));
    let perm = [
        fdot(&d0, &c00) * 3.0,
        fdot(&d1, &c00) + fdot(&d0, &cm),
        fdot(&d0, &c11) + fdot(&d1, &cm),
        fdot(&d1, &c11) * 3.0,
    ];
    // 16u = 8ε (ε = 2⁻⁵², the machine epsilon).
    Some(std::array::from_fn(|k| {
        let err = perm[k] * (8.0 * f64::EPSILON);
        I::point(value[k]) + I::new(-err, err)
    }))
}

/// A cubic on a cell, as enclosures of its four Bernstein coefficients on that cell.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Cubic {
    /// `β₀ … β₃`; `β₀ = q(t₀)` and `β₃ = q(t₁)` are the end values.
    pub(crate) b: [I; 4],
}

impl Cubic {
    /// The zero cubic (an unused stack slot).
    pub(crate) fn zero() -> Self {
        Self {
            b: [I::point(0.0); 4],
        }
    }

    /// `3·det[D(t), E₁(t), E₂(t)]` on `[0, 1]` (module documentation), by [`filtered`] when its range guard
    /// holds, in interval arithmetic otherwise. `None` if every coefficient contains zero (the cubic can then
    /// exclude nothing) or one is unbounded.
    pub(crate) fn coplanarity(p: &Pairs) -> Option<Self> {
        let b = filtered(p).unwrap_or_else(|| enclosed(p));
        let useful = b.iter().all(|x| x.is_bounded()) && !b.iter().all(|x| x.contains_zero());
        useful.then_some(Self { b })
    }

    /// The cubic on the two halves of the cell (de Casteljau at `1/2`, in interval arithmetic).
    #[inline]
    pub(crate) fn halves(&self) -> (Self, Self) {
        let avg = |x: I, y: I| (x + y) * 0.5;
        let [b0, b1, b2, b3] = self.b;
        let m01 = avg(b0, b1);
        let m12 = avg(b1, b2);
        let m23 = avg(b2, b3);
        let m012 = avg(m01, m12);
        let m123 = avg(m12, m23);
        let m = avg(m012, m123);
        (
            Self {
                b: [b0, m01, m012, m],
            },
            Self {
                b: [m, m123, m23, b3],
            },
        )
    }

    /// `1` (`-1`) if the cubic is certainly positive (negative) on the whole cell, else `0`.
    #[inline]
    pub(crate) fn sign(&self) -> i8 {
        common_sign(&self.b)
    }

    /// `1` (`-1`) if the cubic is certainly strictly increasing (decreasing) on the cell, else `0`.
    #[inline]
    pub(crate) fn monotone(&self) -> i8 {
        let [b0, b1, b2, b3] = self.b;
        common_sign(&[b1 - b0, b2 - b1, b3 - b2])
    }

    /// The power form of a cubic given on `[0, 1]`.
    pub(crate) fn power(&self) -> Power {
        let [b0, b1, b2, b3] = self.b;
        let a = [
            b0,
            (b1 - b0) * 3.0,
            (b0 - b1 * 2.0 + b2) * 3.0,
            b3 - b2 * 3.0 + b1 * 3.0 - b0,
        ];
        Power {
            a,
            m: a.map(I::midpoint),
        }
    }
}

/// `q(t) = α₀ + α₁t + α₂t² + α₃t³` with interval coefficients (certified point enclosures) and their
/// midpoints (the floating-point guess used by Newton's method).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Power {
    a: [I; 4],
    m: [f64; 4],
}

impl Power {
    /// Enclosure of `q(x)` (Horner's rule in interval arithmetic; `x` finite).
    #[inline]
    pub(crate) fn enclose(&self, x: f64) -> I {
        let [a0, a1, a2, a3] = self.a;
        ((a3 * x + a2) * x + a1) * x + a0
    }

    /// Plain floating-point `q(x)` and `q'(x)` from the midpoint coefficients (no guarantee).
    #[inline]
    fn approx(&self, x: f64) -> (f64, f64) {
        let [m0, m1, m2, m3] = self.m;
        let v = ((m3 * x + m2) * x + m1) * x + m0;
        let d = (3.0 * m3 * x + 2.0 * m2) * x + m1;
        (v, d)
    }
}

/// What [`bracket_root`] found on a monotone cell.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Bracket<T> {
    /// Certified: the cubic has no root on the cell.
    NoRoot,
    /// Certified: every root of the cubic on the cell lies in `[lo, hi]` (a sub-interval of the cell no wider
    /// than the requested width, or two adjacent floats).
    Root([T; 2]),
    /// No bracket that narrow could be certified (enclosures too wide near the root).
    Undecided,
}

/// Brackets the root of the cubic on the cell `t = [t₀, t₁]` where it is strictly monotone in direction
/// `dir` (`1` increasing, `-1` decreasing; from [`Cubic::monotone`]), into a bracket at most `width` wide.
///
/// `cell` is the cubic on `t` (its end coefficients are the end values) and `power` its power form on
/// `[0, 1]` (for point values). Since `q` is monotone on the cell, an end value certainly of sign `dir`
/// at `t₀` (or `−dir` at `t₁`) excludes a root; otherwise a point `x` with `q(x)` certainly of sign `−dir`
/// has no root in `[t₀, x]` and one with sign `dir` none in `[x, t₁]`. Candidates (values of `T`) are placed
/// around a Newton estimate of the root, at a distance grown geometrically from the one the enclosure width
/// predicts until both sides certify or the bracket would exceed `width`.
pub(crate) fn bracket_root<T: Real>(
    t: [T; 2],
    cell: &Cubic,
    power: &Power,
    dir: i8,
    width: T,
) -> Bracket<T> {
    let [t0, t1] = t;
    let s0 = strict_sign(cell.b[0]);
    let s1 = strict_sign(cell.b[3]);
    if s0 == dir || s1 == -dir {
        return Bracket::NoRoot;
    }
    let Some(r) = newton([t0.to_f64_exact(), t1.to_f64_exact()], power, dir) else {
        return Bracket::Undecided;
    };
    // Distance the enclosure of q(r) predicts for a certified bracket, at least about an ulp of T at r.
    let (_, slope) = power.approx(r);
    let floor = (r.abs() * T::EPSILON.to_f64_exact()).max(T::zero().step_up().to_f64_exact());
    let mut w = power.enclose(r).width() / slope.abs();
    if !(w >= floor && w.is_finite()) {
        w = floor;
    }
    let limit = width.to_f64_exact().max(floor * 64.0);
    let certified = |x: T, s: i8| strict_sign(power.enclose(x.to_f64_exact())) == s;
    let (mut lo, mut hi) = (None, None);
    // Growing by 8 from at least the least positive `T` to at most 1 takes fewer than 360 rounds.
    for _ in 0..360 {
        if lo.is_none() {
            let x = T::lit(r - w);
            if x <= t0 {
                lo = Some(t0);
            } else if x < t1 && certified(x, -dir) {
                lo = Some(x);
            }
        }
        if hi.is_none() {
            let x = T::lit(r + w);
            if x >= t1 {
                hi = Some(t1);
            } else if x > t0 && certified(x, dir) {
                hi = Some(x);
            }
        }
        if let (Some(l), Some(h)) = (lo, hi) {
            return if h - l <= width || h <= l.step_up() {
                Bracket::Root([l, h])
            } else {
                Bracket::Undecided
            };
        }
        w *= 8.0;
        if w > limit {
            break;
        }
    }
    Bracket::Undecided
}

/// Safeguarded Newton iteration for the root of the floating-point cubic on the cell (sign `−dir` before
/// it, `dir` after it): Newton steps that leave the current sign bracket are replaced by bisection. Returns
/// an estimate inside the cell, or `None` on a non-finite evaluation.
fn newton(t: [f64; 2], power: &Power, dir: i8) -> Option<f64> {
    let [mut lo, mut hi] = t;
    let d = f64::from(dir);
    let (vlo, _) = power.approx(lo);
    let (vhi, _) = power.approx(hi);
    // Start from the secant (regula falsi) point.
    let mut x = if (vhi - vlo) * d > 0.0 {
        lo - vlo * (hi - lo) / (vhi - vlo)
    } else {
        lo + (hi - lo) * 0.5
    };
    if !(x >= lo && x <= hi) {
        x = lo + (hi - lo) * 0.5;
    }
    for _ in 0..64 {
        let (v, dv) = power.approx(x);
        if !v.is_finite() || !dv.is_finite() {
            return None;
        }
        let sv = v * d;
        if sv < 0.0 {
            lo = x;
        } else if sv > 0.0 {
            hi = x;
        } else {
            return Some(x);
        }
        let mut next = if dv != 0.0 { x - v / dv } else { x };
        if !(next > lo && next < hi) {
            next = lo + (hi - lo) * 0.5;
        }
        if next == x || !(next > lo && next < hi) {
            return Some(x);
        }
        let step = (next - x).abs();
        x = next;
        if step <= x.abs() * f64::EPSILON {
            return Some(x);
        }
    }
    Some(x)
}

#[cfg(test)]
mod tests {
    //! Every enclosure against exact rational arithmetic on the same floating-point input.

    use super::*;
    use ccd_testkit::SplitMix64;
    use ccd_testkit::linear_ccd::{Family, query};
    use num_rational::BigRational as Q;
    use num_traits::{Signed, Zero};
    use proptest::prelude::*;

    type QV = [Q; 3];

    fn q(x: f64) -> Q {
        Q::from_float(x).expect("finite")
    }

    fn qi(x: i64) -> Q {
        Q::from_integer(x.into())
    }

    /// `x ∈ iv`, with infinite endpoints as no bound.
    fn contains(iv: I, x: &Q) -> bool {
        (!iv.lo().is_finite() || q(iv.lo()) <= *x) && (!iv.hi().is_finite() || *x <= q(iv.hi()))
    }

    /// The pairs of a vertex–face (`D = p − a`, `E₁ = a − b`, `E₂ = a − c`) or edge–edge
    /// (`D = p₀ − q₀`, `E₁ = p₁ − p₀`, `E₂ = q₀ − q₁`) query of four tracks, widened to `f64`.
    fn pairs<T: Real>(x: [[[T; 3]; 2]; 4], edge_edge: bool) -> Pairs {
        std::array::from_fn(|i| {
            let [a, b, c, d] = x.map(|tr| tr[i].map(|v| v.to_f64_exact()));
            if edge_edge {
                [[a, c], [b, a], [c, d]]
            } else {
                [[a, b], [b, c], [b, d]]
            }
        })
    }

    /// Exact `D, E₁, E₂` at `t = 0` and `t = 1`.
    fn exact(p: &Pairs) -> [[QV; 3]; 2] {
        p.map(|t| t.map(|[l, r]| std::array::from_fn(|k| q(l[k]) - q(r[k]))))
    }

    fn qcross(a: &QV, b: &QV) -> QV {
        [
            &a[1] * &b[2] - &a[2] * &b[1],
            &a[2] * &b[0] - &a[0] * &b[2],
            &a[0] * &b[1] - &a[1] * &b[0],
        ]
    }

    fn qdot(a: &QV, b: &QV) -> Q {
        &a[0] * &b[0] + &a[1] * &b[1] + &a[2] * &b[2]
    }

    /// Exact `q(t) = 3·det[D(t), E₁(t), E₂(t)]`.
    fn exact_q(ex: &[[QV; 3]; 2], t: &Q) -> Q {
        let at = |k: usize| -> QV {
            std::array::from_fn(|i| &ex[0][k][i] + t * (&ex[1][k][i] - &ex[0][k][i]))
        };
        qdot(&at(0), &qcross(&at(1), &at(2))) * qi(3)
    }

    /// Exact Bernstein coefficients on `[0, 1]` by the module's formula.
    fn exact_bernstein(ex: &[[QV; 3]; 2]) -> [Q; 4] {
        let [d0, e10, e20] = &ex[0];
        let [d1, e11, e21] = &ex[1];
        let c00 = qcross(e10, e20);
        let c11 = qcross(e11, e21);
        let (a, b) = (qcross(e11, e20), qcross(e10, e21));
        let cm: QV = std::array::from_fn(|k| &a[k] + &b[k]);
        [
            qdot(d0, &c00) * qi(3),
            qdot(d1, &c00) + qdot(d0, &cm),
            qdot(d0, &c11) + qdot(d1, &cm),
            qdot(d1, &c11) * qi(3),
        ]
    }

    fn sign(x: &Q) -> i8 {
        if x.is_positive() {
            1
        } else if x.is_negative() {
            -1
        } else {
            0
        }
    }

    /// Coordinates: small integers, dyadics, and wide-range values that defeat the filter's range guard.
    fn coord_f64() -> impl Strategy<Value = f64> {
        prop_oneof![
            (-4i32..=4).prop_map(f64::from),
            (-64i32..=64, 0i32..=6).prop_map(|(m, k)| f64::from(m) / 2f64.powi(k)),
            (-(1i64 << 30)..(1i64 << 30), -320i32..320).prop_map(|(m, e)| m as f64 * 2f64.powi(e)),
        ]
    }

    /// `f32` coordinates over its whole exponent range.
    fn coord_f32() -> impl Strategy<Value = f32> {
        prop_oneof![
            (-4i32..=4).prop_map(|m| m as f32),
            (-64i32..=64, 0i32..=6).prop_map(|(m, k)| m as f32 / 2f32.powi(k)),
            (-(1i32 << 20)..(1i32 << 20), -140i32..100).prop_map(|(m, e)| m as f32 * 2f32.powi(e)),
        ]
    }

    fn tracks<T: Real>(c: &[T]) -> [[[T; 3]; 2]; 4] {
        std::array::from_fn(|p| {
            std::array::from_fn(|i| std::array::from_fn(|k| c[p * 6 + i * 3 + k]))
        })
    }

    /// The filtered and the interval coefficients both contain the exact ones, which are the Bernstein
    /// coefficients of the exact cubic (checked at sample times).
    fn coefficients_case<T: Real>(c: &[T], edge_edge: bool) -> Result<(), TestCaseError> {
        let p = pairs(tracks(c), edge_edge);
        let ex = exact(&p);
        let b = exact_bernstein(&ex);
        for (k, x) in enclosed(&p).iter().enumerate() {
            prop_assert!(contains(*x, &b[k]), "interval β{k} = {x}");
        }
        let f = filtered(&p);
        if T::NAME == "f32" {
            prop_assert!(f.is_some(), "f32 input always meets the range guard");
        }
        if let Some(f) = f {
            for (k, x) in f.iter().enumerate() {
                prop_assert!(contains(*x, &b[k]), "filtered β{k} = {x}");
            }
        }
        for j in 0..=4 {
            let t = Q::new(j.into(), 4.into());
            let s = qi(1) - &t;
            let binom = [1, 3, 3, 1];
            let bern: Q = (0..4)
                .map(|k| {
                    let mut term = &b[k] * qi(binom[k]);
                    for _ in 0..k {
                        term *= &t;
                    }
                    for _ in k..3 {
                        term *= &s;
                    }
                    term
                })
                .fold(Q::zero(), |a, x| a + x);
            prop_assert_eq!(bern, exact_q(&ex, &t));
        }
        Ok(())
    }

    /// Down a random path of halvings: the hull of the cell's coefficients and the power form's point
    /// enclosure contain the exact cubic at 17 sample times, and the sign and monotonicity claims hold there.
    fn subdivision_case<T: Real>(
        c: &[T],
        edge_edge: bool,
        path: u32,
        depth: u32,
    ) -> Result<(), TestCaseError> {
        let p = pairs(tracks(c), edge_edge);
        let ex = exact(&p);
        let Some(root) = Cubic::coplanarity(&p) else {
            return Ok(());
        };
        let power = root.power();
        let (mut cell, mut t0, mut w) = (root, 0.0, 1.0);
        for level in 0..depth {
            let (l, r) = cell.halves();
            w *= 0.5;
            if path >> level & 1 == 1 {
                cell = r;
                t0 += w;
            } else {
                cell = l;
            }
        }
        let samples: Vec<(f64, Q)> = (0..=16)
            .map(|j| {
                let t = t0 + w * f64::from(j) / 16.0;
                (t, exact_q(&ex, &q(t)))
            })
            .collect();
        let lo = cell.b.iter().map(|x| x.lo()).fold(f64::INFINITY, f64::min);
        let hi = cell
            .b
            .iter()
            .map(|x| x.hi())
            .fold(f64::NEG_INFINITY, f64::max);
        for (t, v) in &samples {
            prop_assert!(contains(I::new(lo, hi), v), "hull at {t}");
            prop_assert!(contains(power.enclose(*t), v), "power form at {t}");
        }
        let s = cell.sign();
        if s != 0 {
            prop_assert!(samples.iter().all(|(_, v)| sign(v) == s));
        }
        let d = cell.monotone();
        if d != 0 {
            for pair in samples.windows(2) {
                prop_assert_eq!(sign(&(&pair[1].1 - &pair[0].1)), d);
            }
        }
        Ok(())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(128))]

        #[test]
        fn coefficients_contain_the_exact_ones_f64(c in prop::collection::vec(coord_f64(), 24), ee: bool) {
            coefficients_case(&c, ee)?;
        }

        #[test]
        fn coefficients_contain_the_exact_ones_f32(c in prop::collection::vec(coord_f32(), 24), ee: bool) {
            coefficients_case(&c, ee)?;
        }

        #[test]
        fn subdivided_cubic_encloses_sampled_values_f64(
            c in prop::collection::vec(coord_f64(), 24), ee: bool, path: u32, depth in 0u32..14,
        ) {
            subdivision_case(&c, ee, path, depth)?;
        }

        #[test]
        fn subdivided_cubic_encloses_sampled_values_f32(
            c in prop::collection::vec(coord_f32(), 24), ee: bool, path: u32, depth in 0u32..14,
        ) {
            subdivision_case(&c, ee, path, depth)?;
        }
    }

    /// Every claim of [`bracket_root`] on every monotone cell of the halving tree (to depth 5), against the
    /// exact cubic. Returns how many brackets were certified.
    fn brackets<T: Real>(x: [[[T; 3]; 2]; 4], edge_edge: bool) -> usize {
        let p = pairs(x, edge_edge);
        let ex = exact(&p);
        let Some(root) = Cubic::coplanarity(&p) else {
            return 0;
        };
        let power = root.power();
        let at = |t: T| sign(&exact_q(&ex, &q(t.to_f64_exact())));
        let mut found = 0;
        let mut stack = vec![(root, [T::zero(), T::one()], 0)];
        while let Some((cell, t, depth)) = stack.pop() {
            let dir = cell.monotone();
            if dir != 0 {
                let [t0, t1] = t;
                for width in [T::lit(1e-6), T::zero()] {
                    match bracket_root(t, &cell, &power, dir, width) {
                        Bracket::NoRoot => {
                            assert!(at(t0) == at(t1) && at(t0) != 0, "NoRoot on {t:?}: {x:?}");
                        }
                        Bracket::Root([l, h]) => {
                            found += 1;
                            assert!(t0 <= l && l <= h && h <= t1, "{l} {h} outside {t:?}");
                            assert!(
                                h - l <= width || h <= l.step_up(),
                                "{l} {h} wider than {width}"
                            );
                            if l > t0 {
                                assert_eq!(at(l), -dir, "a root before {l}: {x:?}");
                            }
                            if h < t1 {
                                assert_eq!(at(h), dir, "a root after {h}: {x:?}");
                            }
                        }
                        Bracket::Undecided => {}
                    }
                }
            }
            if depth < 5 {
                let (l, r) = cell.halves();
                let m = t[0] + (t[1] - t[0]) * T::lit(0.5);
                stack.push((l, [t[0], m], depth + 1));
                stack.push((r, [m, t[1]], depth + 1));
            }
        }
        found
    }

    #[test]
    fn root_brackets_are_certified() {
        let mut rng = SplitMix64::new(7);
        for edge_edge in [false, true] {
            for family in [
                Family::Hit,
                Family::NearMiss,
                Family::NearMissTiny,
                Family::Grid,
            ] {
                let mut found = [0, 0];
                for _ in 0..16 {
                    let x = query(&mut rng, family, edge_edge);
                    found[0] += brackets(x, edge_edge);
                    if matches!(family, Family::Hit | Family::Grid) {
                        found[1] +=
                            brackets(x.map(|tr| tr.map(|p| p.map(|c| c as f32))), edge_edge);
                    }
                }
                assert!(found[0] > 0, "{family:?}: no f64 bracket certified");
                assert!(
                    found[1] > 0 || !matches!(family, Family::Hit),
                    "{family:?}: no f32 bracket certified"
                );
            }
        }
    }
}

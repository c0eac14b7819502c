//! Certified root isolation shared by the linear-trajectory vertex–face and edge–edge tests.
//!
//! # Method
//!
//! Both tests look for a zero of a map `F : [0,1]³ → ℝ³` of the form
//!
//! ```text
//! F(t, u, v) = D(t) + u·E₁(t) + v·E₂(t),      X(t) = X₀ + t·(X₁ − X₀) for X ∈ {D, E₁, E₂}
//! ```
//!
//! (vertex–face: `D = p − a`, `E₁ = a − b`, `E₂ = a − c`, so `F` is the vertex minus the point of barycentric
//! coordinates `(u, v)`, over the simplex `u, v >= 0`, `u + v <= 1`; edge–edge: `D = p₀ − q₀`, `E₁ = p₁ − p₀`,
//! `E₂ = q₀ − q₁`, over the unit square). Only time is subdivided: the `(u, v)` domain is always handled whole,
//! which keeps degenerate inputs with a continuum of contacts (collinear overlapping edges, a vertex sliding on
//! an edge) as cheap as generic ones. Two certified tests exclude time intervals (*cells*).
//!
//! ## Projection test
//!
//! Every coordinate of `F`, and its projection `n·F` on any fixed direction `n`, is affine in `t` for fixed
//! `(u, v)` and affine in `(u, v)` for fixed `t`. So its range over a cell `[t₀, t₁]` times the whole `(u, v)`
//! domain is the hull of its ranges at `t₀` and at `t₁`, and at a fixed time that range is exact and cheap:
//! `d + e₁·[0,1] + e₂·[0,1]` on the square (each variable appears once), the hull of `d`, `d + e₁`, `d + e₂`
//! on the simplex (the extremes of an affine function on a triangle are at its vertices). These ranges are
//! evaluated in `ccd-interval`'s outward-rounded arithmetic, so each enclosure holds under floating point.
//!
//! A cell is *excluded* when an enclosure certainly misses `[−δ, δ]` along some direction (`δ` the minimum
//! separation, `0` for touching): the three coordinate axes, then up to ten directions picked in plain floating
//! point at the cell's centre (any direction is valid; only the bound is certified): the facet normals of the
//! near-prism image swept by the face (or parallelogram) over a short time — `E₁ × E₂`, `E₁ × ∂F/∂t`,
//! `E₂ × ∂F/∂t` and, on the simplex, `(E₂ − E₁) × ∂F/∂t` —, the in-plane edge normals `(E₁ × E₂) × Eᵢ`
//! (coplanar motion and static input, where the prism is flat), and the centre value with its rejections from
//! `E₁`, `E₂` (images degenerated to segments or points). A point and a convex polytope are disjoint iff a
//! facet normal separates them, so for short cells, where the image is nearly a prism, the test is close to
//! exact. The `δ`-cube projects into `[−δ‖n‖₁, δ‖n‖₁]`, which is what is tested (rounded up), so no direction
//! ever excludes a contact. Before anything else, the coordinate axes alone are tried on `[0, 1]`.
//!
//! ## Coplanarity cubic (touching, `δ = 0`)
//!
//! `F(t, u, v) = 0` needs `D(t)` in the span of `E₁(t), E₂(t)`, so a contact time is a root of the cubic
//! `p(t) = det[D, E₁, E₂](t)`. Its Bernstein coefficients on `[0, 1]` are enclosed once per query — in
//! floating point with an a-priori error bound, or in interval arithmetic when the bound's range guard fails
//! (`bernstein.rs` derives both) — and every cell carries the coefficients on itself (exact de Casteljau
//! halving, enclosed). On a cell:
//!
//! - all coefficients of one strict sign: `p` has no root, the cell is excluded (no enclosure of `F` needed);
//! - coefficient differences of one strict sign: `p` is strictly monotone, with at most one root.
//!   `bracket_root` guesses it by Newton's method in floating point and certifies a bracket `[l, h]`, at most
//!   `tolerance` wide, outside which the end values of `p` exclude a root (or finds that the cell has none).
//!   The bracket alone then gets the projection test: the plain floating-point `(u, v)` with `F = 0` at its
//!   centre picks the domain sides the zero lies beyond or near, and only their directions (in-plane normal and
//!   prism facet) are tried, after the axes — all directions when the guess lies clearly outside and those
//!   did not exclude, or when `E₁`, `E₂` are nearly parallel. A guess inside the domain by a margin (`2⁻²⁰`)
//!   is an evident touch and is reported without the test (reporting a contact is always allowed). Excluded:
//!   the whole cell is (it has no other root of `p`). Otherwise `[l, h]` is the reported bracket: no contact
//!   exists before `l`, as below.
//! - otherwise (several roots, a root where `p'` vanishes, enclosures too wide): halved; only cells at most
//!   `1/16` wide also get the projection test, and are reported at the tolerance as below.
//!
//! With `δ > 0` the features need not be coplanar to touch, and every coefficient containing zero (coplanar
//! motion, parallel edges, zero-area triangles, zero-length edges) means the cubic cannot exclude anything:
//! there the projection test alone drives the search.
//!
//! ## Search
//!
//! Depth-first on an explicit stack, the earlier half on top (a fixed array; a vector only past 32 levels).
//! Pending cells are disjoint and all later than every cell already processed, so the popped one has the
//! least lower end of all cells not yet excluded; excluded cells hold no contact, so no contact exists before
//! its lower end. A cell that is not excluded is halved until it is at most `tolerance` wide (or cannot be
//! halved in floating point), then reported.

use ccd_interval::{Interval, Real};

use super::bernstein::{Bracket, Cubic, Pairs, bracket_root};

/// Parameters of [`ccd_vertex_face_linear`](super::ccd_vertex_face_linear) and
/// [`ccd_edge_edge_linear`](super::ccd_edge_edge_linear).
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct LinearCcdRequest<T> {
    /// Largest time width of a reported bracket `[t_lo, t_hi]` (default `1e-6`). A value that is not
    /// positive asks for the narrowest bracket floating point allows.
    pub tolerance: T,
    /// Euclidean distance below which the features count as touching (default `0`: touching only), as
    /// [`ToiRequest::min_separation`](crate::ToiRequest::min_separation): no approach closer than it before the
    /// reported `t_lo` (certified). The test encloses that ball in the cube of half-side `min_separation`
    /// (max-norm), so a reported bracket may also hold an approach up to `√3·min_separation` apart.
    pub min_separation: T,
    /// Most time intervals (cells) this feature pair's search examines, as
    /// [`ToiRequest::max_iterations`](crate::ToiRequest::max_iterations) does per triangle pair; when it runs
    /// out the search reports a wider bracket, still certified at `t_lo`, and sets
    /// [`LinearCcdResult::hit_cap`] (default `1_000_000`).
    pub max_iterations: usize,
}

impl<T: Real> Default for LinearCcdRequest<T> {
    fn default() -> Self {
        Self {
            tolerance: T::lit(1e-6),
            min_separation: T::zero(),
            max_iterations: 1_000_000,
        }
    }
}

/// What a linear continuous test found on the time interval `[0, 1]`.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum LinearCcdOutcome<T> {
    /// Certified: the features are never in contact for `t ∈ [0, 1]`.
    NoContact,
    /// A contact could not be excluded.
    ///
    /// # Guarantee
    ///
    /// No contact exists for `t < t_lo` (certified). Some point of `[t_lo, t_hi]` could not be excluded: it
    /// may be a contact, or a near miss within about `tolerance` times the features' size and speed.
    /// `t_hi − t_lo <= tolerance` unless the iteration cap was hit (see [`LinearCcdResult::hit_cap`]).
    Contact {
        /// Certified lower bound of the first contact time.
        t_lo: T,
        /// Upper end of the first time bracket that could not be excluded.
        t_hi: T,
    },
}

/// Result of a linear continuous test.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct LinearCcdResult<T> {
    /// What was found.
    pub outcome: LinearCcdOutcome<T>,
    /// Time cells examined (by the coplanarity cubic, the projection test, or both).
    pub iterations: usize,
    /// `true` if `max_iterations` stopped the search; the bracket is then still certified at `t_lo` but may
    /// be wider than the tolerance.
    pub hit_cap: bool,
}

impl<T> LinearCcdResult<T> {
    /// `true` unless the outcome is a certified [`LinearCcdOutcome::NoContact`].
    pub fn is_contact(&self) -> bool {
        matches!(self.outcome, LinearCcdOutcome::Contact { .. })
    }
}

type IVec<T> = [Interval<T>; 3];

/// `F(t,u,v) = D(t) + u E₁(t) + v E₂(t)` with each `X(t) = X₀ + t·ΔX` held as interval vectors.
pub(crate) struct Multilinear<T> {
    /// `D₀, E₁₀, E₂₀`: values at `t = 0`.
    at0: [IVec<T>; 3],
    /// `D₁, E₁₁, E₂₁`: values at `t = 1`.
    at1: [IVec<T>; 3],
    /// `ΔD, ΔE₁, ΔE₂`: change over the unit time interval.
    delta: [IVec<T>; 3],
    /// The input points whose differences are `D₀, E₁₀, E₂₀` and `D₁, E₁₁, E₂₁`, in `f64` (for the cubic).
    pairs: Pairs,
    /// `D₀, E₁₀, E₂₀` and `ΔD, ΔE₁, ΔE₂` in plain floating point (for guesses only).
    mid0: [[T; 3]; 3],
    mid_delta: [[T; 3]; 3],
    /// Restrict `(u, v)` to the simplex `u + v <= 1` (vertex–face).
    simplex: bool,
}

fn isub<T: Real>(a: IVec<T>, b: IVec<T>) -> IVec<T> {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

impl<T: Real> Multilinear<T> {
    /// Builds `F` from the three vectors at `t = 0` and at `t = 1`, each given as `lhs − rhs` of input points
    /// (the subtraction is enclosed, not rounded). `None` if a coordinate is not finite.
    pub(crate) fn new(
        start: [[[T; 3]; 2]; 3],
        end: [[[T; 3]; 2]; 3],
        simplex: bool,
    ) -> Option<Self> {
        let finite = |x: &[[[T; 3]; 2]; 3]| x.iter().flatten().flatten().all(|c| c.finite());
        if !finite(&start) || !finite(&end) {
            return None;
        }
        let diff =
            |pair: [[T; 3]; 2]| isub(pair[0].map(Interval::point), pair[1].map(Interval::point));
        let at0 = start.map(diff);
        let at1 = end.map(diff);
        let delta = [
            isub(at1[0], at0[0]),
            isub(at1[1], at0[1]),
            isub(at1[2], at0[2]),
        ];
        let rounded = |x: [[[T; 3]; 2]; 3]| x.map(|[l, r]| sub3(l, r));
        let (r0, r1) = (rounded(start), rounded(end));
        let wide = |x: [[[T; 3]; 2]; 3]| x.map(|pair| pair.map(|p| p.map(|c| c.to_f64_exact())));
        let f = Self {
            pairs: [wide(start), wide(end)],
            mid0: r0,
            mid_delta: [sub3(r1[0], r0[0]), sub3(r1[1], r0[1]), sub3(r1[2], r0[2])],
            at0,
            at1,
            delta,
            simplex,
        };
        let bounded = f
            .at0
            .iter()
            .chain(&f.at1)
            .chain(&f.delta)
            .flatten()
            .all(|x| x.lo().finite() && x.hi().finite());
        bounded.then_some(f)
    }

    /// Enclosures of `D(t), E₁(t), E₂(t)` at a time `t` (the stored ends at `t = 0` and `t = 1`).
    #[inline]
    fn at(&self, t: T) -> [IVec<T>; 3] {
        if t == T::zero() {
            return self.at0;
        }
        if t == T::one() {
            return self.at1;
        }
        let mut out = self.at0;
        for (o, d) in out.iter_mut().zip(&self.delta) {
            for (ok, dk) in o.iter_mut().zip(d) {
                *ok += *dk * t;
            }
        }
        out
    }
}

/// Parameter margin of [`Solver::root_excluded`]: a root whose guessed `(u, v)` lies this far inside the
/// domain is reported without a projection test.
const MARGIN: f64 = 1.0 / (1u64 << 20) as f64;

/// Least `|E₁ × E₂|² / (|E₁|² |E₂|²)` (squared sine of the angle) for which [`Solver::root_excluded`] trusts
/// its floating-point guess of `(u, v)`.
const CONDITION: f64 = 1.0 / (1u64 << 20) as f64;

impl<T: Real> Multilinear<T> {
    /// Plain floating-point `D, E₁, E₂` at time `t` (from the midpoints; a guess, no guarantee).
    #[inline]
    fn guess(&self, t: T) -> [[T; 3]; 3] {
        std::array::from_fn(|k| std::array::from_fn(|i| self.mid0[k][i] + t * self.mid_delta[k][i]))
    }

    /// Plain floating-point `∂F/∂t` at `(u, v)` (a guess, no guarantee).
    #[inline]
    fn guess_dt(&self, u: T, v: T) -> [T; 3] {
        let dd = &self.mid_delta;
        std::array::from_fn(|k| dd[0][k] + u * dd[1][k] + v * dd[2][k])
    }
}

/// Plain floating-point cross product (used only to pick projection directions).
#[inline]
fn cross<T: Real>(a: [T; 3], b: [T; 3]) -> [T; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

#[inline]
fn dot3<T: Real>(a: [T; 3], b: [T; 3]) -> T {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

#[inline]
fn sub3<T: Real>(a: [T; 3], b: [T; 3]) -> [T; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

/// Interval dot product of a float direction with an interval vector.
#[inline]
fn dot<T: Real>(n: [T; 3], x: &IVec<T>) -> Interval<T> {
    x[0] * n[0] + x[1] * n[1] + x[2] * n[2]
}

/// `true` if the interval certainly misses `[−r, r]`.
#[inline]
fn misses<T: Real>(x: Interval<T>, r: T) -> bool {
    x.lo() > r || x.hi() < -r
}

/// Range of the affine `d + u·e₁ + v·e₂` over the `(u, v)` domain at a fixed time (exact up to outward
/// rounding): the unit square (each variable appears once, so interval evaluation is exact, and
/// `e·[0, 1]` is the hull of `e` and `0`) or the simplex (an affine function on a triangle takes its
/// extremes at the vertices `(0,0)`, `(1,0)`, `(0,1)`).
#[inline]
fn domain_range<T: Real>(
    simplex: bool,
    d: Interval<T>,
    e1: Interval<T>,
    e2: Interval<T>,
) -> Interval<T> {
    if simplex {
        d.hull(d + e1).hull(d + e2)
    } else {
        let zero = Interval::point(T::zero());
        d + e1.hull(zero) + e2.hull(zero)
    }
}

/// Enclosures of `D, E₁, E₂` at both ends of a time interval.
struct Ends<T> {
    x0: [IVec<T>; 3],
    x1: [IVec<T>; 3],
}

struct Solver<'a, T> {
    f: &'a Multilinear<T>,
    delta: T,
}

impl<T: Real> Solver<'_, T> {
    #[inline]
    fn ends(&self, t0: T, t1: T) -> Ends<T> {
        Ends {
            x0: self.f.at(t0),
            x1: self.f.at(t1),
        }
    }

    /// `true` if a coordinate axis certainly separates `F` over the time interval from the `δ`-cube. The
    /// range over `[t0, t1] × domain` is the hull of the ranges at the two ends (`F` is affine in `t` for
    /// fixed `(u, v)`).
    fn coords_exclude(&self, e: &Ends<T>) -> bool {
        let s = self.f.simplex;
        (0..3).any(|k| {
            let at = |x: &[IVec<T>; 3]| domain_range(s, x[0][k], x[1][k], x[2][k]);
            misses(at(&e.x0).hull(at(&e.x1)), self.delta)
        })
    }

    /// `true` if the direction `n` certainly separates `F` over the time interval from the `δ`-cube (which
    /// projects into `[−δ‖n‖₁, δ‖n‖₁]`, rounded up). Any `n` is valid; a zero or non-finite one is skipped.
    fn separates(&self, e: &Ends<T>, n: [T; 3]) -> bool {
        if !n.iter().all(|x| x.finite()) || n.iter().all(|x| *x == T::zero()) {
            return false;
        }
        let r = if self.delta > T::zero() {
            let norm1 = Interval::point(n[0].abs()) + n[1].abs() + n[2].abs();
            (norm1 * self.delta).hi()
        } else {
            T::zero()
        };
        let s = self.f.simplex;
        let at = |x: &[IVec<T>; 3]| domain_range(s, dot(n, &x[0]), dot(n, &x[1]), dot(n, &x[2]));
        misses(at(&e.x0).hull(at(&e.x1)), r)
    }

    /// `true` if the time interval `[t0, t1]` certainly holds no contact: the coordinate axes, then the
    /// directions of the module documentation, picked at the interval's centre.
    fn excluded(&self, t0: T, t1: T) -> bool {
        let e = self.ends(t0, t1);
        if self.coords_exclude(&e) {
            return true;
        }
        let half = T::lit(0.5);
        let (um, vm) = if self.f.simplex {
            (T::lit(1.0 / 3.0), T::lit(1.0 / 3.0))
        } else {
            (half, half)
        };
        let [d, e1, e2] = self.f.guess(t0 + (t1 - t0) * half);
        let jt = self.f.guess_dt(um, vm);
        let e3 = sub3(e2, e1);
        let n = cross(e1, e2);
        // The image's centre: a separating direction when the image is flat or a segment.
        let centre: [T; 3] = std::array::from_fn(|k| d[k] + um * e1[k] + vm * e2[k]);
        let simplex = self.f.simplex;
        // Prism facets (the hypotenuse side only on the simplex), in-plane edge normals (coplanar motion,
        // static input), degenerate images (segments, points).
        self.separates(&e, n)
            || self.separates(&e, cross(e1, jt))
            || self.separates(&e, cross(e2, jt))
            || simplex && self.separates(&e, cross(e3, jt))
            || self.separates(&e, cross(n, e1))
            || self.separates(&e, cross(n, e2))
            || simplex && self.separates(&e, cross(n, e3))
            || self.separates(&e, centre)
            || self.separates(&e, cross(e1, cross(centre, e1)))
            || self.separates(&e, cross(e2, cross(centre, e2)))
    }

    /// `true` if the bracket `[t0, t1]`, which holds every zero of the coplanarity cubic of its cell, certainly
    /// holds no contact.
    ///
    /// At its centre `r` the plain floating-point `(u, v)` with `D + u·E₁ + v·E₂ = 0` in the plane of `E₁,
    /// E₂` is guessed. Inside the domain by [`MARGIN`] (with `E₁`, `E₂` far from parallel, [`CONDITION`]):
    /// `false`, the bracket is reported as it is (reporting a contact is always allowed; the guess only
    /// saves the projection tests of an evident touch). Otherwise the coordinate axes and, for each side of
    /// the domain the guess lies outside of or near, that side's in-plane normal `n × e` and prism facet
    /// normal `e × ∂F/∂t` (`e` the side's direction) are tested, all certified as everywhere. A guess
    /// outside by more than the margin that these do not exclude, or an ill-conditioned one, gets the full
    /// [`Solver::excluded`].
    fn root_excluded(&self, t0: T, t1: T) -> bool {
        let [d, e1, e2] = self.f.guess(t0 + (t1 - t0) * T::lit(0.5));
        let n = cross(e1, e2);
        let nn = dot3(n, n);
        let least = dot3(e1, e1) * dot3(e2, e2) * T::lit(CONDITION);
        if !nn.finite() || !least.finite() || nn <= least {
            return self.excluded(t0, t1);
        }
        let u = -dot3(cross(d, e2), n) / nn;
        let v = dot3(cross(d, e1), n) / nn;
        if !(u.finite() && v.finite()) {
            return self.excluded(t0, t1);
        }
        let m = T::lit(MARGIN);
        let (zero, one) = (T::zero(), T::one());
        // Sides near or beyond, as (direction, outside by more than the margin).
        let mut sides = [([zero; 3], false); 3];
        let mut count = 0;
        let mut side = |e: [T; 3], slack: T| {
            if slack < m {
                sides[count] = (e, slack < -m);
                count += 1;
            }
        };
        let (uc, vc);
        if self.f.simplex {
            side(e2, u);
            side(e1, v);
            side(sub3(e2, e1), one - u - v);
            let (a, b) = (u.max(zero), v.max(zero));
            let s = a + b;
            (uc, vc) = if s > one { (a / s, b / s) } else { (a, b) };
        } else {
            side(e2, u.min(one - u));
            side(e1, v.min(one - v));
            (uc, vc) = (u.max(zero).min(one), v.max(zero).min(one));
        }
        if count == 0 {
            return false;
        }
        let e = self.ends(t0, t1);
        if self.coords_exclude(&e) {
            return true;
        }
        let jt = self.f.guess_dt(uc, vc);
        let sides = &sides[..count];
        if sides
            .iter()
            .any(|&(s, _)| self.separates(&e, cross(n, s)) || self.separates(&e, cross(s, jt)))
        {
            return true;
        }
        sides.iter().any(|&(_, outside)| outside) && self.excluded(t0, t1)
    }
}

/// A time interval of the search (the `(u, v)` domain is always searched whole), with the coplanarity cubic
/// on it when that is in use.
#[derive(Clone, Copy, Debug)]
struct Cell<T> {
    t: [T; 2],
    cubic: Cubic,
}

/// Cells held without allocation up to this depth (a bisection to the default tolerance is 20 deep).
const INLINE: usize = 32;

/// Last-in first-out cells: a fixed array, spilling into a vector only past [`INLINE`] entries.
struct Stack<T> {
    inline: [Cell<T>; INLINE],
    len: usize,
    spill: Vec<Cell<T>>,
}

impl<T: Real> Stack<T> {
    fn new() -> Self {
        Self {
            inline: [Cell {
                t: [T::zero(); 2],
                cubic: Cubic::zero(),
            }; INLINE],
            len: 0,
            spill: Vec::new(),
        }
    }

    #[inline]
    fn push(&mut self, c: Cell<T>) {
        if self.len < INLINE {
            self.inline[self.len] = c;
            self.len += 1;
        } else {
            self.spill.push(c);
        }
    }

    #[inline]
    fn pop(&mut self) -> Option<Cell<T>> {
        if let Some(c) = self.spill.pop() {
            return Some(c);
        }
        self.len = self.len.checked_sub(1)?;
        Some(self.inline[self.len])
    }
}

/// Cells wider than this skip the (costly) projection test while the cubic is in use: it only narrows them.
const FULL_TEST_WIDTH: f64 = 1.0 / 16.0;

/// Earliest-first interval root isolation of `F` (see the module documentation); `None` input (not finite)
/// gives the whole time interval.
pub(crate) fn isolate<T: Real>(
    f: Option<Multilinear<T>>,
    req: &LinearCcdRequest<T>,
) -> LinearCcdResult<T> {
    let contact = |t_lo: T, t_hi: T, iterations, hit_cap| LinearCcdResult {
        outcome: LinearCcdOutcome::Contact { t_lo, t_hi },
        iterations,
        hit_cap,
    };
    let no_contact = |iterations| LinearCcdResult {
        outcome: LinearCcdOutcome::NoContact,
        iterations,
        hit_cap: false,
    };
    let Some(f) = f else {
        return contact(T::zero(), T::one(), 0, false);
    };
    if !req.min_separation.finite() {
        return contact(T::zero(), T::one(), 0, false);
    }
    let delta = req.min_separation.max(T::zero());
    let tol = if req.tolerance > T::zero() {
        req.tolerance
    } else {
        T::zero()
    };
    let solver = Solver { f: &f, delta };
    if req.max_iterations > 0 && solver.coords_exclude(&solver.ends(T::zero(), T::one())) {
        return no_contact(1);
    }
    // The coplanarity cubic (touching only: with δ > 0 the features need not be coplanar).
    let cubic = if delta == T::zero() {
        Cubic::coplanarity(&f.pairs)
    } else {
        None
    };
    let power = cubic.map(|c| c.power());
    let full_width = T::lit(FULL_TEST_WIDTH);

    let mut stack = Stack::new();
    stack.push(Cell {
        t: [T::zero(), T::one()],
        cubic: cubic.unwrap_or_else(Cubic::zero),
    });
    // Pushes the halves of a cell at its midpoint `m` (exact: cells are dyadic), the earlier one on top.
    let split = |stack: &mut Stack<T>, cell: &Cell<T>, m: T| {
        let (left, right) = if power.is_some() {
            cell.cubic.halves()
        } else {
            (cell.cubic, cell.cubic)
        };
        stack.push(Cell {
            t: [m, cell.t[1]],
            cubic: right,
        });
        stack.push(Cell {
            t: [cell.t[0], m],
            cubic: left,
        });
    };
    let mut iterations = 0usize;
    while let Some(cell) = stack.pop() {
        let [lo, hi] = cell.t;
        if iterations >= req.max_iterations {
            return contact(lo, hi, iterations, true);
        }
        iterations += 1;
        let m = lo + (hi - lo) * T::lit(0.5);
        if let Some(power) = &power {
            if cell.cubic.sign() != 0 {
                continue;
            }
            let dir = cell.cubic.monotone();
            if dir != 0 {
                match bracket_root(cell.t, &cell.cubic, power, dir, tol) {
                    Bracket::NoRoot => continue,
                    Bracket::Root([a, b]) => {
                        if solver.root_excluded(a, b) {
                            continue;
                        }
                        return contact(a, b, iterations, false);
                    }
                    Bracket::Undecided => {}
                }
            }
            if hi - lo > full_width {
                split(&mut stack, &cell, m);
                continue;
            }
        }
        if solver.excluded(lo, hi) {
            continue;
        }
        if hi - lo <= tol || !(m > lo && m < hi) {
            return contact(lo, hi, iterations, false);
        }
        split(&mut stack, &cell, m);
    }
    no_contact(iterations)
}

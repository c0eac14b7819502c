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
//! `E₂ = q₀ − q₁`, over the unit square). Every coordinate of `F`, and its projection `n·F` on any fixed direction
//! `n`, is affine in `t` for fixed `(u, v)` and affine in `(u, v)` for fixed `t`. So its range over a time
//! interval `[t₀, t₁]` times the whole `(u, v)` domain is the hull of its ranges at `t₀` and at `t₁`, and at a
//! fixed time that range is exact and cheap: `d + e₁·[0,1] + e₂·[0,1]` on the square (each variable appears
//! once), the hull of `d`, `d + e₁`, `d + e₂` on the simplex (the extremes of an affine function on a triangle
//! are at its vertices). Every quantity is evaluated in `ccd-interval`'s outward-rounded arithmetic, so each
//! enclosure holds under floating point.
//!
//! A time interval is *excluded* when an enclosure certainly misses `[−δ, δ]` along some direction (`δ` the
//! minimum separation, `0` for touching): the three coordinate axes, then up to ten directions picked in plain
//! floating point at the interval's centre (any direction is valid; only the bound is certified): the facet
//! normals of the near-prism image swept by the face (or parallelogram) over a short time — `E₁ × E₂`,
//! `E₁ × ∂F/∂t`, `E₂ × ∂F/∂t` and, on the simplex, `(E₂ − E₁) × ∂F/∂t` —, the in-plane edge normals
//! `(E₁ × E₂) × Eᵢ` (coplanar motion and static input, where the prism is flat), and the centre value with
//! its rejections from `E₁`, `E₂` (images degenerated to segments or points). A point and a convex polytope
//! are disjoint iff a facet normal separates them, so for short intervals, where the image is nearly a prism,
//! the test is close to exact. The `δ`-cube projects into `[−δ‖n‖₁, δ‖n‖₁]`, which is what is tested (rounded
//! up), so no direction ever excludes a contact.
//!
//! Surviving time intervals sit in a priority queue ordered by their lower end. The popped one has the least
//! lower end of all intervals not yet excluded, and excluded intervals hold no contact, so no contact exists
//! before its lower end. It is halved until it is at most `tolerance` wide (or cannot be halved in floating
//! point), then reported. Only time is subdivided: the `(u, v)` domain is always enclosed whole, which keeps
//! degenerate inputs with a continuum of contacts (collinear overlapping edges, a vertex sliding on an edge) as
//! cheap as generic ones.

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use ccd_interval::{Interval, Real};

/// Parameters of [`ccd_vertex_face_linear`](super::ccd_vertex_face_linear) and
/// [`ccd_edge_edge_linear`](super::ccd_edge_edge_linear).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LinearCcdRequest<T> {
    /// Largest time width of a reported bracket `[t_lo, t_hi]` (default `1e-6`). A value that is not
    /// positive asks for the narrowest bracket floating point allows.
    pub tolerance: T,
    /// Distance below which the features count as touching (default `0`: touching only). Tested in the
    /// max-norm (a cube of half-side `min_separation`), a superset of the Euclidean ball.
    pub min_separation: T,
    /// Most time intervals evaluated before giving up with a wider, flagged bracket (default `1_000_000`).
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
pub struct LinearCcdResult<T> {
    /// What was found.
    pub outcome: LinearCcdOutcome<T>,
    /// Time intervals evaluated (each encloses `F` over the whole `(u, v)` domain).
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
    /// `ΔD, ΔE₁, ΔE₂`: change over the unit time interval.
    delta: [IVec<T>; 3],
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
        let f = Self {
            at0,
            delta,
            simplex,
        };
        let bounded = f
            .at0
            .iter()
            .chain(&f.delta)
            .flatten()
            .all(|x| x.lo().finite() && x.hi().finite());
        bounded.then_some(f)
    }

    /// Enclosures of `D(t), E₁(t), E₂(t)` at a time `t`.
    #[inline]
    fn at(&self, t: T) -> [IVec<T>; 3] {
        let mut out = self.at0;
        if t != T::zero() {
            for (o, d) in out.iter_mut().zip(&self.delta) {
                for (ok, dk) in o.iter_mut().zip(d) {
                    *ok += *dk * t;
                }
            }
        }
        out
    }
}

/// A time interval of the search (the `(u, v)` domain is always searched whole).
#[derive(Clone, Copy, Debug)]
struct Cell<T> {
    t: [T; 2],
}

impl<T: Real> PartialEq for Cell<T> {
    fn eq(&self, o: &Self) -> bool {
        self.cmp(o) == Ordering::Equal
    }
}

impl<T: Real> Eq for Cell<T> {}

impl<T: Real> PartialOrd for Cell<T> {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}

impl<T: Real> Ord for Cell<T> {
    /// Max-heap order: the earliest lower time is the greatest.
    fn cmp(&self, o: &Self) -> Ordering {
        o.t[0].partial_cmp(&self.t[0]).unwrap_or(Ordering::Equal)
    }
}

/// Plain floating-point cross product (used only to pick projection directions).
fn cross<T: Real>(a: [T; 3], b: [T; 3]) -> [T; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
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
/// rounding): the unit square (each variable appears once, so interval evaluation is exact) or the simplex
/// (an affine function on a triangle takes its extremes at the vertices `(0,0)`, `(1,0)`, `(0,1)`).
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
        let unit = Interval::new(T::zero(), T::one());
        d + e1 * unit + e2 * unit
    }
}

struct Solver<'a, T> {
    f: &'a Multilinear<T>,
    delta: T,
}

impl<T: Real> Solver<'_, T> {
    /// Enclosure of the range of `n·F` (or of coordinate `k` when `n` is `None`) at time `t`'s values `x`.
    #[inline]
    fn range(&self, x: &[IVec<T>; 3], axis: Axis<T>) -> Interval<T> {
        match axis {
            Axis::Coord(k) => domain_range(self.f.simplex, x[0][k], x[1][k], x[2][k]),
            Axis::Dir(n) => {
                domain_range(self.f.simplex, dot(n, &x[0]), dot(n, &x[1]), dot(n, &x[2]))
            }
        }
    }

    /// `true` if the time interval certainly holds no contact.
    fn excluded(&self, c: &Cell<T>) -> bool {
        let [t0, t1] = c.t;
        let x0 = self.f.at(t0);
        let x1 = self.f.at(t1);
        // Range over [t0, t1] × domain: F is affine in t for fixed (u, v), so hull the two end times.
        let test =
            |axis: Axis<T>, r: T| misses(self.range(&x0, axis).hull(self.range(&x1, axis)), r);
        if (0..3).any(|k| test(Axis::Coord(k), self.delta)) {
            return true;
        }
        // Facet normals of the near-prism image of the cell, from the partial derivatives at its centre.
        let half = T::lit(0.5);
        let tm = (t0 + t1) * half;
        let (um, vm) = if self.f.simplex {
            (T::lit(1.0 / 3.0), T::lit(1.0 / 3.0))
        } else {
            (half, half)
        };
        let xm = self.f.at(tm);
        let dd = &self.f.delta;
        let e1 = xm[1].map(|x| x.midpoint());
        let e2 = xm[2].map(|x| x.midpoint());
        let jt: [T; 3] = std::array::from_fn(|k| {
            dd[0][k].midpoint() + um * dd[1][k].midpoint() + vm * dd[2][k].midpoint()
        });
        let e3 = [e2[0] - e1[0], e2[1] - e1[1], e2[2] - e1[2]];
        let n = cross(e1, e2);
        // The image's centre: a separating direction when the image is flat or a segment.
        let centre: [T; 3] = std::array::from_fn(|k| xm[0][k].midpoint() + um * e1[k] + vm * e2[k]);
        let dirs = [
            // Prism facets (the hypotenuse side only on the simplex).
            n,
            cross(e1, jt),
            cross(e2, jt),
            if self.f.simplex {
                cross(e3, jt)
            } else {
                [T::zero(); 3]
            },
            // In-plane edge normals, for coplanar motion and static input.
            cross(n, e1),
            cross(n, e2),
            if self.f.simplex {
                cross(n, e3)
            } else {
                [T::zero(); 3]
            },
            // Degenerate images (segments, points).
            centre,
            cross(e1, cross(centre, e1)),
            cross(e2, cross(centre, e2)),
        ];
        for n in dirs {
            if !n.iter().all(|x| x.finite()) || n.iter().all(|x| *x == T::zero()) {
                continue;
            }
            // The δ-cube projects into [−δ‖n‖₁, δ‖n‖₁].
            let r = if self.delta > T::zero() {
                let norm1 = Interval::point(n[0].abs()) + n[1].abs() + n[2].abs();
                (norm1 * self.delta).hi()
            } else {
                T::zero()
            };
            if test(Axis::Dir(n), r) {
                return true;
            }
        }
        false
    }
}

#[derive(Clone, Copy)]
enum Axis<T> {
    Coord(usize),
    Dir([T; 3]),
}

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

    let mut heap = BinaryHeap::new();
    heap.push(Cell {
        t: [T::zero(), T::one()],
    });
    let mut iterations = 0usize;
    while let Some(cell) = heap.pop() {
        let [lo, hi] = cell.t;
        if iterations >= req.max_iterations {
            return contact(lo, hi, iterations, true);
        }
        iterations += 1;
        if solver.excluded(&cell) {
            continue;
        }
        let m = lo + (hi - lo) * T::lit(0.5);
        if hi - lo <= tol || !(m > lo && m < hi) {
            return contact(lo, hi, iterations, false);
        }
        heap.push(Cell { t: [m, hi] });
        heap.push(Cell { t: [lo, m] });
    }
    LinearCcdResult {
        outcome: LinearCcdOutcome::NoContact,
        iterations,
        hit_cap: false,
    }
}

//! The exact rational oracle of the linear CCD tests (see `linear_ccd.rs`).
//! # The oracle
//!
//! Every input coordinate is a small integer or a dyadic rational, so it is an exact `BigRational`, and every
//! quantity below is a polynomial in `t` with rational coefficients (degree ≤ 4). Contact at time `t` is a
//! boolean formula of the *signs* of a fixed list of such polynomials:
//!
//! - vertex–face: `f = n·(p − a)` with `n = (b − a) × (c − a)` must vanish; then if `|n|² > 0`, the point is
//!   inside iff the three edge functions `n·((b − a) × (p − a))` (and cyclic) are `≥ 0`; if `|n|² = 0` the
//!   triangle is a segment or a point, the union of its closed edges, and the point must lie on one of them;
//! - edge–edge: `f = (q₀ − p₀)·(e_p × e_q)` must vanish; if `m = e_p × e_q ≠ 0` the lines meet at the point of
//!   parameters `s = ((q₀ − p₀) × e_q)·m / |m|²`, `u = ((q₀ − p₀) × e_p)·m / |m|²`, which must lie in `[0, 1]`; if
//!   `m = 0` (parallel, collinear or zero-length) the closed segments meet iff an endpoint of one lies on the other;
//! - a point `x` on a closed segment `[s₀, s₁]`: with `e = s₁ − s₀`, `w = x − s₀`, either `|e|² > 0`, `e × w = 0`
//!   and `0 ≤ e·w ≤ |e|²`, or `|e|² = 0` and `w = 0`.
//!
//! The contact set `C ⊆ [0, 1]` is closed. If it is not empty its least element `t*` is `0` or a root of one of
//! the (not identically zero) polynomials of the list, since otherwise every sign would be constant near `t*` and
//! contact would hold just before it. When `f` is not identically zero, `C` lies in the roots of `f`. So the
//! oracle isolates the real roots in `[0, 1]` of `f` (or, for coplanar motion, of every polynomial of the list,
//! plus `t = 0`) exactly — square-free part, Sturm sequence, bisection at non-root rational points — and
//! evaluates the contact formula at each candidate root exactly: the sign of a polynomial `g` at an algebraic
//! root `r` of a square-free `h` isolated in `(lo, hi)` is `0` iff `gcd(g, h)` changes sign on `(lo, hi)`, and
//! otherwise the sign of a rational interval evaluation of `g` after refining `(lo, hi)` enough. The result is
//! the exact set of candidate roots that are contacts; its least element is the exact first contact time, and
//! comparisons of a floating-point bound with it are exact.

use std::cmp::Ordering;

use ccd_testkit::linear_ccd::Query;
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Signed, Zero};

pub(crate) type Q = BigRational;

pub(crate) fn q(x: f64) -> Q {
    Q::from_float(x).expect("finite input")
}

pub(crate) fn qi(x: i64) -> Q {
    Q::from_integer(BigInt::from(x))
}

// ---------------------------------------------------------------------------------------------------------
// Polynomials over Q, coefficients from the constant term up, no trailing zeros (zero = empty).

#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Poly(Vec<Q>);

impl Poly {
    pub(crate) fn trim(mut self) -> Self {
        while self.0.last().is_some_and(|c| c.is_zero()) {
            self.0.pop();
        }
        self
    }
    /// `x0 + t (x1 − x0)`.
    pub(crate) fn lerp(x0: f64, x1: f64) -> Self {
        let a = q(x0);
        let d = q(x1) - &a;
        Poly(vec![a, d]).trim()
    }
    pub(crate) fn is_zero(&self) -> bool {
        self.0.is_empty()
    }
    pub(crate) fn deg(&self) -> usize {
        self.0.len().saturating_sub(1)
    }
    pub(crate) fn add(&self, o: &Poly) -> Poly {
        let n = self.0.len().max(o.0.len());
        let z = Q::zero();
        Poly(
            (0..n)
                .map(|i| self.0.get(i).unwrap_or(&z) + o.0.get(i).unwrap_or(&z))
                .collect(),
        )
        .trim()
    }
    pub(crate) fn neg(&self) -> Poly {
        Poly(self.0.iter().map(|c| -c).collect())
    }
    pub(crate) fn sub(&self, o: &Poly) -> Poly {
        self.add(&o.neg())
    }
    pub(crate) fn mul(&self, o: &Poly) -> Poly {
        if self.is_zero() || o.is_zero() {
            return Poly(vec![]);
        }
        let mut r = vec![Q::zero(); self.0.len() + o.0.len() - 1];
        for (i, a) in self.0.iter().enumerate() {
            for (j, b) in o.0.iter().enumerate() {
                r[i + j] += a * b;
            }
        }
        Poly(r).trim()
    }
    pub(crate) fn eval(&self, x: &Q) -> Q {
        self.0.iter().rev().fold(Q::zero(), |acc, c| acc * x + c)
    }
    pub(crate) fn deriv(&self) -> Poly {
        Poly(
            self.0
                .iter()
                .enumerate()
                .skip(1)
                .map(|(i, c)| c * qi(i as i64))
                .collect(),
        )
        .trim()
    }
    /// Quotient and remainder of the division by a non-zero `d`.
    pub(crate) fn divrem(&self, d: &Poly) -> (Poly, Poly) {
        let mut r = self.clone();
        let mut quo = vec![Q::zero(); self.0.len().saturating_sub(d.0.len()) + 1];
        let lead = d.0.last().expect("non-zero divisor").clone();
        while !r.is_zero() && r.0.len() >= d.0.len() {
            let shift = r.0.len() - d.0.len();
            let c = r.0.last().unwrap() / &lead;
            for (i, dc) in d.0.iter().enumerate() {
                r.0[i + shift] -= &c * dc;
            }
            quo[shift] = c;
            r.0.pop();
            r = r.trim();
        }
        (Poly(quo).trim(), r)
    }
    pub(crate) fn monic(&self) -> Poly {
        let lead = self.0.last().unwrap().clone();
        Poly(self.0.iter().map(|c| c / &lead).collect())
    }
    pub(crate) fn gcd(&self, o: &Poly) -> Poly {
        let (mut a, mut b) = (self.clone(), o.clone());
        while !b.is_zero() {
            let r = a.divrem(&b).1;
            a = b;
            b = r;
        }
        if a.is_zero() { a } else { a.monic() }
    }
    /// Enclosure of the range over `[lo, hi] ⊆ [0, ∞)` (rational interval Horner scheme).
    pub(crate) fn range(&self, lo: &Q, hi: &Q) -> (Q, Q) {
        let mut acc = (Q::zero(), Q::zero());
        for c in self.0.iter().rev() {
            let p = [&acc.0 * lo, &acc.0 * hi, &acc.1 * lo, &acc.1 * hi];
            let mn = p.iter().min().unwrap().clone();
            let mx = p.iter().max().unwrap().clone();
            acc = (mn + c, mx + c);
        }
        acc
    }
}

pub(crate) fn sign(x: &Q) -> i8 {
    if x.is_positive() {
        1
    } else if x.is_negative() {
        -1
    } else {
        0
    }
}

pub(crate) type V3 = [Poly; 3];

pub(crate) fn vsub(a: &V3, b: &V3) -> V3 {
    [a[0].sub(&b[0]), a[1].sub(&b[1]), a[2].sub(&b[2])]
}
pub(crate) fn cross(a: &V3, b: &V3) -> V3 {
    [
        a[1].mul(&b[2]).sub(&a[2].mul(&b[1])),
        a[2].mul(&b[0]).sub(&a[0].mul(&b[2])),
        a[0].mul(&b[1]).sub(&a[1].mul(&b[0])),
    ]
}
pub(crate) fn dot(a: &V3, b: &V3) -> Poly {
    a[0].mul(&b[0]).add(&a[1].mul(&b[1])).add(&a[2].mul(&b[2]))
}
pub(crate) fn track(t: &[[f64; 3]; 2]) -> V3 {
    [0, 1, 2].map(|k| Poly::lerp(t[0][k], t[1][k]))
}

// ---------------------------------------------------------------------------------------------------------
// Real roots in [0, 1].

#[derive(Clone, Debug)]
pub(crate) enum Root {
    Exact(Q),
    /// The only root of the square-free `h` in `(lo, hi)`; `h(lo)`, `h(hi)` are non-zero and of opposite sign.
    Iso {
        h: Poly,
        lo: Q,
        hi: Q,
    },
}

pub(crate) fn sturm(p: &Poly) -> Vec<Poly> {
    let mut s = vec![p.clone(), p.deriv()];
    loop {
        let n = s.len();
        if s[n - 1].is_zero() {
            s.pop();
            return s;
        }
        let r = s[n - 2].divrem(&s[n - 1]).1.neg();
        s.push(r);
    }
}

pub(crate) fn variations(s: &[Poly], x: &Q) -> usize {
    let signs: Vec<i8> = s
        .iter()
        .map(|p| sign(&p.eval(x)))
        .filter(|&g| g != 0)
        .collect();
    signs.windows(2).filter(|w| w[0] != w[1]).count()
}

/// All distinct real roots of a non-zero `f` in `[0, 1]`.
pub(crate) fn roots_in_unit(f: &Poly) -> Vec<Root> {
    let mut out = Vec::new();
    if f.deg() == 0 {
        return out;
    }
    let mut h = f.divrem(&f.gcd(&f.deriv())).0;
    for end in [Q::zero(), Q::one()] {
        if h.eval(&end).is_zero() {
            out.push(Root::Exact(end.clone()));
            h = h.divrem(&Poly(vec![-end, Q::one()])).0;
        }
    }
    if h.deg() == 0 {
        return out;
    }
    let s = sturm(&h);
    let mut stack = vec![(Q::zero(), Q::one())];
    while let Some((a, b)) = stack.pop() {
        let n = variations(&s, &a) - variations(&s, &b);
        if n == 0 {
            continue;
        }
        if n == 1 {
            out.push(Root::Iso {
                h: h.clone(),
                lo: a,
                hi: b,
            });
            continue;
        }
        // Split at a rational point that is not a root.
        let w = &b - &a;
        let m = (1..)
            .map(|k: i64| &a + &w * Q::new(BigInt::from(k), BigInt::from(2 * k + 1)))
            .find(|m| !h.eval(m).is_zero())
            .unwrap();
        stack.push((a, m.clone()));
        stack.push((m, b));
    }
    out
}

/// Sign of `g` at the root `r`.
pub(crate) fn sign_at(g: &Poly, r: &Root) -> i8 {
    match r {
        Root::Exact(x) => sign(&g.eval(x)),
        Root::Iso { h, lo, hi } => {
            if g.is_zero() {
                return 0;
            }
            let d = h.gcd(g);
            if d.deg() >= 1 && sign(&d.eval(lo)) != sign(&d.eval(hi)) {
                return 0;
            }
            let (mut lo, mut hi) = (lo.clone(), hi.clone());
            let s_lo = sign(&h.eval(&lo));
            loop {
                let (a, b) = g.range(&lo, &hi);
                if a.is_positive() {
                    return 1;
                }
                if b.is_negative() {
                    return -1;
                }
                let m = (&lo + &hi) / qi(2);
                let sm = sign(&h.eval(&m));
                if sm == 0 {
                    return sign(&g.eval(&m));
                }
                if sm == s_lo {
                    lo = m;
                } else {
                    hi = m;
                }
            }
        }
    }
}

/// How the rational `x` compares with the root `r`.
pub(crate) fn cmp_root(x: &Q, r: &Root) -> Ordering {
    match r {
        Root::Exact(y) => x.cmp(y),
        Root::Iso { h, lo, hi } => {
            if x <= lo {
                Ordering::Less
            } else if x >= hi {
                Ordering::Greater
            } else {
                match sign(&h.eval(x)) {
                    0 => Ordering::Equal,
                    s if s == sign(&h.eval(lo)) => Ordering::Less,
                    _ => Ordering::Greater,
                }
            }
        }
    }
}

pub(crate) fn approx(r: &Root) -> f64 {
    use num_traits::ToPrimitive;
    match r {
        Root::Exact(x) => x.to_f64().unwrap(),
        Root::Iso { lo, hi, .. } => ((lo + hi) / qi(2)).to_f64().unwrap(),
    }
}

// ---------------------------------------------------------------------------------------------------------
// Contact formulas.

/// Point `x` on the closed segment `[s0, s1]`.
pub(crate) struct OnSegment {
    cross: V3,
    dot: Poly,
    rest: Poly,
    len2: Poly,
    w: V3,
}

impl OnSegment {
    pub(crate) fn new(x: &V3, s0: &V3, s1: &V3) -> Self {
        let e = vsub(s1, s0);
        let w = vsub(x, s0);
        let dot = dot(&e, &w);
        let len2 = self::dot(&e, &e);
        OnSegment {
            cross: cross(&e, &w),
            rest: len2.sub(&dot),
            dot,
            len2,
            w,
        }
    }
    pub(crate) fn holds(&self, r: &Root) -> bool {
        if sign_at(&self.len2, r) > 0 {
            self.cross.iter().all(|c| sign_at(c, r) == 0)
                && sign_at(&self.dot, r) >= 0
                && sign_at(&self.rest, r) >= 0
        } else {
            self.w.iter().all(|c| sign_at(c, r) == 0)
        }
    }
    pub(crate) fn polys(&self) -> Vec<&Poly> {
        let mut v: Vec<&Poly> = self.cross.iter().chain(self.w.iter()).collect();
        v.extend([&self.dot, &self.rest, &self.len2]);
        v
    }
}

/// `f` must vanish; if `proper` is positive every `ineq` must be `≥ 0`, otherwise some `segs` must hold.
pub(crate) struct Formula {
    f: Poly,
    proper: Poly,
    ineq: Vec<Poly>,
    segs: Vec<OnSegment>,
}

impl Formula {
    pub(crate) fn vertex_face(qr: &Query) -> Self {
        let [p, a, b, c] = qr.map(|t| track(&t));
        let n = cross(&vsub(&b, &a), &vsub(&c, &a));
        let edge = |s: &V3, e: &V3| dot(&n, &cross(&vsub(e, s), &vsub(&p, s)));
        Formula {
            f: dot(&n, &vsub(&p, &a)),
            proper: dot(&n, &n),
            ineq: vec![edge(&a, &b), edge(&b, &c), edge(&c, &a)],
            segs: vec![
                OnSegment::new(&p, &a, &b),
                OnSegment::new(&p, &b, &c),
                OnSegment::new(&p, &c, &a),
            ],
        }
    }
    pub(crate) fn edge_edge(qr: &Query) -> Self {
        let [p0, p1, q0, q1] = qr.map(|t| track(&t));
        let (ep, eq) = (vsub(&p1, &p0), vsub(&q1, &q0));
        let w = vsub(&q0, &p0);
        let m = cross(&ep, &eq);
        let mm = dot(&m, &m);
        let s = dot(&cross(&w, &eq), &m);
        let u = dot(&cross(&w, &ep), &m);
        Formula {
            f: dot(&w, &m),
            ineq: vec![mm.sub(&s), mm.sub(&u), s, u],
            proper: mm,
            segs: vec![
                OnSegment::new(&p0, &q0, &q1),
                OnSegment::new(&p1, &q0, &q1),
                OnSegment::new(&q0, &p0, &p1),
                OnSegment::new(&q1, &p0, &p1),
            ],
        }
    }
    pub(crate) fn holds(&self, r: &Root) -> bool {
        if sign_at(&self.f, r) != 0 {
            return false;
        }
        if sign_at(&self.proper, r) > 0 {
            self.ineq.iter().all(|g| sign_at(g, r) >= 0)
        } else {
            self.segs.iter().any(|s| s.holds(r))
        }
    }
    /// Every root of the contact set's first element's candidates that is a contact.
    pub(crate) fn contacts(&self) -> Vec<Root> {
        let candidates = if !self.f.is_zero() {
            roots_in_unit(&self.f)
        } else {
            let mut polys: Vec<&Poly> = vec![&self.proper];
            polys.extend(self.ineq.iter());
            for s in &self.segs {
                polys.extend(s.polys());
            }
            let mut c = vec![Root::Exact(Q::zero())];
            for p in polys.into_iter().filter(|p| !p.is_zero()) {
                c.extend(roots_in_unit(p));
            }
            c
        };
        candidates.into_iter().filter(|r| self.holds(r)).collect()
    }
}

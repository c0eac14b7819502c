//! Linear-trajectory vertex–face and edge–edge CCD against an exact rational oracle.
//!
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
use std::time::Instant;

use ccd_interval::Real;
use ccd_query::primitive::{
    LinearCcdOutcome, LinearCcdRequest, LinearCcdResult, ccd_edge_edge_linear,
    ccd_vertex_face_linear,
};
use ccd_testkit::SplitMix64;
use ccd_testkit::linear_ccd::{Family, Query, query};
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Signed, Zero};

type Q = BigRational;

fn q(x: f64) -> Q {
    Q::from_float(x).expect("finite input")
}

fn qi(x: i64) -> Q {
    Q::from_integer(BigInt::from(x))
}

// ---------------------------------------------------------------------------------------------------------
// Polynomials over Q, coefficients from the constant term up, no trailing zeros (zero = empty).

#[derive(Clone, Debug, PartialEq)]
struct Poly(Vec<Q>);

impl Poly {
    fn trim(mut self) -> Self {
        while self.0.last().is_some_and(|c| c.is_zero()) {
            self.0.pop();
        }
        self
    }
    /// `x0 + t (x1 − x0)`.
    fn lerp(x0: f64, x1: f64) -> Self {
        let a = q(x0);
        let d = q(x1) - &a;
        Poly(vec![a, d]).trim()
    }
    fn is_zero(&self) -> bool {
        self.0.is_empty()
    }
    fn deg(&self) -> usize {
        self.0.len().saturating_sub(1)
    }
    fn add(&self, o: &Poly) -> Poly {
        let n = self.0.len().max(o.0.len());
        let z = Q::zero();
        Poly(
            (0..n)
                .map(|i| self.0.get(i).unwrap_or(&z) + o.0.get(i).unwrap_or(&z))
                .collect(),
        )
        .trim()
    }
    fn neg(&self) -> Poly {
        Poly(self.0.iter().map(|c| -c).collect())
    }
    fn sub(&self, o: &Poly) -> Poly {
        self.add(&o.neg())
    }
    fn mul(&self, o: &Poly) -> Poly {
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
    fn eval(&self, x: &Q) -> Q {
        self.0.iter().rev().fold(Q::zero(), |acc, c| acc * x + c)
    }
    fn deriv(&self) -> Poly {
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
    fn divrem(&self, d: &Poly) -> (Poly, Poly) {
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
    fn monic(&self) -> Poly {
        let lead = self.0.last().unwrap().clone();
        Poly(self.0.iter().map(|c| c / &lead).collect())
    }
    fn gcd(&self, o: &Poly) -> Poly {
        let (mut a, mut b) = (self.clone(), o.clone());
        while !b.is_zero() {
            let r = a.divrem(&b).1;
            a = b;
            b = r;
        }
        if a.is_zero() { a } else { a.monic() }
    }
    /// Enclosure of the range over `[lo, hi] ⊆ [0, ∞)` (rational interval Horner scheme).
    fn range(&self, lo: &Q, hi: &Q) -> (Q, Q) {
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

fn sign(x: &Q) -> i8 {
    if x.is_positive() {
        1
    } else if x.is_negative() {
        -1
    } else {
        0
    }
}

type V3 = [Poly; 3];

fn vsub(a: &V3, b: &V3) -> V3 {
    [a[0].sub(&b[0]), a[1].sub(&b[1]), a[2].sub(&b[2])]
}
fn cross(a: &V3, b: &V3) -> V3 {
    [
        a[1].mul(&b[2]).sub(&a[2].mul(&b[1])),
        a[2].mul(&b[0]).sub(&a[0].mul(&b[2])),
        a[0].mul(&b[1]).sub(&a[1].mul(&b[0])),
    ]
}
fn dot(a: &V3, b: &V3) -> Poly {
    a[0].mul(&b[0]).add(&a[1].mul(&b[1])).add(&a[2].mul(&b[2]))
}
fn track(t: &[[f64; 3]; 2]) -> V3 {
    [0, 1, 2].map(|k| Poly::lerp(t[0][k], t[1][k]))
}

// ---------------------------------------------------------------------------------------------------------
// Real roots in [0, 1].

#[derive(Clone, Debug)]
enum Root {
    Exact(Q),
    /// The only root of the square-free `h` in `(lo, hi)`; `h(lo)`, `h(hi)` are non-zero and of opposite sign.
    Iso {
        h: Poly,
        lo: Q,
        hi: Q,
    },
}

fn sturm(p: &Poly) -> Vec<Poly> {
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

fn variations(s: &[Poly], x: &Q) -> usize {
    let signs: Vec<i8> = s
        .iter()
        .map(|p| sign(&p.eval(x)))
        .filter(|&g| g != 0)
        .collect();
    signs.windows(2).filter(|w| w[0] != w[1]).count()
}

/// All distinct real roots of a non-zero `f` in `[0, 1]`.
fn roots_in_unit(f: &Poly) -> Vec<Root> {
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
fn sign_at(g: &Poly, r: &Root) -> i8 {
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
fn cmp_root(x: &Q, r: &Root) -> Ordering {
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

fn approx(r: &Root) -> f64 {
    use num_traits::ToPrimitive;
    match r {
        Root::Exact(x) => x.to_f64().unwrap(),
        Root::Iso { lo, hi, .. } => ((lo + hi) / qi(2)).to_f64().unwrap(),
    }
}

// ---------------------------------------------------------------------------------------------------------
// Contact formulas.

/// Point `x` on the closed segment `[s0, s1]`.
struct OnSegment {
    cross: V3,
    dot: Poly,
    rest: Poly,
    len2: Poly,
    w: V3,
}

impl OnSegment {
    fn new(x: &V3, s0: &V3, s1: &V3) -> Self {
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
    fn holds(&self, r: &Root) -> bool {
        if sign_at(&self.len2, r) > 0 {
            self.cross.iter().all(|c| sign_at(c, r) == 0)
                && sign_at(&self.dot, r) >= 0
                && sign_at(&self.rest, r) >= 0
        } else {
            self.w.iter().all(|c| sign_at(c, r) == 0)
        }
    }
    fn polys(&self) -> Vec<&Poly> {
        let mut v: Vec<&Poly> = self.cross.iter().chain(self.w.iter()).collect();
        v.extend([&self.dot, &self.rest, &self.len2]);
        v
    }
}

/// `f` must vanish; if `proper` is positive every `ineq` must be `≥ 0`, otherwise some `segs` must hold.
struct Formula {
    f: Poly,
    proper: Poly,
    ineq: Vec<Poly>,
    segs: Vec<OnSegment>,
}

impl Formula {
    fn vertex_face(qr: &Query) -> Self {
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
    fn edge_edge(qr: &Query) -> Self {
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
    fn holds(&self, r: &Root) -> bool {
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
    fn contacts(&self) -> Vec<Root> {
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

// ---------------------------------------------------------------------------------------------------------
// The comparison.

#[derive(Default, Debug)]
struct Tally {
    cases: usize,
    contacts: usize,
    false_positives: usize,
    late_brackets: usize,
    capped: usize,
    iterations: usize,
}

fn run<T: Real>(
    edge_edge: bool,
    qr: &[[[T; 3]; 2]; 4],
    req: &LinearCcdRequest<T>,
) -> LinearCcdResult<T> {
    let [x, y, z, w] = *qr;
    if edge_edge {
        ccd_edge_edge_linear(x, y, z, w, req)
    } else {
        ccd_vertex_face_linear(x, y, z, w, req)
    }
}

/// The exact oracle of a query.
fn formula(edge_edge: bool, qr: &Query) -> Formula {
    if edge_edge {
        Formula::edge_edge(qr)
    } else {
        Formula::vertex_face(qr)
    }
}

fn check(edge_edge: bool, qr: &Query, tally: &mut Tally) {
    let req = LinearCcdRequest::default();
    let res = run(edge_edge, qr, &req);
    let contacts = formula(edge_edge, qr).contacts();
    tally.cases += 1;
    tally.iterations += res.iterations;
    tally.capped += usize::from(res.hit_cap);
    match (res.outcome, contacts.is_empty()) {
        (LinearCcdOutcome::NoContact, false) => {
            let toi = contacts.iter().map(approx).fold(f64::INFINITY, f64::min);
            panic!("false negative (edge_edge = {edge_edge}, first contact ≈ {toi}): {qr:?}");
        }
        (LinearCcdOutcome::NoContact, true) => {}
        (LinearCcdOutcome::Contact { .. }, true) => tally.false_positives += 1,
        (LinearCcdOutcome::Contact { t_lo, t_hi }, false) => {
            tally.contacts += 1;
            assert!(0.0 <= t_lo && t_lo <= t_hi && t_hi <= 1.0, "{t_lo} {t_hi}");
            assert!(
                res.hit_cap || t_hi - t_lo <= req.tolerance,
                "{t_lo} {t_hi}: {qr:?}"
            );
            let (lo, hi) = (q(t_lo), q(t_hi));
            for r in &contacts {
                assert_ne!(
                    cmp_root(&lo, r),
                    Ordering::Greater,
                    "t_lo = {t_lo} after a contact at ≈ {} (edge_edge = {edge_edge}): {qr:?}",
                    approx(r)
                );
            }
            if !contacts.iter().any(|r| cmp_root(&hi, r) != Ordering::Less) {
                tally.late_brackets += 1;
            }
            // A positive separation can only report contact no later.
            let sep = LinearCcdRequest {
                min_separation: 1e-3,
                ..req
            };
            match run(edge_edge, qr, &sep).outcome {
                LinearCcdOutcome::Contact { t_lo: s_lo, .. } => {
                    let s_lo = q(s_lo);
                    assert!(
                        contacts
                            .iter()
                            .all(|r| cmp_root(&s_lo, r) != Ordering::Greater)
                    );
                }
                LinearCcdOutcome::NoContact => panic!("separation lost a contact: {qr:?}"),
            }
        }
    }
}

fn family_run(family: Family, edge_edge: bool, n: usize, seed: u64) -> Tally {
    let mut rng = SplitMix64::new(seed);
    let mut tally = Tally::default();
    for _ in 0..n {
        let qr = query(&mut rng, family, edge_edge);
        check(edge_edge, &qr, &mut tally);
    }
    tally
}

fn report(name: &str, edge_edge: bool, tally: &Tally) {
    let no = tally.cases - tally.contacts;
    println!(
        "{name:>16} {:>2}: {:>5} cases, {:>5} contacts, {:>4} false positives ({:.2} % of non-contacts), \
         {} late brackets, {} capped, {:.1} boxes/query",
        if edge_edge { "EE" } else { "VF" },
        tally.cases,
        tally.contacts,
        tally.false_positives,
        100.0 * tally.false_positives as f64 / no.max(1) as f64,
        tally.late_brackets,
        tally.capped,
        tally.iterations as f64 / tally.cases as f64,
    );
}

/// Per family: zero false negatives, certified `t_lo`, brackets within tolerance; prints the false-positive rate.
fn families(edge_edge: bool, per_family: usize) {
    let start = Instant::now();
    let mut total = Tally::default();
    for (i, family) in Family::ALL.into_iter().enumerate() {
        let tally = family_run(
            family,
            edge_edge,
            per_family,
            0x5eed_0000 + i as u64 + 100 * u64::from(edge_edge),
        );
        report(&format!("{family:?}"), edge_edge, &tally);
        assert_eq!(tally.capped, 0, "{family:?}");
        total.cases += tally.cases;
        total.contacts += tally.contacts;
        total.false_positives += tally.false_positives;
        total.late_brackets += tally.late_brackets;
        total.iterations += tally.iterations;
    }
    report("all", edge_edge, &total);
    println!("({:.1} s)", start.elapsed().as_secs_f64());
}

/// Cases per family in the default run (kept fast in debug builds); the ignored `*_large` tests run 5000.
const PER_FAMILY: usize = 250;

#[test]
fn vertex_face_against_exact_oracle() {
    families(false, PER_FAMILY);
}

#[test]
fn edge_edge_against_exact_oracle() {
    families(true, PER_FAMILY);
}

#[test]
#[ignore = "slow: 5000 cases per family (cargo test --release -- --ignored --nocapture)"]
fn vertex_face_against_exact_oracle_large() {
    families(false, 5000);
}

#[test]
#[ignore = "slow: 5000 cases per family (cargo test --release -- --ignored --nocapture)"]
fn edge_edge_against_exact_oracle_large() {
    families(true, 5000);
}

// ---------------------------------------------------------------------------------------------------------
// Named cases.

fn fixed(p: [f64; 3]) -> [[f64; 3]; 2] {
    [p, p]
}

fn bracket(r: LinearCcdResult<f64>) -> (f64, f64) {
    match r.outcome {
        LinearCcdOutcome::Contact { t_lo, t_hi } => (t_lo, t_hi),
        LinearCcdOutcome::NoContact => panic!("missed contact"),
    }
}

#[test]
fn tunnelling_cases_of_the_seed_are_found() {
    // Jørgensen 2006 (tests AE/AVF, Appendix B) missed both (true TOI 0.33).
    let req = LinearCcdRequest::default();
    let (lo, hi) = bracket(ccd_vertex_face_linear(
        [[0.0, 0.3, 0.1], [10.0, 0.3, 0.1]],
        fixed([3.3, 0.0, -1.0]),
        fixed([3.3, 0.0, 1.0]),
        fixed([3.3, 1.0, 0.0]),
        &req,
    ));
    assert!(
        lo <= 0.33 && 0.33 - lo <= 2e-6 && hi - lo <= 1e-6,
        "{lo} {hi}"
    );
    let (lo, hi) = bracket(ccd_edge_edge_linear(
        [[0.0, 0.0, -1.0], [10.0, 0.0, -1.0]],
        [[0.0, 0.0, 1.0], [10.0, 0.0, 1.0]],
        fixed([3.3, -1.0, 0.0]),
        fixed([3.3, 1.0, 0.0]),
        &req,
    ));
    assert!(
        lo <= 0.33 && 0.33 - lo <= 2e-6 && hi - lo <= 1e-6,
        "{lo} {hi}"
    );
}

#[test]
fn touching_at_the_ends_of_time_and_of_features() {
    let req = LinearCcdRequest::default();
    // Vertex reaches the triangle's vertex b exactly at t = 1.
    let (lo, hi) = bracket(ccd_vertex_face_linear(
        [[1.0, 0.0, 1.0], [1.0, 0.0, 0.0]],
        fixed([0.0, 0.0, 0.0]),
        fixed([1.0, 0.0, 0.0]),
        fixed([0.0, 1.0, 0.0]),
        &req,
    ));
    assert!(hi == 1.0 && 1.0 - lo <= 1e-6);
    // Touching at t = 0, endpoint against endpoint.
    let (lo, _) = bracket(ccd_edge_edge_linear(
        [[0.0, 0.0, 0.0], [0.0, 0.0, 5.0]],
        fixed([-1.0, 0.0, 0.0]),
        [[0.0, 0.0, 0.0], [0.0, 3.0, 0.0]],
        fixed([1.0, 1.0, 1.0]),
        &req,
    ));
    assert_eq!(lo, 0.0);
    // Just missing: the vertex passes 2^-16 outside edge ab.
    let e = 2f64.powi(-16);
    let r = ccd_vertex_face_linear(
        [[0.5, -e, 1.0], [0.5, -e, -1.0]],
        fixed([0.0, 0.0, 0.0]),
        fixed([1.0, 0.0, 0.0]),
        fixed([0.0, 1.0, 0.0]),
        &req,
    );
    assert_eq!(r.outcome, LinearCcdOutcome::NoContact);
    // ... and within min_separation of it.
    let sep = LinearCcdRequest {
        min_separation: 2.0 * e,
        ..req
    };
    let r = ccd_vertex_face_linear(
        [[0.5, -e, 1.0], [0.5, -e, -1.0]],
        fixed([0.0, 0.0, 0.0]),
        fixed([1.0, 0.0, 0.0]),
        fixed([0.0, 1.0, 0.0]),
        &sep,
    );
    assert!(r.is_contact());
}

#[test]
fn f32_agrees_with_the_oracle_on_integer_queries() {
    let mut rng = SplitMix64::new(32);
    for edge_edge in [false, true] {
        for family in [
            Family::Grid,
            Family::Hit,
            Family::CoplanarMotion,
            Family::Sliding,
        ] {
            for _ in 0..200 {
                let qr = query(&mut rng, family, edge_edge);
                let x: [[[f32; 3]; 2]; 4] = qr.map(|t| t.map(|p| p.map(|c| c as f32)));
                let req = LinearCcdRequest::<f32>::default();
                let res = run(edge_edge, &x, &req);
                let contacts = formula(edge_edge, &qr).contacts();
                if let LinearCcdOutcome::Contact { t_lo, .. } = res.outcome {
                    let lo = q(f64::from(t_lo));
                    assert!(
                        contacts
                            .iter()
                            .all(|r| cmp_root(&lo, r) != Ordering::Greater)
                    );
                } else {
                    assert!(contacts.is_empty(), "f32 false negative: {qr:?}");
                }
            }
        }
    }
}

#[test]
fn non_finite_and_odd_requests_never_panic() {
    let nan = [[f64::NAN, 0.0, 0.0], [0.0; 3]];
    let r = ccd_vertex_face_linear(
        nan,
        fixed([0.0; 3]),
        fixed([1.0, 0.0, 0.0]),
        fixed([0.0, 1.0, 0.0]),
        &Default::default(),
    );
    assert_eq!(
        r.outcome,
        LinearCcdOutcome::Contact {
            t_lo: 0.0,
            t_hi: 1.0
        }
    );
    let big = [[1e308, -1e308, 1e308], [-1e308, 1e308, -1e308]];
    let _ = ccd_edge_edge_linear(
        big,
        fixed([0.0; 3]),
        big,
        fixed([1.0; 3]),
        &Default::default(),
    );
    let capped = LinearCcdRequest {
        max_iterations: 3,
        tolerance: 0.0,
        min_separation: -1.0,
    };
    let r = ccd_edge_edge_linear(
        fixed([0.0; 3]),
        fixed([1.0, 0.0, 0.0]),
        fixed([0.0; 3]),
        fixed([0.0, 1.0, 0.0]),
        &capped,
    );
    assert!(r.hit_cap && r.is_contact() && r.iterations == 3);
}

// ---------------------------------------------------------------------------------------------------------
// Cases aimed at the branches of the coplanarity-cubic path.

/// The oracle's check on one query (no false negative, certified `t_lo`, bracket width); returns the result
/// and whether the exact oracle finds a contact.
fn oracle_case(edge_edge: bool, qr: &Query) -> (LinearCcdResult<f64>, bool) {
    let mut tally = Tally::default();
    check(edge_edge, qr, &mut tally);
    let res = run(edge_edge, qr, &LinearCcdRequest::default());
    (res, tally.contacts == 1)
}

#[test]
fn scaled_queries_leave_the_float_filter_range() {
    // Scaling every coordinate by a power of two keeps the queries exact and their contact times, but puts
    // the differences outside the cubic filter's range guard (2^±300), so its interval fallback is used
    // (2^±310), or the cubic underflows or overflows and is not used at all (2^-600, 2^400).
    let mut rng = SplitMix64::new(0x5ca1e);
    for edge_edge in [false, true] {
        for family in [
            Family::Hit,
            Family::NearMiss,
            Family::NearMissTiny,
            Family::ContactAtEnd,
            Family::Grid,
            Family::Sliding,
        ] {
            let mut tally = Tally::default();
            for i in 0..60 {
                let s = [
                    2f64.powi(-310),
                    2f64.powi(310),
                    2f64.powi(-600),
                    2f64.powi(400),
                ][i % 4];
                let qr = query(&mut rng, family, edge_edge).map(|t| t.map(|p| p.map(|c| c * s)));
                check(edge_edge, &qr, &mut tally);
            }
            assert_eq!(tally.capped, 0, "{family:?}");
        }
    }
}

#[test]
fn f32_scaled_queries_agree_with_the_oracle() {
    // f32 at extreme magnitudes (its cubic is computed in f64, where f32 input always meets the guard).
    let mut rng = SplitMix64::new(0x32_5ca1e);
    for edge_edge in [false, true] {
        for family in [Family::Grid, Family::Hit, Family::Sliding] {
            for i in 0..100 {
                let s = [2f64.powi(-36), 2f64.powi(34), 1.0][i % 3];
                let qr = query(&mut rng, family, edge_edge).map(|t| t.map(|p| p.map(|c| c * s)));
                let x: [[[f32; 3]; 2]; 4] = qr.map(|t| t.map(|p| p.map(|c| c as f32)));
                let req = LinearCcdRequest::<f32>::default();
                let res = run(edge_edge, &x, &req);
                let contacts = formula(edge_edge, &qr).contacts();
                match res.outcome {
                    LinearCcdOutcome::Contact { t_lo, t_hi } => {
                        let lo = q(f64::from(t_lo));
                        assert!(
                            contacts
                                .iter()
                                .all(|r| cmp_root(&lo, r) != Ordering::Greater),
                            "f32 t_lo after a contact: {qr:?}"
                        );
                        assert!(res.hit_cap || t_hi - t_lo <= req.tolerance);
                    }
                    LinearCcdOutcome::NoContact => {
                        assert!(contacts.is_empty(), "f32 false negative: {qr:?}")
                    }
                }
            }
        }
    }
}

#[test]
fn double_root_of_the_coplanarity_cubic() {
    // a, b static on the x axis, c = (0, 1, 2t − 1): the plane's normal turns. The vertex (x, 1 − 2t, 0) is in
    // that plane only at t = 1/2 (the cubic is (2t − 1)² up to a factor, a double root), on line ab.
    let tri = [
        fixed([0.0, 0.0, 0.0]),
        fixed([1.0, 0.0, 0.0]),
        [[0.0, 1.0, -1.0], [0.0, 1.0, 1.0]],
    ];
    let on_edge: Query = [
        [[0.25, 1.0, 0.0], [0.25, -1.0, 0.0]],
        tri[0],
        tri[1],
        tri[2],
    ];
    let (res, exact) = oracle_case(false, &on_edge);
    assert!(exact && res.is_contact());
    let (lo, hi) = bracket(res);
    assert!(
        lo <= 0.5 && 0.5 - lo <= 2e-6 && hi - lo <= 1e-6,
        "{lo} {hi}"
    );
    // Past the end of the edge: no contact, and it is found.
    let beyond: Query = [
        [[1.25, 1.0, 0.0], [1.25, -1.0, 0.0]],
        tri[0],
        tri[1],
        tri[2],
    ];
    let (res, exact) = oracle_case(false, &beyond);
    assert!(!exact);
    assert_eq!(res.outcome, LinearCcdOutcome::NoContact);
}

#[test]
fn crossings_on_and_just_off_a_side() {
    // The vertex crosses the plane z = 0 at t = 3/8 exactly on edge ab (y = 0), then 2^-36 outside it.
    let tri = [
        fixed([0.0, 0.0, 0.0]),
        fixed([1.0, 0.0, 0.0]),
        fixed([0.0, 1.0, 0.0]),
    ];
    for (y, contact) in [(0.0, true), (-(2f64.powi(-36)), false)] {
        let qr: Query = [[[0.5, y, 3.0], [0.5, y, -5.0]], tri[0], tri[1], tri[2]];
        let (res, exact) = oracle_case(false, &qr);
        assert_eq!(exact, contact);
        assert_eq!(res.is_contact(), contact, "{y}");
    }
    // Edge–edge: p crosses q's end point q1 = (1, 0, 0), then passes 2^-36 beyond it.
    for (x, contact) in [(1.0, true), (1.0 + 2f64.powi(-36), false)] {
        let qr: Query = [
            [[x, -1.0, 3.0], [x, -1.0, -5.0]],
            [[x, 1.0, 3.0], [x, 1.0, -5.0]],
            fixed([0.0, 0.0, 0.0]),
            fixed([1.0, 0.0, 0.0]),
        ];
        let (res, exact) = oracle_case(true, &qr);
        assert_eq!(exact, contact);
        assert_eq!(res.is_contact(), contact, "{x}");
    }
}

#[test]
fn nearly_parallel_edges_crossing() {
    // Edges at an angle of about 2^-11 crossing at (1/2, 0, 0) at t = 1/2 (then shifted along x so that they
    // pass at about 2^-13): the floating-point (u, v) guess is not trusted and all directions decide.
    let s = 2f64.powi(-12);
    for (shift, contact) in [(0.0, true), (0.75, false)] {
        let qr: Query = [
            [[shift, 0.0, 1.0], [shift, 0.0, -1.0]],
            [[shift + 1.0, 0.0, 1.0], [shift + 1.0, 0.0, -1.0]],
            fixed([0.0, -s, 0.0]),
            fixed([1.0, s, 0.0]),
        ];
        let (res, exact) = oracle_case(true, &qr);
        assert_eq!(exact, contact);
        assert_eq!(res.is_contact(), contact);
    }
}

#[test]
fn parallel_planes_are_excluded_by_the_cubic() {
    // The vertex slides parallel to the tilted plane z = x of the triangle, 2^-20 above it: the cubic is a
    // non-zero constant, while every coordinate range overlaps.
    let h = 2f64.powi(-20);
    let qr: Query = [
        [[-3.0, 0.25, -3.0 + h], [3.0, 0.25, 3.0 + h]],
        fixed([0.0, 0.0, 0.0]),
        fixed([1.0, 0.0, 1.0]),
        fixed([0.0, 1.0, 0.0]),
    ];
    let (res, exact) = oracle_case(false, &qr);
    assert!(!exact);
    assert_eq!(res.outcome, LinearCcdOutcome::NoContact);
    assert_eq!(res.iterations, 1);
}

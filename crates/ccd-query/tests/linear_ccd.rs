//! Linear-trajectory vertex–face and edge–edge CCD against an exact rational oracle (`linear_ccd_oracle/`:
//! exact polynomial contact formulas, Sturm root isolation, exact comparison of each bracket with the first
//! contact time).

use std::cmp::Ordering;
use std::time::Instant;

use ccd_interval::Real;
use ccd_query::primitive::{
    LinearCcdOutcome, LinearCcdRequest, LinearCcdResult, ccd_edge_edge_linear,
    ccd_vertex_face_linear,
};
use ccd_testkit::SplitMix64;
use ccd_testkit::linear_ccd::{Family, Query, query};

mod linear_ccd_oracle;

use linear_ccd_oracle::{Formula, approx, cmp_root, q};
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

//! Bounded cost of `time_of_impact`: fast spins about close origins are decided without splitting time (radial
//! shells), and a scene that needs more work than the budget answers `Undecided` with a certified `t_lo`.

use ccd_bv::Obb;
use ccd_bvh::{BuildOptions, Bvh};
use ccd_query::ccd_motion::{ConstantRotationTranslation, Motion, Static};
use ccd_query::{CollideRequest, ToiBudget, ToiOutcome, ToiRequest, collide, time_of_impact};
use ccd_testkit::icosphere;
use nalgebra::{Isometry3, Unit, Vector3};

type Tree = Bvh<f64, Obb<f64>>;

fn sphere(level: u32, radius: f64) -> Tree {
    let m = icosphere(level, radius);
    Bvh::build(m.vertices, &m.triangles, &BuildOptions::default()).expect("valid mesh")
}

fn spin(
    at: [f64; 3],
    axis: [f64; 3],
    angle: f64,
    by: [f64; 3],
) -> ConstantRotationTranslation<f64> {
    ConstantRotationTranslation::new(
        Isometry3::translation(at[0], at[1], at[2]),
        Unit::new_normalize(Vector3::from(axis)),
        angle,
        Vector3::from(by),
    )
}

/// The first of `n + 1` evenly spaced times at which the exact discrete test finds contact.
fn first_sampled_contact(
    a: &Tree,
    ma: &dyn Motion<f64>,
    b: &Tree,
    mb: &dyn Motion<f64>,
    n: u32,
) -> Option<f64> {
    (0..=n).map(|i| f64::from(i) / f64::from(n)).find(|&t| {
        collide(a, &ma.pose(t), b, &mb.pose(t), &CollideRequest::first())
            .expect("in range")
            .is_colliding()
    })
}

/// Two 1,280-triangle icospheres nested 1.5 % apart, spinning opposite ways about their common centre, never
/// touch: decided with no time split at all (the volume tests are those of the discrete check at t = 0 and the
/// root pair), whatever the speed. The same scene took 26.5 M / 106.5 M / 284 M volume tests at 5 / 20 / 50 rad
/// before the shells.
#[test]
fn nested_spinning_spheres_are_decided_without_the_budget() {
    let (a, b) = (sphere(3, 1.0), sphere(3, 1.015));
    let mut tests = Vec::new();
    for w in [5.0, 20.0, 50.0, 4000.0] {
        let ma = spin([0.0; 3], [1.0, 0.0, 0.0], w, [0.0; 3]);
        let mb = spin([0.0; 3], [0.0, 1.0, 1.0], -w, [0.0; 3]);
        let r = time_of_impact(&a, &ma, &b, &mb, &ToiRequest::default()).expect("in range");
        assert_eq!(r.outcome, ToiOutcome::NoContact, "{w} rad");
        assert_eq!(r.stats.queue_pushes, 1, "{w} rad: the root pair alone");
        tests.push(r.stats.bv_tests);
    }
    assert!(tests.iter().all(|&t| t == tests[0]), "{tests:?}");
    // The shells are certificates, not a shortcut: an inner sphere whose vertices (radius 1.014) reach past the
    // outer sphere's faces (which sag to about 1.0128) touches it, and that contact is found.
    let inner = sphere(3, 1.014);
    let ma = spin([0.0; 3], [1.0, 0.0, 0.0], 5.0, [0.0; 3]);
    let mb = spin([0.0; 3], [0.0, 1.0, 1.0], -5.0, [0.0; 3]);
    let sampled = first_sampled_contact(&inner, &ma, &b, &mb, 200);
    let r = time_of_impact(&inner, &ma, &b, &mb, &ToiRequest::default()).expect("in range");
    match (sampled, r.toi()) {
        (Some(s), Some(t)) => assert!(t.t_lo <= s, "t_lo {} after the sampled contact {s}", t.t_lo),
        (Some(s), None) => panic!("missed the sampled contact at {s}: {:?}", r.outcome),
        (None, _) => panic!("the scene was meant to touch"),
    }
}

/// Two spheres side by side, B spinning fast about its own centre while drifting towards A: far more time splits
/// than a small budget allows. The query answers `Undecided`, its `t_lo` is no later than the first sampled
/// contact, and an unlimited query finds the contact no earlier than that `t_lo`.
#[test]
fn exhausted_budget_is_undecided_with_a_certified_t_lo() {
    let (a, b) = (sphere(2, 1.0), sphere(2, 1.0));
    let ma = Static::new(Isometry3::identity());
    let mb = spin([2.3, 0.0, 0.0], [0.3, 1.0, 0.2], 300.0, [-0.4, 0.0, 0.0]);
    let small = ToiRequest {
        budget: ToiBudget {
            volume_tests: 20_000,
            primitive_tests: 2_000,
        },
        ..ToiRequest::default()
    };
    let r = time_of_impact(&a, &ma, &b, &mb, &small).expect("in range");
    let ToiOutcome::Undecided { t_lo, .. } = r.outcome else {
        panic!(
            "expected undecided, got {:?} after {:?}",
            r.outcome, r.stats
        )
    };
    assert!(r.is_undecided() && r.toi().is_none() && r.t_lo() == Some(t_lo));
    assert!((0.0..1.0).contains(&t_lo), "{t_lo}");
    // Bounded overshoot: one entry (a leaf pair examines at most max_iterations boxes) past the budget.
    assert!(r.stats.bv_tests <= 20_001 + 1, "{:?}", r.stats);
    let first = first_sampled_contact(&a, &ma, &b, &mb, 2000).expect("they meet");
    assert!(
        t_lo <= first,
        "undecided t_lo {t_lo} after the sampled contact {first}"
    );
    let full = ToiRequest {
        budget: ToiBudget::UNLIMITED,
        ..ToiRequest::default()
    };
    let r = time_of_impact(&a, &ma, &b, &mb, &full).expect("in range");
    let toi = r
        .toi()
        .unwrap_or_else(|| panic!("no contact: {:?}", r.outcome));
    assert!(
        toi.t_lo <= first && toi.t_lo >= t_lo,
        "{} vs [{t_lo}, {first}]",
        toi.t_lo
    );
}

/// Requests and motions outside the supported range are refused before any work, naming the field.
#[test]
fn out_of_range_requests_and_motions_are_refused() {
    let a = sphere(1, 1.0);
    let ma = Static::new(Isometry3::identity());
    let mb = spin([3.0, 0.0, 0.0], [0.0, 0.0, 1.0], 1e6, [-6.0, 0.0, 0.0]);
    let e = time_of_impact(&a, &ma, &a, &mb, &ToiRequest::default()).unwrap_err();
    assert!(
        e.to_string().starts_with("motion of model b: angle = 1e6"),
        "{e}"
    );
    let mb = spin([3.0, 0.0, 0.0], [0.0, 0.0, 1.0], 1.0, [-6.0, 0.0, 0.0]);
    for (request, field) in [
        (
            ToiRequest {
                t_max: 1.5,
                ..ToiRequest::default()
            },
            "request t_max",
        ),
        (
            ToiRequest {
                tolerance: f64::NAN,
                ..ToiRequest::default()
            },
            "request tolerance",
        ),
        (
            ToiRequest {
                min_separation: -1.0,
                ..ToiRequest::default()
            },
            "request min_separation",
        ),
        (
            ToiRequest {
                max_iterations: 0,
                ..ToiRequest::default()
            },
            "request max_iterations",
        ),
        (
            ToiRequest {
                budget: ToiBudget {
                    volume_tests: 0,
                    primitive_tests: 1,
                },
                ..ToiRequest::default()
            },
            "request budget.volume_tests",
        ),
    ] {
        let e = time_of_impact(&a, &ma, &a, &mb, &request).unwrap_err();
        assert!(e.to_string().starts_with(field), "{e}");
    }
}

//! Rotation inputs that should be unit (quaternions of poses, axes of `Screw` and `ConstantRotationTranslation`,
//! `Unit::new_unchecked` values included) at `time_of_impact` (issue 12: a norm-0.1 quaternion in an `Interp` used
//! to make the query spin). Beyond the unit tolerance of `ccd_interval::limits` (`|‖q‖ − 1| ≤ 2⁻²⁰` in `f64`) the
//! query refuses them with a `RangeError` naming the motion and the part; within it they are normalised and give
//! the answer of the normalised input, with the same work counters.

use ccd_bv::Obb;
use ccd_bvh::{BuildOptions, Bvh};
use ccd_motion::{ConstantRotationTranslation, Interp, Motion, Screw, Static, Translation};
use ccd_query::{ToiRequest, ToiResult, time_of_impact};
use ccd_testkit::tetrahedron;
use nalgebra::{Isometry3, Point3, Quaternion, Translation3, Unit, UnitQuaternion, Vector3};

type Tree = Bvh<f64, Obb<f64>>;

fn tree() -> Tree {
    let m = tetrahedron();
    Bvh::build(m.vertices.clone(), &m.triangles, &BuildOptions::default()).unwrap()
}

/// The motions of the test, each using the rotation `q` (of a pose) or the axis `axis`, as given (unchecked);
/// names ending in "axis" use the axis.
fn motions(
    q: UnitQuaternion<f64>,
    axis: Unit<Vector3<f64>>,
) -> Vec<(&'static str, Box<dyn Motion<f64>>)> {
    let at = |x: f64| Isometry3::from_parts(Translation3::new(x, 0.0, 0.0), q);
    let (start, end) = (
        Isometry3::translation(3.0, 0.0, 0.0),
        Isometry3::translation(-3.0, 0.0, 0.0),
    );
    let d = Vector3::new(-6.0, 0.0, 0.0);
    vec![
        ("Interp start", Box::new(Interp::new(at(3.0), end))),
        ("Interp end", Box::new(Interp::new(start, at(-3.0)))),
        ("Translation", Box::new(Translation::new(at(3.0), d))),
        ("Static", Box::new(Static::new(at(0.5)))),
        (
            "Screw axis",
            Box::new(Screw::new(start, axis, Point3::origin(), 1.0, -6.0)),
        ),
        (
            "Screw start",
            Box::new(Screw::new(
                at(3.0),
                Vector3::x_axis(),
                Point3::origin(),
                1.0,
                -6.0,
            )),
        ),
        (
            "CRT axis",
            Box::new(ConstantRotationTranslation::new(start, axis, 1.0, d)),
        ),
        (
            "CRT start",
            Box::new(ConstantRotationTranslation::new(
                at(3.0),
                Vector3::x_axis(),
                1.0,
                d,
            )),
        ),
    ]
}

fn run(t: &Tree, m: &dyn Motion<f64>) -> Result<ToiResult<f64>, ccd_bv::RangeError> {
    time_of_impact(
        t,
        &Static::new(Isometry3::identity()),
        t,
        m,
        &ToiRequest::default(),
    )
}

#[test]
fn non_unit_rotations_are_refused() {
    let t = tree();
    let short = UnitQuaternion::new_unchecked(Quaternion::new(0.1, 0.0, 0.0, 0.0));
    let long = Unit::new_unchecked(Vector3::new(2.0, 0.0, 0.0));
    // Each motion gets one bad part: the quaternion of its pose, or its axis.
    let bad_q = motions(short, Vector3::x_axis())
        .into_iter()
        .filter(|(n, _)| !n.ends_with("axis"));
    let bad_axis = motions(UnitQuaternion::identity(), long)
        .into_iter()
        .filter(|(n, _)| n.ends_with("axis"));
    let cases = bad_q.map(|(n, m)| (n, m, "rotation quaternion norm", 0.1));
    let cases = cases.chain(bad_axis.map(|(n, m)| (n, m, "axis norm", 2.0)));
    let mut count = 0;
    for (name, m, what, value) in cases {
        let e = run(&t, &*m).expect_err(name);
        assert!(
            e.what.starts_with("motion of model b") && e.what.ends_with(what),
            "{name}: {e}"
        );
        assert_eq!(e.value, value, "{name}: {e}");
        assert!(m.check_range().is_err(), "{name}: check_range accepts it");
        count += 1;
    }
    assert_eq!(count, 8);
}

#[test]
fn nearly_unit_rotations_give_the_normalised_answer() {
    let t = tree();
    // 2^-21 off unit: inside the f64 unit tolerance 2^-20.
    let off = 1.0 + 2f64.powi(-21);
    let q = UnitQuaternion::new_unchecked(Quaternion::new(off, 0.0, 0.0, 0.0));
    let axis = Unit::new_unchecked(Vector3::new(off, 0.0, 0.0));
    let nearly = motions(q, axis);
    let unit = motions(UnitQuaternion::identity(), Vector3::x_axis());
    let budget = ToiRequest::<f64>::default().budget;
    for ((name, m), (_, u)) in nearly.iter().zip(&unit) {
        let (r, ru) = (run(&t, &**m).expect(name), run(&t, &**u).expect(name));
        println!("{name:<13} {:?} {:?}", r.t_lo(), r.stats);
        assert!(
            !r.is_undecided() && r.stats.bv_tests <= budget.volume_tests,
            "{name}: {:?}",
            r.stats
        );
        match (r.toi(), ru.toi()) {
            (Some(a), Some(b)) => assert!(
                a.t_lo <= b.t_hi + 1e-12 && b.t_lo <= a.t_hi + 1e-12,
                "{name}: [{}, {}] vs normalised [{}, {}]",
                a.t_lo,
                a.t_hi,
                b.t_lo,
                b.t_hi
            ),
            (a, b) => assert_eq!(
                a.is_some(),
                b.is_some(),
                "{name}: {a:?} vs normalised {b:?}"
            ),
        }
    }
}

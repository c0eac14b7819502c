//! Eberly's constant-velocity tests (`ccd_bv::moving`) on the oracles of
//! configurations worked by hand from Eberly's formulas: known first times of contact and contact sets.

mod common;
mod moving_oracle;

use ccd_bv::Obb;
use ccd_bv::moving::{
    ContactSet, MovingContact, moving_obb_obb, moving_triangle_obb, moving_triangle_triangle,
};
use ccd_bv::nalgebra::{Matrix3, Rotation3};
use common::Rng;
use moving_oracle::*;

// ---------------------------------------------------------------------------
// Moving boxes (Eberly §2.2.2, §2.3).

#[test]
fn t1_face_face() {
    let r = moving_obb_obb(
        &cube(V::zeros()),
        &V::zeros(),
        &cube(v(5.0, 0.5, 0.5)),
        &v(-2.0, 0.0, 0.0),
        2.0,
    );
    let (t, c) = touching(&r);
    assert!(t <= 1.5 && 1.5 - t < 1e-12, "{t}");
    let want = [
        v(1.0, -0.5, -0.5),
        v(1.0, 1.0, -0.5),
        v(1.0, 1.0, 1.0),
        v(1.0, -0.5, 1.0),
    ];
    assert!(
        matches!(c, ContactSet::Polygon(_)) && same_points(c, &want, 1e-9),
        "{c:?}"
    );
    let r = moving_obb_obb(
        &cube(V::zeros()),
        &V::zeros(),
        &cube(v(5.0, 0.5, 0.5)),
        &v(-2.0, 0.0, 0.0),
        1.0,
    );
    assert_eq!(r, MovingContact::Separated);
}

#[test]
fn t2_head_on_both_moving() {
    let r = moving_obb_obb(
        &cube(V::zeros()),
        &v(1.0, 0.0, 0.0),
        &cube(v(10.0, 0.0, 0.0)),
        &v(-1.0, 0.0, 0.0),
        10.0,
    );
    let (t, c) = touching(&r);
    assert!(t <= 4.0 && 4.0 - t < 1e-12, "{t}");
    let want = [
        v(5.0, -1.0, -1.0),
        v(5.0, 1.0, -1.0),
        v(5.0, 1.0, 1.0),
        v(5.0, -1.0, 1.0),
    ];
    assert!(same_points(c, &want, 1e-9), "{c:?}");
}

/// The two boxes of S-2 / T-3: A is Rz(45°), B is Ry(45°) at `(d, 0, 0)`.
fn s2(d: f64) -> (Obb<f64>, Obb<f64>) {
    let s = std::f64::consts::FRAC_1_SQRT_2;
    let a = Matrix3::from_columns(&[v(s, s, 0.0), v(-s, s, 0.0), v(0.0, 0.0, 1.0)]);
    let b = Matrix3::from_columns(&[v(s, 0.0, -s), v(0.0, 1.0, 0.0), v(s, 0.0, s)]);
    (
        obb(&a, V::zeros(), [1.0; 3]),
        obb(&b, v(d, 0.0, 0.0), [1.0; 3]),
    )
}

#[test]
fn s2_static_needs_a_cross_axis() {
    let (a, b) = s2(2.8);
    assert_eq!(
        moving_obb_obb(&a, &V::zeros(), &b, &V::zeros(), 1.0),
        MovingContact::OverlappingAtStart
    );
    let (a, b) = s2(2.9);
    assert_eq!(
        moving_obb_obb(&a, &V::zeros(), &b, &V::zeros(), 1.0),
        MovingContact::Separated
    );
}

#[test]
fn t3_edge_edge() {
    let (a, b) = s2(5.0);
    let r = moving_obb_obb(&a, &V::zeros(), &b, &v(-1.0, 0.0, 0.0), 5.0);
    let (t, c) = touching(&r);
    let want = 5.0 - 2.0 * 2f64.sqrt();
    assert!(t <= want && want - t < 1e-12, "{t}");
    assert!(
        matches!(c, ContactSet::Point(_)) && same_points(c, &[v(2f64.sqrt(), 0.0, 0.0)], 1e-9),
        "{c:?}"
    );
}

#[test]
fn t4_vertex_face() {
    let rot = Rotation3::rotation_between(&v(1.0, 1.0, 1.0), &v(-1.0, 0.0, 0.0)).unwrap();
    let b = obb(rot.matrix(), v(5.0, 0.0, 0.0), [1.0; 3]);
    let r = moving_obb_obb(&cube(V::zeros()), &V::zeros(), &b, &v(-1.0, 0.0, 0.0), 5.0);
    let (t, c) = touching(&r);
    let want = 4.0 - 3f64.sqrt();
    assert!(t <= want && want - t < 1e-12, "{t}");
    assert!(
        matches!(c, ContactSet::Point(_)) && same_points(c, &[v(1.0, 0.0, 0.0)], 1e-9),
        "{c:?}"
    );
}

#[test]
fn t5_corner_pass_by_is_a_miss() {
    let r = moving_obb_obb(
        &cube(V::zeros()),
        &V::zeros(),
        &cube(v(-3.0, 1.5, 0.0)),
        &v(4.5, 4.5, 0.0),
        1.0,
    );
    assert_eq!(r, MovingContact::Separated);
}

#[test]
fn t6_misses_and_static() {
    let a = cube(V::zeros());
    let z = V::zeros();
    assert_eq!(
        moving_obb_obb(&a, &z, &cube(v(3.0, 0.0, 0.0)), &v(1.0, 0.0, 0.0), 10.0),
        MovingContact::Separated
    );
    assert_eq!(
        moving_obb_obb(&a, &z, &cube(v(0.0, 5.0, 0.0)), &v(1.0, 0.0, 0.0), 10.0),
        MovingContact::Separated
    );
    // S-1 with zero velocity.
    assert_eq!(
        moving_obb_obb(&a, &z, &cube(v(2.5, 0.0, 0.0)), &z, 1.0),
        MovingContact::Separated
    );
    assert_eq!(
        moving_obb_obb(&a, &z, &cube(v(1.9, 0.0, 0.0)), &z, 1.0),
        MovingContact::OverlappingAtStart
    );
}

#[test]
fn t7_tunnelling_thin_box() {
    let a = obb(&Matrix3::identity(), V::zeros(), [0.01, 1.0, 1.0]);
    let b = obb(&Matrix3::identity(), v(-5.0, 0.0, 0.0), [0.1; 3]);
    let vb = v(10.0, 0.0, 0.0);
    // Point sampling at the ends misses it.
    assert!(sat_first(&a, &V::zeros(), &b, &vb, 1.0, 1).is_none());
    let res = moving_obb_obb(&a, &V::zeros(), &b, &vb, 1.0);
    let (t, c) = touching(&res);
    assert!(t <= 0.489 && 0.489 - t < 1e-12, "{t}");
    let want = [
        v(-0.01, -0.1, -0.1),
        v(-0.01, 0.1, -0.1),
        v(-0.01, 0.1, 0.1),
        v(-0.01, -0.1, 0.1),
    ];
    assert!(same_points(c, &want, 1e-9), "{c:?}");
}

#[test]
fn t8_overlapping_at_start() {
    for vel in [v(0.0, 0.0, 0.0), v(1.0, 2.0, 3.0), v(-7.0, 0.0, 0.0)] {
        let r = moving_obb_obb(
            &cube(V::zeros()),
            &V::zeros(),
            &cube(v(1.0, 0.0, 0.0)),
            &vel,
            1.0,
        );
        assert_eq!(r, MovingContact::OverlappingAtStart);
        assert_eq!(r.time(), Some(0.0));
    }
}

#[test]
fn negative_interval_is_empty() {
    let r = moving_obb_obb(
        &cube(V::zeros()),
        &V::zeros(),
        &cube(v(1.0, 0.0, 0.0)),
        &V::zeros(),
        -1.0,
    );
    assert_eq!(r, MovingContact::Separated);
}

// ---------------------------------------------------------------------------
// Triangle–box (Eberly §3.2.2, §3.3).

fn tb1_triangle() -> [[f64; 3]; 3] {
    tri([v(-5.0, -5.0, 0.0), v(5.0, -5.0, 0.0), v(0.0, 5.0, 0.0)])
}

#[test]
fn tb1_tb2_static() {
    let z = V::zeros();
    let t = tb1_triangle();
    assert_eq!(
        moving_triangle_obb(&t, &z, &cube(v(0.0, 0.0, 1.5)), &z, 1.0),
        MovingContact::Separated
    );
    assert_eq!(
        moving_triangle_obb(&t, &z, &cube(v(0.0, 0.0, 0.5)), &z, 1.0),
        MovingContact::OverlappingAtStart
    );
    let s = std::f64::consts::FRAC_1_SQRT_2;
    let rz = Matrix3::from_columns(&[v(s, s, 0.0), v(-s, s, 0.0), v(0.0, 0.0, 1.0)]);
    let b = obb(&rz, z, [1.0; 3]);
    let t = |p: f64| tri([v(p, -1.0, 0.0), v(p, 1.0, 0.0), v(p + 1.0, 0.0, 0.0)]);
    assert_eq!(
        moving_triangle_obb(&t(1.4), &z, &b, &z, 1.0),
        MovingContact::OverlappingAtStart
    );
    assert_eq!(
        moving_triangle_obb(&t(1.5), &z, &b, &z, 1.0),
        MovingContact::Separated
    );
}

#[test]
fn tb3_face_face() {
    let r = moving_triangle_obb(
        &tb1_triangle(),
        &V::zeros(),
        &cube(v(0.0, 0.0, 3.0)),
        &v(0.0, 0.0, -1.0),
        5.0,
    );
    let (t, c) = touching(&r);
    assert!(t <= 2.0 && 2.0 - t < 1e-12, "{t}");
    let want = [
        v(-1.0, -1.0, 0.0),
        v(1.0, -1.0, 0.0),
        v(1.0, 1.0, 0.0),
        v(-1.0, 1.0, 0.0),
    ];
    assert!(same_points(c, &want, 1e-9), "{c:?}");
}

#[test]
fn tb4_vertex_face() {
    let t = tri([v(0.0, 0.0, 3.0), v(-1.0, 0.0, 5.0), v(1.0, 0.5, 5.0)]);
    let r = moving_triangle_obb(&t, &v(0.0, 0.0, -1.0), &cube(V::zeros()), &V::zeros(), 5.0);
    let (time, c) = touching(&r);
    assert!(time <= 2.0 && 2.0 - time < 1e-12, "{time}");
    assert!(same_points(c, &[v(0.0, 0.0, 1.0)], 1e-9), "{c:?}");
}

// ---------------------------------------------------------------------------
// Triangle–triangle (Eberly §4.2.2, §4.3).

fn tt_u() -> [[f64; 3]; 3] {
    tri([v(0.0, 0.0, 0.0), v(2.0, 0.0, 0.0), v(0.0, 2.0, 0.0)])
}

fn tt_static(a: &[[f64; 3]; 3], b: &[[f64; 3]; 3]) -> MovingContact<f64> {
    moving_triangle_triangle(a, &V::zeros(), b, &V::zeros(), 1.0)
}

#[test]
fn tt1_to_tt5_static() {
    let u = tt_u();
    let pierce = tri([v(0.5, 0.5, -1.0), v(0.5, 0.5, 1.0), v(3.0, 0.5, 0.0)]);
    assert_eq!(tt_static(&u, &pierce), MovingContact::OverlappingAtStart);
    let lifted = u.map(|p| [p[0], p[1], p[2] + 1.0]);
    assert_eq!(tt_static(&u, &lifted), MovingContact::Separated);
    let coplanar = tri([v(0.5, 0.5, 0.0), v(3.0, 0.5, 0.0), v(0.5, 3.0, 0.0)]);
    assert_eq!(tt_static(&u, &coplanar), MovingContact::OverlappingAtStart);
    let apart = tri([v(2.0, 2.0, 0.0), v(3.0, 2.0, 0.0), v(2.0, 3.0, 0.0)]);
    assert_eq!(tt_static(&u, &apart), MovingContact::Separated);
    let u5 = tri([v(0.0, -1.0, 0.0), v(0.0, 1.0, 0.0), v(-1.0, 0.0, 0.0)]);
    let v5 = |q: f64| tri([v(q, 0.0, -1.0), v(q, 0.0, 1.0), v(q + 1.0, 0.0, 0.0)]);
    assert_eq!(tt_static(&u5, &v5(-0.1)), MovingContact::OverlappingAtStart);
    assert_eq!(tt_static(&u5, &v5(0.1)), MovingContact::Separated);
}

#[test]
fn tt4_coplanar_vertex_on_edge() {
    let apart = tri([v(2.0, 2.0, 0.0), v(3.0, 2.0, 0.0), v(2.0, 3.0, 0.0)]);
    let r = moving_triangle_triangle(&tt_u(), &V::zeros(), &apart, &v(-1.0, -1.0, 0.0), 2.0);
    let (t, c) = touching(&r);
    assert!(t <= 1.0 && 1.0 - t < 1e-12, "{t}");
    assert!(same_points(c, &[v(1.0, 1.0, 0.0)], 1e-9), "{c:?}");
}

#[test]
fn tt6_vertex_face() {
    let b = tri([v(0.5, 0.5, 2.0), v(0.5, 0.5, 4.0), v(3.0, 0.5, 3.0)]);
    let r = moving_triangle_triangle(&tt_u(), &V::zeros(), &b, &v(0.0, 0.0, -1.0), 5.0);
    let (t, c) = touching(&r);
    assert!(t <= 2.0 && 2.0 - t < 1e-12, "{t}");
    assert!(same_points(c, &[v(0.5, 0.5, 0.0)], 1e-9), "{c:?}");
}

#[test]
fn tt7_rotated_coplanar_verdicts_hold() {
    let mut rng = Rng::new(77);
    let rot_tri = |r: &Matrix3<f64>, t: [[f64; 3]; 3]| {
        t.map(|p| {
            let q = r * V::from(p);
            [q.x, q.y, q.z]
        })
    };
    let coplanar = tri([v(0.5, 0.5, 0.0), v(3.0, 0.5, 0.0), v(0.5, 3.0, 0.0)]);
    let apart = tri([v(2.0, 2.0, 0.0), v(3.0, 2.0, 0.0), v(2.0, 3.0, 0.0)]);
    for _ in 0..2000 {
        let r = rng.rotation();
        let u = rot_tri(&r, tt_u());
        assert_eq!(
            tt_static(&u, &rot_tri(&r, coplanar)),
            MovingContact::OverlappingAtStart
        );
        let w = r * v(-1.0, -1.0, 0.0);
        let res = moving_triangle_triangle(&u, &V::zeros(), &rot_tri(&r, apart), &w, 2.0);
        let (t, c) = touching(&res);
        assert!(t <= 1.0 + 1e-15 && 1.0 - t < 1e-9, "{t}");
        assert!(same_points(c, &[r * v(1.0, 1.0, 0.0)], 1e-6), "{c:?}");
        // Still apart without the motion.
        let far = rot_tri(
            &r,
            tri([v(2.1, 2.1, 0.0), v(3.0, 2.1, 0.0), v(2.1, 3.0, 0.0)]),
        );
        assert_eq!(tt_static(&u, &far), MovingContact::Separated);
    }
}

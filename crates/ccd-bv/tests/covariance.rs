//! Covariance closed forms and their invariances (Gottschalk 2000,
//! §3.4: against sampling, known values, invariances).

mod common;

use ccd_bv::fit::{point_covariance, principal_axes, triangle_covariance};
use ccd_bv::nalgebra::{Matrix3, Vector3};
use common::{Rng, arr};
use proptest::prelude::*;

/// The unit cube's surface as 12 triangles.
pub fn cube() -> (Vec<[f64; 3]>, Vec<[u32; 3]>) {
    let m = ccd_testkit::cuboid([0.5; 3], [0.5; 3]);
    (m.vertices, m.triangles)
}

fn close(a: &Matrix3<f64>, b: &Matrix3<f64>, tol: f64) -> bool {
    (a - b).abs().max() <= tol
}

#[test]
fn known_values() {
    let tri = [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]];
    let (m, c, a) = triangle_covariance(&tri, &[[0, 1, 2]]);
    assert!((a - 0.5).abs() < 1e-15);
    assert!((m - Vector3::new(1.0, 1.0, 0.0) / 3.0).norm() < 1e-15);
    let want = Matrix3::new(
        1.0 / 18.0,
        -1.0 / 36.0,
        0.0,
        -1.0 / 36.0,
        1.0 / 18.0,
        0.0,
        0.0,
        0.0,
        0.0,
    );
    assert!(close(&c, &want, 1e-15), "{c}");

    let (v, f) = cube();
    let (m, c, a) = triangle_covariance(&v, &f);
    assert!((a - 6.0).abs() < 1e-14);
    assert!((m - Vector3::repeat(0.5)).norm() < 1e-15);
    assert!(
        close(&c, &(Matrix3::identity() * (5.0 / 36.0)), 1e-15),
        "{c}"
    );

    let (m, c) = point_covariance(&[[-1.0f32, 2.0, 0.0], [1.0, 2.0, 0.0]]);
    assert_eq!(m, Vector3::new(0.0, 2.0, 0.0));
    assert!(close(
        &c,
        &Matrix3::from_diagonal(&Vector3::new(1.0, 0.0, 0.0)),
        0.0
    ));
}

#[test]
fn zero_area_triangles_fall_back_to_points() {
    let v = [
        [0.0, 0.0, 0.0],
        [1.0, 0.0, 0.0],
        [3.0, 0.0, 0.0],
        [3.0, 0.0, 0.0],
    ];
    let (m, c, a) = triangle_covariance(&v, &[[0, 1, 2], [2, 3, 1]]);
    assert_eq!(a, 0.0);
    assert!(m.iter().chain(c.iter()).all(|x| x.is_finite()));
    // Distinct vertices 0, 1, 2, 3 (3 duplicates 2 in position): x = 0, 1, 3, 3.
    assert!((m.x - 7.0 / 4.0).abs() < 1e-15 && (c[(0, 0)] - 1.6875).abs() < 1e-14);
    // Mixed: degenerate triangles carry no weight.
    let v2 = [
        [0.0, 0.0, 0.0],
        [1.0, 0.0, 0.0],
        [0.0, 1.0, 0.0],
        [9.0, 9.0, 9.0],
    ];
    let with = triangle_covariance(&v2, &[[0, 1, 2], [3, 3, 3]]);
    let without = triangle_covariance(&v2, &[[0, 1, 2]]);
    assert_eq!(with, without);
}

#[test]
fn principal_axes_sorted_and_right_handed() {
    let mut rng = Rng::new(21);
    for _ in 0..200 {
        let q = rng.rotation();
        let l = [
            rng.range(2.0, 3.0),
            rng.range(1.0, 2.0),
            rng.range(0.0, 1.0),
        ];
        let cov = q * Matrix3::from_diagonal(&Vector3::from(l)) * q.transpose();
        let ax = principal_axes(&cov);
        assert!(close(&(ax.transpose() * ax), &Matrix3::identity(), 1e-12));
        assert!((ax.determinant() - 1.0).abs() < 1e-12);
        for k in 0..3 {
            assert!(
                (ax.column(k).dot(&q.column(k)).abs() - 1.0).abs() < 1e-9,
                "axis {k}"
            );
        }
    }
    assert_eq!(
        principal_axes(&Matrix3::from_element(f64::NAN)),
        Matrix3::identity()
    );
}

/// A random triangle strategy.
fn triangle() -> impl Strategy<Value = [[f64; 3]; 3]> {
    prop::array::uniform3(prop::array::uniform3(-10.0..10.0f64))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Oracle 12: splitting triangles changes neither mean nor covariance.
    #[test]
    fn tessellation_invariance(t in triangle(), u in triangle(), s in 0.05..0.95f64) {
        let mid = |a: [f64; 3], b: [f64; 3], w: f64| std::array::from_fn::<f64, 3, _>(|k| a[k] * (1.0 - w) + b[k] * w);
        let [p, q, r] = t;
        let coarse: Vec<[f64; 3]> = vec![p, q, r, u[0], u[1], u[2]];
        let (pq, qr, rp) = (mid(p, q, s), mid(q, r, 0.5), mid(r, p, 0.5));
        let c = std::array::from_fn::<f64, 3, _>(|k| (p[k] + q[k] + r[k]) / 3.0);
        let fine: Vec<[f64; 3]> = vec![p, q, r, pq, qr, rp, c, u[0], u[1], u[2]];
        // First triangle split 1 → 4 (at pq, qr, rp), then the middle one 1 → 3
        // at the centroid of the original (inside it).
        let ff = [[0, 3, 5], [3, 1, 4], [5, 4, 2], [3, 4, 6], [4, 5, 6], [5, 3, 6], [7, 8, 9]];
        let (m0, c0, a0) = triangle_covariance(&coarse, &[[0, 1, 2], [3, 4, 5]]);
        let (m1, c1, a1) = triangle_covariance(&fine, &ff);
        prop_assume!(a0 > 1e-3);
        let scale = c0.abs().max().max(1e-9);
        prop_assert!((a0 - a1).abs() <= 1e-10 * a0);
        prop_assert!((m0 - m1).norm() <= 1e-9 * (1.0 + m0.norm()));
        prop_assert!(close(&c0, &c1, 1e-9 * scale), "{} vs {}", c0, c1);
        // The vertex covariance is not invariant.
        let (_, v0) = point_covariance(&coarse);
        let (_, v1) = point_covariance(&fine);
        prop_assert!(!close(&v0, &v1, 1e-6 * scale));
    }

    /// Oracle 13: translation, rotation and scale laws.
    #[test]
    fn transform_laws(t in triangle(), u in triangle(), seed in any::<u64>(), s in 0.1..10.0f64) {
        let mut rng = Rng::new(seed);
        let (q, d) = (rng.rotation(), rng.vec(-50.0, 50.0));
        let v: Vec<Vector3<f64>> = t.iter().chain(u.iter()).map(|p| Vector3::from(*p)).collect();
        let faces = [[0, 1, 2], [3, 4, 5]];
        let moved: Vec<[f64; 3]> = v.iter().map(|p| arr(&(q * p * s + d))).collect();
        let (m0, c0, a0) = triangle_covariance(&v.iter().map(arr).collect::<Vec<_>>(), &faces);
        let (m1, c1, a1) = triangle_covariance(&moved, &faces);
        prop_assume!(a0 > 1e-3);
        let scale = c0.abs().max() * s * s + 1e-9;
        prop_assert!((a1 - a0 * s * s).abs() <= 1e-9 * a1);
        prop_assert!((m1 - (q * m0 * s + d)).norm() <= 1e-9 * (1.0 + m1.norm()));
        prop_assert!(close(&c1, &(q * c0 * q.transpose() * (s * s)), 1e-9 * scale));
    }
}

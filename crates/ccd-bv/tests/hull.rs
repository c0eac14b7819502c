//! The exact 3-D convex hull behind the hull-surface fit.

mod common;

use std::collections::{BTreeSet, HashMap};

use ccd_bv::fit::{convex_hull, triangle_covariance};
use ccd_bv::nalgebra::{Matrix3, Vector3};
use common::{Rng, arr};
use robust::{Coord3D, orient3d};

fn c3(p: &Vector3<f64>) -> Coord3D<f64> {
    Coord3D {
        x: p.x,
        y: p.y,
        z: p.z,
    }
}

/// Orientation of `p` against face `f`: < 0 strictly outside.
fn side(pts: &[Vector3<f64>], f: &[u32; 3], p: &Vector3<f64>) -> f64 {
    let [a, b, c] = f.map(|i| c3(&pts[i as usize]));
    orient3d(a, b, c, c3(p))
}

/// Checks that `faces` is a closed, consistently oriented, genus-0 triangle
/// surface with no input point strictly outside any face (exact).
fn assert_valid_hull(pts: &[Vector3<f64>], faces: &[[u32; 3]]) {
    let mut edges: HashMap<(u32, u32), usize> = HashMap::new();
    for f in faces {
        for k in 0..3 {
            *edges.entry((f[k], f[(k + 1) % 3])).or_default() += 1;
        }
        assert!(side(pts, f, &pts[f[0] as usize]) == 0.0);
    }
    for (&(a, b), &n) in &edges {
        assert_eq!(n, 1, "directed edge ({a}, {b}) used {n} times");
        assert_eq!(edges.get(&(b, a)), Some(&1), "edge ({a}, {b}) has no twin");
    }
    let verts: BTreeSet<u32> = faces.iter().flatten().copied().collect();
    assert_eq!(
        verts.len() as i64 - edges.len() as i64 / 2 + faces.len() as i64,
        2,
        "Euler characteristic"
    );
    for p in pts {
        for f in faces {
            assert!(side(pts, f, p) >= 0.0, "point {p:?} outside face {f:?}");
        }
    }
}

#[test]
fn random_clouds_give_valid_hulls() {
    let mut rng = Rng::new(11);
    for n in [4, 5, 10, 100, 1500] {
        let pts: Vec<Vector3<f64>> = (0..n).map(|_| rng.vec(-1.0, 1.0)).collect();
        let hull = convex_hull(&pts).expect("a random cloud spans a volume");
        assert_valid_hull(&pts, &hull);
    }
}

#[test]
fn matches_brute_force_facets() {
    let mut rng = Rng::new(12);
    for _ in 0..30 {
        let pts: Vec<Vector3<f64>> = (0..14).map(|_| rng.vec(-1.0, 1.0)).collect();
        let n = pts.len() as u32;
        let mut brute = BTreeSet::new();
        for i in 0..n {
            for j in i + 1..n {
                for k in j + 1..n {
                    let f = [i, j, k];
                    let sides: Vec<f64> = (0..n)
                        .filter(|p| !f.contains(p))
                        .map(|p| side(&pts, &f, &pts[p as usize]))
                        .collect();
                    if sides.iter().all(|&s| s > 0.0) || sides.iter().all(|&s| s < 0.0) {
                        brute.insert(f);
                    }
                }
            }
        }
        let got: BTreeSet<[u32; 3]> = convex_hull(&pts)
            .unwrap()
            .into_iter()
            .map(|mut f| {
                f.sort_unstable();
                f
            })
            .collect();
        assert_eq!(got, brute);
    }
}

#[test]
fn degenerate_grids_and_duplicates() {
    // A 5×5×5 grid: coplanar faces, collinear edges, plus every point twice.
    let mut pts: Vec<Vector3<f64>> = Vec::new();
    for i in 0..5 {
        for j in 0..5 {
            for k in 0..5 {
                pts.push(Vector3::new(i as f64, j as f64, k as f64) * 0.25);
            }
        }
    }
    pts.extend(pts.clone());
    let hull = convex_hull(&pts).unwrap();
    assert_valid_hull(&pts, &hull);
    // The hull surface is the unit cube's: area 6, covariance (5/36)·I.
    let verts: Vec<[f64; 3]> = pts.iter().map(arr).collect();
    let (mean, cov, area) = triangle_covariance(&verts, &hull);
    assert!((area - 6.0).abs() < 1e-12);
    assert!((mean - Vector3::repeat(0.5)).norm() < 1e-12);
    assert!((cov - Matrix3::identity() * (5.0 / 36.0)).norm() < 1e-12);
}

#[test]
fn lower_dimensional_inputs_have_no_hull() {
    let mut rng = Rng::new(13);
    let plane: Vec<Vector3<f64>> = (0..50)
        .map(|_| Vector3::new(rng.unit(), rng.unit(), 0.0))
        .collect();
    assert!(convex_hull(&plane).is_none());
    let line: Vec<Vector3<f64>> = (0..50)
        .map(|k| Vector3::new(1.0, 2.0, 3.0) * k as f64)
        .collect();
    assert!(convex_hull(&line).is_none());
    assert!(convex_hull(&[Vector3::new(1.0, 1.0, 1.0); 9]).is_none());
    assert!(convex_hull(&plane[..3]).is_none());
}

#[test]
fn points_on_a_sphere() {
    let mut rng = Rng::new(14);
    let pts: Vec<Vector3<f64>> = (0..20_000)
        .map(|_| {
            loop {
                let v = rng.vec(-1.0, 1.0);
                if v.norm() > 0.1 && v.norm() < 1.0 {
                    break v.normalize();
                }
            }
        })
        .collect();
    let hull = convex_hull(&pts).unwrap();
    assert!(hull.len() > 30_000);
    // Sampled exact check: no point strictly outside.
    for k in 0..400 {
        let p = &pts[k * 50];
        for f in hull.iter().step_by(7) {
            assert!(side(&pts, f, p) >= 0.0);
        }
    }
}

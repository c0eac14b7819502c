//! Fitted volumes: containment after rounding, tightness, orientation and
//! degenerate inputs (Gottschalk 2000, §3.2–3.3).

mod common;

use ccd_bv::fit::obb_axes;
use ccd_bv::nalgebra::{Matrix3, Vector3};
use ccd_bv::{Aabb, BoundingVolume, FitFrame, FitMethod, Obb, Real, Rss, Sphere};
use common::{Rng, arr};

const METHODS: [FitMethod; 2] = [FitMethod::HullSurface, FitMethod::TriangleSurface];

/// A random triangle soup: `n` triangles around a random centre, stretched
/// by a random linear map (so orientations are well defined), in `T`.
fn soup<T: Real>(rng: &mut Rng, n: usize) -> (Vec<[T; 3]>, Vec<[u32; 3]>) {
    let (q, c) = (rng.rotation(), rng.vec(-100.0, 100.0));
    let s = Vector3::new(
        rng.range(1.0, 9.0),
        rng.range(0.5, 3.0),
        rng.range(0.01, 1.0),
    );
    let v = (0..3 * n)
        .map(|_| {
            let p = q * rng.vec(-1.0, 1.0).component_mul(&s) + c;
            [T::lit(p.x), T::lit(p.y), T::lit(p.z)]
        })
        .collect();
    let f = (0..n as u32)
        .map(|k| [3 * k, 3 * k + 1, 3 * k + 2])
        .collect();
    (v, f)
}

fn assert_contains<T: Real, B: BoundingVolume<T>>(bv: &B, v: &[[T; 3]], f: &[[u32; 3]]) {
    assert!(bv.is_well_formed(), "{bv:?} is not well formed");
    for p in f.iter().flatten() {
        assert!(
            bv.contains_point(&v[*p as usize], T::zero()),
            "{bv:?} misses {:?}",
            v[*p as usize]
        );
    }
}

/// Every fitted volume is well formed and contains every vertex, evaluated in `T`.
fn containment<T: Real>(seed: u64) {
    let mut rng = Rng::new(seed);
    for n in [1, 1, 2, 3, 10, 50, 300] {
        for _ in 0..20 {
            let (v, f) = soup::<T>(&mut rng, n);
            for m in METHODS {
                assert_contains(&Obb::fit(&v, &f, m), &v, &f);
                assert_contains(&Rss::fit(&v, &f, m), &v, &f);
            }
            assert_contains(&Aabb::fit(&v, &f, FitMethod::default()), &v, &f);
            assert_contains(&Sphere::fit(&v, &f, FitMethod::default()), &v, &f);
        }
    }
}

/// The distinct vertices of `f`, sorted (what `fit` uses) or in order of
/// first appearance (what the tree builder passes).
fn distinct(f: &[[u32; 3]], sorted: bool) -> Vec<u32> {
    let mut ids: Vec<u32> = Vec::new();
    for &v in f.iter().flatten() {
        if !ids.contains(&v) {
            ids.push(v);
        }
    }
    if sorted {
        ids.sort_unstable();
    }
    ids
}

/// `fit_shared` with a method and sorted vertices is `fit` bit for bit; with
/// the vertices in another order or with any given axes it still contains
/// every vertex as evaluated in `T`.
fn shared_fits<T: Real>(seed: u64) {
    let mut rng = Rng::new(seed);
    for n in [1, 2, 3, 10, 50] {
        for _ in 0..20 {
            let (mut v, mut f) = soup::<T>(&mut rng, n);
            // Shared vertices, so first-appearance order differs from sorted order.
            if n > 2 {
                f[1][0] = f[0][2];
                f[2] = [f[2][2], f[0][1], f[2][0]];
            }
            v.push(v[0]);
            let (sorted, appearance) = (distinct(&f, true), distinct(&f, false));
            for m in METHODS {
                let frame = FitFrame::Method(m);
                assert_eq!(
                    Obb::fit_shared(&v, &f, &sorted, &frame),
                    Obb::fit(&v, &f, m)
                );
                assert_eq!(
                    Rss::fit_shared(&v, &f, &sorted, &frame),
                    Rss::fit(&v, &f, m)
                );
                assert_contains(&Obb::fit_shared(&v, &f, &appearance, &frame), &v, &f);
                assert_contains(&Rss::fit_shared(&v, &f, &appearance, &frame), &v, &f);
            }
            let frame = FitFrame::Axes(rng.rotation());
            assert_contains(&Obb::fit_shared(&v, &f, &appearance, &frame), &v, &f);
            assert_contains(&Rss::fit_shared(&v, &f, &appearance, &frame), &v, &f);
            let m = FitMethod::default();
            assert_eq!(
                Aabb::fit_shared(&v, &f, &sorted, &frame),
                Aabb::fit(&v, &f, m)
            );
            assert_eq!(
                Sphere::fit_shared(&v, &f, &sorted, &frame),
                Sphere::fit(&v, &f, m)
            );
            assert_contains(&Sphere::fit_shared(&v, &f, &appearance, &frame), &v, &f);
            assert_contains(&Aabb::fit_shared(&v, &f, &appearance, &frame), &v, &f);
        }
    }
}

#[test]
fn shared_fits_match_fit_and_contain_their_vertices() {
    shared_fits::<f64>(41);
    shared_fits::<f32>(42);
}

#[test]
fn fitted_volumes_contain_their_vertices_f64() {
    containment::<f64>(31);
}

#[test]
fn fitted_volumes_contain_their_vertices_f32() {
    containment::<f32>(32);
}

/// Every face of the box is touched by a vertex, to within `tol` (oracle 15).
fn assert_tight(obb: &Obb<f64>, v: &[[f64; 3]], tol: f64) {
    for j in 0..3 {
        let l: Vec<f64> = v.iter().map(|p| obb.local_coords(p)[j]).collect();
        let (lo, hi) = (
            l.iter().copied().fold(f64::INFINITY, f64::min),
            l.iter().copied().fold(f64::NEG_INFINITY, f64::max),
        );
        assert!(
            hi >= obb.half[j] - tol && -lo >= obb.half[j] - tol,
            "axis {j}: [{lo}, {hi}] in ±{}",
            obb.half[j]
        );
    }
}

#[test]
fn obbs_are_tight_and_orthonormal() {
    let mut rng = Rng::new(33);
    for n in [1, 2, 5, 40, 200] {
        for _ in 0..10 {
            let (v, f) = soup::<f64>(&mut rng, n);
            for m in METHODS {
                let obb = Obb::fit(&v, &f, m);
                let r = Matrix3::from(obb.rot);
                assert!((r.transpose() * r - Matrix3::identity()).abs().max() < 1e-12);
                assert!((r.determinant() - 1.0).abs() < 1e-12);
                assert_tight(&obb, &v, 1e-11);
            }
            let aabb = Aabb::fit(&v, &f, FitMethod::default());
            let as_obb = Obb {
                rot: Matrix3::identity().into(),
                center: aabb.center,
                half: aabb.half,
            };
            assert_tight(&as_obb, &v, 1e-11);
        }
    }
}

#[test]
fn single_triangle_box() {
    let v: [[f64; 3]; 3] = [[0.0, 0.0, 5.0], [4.0, 0.0, 5.0], [1.0, 2.0, 5.0]];
    let obb = Obb::fit(&v, &[[0, 1, 2]], FitMethod::default());
    let r = Matrix3::from(obb.rot);
    assert!(
        (r.column(0).x.abs() - 1.0).abs() < 1e-15,
        "axis 0 along the longest edge"
    );
    assert!(
        (r.column(2).z.abs() - 1.0).abs() < 1e-15,
        "axis 2 along the normal"
    );
    assert!((obb.half[0] - 2.0).abs() < 1e-14 && (obb.half[1] - 1.0).abs() < 1e-14);
    assert!(obb.half[2] < 1e-14, "flat leaf: {}", obb.half[2]);
    assert!((obb.center[2] - 5.0).abs() < 1e-14);
}

/// Oracle 16: the surface of an arbitrarily placed box gives that box back.
#[test]
fn box_surface_gives_the_box_back() {
    let mut rng = Rng::new(34);
    for _ in 0..20 {
        let (q, c) = (rng.rotation(), rng.vec(-5.0, 5.0));
        let h = [
            rng.range(4.0, 5.0),
            rng.range(2.0, 3.0),
            rng.range(0.5, 1.0),
        ];
        let v: Vec<[f64; 3]> = common::corners(&q, &c, &h).iter().map(arr).collect();
        // Corner k has sign bit b for axis b, as in `cuboid`'s vertex order.
        let f: Vec<[u32; 3]> = ccd_testkit::cuboid([1.0; 3], [0.0; 3]).triangles;
        for m in METHODS {
            let obb = Obb::fit(&v, &f, m);
            for j in 0..3 {
                assert!(
                    (obb.half[j] - h[j]).abs() < 1e-12,
                    "{:?} vs {h:?}",
                    obb.half
                );
                assert!((Vector3::from(obb.rot[j]).dot(&q.column(j)).abs() - 1.0).abs() < 1e-12);
            }
            assert!((Vector3::from(obb.center) - c).norm() < 1e-12);
        }
    }
}

/// Oracle 14: interior triangles do not move the hull-surface orientation
/// (but do move the triangle-surface one).
#[test]
fn hull_orientation_ignores_interior_geometry() {
    let mut rng = Rng::new(35);
    for _ in 0..20 {
        let (v, f) = soup::<f64>(&mut rng, 30);
        let centroid = v.iter().map(|p| Vector3::from(*p)).sum::<Vector3<f64>>() / v.len() as f64;
        let mut v2 = v.clone();
        let mut f2 = f.clone();
        // A cluster of triangles inside the hull, off the centroid: each point
        // is 0.55·centroid + 0.25·v₀ + 0.2·v_k, a convex combination.
        let anchor = (Vector3::from(v[0]) + centroid * 3.0) / 4.0;
        for _ in 0..200 {
            let base = v2.len() as u32;
            for _ in 0..3 {
                let p = (Vector3::from(v[rng.below(v.len())]) - centroid) * 0.2 + anchor;
                v2.push(arr(&p));
            }
            f2.push([base, base + 1, base + 2]);
        }
        let before = obb_axes(&v, &f, FitMethod::HullSurface);
        let after = obb_axes(&v2, &f2, FitMethod::HullSurface);
        for j in 0..3 {
            assert!(
                (before.column(j).dot(&after.column(j)).abs() - 1.0).abs() < 1e-9,
                "hull axis {j} moved"
            );
        }
        let (t0, t1) = (
            obb_axes(&v, &f, FitMethod::TriangleSurface),
            obb_axes(&v2, &f2, FitMethod::TriangleSurface),
        );
        assert!((0..3).any(|j| (t0.column(j).dot(&t1.column(j)).abs() - 1.0).abs() > 1e-6));
    }
}

fn finite<T: Real>(obb: &Obb<T>) -> bool {
    obb.rot
        .iter()
        .flatten()
        .chain(&obb.center)
        .chain(&obb.half)
        .all(|x| x.finite())
}

/// Oracle 18: degenerate inputs give finite, correctly aligned volumes.
#[test]
fn degenerate_inputs() {
    // Collinear zero-area triangles along d.
    let d = Vector3::new(1.0, 2.0, -2.0) / 3.0;
    let v: Vec<[f64; 3]> = (0..9)
        .map(|k| arr(&(d * (k as f64) + Vector3::new(1.0, 1.0, 1.0))))
        .collect();
    let f = [[0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 8, 4]];
    for m in METHODS {
        let obb = Obb::fit(&v, &f, m);
        assert!(finite(&obb));
        assert!((Vector3::from(obb.rot[0]).dot(&d).abs() - 1.0).abs() < 1e-12);
        assert!(
            (obb.half[0] - 4.0).abs() < 1e-12 && obb.half[1] < 1e-13 && obb.half[2] < 1e-13,
            "{:?}",
            obb.half
        );
        assert_contains(&obb, &v, &f);
        let single = Obb::fit(&v, &f[..1], m);
        assert!(finite(&single) && single.half[1] < 1e-13 && single.half[2] < 1e-13);
    }
    // One point, repeated.
    let p = [[3.0f32, -1.0, 2.0]; 3];
    for m in METHODS {
        for faces in [&[[0u32, 1, 2]][..], &[[0, 1, 2], [2, 1, 0]]] {
            let obb = Obb::fit(&p, faces, m);
            assert!(finite(&obb) && obb.half.iter().all(|h| *h < 1e-5));
            assert_contains(&obb, &p, faces);
            let s = Sphere::fit(&p, faces, m);
            assert!(s.radius < 1e-5);
            assert_contains(&s, &p, faces);
        }
    }
    // Coplanar triangles in a tilted plane: a flat box along the normal.
    let mut rng = Rng::new(36);
    let (q, c) = (rng.rotation(), rng.vec(-10.0, 10.0));
    let v: Vec<[f64; 3]> = (0..60)
        .map(|_| arr(&(q * Vector3::new(rng.range(-3.0, 3.0), rng.range(-1.0, 1.0), 0.0) + c)))
        .collect();
    let f: Vec<[u32; 3]> = (0..20).map(|k| [3 * k, 3 * k + 1, 3 * k + 2]).collect();
    for m in METHODS {
        let obb = Obb::fit(&v, &f, m);
        assert!(finite(&obb));
        assert!(obb.half[2] < 1e-12, "{:?}", obb.half);
        assert!((Vector3::from(obb.rot[2]).dot(&q.column(2)).abs() - 1.0).abs() < 1e-12);
        assert!(
            (Vector3::from(obb.rot[0]).dot(&q.column(0)).abs()) > 0.9,
            "major axis along the long side"
        );
        assert_contains(&obb, &v, &f);
    }
}

#[test]
fn sphere_fit_is_reasonably_tight() {
    // A lat/long unit sphere around (5, 5, 5).
    let (nu, nv) = (24usize, 12usize);
    let mut v = vec![[5.0, 5.0, 6.0], [5.0, 5.0, 4.0]];
    for i in 1..nv {
        let th = std::f64::consts::PI * i as f64 / nv as f64;
        for j in 0..nu {
            let ph = std::f64::consts::TAU * j as f64 / nu as f64;
            v.push([
                5.0 + th.sin() * ph.cos(),
                5.0 + th.sin() * ph.sin(),
                5.0 + th.cos(),
            ]);
        }
    }
    let ring = |i: usize, j: usize| (2 + (i - 1) * nu + j % nu) as u32;
    let mut f = Vec::new();
    for j in 0..nu {
        f.push([0, ring(1, j), ring(1, j + 1)]);
        f.push([1, ring(nv - 1, j + 1), ring(nv - 1, j)]);
        for i in 1..nv - 1 {
            f.push([ring(i, j), ring(i + 1, j), ring(i + 1, j + 1)]);
            f.push([ring(i, j), ring(i + 1, j + 1), ring(i, j + 1)]);
        }
    }
    let s = Sphere::fit(&v, &f, FitMethod::default());
    assert!((s.radius - 1.0).abs() < 1e-9, "{}", s.radius);
    // Single triangles get their smallest ball: the circumscribed one when
    // acute, the one on the longest edge otherwise.
    let acute: [[f64; 3]; 3] = [[0.0, 0.0, 1.0], [2.0, 0.0, 1.0], [1.0, 1.5, 1.0]];
    let t = Sphere::fit(&acute, &[[0, 1, 2]], FitMethod::default());
    assert!(
        (t.radius - 1.0833333333333333).abs() < 1e-12,
        "{}",
        t.radius
    );
    let obtuse: [[f64; 3]; 3] = [[0.0, 0.0, 0.0], [4.0, 0.0, 0.0], [1.0, 0.5, 0.0]];
    let t = Sphere::fit(&obtuse, &[[2, 0, 1]], FitMethod::default());
    assert!((t.radius - 2.0).abs() < 1e-12, "{}", t.radius);
    assert_contains(&s, &v, &f);
    // A random soup: never worse than the bounding box's circumsphere.
    let mut rng = Rng::new(37);
    for _ in 0..50 {
        let (v, f) = soup::<f64>(&mut rng, 20);
        let s = Sphere::fit(&v, &f, FitMethod::default());
        let b = Aabb::fit(&v, &f, FitMethod::default());
        assert!(s.radius <= Vector3::from(b.half).norm() * (1.0 + 1e-12));
    }
}

//! Fitting across the whole floating-point range: huge, tiny and mixed
//! magnitudes never panic, hulls are exact on the power-of-two scaled copy
//! (checked in big integers), and every finite fitted volume contains its
//! vertices.

use std::collections::HashMap;

use ccd_bv::fit::convex_hull;
use ccd_bv::nalgebra::Vector3;
use ccd_bv::{Aabb, BoundingVolume, FitMethod, Obb, Real, Rss, Sphere};
use num_bigint::BigInt;
use proptest::prelude::*;

const METHODS: [FitMethod; 2] = [FitMethod::HullSurface, FitMethod::TriangleSurface];

/// `2^k` for `k` in `-1074..=1023`.
fn pow2(k: i32) -> f64 {
    if k >= -1022 {
        f64::from_bits(((k + 1023) as u64) << 52)
    } else {
        f64::from_bits(1 << (k + 1074))
    }
}

/// `x·2^k` rounded once, for `k` in `-1074..=2046` (`x·2^1023` exact).
fn ldexp(x: f64, k: i32) -> f64 {
    if k > 1023 {
        x * pow2(1023) * pow2(k - 1023)
    } else {
        x * pow2(k)
    }
}

/// The copy the hull is documented to be exact on: every coordinate times
/// the `2^k` that brings the largest magnitude `M` into `[0.5, 1)`; also `k`
/// and `M`.
fn unit_copy(pts: &[Vector3<f64>]) -> (Vec<Vector3<f64>>, i32, f64) {
    let m = pts.iter().map(|p| p.amax()).fold(0.0, f64::max);
    if m == 0.0 {
        return (pts.to_vec(), 0, m);
    }
    let mut k = -(m.log2().floor() as i32) - 1;
    while ldexp(m, k) >= 1.0 {
        k -= 1;
    }
    while ldexp(m, k) < 0.5 {
        k += 1;
    }
    (pts.iter().map(|p| p.map(|x| ldexp(x, k))).collect(), k, m)
}

type Exact = [BigInt; 3];

/// The points as integers `p / 2^e0` (exact), `2^e0` the smallest unit in
/// the last place among the non-zero coordinates.
fn integers(pts: &[Vector3<f64>]) -> Vec<Exact> {
    let parts = |x: f64| {
        let b = x.to_bits();
        let (e, f) = (((b >> 52) & 0x7ff) as i32, (b & ((1 << 52) - 1)) as i64);
        let (m, e) = if e == 0 {
            (f, -1074)
        } else {
            (f | 1 << 52, e - 1075)
        };
        (if x < 0.0 { -m } else { m }, e)
    };
    let coords = pts.iter().flat_map(|p| p.iter().copied());
    let e0 = coords
        .filter(|&x| x != 0.0)
        .map(|x| parts(x).1)
        .min()
        .unwrap_or(0);
    let int = |x: f64| {
        let (m, e) = parts(x);
        BigInt::from(m) << (e - e0).max(0) as usize
    };
    pts.iter().map(|p| [int(p.x), int(p.y), int(p.z)]).collect()
}

fn sub(a: &Exact, b: &Exact) -> Exact {
    std::array::from_fn(|i| &a[i] - &b[i])
}

fn cross(a: &Exact, b: &Exact) -> Exact {
    let c = |i: usize, j: usize| &a[i] * &b[j] - &a[j] * &b[i];
    [c(1, 2), c(2, 0), c(0, 1)]
}

fn dot(a: &Exact, b: &Exact) -> BigInt {
    &a[0] * &b[0] + &a[1] * &b[1] + &a[2] * &b[2]
}

fn is_zero(v: &Exact) -> bool {
    v.iter().all(|x| x.bits() == 0)
}

/// Exact: whether the points span a volume.
fn spans_volume(q: &[Exact]) -> bool {
    let a = &q[0];
    let Some(b) = q.iter().find(|p| *p != a) else {
        return false;
    };
    let d = sub(b, a);
    let normals = q.iter().map(|p| cross(&d, &sub(p, a)));
    let Some(n) = normals.into_iter().find(|n| !is_zero(n)) else {
        return false;
    };
    q.iter().any(|p| dot(&sub(p, a), &n).bits() != 0)
}

/// Exact: `faces` is a closed, consistently oriented surface of non-flat
/// triangles over `q`, counter-clockwise seen from outside, with every point
/// inside or on every face.
fn assert_hull(q: &[Exact], faces: &[[u32; 3]]) {
    assert!(faces.len() >= 4, "{} faces", faces.len());
    let mut edges: HashMap<(u32, u32), u32> = HashMap::new();
    for f in faces {
        assert!(f.iter().all(|&i| (i as usize) < q.len()), "{f:?}");
        let [a, b, c] = f.map(|i| &q[i as usize]);
        let n = cross(&sub(b, a), &sub(c, a));
        assert!(!is_zero(&n), "flat face {f:?}");
        for (i, p) in q.iter().enumerate() {
            assert!(
                dot(&sub(p, a), &n).sign() != num_bigint::Sign::Plus,
                "point {i} outside {f:?}"
            );
        }
        for e in 0..3 {
            *edges.entry((f[e], f[(e + 1) % 3])).or_default() += 1;
        }
    }
    for (&(a, b), &n) in &edges {
        assert!(n == 1 && edges.get(&(b, a)) == Some(&1), "edge ({a}, {b})");
    }
}

/// `convex_hull` of `points`: no panic, and exact on the scaled copy (which
/// equals the scaled input where the documented condition holds).
fn check_hull(points: &[Vector3<f64>]) {
    let hull = convex_hull(points);
    let (copy, k, m) = unit_copy(points);
    let tiny = ldexp(m, -1021).next_up(); // ≥ M·2^-1021
    if points
        .iter()
        .flat_map(|p| p.iter())
        .all(|&x| x == 0.0 || x.abs() >= tiny)
    {
        for (p, c) in points.iter().zip(&copy) {
            assert_eq!(*p, c.map(|x| ldexp(x, -k)), "scaling was not exact");
        }
    }
    let q = integers(&copy);
    match hull {
        Some(faces) => assert_hull(&q, &faces),
        None => assert!(!spans_volume(&q), "None for points spanning a volume"),
    }
}

/// Degenerate variants of a cloud (before scaling): 0 as is, 1 coplanar,
/// 2 collinear, 3 four distinct points repeated, 4 duplicates appended,
/// 5 a grid of quarters (points on facets and edges), 6 a grid plane.
/// Coordinates stay in `(-1, 1)`.
fn shape(mut pts: Vec<[f64; 3]>, mode: u8) -> Vec<[f64; 3]> {
    let grid = |x: f64| (x * 3.0).round() / 4.0;
    match mode {
        1 => pts.iter_mut().for_each(|p| p[2] = p[0]),
        2 => pts.iter_mut().for_each(|p| *p = [p[0], p[0], -p[0]]),
        3 => (4..pts.len()).for_each(|i| pts[i] = pts[i % 4]),
        4 => pts.extend(pts.clone().iter().take(pts.len() / 2)),
        5 => pts.iter_mut().for_each(|p| *p = p.map(grid)),
        6 => pts
            .iter_mut()
            .for_each(|p| *p = [grid(p[0]), grid(p[1]), (grid(p[0]) + grid(p[1])) / 2.0]),
        _ => {}
    }
    pts
}

fn cloud() -> impl Strategy<Value = Vec<[f64; 3]>> {
    prop::collection::vec(prop::array::uniform3(-1.0..1.0f64), 4..60)
}

/// Exponents over the whole range, with extra weight at both ends.
fn exponent(lo: i32, hi: i32) -> impl Strategy<Value = i32> {
    prop_oneof![lo..=hi, lo..=lo + 60, hi - 10..=hi]
}

/// Coordinates of assorted magnitudes up to `max` (zeros, subnormal
/// multiples of `tiny`, and `±max` itself).
fn mixed_cloud(max: f64, tiny: f64) -> impl Strategy<Value = Vec<[f64; 3]>> {
    let unit = || -1.0..1.0f64;
    let coord = prop_oneof![
        Just(0.0),
        unit(),
        unit().prop_map(move |x| x * max * 1e-8),
        unit().prop_map(move |x| x * tiny * 1e20),
        unit().prop_map(move |x| x * max.sqrt() / 2.0),
        unit().prop_map(move |x| x * (tiny * 1e10).sqrt()),
        (-4i32..=4).prop_map(move |n| f64::from(n) * tiny),
        Just(max),
        Just(-max),
    ];
    prop::collection::vec(prop::array::uniform3(coord), 4..60)
}

/// Every fit of `pts` (all consecutive triples, and the first triangle) in
/// `T`, both methods: no panic, and a volume whose numbers are all finite is
/// well formed and contains every vertex as evaluated. Returns whether all
/// were finite.
fn check_fits<T: Real>(pts: &[[f64; 3]]) -> bool {
    let v: Vec<[T; 3]> = pts.iter().map(|p| p.map(T::lit)).collect();
    let all: Vec<[u32; 3]> = (0..v.len() as u32 - 2).map(|i| [i, i + 1, i + 2]).collect();
    let mut finite = true;
    for faces in [&all[..], &all[..1]] {
        for m in METHODS {
            finite &= contains(&Obb::fit(&v, faces, m), &v, faces);
            finite &= contains(&Aabb::fit(&v, faces, m), &v, faces);
            finite &= contains(&Sphere::fit(&v, faces, m), &v, faces);
            finite &= contains(&Rss::fit(&v, faces, m), &v, faces);
        }
    }
    finite
}

fn contains<T: Real, B: BoundingVolume<T>>(bv: &B, v: &[[T; 3]], faces: &[[u32; 3]]) -> bool {
    let numbers: &[T] = bytemuck::cast_slice(std::slice::from_ref(bv));
    if !numbers.iter().all(|x| x.finite()) {
        return false;
    }
    assert!(bv.is_well_formed(), "{bv:?}");
    for &i in faces.iter().flatten() {
        let p = &v[i as usize];
        assert!(bv.contains_point(p, T::zero()), "{bv:?} misses {p:?}");
    }
    true
}

fn scaled(pts: &[[f64; 3]], k: i32) -> Vec<[f64; 3]> {
    pts.iter().map(|p| p.map(|x| ldexp(x, k))).collect()
}

/// The vertices of `/work/shared/repro/hull-panic-huge-coordinates.obj`, in
/// its order (bit for bit): an icosphere of radius 1e120 about
/// (1.5e120, 2.5e119, 0) whose `f64` cross products overflow. The old hull
/// panicked on this order ("index out of bounds … 4294967295").
fn repro_vertices() -> Vec<Vector3<f64>> {
    const ORDER: [usize; 162] = [
        7, 1, 10, 4, 6, 0, 9, 3, 8, 2, 11, 5, 21, 19, 16, 14, 15, 24, 25, 30, 31, 40, 12, 13, 20,
        17, 41, 39, 33, 34, 23, 26, 28, 18, 27, 35, 36, 38, 37, 32, 29, 22, 73, 74, 55, 69, 75, 76,
        52, 72, 65, 56, 57, 44, 51, 53, 54, 48, 89, 90, 84, 85, 86, 87, 88, 113, 114, 108, 109,
        110, 111, 112, 151, 152, 153, 149, 150, 49, 50, 42, 43, 45, 46, 47, 66, 58, 67, 68, 62, 70,
        71, 154, 144, 155, 156, 147, 157, 158, 125, 126, 116, 122, 123, 124, 119, 94, 95, 78, 91,
        92, 93, 81, 100, 101, 102, 64, 96, 97, 98, 99, 60, 127, 128, 129, 130, 131, 132, 133, 139,
        134, 140, 141, 137, 142, 143, 135, 104, 121, 136, 107, 138, 117, 105, 83, 106, 103, 79, 61,
        63, 59, 146, 148, 145, 159, 160, 161, 118, 120, 115, 80, 82, 77,
    ];
    let mesh = ccd_testkit::icosphere(2, 1e120).translated([1.5e120, 2.5e119, 0.0]);
    ORDER
        .iter()
        .map(|&i| Vector3::from(mesh.vertices[i]))
        .collect()
}

#[test]
fn repro_huge_coordinates() {
    let pts = repro_vertices();
    // The file's first two lines.
    assert_eq!(
        pts[0],
        Vector3::new(9.742688878808665e119, 1.1006508083520401e120, 0.0)
    );
    assert_eq!(
        pts[1],
        Vector3::new(2.0257311121191338e120, 1.1006508083520401e120, 0.0)
    );
    let hull = convex_hull(&pts).expect("an icosphere spans a volume");
    assert_eq!(
        hull.len(),
        320,
        "every vertex of an icosphere is a hull vertex"
    );
    check_hull(&pts);
    // The same points at every scale, and in the test kit's order.
    let mut rev = pts.clone();
    rev.reverse();
    // Largest magnitude ≈ 2^399.9: from subnormal (lossy) to near overflow.
    for k in [-1470, -1420, -1300, -800, -400, 0, 300, 600, 624] {
        let s = pts
            .iter()
            .map(|p| p.map(|x| ldexp(ldexp(x, k / 2), k - k / 2)));
        check_hull(&s.collect::<Vec<_>>());
    }
    check_hull(&rev);
}

/// The smallest of `T::MAX·i/64` (`i` in 1..=64) as largest coordinate of
/// a shape at which some fit has an infinite number; shapes: a unit cloud,
/// cube corners, a segment.
fn first_non_finite<T: Real>(max: f64) -> [Option<f64>; 3] {
    let mut rng = ccd_testkit::rng::SplitMix64::new(5);
    let cloud: Vec<[f64; 3]> = (0..24)
        .map(|_| [0; 3].map(|_| rng.range(-1.0, 1.0)))
        .collect();
    let m = cloud.iter().flatten().fold(0.0, |m: f64, x| m.max(x.abs()));
    let cube = (0..8).map(|i| [0, 1, 2].map(|k| f64::from((i >> k & 1) * 2 - 1)));
    let segment = (0..6)
        .map(|i| f64::from(i) / 2.5 - 1.0)
        .map(|t| [t, t / 2.0, -t]);
    let shapes = [
        cloud.iter().map(|p| p.map(|x| x / m)).collect(),
        cube.collect(),
        segment.collect::<Vec<_>>(),
    ];
    shapes.map(|pts| {
        let x = (1..=64).map(|i| max / 64.0 * f64::from(i));
        x.into_iter().find(|&x| {
            !check_fits::<T>(
                &scaled(&pts, 0)
                    .iter()
                    .map(|p| p.map(|c| c * x))
                    .collect::<Vec<_>>(),
            )
        })
    })
}

/// Every fit is finite while no coordinate exceeds half the largest `T`
/// (the old sphere fit overflowed from `sqrt(T::MAX)`: 1.3e154, 1.8e19).
#[test]
fn volumes_are_finite_up_to_half_the_largest_value() {
    let f64_first = first_non_finite::<f64>(f64::MAX);
    let f32_first = first_non_finite::<f32>(f64::from(f32::MAX));
    let show = |f: [Option<f64>; 3]| f.map(|x| x.map_or("none".into(), |x| format!("{x:.3e}")));
    println!(
        "first non-finite largest coordinate [cloud, cube, segment]: f64 {:?}, f32 {:?}",
        show(f64_first),
        show(f32_first)
    );
    for x in f64_first.into_iter().flatten() {
        assert!(x > f64::MAX / 2.0, "{x:e}");
    }
    for x in f32_first.into_iter().flatten() {
        assert!(x > f64::from(f32::MAX) / 2.0, "{x:e}");
    }
}

/// Spheres of subnormal size contain their vertices geometrically, not only
/// as `contains_point` evaluates (where the squares underflow to 0).
#[test]
fn tiny_spheres_contain_their_vertices() {
    let mut rng = ccd_testkit::rng::SplitMix64::new(9);
    let unit: Vec<[f64; 3]> = (0..30)
        .map(|_| [0; 3].map(|_| rng.range(-1.0, 1.0)))
        .collect();
    let faces: Vec<[u32; 3]> = (0..28).map(|i| [i, i + 1, i + 2]).collect();
    let covered = |c: [f64; 3], r: f64, v: &[[f64; 3]], k: i32| {
        let up = |x: f64| ldexp(x, k); // exact: widened f32, or f64 scaled up
        v.iter().all(|p| {
            let d = Vector3::from([0, 1, 2].map(|j| up(p[j]) - up(c[j])));
            d.norm() * (1.0 + 1e-15) <= up(r)
        })
    };
    for k in -149..-40 {
        let v: Vec<[f32; 3]> = scaled(&unit, k)
            .iter()
            .map(|p| p.map(|x| x as f32))
            .collect();
        let s = Sphere::fit(&v, &faces, FitMethod::default());
        let w: Vec<[f64; 3]> = v.iter().map(|p| p.map(f64::from)).collect();
        assert!(
            covered(s.center.map(f64::from), f64::from(s.radius), &w, 200),
            "2^{k}: {s:?}"
        );
    }
    for k in -1074..-900 {
        let v = scaled(&unit, k);
        let s = Sphere::fit(&v, &faces, FitMethod::default());
        assert!(covered(s.center, s.radius, &v, 1000), "2^{k}: {s:?}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Unit clouds scaled by `2^k` over the whole `f64` range.
    #[test]
    fn scaled_clouds_give_exact_hulls(pts in cloud(), mode in 0u8..7, k in exponent(-1074, 1023)) {
        let pts: Vec<Vector3<f64>> = scaled(&shape(pts, mode), k).into_iter().map(Vector3::from).collect();
        check_hull(&pts);
    }

    /// Clouds mixing magnitudes from 5e-324 to `f64::MAX`.
    #[test]
    fn mixed_magnitudes_give_exact_hulls(pts in mixed_cloud(f64::MAX, 5e-324), mode in 0u8..5) {
        let pts: Vec<Vector3<f64>> = shape(pts, mode).into_iter().map(Vector3::from).collect();
        check_hull(&pts);
    }

    /// Fits in `f64` and `f32` of scaled clouds over each type's range.
    #[test]
    fn scaled_fits_contain_their_vertices(
        pts in cloud(),
        mode in 0u8..7,
        k64 in exponent(-1074, 1023),
        k32 in exponent(-149, 127),
    ) {
        let pts = shape(pts, mode);
        check_fits::<f64>(&scaled(&pts, k64));
        check_fits::<f32>(&scaled(&pts, k32));
    }

    /// Fits of clouds mixing magnitudes, in `f64` and `f32`.
    #[test]
    fn mixed_fits_contain_their_vertices(
        p64 in mixed_cloud(f64::MAX, 5e-324),
        p32 in mixed_cloud(f64::from(f32::MAX), f64::from(f32::from_bits(1))),
        mode in 0u8..5,
    ) {
        check_fits::<f64>(&shape(p64, mode));
        check_fits::<f32>(&shape(p32, mode));
    }
}

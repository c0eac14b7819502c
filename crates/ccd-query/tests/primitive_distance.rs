//! Point–triangle, segment–segment and triangle–triangle distances against an exact rational oracle.
//!
//! # The oracle
//! Every finite float is a rational, and so is every squared distance below: the case analysis of Ericson
//! §5.1.5/§5.1.9 runs in `BigRational` with exact comparisons. Point–segment: the clamped projection. Point–
//! triangle: the plane distance if the (exact) edge signs put the projection inside, else the nearest edge.
//! Segment–segment: the four endpoint–segment distances and, for non-parallel segments whose line–line
//! parameters lie in [0, 1], the line–line pair. Triangle–triangle: the 6 corner–triangle and 9 edge–edge
//! distances and, for each edge crossing the other plane, its crossing point's distance to the other triangle
//! (zero exactly when the triangles meet). No floating point and no code shared with the implementation.
//!
//! # The checks
//! With B = c·ε·S + η as documented (c = 128 for `f64`, 4 for `f32`): |d − d_exact| ≤ B, decided exactly on
//! squares; closest points within B of their features (exact squared distances ≤ B²); the distance between the
//! returned points within B of d; for triangles, `intersecting` iff the exact distance is 0.

use ccd_bv::Real;
use ccd_query::primitive::{
    TriangleFeature, distance_point_triangle, distance_segment_segment, distance_triangle_triangle,
    triangle_distance_lower_bound,
};
use ccd_testkit::{SplitMix64, random_rotation};
use nalgebra::Vector3;
use num_rational::BigRational;
use num_traits::{Signed, Zero};
use proptest::array::{uniform3, uniform4};
use proptest::prelude::*;

type V = Vector3<f64>;
type Q = BigRational;
type Qv = [Q; 3];

// --- exact oracle ------------------------------------------------------------------------------------------------

fn q(x: f64) -> Q {
    Q::from_float(x).expect("the oracle needs finite coordinates")
}
fn qv(v: &V) -> Qv {
    [q(v.x), q(v.y), q(v.z)]
}
fn sub(a: &Qv, b: &Qv) -> Qv {
    std::array::from_fn(|i| &a[i] - &b[i])
}
fn axpy(a: &Qv, s: &Q, d: &Qv) -> Qv {
    std::array::from_fn(|i| &a[i] + s * &d[i])
}
fn dot(a: &Qv, b: &Qv) -> Q {
    &a[0] * &b[0] + &a[1] * &b[1] + &a[2] * &b[2]
}
fn cross(a: &Qv, b: &Qv) -> Qv {
    let c = |i: usize, j: usize| &a[i] * &b[j] - &a[j] * &b[i];
    [c(1, 2), c(2, 0), c(0, 1)]
}
fn norm2(a: &Qv) -> Q {
    dot(a, a)
}
fn min(a: Q, b: Q) -> Q {
    if b < a { b } else { a }
}
fn least(all: impl IntoIterator<Item = Q>) -> Q {
    all.into_iter().reduce(min).expect("not empty")
}
fn in_unit(t: &Q) -> bool {
    !t.is_negative() && *t <= Q::from_integer(1.into())
}

fn point_segment2(p: &Qv, a: &Qv, b: &Qv) -> Q {
    let (e, w) = (sub(b, a), sub(p, a));
    if norm2(&e).is_zero() {
        return norm2(&w);
    }
    let t = (dot(&w, &e) / norm2(&e)).clamp(Q::zero(), Q::from_integer(1.into()));
    norm2(&sub(&axpy(a, &t, &e), p))
}

fn point_triangle2(p: &Qv, t: &[Qv; 3]) -> Q {
    let n = cross(&sub(&t[1], &t[0]), &sub(&t[2], &t[0]));
    let inside = (0..3).all(|i| {
        let (a, b) = (&t[i], &t[(i + 1) % 3]);
        !dot(&cross(&sub(b, a), &sub(p, a)), &n).is_negative()
    });
    if !norm2(&n).is_zero() && inside {
        let h = dot(&n, &sub(p, &t[0]));
        return &h * &h / norm2(&n);
    }
    least((0..3).map(|i| point_segment2(p, &t[i], &t[(i + 1) % 3])))
}

fn segment_segment2(p0: &Qv, p1: &Qv, q0: &Qv, q1: &Qv) -> Q {
    let (d1, d2, r) = (sub(p1, p0), sub(q1, q0), sub(q0, p0));
    let ends = [(p0, q0, q1), (p1, q0, q1), (q0, p0, p1), (q1, p0, p1)];
    let mut best = least(ends.map(|(p, a, b)| point_segment2(p, a, b)));
    let n = cross(&d1, &d2);
    if !norm2(&n).is_zero() {
        let s = dot(&r, &cross(&d2, &n)) / norm2(&n);
        let t = dot(&r, &cross(&d1, &n)) / norm2(&n);
        if in_unit(&s) && in_unit(&t) {
            best = min(best, norm2(&sub(&axpy(p0, &s, &d1), &axpy(q0, &t, &d2))));
        }
    }
    best
}

/// Least distance² from the edges of `a` to `b`: edge–edge, corners of `a`, and crossings of `b`'s plane.
fn edges_to_triangle2(a: &[Qv; 3], b: &[Qv; 3]) -> Q {
    let n = cross(&sub(&b[1], &b[0]), &sub(&b[2], &b[0]));
    let mut best = point_triangle2(&a[0], b);
    for i in 0..3 {
        let (u0, u1) = (&a[i], &a[(i + 1) % 3]);
        best = min(best, point_triangle2(u0, b));
        for j in 0..3 {
            best = min(best, segment_segment2(u0, u1, &b[j], &b[(j + 1) % 3]));
        }
        let (h0, h1) = (dot(&n, &sub(u0, &b[0])), dot(&n, &sub(u1, &b[0])));
        if !(&h0 * &h1).is_positive() && h0 != h1 {
            let x = axpy(u0, &(&h0 / (&h0 - &h1)), &sub(u1, u0));
            best = min(best, point_triangle2(&x, b));
        }
    }
    best
}

fn triangle_triangle2(a: &[Qv; 3], b: &[Qv; 3]) -> Q {
    min(edges_to_triangle2(a, b), edges_to_triangle2(b, a))
}

// --- checks ------------------------------------------------------------------------------------------------------

/// The documented bound c·ε·S + η for coordinates of largest magnitude `s`, exactly.
fn bound<T: Real>(s: f64) -> Q {
    let (c, eta) = if T::NAME == "f32" {
        (4.0, f64::from(f32::from_bits(1)))
    } else {
        (128.0, f64::from_bits(1))
    };
    q(c) * q(T::EPSILON.to_f64_exact()) * q(s) + q(eta)
}

/// Whether |d − √exact2| ≤ b, decided exactly.
fn close(d: f64, exact2: &Q, b: &Q) -> bool {
    let (hi, lo) = (q(d) + b, q(d) - b);
    *exact2 <= &hi * &hi && (!lo.is_positive() || &lo * &lo <= *exact2)
}

/// Fails the case with `what` and the result unless `ok` (proptest reports the input).
fn ensure(ok: bool, what: &str, result: &dyn std::fmt::Debug) -> Result<(), TestCaseError> {
    match ok {
        true => Ok(()),
        false => Err(TestCaseError::fail(format!("{what}: {result:?}"))),
    }
}

fn wide<T: Real>(v: &Vector3<T>) -> Qv {
    qv(&v.map(|x| x.to_f64_exact()))
}

/// The test points rounded to `T`, their exact values, and the bound B for them.
fn prepare<T: Real, const N: usize>(pts: &[V; N]) -> ([Vector3<T>; N], [Qv; N], Q) {
    let t = pts.map(|v| v.map(T::lit));
    let s = t
        .iter()
        .flatten()
        .fold(0.0f64, |m, x| m.max(x.to_f64_exact().abs()));
    (t, t.map(|v| wide(&v)), bound::<T>(s))
}

fn check_point_triangle<T: Real>(pts: &[V; 4]) -> Result<(), TestCaseError> {
    let ([p, t0, t1, t2], [pq, a, b, c], bd) = prepare::<T, 4>(pts);
    let r = distance_point_triangle(&p, &[t0, t1, t2]);
    let (tri, x, b2) = ([a, b, c], wide(&r.point), &bd * &bd);
    let d = r.distance.to_f64_exact();
    let consistent = close(d, &norm2(&sub(&x, &pq)), &bd);
    ensure(close(d, &point_triangle2(&pq, &tri), &bd), "distance", &r)?;
    ensure(consistent, "|p − point| ≠ distance", &r)?;
    let on_feature = match r.feature {
        TriangleFeature::Vertex(i) => r.point == [t0, t1, t2][i],
        TriangleFeature::Edge(i) => point_segment2(&x, &tri[i], &tri[(i + 1) % 3]) <= b2,
        TriangleFeature::Face => point_triangle2(&x, &tri) <= b2,
    };
    ensure(on_feature, "point off its feature", &r)
}

fn check_segment_segment<T: Real>(pts: &[V; 4]) -> Result<(), TestCaseError> {
    let ([p0, p1, q0, q1], [a0, a1, b0, b1], bd) = prepare::<T, 4>(pts);
    let r = distance_segment_segment(&p0, &p1, &q0, &q1);
    let (x, y, b2) = (wide(&r.point_p), wide(&r.point_q), &bd * &bd);
    let d = r.distance.to_f64_exact();
    let (s, t) = (q(r.s.to_f64_exact()), q(r.t.to_f64_exact()));
    let right = close(d, &segment_segment2(&a0, &a1, &b0, &b1), &bd);
    let consistent = close(d, &norm2(&sub(&x, &y)), &bd);
    let at_s = norm2(&sub(&x, &axpy(&a0, &s, &sub(&a1, &a0)))) <= b2;
    let at_t = norm2(&sub(&y, &axpy(&b0, &t, &sub(&b1, &b0)))) <= b2;
    ensure(right, "distance", &r)?;
    ensure(consistent, "|point_p − point_q| ≠ distance", &r)?;
    ensure(in_unit(&s) && in_unit(&t), "parameters out of [0, 1]", &r)?;
    ensure(at_s && at_t, "points not at their parameters", &r)
}

fn check_triangle_triangle<T: Real>(pts: &[V; 6]) -> Result<(), TestCaseError> {
    let ([a0, a1, a2, b0, b1, b2], [qa0, qa1, qa2, qb0, qb1, qb2], bd) = prepare::<T, 6>(pts);
    let r = distance_triangle_triangle(&[a0, a1, a2], &[b0, b1, b2]);
    let (ta, tb) = ([qa0, qa1, qa2], [qb0, qb1, qb2]);
    let (x, y, bd2) = (wide(&r.point_a), wide(&r.point_b), &bd * &bd);
    let (d, exact2) = (r.distance.to_f64_exact(), triangle_triangle2(&ta, &tb));
    let (right, consistent) = (close(d, &exact2, &bd), close(d, &norm2(&sub(&x, &y)), &bd));
    let judged = r.intersecting == exact2.is_zero() && (!r.intersecting || d == 0.0);
    ensure(judged, "intersection misjudged", &r)?;
    ensure(right, &format!("distance, exact² {exact2}"), &r)?;
    ensure(consistent, "|point_a − point_b| ≠ distance", &r)?;
    let on = point_triangle2(&x, &ta) <= bd2 && point_triangle2(&y, &tb) <= bd2;
    ensure(on, "point off its triangle", &r)?;
    // The cheap plane-gap bound never exceeds the exact distance (compared exactly, on squares).
    let lb = q(triangle_distance_lower_bound(
        &[a0, a1, a2].map(Into::into),
        &[b0, b1, b2].map(Into::into),
    )
    .to_f64_exact());
    ensure(
        &lb * &lb <= exact2 && !lb.is_negative(),
        &format!("lower bound {lb} above the distance"),
        &r,
    )
}

// --- generators --------------------------------------------------------------------------------------------------

fn point() -> impl Strategy<Value = V> + Clone {
    uniform3(-1.0..1.0f64).prop_map(V::from)
}
/// Multiples of 1/8 in [-1, 1]: sums, halves and small integer multiples stay exact.
fn grid() -> impl Strategy<Value = V> + Clone {
    uniform3((-8i32..=8).prop_map(|i| f64::from(i) / 8.0)).prop_map(V::from)
}
fn grid3() -> impl Strategy<Value = [V; 3]> + Clone {
    uniform3(grid())
}
fn tiny() -> impl Strategy<Value = f64> + Clone {
    (-60i32..-8).prop_map(|e| 2f64.powi(e))
}
fn normal(u: &V, v: &V) -> V {
    u.cross(v).try_normalize(0.0).unwrap_or(V::z())
}
fn flat(v: &V, z: f64) -> V {
    V::new(v.x, v.y, z)
}

/// General, on the grid, exactly collinear, nearly collinear, sliver, two or three coincident corners.
fn triangle() -> impl Strategy<Value = [V; 3]> + Clone {
    let (p, u) = (point(), 0.0..1.0f64);
    prop_oneof![
        uniform3(point()),
        grid3(),
        (grid(), grid(), -2i32..=2).prop_map(|(p, d, m)| [p, p + d, p + d * f64::from(m)]),
        (p.clone(), p.clone(), u).prop_map(|(p, q, l)| [p, q, p.lerp(&q, l)]),
        (uniform3(p.clone()), tiny()).prop_map(|([p, q, r], e)| [p, q, p.lerp(&q, 0.5) + r * e]),
        (p.clone(), p.clone()).prop_map(|(p, q)| [p, q, p]),
        p.prop_map(|p| [p; 3]),
    ]
}

/// Scales a case by 2^e (e ∈ [-20, 20]), sometimes after a translation that makes it small against S, and
/// sometimes rotates it (ending exact coplanarity and parallelism, leaving near-degenerate cases).
fn transformed<const N: usize>(
    case: impl Strategy<Value = [V; N]>,
) -> impl Strategy<Value = [V; N]> {
    let shift = prop_oneof![3 => Just(V::zeros()), 1 => grid().prop_map(|g| g * 32.0)];
    let rotation = prop::option::weighted(0.3, any::<u64>());
    (case, -20i32..=20, shift, rotation).prop_map(|(c, e, t, rot)| {
        let r = rot.map(|seed| random_rotation(&mut SplitMix64::new(seed)));
        c.map(|v| (r.map_or(v, |r| r * v) + t) * 2f64.powi(e))
    })
}

fn point_cases() -> impl Strategy<Value = [V; 4]> {
    let (t, p, u) = (triangle(), point(), -0.2..1.2f64);
    transformed(prop_oneof![
        (p.clone(), t.clone()).prop_map(|(p, t)| [p, t[0], t[1], t[2]]),
        // above or below the face, projecting inside or near it
        (t.clone(), u.clone(), u.clone(), -1.0..1.0f64).prop_map(|(t, u, v, h)| {
            let (e1, e2) = (t[1] - t[0], t[2] - t[0]);
            let p = t[0] + e1 * u + e2 * v + normal(&e1, &e2) * h;
            [p, t[0], t[1], t[2]]
        }),
        // in the triangle's plane, exactly
        (grid(), grid3()).prop_map(|(p, t)| [p, t[0], t[1], t[2]].map(|v| flat(&v, 0.0))),
        // beyond the sharp tip of a needle, on an edge's extension (where inside tests misjudge)
        (uniform3(p.clone()), tiny(), 0.0..1.0f64, u).prop_map(|([a, b, r], e, l, h)| {
            let beyond = a + (a - b) * l + normal(&(b - a), &r) * (h - 0.5);
            [beyond, a, b, a.lerp(&b, 0.5) + r * e]
        }),
        // close to a corner
        (t, 0..3usize, p, tiny()).prop_map(|(t, i, r, e)| [t[i] + r * e, t[0], t[1], t[2]]),
    ])
}

fn segment_cases() -> impl Strategy<Value = [V; 4]> {
    let (p, g) = (point(), grid());
    let height = prop_oneof![Just(0.0), tiny(), Just(0.5)];
    transformed(prop_oneof![
        uniform4(p.clone()),
        // exactly parallel or collinear, overlapping or not
        (grid3(), -2i32..=2, -2i32..=2, any::<bool>()).prop_map(|([p, d, o], m0, m1, col)| {
            let q0 = if col { p } else { p + o };
            [p, p + d, q0 + d * f64::from(m0), q0 + d * f64::from(m1)]
        }),
        // nearly parallel, the lines' closest points inside both segments, at height 0, tiny or 0.5
        (uniform3(p.clone()), tiny(), 0.0..1.0f64, height).prop_map(|([p0, p1, r], e, l, h)| {
            let (d, c) = (p1 - p0, p0.lerp(&p1, l) + (p1 - p0).cross(&r) * h);
            [p0, p1, c - d * 0.5 + r * e, c + d * 0.5 - r * e]
        }),
        // crossing exactly at c, or passing at a small height over it
        (g.clone(), g.clone(), g, prop_oneof![Just(0.0), tiny()]).prop_map(|(c, d1, d2, h)| {
            let up = d1.cross(&d2) * h;
            [c - d1, c + d1, c - d2 + up, c + d2 + up]
        }),
        // a zero-length segment
        (p.clone(), p.clone(), p).prop_map(|(p, q0, q1)| [p, p, q0, q1]),
    ])
}

fn pair(a: [V; 3], b: [V; 3]) -> [V; 6] {
    [a[0], a[1], a[2], b[0], b[1], b[2]]
}

fn triangle_pairs() -> impl Strategy<Value = [V; 6]> {
    let t = triangle();
    let level = prop_oneof![Just(0.0), grid().prop_map(|g| g.z)];
    let gap = prop_oneof![Just(0.0), tiny()];
    transformed(prop_oneof![
        (t.clone(), t.clone()).prop_map(|(a, b)| pair(a, b)),
        // apart along an axis
        (t.clone(), t.clone(), 0..3usize, 1.0..2.5f64)
            .prop_map(|(a, b, k, o)| pair(a, b.map(|v| v + V::ith(k, o)))),
        // coplanar (z = 0) or parallel (z = 0 and z = h), exactly
        (grid3(), grid3(), level)
            .prop_map(|(a, b, h)| pair(a.map(|v| flat(&v, 0.0)), b.map(|v| flat(&v, h)))),
        // touching: sharing a corner, or a corner of b at the midpoint of an edge of a (grid: exact)
        (t.clone(), t.clone(), 0..3usize).prop_map(|(a, b, i)| pair(a, [a[i], b[1], b[2]])),
        (grid3(), t.clone()).prop_map(|(a, b)| pair(a, [(a[0] + a[1]) * 0.5, b[1], b[2]])),
        // piercing, or nearly touching: an edge of b through, or just off, a point c of a
        (t, point(), 0.0..0.5f64, 0.0..0.5f64, gap, 0.01..1.0f64).prop_map(
            |(a, r, u, v, gap, h)| {
                let (e1, e2) = (a[1] - a[0], a[2] - a[0]);
                let (c, n) = (a[0] + e1 * u + e2 * v, normal(&e1, &e2));
                let (top, bottom) = (c + n * (h + gap), c + n * (gap - h * (r.x + 1.5)));
                pair(a, [top, bottom, c + r])
            }
        ),
    ])
}

// --- properties --------------------------------------------------------------------------------------------------

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1024))]

    #[test]
    fn point_triangle_matches_oracle_f64(pts in point_cases()) { check_point_triangle::<f64>(&pts)?; }

    #[test]
    fn point_triangle_matches_oracle_f32(pts in point_cases()) { check_point_triangle::<f32>(&pts)?; }

    #[test]
    fn segment_segment_matches_oracle_f64(pts in segment_cases()) { check_segment_segment::<f64>(&pts)?; }

    #[test]
    fn segment_segment_matches_oracle_f32(pts in segment_cases()) { check_segment_segment::<f32>(&pts)?; }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn triangle_triangle_matches_oracle_f64(pts in triangle_pairs()) { check_triangle_triangle::<f64>(&pts)?; }

    #[test]
    fn triangle_triangle_matches_oracle_f32(pts in triangle_pairs()) { check_triangle_triangle::<f32>(&pts)?; }
}

// --- named cases -------------------------------------------------------------------------------------------------

fn v(x: f64, y: f64, z: f64) -> V {
    V::new(x, y, z)
}
fn near(x: f64, y: f64) -> bool {
    (x - y).abs() <= 1e-15 * y.abs().max(1.0)
}
fn seg(p: [V; 4]) -> ccd_query::primitive::SegmentSegment<f64> {
    distance_segment_segment(&p[0], &p[1], &p[2], &p[3])
}

#[test]
fn parallel_unit_triangles_one_apart() {
    let a = [v(0.0, 0.0, 0.0), v(1.0, 0.0, 0.0), v(0.0, 1.0, 0.0)];
    for shift in [v(0.0, 0.0, 1.0), v(0.5, 0.25, 1.0), v(-0.5, -0.5, -1.0)] {
        let r = distance_triangle_triangle(&a, &a.map(|p| p + shift));
        assert!(!r.intersecting && near(r.distance, 1.0), "{r:?}");
        assert!(near((r.point_b - r.point_a).norm(), 1.0), "{r:?}");
    }
}

#[test]
fn point_triangle_features() {
    let t = [v(0.0, 0.0, 0.0), v(3.0, 0.0, 0.0), v(0.0, 3.0, 0.0)];
    let r = distance_point_triangle(&v(1.0, 1.0, 2.0), &t); // above the centroid
    assert_eq!(r.feature, TriangleFeature::Face);
    assert!(
        near(r.distance, 2.0) && near((r.point - v(1.0, 1.0, 0.0)).norm(), 0.0),
        "{r:?}"
    );
    let r = distance_point_triangle(&v(-1.0, -1.0, 0.0), &t);
    assert_eq!((r.feature, r.point), (TriangleFeature::Vertex(0), t[0]));
    assert!(near(r.distance, 2f64.sqrt()));
    let r = distance_point_triangle(&v(1.5, -2.0, 0.0), &t);
    assert_eq!(r.feature, TriangleFeature::Edge(0));
    assert!(
        near(r.distance, 2.0) && near((r.point - v(1.5, 0.0, 0.0)).norm(), 0.0),
        "{r:?}"
    );
    let r = distance_point_triangle(&v(1.0, 1.0, 5.0), &[v(0.0, 0.0, 0.0); 3]); // a point "triangle"
    assert_eq!(r.feature, TriangleFeature::Vertex(0));
    assert!(near(r.distance, 27f64.sqrt()));
}

#[test]
fn segment_cases_by_hand() {
    let r = seg([
        v(-1.0, 0.0, 0.0),
        v(1.0, 0.0, 0.0),
        v(0.0, -1.0, 1.0),
        v(0.0, 1.0, 1.0),
    ]);
    assert!(near(r.distance, 1.0) && r.s == 0.5 && r.t == 0.5, "{r:?}");
    // parallel, overlapping on x ∈ [1, 2]: any overlapping pair, at distance 1
    let r = seg([
        v(0.0, 0.0, 0.0),
        v(2.0, 0.0, 0.0),
        v(1.0, 1.0, 0.0),
        v(3.0, 1.0, 0.0),
    ]);
    assert!(
        near(r.distance, 1.0) && near(r.point_p.x, r.point_q.x),
        "{r:?}"
    );
    // a zero-length segment is a point
    let r = seg([
        v(1.0, 2.0, 2.0),
        v(1.0, 2.0, 2.0),
        v(0.0, 0.0, 0.0),
        v(2.0, 0.0, 0.0),
    ]);
    assert!(
        near(r.distance, 8f64.sqrt()) && r.point_q == v(1.0, 0.0, 0.0),
        "{r:?}"
    );
}

#[test]
fn intersecting_triangles_give_zero_and_a_common_point() {
    let a = [v(0.0, 0.0, 0.0), v(2.0, 0.0, 0.0), v(0.0, 2.0, 0.0)];
    let b = [v(0.5, 0.5, -1.0), v(0.5, 0.5, 1.0), v(3.0, 3.0, 0.3)];
    let r = distance_triangle_triangle(&a, &b);
    assert!(
        r.intersecting && r.distance == 0.0 && r.point_a == r.point_b,
        "{r:?}"
    );
    check_triangle_triangle::<f64>(&pair(a, b)).unwrap();
}

#[test]
fn extreme_scales_match_oracle() {
    let t = [v(0.3, -0.2, 0.1), v(-0.7, 0.4, 0.9), v(0.2, 0.8, -0.5)];
    let o = [v(0.1, 0.1, 0.6), v(-0.4, -0.9, 0.2), v(0.9, 0.3, 0.35)];
    for e in [-1070, -1000, -600, -300, 300, 600, 1000, 1020] {
        let s = 2f64.powi(e / 2) * 2f64.powi(e - e / 2);
        let (t, o) = (t.map(|p| p * s), o.map(|p| p * s));
        check_point_triangle::<f64>(&[o[0], t[0], t[1], t[2]]).unwrap();
        check_segment_segment::<f64>(&[t[0], t[1], o[0], o[1]]).unwrap();
        check_triangle_triangle::<f64>(&pair(t, o)).unwrap();
    }
}

/// The plane-gap bound is tight for parallel triangles, certifies nothing for crossing planes, and is 0 for
/// degenerate or non-finite triangles.
#[test]
fn triangle_lower_bound_cases() {
    let a = [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]];
    let lifted = |h: f64| a.map(|p| [p[0] + 0.25, p[1] + 0.25, p[2] + h]);
    let lb = triangle_distance_lower_bound(&a, &lifted(1.0));
    assert!((1.0 - 1e-12..=1.0).contains(&lb), "{lb}");
    let below = triangle_distance_lower_bound(&lifted(-2.0), &a);
    assert!((2.0 - 1e-12..=2.0).contains(&below), "{below}");
    let crossing = [[0.2, 0.2, -1.0], [0.2, 0.2, 1.0], [5.0, 5.0, 3.0]];
    let straddles = triangle_distance_lower_bound(&a, &crossing);
    let exact = distance_triangle_triangle(&a.map(V::from), &crossing.map(V::from)).distance;
    assert!(straddles <= exact, "{straddles} > {exact}");
    let point = [[0.0, 0.0, 3.0]; 3];
    let segment = [[0.0, 0.0, 3.0], [1.0, 1.0, 3.0], [2.0, 2.0, 3.0]];
    assert!(
        triangle_distance_lower_bound(&a, &point) > 2.99,
        "a point above the plane of a proper triangle"
    );
    assert_eq!(
        triangle_distance_lower_bound(&point, &segment),
        0.0,
        "no plane among degenerate triangles"
    );
    for bad in [f64::NAN, f64::INFINITY, f64::MAX] {
        let b = [[bad, 0.0, 1.0], [1.0, 0.0, 1.0], [0.0, 1.0, 1.0]];
        assert_eq!(triangle_distance_lower_bound(&a, &b), 0.0, "{bad}");
    }
}

#[test]
fn non_finite_input_does_not_panic() {
    let t = [v(0.0, 0.0, 0.0), v(1.0, 0.0, 0.0), v(0.0, 1.0, 0.0)];
    for bad in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY, f64::MAX] {
        let p = v(bad, 0.5, 0.5);
        let _ = distance_point_triangle(&p, &t);
        let _ = distance_point_triangle(&t[0], &[t[0], p, t[2]]);
        let _ = seg([p, t[1], t[0], t[2]]);
        let _ = distance_triangle_triangle(&t, &[p, t[1], t[2]]);
        let _ = distance_triangle_triangle(&[p.cast::<f32>(); 3], &t.map(|x| x.cast::<f32>()));
    }
}

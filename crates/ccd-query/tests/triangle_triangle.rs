//! `triangles_intersect` against an independent exact oracle in big-integer arithmetic.
//!
//! # The oracle
//! Closed triangles A and B meet iff 0 ∈ A − B, and the Minkowski difference of two convex hulls is the convex hull of
//! the nine differences aᵢ − bⱼ. By Carathéodory's theorem, 0 lies in the convex hull of a point set iff it lies in
//! the hull of an affinely independent subset of at most four of them. The oracle enumerates every such subset (a
//! point, a segment, a proper triangle, a proper tetrahedron) and tests membership of 0 with exact determinants.
//! That is complete for every input, coplanar and degenerate ones included, and shares no code or case analysis with
//! the implementation (no planes, projections or edge tests).
//!
//! Exactness: every finite `f64` is m·2^e with integer m; scaling all 18 coordinates by the same power of two (the
//! smallest exponent present) makes them integers, and positive scaling changes no sign of the homogeneous
//! expressions used below. So the oracle runs in `BigInt` without rounding.

use ccd_query::primitive::triangles_intersect;
use ccd_testkit::{SplitMix64, random_rotation};
use nalgebra::Vector3;
use num_bigint::{BigInt, Sign};
use proptest::prelude::*;

type Tri = [[f64; 3]; 3];
type V = [BigInt; 3];

// --- oracle ------------------------------------------------------------------------------------------------------

/// `value = mantissa · 2^exponent`, exactly.
fn decompose(x: f64) -> (i64, i32) {
    assert!(x.is_finite(), "oracle needs finite coordinates");
    let bits = x.to_bits();
    let exp = ((bits >> 52) & 0x7ff) as i32;
    let frac = (bits & ((1u64 << 52) - 1)) as i64;
    let (m, e) = if exp == 0 {
        (frac, -1074)
    } else {
        (frac | (1i64 << 52), exp - 1075)
    };
    (if bits >> 63 == 1 { -m } else { m }, e)
}

/// All coordinates of both triangles as integers after one common power-of-two scaling.
fn to_integers(a: &Tri, b: &Tri) -> [[V; 3]; 2] {
    let parts: Vec<(i64, i32)> = a.iter().chain(b).flatten().map(|&x| decompose(x)).collect();
    let e_min = parts
        .iter()
        .filter(|p| p.0 != 0)
        .map(|p| p.1)
        .min()
        .unwrap_or(0);
    let mut it = parts.into_iter().map(|(m, e)| {
        if m == 0 {
            BigInt::from(0)
        } else {
            BigInt::from(m) << (e - e_min) as usize
        }
    });
    let mut next_point = || -> V { std::array::from_fn(|_| it.next().unwrap()) };
    let mut next_tri = || -> [V; 3] { std::array::from_fn(|_| next_point()) };
    [next_tri(), next_tri()]
}

fn sub(a: &V, b: &V) -> V {
    std::array::from_fn(|i| &a[i] - &b[i])
}

fn cross(a: &V, b: &V) -> V {
    [
        &a[1] * &b[2] - &a[2] * &b[1],
        &a[2] * &b[0] - &a[0] * &b[2],
        &a[0] * &b[1] - &a[1] * &b[0],
    ]
}

fn dot(a: &V, b: &V) -> BigInt {
    &a[0] * &b[0] + &a[1] * &b[1] + &a[2] * &b[2]
}

fn is_zero(v: &V) -> bool {
    v.iter().all(|c| c.sign() == Sign::NoSign)
}

/// Sign of det(b − a, c − a, d − a).
fn det_sign(a: &V, b: &V, c: &V, d: &V) -> Sign {
    dot(&sub(d, a), &cross(&sub(b, a), &sub(c, a))).sign()
}

/// 0 ∈ conv{x, y} for distinct x, y: the origin is on the line and between them.
fn origin_in_segment(x: &V, y: &V) -> bool {
    is_zero(&cross(x, y)) && dot(x, y).sign() != Sign::Plus
}

/// 0 ∈ conv{x, y, z} when x, y, z are not collinear (false otherwise).
fn origin_in_triangle(x: &V, y: &V, z: &V) -> bool {
    let n = cross(&sub(y, x), &sub(z, x));
    if is_zero(&n) || dot(x, &n).sign() != Sign::NoSign {
        return false;
    }
    // Orientation of (0, u, v) about n is (u × v)·n; (x, y, z) itself is counter-clockwise about n.
    [(x, y), (y, z), (z, x)]
        .into_iter()
        .all(|(u, v)| dot(&cross(u, v), &n).sign() != Sign::Minus)
}

/// 0 ∈ conv{x, y, z, w} when the four are affinely independent (false otherwise).
fn origin_in_tetrahedron(x: &V, y: &V, z: &V, w: &V) -> bool {
    let vol = det_sign(x, y, z, w);
    if vol == Sign::NoSign {
        return false;
    }
    let o: V = std::array::from_fn(|_| BigInt::from(0));
    // Barycentric coordinates of 0 are the volumes with one corner replaced by 0, over the full volume.
    let ok = |s: Sign| s == vol || s == Sign::NoSign;
    ok(det_sign(&o, y, z, w))
        && ok(det_sign(x, &o, z, w))
        && ok(det_sign(x, y, &o, w))
        && ok(det_sign(x, y, z, &o))
}

/// Exact answer to "do the closed triangles a and b share a point?".
fn oracle(a: &Tri, b: &Tri) -> bool {
    let [ia, ib] = to_integers(a, b);
    let d: Vec<V> = ia
        .iter()
        .flat_map(|p| ib.iter().map(move |q| sub(p, q)))
        .collect();
    let n = d.len();
    if d.iter().any(is_zero) {
        return true;
    }
    for i in 0..n {
        for j in i + 1..n {
            if d[i] != d[j] && origin_in_segment(&d[i], &d[j]) {
                return true;
            }
        }
    }
    for i in 0..n {
        for j in i + 1..n {
            for k in j + 1..n {
                if origin_in_triangle(&d[i], &d[j], &d[k]) {
                    return true;
                }
            }
        }
    }
    for i in 0..n {
        for j in i + 1..n {
            for k in j + 1..n {
                for l in k + 1..n {
                    if origin_in_tetrahedron(&d[i], &d[j], &d[k], &d[l]) {
                        return true;
                    }
                }
            }
        }
    }
    false
}

// --- symmetric variants ------------------------------------------------------------------------------------------

const PERMS: [[usize; 3]; 6] = [
    [0, 1, 2],
    [1, 2, 0],
    [2, 0, 1],
    [0, 2, 1],
    [2, 1, 0],
    [1, 0, 2],
];

fn permuted(t: &Tri, p: [usize; 3]) -> Tri {
    [t[p[0]], t[p[1]], t[p[2]]]
}

/// The same pair under an exact symmetry of space: a permutation of the axes and sign flips.
fn mirrored(t: &Tri, axes: [usize; 3], flips: [bool; 3]) -> Tri {
    t.map(|v| std::array::from_fn(|i| if flips[i] { -v[axes[i]] } else { v[axes[i]] }))
}

/// Asserts that every vertex order of both triangles, both argument orders and an axis mirror give `expected`.
fn assert_all_orders(a: &Tri, b: &Tri, expected: bool) {
    for pa in PERMS {
        for pb in PERMS {
            let (a, b) = (permuted(a, pa), permuted(b, pb));
            assert_eq!(triangles_intersect(&a, &b), expected, "a={a:?} b={b:?}");
            assert_eq!(
                triangles_intersect(&b, &a),
                expected,
                "swapped a={a:?} b={b:?}"
            );
        }
    }
    let (ma, mb) = (
        mirrored(a, [2, 0, 1], [true, false, true]),
        mirrored(b, [2, 0, 1], [true, false, true]),
    );
    assert_eq!(
        triangles_intersect(&ma, &mb),
        expected,
        "mirrored a={a:?} b={b:?}"
    );
}

/// A named case: the oracle and the implementation (in every order) must both say `expected`.
fn case(a: Tri, b: Tri, expected: bool) {
    assert_eq!(
        oracle(&a, &b),
        expected,
        "oracle disagrees with the named case a={a:?} b={b:?}"
    );
    assert_all_orders(&a, &b, expected);
}

/// A random case: implementation, in a few orders, against the oracle.
fn check_against_oracle(a: &Tri, b: &Tri) -> Result<(), TestCaseError> {
    let expected = oracle(a, b);
    prop_assert_eq!(triangles_intersect(a, b), expected, "a={:?} b={:?}", a, b);
    prop_assert_eq!(
        triangles_intersect(b, a),
        expected,
        "swapped a={:?} b={:?}",
        a,
        b
    );
    let (pa, pb) = (permuted(a, [2, 1, 0]), permuted(b, [1, 2, 0]));
    prop_assert_eq!(
        triangles_intersect(&pa, &pb),
        expected,
        "permuted a={:?} b={:?}",
        pa,
        pb
    );
    Ok(())
}

const T0: Tri = [[0.0, 0.0, 0.0], [4.0, 0.0, 0.0], [0.0, 4.0, 0.0]];

// --- named cases -------------------------------------------------------------------------------------------------

#[test]
fn shared_vertex() {
    case(
        T0,
        [[4.0, 0.0, 0.0], [5.0, 1.0, 3.0], [6.0, -2.0, 1.0]],
        true,
    );
    // Sharing a vertex but otherwise below: still a contact.
    case(
        T0,
        [[0.0, 0.0, 0.0], [1.0, 1.0, -1.0], [-1.0, 2.0, -3.0]],
        true,
    );
}

#[test]
fn shared_edge() {
    case(
        T0,
        [[4.0, 0.0, 0.0], [0.0, 4.0, 0.0], [3.0, 3.0, 2.0]],
        true,
    );
    // Same edge, the other triangle coplanar on the far side.
    case(
        T0,
        [[4.0, 0.0, 0.0], [0.0, 4.0, 0.0], [4.0, 4.0, 0.0]],
        true,
    );
}

#[test]
fn vertex_on_face_interior() {
    case(
        T0,
        [[1.0, 1.0, 0.0], [2.0, 3.0, 5.0], [-1.0, 2.0, 4.0]],
        true,
    );
    // Just above the face.
    let z = 2f64.powi(-100);
    case(
        T0,
        [[1.0, 1.0, z], [2.0, 3.0, 5.0], [-1.0, 2.0, 4.0]],
        false,
    );
}

#[test]
fn vertex_on_edge_and_edge_on_face() {
    case(
        T0,
        [[2.0, 0.0, 0.0], [2.0, -1.0, 3.0], [3.0, -2.0, 2.0]],
        true,
    );
    case(
        T0,
        [[1.0, 1.0, 0.0], [2.0, 1.0, 0.0], [1.0, 1.0, 2.0]],
        true,
    );
}

#[test]
fn edge_crossing_edge() {
    // B's edge crosses A's edge x = 0 at (0, 2, 0), both triangles otherwise apart.
    case(
        T0,
        [[-1.0, 2.0, -1.0], [1.0, 2.0, 1.0], [-3.0, 2.0, 5.0]],
        true,
    );
    // Skew edges passing each other at a tiny distance.
    case(
        T0,
        [
            [-1.0, 2.0, -1.0],
            [1.0, 2.0, 1.0 + 2f64.powi(-50)],
            [-3.0, 2.0, 5.0],
        ],
        false,
    );
}

#[test]
fn piercing_and_near_miss() {
    case(
        T0,
        [[1.0, 1.0, -1.0], [1.0, 1.0, 1.0], [5.0, 5.0, 0.0]],
        true,
    );
    case(
        T0,
        [[5.0, 5.0, -1.0], [5.0, 5.0, 1.0], [6.0, 5.0, 0.0]],
        false,
    );
    // Straddles A's plane, crosses its line, misses the triangle.
    case(
        T0,
        [[3.0, 3.0, -1.0], [3.0, 3.0, 1.0], [9.0, -1.0, 0.5]],
        false,
    );
}

#[test]
fn coplanar_overlap_disjoint_containment() {
    case(
        T0,
        [[1.0, 1.0, 0.0], [5.0, 1.0, 0.0], [1.0, 5.0, 0.0]],
        true,
    );
    case(
        T0,
        [[3.0, 3.0, 0.0], [6.0, 3.0, 0.0], [3.0, 6.0, 0.0]],
        false,
    );
    case(
        T0,
        [[1.0, 1.0, 0.0], [2.0, 1.0, 0.0], [1.0, 2.0, 0.0]],
        true,
    );
    // Star of David: edges cross, no vertex inside.
    let s = [[0.0, 0.0, 7.0], [6.0, 0.0, 7.0], [3.0, 6.0, 7.0]];
    case(
        s,
        [[0.0, 4.0, 7.0], [6.0, 4.0, 7.0], [3.0, -2.0, 7.0]],
        true,
    );
    // Coplanar, touching at one boundary point.
    case(
        T0,
        [[2.0, 2.0, 0.0], [5.0, 5.0, 0.0], [6.0, 2.0, 0.0]],
        true,
    );
    // Coplanar in a slanted plane z = x + y.
    let slant = |x: f64, y: f64| [x, y, x + y];
    case(
        [slant(0.0, 0.0), slant(4.0, 0.0), slant(0.0, 4.0)],
        [slant(1.0, 1.0), slant(3.0, 3.0), slant(1.0, 3.0)],
        true,
    );
    case(
        [slant(0.0, 0.0), slant(4.0, 0.0), slant(0.0, 4.0)],
        [slant(3.0, 3.0), slant(5.0, 3.0), slant(3.0, 5.0)],
        false,
    );
}

#[test]
fn parallel_planes() {
    case(T0, T0.map(|v| [v[0], v[1], 1.0]), false);
    case(T0, T0.map(|v| [v[0], v[1], -1e-40]), false);
}

#[test]
fn point_triangle_inside_outside() {
    let p = |x: f64, y: f64, z: f64| [[x, y, z]; 3];
    case(T0, p(1.0, 1.0, 0.0), true);
    case(T0, p(2.0, 2.0, 0.0), true); // on the hypotenuse
    case(T0, p(0.0, 0.0, 0.0), true); // on a corner
    case(T0, p(3.0, 3.0, 0.0), false);
    case(T0, p(1.0, 1.0, 1.0), false);
    case(p(1.0, 2.0, 3.0), p(1.0, 2.0, 3.0), true);
    case(p(1.0, 2.0, 3.0), p(1.0, 2.0, 3.5), false);
    // A point on a segment (a triangle with a repeated vertex), and off it.
    let seg = [[0.0, 0.0, 0.0], [2.0, 2.0, 2.0], [0.0, 0.0, 0.0]];
    case(seg, p(1.0, 1.0, 1.0), true);
    case(seg, p(1.0, 1.0, 1.5), false);
    case(seg, p(3.0, 3.0, 3.0), false);
}

#[test]
fn collinear_segments() {
    // Triangles with three collinear corners are segments.
    let seg = |a: [f64; 3], b: [f64; 3]| {
        [
            a,
            [
                (a[0] + b[0]) / 2.0,
                (a[1] + b[1]) / 2.0,
                (a[2] + b[2]) / 2.0,
            ],
            b,
        ]
    };
    case(
        seg([0.0, 0.0, 0.0], [2.0, 2.0, 2.0]),
        seg([1.0, 1.0, 1.0], [3.0, 3.0, 3.0]),
        true,
    );
    case(
        seg([0.0, 0.0, 0.0], [2.0, 2.0, 2.0]),
        seg([2.0, 2.0, 2.0], [4.0, 4.0, 4.0]),
        true,
    );
    case(
        seg([0.0, 0.0, 0.0], [2.0, 2.0, 2.0]),
        seg([3.0, 3.0, 3.0], [5.0, 5.0, 5.0]),
        false,
    );
    // Parallel but offset, crossing, skew.
    case(
        seg([0.0, 0.0, 0.0], [2.0, 2.0, 2.0]),
        seg([0.0, 0.0, 1.0], [2.0, 2.0, 3.0]),
        false,
    );
    case(
        seg([0.0, 0.0, 0.0], [2.0, 2.0, 0.0]),
        seg([0.0, 2.0, 0.0], [2.0, 0.0, 0.0]),
        true,
    );
    case(
        seg([0.0, 0.0, 0.0], [2.0, 2.0, 0.0]),
        seg([0.0, 2.0, 1.0], [2.0, 0.0, 1.0]),
        false,
    );
    // A segment lying in a triangle's plane, crossing its boundary; and one piercing it.
    case(T0, seg([-2.0, 1.0, 0.0], [2.0, 1.0, 0.0]), true);
    case(T0, seg([-2.0, 1.0, 0.0], [-1.0, 1.0, 0.0]), false);
    case(T0, seg([1.0, 1.0, -2.0], [1.0, 1.0, 2.0]), true);
    case(T0, seg([5.0, 5.0, -2.0], [5.0, 5.0, 2.0]), false);
}

#[test]
fn non_finite_input_never_panics() {
    let bad = [
        f64::NAN,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::MAX,
        -f64::MAX,
    ];
    for x in bad {
        for i in 0..9 {
            let mut b = [[1.0, 1.0, -1.0], [1.0, 1.0, 1.0], [5.0, 5.0, 0.0]];
            b[i / 3][i % 3] = x;
            let _ = triangles_intersect(&T0, &b);
            let _ = triangles_intersect(&b, &T0);
            let _ = triangles_intersect(&b, &b);
        }
    }
}

// --- property tests ----------------------------------------------------------------------------------------------

fn grid_tri(range: i32) -> impl Strategy<Value = Tri> {
    prop::array::uniform3(prop::array::uniform3((-range..=range).prop_map(f64::from)))
}

/// Two triangles in a common plane: integer 2-D points mapped by (u, v) ↦ (u, v, αu + βv + γ), axes then permuted.
fn coplanar_pair() -> impl Strategy<Value = (Tri, Tri)> {
    let pt = prop::array::uniform2(-3i32..=3);
    (
        prop::array::uniform3(pt.clone()),
        prop::array::uniform3(pt),
        -2i32..=2,
        -2i32..=2,
        -2i32..=2,
        0usize..3,
    )
        .prop_map(|(a, b, al, be, ga, rot)| {
            let lift = |t: [[i32; 2]; 3]| -> Tri {
                t.map(|[u, v]| {
                    let p = [f64::from(u), f64::from(v), f64::from(al * u + be * v + ga)];
                    [p[rot], p[(rot + 1) % 3], p[(rot + 2) % 3]]
                })
            };
            (lift(a), lift(b))
        })
}

/// A degenerate triangle on the grid: a point, a repeated vertex, or three collinear corners p + k·d.
fn degenerate_grid_tri() -> impl Strategy<Value = Tri> {
    (
        prop::array::uniform3(-3i32..=3),
        prop::array::uniform3(-2i32..=2),
        prop::array::uniform3(-2i32..=2),
    )
        .prop_map(|(p, d, k)| k.map(|k| std::array::from_fn(|i| f64::from(p[i] + k * d[i]))))
}

fn unit_f64_tri() -> impl Strategy<Value = Tri> {
    prop::array::uniform3(prop::array::uniform3(-1.0f64..1.0))
}

/// A grid pair moved by one shared random rotation and offset in `f64` (rounded, so touching becomes near-touching
/// either way), then nudged by a few units in the last place.
fn near_degenerate_pair() -> impl Strategy<Value = (Tri, Tri)> {
    (
        grid_tri(2),
        grid_tri(2),
        any::<u64>(),
        prop::array::uniform4(-2i64..=2),
    )
        .prop_map(|(a, b, seed, nudges)| {
            let mut rng = SplitMix64::new(seed);
            let rot = random_rotation(&mut rng);
            let scale = rng.range(0.1, 10.0);
            let offset = Vector3::new(
                rng.range(-5.0, 5.0),
                rng.range(-5.0, 5.0),
                rng.range(-5.0, 5.0),
            );
            let apply = |t: Tri| -> Tri {
                t.map(|p| {
                    let q = rot * Vector3::from(p) * scale + offset;
                    [q.x, q.y, q.z]
                })
            };
            let (mut a, mut b) = (apply(a), apply(b));
            for (i, n) in nudges.into_iter().enumerate() {
                let slot = (seed >> (8 * i)) as usize % 18;
                let t = if slot < 9 { &mut a } else { &mut b };
                let x = &mut t[(slot % 9) / 3][slot % 3];
                *x = f64::from_bits((x.to_bits() as i64 + n) as u64);
            }
            (a, b)
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4000))]

    #[test]
    fn grid_pairs_match_oracle(a in grid_tri(3), b in grid_tri(3)) {
        check_against_oracle(&a, &b)?;
    }

    #[test]
    fn tight_grid_pairs_match_oracle(a in grid_tri(1), b in grid_tri(1)) {
        check_against_oracle(&a, &b)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn coplanar_pairs_match_oracle((a, b) in coplanar_pair()) {
        check_against_oracle(&a, &b)?;
    }

    #[test]
    fn degenerate_pairs_match_oracle(a in degenerate_grid_tri(), b in prop_oneof![degenerate_grid_tri(), grid_tri(3)]) {
        check_against_oracle(&a, &b)?;
    }

    #[test]
    fn random_f64_pairs_match_oracle(a in unit_f64_tri(), b in unit_f64_tri()) {
        check_against_oracle(&a, &b)?;
    }

    #[test]
    fn near_degenerate_f64_pairs_match_oracle((a, b) in near_degenerate_pair()) {
        check_against_oracle(&a, &b)?;
    }
}

/// Exact symmetries of `f64` space (axis permutations and sign flips, translations by small integers on the grid)
/// cannot change the answer.
#[test]
fn seeded_grid_sweep_is_symmetric() {
    let mut rng = SplitMix64::new(0x7121);
    let tri = |rng: &mut SplitMix64| -> Tri {
        std::array::from_fn(|_| std::array::from_fn(|_| rng.below(5) as f64 - 2.0))
    };
    let mut hits = 0;
    for _ in 0..3000 {
        let (a, b) = (tri(&mut rng), tri(&mut rng));
        let expected = triangles_intersect(&a, &b);
        hits += usize::from(expected);
        let axes = PERMS[rng.below(6) as usize];
        let flips = [rng.chance(0.5), rng.chance(0.5), rng.chance(0.5)];
        assert_eq!(
            triangles_intersect(&mirrored(&a, axes, flips), &mirrored(&b, axes, flips)),
            expected
        );
        let shift = [
            rng.below(7) as f64 - 3.0,
            rng.below(7) as f64 - 3.0,
            rng.below(7) as f64 - 3.0,
        ];
        let moved = |t: &Tri| t.map(|p| [p[0] + shift[0], p[1] + shift[1], p[2] + shift[2]]);
        assert_eq!(triangles_intersect(&moved(&a), &moved(&b)), expected);
    }
    // The sweep exercises both answers.
    assert!(hits > 300 && hits < 2700, "hits {hits}");
}

//! Rectangle swept spheres: every fitted RSS contains its triangles (random, flat, collinear and degenerate
//! meshes, `f32` and `f64`, both fit methods, scales `2^-20..2^20`); the certified lower bound never exceeds
//! the exact distance between two RSSs; `overlaps` never calls intersecting or touching volumes disjoint;
//! `rss_apart` never claims a gap the volumes do not have.
//!
//! Oracle (`oracle/`, `f64`): the exact distance between the two rectangles as stored (parallelograms: A's with
//! its axes, B's moved by the pose's matrix applied exactly), by brute force over corner–rectangle and edge–edge
//! pairs with a separating-axis test for intersection; the RSS distance is at least that minus
//! `r_a + σ_max(P)·r_b` (B's ball moved by `P` lies in that ball) minus `16 ε S` for the oracle's rounding, and
//! the volumes intersect where the rectangle distance is at most `r_a + σ_min(P)·r_b`.

mod oracle;

use ccd_bv::apart::rss_apart;
use ccd_bv::nalgebra::{Matrix3, Vector3};
use ccd_bv::{BoundingVolume, FitMethod, MoveRounding, Obb, Pose, Real, Rss};
use ccd_testkit::{Mesh, SplitMix64, random_blob, random_soup, sprinkle_degenerate};
use oracle::{Par, V, median, par_closest, polar, rotation};
use proptest::prelude::*;

const METHODS: [FitMethod; 2] = [FitMethod::HullSurface, FitMethod::TriangleSurface];

fn wide<T: Real>(v: &[T; 3]) -> V {
    V::new(
        v[0].to_f64_exact(),
        v[1].to_f64_exact(),
        v[2].to_f64_exact(),
    )
}

/// A random mesh of one of seven shapes, scaled by `2^k`: a soup, a blob, a soup with degenerate triangles,
/// a flat soup in a tilted plane, a collinear soup, one repeated point, and a soup of thin slivers.
fn mesh(seed: u64, shape: u8, k: i32) -> Mesh {
    let mut rng = SplitMix64::new(seed);
    let mut m = match shape {
        1 => random_blob(&mut rng, 1, 1.0, 0.3),
        _ => {
            let n = 1 + rng.below(40) as usize;
            random_soup(&mut rng, n, 1.0, 0.4)
        }
    };
    let q = rotation(3, [rng.next_f64(), rng.next_f64(), rng.next_f64()]);
    let c = V::new(
        rng.range(-5.0, 5.0),
        rng.range(-5.0, 5.0),
        rng.range(-5.0, 5.0),
    );
    let place = |p: V| q * p + c;
    for v in &mut m.vertices {
        let p = V::from(*v);
        let p = match shape {
            3 => place(V::new(p.x, p.y, 0.0)),
            4 => place(V::new(p.x + p.y + p.z, 0.0, 0.0)),
            5 => c,
            6 => place(V::new(p.x, p.y * 1e-3, p.z * 1e-7)),
            _ => place(p),
        };
        *v = p.into();
    }
    if shape == 2 {
        sprinkle_degenerate(&mut m, &mut rng, 6);
    }
    m.scaled(2f64.powi(k))
}

/// Fits over `faces` of `m` in `T` (both methods): well formed, every vertex inside as evaluated, and each
/// triangle's centroid inside within `4 ε` of the scale; the radius is the OBB's thinnest half-extent, up to
/// rounding. Returns the number of volumes checked.
fn check_fits<T: Real>(m: &Mesh, faces: &[[u32; 3]]) -> usize {
    let v: Vec<[T; 3]> = m.vertices.iter().map(|p| p.map(T::lit)).collect();
    for method in METHODS {
        let rss = Rss::fit(&v, faces, method);
        assert!(rss.is_well_formed(), "{rss:?}");
        let scale = faces
            .iter()
            .flatten()
            .map(|&i| wide(&v[i as usize]).amax())
            .fold(0.0, f64::max);
        for f in faces {
            for &i in f {
                let p = &v[i as usize];
                assert!(rss.contains_point(p, T::zero()), "{rss:?} misses {p:?}");
            }
            let g = f.iter().map(|&i| wide(&v[i as usize])).sum::<V>() / 3.0;
            let tol = T::lit(4.0 * T::EPSILON.to_f64_exact() * scale);
            let centroid = [T::lit(g.x), T::lit(g.y), T::lit(g.z)];
            assert!(
                rss.contains_point(&centroid, tol),
                "{rss:?} misses the centroid {g:?}"
            );
        }
        let obb = Obb::fit(&v, faces, method);
        let slack = 64.0 * T::EPSILON.to_f64_exact() * scale;
        assert!(
            rss.radius.to_f64_exact() <= obb.half[2].to_f64_exact() + slack,
            "radius {:?} above the box's {:?}",
            rss.radius,
            obb.half[2]
        );
    }
    2
}

/// The whole mesh, each of its first triangles alone, and runs of four (leaf-like subsets).
fn subsets(m: &Mesh) -> Vec<Vec<[u32; 3]>> {
    let t = &m.triangles;
    let mut out = vec![t.clone()];
    out.extend(t.iter().take(6).map(|f| vec![*f]));
    out.extend(t.chunks(4).take(6).map(<[_]>::to_vec));
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// 512 meshes × 13 subsets × 2 methods, in `f64` and `f32`.
    #[test]
    fn fitted_rss_contains_its_triangles(seed in any::<u64>(), shape in 0u8..7, k in -20i32..=20) {
        let m = mesh(seed, shape, k);
        for faces in subsets(&m) {
            check_fits::<f64>(&m, &faces);
            check_fits::<f32>(&m, &faces);
        }
    }
}

/// How B is placed: free, touching A, overlapping A, far from A.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Mode {
    Free,
    Touching,
    Overlapping,
    Far,
}

/// A random RSS pair and pose in `T` at scale `2^k`, placed by `mode`; every frame a uniformly random rotation
/// when `general`, else one in four.
struct Case<T: Real> {
    a: Rss<T>,
    b: Rss<T>,
    pose: Pose<T>,
}

fn unit3(rng: &mut SplitMix64) -> [f64; 3] {
    [0; 3].map(|_| rng.next_f64())
}

fn random_rss<T: Real>(rng: &mut SplitMix64, s: f64, general: bool) -> Rss<T> {
    let mut size = |hi: f64| {
        if rng.below(4) == 0 {
            0.0
        } else {
            rng.range(0.0, hi) * s
        }
    };
    let (h0, h1, r) = (size(1.5), size(1.5), size(0.8));
    let k = if general { 3 } else { rng.below(4) };
    let rot = rotation(k, unit3(rng));
    let c = unit3(rng).map(|u| (2.0 * u - 1.0) * 2.0 * s);
    Rss {
        rot: rot.map(T::lit).into(),
        center: c.map(T::lit),
        half: [h0, h1].map(T::lit),
        radius: T::lit(r),
    }
}

/// The oracle for `case`: the rectangles' closest points, `σ_max` and `σ_min` of the pose's matrix, and the
/// scale `S`.
fn rect_oracle<T: Real>(c: &Case<T>) -> (V, V, f64, f64, f64) {
    let p = c.pose.rot.map(|x| x.to_f64_exact());
    let t = c.pose.trans.map(|x| x.to_f64_exact());
    let par = |v: &Rss<T>, m: &Matrix3<f64>, shift: &V| Par {
        c: m * wide(&v.center) + shift,
        u: m * wide(&v.rot[0]) * v.half[0].to_f64_exact(),
        w: m * wide(&v.rot[1]) * v.half[1].to_f64_exact(),
    };
    let (x, y) = par_closest(
        &par(&c.a, &Matrix3::identity(), &V::zeros()),
        &par(&c.b, &p, &t),
    );
    let (_, _, smax) = polar(&p);
    let smin = p.svd(false, false).singular_values.min() * (1.0 - 1e-15);
    let size = |v: &Rss<T>| {
        wide(&v.center).abs().sum() + (v.half[0] + v.half[1] + v.radius).to_f64_exact()
    };
    (x, y, smax, smin, t.abs().sum() + size(&c.a) + size(&c.b))
}

impl<T: Real> Case<T> {
    fn new(seed: u64, k: i32, mode: Mode, general: bool) -> Self {
        let mut rng = SplitMix64::new(seed);
        let s = 2f64.powi(k);
        let (a, b) = (
            random_rss(&mut rng, s, general),
            random_rss(&mut rng, s, general),
        );
        let reach = if mode == Mode::Far { 40.0 } else { 4.0 } * s;
        let kr = if general { 3 } else { rng.below(4) };
        let rot = rotation(kr, unit3(&mut rng));
        let t = V::from(unit3(&mut rng).map(|u| (2.0 * u - 1.0) * reach));
        let pose = |t: &V| Pose::from_parts(rot.map(T::lit), t.map(T::lit));
        let mut case = Case {
            a,
            b,
            pose: pose(&t),
        };
        let (x, y, _, _, _) = rect_oracle(&case);
        let d = y - x;
        let n = d.norm();
        if n > 0.0 {
            let gap = n - (a.radius + b.radius).to_f64_exact();
            let depth = 0.05 * s;
            let shift = match mode {
                Mode::Touching => -d / n * gap,
                Mode::Overlapping => -d / n * (gap + depth),
                _ => V::zeros(),
            };
            case.pose = pose(&(case.pose.trans.map(|x| x.to_f64_exact()) + shift));
        }
        case
    }

    /// Checks the bound, its local variant, `overlaps` and `rss_apart` against the oracle; returns the bound and
    /// the oracle's distance (a lower estimate of the true one).
    fn check(&self, frac: f64) -> (f64, f64) {
        let (a, b, pose) = (&self.a, &self.b, &self.pose);
        let (x, y, smax, smin, s) = rect_oracle(self);
        let rect = (y - x).norm();
        let (ra, rb) = (a.radius.to_f64_exact(), b.radius.to_f64_exact());
        let truth = rect - ra - smax * rb - 16.0 * f64::EPSILON * s;
        let lb = a.distance_lower_bound(b, pose).to_f64_exact();
        let moved = b.transformed(pose);
        let local = a
            .distance_lower_bound_local(&moved, &MoveRounding::of(pose))
            .to_f64_exact();
        let name = T::NAME;
        assert!(
            lb >= 0.0 && lb <= truth.max(0.0),
            "{name}: bound {lb} > {truth}"
        );
        assert!(
            local >= 0.0 && local <= truth.max(0.0),
            "{name}: local {local} > {truth}"
        );
        if rect <= ra + smin * rb {
            assert!(
                a.overlaps(b, pose),
                "{name}: intersecting volumes called disjoint"
            );
            assert!(
                a.overlaps_local(&moved),
                "{name}: intersecting volumes called disjoint (local)"
            );
        }
        if lb > 1e-9 * s {
            assert!(
                !a.overlaps(b, pose),
                "{name}: positive bound {lb} but overlapping"
            );
        }
        // The gap claimed by `apart` (for the pose's own matrix: defect 0 covers it up to `(σ_max − 1)·S`).
        let gap = T::lit(truth.max(0.0) * frac);
        if rss_apart(a, b, pose, gap, T::zero()) {
            let allowed = truth + 2.0 * (smax - 1.0) * s;
            assert!(
                gap.to_f64_exact() < allowed,
                "{name}: apart by {gap:?}, distance {truth}"
            );
        }
        (lb, truth)
    }
}

fn mode() -> impl Strategy<Value = Mode> {
    prop::sample::select(vec![
        Mode::Free,
        Mode::Touching,
        Mode::Overlapping,
        Mode::Far,
    ])
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    /// 3000 cases, each an `f64` and an `f32` pair.
    #[test]
    fn rss_bound_never_exceeds_the_distance(
        seed in any::<u64>(), k in -20i32..=20, m in mode(), frac in 0.0f64..1.2,
    ) {
        Case::<f64>::new(seed, k, m, false).check(frac);
        Case::<f32>::new(seed, k, m, false).check(frac);
    }
}

/// Touching and overlapping placements are never called disjoint and get the bound 0.
#[test]
fn touching_and_overlapping_volumes_overlap() {
    let mut touching = [0; 2];
    for seed in 0..1000 {
        for (i, mode) in [Mode::Touching, Mode::Overlapping].into_iter().enumerate() {
            for k in [-20, 0, 20] {
                for c64 in [true, false] {
                    let (lb, truth) = if c64 {
                        Case::<f64>::new(seed, k, mode, seed % 2 == 0).check(0.5)
                    } else {
                        Case::<f32>::new(seed, k, mode, seed % 2 == 0).check(0.5)
                    };
                    if truth <= 0.0 {
                        assert_eq!(lb, 0.0);
                        touching[i] += 1;
                    }
                }
            }
        }
    }
    assert!(touching.iter().all(|&n| n > 4000), "{touching:?}");
}

/// Two flat squares facing each other, radii 0.25 each: touching at distance 0.5, the bound follows the gap.
#[test]
fn facing_squares() {
    let sq = Rss {
        rot: [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]],
        center: [0.0; 3],
        half: [1.0, 1.0],
        radius: 0.25,
    };
    let at = |z: f64| Pose::from_parts(Matrix3::identity(), Vector3::new(0.3, -0.2, z));
    assert!(sq.overlaps(&sq, &at(0.5)) && sq.distance_lower_bound(&sq, &at(0.5)) == 0.0);
    assert!(!rss_apart(&sq, &sq, &at(0.5), 0.0, 0.0));
    let lb = sq.distance_lower_bound(&sq, &at(0.75));
    assert!(
        !sq.overlaps(&sq, &at(0.75)) && lb <= 0.25 && lb > 0.25 - 1e-12,
        "{lb}"
    );
    assert!(rss_apart(&sq, &sq, &at(0.75), 0.2, 0.0) && !rss_apart(&sq, &sq, &at(0.75), 0.25, 0.0));
    // A pose defect of 1e-3 costs 16e-3 of the scale.
    assert!(!rss_apart(&sq, &sq, &at(0.75), 0.2, 1e-3));
    // Measures of a unit square swept by 0.25.
    let pi = std::f64::consts::PI;
    assert_eq!(
        (sq.thickness(), sq.diameter()),
        (0.5, 2.0 * 2f64.sqrt() + 0.5)
    );
    assert!(
        (sq.volume() - (8.0 * 0.25 + 2.0 * pi * 0.0625 * 2.0 + 4.0 / 3.0 * pi / 64.0)).abs()
            < 1e-12
    );
    assert!((sq.area() - (8.0 + 4.0 * pi * 0.25 * 2.0 + 4.0 * pi * 0.0625)).abs() < 1e-12);
}

/// A moved RSS contains the moved vertices (up to the transform's rounding).
#[test]
fn transformed_contains_moved_vertices() {
    for seed in 0..200 {
        let m = mesh(seed, (seed % 7) as u8, 0);
        let rss = Rss::fit(&m.vertices, &m.triangles, FitMethod::default());
        let mut rng = SplitMix64::new(seed);
        let rot = rotation(3, unit3(&mut rng));
        let pose = Pose::from_parts(rot, V::new(3.0, -1.0, 2.0));
        let moved = rss.transformed(&pose);
        for v in &m.vertices {
            assert!(moved.contains_point(&pose.transform_array(v), 1e-12));
        }
    }
}

/// The median of `bound / distance` over separated pairs (oracle distance above 1e-3 of the scene scale),
/// printed; the floor catches a bound that became trivially 0 or much looser.
#[test]
fn rss_median_ratio() {
    for general in [false, true] {
        for f32 in [false, true] {
            let mut ratios = Vec::new();
            for seed in 0..4000u64 {
                let mode = if seed % 4 == 0 { Mode::Far } else { Mode::Free };
                let k = (seed % 41) as i32 - 20;
                let (lb, truth) = if f32 {
                    Case::<f32>::new(seed, k, mode, general).check(0.9)
                } else {
                    Case::<f64>::new(seed, k, mode, general).check(0.9)
                };
                if truth > 1e-3 * 2f64.powi(k) {
                    ratios.push(lb / truth);
                }
            }
            let n = ratios.len();
            let zero = ratios.iter().filter(|r| **r == 0.0).count();
            let low = {
                ratios.sort_by(f64::total_cmp);
                ratios[n / 100]
            };
            let med = median(&mut ratios);
            let name = format!(
                "rss {}, {}",
                if f32 { "f32" } else { "f64" },
                if general {
                    "random rotations"
                } else {
                    "mixed frames"
                }
            );
            println!(
                "{name}: median bound/distance {med:.6}, 1st percentile {low:.4}, over {n} separated pairs ({zero} bounds 0)"
            );
            assert!(n > 1000 && med > 0.99, "{name}: median {med} over {n}");
        }
    }
}

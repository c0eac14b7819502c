//! Certified distance lower bounds of spheres, AABBs and OBBs, in `f64` and `f32`: the bound never exceeds the
//! exact distance between the two volumes (B's moved by the pose as stored), over random pairs and poses that
//! include touching and overlapping placements, zero extents, axis-parallel frames and scales `2^-20..2^20`;
//! the same for the model-space variant on B's volume moved by `transformed`. `median_ratios` reports how close
//! the bounds come to the distance for separated pairs.
//!
//! Oracle (`oracle/`, `f64`): the exact distance between the boxes whose frames are the nearest orthonormal ones
//! to the stored frames (`A`'s axes, `P·B` for B's), minus `‖X − Q‖₂·|h|₂` per box (how far the stored
//! parallelepiped lies from that box), minus `16 ε S` for the oracle's own rounding; for spheres, the centre
//! distance minus `r_a + σ_max(P)·r_b` (B's ball moved by `P` lies in that ball). Each is at most the true
//! distance, so `bound ≤ max(0, oracle)` is a sound check.

mod oracle;

use ccd_bv::nalgebra::{Matrix3, Vector3};
use ccd_bv::{Aabb, BoundingVolume, MoveRounding, Obb, Pose, Real, Sphere, VolumeProfile};
use ccd_testkit::SplitMix64;
use oracle::{Cuboid, V, box_closest, median, polar, rotation};
use proptest::prelude::*;

/// How B is placed: free, touching A, overlapping A, far from A.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Mode {
    Free,
    Touching,
    Overlapping,
    Far,
}

const MODES: [Mode; 4] = [Mode::Free, Mode::Touching, Mode::Overlapping, Mode::Far];

fn wide<T: Real>(v: &[T; 3]) -> V {
    V::new(
        v[0].to_f64_exact(),
        v[1].to_f64_exact(),
        v[2].to_f64_exact(),
    )
}

fn narrow<T: Real>(v: &V) -> [T; 3] {
    [T::lit(v.x), T::lit(v.y), T::lit(v.z)]
}

fn frame<T: Real>(m: &[[T; 3]; 3]) -> Matrix3<f64> {
    Matrix3::from_columns(&[wide(&m[0]), wide(&m[1]), wide(&m[2])])
}

fn pose_matrix<T: Real>(p: &Pose<T>) -> (Matrix3<f64>, V) {
    (
        p.rot.map(|x| x.to_f64_exact()),
        p.trans.map(|x| x.to_f64_exact()),
    )
}

/// Random inputs of one case: a generator, the scene scale `2^k`, and whether every frame is a uniformly random
/// rotation (else one in four is, the others have axis-parallel axes).
struct Gen {
    rng: SplitMix64,
    scale: f64,
    general: bool,
}

impl Gen {
    fn new(seed: u64, k: i32) -> Self {
        Self {
            rng: SplitMix64::new(seed),
            scale: 2f64.powi(k),
            general: false,
        }
    }

    fn unit3(&mut self) -> [f64; 3] {
        [0; 3].map(|_| self.rng.next_f64())
    }

    fn rot(&mut self) -> Matrix3<f64> {
        let k = if self.general { 3 } else { self.rng.below(4) };
        rotation(k, self.unit3())
    }

    fn point(&mut self, reach: f64) -> V {
        V::from(self.unit3().map(|u| (2.0 * u - 1.0) * reach * self.scale))
    }

    /// A size in `[0, hi)·scale`, zero one time in four.
    fn size(&mut self, hi: f64) -> f64 {
        if self.rng.below(4) == 0 {
            0.0
        } else {
            self.rng.range(0.0, hi) * self.scale
        }
    }

    fn pose<T: Real>(&mut self, reach: f64) -> Pose<T> {
        let r = self.rot();
        let t = self.point(reach);
        Pose::from_parts(r.map(T::lit), t.map(T::lit))
    }
}

/// `pose` with its translation moved by `shift`, rounded to `T`.
fn shifted<T: Real>(pose: &Pose<T>, shift: &V) -> Pose<T> {
    let t = pose.trans.map(|x| x.to_f64_exact()) + shift;
    Pose::from_parts(pose.rot, t.map(T::lit))
}

/// The translation change that makes two sets touch (or overlap by `depth`), where `n` is the unit direction
/// from A to B along which their signed gap is `gap` (`n = 0`: no change).
fn placement(n: &V, gap: f64, mode: Mode, depth: f64) -> V {
    match mode {
        Mode::Touching => -n * gap,
        Mode::Overlapping => -n * (gap + depth),
        _ => V::zeros(),
    }
}

/// The unit direction and gap from closest points `(x, y)` (0 and no direction where they coincide).
fn direction(x: &V, y: &V) -> (V, f64) {
    let d = y - x;
    let n = d.norm();
    if n > 0.0 {
        (d / n, n)
    } else {
        (V::zeros(), 0.0)
    }
}

/// The oracle's slack for its own rounding: `16 ε S`.
fn oracle_rounding(s: f64) -> f64 {
    16.0 * f64::EPSILON * s
}

/// The oracle distance between box A (stored axes `fa`, centre `ca`, half `ha`) and box B moved by `(p, t)`:
/// closest points and the lower estimate of the true distance.
fn box_oracle(
    fa: &Matrix3<f64>,
    ca: &V,
    ha: [f64; 3],
    fb: &Matrix3<f64>,
    cb: &V,
    hb: [f64; 3],
    (p, t): &(Matrix3<f64>, V),
) -> (V, V, f64) {
    let (qa, da, _) = polar(fa);
    let (qb, db, _) = polar(&(p * fb));
    let a = Cuboid {
        q: qa,
        c: *ca,
        h: ha,
    };
    let b = Cuboid {
        q: qb,
        c: p * cb + t,
        h: hb,
    };
    let (x, y) = box_closest(&a, &b);
    let l1 = |v: &V| v.abs().sum();
    let s = l1(t) + l1(ca) + l1(cb) + ha.iter().sum::<f64>() + hb.iter().sum::<f64>();
    let slack = da * V::from(ha).norm() + db * V::from(hb).norm() + oracle_rounding(s);
    (x, y, (y - x).norm() - slack)
}

/// Both lower bounds of `a` and `b` under `pose` (the pose form and the model-space form after moving `b`):
/// each non-negative and at most the oracle's `truth`; returns the pose form.
fn checked_bounds<T: Real, B: BoundingVolume<T>>(
    name: &str,
    a: &B,
    b: &B,
    pose: &Pose<T>,
    truth: f64,
) -> f64 {
    let lb = a.distance_lower_bound(b, pose).to_f64_exact();
    let (moved, rounding) = (b.transformed(pose), MoveRounding::of(pose));
    let local_t = a.distance_lower_bound_local(&moved, &rounding);
    let local = local_t.to_f64_exact();
    // The two-lane form: bit for bit the single one.
    let pair =
        B::distance_lower_bound_local_pair([a, b], [&moved, &b.transformed(pose)], &rounding);
    assert_eq!(pair[0], local_t, "{name} pair {}", T::NAME);
    // With the allowance fixed from the profiles of the two one-volume sets: never above the truth either.
    let fixed = rounding.with_profiles(&VolumeProfile::of([a]), &VolumeProfile::of([b]));
    let fixed_t = a.distance_lower_bound_local(&moved, &fixed);
    assert!(
        fixed_t >= T::zero() && fixed_t.to_f64_exact() <= truth.max(0.0),
        "{name} fixed allowance {}: {fixed_t:?} > {truth}",
        T::NAME
    );
    let pair_fixed = B::distance_lower_bound_local_pair([a, a], [&moved, &moved], &fixed);
    assert_eq!(
        pair_fixed,
        [fixed_t, fixed_t],
        "{name} fixed pair {}",
        T::NAME
    );
    assert!(
        lb >= 0.0 && lb <= truth.max(0.0),
        "{name} {}: {lb} > {truth}",
        T::NAME
    );
    assert!(
        local >= 0.0 && local <= truth.max(0.0),
        "{name} local {}: {local} > {truth}",
        T::NAME
    );
    lb
}

/// One OBB case: returns `(bound, oracle)`.
fn obb_case<T: Real>(g: &mut Gen, mode: Mode) -> (f64, f64) {
    let make = |g: &mut Gen| Obb::<T> {
        rot: g.rot().map(T::lit).into(),
        center: narrow(&g.point(2.0)),
        half: [0; 3].map(|_| T::lit(g.size(1.5))),
    };
    let (a, b) = (make(g), make(g));
    let reach = if mode == Mode::Far { 40.0 } else { 4.0 };
    let mut pose = g.pose::<T>(reach);
    let oracle = |pose: &Pose<T>| {
        let h = |v: [T; 3]| v.map(|x| x.to_f64_exact());
        let (fa, fb) = (frame(&a.rot), frame(&b.rot));
        let pm = pose_matrix(pose);
        box_oracle(
            &fa,
            &wide(&a.center),
            h(a.half),
            &fb,
            &wide(&b.center),
            h(b.half),
            &pm,
        )
    };
    let (x, y, _) = oracle(&pose);
    let (n, gap) = direction(&x, &y);
    pose = shifted(&pose, &placement(&n, gap, mode, 0.1 * g.scale));
    let (_, _, truth) = oracle(&pose);
    let lb = checked_bounds("obb", &a, &b, &pose, truth);
    if lb > 0.0 {
        assert!(
            !a.overlaps(&b, &pose),
            "positive bound for boxes the SAT calls overlapping"
        );
    }
    (lb, truth)
}

/// One AABB case: returns `(bound, oracle)`.
fn aabb_case<T: Real>(g: &mut Gen, mode: Mode) -> (f64, f64) {
    let make = |g: &mut Gen| Aabb::<T> {
        center: narrow(&g.point(2.0)),
        half: [0; 3].map(|_| T::lit(g.size(1.5))),
    };
    let (a, b) = (make(g), make(g));
    let reach = if mode == Mode::Far { 40.0 } else { 4.0 };
    let mut pose = g.pose::<T>(reach);
    let oracle = |pose: &Pose<T>| {
        let h = |v: [T; 3]| v.map(|x| x.to_f64_exact());
        let id = Matrix3::identity();
        let pm = pose_matrix(pose);
        box_oracle(
            &id,
            &wide(&a.center),
            h(a.half),
            &id,
            &wide(&b.center),
            h(b.half),
            &pm,
        )
    };
    let (x, y, _) = oracle(&pose);
    let (n, gap) = direction(&x, &y);
    pose = shifted(&pose, &placement(&n, gap, mode, 0.1 * g.scale));
    let (_, _, truth) = oracle(&pose);
    let lb = checked_bounds("aabb", &a, &b, &pose, truth);
    (lb, truth)
}

/// One sphere case: returns `(bound, oracle)`.
fn sphere_case<T: Real>(g: &mut Gen, mode: Mode) -> (f64, f64) {
    let make = |g: &mut Gen| Sphere::<T> {
        center: narrow(&g.point(2.0)),
        radius: T::lit(g.size(2.0)),
    };
    let (a, b) = (make(g), make(g));
    let reach = if mode == Mode::Far { 40.0 } else { 4.0 };
    let mut pose = g.pose::<T>(reach);
    let (ra, rb) = (a.radius.to_f64_exact(), b.radius.to_f64_exact());
    let oracle = |pose: &Pose<T>| {
        let (p, t) = pose_matrix(pose);
        let (ca, cb) = (wide(&a.center), p * wide(&b.center) + t);
        let (_, _, stretch) = polar(&p);
        let s = t.abs().sum() + ca.abs().sum() + wide(&b.center).abs().sum() + ra + rb;
        let d = (cb - ca).norm();
        let n = if d > 0.0 { (cb - ca) / d } else { V::zeros() };
        // The direction and signed gap of the balls (for the placement), and the lower estimate of the distance.
        (n, d - ra - rb, d - ra - stretch * rb - oracle_rounding(s))
    };
    let (n, gap, _) = oracle(&pose);
    pose = shifted(&pose, &placement(&n, gap, mode, 0.1 * g.scale));
    let (_, _, truth) = oracle(&pose);
    let lb = checked_bounds("sphere", &a, &b, &pose, truth);
    (lb, truth)
}

fn mode() -> impl Strategy<Value = Mode> {
    prop::sample::select(MODES.to_vec())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// 2000 cases, each an `f64` and an `f32` pair of boxes.
    #[test]
    fn obb_bound_never_exceeds_the_distance(seed in any::<u64>(), k in -20i32..=20, m in mode()) {
        obb_case::<f64>(&mut Gen::new(seed, k), m);
        obb_case::<f32>(&mut Gen::new(seed, k), m);
    }

    /// 2000 cases, each an `f64` and an `f32` pair of boxes.
    #[test]
    fn aabb_bound_never_exceeds_the_distance(seed in any::<u64>(), k in -20i32..=20, m in mode()) {
        aabb_case::<f64>(&mut Gen::new(seed, k), m);
        aabb_case::<f32>(&mut Gen::new(seed, k), m);
    }

    /// 2000 cases, each an `f64` and an `f32` pair of spheres.
    #[test]
    fn sphere_bound_never_exceeds_the_distance(seed in any::<u64>(), k in -20i32..=20, m in mode()) {
        sphere_case::<f64>(&mut Gen::new(seed, k), m);
        sphere_case::<f32>(&mut Gen::new(seed, k), m);
    }
}

/// Touching and overlapping placements (where the oracle finds no gap) give exactly 0, in most of 300 cases
/// per volume; a frame far from orthonormal gives 0 rather than a guess.
#[test]
fn touching_overlapping_and_skewed_give_zero() {
    type Case = fn(&mut Gen, Mode) -> (f64, f64);
    let cases: [(&str, Case, i32); 6] = [
        ("obb f64", obb_case::<f64>, 0),
        ("obb f32", obb_case::<f32>, 5),
        ("aabb f64", aabb_case::<f64>, -5),
        ("aabb f32", aabb_case::<f32>, 3),
        ("sphere f64", sphere_case::<f64>, -3),
        ("sphere f32", sphere_case::<f32>, 20),
    ];
    for (name, case, k) in cases {
        let mut zero = 0;
        for seed in 0..300 {
            for mode in [Mode::Touching, Mode::Overlapping] {
                let (lb, truth) = case(&mut Gen::new(seed, k), mode);
                if truth <= 0.0 {
                    assert_eq!(lb, 0.0, "{name} seed {seed} {mode:?}");
                    zero += 1;
                }
            }
        }
        assert!(
            zero > 400,
            "{name}: only {zero} of 600 placements touch or overlap"
        );
    }
    let a = Obb {
        rot: [[2.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]],
        center: [0.0; 3],
        half: [1.0; 3],
    };
    let far = Pose::from_parts(Matrix3::identity(), Vector3::new(10.0, 0.0, 0.0));
    assert_eq!(a.distance_lower_bound(&a, &far), 0.0);
}

/// The median of `bound / distance` over separated pairs (oracle distance above 1e-3 of the scene scale), per
/// volume and scalar, with mixed frames and with uniformly random rotations only, printed; the floors catch a
/// bound that became trivially 0 or much looser.
#[test]
fn median_ratios() {
    type Case = fn(&mut Gen, Mode) -> (f64, f64);
    let cases: [(&str, Case, [f64; 2]); 6] = [
        ("sphere f64", sphere_case::<f64>, [0.99, 0.99]),
        ("sphere f32", sphere_case::<f32>, [0.99, 0.99]),
        ("aabb f64", aabb_case::<f64>, [0.9, 0.9]),
        ("aabb f32", aabb_case::<f32>, [0.9, 0.9]),
        ("obb f64", obb_case::<f64>, [0.9, 0.9]),
        ("obb f32", obb_case::<f32>, [0.9, 0.9]),
    ];
    for (name, case, floors) in cases {
        for (general, floor) in [false, true].into_iter().zip(floors) {
            let mut ratios = Vec::new();
            for seed in 0..4000u64 {
                let mode = if seed % 4 == 0 { Mode::Far } else { Mode::Free };
                let k = (seed % 41) as i32 - 20;
                let mut g = Gen::new(seed, k);
                g.general = general;
                let (lb, truth) = case(&mut g, mode);
                if truth > 1e-3 * 2f64.powi(k) {
                    ratios.push(lb / truth);
                }
            }
            let n = ratios.len();
            let zero = ratios.iter().filter(|r| **r == 0.0).count();
            let med = median(&mut ratios);
            let frames = if general {
                "random rotations"
            } else {
                "mixed frames"
            };
            println!(
                "{name}, {frames}: median bound/distance {med:.4} over {n} separated pairs ({zero} bounds 0)"
            );
            assert!(
                n > 1000 && med > floor,
                "{name}, {frames}: median {med} over {n}"
            );
        }
    }
}

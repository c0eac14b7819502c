//! Cost of one bounding-volume overlap test, model-space update included
//! (thesis Tables 5.1/5.2): sphere, AABB, OBB and RSS, in `f64` and `f32`, on
//! pairs that the test finds disjoint and on pairs it finds overlapping.
//!
//! The pairs are random, not recorded from traversals: each volume is fitted
//! to a small random triangle soup (6 triangles in a unit cube) and each pair
//! gets its own random relative pose, so the types bound the same geometry.
//! `cargo xtask bench-overlap` times the pairs that real traversals test, as
//! the thesis did (§5.2). A pair set holds 1024 pairs; criterion
//! reports the time per pair set and the throughput in tests. After the
//! criterion runs, a table prints each type's median cost per test as a ratio
//! to the `f64` sphere test, the form of the thesis's tables.

use std::hint::black_box;
use std::time::Instant;

use ccd_bv::nalgebra::{Matrix3, Vector3};
use ccd_bv::{Aabb, BoundingVolume, FitMethod, Obb, Pose, Real, Rss, Sphere};
use ccd_testkit::{SplitMix64, random_rotation, random_soup};
use criterion::{Criterion, Throughput};

/// Pairs per set.
const PAIRS: usize = 1024;

/// `(A, B, B's frame in A's)` triples.
type Pairs<T, B> = Vec<(B, B, Pose<T>)>;

/// A volume fitted to a fresh random soup.
fn volume<T: Real, B: BoundingVolume<T>>(rng: &mut SplitMix64) -> B {
    let soup = random_soup(rng, 6, 0.5, 0.5);
    let v: Vec<[T; 3]> = soup.vertices.iter().map(|p| p.map(T::lit)).collect();
    B::fit(&v, &soup.triangles, FitMethod::default())
}

/// `PAIRS` pairs on which `B`'s test answers `overlapping`.
fn pairs<T: Real, B: BoundingVolume<T>>(overlapping: bool) -> Pairs<T, B> {
    let mut rng = SplitMix64::new(0x5eed);
    let mut out = Vec::with_capacity(PAIRS);
    while out.len() < PAIRS {
        let rot: Matrix3<f64> = random_rotation(&mut rng).to_rotation_matrix().into_inner();
        let trans = Vector3::from_fn(|_, _| rng.range(-2.5, 2.5));
        let pose = Pose::from_parts(rot.map(T::lit), trans.map(T::lit));
        let (a, b) = (volume::<T, B>(&mut rng), volume::<T, B>(&mut rng));
        if a.overlaps(&b, &pose) == overlapping {
            out.push((a, b, pose));
        }
    }
    out
}

/// Runs the test on every pair; returns the number of overlaps.
#[inline(never)]
fn run<T: Real, B: BoundingVolume<T>>(pairs: &Pairs<T, B>) -> usize {
    pairs
        .iter()
        .filter(|(a, b, pose)| black_box(a).overlaps(black_box(b), black_box(pose)))
        .count()
}

/// One benchmark case: its name and a runner over its prepared pairs.
struct Case {
    name: &'static str,
    run: Box<dyn Fn() -> usize>,
}

fn case<T: Real, B: BoundingVolume<T>>(name: &'static str, overlapping: bool) -> Case {
    let p = pairs::<T, B>(overlapping);
    Case {
        name,
        run: Box::new(move || run(&p)),
    }
}

fn cases(overlapping: bool) -> Vec<Case> {
    vec![
        case::<f64, Sphere<f64>>("sphere/f64", overlapping),
        case::<f64, Aabb<f64>>("aabb/f64", overlapping),
        case::<f64, Obb<f64>>("obb/f64", overlapping),
        case::<f64, Rss<f64>>("rss/f64", overlapping),
        case::<f32, Sphere<f32>>("sphere/f32", overlapping),
        case::<f32, Aabb<f32>>("aabb/f32", overlapping),
        case::<f32, Obb<f32>>("obb/f32", overlapping),
        case::<f32, Rss<f32>>("rss/f32", overlapping),
    ]
}

/// Median nanoseconds per test over repeated passes.
fn ns_per_test(c: &Case) -> f64 {
    let mut samples: Vec<f64> = (0..15)
        .map(|_| {
            let start = Instant::now();
            for _ in 0..200 {
                black_box((c.run)());
            }
            start.elapsed().as_nanos() as f64 / (200 * PAIRS) as f64
        })
        .collect();
    samples.sort_by(f64::total_cmp);
    samples[samples.len() / 2]
}

fn main() {
    let mut criterion = Criterion::default().configure_from_args();
    let sets = [("disjoint", cases(false)), ("overlapping", cases(true))];
    for (label, cases) in &sets {
        let mut group = criterion.benchmark_group(format!("bv_overlap/{label}"));
        group.throughput(Throughput::Elements(PAIRS as u64));
        for c in cases {
            group.bench_function(c.name, |b| b.iter(|| (c.run)()));
        }
        group.finish();
    }
    criterion.final_summary();

    if std::env::args().any(|a| a == "--bench") {
        println!(
            "\ncost per test, ratio to the f64 sphere test of the same set (thesis Tables 5.1/5.2):"
        );
        println!(
            "(random pairs of volumes fitted to random soups; `cargo xtask bench-overlap` replays pairs recorded from real traversals)"
        );
        println!(
            "{:<12} {:<12} {:>10} {:>7}",
            "set", "volume", "ns/test", "ratio"
        );
        for (label, cases) in &sets {
            let times: Vec<f64> = cases.iter().map(ns_per_test).collect();
            for (c, t) in cases.iter().zip(&times) {
                println!(
                    "{:<12} {:<12} {:>10.2} {:>7.2}",
                    label,
                    c.name,
                    t,
                    t / times[0]
                );
            }
        }
    }
}

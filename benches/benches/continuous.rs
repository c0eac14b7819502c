//! Cost of the continuous bounding-volume tests and of Eberly's
//! constant-velocity tests (`ccd_bv::continuous`, `ccd_bv::moving`).
//!
//! - `continuous/*`: one interval test over a time interval of width 1/64
//!   on precomputed enclosures (the motion enclosure itself is not timed):
//!   the interval OBB SAT and the interval sphere test, beside the static OBB
//!   SAT on the boxes posed at the interval's midpoint for scale. Each set
//!   holds 1024 pairs of boxes fitted to random soups, A turning and sliding
//!   (`ConstantRotationTranslation`), B interpolating between two poses; the
//!   `disjoint` set holds pairs the OBB test certifies disjoint, the
//!   `may_overlap` set the others.
//! - `moving/*`: the constant-velocity box–box, triangle–box and
//!   triangle–triangle tests (time of first contact and contact set) on 1024
//!   random translating pairs each, split into pairs that touch in `[0, 1]`
//!   and pairs that stay apart.
//!
//! Criterion reports the time per set and the throughput in tests.

use std::hint::black_box;

use ccd_bv::continuous::{Certainty, obb_disjoint_over, sphere_disjoint_over};
use ccd_bv::moving::{
    MovingContact, moving_obb_obb, moving_triangle_obb, moving_triangle_triangle,
};
use ccd_bv::nalgebra::{Isometry3, Translation3, Unit, Vector3};
use ccd_bv::{BoundingVolume, FitMethod, Obb, Sphere};
use ccd_motion::{ConstantRotationTranslation, Interp, IntervalPose, Motion};
use ccd_testkit::{SplitMix64, random_rotation, random_soup};
use criterion::{Criterion, Throughput};

/// Pairs per set.
const PAIRS: usize = 1024;

type V = Vector3<f64>;

fn vec3(rng: &mut SplitMix64, s: f64) -> V {
    V::new(rng.range(-s, s), rng.range(-s, s), rng.range(-s, s))
}

fn pose(rng: &mut SplitMix64, s: f64) -> Isometry3<f64> {
    Isometry3::from_parts(Translation3::from(vec3(rng, s)), random_rotation(rng))
}

/// A box and its sphere, fitted to a fresh random soup in a unit cube.
fn volumes(rng: &mut SplitMix64) -> (Obb<f64>, Sphere<f64>) {
    let soup = random_soup(rng, 6, 0.5, 0.5);
    let obb = Obb::fit(&soup.vertices, &soup.triangles, FitMethod::default());
    let sphere = Sphere::fit(&soup.vertices, &soup.triangles, FitMethod::default());
    (obb, sphere)
}

/// One continuous pair: both volumes, both enclosures, and both boxes posed
/// at the midpoint (for the static comparison).
struct ContinuousPair {
    a: (Obb<f64>, Sphere<f64>),
    b: (Obb<f64>, Sphere<f64>),
    enc: (IntervalPose<f64>, IntervalPose<f64>),
    posed: (Obb<f64>, Obb<f64>),
}

fn continuous_pairs(disjoint: bool) -> Vec<ContinuousPair> {
    let mut rng = SplitMix64::new(0x00c0_ffee);
    let mut out = Vec::with_capacity(PAIRS);
    while out.len() < PAIRS {
        let (a, b) = (volumes(&mut rng), volumes(&mut rng));
        let axis = Unit::new_normalize(vec3(&mut rng, 1.0));
        let ma = ConstantRotationTranslation::new(
            pose(&mut rng, 0.5),
            axis,
            rng.range(-3.0, 3.0),
            vec3(&mut rng, 2.0),
        );
        let mb = Interp::new(pose(&mut rng, 2.5), pose(&mut rng, 2.5));
        let t0 = rng.range(0.0, 63.0 / 64.0);
        let t1 = t0 + 1.0 / 64.0;
        let enc = (ma.enclose(t0, t1), mb.enclose(t0, t1));
        let verdict = obb_disjoint_over(&a.0, &enc.0, &b.0, &enc.1);
        if verdict.is_disjoint() == disjoint {
            let mid = 0.5 * (t0 + t1);
            let posed = (
                a.0.transformed(&ccd_bv::Pose::from_isometry(&ma.pose(mid))),
                b.0.transformed(&ccd_bv::Pose::from_isometry(&mb.pose(mid))),
            );
            out.push(ContinuousPair { a, b, enc, posed });
        }
    }
    out
}

/// A translating pair for the constant-velocity tests: two objects with
/// their velocities.
struct Moving<A, B> {
    a: A,
    va: V,
    b: B,
    vb: V,
}

fn random_box(rng: &mut SplitMix64, c: V) -> Obb<f64> {
    let r = random_rotation(rng).to_rotation_matrix().into_inner();
    Obb {
        rot: std::array::from_fn(|j| [r[(0, j)], r[(1, j)], r[(2, j)]]),
        center: (c + vec3(rng, 0.3)).into(),
        half: [
            rng.range(0.1, 1.0),
            rng.range(0.1, 1.0),
            rng.range(0.1, 1.0),
        ],
    }
}

fn random_triangle(rng: &mut SplitMix64, c: V) -> [[f64; 3]; 3] {
    std::array::from_fn(|_| (c + vec3(rng, 1.0)).into())
}

/// `PAIRS` pairs made by `make` (A near the origin, B near `(4, 0, 0)`
/// heading for the origin) whose test result touches or not as asked.
fn moving_pairs<A, B>(
    touching: bool,
    make: impl Fn(&mut SplitMix64) -> (A, B),
    test: impl Fn(&Moving<A, B>) -> MovingContact<f64>,
) -> Vec<Moving<A, B>> {
    let mut rng = SplitMix64::new(0x5eed_5eed);
    let mut out = Vec::with_capacity(PAIRS);
    while out.len() < PAIRS {
        let (a, b) = make(&mut rng);
        let va = vec3(&mut rng, 0.5);
        let vb = V::new(-4.0, 0.0, 0.0) + vec3(&mut rng, 2.0);
        let m = Moving { a, va, b, vb };
        if matches!(test(&m), MovingContact::Touching { .. }) == touching {
            out.push(m);
        }
    }
    out
}

fn main() {
    let mut criterion = Criterion::default().configure_from_args();

    for (label, disjoint) in [("disjoint", true), ("may_overlap", false)] {
        let pairs = continuous_pairs(disjoint);
        let mut group = criterion.benchmark_group(format!("continuous/{label}"));
        group.throughput(Throughput::Elements(PAIRS as u64));
        group.bench_function("obb_interval_sat", |bench| {
            bench.iter(|| {
                pairs
                    .iter()
                    .filter(|p| {
                        obb_disjoint_over(black_box(&p.a.0), &p.enc.0, black_box(&p.b.0), &p.enc.1)
                            == Certainty::Disjoint
                    })
                    .count()
            })
        });
        group.bench_function("sphere_interval", |bench| {
            bench.iter(|| {
                pairs
                    .iter()
                    .filter(|p| {
                        sphere_disjoint_over(
                            black_box(&p.a.1),
                            &p.enc.0,
                            black_box(&p.b.1),
                            &p.enc.1,
                        )
                        .is_disjoint()
                    })
                    .count()
            })
        });
        group.bench_function("obb_static_sat_at_midpoint", |bench| {
            bench.iter(|| {
                pairs
                    .iter()
                    .filter(|p| black_box(&p.posed.0).overlaps_local(black_box(&p.posed.1)))
                    .count()
            })
        });
        group.finish();
    }

    let far = V::new(4.0, 0.0, 0.0);
    for (label, touching) in [("touching", true), ("separated", false)] {
        let mut group = criterion.benchmark_group(format!("moving/{label}"));
        group.throughput(Throughput::Elements(PAIRS as u64));

        let boxes = moving_pairs(
            touching,
            |rng| (random_box(rng, V::zeros()), random_box(rng, far)),
            |m| moving_obb_obb(&m.a, &m.va, &m.b, &m.vb, 1.0),
        );
        group.bench_function("obb_obb", |bench| {
            bench.iter(|| {
                boxes
                    .iter()
                    .filter_map(|m| {
                        moving_obb_obb(black_box(&m.a), &m.va, black_box(&m.b), &m.vb, 1.0).time()
                    })
                    .count()
            })
        });

        // The triangle starts far away and moves with `vb`, the box with `va`.
        let tri_box = moving_pairs(
            touching,
            |rng| (random_triangle(rng, far), random_box(rng, V::zeros())),
            |m| moving_triangle_obb(&m.a, &m.vb, &m.b, &m.va, 1.0),
        );
        group.bench_function("triangle_obb", |bench| {
            bench.iter(|| {
                tri_box
                    .iter()
                    .filter_map(|m| {
                        moving_triangle_obb(black_box(&m.a), &m.vb, black_box(&m.b), &m.va, 1.0)
                            .time()
                    })
                    .count()
            })
        });

        let tris = moving_pairs(
            touching,
            |rng| (random_triangle(rng, V::zeros()), random_triangle(rng, far)),
            |m| moving_triangle_triangle(&m.a, &m.va, &m.b, &m.vb, 1.0),
        );
        group.bench_function("triangle_triangle", |bench| {
            bench.iter(|| {
                tris.iter()
                    .filter_map(|m| {
                        moving_triangle_triangle(
                            black_box(&m.a),
                            &m.va,
                            black_box(&m.b),
                            &m.vb,
                            1.0,
                        )
                        .time()
                    })
                    .count()
            })
        });
        group.finish();
    }

    criterion.final_summary();
}

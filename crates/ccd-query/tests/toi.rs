//! `time_of_impact`: no false negatives against dense discrete sampling, the test cases of Jørgensen 2006 (§10, Appendix B) with their analytic times,
//! and owned ≡ memory-mapped hierarchies.

mod common;

use ccd_bv::Obb;
use ccd_bvh::{BuildOptions, Bvh, BvhView};
use ccd_motion::{ConstantRotationTranslation, Interp, Motion, Screw, Static, Translation};
use ccd_query::{CollideRequest, ToiMode, ToiRequest, ToiResult, collide, time_of_impact};
use ccd_testkit::{Mesh, SplitMix64, cuboid, random_blob, random_rotation, random_soup};
use common::general::General;
use nalgebra::{Isometry3, Point3, Translation3, UnitQuaternion, Vector3};

type Tree = Bvh<f64, Obb<f64>>;

fn build(m: &Mesh, leaf_size: u32) -> Tree {
    let o = BuildOptions {
        leaf_size,
        ..BuildOptions::default()
    };
    Bvh::build(m.vertices.clone(), &m.triangles, &o).unwrap()
}

fn mesh(vertices: Vec<[f64; 3]>, triangles: Vec<[u32; 3]>) -> Mesh {
    Mesh {
        vertices,
        triangles,
    }
}

/// A mesh of one triangle.
fn triangle(v: [[f64; 3]; 3]) -> Mesh {
    mesh(v.to_vec(), vec![[0, 1, 2]])
}

fn at(x: f64, y: f64, z: f64) -> Isometry3<f64> {
    Isometry3::translation(x, y, z)
}

fn slide(from: [f64; 3], by: [f64; 3]) -> Translation<f64> {
    Translation::new(at(from[0], from[1], from[2]), Vector3::from(by))
}

/// Runs an oracle on both paths (the Eberly path for translations, and the interval path) and checks the
/// bracket contains `truth` and is no wider than the tolerance.
fn oracle<MA: Motion<f64>, MB: Motion<f64>>(
    name: &str,
    a: &Mesh,
    ma: MA,
    b: &Mesh,
    mb: MB,
    truth: f64,
) {
    let (ta, tb) = (build(a, 1), build(b, 1));
    let request = ToiRequest::default();
    let general = (ma.is_pure_translation().is_some() && mb.is_pure_translation().is_some())
        .then(|| time_of_impact(&ta, &General(&ma), &tb, &General(&mb), &request).unwrap());
    let direct = time_of_impact(&ta, &ma, &tb, &mb, &request).unwrap();
    for (path, r) in [("direct", Some(direct)), ("interval", general)] {
        let Some(r) = r else { continue };
        let toi = *r
            .toi()
            .unwrap_or_else(|| panic!("{name} ({path}): contact missed"));
        println!(
            "{name:<14} {path:<8} [{:.9}, {:.9}] truth {truth:.9} tris ({}, {}) {:?} point {:?} normal {:?} {:?}",
            toi.t_lo, toi.t_hi, toi.tri_a, toi.tri_b, toi.feature, toi.point, toi.normal, r.stats
        );
        assert!(
            toi.t_lo <= truth + 1e-12,
            "{name} ({path}): t_lo {} after the contact {truth}",
            toi.t_lo
        );
        assert!(
            toi.t_hi >= truth - 1e-12,
            "{name} ({path}): t_hi {} before the contact {truth}",
            toi.t_hi
        );
        assert!(
            toi.t_hi - toi.t_lo <= request.tolerance * (1.0 + 1e-9),
            "{name} ({path}): bracket too wide"
        );
    }
}

#[test]
fn oracle_vertex_face_tunnelling() {
    // The leading vertex (0, 0.3, 0.1) crosses the triangle's interior at x = 3.3 (Jørgensen 2006, test AVF).
    let a = triangle([[0.0, 0.3, 0.1], [-1.0, 0.3, 0.1], [-1.0, 0.35, 0.15]]);
    let b = triangle([[3.3, 0.0, -1.0], [3.3, 0.0, 1.0], [3.3, 1.0, 0.0]]);
    oracle(
        "VF tunnel",
        &a,
        slide([0.0; 3], [10.0, 0.0, 0.0]),
        &b,
        Static::new(Isometry3::identity()),
        0.33,
    );
}

#[test]
fn oracle_edge_edge_tunnelling() {
    let a = triangle([[0.0, 0.0, -1.0], [0.0, 0.0, 1.0], [-1.0, 0.0, 0.0]]);
    let b = triangle([[3.3, -1.0, 0.0], [3.3, 1.0, 0.0], [4.3, 0.0, 0.0]]);
    oracle(
        "EE tunnel",
        &a,
        slide([0.0; 3], [10.0, 0.0, 0.0]),
        &b,
        Static::new(Isometry3::identity()),
        0.33,
    );
}

#[test]
fn oracle_rotating_point_against_wall() {
    // Tip (2, 0, 0) turning about z: 2·sin(πt/2) = 1 at t = 1/3.
    let a = triangle([[2.0, 0.0, 0.0], [1.0, 0.0, 0.1], [1.0, 0.0, -0.1]]);
    let b = triangle([[-5.0, 1.0, -5.0], [5.0, 1.0, -5.0], [0.0, 1.0, 5.0]]);
    let end = Isometry3::rotation(Vector3::z() * std::f64::consts::FRAC_PI_2);
    let ma = Interp::new(Isometry3::identity(), end);
    oracle(
        "rotating pt",
        &a,
        ma,
        &b,
        Static::new(Isometry3::identity()),
        1.0 / 3.0,
    );
    let ma = ConstantRotationTranslation::new(
        Isometry3::identity(),
        Vector3::z_axis(),
        std::f64::consts::FRAC_PI_2,
        Vector3::zeros(),
    );
    oracle(
        "rotating pt M1",
        &a,
        ma,
        &b,
        Static::new(Isometry3::identity()),
        1.0 / 3.0,
    );
}

#[test]
fn oracle_cube_pair() {
    let a = cuboid([1.0; 3], [0.0; 3]);
    let b = cuboid([1.0; 3], [0.0; 3]);
    oracle(
        "cube pair",
        &a,
        Static::new(Isometry3::identity()),
        &b,
        slide([5.0, 0.0, 0.0], [-10.0, 0.0, 0.0]),
        0.3,
    );
}

#[test]
fn oracle_ae01() {
    let a = triangle([[0.0, 0.0, -1.0], [0.0, 0.0, 1.0], [-0.5, 1.0, 0.0]]);
    let b = triangle([[-1.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, -1.0, 0.0]]);
    oracle(
        "AE01",
        &a,
        slide([0.0; 3], [10.0, 0.0, 0.0]),
        &b,
        slide([10.0, 0.0, 0.0], [-10.0, 0.0, 0.0]),
        0.45,
    );
}

#[test]
fn oracle_rotating_rod() {
    let a = cuboid([2.0, 0.1, 0.1], [0.0; 3]);
    let b = cuboid([1.0; 3], [0.0, 3.0, 0.0]);
    let end = Isometry3::rotation(Vector3::z() * std::f64::consts::FRAC_PI_2);
    // Corner (2, 0.1) reaches y = 2 at θ = 1.4708795 rad: t = θ / (π/2).
    let theta = 1.470_879_5_f64;
    let truth = {
        // Solve 2 sin θ + 0.1 cos θ = 2 near θ for the exact value.
        let mut th = theta;
        for _ in 0..50 {
            th -= (2.0 * th.sin() + 0.1 * th.cos() - 2.0) / (2.0 * th.cos() - 0.1 * th.sin());
        }
        th / std::f64::consts::FRAC_PI_2
    };
    assert!((truth - 0.936_391_0).abs() < 1e-6);
    oracle(
        "rotating rod",
        &a,
        Interp::new(Isometry3::identity(), end),
        &b,
        Static::new(Isometry3::identity()),
        truth,
    );
    // Negative case: B at (0, 3.5, 0) is out of reach.
    let (ta, tb) = (build(&a, 1), build(&cuboid([1.0; 3], [0.0, 3.5, 0.0]), 1));
    let r = time_of_impact(
        &ta,
        &Interp::new(Isometry3::identity(), end),
        &tb,
        &Static::new(Isometry3::identity()),
        &ToiRequest::default(),
    )
    .unwrap();
    assert!(
        r.toi().is_none(),
        "rod reaches a box it cannot: {:?}",
        r.outcome
    );
}

#[test]
fn overlapping_at_start_is_zero() {
    let a = cuboid([1.0; 3], [0.0; 3]);
    let (ta, tb) = (build(&a, 1), build(&a, 1));
    let r = time_of_impact(
        &ta,
        &Static::new(at(0.5, 0.0, 0.0)),
        &tb,
        &slide([0.0; 3], [3.0, 0.0, 0.0]),
        &ToiRequest::default(),
    )
    .unwrap();
    let toi = r.toi().unwrap();
    assert_eq!((toi.t_lo, toi.t_hi), (0.0, 0.0));
}

/// A random motion of one of the five kinds, starting near `from`, heading roughly towards `to`.
fn random_motion(
    rng: &mut SplitMix64,
    kind: u64,
    from: Vector3<f64>,
    to: Vector3<f64>,
) -> Box<dyn Motion<f64>> {
    let start = Isometry3::from_parts(Translation3::from(from), random_rotation(rng));
    let jitter = Vector3::new(
        rng.range(-0.3, 0.3),
        rng.range(-0.3, 0.3),
        rng.range(-0.3, 0.3),
    );
    let d = to - from + jitter;
    let axis = nalgebra::Unit::new_normalize(Vector3::new(
        rng.range(-1.0, 1.0),
        rng.range(-1.0, 1.0),
        rng.range(-1.0, 1.0) + 0.01,
    ));
    let angle = rng.range(-3.0, 3.0);
    match kind {
        0 => Box::new(Static::new(start)),
        1 => Box::new(Translation::new(start, d)),
        2 => Box::new(Screw::new(
            start,
            axis,
            Point3::from(from + d * 0.5 + jitter),
            angle,
            rng.range(-0.5, 0.5),
        )),
        3 => Box::new(ConstantRotationTranslation::new(start, axis, angle, d)),
        _ => {
            let end = Isometry3::from_parts(
                Translation3::from(from + d),
                random_rotation(rng) * UnitQuaternion::identity(),
            );
            Box::new(Interp::new(start, end))
        }
    }
}

fn first_sampled_contact(
    a: &Tree,
    ma: &dyn Motion<f64>,
    b: &Tree,
    mb: &dyn Motion<f64>,
    samples: usize,
) -> Option<f64> {
    (0..=samples).map(|i| i as f64 / samples as f64).find(|&s| {
        collide(a, &ma.pose(s), b, &mb.pose(s), &CollideRequest::first())
            .unwrap()
            .is_colliding()
    })
}

#[test]
fn no_false_negatives_against_dense_sampling() {
    let (mut hits, mut misses, mut false_positives) = (0, 0, 0);
    for seed in 0..40u64 {
        let mut rng = SplitMix64::new(seed);
        let a_mesh = random_blob(&mut rng, 1, 0.6, 0.3);
        let b_mesh = if seed % 2 == 0 {
            random_soup(&mut rng, 16, 0.5, 0.3)
        } else {
            random_blob(&mut rng, 0, 0.5, 0.2)
        };
        let (a, b) = (build(&a_mesh, 1 + (seed % 3) as u32), build(&b_mesh, 1));
        let kind_a = seed % 5;
        let kind_b = (seed / 5) % 5;
        let ma = random_motion(
            &mut rng,
            kind_a,
            Vector3::new(-1.2, 0.0, 0.0),
            Vector3::new(0.8, 0.0, 0.0),
        );
        let mb = random_motion(
            &mut rng,
            kind_b,
            Vector3::new(1.2, 0.2, 0.0),
            Vector3::new(-0.5, 0.0, 0.1),
        );
        let r = time_of_impact(
            &a,
            &*ma,
            &b,
            &*mb,
            &ToiRequest {
                tolerance: 1e-4,
                ..ToiRequest::default()
            },
        )
        .unwrap();
        let sampled = first_sampled_contact(&a, &*ma, &b, &*mb, 400);
        match (sampled, r.toi()) {
            (Some(s), Some(t)) => {
                hits += 1;
                assert!(
                    t.t_lo <= s,
                    "seed {seed}: t_lo {} after sampled contact {s}",
                    t.t_lo
                );
            }
            (Some(s), None) => {
                panic!("seed {seed} (kinds {kind_a}, {kind_b}): missed the sampled contact at {s}")
            }
            (None, Some(t)) => {
                false_positives += 1;
                println!(
                    "seed {seed}: contact [{}, {}] between samples (a near miss or a graze)",
                    t.t_lo, t.t_hi
                );
            }
            (None, None) => misses += 1,
        }
    }
    println!(
        "sampled contacts {hits}, agreed no contact {misses}, reported without a sampled contact {false_positives}"
    );
    assert!(
        hits >= 10 && misses >= 3,
        "the scenes should mix hits and misses ({hits}, {misses})"
    );
}

fn aligned(bytes: &[u8]) -> Vec<u128> {
    let mut words = vec![0u128; bytes.len().div_ceil(16)];
    bytemuck::cast_slice_mut::<u128, u8>(&mut words)[..bytes.len()].copy_from_slice(bytes);
    words
}

#[test]
fn mapped_hierarchies_give_identical_results() {
    for seed in 0..6u64 {
        let mut rng = SplitMix64::new(100 + seed);
        let a = build(&random_blob(&mut rng, 1, 0.6, 0.3), 2);
        let b = build(&random_soup(&mut rng, 20, 0.5, 0.3), 1);
        let (ab, bb) = (a.to_bytes().unwrap(), b.to_bytes().unwrap());
        let (aw, bw) = (aligned(&ab), aligned(&bb));
        let av =
            BvhView::<f64, Obb<f64>>::from_bytes(&bytemuck::cast_slice(&aw)[..ab.len()]).unwrap();
        let bv =
            BvhView::<f64, Obb<f64>>::from_bytes(&bytemuck::cast_slice(&bw)[..bb.len()]).unwrap();
        let ma = random_motion(
            &mut rng,
            2 + seed % 3,
            Vector3::new(-1.2, 0.0, 0.0),
            Vector3::new(0.8, 0.0, 0.0),
        );
        let mb = random_motion(
            &mut rng,
            seed % 2,
            Vector3::new(1.2, 0.0, 0.0),
            Vector3::new(-0.5, 0.0, 0.0),
        );
        for mode in [ToiMode::FirstContact, ToiMode::AllFeaturePairs] {
            let request = ToiRequest {
                mode,
                tolerance: 1e-5,
                ..ToiRequest::default()
            };
            let owned: ToiResult<f64> = time_of_impact(&a, &*ma, &b, &*mb, &request).unwrap();
            assert_eq!(
                time_of_impact(&av, &*ma, &bv, &*mb, &request).unwrap(),
                owned
            );
            assert_eq!(
                time_of_impact(&a, &*ma, &bv, &*mb, &request).unwrap(),
                owned
            );
        }
    }
}

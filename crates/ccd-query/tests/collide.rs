//! The collision query against brute force, and the BVTT invariant
//! (Gottschalk 2000, §2.6.1: no traversal choice can miss a contact; §2.5.1: D − I + 2S + 2K = 1).

use std::collections::BTreeSet;

use ccd_bv::{Aabb, BoundingVolume, Obb, Pose, Real, Rss, Sphere};
use ccd_bvh::{BuildOptions, Bvh, Hierarchy};
use ccd_query::{CollideRequest, ContactPair, DescentRule, collide_brute_force, collide_relative};
use ccd_testkit::{Mesh, SplitMix64, random_blob, random_rotation, random_soup};
use nalgebra::{Isometry3, Translation3, UnitQuaternion, Vector3};
use proptest::prelude::*;

fn tree<T: Real, B: BoundingVolume<T>>(mesh: &Mesh, leaf_size: u32) -> Bvh<T, B> {
    let vertices = mesh.vertices.iter().map(|p| p.map(T::lit)).collect();
    let o = BuildOptions {
        leaf_size,
        ..BuildOptions::default()
    };
    Bvh::build(vertices, &mesh.triangles, &o).expect("valid mesh")
}

fn pose<T: Real>(rng: &mut SplitMix64, reach: f64) -> Pose<T> {
    let q: UnitQuaternion<f64> = random_rotation(rng);
    let t = Vector3::new(
        rng.range(-reach, reach),
        rng.range(-reach, reach),
        rng.range(-reach, reach),
    );
    let iso = Isometry3::from_parts(Translation3::from(t), q);
    Pose::from_isometry(&nalgebra::convert::<Isometry3<f64>, Isometry3<T>>(iso))
}

/// The test tree of [`DescentRule::Both`] below the pair `(na, nb)`, counted by recursion on the public node
/// arrays: (volume tests, overlapping ones, triangle tests). A pair of internal nodes splits both, a leaf against
/// an internal node splits the internal one, and a kept pair of leaves tests every face pair.
fn both_bvtt<T: Real, B: BoundingVolume<T>>(
    a: &Bvh<T, B>,
    na: usize,
    b: &Bvh<T, B>,
    nb: usize,
    b_in_a: &Pose<T>,
) -> (u64, u64, u64) {
    let (x, y) = (&a.nodes()[na], &b.nodes()[nb]);
    if !x.bv.overlaps_local(&y.bv.transformed(b_in_a)) {
        return (1, 0, 0);
    }
    if x.is_leaf() && y.is_leaf() {
        return (1, 1, (x.leaf_faces().len() * y.leaf_faces().len()) as u64);
    }
    let sides = |n: &ccd_bvh::Node<T, B>, i: usize| {
        if n.is_leaf() {
            vec![i]
        } else {
            vec![n.first_child(), n.first_child() + 1]
        }
    };
    let mut total = (1, 1, 0);
    for ca in sides(x, na) {
        for cb in sides(y, nb) {
            let (t, o, p) = both_bvtt(a, ca, b, cb, b_in_a);
            total = (total.0 + t, total.1 + o, total.2 + p);
        }
    }
    total
}

/// Checks collide against brute force for every descent rule, both modes,
/// and the BVTT invariant when leaves hold one triangle.
fn check<T: Real, B: BoundingVolume<T>>(
    a_mesh: &Mesh,
    b_mesh: &Mesh,
    leaf_size: u32,
    b_in_a: &Pose<T>,
) -> usize {
    let (a, b) = (
        tree::<T, B>(a_mesh, leaf_size),
        tree::<T, B>(b_mesh, leaf_size),
    );
    let truth: BTreeSet<ContactPair> = collide_brute_force(&a, &b, b_in_a).into_iter().collect();
    for rule in DescentRule::ALL {
        let all = collide_relative(&a, &b, b_in_a, &CollideRequest::all().with_descent(rule))
            .expect("in range");
        let found: BTreeSet<ContactPair> = all.contacts.iter().copied().collect();
        assert_eq!(
            found.len(),
            all.contacts.len(),
            "{rule:?}: a contact reported twice"
        );
        assert_eq!(
            found, truth,
            "{rule:?}: contact set differs from brute force"
        );
        let s = all.stats;
        assert_eq!(s.contacts as usize, truth.len());
        assert_eq!(s.bv_tests, s.bv_disjoint + s.bv_overlapping);
        if rule == DescentRule::Both {
            // Splitting both nodes breaks the binary identity: count the test tree by plain recursion.
            let reference = both_bvtt(&a, 0, &b, 0, b_in_a);
            assert_eq!(
                (s.bv_tests, s.bv_overlapping, s.tri_tests),
                reference,
                "Both: counters differ from the recursive count"
            );
        } else if leaf_size == 1 {
            // D − I + 2S + 2K = 1 with S = N_p − K.
            let lhs = s.bv_disjoint as i64 - s.bv_overlapping as i64 + 2 * s.tri_tests as i64;
            assert_eq!(lhs, 1, "{rule:?}: BVTT invariant broken: {s:?}");
        }
        let first = collide_relative(&a, &b, b_in_a, &CollideRequest::first().with_descent(rule))
            .expect("in range");
        assert!(first.contacts.len() <= 1);
        assert_eq!(
            first.is_colliding(),
            !truth.is_empty(),
            "{rule:?}: first-contact disagrees on emptiness"
        );
        if let Some(c) = first.contacts.first() {
            assert!(
                truth.contains(c),
                "{rule:?}: first contact {c:?} is not a contact"
            );
        }
        assert!(first.stats.bv_tests <= s.bv_tests);
    }
    truth.len()
}

fn scene(seed: u64) -> (Mesh, Mesh, SplitMix64) {
    let mut rng = SplitMix64::new(seed);
    let a = random_blob(&mut rng, 2, 1.0, 0.15);
    let b = if seed.is_multiple_of(2) {
        random_blob(&mut rng, 1, 0.8, 0.2)
    } else {
        random_soup(&mut rng, 60, 1.0, 0.6)
    };
    (a, b, rng)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn obb_f64_equals_brute_force(seed in any::<u64>(), leaf_size in prop_oneof![Just(1u32), 2u32..=6]) {
        let (a, b, mut rng) = scene(seed);
        check::<f64, Obb<f64>>(&a, &b, leaf_size, &pose(&mut rng, 1.5));
    }

    #[test]
    fn obb_f32_equals_brute_force(seed in any::<u64>(), leaf_size in prop_oneof![Just(1u32), 2u32..=6]) {
        let (a, b, mut rng) = scene(seed);
        check::<f32, Obb<f32>>(&a, &b, leaf_size, &pose(&mut rng, 1.5));
    }

    #[test]
    fn aabb_equals_brute_force(seed in any::<u64>(), leaf_size in prop_oneof![Just(1u32), 2u32..=6]) {
        let (a, b, mut rng) = scene(seed);
        check::<f64, Aabb<f64>>(&a, &b, leaf_size, &pose(&mut rng, 1.5));
    }

    #[test]
    fn sphere_equals_brute_force(seed in any::<u64>(), leaf_size in prop_oneof![Just(1u32), 2u32..=6]) {
        let (a, b, mut rng) = scene(seed);
        check::<f64, Sphere<f64>>(&a, &b, leaf_size, &pose(&mut rng, 1.5));
    }

    #[test]
    fn rss_f64_equals_brute_force(seed in any::<u64>(), leaf_size in prop_oneof![Just(1u32), 2u32..=6]) {
        let (a, b, mut rng) = scene(seed);
        check::<f64, Rss<f64>>(&a, &b, leaf_size, &pose(&mut rng, 1.5));
    }

    #[test]
    fn rss_f32_equals_brute_force(seed in any::<u64>(), leaf_size in prop_oneof![Just(1u32), 2u32..=6]) {
        let (a, b, mut rng) = scene(seed);
        check::<f32, Rss<f32>>(&a, &b, leaf_size, &pose(&mut rng, 1.5));
    }
}

#[test]
fn scenes_cover_both_outcomes() {
    // The property tests above are only meaningful if the scenes include
    // colliding and separated configurations; make sure they do.
    let (mut hits, mut misses) = (0, 0);
    for seed in 0..24 {
        let (a, b, mut rng) = scene(seed);
        if check::<f64, Obb<f64>>(&a, &b, 1, &pose(&mut rng, 1.5)) > 0 {
            hits += 1
        } else {
            misses += 1
        }
    }
    assert!(hits >= 4 && misses >= 2, "hits {hits}, misses {misses}");
}

#[test]
fn touching_meshes_collide() {
    // Two unit squares (two triangles each) sharing exactly one edge plane:
    // B is A rotated 90° about the shared edge, so they touch along it.
    let square = Mesh {
        vertices: vec![
            [0.0, 0.0, 0.0],
            [1.0, 0.0, 0.0],
            [1.0, 1.0, 0.0],
            [0.0, 1.0, 0.0],
        ],
        triangles: vec![[0, 1, 2], [0, 2, 3]],
    };
    let rot = Pose::from_parts(
        nalgebra::Matrix3::new(1.0, 0.0, 0.0, 0.0, 0.0, -1.0, 0.0, 1.0, 0.0),
        Vector3::zeros(),
    );
    let n = check::<f64, Obb<f64>>(&square, &square, 1, &rot);
    assert!(n >= 2, "touching along an edge must count as contact ({n})");
    let apart = Pose::from_parts(rot.rot, Vector3::new(0.0, -1e-9, 0.0));
    assert_eq!(check::<f64, Obb<f64>>(&square, &square, 1, &apart), 0);
}

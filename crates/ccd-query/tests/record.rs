//! The recorded volume pairs of a collision query against the query itself: one recorded pair per counted BV
//! test, the verdict split equal to its overlapping/disjoint counters, every recorded volume a node volume of
//! its tree (B's moved into A's frame), the first pair the two roots.

use std::collections::HashSet;

use ccd_bv::{Aabb, BoundingVolume, Obb, Pose, Real, Rss, Sphere};
use ccd_bvh::{BuildOptions, Bvh, Hierarchy};
use ccd_query::{CollideRequest, DescentRule, collide_relative, record_collide_tests};
use ccd_testkit::{Mesh, SplitMix64, random_blob, random_rotation};
use nalgebra::{Isometry3, Translation3, Vector3};
use proptest::prelude::*;

fn tree<T: Real, B: BoundingVolume<T>>(mesh: &Mesh) -> Bvh<T, B> {
    let vertices = mesh.vertices.iter().map(|p| p.map(T::lit)).collect();
    Bvh::build(vertices, &mesh.triangles, &BuildOptions::default()).expect("valid mesh")
}

fn bytes<T: Real, B: BoundingVolume<T>>(v: &B) -> Vec<u8> {
    bytemuck::bytes_of(v).to_vec()
}

/// Checks the recording of `a` × `b` at `b_in_a` against the collide query, for every descent rule; returns the
/// number of recorded pairs and of overlapping ones.
fn check<T: Real, B: BoundingVolume<T>>(
    a_mesh: &Mesh,
    b_mesh: &Mesh,
    b_in_a: &Pose<T>,
) -> (usize, usize) {
    let (a, b) = (tree::<T, B>(a_mesh), tree::<T, B>(b_mesh));
    let nodes_a: HashSet<Vec<u8>> = a.nodes().iter().map(|n| bytes::<T, B>(&n.bv)).collect();
    let nodes_b: HashSet<Vec<u8>> = b
        .nodes()
        .iter()
        .map(|n| bytes::<T, B>(&n.bv.transformed(b_in_a)))
        .collect();
    let mut totals = (0, 0);
    for rule in DescentRule::ALL {
        let query = collide_relative(&a, &b, b_in_a, &CollideRequest::all().with_descent(rule))
            .expect("in range");
        let recorded = record_collide_tests(&a, &b, b_in_a, rule).expect("in range");
        let (pairs, stats) = (recorded.pairs, recorded.stats);
        let overlapping = pairs.iter().filter(|p| p.overlapping).count();
        assert_eq!(
            pairs.len() as u64,
            query.stats.bv_tests,
            "{rule:?}: one pair per BV test"
        );
        assert_eq!(
            overlapping as u64, query.stats.bv_overlapping,
            "{rule:?}: overlapping split"
        );
        assert_eq!(
            (pairs.len() - overlapping) as u64,
            query.stats.bv_disjoint,
            "{rule:?}: disjoint split"
        );
        assert_eq!(
            (stats.bv_tests, stats.bv_overlapping, stats.bv_disjoint),
            (
                query.stats.bv_tests,
                query.stats.bv_overlapping,
                query.stats.bv_disjoint
            )
        );
        assert_eq!((stats.tri_tests, stats.contacts), (0, 0));
        assert_eq!(
            bytes::<T, B>(&pairs[0].a),
            bytes::<T, B>(&a.nodes()[0].bv),
            "{rule:?}: the first test is of the roots"
        );
        assert_eq!(
            bytes::<T, B>(&pairs[0].b),
            bytes::<T, B>(&b.nodes()[0].bv.transformed(b_in_a))
        );
        for p in &pairs {
            assert!(
                nodes_a.contains(&bytes::<T, B>(&p.a)),
                "{rule:?}: not a volume of A"
            );
            assert!(
                nodes_b.contains(&bytes::<T, B>(&p.b)),
                "{rule:?}: not a moved volume of B"
            );
            assert_eq!(p.a.overlaps_local(&p.b), p.overlapping);
        }
        totals = (pairs.len(), overlapping);
    }
    totals
}

fn pose<T: Real>(rng: &mut SplitMix64, reach: f64) -> Pose<T> {
    let t = Vector3::new(
        rng.range(-reach, reach),
        rng.range(-reach, reach),
        rng.range(-reach, reach),
    );
    let iso = Isometry3::from_parts(Translation3::from(t), random_rotation(rng));
    Pose::from_isometry(&nalgebra::convert::<Isometry3<f64>, Isometry3<T>>(iso))
}

fn scene(seed: u64) -> (Mesh, Mesh, SplitMix64) {
    let mut rng = SplitMix64::new(seed);
    let a = random_blob(&mut rng, 2, 1.0, 0.15);
    let b = random_blob(&mut rng, 2, 0.8, 0.2);
    (a, b, rng)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]

    #[test]
    fn recording_matches_the_query(seed in any::<u64>()) {
        let (a, b, mut rng) = scene(seed);
        let p64 = pose::<f64>(&mut rng, 1.5);
        check::<f64, Sphere<f64>>(&a, &b, &p64);
        check::<f64, Aabb<f64>>(&a, &b, &p64);
        check::<f64, Obb<f64>>(&a, &b, &p64);
        check::<f64, Rss<f64>>(&a, &b, &p64);
        let p32 = pose::<f32>(&mut rng, 1.5);
        check::<f32, Obb<f32>>(&a, &b, &p32);
        check::<f32, Aabb<f32>>(&a, &b, &p32);
    }
}

/// The scenes record both verdicts (the counts above would hold trivially on a pruned root).
#[test]
fn lat_long_spheres_record_both_verdicts() {
    let a = ccd_testkit::latlong(10, 20, 1.0);
    let b = ccd_testkit::latlong(10, 20, 0.8);
    let mut rng = SplitMix64::new(5);
    let iso = Isometry3::from_parts(Translation3::new(1.0, 0.0, 0.0), random_rotation(&mut rng));
    let (pairs, overlapping) = check::<f64, Obb<f64>>(&a, &b, &Pose::from_isometry(&iso));
    assert!(
        overlapping > 10 && pairs - overlapping > 10,
        "{pairs} pairs, {overlapping} overlapping"
    );
}

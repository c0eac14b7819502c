//! Queries on a saved and memory-mapped hierarchy give exactly the results
//! and counters of the owned one (issue: precompute once, map forever).

use ccd_bv::{Aabb, BoundingVolume, Obb, Pose, Real, Sphere};
use ccd_bvh::{BuildOptions, Bvh, BvhFile, BvhView};
use ccd_query::{CollideRequest, DescentRule, collide_relative};
use ccd_testkit::{Mesh, SplitMix64, random_blob, random_rotation, random_soup};
use nalgebra::{Isometry3, Translation3, Vector3};
use proptest::prelude::*;

/// Bytes copied to a 16-byte-aligned buffer, as a mapped file would be.
fn aligned(bytes: &[u8]) -> Vec<u128> {
    let mut words = vec![0u128; bytes.len().div_ceil(16)];
    bytemuck::cast_slice_mut::<u128, u8>(&mut words)[..bytes.len()].copy_from_slice(bytes);
    words
}

fn check<T: Real, B: BoundingVolume<T>>(
    a_mesh: &Mesh,
    b_mesh: &Mesh,
    leaf_size: u32,
    rng: &mut SplitMix64,
) {
    let o = BuildOptions {
        leaf_size,
        ..BuildOptions::default()
    };
    let build = |m: &Mesh| {
        Bvh::<T, B>::build(
            m.vertices.iter().map(|p| p.map(T::lit)).collect(),
            &m.triangles,
            &o,
        )
        .unwrap()
    };
    let (a, b) = (build(a_mesh), build(b_mesh));
    let (a_buf, b_buf) = (
        aligned(&a.to_bytes().unwrap()),
        aligned(&b.to_bytes().unwrap()),
    );
    let a_len = a.to_bytes().unwrap().len();
    let b_len = b.to_bytes().unwrap().len();
    let a_view = BvhView::<T, B>::from_bytes(&bytemuck::cast_slice(&a_buf)[..a_len]).unwrap();
    let b_view = BvhView::<T, B>::from_bytes(&bytemuck::cast_slice(&b_buf)[..b_len]).unwrap();
    let iso = Isometry3::from_parts(
        Translation3::from(Vector3::new(
            rng.range(-1.5, 1.5),
            rng.range(-1.5, 1.5),
            rng.range(-1.5, 1.5),
        )),
        random_rotation(rng),
    );
    let b_in_a = Pose::from_isometry(&nalgebra::convert::<Isometry3<f64>, Isometry3<T>>(iso));
    for rule in [DescentRule::LargestDiameter, DescentRule::AlwaysB] {
        for request in [CollideRequest::all(), CollideRequest::first()] {
            let request = request.with_descent(rule);
            let owned = collide_relative(&a, &b, &b_in_a, &request).unwrap();
            assert_eq!(
                collide_relative(&a_view, &b_view, &b_in_a, &request).unwrap(),
                owned
            );
            assert_eq!(
                collide_relative(&a, &b_view, &b_in_a, &request).unwrap(),
                owned
            );
            assert_eq!(
                collide_relative(&a_view, &b, &b_in_a, &request).unwrap(),
                owned
            );
        }
    }
}

fn scene(seed: u64) -> (Mesh, Mesh, SplitMix64) {
    let mut rng = SplitMix64::new(seed);
    let a = random_blob(&mut rng, 2, 1.0, 0.2);
    let b = random_soup(&mut rng, 50, 1.0, 0.6);
    (a, b, rng)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(16))]

    #[test]
    fn views_equal_owned_trees(seed in any::<u64>(), leaf_size in prop_oneof![Just(1u32), 2u32..=8]) {
        let (a, b, mut rng) = scene(seed);
        check::<f32, Obb<f32>>(&a, &b, leaf_size, &mut rng);
        check::<f64, Obb<f64>>(&a, &b, leaf_size, &mut rng);
        check::<f32, Aabb<f32>>(&a, &b, leaf_size, &mut rng);
        check::<f64, Aabb<f64>>(&a, &b, leaf_size, &mut rng);
        check::<f32, Sphere<f32>>(&a, &b, leaf_size, &mut rng);
        check::<f64, Sphere<f64>>(&a, &b, leaf_size, &mut rng);
    }
}

#[test]
fn memory_mapped_files_equal_owned_trees() {
    let dir = std::env::temp_dir().join(format!("ccd-query-mmap-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (a_mesh, b_mesh, mut rng) = scene(7);
    let o = BuildOptions::default();
    let a = Bvh::<f64, Obb<f64>>::build(a_mesh.vertices.clone(), &a_mesh.triangles, &o).unwrap();
    let b = Bvh::<f64, Obb<f64>>::build(b_mesh.vertices.clone(), &b_mesh.triangles, &o).unwrap();
    a.save(dir.join("a.bvh")).unwrap();
    b.save(dir.join("b.bvh")).unwrap();
    let (fa, fb) = (
        BvhFile::open(dir.join("a.bvh")).unwrap(),
        BvhFile::open(dir.join("b.bvh")).unwrap(),
    );
    let (va, vb) = (
        fa.view::<f64, Obb<f64>>().unwrap(),
        fb.view::<f64, Obb<f64>>().unwrap(),
    );
    let mut colliding = 0;
    for _ in 0..50 {
        let iso = Isometry3::from_parts(
            Translation3::from(Vector3::new(
                rng.range(-3.0, 3.0),
                rng.range(-3.0, 3.0),
                0.0,
            )),
            random_rotation(&mut rng),
        );
        let b_in_a = Pose::from_isometry(&iso);
        let owned = collide_relative(&a, &b, &b_in_a, &CollideRequest::all()).unwrap();
        assert_eq!(
            collide_relative(&va, &vb, &b_in_a, &CollideRequest::all()).unwrap(),
            owned
        );
        colliding += usize::from(owned.is_colliding());
    }
    assert!(
        colliding > 5 && colliding < 50,
        "scene should mix outcomes ({colliding}/50)"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

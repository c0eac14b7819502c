//! RSS trees through `.bvh` files: a tree of rectangle swept spheres saved, memory-mapped again
//! (`BvhFile::open`, `into_typed`) and queried gives the same contacts and the same counters as the tree it was
//! saved from, in `f64` and `f32`; the header names the new kind, other types are refused, and the files of
//! the existing kinds are unaffected (`format_stability.rs` opens the committed OBB fixture).

use std::path::PathBuf;

use ccd::nalgebra::{Isometry3, Translation3, UnitQuaternion, Vector3};
use ccd::{
    BuildOptions, BvKind, Bvh, BvhFile, CollideRequest, DescentRule, FileError, Hierarchy, Obb,
    Real, Rss,
};
use ccd_bvh::ScalarKind;
use ccd_query::collide;
use ccd_testkit::{Mesh, SplitMix64, random_blob, random_rotation, random_soup};

fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("rss_archive");
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir.join(name)
}

fn tree<T: Real>(m: &Mesh, leaf_size: u32) -> Bvh<T, Rss<T>> {
    let o = BuildOptions {
        leaf_size,
        ..BuildOptions::default()
    };
    Bvh::build(
        m.vertices.iter().map(|p| p.map(T::lit)).collect(),
        &m.triangles,
        &o,
    )
    .expect("valid mesh")
}

fn poses<T: Real>(n: usize) -> Vec<Isometry3<T>> {
    let mut rng = SplitMix64::new(11);
    (0..n)
        .map(|_| {
            let q: UnitQuaternion<f64> = random_rotation(&mut rng);
            let t = Vector3::new(
                rng.range(-1.6, 1.6),
                rng.range(-1.6, 1.6),
                rng.range(-1.6, 1.6),
            );
            ccd::nalgebra::convert(Isometry3::from_parts(Translation3::from(t), q))
        })
        .collect()
}

/// Saves trees of two meshes, maps them back and compares every query's contacts and counters; returns the
/// number of colliding poses.
fn round_trip<T: Real>(tag: &str, leaf_size: u32) -> usize {
    let mut rng = SplitMix64::new(5);
    let (ma, mb) = (
        random_blob(&mut rng, 3, 1.0, 0.2),
        random_soup(&mut rng, 300, 0.8, 0.2),
    );
    let (a, b) = (tree::<T>(&ma, leaf_size), tree::<T>(&mb, leaf_size));
    let (pa, pb) = (
        scratch(&format!("a-{tag}.bvh")),
        scratch(&format!("b-{tag}.bvh")),
    );
    a.save(&pa).unwrap();
    b.save(&pb).unwrap();
    let fa = BvhFile::open(&pa).unwrap();
    let info = *fa.info();
    assert_eq!((info.bv, info.scalar), (BvKind::Rss, ScalarKind::of::<T>()));
    assert_eq!((info.nodes, info.faces), (a.nodes().len(), a.faces().len()));
    let ma = fa.into_typed::<T, Rss<T>>().unwrap();
    let mb = BvhFile::open(&pb)
        .unwrap()
        .into_typed::<T, Rss<T>>()
        .unwrap();
    let identity = Isometry3::identity();
    let mut colliding = 0;
    for pose in poses::<T>(40) {
        for rule in DescentRule::ALL {
            for request in [CollideRequest::all(), CollideRequest::first()] {
                let request = request.with_descent(rule);
                let owned = collide(&a, &identity, &b, &pose, &request).unwrap();
                let mapped = collide(&ma, &identity, &mb, &pose, &request).unwrap();
                assert_eq!(owned.contacts, mapped.contacts, "{tag} {rule:?}");
                assert_eq!(owned.stats, mapped.stats, "{tag} {rule:?}");
                colliding += usize::from(owned.is_colliding());
            }
        }
    }
    colliding
}

#[test]
fn rss_files_query_like_the_trees_they_were_saved_from() {
    let hits = round_trip::<f64>("f64", 1)
        + round_trip::<f32>("f32", 1)
        + round_trip::<f64>("f64-leaf4", 4);
    assert!(
        hits > 0 && hits < 3 * 40 * 2 * DescentRule::ALL.len(),
        "{hits}: poses should mix hits and misses"
    );
}

#[test]
fn an_rss_file_is_not_an_obb_file() {
    let mut rng = SplitMix64::new(8);
    let m = random_soup(&mut rng, 50, 1.0, 0.3);
    let path = scratch("kind.bvh");
    tree::<f64>(&m, 1).save(&path).unwrap();
    let err = BvhFile::open(&path)
        .unwrap()
        .into_typed::<f64, Obb<f64>>()
        .unwrap_err();
    assert!(matches!(err, FileError::WrongKind { .. }), "{err}");
    let err = BvhFile::open(&path)
        .unwrap()
        .into_typed::<f32, Rss<f32>>()
        .unwrap_err();
    assert!(matches!(err, FileError::WrongKind { .. }), "{err}");
}

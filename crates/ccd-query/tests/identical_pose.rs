//! A mesh against itself at one shared pose: the relative pose is exactly the identity, so every pair of
//! triangles that touches in exact arithmetic (on a convex closed mesh: the pairs that share a vertex) is
//! reported, in f32 and f64, whatever the shared rotation.

use std::collections::BTreeSet;

use ccd_bv::{BoundingVolume, Obb, Pose, Real, Sphere};
use ccd_bvh::{BuildOptions, Bvh};
use ccd_query::{CollideRequest, ContactPair, collide};
use ccd_testkit::{Mesh, SplitMix64, icosphere, random_rotation};
use nalgebra::{Isometry3, Translation3, UnitQuaternion, Vector3};

/// The pairs `(i, j)` of triangles of `mesh` that share a vertex index (each triangle with itself included):
/// on a convex closed mesh without duplicate vertices, exactly the pairs whose triangles intersect.
fn sharing_a_vertex(mesh: &Mesh) -> BTreeSet<ContactPair> {
    let mut around = vec![Vec::new(); mesh.vertices.len()];
    for (t, tri) in mesh.triangles.iter().enumerate() {
        for &v in tri {
            around[v as usize].push(t as u32);
        }
    }
    let mut pairs = BTreeSet::new();
    for (a, tri) in mesh.triangles.iter().enumerate() {
        for &v in tri {
            for &b in &around[v as usize] {
                pairs.insert(ContactPair { a: a as u32, b });
            }
        }
    }
    pairs
}

fn contacts_at_shared_pose<T: Real, B: BoundingVolume<T>>(
    mesh: &Mesh,
    pose: &Isometry3<f64>,
) -> BTreeSet<ContactPair> {
    let vertices = mesh.vertices.iter().map(|p| p.map(T::lit)).collect();
    let tree: Bvh<T, B> =
        Bvh::build(vertices, &mesh.triangles, &BuildOptions::default()).expect("valid mesh");
    let pose: Isometry3<T> = nalgebra::convert(*pose);
    collide(&tree, &pose, &tree, &pose, &CollideRequest::all())
        .expect("supported pose")
        .contacts
        .into_iter()
        .collect()
}

/// The rotation vector of the CLI report `--pose-a 0,0,0,0.2,0.4,0.6`, then random rotations and offsets.
fn shared_poses() -> Vec<Isometry3<f64>> {
    let mut poses = vec![Isometry3::from_parts(
        Translation3::identity(),
        UnitQuaternion::from_scaled_axis(Vector3::new(0.2, 0.4, 0.6)),
    )];
    let mut rng = SplitMix64::new(0x1de7);
    for _ in 0..3 {
        let t = Vector3::new(
            rng.range(-5.0, 5.0),
            rng.range(-5.0, 5.0),
            rng.range(-5.0, 5.0),
        );
        poses.push(Isometry3::from_parts(
            Translation3::from(t),
            random_rotation(&mut rng),
        ));
    }
    poses
}

fn check<T: Real, B: BoundingVolume<T>>() {
    // 5,120 triangles.
    let mesh = icosphere(4, 1.0);
    let truth = sharing_a_vertex(&mesh);
    assert!(truth.len() > 10 * mesh.triangles.len());
    for pose in shared_poses() {
        let found = contacts_at_shared_pose::<T, B>(&mesh, &pose);
        assert_eq!(
            found.len(),
            truth.len(),
            "{} of {} touching pairs at {pose:?}",
            found.len(),
            truth.len()
        );
        assert_eq!(found, truth, "contact set differs at {pose:?}");
    }
}

#[test]
fn f32_obb_mesh_against_itself_reports_every_touching_pair() {
    check::<f32, Obb<f32>>();
}

#[test]
fn f64_obb_mesh_against_itself_reports_every_touching_pair() {
    check::<f64, Obb<f64>>();
}

#[test]
fn f32_sphere_mesh_against_itself_reports_every_touching_pair() {
    check::<f32, Sphere<f32>>();
}

#[test]
fn shared_rotation_cancels_to_the_exact_identity() {
    for pose in shared_poses() {
        let moved = Isometry3::from_parts(
            Translation3::from(pose.translation.vector + Vector3::new(0.5, -0.25, 2.0)),
            pose.rotation,
        );
        let same = Pose::relative(&pose, &pose);
        assert_eq!(same, Pose::identity());
        let negated = Isometry3::from_parts(
            pose.translation,
            UnitQuaternion::new_unchecked(-pose.rotation.into_inner()),
        );
        assert_eq!(
            Pose::relative(&pose, &negated).rot,
            Pose::<f64>::identity().rot
        );
        // A shared rotation with different translations: the rotation is exact, the offset is B's, seen from A.
        let shifted = Pose::relative(&pose, &moved);
        assert_eq!(shifted.rot, Pose::<f64>::identity().rot);
        let expected = pose.rotation.inverse() * Vector3::new(0.5, -0.25, 2.0);
        assert!((shifted.trans - expected).norm() < 1e-14);
    }
}

#[test]
fn distinct_rotations_keep_the_rounded_product() {
    let mut rng = SplitMix64::new(7);
    for _ in 0..100 {
        let a = Isometry3::from_parts(Translation3::identity(), random_rotation(&mut rng));
        let b = Isometry3::from_parts(Translation3::identity(), random_rotation(&mut rng));
        let r = Pose::relative(&a, &b);
        let expected = (a.rotation.inverse() * b.rotation).to_rotation_matrix();
        assert_eq!(r.rot, expected.into_inner());
    }
}

//! Transforms, overlap tests, distance lower bounds and measures of the three
//! volumes against brute-force geometry.

mod common;

use ccd_bv::nalgebra::{Matrix3, Vector3};
use ccd_bv::{Aabb, BoundingVolume, Obb, Pose, Sphere};
use common::{Rng, arr, box_surface, min_distance, oracle_disjoint};

fn random_aabb(rng: &mut Rng) -> Aabb<f64> {
    Aabb {
        center: arr(&rng.vec(-2.0, 2.0)),
        half: rng.half(),
    }
}

fn random_sphere(rng: &mut Rng) -> Sphere<f64> {
    Sphere {
        center: arr(&rng.vec(-2.0, 2.0)),
        radius: rng.range(0.0, 2.0),
    }
}

fn random_obb(rng: &mut Rng) -> Obb<f64> {
    Obb {
        rot: rng.rotation_mixed().into(),
        center: arr(&rng.vec(-2.0, 2.0)),
        half: rng.half(),
    }
}

fn random_pose(rng: &mut Rng, reach: f64) -> Pose<f64> {
    Pose::from_parts(rng.rotation_mixed(), rng.vec(-reach, reach))
}

/// Points on a sphere (Fibonacci lattice).
fn sphere_surface(s: &Sphere<f64>, n: usize) -> Vec<Vector3<f64>> {
    let golden = std::f64::consts::PI * (3.0 - 5f64.sqrt());
    (0..n)
        .map(|k| {
            let z = 1.0 - 2.0 * (k as f64 + 0.5) / n as f64;
            let (sn, cs) = (golden * k as f64).sin_cos();
            let r = (1.0 - z * z).sqrt();
            Vector3::from(s.center) + Vector3::new(r * cs, r * sn, z) * s.radius
        })
        .collect()
}

#[test]
fn aabb_wrap_contains_the_moved_corners() {
    let mut rng = Rng::new(41);
    for _ in 0..2_000 {
        let b = random_aabb(&mut rng);
        let pose = Pose::from_parts(rng.rotation(), rng.vec(-5.0, 5.0));
        let w = b.transformed(&pose);
        for c in common::corners(&Matrix3::identity(), &Vector3::from(b.center), &b.half) {
            let p = pose.transform_array(&arr(&c));
            assert!(w.contains_point(&p, 1e-12), "{w:?} misses {p:?}");
        }
        // The wrap is the smallest such box: some corner reaches each face.
        for i in 0..3 {
            let reach = common::corners(&Matrix3::identity(), &Vector3::from(b.center), &b.half)
                .iter()
                .map(|c| (pose.transform_array(&arr(c))[i] - w.center[i]).abs())
                .fold(0.0, f64::max);
            assert!((reach - w.half[i]).abs() < 1e-12);
        }
    }
}

#[test]
fn obb_transform_is_exact() {
    let mut rng = Rng::new(42);
    for _ in 0..500 {
        let b = random_obb(&mut rng);
        let pose = Pose::from_parts(rng.rotation(), rng.vec(-5.0, 5.0));
        let w = b.transformed(&pose);
        let s = Sphere {
            center: b.center,
            radius: 1.0,
        }
        .transformed(&pose);
        assert!((Vector3::from(s.center) - Vector3::from(w.center)).norm() < 1e-12);
        for c in common::corners(&Matrix3::from(b.rot), &Vector3::from(b.center), &b.half) {
            let p = pose.transform_array(&arr(&c));
            let l = w.local_coords(&p);
            for (x, h) in l.iter().zip(w.half) {
                assert!(
                    (x.abs() - h).abs() < 1e-12,
                    "corner not on the moved box's faces"
                );
            }
        }
    }
}

#[test]
fn aabb_and_sphere_overlap_never_false_disjoint() {
    let mut rng = Rng::new(43);
    let (mut agree, n) = (0, 10_000);
    for _ in 0..n {
        let pose = random_pose(&mut rng, 4.0);
        let (a, b) = (random_aabb(&mut rng), random_aabb(&mut rng));
        // Exact: the true box B (rotated) against A in A's box frame.
        let r = pose.rot;
        let t = pose.rot * Vector3::from(b.center) + pose.trans - Vector3::from(a.center);
        let truth = !oracle_disjoint(&r, &t, &a.half, &b.half);
        let got = a.overlaps(&b, &pose);
        assert!(got || !truth, "false disjoint: {a:?} {b:?} {pose:?}");
        agree += usize::from(got == truth);

        let (sa, sb) = (random_sphere(&mut rng), random_sphere(&mut rng));
        let cb = pose.rot * Vector3::from(sb.center) + pose.trans;
        let d = (cb - Vector3::from(sa.center)).norm();
        assert_eq!(sa.overlaps(&sb, &pose), d <= sa.radius + sb.radius);
    }
    assert!(
        agree > n / 2,
        "the wrap test disagrees with the exact one too often: {agree}"
    );
}

#[test]
fn distance_lower_bounds_are_below_sampled_distances() {
    let mut rng = Rng::new(44);
    let (mut positive, n) = ([0usize; 3], 120);
    for _ in 0..n {
        let pose = random_pose(&mut rng, 6.0);
        let moved = |p: &Vector3<f64>| pose.rot * p + pose.trans;

        let (a, b) = (random_obb(&mut rng), random_obb(&mut rng));
        let pa = box_surface(&Matrix3::from(a.rot), &Vector3::from(a.center), &a.half, 7);
        let pb: Vec<_> = box_surface(&Matrix3::from(b.rot), &Vector3::from(b.center), &b.half, 7)
            .iter()
            .map(moved)
            .collect();
        let lb = a.distance_lower_bound(&b, &pose);
        assert!(
            lb >= 0.0 && lb <= min_distance(&pa, &pb) + 1e-12,
            "obb: {lb} > sampled"
        );
        assert_eq!(lb > 0.0, !a.overlaps(&b, &pose) && lb > 0.0);
        positive[0] += usize::from(lb > 0.0);

        let (a, b) = (random_aabb(&mut rng), random_aabb(&mut rng));
        let pa = box_surface(&Matrix3::identity(), &Vector3::from(a.center), &a.half, 7);
        let pb: Vec<_> = box_surface(&Matrix3::identity(), &Vector3::from(b.center), &b.half, 7)
            .iter()
            .map(moved)
            .collect();
        let lb = a.distance_lower_bound(&b, &pose);
        assert!(
            lb >= 0.0 && lb <= min_distance(&pa, &pb) + 1e-12,
            "aabb: {lb} > sampled"
        );
        assert!(lb == 0.0 || !a.overlaps(&b, &pose));
        positive[1] += usize::from(lb > 0.0);

        let (a, b) = (random_sphere(&mut rng), random_sphere(&mut rng));
        let pa = sphere_surface(&a, 300);
        let pb: Vec<_> = sphere_surface(&b, 300).iter().map(moved).collect();
        let lb = a.distance_lower_bound(&b, &pose);
        assert!(
            lb >= 0.0 && lb <= min_distance(&pa, &pb) + 1e-12,
            "sphere: {lb} > sampled"
        );
        assert!(lb == 0.0 || !a.overlaps(&b, &pose));
        positive[2] += usize::from(lb > 0.0);
    }
    assert!(
        positive.iter().all(|&k| k > n / 4),
        "bounds are trivially 0 too often: {positive:?}"
    );
}

#[test]
fn obb_lower_bound_is_close_for_face_separated_boxes() {
    // Axis-aligned boxes 3 apart along x: the bound is the gap.
    let a: Obb<f64> = Obb {
        rot: Matrix3::identity().into(),
        center: [0.0; 3],
        half: [1.0; 3],
    };
    let pose = Pose::from_parts(Matrix3::identity(), Vector3::new(5.0, 0.5, 0.0));
    let lb = a.distance_lower_bound(&a, &pose);
    assert!((lb - 3.0).abs() < 1e-5 && lb <= 3.0, "{lb}");
}

#[test]
fn contains_point_and_measures() {
    let o = Obb {
        rot: Matrix3::identity().into(),
        center: [1.0, 0.0, 0.0],
        half: [1.0, 2.0, 3.0],
    };
    assert!(o.contains_point(&[2.0, -2.0, 3.0], 0.0) && !o.contains_point(&[2.1, 0.0, 0.0], 0.0));
    assert!(o.contains_point(&[2.1, 0.0, 0.0], 0.1 + 1e-12));
    assert_eq!((o.volume(), o.area(), o.thickness()), (48.0, 88.0, 2.0));
    assert!((o.diameter() - 2.0 * 14f64.sqrt()).abs() < 1e-12);
    let b = Aabb {
        center: o.center,
        half: o.half,
    };
    assert_eq!(
        (b.volume(), b.area(), b.thickness(), b.diameter()),
        (o.volume(), o.area(), o.thickness(), o.diameter())
    );
    assert!(b.contains_point(&[0.0, 2.0, -3.0], 0.0) && !b.contains_point(&[0.0, 2.0, -3.01], 0.0));
    let s = Sphere {
        center: [0.0, 0.0, 1.0],
        radius: 2.0,
    };
    assert!(s.contains_point(&[0.0, 2.0, 1.0], 0.0) && !s.contains_point(&[0.0, 2.0, 1.1], 0.0));
    assert_eq!((s.diameter(), s.thickness()), (4.0, 4.0));
    assert!((s.volume() - 32.0 / 3.0 * std::f64::consts::PI).abs() < 1e-12);
    assert!((s.area() - 16.0 * std::f64::consts::PI).abs() < 1e-12);
}

/// `overlaps_local` on B moved into A's frame agrees with `overlaps` (for
/// AABBs both test the wrap of B).
#[test]
fn overlaps_local_agrees_with_overlaps() {
    let mut rng = Rng::new(45);
    for _ in 0..5_000 {
        let pose = random_pose(&mut rng, 4.0);
        let (a, b) = (random_obb(&mut rng), random_obb(&mut rng));
        assert_eq!(
            a.overlaps_local(&b.transformed(&pose)),
            a.overlaps(&b, &pose)
        );
        let (a, b) = (random_sphere(&mut rng), random_sphere(&mut rng));
        assert_eq!(
            a.overlaps_local(&b.transformed(&pose)),
            a.overlaps(&b, &pose)
        );
        let (a, b) = (random_aabb(&mut rng), random_aabb(&mut rng));
        assert_eq!(
            a.overlaps_local(&b.transformed(&pose)),
            a.overlaps(&b, &pose)
        );
        let same = Pose::identity();
        assert_eq!(a.overlaps_local(&b), a.overlaps(&b, &same));
    }
}

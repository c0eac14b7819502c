//! The distance query against the brute-force minimum over all triangle pairs (each pair by the certified
//! primitive `distance_triangle_triangle`, whose error bound is tested against an exact rational oracle in
//! `primitive_distance.rs`), for every volume type, both scalar types and every descent rule; PQP's error
//! semantics; closest points on the reported triangles; owned and viewed trees alike; typed errors.

use ccd_bv::{Aabb, BoundingVolume, Obb, Pose, Real, Sphere};
use ccd_bvh::{BuildOptions, Bvh, BvhView, Hierarchy};
use ccd_query::primitive::distance_triangle_triangle;
use ccd_query::{
    DescentRule, DistanceOutcome, DistanceRequest, ToleranceOutcome, distance, within_distance,
};
use ccd_testkit::{Mesh, SplitMix64, random_blob, random_rotation, random_soup};
use nalgebra::{Isometry3, Point3, Translation3, Vector3};
use proptest::prelude::*;

fn tree<T: Real, B: BoundingVolume<T>>(m: &Mesh, leaf_size: u32) -> Bvh<T, B> {
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

/// The minimum over all pairs, with B's triangles mapped into A's frame as the query maps them.
fn brute_force<T: Real, A: Hierarchy<Scalar = T>, B: Hierarchy<Scalar = T>>(
    a: &A,
    b: &B,
    b_in_a: &Pose<T>,
) -> f64 {
    let mut best = f64::INFINITY;
    for fa in 0..a.faces().len() {
        let ta = a.triangle(fa).map(Vector3::from);
        for fb in 0..b.faces().len() {
            let tb = b
                .triangle(fb)
                .map(|p| Vector3::from(b_in_a.transform_array(&p)));
            best = best.min(distance_triangle_triangle(&ta, &tb).distance.to_f64_exact());
        }
    }
    best
}

/// The primitive's stated rounding bound for coordinates up to `s` in magnitude.
fn rounding<T: Real>(s: f64) -> f64 {
    let c = if T::EPSILON.to_f64_exact() > 1e-10 {
        4.0
    } else {
        128.0
    };
    c * T::EPSILON.to_f64_exact() * s + 1e-300
}

fn pose<T: Real>(rng: &mut SplitMix64, reach: f64) -> Isometry3<T> {
    let t = Vector3::new(
        rng.range(-reach, reach),
        rng.range(-reach, reach),
        rng.range(-reach, reach),
    );
    nalgebra::convert(Isometry3::from_parts(
        Translation3::from(t),
        random_rotation(rng),
    ))
}

/// Checks one scene for every descent rule and returns the brute-force distance.
fn check<T: Real, B: BoundingVolume<T>>(
    am: &Mesh,
    bm: &Mesh,
    leaf: u32,
    rng: &mut SplitMix64,
) -> f64 {
    let (a, b) = (tree::<T, B>(am, leaf), tree::<T, B>(bm, 1));
    let (pa, pb) = (pose::<T>(rng, 0.5), pose::<T>(rng, 2.0));
    let b_in_a = Pose::relative_checked(&pa, &pb).unwrap();
    let truth = brute_force(&a, &b, &b_in_a);
    let eps = rounding::<T>(8.0);
    for rule in DescentRule::ALL {
        let request = DistanceRequest {
            descent: rule,
            ..DistanceRequest::exact()
        };
        let r = distance(&a, &pa, &b, &pb, &request).unwrap();
        let c = *r.closest().expect("no max_distance: always a closest pair");
        let d = c.distance.to_f64_exact();
        assert!(
            d >= truth && d <= truth + eps,
            "{rule:?}: {d} vs brute force {truth}"
        );
        // The closest points lie on the reported triangles (world frame) and are `d` apart.
        let world = |iso: &Isometry3<T>, t: [[T; 3]; 3]| t.map(|p| (iso * Point3::from(p)).coords);
        let on = |p: [T; 3], t: [Vector3<T>; 3]| {
            let q = [Vector3::from(p); 3];
            distance_triangle_triangle(&q, &t).distance.to_f64_exact()
        };
        let (ta, tb) = (
            world(&pa, a.triangle(slot(&a, c.tri_a))),
            world(&pb, b.triangle(slot(&b, c.tri_b))),
        );
        assert!(
            on(c.point_a, ta) <= eps && on(c.point_b, tb) <= eps,
            "{rule:?}: points off their triangles"
        );
        let gap = (Vector3::from(c.point_a) - Vector3::from(c.point_b))
            .norm()
            .to_f64_exact();
        assert!(
            (gap - d).abs() <= 4.0 * eps,
            "{rule:?}: points {gap} apart, distance {d}"
        );
        let s = r.stats;
        assert!(s.bv_tests >= 1 && s.primitive_tests >= 1 && s.queue_peak <= s.queue_pushes);
        assert!(s.primitive_tests <= (a.faces().len() * b.faces().len()) as u64);
    }
    // PQP's error semantics: d ≤ max((1 + rel)·d*, d* + abs) (plus rounding), never below d*.
    for (rel, abs) in [(0.1, 0.0), (0.0, 0.05), (0.5, 0.2)] {
        let request = DistanceRequest {
            rel_err: T::lit(rel),
            abs_err: T::lit(abs),
            ..DistanceRequest::exact()
        };
        let d = distance(&a, &pa, &b, &pb, &request)
            .unwrap()
            .closest()
            .unwrap()
            .distance
            .to_f64_exact();
        let allowed = (truth * (1.0 + rel)).max(truth + abs) + eps;
        assert!(
            d >= truth && d <= allowed,
            "rel {rel} abs {abs}: {d} vs {truth}"
        );
    }
    // max_distance: beyond below the truth, the closest pair above it.
    if truth > 0.1 {
        let near = DistanceRequest {
            max_distance: Some(T::lit(truth * 0.9)),
            ..DistanceRequest::exact()
        };
        assert!(matches!(
            distance(&a, &pa, &b, &pb, &near).unwrap().outcome,
            DistanceOutcome::Beyond(_)
        ));
    }
    let far = DistanceRequest {
        max_distance: Some(T::lit(truth * 1.1 + 0.01)),
        ..DistanceRequest::exact()
    };
    assert!(
        distance(&a, &pa, &b, &pb, &far)
            .unwrap()
            .closest()
            .is_some()
    );
    truth
}

/// The slot of the caller's triangle `id` (tree order differs from input order).
fn slot<H: Hierarchy>(h: &H, id: u32) -> usize {
    h.faces()
        .iter()
        .position(|f| f.id == id)
        .expect("a reported triangle exists")
}

fn scene(seed: u64) -> (Mesh, Mesh, SplitMix64) {
    let mut rng = SplitMix64::new(seed);
    let a = random_blob(&mut rng, 1, 1.0, 0.3);
    let b = if seed.is_multiple_of(2) {
        random_soup(&mut rng, 24, 0.8, 0.4)
    } else {
        random_blob(&mut rng, 1, 0.7, 0.2)
    };
    (a, b, rng)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn distance_equals_brute_force(seed in any::<u64>(), leaf in prop_oneof![Just(1u32), 2u32..=6]) {
        let (a, b, mut rng) = scene(seed);
        check::<f64, Obb<f64>>(&a, &b, leaf, &mut rng);
        check::<f64, Aabb<f64>>(&a, &b, leaf, &mut rng);
        check::<f64, Sphere<f64>>(&a, &b, leaf, &mut rng);
        check::<f32, Obb<f32>>(&a, &b, leaf, &mut rng);
        check::<f32, Aabb<f32>>(&a, &b, leaf, &mut rng);
        check::<f32, Sphere<f32>>(&a, &b, leaf, &mut rng);
    }
}

/// Scenes mix intersecting meshes (distance 0, an intersecting pair) and separated ones.
#[test]
fn intersecting_meshes_give_zero_and_separated_ones_do_not() {
    let (mut zero, mut apart) = (0, 0);
    for seed in 0..24 {
        let (a, b, mut rng) = scene(seed);
        let d = check::<f64, Obb<f64>>(&a, &b, 1, &mut rng);
        if d == 0.0 { zero += 1 } else { apart += 1 }
    }
    assert!(
        zero >= 3 && apart >= 3,
        "{zero} intersecting, {apart} apart"
    );
}

/// Owned trees and views of their archives give identical results and counters.
#[test]
fn views_equal_owned_trees() {
    for seed in 0..6 {
        let (am, bm, mut rng) = scene(seed);
        let (a, b) = (tree::<f64, Obb<f64>>(&am, 1), tree::<f64, Obb<f64>>(&bm, 2));
        let (ba, bb) = (a.to_bytes().unwrap(), b.to_bytes().unwrap());
        let aligned = |bytes: &[u8]| {
            let mut w = vec![0u128; bytes.len().div_ceil(16)];
            bytemuck::cast_slice_mut::<u128, u8>(&mut w)[..bytes.len()].copy_from_slice(bytes);
            w
        };
        let (wa, wb) = (aligned(&ba), aligned(&bb));
        let va =
            BvhView::<f64, Obb<f64>>::from_bytes(&bytemuck::cast_slice(&wa)[..ba.len()]).unwrap();
        let vb =
            BvhView::<f64, Obb<f64>>::from_bytes(&bytemuck::cast_slice(&wb)[..bb.len()]).unwrap();
        let (pa, pb) = (pose::<f64>(&mut rng, 0.5), pose::<f64>(&mut rng, 3.0));
        let request = DistanceRequest::exact();
        let owned = distance(&a, &pa, &b, &pb, &request).unwrap();
        assert_eq!(distance(&va, &pa, &vb, &pb, &request).unwrap(), owned);
        assert_eq!(distance(&a, &pa, &vb, &pb, &request).unwrap(), owned);
        assert_eq!(va.volume_profile(), a.volume_profile());
        assert!(a.volume_profile().is_some());
        // Without profiles every pair measures its own allowance: the same closest pair and distance.
        let measured = distance(&Unprofiled(&a), &pa, &Unprofiled(&b), &pb, &request).unwrap();
        assert_eq!(measured.outcome, owned.outcome);
    }
}

/// A hierarchy that keeps no volume profile (the default of [`Hierarchy::volume_profile`]).
struct Unprofiled<'a, H>(&'a H);

impl<H: Hierarchy> Hierarchy for Unprofiled<'_, H> {
    type Scalar = H::Scalar;
    type Bv = H::Bv;

    fn nodes(&self) -> &[ccd_bvh::Node<H::Scalar, H::Bv>] {
        self.0.nodes()
    }

    fn faces(&self) -> &[ccd_bvh::Face] {
        self.0.faces()
    }

    fn vertices(&self) -> &[[H::Scalar; 3]] {
        self.0.vertices()
    }
}

/// NaN poses and negative or NaN error bounds are typed errors naming the value.
#[test]
fn bad_requests_and_poses_are_refused() {
    let (am, bm, _) = scene(1);
    let (a, b) = (tree::<f64, Obb<f64>>(&am, 1), tree::<f64, Obb<f64>>(&bm, 1));
    let id = Isometry3::identity();
    for (request, field) in [
        (
            DistanceRequest {
                rel_err: -0.1,
                ..DistanceRequest::exact()
            },
            "request rel_err",
        ),
        (
            DistanceRequest {
                abs_err: f64::NAN,
                ..DistanceRequest::exact()
            },
            "request abs_err",
        ),
        (
            DistanceRequest {
                max_distance: Some(-1.0),
                ..DistanceRequest::exact()
            },
            "request max_distance",
        ),
    ] {
        let e = distance(&a, &id, &b, &id, &request).unwrap_err();
        assert!(e.to_string().starts_with(field), "{e}");
    }
    let nan = Isometry3::translation(f64::NAN, 0.0, 0.0);
    let e = distance(&a, &id, &b, &nan, &DistanceRequest::exact()).unwrap_err();
    assert!(
        e.to_string()
            .starts_with("pose of model b: translation x = NaN"),
        "{e}"
    );
}

/// `within_distance` agrees with the brute-force decision outside the rounding band, and its witness is a real
/// pair within the tolerance (f64 and f32, every volume type).
fn tolerance_agrees<T: Real, B: BoundingVolume<T>>(seed: u64) -> (usize, usize) {
    let (am, bm, mut rng) = scene(seed);
    let (a, b) = (tree::<T, B>(&am, 1), tree::<T, B>(&bm, 1));
    let (pa, pb) = (pose::<T>(&mut rng, 0.5), pose::<T>(&mut rng, 2.0));
    let truth = brute_force(&a, &b, &Pose::relative_checked(&pa, &pb).unwrap());
    let band = rounding::<T>(8.0);
    let (mut yes, mut no) = (0, 0);
    for tau in [
        0.0,
        truth * 0.5,
        truth * 0.99,
        truth * 1.01,
        truth * 2.0,
        truth + 0.1,
    ] {
        if (tau - truth).abs() <= band {
            continue;
        }
        let r = within_distance(&a, &pa, &b, &pb, T::lit(tau)).unwrap();
        assert_eq!(
            r.is_within(),
            truth <= tau,
            "{} τ {tau} vs distance {truth}",
            T::NAME
        );
        if let ToleranceOutcome::Within(w) = r.outcome {
            yes += 1;
            assert!(w.distance.to_f64_exact() <= tau && w.distance.to_f64_exact() >= truth);
            assert_eq!(r.stats.contacts, 1);
        } else {
            no += 1;
        }
    }
    (yes, no)
}

#[test]
fn within_distance_agrees_with_brute_force() {
    let (mut yes, mut no) = (0, 0);
    for seed in 0..16 {
        for (y, n) in [
            tolerance_agrees::<f64, Obb<f64>>(seed),
            tolerance_agrees::<f64, Aabb<f64>>(seed),
            tolerance_agrees::<f64, Sphere<f64>>(seed),
            tolerance_agrees::<f32, Obb<f32>>(seed),
            tolerance_agrees::<f32, Sphere<f32>>(seed),
        ] {
            yes += y;
            no += n;
        }
    }
    assert!(yes > 50 && no > 50, "{yes} within, {no} beyond");
    let (am, _, _) = scene(3);
    let a = tree::<f64, Obb<f64>>(&am, 1);
    let id = Isometry3::identity();
    let e = within_distance(&a, &id, &a, &id, -1.0).unwrap_err();
    assert!(e.to_string().starts_with("tolerance = -1 "), "{e}");
}

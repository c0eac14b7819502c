//! `time_of_impact` has no false negatives for every bounding-volume type, for `f32` as well as `f64`, and with
//! a positive `min_separation`: against dense sampling of the motions with an independent oracle (the exact
//! discrete `collide` on `f64` copies of the meshes at the sampled poses, and brute-force triangle distances from
//! `ccd_testkit::distance` when a separation is asked for).

use ccd_bv::{Aabb, Obb, Real, Rss, Sphere};
use ccd_bvh::{BuildOptions, Bvh};
use ccd_motion::{ConstantRotationTranslation, Interp, Motion, Screw, Static, Translation};
use ccd_query::{CollideRequest, ContinuousVolume, ToiRequest, collide, time_of_impact};
use ccd_testkit::distance::triangle_distance;
use ccd_testkit::{Mesh, SplitMix64, random_blob, random_rotation, random_soup};
use nalgebra::{Isometry3, Point3, Quaternion, Translation3, Unit, UnitQuaternion, Vector3};

/// A motion's parameters in `f64`, instantiated in any scalar type.
#[derive(Clone, Copy, Debug)]
struct Spec {
    kind: u64,
    start: Isometry3<f64>,
    end_rot: UnitQuaternion<f64>,
    d: Vector3<f64>,
    axis: Vector3<f64>,
    angle: f64,
    pivot: Vector3<f64>,
    slide: f64,
}

fn spec(rng: &mut SplitMix64, kind: u64, from: Vector3<f64>, to: Vector3<f64>) -> Spec {
    let mut j = || rng.range(-0.3, 0.3);
    let jitter = Vector3::new(j(), j(), j());
    Spec {
        kind,
        start: Isometry3::from_parts(Translation3::from(from), random_rotation(rng)),
        end_rot: random_rotation(rng),
        d: to - from + jitter,
        axis: Vector3::new(
            rng.range(-1.0, 1.0),
            rng.range(-1.0, 1.0),
            rng.range(-1.0, 1.0) + 0.01,
        ),
        angle: rng.range(-3.0, 3.0),
        pivot: (from + to) * 0.5 + jitter,
        slide: rng.range(-0.5, 0.5),
    }
}

fn vec3<T: Real>(v: &Vector3<f64>) -> Vector3<T> {
    v.map(T::lit)
}

fn rot<T: Real>(q: &UnitQuaternion<f64>) -> UnitQuaternion<T> {
    let c = q.quaternion().coords;
    UnitQuaternion::new_normalize(Quaternion::new(
        T::lit(c.w),
        T::lit(c.x),
        T::lit(c.y),
        T::lit(c.z),
    ))
}

fn iso<T: Real>(p: &Isometry3<f64>) -> Isometry3<T> {
    Isometry3::from_parts(
        Translation3::from(vec3::<T>(&p.translation.vector)),
        rot(&p.rotation),
    )
}

fn motion<T: Real>(s: &Spec) -> Box<dyn Motion<T>> {
    let start = iso::<T>(&s.start);
    let axis = Unit::new_normalize(vec3::<T>(&s.axis));
    match s.kind {
        0 => Box::new(Static::new(start)),
        1 => Box::new(Translation::new(start, vec3(&s.d))),
        2 => Box::new(Screw::new(
            start,
            axis,
            Point3::from(vec3::<T>(&s.pivot)),
            T::lit(s.angle),
            T::lit(s.slide),
        )),
        3 => Box::new(ConstantRotationTranslation::new(
            start,
            axis,
            T::lit(s.angle),
            vec3(&s.d),
        )),
        _ => {
            let end = Isometry3::from_parts(
                Translation3::from(vec3::<T>(&(s.start.translation.vector + s.d))),
                rot(&s.end_rot),
            );
            Box::new(Interp::new(start, end))
        }
    }
}

fn tree<T: Real, B: ContinuousVolume<T>>(m: &Mesh, leaf_size: u32) -> Bvh<T, B> {
    let vertices = m.vertices.iter().map(|v| v.map(T::lit)).collect();
    let o = BuildOptions {
        leaf_size,
        ..BuildOptions::default()
    };
    Bvh::build(vertices, &m.triangles, &o).unwrap()
}

/// The mesh as `T` would store it, back in `f64` (exact: `f32 ⊂ f64`).
fn rounded<T: Real>(m: &Mesh) -> Mesh {
    Mesh {
        vertices: m
            .vertices
            .iter()
            .map(|v| v.map(|x| T::lit(x).to_f64_exact()))
            .collect(),
        triangles: m.triangles.clone(),
    }
}

fn pose_f64<T: Real>(p: &Isometry3<T>) -> Isometry3<f64> {
    let c = p.rotation.quaternion().coords;
    let t = p.translation.vector;
    Isometry3::from_parts(
        Translation3::new(t.x.to_f64_exact(), t.y.to_f64_exact(), t.z.to_f64_exact()),
        UnitQuaternion::new_unchecked(Quaternion::new(
            c.w.to_f64_exact(),
            c.x.to_f64_exact(),
            c.y.to_f64_exact(),
            c.z.to_f64_exact(),
        )),
    )
}

fn world(m: &Mesh, pose: &Isometry3<f64>) -> Vec<[[f64; 3]; 3]> {
    m.triangle_corners()
        .map(|t| t.map(|v| (pose * Point3::from(v)).coords.into()))
        .collect()
}

/// Whether the meshes are in contact (closer than `delta`, or intersecting) at the sampled poses.
fn sampled_contact(
    a: &Mesh,
    a64: &Bvh<f64, Obb<f64>>,
    pa: &Isometry3<f64>,
    b: &Mesh,
    b64: &Bvh<f64, Obb<f64>>,
    pb: &Isometry3<f64>,
    delta: f64,
) -> bool {
    if collide(a64, pa, b64, pb, &CollideRequest::first())
        .expect("in range")
        .is_colliding()
    {
        return true;
    }
    if delta <= 0.0 {
        return false;
    }
    let (wa, wb) = (world(a, pa), world(b, pb));
    let centre = |t: &[[f64; 3]; 3]| {
        let c = (Vector3::from(t[0]) + Vector3::from(t[1]) + Vector3::from(t[2])) / 3.0;
        let r = t
            .iter()
            .map(|v| (Vector3::from(*v) - c).norm())
            .fold(0.0, f64::max);
        (c, r)
    };
    wa.iter().any(|ta| {
        let (ca, ra) = centre(ta);
        wb.iter().any(|tb| {
            let (cb, rb) = centre(tb);
            // A 1e-9 relative allowance keeps the oracle on the safe side of its own rounding.
            (ca - cb).norm() - ra - rb < delta && triangle_distance(ta, tb) < delta * (1.0 - 1e-9)
        })
    })
}

/// The reported `separation` holds: sampled densely over `[t_lo, t_hi]` (the motions' own float poses, widened to
/// `f64`), the reported triangles come within `separation` of each other, up to the sampling oracle's rounding
/// (1e-6 of the scene's size for `f32` poses, 1e-12 for `f64`).
#[allow(clippy::too_many_arguments)]
fn check_separation<T: Real>(
    name: &str,
    seed: u64,
    am: &Mesh,
    ma: &dyn Motion<T>,
    bm: &Mesh,
    mb: &dyn Motion<T>,
    t: &ccd_query::Toi<T>,
    delta: f64,
) -> f64 {
    let (lo, hi) = (t.t_lo.to_f64_exact(), t.t_hi.to_f64_exact());
    let closest = (0..=64)
        .map(|i| {
            let s = T::lit(lo + (hi - lo) * f64::from(i) / 64.0);
            let (pa, pb) = (pose_f64(&ma.pose(s)), pose_f64(&mb.pose(s)));
            let ta = am
                .triangle(t.tri_a as usize)
                .map(|v| (pa * Point3::from(v)).coords.into());
            let tb = bm
                .triangle(t.tri_b as usize)
                .map(|v| (pb * Point3::from(v)).coords.into());
            triangle_distance(&ta, &tb)
        })
        .fold(f64::INFINITY, f64::min);
    let noise = if T::EPSILON.to_f64_exact() > 1e-10 {
        1e-6
    } else {
        1e-12
    } * 4.0;
    let bound = t.separation.to_f64_exact();
    assert!(
        closest <= bound + noise,
        "{name} seed {seed}: triangles {} and {} stay {closest:e} apart over [{lo}, {hi}], separation says {bound:e}",
        t.tri_a,
        t.tri_b
    );
    // Informative: at most a thousandth of the scene's size (about 2) beyond the requested separation.
    assert!(
        bound <= delta + 2e-3,
        "{name} seed {seed}: separation {bound:e} is not informative"
    );
    bound - delta
}

/// Runs 30 random scenes and checks `t_lo ≤` the first sampled contact; returns (hits, agreed misses).
fn no_false_negatives<T: Real, B: ContinuousVolume<T>>(name: &str, delta: f64) -> (usize, usize) {
    let (mut hits, mut misses) = (0, 0);
    let mut excess = 0.0f64;
    for seed in 0..30u64 {
        let mut rng = SplitMix64::new(1000 + seed);
        let am = random_blob(&mut rng, 1, 0.6, 0.3);
        let bm = if seed % 2 == 0 {
            random_soup(&mut rng, 16, 0.5, 0.3)
        } else {
            random_blob(&mut rng, 0, 0.5, 0.2)
        };
        let (sa, sb) = (
            spec(
                &mut rng,
                seed % 5,
                Vector3::new(-1.2, 0.0, 0.0),
                Vector3::new(0.8, 0.0, 0.0),
            ),
            spec(
                &mut rng,
                (seed / 5) % 5,
                Vector3::new(1.2, 0.2, 0.0),
                Vector3::new(-0.5, 0.0, 0.1),
            ),
        );
        let (ma, mb) = (motion::<T>(&sa), motion::<T>(&sb));
        let (a, b) = (
            tree::<T, B>(&am, 1 + (seed % 3) as u32),
            tree::<T, B>(&bm, 1),
        );
        let request = ToiRequest {
            tolerance: T::lit(1e-4),
            min_separation: T::lit(delta),
            ..ToiRequest::default()
        };
        let r = time_of_impact(&a, &*ma, &b, &*mb, &request).expect("in range");
        let (am, bm) = (rounded::<T>(&am), rounded::<T>(&bm));
        let (a64, b64) = (tree::<f64, Obb<f64>>(&am, 1), tree::<f64, Obb<f64>>(&bm, 1));
        let first = (0..=300).map(|i| f64::from(i) / 300.0).find(|&s| {
            let (pa, pb) = (pose_f64(&ma.pose(T::lit(s))), pose_f64(&mb.pose(T::lit(s))));
            sampled_contact(&am, &a64, &pa, &bm, &b64, &pb, delta)
        });
        match (first, r.toi().copied()) {
            (Some(s), Some(t)) => {
                hits += 1;
                assert!(
                    t.t_lo.to_f64_exact() <= s,
                    "{name} seed {seed}: t_lo {:?} after the sampled contact at {s}",
                    t.t_lo
                );
                excess = excess.max(check_separation::<T>(
                    name, seed, &am, &*ma, &bm, &*mb, &t, delta,
                ));
            }
            (Some(s), None) => panic!("{name} seed {seed}: missed the sampled contact at {s}"),
            (None, None) => misses += 1,
            (None, Some(_)) => {}
        }
    }
    println!(
        "{name}: sampled contacts {hits}, agreed no contact {misses}, largest separation beyond δ {excess:e}"
    );
    assert!(
        hits >= 8 && misses >= 3,
        "{name}: the scenes should mix hits and misses ({hits}, {misses})"
    );
    (hits, misses)
}

#[test]
fn every_volume_and_scalar_without_separation() {
    no_false_negatives::<f64, Obb<f64>>("obb f64", 0.0);
    no_false_negatives::<f64, Aabb<f64>>("aabb f64", 0.0);
    no_false_negatives::<f64, Sphere<f64>>("sphere f64", 0.0);
    no_false_negatives::<f32, Obb<f32>>("obb f32", 0.0);
    no_false_negatives::<f32, Sphere<f32>>("sphere f32", 0.0);
    no_false_negatives::<f64, Rss<f64>>("rss f64", 0.0);
    no_false_negatives::<f32, Rss<f32>>("rss f32", 0.0);
}

#[test]
fn minimum_separation() {
    no_false_negatives::<f64, Obb<f64>>("obb f64 δ=0.05", 0.05);
    no_false_negatives::<f32, Aabb<f32>>("aabb f32 δ=0.05", 0.05);
    no_false_negatives::<f64, Rss<f64>>("rss f64 δ=0.05", 0.05);
}

//! [`FitFrame::ProjectedHull`], the tree builder's frame for small nodes: it contains what every fit contains,
//! it is the hull-surface frame for coplanar vertices, and on thin curved patches (the small nodes of a
//! tessellated smooth surface) its boxes are as tight as the 3-D hull surface's.

mod common;

use ccd_bv::nalgebra::Vector3;
use ccd_bv::{BoundingVolume, FitFrame, FitMethod, Obb, Real, Rss};
use common::Rng;

/// `n` random points of the unit sphere within the angle `rho` of a random direction, and a fan of triangles
/// over them in their order (the frames read the distinct vertices; the faces only have to cover them).
fn cap(rng: &mut Rng, n: usize, rho: f64) -> (Vec<[f64; 3]>, Vec<[u32; 3]>) {
    let q = rng.rotation();
    let v = (0..n)
        .map(|_| {
            let (t, phi) = (
                rho * rng.unit().sqrt(),
                rng.range(0.0, std::f64::consts::TAU),
            );
            let p = q * Vector3::new(t.sin() * phi.cos(), t.sin() * phi.sin(), t.cos());
            [p.x, p.y, p.z]
        })
        .collect();
    let f = (1..n as u32 - 1).map(|k| [0, k, k + 1]).collect();
    (v, f)
}

fn ids(n: usize) -> Vec<u32> {
    (0..n as u32).collect()
}

/// Every vertex inside, as evaluated in `T`, for OBBs and RSSs, in `f64` and `f32`.
#[test]
fn projected_hull_volumes_contain_their_vertices() {
    let mut rng = Rng::new(7);
    for n in [3, 4, 8, 20] {
        for rho in [1e-4, 0.05, 0.5, 2.0] {
            let (v, f) = cap(&mut rng, n, rho);
            let v32: Vec<[f32; 3]> = v.iter().map(|p| p.map(|x| x as f32)).collect();
            let frame = FitFrame::ProjectedHull;
            let all = |contains: &dyn Fn(usize) -> bool| (0..n).all(contains);
            let obb = Obb::fit_shared(&v, &f, &ids(n), &frame);
            assert!(all(&|i| obb.contains_point(&v[i], 0.0)), "{obb:?}");
            let rss = Rss::fit_shared(&v, &f, &ids(n), &frame);
            assert!(all(&|i| rss.contains_point(&v[i], 0.0)), "{rss:?}");
            let obb = Obb::fit_shared(&v32, &f, &ids(n), &frame);
            assert!(all(&|i| obb.contains_point(&v32[i], 0.0)), "{obb:?}");
            let rss = Rss::fit_shared(&v32, &f, &ids(n), &frame);
            assert!(all(&|i| rss.contains_point(&v32[i], 0.0)), "{rss:?}");
        }
    }
}

/// Vertices and the faces over them.
type Patch<T> = (Vec<[T; 3]>, Vec<[u32; 3]>);

/// [`FitFrame::ProjectedHullOf`] with the batched decomposition of [`ccd_bv::fit::vertex_covariance`] gives
/// `ProjectedHull`'s volumes bit for bit: caps of every size and curvature, coplanar and collinear point sets
/// (the degenerate cases the frame reads from the spreads), in `f64` and `f32`, OBB and RSS.
#[test]
fn projected_hull_of_a_batched_decomposition_is_the_projected_hull() {
    let mut rng = Rng::new(9);
    let mut sets = Vec::new();
    for n in [3, 4, 8, 20] {
        for rho in [1e-4, 0.05, 0.5, 2.0] {
            sets.push(cap(&mut rng, n, rho));
        }
    }
    let line: Vec<[f64; 3]> = (0..5)
        .map(|k| [f64::from(k), 2.0 * f64::from(k), -1.0])
        .collect();
    sets.push((line, vec![[0, 1, 2], [2, 3, 4]]));
    let flat: Vec<[f64; 3]> = (0..6)
        .map(|k| [f64::from(k % 3), f64::from(k / 3), 0.5])
        .collect();
    sets.push((flat, vec![[0, 1, 4], [0, 4, 3], [1, 2, 5], [1, 5, 4]]));
    sets.push((vec![[1.0, 2.0, 3.0]; 3], vec![[0, 1, 2]]));
    /// `given` and `ProjectedHull` fit the same volume, bit for bit.
    fn same_volume<T: Real, B: BoundingVolume<T>>(
        v: &[[T; 3]],
        f: &[[u32; 3]],
        i: &[u32],
        given: &FitFrame,
    ) {
        let (a, b) = (
            B::fit_shared(v, f, i, given),
            B::fit_shared(v, f, i, &FitFrame::ProjectedHull),
        );
        assert!(
            bytemuck::bytes_of(&a) == bytemuck::bytes_of(&b),
            "{a:?} {b:?}"
        );
    }
    fn compare<T: Real>(sets: &[Patch<T>]) {
        let covs: Vec<_> = sets
            .iter()
            .map(|(v, _)| ccd_bv::fit::vertex_covariance(v, &ids(v.len())))
            .collect();
        let mut spreads = Vec::new();
        ccd_bv::fit::principal_axes_many(&covs, &mut spreads);
        for ((v, f), &(axes, spreads)) in sets.iter().zip(&spreads) {
            let given = FitFrame::ProjectedHullOf { axes, spreads };
            let i = ids(v.len());
            same_volume::<T, Obb<T>>(v, f, &i, &given);
            same_volume::<T, Rss<T>>(v, f, &i, &given);
        }
    }
    compare(&sets);
    let narrow: Vec<Patch<f32>> = sets
        .iter()
        .map(|(v, f)| (v.iter().map(|p| p.map(|x| x as f32)).collect(), f.clone()))
        .collect();
    compare(&narrow);
}

/// Coplanar vertices (a random plane): the projected hull is the hull surface's frame, bit for bit.
#[test]
fn projected_hull_is_the_hull_frame_of_coplanar_vertices() {
    let mut rng = Rng::new(8);
    for n in [3, 5, 12, 40] {
        let (q, c) = (rng.rotation(), rng.vec(-10.0, 10.0));
        let s = [rng.range(0.5, 4.0), rng.range(0.5, 4.0)];
        let v: Vec<[f64; 3]> = (0..n)
            .map(|_| {
                let p = q * Vector3::new(rng.range(-s[0], s[0]), rng.range(-s[1], s[1]), 0.0) + c;
                [p.x, p.y, p.z]
            })
            .collect();
        let f: Vec<[u32; 3]> = (1..n as u32 - 1).map(|k| [0, k, k + 1]).collect();
        assert_eq!(
            Obb::fit_shared(&v, &f, &ids(n), &FitFrame::ProjectedHull),
            Obb::fit(&v, &f, FitMethod::HullSurface),
        );
    }
}

/// Thin curved patches (caps of the unit sphere of angular radius 0.02 to 0.2, 6 to 30 vertices, the
/// sizes of the nodes it orients in a tree build): the projected hull's boxes have volumes within 5 % of the
/// 3-D hull surface's, and below the triangle surface's on these fans of sliver-prone triangles. Means of the
/// volume ratios over 300 caps.
#[test]
fn projected_hull_boxes_are_as_tight_as_the_hull_surface_on_thin_patches() {
    let mut rng = Rng::new(9);
    let (mut projected, mut triangles, mut count) = (0.0, 0.0, 0.0);
    for _ in 0..300 {
        let n = 6 + rng.below(25);
        let rho = rng.range(0.02, 0.2);
        let (v, f) = cap(&mut rng, n, rho);
        let volume = |frame: FitFrame| {
            Obb::fit_shared(&v, &f, &ids(n), &frame)
                .volume()
                .to_f64_exact()
        };
        let hull = volume(FitFrame::Method(FitMethod::HullSurface));
        projected += volume(FitFrame::ProjectedHull) / hull;
        triangles += volume(FitFrame::Method(FitMethod::TriangleSurface)) / hull;
        count += 1.0;
    }
    let (projected, triangles) = (projected / count, triangles / count);
    eprintln!(
        "mean volume ratio to the hull surface's: projected hull {projected:.4}, triangles {triangles:.4}"
    );
    assert!(projected < 1.05, "projected hull {projected}");
    assert!(
        projected < triangles,
        "projected hull {projected}, triangles {triangles}"
    );
}

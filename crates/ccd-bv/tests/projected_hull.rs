//! [`FitFrame::ProjectedHull`], the thin-hull limit of the hull-surface frame: it contains what every fit
//! contains, it is the hull-surface frame for coplanar vertices, and on thin curved patches (the small nodes of
//! a tessellated smooth surface) its boxes are as tight as the 3-D hull surface's.

mod common;

use ccd_bv::nalgebra::Vector3;
use ccd_bv::{BoundingVolume, FitFrame, FitMethod, Obb, Rss};
use common::{Rng, box_volume, cap, ids, thin_caps};

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
    let (mut projected, mut triangles, mut count) = (0.0, 0.0, 0.0);
    for (v, f) in thin_caps(9) {
        let hull = box_volume(&v, &f, FitFrame::Method(FitMethod::HullSurface));
        projected += box_volume(&v, &f, FitFrame::ProjectedHull) / hull;
        triangles += box_volume(&v, &f, FitFrame::Method(FitMethod::TriangleSurface)) / hull;
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

//! [`FitFrame::Tighter`], the tree builder's frame for small nodes: of the vertex covariance's axes and the
//! given axes, the frame in which the vertices' box is smaller. Its volumes contain what every fit contains, are
//! bit for bit the given-axes fit of the frame the rule picks (recomputed here by brute force), and on thin
//! curved patches are as tight as the 3-D hull surface's.

mod common;

use ccd_bv::nalgebra::{Matrix3, Vector3};
use ccd_bv::{BoundingVolume, FitFrame, FitMethod, Obb, Real, Rss};
use common::{Patch, Rng, box_volume, cap, ids, thin_caps};

/// Caps of every size and curvature, a coplanar grid, a collinear set and coincident points.
fn patches() -> Vec<Patch<f64>> {
    let mut rng = Rng::new(11);
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
    sets
}

/// The vertex covariance's principal axes of all of `v`.
fn vertex_axes<T: Real>(v: &[[T; 3]]) -> Matrix3<f64> {
    ccd_bv::fit::principal_axes(&ccd_bv::fit::vertex_covariance(v, &ids(v.len())))
}

/// The frame the rule picks, recomputed: the widths of the vertices' ranges along each frame's axes multiplied,
/// the second frame only if its product is strictly smaller.
fn picked<T: Real>(v: &[[T; 3]], first: &Matrix3<f64>, second: &Matrix3<f64>) -> Matrix3<f64> {
    let volume = |axes: &Matrix3<f64>| {
        let at = axes.transpose();
        let mut lo = Vector3::repeat(f64::INFINITY);
        let mut hi = Vector3::repeat(f64::NEG_INFINITY);
        for p in v {
            let q = at * Vector3::from(p.map(|x| x.to_f64_exact()));
            lo = lo.inf(&q);
            hi = hi.sup(&q);
        }
        (hi - lo).product()
    };
    if volume(second) < volume(first) {
        *second
    } else {
        *first
    }
}

/// For OBBs and RSSs, in `f64` and `f32`: the volume is the given-axes fit of the frame the rule picks, bit for
/// bit, whether the vertex axes are given or computed by the fit, and it contains every vertex as evaluated in
/// `T`. The other candidate is a random rotation, so both outcomes of the rule occur.
#[test]
fn tighter_is_the_fit_of_the_frame_with_the_smaller_box() {
    fn check<T: Real, B: BoundingVolume<T>>(
        v: &[[T; 3]],
        f: &[[u32; 3]],
        other: &Matrix3<f64>,
    ) -> bool {
        let i = ids(v.len());
        let vertex = vertex_axes(v);
        let axes = picked(v, &vertex, other);
        let given = B::fit_shared(v, f, &i, &FitFrame::Axes(axes));
        for frame in [
            FitFrame::Tighter {
                axes: *other,
                vertex_axes: Some(vertex),
            },
            FitFrame::Tighter {
                axes: *other,
                vertex_axes: None,
            },
        ] {
            let fitted = B::fit_shared(v, f, &i, &frame);
            assert!(
                bytemuck::bytes_of(&fitted) == bytemuck::bytes_of(&given),
                "{fitted:?} {given:?}"
            );
            assert!(
                v.iter().all(|p| fitted.contains_point(p, T::zero())),
                "{fitted:?}"
            );
        }
        axes == *other
    }
    let mut rng = Rng::new(12);
    let mut picked_other = [0usize; 2];
    for (v, f) in patches() {
        let narrow: Vec<[f32; 3]> = v.iter().map(|p| p.map(|x| x as f32)).collect();
        for _ in 0..4 {
            let other = rng.rotation();
            for took in [
                check::<f64, Obb<f64>>(&v, &f, &other),
                check::<f64, Rss<f64>>(&v, &f, &other),
                check::<f32, Obb<f32>>(&narrow, &f, &other),
                check::<f32, Rss<f32>>(&narrow, &f, &other),
            ] {
                picked_other[usize::from(took)] += 1;
            }
        }
    }
    assert!(
        picked_other.iter().all(|&n| n > 0),
        "both frames picked: {picked_other:?}"
    );
}

/// Thin curved patches (caps of the unit sphere of angular radius 0.02 to 0.2, 6 to 30 vertices, the sizes of
/// the nodes it orients in a tree build), with the triangle covariance's axes as the other candidate, as the
/// builder passes them: the boxes are no larger than either candidate's, and their volumes within 5 % of the
/// 3-D hull surface's. Means of the volume ratios over 300 caps.
#[test]
fn tighter_boxes_are_as_tight_as_the_hull_surface_on_thin_patches() {
    let (mut tighter, mut vertices, mut triangles, mut count) = (0.0, 0.0, 0.0, 0.0);
    for (v, f) in thin_caps(9) {
        let axes = ccd_bv::fit::principal_axes(&ccd_bv::fit::triangle_covariance(&v, &f).1);
        let hull = box_volume(&v, &f, FitFrame::Method(FitMethod::HullSurface));
        let chosen = box_volume(
            &v,
            &f,
            FitFrame::Tighter {
                axes,
                vertex_axes: None,
            },
        );
        let (by_vertices, by_triangles) = (
            box_volume(&v, &f, FitFrame::Axes(vertex_axes(&v))),
            box_volume(&v, &f, FitFrame::Axes(axes)),
        );
        assert!(chosen <= by_vertices.min(by_triangles));
        tighter += chosen / hull;
        vertices += by_vertices / hull;
        triangles += by_triangles / hull;
        count += 1.0;
    }
    let (tighter, vertices, triangles) = (tighter / count, vertices / count, triangles / count);
    eprintln!(
        "mean volume ratio to the hull surface's: tighter {tighter:.4}, vertex axes {vertices:.4}, triangle axes {triangles:.4}"
    );
    assert!(tighter < 1.05, "tighter {tighter}");
}

//! [`BoundingVolume::from_ranges`]: a box built from the ranges of its vertices' projections
//! ([`ccd_bv::fit::widen_ranges`]) contains every vertex as `contains_point` evaluates it, and is the fit with
//! the same axes up to its stated slack, for point sets near and far from the origin, in `f64` and `f32`.

mod common;

use ccd_bv::nalgebra::{Matrix3, Vector3};
use ccd_bv::{BoundingVolume, FitFrame, Obb, Real};
use common::{Rng, ids};

/// `n` points around `center`, spread `size` along random directions (some sets flat or on a line).
fn cloud(rng: &mut Rng, n: usize, center: Vector3<f64>, size: f64) -> Vec<[f64; 3]> {
    let flat = rng.below(3);
    let q = rng.rotation();
    (0..n)
        .map(|_| {
            let mut u = rng.vec(-1.0, 1.0);
            if flat > 0 {
                u.z = 0.0;
            }
            if flat > 1 {
                u.y = 0.0;
            }
            let p = center + q * u * size;
            [p.x, p.y, p.z]
        })
        .collect()
}

fn check<T: Real>(v: &[[T; 3]], axes: &Matrix3<f64>) {
    let i = ids(v.len());
    let axes = Obb::<T>::range_axes(&FitFrame::Axes(*axes)).expect("boxes are built from ranges");
    let mut ranges = [ccd_bv::fit::EMPTY_RANGE];
    ccd_bv::fit::widen_ranges(v, &i, &[axes], &mut ranges);
    let built = Obb::<T>::from_ranges(&axes, &ranges[0]).expect("finite");
    for p in v {
        assert!(
            built.contains_point(p, T::zero()),
            "{p:?} outside {built:?}"
        );
    }
    // At most the stated slack (64 units) plus padding and rounding looser than the fit with the same axes.
    let fit = Obb::<T>::fit_shared(v, &[], &i, &FitFrame::Axes(axes));
    let eps = T::EPSILON.to_f64_exact();
    let scale = built
        .center
        .iter()
        .fold(0.0f64, |m, c| m.max(c.to_f64_exact().abs()))
        + built.half.iter().map(|h| h.to_f64_exact()).sum::<f64>();
    for j in 0..3 {
        let (b, f) = (built.half[j].to_f64_exact(), fit.half[j].to_f64_exact());
        assert!(
            b + 80.0 * eps * scale >= f && b <= f + 80.0 * eps * scale,
            "axis {j}: {b} against {f}"
        );
    }
}

#[test]
fn boxes_from_ranges_contain_their_vertices() {
    let mut rng = Rng::new(21);
    for _ in 0..400 {
        let far = [0.0, 1.0, 1e3, 1e6][rng.below(4)];
        let center = rng.vec(-far, far);
        let size = [1e-6, 1e-3, 1.0, 10.0][rng.below(4)];
        let n = 3 + rng.below(60);
        let v = cloud(&mut rng, n, center, size);
        // Axes as a builder computes them (a covariance's eigenvectors), or a random rotation.
        let axes = if rng.below(2) == 0 {
            ccd_bv::fit::principal_axes(&ccd_bv::fit::vertex_covariance(&v, &ids(v.len())))
        } else {
            rng.rotation()
        };
        check(&v, &axes);
        let narrow: Vec<[f32; 3]> = v.iter().map(|p| p.map(|x| x as f32)).collect();
        check(&narrow, &axes);
    }
}

/// Volume types without a range construction say so.
#[test]
fn other_volumes_are_not_built_from_ranges() {
    let frame = FitFrame::Axes(Matrix3::identity());
    assert!(ccd_bv::Sphere::<f64>::range_axes(&frame).is_none());
    assert!(ccd_bv::Aabb::<f64>::range_axes(&frame).is_none());
    assert!(ccd_bv::Rss::<f64>::range_axes(&frame).is_none());
    assert!(Obb::<f64>::range_axes(&FitFrame::ProjectedHull).is_none());
}

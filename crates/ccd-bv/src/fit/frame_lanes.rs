//! The frames of one-face leaves (RAPID's leaf frame, [`super::frame`]'s `triangle_frame`: axis 0 along the
//! longest edge, axis 2 along the normal) for many triangles, [`LANES`] at a time: the same sequence of IEEE
//! operations per lane as the scalar code, so each frame is bit for bit the one the fit computes itself. Lanes
//! outside the common case (a vertex beyond the statistics window, a zero edge or zero normal, a frame the scalar
//! code completes with an arbitrary orthogonal axis) are left to the fit.

use nalgebra::{Matrix3, Vector3};

use super::covariance::to_f64;
use super::vec_lanes::{L, LANES, V, pick_v};
use crate::{FitFrame, FitMethod, Real};
use ccd_interval::pow2::pow2;

/// One batch: `out[l]` the frame of the triangle `faces[l]`.
#[inline(always)]
fn batch<T: Real>(vertices: &[[T; 3]], faces: &[[u32; 3]], out: &mut [FitFrame]) {
    let corner = |c: usize| {
        let mut v = V::splat([0.0; 3]);
        for (l, f) in faces.iter().enumerate() {
            let p = to_f64(&vertices[f[c] as usize]);
            for k in 0..3 {
                v.0[k].0[l] = p[k];
            }
        }
        v
    };
    let (p, q, r) = (corner(0), corner(1), corner(2));
    // The longest edge, the last of equally long ones.
    let mut longest = q.sub(&p);
    for e in [r.sub(&q), p.sub(&r)] {
        let (n, m) = (e.norm_squared(), longest.norm_squared());
        longest = pick_v(|l| n.0[l] >= m.0[l], &e, &longest);
    }
    let normal = q.sub(&p).cross(&r.sub(&p));
    // `orthonormal_frame(longest, normal)`.
    let n = longest.norm_squared().sqrt();
    let x = longest.scale(L::splat(1.0) / n);
    let w = normal.sub(&x.scale(x.dot(&normal)));
    let w = w.sub(&x.scale(x.dot(&w)));
    let wn = w.norm_squared().sqrt();
    let bound = L::splat(1e-9) * normal.norm_squared().sqrt();
    let y = w.scale(L::splat(1.0) / wn);
    // `frame_with_normal`: (x, y × x, y).
    let mid = y.cross(&x);
    let (lo, hi) = (pow2(-128), pow2(128));
    for (l, (o, f)) in out.iter_mut().zip(faces).enumerate() {
        let largest = f
            .iter()
            .flat_map(|&i| vertices[i as usize])
            .fold(0.0f64, |m, c| m.max(c.to_f64_exact().abs()));
        let window = largest == 0.0 || (lo..=hi).contains(&largest);
        let zero = |v: &V| v.lane(l) == [0.0; 3];
        let (nl, wl) = (n.0[l], wn.0[l]);
        let common = window
            && !zero(&longest)
            && !zero(&normal)
            && nl > 0.0
            && nl.is_finite()
            && wl > bound.0[l]
            && wl.is_finite();
        *o = if common {
            let col = |v: &V| Vector3::from(v.lane(l));
            FitFrame::Axes(Matrix3::from_columns(&[col(&x), col(&mid), col(&y)]))
        } else {
            FitFrame::Method(FitMethod::HullSurface)
        };
    }
}

/// [`leaf_frames_many`], inlined into each copy compiled with wider vectors.
#[inline(always)]
fn each<T: Real>(vertices: &[[T; 3]], faces: &[[u32; 3]], out: &mut Vec<FitFrame>) {
    let start = out.len();
    out.resize(
        start + faces.len(),
        FitFrame::Method(FitMethod::HullSurface),
    );
    let mut dst = out[start..].chunks_exact_mut(LANES);
    let mut src = faces.chunks_exact(LANES);
    for (f, o) in (&mut src).zip(&mut dst) {
        batch(vertices, f, o);
    }
}

/// [`each`] compiled with AVX.
///
/// # Safety
/// The processor must support AVX.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx")]
unsafe fn each_avx<T: Real>(vertices: &[[T; 3]], faces: &[[u32; 3]], out: &mut Vec<FitFrame>) {
    each(vertices, faces, out);
}

/// For each triangle of `faces`, a frame to fit it alone with
/// ([`BoundingVolume::fit_shared`](crate::BoundingVolume::fit_shared) with its
/// distinct vertices), appended to `out`: [`FitFrame::Axes`] with the axes the
/// fit itself gives one face, computed eight triangles at a time where the
/// processor has AVX, or [`FitFrame::Method`] where the fit is left to find
/// them (rare cases, and every face where the lanes would not pay).
///
/// # Guarantee
/// Fitting each face with its frame gives bit for bit the volume
/// `fit_shared(…, &FitFrame::Method(m))` gives it, for any `m`.
///
/// # Panics
/// If an index is out of range.
pub fn leaf_frames_many<T: Real>(vertices: &[[T; 3]], faces: &[[u32; 3]], out: &mut Vec<FitFrame>) {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("avx") {
        // SAFETY: this processor supports AVX, the only requirement of `each_avx`.
        return unsafe { each_avx(vertices, faces, out) };
    }
    out.extend(
        faces
            .iter()
            .map(|_| FitFrame::Method(FitMethod::HullSurface)),
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{BoundingVolume, Obb, Rss};
    use proptest::prelude::*;

    /// Every face fitted with its frame against the fit's own, bit for bit, for OBBs and RSSs, in `f64` and `f32`,
    /// through the portable copy and the dispatched one.
    fn check<T: Real>(vertices: &[[T; 3]], faces: &[[u32; 3]]) -> Result<usize, TestCaseError> {
        let (mut portable, mut dispatched) = (Vec::new(), Vec::new());
        each(vertices, faces, &mut portable);
        leaf_frames_many(vertices, faces, &mut dispatched);
        prop_assert_eq!(portable.len(), faces.len());
        prop_assert_eq!(dispatched.len(), faces.len());
        let mut axes = 0;
        for ((f, a), b) in faces.iter().zip(&portable).zip(&dispatched) {
            let ids = crate::fit::distinct_vertices(std::slice::from_ref(f));
            let method = FitFrame::Method(FitMethod::TriangleSurface);
            let own = Obb::fit_shared(vertices, &[*f], &ids, &method);
            let own_rss = Rss::fit_shared(vertices, &[*f], &ids, &method);
            for frame in [a, b] {
                let obb = Obb::fit_shared(vertices, &[*f], &ids, frame);
                let rss = Rss::fit_shared(vertices, &[*f], &ids, frame);
                prop_assert!(
                    bytemuck::bytes_of(&obb) == bytemuck::bytes_of(&own),
                    "{f:?}: {frame:?}"
                );
                prop_assert!(
                    bytemuck::bytes_of(&rss) == bytemuck::bytes_of(&own_rss),
                    "{f:?}: {frame:?}"
                );
            }
            axes += usize::from(matches!(a, FitFrame::Axes(_)));
        }
        Ok(axes)
    }

    fn coordinate() -> impl Strategy<Value = f64> {
        prop_oneof![
            4 => -10.0f64..10.0,
            1 => Just(0.0),
            1 => Just(1.0),
            1 => (-1e-6f64..1e-6).prop_map(|x| x * 1e-40),
            1 => -1e30f64..1e30,
        ]
    }

    proptest! {
        #[test]
        fn leaf_frames_give_the_fits_own_volumes(
            points in prop::collection::vec(prop::array::uniform3(coordinate()), 3..30),
            picks in prop::collection::vec(prop::array::uniform3(0usize..30), 0..40),
        ) {
            let faces: Vec<[u32; 3]> = picks.iter().map(|p| p.map(|i| (i % points.len()) as u32)).collect();
            check(&points, &faces)?;
            let narrow: Vec<[f32; 3]> = points.iter().map(|p| p.map(|c| c as f32)).collect();
            check(&narrow, &faces)?;
        }
    }

    /// Ordinary triangles take the lanes; degenerate ones (repeated vertices, collinear) and tiny ones are left
    /// to the fit, with the same volumes.
    #[test]
    fn common_triangles_take_the_lanes_and_the_rest_the_fit() {
        let v: Vec<[f64; 3]> = vec![
            [0.0, 0.0, 0.0],
            [1.0, 0.0, 0.0],
            [0.0, 1.0, 0.0],
            [2.0, 0.0, 0.0],
            [1e-50, 0.0, 0.0],
            [0.0, 1e-50, 0.0],
            [0.3, 0.7, 2.0],
            [5.0, -1.0, 0.5],
        ];
        let mut faces = vec![[0, 1, 2], [1, 6, 7], [0, 6, 2], [7, 6, 1]];
        faces.extend([[0, 0, 1], [0, 1, 3], [0, 4, 5], [2, 2, 2]]);
        faces.extend(faces.clone());
        let axes = check(&v, &faces).unwrap();
        #[cfg(target_arch = "x86_64")]
        let lanes = if std::is_x86_feature_detected!("avx") {
            8
        } else {
            0
        };
        #[cfg(not(target_arch = "x86_64"))]
        let lanes = 0;
        let mut dispatched = Vec::new();
        leaf_frames_many(&v, &faces, &mut dispatched);
        let taken = dispatched
            .iter()
            .filter(|f| matches!(f, FitFrame::Axes(_)))
            .count();
        assert_eq!((axes, taken), (8, lanes));
    }
}

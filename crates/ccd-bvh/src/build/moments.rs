//! Per-triangle surface moments, computed once per build, from which every
//! node's triangle covariance (Gottschalk §3.4.3; the corrected formula of
//! `ccd_bv::fit::triangle_covariance`) follows in two short passes, without
//! re-reading the vertices at every level.
//!
//! A triangle `p, q, r` of area `A` and centroid `m` has the second moment
//! `(A/12)·Σ dₖdₖᵀ` about `m` (`dₖ` its corners minus `m`); a set of
//! triangles with total area `Σ A` and area-weighted mean `μ` has the
//! covariance `(1/ΣA)·Σ [(A/12)·Σ dₖdₖᵀ + A·(m − μ)(m − μ)ᵀ]`, centred in
//! both terms. Everything is in `f64` on the vertices scaled by the
//! statistics exponent of the whole mesh
//! ([`ccd_bv::fit::statistics_exponent`]), so nothing overflows; features far
//! smaller than the mesh may underflow there, which only coarsens a split or
//! a frame, never a volume's containment.

use ccd_bv::Real;
use ccd_bv::fit::{principal_axes_many, scaled_vertex};
use nalgebra::{Matrix3, Vector3};

/// One triangle of the build with its moments (scaled units).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Tri {
    /// Vertex indices.
    pub(crate) vertices: [u32; 3],
    /// The caller's triangle index.
    pub(crate) id: u32,
    /// Centroid.
    pub(crate) centroid: Vector3<f64>,
    /// Area.
    pub(crate) area: f64,
    /// Second moment about the centroid: `xx, yy, zz, xy, xz, yz`.
    pub(crate) moment: [f64; 6],
}

impl Tri {
    /// The triangle `vertices` with index `id`, on vertices scaled by `2^k`.
    pub(crate) fn new<T: Real>(all: &[[T; 3]], vertices: [u32; 3], id: u32, k: i32) -> Self {
        let [p, q, r] = vertices.map(|i| scaled_vertex(&all[i as usize], k));
        let area = 0.5 * (q - p).cross(&(r - p)).norm();
        let centroid = (p + q + r) / 3.0;
        let mut moment = [0.0; 6];
        if area > 0.0 && area.is_finite() {
            let w = area / 12.0;
            for d in [p - centroid, q - centroid, r - centroid] {
                moment[0] += w * d.x * d.x;
                moment[1] += w * d.y * d.y;
                moment[2] += w * d.z * d.z;
                moment[3] += w * d.x * d.y;
                moment[4] += w * d.x * d.z;
                moment[5] += w * d.y * d.z;
            }
        }
        let area = if area.is_finite() { area } else { 0.0 };
        Self {
            vertices,
            id,
            centroid,
            area,
            moment,
        }
    }
}

/// What a node's split rule and frame need from its triangles.
pub(crate) struct NodeStats {
    /// Principal axes of the triangle covariance, by descending spread.
    pub(crate) axes: Matrix3<f64>,
    /// The area-weighted mean centroid (scaled units).
    pub(crate) mean: Vector3<f64>,
    /// Whether the axes are well defined: positive total area and a middle
    /// spread above `1e-12` of the largest, so the triangles span at least a
    /// plane (for flat nodes, such as the planar quads of a lat/long sphere,
    /// the smallest axis is then their normal, to `f64` round-off).
    /// Otherwise (segments, points, zero area) the frame is left to the fit's
    /// own degenerate-case rules.
    pub(crate) spans_plane: bool,
}

/// Relative spread below which a node's triangles count as lower-dimensional
/// (the threshold of the fits' own dimension test).
const FLAT: f64 = 1e-12;

/// The triangle covariance of `tris` (non-empty) in two passes over their
/// moments: total area with the weighted centroid sum, then the moments
/// about the mean, so nothing is subtracted that could cancel; for a total
/// area of 0, the covariance of their centroids. (One pass about the first
/// centroid, subtracting the mean's term at the end, saved about 1 % of a
/// build but changed the rounding of nearly isotropic nodes enough to move
/// the sliding benchmark's BV tests by 1 %.)
pub(crate) fn node_moments(tris: &[Tri]) -> NodeMoments {
    let (area, weighted_sum) = tris.iter().fold((0.0, Vector3::zeros()), |(a, s), t| {
        (a + t.area, s + t.centroid * t.area)
    });
    let weighted = area > 0.0 && area.is_finite();
    let (total, mean, c) = if weighted {
        let mean = weighted_sum / area;
        (area, mean, sums(tris, &mean, |t| t.area, |t| t.moment))
    } else {
        let n = tris.len() as f64;
        let mean = tris.iter().fold(Vector3::zeros(), |s, t| s + t.centroid) / n;
        (n, mean, sums(tris, &mean, |_| 1.0, |_| [0.0; 6]))
    };
    NodeMoments {
        cov: Matrix3::new(c[0], c[3], c[4], c[3], c[1], c[5], c[4], c[5], c[2]) / total,
        mean,
        weighted,
    }
}

/// A node's triangle covariance before its eigen-decomposition (which a
/// build may batch over many nodes).
pub(crate) struct NodeMoments {
    /// The covariance (scaled units).
    pub(crate) cov: Matrix3<f64>,
    /// The area-weighted mean centroid (scaled units).
    mean: Vector3<f64>,
    /// Whether the total area is positive and finite (else `cov` is the
    /// centroids' covariance).
    weighted: bool,
}

impl NodeMoments {
    /// The statistics, given the principal axes of `self.cov` and their
    /// spreads (eigenvalues, descending), as
    /// [`ccd_bv::fit::principal_axes_many`] gives them.
    pub(crate) fn stats(&self, axes: Matrix3<f64>, spreads: [f64; 3]) -> NodeStats {
        NodeStats {
            axes,
            mean: self.mean,
            spans_plane: self.weighted && spreads[1] > FLAT * spreads[0],
        }
    }
}

/// [`node_moments`] and their statistics.
pub(crate) fn node_stats(tris: &[Tri]) -> NodeStats {
    let m = node_moments(tris);
    let mut decomposed = Vec::with_capacity(1);
    principal_axes_many(std::slice::from_ref(&m.cov), &mut decomposed);
    let (axes, spreads) = decomposed[0];
    m.stats(axes, spreads)
}

/// `Σ(own + w·d·dᵀ)` (`xx, yy, zz, xy, xz, yz`) over `tris`, with `d` the
/// centroid minus `mean`, `w` the weight and `own` the triangle's own second
/// moment.
fn sums(
    tris: &[Tri],
    mean: &Vector3<f64>,
    weight: impl Fn(&Tri) -> f64,
    own: impl Fn(&Tri) -> [f64; 6],
) -> [f64; 6] {
    let mut c = [0.0; 6];
    for t in tris {
        let (d, a, m) = (t.centroid - mean, weight(t), own(t));
        c[0] += m[0] + a * d.x * d.x;
        c[1] += m[1] + a * d.y * d.y;
        c[2] += m[2] + a * d.z * d.z;
        c[3] += m[3] + a * d.x * d.y;
        c[4] += m[4] + a * d.x * d.z;
        c[5] += m[5] + a * d.y * d.z;
    }
    c
}

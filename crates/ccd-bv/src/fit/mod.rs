//! Fitting bounding volumes to triangles (thesis ch. 3).
//!
//! All statistics are computed in `f64` (vertices are widened exactly); the
//! fitted volume is then rounded to `T` and made conservative in `T`
//! arithmetic (see [`BoundingVolume::fit`](crate::BoundingVolume::fit)):
//!
//! 1. the parameters are rounded to nearest `T`;
//! 2. each half-extent (radius) is raised to the largest value the volume's
//!    own `contains_point` computes for any vertex, in `T`, so every vertex
//!    passes `contains_point(v, 0)` exactly as evaluated;
//! 3. it is then padded by `4·T::EPSILON·(‖centre‖∞ + largest extent)`
//!    (at least four times the smallest subnormal), so containment also
//!    survives a differently ordered evaluation. A zero extent (a flat leaf
//!    box) stays at this padding and no more.
//!
//! Statistics are scale-invariant where it matters (axes, hull
//! combinatorics), so points whose largest coordinate magnitude lies outside
//! `[2^-128, 2^128]` are first scaled by a power of two into `[0.5, 1)`
//! (exact unless a scaled value falls below the normal range) and the
//! statistics, extents and centres are computed on that copy and scaled
//! back; ordinary coordinates are used as they are, bit for bit as before.
//! So no statistic overflows anywhere in the `f64` range; features far
//! smaller than the largest coordinate (below about `2^-250` of it) may
//! still underflow, which only makes the orientation coarser (a
//! degenerate-looking covariance falls back to a line, plane or identity
//! frame), never a volume miss a vertex. A fitted volume has an infinite
//! number only where its padded extent reaches (about) beyond the largest
//! `T`, e.g. a sphere whose radius exceeds `T::MAX`. Where a sphere's
//! squared distances overflow or underflow in `T`, its radius is also at
//! least the true largest distance (computed scaled in `f64`, rounded up),
//! and where they overflow, a radius whose own square overflows, so
//! `contains_point` holds as evaluated.

//! The tree builder uses [`triangle_covariance`] and [`principal_axes`] for
//! its split rule; [`obb_axes`] is the orientation an [`Obb`](crate::Obb) fit
//! (and an [`Rss`](crate::Rss) fit) uses, and [`convex_hull`] the hull behind
//! [`FitMethod::HullSurface`](crate::FitMethod::HullSurface).

mod bounds;
mod covariance;
mod eigen;
mod eigen_lanes;
mod exact;
mod frame;
mod frame_lanes;
mod from_ranges;
mod hull;
mod rss;
mod scale;
mod tighter;
mod vec_lanes;

pub use bounds::{EMPTY_RANGE, widen_ranges};
pub use covariance::{point_covariance, principal_axes, principal_axes_many, triangle_covariance};
pub use frame::{obb_axes, vertex_covariance, vertex_covariance_scaled};
pub use frame_lanes::leaf_frames_many;
pub use hull::convex_hull;
pub use scale::{scaled_vertex, statistics_exponent};

pub(crate) use bounds::{
    fit_aabb, fit_aabb_of, fit_obb, fit_obb_shared, fit_sphere, fit_sphere_of,
};
pub(crate) use from_ranges::{obb_from_ranges, stored_axes};
pub(crate) use rss::{fit_rss, fit_rss_shared};

/// The distinct vertex indices used by `faces`, sorted.
pub(crate) fn distinct_vertices(faces: &[[u32; 3]]) -> Vec<u32> {
    let mut ids: Vec<u32> = faces.iter().flatten().copied().collect();
    ids.sort_unstable();
    ids.dedup();
    ids
}

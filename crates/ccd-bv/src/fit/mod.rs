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
//! 3. it is then padded by `4·T::EPSILON·(‖centre‖∞ + largest extent)`, so
//!    containment also survives a differently ordered evaluation. A zero
//!    extent (a flat leaf box) stays at this padding and no more.
//!
//! The tree builder uses [`triangle_covariance`] and [`principal_axes`] for
//! its split rule; [`obb_axes`] is the orientation an [`Obb`](crate::Obb) fit
//! uses, and [`convex_hull`] the hull behind
//! [`FitMethod::HullSurface`](crate::FitMethod::HullSurface).

mod bounds;
mod covariance;
mod frame;
mod hull;

pub use covariance::{point_covariance, principal_axes, triangle_covariance};
pub use frame::obb_axes;
pub use hull::convex_hull;

pub(crate) use bounds::{fit_aabb, fit_obb, fit_sphere};

/// The distinct vertex indices used by `faces`, sorted.
pub(crate) fn distinct_vertices(faces: &[[u32; 3]]) -> Vec<u32> {
    let mut ids: Vec<u32> = faces.iter().flatten().copied().collect();
    ids.sort_unstable();
    ids.dedup();
    ids
}

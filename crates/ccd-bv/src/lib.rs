#![doc = include_str!("../README.md")]
//!
//! # Volumes
//!
//! | volume | parameters | transform | overlap test | guarantee |
//! |---|---|---|---|---|
//! | [`Sphere`] | centre, radius | exact | centre distance | conservative (radii padded) |
//! | [`Aabb`] | centre, half-extents | wrap (§2.3.2) | per-axis intervals | conservative |
//! | [`Obb`] | rotation, centre, half-extents | exact | 15-axis SAT, \|R\|+ε guard (§4) | conservative |
//! | [`Rss`] | rotation, rectangle centre, half-lengths, radius | exact | certified rectangle gap (Larsen et al. 1999) | conservative |
//!
//! Every volume's [`distance_lower_bound`](BoundingVolume::distance_lower_bound) is certified: it never exceeds
//! the distance between the volumes, rounding included ([`lower_bound`]).
//!
//! All volumes are generic over [`Real`] (`f32` or `f64`), are plain data
//! (`bytemuck::Pod`) and implement [`BoundingVolume`], the seam the tree
//! builder and the traversal engine are written against.

mod aabb;
pub mod apart;
mod bounding_volume;
mod box_measure;
pub mod continuous;
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
pub mod f64x2;
pub mod fit;
mod lanes;
pub mod lower_bound;
pub mod moving;
mod obb;
#[cfg(target_arch = "x86_64")]
mod obb_avx;
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
mod obb_sse2;
mod pose;
pub mod profile;
mod rect;
mod rss;
pub mod sat;
mod sphere;
mod well_formed;

pub use aabb::Aabb;
pub use bounding_volume::{BoundingVolume, BvKind, FitFrame, FitMethod};
pub use ccd_interval::{Limits, RangeError, Real, limits};
pub use lower_bound::MoveRounding;
pub use obb::Obb;
pub use pose::{Pose, checked_isometry};
pub use profile::VolumeProfile;
pub use rss::Rss;
pub use sphere::Sphere;
pub use well_formed::{VOLUME_MAGNITUDE_FACTOR, supported_magnitude};

/// Re-export of the linear-algebra crate used in every public signature.
pub use nalgebra;

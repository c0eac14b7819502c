#![doc = include_str!("../README.md")]
//!
//! # Contents
//!
//! [`Real`], the scalar trait (`f32` or `f64`) every ccd crate is
//! generic over, and the interval types used to bound motions over a time
//! interval: [`Interval`], [`IVec3`], [`IMat3`], [`IQuat`].
//!
//! # Guarantees
//!
//! | Operation | Guarantee |
//! |---|---|
//! | `+ - ·`, `sqr`, `abs`, `recip`, `div`, mixed interval/scalar | contains `x ∘ y` for all `x ∈ X`, `y ∈ Y`; outward rounding by one ulp (exact ops not widened) |
//! | `sqrt` | contains `√x` for all `x ∈ X, x >= 0`; correctly rounded root ± 1 ulp |
//! | `sin`, `cos` | contains `f(x)` for all `x ∈ X`; interior extrema give `±1`; libm values widened by 2 ulps (assumes libm error ≤ 1 ulp) |
//! | `mig`, `mag`, `hull`, `intersect`, `bisect`, `contains`, comparisons | exact |
//! | `midpoint`, `width` | midpoint inside the interval; width an upper bound |
//! | `IVec3`, `IMat3`, `IQuat` ops | contain the exact result for all members |
//! | `IQuat::to_rotation_matrix` | contains `R(q)` for every unit `q` in the box |
//!
//! All directed rounding is in one module (`round.rs`) to audit: round to
//! nearest, then IEEE `nextDown` on lower and `nextUp` on upper bounds.
//!
//! # Reference
//!
//! Interval arithmetic as used for continuous collision detection by Redon et al. 2002 and by
//! J. N. Jørgensen, *Kontinuerligt Kollisionsdetektering* (DIKU, University of Copenhagen, 2006), an implementation of Redon et al. 2002 in OpenTissue (report §5 and its `interval.h`). That implementation's
//! interval product is wrong when both operands contain zero and it never rounds outward; both are fixed here
//! (four-product min/max, directed rounding after every inexact operation).

#![forbid(unsafe_code)]

mod arith;
mod elementary;
mod interval;
pub mod limits;
mod matrix;
pub mod pow2;
mod quaternion;
mod real;
mod round;
mod vector;

pub use nalgebra;

pub use arith::Division;
pub use interval::Interval;
pub use limits::{Limits, RangeError};
pub use matrix::IMat3;
pub use quaternion::IQuat;
pub use real::Real;
pub use round::{bound_down, bound_up};
pub use vector::IVec3;

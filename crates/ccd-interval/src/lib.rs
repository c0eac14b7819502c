//! Interval arithmetic with outward rounding, the bottom layer of ccd.
//!
//! Holds [`Real`], the scalar trait (`f32` or `f64`) every ccd crate is
//! generic over.

mod real;

pub use real::Real;

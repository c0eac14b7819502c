//! [`General`]: a motion wrapper that hides `is_pure_translation`, forcing `time_of_impact` onto its interval
//! (rotating-motion) leaf test, so that translations can be compared with the constant-velocity path.

use ccd_motion::{IntervalPose, Motion};
use nalgebra::Isometry3;

/// The wrapped motion, with `is_pure_translation` left at its default (`None`).
#[derive(Debug)]
pub struct General<M>(pub M);

impl<M: Motion<f64>> Motion<f64> for General<M> {
    fn pose(&self, t: f64) -> Isometry3<f64> {
        self.0.pose(t)
    }
    fn enclose(&self, t0: f64, t1: f64) -> IntervalPose<f64> {
        self.0.enclose(t0, t1)
    }
    fn max_speed(&self, radius: f64) -> f64 {
        self.0.max_speed(radius)
    }
    fn check_range(&self) -> Result<(), ccd_bv::RangeError> {
        self.0.check_range()
    }
}

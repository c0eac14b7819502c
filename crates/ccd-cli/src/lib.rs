//! The command-line syntax of the `ccd` binary (`src/main.rs`) as a library, so that tests and fuzz targets
//! can reach the parsers ([`args::parse_pose`], [`args::parse_motion`]) without running the binary; [`pose`] holds
//! the POSE syntax.
//!
//! ```
//! use ccd_cli::pose::{QuatOrder, parse_pose};
//!
//! // A quarter turn about z, typed as a ROS/scipy/Eigen user would (x, y, z, w) and in the default w, x, y, z.
//! let h = std::f64::consts::FRAC_1_SQRT_2;
//! let xyzw = parse_pose(&format!("1,2,3,0,0,{h},{h}")).expect("seven numbers");
//! let wxyz = parse_pose(&format!("1,2,3,{h},0,0,{h}")).expect("seven numbers");
//! let (a, b) = (xyzw.isometry::<f64>(QuatOrder::Xyzw), wxyz.isometry::<f64>(QuatOrder::Wxyz));
//! assert!((a.rotation.angle_to(&b.rotation)).abs() < 1e-12);
//! assert!((a.translation.vector - b.translation.vector).norm() == 0.0);
//! ```

pub mod args;
pub mod pose;

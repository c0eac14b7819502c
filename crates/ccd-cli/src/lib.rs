//! The command-line syntax of the `ccd` binary (`src/main.rs`) as a library, so that tests and fuzz targets
//! can reach the parsers ([`args::parse_pose`], [`args::parse_motion`]) without running the binary; [`pose`] holds
//! the POSE syntax.

pub mod args;
pub mod pose;

//! Helpers shared by the integration tests of `ccd-query`; each test file includes them with `mod common;` and
//! uses what it needs.
#![allow(dead_code)]

pub mod general;
pub mod toi_range;

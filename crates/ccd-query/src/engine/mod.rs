//! The traversal engine shared by the queries.

mod bvtt;
mod descent;
mod prefetch;

pub(crate) use bvtt::{Flow, LeafVisitor, depth_first};

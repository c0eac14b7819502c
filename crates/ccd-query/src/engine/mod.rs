//! The traversal engine family shared by every query: a depth-first and a best-first walk of the bounding
//! volume test tree (pairs of nodes), with one descent rule, one leaf iteration and one set of counters. Each
//! query is a visitor that owns its pruning test (and, best first, its key); the engine imports no query type.

mod best_first;
mod bound_keep;
mod depth_first;
mod descent;
mod leaves;
mod moved;
mod prefetch;

pub(crate) use best_first::{BestFirstVisitor, Entry, Step, best_first};
pub(crate) use bound_keep::{
    BoundRule, keep_by_bound, keep_four, keep_four_avx, keep_one, keep_two,
};
pub(crate) use depth_first::{DepthFirstVisitor, depth_first};
pub(crate) use leaves::{FaceRef, for_each_face_pair};
pub(crate) use moved::MovedVolumes;

/// Whether a traversal goes on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Flow {
    /// Keep traversing.
    Continue,
    /// Stop now (e.g. first contact found, budget spent).
    Stop,
}

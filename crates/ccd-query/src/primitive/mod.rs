//! Exact tests between individual triangles, the leaves of every query, and certified continuous tests
//! between moving features.
//!
//! | test | guarantee |
//! |---|---|
//! | [`triangles_intersect`] | exact for the given `f64` coordinates (orientation predicates only); touching counts |
//! | [`distance_point_triangle`], [`distance_segment_segment`], [`distance_triangle_triangle`] | tolerance: \|d − d_exact\| ≤ c·ε·S + η (S the largest coordinate magnitude; c = 128 for `f64`, 4 for `f32`), closest points on their features within the same bound; intersection exact |
//! | [`triangle_distance_lower_bound`] | conservative: never above the exact distance (the gap across either triangle's plane, less a rounding allowance) |
//! | [`ccd_vertex_face_linear`], [`ccd_edge_edge_linear`] | conservative for linear vertex trajectories: `NoContact` certified, reported `t_lo` a certified lower bound of the first contact |

mod bernstein;
mod edge_edge;
mod frame;
mod linear_ccd;
mod point_triangle;
mod segment_segment;
mod triangle_distance;
mod triangle_gap;
mod triangle_triangle;
mod vertex_face;

pub use edge_edge::ccd_edge_edge_linear;
pub use linear_ccd::{LinearCcdOutcome, LinearCcdRequest, LinearCcdResult};
pub use point_triangle::{PointTriangle, TriangleFeature, distance_point_triangle};
pub use segment_segment::{SegmentSegment, distance_segment_segment};
pub use triangle_distance::{TriangleDistance, distance_triangle_triangle};
pub use triangle_gap::triangle_distance_lower_bound;
pub use triangle_triangle::triangles_intersect;
pub use vertex_face::ccd_vertex_face_linear;

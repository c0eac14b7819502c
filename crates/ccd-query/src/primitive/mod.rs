//! Exact tests between individual triangles, the leaves of every query, and certified continuous tests
//! between moving features.
//!
//! | test | guarantee |
//! |---|---|
//! | [`triangles_intersect`] | exact for the given `f64` coordinates (orientation predicates only); touching counts |
//! | [`ccd_vertex_face_linear`], [`ccd_edge_edge_linear`] | conservative for linear vertex trajectories: `NoContact` certified, reported `t_lo` a certified lower bound of the first contact |

mod bernstein;
mod edge_edge;
mod linear_ccd;
mod triangle_triangle;
mod vertex_face;

pub use edge_edge::ccd_edge_edge_linear;
pub use linear_ccd::{LinearCcdOutcome, LinearCcdRequest, LinearCcdResult};
pub use triangle_triangle::triangles_intersect;
pub use vertex_face::ccd_vertex_face_linear;

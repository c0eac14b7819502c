//! Exact tests between individual triangles, the leaves of every query.
//!
//! | test | guarantee |
//! |---|---|
//! | [`triangles_intersect`] | exact for the given `f64` coordinates (orientation predicates only); touching counts |

mod triangle_triangle;

pub use triangle_triangle::triangles_intersect;

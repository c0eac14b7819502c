//! Seeded scenes and mesh generators for ccd's tests, benchmarks and thesis suites.
//!
//! Not published. Everything here is deterministic for a given seed and uses `f64` only.
//!
//! | Module | Concept |
//! |---|---|
//! | [`rng`] | [`SplitMix64`], a tiny seeded generator (no `rand` dependency, stable across versions) |
//! | [`rotation`] | [`random_rotation`], uniformly distributed rotations (Shoemake) |
//! | [`mesh`] | [`Mesh`], an indexed triangle list with scale/translate/transform helpers |
//! | [`measure`] | mesh measures: face-plane distance (ρ_min), signed volume, closed-manifold check |
//! | [`sphere_mesh`] | inscribed sphere tessellations: [`latlong`] and [`icosphere`] |
//! | [`distance`] | slow, independent point / segment / triangle distances (test oracles) |
//! | [`flat`] | flat triangles (points, segments, collinear vertices) under translation: generator and contact oracle |
//! | [`linear_ccd`] | linear-trajectory vertex–face / edge–edge CCD queries in families (hits, near misses, degenerate) |
//! | [`fixtures`] | paths of the repository's fixture files: [`fixture`], [`mesh_fixture`] |
//! | [`tool`] | [`run_tool`]: one run of a command-line tool, status and output as text ([`ToolRun`]) |
//! | [`random_mesh`] | random test meshes: [`random_soup`], [`random_blob`], [`sprinkle_degenerate`] |
//!
//! # Reference
//! The lat/long generator and the ρ_min bound serve the parallel-close-proximity experiment of Gottschalk 2000, §5.3.2.

pub mod distance;
pub mod fixtures;
pub mod flat;
pub mod linear_ccd;
pub mod measure;
pub mod mesh;
pub mod random_mesh;
pub mod rng;
pub mod rotation;
pub mod solids;
pub mod sphere_mesh;
pub mod tool;

pub use fixtures::{fixture, mesh_fixture};
pub use measure::{is_closed_oriented_manifold, min_face_plane_distance, signed_volume};
pub use mesh::Mesh;
pub use random_mesh::{random_blob, random_soup, sprinkle_degenerate};
pub use rng::SplitMix64;
pub use rotation::random_rotation;
pub use solids::{cuboid, tetrahedron};
pub use sphere_mesh::{icosphere, latlong};
pub use tool::{ToolRun, run_tool};

/// The repository's `README.md`, whose Rust snippets run as doc-tests here: this crate has the façade as a
/// dev-dependency and, unlike the published `ccd-mesh` package, lives where the workspace README is.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
pub struct RepositoryReadme;

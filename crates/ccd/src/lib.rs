#![doc = include_str!("../README.md")]
//!
//! # Queries
//!
//! Build a [`Model`] once from vertices and triangles (a sphere, AABB, OBB or
//! RSS tree over the mesh), then query pairs of placed models. This crate is the
//! façade over `ccd-bv` (bounding volumes), `ccd-bvh` (hierarchies) and
//! `ccd-query` (traversal and primitive tests); each can be used alone.
//!
//! | query | guarantee |
//! |---|---|
//! | [`collide`] | exact set of intersecting triangle pairs (touching counts), all or first |
//! | [`distance`] | distance, closest points and triangle pair; PQP's `rel_err`/`abs_err`, optional `max_distance` |
//! | [`within_distance`] | closer than a tolerance? early exit on the first witness |
//! | [`time_of_impact`] | conservative first time of contact of two moving models: `t_lo` never late |
//!
//! Every result carries [`QueryStats`] with exact operation counts. Contacts name triangles by their index in
//! the caller's triangle list; [`Hierarchy::triangle_by_id`] turns one back into its corners.
//!
//! # Cargo features
//!
//! | feature | default | what |
//! |---|---|---|
//! | `io` | yes | mesh file readers (`ccd::io`: OBJ, STL and ASCII PLY read by this crate, binary PLY via ply-rs-bw) and `Model::from_mesh_file`, `from_obj`, `from_stl`, `from_ply`; without it ply-rs-bw is not compiled |
//! | `serde` | no | `Serialize`/`Deserialize` on the requests and results (`CollideRequest`, `ContactPair`, `ToiResult`, …), `BuildOptions`, `TreeStats`, `FitMethod` |
//! | `convert-mint`, `convert-glam030` … `convert-glam033` | no | nalgebra's conversions from and to mint / glam types, for building poses and points |

mod error;
#[cfg(feature = "io")]
pub mod io;
mod model;
pub mod number;

pub use ccd_bv::{
    Aabb, BoundingVolume, BvKind, FitMethod, Limits, MoveRounding, Obb, Pose, RangeError, Real,
    Rss, Sphere, limits, nalgebra,
};
/// The eight bytes every `.bvh` file starts with (`ccd-bvh`'s `archive::MAGIC`): tells a saved tree from a mesh
/// file before opening it.
pub use ccd_bvh::archive::MAGIC as BVH_MAGIC;
/// Runs code with the scalar and volume types a runtime ([`ScalarKind`], [`BvKind`]) pair names (for example
/// the pair of a [`FileInfo`]): the one `match` from runtime kinds to monomorphised code (`ccd-bvh`'s macro).
pub use ccd_bvh::with_types;
pub use ccd_bvh::{
    BuildError, BuildMethod, BuildOptions, Bvh, BvhFile, FileError, FileInfo, Hierarchy,
    MAX_LEAF_SIZE, ScalarKind, TreeStats, replace_file,
};
/// Rigid motions over normalised time for [`time_of_impact`] (the `ccd-motion` crate).
pub use ccd_query::ccd_motion as motion;
/// Tests between single primitives (the `ccd-query` crate's `primitive` module): the exact triangle–triangle
/// test, triangle distances, and the certified linear-trajectory continuous tests
/// ([`primitive::ccd_vertex_face_linear`], [`primitive::ccd_edge_edge_linear`]).
pub use ccd_query::primitive;
pub use ccd_query::{
    Closest, CollideRequest, CollideResult, ContactMode, ContactPair, DescentRule, DistanceOutcome,
    DistanceRequest, DistanceResult, DistanceStats, QueryStats, ToleranceOutcome, ToleranceResult,
};
pub use ccd_query::{
    ContinuousVolume, Feature, Toi, ToiBudget, ToiMode, ToiOutcome, ToiRequest, ToiResult, ToiStats,
};
pub use error::Error;
#[cfg(feature = "io")]
pub use io::{MeshData, MeshError};
pub use model::Model;

use nalgebra::Isometry3;

/// Finds the intersecting triangle pairs of `a` placed at `pose_a` and `b`
/// placed at `pose_b` (model → world poses).
///
/// # Guarantee
/// Exact contact set for B's vertices mapped into A's frame (see
/// [`ccd_query::collide`]); touching counts as contact.
///
/// # Errors
/// [`Error::OutOfRange`] if a pose is outside the supported range ([`limits`]): a translation component that is
/// not finite or not a supported length, or a quaternion whose norm is not 1 within the unit tolerance.
pub fn collide<T, A, B>(
    a: &A,
    pose_a: &Isometry3<T>,
    b: &B,
    pose_b: &Isometry3<T>,
    request: &CollideRequest,
) -> Result<CollideResult, Error>
where
    T: Real,
    A: Hierarchy<Scalar = T>,
    B: Hierarchy<Scalar = T, Bv = A::Bv>,
{
    Ok(ccd_query::collide(a, pose_a, b, pose_b, request)?)
}

/// The distance between `a` placed at `pose_a` and `b` placed at `pose_b`, with the closest points (world frame)
/// and the triangle pair.
///
/// ```
/// use ccd::nalgebra::Isometry3;
/// use ccd::{DistanceRequest, Model};
///
/// let tetra = || Model::<f64>::new(
///     vec![[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]],
///     &[[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]],
/// );
/// let (a, b) = (tetra()?, tetra()?);
/// // B's face x = 0 faces A's vertex (1, 0, 0) from 2 units along x: 1 apart.
/// let r = ccd::distance(&a, &Isometry3::identity(), &b, &Isometry3::translation(2.0, 0.0, 0.0), &DistanceRequest::exact())?;
/// let d = r.closest().expect("no max_distance set").distance;
/// assert!((d - 1.0).abs() < 1e-12);
/// assert!(ccd::within_distance(&a, &Isometry3::identity(), &b, &Isometry3::translation(2.0, 0.0, 0.0), 1.5)?.is_within());
/// # Ok::<(), ccd::Error>(())
/// ```
///
/// # Guarantee
/// `d − d* ≤ max(abs_err, rel_err·d*)` plus the triangle distance's rounding bound, never below `d*` beyond that
/// rounding; intersecting meshes give 0 and an intersecting pair (see [`ccd_query::distance`]).
///
/// # Errors
/// [`Error::OutOfRange`] for a pose or request field outside the supported range ([`limits`]).
pub fn distance<T, A, B>(
    a: &A,
    pose_a: &Isometry3<T>,
    b: &B,
    pose_b: &Isometry3<T>,
    request: &DistanceRequest<T>,
) -> Result<DistanceResult<T>, Error>
where
    T: Real,
    A: Hierarchy<Scalar = T>,
    B: Hierarchy<Scalar = T, Bv = A::Bv>,
{
    Ok(ccd_query::distance(a, pose_a, b, pose_b, request)?)
}

/// Whether `a` placed at `pose_a` and `b` placed at `pose_b` come within `tolerance` (PQP's tolerance query,
/// early exit on the first witness).
///
/// # Guarantee
/// Exact outside a rounding band of the triangle distance's bound around `tolerance` (see
/// [`ccd_query::within_distance`]).
///
/// # Errors
/// [`Error::OutOfRange`] for a pose outside the supported range or a negative, NaN or unsupported tolerance.
pub fn within_distance<T, A, B>(
    a: &A,
    pose_a: &Isometry3<T>,
    b: &B,
    pose_b: &Isometry3<T>,
    tolerance: T,
) -> Result<ToleranceResult<T>, Error>
where
    T: Real,
    A: Hierarchy<Scalar = T>,
    B: Hierarchy<Scalar = T, Bv = A::Bv>,
{
    Ok(ccd_query::within_distance(a, pose_a, b, pose_b, tolerance)?)
}

/// First time of impact of `a` carried by `motion_a` and `b` carried by `motion_b` (model → world motions
/// over normalised time t ∈ [0, 1]).
///
/// ```
/// use ccd::motion::{Static, Translation};
/// use ccd::nalgebra::{Isometry3, Vector3};
/// use ccd::{Model, ToiRequest};
///
/// let tetra = || Model::<f64>::new(
///     vec![[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]],
///     &[[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]],
/// );
/// let (a, b) = (tetra()?, tetra()?);
/// // B starts 3 units along x and slides 4 units back: the faces x = 0 of B and
/// // the vertex (1, 0, 0) of A meet when B's origin reaches x = 1, at t = 0.5.
/// let fixed = Static::new(Isometry3::identity());
/// let slide = Translation::new(Isometry3::translation(3.0, 0.0, 0.0), Vector3::new(-4.0, 0.0, 0.0));
/// let hit = ccd::time_of_impact(&a, &fixed, &b, &slide, &ToiRequest::default())?;
/// let toi = hit.toi().expect("they meet");
/// assert!(toi.t_lo <= 0.5 && 0.5 - toi.t_lo < 1e-5);
/// # Ok::<(), ccd::Error>(())
/// ```
///
/// # Guarantee
/// Conservative: `t_lo` is never later than the first contact, and [`ToiOutcome::NoContact`] means no contact in
/// `[0, t_max]`; when the request's budget runs out first, [`ToiOutcome::Undecided`] still certifies its `t_lo`
/// (see [`ccd_query::time_of_impact`]).
///
/// # Errors
/// [`Error::OutOfRange`] if a motion parameter ([`motion::Motion::check_range`]) or a request field
/// ([`ToiRequest::check`]) is outside the supported range ([`limits`]).
pub fn time_of_impact<T, A, B, MA, MB>(
    a: &A,
    motion_a: &MA,
    b: &B,
    motion_b: &MB,
    request: &ToiRequest<T>,
) -> Result<ToiResult<T>, Error>
where
    T: Real,
    A: Hierarchy<Scalar = T>,
    B: Hierarchy<Scalar = T, Bv = A::Bv>,
    A::Bv: ContinuousVolume<T>,
    MA: ccd_query::ccd_motion::Motion<T> + ?Sized,
    MB: ccd_query::ccd_motion::Motion<T> + ?Sized,
{
    Ok(ccd_query::time_of_impact(
        a, motion_a, b, motion_b, request,
    )?)
}

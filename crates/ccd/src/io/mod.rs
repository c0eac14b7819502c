//! Reading triangle meshes from OBJ, STL and PLY files.
//!
//! [`read_mesh`] picks the reader from the file extension; [`read_obj`],
//! [`read_stl`] and [`read_ply`] read one format each. All return the raw
//! mesh as a [`MeshData`] (`f64` coordinates, `u32` indices): polygons are
//! split into triangle fans, but coordinates and indices are not validated
//! here, except that a coordinate written as text (OBJ, ASCII STL and PLY)
//! must be a finite number of its type, refused at its line otherwise, and
//! an OBJ index must name a vertex declared before it.
//! [`Model::from_mesh_file`] reads and builds in one call, and the builder
//! rejects NaN or infinite coordinates and out-of-range indices with
//! [`MeshError::Invalid`].
//!
//! Reading is bounded by the file: only regular files are read (a device
//! such as `/dev/zero` or a pipe is [`MeshError::NotAFile`]), at most
//! [`MAX_MESH_FILE_BYTES`] of them, into memory that is reserved fallibly
//! ([`MeshError::OutOfMemory`] instead of an abort). Counts declared in a
//! header are checked against the file's length before anything is
//! allocated for them. Every error names the file, and where there is one,
//! the field or line and its value.
//!
//! | format | reader | notes |
//! |---|---|---|
//! | OBJ | this crate | every object and group merged into one mesh; vertices kept in the file's order and numbering |
//! | STL | this crate | ASCII (every solid of the file) or binary; equal vertices merged so the mesh is indexed |
//! | PLY | `ply-rs-bw` (header, binary), this crate (ASCII rows) | `vertex` x/y/z and `face` `vertex_indices` (or `vertex_index`); every ASCII word checked against its type |
//!
//! ```no_run
//! let mesh = ccd::io::read_mesh("bunny.obj")?;
//! println!("{} triangles", mesh.triangles.len());
//! let model = ccd::Model::<f64>::from_obj("bunny.obj")?;
//! # Ok::<(), ccd::Error>(())
//! ```

mod error;
mod file;
mod obj;
mod ply;
mod ply_ascii;
mod stl;
mod stl_ascii;

use std::path::Path;

use ccd_bv::{BoundingVolume, Real};
use ccd_bvh::{BuildError, BuildOptions};

pub use error::MeshError;
pub use file::MAX_MESH_FILE_BYTES;
pub use obj::read_obj;
pub use ply::read_ply;
pub use stl::read_stl;

use crate::{Error, Model};

/// A triangle mesh as read from a file: vertex positions and triangles
/// (indices into `vertices`, three per triangle).
///
/// Nothing is validated: a file may hold NaN coordinates or indices past the
/// end of `vertices`; building a [`Model`] from it reports those.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MeshData {
    /// Vertex positions.
    pub vertices: Vec<[f64; 3]>,
    /// Triangles, each three indices into `vertices`.
    pub triangles: Vec<[u32; 3]>,
}

/// The mesh formats [`read_mesh`] recognises.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Format {
    Obj,
    Stl,
    Ply,
}

impl Format {
    /// The format of `path` from its extension, compared case-insensitively.
    fn of(path: &Path) -> Option<Self> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        match ext.as_str() {
            "obj" => Some(Format::Obj),
            "stl" => Some(Format::Stl),
            "ply" => Some(Format::Ply),
            _ => None,
        }
    }
}

/// Reads a triangle mesh, choosing the reader from the extension: `.obj`
/// ([`read_obj`]), `.stl` ([`read_stl`]) or `.ply` ([`read_ply`]), in any
/// case.
///
/// # Errors
/// [`Error::Mesh`] with [`MeshError::UnsupportedFormat`] for any other
/// extension (or none), else the errors of the chosen reader.
pub fn read_mesh(path: impl AsRef<Path>) -> Result<MeshData, Error> {
    let path = path.as_ref();
    match Format::of(path) {
        Some(Format::Obj) => read_obj(path),
        Some(Format::Stl) => read_stl(path),
        Some(Format::Ply) => read_ply(path),
        None => Err(MeshError::UnsupportedFormat {
            path: path.to_path_buf(),
        }
        .into()),
    }
}

/// The largest vertex count that `u32` indices can address.
const MAX_VERTICES: u64 = 1 << 32;

/// Fails with [`MeshError::TooLarge`] if `count` vertices cannot all be
/// addressed by `u32` indices.
fn check_vertex_count(path: &Path, count: usize) -> Result<(), MeshError> {
    if count as u64 > MAX_VERTICES {
        Err(MeshError::TooLarge {
            path: path.to_path_buf(),
            what: "vertices",
            count,
            max: MAX_VERTICES,
        })
    } else {
        Ok(())
    }
}

impl<T: Real, B: BoundingVolume<T>> Model<T, B> {
    /// Reads a mesh file ([`read_mesh`]: OBJ, STL or PLY by extension),
    /// rounds its coordinates to `T` and builds a model with `options`.
    ///
    /// # Errors
    /// The errors of [`read_mesh`]; [`MeshError::Invalid`] (naming the file)
    /// when the builder rejects the mesh: no triangles, a NaN or infinite
    /// coordinate (including an `f64` coordinate that overflows to infinity
    /// when rounded to `f32`), an index past the last vertex, too many
    /// triangles, or an invalid leaf size in `options`.
    pub fn from_mesh_file(path: impl AsRef<Path>, options: &BuildOptions) -> Result<Self, Error> {
        let path = path.as_ref();
        build(path, read_mesh(path)?, options)
    }

    /// Reads an OBJ file ([`read_obj`]) and builds a model with the default
    /// [`BuildOptions`].
    ///
    /// # Errors
    /// As [`Model::from_mesh_file`], with the errors of [`read_obj`].
    pub fn from_obj(path: impl AsRef<Path>) -> Result<Self, Error> {
        Self::from_data(path.as_ref(), read_obj(path.as_ref())?)
    }

    /// Reads an STL file ([`read_stl`]) and builds a model with the default
    /// [`BuildOptions`].
    ///
    /// # Errors
    /// As [`Model::from_mesh_file`], with the errors of [`read_stl`].
    pub fn from_stl(path: impl AsRef<Path>) -> Result<Self, Error> {
        Self::from_data(path.as_ref(), read_stl(path.as_ref())?)
    }

    /// Reads a PLY file ([`read_ply`]) and builds a model with the default
    /// [`BuildOptions`].
    ///
    /// # Errors
    /// As [`Model::from_mesh_file`], with the errors of [`read_ply`].
    pub fn from_ply(path: impl AsRef<Path>) -> Result<Self, Error> {
        Self::from_data(path.as_ref(), read_ply(path.as_ref())?)
    }

    /// Builds from a mesh read from `path` with the default options.
    fn from_data(path: &Path, mesh: MeshData) -> Result<Self, Error> {
        build(path, mesh, &BuildOptions::default())
    }
}

/// Rounds `mesh` to `T` and builds, attributing builder errors to `path`.
fn build<T: Real, B: BoundingVolume<T>>(
    path: &Path,
    mesh: MeshData,
    options: &BuildOptions,
) -> Result<Model<T, B>, Error> {
    let invalid = |source| -> Error {
        MeshError::Invalid {
            path: path.to_path_buf(),
            source,
        }
        .into()
    };
    // A file without faces is reported as such, whether or not it has
    // vertices.
    if mesh.triangles.is_empty() {
        return Err(invalid(BuildError::NoTriangles));
    }
    let vertices = mesh.vertices.iter().map(|v| v.map(T::lit)).collect();
    Model::with_options(vertices, &mesh.triangles, options).map_err(|e| match e {
        Error::Build(source) => invalid(source),
        other => other,
    })
}

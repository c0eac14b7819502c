//! Reading triangle meshes from OBJ, STL and PLY files.
//!
//! [`read_mesh`] picks the reader from the file extension; [`read_obj`],
//! [`read_stl`] and [`read_ply`] read one format each. All return the raw
//! mesh as a [`MeshData`] (`f64` coordinates, `u32` indices): polygons are
//! split into triangle fans, but coordinates and indices are not validated
//! here. [`Model::from_mesh_file`] reads and builds in one call, and the
//! builder rejects NaN or infinite coordinates and out-of-range indices with
//! [`MeshError::Invalid`].
//!
//! | format | reader | notes |
//! |---|---|---|
//! | OBJ | `tobj` | every object and group merged into one mesh; only vertices used by a face are kept |
//! | STL | `stl_io` | ASCII or binary; equal vertices merged so the mesh is indexed |
//! | PLY | `ply-rs-bw` | ASCII or binary; `vertex` x/y/z and `face` `vertex_indices` (or `vertex_index`) |
//!
//! ```no_run
//! let mesh = ccd::io::read_mesh("bunny.obj")?;
//! println!("{} triangles", mesh.triangles.len());
//! let model = ccd::Model::<f64>::from_obj("bunny.obj")?;
//! # Ok::<(), ccd::Error>(())
//! ```

mod obj;
mod ply;
mod stl;

use std::path::{Path, PathBuf};

use ccd_bv::{BoundingVolume, Real};
use ccd_bvh::{BuildError, BuildOptions};

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

/// Why a mesh file could not be read or turned into a model.
///
/// Every variant names the file; its `Display` is one line: the path, then
/// the cause.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum MeshError {
    /// The file could not be opened or read.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The operating-system error.
        #[source]
        source: std::io::Error,
    },
    /// The file is not a well-formed file of its format (bad syntax, a
    /// truncated binary file, a missing vertex property, …).
    #[error("{}: invalid {format} file: {message}", path.display())]
    Parse {
        /// The file.
        path: PathBuf,
        /// `"OBJ"`, `"STL"` or `"PLY"`.
        format: &'static str,
        /// What the parser reported, on one line.
        message: String,
    },
    /// The file extension is not `.obj`, `.stl` or `.ply` (in any case).
    #[error("{}: unsupported mesh format (expected a .obj, .stl or .ply file)", path.display())]
    UnsupportedFormat {
        /// The file.
        path: PathBuf,
    },
    /// A face has fewer than three vertices (in OBJ, `l` line elements are
    /// read as faces too).
    #[error("{}: face {face} has {vertices} vertices, but a face needs at least 3", path.display())]
    NotTriangles {
        /// The file.
        path: PathBuf,
        /// Index of the face, counted from 0 in file order.
        face: usize,
        /// Its number of vertices.
        vertices: usize,
    },
    /// A face refers to a vertex that cannot exist, found while reading: in
    /// OBJ any index outside the vertex list (the OBJ reader resolves them),
    /// in PLY a negative index or one past `u32::MAX`. Other out-of-range PLY
    /// indices are reported by the builder as [`MeshError::Invalid`].
    #[error(
        "{}: face {face} refers to vertex {index}, but there are only {vertices} vertices",
        path.display()
    )]
    IndexOutOfRange {
        /// The file.
        path: PathBuf,
        /// Index of the face, counted from 0 in file order (in OBJ, over the
        /// `f` and `l` elements).
        face: usize,
        /// The index as written in the file (1-based or negative relative in
        /// OBJ, 0-based in PLY).
        index: i64,
        /// Number of vertices (in OBJ, those declared before the face).
        vertices: usize,
    },
    /// The file has more vertices or triangles than 32-bit indices can
    /// address.
    #[error("{}: the mesh is too large: {count} {what} (at most {max})", path.display())]
    TooLarge {
        /// The file.
        path: PathBuf,
        /// What overflowed (`"vertices"`, `"triangles"`).
        what: &'static str,
        /// How many there are.
        count: usize,
        /// The limit.
        max: u64,
    },
    /// The file was read, but its mesh was rejected by the builder: no
    /// triangles, a NaN or infinite coordinate (also one that overflows when
    /// rounded to `f32`), an index past the last vertex.
    #[error("{}: {source}", path.display())]
    Invalid {
        /// The file.
        path: PathBuf,
        /// The builder's diagnosis.
        #[source]
        source: BuildError,
    },
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

/// A [`MeshError::Parse`] whose message is flattened to one line.
fn parse_error(path: &Path, format: &'static str, message: impl std::fmt::Display) -> MeshError {
    let message = message.to_string();
    let message = message.split_whitespace().collect::<Vec<_>>().join(" ");
    MeshError::Parse {
        path: path.to_path_buf(),
        format,
        message,
    }
}

/// An [`MeshError::Io`] for `path`.
fn io_error(path: &Path, source: std::io::Error) -> MeshError {
    MeshError::Io {
        path: path.to_path_buf(),
        source,
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
    // Readers may drop vertices no face uses (OBJ), so a file without faces
    // is reported as such rather than as a mesh without vertices.
    if mesh.triangles.is_empty() {
        return Err(invalid(BuildError::NoTriangles));
    }
    let vertices = mesh.vertices.iter().map(|v| v.map(T::lit)).collect();
    Model::with_options(vertices, &mesh.triangles, options).map_err(|e| match e {
        Error::Build(source) => invalid(source),
        other => other,
    })
}

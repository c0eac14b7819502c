//! The subcommands, and what they share: reading inputs (mesh or `.bvh`),
//! building trees with a progress bar, and the one dispatch from a runtime
//! [`TreeKind`] to the monomorphised code.

pub mod build;
pub mod collide;
pub mod distance;
pub mod export;
pub mod info;
pub mod toi;

use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use ccd::io::MeshData;
use ccd::{BoundingVolume, BuildOptions, Bvh, BvhFile, ContinuousVolume, Real};
use indicatif::{ProgressBar, ProgressStyle};

use crate::args::{TreeArgs, TreeKind};

/// Meshes with more triangles than this get a progress bar while their
/// tree is built (on stderr, and only when stderr is a terminal).
const PROGRESS_MIN_TRIANGLES: usize = 50_000;

/// Work that is generic over the tree's scalar and volume types.
pub trait Typed {
    /// What the work returns.
    type Output;
    /// Does the work for one pair of types.
    fn run<T: Real, B: ContinuousVolume<T>>(self) -> Self::Output;
}

/// Runs `job` with the types `kind` names: the only place where a runtime
/// kind becomes a type.
pub fn with_types<J: Typed>(kind: TreeKind, job: J) -> J::Output {
    ccd::with_types!(kind.scalar, kind.bv, |T, B| job.run::<T, B>())
}

/// A command-line input: a mesh to build a tree over, or a saved tree.
pub struct Input {
    /// The file as given.
    pub path: PathBuf,
    /// Its size in bytes.
    pub file_bytes: u64,
    /// What it holds.
    pub source: Source,
}

/// What an input file holds.
pub enum Source {
    /// A mesh, read into memory.
    Mesh(MeshData),
    /// A validated, memory-mapped `.bvh` file.
    Bvh(BvhFile),
}

impl Input {
    /// Reads `path`: a `.bvh` file (recognised by its magic bytes or its
    /// extension) is mapped and validated, anything else is read as a mesh.
    ///
    /// # Errors
    /// An unreadable file, a damaged `.bvh` file, or a bad mesh; the
    /// message names the file.
    pub fn read(path: &Path) -> Result<Self> {
        let shown = path.display();
        let mut file = File::open(path).with_context(|| format!("cannot open {shown}"))?;
        let file_bytes = file
            .metadata()
            .with_context(|| format!("cannot read {shown}"))?
            .len();
        let mut head = Vec::with_capacity(8);
        file.by_ref()
            .take(8)
            .read_to_end(&mut head)
            .with_context(|| format!("cannot read {shown}"))?;
        drop(file);
        let is_bvh_extension = path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("bvh"));
        let source = if head == ccd::BVH_MAGIC || is_bvh_extension {
            Source::Bvh(BvhFile::open(path).map_err(|e| in_file(path, e))?)
        } else {
            Source::Mesh(ccd::io::read_mesh(path).map_err(|e| in_file(path, e))?)
        };
        Ok(Self {
            path: path.to_path_buf(),
            file_bytes,
            source,
        })
    }

    /// The types of a `.bvh` input (`None` for a mesh).
    pub fn file_kind(&self) -> Option<TreeKind> {
        match &self.source {
            Source::Bvh(f) => Some(TreeKind {
                scalar: f.info().scalar,
                bv: f.info().bv,
            }),
            Source::Mesh(_) => None,
        }
    }
}

/// Names `path` in front of `error`'s message unless the message already
/// starts with it (I/O errors of the libraries do).
pub fn in_file(
    path: &Path,
    error: impl std::error::Error + Send + Sync + 'static,
) -> anyhow::Error {
    let shown = path.display().to_string();
    if error.to_string().starts_with(&shown) {
        anyhow::Error::new(error)
    } else {
        anyhow::Error::new(error).context(shown)
    }
}

/// A failed write of `path` (a saved tree, an export) as "cannot write PATH: what the system said", naming the
/// file once.
pub fn cannot_write(path: &Path, error: ccd::FileError) -> anyhow::Error {
    match error {
        ccd::FileError::Io { source, .. } => {
            anyhow::Error::new(source).context(format!("cannot write {}", path.display()))
        }
        other => in_file(path, other),
    }
}

/// The types of a two-model query: those of the `.bvh` inputs if any (which must
/// agree with each other and with any explicit `--bv`/`--f32`), else the
/// requested ones.
pub fn resolve_kind(tree: &TreeArgs, a: &Input, b: &Input) -> Result<TreeKind> {
    let files: Vec<(&Input, TreeKind)> = [a, b]
        .into_iter()
        .filter_map(|i| Some((i, i.file_kind()?)))
        .collect();
    let Some(&(first, kind)) = files.first() else {
        return Ok(tree.kind());
    };
    if let Some(&(second, other)) = files.get(1)
        && other != kind
    {
        bail!(
            "{} is an {kind} tree but {} is an {other} tree; both models must have the same scalar \
             and volume type (rebuild one with `ccd build --bv …`, adding `--f32` as needed)",
            first.path.display(),
            second.path.display(),
        );
    }
    let requested = tree.kind();
    let bv_conflict = tree.bv.is_some() && requested.bv != kind.bv;
    let scalar_conflict = tree.f32 && requested.scalar != kind.scalar;
    if bv_conflict || scalar_conflict {
        bail!(
            "{} is an {kind} tree, but --bv/--f32 ask for {requested} \
             (a .bvh input decides the types; drop the flags or rebuild the file)",
            first.path.display(),
        );
    }
    Ok(kind)
}

/// The models of a command's two inputs ([`model`] of each, with the command's tree options).
pub(crate) fn models<T: Real, B: BoundingVolume<T>>(
    a: Input,
    b: Input,
    tree: &crate::args::TreeArgs,
) -> Result<(ccd::Model<T, B>, ccd::Model<T, B>)> {
    let options = tree.options();
    Ok((model::<T, B>(a, &options)?, model::<T, B>(b, &options)?))
}

/// The model of one command input: a mesh is built in memory with
/// `options`, a `.bvh` file is used in place (already opened and validated).
pub(crate) fn model<T: Real, B: BoundingVolume<T>>(
    input: Input,
    options: &BuildOptions,
) -> Result<ccd::Model<T, B>> {
    match input.source {
        Source::Mesh(mesh) => Ok(ccd::Model::from_bvh(
            build_tree::<T, B>(&mesh, options, &input.path)?.0,
        )),
        Source::Bvh(file) => ccd::Model::from_file(file).map_err(|e| in_file(&input.path, e)),
    }
}

/// Builds the tree of `mesh` (read from `path`), with a progress bar on
/// stderr for large meshes; returns it with the build time.
///
/// # Errors
/// The build's validation errors (NaN coordinates, bad indices, an empty
/// mesh), naming `path`.
pub fn build_tree<T: Real, B: BoundingVolume<T>>(
    mesh: &MeshData,
    options: &BuildOptions,
    path: &Path,
) -> Result<(Bvh<T, B>, Duration)> {
    let triangles = mesh.triangles.len();
    let bar = (triangles > PROGRESS_MIN_TRIANGLES).then(|| {
        let style =
            ProgressStyle::with_template("{msg} [{wide_bar}] {pos}/{len} triangles, {eta} left")
                .unwrap_or_else(|_| ProgressStyle::default_bar())
                .progress_chars("=> ");
        ProgressBar::new(triangles as u64)
            .with_style(style)
            .with_message(format!("building {}", path.display()))
    });
    let report = |placed: usize| {
        if let Some(bar) = &bar {
            bar.set_position(placed as u64);
        }
    };
    let vertices = mesh.vertices.iter().map(|p| p.map(T::lit)).collect();
    let start = Instant::now();
    let built = Bvh::build_with_progress(vertices, &mesh.triangles, options, &report);
    let elapsed = start.elapsed();
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    Ok((built.map_err(|e| in_file(path, e))?, elapsed))
}

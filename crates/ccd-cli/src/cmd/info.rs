//! `ccd info FILE`: what a `.bvh` file (or a mesh's tree) holds.

use std::io::Write;
use std::path::Path;
use std::time::Duration;

use anyhow::Result;
use ccd::{BoundingVolume, BuildOptions, Hierarchy, Real, TreeStats};
use serde_json::json;

use super::{Input, Source, Typed, build_tree, in_file, with_types};
use crate::args::{InfoArgs, TreeKind, fit_name};

/// Runs `ccd info`.
pub fn run(args: &InfoArgs, out: &mut dyn Write) -> Result<()> {
    let input = Input::read(&args.input)?;
    let kind = input.file_kind().unwrap_or_else(|| args.tree.kind());
    let report = with_types(
        kind,
        Describe {
            input: &input,
            options: args.tree.options(),
        },
    )?;
    if args.json {
        writeln!(out, "{}", report.json())?;
    } else {
        report.print(out)?;
    }
    Ok(())
}

/// Everything `ccd info` prints.
struct Report<'a> {
    path: &'a Path,
    file_bytes: u64,
    /// Format version of a `.bvh` file; `None` for a mesh.
    version: Option<u32>,
    /// Build time of a mesh's tree; `None` for a `.bvh` file.
    build_time: Option<Duration>,
    kind: TreeKind,
    options: BuildOptions,
    triangles: usize,
    vertices: usize,
    stats: TreeStats,
    /// Bytes of the node, face and vertex arrays.
    arrays: [usize; 3],
}

struct Describe<'a> {
    input: &'a Input,
    options: BuildOptions,
}

impl<'a> Typed for Describe<'a> {
    type Output = Result<Report<'a>>;

    fn run<T: Real, B: BoundingVolume<T>>(self) -> Result<Report<'a>> {
        let input = self.input;
        match &input.source {
            Source::Bvh(file) => {
                let view = file.view::<T, B>().map_err(|e| in_file(&input.path, e))?;
                let info = file.info();
                Ok(report(input, &view, Some(info.version), info.options, None))
            }
            Source::Mesh(mesh) => {
                let (bvh, time) = build_tree::<T, B>(mesh, &self.options, &input.path)?;
                Ok(report(input, &bvh, None, *bvh.options(), Some(time)))
            }
        }
    }
}

fn report<'a, H: Hierarchy>(
    input: &'a Input,
    tree: &H,
    version: Option<u32>,
    options: BuildOptions,
    build_time: Option<Duration>,
) -> Report<'a> {
    Report {
        path: &input.path,
        file_bytes: input.file_bytes,
        version,
        build_time,
        kind: TreeKind {
            scalar: ccd::ScalarKind::of::<H::Scalar>(),
            bv: <H::Bv as BoundingVolume<H::Scalar>>::KIND,
        },
        options,
        triangles: tree.faces().len(),
        vertices: tree.vertices().len(),
        stats: tree.stats(),
        arrays: [
            size_of_val(tree.nodes()),
            size_of_val(tree.faces()),
            size_of_val(tree.vertices()),
        ],
    }
}

impl Report<'_> {
    fn print(&self, out: &mut dyn Write) -> std::io::Result<()> {
        let s = &self.stats;
        let [nodes, faces, vertices] = self.arrays;
        match (self.version, self.build_time) {
            (Some(v), _) => writeln!(
                out,
                "file:       {} (ccd .bvh, format version {v}, {} bytes)",
                self.path.display(),
                self.file_bytes
            )?,
            (None, time) => writeln!(
                out,
                "file:       {} (mesh, {} bytes; tree built in memory in {:.3} s, not saved)",
                self.path.display(),
                self.file_bytes,
                time.unwrap_or_default().as_secs_f64()
            )?,
        }
        writeln!(out, "types:      {}", self.kind)?;
        writeln!(
            out,
            "build:      leaf size {}, fit {}",
            self.options.leaf_size,
            fit_name(self.options.fit)
        )?;
        writeln!(out, "triangles:  {}", self.triangles)?;
        writeln!(out, "vertices:   {}", self.vertices)?;
        writeln!(
            out,
            "nodes:      {} ({} leaves, largest leaf {} triangle{})",
            s.nodes,
            s.leaves,
            s.max_leaf_faces,
            if s.max_leaf_faces == 1 { "" } else { "s" }
        )?;
        writeln!(out, "depth:      {}", s.depth)?;
        writeln!(
            out,
            "memory:     {} bytes of arrays (nodes {nodes}, faces {faces}, vertices {vertices})",
            s.bytes
        )
    }

    fn json(&self) -> serde_json::Value {
        let s = &self.stats;
        let [nodes, faces, vertices] = self.arrays;
        json!({
            "path": self.path.display().to_string(),
            "source": if self.version.is_some() { "bvh" } else { "mesh" },
            "format_version": self.version,
            "file_bytes": self.file_bytes,
            "build_seconds": self.build_time.map(|t| t.as_secs_f64()),
            "scalar": self.kind.scalar.name(),
            "bv": self.kind.bv.name(),
            "options": {
                "leaf_size": self.options.leaf_size,
                "fit": fit_name(self.options.fit),
            },
            "triangles": self.triangles,
            "vertices": self.vertices,
            "nodes": s.nodes,
            "leaves": s.leaves,
            "max_leaf_faces": s.max_leaf_faces,
            "depth": s.depth,
            "memory": {
                "nodes": nodes,
                "faces": faces,
                "vertices": vertices,
                "total": s.bytes,
            },
        })
    }
}

//! `ccd build MESH -o FILE.bvh`: build a hierarchy and save it.

use std::io::Write;

use anyhow::{Context, Result, bail};
use ccd::io::MeshData;
use ccd::{BoundingVolume, Hierarchy, Real};

use super::{Input, Source, Typed, build_tree, with_types};
use crate::args::{BuildArgs, fit_name};

/// Runs `ccd build`; prints a one-line summary.
pub fn run(args: &BuildArgs, out: &mut dyn Write) -> Result<()> {
    let Source::Mesh(mesh) = Input::read(&args.mesh)?.source else {
        bail!(
            "{} is already a .bvh file; `ccd build` takes a mesh (.obj, .stl, .ply)",
            args.mesh.display()
        );
    };
    with_types(args.tree.kind(), Job { args, mesh, out })
}

struct Job<'a> {
    args: &'a BuildArgs,
    mesh: MeshData,
    out: &'a mut dyn Write,
}

impl Typed for Job<'_> {
    type Output = Result<()>;

    fn run<T: Real, B: BoundingVolume<T>>(self) -> Result<()> {
        let Job { args, mesh, out } = self;
        let options = args.tree.options();
        let (bvh, elapsed) = build_tree::<T, B>(&mesh, &options, &args.mesh)?;
        let bytes = bvh
            .to_bytes()
            .map_err(|e| super::in_file(&args.output, e))?;
        std::fs::write(&args.output, &bytes)
            .with_context(|| format!("cannot write {}", args.output.display()))?;
        let stats = bvh.stats();
        writeln!(
            out,
            "{}: {} triangles, {} nodes, depth {}, {} bytes ({} {}, leaf size {}, fit {}), built in {:.3} s",
            args.output.display(),
            bvh.faces().len(),
            stats.nodes,
            stats.depth,
            bytes.len(),
            T::NAME,
            B::KIND.name(),
            options.leaf_size,
            fit_name(options.fit),
            elapsed.as_secs_f64(),
        )?;
        Ok(())
    }
}

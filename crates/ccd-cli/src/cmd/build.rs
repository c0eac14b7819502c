//! `ccd build MESH -o FILE.bvh`: build a hierarchy and save it.

use std::io::Write;
use std::path::Path;

use anyhow::{Result, bail};
use ccd::io::MeshData;
use ccd::{BoundingVolume, Hierarchy, Real};

use super::{Input, Source, Typed, build_tree, with_types};
use crate::args::{BuildArgs, fit_name};

/// Runs `ccd build`; prints a one-line summary.
pub fn run(args: &BuildArgs, out: &mut dyn Write) -> Result<()> {
    if same_file(&args.mesh, &args.output) {
        bail!(
            "the output {} is the input mesh {}; choose another output path",
            args.output.display(),
            args.mesh.display()
        );
    }
    let Source::Mesh(mesh) = Input::read(&args.mesh)?.source else {
        bail!(
            "{} is already a .bvh file; `ccd build` takes a mesh (.obj, .stl, .ply)",
            args.mesh.display()
        );
    };
    with_types(args.tree.kind(), Job { args, mesh, out })
}

/// Whether `a` and `b` name one existing file (the same inode on Unix, so hard links and symbolic links count;
/// the same canonical path elsewhere).
fn same_file(a: &Path, b: &Path) -> bool {
    match (std::fs::metadata(a), std::fs::metadata(b)) {
        #[cfg(unix)]
        (Ok(x), Ok(y)) => {
            use std::os::unix::fs::MetadataExt;
            (x.dev(), x.ino()) == (y.dev(), y.ino())
        }
        #[cfg(not(unix))]
        (Ok(_), Ok(_)) => matches!(
            (std::fs::canonicalize(a), std::fs::canonicalize(b)),
            (Ok(x), Ok(y)) if x == y
        ),
        _ => false,
    }
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
        ccd::replace_file(&args.output, &bytes)
            .map_err(|e| super::cannot_write(&args.output, e))?;
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

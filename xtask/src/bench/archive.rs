//! `bench-archive`: what precomputing a tree once and memory-mapping it
//! later costs, on a large icosphere with OBB trees in f32 and f64.
//!
//! Measured per scalar type (medians over `--repeats`): build time, file
//! size, save time, validated open (`Model::open`: mmap + bytecheck + tree
//! verification), unchecked open (`Model::open_unchecked`), and the latency
//! of the first collide query right after a validated open (page faults of
//! the mapping included) next to the steady-state query time. The page
//! cache is warm (the file was just written).

use std::path::Path;
use std::time::Instant;

use anyhow::{Context, Result};
use ccd::nalgebra::{Isometry3, Translation3, UnitQuaternion, Vector3};
use ccd::{BuildOptions, CollideRequest, FitMethod, Hierarchy, Model, Obb, Real};
use ccd_testkit::icosphere;
use serde_json::json;

use super::Verdict;
use crate::flags::{ArchiveFlags, FitFlag};
use crate::report::{Stamp, write_json};
use crate::stats::median;

/// Figures for one scalar type.
struct Figures {
    scalar: &'static str,
    node_bytes: usize,
    build_ms: f64,
    save_ms: f64,
    file_bytes: u64,
    open_ms: f64,
    open_unchecked_ms: f64,
    first_query_ms: f64,
    query_ms: f64,
    contacts: usize,
}

/// Runs the suite.
pub fn run(flags: &ArchiveFlags) -> Result<Verdict> {
    let stamp = Stamp::collect();
    let mesh = icosphere(flags.level, 1.0);
    let fit = match flags.fit {
        FitFlag::Hull => FitMethod::HullSurface,
        FitFlag::Triangles => FitMethod::TriangleSurface,
    };
    let options = BuildOptions {
        fit,
        ..BuildOptions::default()
    };
    let dir = flags
        .out
        .clone()
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../bench-out"));
    std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
    println!(
        "# bench-archive tris={} mesh=icosphere level={} fit={:?} repeats={} threads={} (build parallel, queries single-threaded)",
        mesh.triangles.len(),
        flags.level,
        flags.fit,
        flags.repeats,
        rayon::current_num_threads()
    );
    println!("# {}; page cache warm (files just written)", stamp.line());
    let rows = [
        measure::<f32>(&mesh, &options, &dir.join("archive-f32.bvh"), flags.repeats)?,
        measure::<f64>(&mesh, &options, &dir.join("archive-f64.bvh"), flags.repeats)?,
    ];
    println!(
        "scalar,node_bytes,build_ms,save_ms,file_mb,open_validated_ms,open_unchecked_ms,first_query_ms,query_ms,contacts"
    );
    for r in &rows {
        println!(
            "{},{},{:.1},{:.1},{:.2},{:.3},{:.4},{:.3},{:.3},{}",
            r.scalar,
            r.node_bytes,
            r.build_ms,
            r.save_ms,
            r.file_bytes as f64 / 1e6,
            r.open_ms,
            r.open_unchecked_ms,
            r.first_query_ms,
            r.query_ms,
            r.contacts
        );
    }
    println!(
        "\n## targets (issue 3): validated open <= 5 ms, unchecked open <= 0.1 ms, f32 OBB node = 64 bytes"
    );
    println!(
        "## reference: parry3d builds such a mesh in 157 ms and deserialises its rkyv archive in 16 ms before it can query"
    );
    if let Some(path) = &flags.json {
        let per = |f: &dyn Fn(&Figures) -> serde_json::Value| {
            rows.iter()
                .map(|r| (r.scalar.to_string(), f(r)))
                .collect::<serde_json::Map<_, _>>()
        };
        write_json(
            path,
            &json!({
                "suite": "bench-archive",
                "tris": mesh.triangles.len(),
                "fit": format!("{:?}", flags.fit),
                "node_bytes": per(&|r| json!(r.node_bytes)),
                "build_ms": per(&|r| json!(r.build_ms)),
                "file_bytes": per(&|r| json!(r.file_bytes)),
                "open_validated_ms": per(&|r| json!(r.open_ms)),
                "open_unchecked_ms": per(&|r| json!(r.open_unchecked_ms)),
                "first_query_ms": per(&|r| json!(r.first_query_ms)),
                "query_ms": per(&|r| json!(r.query_ms)),
                "revision": stamp.revision,
            }),
        )?;
    }
    Ok(Verdict::Pass)
}

/// Milliseconds `f` takes, median over `repeats` runs, and its last result.
fn timed<R>(repeats: usize, mut f: impl FnMut() -> Result<R>) -> Result<(f64, R)> {
    let mut times = Vec::with_capacity(repeats);
    let mut last = None;
    for _ in 0..repeats.max(1) {
        let t = Instant::now();
        last = Some(f()?);
        times.push(t.elapsed().as_secs_f64() * 1e3);
    }
    Ok((median(&times), last.expect("at least one run")))
}

fn measure<T: Real>(
    mesh: &ccd_testkit::Mesh,
    options: &BuildOptions,
    path: &Path,
    repeats: usize,
) -> Result<Figures> {
    let vertices: Vec<[T; 3]> = mesh.vertices.iter().map(|p| p.map(T::lit)).collect();
    let (build_ms, model) = timed(repeats, || {
        Ok(Model::<T, Obb<T>>::with_options(
            vertices.clone(),
            &mesh.triangles,
            options,
        )?)
    })?;
    let (save_ms, ()) = timed(repeats, || Ok(model.save(path)?))?;
    let file_bytes = std::fs::metadata(path)?.len();
    let (open_ms, _) = timed(repeats, || Ok(Model::<T, Obb<T>>::open(path)?))?;
    let (open_unchecked_ms, _) = timed(repeats, || {
        // SAFETY: the file was written by `save` just above and is not modified.
        Ok(unsafe { Model::<T, Obb<T>>::open_unchecked(path) }?)
    })?;
    // A probe: the same sphere, shifted by one radius and turned, so the
    // query finds a circle of contacts.
    let probe_pose: Isometry3<T> = ccd::nalgebra::convert(Isometry3::from_parts(
        Translation3::from(Vector3::new(1.0, 0.2, 0.0)),
        UnitQuaternion::from_euler_angles(0.3, 0.5, 0.7),
    ));
    let identity = Isometry3::identity();
    let request = CollideRequest::all();
    let mut first = Vec::with_capacity(repeats);
    let mut contacts = 0;
    for _ in 0..repeats.max(1) {
        let t = Instant::now();
        let opened = Model::<T, Obb<T>>::open(path)?;
        let t_open = t.elapsed();
        let r = ccd::collide(&opened, &identity, &model, &probe_pose, &request)?;
        first.push((t.elapsed() - t_open).as_secs_f64() * 1e3);
        contacts = r.contacts.len();
    }
    let opened = Model::<T, Obb<T>>::open(path)?;
    let (query_ms, _) = timed(repeats, || {
        Ok(ccd::collide(
            &opened,
            &identity,
            &model,
            &probe_pose,
            &request,
        )?)
    })?;
    Ok(Figures {
        scalar: T::NAME,
        node_bytes: size_of_val(&opened.nodes()[0]),
        build_ms,
        save_ms,
        file_bytes,
        open_ms,
        open_unchecked_ms,
        first_query_ms: median(&first),
        query_ms,
        contacts,
    })
}

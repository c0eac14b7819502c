//! `bench-build`: how long the top-down build of an OBB tree takes, on the
//! two meshes issue 13 sets targets for: the 40,000-triangle lat/long sphere
//! of `bench-proximity` on one thread, and the 327,680-triangle icosphere of
//! `bench-archive` on two.
//!
//! Each build is timed end to end (`Model::with_options`: input checks, the
//! tree, its volume profile), inside a rayon pool of the stated size; the
//! median and the minimum over `--repeats` builds are reported, with the
//! tree's node count and a fingerprint of its node array, so runs of two
//! binaries can be checked to build the same tree.

use std::hash::{Hash, Hasher};
use std::time::Instant;

use anyhow::Result;
use ccd::{BuildMethod, BuildOptions, FitMethod, Hierarchy, Model, Obb, Real};
use ccd_testkit::{Mesh, icosphere, latlong};
use serde_json::json;

use super::Verdict;
use crate::flags::{BuildFlags, FitFlag, MethodFlag};
use crate::report::{Stamp, write_json};
use crate::stats::median;

/// One timed configuration.
struct Row {
    mesh: &'static str,
    tris: usize,
    threads: usize,
    median_ms: f64,
    min_ms: f64,
    nodes: usize,
    fingerprint: u64,
}

/// Runs the suite.
pub fn run(flags: &BuildFlags) -> Result<Verdict> {
    let stamp = Stamp::collect();
    let options = BuildOptions {
        fit: match flags.fit {
            FitFlag::Hull => FitMethod::HullSurface,
            FitFlag::Triangles => FitMethod::TriangleSurface,
        },
        method: match flags.method {
            MethodFlag::Fast => BuildMethod::Fast,
            MethodFlag::Reference => BuildMethod::Reference,
        },
        ..BuildOptions::default()
    };
    let scalar = if flags.f32 { "f32" } else { "f64" };
    println!(
        "# bench-build bv=obb scalar={scalar} method={:?} fit={:?} repeats={} (median and minimum of end-to-end builds)",
        flags.method, flags.fit, flags.repeats
    );
    println!("# {}", stamp.line());
    let cases: [(&'static str, Mesh, usize); 2] = [
        ("latlong-t101-s200", latlong(101, 200, 1.0), 1),
        ("icosphere-l7", icosphere(7, 1.0), 2),
    ];
    let mut rows = Vec::new();
    for (name, mesh, threads) in &cases {
        let row = if flags.f32 {
            measure::<f32>(name, mesh, *threads, &options, flags.repeats)?
        } else {
            measure::<f64>(name, mesh, *threads, &options, flags.repeats)?
        };
        rows.push(row);
    }
    println!("mesh,tris,threads,median_ms,min_ms,nodes,fingerprint");
    for r in &rows {
        println!(
            "{},{},{},{:.2},{:.2},{},{:016x}",
            r.mesh, r.tris, r.threads, r.median_ms, r.min_ms, r.nodes, r.fingerprint
        );
    }
    println!(
        "\n## targets (issue 13): 40,000 triangles <= 25 ms on one thread; 327,680 triangles <= 500 ms on two"
    );
    println!(
        "## reference: parry3d builds its AABB tree of the 327,680-triangle icosphere in 157 ms"
    );
    if let Some(path) = &flags.json {
        let per = |f: &dyn Fn(&Row) -> serde_json::Value| {
            rows.iter()
                .map(|r| (r.mesh.to_string(), f(r)))
                .collect::<serde_json::Map<_, _>>()
        };
        write_json(
            path,
            &json!({
                "suite": "bench-build",
                "scalar": scalar,
                "fit": format!("{:?}", flags.fit),
                "method": format!("{:?}", flags.method),
                "tris": per(&|r| json!(r.tris)),
                "threads": per(&|r| json!(r.threads)),
                "median_ms": per(&|r| json!(r.median_ms)),
                "min_ms": per(&|r| json!(r.min_ms)),
                "nodes": per(&|r| json!(r.nodes)),
                "revision": stamp.revision,
            }),
        )?;
    }
    Ok(Verdict::Pass)
}

/// Builds `mesh` `repeats` times in a pool of `threads` threads.
fn measure<T: Real>(
    name: &'static str,
    mesh: &Mesh,
    threads: usize,
    options: &BuildOptions,
    repeats: usize,
) -> Result<Row> {
    let vertices: Vec<[T; 3]> = mesh.vertices.iter().map(|p| p.map(T::lit)).collect();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()?;
    let mut times = Vec::with_capacity(repeats);
    let mut model = None;
    for _ in 0..repeats.max(1) {
        let input = vertices.clone();
        let t = Instant::now();
        let built =
            pool.install(|| Model::<T, Obb<T>>::with_options(input, &mesh.triangles, options))?;
        times.push(t.elapsed().as_secs_f64() * 1e3);
        model = Some(built);
    }
    let model = model.expect("at least one build");
    let nodes = model.nodes();
    // Fingerprint of the nodes and the face order: equal trees, equal fingerprints.
    let mut h = std::collections::hash_map::DefaultHasher::new();
    for n in nodes {
        format!("{n:?}").hash(&mut h);
    }
    for f in model.faces() {
        f.id.hash(&mut h);
    }
    Ok(Row {
        mesh: name,
        tris: mesh.triangles.len(),
        threads,
        median_ms: median(&times),
        min_ms: times.iter().copied().fold(f64::INFINITY, f64::min),
        nodes: nodes.len(),
        fingerprint: h.finish(),
    })
}

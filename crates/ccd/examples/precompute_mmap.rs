//! Precompute a tree once, save it as a `.bvh` file, and memory-map it later.
//!
//! ```text
//! cargo run --release -p ccd-mesh --example precompute_mmap
//! ```
//!
//! [`Model::save`] writes the tree (atomically); [`Model::open`] maps the file and validates it (checksum,
//! structure, containment of every node) without deserialising or rebuilding anything. The check: the mapped
//! model answers a collide query exactly like the model it was saved from, contacts and counters alike.

mod common;

use std::time::Instant;

use ccd::nalgebra::{Isometry3, UnitQuaternion};
use ccd::{CollideRequest, Model};

fn main() -> Result<(), ccd::Error> {
    let (vertices, triangles) = common::sphere(1.0, 100, 200);
    let started = Instant::now();
    let built: Model<f32> = Model::new(
        vertices.iter().map(|v| v.map(|x| x as f32)).collect(),
        &triangles,
    )?;
    println!(
        "built {} triangles in {:.3} s",
        triangles.len(),
        started.elapsed().as_secs_f64()
    );

    let path = std::env::temp_dir().join(format!("ccd-example-sphere-{}.bvh", std::process::id()));
    built.save(&path)?;
    let started = Instant::now();
    let mapped: Model<f32> = Model::open(&path)?;
    println!(
        "opened {} ({} bytes) in {:.3} ms, mapped: {}",
        path.display(),
        std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0),
        started.elapsed().as_secs_f64() * 1e3,
        mapped.is_mapped()
    );
    assert!(mapped.is_mapped() && !built.is_mapped());

    // The sphere against itself, moved by 1.5 and turned: the two copies cross.
    let pose_b = Isometry3::from_parts(
        ccd::nalgebra::Translation3::new(1.5, 0.2, 0.0),
        UnitQuaternion::from_euler_angles(0.3, 0.2, 0.1),
    );
    let request = CollideRequest::all();
    let owned = ccd::collide(&built, &Isometry3::identity(), &built, &pose_b, &request)?;
    let from_file = ccd::collide(&mapped, &Isometry3::identity(), &mapped, &pose_b, &request)?;
    println!(
        "{} contacts, {:?}",
        from_file.contacts.len(),
        from_file.stats
    );
    assert!(from_file.is_colliding());
    assert_eq!(
        owned, from_file,
        "the mapped tree answers differently from the tree it was saved from"
    );
    drop(mapped);
    std::fs::remove_file(&path).ok();
    Ok(())
}

//! Many poses in parallel: collide one pair of models at 2,000 poses with rayon.
//!
//! ```text
//! cargo run --release -p ccd-mesh --example parallel_poses
//! ```
//!
//! Models are read-only during queries (`Model: Sync`), so one pair serves every thread. The check: the parallel
//! answers equal the sequential ones pose for pose, and some poses collide while others do not.

mod common;

use ccd::nalgebra::{Isometry3, Translation3, UnitQuaternion};
use ccd::{CollideRequest, Model};
use rayon::prelude::*;

fn main() -> Result<(), ccd::Error> {
    let (vertices, triangles) = common::sphere(1.0, 24, 48);
    let a: Model = Model::new(vertices.clone(), &triangles)?;
    let b: Model = Model::new(
        vertices.iter().map(|v| v.map(|x| 0.5 * x)).collect(),
        &triangles,
    )?;

    // B (radius 0.5) on a spiral from the centre of A (radius 1) outwards, turning as it goes.
    let poses: Vec<Isometry3<f64>> = (0..2000)
        .map(|i| {
            let s = f64::from(i) / 2000.0;
            let angle = 40.0 * s;
            Isometry3::from_parts(
                Translation3::new(2.5 * s * angle.cos(), 2.5 * s * angle.sin(), 0.3 * s),
                UnitQuaternion::from_euler_angles(angle, 0.5 * angle, 0.25 * angle),
            )
        })
        .collect();

    let request = CollideRequest::first();
    let parallel: Vec<bool> = poses
        .par_iter()
        .map(|pose| {
            Ok(ccd::collide(&a, &Isometry3::identity(), &b, pose, &request)?.is_colliding())
        })
        .collect::<Result<_, ccd::Error>>()?;
    let sequential: Vec<bool> = poses
        .iter()
        .map(|pose| {
            Ok(ccd::collide(&a, &Isometry3::identity(), &b, pose, &request)?.is_colliding())
        })
        .collect::<Result<_, ccd::Error>>()?;

    let hits = parallel.iter().filter(|&&hit| hit).count();
    println!(
        "{hits} of {} poses collide ({} threads)",
        poses.len(),
        rayon::current_num_threads()
    );
    assert_eq!(
        parallel, sequential,
        "parallel and sequential answers differ"
    );
    assert!(
        hits > 0 && hits < poses.len(),
        "expected a mix of colliding and separated poses"
    );
    Ok(())
}

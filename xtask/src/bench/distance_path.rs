//! The sliding-sphere path of `bench-distance` (the thesis's §5.3.1 scene, asked for its distance): the unit
//! sphere at the origin and the radius-0.8 sphere with its centre at `(x, 0, 0)`, `x` from 0 to 2 in equal steps,
//! both under new random rotations at every step; the exact distance at each position against the analytic
//! distance of the two spheres, widened by the tessellation.
//!
//! # The analytic curve and its band
//! For sphere surfaces of radii `R = 1` and `r = 0.8` with centres `x` apart, the distance is `(R − r) − x` while
//! the small one is inside (`x ≤ 0.2`), 0 while they cross, `x − (R + r)` once apart (`x ≥ 1.8`). The meshes'
//! vertices lie on the spheres and their faces at most the sagitta `s·ρ` inside (`s = 1 − d_min`, `d_min` the
//! smallest face-plane distance of the unit mesh), so the mesh distance lies in `[a − s·R, max(a, 0) + s·(R + r)]`
//! for the analytic value `a` (the lower end: the outer mesh's faces come in by `s·R` while nested; the upper end:
//! both meshes may fall short of the spheres by their sagittas).

use anyhow::Result;
use ccd::nalgebra::{Isometry3, Translation3, Vector3};
use ccd::{BoundingVolume, DistanceRequest, Real};

use super::{build_model, cast_pose, progress_bar, rotation_pairs};
use crate::flags::BvType;
use crate::mesh::Tessellation;
use crate::stats::median;

/// Radius of the sliding sphere (the fixed one has radius 1).
pub const SMALL_RADIUS: f64 = 0.8;

/// One position of the path for one volume type.
#[derive(Clone, Debug)]
pub struct PathStep {
    /// Volume type.
    pub bv: BvType,
    /// Centre of the small sphere along x.
    pub x: f64,
    /// Distance the query reported.
    pub distance: f64,
    /// The analytic distance of the two spheres.
    pub analytic: f64,
    /// Wall time of the query, milliseconds.
    pub ms: f64,
    /// Volume lower bounds computed.
    pub bv_tests: u64,
    /// Triangle pairs examined.
    pub primitive_tests: u64,
}

/// The analytic distance between the unit sphere's surface and the surface of the sphere of radius
/// [`SMALL_RADIUS`] whose centre is `x ≥ 0` away.
pub fn analytic_distance(x: f64) -> f64 {
    let (big, small) = (1.0, SMALL_RADIUS);
    if x <= big - small {
        big - small - x
    } else if x >= big + small {
        x - big - small
    } else {
        0.0
    }
}

/// The band `[lo, hi]` the mesh distance must lie in at analytic distance `a`, for sagitta ratio `s` (module
/// docs), widened by `1e-9` for rounding.
pub fn band(a: f64, s: f64) -> (f64, f64) {
    (a - s - 1e-9, a.max(0.0) + s * (1.0 + SMALL_RADIUS) + 1e-9)
}

/// Runs the path for volume `B` over `steps` positions (`steps ≥ 2`), exact distance, one query per position.
pub fn run_path<T: Real, B: BoundingVolume<T>>(
    bv: BvType,
    tess: Tessellation,
    steps: usize,
    seed: u64,
) -> Result<Vec<PathStep>> {
    let big = build_model::<T, B>(&tess.mesh(1.0))?;
    let small = build_model::<T, B>(&tess.mesh(SMALL_RADIUS))?;
    let rotations = rotation_pairs(seed ^ 0x51de, steps);
    let bar = progress_bar(steps as u64);
    bar.set_message(format!("{} path", bv.name()));
    let mut out = Vec::with_capacity(steps);
    for (i, (ra, rb)) in rotations.iter().enumerate() {
        let x = 2.0 * i as f64 / (steps - 1) as f64;
        let pa = cast_pose::<T>(&Isometry3::from_parts(Translation3::identity(), *ra));
        let pb = cast_pose::<T>(&Isometry3::from_parts(
            Translation3::from(Vector3::new(x, 0.0, 0.0)),
            *rb,
        ));
        let start = std::time::Instant::now();
        let r = ccd::distance(&big, &pa, &small, &pb, &DistanceRequest::exact())?;
        let ms = start.elapsed().as_secs_f64() * 1e3;
        bar.inc(1);
        out.push(PathStep {
            bv,
            x,
            distance: r
                .closest()
                .map_or(f64::INFINITY, |c| c.distance.to_f64_exact()),
            analytic: analytic_distance(x),
            ms,
            bv_tests: r.stats.bv_tests,
            primitive_tests: r.stats.primitive_tests,
        });
    }
    bar.finish_and_clear();
    Ok(out)
}

/// The positions whose distance leaves the band, as messages.
pub fn outside_band(steps: &[PathStep], s: f64) -> Vec<String> {
    steps
        .iter()
        .filter_map(|p| {
            let (lo, hi) = band(p.analytic, s);
            (!(lo..=hi).contains(&p.distance)).then(|| {
                format!(
                    "{} path x={:.4}: distance {} outside [{lo}, {hi}]",
                    p.bv.name(),
                    p.x,
                    p.distance
                )
            })
        })
        .collect()
}

/// Median time and mean counters of one volume type's path: `(ms, bv_tests, primitive_tests)`.
pub fn summary(steps: &[PathStep]) -> (f64, f64, f64) {
    let ms: Vec<f64> = steps.iter().map(|p| p.ms).collect();
    let n = steps.len().max(1) as f64;
    let mean = |f: fn(&PathStep) -> u64| steps.iter().map(|p| f(p) as f64).sum::<f64>() / n;
    (
        median(&ms),
        mean(|p| p.bv_tests),
        mean(|p| p.primitive_tests),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The analytic curve's three pieces and their joins.
    #[test]
    fn analytic_curve_pieces() {
        assert!((analytic_distance(0.0) - 0.2).abs() < 1e-15);
        assert!((analytic_distance(0.1) - 0.1).abs() < 1e-15);
        assert_eq!(analytic_distance(1.0), 0.0);
        assert!((analytic_distance(2.0) - 0.2).abs() < 1e-15);
        assert!(analytic_distance(0.2).abs() < 1e-15 && analytic_distance(1.8).abs() < 1e-15);
        let (lo, hi) = band(0.1, 0.01);
        assert!(lo < 0.1 - 0.0099 && hi > 0.1 + 0.0179);
    }
}

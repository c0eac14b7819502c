//! Continuous collision with a spinning body: when does a sphere, spinning 20 radians while it flies at a
//! second sphere, first touch it?
//!
//! ```text
//! cargo run --release -p ccd-mesh --example spinning_toi
//! ```
//!
//! [`ccd::time_of_impact`] returns a bracket `[t_lo, t_hi]` over the normalised time of the motion with a
//! guarantee: no contact before `t_lo`. The check: the discrete collide test finds no contact at 2,000 sampled
//! times before `t_lo`, and at `t_lo` the meshes are already within a small distance of each other.

mod common;

use ccd::motion::{ConstantRotationTranslation, Motion, Static};
use ccd::nalgebra::{Isometry3, Vector3};
use ccd::{CollideRequest, DistanceRequest, Model, ToiOutcome, ToiRequest};

fn main() -> Result<(), ccd::Error> {
    let (vertices, triangles) = common::sphere(1.0, 16, 32);
    let a: Model = Model::new(vertices.clone(), &triangles)?;
    let b: Model = Model::new(vertices, &triangles)?;

    // A rests at the origin. B starts 6 units along x, spins 20 rad about a tilted axis through its centre and
    // moves 6 units back: the spheres (radius 1) touch about two thirds of the way.
    let fixed = Static::new(Isometry3::identity());
    let axis = ccd::nalgebra::Unit::new_normalize(Vector3::new(0.3, 1.0, 0.2));
    let spin = ConstantRotationTranslation::new(
        Isometry3::translation(6.0, 0.0, 0.0),
        axis,
        20.0,
        Vector3::new(-6.0, 0.0, 0.0),
    );
    let result = ccd::time_of_impact(&a, &fixed, &b, &spin, &ToiRequest::default())?;
    println!("{:?}", result.stats);
    let toi = match result.outcome {
        ToiOutcome::Contact(toi) => toi,
        other => panic!("expected a contact, got {other:?}"),
    };
    println!(
        "first contact in [{}, {}] between triangles {} (A) and {} (B), feature {:?}",
        toi.t_lo, toi.t_hi, toi.tri_a, toi.tri_b, toi.feature
    );

    // No contact before t_lo, checked by sampling with the exact discrete test.
    let samples = 2000;
    for k in 0..samples {
        let t = toi.t_lo * f64::from(k) / f64::from(samples);
        let hit = ccd::collide(
            &a,
            &fixed.pose(t),
            &b,
            &spin.pose(t),
            &CollideRequest::first(),
        )?;
        assert!(
            !hit.is_colliding(),
            "contact at t = {t}, before t_lo = {}",
            toi.t_lo
        );
    }
    // At t_lo the meshes are close: the bracket is at most 1e-6 wide and nothing moves faster than about
    // 6 + 20 units per unit time, so the gap left at t_lo is a few 1e-5 at most.
    let gap = ccd::distance(
        &a,
        &fixed.pose(toi.t_lo),
        &b,
        &spin.pose(toi.t_lo),
        &DistanceRequest::exact(),
    )?;
    let gap = gap.closest().expect("no max_distance was set").distance;
    println!("distance at t_lo: {gap:e}");
    assert!(gap <= 1e-4, "the meshes are still {gap} apart at t_lo");
    Ok(())
}

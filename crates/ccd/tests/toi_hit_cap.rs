//! `Toi::hit_cap` says when a triangle pair's time search ran out of `max_iterations`: set with a cap of one
//! box (the bracket is then wider than the tolerance), clear with the default cap on the same turning scene.

use ccd::motion::{ConstantRotationTranslation, Static};
use ccd::nalgebra::{Isometry3, Vector3};
use ccd::{Model, ToiMode, ToiRequest};
use ccd_testkit::icosphere;

#[test]
fn hit_cap_is_set_exactly_when_the_box_cap_stops_the_search() {
    let m = icosphere(1, 1.0);
    let a: Model = Model::new(m.vertices.clone(), &m.triangles).unwrap();
    let fixed = Static::new(Isometry3::identity());
    // Turning while sliding in: not a pure translation, so the interval leaf search (which has the cap) runs.
    let spin = ConstantRotationTranslation::new(
        Isometry3::translation(3.0, 0.0, 0.0),
        Vector3::z_axis(),
        1.0,
        Vector3::new(-2.5, 0.0, 0.0),
    );
    let run = |max_iterations| {
        let request = ToiRequest {
            max_iterations,
            mode: ToiMode::AllFeaturePairs,
            ..ToiRequest::default()
        };
        ccd::time_of_impact(&a, &fixed, &a, &spin, &request).unwrap()
    };
    let fine = run(4096);
    let first = fine.toi().expect("they meet");
    assert!(!fine.hit_cap() && fine.at_impact.iter().all(|t| !t.hit_cap));
    assert!(first.t_hi - first.t_lo <= 1e-6 + 1e-15);
    let capped = run(1);
    let first = capped.toi().expect("they meet");
    assert!(capped.hit_cap(), "{first:?}");
    assert!(first.hit_cap && first.t_hi - first.t_lo > 1e-6, "{first:?}");
}

//! With the `serde` feature, requests and results survive a JSON round trip unchanged: a collide result, a time
//! of impact result (first contact, features, counters), the requests and the build options.

use ccd::motion::{Static, Translation};
use ccd::nalgebra::{Isometry3, Vector3};
use ccd::{BuildOptions, CollideRequest, CollideResult, Model, ToiMode, ToiRequest, ToiResult};
use ccd_testkit::icosphere;
use serde::Serialize;
use serde::de::DeserializeOwned;

fn round_trip<X: Serialize + DeserializeOwned + PartialEq + std::fmt::Debug>(x: &X) {
    let text = serde_json::to_string(x).expect("serialises");
    let back: X = serde_json::from_str(&text).expect("deserialises");
    assert_eq!(&back, x, "{text}");
}

#[test]
fn requests_and_results_round_trip_through_json() {
    let m = icosphere(1, 1.0);
    let a: Model = Model::new(m.vertices.clone(), &m.triangles).unwrap();
    let hit: CollideResult = ccd::collide(
        &a,
        &Isometry3::identity(),
        &a,
        &Isometry3::translation(0.3, 0.1, 0.0),
        &CollideRequest::all(),
    )
    .unwrap();
    assert!(hit.is_colliding());
    round_trip(&hit);
    round_trip(&CollideRequest::first());
    round_trip(&BuildOptions::default());

    let request = ToiRequest {
        mode: ToiMode::AllFeaturePairs,
        ..ToiRequest::default()
    };
    let slide = Translation::new(
        Isometry3::translation(3.0, 0.0, 0.0),
        Vector3::new(-4.0, 0.0, 0.0),
    );
    let toi: ToiResult<f64> = ccd::time_of_impact(
        &a,
        &Static::new(Isometry3::identity()),
        &a,
        &slide,
        &request,
    )
    .unwrap();
    assert!(toi.toi().is_some() && !toi.at_impact.is_empty());
    round_trip(&toi);
    round_trip(&request);
}

//! The supported range (`ccd::limits`) at the model-building and collide entry points: every input across the
//! whole `f32`/`f64` range builds a model or gets the typed error, never a panic; inside the range, collide equals
//! the brute-force all-pairs exact test, down to the smallest and up to the largest supported scale.

use std::collections::BTreeSet;

use ccd::nalgebra::{Isometry3, Quaternion, Translation3, UnitQuaternion, Vector3};
use ccd::{
    Aabb, BoundingVolume, BuildError, CollideRequest, Error, Hierarchy, MeshError, Model, Obb,
    Pose, Real, Sphere,
};
use ccd_query::{ContactPair, collide_brute_force};
use ccd_testkit::{Mesh, SplitMix64, mesh_fixture as fixture, random_blob, random_rotation};
use proptest::prelude::*;

/// The reproduction file (vertices near 1e120) made the convex hull panic; it is now refused up front.
#[test]
fn huge_coordinate_repro_is_a_typed_error() {
    let e = Model::<f64>::from_obj(fixture("bad/hull-panic-huge-coordinates.obj")).unwrap_err();
    match &e {
        Error::Mesh(MeshError::Invalid {
            source: BuildError::VertexOutOfRange { range, .. },
            ..
        }) => assert!(range.value.abs() > 1e119, "{e}"),
        other => panic!("unexpected error {other:?}"),
    }
    assert!(
        e.to_string().contains("out of the supported range for f64"),
        "{e}"
    );
}

/// Whether every coordinate is a supported length of `T` and the largest is a supported scale: the test's own
/// statement of the documented rule, independent of the library's check.
fn supported<T: Real>(v: &[[T; 3]]) -> bool {
    let l = T::LIMITS;
    let mut scale = 0.0f64;
    for c in v.iter().flatten() {
        let a = c.to_f64_exact().abs();
        if !(a <= l.length_max && (a == 0.0 || a >= l.length_min)) {
            return false;
        }
        scale = scale.max(a);
    }
    scale >= l.scale_min
}

/// Builds with every volume type; in range it must succeed, out of range give the range error.
fn build_all<T: Real>(v: &[[T; 3]], tris: &[[u32; 3]]) -> Result<(), TestCaseError> {
    let ok = supported(v);
    check_build::<T, Obb<T>>(v, tris, ok)?;
    check_build::<T, Aabb<T>>(v, tris, ok)?;
    check_build::<T, Sphere<T>>(v, tris, ok)
}

fn check_build<T: Real, B: BoundingVolume<T>>(
    v: &[[T; 3]],
    tris: &[[u32; 3]],
    ok: bool,
) -> Result<(), TestCaseError> {
    match Model::<T, B>::new(v.to_vec(), tris) {
        Ok(_) => prop_assert!(ok, "built a model outside the supported range"),
        Err(Error::Build(BuildError::VertexOutOfRange { .. } | BuildError::ScaleOutOfRange(_))) => {
            prop_assert!(!ok, "refused a model inside the supported range")
        }
        Err(e) => prop_assert!(false, "unexpected error {e}"),
    }
    Ok(())
}

/// A value anywhere in the `f64` range: random bit patterns (every exponent, subnormals, NaNs and infinities
/// included) and zeros.
fn any_f64() -> impl Strategy<Value = f64> {
    prop_oneof![20 => any::<u64>().prop_map(f64::from_bits), 1 => Just(0.0)]
}

/// A value of random sign and binary exponent in `[lo, hi]`, or zero.
fn magnitude(lo: i32, hi: i32) -> impl Strategy<Value = f64> {
    prop_oneof![
        10 => (any::<bool>(), lo..=hi, 1.0f64..2.0).prop_map(|(neg, e, m)| {
            let x = m * 2f64.powi(e);
            if neg { -x } else { x }
        }),
        1 => Just(0.0),
    ]
}

/// Collide on two models built from in-range arrays (mixed magnitudes, wild triangles) equals brute force.
fn wild_collide<T: Real, B: BoundingVolume<T>>(
    va: &[[f64; 3]],
    vb: &[[f64; 3]],
    tris: &[[u32; 3]],
) -> Result<(), TestCaseError> {
    let conv = |v: &[[f64; 3]]| -> Vec<[T; 3]> { v.iter().map(|p| p.map(T::lit)).collect() };
    let (ca, cb) = (conv(va), conv(vb));
    if !supported(&ca) || !supported(&cb) {
        return Ok(());
    }
    let a = Model::<T, B>::new(ca, tris).expect("in range");
    let b = Model::<T, B>::new(cb, tris).expect("in range");
    let id = Isometry3::<T>::identity();
    let got: BTreeSet<ContactPair> = ccd::collide(&a, &id, &b, &id, &CollideRequest::all())
        .expect("in range")
        .contacts
        .into_iter()
        .collect();
    let truth: BTreeSet<ContactPair> = collide_brute_force(&a, &b, &Pose::identity())
        .into_iter()
        .collect();
    prop_assert_eq!(got, truth);
    Ok(())
}

fn mesh_of(values: &[f64]) -> (Vec<[f64; 3]>, Vec<[u32; 3]>) {
    let v: Vec<[f64; 3]> = values.chunks_exact(3).map(|c| [c[0], c[1], c[2]]).collect();
    let n = v.len() as u32;
    let tris = (0..n.saturating_sub(2))
        .map(|i| [i, i + 1, i + 2])
        .collect();
    (v, tris)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Vertex arrays spanning the whole f64 range, as f64 and rounded to f32: a model or the range error.
    #[test]
    fn any_vertex_array_builds_or_is_refused(values in prop::collection::vec(any_f64(), 9..=36)) {
        let (v, tris) = mesh_of(&values);
        build_all::<f64>(&v, &tris)?;
        let v32: Vec<[f32; 3]> = v.iter().map(|p| p.map(|x| x as f32)).collect();
        build_all::<f32>(&v32, &tris)?;
    }

    /// Arrays whose magnitudes straddle the supported band (a few exponents beyond each end): the boundary is
    /// where the documentation puts it, for both scalar types.
    #[test]
    fn arrays_near_the_limits_build_or_are_refused(
        v64 in prop::collection::vec(magnitude(-215, 140), 9..=30),
        v32 in prop::collection::vec(magnitude(-110, 50), 9..=30),
    ) {
        let (v, tris) = mesh_of(&v64);
        build_all::<f64>(&v, &tris)?;
        let (v, tris) = mesh_of(&v32);
        let v: Vec<[f32; 3]> = v.iter().map(|p| p.map(|x| x as f32)).collect();
        build_all::<f32>(&v, &tris)?;
    }

    /// Inside the range, with magnitudes mixed across the whole band in one mesh: collide equals brute force.
    #[test]
    fn mixed_magnitudes_collide_like_brute_force(
        a in prop::collection::vec(magnitude(-199, 126), 24..=45),
        b in prop::collection::vec(magnitude(-199, 126), 24..=45),
        a32 in prop::collection::vec(magnitude(-99, 38), 24..=45),
        b32 in prop::collection::vec(magnitude(-99, 38), 24..=45),
    ) {
        let n = a.len().min(b.len()) / 3 * 3;
        let ((va, tris), (vb, _)) = (mesh_of(&a[..n]), mesh_of(&b[..n]));
        wild_collide::<f64, Obb<f64>>(&va, &vb, &tris)?;
        wild_collide::<f64, Aabb<f64>>(&va, &vb, &tris)?;
        wild_collide::<f64, Sphere<f64>>(&va, &vb, &tris)?;
        let n = a32.len().min(b32.len()) / 3 * 3;
        let ((va, tris), (vb, _)) = (mesh_of(&a32[..n]), mesh_of(&b32[..n]));
        wild_collide::<f32, Obb<f32>>(&va, &vb, &tris)?;
        wild_collide::<f32, Aabb<f32>>(&va, &vb, &tris)?;
        wild_collide::<f32, Sphere<f32>>(&va, &vb, &tris)?;
    }
}

/// Two random meshes at scale `2^k` (mixed with tiny coordinates where `tiny` is set), B at a random pose scaled
/// alike: collide equals brute force, with the poses given as world poses through the façade.
fn collide_matches_brute_force<T: Real, B: BoundingVolume<T>>(
    seed: u64,
    k: i32,
    tiny: bool,
) -> usize {
    let mut rng = SplitMix64::new(seed);
    let s = 2f64.powi(k);
    let blob = |rng: &mut SplitMix64| -> Mesh {
        let mut m = random_blob(rng, 1, 1.0, 0.3);
        if tiny {
            // Coordinates far below the mesh's scale but still supported lengths.
            for p in m.vertices.iter_mut().step_by(3) {
                p[1] = T::LIMITS.length_min * 4.0 / s * rng.range(1.0, 2.0);
            }
        }
        m
    };
    let (ma, mb) = (blob(&mut rng), blob(&mut rng));
    let scaled = |m: &Mesh| -> Vec<[T; 3]> {
        m.vertices
            .iter()
            .map(|p| p.map(|x| T::lit(x * s)))
            .collect()
    };
    let a = Model::<T, B>::new(scaled(&ma), &ma.triangles).expect("in range");
    let b = Model::<T, B>::new(scaled(&mb), &mb.triangles).expect("in range");
    let off = Vector3::new(
        rng.range(-1.5, 1.5),
        rng.range(-1.5, 1.5),
        rng.range(-1.5, 1.5),
    ) * s;
    let pose_b: Isometry3<f64> =
        Isometry3::from_parts(Translation3::from(off), random_rotation(&mut rng));
    let pose_a: Isometry3<f64> =
        Isometry3::from_parts(Translation3::from(off * 0.25), random_rotation(&mut rng));
    let (pa, pb) = (
        ccd::nalgebra::convert::<_, Isometry3<T>>(pose_a),
        ccd::nalgebra::convert::<_, Isometry3<T>>(pose_b),
    );
    let got: BTreeSet<ContactPair> = ccd::collide(&a, &pa, &b, &pb, &CollideRequest::all())
        .expect("poses in range")
        .contacts
        .into_iter()
        .collect();
    let b_in_a = Pose::relative_checked(&pa, &pb).expect("in range");
    let truth: BTreeSet<ContactPair> = collide_brute_force(&a, &b, &b_in_a).into_iter().collect();
    assert_eq!(
        got,
        truth,
        "{} {} seed {seed} scale 2^{k}",
        T::NAME,
        std::any::type_name::<B>()
    );
    let first = ccd::collide(&a, &pa, &b, &pb, &CollideRequest::first()).expect("in range");
    assert_eq!(first.is_colliding(), !truth.is_empty());
    assert!(a.faces().len() > 10);
    truth.len()
}

fn sweep<T: Real>(exponents: &[i32]) {
    let mut contacts = 0;
    for (i, &k) in exponents.iter().enumerate() {
        for tiny in [false, true] {
            let seed = 1000 + i as u64;
            contacts += collide_matches_brute_force::<T, Obb<T>>(seed, k, tiny);
            contacts += collide_matches_brute_force::<T, Aabb<T>>(seed, k, tiny);
            contacts += collide_matches_brute_force::<T, Sphere<T>>(seed, k, tiny);
        }
    }
    // The scenes do intersect: the comparison is not between empty sets.
    assert!(contacts > exponents.len() * 10, "{contacts}");
}

/// f64 scenes from the smallest supported scale to the largest (meshes of radius up to 1.3·2^k, offsets up to
/// 1.5·√3·2^k: the largest scene keeps every coordinate below 2^128).
#[test]
fn collide_equals_brute_force_across_the_f64_range() {
    let ks: Vec<i32> = (-126..=125).step_by(9).chain([-126, 125]).collect();
    sweep::<f64>(&ks);
}

/// f32 scenes from the smallest supported scale (2^-40) to the largest (2^40).
#[test]
fn collide_equals_brute_force_across_the_f32_range() {
    let ks: Vec<i32> = (-38..=37).step_by(3).chain([-38, 37]).collect();
    sweep::<f32>(&ks);
}

/// Poses outside the range are refused by collide with the value named; a quaternion slightly off unit length
/// (within the tolerance) is renormalised and accepted.
#[test]
fn poses_outside_the_range_are_refused() {
    let m = Model::<f64>::new(
        vec![
            [0.0, 0.0, 0.0],
            [1.0, 0.0, 0.0],
            [0.0, 1.0, 0.0],
            [0.0, 0.0, 1.0],
        ],
        &[[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]],
    )
    .unwrap();
    let id = Isometry3::identity();
    let far = Isometry3::translation(1e300, 0.0, 0.0);
    let e = ccd::collide(&m, &id, &m, &far, &CollideRequest::all()).unwrap_err();
    assert!(
        e.to_string()
            .starts_with("pose of model b: translation x = 1e300"),
        "{e}"
    );
    let nan = Isometry3::translation(0.0, f64::NAN, 0.0);
    let e = ccd::collide(&m, &nan, &m, &id, &CollideRequest::all()).unwrap_err();
    assert!(
        e.to_string()
            .contains("pose of model a: translation y = NaN"),
        "{e}"
    );
    let short = Isometry3::from_parts(
        Translation3::identity(),
        UnitQuaternion::new_unchecked(Quaternion::new(0.1, 0.0, 0.0, 0.0)),
    );
    let e = ccd::collide(&m, &id, &m, &short, &CollideRequest::all()).unwrap_err();
    assert!(
        e.to_string().contains("rotation quaternion norm = 0.1"),
        "{e}"
    );
    let nearly = Isometry3::from_parts(
        Translation3::new(0.5, 0.0, 0.0),
        UnitQuaternion::new_unchecked(Quaternion::new(1.0 + 1e-7, 0.0, 0.0, 0.0)),
    );
    assert!(
        ccd::collide(&m, &id, &m, &nearly, &CollideRequest::all())
            .unwrap()
            .is_colliding()
    );
}

/// A case the mixed-magnitudes property found: a sliver leaf 4e7 long whose frame, from one Gram–Schmidt
/// pass, was off orthogonal by 2e-12, which against a box 1e13 long made the separating-axis test call two
/// touching leaves disjoint (contact (5, 4) missed).
#[test]
fn sliver_leaf_frames_stay_orthonormal_enough_to_collide() {
    // Five vertices at (1, 1, 1), then three more, as the property test's mesh_of strings them.
    let mesh = |tail: [[f64; 3]; 3]| -> Vec<f64> {
        let mut v = vec![[1.0; 3]; 5];
        v.extend(tail);
        v.into_iter().flatten().collect()
    };
    let a = mesh([
        [41053041.79287688, 2048.0, 1.1576486905153768e-10],
        [
            -1.862645149230957e-9,
            -1.1368683772161603e-13,
            1.2670689430212606e-26,
        ],
        [
            2.2737367544323206e-13,
            6.938893903907228e-18,
            -3.2311742677852644e-27,
        ],
    ]);
    let b = mesh([
        [0.0, -19947767630657.063, 1.0],
        [
            2.3283064365386963e-10,
            2.2737367544323206e-13,
            3.2311742677852644e-27,
        ],
        [1.0, 1.0, -2.692644765841801e26],
    ]);
    let ((va, tris), (vb, _)) = (mesh_of(&a), mesh_of(&b));
    wild_collide::<f64, Obb<f64>>(&va, &vb, &tris).expect("collide equals brute force (OBB)");
    wild_collide::<f64, Aabb<f64>>(&va, &vb, &tris).expect("collide equals brute force (AABB)");
    wild_collide::<f64, Sphere<f64>>(&va, &vb, &tris).expect("collide equals brute force (sphere)");
}

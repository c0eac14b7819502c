//! Contacts name the caller's triangles: for every contact of a collide query, `triangle_by_id(contact.a)` (and
//! `.b`) is the triangle the caller passed at that index, on a model built in memory and on a memory-mapped one,
//! while `triangle(i)` indexes the reordered face array (tree order) and names other triangles.

use std::path::PathBuf;

use ccd::nalgebra::{Isometry3, Translation3, UnitQuaternion, Vector3};
use ccd::{CollideRequest, Hierarchy, Model, Obb};
use ccd_testkit::{Mesh, SplitMix64, icosphere, random_soup};
use proptest::prelude::*;

type M = Model<f64, Obb<f64>>;

fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("triangle_by_id");
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir.join(name)
}

fn model(mesh: &Mesh) -> M {
    Model::new(mesh.vertices.clone(), &mesh.triangles).expect("valid mesh")
}

/// The same model, saved and memory-mapped.
fn mapped(model: &M, name: &str) -> M {
    let path = scratch(name);
    model.save(&path).expect("save");
    let m = M::open(&path).expect("open");
    assert!(m.is_mapped());
    m
}

/// Checks every contact of `a` (mesh `ma`) against `b` (mesh `mb`) at `pose_b`; returns the contact count and how
/// many contacts `triangle(contact.a)` would have got wrong.
fn check_contacts(a: &M, ma: &Mesh, b: &M, mb: &Mesh, pose_b: &Isometry3<f64>) -> (usize, usize) {
    let r = ccd::collide(a, &Isometry3::identity(), b, pose_b, &CollideRequest::all())
        .expect("in range");
    let mut wrong_by_slot = 0;
    for c in &r.contacts {
        assert_eq!(
            a.triangle_by_id(c.a),
            Some(ma.triangle(c.a as usize)),
            "contact {c:?}, A"
        );
        assert_eq!(
            b.triangle_by_id(c.b),
            Some(mb.triangle(c.b as usize)),
            "contact {c:?}, B"
        );
        if a.triangle(c.a as usize) != ma.triangle(c.a as usize) {
            wrong_by_slot += 1;
        }
    }
    (r.contacts.len(), wrong_by_slot)
}

#[test]
fn contacts_name_the_callers_triangles_on_owned_and_mapped_icospheres() {
    let mesh = icosphere(1, 1.0);
    let owned = model(&mesh);
    let map = mapped(&owned, "icosphere-1.bvh");
    let pose_b = Isometry3::from_parts(
        Translation3::new(0.4, 0.1, -0.05),
        UnitQuaternion::from_scaled_axis(Vector3::new(0.2, -0.3, 0.5)),
    );
    for (name, m) in [("owned", &owned), ("mapped", &map)] {
        let (contacts, wrong_by_slot) = check_contacts(m, &mesh, m, &mesh, &pose_b);
        eprintln!(
            "{name}: {contacts} contacts, triangle(contact.a) names another triangle for {wrong_by_slot}"
        );
        assert!(
            contacts >= 20,
            "{name}: only {contacts} contacts, the scene should cross many triangles"
        );
        // The trap this API closes: the slot order differs from the caller's, so `triangle` is not a lookup by id.
        assert!(
            wrong_by_slot > 0,
            "{name}: tree order happens to equal input order; the test shows nothing"
        );
    }
    let n = mesh.len() as u32;
    assert_eq!(owned.triangle_by_id(n), None);
    assert_eq!(map.triangle_by_id(n), None);
    assert_eq!(map.triangle_by_id(u32::MAX), None);
}

#[test]
fn a_view_lent_by_a_mapped_tree_finds_every_id() {
    let mesh = icosphere(2, 1.0);
    let map = ccd_bvh::BvhFile::open({
        let path = scratch("icosphere-2.bvh");
        model(&mesh).save(&path).expect("save");
        path
    })
    .and_then(|f| f.into_typed::<f64, Obb<f64>>())
    .expect("open");
    // Before and after the mapped tree derived its map: a view scans, then borrows the map.
    for round in 0..2 {
        let view = map.view();
        for id in 0..mesh.len() as u32 {
            assert_eq!(
                view.triangle_by_id(id),
                Some(mesh.triangle(id as usize)),
                "round {round}, id {id}"
            );
        }
        assert_eq!(map.triangle_by_id(0), Some(mesh.triangle(0)));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn every_id_maps_back_to_its_input_triangle(state in any::<u64>(), n in 1usize..300, leaf in 1u32..=16) {
        let mut rng = SplitMix64::new(state);
        let mesh = random_soup(&mut rng, n, 4.0, 1.0);
        let options = ccd::BuildOptions { leaf_size: leaf, ..Default::default() };
        let owned = M::with_options(mesh.vertices.clone(), &mesh.triangles, &options).expect("valid mesh");
        let map = mapped(&owned, &format!("soup-{state:x}-{n}.bvh"));
        for id in 0..n as u32 {
            prop_assert_eq!(owned.triangle_by_id(id), Some(mesh.triangle(id as usize)));
            prop_assert_eq!(map.triangle_by_id(id), Some(mesh.triangle(id as usize)));
        }
        prop_assert_eq!(owned.triangle_by_id(n as u32), None);
        prop_assert_eq!(map.triangle_by_id(n as u32), None);
        // Contacts against a random rigid placement of the same soup name input triangles too.
        let pose = Isometry3::from_parts(
            Translation3::new(rng.range(-1.0, 1.0), rng.range(-1.0, 1.0), rng.range(-1.0, 1.0)),
            ccd_testkit::random_rotation(&mut rng),
        );
        check_contacts(&owned, &mesh, &map, &mesh, &pose);
    }
}

/// The map assumes what the validated open checks: every id of `0..faces` exactly once. A file whose faces
/// repeat an id (checksum recomputed, so only the tree checks can catch it) is refused.
#[test]
fn validated_open_refuses_a_repeated_face_id() {
    use ccd_bvh::archive::{CHECKSUM_OFFSET, payload_checksum};
    let mesh = icosphere(1, 1.0);
    let bvh: ccd::Bvh<f64, Obb<f64>> =
        ccd::Bvh::build(mesh.vertices.clone(), &mesh.triangles, &Default::default()).unwrap();
    let mut bytes = bvh.to_bytes().unwrap();
    let faces: &[u8] = bytemuck::cast_slice(bvh.faces());
    let at = bytes
        .windows(faces.len())
        .position(|w| w == faces)
        .expect("the face block");
    // Face 1 takes face 0's id (the id is the fourth u32 of a 16-byte face).
    let id0 = bvh.faces()[0].id.to_le_bytes();
    bytes[at + 16 + 12..at + 16 + 16].copy_from_slice(&id0);
    let sum = payload_checksum(&bytes).unwrap();
    bytes[CHECKSUM_OFFSET..CHECKSUM_OFFSET + 8].copy_from_slice(&sum.to_le_bytes());
    let path = scratch("repeated-id.bvh");
    std::fs::write(&path, &bytes).unwrap();
    let e = M::open(&path).expect_err("a repeated id must be refused");
    assert!(e.to_string().contains("repeated id"), "{e}");
}

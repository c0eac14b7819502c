//! The committed `.bvh` file `fixtures/bvh/icosphere-2-obb-f32-v2.bvh` (written by
//! `cargo run -p ccd-testkit --example write_fixtures`, see `fixtures/README.md`) still opens and
//! answers queries like a freshly built model, and a file of another format version is refused,
//! among them the committed version-1 file `icosphere-2-obb-f32-v1.bvh` (no checksum).
//!
//! If this fails after a deliberate format change, bump `FORMAT_VERSION`, regenerate the fixture
//! (its name carries the version) and keep the version-mismatch test below.

use std::path::{Path, PathBuf};

use ccd::nalgebra::{Isometry3, Vector3};
use ccd::{BvKind, CollideRequest, Error, Hierarchy, Model, Obb};
use ccd_bvh::archive::FORMAT_VERSION;
use ccd_bvh::{FileError, ScalarKind};
use ccd_testkit::icosphere;

type F32Obb = Model<f32, Obb<f32>>;

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/bvh/icosphere-2-obb-f32-v2.bvh")
}

/// The previous fixture, written by format version 1.
fn version_1_fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/bvh/icosphere-2-obb-f32-v1.bvh")
}

fn fresh() -> F32Obb {
    let m = icosphere(2, 1.0);
    let vertices = m.vertices.iter().map(|v| v.map(|c| c as f32)).collect();
    Model::new(vertices, &m.triangles).unwrap()
}

#[test]
fn committed_file_opens_with_the_expected_header() {
    let model = F32Obb::open(fixture()).unwrap_or_else(|e| {
        panic!("{e}: if the .bvh format changed, regenerate the fixture (fixtures/README.md)")
    });
    let info = model.file_info().unwrap();
    assert_eq!(
        info.version, FORMAT_VERSION,
        "the format version changed: regenerate fixtures/bvh (fixtures/README.md)"
    );
    assert_eq!(info.version, 2);
    assert_eq!(info.scalar, ScalarKind::F32);
    assert_eq!(info.bv, BvKind::Obb);
    assert_eq!((info.faces, info.nodes, info.vertices), (320, 639, 162));
    assert_eq!(model.faces().len(), 320);
    assert_eq!(model.nodes().len(), 639);
}

#[test]
fn committed_file_collides_like_a_fresh_build() {
    let stored = F32Obb::open(fixture()).unwrap();
    let fresh = fresh();
    let probe = {
        let m = icosphere(1, 0.3);
        let vertices = m.vertices.iter().map(|v| v.map(|c| c as f32)).collect();
        F32Obb::new(vertices, &m.triangles).unwrap()
    };
    let mut colliding = 0;
    for i in 0..24 {
        let t = i as f32 / 24.0;
        let axis = Vector3::new(1.0, t, 2.0 - t).normalize();
        let pose = Isometry3::new(
            Vector3::new(1.4 * (1.0 - t), 0.2 * t, -0.1),
            axis * (3.0 * t),
        );
        let run = |a: &F32Obb| {
            let mut r = ccd::collide(
                a,
                &Isometry3::identity(),
                &probe,
                &pose,
                &CollideRequest::all(),
            )
            .unwrap();
            r.contacts.sort();
            r.contacts
        };
        let expected = run(&fresh);
        colliding += usize::from(!expected.is_empty());
        assert_eq!(run(&stored), expected, "pose {i}");
    }
    assert!(
        (1..24).contains(&colliding),
        "the sweep should both hit and miss"
    );
}

#[test]
fn another_format_version_is_refused() {
    let mut bytes = std::fs::read(fixture()).unwrap();
    // Bytes 8..12 hold the format version (little-endian u32), after the 8-byte magic.
    assert_eq!(bytes[8..12], FORMAT_VERSION.to_le_bytes());
    let newer = FORMAT_VERSION + 1;
    bytes[8..12].copy_from_slice(&newer.to_le_bytes());
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("ccd-format-stability");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("icosphere-2-obb-f32-newer.bvh");
    std::fs::write(&path, &bytes).unwrap();
    let e = F32Obb::open(&path).unwrap_err();
    assert!(
        matches!(
            e,
            Error::File(FileError::VersionMismatch { found, supported })
                if found == newer && supported == FORMAT_VERSION
        ),
        "{e:?}"
    );
    assert!(e.to_string().contains("version"), "{e}");
}

/// Files of version 1 (before the checksum) are refused with a version error that says to rebuild them.
#[test]
fn version_1_files_are_refused() {
    let e = F32Obb::open(version_1_fixture()).unwrap_err();
    assert!(
        matches!(
            e,
            Error::File(FileError::VersionMismatch { found: 1, supported })
                if supported == FORMAT_VERSION
        ),
        "{e:?}"
    );
    assert!(e.to_string().contains("ccd build"), "{e}");
}

#[test]
fn wrong_types_are_refused() {
    let e = Model::<f64, Obb<f64>>::open(fixture()).unwrap_err();
    assert!(
        matches!(e, Error::File(FileError::WrongKind { .. })),
        "{e:?}"
    );
}

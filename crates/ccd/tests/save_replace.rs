//! Saving never destroys data: a model saved over the very file it is mapped from keeps answering and the file
//! reopens; a reader that has a file mapped keeps its answers while another thread replaces the file, and sees the
//! new contents once it reopens.

use std::path::PathBuf;

use ccd::nalgebra::{Isometry3, Translation3, UnitQuaternion, Vector3};
use ccd::{CollideRequest, Model, Obb};
use ccd_testkit::{Mesh, icosphere};

type M = Model<f64, Obb<f64>>;

fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("save_replace");
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir.join(name)
}

fn model(mesh: &Mesh) -> M {
    Model::new(mesh.vertices.clone(), &mesh.triangles).expect("valid mesh")
}

/// The contact pairs of `a` against a fixed probe sphere (sorted).
fn contacts(a: &M, probe: &M) -> Vec<(u32, u32)> {
    let pose_b = Isometry3::from_parts(
        Translation3::new(0.9, 0.2, 0.1),
        UnitQuaternion::from_scaled_axis(Vector3::new(0.3, 0.2, 0.1)),
    );
    let r = ccd::collide(
        a,
        &Isometry3::identity(),
        probe,
        &pose_b,
        &CollideRequest::default(),
    )
    .expect("in range");
    let mut pairs: Vec<_> = r.contacts.iter().map(|c| (c.a, c.b)).collect();
    pairs.sort_unstable();
    pairs
}

#[test]
fn save_over_the_mapped_source_keeps_both_valid() {
    let probe = model(&icosphere(2, 0.7));
    let path = scratch("self.bvh");
    let owned = model(&icosphere(3, 1.0));
    let expected = contacts(&owned, &probe);
    assert!(!expected.is_empty());
    owned.save(&path).expect("save");
    let bytes = std::fs::read(&path).expect("read");
    let mapped = M::open(&path).expect("open");
    assert!(mapped.is_mapped());
    mapped.save(&path).expect("save over its own source");
    assert_eq!(
        contacts(&mapped, &probe),
        expected,
        "the mapped model after saving"
    );
    assert_eq!(
        std::fs::read(&path).expect("read"),
        bytes,
        "the file after saving"
    );
    let reopened = M::open(&path).expect("reopen");
    assert_eq!(contacts(&reopened, &probe), expected, "the reopened file");
}

#[test]
fn readers_keep_their_mapping_while_the_file_is_replaced() {
    let probe = model(&icosphere(2, 0.7));
    let path = scratch("replaced.bvh");
    let (first, second) = (model(&icosphere(3, 1.0)), model(&icosphere(2, 1.1)));
    let (old, new) = (contacts(&first, &probe), contacts(&second, &probe));
    assert_ne!(old, new, "the two versions must be told apart");
    first.save(&path).expect("save");
    let reader = M::open(&path).expect("open");
    std::thread::scope(|s| {
        let queries = s.spawn(|| {
            for _ in 0..40 {
                assert_eq!(
                    contacts(&reader, &probe),
                    old,
                    "a mapped reader's answer changed"
                );
            }
        });
        for k in 0..20 {
            let version = if k % 2 == 0 { &second } else { &first };
            version.save(&path).expect("replace");
        }
        second.save(&path).expect("replace");
        queries.join().expect("the reader thread did not fail");
    });
    let reopened = M::open(&path).expect("reopen");
    assert_eq!(
        contacts(&reopened, &probe),
        new,
        "the reopened file holds the last version"
    );
}

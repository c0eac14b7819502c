//! Any bytes → `BvhView::from_bytes` must return `Ok` or `Err`, never panic; and a view it accepts must answer
//! as sound files do:
//! - a collision query against itself at the identity pose (always in range) answers `Ok` with exactly the
//!   triangle pairs that the brute-force all-pairs test finds: validation proves every volume contains its
//!   subtree's triangles, so no touching pair can be pruned, whatever else in the file was edited;
//! - at an out-of-range relative pose (a NaN translation) the query is refused with `Err` before any traversal.
//!
//! Each input is tried twice: as it is (random damage, which the checksum refuses first), and with the
//! preamble's payload length and checksum rewritten to match the bytes after it (a deliberate edit), so that
//! mutations reach the structural checks and the containment proof behind the checksum.

#![no_main]

use bytemuck::{Pod, Zeroable};
use ccd::nalgebra::{Matrix3, Vector3};
use ccd::{BvKind, ScalarKind};
use ccd_bv::{BoundingVolume, Pose, Real};
use ccd_bvh::archive::{CHECKSUM_OFFSET, PREAMBLE_LEN, payload_checksum};
use ccd_bvh::{BvhView, Hierarchy};
use ccd_query::{CollideRequest, ContactPair, collide_brute_force, collide_relative};
use libfuzzer_sys::fuzz_target;

/// 16 bytes at a 16-byte-aligned address, as archives require.
#[derive(Clone, Copy, Pod, Zeroable)]
#[repr(C, align(16))]
struct Block([u8; 16]);

/// The contact pairs, sorted (the traversal and the brute force list them in different orders).
fn sorted(pairs: Vec<ContactPair>) -> Vec<(u32, u32)> {
    let mut out: Vec<(u32, u32)> = pairs.into_iter().map(|p| (p.a, p.b)).collect();
    out.sort_unstable();
    out
}

fn check<T: Real, B: BoundingVolume<T>>(bytes: &[u8]) {
    let Ok(view) = BvhView::<T, B>::from_bytes(bytes) else {
        return;
    };
    let stats = view.stats();
    assert_eq!(stats.nodes, view.nodes().len());
    let result = match collide_relative(&view, &view, &Pose::identity(), &CollideRequest::all()) {
        Ok(result) => result,
        Err(e) => panic!("a validated archive refused the identity pose, which is in range: {e}"),
    };
    assert_eq!(result.stats.contacts as usize, result.contacts.len());
    let truth = collide_brute_force(&view, &view, &Pose::identity());
    assert_eq!(
        sorted(result.contacts),
        sorted(truth),
        "a validated archive's collide differs from the brute-force all-pairs test"
    );
    let nan = Pose::from_parts(Matrix3::identity(), Vector3::from_element(T::lit(f64::NAN)));
    if let Ok(r) = collide_relative(&view, &view, &nan, &CollideRequest::first()) {
        panic!(
            "accepted a NaN relative translation: {} contacts",
            r.contacts.len()
        );
    }
}

fn check_all(bytes: &[u8]) {
    for scalar in [ScalarKind::F32, ScalarKind::F64] {
        for bv in [BvKind::Sphere, BvKind::Aabb, BvKind::Obb, BvKind::Rss] {
            ccd::with_types!(scalar, bv, |T, B| check::<T, B>(bytes));
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let mut blocks = vec![Block([0; 16]); data.len().div_ceil(16)];
    let aligned = &mut bytemuck::cast_slice_mut::<Block, u8>(&mut blocks)[..data.len()];
    aligned.copy_from_slice(data);
    check_all(aligned);
    if let Some(sum) = payload_checksum(aligned) {
        let length = (aligned.len() - PREAMBLE_LEN) as u64;
        aligned[CHECKSUM_OFFSET..CHECKSUM_OFFSET + 8].copy_from_slice(&sum.to_le_bytes());
        aligned[CHECKSUM_OFFSET + 8..PREAMBLE_LEN].copy_from_slice(&length.to_le_bytes());
        check_all(aligned);
    }
});

//! Any bytes → `BvhView::from_bytes` must return `Ok` or `Err`, never panic;
//! a view it accepts must survive a collision query against itself: at the
//! identity pose (always in range, so the query must answer `Ok`), and at an
//! out-of-range relative pose (a NaN translation, which must be refused with
//! `Err` before any traversal).

#![no_main]

use bytemuck::{Pod, Zeroable};
use ccd::nalgebra::{Matrix3, Vector3};
use ccd::{BvKind, ScalarKind};
use ccd_bv::{BoundingVolume, Pose, Real};
use ccd_bvh::{BvhView, Hierarchy};
use ccd_query::{CollideRequest, collide_relative};
use libfuzzer_sys::fuzz_target;

/// 16 bytes at a 16-byte-aligned address, as archives require.
#[derive(Clone, Copy, Pod, Zeroable)]
#[repr(C, align(16))]
struct Block([u8; 16]);

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
    // Volumes are not checked to contain their triangles (see the format
    // docs), so the contacts of a damaged file may be wrong, but consistent.
    assert_eq!(result.stats.contacts as usize, result.contacts.len());
    let nan = Pose::from_parts(Matrix3::identity(), Vector3::from_element(T::lit(f64::NAN)));
    if let Ok(r) = collide_relative(&view, &view, &nan, &CollideRequest::first()) {
        panic!(
            "accepted a NaN relative translation: {} contacts",
            r.contacts.len()
        );
    }
}

fuzz_target!(|data: &[u8]| {
    let mut blocks = vec![Block([0; 16]); data.len().div_ceil(16)];
    let aligned = &mut bytemuck::cast_slice_mut::<Block, u8>(&mut blocks)[..data.len()];
    aligned.copy_from_slice(data);
    let bytes: &[u8] = aligned;
    for scalar in [ScalarKind::F32, ScalarKind::F64] {
        for bv in [BvKind::Sphere, BvKind::Aabb, BvKind::Obb, BvKind::Rss] {
            ccd::with_types!(scalar, bv, |T, B| check::<T, B>(bytes));
        }
    }
});

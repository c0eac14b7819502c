//! Helpers shared by the archive tests: aligned buffers, resealing an edited file, node face slots.

// Each test file uses some of them.
#![allow(dead_code)]

use ccd_bv::{BoundingVolume, Real};
use ccd_bvh::archive::{CHECKSUM_OFFSET, payload_checksum};
use ccd_bvh::{BuildOptions, Bvh, NodeKind};
use ccd_testkit::Mesh;

/// The tree of `mesh` (coordinates rounded to `T`) built with `options`.
pub fn tree<T: Real, B: BoundingVolume<T>>(mesh: &Mesh, options: &BuildOptions) -> Bvh<T, B> {
    Bvh::build(
        mesh.vertices.iter().map(|p| p.map(T::lit)).collect(),
        &mesh.triangles,
        options,
    )
    .unwrap()
}

/// Bytes copied to a 16-byte-aligned buffer, as a mapped file would be.
pub struct Aligned(Vec<u128>, usize);

impl Aligned {
    pub fn new(bytes: &[u8]) -> Self {
        let mut words = vec![0u128; bytes.len().div_ceil(16)];
        bytemuck::cast_slice_mut::<u128, u8>(&mut words)[..bytes.len()].copy_from_slice(bytes);
        Aligned(words, bytes.len())
    }

    pub fn bytes(&self) -> &[u8] {
        &bytemuck::cast_slice(&self.0)[..self.1]
    }
}

/// Stores the checksum of the payload in the preamble.
pub fn reseal(bytes: &mut [u8]) {
    let sum = payload_checksum(bytes).expect("a whole preamble");
    bytes[CHECKSUM_OFFSET..CHECKSUM_OFFSET + 8].copy_from_slice(&sum.to_le_bytes());
}

/// Every node's face slots (its subtree's faces), computed from the tree.
pub fn node_slots<T: Real, B>(nodes: &[ccd_bvh::Node<T, B>]) -> Vec<std::ops::Range<usize>> {
    let mut slots = vec![0..0; nodes.len()];
    for i in (0..nodes.len()).rev() {
        slots[i] = match nodes[i].kind() {
            NodeKind::Leaf { faces } => faces,
            NodeKind::Internal { first_child: c } => slots[c].start..slots[c + 1].end,
        };
    }
    slots
}

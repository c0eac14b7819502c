//! Read-only access to a hierarchy: the seam the traversals use, so every
//! query runs the same code on owned trees and on memory-mapped `.bvh` files.

use std::ops::Range;

use ccd_bv::{BoundingVolume, Real, VolumeProfile};

use crate::{Face, Node};

/// Statistics of a built hierarchy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct TreeStats {
    /// Number of nodes.
    pub nodes: usize,
    /// Number of leaves.
    pub leaves: usize,
    /// Number of levels (a lone root has depth 1).
    pub depth: usize,
    /// Most triangles in one leaf.
    pub max_leaf_faces: usize,
    /// Bytes taken by the node, face and vertex arrays.
    pub bytes: usize,
}

/// Flat node, face and vertex arrays of a binary bounding-volume tree
/// (Gottschalk §7.2): node 0 is the root, the children of an internal node
/// are adjacent, and every leaf owns a contiguous range of the face array.
///
/// # Contract for implementers
/// The arrays are consistent: child indices, leaf face ranges and vertex
/// indices are in bounds, and every face lies in exactly one leaf. Queries
/// rely on it (they index with bounds checks, so a broken contract panics
/// rather than misbehaving).
pub trait Hierarchy: Sync {
    /// The scalar type of the volumes and vertices.
    type Scalar: Real;
    /// The bounding-volume type.
    type Bv: BoundingVolume<Self::Scalar>;

    /// The node array; node 0 is the root.
    fn nodes(&self) -> &[Node<Self::Scalar, Self::Bv>];

    /// The face array, in tree order (not the caller's order: [`Face::id`] keeps each face's index in the
    /// caller's triangle list).
    fn faces(&self) -> &[Face];

    /// The vertex array, in the model frame.
    fn vertices(&self) -> &[[Self::Scalar; 3]];

    /// The three vertices of the face in slot `face` of [`faces`](Self::faces), which is in **tree order**.
    ///
    /// Queries report the caller's triangle ids ([`Face::id`]), not slots: look those up with
    /// [`triangle_by_id`](Self::triangle_by_id). `triangle(contact.a)` is in general another triangle.
    #[inline(always)]
    fn triangle(&self, face: usize) -> [[Self::Scalar; 3]; 3] {
        let f = &self.faces()[face];
        let v = self.vertices();
        [
            v[f.vertices[0] as usize],
            v[f.vertices[1] as usize],
            v[f.vertices[2] as usize],
        ]
    }

    /// The slot in [`faces`](Self::faces) of the face whose caller id ([`Face::id`]) is `id`, or `None` if no
    /// face carries it.
    ///
    /// The default scans the faces (`O(n)` per call); [`Bvh`](crate::Bvh), [`MappedBvh`](crate::MappedBvh) and
    /// a [`BvhView`](crate::BvhView) lent by a `MappedBvh` answer in `O(1)` from a [`FaceSlots`](crate::FaceSlots) map derived on
    /// first use (4 bytes per face, kept with the tree).
    fn face_slot(&self, id: u32) -> Option<usize> {
        self.faces().iter().position(|f| f.id == id)
    }

    /// The three vertices (model frame) of the caller's triangle `id`: the triangle at index `id` of the list
    /// the tree was built from, which is how every query names triangles (`ccd_query::ContactPair`, the time
    /// of impact's `tri_a`/`tri_b`). `None` if the tree has no such triangle.
    fn triangle_by_id(&self, id: u32) -> Option<[[Self::Scalar; 3]; 3]> {
        self.face_slot(id).map(|slot| self.triangle(slot))
    }

    /// The rounding profile of every node volume ([`VolumeProfile`]: largest magnitude and axis defect), if the
    /// hierarchy keeps one. Queries that bound many pairs of volumes fix their allowance from both profiles once
    /// ([`MoveRounding::with_profiles`](ccd_bv::MoveRounding::with_profiles)) instead of measuring every pair;
    /// `None` (the default) makes them measure.
    ///
    /// # Guarantee
    /// Where `Some`, it bounds every node's volume as [`VolumeProfile`] states.
    fn volume_profile(&self) -> Option<VolumeProfile<Self::Scalar>> {
        None
    }

    /// The faces under `node` (any node, internal ones included): the range
    /// from its leftmost to its rightmost leaf.
    fn face_range(&self, node: usize) -> Range<usize> {
        let nodes = self.nodes();
        let (mut lo, mut hi) = (node, node);
        while !nodes[lo].is_leaf() {
            lo = nodes[lo].first_child();
        }
        while !nodes[hi].is_leaf() {
            hi = nodes[hi].first_child() + 1;
        }
        nodes[lo].leaf_faces().start..nodes[hi].leaf_faces().end
    }

    /// Depth of every node (the root has depth 0).
    fn node_depths(&self) -> Vec<u32> {
        let nodes = self.nodes();
        let mut depth = vec![0u32; nodes.len()];
        // Children always come after their parent, so one forward pass works.
        for (i, n) in nodes.iter().enumerate() {
            if !n.is_leaf() {
                let c = n.first_child();
                depth[c] = depth[i] + 1;
                depth[c + 1] = depth[i] + 1;
            }
        }
        depth
    }

    /// Node count, leaf count, depth, largest leaf and memory use.
    fn stats(&self) -> TreeStats {
        let nodes = self.nodes();
        let leaves = nodes.iter().filter(|n| n.is_leaf());
        TreeStats {
            nodes: nodes.len(),
            leaves: leaves.clone().count(),
            depth: self
                .node_depths()
                .iter()
                .max()
                .map_or(0, |&d| d as usize + 1),
            max_leaf_faces: leaves.map(|n| n.leaf_faces().len()).max().unwrap_or(0),
            bytes: size_of_val(nodes) + size_of_val(self.faces()) + size_of_val(self.vertices()),
        }
    }
}

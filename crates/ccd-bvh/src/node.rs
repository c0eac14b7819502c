//! Tree nodes: a bounding volume plus one link word (FPQ's array embedding).

use std::ops::Range;

use ccd_bv::Real;

/// Largest number of triangles a leaf may hold (the link word keeps the count
/// in 4 bits).
pub const MAX_LEAF_SIZE: u32 = 16;

const COUNT_BITS: u32 = 4;

/// What a node is, decoded from its link word.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NodeKind {
    /// An internal node; its two children are `first_child` and
    /// `first_child + 1` (children are always contiguous).
    Internal {
        /// Index of the first child in the node array.
        first_child: usize,
    },
    /// A leaf owning the contiguous range of the face array.
    Leaf {
        /// Indices into the face array.
        faces: Range<usize>,
    },
}

/// One node of a binary bounding-volume tree: the volume and one link word.
///
/// The link word has the width of the scalar (`u32` for `f32`, `u64` for
/// `f64`), so a node has no padding: an `f32` OBB node is exactly 64 bytes,
/// one cache line (Gottschalk §7.2.2, encoding (b) adapted). Encoding, with
/// `W` the word's bit width:
/// - top bit clear: internal node, the rest is the index of the first child;
/// - top bit set: leaf, bits `4..W-1` hold the first face and bits `0..4`
///   hold the face count minus one.
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(C)]
pub struct Node<T: Real, B> {
    /// The node's bounding volume, in the model frame.
    pub bv: B,
    link: T::Bits,
}

impl<T: Real, B> Node<T, B> {
    fn width() -> u32 {
        8 * size_of::<T::Bits>() as u32
    }

    fn leaf_flag() -> u64 {
        1u64 << (Self::width() - 1)
    }

    /// Largest first-child index an internal node can encode.
    pub fn max_child_index() -> u64 {
        Self::leaf_flag() - 1
    }

    /// Largest first-face index a leaf can encode.
    pub fn max_face_index() -> u64 {
        (1u64 << (Self::width() - 1 - COUNT_BITS)) - 1
    }

    fn from_word(bv: B, word: u64) -> Option<Self> {
        T::Bits::try_from(word).ok().map(|link| Self { bv, link })
    }

    /// An internal node whose children are `first_child` and `first_child + 1`;
    /// `None` if the index does not fit the link word.
    pub fn internal(bv: B, first_child: usize) -> Option<Self> {
        let c = first_child as u64;
        if c > Self::max_child_index() {
            return None;
        }
        Self::from_word(bv, c)
    }

    /// A leaf owning faces `first..first + count`; `None` if `count` is not in
    /// `1..=MAX_LEAF_SIZE` or `first` does not fit the link word.
    pub fn leaf(bv: B, first: usize, count: usize) -> Option<Self> {
        let (f, n) = (first as u64, count as u64);
        if n == 0 || n > u64::from(MAX_LEAF_SIZE) || f > Self::max_face_index() {
            return None;
        }
        Self::from_word(bv, Self::leaf_flag() | (f << COUNT_BITS) | (n - 1))
    }

    /// The raw link word (for archives and validation).
    pub fn link(&self) -> u64 {
        self.link.into()
    }

    /// Whether the node is a leaf.
    #[inline(always)]
    pub fn is_leaf(&self) -> bool {
        self.link() & Self::leaf_flag() != 0
    }

    /// Index of the first child of an internal node (meaningless for leaves).
    #[inline(always)]
    pub fn first_child(&self) -> usize {
        self.link() as usize
    }

    /// Face range of a leaf (meaningless for internal nodes).
    #[inline(always)]
    pub fn leaf_faces(&self) -> Range<usize> {
        let w = self.link() & !Self::leaf_flag();
        let first = (w >> COUNT_BITS) as usize;
        let count = (w & ((1 << COUNT_BITS) - 1)) as usize + 1;
        first..first + count
    }

    /// The decoded node kind.
    pub fn kind(&self) -> NodeKind {
        if self.is_leaf() {
            NodeKind::Leaf {
                faces: self.leaf_faces(),
            }
        } else {
            NodeKind::Internal {
                first_child: self.first_child(),
            }
        }
    }
}

// SAFETY: `Node` is `repr(C)` with two fields, `bv: B` (`Zeroable`) and `link: T::Bits` (`Pod`, hence
// `Zeroable`), so the all-zero bit pattern is a valid value of every field and of the node (an internal node
// whose first child is 0). Tested by `zeroed_node_is_a_valid_value`.
unsafe impl<T: Real, B: bytemuck::Zeroable> bytemuck::Zeroable for Node<T, B> {}

/// A triangle of the reordered face array: three vertex indices and the
/// triangle's index in the caller's original triangle list.
#[derive(Clone, Copy, Debug, PartialEq, Eq, bytemuck::Pod, bytemuck::Zeroable)]
#[repr(C)]
pub struct Face {
    /// Indices into the vertex array.
    pub vertices: [u32; 3],
    /// Index of this triangle in the input given to the builder; contacts
    /// are reported with these ids.
    pub id: u32,
}

#[cfg(test)]
mod tests {
    use super::*;
    use ccd_bv::{Aabb, Obb, Rss, Sphere};

    /// The all-zero node (what a zero-initialised node array holds) is an internal node over child 0 with the
    /// all-zero volume.
    #[test]
    fn zeroed_node_is_a_valid_value() {
        use bytemuck::Zeroable;
        let n = Node::<f64, Obb<f64>>::zeroed();
        assert_eq!(n.kind(), NodeKind::Internal { first_child: 0 });
        assert_eq!(n, Node::internal(Obb::zeroed(), 0).unwrap());
        let v: Vec<Node<f32, Aabb<f32>>> = bytemuck::zeroed_vec(3);
        assert!(
            v.iter()
                .all(|n| *n == Node::internal(Aabb::zeroed(), 0).unwrap())
        );
    }

    #[test]
    fn node_sizes_have_no_padding() {
        assert_eq!(size_of::<Node<f32, Obb<f32>>>(), 64);
        assert_eq!(size_of::<Node<f64, Obb<f64>>>(), 128);
        assert_eq!(size_of::<Node<f32, Rss<f32>>>(), 64);
        assert_eq!(size_of::<Node<f64, Rss<f64>>>(), 128);
        assert_eq!(size_of::<Node<f32, Aabb<f32>>>(), 28);
        assert_eq!(size_of::<Node<f64, Sphere<f64>>>(), 40);
        assert_eq!(size_of::<Face>(), 16);
    }

    #[test]
    fn link_round_trips_and_rejects_overflow() {
        let bv = Sphere {
            center: [0.0f32; 3],
            radius: 1.0,
        };
        let n = Node::<f32, _>::internal(bv, 12345).unwrap();
        assert_eq!(n.kind(), NodeKind::Internal { first_child: 12345 });
        let l = Node::<f32, _>::leaf(bv, 777, 16).unwrap();
        assert_eq!(l.kind(), NodeKind::Leaf { faces: 777..793 });
        let max = Node::<f32, Sphere<f32>>::max_face_index() as usize;
        assert_eq!(
            Node::<f32, _>::leaf(bv, max, 1).unwrap().leaf_faces(),
            max..max + 1
        );
        assert!(Node::<f32, _>::leaf(bv, max + 1, 1).is_none());
        assert!(Node::<f32, _>::leaf(bv, 0, 17).is_none());
        assert!(Node::<f32, _>::leaf(bv, 0, 0).is_none());
        assert!(Node::<f32, _>::internal(bv, 1 << 31).is_none());
        let bv64 = Sphere {
            center: [0.0f64; 3],
            radius: 1.0,
        };
        let big = 1usize << 40;
        assert_eq!(
            Node::<f64, _>::leaf(bv64, big, 3).unwrap().leaf_faces(),
            big..big + 3
        );
    }
}

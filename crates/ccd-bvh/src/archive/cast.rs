//! Zero-copy casts of validated byte blocks to typed slices.

use ccd_bv::{BoundingVolume, Real};

use crate::Node;

/// `bytes` as a slice of nodes, or `None` if the length or alignment does
/// not fit or the node type has padding.
pub(crate) fn cast_nodes<T: Real, B: BoundingVolume<T>>(bytes: &[u8]) -> Option<&[Node<T, B>]> {
    let size = size_of::<Node<T, B>>();
    let no_padding = size == size_of::<B>() + size_of::<T::Bits>()
        && size_of::<B>().is_multiple_of(align_of::<T::Bits>());
    if !no_padding
        || !bytes.len().is_multiple_of(size)
        || !(bytes.as_ptr() as usize).is_multiple_of(align_of::<Node<T, B>>())
    {
        return None;
    }
    // SAFETY: the pointer is aligned for `Node<T, B>` and the length is a
    // whole number of nodes (both checked above), and the bytes are borrowed
    // for the returned lifetime. `Node` is `#[repr(C)]` of a `B: Pod` and a
    // `T::Bits: Pod`; the size check shows there is no padding, so every byte
    // belongs to a field whose every bit pattern is valid: any initialised
    // bytes form valid nodes.
    Some(unsafe {
        std::slice::from_raw_parts(bytes.as_ptr().cast::<Node<T, B>>(), bytes.len() / size)
    })
}

/// `bytes` as a slice of plain data (faces, vertices), or `None` if the
/// length or alignment does not fit.
pub(crate) fn cast_plain<P: bytemuck::Pod>(bytes: &[u8]) -> Option<&[P]> {
    bytemuck::try_cast_slice(bytes).ok()
}

/// The bytes of a node, in memory order (little-endian hosts only).
pub(crate) fn node_bytes<T: Real, B: BoundingVolume<T>>(node: &Node<T, B>, out: &mut Vec<u8>) {
    out.extend_from_slice(bytemuck::bytes_of(&node.bv));
    let link = node.link();
    out.extend_from_slice(&link.to_le_bytes()[..size_of::<T::Bits>()]);
}

#[cfg(test)]
mod tests {
    use super::*;
    use ccd_bv::{Aabb, Obb, Sphere};

    fn round_trip<T: Real, B: BoundingVolume<T> + PartialEq>(nodes: &[Node<T, B>]) {
        let mut bytes = Vec::new();
        for n in nodes {
            node_bytes(n, &mut bytes);
        }
        // Copy into u64 words so the buffer is 8-aligned, as in a file.
        let words: Vec<u64> = bytes
            .chunks(8)
            .map(|c| {
                let mut w = [0u8; 8];
                w[..c.len()].copy_from_slice(c);
                u64::from_le_bytes(w)
            })
            .collect();
        let aligned: &[u8] = &bytemuck::cast_slice(&words)[..bytes.len()];
        assert_eq!(cast_nodes::<T, B>(aligned).unwrap(), nodes);
        assert!(
            cast_nodes::<T, B>(&aligned[1..]).is_none(),
            "misaligned or ragged input must be refused"
        );
    }

    #[test]
    fn nodes_round_trip_through_bytes() {
        let obb = Obb {
            rot: [[1.0f32, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]],
            center: [1.0, 2.0, 3.0],
            half: [0.5, 0.25, 0.0],
        };
        round_trip(&[
            Node::<f32, _>::internal(obb, 1).unwrap(),
            Node::leaf(obb, 7, 3).unwrap(),
        ]);
        let aabb = Aabb {
            center: [1.0f64, -2.0, 3.0],
            half: [0.5, 0.25, 1e-300],
        };
        round_trip(&[
            Node::<f64, _>::leaf(aabb, 1 << 40, 16).unwrap(),
            Node::internal(aabb, 3).unwrap(),
        ]);
        let s = Sphere {
            center: [0.0f64; 3],
            radius: 2.0,
        };
        round_trip(&[Node::<f64, _>::internal(s, 9).unwrap()]);
    }
}

//! B's volumes moved into A's frame, cached per query by node.
//!
//! A depth-first walk splits the same node of B against many nodes of A (about twelve times per node in
//! close proximity), and every split used to move B's two children again. Moving a volume is a pure function
//! of the node and the query's pose, so a moved volume can be kept and handed out again, bit for bit the
//! volume a new move would give: the walk's verdicts and counters do not depend on whether it hit.

use std::mem::MaybeUninit;

use ccd_bv::{BoundingVolume, Pose, Real};
use ccd_bvh::Node;

/// Slots of the cache (a power of two). At 128 bytes per `f64` box, 256 KiB: a quarter of a level-2 cache. A
/// depth-first walk's active subtree of B is a run of nearby node indices (the build lays subtrees out
/// contiguously), so direct mapping by index keeps it with few conflicts.
const SLOTS: usize = 2048;

/// The tag of a slot that holds nothing: no slice index is `usize::MAX` (slices hold at most `isize::MAX`
/// bytes).
const EMPTY: usize = usize::MAX;

/// A direct-mapped cache of B's volumes moved by one pose: slot `i mod SLOTS` holds node `i`'s moved volume
/// when its tag is `i`.
///
/// The volumes are left uninitialised until first written (only the tags are filled at creation): a
/// first-contact query tests about a hundred volume pairs, and zero-filling 256 KiB per query doubled its time.
pub(crate) struct MovedVolumes<T: Real, V> {
    pose: Pose<T>,
    tags: Box<[usize]>,
    volumes: Box<[MaybeUninit<V>]>,
}

impl<T: Real, V: BoundingVolume<T>> MovedVolumes<T, V> {
    /// An empty cache for volumes moved by `pose`.
    pub(crate) fn new(pose: &Pose<T>) -> Self {
        Self {
            pose: *pose,
            tags: vec![EMPTY; SLOTS].into_boxed_slice(),
            volumes: Box::new_uninit_slice(SLOTS),
        }
    }

    /// The volume in slot `s`, whose tag says it holds one.
    #[inline(always)]
    fn held(&self, s: usize) -> &V {
        debug_assert_ne!(self.tags[s], EMPTY);
        // SAFETY: a tag other than `EMPTY` is only stored (in `one` and `siblings`) right after the slot's
        // volume is written, and tags start `EMPTY`; callers read a slot only after making its tag a node
        // index, so the slot is initialised.
        unsafe { self.volumes[s].assume_init_ref() }
    }

    /// Node `i`'s volume moved by the pose.
    #[inline(always)]
    pub(crate) fn one(&mut self, nodes: &[Node<T, V>], i: usize) -> &V {
        let s = i % SLOTS;
        if self.tags[s] != i {
            self.volumes[s].write(nodes[i].bv.transformed(&self.pose));
            self.tags[s] = i;
        }
        self.held(s)
    }

    /// The volumes of nodes `c` and `c + 1` (two siblings) moved by the pose, both moved at once
    /// ([`BoundingVolume::transformed_pair`]) unless both are held.
    #[inline(always)]
    pub(crate) fn siblings(&mut self, nodes: &[Node<T, V>], c: usize) -> [&V; 2] {
        let (s0, s1) = (c % SLOTS, (c + 1) % SLOTS);
        if self.tags[s0] != c || self.tags[s1] != c + 1 {
            let [m0, m1] = V::transformed_pair([&nodes[c].bv, &nodes[c + 1].bv], &self.pose);
            self.volumes[s0].write(m0);
            self.volumes[s1].write(m1);
            self.tags[s0] = c;
            self.tags[s1] = c + 1;
        }
        [self.held(s0), self.held(s1)]
    }
}

#[cfg(test)]
mod tests {
    use ccd_bv::{Aabb, Obb, Sphere};
    use ccd_bvh::{BuildOptions, Bvh, Hierarchy};
    use ccd_testkit::{SplitMix64, random_blob, random_rotation};
    use nalgebra::{Isometry3, Translation3};

    use super::*;

    /// Every volume handed out, in a long random sequence of single and sibling requests that hits, misses and
    /// evicts (more nodes than slots), equals the node's volume moved afresh, bit for bit.
    fn hands_out_fresh_moves<V: BoundingVolume<f64>>() {
        let mut rng = SplitMix64::new(5);
        let mesh = random_blob(&mut rng, 5, 1.0, 0.2);
        let tree: Bvh<f64, V> = Bvh::build(
            mesh.vertices.clone(),
            &mesh.triangles,
            &BuildOptions::default(),
        )
        .expect("valid mesh");
        let nodes = tree.nodes();
        assert!(
            nodes.len() > 2 * SLOTS,
            "{} nodes: no evictions",
            nodes.len()
        );
        let iso =
            Isometry3::from_parts(Translation3::new(0.3, -1.0, 2.0), random_rotation(&mut rng));
        let pose = Pose::from_parts(
            *iso.rotation.to_rotation_matrix().matrix(),
            iso.translation.vector,
        );
        let mut cache = MovedVolumes::new(&pose);
        let (mut hits, mut requests) = (0, 0);
        for _ in 0..200_000 {
            // Mostly nearby nodes (hits), sometimes anywhere (misses and evictions).
            let i = if rng.next_f64() < 0.9 {
                (rng.next_f64() * 64.0) as usize
            } else {
                (rng.next_f64() * nodes.len() as f64) as usize
            };
            let bits = |v: &V| bytemuck::bytes_of(v).to_vec();
            if !nodes[i].is_leaf() {
                let c = nodes[i].first_child();
                hits +=
                    usize::from(cache.tags[c % SLOTS] == c && cache.tags[(c + 1) % SLOTS] == c + 1);
                let got = cache.siblings(nodes, c).map(bits);
                let fresh = [
                    nodes[c].bv.transformed(&pose),
                    nodes[c + 1].bv.transformed(&pose),
                ];
                assert_eq!(got, fresh.each_ref().map(bits), "siblings {c}");
            } else {
                hits += usize::from(cache.tags[i % SLOTS] == i);
                let got = bits(cache.one(nodes, i));
                assert_eq!(got, bits(&nodes[i].bv.transformed(&pose)), "node {i}");
            }
            requests += 1;
        }
        assert!(
            hits > requests / 2 && hits < requests,
            "{hits} hits of {requests}"
        );
    }

    #[test]
    fn hands_out_fresh_moves_obb() {
        hands_out_fresh_moves::<Obb<f64>>();
    }

    #[test]
    fn hands_out_fresh_moves_aabb_and_sphere() {
        hands_out_fresh_moves::<Aabb<f64>>();
        hands_out_fresh_moves::<Sphere<f64>>();
    }
}

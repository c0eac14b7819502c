//! The map from a caller's triangle id ([`Face::id`]) to the face's slot in a tree's face array.
//!
//! The builder reorders the faces so every node owns a contiguous range; [`Face::id`] keeps each face's index in
//! the caller's triangle list, which is what every query reports. This map goes the other way, so a reported id
//! can be turned back into its triangle ([`Hierarchy::triangle_by_id`](crate::Hierarchy::triangle_by_id)).

use crate::Face;

/// The slot of every id: `slots[id]` is the index in the face array of the face whose [`Face::id`] is `id`.
///
/// Derived from the faces' stored ids in one `O(n)` pass; it takes 4 bytes per face (`u32` per id). Owned and
/// memory-mapped trees derive it on first use and keep it (the `.bvh` file does not store it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FaceSlots {
    slots: Vec<u32>,
}

/// Marks an id that no face carries.
const ABSENT: u32 = u32::MAX;

impl FaceSlots {
    /// The map of `faces`.
    ///
    /// # Behavior
    /// Built trees and validated files carry every id of `0..faces.len()` exactly once (the validated open checks
    /// it). For faces that do not — a file opened unchecked — ids out of that range are left out and, for a
    /// repeated id, the last face carrying it wins; nothing panics.
    pub fn of(faces: &[Face]) -> Self {
        let mut slots = vec![ABSENT; faces.len()];
        for (slot, face) in faces.iter().enumerate() {
            if let Some(s) = slots.get_mut(face.id as usize) {
                // The face count fits in u32: node links and ids are u32-indexed.
                *s = u32::try_from(slot).unwrap_or(ABSENT);
            }
        }
        Self { slots }
    }

    /// The slot of the face whose id is `id`, or `None` if no face carries it.
    #[inline]
    pub fn get(&self, id: u32) -> Option<usize> {
        match self.slots.get(id as usize) {
            Some(&s) if s != ABSENT => Some(s as usize),
            _ => None,
        }
    }

    /// Bytes held by the map.
    pub fn bytes(&self) -> usize {
        size_of_val(self.slots.as_slice())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn face(id: u32) -> Face {
        Face {
            vertices: [0, 1, 2],
            id,
        }
    }

    #[test]
    fn inverts_a_permutation_and_rejects_unknown_ids() {
        let faces: Vec<Face> = [2, 0, 3, 1].into_iter().map(face).collect();
        let slots = FaceSlots::of(&faces);
        for (slot, f) in faces.iter().enumerate() {
            assert_eq!(slots.get(f.id), Some(slot));
        }
        assert_eq!(slots.get(4), None);
        assert_eq!(slots.get(u32::MAX), None);
        assert_eq!(slots.bytes(), 16);
    }

    #[test]
    fn tolerates_ids_that_are_not_a_permutation() {
        let faces: Vec<Face> = [7, 1, 1].into_iter().map(face).collect();
        let slots = FaceSlots::of(&faces);
        assert_eq!(slots.get(7), None);
        assert_eq!(slots.get(1), Some(2));
        assert_eq!(slots.get(0), None);
        assert_eq!(slots.get(2), None);
    }
}

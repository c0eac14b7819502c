//! Leaf iteration shared by both traversals: every face pair of two leaves, by slot (tree order) and by the
//! caller's triangle id.

use ccd_bvh::Hierarchy;

use super::Flow;

/// One face of a leaf: its slot in the hierarchy's face array (tree order, what [`Hierarchy::triangle`] takes)
/// and the caller's triangle index it was built from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct FaceRef {
    /// Position in the face array.
    pub slot: usize,
    /// The caller's triangle id.
    pub id: u32,
}

/// Calls `f` on every pair of faces of leaf `na` of `a` and leaf `nb` of `b`, A's faces in the outer loop, until
/// it returns [`Flow::Stop`] (which is then returned).
#[inline(always)]
pub(crate) fn for_each_face_pair<A, B>(
    a: &A,
    na: usize,
    b: &B,
    nb: usize,
    mut f: impl FnMut(FaceRef, FaceRef) -> Flow,
) -> Flow
where
    A: Hierarchy,
    B: Hierarchy,
{
    let (faces_a, faces_b) = (a.faces(), b.faces());
    for sa in a.nodes()[na].leaf_faces() {
        let fa = FaceRef {
            slot: sa,
            id: faces_a[sa].id,
        };
        for sb in b.nodes()[nb].leaf_faces() {
            let fb = FaceRef {
                slot: sb,
                id: faces_b[sb].id,
            };
            if f(fa, fb) == Flow::Stop {
                return Flow::Stop;
            }
        }
    }
    Flow::Continue
}

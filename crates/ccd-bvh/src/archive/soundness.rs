//! The containment proof of validation: every node's volume contains every triangle of its subtree, which is
//! what makes pruning a node on a disjoint volume correct.
//!
//! Fitted trees are not nested (a child's box, turned against its parent's, pokes out at its corners although
//! every triangle lies in both), so parents are not checked against their children's volumes alone. For each
//! node `P` the subtree is descended from `P`'s children: an internal node whose volume lies certainly inside
//! `P`'s ([`Enclose::holds`]) closes its whole subtree; otherwise its children are tried in turn, and a leaf
//! reached has its triangles' vertices tested against `P` ([`Enclose::holds_point`]). Every leaf's vertices
//! are tested against the leaf itself. So every vertex of every triangle is proven inside every ancestor's
//! volume, directly or through a chain of certainly nested volumes; the cost is that of a descent along the
//! parts of each subtree near its parent's boundary. Every node's axis defect is measured once (it bounds the
//! frame and enters each test with the node inside), and each `P` is widened once for its whole descent. Nodes
//! are checked in parallel.

use ccd_bv::Real;
use rayon::prelude::*;

use super::enclose::{Enclose, max_defect};
use crate::{Face, FileError, Node};

/// Proves that every node's volume contains its subtree's triangles (module docs). Requires a verified tree
/// (indices in bounds, children after parents).
pub(crate) fn verify_containment<T: Real, B: Enclose<T>>(
    nodes: &[Node<T, B>],
    faces: &[Face],
    vertices: &[[T; 3]],
) -> Result<(), FileError> {
    let defects: Vec<f64> = if B::AXES {
        nodes
            .par_iter()
            .with_min_len(4096)
            .map(|n| n.bv.defect())
            .collect()
    } else {
        Vec::new()
    };
    if let Some(i) = defects
        .par_iter()
        .position_any(|&d| d.is_nan() || d > max_defect::<T>())
    {
        return Err(FileError::Corrupt(format!(
            "node {i}: the volume's axes are not orthonormal (allowed defect {:.1e})",
            max_defect::<T>()
        )));
    }
    let defect = |i: usize| if B::AXES { defects[i] } else { 0.0 };
    (0..nodes.len())
        .into_par_iter()
        .with_min_len(256)
        .try_for_each_init(Vec::new, |stack, i| {
            let outer = nodes[i].bv.widen();
            let outside = |leaf: usize| -> Option<u32> {
                faces[nodes[leaf].leaf_faces()]
                    .iter()
                    .find(|f| {
                        !f.vertices.iter().fold(true, |ok, &v| {
                            ok & B::holds_point(&outer, &vertices[v as usize])
                        })
                    })
                    .map(|f| f.id)
            };
            let culprit = if nodes[i].is_leaf() {
                outside(i)
            } else {
                stack.clear();
                let c = nodes[i].first_child();
                stack.extend([c, c + 1]);
                let mut found = None;
                while let Some(q) = stack.pop() {
                    if nodes[q].is_leaf() {
                        found = outside(q);
                        if found.is_some() {
                            break;
                        }
                    } else if !B::holds(&outer, &nodes[q].bv, defect(q)) {
                        let c = nodes[q].first_child();
                        stack.extend([c, c + 1]);
                    }
                }
                found
            };
            match culprit {
                None => Ok(()),
                Some(id) => Err(FileError::Corrupt(format!(
                    "node {i}: the volume does not contain triangle {id} of its subtree"
                ))),
            }
        })
}

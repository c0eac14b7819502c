//! Semantic validation of a structurally valid archive: after it, a view
//! cannot index out of bounds or loop, every number is finite, every
//! bounding volume is well formed (non-negative sizes:
//! [`BoundingVolume::is_well_formed`]), the header's build fields agree with
//! the tree, and every volume contains its subtree's triangles
//! ([`soundness`](super::soundness)).

use std::ops::Range;

use ccd_bv::{BoundingVolume, Real};
use rayon::prelude::*;

use super::cast::{cast_nodes, cast_plain};
use super::enclose::Enclose;
use super::header::{FileInfo, Sections};
use super::soundness::verify_containment;
use crate::{Face, FileError, Node};

/// Verifies the blocks of `bytes` for the scalar and volume types recorded
/// in the header.
pub(crate) fn verify_any(bytes: &[u8], s: &Sections) -> Result<(), FileError> {
    crate::with_types!(s.info.scalar, s.info.bv, |T, B| verify::<T, B>(bytes, s))
}

fn corrupt(what: impl Into<String>) -> FileError {
    FileError::Corrupt(what.into())
}

/// The node, face and vertex blocks of a file, typed.
pub(crate) type Blocks<'a, T, B> = (&'a [Node<T, B>], &'a [Face], &'a [[T; 3]]);

/// The typed blocks of a parsed file; an error if a block cannot be cast.
pub(crate) fn blocks<'a, T: Real, B: BoundingVolume<T>>(
    bytes: &'a [u8],
    s: &Sections,
) -> Result<Blocks<'a, T, B>, FileError> {
    let nodes = cast_nodes::<T, B>(&bytes[s.nodes.clone()])
        .ok_or_else(|| corrupt("node block misaligned"))?;
    let faces = cast_plain::<Face>(&bytes[s.faces.clone()])
        .ok_or_else(|| corrupt("face block misaligned"))?;
    let vertices = cast_plain::<[T; 3]>(&bytes[s.vertices.clone()])
        .ok_or_else(|| corrupt("vertex block misaligned"))?;
    Ok((nodes, faces, vertices))
}

fn verify<T: Real, B: Enclose<T>>(bytes: &[u8], s: &Sections) -> Result<(), FileError> {
    let (nodes, faces, vertices) = blocks::<T, B>(bytes, s)?;
    if nodes.is_empty() || faces.is_empty() || vertices.is_empty() {
        return Err(corrupt("empty node, face or vertex block"));
    }
    // The four checks read disjoint data; run them side by side.
    let ((tree, face_refs), (vertices_in_range, sound_volumes)) = rayon::join(
        || {
            rayon::join(
                || verify_tree(nodes, faces.len(), &s.info),
                || verify_faces(faces, vertices.len()),
            )
        },
        || {
            rayon::join(
                || crate::build::check_vertices(vertices).is_ok(),
                || {
                    nodes
                        .par_chunks(4096)
                        .all(|c| c.iter().fold(true, |ok, n| ok & n.bv.is_well_formed()))
                },
            )
        },
    );
    let spans = tree?;
    face_refs?;
    if !vertices_in_range {
        let culprit = crate::build::check_vertices(vertices)
            .err()
            .map_or_else(String::new, |e| e.to_string());
        return Err(corrupt(format!("vertex block: {culprit}")));
    }
    if !sound_volumes {
        return Err(corrupt(
            "bounding volume with a non-finite parameter or a negative size",
        ));
    }
    verify_containment(nodes, faces, vertices, &spans)
}

/// Children after their parent and in bounds, one parent per non-root node,
/// leaves covering every face exactly once, every node's faces contiguous
/// (its children's ranges adjacent), and the header's build fields matching:
/// leaves within the leaf size, internal nodes above it (the builder splits
/// exactly those), and the recorded depth. Returns every node's face slots
/// ([`verify_spans`]).
fn verify_tree<T: Real, B>(
    nodes: &[Node<T, B>],
    face_count: usize,
    info: &FileInfo,
) -> Result<Vec<Range<usize>>, FileError> {
    let n = nodes.len();
    let leaf_size = info.options.leaf_size as usize;
    let mut has_parent = vec![false; n];
    let mut covered = vec![false; face_count];
    let mut depth = vec![0u32; n];
    for (i, node) in nodes.iter().enumerate() {
        if node.is_leaf() {
            let r = node.leaf_faces();
            if r.end > face_count || r.len() > leaf_size {
                return Err(corrupt(format!(
                    "leaf {i} has faces {r:?} (faces: {face_count}, leaf size {leaf_size})"
                )));
            }
            for f in r {
                if std::mem::replace(&mut covered[f], true) {
                    return Err(corrupt(format!("face slot {f} is in two leaves")));
                }
            }
        } else {
            let c = node.first_child();
            if c <= i || c >= n - 1 {
                return Err(corrupt(format!(
                    "node {i} has children {c}, {} (nodes: {n})",
                    c.wrapping_add(1)
                )));
            }
            for child in [c, c + 1] {
                if std::mem::replace(&mut has_parent[child], true) {
                    return Err(corrupt(format!("node {child} has two parents")));
                }
                depth[child] = depth[i] + 1;
            }
        }
    }
    if has_parent[1..].iter().any(|p| !p) {
        return Err(corrupt("a node is not reachable from the root"));
    }
    if covered.iter().any(|c| !c) {
        return Err(corrupt("a face is in no leaf"));
    }
    let levels = depth.iter().max().map_or(0, |&d| d as usize + 1);
    if levels != info.depth {
        return Err(corrupt(format!(
            "the header records depth {}, the tree has {levels} levels",
            info.depth
        )));
    }
    verify_spans(nodes, leaf_size)
}

/// Every internal node's faces are its first child's followed by its
/// second child's, and more than `leaf_size` of them. Requires the checks of
/// [`verify_tree`]'s first pass (children after parents, in bounds). Returns
/// every node's face slots (its subtree's faces).
pub(crate) fn verify_spans<T: Real, B>(
    nodes: &[Node<T, B>],
    leaf_size: usize,
) -> Result<Vec<Range<usize>>, FileError> {
    let mut span = vec![0..0; nodes.len()];
    for (i, node) in nodes.iter().enumerate().rev() {
        span[i] = if node.is_leaf() {
            node.leaf_faces()
        } else {
            let c = node.first_child();
            let (Range { start: a, end: b }, Range { start: b2, end: e }) =
                (span[c].clone(), span[c + 1].clone());
            if b != b2 {
                return Err(corrupt(format!(
                    "node {i}: its children's faces {a}..{b} and {b2}..{e} are not adjacent"
                )));
            }
            if e - a <= leaf_size {
                return Err(corrupt(format!(
                    "node {i} holds {} faces, within the recorded leaf size {leaf_size}, but is not a leaf",
                    e - a
                )));
            }
            a..e
        };
    }
    Ok(span)
}

/// Vertex indices in bounds and ids a permutation of `0..faces`.
fn verify_faces(faces: &[Face], vertex_count: usize) -> Result<(), FileError> {
    let mut seen = vec![false; faces.len()];
    for (i, f) in faces.iter().enumerate() {
        if f.vertices.iter().any(|&v| v as usize >= vertex_count) {
            return Err(corrupt(format!("face {i} refers to a vertex out of range")));
        }
        match seen.get_mut(f.id as usize) {
            Some(s) if !*s => *s = true,
            _ => {
                return Err(corrupt(format!(
                    "face {i} has an invalid or repeated id {}",
                    f.id
                )));
            }
        }
    }
    Ok(())
}

//! Semantic validation of a structurally valid archive: after it, a view
//! cannot index out of bounds or loop, every number is finite, every
//! bounding volume is well formed (non-negative sizes:
//! [`BoundingVolume::is_well_formed`]), the header's build fields agree with
//! the tree ([`walk`](super::walk)), and every volume contains its subtree's
//! triangles ([`soundness`](super::soundness)).

use ccd_bv::{BoundingVolume, Real};

use super::PREAMBLE_LEN;
use super::cast::{cast_nodes, cast_plain};
use super::checksum::Chunks;
use super::enclose::Enclose;
use super::header::Sections;
use super::soundness::verify_containment;
use super::walk::{NodeChunks, walk_tree};
use crate::{Face, FileError, Node};

/// Verifies the blocks of `bytes` for the scalar and volume types recorded
/// in the header.
/// `chunks` is the payload's checksum, whose chunks are hashed as the nodes are read.
pub(crate) fn verify_any(bytes: &[u8], s: &Sections, chunks: &Chunks<'_>) -> Result<(), FileError> {
    crate::with_types!(s.info.scalar, s.info.bv, |T, B| verify::<T, B>(
        bytes, s, chunks
    ))
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

fn verify<T: Real, B: Enclose<T>>(
    bytes: &[u8],
    s: &Sections,
    chunks: &Chunks<'_>,
) -> Result<(), FileError> {
    let (nodes, faces, vertices) = blocks::<T, B>(bytes, s)?;
    if nodes.is_empty() || faces.is_empty() || vertices.is_empty() {
        return Err(corrupt("empty node, face or vertex block"));
    }
    // The tree walk (parallel itself) runs beside the checks of the faces and vertices; the containment proof
    // needs both.
    let leaf_size = s.info.options.leaf_size as usize;
    let (tree, blocks) = rayon::join(
        || {
            let hashing = NodeChunks {
                chunks,
                offset: s.nodes.start - PREAMBLE_LEN,
            };
            walk_tree(nodes, faces.len(), leaf_size, s.info.depth, Some(hashing))
        },
        || {
            let (face_refs, vertices_in_range) = rayon::join(
                || verify_faces(faces, vertices.len()),
                || crate::build::check_vertices(vertices).is_ok(),
            );
            face_refs?;
            if !vertices_in_range {
                let culprit = crate::build::check_vertices(vertices)
                    .err()
                    .map_or_else(String::new, |e| e.to_string());
                return Err(corrupt(format!("vertex block: {culprit}")));
            }
            Ok(())
        },
    );
    let spans = tree?;
    blocks?;
    verify_containment(nodes, faces, vertices, &spans)
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

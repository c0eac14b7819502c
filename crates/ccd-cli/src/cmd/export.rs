//! `ccd collide --export FILE.ply`: both posed meshes in one PLY file, the contacting triangles coloured.
//!
//! The file is ASCII PLY 1.0 with unshared vertices (three per triangle), so per-vertex colours show the faces'
//! colours exactly in viewers that read only vertex colours (Blender), and with face colours too (MeshLab).
//! Triangles come in the callers' order: A's triangle `i` is face `i`, B's triangle `j` is face `n_a + j`.

use std::fmt::Write as _;
use std::path::Path;

use anyhow::{Result, anyhow};
use ccd::nalgebra::{Isometry3, Point3};
use ccd::{ContactPair, Hierarchy, Real};

/// Colour of a triangle of A that is in contact.
pub const A_CONTACT: [u8; 3] = [220, 30, 30];
/// Colour of a triangle of B that is in contact.
pub const B_CONTACT: [u8; 3] = [255, 150, 0];
/// Colour of A's other triangles.
pub const A_FREE: [u8; 3] = [170, 170, 190];
/// Colour of B's other triangles.
pub const B_FREE: [u8; 3] = [190, 190, 170];

/// Writes `a` at `pose_a` and `b` at `pose_b` (world frame) to `path`, colouring the triangles of `contacts`.
///
/// # Errors
/// The file cannot be written, or a model lacks one of its own triangle ids (a `.bvh` file opened unchecked).
pub fn write_ply<T: Real, A: Hierarchy<Scalar = T>, B: Hierarchy<Scalar = T>>(
    path: &Path,
    (a, pose_a): (&A, &Isometry3<T>),
    (b, pose_b): (&B, &Isometry3<T>),
    contacts: &[ContactPair],
) -> Result<()> {
    let (na, nb) = (a.faces().len(), b.faces().len());
    let mut colours = [vec![A_FREE; na], vec![B_FREE; nb]];
    for c in contacts {
        colours[0][c.a as usize] = A_CONTACT;
        colours[1][c.b as usize] = B_CONTACT;
    }
    let mut text = String::new();
    let faces = na + nb;
    // Writing to a String cannot fail.
    let _ = write!(
        text,
        "ply\nformat ascii 1.0\n\
         comment ccd collide --export: faces 0..{na} are model A's triangles in its input order, \
         faces {na}..{faces} model B's; contacting triangles red (A) and orange (B)\n\
         element vertex {}\nproperty double x\nproperty double y\nproperty double z\n\
         property uchar red\nproperty uchar green\nproperty uchar blue\n\
         element face {faces}\nproperty list uchar uint vertex_indices\n\
         property uchar red\nproperty uchar green\nproperty uchar blue\nend_header\n",
        3 * faces
    );
    posed_vertices(&mut text, a, pose_a, &colours[0], "A")?;
    posed_vertices(&mut text, b, pose_b, &colours[1], "B")?;
    for (f, [r, g, b]) in colours.iter().flatten().enumerate() {
        let v = 3 * f;
        let _ = writeln!(text, "3 {} {} {} {r} {g} {b}", v, v + 1, v + 2);
    }
    ccd::replace_file(path, text.as_bytes()).map_err(|e| super::cannot_write(path, e))
}

/// Appends the vertex lines of `model`'s triangles, in id order, placed at `pose`.
fn posed_vertices<T: Real, H: Hierarchy<Scalar = T>>(
    text: &mut String,
    model: &H,
    pose: &Isometry3<T>,
    colours: &[[u8; 3]],
    name: &str,
) -> Result<()> {
    for (id, [r, g, b]) in colours.iter().enumerate() {
        let tri = model
            .triangle_by_id(id as u32)
            .ok_or_else(|| anyhow!("model {name} has no triangle {id}"))?;
        for v in tri {
            let p = pose.transform_point(&Point3::from(v));
            let [x, y, z] = [p.x, p.y, p.z].map(|c| c.to_f64_exact());
            let _ = writeln!(text, "{x:?} {y:?} {z:?} {r} {g} {b}");
        }
    }
    Ok(())
}

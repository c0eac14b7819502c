//! Building a model from the mesh types other code already has.
//!
//! ```text
//! cargo run --release -p ccd-mesh --example from_buffers
//! ```
//!
//! [`Model::new`] takes `Vec<[T; 3]>` vertices and `&[[u32; 3]]` triangles. This example converts from
//! nalgebra `Point3` vertices, from flat position and index buffers (as a GPU or file loader hands them out),
//! and from a `(Vec<Point3<f64>>, Vec<[u32; 3]>)` pair, the layout of parry's `TriMesh::new` arguments (so a
//! parry user passes `trimesh.vertices()` and `trimesh.indices()`). The check: all three give the same contacts
//! against a probe, and malformed buffers give typed errors.

mod common;

use ccd::nalgebra::{Isometry3, Point3};
use ccd::{BuildError, CollideRequest, Error, Model};

/// From nalgebra points and index triples.
fn from_points(points: &[Point3<f64>], triangles: &[[u32; 3]]) -> Result<Model, Error> {
    Model::new(points.iter().map(|p| [p.x, p.y, p.z]).collect(), triangles)
}

/// From flat buffers: `positions` holds x, y, z per vertex, `indices` three vertex indices per triangle.
fn from_flat(positions: &[f64], indices: &[u32]) -> Result<Model, Box<dyn std::error::Error>> {
    if !positions.len().is_multiple_of(3) || !indices.len().is_multiple_of(3) {
        return Err(format!(
            "flat buffers must hold whole triples: {} positions, {} indices",
            positions.len(),
            indices.len()
        )
        .into());
    }
    let vertices = positions
        .chunks_exact(3)
        .map(|p| [p[0], p[1], p[2]])
        .collect();
    let triangles: Vec<[u32; 3]> = indices
        .chunks_exact(3)
        .map(|t| [t[0], t[1], t[2]])
        .collect();
    Ok(Model::new(vertices, &triangles)?)
}

/// From a parry-`TriMesh`-style pair of points and index triples.
fn from_trimesh_parts(
    (points, indices): (Vec<Point3<f64>>, Vec<[u32; 3]>),
) -> Result<Model, Error> {
    from_points(&points, &indices)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let (vertices, triangles) = common::sphere(1.0, 10, 20);
    let points: Vec<Point3<f64>> = vertices.iter().map(|&v| Point3::from(v)).collect();
    let positions: Vec<f64> = vertices.iter().flatten().copied().collect();
    let indices: Vec<u32> = triangles.iter().flatten().copied().collect();

    let models = [
        from_points(&points, &triangles)?,
        from_flat(&positions, &indices)?,
        from_trimesh_parts((points.clone(), triangles.clone()))?,
    ];
    let probe: Model = Model::new(vertices, &triangles)?;
    let pose = Isometry3::translation(1.2, 0.3, 0.0);
    let contacts: Vec<_> = models
        .iter()
        .map(|m| {
            ccd::collide(
                m,
                &Isometry3::identity(),
                &probe,
                &pose,
                &CollideRequest::all(),
            )
        })
        .collect::<Result<_, _>>()?;
    println!(
        "{} contacts from each of the three builds",
        contacts[0].contacts.len()
    );
    assert!(contacts[0].is_colliding());
    assert!(
        contacts.iter().all(|c| c.contacts == contacts[0].contacts),
        "the builds disagree"
    );

    // Malformed input is an error, never a panic.
    assert!(from_flat(&positions[..positions.len() - 1], &indices).is_err());
    let too_far = u32::try_from(points.len())?;
    let bad = from_points(&points, &[[0, 1, too_far]]);
    assert!(
        matches!(
            bad,
            Err(Error::Build(BuildError::FaceIndexOutOfRange { .. }))
        ),
        "got {bad:?}"
    );
    Ok(())
}

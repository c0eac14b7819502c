//! Load two mesh files and collide them.
//!
//! ```text
//! cargo run --release -p ccd-mesh --example collide_files                 # writes two small files to a temp dir
//! cargo run --release -p ccd-mesh --example collide_files -- A.obj B.ply   # your files (OBJ, STL or PLY)
//! ```
//!
//! Each mesh is loaded with [`Model::from_mesh_file`] (the format is chosen by the extension), B is placed at a
//! few offsets along x, and the contacts are printed. The check: the first-contact query agrees with the
//! all-contacts query at every offset, and the meshes collide where they overlap and not where they are far apart.

mod common;

use std::path::PathBuf;

use ccd::nalgebra::Isometry3;
use ccd::{BuildOptions, CollideRequest, Hierarchy, Model};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<PathBuf> = std::env::args_os().skip(1).map(PathBuf::from).collect();
    let (path_a, path_b) = match args.as_slice() {
        [a, b] => (a.clone(), b.clone()),
        [] => write_sample_files()?,
        _ => return Err("usage: collide_files [MESH_A MESH_B]".into()),
    };
    let a: Model = Model::from_mesh_file(&path_a, &BuildOptions::default())?;
    let b: Model = Model::from_mesh_file(&path_b, &BuildOptions::default())?;
    println!("A: {} ({} triangles)", path_a.display(), a.faces().len());
    println!("B: {} ({} triangles)", path_b.display(), b.faces().len());

    let mut colliding_offsets = Vec::new();
    for offset in [0.0, 0.5, 1.0, 1.5, 2.0, 100.0] {
        let pose_b = Isometry3::translation(offset, 0.0, 0.0);
        let all = ccd::collide(
            &a,
            &Isometry3::identity(),
            &b,
            &pose_b,
            &CollideRequest::all(),
        )?;
        let first = ccd::collide(
            &a,
            &Isometry3::identity(),
            &b,
            &pose_b,
            &CollideRequest::first(),
        )?;
        println!(
            "B at x = {offset:5}: {} contacts, {:?}",
            all.contacts.len(),
            all.stats
        );
        assert_eq!(
            all.is_colliding(),
            first.is_colliding(),
            "first and all disagree at x = {offset}"
        );
        if let Some(c) = first.contacts.first() {
            assert!(
                all.contacts.contains(c),
                "the first contact is not among all contacts"
            );
            colliding_offsets.push(offset);
        }
    }
    // 100 units apart is beyond any sample mesh; the sample meshes overlap at x = 0.
    assert!(
        !colliding_offsets.contains(&100.0),
        "meshes 100 units apart collide"
    );
    if args.is_empty() {
        assert!(
            colliding_offsets.contains(&0.0),
            "the sample meshes should overlap at x = 0"
        );
    }
    Ok(())
}

/// Writes a unit sphere as OBJ and a cube of side 1.2 as ASCII STL into a temporary directory.
fn write_sample_files() -> std::io::Result<(PathBuf, PathBuf)> {
    let dir =
        std::env::temp_dir().join(format!("ccd-example-collide-files-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;

    let (vertices, triangles) = common::sphere(1.0, 12, 24);
    let mut obj = String::new();
    for v in &vertices {
        obj += &format!("v {} {} {}\n", v[0], v[1], v[2]);
    }
    for t in &triangles {
        obj += &format!("f {} {} {}\n", t[0] + 1, t[1] + 1, t[2] + 1); // OBJ indices start at 1
    }
    let sphere = dir.join("sphere.obj");
    std::fs::write(&sphere, obj)?;

    let corner = |i: u32| {
        [
            1.2 * f64::from(i & 1),
            1.2 * f64::from(i >> 1 & 1),
            1.2 * f64::from(i >> 2 & 1),
        ]
    };
    let faces = [
        [0, 2, 1],
        [1, 2, 3],
        [4, 5, 6],
        [5, 7, 6],
        [0, 1, 4],
        [1, 5, 4],
    ];
    let faces = faces.into_iter().chain([
        [2, 6, 3],
        [3, 6, 7],
        [0, 4, 2],
        [2, 4, 6],
        [1, 3, 5],
        [3, 7, 5],
    ]);
    let mut stl = String::from("solid cube\n");
    for f in faces {
        stl += "  facet normal 0 0 0\n    outer loop\n";
        for i in f {
            let p = corner(i);
            stl += &format!("      vertex {} {} {}\n", p[0], p[1], p[2]);
        }
        stl += "    endloop\n  endfacet\n";
    }
    stl += "endsolid cube\n";
    let cube = dir.join("cube.stl");
    std::fs::write(&cube, stl)?;
    Ok((sphere, cube))
}

//! Any bytes → a mesh file → `ccd::io::read_mesh` → `Model::new` must
//! return `Ok` or `Err`, never panic. The first byte picks the format
//! (0: OBJ, 1: STL, 2: PLY, modulo 3); the rest is the file.

#![no_main]

use std::path::PathBuf;

use libfuzzer_sys::fuzz_target;

const EXTENSIONS: [&str; 3] = ["obj", "stl", "ply"];

fn scratch_file(extension: &str) -> PathBuf {
    std::env::temp_dir().join(format!(
        "ccd-fuzz-load-mesh-{}.{extension}",
        std::process::id()
    ))
}

fuzz_target!(|data: &[u8]| {
    let Some((&selector, body)) = data.split_first() else {
        return;
    };
    let path = scratch_file(EXTENSIONS[usize::from(selector) % EXTENSIONS.len()]);
    std::fs::write(&path, body).expect("the scratch file can be written");
    let loaded = ccd::io::read_mesh(&path);
    let _ = std::fs::remove_file(&path);
    if let Ok(mesh) = loaded {
        let model = ccd::Model::<f64>::new(mesh.vertices, &mesh.triangles);
        if let Ok(model) = model {
            use ccd::Hierarchy;
            assert_eq!(model.faces().len(), mesh.triangles.len());
        }
    }
});

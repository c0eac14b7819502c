//! Paths of the repository's fixture files (`fixtures/` at the workspace root), for every crate's tests.

use std::path::{Path, PathBuf};

/// `fixtures/<relative>` at the workspace root (whether or not the file exists: tests of missing files use it
/// too).
pub fn fixture(relative: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../fixtures")
        .join(relative)
}

/// `fixtures/meshes/<name>`: a mesh fixture (see `fixtures/meshes/README.md` for their provenance).
pub fn mesh_fixture(name: &str) -> PathBuf {
    fixture("meshes").join(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_lead_to_the_fixture_files() {
        assert!(mesh_fixture("cube.obj").is_file());
        assert!(fixture("bvh").is_dir());
        assert_eq!(mesh_fixture("cube.obj"), fixture("meshes/cube.obj"));
    }
}

//! Reading is bounded by the file: binary STL counts must match the file's length, PLY counts must
//! fit in it, devices and pipes are refused before a byte is read, and over-long files are refused
//! by their size. Each refusal is a typed error naming the file and the offending value.

use std::path::{Path, PathBuf};

use ccd::io::{MAX_MESH_FILE_BYTES, read_mesh, read_ply, read_stl};
use ccd::{Error, MeshData, MeshError};
use ccd_testkit::SplitMix64;
use proptest::prelude::*;

/// A fresh scratch directory for one test.
fn scratch(test: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("ccd-mesh-limits")
        .join(test);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

type Triangle = [[f32; 3]; 3];

/// `count` triangles with distinct seeded corners.
fn triangles(seed: u64, count: usize) -> Vec<Triangle> {
    let mut rng = SplitMix64::new(seed);
    (0..count)
        .map(|_| [(); 3].map(|()| [(); 3].map(|()| rng.range(-10.0, 10.0) as f32)))
        .collect()
}

/// A binary STL: an 80-byte header starting with `header`, the `declared` count, then `triangles`
/// (zero normals, zero attributes).
fn binary_stl(header: &[u8], declared: u32, triangles: &[Triangle]) -> Vec<u8> {
    let mut bytes = [b' '; 80].to_vec();
    bytes[..header.len()].copy_from_slice(header);
    bytes.extend(declared.to_le_bytes());
    for t in triangles {
        bytes.extend([0u8; 12]);
        for c in t.as_flattened() {
            bytes.extend(c.to_le_bytes());
        }
        bytes.extend([0u8; 2]);
    }
    bytes
}

/// The triangles of `mesh` as corner coordinates.
fn corners(mesh: &MeshData) -> Vec<[[f64; 3]; 3]> {
    mesh.triangles
        .iter()
        .map(|t| t.map(|i| mesh.vertices[i as usize]))
        .collect()
}

fn widen(triangles: &[Triangle]) -> Vec<[[f64; 3]; 3]> {
    triangles
        .iter()
        .map(|t| t.map(|c| c.map(f64::from)))
        .collect()
}

/// Writes `bytes` to `dir/name` and reads it by extension.
fn read_bytes(dir: &Path, name: &str, bytes: &[u8]) -> Result<MeshData, Error> {
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    read_mesh(&path)
}

/// Asserts that `e` prints as one line `<path>: <message>` for a file called `name`.
fn assert_message(e: &Error, name: &str, message: &str) {
    let text = e.to_string();
    assert!(!text.contains('\n'), "multi-line message: {text:?}");
    assert!(text.ends_with(&format!("{name}: {message}")), "{text:?}");
}

#[test]
fn exact_binary_stl_reads_the_written_triangles() {
    let dir = scratch("exact");
    let written = triangles(1, 3);
    for header in [&b""[..], b"solid exported by a binary writer"] {
        let mesh = read_bytes(&dir, "exact.stl", &binary_stl(header, 3, &written)).unwrap();
        assert_eq!(corners(&mesh), widen(&written));
        assert_eq!(mesh.vertices.len(), 9);
    }
}

#[test]
fn binary_stl_declaring_fewer_triangles_than_it_holds_is_refused() {
    let dir = scratch("fewer");
    let written = triangles(2, 3);
    for header in [&b""[..], b"solid", b"solid cube"] {
        let e = read_bytes(&dir, "cube.stl", &binary_stl(header, 1, &written)).unwrap_err();
        assert!(
            matches!(
                &e,
                Error::Mesh(MeshError::StlCountMismatch {
                    declared: 1,
                    bytes: 234,
                    holds: Some(3),
                    ..
                })
            ),
            "{e:?}"
        );
        assert_message(
            &e,
            "cube.stl",
            "binary STL header declares 1 triangle but the file holds 3 (234 bytes)",
        );
    }
}

#[test]
fn binary_stl_declaring_more_triangles_than_it_holds_is_refused() {
    let dir = scratch("more");
    let written = triangles(3, 1);
    for header in [&b""[..], b"solid cube"] {
        let e = read_bytes(&dir, "cube.stl", &binary_stl(header, 3, &written)).unwrap_err();
        assert!(
            matches!(
                &e,
                Error::Mesh(MeshError::StlCountMismatch {
                    declared: 3,
                    bytes: 134,
                    holds: Some(1),
                    ..
                })
            ),
            "{e:?}"
        );
        assert_message(
            &e,
            "cube.stl",
            "binary STL header declares 3 triangles but the file holds 1 (134 bytes)",
        );
    }
    // A length that is no whole number of triangles, and a count past any file.
    let mut ragged = binary_stl(b"", 3, &triangles(3, 3));
    ragged.extend([1u8; 7]);
    let e = read_bytes(&dir, "ragged.stl", &ragged).unwrap_err();
    assert_message(
        &e,
        "ragged.stl",
        "binary STL header declares 3 triangles (234 bytes) but the file has 241 bytes, \
         not an 84-byte header and whole 50-byte triangles",
    );
    let e = read_bytes(&dir, "huge.stl", &binary_stl(b"", u32::MAX, &written)).unwrap_err();
    assert!(
        matches!(
            &e,
            Error::Mesh(MeshError::StlCountMismatch {
                declared: u32::MAX,
                bytes: 134,
                holds: Some(1),
                ..
            })
        ),
        "{e:?}"
    );
}

proptest! {
    /// A binary STL is read exactly when its length matches its count, and then yields the
    /// triangles written; otherwise the error reports the declared count and the length.
    #[test]
    fn binary_stl_reads_only_when_count_and_length_agree(
        declared in 0u32..8,
        held in 0usize..8,
        extra in 0usize..50,
        solid in any::<bool>(),
        seed in any::<u64>(),
    ) {
        let dir = scratch("property");
        let written = triangles(seed, held);
        let mut bytes = binary_stl(if solid { b"solid x" } else { b"" }, declared, &written);
        bytes.extend(std::iter::repeat_n(7u8, extra));
        let len = bytes.len() as u64;
        match read_bytes(&dir, "p.stl", &bytes) {
            Ok(mesh) => {
                prop_assert_eq!((declared as usize, extra), (held, 0));
                prop_assert_eq!(corners(&mesh), widen(&written));
            }
            Err(Error::Mesh(MeshError::StlCountMismatch { declared: d, bytes: b, holds, .. })) => {
                prop_assert!(declared as usize != held || extra != 0);
                prop_assert_eq!((d, b), (declared, len));
                let whole = (len - 84).is_multiple_of(50);
                prop_assert_eq!(holds, whole.then_some((len - 84) / 50));
            }
            Err(e) => prop_assert!(false, "unexpected error {e:?}"),
        }
    }
}

/// Reads through a link named `name` to `target`, by extension.
#[cfg(target_os = "linux")]
fn read_via_link(dir: &Path, name: &str, target: &Path) -> Result<MeshData, Error> {
    let link = dir.join(name);
    std::os::unix::fs::symlink(target, &link).unwrap();
    read_mesh(&link)
}

#[cfg(target_os = "linux")]
#[test]
fn dev_zero_is_refused_before_reading() {
    let dir = scratch("dev-zero");
    for name in ["zero.obj", "zero.stl", "zero.ply"] {
        let e = read_via_link(&dir, name, Path::new("/dev/zero")).unwrap_err();
        assert!(
            matches!(
                &e,
                Error::Mesh(MeshError::NotAFile {
                    kind: "a character device",
                    ..
                })
            ),
            "{name}: {e:?}"
        );
        assert_message(
            &e,
            name,
            "not a regular file but a character device; mesh files must be regular files",
        );
    }
}

#[cfg(target_os = "linux")]
#[test]
fn pipes_and_directories_are_refused_without_blocking() {
    let dir = scratch("special");
    // A pipe without a writer: opening it would block forever.
    let fifo = dir.join("pipe.obj");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    let e = read_mesh(&fifo).unwrap_err();
    assert!(
        matches!(&e, Error::Mesh(MeshError::NotAFile { kind: "a pipe", .. })),
        "{e:?}"
    );
    let folder = dir.join("folder.stl");
    std::fs::create_dir(&folder).unwrap();
    let e = read_mesh(&folder).unwrap_err();
    assert!(
        matches!(
            &e,
            Error::Mesh(MeshError::NotAFile {
                kind: "a directory",
                ..
            })
        ),
        "{e:?}"
    );
}

#[test]
fn files_past_the_limit_are_refused_by_their_size() {
    let dir = scratch("too-large");
    let path = dir.join("sparse.stl");
    // Sparse: no block is written, and none is read.
    let file = std::fs::File::create(&path).unwrap();
    file.set_len(MAX_MESH_FILE_BYTES + 1).unwrap();
    let e = read_stl(&path).unwrap_err();
    assert!(
        matches!(
            &e,
            Error::Mesh(MeshError::FileTooLarge { bytes, max, .. })
                if *bytes == MAX_MESH_FILE_BYTES + 1 && *max == MAX_MESH_FILE_BYTES
        ),
        "{e:?}"
    );
    assert_message(
        &e,
        "sparse.stl",
        "the file has 17179869185 bytes, more than the 17179869184 bytes a mesh file may have",
    );
}

/// An ASCII PLY header with `vertices` vertices and `faces` triangles.
fn ascii_ply_header(vertices: &str, faces: &str) -> String {
    format!(
        "ply\nformat ascii 1.0\nelement vertex {vertices}\nproperty float x\nproperty float y\n\
         property float z\nelement face {faces}\nproperty list uchar int vertex_indices\nend_header\n"
    )
}

#[test]
fn ply_counts_past_the_file_are_refused() {
    let dir = scratch("ply-counts");
    let body = "0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n";
    let good = ascii_ply_header("3", "1") + body;
    let mesh = read_bytes(&dir, "good.ply", good.as_bytes()).unwrap();
    assert_eq!(mesh.triangles, [[0, 1, 2]]);

    let absurd = ascii_ply_header("1000000000000", "1") + body;
    let e = read_bytes(&dir, "absurd.ply", absurd.as_bytes()).unwrap_err();
    assert!(
        matches!(
            &e,
            Error::Mesh(MeshError::PlyCountTooLarge { element, count: 1_000_000_000_000, needs: 3_000_000_000_000, available: 26, .. })
                if element == "vertex"
        ),
        "{e:?}"
    );
    assert_message(
        &e,
        "absurd.ply",
        "the PLY header declares 1000000000000 `vertex` elements, which with the elements before \
         them take at least 3000000000000 bytes, but 26 bytes follow the header",
    );
    // The largest count the header grammar takes: the byte count saturates, still refused.
    let max = ascii_ply_header("3", &usize::MAX.to_string()) + body;
    let e = read_bytes(&dir, "max.ply", max.as_bytes()).unwrap_err();
    assert!(
        matches!(&e, Error::Mesh(MeshError::PlyCountTooLarge { element, needs: u64::MAX, .. }) if element == "face"),
        "{e:?}"
    );
}

/// A binary little-endian PLY of `declared` float vertices (12 bytes each) with `payload` bytes
/// after the header.
fn binary_vertex_ply(declared: usize, payload: usize) -> Vec<u8> {
    let mut bytes = format!(
        "ply\nformat binary_little_endian 1.0\nelement vertex {declared}\nproperty float x\n\
         property float y\nproperty float z\nend_header\n"
    )
    .into_bytes();
    bytes.extend(std::iter::repeat_n(0u8, payload));
    bytes
}

#[test]
fn binary_ply_count_is_checked_against_the_exact_payload() {
    let dir = scratch("ply-binary");
    for declared in [1, 5, 1000] {
        let path = dir.join("v.ply");
        std::fs::write(&path, binary_vertex_ply(declared, 12 * declared)).unwrap();
        let mesh = read_ply(&path).unwrap();
        assert_eq!(mesh.vertices, vec![[0.0; 3]; declared]);

        std::fs::write(&path, binary_vertex_ply(declared, 12 * declared - 1)).unwrap();
        let e = read_ply(&path).unwrap_err();
        let (needs, available) = ((12 * declared) as u64, (12 * declared - 1) as u64);
        assert!(
            matches!(
                &e,
                Error::Mesh(MeshError::PlyCountTooLarge { count, needs: n, available: a, .. })
                    if *count == declared as u64 && (*n, *a) == (needs, available)
            ),
            "{e:?}"
        );
    }
}

//! `.bvh` files: round trips, memory mapping, and robustness against
//! truncated, damaged and foreign input.

use ccd_bv::{Aabb, BoundingVolume, FitMethod, Obb, Real, Rss, Sphere};
use ccd_bvh::archive::{CHECKSUM_OFFSET, FORMAT_VERSION, MAGIC};
use ccd_bvh::{BuildMethod, BuildOptions, BvhFile, BvhView, FileError, Hierarchy, ScalarKind};
use ccd_testkit::{Mesh, SplitMix64, icosphere, latlong, random_soup, sprinkle_degenerate};

mod support;
use support::{Aligned, node_slots, reseal, tree};

fn assert_same<T: Real, B: BoundingVolume<T> + PartialEq>(
    a: &impl Hierarchy<Scalar = T, Bv = B>,
    b: &impl Hierarchy<Scalar = T, Bv = B>,
) {
    assert_eq!(a.nodes(), b.nodes());
    assert_eq!(a.faces(), b.faces());
    assert_eq!(a.vertices(), b.vertices());
}

fn round_trip<T: Real, B: BoundingVolume<T> + PartialEq>(mesh: &Mesh, options: &BuildOptions) {
    let owned = tree::<T, B>(mesh, options);
    let bytes = Aligned::new(&owned.to_bytes().unwrap());
    let view = BvhView::<T, B>::from_bytes(bytes.bytes()).unwrap();
    assert_same(&owned, &view);
    let info = view.info();
    assert_eq!(
        (info.scalar, info.bv, info.version),
        (ScalarKind::of::<T>(), B::KIND, FORMAT_VERSION)
    );
    assert_eq!(
        (info.nodes, info.faces, info.vertices),
        (
            owned.nodes().len(),
            owned.faces().len(),
            owned.vertices().len()
        )
    );
    assert_eq!(
        (info.options.leaf_size, info.options.fit, info.depth),
        (options.leaf_size, options.fit, owned.stats().depth)
    );
}

/// Trees whose largest nodes are built from gathered ranges (`BoundingVolume::from_ranges`) pass the validated
/// open's containment proof at the ends of each scalar type's supported range: an icosphere of 1,280 triangles
/// scaled to `2^k`, with a coordinate of every third vertex a supported length far below the mesh's scale.
#[test]
fn range_built_trees_pass_the_containment_proof_at_every_scale() {
    fn at_scale<T: Real>(k: i32, tiny: bool) {
        let mesh = icosphere(3, 1.0).at_scale(k, tiny.then_some(T::LIMITS.length_min * 4.0));
        let owned = tree::<T, Obb<T>>(&mesh, &BuildOptions::default());
        let bytes = Aligned::new(&owned.to_bytes().unwrap());
        let view = BvhView::<T, Obb<T>>::from_bytes(bytes.bytes());
        assert!(view.is_ok(), "{} at 2^{k}: {:?}", T::NAME, view.err());
    }
    for tiny in [false, true] {
        for k in [-127, -60, 0, 60, 126] {
            at_scale::<f64>(k, tiny);
        }
        for k in [-39, 0, 39] {
            at_scale::<f32>(k, tiny);
        }
    }
}

#[test]
fn every_type_round_trips_through_bytes() {
    let mesh = icosphere(2, 1.5);
    for (leaf_size, method) in [1, 5]
        .into_iter()
        .flat_map(|l| [BuildMethod::Fast, BuildMethod::Reference].map(|m| (l, m)))
    {
        for fit in [FitMethod::HullSurface, FitMethod::TriangleSurface] {
            let o = BuildOptions {
                leaf_size,
                fit,
                method,
                ..BuildOptions::default()
            };
            round_trip::<f32, Obb<f32>>(&mesh, &o);
            round_trip::<f64, Obb<f64>>(&mesh, &o);
            round_trip::<f32, Aabb<f32>>(&mesh, &o);
            round_trip::<f64, Aabb<f64>>(&mesh, &o);
            round_trip::<f32, Sphere<f32>>(&mesh, &o);
            round_trip::<f64, Sphere<f64>>(&mesh, &o);
            round_trip::<f32, Rss<f32>>(&mesh, &o);
            round_trip::<f64, Rss<f64>>(&mesh, &o);
        }
    }
}

/// Trees of the default (fast) build pass the containment proof of a
/// validated open on meshes that exercise every frame rule: curved (hull and
/// covariance frames), with degenerate triangles, flat (planar frames), and
/// scaled far outside the unscaled statistics window.
#[test]
fn fast_trees_pass_the_containment_proof() {
    let mut rng = SplitMix64::new(5);
    let mut degenerate = latlong(12, 20, 1.0);
    sprinkle_degenerate(&mut degenerate, &mut rng, 30);
    let flat = Mesh {
        vertices: (0..64)
            .map(|i| [f64::from(i % 8) * 0.3, f64::from(i / 8) * 0.2, 0.5])
            .collect(),
        triangles: (0..49u32)
            .flat_map(|c| {
                let (x, y) = (c % 7, c / 7);
                let v = y * 8 + x;
                [[v, v + 1, v + 9], [v, v + 9, v + 8]]
            })
            .collect(),
    };
    let soup = random_soup(&mut rng, 300, 2.0, 0.7);
    for mesh in [icosphere(3, 1.0), degenerate, flat, soup] {
        for fit in [FitMethod::HullSurface, FitMethod::TriangleSurface] {
            for leaf_size in [1, 4] {
                let o = BuildOptions {
                    leaf_size,
                    fit,
                    ..BuildOptions::default()
                };
                round_trip::<f32, Obb<f32>>(&mesh, &o);
                round_trip::<f64, Obb<f64>>(&mesh, &o);
                round_trip::<f32, Rss<f32>>(&mesh, &o);
                round_trip::<f64, Aabb<f64>>(&mesh, &o);
                round_trip::<f32, Sphere<f32>>(&mesh, &o);
                for scale in [1e-30, 1e30] {
                    round_trip::<f64, Obb<f64>>(&mesh.clone().scaled(scale), &o);
                }
            }
        }
    }
}

#[test]
fn saved_files_map_checked_and_unchecked() {
    let dir = std::env::temp_dir().join(format!("ccd-bvh-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("sphere.bvh");
    let owned = tree::<f32, Obb<f32>>(&icosphere(3, 1.0), &BuildOptions::default());
    owned.save(&path).unwrap();
    let file = BvhFile::open(&path).unwrap();
    assert_same(&owned, &file.view::<f32, Obb<f32>>().unwrap());
    assert!(matches!(
        file.view::<f64, Obb<f64>>(),
        Err(FileError::WrongKind { .. })
    ));
    assert!(matches!(
        file.view::<f32, Aabb<f32>>(),
        Err(FileError::WrongKind { .. })
    ));
    // SAFETY: the file was written by `save` just above and is not altered.
    let unchecked = unsafe { BvhFile::open_unchecked(&path) }.unwrap();
    assert_same(&owned, &unchecked.view::<f32, Obb<f32>>().unwrap());
    let mapped = BvhFile::open(&path)
        .unwrap()
        .into_typed::<f32, Obb<f32>>()
        .unwrap();
    assert_same(&owned, &mapped);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn foreign_empty_and_newer_files_are_refused() {
    let dir = std::env::temp_dir().join(format!("ccd-bvh-foreign-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let obj = dir.join("mesh.obj");
    std::fs::write(&obj, "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n").unwrap();
    assert!(matches!(BvhFile::open(&obj), Err(FileError::NotABvhFile)));
    let empty = dir.join("empty.bvh");
    std::fs::write(&empty, b"").unwrap();
    assert!(matches!(BvhFile::open(&empty), Err(FileError::NotABvhFile)));
    assert!(matches!(
        BvhFile::open(dir.join("missing.bvh")),
        Err(FileError::Io { .. })
    ));
    let mut newer = tree::<f64, Obb<f64>>(&icosphere(1, 1.0), &BuildOptions::default())
        .to_bytes()
        .unwrap();
    newer[8..12].copy_from_slice(&(FORMAT_VERSION + 1).to_le_bytes());
    let path = dir.join("newer.bvh");
    std::fs::write(&path, &newer).unwrap();
    match BvhFile::open(&path) {
        Err(e @ FileError::VersionMismatch { found, supported }) => {
            assert_eq!((found, supported), (FORMAT_VERSION + 1, FORMAT_VERSION));
            assert!(e.to_string().contains("version"), "{e}");
        }
        other => panic!("expected a version error, got {other:?}"),
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

fn small_archive() -> Vec<u8> {
    let mesh = random_soup(&mut SplitMix64::new(5), 6, 1.0, 0.5);
    tree::<f32, Obb<f32>>(&mesh, &BuildOptions::default())
        .to_bytes()
        .unwrap()
}

#[test]
fn every_truncation_is_a_typed_error() {
    let bytes = small_archive();
    assert!(bytes.starts_with(&MAGIC));
    for len in 0..bytes.len() {
        let cut = Aligned::new(&bytes[..len]);
        match BvhView::<f32, Obb<f32>>::from_bytes(cut.bytes()) {
            Ok(_) => panic!(
                "a file truncated to {len} of {} bytes was accepted",
                bytes.len()
            ),
            Err(e) => {
                let msg = e.to_string();
                assert!(
                    !msg.contains("0x") && !msg.contains('\n'),
                    "unclear message at {len}: {msg}"
                );
            }
        }
    }
}

#[test]
fn random_bit_flips_never_crash() {
    let bytes = small_archive();
    let mut rng = SplitMix64::new(99);
    let (mut refused, mut accepted) = (0, 0);
    for _ in 0..10_000 {
        let mut damaged = bytes.clone();
        for _ in 0..=rng.below(3) {
            let bit = rng.below(8 * bytes.len() as u64);
            damaged[(bit / 8) as usize] ^= 1 << (bit % 8);
        }
        let buf = Aligned::new(&damaged);
        match BvhView::<f32, Obb<f32>>::from_bytes(buf.bytes()) {
            Err(e) => {
                assert!(!e.to_string().is_empty());
                refused += 1;
            }
            Ok(view) => {
                // Still valid: every query must run to completion.
                let stats = view.stats();
                assert_eq!(stats.nodes, view.nodes().len());
                let pose = ccd_bv::Pose::identity();
                let hits = view
                    .nodes()
                    .iter()
                    .filter(|n| n.bv.overlaps(&view.nodes()[0].bv, &pose))
                    .count();
                assert!(hits <= view.nodes().len());
                accepted += 1;
            }
        }
    }
    assert!(
        refused > 1000,
        "only {refused} of 10000 damaged files were refused ({accepted} accepted)"
    );
}

/// Overwrites the first occurrence of `pattern` in `bytes` with `with` (panics if absent) and stores the new
/// payload checksum, as a deliberate edit would: the tree verification, not the checksum, must refuse it.
fn patch(bytes: &mut [u8], pattern: &[u8], with: &[u8]) {
    let at = bytes
        .windows(pattern.len())
        .position(|w| w == pattern)
        .expect("pattern present in the archive");
    bytes[at..at + with.len()].copy_from_slice(with);
    reseal(bytes);
}

/// A flipped bit anywhere in the payload is reported as damage, naming the file, also where the damage breaks
/// the tree or the archive (the root node's link and volume at the start of the payload, the archive's root
/// record at its end), which validation reads while it computes the checksum; files of the previous format
/// version (no checksum) are refused with a version error.
#[test]
fn damage_is_detected_by_the_checksum() {
    let dir = std::env::temp_dir().join(format!("ccd-bvh-damage-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bytes = small_archive();
    let path = dir.join("damaged.bvh");
    let payload = CHECKSUM_OFFSET + 16;
    let ends = (payload..payload + 128).chain(bytes.len() - 64..bytes.len());
    for at in ends.chain([bytes.len() / 2]) {
        let mut damaged = bytes.clone();
        damaged[at] ^= 0x04;
        std::fs::write(&path, &damaged).unwrap();
        match BvhFile::open(&path) {
            Err(e @ FileError::ChecksumMismatch { .. }) => {
                let msg = e.to_string();
                assert!(
                    msg.contains("checksum mismatch: the file is damaged")
                        && msg.contains("damaged.bvh"),
                    "{msg}"
                );
            }
            other => panic!("byte {at}: expected a checksum error, got {other:?}"),
        }
    }
    let mut old = bytes.clone();
    old[8..12].copy_from_slice(&1u32.to_le_bytes());
    std::fs::write(&path, &old).unwrap();
    assert!(matches!(
        BvhFile::open(&path),
        Err(FileError::VersionMismatch { found: 1, .. })
    ));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// In a file of several checksum chunks (1 MiB each), which validation hashes in the order it reads them, a bit
/// flipped in any chunk (nodes, faces, vertices, the archive's root record) is reported as damage; the intact
/// file opens.
#[test]
fn damage_in_any_chunk_is_detected() {
    let mesh = icosphere(5, 1.0);
    let bytes = tree::<f64, Obb<f64>>(&mesh, &BuildOptions::default())
        .to_bytes()
        .unwrap();
    let chunk = 1 << 20;
    assert!(bytes.len() > 4 * chunk, "{} bytes", bytes.len());
    let at_once =
        |b: &[u8]| BvhView::<f64, Obb<f64>>::from_bytes(Aligned::new(b).bytes()).map(|_| ());
    at_once(&bytes).unwrap();
    let payload = CHECKSUM_OFFSET + 16;
    let mut rng = SplitMix64::new(3);
    let within = |k: usize, rng: &mut SplitMix64| {
        (payload + k * chunk + rng.below(chunk as u64) as usize).min(bytes.len() - 1)
    };
    let mut places: Vec<usize> = (0..bytes.len().div_ceil(chunk) - 1)
        .map(|k| within(k, &mut rng))
        .collect();
    // The archive's root record, the vertices and the faces at the end.
    places.extend([
        bytes.len() - 1,
        bytes.len() - 200_000,
        bytes.len() - 400_000,
    ]);
    for at in places {
        let mut damaged = bytes.clone();
        damaged[at] ^= 0x10;
        assert!(
            matches!(at_once(&damaged), Err(FileError::ChecksumMismatch { .. })),
            "byte {at}"
        );
    }
}

/// The header's build fields must agree with the tree: an edited depth or leaf size is refused even with a
/// matching checksum.
#[test]
fn edited_header_fields_are_refused() {
    let mesh = icosphere(2, 1.0);
    let bvh = tree::<f32, Obb<f32>>(&mesh, &BuildOptions::default());
    let bytes = bvh.to_bytes().unwrap();
    let view = BvhView::<f32, Obb<f32>>::from_bytes(Aligned::new(&bytes).bytes())
        .map(|v| *v.info())
        .unwrap();
    // The image starts with scalar, bv, fit (u8 each), then leaf size and depth (u32, 4-aligned). rkyv places
    // the root at the end of the archive; find it by its known field values.
    let header = |leaf: u32, depth: u32| {
        let mut h = vec![0u8, 2, 0, 0];
        h.extend_from_slice(&leaf.to_le_bytes());
        h.extend_from_slice(&depth.to_le_bytes());
        h
    };
    let original = header(1, view.depth as u32);
    for (edited, what) in [
        (header(1, view.depth as u32 + 1), "depth"),
        (header(2, view.depth as u32), "leaf size"),
    ] {
        let mut b = bytes.clone();
        patch(&mut b, &original, &edited);
        let e = BvhView::<f32, Obb<f32>>::from_bytes(Aligned::new(&b).bytes()).unwrap_err();
        assert!(e.to_string().contains(what), "{e}");
    }
}

/// A volume that no longer contains its triangles (shrunk, moved, its axes turned) is refused, for leaves and
/// for internal nodes, with every volume type.
#[test]
fn volumes_missing_their_triangles_are_refused() {
    let mesh = icosphere(2, 1.0);
    let o = BuildOptions::default();
    shrink_each_node::<f64, Obb<f64>>(&mesh, &o, true, |b| b.half[0] *= 0.99);
    shrink_each_node::<f32, Obb<f32>>(&mesh, &o, true, |b| b.center[1] += b.half[1] * 0.05 + 1e-3);
    shrink_each_node::<f64, Aabb<f64>>(&mesh, &o, true, |b| b.half[2] *= 0.97);
    shrink_each_node::<f32, Sphere<f32>>(&mesh, &o, true, |b| b.radius *= 0.98);
    shrink_each_node::<f64, Rss<f64>>(&mesh, &o, true, |b| {
        b.radius *= 0.5;
        b.half = b.half.map(|h| h * 0.5);
    });
    // Turning a leaf's flat box about its longest axis tilts it out of the triangle's plane.
    shrink_each_node::<f64, Obb<f64>>(&mesh, &o, false, |b| {
        let (c, s) = (0.3f64.cos(), 0.3f64.sin());
        let (a1, a2) = (b.rot[1], b.rot[2]);
        b.rot[1] = std::array::from_fn(|k| c * a1[k] + s * a2[k]);
        b.rot[2] = std::array::from_fn(|k| c * a2[k] - s * a1[k]);
    });
}

/// Applies `edit` to one node at a time (the root, an internal node, a leaf) and checks that the resealed file
/// is refused (the root's edit only where it still makes the root miss a triangle: turning the root box of a
/// sphere leaves the sphere inside).
fn shrink_each_node<T: Real, B: BoundingVolume<T> + PartialEq>(
    mesh: &Mesh,
    options: &BuildOptions,
    with_root: bool,
    edit: impl Fn(&mut B),
) {
    let bvh = tree::<T, B>(mesh, options);
    let bytes = bvh.to_bytes().unwrap();
    let nodes = bvh.nodes();
    let leaf = nodes.iter().position(|n| n.is_leaf()).unwrap();
    for i in [0, 1, leaf].into_iter().skip(usize::from(!with_root)) {
        let mut bv = nodes[i].bv;
        edit(&mut bv);

        let mut b = bytes.clone();
        patch(
            &mut b,
            bytemuck::bytes_of(&nodes[i].bv),
            bytemuck::bytes_of(&bv),
        );
        match BvhView::<T, B>::from_bytes(Aligned::new(&b).bytes()) {
            Err(FileError::Corrupt(msg)) => assert!(
                msg.contains("does not contain") || msg.contains("orthonormal"),
                "node {i}: {msg}"
            ),
            other => panic!(
                "{} node {i}: expected a refusal, got {:?}",
                B::KIND.name(),
                other.map(|_| "an accepted file")
            ),
        }
    }
}

/// Volumes the tests would not be sound for (a negative half-extent, a negative sphere radius) are refused at
/// open, with a message that says so.
#[test]
fn malformed_volumes_are_refused() {
    let mesh = icosphere(1, 1.0);
    let f64s = |xs: &[f64]| xs.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>();
    let obb = tree::<f64, Obb<f64>>(&mesh, &BuildOptions::default());
    let root = obb.nodes()[0].bv;
    let bytes = obb.to_bytes().unwrap();
    let a = Aligned::new(&bytes);
    assert!(BvhView::<f64, Obb<f64>>::from_bytes(a.bytes()).is_ok());
    let mut neg = bytes.clone();
    patch(&mut neg, &f64s(&root.half), &f64s(&[-root.half[0]]));
    let a = Aligned::new(&neg);
    let e = BvhView::<f64, Obb<f64>>::from_bytes(a.bytes()).unwrap_err();
    assert!(e.to_string().contains("negative size"), "{e}");
    let sph = tree::<f64, Sphere<f64>>(&mesh, &BuildOptions::default());
    let r = sph.nodes()[0].bv;
    let mut neg = sph.to_bytes().unwrap();
    let whole = [r.center[0], r.center[1], r.center[2], r.radius];
    patch(
        &mut neg,
        &f64s(&whole),
        &f64s(&[r.center[0], r.center[1], r.center[2], -r.radius]),
    );
    let a = Aligned::new(&neg);
    let e = BvhView::<f64, Sphere<f64>>::from_bytes(a.bytes()).unwrap_err();
    assert!(e.to_string().contains("negative size"), "{e}");
}

/// How far `p` lies outside the box `b` (its largest `|a_j·(p − c)| − h_j`; negative inside), in `f64`.
fn excess(b: &Obb<f64>, p: [f64; 3]) -> f64 {
    let d: [f64; 3] = std::array::from_fn(|k| p[k] - b.center[k]);
    (0..3)
        .map(|j| (0..3).map(|k| b.rot[j][k] * d[k]).sum::<f64>().abs() - b.half[j])
        .fold(f64::NEG_INFINITY, f64::max)
}

/// The verdict brute force expects for an edited file of `nodes`, `faces` and `vertices`: `Some(false)` if a
/// corner of some node's faces lies clearly outside the node's box, `Some(true)` if every corner that the edit
/// moved (`moved`) lies clearly inside every box around it and no box was edited, `None` if too close to call.
/// Also returns the face counts of the nodes a corner escapes.
fn brute_force(
    nodes: &[ccd_bvh::Node<f64, Obb<f64>>],
    faces: &[ccd_bvh::Face],
    vertices: &[[f64; 3]],
    moved: Option<u32>,
) -> (Option<bool>, Vec<usize>) {
    const CLEAR: f64 = 1e-9;
    let mut escaped = Vec::new();
    let mut close = false;
    for (node, slots) in nodes.iter().zip(node_slots(nodes)) {
        let len = slots.len();
        let worst = faces[slots]
            .iter()
            .flat_map(|f| f.vertices)
            .filter(|&v| moved.is_none_or(|m| m == v))
            .map(|v| excess(&node.bv, vertices[v as usize]))
            .fold(f64::NEG_INFINITY, f64::max);
        if worst > CLEAR {
            escaped.push(len);
        } else if worst > -CLEAR {
            close = true;
        }
    }
    let verdict = if !escaped.is_empty() {
        Some(false)
    } else if close || moved.is_none() {
        None
    } else {
        Some(true)
    };
    (verdict, escaped)
}

/// The containment proof of a validated open refuses exactly the files in which brute force (every corner of
/// every node's faces against the node's box) finds a vertex outside a volume: one vertex moved in a random
/// direction by 1e-7 to 1e-2, or one node's box shrunk, moved or grown, for leaves, small internal nodes
/// (tested corner by corner) and large ones (tested through the distinct vertices of the small nodes below
/// them). Grown boxes must pass.
#[test]
fn the_containment_proof_agrees_with_brute_force() {
    let mesh = icosphere(3, 1.0);
    let bvh = tree::<f64, Obb<f64>>(&mesh, &BuildOptions::default());
    let (nodes, faces) = (bvh.nodes(), bvh.faces());
    let bytes = bvh.to_bytes().unwrap();
    let verdict = |b: &[u8]| match BvhView::<f64, Obb<f64>>::from_bytes(Aligned::new(b).bytes()) {
        Ok(_) => true,
        Err(FileError::Corrupt(msg)) if msg.contains("does not contain") => false,
        Err(e) => panic!("unexpected error {e}"),
    };
    let mut rng = SplitMix64::new(12);
    // (refused with a small node escaped, refused with only large nodes escaped, accepted)
    let (mut small, mut large, mut accepted) = (0, 0, 0);
    let mut tally = |expected: Option<bool>, escaped: &[usize], got: bool| {
        if let Some(e) = expected {
            assert_eq!(got, e, "escaped nodes of sizes {escaped:?}");
            match (got, escaped.iter().min()) {
                (true, _) => accepted += 1,
                (false, Some(&m)) if m <= 16 => small += 1,
                (false, _) => large += 1,
            }
        }
    };
    for _ in 0..120 {
        let v = (rng.next_u64() % mesh.vertices.len() as u64) as u32;
        let size = 10f64.powf(-7.0 + 5.0 * rng.next_f64());
        let mut vertices = bvh.vertices().to_vec();
        let old = vertices[v as usize];
        vertices[v as usize] =
            std::array::from_fn(|k| old[k] + size * (2.0 * rng.next_f64() - 1.0));
        let (expected, escaped) = brute_force(nodes, faces, &vertices, Some(v));
        // The vertex block is the archive's last, and an axis of a box can equal a vertex of the unit sphere.
        let mut b = bytes.clone();
        let at = b
            .windows(24)
            .rposition(|w| w == bytemuck::bytes_of(&old))
            .unwrap();
        b[at..at + 24].copy_from_slice(bytemuck::bytes_of(&vertices[v as usize]));
        reseal(&mut b);
        tally(expected, &escaped, verdict(&b));
    }
    let slots = node_slots(nodes);
    for (i, node) in nodes.iter().enumerate() {
        // Every large node, every small internal node of 8 or more faces, one leaf in 16.
        if !(slots[i].len() >= 8 || i % 16 == 0) {
            continue;
        }
        let axis = i % 3;
        for edit in 0..3 {
            let mut bv = node.bv;
            match edit {
                0 => bv.half[axis] *= 0.999,
                1 => bv.center = std::array::from_fn(|k| bv.center[k] + 1e-4 * bv.rot[axis][k]),
                _ => bv.half[axis] *= 1.01,
            }
            let mut edited = nodes.to_vec();
            edited[i].bv = bv;
            let (mut expected, escaped) = brute_force(&edited, faces, bvh.vertices(), None);
            if edit == 2 {
                // Growing a box keeps every corner inside it; nothing else changed.
                assert!(escaped.is_empty());
                expected = Some(true);
            }
            let mut b = bytes.clone();
            patch(
                &mut b,
                bytemuck::bytes_of(&node.bv),
                bytemuck::bytes_of(&bv),
            );
            tally(expected, &escaped, verdict(&b));
        }
    }
    assert!(
        small > 50 && large > 20 && accepted > 100,
        "{small} {large} {accepted}"
    );
}

/// A file of `mesh` (f64 AABBs built with leaf size `leaf`) with its node links replaced by `links` (the
/// original node count), every volume set to the root's (which holds every triangle, so that only the tree
/// checks can refuse the file) and `depth` in the header, resealed and opened validated.
fn with_links(mesh: &Mesh, leaf: u32, links: &[u64], depth: u32) -> Result<(), FileError> {
    let options = BuildOptions {
        leaf_size: leaf,
        ..BuildOptions::default()
    };
    let bvh = tree::<f64, Aabb<f64>>(mesh, &options);
    let nodes = bvh.nodes();
    assert_eq!(links.len(), nodes.len());
    let mut bytes = bvh.to_bytes().unwrap();
    let node = |link: u64| [bytemuck::bytes_of(&nodes[0].bv), &link.to_le_bytes()].concat();
    let first = node(nodes[0].link());
    let at = bytes.windows(first.len()).position(|w| w == first).unwrap();
    for (k, &link) in links.iter().enumerate() {
        let b = node(link);
        bytes[at + k * b.len()..][..b.len()].copy_from_slice(&b);
    }
    // scalar f64 (1), AABB (1), fit (0), padding; leaf size; depth.
    let header = |d: u32| {
        [
            [1u8, 1, 0, 0].as_slice(),
            &leaf.to_le_bytes(),
            &d.to_le_bytes(),
        ]
        .concat()
    };
    patch(
        &mut bytes,
        &header(bvh.stats().depth as u32),
        &header(depth),
    );
    BvhView::<f64, Aabb<f64>>::from_bytes(Aligned::new(&bytes).bytes()).map(|_| ())
}

fn leaf_link(first: usize, count: usize) -> u64 {
    ccd_bvh::Node::<f64, ()>::leaf((), first, count)
        .unwrap()
        .link()
}

/// The links of a chain: every internal node's first child a leaf, the leaves holding `sizes` faces from slot
/// 0 on (`sizes.len()` levels).
fn chain(sizes: &[usize]) -> Vec<u64> {
    let mut links = vec![0; 2 * sizes.len() - 1];
    let mut start = 0;
    for (k, &s) in sizes.iter().enumerate() {
        if k + 1 < sizes.len() {
            links[2 * k] = 2 * k as u64 + 1;
            links[2 * k + 1] = leaf_link(start, s);
        } else {
            links[2 * k] = leaf_link(start, s);
        }
        start += s;
    }
    links
}

/// Trees deeper than any build of their face count (a chain, on which the containment proof would take
/// quadratic time) are refused before the proof, naming the header's depth; chains within the bound are
/// verified as any tree.
#[test]
fn chains_deeper_than_a_build_are_refused() {
    let mesh = icosphere(2, 1.0);
    let faces = mesh.triangles.len();
    let deep = chain(&vec![1; faces]);
    // 320 faces: at most 64 + 1 + ⌈log2 320⌉ = 74 levels.
    let e = with_links(&mesh, 1, &deep, faces as u32).unwrap_err();
    assert!(
        e.to_string()
            .contains("records depth 320, more than the 74 levels"),
        "{e}"
    );
    let e = with_links(&mesh, 1, &deep, 74).unwrap_err();
    assert!(
        e.to_string()
            .contains("records depth 74, the tree has more levels"),
        "{e}"
    );

    // A chain within the bound (leaves of 1 or 2 faces, leaf size 2) is accepted, and refused once its last
    // face is in no leaf.
    let mesh = icosphere(1, 1.0);
    let faces = mesh.triangles.len();
    let options = BuildOptions {
        leaf_size: 2,
        ..BuildOptions::default()
    };
    let leaves = tree::<f64, Aabb<f64>>(&mesh, &options)
        .nodes()
        .len()
        .div_ceil(2);
    let sizes = |total: usize| {
        let mut s = vec![1; leaves];
        s[leaves - (total - leaves)..].fill(2);
        s
    };
    assert!(leaves <= 72 && faces - leaves <= leaves, "{leaves} leaves");
    with_links(&mesh, 2, &chain(&sizes(faces)), leaves as u32).unwrap();
    let e = with_links(&mesh, 2, &chain(&sizes(faces - 1)), leaves as u32).unwrap_err();
    assert!(e.to_string().contains("a face is in no leaf"), "{e}");
}

/// Every tree defect is refused by the walk: a node with two parents (and so another without any), children
/// before their parent or out of bounds, a leaf beyond the faces or above the leaf size, faces out of order.
#[test]
fn malformed_trees_are_refused() {
    let mesh = icosphere(1, 1.0);
    let bvh = tree::<f64, Aabb<f64>>(&mesh, &BuildOptions::default());
    let (nodes, depth) = (bvh.nodes(), bvh.stats().depth as u32);
    let links: Vec<u64> = nodes.iter().map(|n| n.link()).collect();
    with_links(&mesh, 1, &links, depth).unwrap();
    let n = nodes.len();
    // An internal node below the root whose first child is internal too.
    let internal = (1..n)
        .find(|&i| !nodes[i].is_leaf() && !nodes[nodes[i].first_child()].is_leaf())
        .unwrap();
    let leaves: Vec<usize> = (0..n).filter(|&i| nodes[i].is_leaf()).collect();
    let (first, last) = (leaves[0], leaves[leaves.len() - 1]);
    let faces = mesh.triangles.len();
    // A shared child is found either as a node reached twice or as the same faces twice side by side,
    // whichever of the parallel tasks gets there first.
    let shared = "two parents|not adjacent";
    let edits: [(&str, Vec<(usize, u64)>); 8] = [
        (shared, vec![(2, links[1])]),
        (
            shared,
            vec![(internal, links[nodes[internal].first_child()])],
        ),
        ("not reachable", vec![(0, leaf_link(0, 1))]),
        ("has children", vec![(0, n as u64 - 1)]),
        ("has children", vec![(internal, internal as u64)]),
        ("leaf", vec![(first, leaf_link(faces, 1))]),
        ("leaf size", vec![(first, leaf_link(0, 2))]),
        (
            "not adjacent",
            vec![(first, links[last]), (last, links[first])],
        ),
    ];
    for (what, edit) in edits {
        let mut l = links.clone();
        for &(i, link) in &edit {
            l[i] = link;
        }
        let e = with_links(&mesh, 1, &l, depth).unwrap_err().to_string();
        assert!(what.split('|').any(|w| e.contains(w)), "{what}: {e}");
    }
}

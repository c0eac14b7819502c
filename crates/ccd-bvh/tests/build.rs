//! Structural invariants of built trees (Gottschalk 2000, §3.1 and §7.2).

use ccd_bv::{Aabb, BoundingVolume, FitMethod, Obb, Real, Rss, Sphere};
use ccd_bvh::{BuildError, BuildMethod, BuildOptions, Bvh, Hierarchy, NodeKind};
use ccd_testkit::{Mesh, SplitMix64, icosphere, latlong, random_soup, sprinkle_degenerate};

/// Both build methods, the default first.
const METHODS: [BuildMethod; 2] = [BuildMethod::Fast, BuildMethod::Reference];
use proptest::prelude::*;

fn convert<T: Real>(mesh: &Mesh) -> Vec<[T; 3]> {
    mesh.vertices.iter().map(|p| p.map(T::lit)).collect()
}

/// Checks every structural invariant of a built tree against its input.
fn check_tree<T: Real, B: BoundingVolume<T>>(
    bvh: &Bvh<T, B>,
    vertices: &[[T; 3]],
    triangles: &[[u32; 3]],
) {
    let (nodes, faces) = (bvh.nodes(), bvh.faces());
    let leaf_size = bvh.options().leaf_size as usize;
    // Faces are a permutation of the input, with their vertices intact.
    let mut seen = vec![false; triangles.len()];
    for f in faces {
        assert!(!seen[f.id as usize], "face {} appears twice", f.id);
        seen[f.id as usize] = true;
        assert_eq!(f.vertices, triangles[f.id as usize]);
    }
    assert!(seen.iter().all(|&s| s));
    assert_eq!(bvh.vertices(), vertices);
    // Every face in exactly one leaf; children after parents; ranges nest.
    let mut owner = vec![usize::MAX; faces.len()];
    let mut parent_count = vec![0u32; nodes.len()];
    for (i, n) in nodes.iter().enumerate() {
        match n.kind() {
            NodeKind::Leaf { faces: r } => {
                assert!(r.len() <= leaf_size);
                for f in r {
                    assert_eq!(owner[f], usize::MAX, "face slot {f} in two leaves");
                    owner[f] = i;
                    for v in faces[f].vertices {
                        assert!(
                            n.bv.contains_point(&vertices[v as usize], T::zero()),
                            "node {i} misses vertex {v}"
                        );
                    }
                }
            }
            NodeKind::Internal { first_child: c } => {
                assert!(c > i && c + 1 < nodes.len());
                parent_count[c] += 1;
                parent_count[c + 1] += 1;
                let (l, r, me) = (bvh.face_range(c), bvh.face_range(c + 1), bvh.face_range(i));
                assert_eq!(
                    (l.start, l.end, r.end),
                    (me.start, r.start, me.end),
                    "children must partition node {i}"
                );
                for f in me {
                    for v in faces[f].vertices {
                        assert!(
                            n.bv.contains_point(&vertices[v as usize], T::zero()),
                            "node {i} misses vertex {v}"
                        );
                    }
                }
            }
        }
    }
    assert!(
        owner.iter().all(|&o| o != usize::MAX),
        "a face is in no leaf"
    );
    assert_eq!(parent_count[0], 0);
    assert!(
        parent_count[1..].iter().all(|&c| c == 1),
        "every non-root node has exactly one parent"
    );
    if leaf_size == 1 {
        assert_eq!(nodes.len(), 2 * triangles.len() - 1);
    }
    assert_eq!(bvh.face_range(0), 0..faces.len());
    // The depth-first layout: each internal node's children are the next free
    // pair when it is reached in a depth-first walk, left subtree first.
    let (mut next, mut stack) = (1, vec![0]);
    while let Some(i) = stack.pop() {
        if let NodeKind::Internal { first_child: c } = nodes[i].kind() {
            assert_eq!(c, next, "node {i}: children not at the next free pair");
            next += 2;
            stack.extend([c + 1, c]);
        }
    }
    assert_eq!(next, nodes.len());
}

fn build_and_check<T: Real, B: BoundingVolume<T>>(
    mesh: &Mesh,
    options: &BuildOptions,
) -> Bvh<T, B> {
    let vertices = convert::<T>(mesh);
    let bvh = Bvh::<T, B>::build(vertices.clone(), &mesh.triangles, options).expect("valid mesh");
    check_tree(&bvh, &vertices, &mesh.triangles);
    bvh
}

#[test]
fn sphere_meshes_satisfy_invariants_for_every_volume_and_scalar() {
    let meshes = [icosphere(2, 1.0), latlong(9, 18, 2.0)];
    for mesh in &meshes {
        for method in METHODS {
            for leaf_size in [1, 3, 16] {
                for fit in [FitMethod::HullSurface, FitMethod::TriangleSurface] {
                    let o = BuildOptions {
                        leaf_size,
                        fit,
                        method,
                        ..BuildOptions::default()
                    };
                    build_and_check::<f64, Obb<f64>>(mesh, &o);
                    build_and_check::<f32, Obb<f32>>(mesh, &o);
                    build_and_check::<f64, Rss<f64>>(mesh, &o);
                }
                let o = BuildOptions {
                    leaf_size,
                    method,
                    ..BuildOptions::default()
                };
                build_and_check::<f64, Aabb<f64>>(mesh, &o);
                build_and_check::<f32, Sphere<f32>>(mesh, &o);
            }
        }
    }
}

/// Trees with nodes of more than 512 triangles, whose OBBs the default build makes from the ranges their
/// subtrees gather instead of from their vertices: every vertex inside every node above it as `contains_point`
/// evaluates it, in `f64` and `f32`, sequential and parallel, near the origin and far from it (where the
/// rounding of the centre dominates the slack), with several leaf sizes.
#[test]
fn large_nodes_built_from_ranges_contain_their_vertices() {
    let mut far = latlong(30, 40, 1e-2);
    for p in &mut far.vertices {
        *p = [p[0] + 3e3, p[1] - 7e2, p[2] + 1e4];
    }
    for mesh in [icosphere(4, 1.0), far] {
        for (leaf_size, parallel_threshold) in [(1, usize::MAX), (1, 16), (4, 600)] {
            let o = BuildOptions {
                leaf_size,
                parallel_threshold,
                ..BuildOptions::default()
            };
            build_and_check::<f64, Obb<f64>>(&mesh, &o);
            build_and_check::<f32, Obb<f32>>(&mesh, &o);
        }
    }
}

/// The same at the ends of the supported range of each scalar type: an icosphere of 1,280 triangles (two
/// levels of nodes built from ranges) scaled to `2^k` from the smallest supported scale to the largest, with a
/// coordinate of every third vertex replaced by a supported length far below the mesh's scale.
#[test]
fn large_nodes_built_from_ranges_contain_their_vertices_at_every_scale() {
    fn at_scale<T: Real>(k: i32, tiny: bool) {
        let mesh = icosphere(3, 1.0).at_scale(k, tiny.then_some(T::LIMITS.length_min * 4.0));
        build_and_check::<T, Obb<T>>(&mesh, &BuildOptions::default());
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
fn parallel_build_equals_sequential_build() {
    let mesh = icosphere(4, 1.0);
    for method in METHODS {
        let seq = BuildOptions {
            parallel_threshold: usize::MAX,
            method,
            ..BuildOptions::default()
        };
        let par = BuildOptions {
            parallel_threshold: 16,
            method,
            ..BuildOptions::default()
        };
        let a = build_and_check::<f64, Obb<f64>>(&mesh, &seq);
        let b = build_and_check::<f64, Obb<f64>>(&mesh, &par);
        assert_eq!(a.nodes(), b.nodes());
        assert_eq!(a.faces(), b.faces());
    }
}

/// The same input gives the same tree whatever the number of threads (and
/// whichever thread's vertex marks a node uses), and again when rebuilt in
/// the same pools (marks left over from an earlier build).
#[test]
fn build_is_independent_of_thread_count() {
    let mut rng = SplitMix64::new(13);
    let mut mesh = latlong(17, 30, 1.0);
    sprinkle_degenerate(&mut mesh, &mut rng, 40);
    let o = BuildOptions {
        parallel_threshold: 8,
        ..BuildOptions::default()
    };
    let build = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        let vertices = convert::<f64>(&mesh);
        pool.install(|| {
            (0..2)
                .map(|_| {
                    Bvh::<f64, Obb<f64>>::build(vertices.clone(), &mesh.triangles, &o).unwrap()
                })
                .collect::<Vec<_>>()
        })
    };
    let one = build(1);
    check_tree(&one[0], &convert::<f64>(&mesh), &mesh.triangles);
    for threads in [1, 2, 3, 4] {
        for bvh in build(threads) {
            assert_eq!(bvh.nodes(), one[0].nodes(), "{threads} threads");
            assert_eq!(bvh.faces(), one[0].faces(), "{threads} threads");
        }
    }
}

#[test]
fn adversarial_inputs_terminate_with_bounded_depth() {
    // 300 copies of one triangle: every centroid coincides, so every split
    // falls back to the median and the tree is perfectly balanced.
    let copies = Mesh {
        vertices: vec![[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]],
        triangles: vec![[0, 1, 2]; 300],
    };
    let t = build_and_check::<f64, Obb<f64>>(&copies, &BuildOptions::default());
    assert_eq!(t.stats().depth, 1 + 300f64.log2().ceil() as usize);
    // Zero-area triangles: points and collinear slivers along a line.
    let mut line = Mesh {
        vertices: (0..50).map(|i| [f64::from(i), 0.0, 0.0]).collect(),
        triangles: vec![],
    };
    line.triangles = (0..48)
        .map(|i| [i, i + 1, i + 2])
        .chain((0..50).map(|i| [i, i, i]))
        .collect();
    for leaf_size in [1, 2] {
        let o = BuildOptions {
            leaf_size,
            ..BuildOptions::default()
        };
        build_and_check::<f64, Obb<f64>>(&line, &o);
        build_and_check::<f32, Aabb<f32>>(&line, &o);
        build_and_check::<f64, Sphere<f64>>(&line, &o);
    }
    // Geometric progression along x: mean splits peel one triangle off at a
    // time; the depth must stay bounded by the median fallback.
    let mut spiral = Mesh {
        vertices: vec![],
        triangles: vec![],
    };
    for i in 0..400u32 {
        let x = 1.05f64.powi(i as i32);
        spiral
            .vertices
            .extend([[x, 0.0, 0.0], [x, 1e-3, 0.0], [x, 0.0, 1e-3]]);
        spiral.triangles.push([3 * i, 3 * i + 1, 3 * i + 2]);
    }
    let t = build_and_check::<f64, Obb<f64>>(&spiral, &BuildOptions::default());
    assert!(t.stats().depth <= 64 + 9 + 1, "depth {}", t.stats().depth);
}

#[test]
fn bad_input_is_a_typed_error() {
    let v = vec![[0.0f64, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]];
    let o = BuildOptions::default();
    let build = |v: Vec<[f64; 3]>, t: &[[u32; 3]], o: &BuildOptions| {
        Bvh::<f64, Obb<f64>>::build(v, t, o).map(|_| ())
    };
    assert_eq!(build(vec![], &[[0, 1, 2]], &o), Err(BuildError::NoVertices));
    assert_eq!(build(v.clone(), &[], &o), Err(BuildError::NoTriangles));
    // Neither: the missing triangles are what a faceless mesh file lacks (its unused vertices are dropped).
    assert_eq!(build(vec![], &[], &o), Err(BuildError::NoTriangles));
    assert_eq!(
        build(v.clone(), &[[0, 1, 3]], &o),
        Err(BuildError::FaceIndexOutOfRange {
            face: 0,
            index: 3,
            len: 3
        })
    );
    let mut nan = v.clone();
    nan[1][2] = f64::NAN;
    assert!(matches!(
        build(nan, &[[0, 1, 2]], &o),
        Err(BuildError::VertexOutOfRange { vertex: 1, .. })
    ));
    let mut inf = v.clone();
    inf[2][0] = f64::INFINITY;
    assert!(matches!(
        build(inf, &[[0, 1, 2]], &o),
        Err(BuildError::VertexOutOfRange { vertex: 2, .. })
    ));
    for leaf_size in [0, 17] {
        let bad = BuildOptions { leaf_size, ..o };
        assert_eq!(
            build(v.clone(), &[[0, 1, 2]], &bad),
            Err(BuildError::InvalidLeafSize { leaf_size, max: 16 })
        );
    }
}

/// The reference method's tree: unchanged from earlier versions (this
/// snapshot predates the fast method).
#[test]
fn small_tree_structure_snapshot() {
    snapshot(BuildMethod::Reference);
}

/// The default method's tree.
#[test]
fn small_fast_tree_structure_snapshot() {
    snapshot(BuildMethod::Fast);
}

fn snapshot(method: BuildMethod) {
    let o = BuildOptions {
        method,
        ..BuildOptions::default()
    };
    let bvh = build_and_check::<f64, Obb<f64>>(&icosphere(1, 1.0), &o);
    let depths = bvh.node_depths();
    let mut text = format!("{:?}\n", bvh.stats());
    for (i, n) in bvh.nodes().iter().enumerate() {
        let what = match n.kind() {
            NodeKind::Internal { first_child } => {
                format!("children {first_child},{}", first_child + 1)
            }
            NodeKind::Leaf { faces } => format!(
                "leaf face {} (id {})",
                faces.start,
                bvh.faces()[faces.start].id
            ),
        };
        text += &format!(
            "{i:3} depth {} faces {:?} {what}\n",
            depths[i],
            bvh.face_range(i)
        );
    }
    match method {
        BuildMethod::Reference => insta::assert_snapshot!("small_tree_structure_snapshot", text),
        BuildMethod::Fast => insta::assert_snapshot!("small_fast_tree_structure_snapshot", text),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]
    #[test]
    fn random_soups_satisfy_invariants(seed in any::<u64>(), n in 1usize..120, leaf_size in 1u32..=16) {
        let mut rng = SplitMix64::new(seed);
        let mut mesh = random_soup(&mut rng, n, 2.0, 0.7);
        sprinkle_degenerate(&mut mesh, &mut rng, n / 8);
        for method in METHODS {
            let o = BuildOptions { leaf_size, method, ..BuildOptions::default() };
            build_and_check::<f64, Obb<f64>>(&mesh, &o);
            build_and_check::<f32, Obb<f32>>(&mesh, &o);
            build_and_check::<f64, Aabb<f64>>(&mesh, &o);
            build_and_check::<f64, Sphere<f64>>(&mesh, &o);
            build_and_check::<f32, Rss<f32>>(&mesh, &o);
        }
    }
}

//! The containment proof at its boundary: a box shrunk so that one corner of its subtree lies outside it by
//! less than a few units in the last place is refused, for leaves, small internal nodes (corners tested
//! directly) and large ones (searched through nested volumes), in `f32` and `f64` files.

use ccd_bv::{Obb, Real};
use ccd_bvh::{BuildOptions, Bvh, BvhView, FileError, Hierarchy};
use ccd_testkit::icosphere;

mod support;
use support::{Aligned, node_slots, reseal};

/// Opens `bytes` validated: `Ok` if accepted, the error's message otherwise.
fn open<T: Real>(bytes: &[u8]) -> Result<(), String> {
    match BvhView::<T, Obb<T>>::from_bytes(Aligned::new(bytes).bytes()) {
        Ok(_) => Ok(()),
        Err(FileError::Corrupt(msg)) => Err(msg),
        Err(e) => panic!("unexpected error {e}"),
    }
}

/// The half-extent along axis `j` of `bv` just below the reach of the farthest of `corners` along that axis:
/// the largest value of the file's type below `m − 16ε(m + ‖d‖₁)`, where `m` is the largest `|a_j·d|`
/// (`d = p − c`) evaluated in `f64`. That evaluation (a rounded difference, then a dot product with axes of
/// length about 1) errs by about `2ε‖d‖₁`, far below the `16ε` margin, so the corner lies outside the
/// returned half-extent in exact arithmetic, by about one step of the file's type (`f32`) or at most about a
/// hundred `f64` steps.
fn just_short<T: Real>(bv: &Obb<T>, j: usize, corners: &[[T; 3]]) -> T {
    let c = bv.center.map(T::to_f64_exact);
    let a = bv.rot[j].map(T::to_f64_exact);
    let (mut reach, mut size) = (0.0f64, 0.0f64);
    for p in corners {
        let d: [f64; 3] = std::array::from_fn(|k| p[k].to_f64_exact() - c[k]);
        reach = reach.max(((a[0] * d[0] + a[1] * d[1]) + a[2] * d[2]).abs());
        size = size.max(d[0].abs() + d[1].abs() + d[2].abs());
    }
    let target = reach - 16.0 * f64::EPSILON * (reach + size);
    let mut h = T::lit(target);
    while h.to_f64_exact() > target {
        h = h.step_down();
    }
    h
}

/// Shrinks one node at a time (every node of more than 64 faces, and every 7th other node) along its longest
/// axis to just short of its subtree's farthest corner ([`just_short`]), reseals the file and checks that the
/// validated open refuses it naming that node. Returns how many leaves, small internal nodes (2 to 64 faces)
/// and large nodes were tried.
fn shrunk_nodes_are_refused<T: Real>() -> [usize; 3] {
    let mesh = icosphere(3, 1.0);
    let vertices: Vec<[T; 3]> = mesh.vertices.iter().map(|p| p.map(T::lit)).collect();
    let bvh = Bvh::<T, Obb<T>>::build(vertices, &mesh.triangles, &BuildOptions::default()).unwrap();
    let bytes = bvh.to_bytes().unwrap();
    assert_eq!(open::<T>(&bytes), Ok(()));
    let (nodes, faces, vertices) = (bvh.nodes(), bvh.faces(), bvh.vertices());
    let mut tried = [0; 3];
    for (i, slots) in node_slots(nodes).into_iter().enumerate() {
        let class = match slots.len() {
            1 => 0,
            2..=64 => 1,
            _ => 2,
        };
        if class < 2 && i % 7 != 0 {
            continue;
        }
        let corners: Vec<[T; 3]> = faces[slots]
            .iter()
            .flat_map(|f| f.vertices.map(|v| vertices[v as usize]))
            .collect();
        let bv = nodes[i].bv;
        let j = (0..3)
            .max_by(|&x, &y| bv.half[x].partial_cmp(&bv.half[y]).unwrap())
            .unwrap();
        let mut shrunk = bv;
        shrunk.half[j] = just_short(&bv, j, &corners);
        assert!(shrunk.half[j] < bv.half[j] && shrunk.half[j] >= T::lit(0.0));

        let mut b = bytes.clone();
        let at = b
            .windows(size_of::<Obb<T>>())
            .position(|w| w == bytemuck::bytes_of(&bv))
            .expect("the node's volume in the archive");
        b[at..at + size_of::<Obb<T>>()].copy_from_slice(bytemuck::bytes_of(&shrunk));
        reseal(&mut b);
        match open::<T>(&b) {
            Err(msg) => assert!(
                msg.starts_with(&format!("node {i}: the volume does not contain")),
                "{} node {i}: {msg}",
                T::NAME
            ),
            Ok(()) => panic!(
                "{} node {i} ({} faces) shrunk to {:e} < reach accepted",
                T::NAME,
                corners.len() / 3,
                shrunk.half[j].to_f64_exact()
            ),
        }
        tried[class] += 1;
    }
    tried
}

#[test]
fn boxes_shrunk_past_a_corner_by_an_ulp_are_refused() {
    for tried in [
        shrunk_nodes_are_refused::<f32>(),
        shrunk_nodes_are_refused::<f64>(),
    ] {
        assert!(tried.iter().all(|&n| n >= 10), "{tried:?}");
    }
}

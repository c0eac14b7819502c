//! Volume parameters in `.bvh` files are bounded like the vertices they enclose: a volume edited to lie
//! absurdly far from its triangles is refused at open, though its containment test would overflow and pass it.

use ccd_bv::{Aabb, BoundingVolume, Obb, Real, Rss, Sphere, VOLUME_MAGNITUDE_FACTOR};
use ccd_bvh::{BuildOptions, Bvh, BvhView, FileError, Hierarchy};
use ccd_testkit::{Mesh, icosphere};

mod support;
use support::{Aligned, reseal, tree};

/// The file of `bvh` with node `i`'s volume replaced by `edit` of it, resealed (a deliberate edit: the
/// checksum matches), opened with validation.
fn open_edited<T: Real, B: BoundingVolume<T>>(
    bvh: &Bvh<T, B>,
    i: usize,
    edit: impl Fn(&mut B),
) -> Result<(), FileError> {
    let mut bytes = bvh.to_bytes().unwrap();
    let old = bvh.nodes()[i].bv;
    let mut new = old;
    edit(&mut new);
    let at = bytes
        .windows(size_of::<B>())
        .position(|w| w == bytemuck::bytes_of(&old))
        .expect("the volume is in the file");
    bytes[at..at + size_of::<B>()].copy_from_slice(bytemuck::bytes_of(&new));
    reseal(&mut bytes);
    BvhView::<T, B>::from_bytes(Aligned::new(&bytes).bytes()).map(|_| ())
}

fn assert_refused_for_magnitude(result: Result<(), FileError>, what: &str) {
    match result {
        Err(FileError::Corrupt(msg)) => assert!(
            msg.contains(
                "is out of the supported range: volume numbers must have a magnitude of at most"
            ),
            "{what}: {msg}"
        ),
        other => panic!("{what}: expected a refusal, got {other:?}"),
    }
}

/// The fuzzer's find (`fuzz/README.md`): an RSS whose centre was moved to `x = −2.65e307` passed the point test
/// of every vertex below it (the squared distance and the squared reach both overflowed to infinity) and the
/// file answered collision queries with 13 of its 25 contact pairs. Such a centre, and a sphere that contains
/// its triangles only from `10^200` away, are refused for every volume type, for an internal node and a leaf,
/// while the bound itself and every fitted volume pass.
#[test]
fn volumes_beyond_the_supported_magnitude_are_refused() {
    fn each<T: Real, B: BoundingVolume<T>>(far: impl Fn(&mut B) + Copy) {
        let bvh = tree::<T, B>(&icosphere(1, 1.0), &BuildOptions::default());
        assert!(open_edited(&bvh, 0, |_| ()).is_ok());
        let leaf = bvh.nodes().iter().position(|n| n.is_leaf()).unwrap();
        for i in [1, leaf] {
            let what = format!("{} {} node {i}", T::NAME, B::KIND.name());
            assert_refused_for_magnitude(open_edited(&bvh, i, far), &what);
        }
    }
    // The fuzzer's centre in `f64`; in `f32` (tested in `f64`, where nothing overflows) twice the bound.
    fn far_rss<T: Real>(b: &mut Rss<T>) {
        b.center[0] = T::lit(match T::NAME {
            "f64" => -2.652_744_295_103_653_6e307,
            _ => -2.0 * VOLUME_MAGNITUDE_FACTOR * T::LIMITS.length_max,
        });
    }
    each::<f64, Rss<f64>>(far_rss);
    each::<f32, Rss<f32>>(far_rss);
    fn far<T: Real>(c: &mut [T; 3]) {
        c[0] = T::lit(2.0 * VOLUME_MAGNITUDE_FACTOR * T::LIMITS.length_max);
    }
    each::<f64, Obb<f64>>(|b| far(&mut b.center));
    each::<f32, Aabb<f32>>(|b| far(&mut b.center));
    // Exactly containing, from afar: |p − c| ≤ r for the unit sphere's vertices, and |p − c|² = r² = ∞.
    each::<f64, Sphere<f64>>(|b| {
        b.center = [1e200, 0.0, 0.0];
        b.radius = 1e200 * (1.0 + 4.0 * f64::EPSILON);
    });
}

/// Trees fitted to meshes that reach the largest supported coordinate (an icosphere scaled to it, and a box with
/// corners at `±length_max` in every coordinate, whose diagonal is `√3` times longer) open with validation, for
/// every volume type in `f64` and `f32`: the bound on volume parameters refuses no fitted tree.
#[test]
fn trees_at_the_largest_coordinate_open() {
    fn each<T: Real, B: BoundingVolume<T>>(mesh: &Mesh) {
        let bvh = tree::<T, B>(mesh, &BuildOptions::default());
        let r = open_edited(&bvh, 0, |_| ());
        assert!(r.is_ok(), "{} {}: {r:?}", T::NAME, B::KIND.name());
        // With room to spare: no fitted number reaches half the bound.
        let largest = bvh
            .nodes()
            .iter()
            .flat_map(|n| bytemuck::cast_slice::<B, T>(std::slice::from_ref(&n.bv)).to_vec())
            .map(|x| x.abs().to_f64_exact())
            .fold(0.0, f64::max);
        let ratio = largest / T::LIMITS.length_max;
        assert!(
            ratio <= VOLUME_MAGNITUDE_FACTOR / 2.0,
            "{} {}: {ratio}",
            T::NAME,
            B::KIND.name()
        );
    }
    fn all<T: Real>() {
        let most = T::LIMITS.length_max;
        let sphere = icosphere(1, most);
        // Five faces of the box (one open side is enough for the fits), two triangles each.
        let corners = Mesh {
            vertices: (0..8)
                .map(|k| [1, 2, 4].map(|bit| if k & bit == 0 { -most } else { most }))
                .collect(),
            triangles: vec![
                [0, 1, 3],
                [0, 3, 2],
                [4, 7, 5],
                [4, 6, 7],
                [0, 5, 1],
                [0, 4, 5],
                [2, 3, 7],
                [2, 7, 6],
                [0, 2, 6],
                [0, 6, 4],
            ],
        };
        for mesh in [&sphere, &corners] {
            each::<T, Sphere<T>>(mesh);
            each::<T, Aabb<T>>(mesh);
            each::<T, Obb<T>>(mesh);
            each::<T, Rss<T>>(mesh);
        }
    }
    all::<f64>();
    all::<f32>();
}

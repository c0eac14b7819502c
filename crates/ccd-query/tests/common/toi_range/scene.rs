//! The scene every case runs on: two icospheres, as trees under test and as the sampling oracle's f64 trees.

use ccd_bv::{Obb, Real};
use ccd_bvh::{BuildOptions, Bvh};
use ccd_query::ContinuousVolume;
use ccd_testkit::{Mesh, icosphere};
use nalgebra::{Isometry3, Quaternion, Translation3, UnitQuaternion};

use super::limits::wide;

/// The two meshes: an 80-triangle icosphere of radius 1 (A) and a 20-triangle one of radius 0.5 (B).
pub fn meshes() -> (Mesh, Mesh) {
    (icosphere(1, 1.0), icosphere(0, 0.5))
}

/// A tree of `m` with its vertices rounded to `T`.
pub fn tree<T: Real, B: ContinuousVolume<T>>(m: &Mesh) -> Bvh<T, B> {
    let v = m.vertices.iter().map(|p| p.map(T::lit)).collect();
    Bvh::build(v, &m.triangles, &BuildOptions::default()).expect("an icosphere is in range")
}

/// The trees under test and the oracle's f64 OBB trees of the same (rounded) meshes.
pub struct Scene<T: Real, B: ContinuousVolume<T>> {
    /// Model A's tree.
    pub a: Bvh<T, B>,
    /// Model B's tree.
    pub b: Bvh<T, B>,
    /// The oracle's trees.
    pub a64: Bvh<f64, Obb<f64>>,
    pub b64: Bvh<f64, Obb<f64>>,
}

impl<T: Real, B: ContinuousVolume<T>> Scene<T, B> {
    /// Builds the four trees.
    pub fn new() -> Self {
        let (ma, mb) = meshes();
        let rounded = |m: &Mesh| Mesh {
            vertices: m
                .vertices
                .iter()
                .map(|p| p.map(|x| T::lit(x).to_f64_exact()))
                .collect(),
            triangles: m.triangles.clone(),
        };
        Self {
            a: tree(&ma),
            b: tree(&mb),
            a64: tree(&rounded(&ma)),
            b64: tree(&rounded(&mb)),
        }
    }
}

/// `p` in `f64` (exact; the quaternion is not renormalised).
pub fn pose_f64<T: Real>(p: &Isometry3<T>) -> Isometry3<f64> {
    let c = p.rotation.quaternion().coords;
    let t = p.translation.vector;
    Isometry3::from_parts(
        Translation3::new(wide(t.x), wide(t.y), wide(t.z)),
        UnitQuaternion::new_unchecked(Quaternion::new(wide(c.w), wide(c.x), wide(c.y), wide(c.z))),
    )
}

//! Shared helpers for the integration tests: a seeded generator, random
//! rotations and boxes, and a brute-force separating-axis oracle.
#![allow(dead_code)]

use ccd_bv::nalgebra::{Matrix3, UnitQuaternion, Vector3};
use ccd_testkit::SplitMix64;

/// Test inputs drawn from the test kit's seeded [`SplitMix64`] (the same sequence for a seed), with the
/// shapes these tests need.
pub struct Rng(SplitMix64);

impl Rng {
    /// A generator whose sequence is determined by `seed`.
    pub fn new(seed: u64) -> Self {
        Self(SplitMix64::new(seed))
    }

    /// Next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// Uniform in [0, 1).
    pub fn unit(&mut self) -> f64 {
        self.0.next_f64()
    }

    /// Uniform in [lo, hi).
    pub fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.unit()
    }

    /// Uniform in 0..n.
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// A vector with coordinates uniform in [lo, hi).
    pub fn vec(&mut self, lo: f64, hi: f64) -> Vector3<f64> {
        Vector3::new(self.range(lo, hi), self.range(lo, hi), self.range(lo, hi))
    }

    /// A uniformly random rotation (Shoemake).
    pub fn rotation(&mut self) -> Matrix3<f64> {
        let (u1, u2, u3) = (self.unit(), self.unit(), self.unit());
        let tau = std::f64::consts::TAU;
        let (a, b) = ((1.0 - u1).sqrt(), u1.sqrt());
        let q = ccd_bv::nalgebra::Quaternion::new(
            a * (tau * u2).sin(),
            a * (tau * u2).cos(),
            b * (tau * u3).sin(),
            b * (tau * u3).cos(),
        );
        UnitQuaternion::from_quaternion(q)
            .to_rotation_matrix()
            .into_inner()
    }

    /// A rotation from a family with exactly parallel axes: identity, a turn
    /// about a coordinate axis, an axis permutation, or a general rotation.
    pub fn rotation_mixed(&mut self) -> Matrix3<f64> {
        match self.below(4) {
            0 => Matrix3::identity(),
            1 => {
                let (s, c) = self.range(0.0, std::f64::consts::TAU).sin_cos();
                let k = self.below(3);
                let (i, j) = ((k + 1) % 3, (k + 2) % 3);
                let mut m = Matrix3::zeros();
                m[(k, k)] = 1.0;
                m[(i, i)] = c;
                m[(j, j)] = c;
                m[(i, j)] = -s;
                m[(j, i)] = s;
                m
            }
            2 => {
                let p = [
                    [0, 1, 2],
                    [1, 2, 0],
                    [2, 0, 1],
                    [0, 2, 1],
                    [1, 0, 2],
                    [2, 1, 0],
                ][self.below(6)];
                Matrix3::from_fn(|r, c| {
                    if p[c] == r {
                        if self.below(2) == 0 { 1.0 } else { -1.0 }
                    } else {
                        0.0
                    }
                })
            }
            _ => self.rotation(),
        }
    }

    /// Half-extents in (0, 2), with some set to exactly 0.
    pub fn half(&mut self) -> [f64; 3] {
        std::array::from_fn(|_| {
            if self.below(6) == 0 {
                0.0
            } else {
                self.range(0.01, 2.0)
            }
        })
    }
}

/// The 8 corners of the box with centre `c`, axes the columns of `r` and
/// half-extents `h`.
pub fn corners(r: &Matrix3<f64>, c: &Vector3<f64>, h: &[f64; 3]) -> Vec<Vector3<f64>> {
    (0..8)
        .map(|k| {
            let s = |b: usize| if k >> b & 1 == 1 { 1.0 } else { -1.0 };
            c + r.column(0) * (s(0) * h[0])
                + r.column(1) * (s(1) * h[1])
                + r.column(2) * (s(2) * h[2])
        })
        .collect()
}

/// Brute-force SAT: projects all 8 corners of both boxes on the 15 axes
/// (computed explicitly, zero axes skipped). Box A is axis-aligned at the
/// origin with half-extents `a`; B has axes `r` (columns), centre `t` and
/// half-extents `b`. Returns whether some axis strictly separates them.
pub fn oracle_disjoint(r: &Matrix3<f64>, t: &Vector3<f64>, a: &[f64; 3], b: &[f64; 3]) -> bool {
    let ca = corners(&Matrix3::identity(), &Vector3::zeros(), a);
    let cb = corners(r, t, b);
    let mut axes: Vec<Vector3<f64>> = Vec::new();
    for i in 0..3 {
        axes.push(Vector3::ith(i, 1.0));
        axes.push(r.column(i).into());
        for j in 0..3 {
            axes.push(Vector3::<f64>::ith(i, 1.0).cross(&r.column(j)));
        }
    }
    axes.iter().filter(|n| n.norm_squared() > 1e-24).any(|n| {
        let span = |pts: &[Vector3<f64>]| {
            let d: Vec<f64> = pts.iter().map(|p| p.dot(n)).collect();
            (
                d.iter().copied().fold(f64::INFINITY, f64::min),
                d.iter().copied().fold(f64::NEG_INFINITY, f64::max),
            )
        };
        let ((alo, ahi), (blo, bhi)) = (span(&ca), span(&cb));
        ahi < blo || bhi < alo
    })
}

/// Points on the surface of a box on an `n × n` grid per face.
pub fn box_surface(
    r: &Matrix3<f64>,
    c: &Vector3<f64>,
    h: &[f64; 3],
    n: usize,
) -> Vec<Vector3<f64>> {
    let mut out = Vec::new();
    let g = |k: usize| {
        if n == 1 {
            0.0
        } else {
            2.0 * k as f64 / (n - 1) as f64 - 1.0
        }
    };
    for axis in 0..3 {
        let (u, v) = ((axis + 1) % 3, (axis + 2) % 3);
        for side in [-1.0, 1.0] {
            for i in 0..n {
                for j in 0..n {
                    let mut s = [0.0; 3];
                    s[axis] = side;
                    s[u] = g(i);
                    s[v] = g(j);
                    out.push(
                        c + (0..3)
                            .map(|k| r.column(k) * (s[k] * h[k]))
                            .sum::<Vector3<f64>>(),
                    );
                }
            }
        }
    }
    out
}

/// Smallest distance between two point sets.
pub fn min_distance(p: &[Vector3<f64>], q: &[Vector3<f64>]) -> f64 {
    p.iter()
        .flat_map(|a| q.iter().map(move |b| (a - b).norm()))
        .fold(f64::INFINITY, f64::min)
}

/// Array form of a vector.
pub fn arr(v: &Vector3<f64>) -> [f64; 3] {
    [v.x, v.y, v.z]
}

/// Vertices and the faces over them.
pub type Patch<T = f64> = (Vec<[T; 3]>, Vec<[u32; 3]>);

/// `n` random points of the unit sphere within the angle `rho` of a random direction, and a fan of triangles
/// over them in their order (the frames read the distinct vertices; the faces only have to cover them).
pub fn cap(rng: &mut Rng, n: usize, rho: f64) -> Patch {
    let q = rng.rotation();
    let v = (0..n)
        .map(|_| {
            let (t, phi) = (
                rho * rng.unit().sqrt(),
                rng.range(0.0, std::f64::consts::TAU),
            );
            let p = q * Vector3::new(t.sin() * phi.cos(), t.sin() * phi.sin(), t.cos());
            [p.x, p.y, p.z]
        })
        .collect();
    let f = (1..n as u32 - 1).map(|k| [0, k, k + 1]).collect();
    (v, f)
}

/// The indices `0..n` (every vertex of a patch, each once).
pub fn ids(n: usize) -> Vec<u32> {
    (0..n as u32).collect()
}

/// 300 thin curved patches drawn from `seed`: caps of the unit sphere of angular radius 0.02 to 0.2 with 6 to 30
/// vertices, the sizes of the nodes a tree build orients by hull or covariance frames.
pub fn thin_caps(seed: u64) -> Vec<Patch> {
    let mut rng = Rng::new(seed);
    (0..300)
        .map(|_| {
            let n = 6 + rng.below(25);
            let rho = rng.range(0.02, 0.2);
            cap(&mut rng, n, rho)
        })
        .collect()
}

/// The volume of the box `Obb::fit_shared` fits to the patch `(v, f)` (every vertex used) with `frame`.
pub fn box_volume(v: &[[f64; 3]], f: &[[u32; 3]], frame: ccd_bv::FitFrame) -> f64 {
    use ccd_bv::BoundingVolume;
    ccd_bv::Obb::fit_shared(v, f, &ids(v.len()), &frame).volume()
}

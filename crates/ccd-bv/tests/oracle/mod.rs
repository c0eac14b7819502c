//! Exact distance oracles in `f64` for the lower-bound tests: parallelograms and boxes (closest points by
//! brute force over their features, intersection by a separating-axis test), and the nearest orthonormal frame
//! of a stored one (with its distance, to account for `f32` axes and poses).
//!
//! The distance between two disjoint convex polytopes is attained by a vertex of one and the other, or by an
//! edge of each; every candidate pair here is a pair of actual points, so the oracle never reports less than
//! the true distance by more than its own `f64` rounding (about `1e-15` of the scene), and it is exact up to
//! that rounding for disjoint sets. Sets that no candidate axis separates (face normals, edge cross products
//! and the best pair's direction, which separates disjoint sets) intersect: distance 0.
#![allow(dead_code)]

use ccd_bv::nalgebra::{Matrix3, Vector3};

pub type V = Vector3<f64>;

/// The closest point of segment `[s, e]` to `x`.
pub fn on_segment(x: &V, s: &V, e: &V) -> V {
    let d = e - s;
    let dd = d.norm_squared();
    if dd == 0.0 {
        return *s;
    }
    s + d * ((x - s).dot(&d) / dd).clamp(0.0, 1.0)
}

/// The closest points of segments `[p0, p1]` and `[q0, q1]`: the interior critical point of the distance (if
/// it lies inside both) or the best of the four endpoint-to-segment projections.
pub fn segment_pair(p0: &V, p1: &V, q0: &V, q1: &V) -> (V, V) {
    let mut best = (f64::INFINITY, *p0, *q0);
    let mut keep = |p: V, q: V| {
        let d = (p - q).norm_squared();
        if d < best.0 {
            best = (d, p, q);
        }
    };
    keep(*p0, on_segment(p0, q0, q1));
    keep(*p1, on_segment(p1, q0, q1));
    keep(on_segment(q0, p0, p1), *q0);
    keep(on_segment(q1, p0, p1), *q1);
    let (d, e, r) = (p1 - p0, q1 - q0, p0 - q0);
    let (a, b, c) = (d.dot(&d), d.dot(&e), e.dot(&e));
    let det = a * c - b * b;
    if det > 1e-12 * a * c {
        let (f, g) = (d.dot(&r), e.dot(&r));
        let s = (b * g - c * f) / det;
        let t = (a * g - b * f) / det;
        if (0.0..=1.0).contains(&s) && (0.0..=1.0).contains(&t) {
            keep(p0 + d * s, q0 + e * t);
        }
    }
    (best.1, best.2)
}

/// A parallelogram `{c + s·u + t·w : |s|, |t| ≤ 1}` (`u`, `w` the half-side vectors, any angle).
#[derive(Clone, Copy, Debug)]
pub struct Par {
    pub c: V,
    pub u: V,
    pub w: V,
}

impl Par {
    pub fn corners(&self) -> [V; 4] {
        let (c, u, w) = (self.c, self.u, self.w);
        [c - u - w, c + u - w, c + u + w, c - u + w]
    }

    pub fn edges(&self) -> [(V, V); 4] {
        let k = self.corners();
        [(k[0], k[1]), (k[1], k[2]), (k[2], k[3]), (k[3], k[0])]
    }

    pub fn normal(&self) -> V {
        self.u.cross(&self.w)
    }

    /// The closest point to `x`: the least-squares parameters if inside, else the best edge point.
    pub fn nearest(&self, x: &V) -> V {
        let (uu, uw, ww) = (
            self.u.dot(&self.u),
            self.u.dot(&self.w),
            self.w.dot(&self.w),
        );
        let det = uu * ww - uw * uw;
        if det > 1e-24 * uu * ww {
            let (a, b) = (self.u.dot(&(x - self.c)), self.w.dot(&(x - self.c)));
            let s = (ww * a - uw * b) / det;
            let t = (uu * b - uw * a) / det;
            if s.abs() <= 1.0 && t.abs() <= 1.0 {
                return self.c + self.u * s + self.w * t;
            }
        }
        let mut best = (f64::INFINITY, self.c);
        for (s, e) in self.edges() {
            let p = on_segment(x, &s, &e);
            let d = (p - x).norm_squared();
            if d < best.0 {
                best = (d, p);
            }
        }
        best.1
    }
}

/// Projection interval of a point set onto `n`.
fn interval(points: &[V], n: &V) -> (f64, f64) {
    points
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), p| {
            let x = p.dot(n);
            (l.min(x), h.max(x))
        })
}

/// Whether some axis separates the two point sets' hulls (gap > 0 along a non-zero axis).
fn separated(a: &[V], b: &[V], axes: &[V]) -> bool {
    axes.iter().any(|n| {
        if n.norm_squared() < 1e-24 {
            return false;
        }
        let ((la, ha), (lb, hb)) = (interval(a, n), interval(b, n));
        lb > ha || la > hb
    })
}

/// The closest points of two parallelograms (equal points where they intersect).
pub fn par_closest(a: &Par, b: &Par) -> (V, V) {
    let (ka, kb) = (a.corners(), b.corners());
    let (na, nb) = (a.normal(), b.normal());
    let mut axes = vec![na, nb];
    for d in [a.u, a.w] {
        axes.push(na.cross(&d));
        for e in [b.u, b.w] {
            axes.push(d.cross(&e));
        }
    }
    for e in [b.u, b.w] {
        axes.push(nb.cross(&e));
    }
    let mut best = (f64::INFINITY, a.c, b.c);
    let mut keep = |p: V, q: V| {
        let d = (p - q).norm_squared();
        if d < best.0 {
            best = (d, p, q);
        }
    };
    for x in &kb {
        keep(a.nearest(x), *x);
    }
    for x in &ka {
        keep(*x, b.nearest(x));
    }
    for (p0, p1) in a.edges() {
        for (q0, q1) in b.edges() {
            let (p, q) = segment_pair(&p0, &p1, &q0, &q1);
            keep(p, q);
        }
    }
    // For disjoint sets the closest-pair direction separates them (also where a degenerate parallelogram leaves
    // the list above incomplete).
    axes.push(best.2 - best.1);
    if !separated(&ka, &kb, &axes) {
        // Intersecting: report a pair at distance 0.
        return (best.1, best.1);
    }
    (best.1, best.2)
}

/// A box with orthonormal axes (columns of `q`), centre `c`, half-extents `h`.
#[derive(Clone, Copy, Debug)]
pub struct Cuboid {
    pub q: Matrix3<f64>,
    pub c: V,
    pub h: [f64; 3],
}

impl Cuboid {
    pub fn corners(&self) -> Vec<V> {
        (0..8)
            .map(|s| {
                let sign = |k: usize| if s & (1 << k) == 0 { -1.0 } else { 1.0 };
                self.c
                    + self.q
                        * V::new(
                            sign(0) * self.h[0],
                            sign(1) * self.h[1],
                            sign(2) * self.h[2],
                        )
            })
            .collect()
    }

    pub fn edges(&self) -> Vec<(V, V)> {
        let k = self.corners();
        let mut out = Vec::new();
        for s in 0..8usize {
            for b in 0..3 {
                let t = s | (1 << b);
                if t != s {
                    out.push((k[s], k[t]));
                }
            }
        }
        out
    }

    pub fn nearest(&self, x: &V) -> V {
        let l = self.q.transpose() * (x - self.c);
        let k = V::from_fn(|i, _| l[i].clamp(-self.h[i], self.h[i]));
        self.c + self.q * k
    }
}

/// The closest points of two boxes (equal points where they intersect).
pub fn box_closest(a: &Cuboid, b: &Cuboid) -> (V, V) {
    let (ka, kb) = (a.corners(), b.corners());
    let mut axes: Vec<V> = (0..3).map(|i| a.q.column(i).into()).collect();
    axes.extend((0..3).map(|j| -> V { b.q.column(j).into() }));
    for i in 0..3 {
        for j in 0..3 {
            axes.push(a.q.column(i).cross(&b.q.column(j)));
        }
    }
    let mut best = (f64::INFINITY, a.c, b.c);
    let mut keep = |p: V, q: V| {
        let d = (p - q).norm_squared();
        if d < best.0 {
            best = (d, p, q);
        }
    };
    for x in &kb {
        keep(a.nearest(x), *x);
    }
    for x in &ka {
        keep(*x, b.nearest(x));
    }
    for (p0, p1) in a.edges() {
        for (q0, q1) in b.edges() {
            let (p, q) = segment_pair(&p0, &p1, &q0, &q1);
            keep(p, q);
        }
    }
    axes.push(best.2 - best.1);
    if !separated(&ka, &kb, &axes) {
        return (best.1, best.1);
    }
    (best.1, best.2)
}

/// The orthonormal matrix nearest to `m` (its polar factor) and `‖m − Q‖₂ = max |σ_i − 1|` (plus `1e-15`
/// for the SVD's own rounding), and `σ_max(m)`.
pub fn polar(m: &Matrix3<f64>) -> (Matrix3<f64>, f64, f64) {
    let svd = m.svd(true, true);
    let (u, vt) = (svd.u.unwrap(), svd.v_t.unwrap());
    let s = svd.singular_values;
    let dev = s.iter().fold(0.0f64, |d, x| d.max((x - 1.0).abs()));
    (u * vt, dev + 1e-15, s.max() * (1.0 + 1e-15))
}

/// A random rotation matrix from a family with exactly parallel axes: identity, a turn about a coordinate axis,
/// an axis permutation, or a uniformly random rotation (`u` three uniforms in `[0, 1)`, `k` a selector).
pub fn rotation(k: u64, u: [f64; 3]) -> Matrix3<f64> {
    use ccd_bv::nalgebra::{Quaternion, UnitQuaternion};
    let tau = std::f64::consts::TAU;
    match k % 4 {
        0 => Matrix3::identity(),
        1 => {
            let (s, c) = (tau * u[0]).sin_cos();
            let a = (u[1] * 3.0) as usize % 3;
            let (i, j) = ((a + 1) % 3, (a + 2) % 3);
            let mut m = Matrix3::zeros();
            m[(a, a)] = 1.0;
            m[(i, i)] = c;
            m[(j, j)] = c;
            m[(i, j)] = -s;
            m[(j, i)] = s;
            m
        }
        2 => {
            let p = [[1, 2, 0], [2, 0, 1], [0, 2, 1]][(u[0] * 3.0) as usize % 3];
            Matrix3::from_fn(|r, c| if p[c] == r { 1.0 } else { 0.0 })
        }
        _ => {
            let (a, b) = ((1.0 - u[0]).sqrt(), u[0].sqrt());
            let q = Quaternion::new(
                a * (tau * u[1]).sin(),
                a * (tau * u[1]).cos(),
                b * (tau * u[2]).sin(),
                b * (tau * u[2]).cos(),
            );
            UnitQuaternion::from_quaternion(q)
                .to_rotation_matrix()
                .into_inner()
        }
    }
}

/// The median of `v` (sorted in place); NaN for none.
pub fn median(v: &mut [f64]) -> f64 {
    if v.is_empty() {
        return f64::NAN;
    }
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

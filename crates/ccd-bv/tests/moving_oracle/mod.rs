//! Shared helpers of the constant-velocity tests: box and triangle builders,
//! the time oracle and distances of contact points to the objects.
//!
//! The oracle for boxes is the static 15-axis SAT `sat::obb_disjoint` (guard
//! 0) sampled densely over `[0, t_max]` and refined by bisection. For
//! triangles (and for contacts too brief for the sampling) it is the static
//! separation `g(t) = max_L gap_L(t)` over normalised candidate axes by
//! brute-force vertex projection: a maximum of convex piecewise-linear
//! functions of `t`, so its minimum is found by ternary search and the first
//! root by bisection. Neither knows about entry and exit times.
#![allow(dead_code)]

use ccd_bv::Obb;
use ccd_bv::moving::{ContactSet, MovingContact};
use ccd_bv::nalgebra::{Matrix3, Vector3};
use ccd_bv::sat::obb_disjoint;

use crate::common::corners;

/// Shorthand.
pub type V = Vector3<f64>;

pub fn v(x: f64, y: f64, z: f64) -> V {
    V::new(x, y, z)
}

/// A box with axes the columns of `r`.
pub fn obb(r: &Matrix3<f64>, c: V, h: [f64; 3]) -> Obb<f64> {
    Obb {
        rot: std::array::from_fn(|j| [r[(0, j)], r[(1, j)], r[(2, j)]]),
        center: [c.x, c.y, c.z],
        half: h,
    }
}

pub fn cube(c: V) -> Obb<f64> {
    obb(&Matrix3::identity(), c, [1.0; 3])
}

pub fn tri(p: [V; 3]) -> [[f64; 3]; 3] {
    p.map(|q| [q.x, q.y, q.z])
}

pub fn axes_of(o: &Obb<f64>) -> [V; 3] {
    o.rot.map(V::from)
}

pub fn corners_of(o: &Obb<f64>) -> Vec<V> {
    let r = Matrix3::from_columns(&axes_of(o));
    corners(&r, &V::from(o.center), &o.half)
}

// ---------------------------------------------------------------------------
// The oracle.

/// A convex body as a vertex list with a velocity.
pub struct Body {
    /// Vertices at `t = 0`.
    pub pts: Vec<V>,
    /// Velocity.
    pub vel: V,
}

/// Static separation at time `t` over the unit `axes`: the largest gap
/// between the projections (> 0: separated; ≤ 0: overlapping when the axes
/// are complete).
pub fn gap(a: &Body, b: &Body, axes: &[V], t: f64) -> f64 {
    let w = b.vel - a.vel;
    axes.iter()
        .map(|l| {
            let span = |pts: &[V]| {
                pts.iter()
                    .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), p| {
                        let d = l.dot(p);
                        (lo.min(d), hi.max(d))
                    })
            };
            let ((alo, ahi), (blo, bhi)) = (span(&a.pts), span(&b.pts));
            let s = t * l.dot(&w);
            (alo - (bhi + s)).max((blo + s) - ahi)
        })
        .fold(f64::NEG_INFINITY, f64::max)
}

/// Unit versions of the nonzero candidate axes.
pub fn unit_axes(axes: impl IntoIterator<Item = V>) -> Vec<V> {
    axes.into_iter()
        .filter(|l| l.norm() > 1e-12)
        .map(|l| l.normalize())
        .collect()
}

/// What the oracle knows about a pair over `[0, t_max]`.
pub struct Truth {
    /// Smallest static separation over `[0, t_max]` (≤ 0: they meet).
    pub min_gap: f64,
    /// First time the separation reaches 0, if it does.
    pub first: Option<f64>,
}

/// Ternary search of the convex `g` for its minimum, then bisection for the
/// first root.
pub fn truth(g: impl Fn(f64) -> f64, t_max: f64) -> Truth {
    if g(0.0) <= 0.0 {
        return Truth {
            min_gap: g(0.0),
            first: Some(0.0),
        };
    }
    let (mut lo, mut hi) = (0.0, t_max);
    for _ in 0..200 {
        let (m1, m2) = (lo + (hi - lo) / 3.0, hi - (hi - lo) / 3.0);
        if g(m1) <= g(m2) {
            hi = m2;
        } else {
            lo = m1;
        }
    }
    let t_min = [lo, hi, t_max]
        .into_iter()
        .min_by(|x, y| g(*x).total_cmp(&g(*y)))
        .unwrap();
    let min_gap = g(t_min);
    if min_gap > 0.0 {
        return Truth {
            min_gap,
            first: None,
        };
    }
    let (mut lo, mut hi) = (0.0, t_min);
    for _ in 0..100 {
        let mid = 0.5 * (lo + hi);
        if g(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Truth {
        min_gap,
        first: Some(hi),
    }
}

/// First time at which `sat::obb_disjoint` (guard 0) finds the boxes
/// overlapping: `n` samples of `[0, t_max]`, then bisection between the last
/// disjoint and the first overlapping sample. `None` if no sample overlaps.
pub fn sat_first(a: &Obb<f64>, va: &V, b: &Obb<f64>, vb: &V, t_max: f64, n: usize) -> Option<f64> {
    let disjoint = |t: f64| {
        let am = Matrix3::from_columns(&axes_of(a));
        let bm = Matrix3::from_columns(&axes_of(b));
        let d = (V::from(b.center) + vb * t) - (V::from(a.center) + va * t);
        obb_disjoint(
            &(am.transpose() * bm),
            &(am.transpose() * d),
            &a.half,
            &b.half,
            0.0,
        )
    };
    let mut prev = 0.0;
    for k in 0..=n {
        let t = t_max * k as f64 / n as f64;
        if !disjoint(t) {
            if k == 0 {
                return Some(0.0);
            }
            let (mut lo, mut hi) = (prev, t);
            for _ in 0..80 {
                let mid = 0.5 * (lo + hi);
                if disjoint(mid) {
                    lo = mid;
                } else {
                    hi = mid;
                }
            }
            return Some(hi);
        }
        prev = t;
    }
    None
}

pub fn box_box_axes(a: &Obb<f64>, b: &Obb<f64>) -> Vec<V> {
    let (ea, eb) = (axes_of(a), axes_of(b));
    let mut ax = Vec::new();
    ax.extend(ea);
    ax.extend(eb);
    for x in ea {
        for y in eb {
            ax.push(x.cross(&y));
        }
    }
    unit_axes(ax)
}

pub fn edges(t: &[[f64; 3]; 3]) -> [V; 3] {
    let p = t.map(V::from);
    [p[1] - p[0], p[2] - p[1], p[0] - p[2]]
}

pub fn tri_box_axes(t: &[[f64; 3]; 3], b: &Obb<f64>) -> Vec<V> {
    let e = edges(t);
    let mut ax = vec![e[0].cross(&e[1])];
    ax.extend(axes_of(b));
    for x in e {
        for y in axes_of(b) {
            ax.push(x.cross(&y));
        }
    }
    unit_axes(ax)
}

/// All 17 axes, in-plane ones included whatever the normals: complete for
/// every pair of non-degenerate triangles.
pub fn tri_tri_axes(a: &[[f64; 3]; 3], b: &[[f64; 3]; 3]) -> Vec<V> {
    let (e, f) = (edges(a), edges(b));
    let (n, m) = (e[0].cross(&e[1]), f[0].cross(&f[1]));
    let mut ax = vec![n, m];
    for x in e {
        for y in f {
            ax.push(x.cross(&y));
        }
    }
    for x in e.iter().chain(&f) {
        ax.push(n.cross(x));
        ax.push(m.cross(x));
    }
    unit_axes(ax)
}

// ---------------------------------------------------------------------------
// Distances of contact points to the objects.

pub fn dist_box(o: &Obb<f64>, p: &V) -> f64 {
    let d = p - V::from(o.center);
    let mut out = 0.0;
    for (k, ax) in axes_of(o).iter().enumerate() {
        let x = ax.dot(&d).abs() - o.half[k];
        if x > 0.0 {
            out += x * x;
        }
    }
    out.sqrt()
}

/// Distance from `p` to a triangle (closest point by Voronoi regions).
pub fn dist_tri(t: &[[f64; 3]; 3], p: &V) -> f64 {
    let [a, b, c] = t.map(V::from);
    let seg = |u: V, w: V| {
        let d = w - u;
        let s = if d.norm_squared() > 0.0 {
            ((p - u).dot(&d) / d.norm_squared()).clamp(0.0, 1.0)
        } else {
            0.0
        };
        (u + d * s - p).norm()
    };
    let n = (b - a).cross(&(c - a));
    let edge_min = seg(a, b).min(seg(b, c)).min(seg(c, a));
    if n.norm_squared() == 0.0 {
        return edge_min;
    }
    let inside = [(a, b), (b, c), (c, a)]
        .iter()
        .all(|(u, w)| (w - u).cross(&(p - u)).dot(&n) >= 0.0);
    if inside {
        ((p - a).dot(&n) / n.norm()).abs()
    } else {
        edge_min
    }
}

pub fn moved_box(o: &Obb<f64>, vel: &V, t: f64) -> Obb<f64> {
    let c = V::from(o.center) + vel * t;
    Obb {
        center: [c.x, c.y, c.z],
        ..*o
    }
}

pub fn moved_tri(t: &[[f64; 3]; 3], vel: &V, s: f64) -> [[f64; 3]; 3] {
    t.map(|p| {
        let q = V::from(p) + vel * s;
        [q.x, q.y, q.z]
    })
}

pub fn points(c: &ContactSet<f64>) -> Vec<V> {
    c.points().into_iter().map(V::from).collect()
}

/// The contact points, as a set, equal `want` within `tol`.
pub fn same_points(got: &ContactSet<f64>, want: &[V], tol: f64) -> bool {
    let g = points(got);
    g.len() == want.len()
        && want.iter().all(|w| g.iter().any(|p| (p - w).norm() <= tol))
        && g.iter().all(|p| want.iter().any(|w| (p - w).norm() <= tol))
}

pub fn touching(r: &MovingContact<f64>) -> (f64, &ContactSet<f64>) {
    match r {
        MovingContact::Touching { time, contact } => (*time, contact),
        other => panic!("expected a contact, got {other:?}"),
    }
}

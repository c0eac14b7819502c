//! Flat triangles (a point, a segment, three collinear vertices) under constant-velocity translation: random
//! ones of each kind, and an independent oracle for their distance over time and their first time of contact.
//!
//! A flat triangle is the segment between its two farthest vertices (a point when they coincide), so the distance
//! of two of them is a segment–segment distance ([`segment_distance`], golden-section search). Under translation
//! that distance is a convex function of time (the distance of a point moving on a line to a fixed convex set, their
//! Minkowski difference), which the oracle uses: the minimum is found by dense sampling refined by golden-section
//! search between the neighbours of the best sample, and the first contact by bisection before it.

use nalgebra::Vector3;

use crate::SplitMix64;
use crate::distance::segment_distance;

type V = Vector3<f64>;

/// The three kinds of flat triangles.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FlatKind {
    /// Three equal vertices.
    Point,
    /// Two equal vertices and a third one: a segment.
    Segment,
    /// Three distinct collinear vertices.
    Collinear,
}

impl FlatKind {
    /// All kinds, in declaration order.
    pub const ALL: [FlatKind; 3] = [FlatKind::Point, FlatKind::Segment, FlatKind::Collinear];
}

/// A random flat triangle of `kind` through `p` along direction `dir` (any length; the vertices are `p + s·dir`
/// with `s` in `[0, 1]`, in a random order).
///
/// Axis-aligned `dir` keeps the vertices exactly collinear in `f64`; any other leaves rounding noise, as in real
/// meshes.
pub fn flat_triangle(rng: &mut SplitMix64, kind: FlatKind, p: V, dir: V) -> [[f64; 3]; 3] {
    let at = |s: f64| (p + dir * s).into();
    let mut t = match kind {
        FlatKind::Point => [at(0.0); 3],
        FlatKind::Segment => [at(0.0), at(0.0), at(1.0)],
        FlatKind::Collinear => [at(0.0), at(rng.range(0.1, 0.9)), at(1.0)],
    };
    t.rotate_left(rng.below(3) as usize);
    if rng.chance(0.5) {
        t.swap(0, 1);
    }
    t
}

/// The segment spanned by a flat triangle: its two farthest vertices.
pub fn span(t: &[[f64; 3]; 3]) -> [V; 2] {
    let v = t.map(V::from);
    let pairs = [(0, 1), (1, 2), (2, 0)];
    let (i, j) = pairs
        .into_iter()
        .max_by(|&(a, b), &(c, d)| {
            (v[a] - v[b])
                .norm_squared()
                .total_cmp(&(v[c] - v[d]).norm_squared())
        })
        .unwrap_or((0, 1));
    [v[i], v[j]]
}

/// Distance at time `t` between flat triangles `a` and `b` moving with velocities `va`, `vb` from `t = 0`.
pub fn flat_distance(a: &[[f64; 3]; 3], va: &V, b: &[[f64; 3]; 3], vb: &V, t: f64) -> f64 {
    let ([a0, a1], [b0, b1]) = (span(a), span(b));
    let (da, db) = (va * t, vb * t);
    segment_distance(&(a0 + da), &(a1 + da), &(b0 + db), &(b1 + db))
}

/// What the oracle found for a convex distance function over `[0, t_max]`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sampled {
    /// The least distance, and the time it is reached.
    pub min: (f64, f64),
    /// The first time the distance is at most the contact allowance, if it ever is.
    pub first: Option<f64>,
}

/// Samples the convex function `dist` at `samples + 1` evenly spaced times of `[0, t_max]`, refines its minimum
/// by golden-section search around the best sample, and finds the first time it drops to `eps` or below by
/// bisection (to about `1e-14` of `t_max`).
pub fn sample_convex(dist: impl Fn(f64) -> f64, t_max: f64, samples: usize, eps: f64) -> Sampled {
    let n = samples.max(2);
    let time = |i: usize| t_max * i as f64 / n as f64;
    let best = (0..=n)
        .min_by(|&i, &j| dist(time(i)).total_cmp(&dist(time(j))))
        .unwrap_or(0);
    let (mut lo, mut hi) = (time(best.saturating_sub(1)), time((best + 1).min(n)));
    let g = 0.618_033_988_749_895;
    for _ in 0..80 {
        let (m1, m2) = (hi - g * (hi - lo), lo + g * (hi - lo));
        if dist(m1) <= dist(m2) {
            hi = m2;
        } else {
            lo = m1;
        }
    }
    let t_min = [lo, hi, time(best)]
        .into_iter()
        .min_by(|x, y| dist(*x).total_cmp(&dist(*y)))
        .unwrap_or(lo);
    let min = (dist(t_min), t_min);
    let first = (min.0 <= eps).then(|| {
        if dist(0.0) <= eps {
            return 0.0;
        }
        // Convex and above eps at 0, at most eps at t_min: decreasing across the crossing.
        let (mut lo, mut hi) = (0.0, t_min);
        for _ in 0..60 {
            let mid = 0.5 * (lo + hi);
            if dist(mid) <= eps { hi = mid } else { lo = mid }
        }
        hi
    });
    Sampled { min, first }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn head_on_segments_meet_at_a_third() {
        let a = [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.5, 0.0, 0.0]];
        let b = [[3.0, 0.0, 0.0], [4.0, 0.0, 0.0], [3.0, 0.0, 0.0]];
        let (va, vb) = (V::zeros(), V::new(-6.0, 0.0, 0.0));
        let s = sample_convex(|t| flat_distance(&a, &va, &b, &vb, t), 1.0, 100, 1e-12);
        assert!((s.first.unwrap() - 1.0 / 3.0).abs() < 1e-10, "{s:?}");
        let [p, q] = span(&b);
        assert_eq!((p - q).norm(), 1.0);
        let miss = sample_convex(
            |t| flat_distance(&a, &va, &b, &V::new(-6.0, 1.0, 0.0), t),
            1.0,
            100,
            1e-12,
        );
        assert!(miss.first.is_none() && miss.min.0 > 0.3, "{miss:?}");
    }
}

//! Slow, simple Euclidean distances between points, segments and triangles, as test oracles.
//!
//! Independent of the library's closest-point code on purpose: segment–segment distances minimise the convex
//! point-to-segment distance along one segment by golden-section search (to about `1e-12` of the segments'
//! size), and point–triangle distances take the plane projection when it lies inside the triangle, else the
//! nearest edge. Intersecting triangles are *not* detected (use an exact intersection test first).

use nalgebra::Vector3;

type V = Vector3<f64>;

/// Distance from `p` to the closed segment `[s, e]`.
pub fn point_segment_distance(p: &V, s: &V, e: &V) -> f64 {
    let d = e - s;
    let len2 = d.norm_squared();
    let u = if len2 > 0.0 {
        ((p - s).dot(&d) / len2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    (p - (s + d * u)).norm()
}

/// Distance between the closed segments `[p0, p1]` and `[q0, q1]`.
pub fn segment_distance(p0: &V, p1: &V, q0: &V, q1: &V) -> f64 {
    let f = |u: f64| point_segment_distance(&(p0 + (p1 - p0) * u), q0, q1);
    let (mut lo, mut hi) = (0.0f64, 1.0f64);
    let g = 0.618_033_988_749_895;
    for _ in 0..100 {
        let (m1, m2) = (hi - g * (hi - lo), lo + g * (hi - lo));
        if f(m1) <= f(m2) {
            hi = m2;
        } else {
            lo = m1;
        }
    }
    f(lo).min(f(hi)).min(f(0.0)).min(f(1.0))
}

/// Distance from `p` to the closed triangle `t`.
pub fn point_triangle_distance(p: &V, t: &[V; 3]) -> f64 {
    let edges = (0..3)
        .map(|i| point_segment_distance(p, &t[i], &t[(i + 1) % 3]))
        .fold(f64::INFINITY, f64::min);
    let n = (t[1] - t[0]).cross(&(t[2] - t[0]));
    let n2 = n.norm_squared();
    if n2 == 0.0 {
        return edges;
    }
    let q = p - n * ((p - t[0]).dot(&n) / n2);
    let inside = (0..3).all(|i| (t[(i + 1) % 3] - t[i]).cross(&(q - t[i])).dot(&n) >= 0.0);
    if inside {
        edges.min((p - q).norm())
    } else {
        edges
    }
}

/// Distance between two triangles that do not intersect: the least of the 6 vertex–triangle and 9 edge–edge
/// distances.
pub fn triangle_distance(a: &[[f64; 3]; 3], b: &[[f64; 3]; 3]) -> f64 {
    let (a, b) = (a.map(V::from), b.map(V::from));
    let mut d = f64::INFINITY;
    for p in &a {
        d = d.min(point_triangle_distance(p, &b));
    }
    for p in &b {
        d = d.min(point_triangle_distance(p, &a));
    }
    for i in 0..3 {
        for j in 0..3 {
            d = d.min(segment_distance(
                &a[i],
                &a[(i + 1) % 3],
                &b[j],
                &b[(j + 1) % 3],
            ));
        }
    }
    d
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_distances() {
        let t = [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]];
        let up = t.map(|p| [p[0], p[1], p[2] + 2.0]);
        assert!((triangle_distance(&t, &up) - 2.0).abs() < 1e-12);
        let crossing = [[0.2, 0.2, 1.0], [0.2, 0.2, 3.0], [0.3, 0.2, 3.0]];
        assert!((triangle_distance(&t, &crossing) - 1.0).abs() < 1e-12);
        let skew = segment_distance(
            &V::new(-1.0, 0.0, 0.0),
            &V::new(1.0, 0.0, 0.0),
            &V::new(0.0, -1.0, 0.5),
            &V::new(0.0, 1.0, 0.5),
        );
        assert!((skew - 0.5).abs() < 1e-12);
    }
}

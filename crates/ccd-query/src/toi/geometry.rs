//! Floating-point closest points (Ericson, *Real-Time Collision Detection*, §5.1.5 and §5.1.9).
//!
//! Only heuristics use them: the choice of separating axes in the leaf search (any finite axis is sound there)
//! and the contact point and normal reported at `t_hi`. No verdict depends on their rounding.

use ccd_bv::Real;
use nalgebra::Vector3;

/// The point of triangle `x` closest to `p`.
pub(crate) fn closest_on_triangle<T: Real>(p: &Vector3<T>, x: &[Vector3<T>; 3]) -> Vector3<T> {
    let (a, b, c) = (x[0], x[1], x[2]);
    let (ab, ac, ap) = (b - a, c - a, p - a);
    let (d1, d2) = (ab.dot(&ap), ac.dot(&ap));
    let zero = T::zero();
    if d1 <= zero && d2 <= zero {
        return a;
    }
    let bp = p - b;
    let (d3, d4) = (ab.dot(&bp), ac.dot(&bp));
    if d3 >= zero && d4 <= d3 {
        return b;
    }
    let vc = d1 * d4 - d3 * d2;
    if vc <= zero && d1 >= zero && d3 <= zero {
        return a + ab * ratio(d1, d1 - d3);
    }
    let cp = p - c;
    let (d5, d6) = (ab.dot(&cp), ac.dot(&cp));
    if d6 >= zero && d5 <= d6 {
        return c;
    }
    let vb = d5 * d2 - d1 * d6;
    if vb <= zero && d2 >= zero && d6 <= zero {
        return a + ac * ratio(d2, d2 - d6);
    }
    let va = d3 * d6 - d5 * d4;
    if va <= zero && (d4 - d3) >= zero && (d5 - d6) >= zero {
        return b + (c - b) * ratio(d4 - d3, (d4 - d3) + (d5 - d6));
    }
    let denom = va + vb + vc;
    if denom <= zero || !denom.finite() {
        // Degenerate triangle: fall back to its edges.
        return [(a, b), (b, c), (c, a)]
            .iter()
            .map(|(s, e)| closest_on_segment(p, s, e))
            .min_by(|u, v| {
                (u - p)
                    .norm_squared()
                    .partial_cmp(&(v - p).norm_squared())
                    .unwrap_or(std::cmp::Ordering::Equal)
            })
            .unwrap_or(a);
    }
    a + ab * (vb / denom) + ac * (vc / denom)
}

/// The point of segment `[s, e]` closest to `p`.
pub(crate) fn closest_on_segment<T: Real>(
    p: &Vector3<T>,
    s: &Vector3<T>,
    e: &Vector3<T>,
) -> Vector3<T> {
    let d = e - s;
    s + d * ratio((p - s).dot(&d), d.norm_squared())
}

/// `n / d` clamped to `[0, 1]`; 0 when `d` is not positive.
fn ratio<T: Real>(n: T, d: T) -> T {
    if d > T::zero() {
        (n / d).max(T::zero()).min(T::one())
    } else {
        T::zero()
    }
}

/// Closest points `(on [p1, q1], on [p2, q2])` of two segments.
pub(crate) fn closest_segments<T: Real>(
    p1: &Vector3<T>,
    q1: &Vector3<T>,
    p2: &Vector3<T>,
    q2: &Vector3<T>,
) -> (Vector3<T>, Vector3<T>) {
    let (d1, d2, r) = (q1 - p1, q2 - p2, p1 - p2);
    let (a, e, f) = (d1.norm_squared(), d2.norm_squared(), d2.dot(&r));
    let zero = T::zero();
    let (s, t);
    if a <= zero && e <= zero {
        return (*p1, *p2);
    }
    if a <= zero {
        s = zero;
        t = ratio(f, e);
    } else {
        let c = d1.dot(&r);
        if e <= zero {
            t = zero;
            s = ratio(-c, a);
        } else {
            let b = d1.dot(&d2);
            let denom = a * e - b * b;
            let s0 = if denom > zero {
                ratio(b * f - c * e, denom)
            } else {
                zero
            };
            let tt = (b * s0 + f) / e;
            if tt < zero {
                t = zero;
                s = ratio(-c, a);
            } else if tt > T::one() {
                t = T::one();
                s = ratio(b - c, a);
            } else {
                t = tt;
                s = s0;
            }
        }
    }
    (p1 + d1 * s, p2 + d2 * t)
}

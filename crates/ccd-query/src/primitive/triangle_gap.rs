//! A cheap certified lower bound on the distance between two triangles: the gap across either triangle's
//! plane. The distance queries use it to skip the full [`distance_triangle_triangle`](super::distance_triangle_triangle)
//! for pairs of leaves that cannot beat the best distance found.

use ccd_interval::{Real, bound_down};

type P = [f64; 3];

/// A lower bound on the distance between the closed triangles `a` and `b` (one common frame): the larger of the
/// gaps between each triangle's plane and the other triangle's corners when those lie strictly on one side, less
/// a rounding allowance; 0 when the corners straddle both planes, a triangle is degenerate, or anything is not
/// finite.
///
/// # Guarantee
/// Never above the exact distance of the given coordinates, for any finite input. The work is done in `f64` on the
/// exact widenings of the coordinates: with `u = 2⁻⁵³`, the edge vectors `e₁, e₂` of the plane's triangle and
/// the corner offsets `d_k` (each component off by at most `u` relative), the normal `n = e₁ × e₂` is off by at
/// most `10 u·E₁E₂` per component and each height `h_k = n·d_k` by at most `60 u·E₁E₂D` (`E₁`, `E₂`, `D` the
/// largest components of `e₁`, `e₂` and the `d_k`); the bound uses `128 u·E₁E₂D` for the heights and
/// `|fl(n)|·(1 + 4u) + 32 u·E₁E₂` for `|n|`, divides the smallest height less its allowance by that, and rounds
/// down. Products `E₁E₂D` below `2⁻⁹⁰⁰` (where these relative bounds could underflow) give 0 for that plane.
pub fn triangle_distance_lower_bound<T: Real>(a: &[[T; 3]; 3], b: &[[T; 3]; 3]) -> T {
    let wide = |t: &[[T; 3]; 3]| t.map(|p| p.map(|x| x.to_f64_exact()));
    let (a, b) = (wide(a), wide(b));
    // A NaN or infinity anywhere makes the sum non-finite (so may two huge finite ones: 0 is still a bound).
    if !a.iter().chain(&b).flatten().sum::<f64>().is_finite() {
        return T::zero();
    }
    let gap = plane_gap(&a, &b).max(plane_gap(&b, &a));
    if gap > 0.0 {
        bound_down(T::lit(gap))
    } else {
        T::zero()
    }
}

/// The certified gap between the plane of `t` and the corners of `o` (0 if they straddle it or nothing can be
/// certified; see [`triangle_distance_lower_bound`]).
#[inline]
fn plane_gap(t: &[P; 3], o: &[P; 3]) -> f64 {
    let sub = |p: &P, q: &P| [p[0] - q[0], p[1] - q[1], p[2] - q[2]];
    let big = |v: &P| v[0].abs().max(v[1].abs()).max(v[2].abs());
    let (e1, e2) = (sub(&t[1], &t[0]), sub(&t[2], &t[0]));
    let n = [
        e1[1] * e2[2] - e1[2] * e2[1],
        e1[2] * e2[0] - e1[0] * e2[2],
        e1[0] * e2[1] - e1[1] * e2[0],
    ];
    let d = o.map(|p| sub(&p, &t[0]));
    let h = d.map(|d| n[0] * d[0] + n[1] * d[1] + n[2] * d[2]);
    let e12 = big(&e1) * big(&e2);
    let scale = e12 * big(&d[0]).max(big(&d[1])).max(big(&d[2]));
    if scale.partial_cmp(&f64::from_bits(0x07b0_0000_0000_0000))
        != Some(std::cmp::Ordering::Greater)
    {
        // Below 2⁻⁹⁰⁰ (or NaN): nothing is certified.
        return 0.0;
    }
    let err = 128.0 * f64::EPSILON / 2.0 * scale;
    let (lo, hi) = (h[0].min(h[1]).min(h[2]), h[0].max(h[1]).max(h[2]));
    let height = if lo > err {
        lo - err
    } else if -hi > err {
        -hi - err
    } else {
        return 0.0;
    };
    let u = f64::EPSILON / 2.0;
    let norm = (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt() * (1.0 + 4.0 * u) + 32.0 * u * e12;
    let gap = height / norm * (1.0 - 4.0 * f64::EPSILON);
    if gap.is_finite() { gap } else { 0.0 }
}

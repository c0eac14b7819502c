//! Exact orientation signs for any finite coordinates.
//!
//! Shewchuk's adaptive predicates (`robust`) are exact only while none of
//! their operations overflows or underflows. Where every coordinate is zero
//! or has a magnitude in `[2^-250, 2^250]` they are used as they are: such
//! coordinates are multiples of `2^-302`, so every exact intermediate of the
//! expansion arithmetic (products of up to three differences and their
//! rounding errors) is a multiple of `2^-906` below `2^760`, and the
//! error-bound products (constants ≥ `2^-102` times non-zero permanents
//! ≥ `2^-906`) stay normal too. Otherwise the determinant is evaluated in
//! big integers (`num-bigint`; every finite `f64` is an integer multiple of `2^-1074`).

use std::cmp::Ordering;

use nalgebra::Vector3;
use num_bigint::{BigInt, Sign};
use robust::{Coord, Coord3D, orient2d, orient3d};

/// Magnitudes (besides zero) for which `robust` is used (module docs).
const SAFE: std::ops::RangeInclusive<f64> =
    f64::from_bits((1023 - 250) << 52)..=f64::from_bits((1023 + 250) << 52);

/// Shewchuk's `ccwerrboundA`, `(3 + 16ε)ε` with `ε = 2^-53`.
const CCW_BOUND: f64 = (3.0 + 16.0 * f64::EPSILON / 2.0) * (f64::EPSILON / 2.0);

/// `2^-900`: products summing to at least this lost nothing to underflow
/// that the filter's bound does not cover.
const TINY_PERMANENT: f64 = f64::from_bits((1023 - 900) << 52);

fn safe(x: f64) -> bool {
    x == 0.0 || SAFE.contains(&x.abs())
}

/// The sign of `robust::orient3d(a, b, c, d)` = `det[a − d, b − d, c − d]`,
/// exact: `Greater` when `d` lies below the plane through `a, b, c` (which
/// appear counter-clockwise seen from above), `Equal` when coplanar.
pub(crate) fn orient3d_sign(pts: [&Vector3<f64>; 4]) -> Ordering {
    if pts.iter().all(|p| p.iter().all(|&x| safe(x))) {
        let [a, b, c, d] = pts.map(|p| Coord3D {
            x: p.x,
            y: p.y,
            z: p.z,
        });
        return sign(orient3d(a, b, c, d));
    }
    orient3d_big(pts)
}

/// The sign of `det[a − d, b − d, c − d]` in big integers: exact for any finite coordinates.
fn orient3d_big(pts: [&Vector3<f64>; 4]) -> Ordering {
    let e0 = min_exponent(pts.iter().flat_map(|p| p.iter()));
    let q = pts.map(|p| p.map(|x| big(x, e0)));
    let d = |i: usize, k: usize| &q[i][k] - &q[3][k];
    let [a, b, c] = [0, 1, 2].map(|i| [d(i, 0), d(i, 1), d(i, 2)]);
    let minor = |u: &[BigInt; 3], v: &[BigInt; 3]| &u[1] * &v[2] - &u[2] * &v[1];
    let det = &a[0] * minor(&b, &c) + &b[0] * minor(&c, &a) + &c[0] * minor(&a, &b);
    det.sign().cmp_zero()
}

/// The sign of `robust::orient2d(a, b, c)` = `(a − c) × (b − c)`, exact:
/// `Greater` when `a, b, c` turn counter-clockwise.
#[inline]
pub(crate) fn orient2d_sign(pts: [[f64; 2]; 3]) -> Ordering {
    // Shewchuk's first filter, inlined: the rounded determinant has the exact
    // sign when it exceeds (3 + 16ε)ε times the sum of the products' magnitudes
    // (ε = 2^-53), unless a product underflowed (sum below 2^-900, where the
    // bound no longer covers the products' absolute errors) or overflowed.
    let [a, b, c] = pts;
    let (left, right) = ((a[0] - c[0]) * (b[1] - c[1]), (a[1] - c[1]) * (b[0] - c[0]));
    let (det, sum) = (left - right, left.abs() + right.abs());
    if sum >= TINY_PERMANENT && det.abs() > CCW_BOUND * sum && sum.is_finite() {
        return det.total_cmp(&0.0);
    }
    orient2d_exact(pts)
}

/// [`orient2d_sign`] where its filter cannot decide: adaptive where that is exact, else big integers.
#[cold]
#[inline(never)]
fn orient2d_exact(pts: [[f64; 2]; 3]) -> Ordering {
    if pts.iter().flatten().all(|&x| safe(x)) {
        let [a, b, c] = pts.map(|p| Coord { x: p[0], y: p[1] });
        return sign(orient2d(a, b, c));
    }
    orient2d_big(pts)
}

/// The sign of `(a − c) × (b − c)` in big integers: exact for any finite coordinates.
fn orient2d_big(pts: [[f64; 2]; 3]) -> Ordering {
    let e0 = min_exponent(pts.iter().flatten());
    let q = pts.map(|p| p.map(|x| big(x, e0)));
    let d = |i: usize, k: usize| &q[i][k] - &q[2][k];
    (d(0, 0) * d(1, 1) - d(0, 1) * d(1, 0)).sign().cmp_zero()
}

/// The sign of `x` (`-0.0` is `Equal`).
/// The order of a sign against zero.
trait CmpZero {
    fn cmp_zero(self) -> Ordering;
}

impl CmpZero for Sign {
    fn cmp_zero(self) -> Ordering {
        match self {
            Sign::Minus => Ordering::Less,
            Sign::NoSign => Ordering::Equal,
            Sign::Plus => Ordering::Greater,
        }
    }
}

fn sign(x: f64) -> Ordering {
    x.partial_cmp(&0.0).unwrap_or(Ordering::Equal)
}

/// `|x| = m·2^e` with an integer `m < 2^53` (`x` finite).
fn decompose(x: f64) -> (u64, i32) {
    let bits = x.to_bits();
    let (exp, frac) = (((bits >> 52) & 0x7ff) as i32, bits & ((1 << 52) - 1));
    if exp == 0 {
        (frac, -1074)
    } else {
        (frac | 1 << 52, exp - 1075)
    }
}

/// The smallest exponent `e` of [`decompose`] over the non-zero values.
fn min_exponent<'a>(xs: impl Iterator<Item = &'a f64>) -> i32 {
    xs.filter(|x| **x != 0.0)
        .map(|&x| decompose(x).1)
        .min()
        .unwrap_or(0)
}

/// `x` as the integer `x / 2^e0` (exact: `e0` is at most the exponent of `x`'s last mantissa bit).
fn big(x: f64, e0: i32) -> BigInt {
    let (m, e) = decompose(x);
    let v = BigInt::from(m) << ((e - e0) as usize);
    if x < 0.0 { -v } else { v }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A deterministic stream of coordinates with assorted exponents.
    fn coords(seed: u64, spread: i32) -> impl FnMut() -> f64 {
        let mut s = seed;
        move || {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let m = (s >> 11) as f64 / (1u64 << 53) as f64 - 0.5;
            let e = ((s >> 3) % (2 * spread as u64 + 1)) as i32 - spread;
            if s & 7 == 0 { 0.0 } else { m * 2f64.powi(e) }
        }
    }

    /// Where `robust` is exact, the big-integer evaluation agrees with it.
    #[test]
    fn big_integers_agree_with_robust() {
        let mut x = coords(7, 60);
        for _ in 0..20_000 {
            let p: [Vector3<f64>; 4] = std::array::from_fn(|_| Vector3::new(x(), x(), x()));
            // Coplanar on purpose now and then: d = a + (b − a) + (c − a) rounded.
            let mut p = p;
            if p[0].x > 0.3 {
                p[3] = p[1] + p[2] - p[0];
            }
            let pts = [&p[0], &p[1], &p[2], &p[3]];
            assert_eq!(orient3d_big(pts), orient3d_sign(pts));
        }
    }

    /// The filtered and adaptive paths agree with the big-integer evaluation,
    /// nearly collinear triples included.
    #[test]
    fn orient2d_agrees_with_big_integers() {
        let mut x = coords(11, 60);
        for k in 0..50_000 {
            let [a, b, mut c]: [[f64; 2]; 3] = std::array::from_fn(|_| [x(), x()]);
            // Collinear up to rounding now and then: c = a + t·(b − a).
            if k % 2 == 0 {
                let t = x();
                c = [a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1])];
            }
            assert_eq!(
                orient2d_sign([a, b, c]),
                orient2d_big([a, b, c]),
                "{a:?} {b:?} {c:?}"
            );
        }
    }

    #[test]
    fn tiny_and_huge_mixes() {
        let t = 1e-300;
        let o = Vector3::zeros();
        let (ex, ey, ez) = (Vector3::x(), Vector3::y() * t, Vector3::z() * t);
        // det[ex − ez, ey − ez, −ez] = −t² ≠ 0, which robust underflows to 0.
        assert_eq!(orient3d_sign([&ex, &ey, &o, &ez]), Ordering::Less);
        assert_eq!(orient3d_sign([&ey, &ex, &o, &ez]), Ordering::Greater);
        assert_eq!(orient3d_sign([&ex, &(ex * 2.0), &o, &ez]), Ordering::Equal);
        assert_eq!(
            orient2d_sign([[1.0, 0.0], [0.0, t], [0.0, 0.0]]),
            Ordering::Greater
        );
        assert_eq!(
            orient2d_sign([[1e300, 0.0], [0.0, 5e-324], [0.0, 0.0]]),
            Ordering::Greater
        );
        // robust returns -0.0 here: still "collinear".
        assert_eq!(
            orient2d_sign([[0.0, 0.0], [1.0, 0.0], [1.0, 0.0]]),
            Ordering::Equal
        );
    }
}

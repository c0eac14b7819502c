//! The `f64` working frame of the primitive distance functions: one exact power-of-two rescaling per query (so
//! no intermediate overflows or underflows) and Kahan's accurate unit normal.

use ccd_interval::Real;
use ccd_interval::pow2::{pow2, unit_exponent};
use nalgebra::Vector3;

/// Vectors of the working frame.
pub(crate) type V = Vector3<f64>;

/// |n|² below this (about 2^-897) counts as a zero normal: the triangle or segment pair is then within 2^-448 of a
/// degenerate one, far below the rounding bound, and the Kahan determinants keep their accuracy above it.
const MIN_NORMAL2: f64 = 1e-270;

/// Exact power-of-two rescaling of one query into the `f64` working frame (largest magnitude in [1/2, 1)).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Frame {
    /// Two factors whose product is 2^k (each within the normal range).
    into: [f64; 2],
    /// Two factors whose product is 2^-k.
    back: [f64; 2],
}

impl Frame {
    /// The frame for every coordinate of `points`; the identity when they are all zero or one is not finite.
    pub(crate) fn covering<'a, T: Real>(points: impl IntoIterator<Item = &'a Vector3<T>>) -> Self {
        let (mut max, mut finite) = (0.0f64, true);
        for x in points.into_iter().flat_map(|p| p.iter()) {
            let x = x.to_f64_exact().abs();
            finite &= x.is_finite();
            max = max.max(x);
        }
        let k = if finite && max > 0.0 {
            unit_exponent(max)
        } else {
            0
        };
        let (k0, k1) = (k / 2, k - k / 2);
        Frame {
            into: [pow2(k0), pow2(k1)],
            back: [pow2(-k0), pow2(-k1)],
        }
    }

    /// A point of the query, in the frame (exact but for coordinates below 2^-1021 of the largest).
    pub(crate) fn load<T: Real>(&self, v: &Vector3<T>) -> V {
        v.map(|x| x.to_f64_exact() * self.into[0] * self.into[1])
    }

    /// A length or coordinate of the frame, back in the query's units, rounded once to `T`.
    pub(crate) fn length<T: Real>(&self, x: f64) -> T {
        T::lit(x * self.back[0] * self.back[1])
    }

    /// A point of the frame, back in the query's units.
    pub(crate) fn store<T: Real>(&self, v: &V) -> Vector3<T> {
        v.map(|x| self.length(x))
    }
}

/// `a·d − b·c` with Kahan's FMA algorithm: relative error at most 2u barring underflow.
fn det2(a: f64, d: f64, b: f64, c: f64) -> f64 {
    let w = b * c;
    let low = (-b).mul_add(c, w); // w − b·c, exactly
    a.mul_add(d, -w) + low
}

/// The unit normal of `x × y` and |x × y|, or `None` when |x × y|² is below `MIN_NORMAL2` (parallel or
/// degenerate). The cross product is formed by `det2`, so its direction is accurate to 2u even when `x` and `y`
/// are nearly parallel; normalising adds u.
pub(crate) fn unit_normal(x: &V, y: &V) -> Option<(V, f64)> {
    let n = V::new(
        det2(x.y, y.z, x.z, y.y),
        det2(x.z, y.x, x.x, y.z),
        det2(x.x, y.y, x.y, y.x),
    );
    let n2 = n.norm_squared();
    (n2 >= MIN_NORMAL2).then(|| {
        let len = n2.sqrt();
        (n / len, len)
    })
}

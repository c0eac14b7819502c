//! Lanes of 3-vectors for the batched fitting kernels ([`super::eigen_lanes`], [`super::frame_lanes`]): nalgebra's
//! vector operations evaluated lane by lane in the same order of IEEE operations, and lane-wise choices.

use crate::lanes::Lanes;

/// Items per batch: two AVX registers of `f64` per operation (for the eigen-decomposition four lanes measured
/// 42 ns per matrix, eight 30 ns, sixteen 30 ns).
pub(crate) const LANES: usize = 8;

/// `f64` lanes.
pub(crate) type L = Lanes<f64, LANES>;

/// A 3-vector per lane.
#[derive(Clone, Copy)]
pub(crate) struct V(pub(crate) [L; 3]);

impl V {
    #[inline(always)]
    pub(crate) fn splat(v: [f64; 3]) -> Self {
        Self([L::splat(v[0]), L::splat(v[1]), L::splat(v[2])])
    }

    /// nalgebra's `dot` for 3-vectors: `(x·x' + y·y') + z·z'`.
    #[inline(always)]
    pub(crate) fn dot(&self, o: &Self) -> L {
        self.0[0] * o.0[0] + self.0[1] * o.0[1] + self.0[2] * o.0[2]
    }

    /// nalgebra's `norm_squared`: `0 + dot`.
    #[inline(always)]
    pub(crate) fn norm_squared(&self) -> L {
        L::splat(0.0) + self.dot(self)
    }

    /// nalgebra's `cross`.
    #[inline(always)]
    pub(crate) fn cross(&self, o: &Self) -> Self {
        let ([ax, ay, az], [bx, by, bz]) = (self.0, o.0);
        Self([ay * bz - az * by, az * bx - ax * bz, ax * by - ay * bx])
    }

    #[inline(always)]
    pub(crate) fn scale(&self, s: L) -> Self {
        Self([self.0[0] * s, self.0[1] * s, self.0[2] * s])
    }

    #[inline(always)]
    pub(crate) fn div(&self, s: L) -> Self {
        Self([self.0[0] / s, self.0[1] / s, self.0[2] / s])
    }

    #[inline(always)]
    pub(crate) fn sub(&self, o: &Self) -> Self {
        Self([self.0[0] - o.0[0], self.0[1] - o.0[1], self.0[2] - o.0[2]])
    }

    #[inline(always)]
    pub(crate) fn add(&self, o: &Self) -> Self {
        Self([self.0[0] + o.0[0], self.0[1] + o.0[1], self.0[2] + o.0[2]])
    }

    /// Lane `l` of each coordinate.
    #[inline(always)]
    pub(crate) fn lane(&self, l: usize) -> [f64; 3] {
        [self.0[0].0[l], self.0[1].0[l], self.0[2].0[l]]
    }
}

/// Lane-wise `if cond(l) { x } else { y }`: one comparison and blend per lane set where `cond` compares lanes
/// (a loop with a single output, which LLVM vectorises; conditional updates of several arrays it does not).
#[inline(always)]
pub(crate) fn pick(cond: impl Fn(usize) -> bool, x: L, y: L) -> L {
    let mut r = y;
    for l in 0..LANES {
        r.0[l] = if cond(l) { x.0[l] } else { y.0[l] };
    }
    r
}

/// [`pick`] for each coordinate.
#[inline(always)]
pub(crate) fn pick_v(cond: impl Fn(usize) -> bool, x: &V, y: &V) -> V {
    V([
        pick(&cond, x.0[0], y.0[0]),
        pick(&cond, x.0[1], y.0[1]),
        pick(&cond, x.0[2], y.0[2]),
    ])
}

//! [`eigen_sorted`] of many matrices, [`LANES`] at a time: the same closed form evaluated over lanes
//! ([`super::vec_lanes`]), every branch of the scalar code turned into a lane-wise choice between the results of
//! both sides.
//!
//! Each lane performs exactly the scalar sequence of IEEE operations (the same products and sums in the same
//! order, no fused multiply-adds), so each result is bit for bit the scalar one. A matrix the scalar code does
//! not decompose as it is (an entry outside the statistics window, which it rescales first, or a zero or
//! non-finite matrix) is recomputed by the scalar code.
//!
//! Compiled with AVX (chosen at run time), each operation is two 4-lane instructions: about 30 ns per matrix
//! against 110 ns one at a time (`cargo bench -p ccd-benches --bench eigen`, Intel Xeon host). A tree build uses
//! it to decompose the covariances of a level's nodes together. An AVX-512 copy measured slower (44 ns per
//! matrix, and slower builds around it), so there is none.

use nalgebra::{Matrix3, Vector3};

use super::eigen::{TINY, eigen_sorted, top_root_poly};
use super::vec_lanes::{L, LANES, V, pick, pick_v};
use ccd_interval::pow2::pow2;

/// The shifted matrix `B = A − qI` of [`eigen_sorted`], per lane.
struct Shifted {
    unit: L,
    d: [L; 3],
    xy: L,
    xz: L,
    yz: L,
}

impl Shifted {
    #[inline(always)]
    fn quadratic(&self, v: &V) -> L {
        let ([dx, dy, dz], [x, y, z]) = (self.d, v.0);
        dx * x * x
            + dy * y * y
            + dz * z * z
            + L::splat(2.0) * (self.xy * x * y + self.xz * x * z + self.yz * y * z)
    }

    #[inline(always)]
    fn apply(&self, v: &V) -> V {
        let ([dx, dy, dz], [x, y, z]) = (self.d, v.0);
        V([
            dx * x + self.xy * y + self.xz * z,
            self.xy * x + dy * y + self.yz * z,
            self.xz * x + self.yz * y + dz * z,
        ])
    }

    #[inline(always)]
    fn isolated_eigenvector(&self) -> V {
        let ([dx, dy, dz], xy, xz, yz) = (self.d, self.xy, self.xz, self.yz);
        let two = L::splat(2.0);
        let p2 = (dx * dx + dy * dy + dz * dz + two * (xy * xy + xz * xz + yz * yz))
            * L::splat(1.0 / 6.0);
        let p = p2.sqrt();
        let det = dx * (dy * dz - yz * yz) - xy * (xy * dz - yz * xz) + xz * (xy * yz - dy * xz);
        let mut half_det = det / (two * p2 * p);
        // `f64::clamp(-1, 1)`, NaN kept.
        for h in &mut half_det.0 {
            *h = h.clamp(-1.0, 1.0);
        }
        // `top_root(h)` for `h ≥ 0`, else `−top_root(−h)`.
        let s = pick(|l| half_det.0[l] >= 0.0, half_det, -half_det);
        let root = top_root(s);
        let beta = pick(|l| half_det.0[l] >= 0.0, root, -root);
        let l = p * beta;
        let rows = [
            V([dx - l, xy, xz]),
            V([xy, dy - l, yz]),
            V([xz, yz, dz - l]),
        ];
        let mut best = rows[0].cross(&rows[1]);
        let mut best_n = best.norm_squared();
        for c in [rows[0].cross(&rows[2]), rows[1].cross(&rows[2])] {
            let n = c.norm_squared();
            best = pick_v(|l| n.0[l] > best_n.0[l], &c, &best);
            best_n = pick(|l| n.0[l] > best_n.0[l], n, best_n);
        }
        let unit = best.div(best_n.sqrt());
        let usable = |l: usize| {
            let n = best_n.0[l];
            p2.0[l] != 0.0 && n > 0.0 && n.is_finite()
        };
        pick_v(usable, &unit, &V::splat([1.0, 0.0, 0.0]))
    }

    #[inline(always)]
    fn plane_eigenvectors(&self, u: &V, w: &V) -> (V, V) {
        let bw = self.apply(w);
        let (a, b, c) = (self.quadratic(u), u.dot(&bw), w.dot(&bw));
        let tau = (c - a) / (L::splat(2.0) * b);
        let one = L::splat(1.0);
        let mut signum = tau;
        for s in &mut signum.0 {
            *s = s.signum();
        }
        let near = signum / (tau.abs() + (tau * tau + one).sqrt());
        let far = L::splat(0.5) / tau;
        let t = pick(|l| tau.0[l].abs() < 1e150, near, far);
        let cos = one / (t * t + one).sqrt();
        let sin = t * cos;
        let second = u.scale(cos).sub(&w.scale(sin));
        let third = u.scale(sin).add(&w.scale(cos));
        // An off-diagonal entry that counts as zero: the plane's basis as it is.
        let diagonal = |l: usize| b.0[l].abs() <= TINY * self.unit.0[l];
        (pick_v(diagonal, u, &second), pick_v(diagonal, w, &third))
    }
}

/// [`super::eigen`]'s `top_root`, per lane.
#[inline(always)]
fn top_root(s: L) -> L {
    let [c0, c1, c2, c3] = top_root_poly();
    let [c0, c1, c2, c3] = [L::splat(c0), L::splat(c1), L::splat(c2), L::splat(c3)];
    let x = c0 + s * (c1 + s * (c2 + s * c3));
    let (two, three) = (L::splat(2.0), L::splat(3.0));
    let step = |x: L| x - (x * x * x - three * x - two * s) / (three * x * x - three);
    step(step(x))
}

/// [`super::covariance::any_orthogonal`] of the unit `x`, per lane: the cross product with the coordinate axis
/// of `x`'s smallest magnitude (the first of equal ones), normalised.
#[inline(always)]
pub(super) fn any_orthogonal(x: &V) -> V {
    let [ax, ay, az] = [x.0[0].abs(), x.0[1].abs(), x.0[2].abs()];
    // nalgebra's `iamin`: strict comparisons from the first component.
    let y_first = |l: usize| ay.0[l] < ax.0[l];
    let least = pick(y_first, ay, ax);
    let z_first = |l: usize| az.0[l] < least.0[l];
    let (one, zero) = (L::splat(1.0), L::splat(0.0));
    let e = V([
        pick(|l| !z_first(l) && !y_first(l), one, zero),
        pick(|l| !z_first(l) && y_first(l), one, zero),
        pick(z_first, one, zero),
    ]);
    let w = x.cross(&e);
    w.div(w.norm_squared().sqrt())
}

/// One batch: `out[l]` is [`eigen_sorted`] of `mats[l]`.
#[inline(always)]
fn batch(mats: &[Matrix3<f64>], out: &mut [(Matrix3<f64>, [f64; 3])]) {
    let entry = |i: usize, j: usize| {
        let mut e = L::splat(0.0);
        for (x, m) in e.0.iter_mut().zip(mats) {
            *x = m[(i, j)];
        }
        e
    };
    let [xx, xy, xz, yy, yz, zz] = [
        entry(0, 0),
        entry(1, 0),
        entry(2, 0),
        entry(1, 1),
        entry(2, 1),
        entry(2, 2),
    ];
    let mut scale = L::splat(0.0);
    for x in [xx, xy, xz, yy, yz, zz] {
        scale = scale.larger(x.abs());
    }
    let q = (xx + yy + zz) * L::splat(1.0 / 3.0);
    let b = Shifted {
        unit: scale,
        d: [xx - q, yy - q, zz - q],
        xy,
        xz,
        yz,
    };
    let first = b.isolated_eigenvector();
    let u = any_orthogonal(&first);
    let w = first.cross(&u);
    let (second, third) = b.plane_eigenvectors(&u, &w);
    let mut values = [
        b.quadratic(&first) + q,
        b.quadratic(&second) + q,
        b.quadratic(&third) + q,
    ];
    let mut vectors = [first, second, third];
    // Three compare-exchanges: descending by eigenvalue.
    for (i, j) in [(0, 1), (1, 2), (0, 1)] {
        let (vi, vj) = (values[i], values[j]);
        let swap = |l: usize| vj.0[l] > vi.0[l];
        values[i] = pick(swap, vj, vi);
        values[j] = pick(swap, vi, vj);
        let (ci, cj) = (vectors[i], vectors[j]);
        vectors[i] = pick_v(swap, &cj, &ci);
        vectors[j] = pick_v(swap, &ci, &cj);
    }
    let [x, y, _] = vectors;
    let z = x.cross(&y);
    let (lo, hi) = (pow2(-128), pow2(128));
    for (l, (o, m)) in out.iter_mut().zip(mats).enumerate() {
        let s = scale.0[l];
        // Outside the statistics window (zero, tiny, huge or not finite): the scalar code's rescaling or identity.
        if !(s >= lo && s <= hi) {
            *o = eigen_sorted(m);
            continue;
        }
        let col = |v: &V| Vector3::from(v.lane(l));
        *o = (
            Matrix3::from_columns(&[col(&x), col(&y), col(&z)]),
            [values[0].0[l], values[1].0[l], values[2].0[l]],
        );
    }
}

/// [`eigen_sorted`] of each matrix of `mats`, appended to `out` in order, bit for bit (inlined into each
/// copy compiled with wider vectors).
#[inline(always)]
fn each(mats: &[Matrix3<f64>], out: &mut Vec<(Matrix3<f64>, [f64; 3])>) {
    let start = out.len();
    out.resize(start + mats.len(), (Matrix3::identity(), [0.0; 3]));
    let mut dst = out[start..].chunks_exact_mut(LANES);
    let mut src = mats.chunks_exact(LANES);
    for (m, o) in (&mut src).zip(&mut dst) {
        batch(m, o);
    }
    for (m, o) in src.remainder().iter().zip(dst.into_remainder()) {
        *o = eigen_sorted(m);
    }
}

/// [`each`] compiled with AVX.
///
/// # Safety
/// The processor must support AVX.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx")]
unsafe fn each_avx(mats: &[Matrix3<f64>], out: &mut Vec<(Matrix3<f64>, [f64; 3])>) {
    each(mats, out);
}

/// [`eigen_sorted`] of each matrix of `mats`, appended to `out` in order: bit for bit the scalar results, [`LANES`]
/// at a time where the processor has AVX (one at a time otherwise).
pub(crate) fn eigen_sorted_many(mats: &[Matrix3<f64>], out: &mut Vec<(Matrix3<f64>, [f64; 3])>) {
    out.reserve(mats.len());
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("avx") {
        // SAFETY: this processor supports AVX, the only requirement of `each_avx`.
        return unsafe { each_avx(mats, out) };
    }
    out.extend(mats.iter().map(eigen_sorted));
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::Rotation3;
    use proptest::prelude::*;

    /// Bitwise equality of two decompositions (NaN equal to NaN of the same bits).
    fn same(a: &(Matrix3<f64>, [f64; 3]), b: &(Matrix3<f64>, [f64; 3])) -> bool {
        a.0.iter()
            .zip(b.0.iter())
            .all(|(x, y)| x.to_bits() == y.to_bits())
            && a.1
                .iter()
                .zip(&b.1)
                .all(|(x, y)| x.to_bits() == y.to_bits())
    }

    /// The lanes, run on whatever this processor has (the portable copy included), against the scalar code.
    fn check(mats: &[Matrix3<f64>]) -> Result<(), TestCaseError> {
        let mut lanes = Vec::new();
        each(mats, &mut lanes);
        let mut dispatched = Vec::new();
        eigen_sorted_many(mats, &mut dispatched);
        prop_assert_eq!(lanes.len(), mats.len());
        for ((m, a), b) in mats.iter().zip(&lanes).zip(&dispatched) {
            let s = eigen_sorted(m);
            prop_assert!(same(a, &s), "{m}: lanes {a:?} scalar {s:?}");
            prop_assert!(same(b, &s), "{m}: dispatched {b:?} scalar {s:?}");
        }
        Ok(())
    }

    fn symmetric() -> impl Strategy<Value = Matrix3<f64>> {
        prop_oneof![
            prop::array::uniform6(-1e3f64..1e3)
                .prop_map(|e| Matrix3::new(e[0], e[3], e[4], e[3], e[1], e[5], e[4], e[5], e[2])),
            // Planted spectra: repeated, nearly repeated, zero and very different eigenvalues.
            (
                prop::array::uniform3(-4.0f64..4.0),
                -1e3f64..1e3,
                prop::array::uniform2(prop_oneof![Just(0.0), 1e-12f64..1e-9, 1e-3f64..1e3]),
                prop_oneof![Just(1.0), Just(1e-200), Just(1e200), Just(1e-30)],
            )
                .prop_map(|(r, base, g, s)| {
                    let r = Rotation3::new(Vector3::from(r));
                    let l = [base + g[0] + g[1], base + g[1], base];
                    r.matrix() * Matrix3::from_diagonal(&l.into()) * r.matrix().transpose() * s
                }),
            // Diagonal and axis-aligned blocks (exact zeros off the diagonal).
            prop::array::uniform3(prop_oneof![Just(0.0), Just(1.0), -5.0f64..5.0])
                .prop_map(|d| Matrix3::from_diagonal(&d.into())),
        ]
    }

    proptest! {
        #[test]
        fn lanes_are_the_scalar_results_bit_for_bit(
            mats in prop::collection::vec(symmetric(), 0..40),
        ) {
            check(&mats)?;
        }
    }

    #[test]
    fn degenerate_lanes_fall_back_to_the_scalar_results() {
        let mut mats = vec![
            Matrix3::zeros(),
            Matrix3::from_element(f64::NAN),
            Matrix3::from_element(f64::INFINITY),
            Matrix3::identity() * 7.0,
            Matrix3::new(1.0, 0.5, 0.0, 0.5, 1.0, 0.25, 0.0, 0.25, -1.0) * 1e300,
            Matrix3::new(1.0, 0.5, 0.0, 0.5, 1.0, 0.25, 0.0, 0.25, -1.0) * 5e-324,
            Matrix3::new(1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0),
            Matrix3::new(2.0, 1.0, 0.0, 1.0, 2.0, 0.0, 0.0, 0.0, 2.0),
        ];
        mats.extend(mats.clone().iter().map(|m| -m));
        mats.push(Matrix3::new(
            1.0,
            f64::NAN,
            0.0,
            f64::NAN,
            1.0,
            0.0,
            0.0,
            0.0,
            1.0,
        ));
        check(&mats).unwrap();
    }
}

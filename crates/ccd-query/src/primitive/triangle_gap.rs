//! A cheap certified lower bound on the distance between two triangles: the gap across either triangle's
//! plane. The distance queries use it to skip the full [`distance_triangle_triangle`](super::distance_triangle_triangle)
//! for pairs of leaves that cannot beat the best distance found.

#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
use ccd_bv::f64x2::F64x2;
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
#[inline]
pub fn triangle_distance_lower_bound<T: Real>(a: &[[T; 3]; 3], b: &[[T; 3]; 3]) -> T {
    let wide = |t: &[[T; 3]; 3]| t.map(|p| p.map(|x| x.to_f64_exact()));
    let gap = plane_gaps(&wide(a), &wide(b));
    if gap > 0.0 {
        bound_down(T::lit(gap))
    } else {
        T::zero()
    }
}

/// The larger of the two certified plane gaps (0 if neither certifies one), both planes at once in the two lanes
/// of [`F64x2`]: lane 0 is the plane of `a` against the corners of `b`, lane 1 the plane of `b` against the corners
/// of `a`. Each lane does [`plane_gap`]'s operations in its order, so within the supported range of coordinates
/// ([`ccd_bv::limits`], where nothing overflows) each lane equals `plane_gap` bit for bit (tested). Where a
/// height or the gap is not finite (inputs that are not finite, or so large that a product overflows) the lane
/// gives 0 rather than trusting a minimum over a NaN height, so no input check is needed first.
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[inline]
fn plane_gaps(a: &[P; 3], b: &[P; 3]) -> f64 {
    type X = F64x2;
    let corner = |k: usize| {
        [
            X::new(a[k][0], b[k][0]),
            X::new(a[k][1], b[k][1]),
            X::new(a[k][2], b[k][2]),
        ]
    };
    let t = [corner(0), corner(1), corner(2)];
    let o = t.map(|p| p.map(X::swap));
    let sub = |p: &[X; 3], q: &[X; 3]| [p[0] - q[0], p[1] - q[1], p[2] - q[2]];
    let big = |v: &[X; 3]| v[0].abs().larger(v[1].abs()).larger(v[2].abs());
    let (e1, e2) = (sub(&t[1], &t[0]), sub(&t[2], &t[0]));
    let n = [
        e1[1] * e2[2] - e1[2] * e2[1],
        e1[2] * e2[0] - e1[0] * e2[2],
        e1[0] * e2[1] - e1[1] * e2[0],
    ];
    let d = [sub(&o[0], &t[0]), sub(&o[1], &t[0]), sub(&o[2], &t[0])];
    let h = d.map(|d| n[0] * d[0] + n[1] * d[1] + n[2] * d[2]);
    let e12 = big(&e1) * big(&e2);
    let scale = e12 * big(&d[0]).larger(big(&d[1])).larger(big(&d[2]));
    let certifiable = scale.gt(X::splat(f64::from_bits(0x07b0_0000_0000_0000)));
    let err = X::splat(128.0 * f64::EPSILON / 2.0) * scale;
    let lo = h[0].smaller(h[1]).smaller(h[2]);
    let neg_hi = X::splat(0.0) - h[0].larger(h[1]).larger(h[2]);
    let (above, below) = (lo.gt(err), neg_hi.gt(err));
    let height = (lo - err).select(above, neg_hi - err);
    let u = f64::EPSILON / 2.0;
    let norm = (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt() * X::splat(1.0 + 4.0 * u)
        + X::splat(32.0 * u) * e12;
    let gap = height / norm * X::splat(1.0 - 4.0 * f64::EPSILON);
    let zero = X::splat(0.0);
    let finite = |x: X| (x * zero).eq(zero);
    let heights_finite = finite(h[0] * zero + h[1] * zero + h[2] * zero);
    let ok = certifiable
        .and(above.or(below))
        .and(heights_finite)
        .and(finite(gap));
    let [g0, g1] = gap.or_zero(ok).lanes();
    g0.max(g1)
}

/// [`plane_gap`] of both triangles against the other, the larger; 0 if anything is not finite (the sum of the
/// coordinates then is not).
#[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
#[inline]
fn plane_gaps(a: &[P; 3], b: &[P; 3]) -> f64 {
    // A NaN or infinity anywhere makes the sum non-finite (so may two huge finite ones: 0 is still a bound).
    if !a.iter().chain(b).flatten().sum::<f64>().is_finite() {
        return 0.0;
    }
    plane_gap(a, b).max(plane_gap(b, a))
}

/// The certified gap between the plane of `t` and the corners of `o` (0 if they straddle it or nothing can be
/// certified; see [`triangle_distance_lower_bound`]). The scalar formula: what the two-lane kernel computes per
/// lane on `x86_64`, and the computation elsewhere.
#[cfg_attr(all(target_arch = "x86_64", target_feature = "sse2"), cfg(test))]
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

#[cfg(all(test, target_arch = "x86_64", target_feature = "sse2"))]
mod tests {
    use ccd_testkit::SplitMix64;

    use super::*;

    /// The scalar gaps of both planes, the larger: what each lane pair of the kernel must equal.
    fn scalar(a: &[P; 3], b: &[P; 3]) -> f64 {
        plane_gap(a, b).max(plane_gap(b, a))
    }

    /// A random triangle near the origin at scale `s`, and a copy of it tilted by up to `tilt` and lifted along
    /// its normal by `lift` (positive gaps when the lift beats the tilt), or with corners made degenerate.
    fn pair(rng: &mut SplitMix64, s: f64) -> ([P; 3], [P; 3]) {
        let mut r = || rng.next_f64() * 2.0 - 1.0;
        let a = [
            [r() * s, r() * s, r() * s],
            [r() * s, r() * s, r() * s],
            [r() * s, r() * s, r() * s],
        ];
        let e1 = [a[1][0] - a[0][0], a[1][1] - a[0][1], a[1][2] - a[0][2]];
        let e2 = [a[2][0] - a[0][0], a[2][1] - a[0][1], a[2][2] - a[0][2]];
        let n = [
            e1[1] * e2[2] - e1[2] * e2[1],
            e1[2] * e2[0] - e1[0] * e2[2],
            e1[0] * e2[1] - e1[1] * e2[0],
        ];
        let len = (n[0] * n[0] + n[1] * n[1] + n[2] * n[2])
            .sqrt()
            .max(f64::MIN_POSITIVE);
        let lift = r() * s;
        let mut b = a.map(|p| {
            let w = r() * 0.1 * s;
            [
                p[0] + n[0] / len * lift + w * r(),
                p[1] + n[1] / len * lift + w * r(),
                p[2] + n[2] / len * lift + w * r(),
            ]
        });
        match (r() * 4.0) as i32 {
            1 => b[2] = b[1],
            2 => {
                b[2] = [
                    (b[0][0] + b[1][0]) / 2.0,
                    (b[0][1] + b[1][1]) / 2.0,
                    (b[0][2] + b[1][2]) / 2.0,
                ]
            }
            -1 => b = [b[0]; 3],
            _ => {}
        }
        (a, b)
    }

    /// Within the supported range of coordinates (scales 2⁻¹⁹⁰ to 2¹²⁰) the two-lane kernel equals the scalar
    /// formula bit for bit, in both argument orders; many of the pairs have a positive gap.
    #[test]
    fn kernel_is_the_scalar_formula() {
        let mut rng = SplitMix64::new(41);
        let (mut positive, mut total) = (0, 0);
        for i in 0..200_000 {
            let k = (rng.next_f64() * 310.0) as i32 - 190;
            let (a, b) = pair(&mut rng, 2f64.powi(k));
            for (p, q) in [(&a, &b), (&b, &a)] {
                let (got, want) = (plane_gaps(p, q), scalar(p, q));
                assert_eq!(
                    got.to_bits(),
                    want.to_bits(),
                    "pair {i} at 2^{k}: {p:?} {q:?}"
                );
                positive += usize::from(want > 0.0);
                total += 1;
            }
        }
        assert!(positive > total / 4, "{positive} of {total} gaps positive");
    }

    /// Not-finite corners give 0; coordinates far outside the supported range give 0 or a finite gap no larger
    /// than the scalar formula's (a NaN height is never skipped).
    #[test]
    fn unusable_inputs_give_zero_or_less() {
        let mut rng = SplitMix64::new(43);
        for i in 0..20_000 {
            let (mut a, b) = pair(&mut rng, 1.0);
            let bad = [f64::NAN, f64::INFINITY, f64::NEG_INFINITY][i % 3];
            a[(i / 3) % 3][(i / 9) % 3] = bad;
            assert_eq!(plane_gaps(&a, &b), 0.0, "{a:?} {b:?}");
            assert_eq!(plane_gaps(&b, &a), 0.0, "{a:?} {b:?}");
            let (a, b) = pair(&mut rng, 2f64.powi(300 + (i % 20) as i32));
            let got = plane_gaps(&a, &b);
            assert!(got.is_finite() && got >= 0.0, "{got}");
            assert!(got == 0.0 || got == scalar(&a, &b), "{got} {a:?} {b:?}");
        }
    }
}

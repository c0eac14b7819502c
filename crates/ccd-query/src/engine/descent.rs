//! Descent rules: which node of an overlapping pair to split.

use ccd_bv::{BoundingVolume, Real};

use crate::DescentRule;

/// Which node(s) of a pair to split.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Split {
    /// A's node: two child pairs.
    A,
    /// B's node: two child pairs.
    B,
    /// Both nodes: four child pairs ([`DescentRule::Both`]).
    Both,
}

/// Which node(s) of a pair to split, not both leaves. Never splits a leaf; ties go to A (FPQ §7.3.2).
#[inline(always)]
pub(crate) fn split<T: Real, V: BoundingVolume<T>>(
    rule: DescentRule,
    a: &V,
    a_leaf: bool,
    b: &V,
    b_leaf: bool,
) -> Split {
    if b_leaf {
        return Split::A;
    }
    if a_leaf {
        return Split::B;
    }
    let a_first = match rule {
        DescentRule::LargestDiameter => diameter_at_least(a, b),
        DescentRule::LargestArea => a.area() >= b.area(),
        DescentRule::LargestVolume => a.volume() >= b.volume(),
        DescentRule::AlwaysA => true,
        DescentRule::AlwaysB => false,
        DescentRule::Both => return Split::Both,
    };
    if a_first { Split::A } else { Split::B }
}

/// The child pairs of the pair `(na, nb)` split as `split` says (`ca`, `cb`: the first children of `na` and
/// `nb`, ignored for a node not split), in the order the engines hand them out: A's child 0 first, then B's.
/// Returns the pairs and how many of them there are (2 or 4).
#[inline(always)]
pub(crate) fn child_pairs(
    split: Split,
    (na, ca): (usize, usize),
    (nb, cb): (usize, usize),
) -> ([(usize, usize); 4], usize) {
    match split {
        Split::A => ([(ca, nb), (ca + 1, nb), (0, 0), (0, 0)], 2),
        Split::B => ([(na, cb), (na, cb + 1), (0, 0), (0, 0)], 2),
        Split::Both => ([(ca, cb), (ca, cb + 1), (ca + 1, cb), (ca + 1, cb + 1)], 4),
    }
}

/// Exactly `a.diameter() >= b.diameter()`, with square roots only on
/// near-ties.
///
/// With `s_a`, `s_b` the [`diameter_squared`](BoundingVolume::diameter_squared)
/// values (each within a relative `2ε` of its diameter squared, `ε` =
/// [`Real::EPSILON`]): if `|s_b − s_a| > 8ε·s_a`, say `s_b > s_a(1 + 8ε)` up
/// to the rounding of the test, then
/// `d_b² ≥ s_b/(1 + 2ε) > s_a(1 + 8ε)/(1 + 2ε) ≥ d_a²(1 − 2ε)(1 + 8ε)/(1 + 2ε) > d_a²`,
/// and symmetrically for `s_b < s_a(1 − 8ε)`: the squares order the
/// diameters. (`db2 − da2` is exact by Sterbenz's lemma wherever the test
/// is close, and `8ε·s_a` is an exact scaling unless `s_a` is below
/// `MIN_POSITIVE/ε`, i.e. for diameters of about 1e-146 in `f64` or 1e-16 in
/// `f32`, where a near-tie could be resolved by the squares.) Diameters of two distinct
/// nodes can round to the same value while their squares differ (symmetric
/// meshes produce such near-ties), so the remaining case compares the
/// diameters themselves to keep the traversal, and its counts, unchanged.
#[inline(always)]
fn diameter_at_least<T: Real, V: BoundingVolume<T>>(a: &V, b: &V) -> bool {
    let (da2, db2) = (a.diameter_squared(), b.diameter_squared());
    if (db2 - da2).abs() <= da2 * (T::lit(8.0) * T::EPSILON) {
        a.diameter() >= b.diameter()
    } else {
        da2 >= db2
    }
}

#[cfg(test)]
mod tests {
    use ccd_bv::Obb;

    use super::*;

    fn obb(half: [f64; 3]) -> Obb<f64> {
        Obb {
            rot: [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]],
            center: [0.0; 3],
            half,
        }
    }

    /// The squared comparison with its near-tie fallback agrees with the
    /// diameter comparison, including diameters one or a few ulps apart and
    /// distinct half-widths whose diameters round to the same value.
    #[test]
    fn diameter_rule_is_the_diameter_comparison() {
        let mut x = 0x2545_f491_4f6c_dd1du64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 11) as f64 / (1u64 << 53) as f64
        };
        let mut ties = 0;
        for _ in 0..200_000 {
            let h = [next(), next(), next()];
            let mut k = h;
            // Nudge one or two half-widths by a few ulps, or permute them.
            match (next() * 4.0) as u32 {
                0 => k[0] = f64::from_bits(k[0].to_bits() + 1),
                1 => k[1] = f64::from_bits(k[1].to_bits() - 3),
                2 => {
                    k[2] = f64::from_bits(k[2].to_bits() + 2);
                    k[0] = f64::from_bits(k[0].to_bits() - 2);
                }
                _ => k = [h[2], h[0], h[1]],
            }
            let (a, b) = (obb(h), obb(k));
            for (p, q) in [(&a, &b), (&b, &a)] {
                let expected = p.diameter() >= q.diameter();
                assert_eq!(
                    diameter_at_least(p, q),
                    expected,
                    "{:?} {:?}",
                    p.half,
                    q.half
                );
                ties += usize::from(
                    p.diameter() == q.diameter() && p.diameter_squared() != q.diameter_squared(),
                );
            }
        }
        assert!(ties > 0, "no rounding ties exercised");
        // Flat and point-like boxes, and squares that underflow.
        let small = [
            [0.0; 3],
            [1e-100, 0.0, 0.0],
            [1e-300, 0.0, 0.0],
            [0.0, 2.0, 0.0],
        ];
        for h in small {
            for k in small {
                let (p, q) = (obb(h), obb(k));
                assert_eq!(diameter_at_least(&p, &q), p.diameter() >= q.diameter());
            }
        }
    }
}

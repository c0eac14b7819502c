//! Rounding profiles: what the certified lower bounds' allowance needs to know about a whole set of volumes, so a
//! query over two trees fixes its allowance once instead of measuring it on every pair of volumes.
//!
//! The allowance of a lower bound ([`lower_bound`](crate::lower_bound)) is `16 (8ε + γ) S`, where the scale `S`
//! adds the pose's translation and both volumes' magnitudes (centre `|c|₁` plus sizes) and `γ` adds the pose's
//! defect and both volumes' axis defects. A [`VolumeProfile`] holds the largest magnitude and the largest axis
//! defect over a set of volumes (a tree's nodes); [`MoveRounding::with_profiles`] turns two profiles and a pose
//! into one allowance that is at least every pair's own, so subtracting it keeps every bound certified.

use ccd_interval::bound_up;

use crate::apart::allowance;
use crate::lower_bound::{MoveRounding, usable};
use crate::{BoundingVolume, Real};

/// The largest magnitude and axis defect over a set of volumes.
///
/// # Guarantee
/// For every volume `v` of the set, `v.magnitude() ≤ magnitude` and `v.axis_defect() ≤ axis_defect`, where
/// [`magnitude`](BoundingVolume::magnitude) is `|c|₁` plus the volume's sizes as the allowance counts them and
/// [`axis_defect`](BoundingVolume::axis_defect) an upper bound of `‖XᵀX − I‖₂` for its axes. A NaN anywhere makes
/// the profile NaN, and a NaN profile voids every bound that uses it (they become 0).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct VolumeProfile<T> {
    /// The largest `|c|₁ + sizes` of the set.
    pub magnitude: T,
    /// The largest axis defect of the set (0 for volumes without axes).
    pub axis_defect: T,
}

impl<T: Real> VolumeProfile<T> {
    /// The profile of `volumes`: one pass, `O(n)`. An empty set has the profile `(0, 0)`.
    pub fn of<'a, B: BoundingVolume<T> + 'a>(volumes: impl IntoIterator<Item = &'a B>) -> Self {
        volumes.into_iter().fold(Self::empty(), |p, v| p.with(v))
    }

    /// The profile of the empty set, `(0, 0)`.
    pub fn empty() -> Self {
        Self {
            magnitude: T::zero(),
            axis_defect: T::zero(),
        }
    }

    /// The profile of this set with `volume` added.
    #[inline]
    pub fn with<B: BoundingVolume<T>>(self, volume: &B) -> Self {
        self.merge(Self {
            magnitude: volume.magnitude(),
            axis_defect: volume.axis_defect(),
        })
    }

    /// The profile of the union of the two sets: the same as [`of`](Self::of) over both sets' volumes in any
    /// order (largest values; NaN where either is NaN).
    #[inline]
    pub fn merge(self, other: Self) -> Self {
        Self {
            magnitude: largest(self.magnitude, other.magnitude),
            axis_defect: largest(self.axis_defect, other.axis_defect),
        }
    }
}

/// `max(m, x)`, NaN once either is NaN (a NaN `m` stays: `x > m` is false).
#[inline]
#[allow(clippy::eq_op)]
fn largest<T: Real>(m: T, x: T) -> T {
    if x != x || x > m { x } else { m }
}

impl<T: Real> MoveRounding<T> {
    /// This move with the allowance of every lower bound between a volume of `a`'s set and a volume of `b`'s set
    /// (B's moved by the pose this rounding describes) fixed in advance: the bounds that honour it
    /// ([`BoundingVolume::distance_lower_bound_local_pair`] for OBBs) then skip measuring each pair.
    ///
    /// # Guarantee
    /// The fixed allowance is at least the one each pair would compute. With `t = translation`, `δ = defect`
    /// and the profiles `(M_A, D_A)`, `(M_B, D_B)`:
    /// - scale: a moved centre `fl(rot·c + t)` has `|·|₁ ≤ (1 + 4ε)(√3 (1 + δ)|c|₁ + |t|₁)` (each column of
    ///   `rot` has length at most `1 + δ`), so every pair's `2|t|₁ + |c_a|₁ + sizes_a + |c_b'|₁ + sizes_b` is at
    ///   most `S = (1 + 16ε)(3|t|₁ + M_A + 2 M_B)` for `δ ≤ 1/16`;
    /// - defect: the moved axes `fl(rot·X)` deviate from orthonormal by at most `D_B + (1 + D_B) δ + 23ε`
    ///   (`‖XᵀrotᵀrotX − I‖ ≤ ‖X‖² δ + D_B`, and the rounding `E` of the product, `‖E‖₂ ≤ 3·3.5ε`, adds at most
    ///   `2 ‖rot X‖ ‖E‖ + ‖E‖²`), so every pair's `γ` is at most `Γ = δ + D_A + D_B + (1 + D_B) δ + 23ε`;
    /// - the allowance `16 (8ε + Γ) S` then bounds every pair's, rounded up with the same margins as the pair
    ///   formula. Where `Γ > 1/16` or anything is NaN, the allowance is infinite: every bound is 0.
    pub fn with_profiles(mut self, a: &VolumeProfile<T>, b: &VolumeProfile<T>) -> Self {
        let (t, delta) = (self.translation, self.defect);
        let eps = T::EPSILON;
        let scale = bound_up(
            (T::lit(3.0) * t + a.magnitude + T::lit(2.0) * b.magnitude)
                * (T::one() + T::lit(16.0) * eps),
        );
        let moved_b = b.axis_defect + (T::one() + b.axis_defect) * delta + T::lit(23.0) * eps;
        let gamma = bound_up((delta + a.axis_defect + moved_b) * (T::one() + T::lit(8.0) * eps));
        self.allowance = Some(if usable(gamma) && usable(delta) && scale.finite() {
            bound_up(
                allowance(scale, gamma) * (T::one() + T::lit(8.0) * eps)
                    + T::lit(f64::from(f32::MIN_POSITIVE)),
            )
        } else {
            T::lit(f64::INFINITY)
        });
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{BoundingVolume, FitMethod, Obb, Pose};

    fn boxes() -> Vec<Obb<f64>> {
        let mut out = Vec::new();
        for k in 0..20u32 {
            let x = f64::from(k);
            let vertices = [[x, 0.5 * x, -x], [x + 1.0, 0.0, 2.0], [x, x * x, 0.25]];
            out.push(Obb::fit(&vertices, &[[0, 1, 2]], FitMethod::default()));
        }
        out
    }

    #[test]
    fn profile_bounds_every_volume() {
        let v = boxes();
        let p = VolumeProfile::of(&v);
        for b in &v {
            assert!(b.magnitude() <= p.magnitude && b.axis_defect() <= p.axis_defect);
        }
        assert!(v.iter().any(|b| b.magnitude() == p.magnitude));
        assert!(v.iter().any(|b| b.axis_defect() == p.axis_defect));
        assert_eq!(
            VolumeProfile::of(std::iter::empty::<&Obb<f64>>()),
            VolumeProfile {
                magnitude: 0.0,
                axis_defect: 0.0
            }
        );
    }

    /// Profiles of the parts of a set, merged in any grouping, are the profile of the whole, NaN included.
    #[test]
    fn merged_parts_give_the_profile_of_the_whole() {
        let mut v = boxes();
        for cut in 0..=v.len() {
            let (l, r) = v.split_at(cut);
            let whole = VolumeProfile::of(&v);
            assert_eq!(VolumeProfile::of(l).merge(VolumeProfile::of(r)), whole);
            assert_eq!(VolumeProfile::of(r).merge(VolumeProfile::of(l)), whole);
        }
        v[11].half[0] = f64::NAN;
        for cut in [0, 5, 11, 12, 20] {
            let (l, r) = v.split_at(cut);
            for p in [
                VolumeProfile::of(l).merge(VolumeProfile::of(r)),
                VolumeProfile::of(r).merge(VolumeProfile::of(l)),
            ] {
                assert!(p.magnitude.is_nan(), "{cut}");
                assert!(!p.axis_defect.is_nan());
            }
        }
    }

    #[test]
    fn nan_anywhere_makes_the_profile_nan_and_the_allowance_infinite() {
        let mut v = boxes();
        v[7].center[1] = f64::NAN;
        v[3].rot[2][0] = f64::NAN;
        let p = VolumeProfile::of(&v);
        assert!(p.magnitude.is_nan() && p.axis_defect.is_nan());
        let moved = MoveRounding::of(&Pose::identity()).with_profiles(&p, &p);
        assert_eq!(moved.allowance, Some(f64::INFINITY));
        // Frames far from orthonormal void it too.
        let bad = VolumeProfile {
            magnitude: 1.0,
            axis_defect: 0.1,
        };
        let moved = MoveRounding::of(&Pose::identity()).with_profiles(&bad, &bad);
        assert_eq!(moved.allowance, Some(f64::INFINITY));
        // The lower bound is then 0 even for boxes far apart.
        let far = v[0].transformed(&Pose::from_parts(
            nalgebra::Matrix3::identity(),
            nalgebra::Vector3::new(100.0, 0.0, 0.0),
        ));
        assert_eq!(v[0].distance_lower_bound_local(&far, &moved), 0.0);
        let fine = MoveRounding::of(&Pose::identity())
            .with_profiles(&VolumeProfile::of(&v[..2]), &VolumeProfile::of(&v[..2]));
        let lb = v[0].distance_lower_bound_local(&far, &fine);
        assert!(lb > 80.0, "{lb}");
    }
}

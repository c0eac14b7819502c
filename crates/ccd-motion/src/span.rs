//! [`PoseSpan`]: one floating-point pose standing for a motion over a whole time interval, with certified bounds on
//! how far the exact poses of the interval carry any body point from where that pose puts it; and
//! [`RelativeSpan`], the same for one body seen from another.
//!
//! # Why
//! Interval poses ([`IntervalPose`]) make every downstream test pay for interval arithmetic. A span turns the
//! enclosure into a plain pose plus two scalars once per time interval, so that a continuous test becomes a
//! static floating-point test between volumes inflated by balls: body point `y` is, at every time of the
//! interval, within [`reach`](PoseSpan::reach)`(|y|)` of `rot·y + trans`.
//!
//! # Method
//! `rot`, `trans` are the motion's float pose at the interval's midpoint. With `Δ` the entrywise bound of
//! `|R − rot|` over the enclosure's rotation matrices, `‖R − rot‖₂ ≤ min(‖Δ‖_F, √(‖Δ‖₁‖Δ‖_∞))`. The float
//! matrix `rot` is orthonormal only up to rounding: with `η ≥ ‖rotᵀrot − I‖₂` (bounded by the entrywise 1-norm
//! of `rotᵀrot − I`, enclosed), its orthogonal polar factor `Q` satisfies `‖rot − Q‖₂ = max|σᵢ − 1| ≤ η`. So
//! `|R·y − Q·y| ≤ (‖R − rot‖₂ + η)·|y|` = `rot_dev·|y|`, and `|p − trans| ≤ trans_dev` for every translation `p`
//! of the enclosure. Every bound is computed with outward-rounded interval arithmetic.

use ccd_interval::{IMat3, IVec3, Interval, Real, bound_up};
use nalgebra::{Isometry3, Matrix3, Vector3};

use crate::enclosure::IntervalPose;
use crate::motion::Motion;

/// A float pose and certified deviation bounds for every pose of a motion over a time interval.
///
/// # Guarantee
/// Let `Q` be the orthogonal matrix nearest `rot` (its polar factor). For every pose `(R, p)` of the enclosure the
/// span was built from (so for every pose of the motion over the interval) and every body point `y`:
/// `|R·y + p − (Q·y + trans)| ≤ trans_dev + rot_dev·|y|` ([`reach`](Self::reach)), and `‖rot − Q‖₂ ≤ defect`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PoseSpan<T> {
    /// Rotation matrix of the float pose (orthonormal up to `defect`).
    pub rot: Matrix3<T>,
    /// Translation of the float pose (world position of the body origin).
    pub trans: Vector3<T>,
    /// Bound on `‖R − Q‖₂` over the enclosure (includes `defect`).
    pub rot_dev: T,
    /// Bound on `|p − trans|` over the enclosure.
    pub trans_dev: T,
    /// Bound on `‖rot − Q‖₂` (and on `‖rotᵀrot − I‖₂`): the float matrix's distance from orthogonality.
    pub defect: T,
}

impl<T: Real> PoseSpan<T> {
    /// The span of `motion` over `[t0, t1]`: its pose at the midpoint and its enclosure.
    ///
    /// # Panics
    /// If `t0 > t1` or either is NaN (from [`Motion::enclose`]).
    pub fn new<M: Motion<T> + ?Sized>(motion: &M, t0: T, t1: T) -> Self {
        let enc = motion.enclose(t0, t1);
        let mid = t0 + (t1 - t0) * T::lit(0.5);
        Self::from_enclosure(&enc, &motion.pose(mid))
    }

    /// The span of the poses in `enc`, centred on `pose` (any pose; the bounds grow with its distance from the
    /// enclosure).
    pub fn from_enclosure(enc: &IntervalPose<T>, pose: &Isometry3<T>) -> Self {
        let rot = *pose.rotation.to_rotation_matrix().matrix();
        let trans = pose.translation.vector;
        let zero = Interval::point(T::zero());
        // Entrywise bounds of |R − rot| over the enclosure.
        let gap = |e: Interval<T>, x: T| {
            let x = Interval::point(x);
            let above = Interval::point(e.hi()) - x;
            let below = x - Interval::point(e.lo());
            Interval::point(above.hi().max(below.hi()).max(T::zero()))
        };
        let dev: [[Interval<T>; 3]; 3] =
            std::array::from_fn(|i| std::array::from_fn(|j| gap(enc.rot.m[i][j], rot[(i, j)])));
        let frob = dev
            .iter()
            .flatten()
            .fold(zero, |s, d| s + d.sqr())
            .sqrt()
            .map_or_else(|| T::lit(f64::INFINITY), |x| x.hi());
        let row_sum = (0..3)
            .map(|i| (dev[i][0] + dev[i][1] + dev[i][2]).hi())
            .fold(T::zero(), |m, x| m.max(x));
        let col_sum = (0..3)
            .map(|j| (dev[0][j] + dev[1][j] + dev[2][j]).hi())
            .fold(T::zero(), |m, x| m.max(x));
        let mixed = (Interval::point(row_sum) * col_sum)
            .sqrt()
            .map_or_else(|| T::lit(f64::INFINITY), |x| x.hi());
        let spectral = frob.min(mixed);
        // Distance of the float matrix from orthogonality.
        let m = IMat3::point(&rot);
        let gram = m.transpose().mul(&m);
        let defect = (0..3)
            .flat_map(|i| (0..3).map(move |j| (i, j)))
            .fold(zero, |s, (i, j)| {
                let g = gram.m[i][j];
                s + if i == j { g - T::one() } else { g }.abs()
            })
            .hi();
        let t = enc.trans;
        let tv = IVec3::new(gap(t.x, trans.x), gap(t.y, trans.y), gap(t.z, trans.z));
        let trans_dev = tv
            .norm_sqr()
            .sqrt()
            .map_or_else(|| T::lit(f64::INFINITY), |x| x.hi());
        Self {
            rot,
            trans,
            rot_dev: (Interval::point(spectral) + defect).hi(),
            trans_dev,
            defect,
        }
    }

    /// Upper bound of `trans_dev + rot_dev·radius`: how far any body point within `radius` of the body origin
    /// may be, at any time of the span, from where the span's pose puts it (see the type's guarantee).
    #[inline]
    pub fn reach(&self, radius: T) -> T {
        bound_up(self.trans_dev + self.rot_dev * radius)
    }

    /// The span of body `other` (B) seen from `self`'s body (A): B's frame in A's frame.
    pub fn relative(&self, other: &Self) -> RelativeSpan<T> {
        let at = self.rot.transpose();
        let d = other.trans - self.trans;
        let rot = at * other.rot;
        let trans = at * d;
        // fl(AᵀB) and fl(Aᵀ(p_B − p_A)) against Q_AᵀQ_B and Q_Aᵀ(p_B − p_A): the defects plus the rounding of 3-term
        // dot products of entries bounded by 1 + defect (a generous 16 ε each).
        let ulps = T::EPSILON * T::lit(16.0);
        let d1 = bound_up(d.x.abs() + d.y.abs() + d.z.abs());
        RelativeSpan {
            rot,
            trans,
            rot_dev_a: self.rot_dev,
            trans_dev_a: self.trans_dev,
            rot_dev_b: bound_up(other.rot_dev + self.defect + other.defect + ulps),
            trans_dev_b: bound_up(other.trans_dev + (self.defect + ulps) * d1),
            defect: bound_up(self.defect + other.defect + ulps),
        }
    }
}

/// Body B's frame in body A's frame over a time interval: a float rigid transform (`y ↦ rot·y + trans`) and
/// ball radii that absorb both motions and all rounding.
///
/// # Guarantee
/// For every time `t` of the interval, every body point `z` of A and `y` of B:
/// `|A(t)·z − B(t)·y| ≥ |z − (rot·y + trans)| − reach_a(|z|) − reach_b(|y|)` (world poses `A(t)`, `B(t)`). So two
/// sets are certainly farther apart than `g` at every time of the interval if, in A's frame, A's set and B's set
/// moved by `(rot, trans)` are farther apart than `g + reach_a(r_a) + reach_b(r_b)`, with `r_a`, `r_b` bounds on
/// the sets' distance from their body origins.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RelativeSpan<T> {
    /// Rotation of B's frame in A's frame (orthonormal up to `defect`).
    pub rot: Matrix3<T>,
    /// Position of B's origin in A's frame.
    pub trans: Vector3<T>,
    /// A's rotation deviation (per unit of distance from A's origin).
    pub rot_dev_a: T,
    /// A's translation deviation.
    pub trans_dev_a: T,
    /// B's rotation deviation, including the rounding of `rot`.
    pub rot_dev_b: T,
    /// B's translation deviation, including the rounding of `trans`.
    pub trans_dev_b: T,
    /// Bound on `rot`'s distance from orthogonality (`‖rotᵀrot − I‖₂`, up to second order).
    pub defect: T,
}

impl<T: Real> RelativeSpan<T> {
    /// Upper bound of `reach_a(r_a) + reach_b(r_b)`: the total slack of the guarantee for sets within `r_a` of
    /// A's origin and `r_b` of B's origin.
    #[inline]
    pub fn slack(&self, r_a: T, r_b: T) -> T {
        bound_up(self.trans_dev_a + self.trans_dev_b + self.rot_dev_a * r_a + self.rot_dev_b * r_b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{ConstantRotationTranslation, Screw, Static, Translation};
    use nalgebra::{Point3, Translation3, Unit, UnitQuaternion};

    fn motions() -> Vec<Box<dyn Motion<f64>>> {
        let start = Isometry3::from_parts(
            Translation3::new(0.5, -1.0, 2.0),
            UnitQuaternion::from_euler_angles(0.3, -0.7, 1.1),
        );
        vec![
            Box::new(Static::new(start)),
            Box::new(Translation::new(start, Vector3::new(3.0, -2.0, 1.0))),
            Box::new(ConstantRotationTranslation::new(
                start,
                Unit::new_normalize(Vector3::new(0.2, 1.0, 0.3)),
                20.0,
                Vector3::new(-6.0, 0.0, 0.5),
            )),
            Box::new(Screw::new(
                start,
                Unit::new_normalize(Vector3::new(1.0, 0.0, 1.0)),
                Point3::new(0.0, 1.0, 0.0),
                -7.0,
                2.0,
            )),
        ]
    }

    /// Dense sampling: every sampled pose carries every test point within `reach` of the span's pose.
    #[test]
    fn reach_bounds_sampled_poses() {
        let points = [
            Vector3::new(0.0, 0.0, 0.0),
            Vector3::new(1.0, -2.0, 0.5),
            Vector3::new(-30.0, 4.0, 10.0),
        ];
        for m in motions() {
            for (t0, t1) in [(0.0, 1.0), (0.25, 0.5), (0.6, 0.6001), (0.3, 0.3)] {
                let span = PoseSpan::new(&*m, t0, t1);
                for k in 0..=200 {
                    let t = t0 + (t1 - t0) * f64::from(k) / 200.0;
                    let pose = m.pose(t);
                    for y in &points {
                        let at = pose * Point3::from(*y);
                        let mid = span.rot * y + span.trans;
                        let off = (at.coords - mid).norm();
                        assert!(off <= span.reach(y.norm()), "{m:?} {t} {off}");
                    }
                }
                assert!(span.defect < 1e-14);
            }
        }
    }

    /// The bounds shrink with the interval: a short interval gives small deviations.
    #[test]
    fn short_intervals_give_small_reach() {
        for m in motions() {
            let wide = PoseSpan::new(&*m, 0.0, 1.0);
            let narrow = PoseSpan::new(&*m, 0.5, 0.5 + 1e-4);
            assert!(narrow.reach(1.0) <= wide.reach(1.0));
            assert!(narrow.reach(1.0) < m.max_speed(1.0) * 1e-4 + 1e-9, "{m:?}");
        }
    }

    /// The relative span's inequality on sampled point pairs.
    #[test]
    fn relative_slack_bounds_sampled_distances() {
        let ms = motions();
        let z = Vector3::new(0.3, -1.0, 0.8);
        let y = Vector3::new(-2.0, 0.5, 1.5);
        for a in &ms {
            for b in &ms {
                for (t0, t1) in [(0.0, 1.0), (0.4, 0.45)] {
                    let rel = PoseSpan::new(&**a, t0, t1).relative(&PoseSpan::new(&**b, t0, t1));
                    let static_d = (z - (rel.rot * y + rel.trans)).norm();
                    for k in 0..=100 {
                        let t = t0 + (t1 - t0) * f64::from(k) / 100.0;
                        let d = (a.pose(t) * Point3::from(z) - b.pose(t) * Point3::from(y)).norm();
                        assert!(d >= static_d - rel.slack(z.norm(), y.norm()) - 1e-12);
                    }
                }
            }
        }
    }
}

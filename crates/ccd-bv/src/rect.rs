//! Rectangle–rectangle separation for the rectangle swept sphere ([`Rss`]): a search for the closest points of
//! the two rectangles, and a certificate that turns any direction into a guaranteed gap.
//!
//! # Method
//! For any vector `n ≠ 0`, the gap between the projections of two convex sets onto `n`, divided by `|n|`, is at
//! most their distance, and for disjoint sets it equals the distance when `n` joins their closest points
//! (convex duality; Larsen et al. 1999 compute the same distance from the rectangles' Voronoi regions). The
//! support function of a rectangle `{c + s₀a₀ + s₁a₁ : |s_j| ≤ h_j}` along `n` is `n·c ± Σ h_j |n·a_j|` for any
//! axes, orthonormal or not, so the certificate has no orthonormality assumption and a short, fixed rounding
//! analysis (see [`lower_bound`](crate::lower_bound)). The search only chooses `n`: it takes the closest pair
//! among the 8 corner–rectangle and 16 edge–edge pairs, which contains the closest points of two disjoint
//! rectangles (a closest pair with both points interior to both rectangles can slide, along a direction
//! parallel to both planes, until one point reaches an edge; a closest pair between that edge and the other
//! rectangle, interior to both, can slide likewise or is an endpoint). Intersecting rectangles give a gap ≤ 0
//! along every direction, hence the bound 0, whatever the search returns.

use ccd_interval::bound_up;
use nalgebra::Vector3;

use crate::apart::allowance;
use crate::lower_bound::{
    MoveRounding, certified, frame_defect, l1, less_allowance, pose_defect, usable,
};
use crate::{BoundingVolume, Pose, Real, Rss};

type V<T> = Vector3<T>;

/// A rectangle in A's frame: centre, the two half-side vectors `h_j·a_j`, the axes and the normal.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Rect<T: Real> {
    c: V<T>,
    a: [V<T>; 2],
    n: V<T>,
    h: [T; 2],
}

impl<T: Real> Rect<T> {
    fn of(v: &Rss<T>) -> Self {
        Self {
            c: V::from(v.center),
            a: [V::from(v.rot[0]), V::from(v.rot[1])],
            n: V::from(v.rot[2]),
            h: v.half,
        }
    }

    fn moved(v: &Rss<T>, pose: &Pose<T>) -> Self {
        let r = &pose.rot;
        Self {
            c: r * V::from(v.center) + pose.trans,
            a: [r * V::from(v.rot[0]), r * V::from(v.rot[1])],
            n: r * V::from(v.rot[2]),
            h: v.half,
        }
    }

    /// The corners, in cyclic order.
    fn corners(&self) -> [V<T>; 4] {
        let (u, w) = (self.a[0] * self.h[0], self.a[1] * self.h[1]);
        [
            self.c - u - w,
            self.c + u - w,
            self.c + u + w,
            self.c - u + w,
        ]
    }

    /// The point of the rectangle nearest to `x` (exactly so for orthonormal axes; a point of the rectangle in
    /// any case).
    fn nearest(&self, x: &V<T>) -> V<T> {
        let d = x - self.c;
        let k = |j: usize| {
            let h = self.h[j];
            self.a[j].dot(&d).max(-h).min(h)
        };
        self.c + self.a[0] * k(0) + self.a[1] * k(1)
    }

    /// `n·(c_other − c) − Σ h_j |n·a_j| − Σ h'_j |n·a'_j|` over `bound_up(|n|)` (sign of `n` chosen to make it
    /// largest): a lower bound of the distance between the rectangles, up to the rounding the allowance covers;
    /// 0 where it is not positive.
    fn gap_along(&self, other: &Self, w: &V<T>, n: &V<T>) -> T {
        let spread = |r: &Self| r.h[0] * n.dot(&r.a[0]).abs() + r.h[1] * n.dot(&r.a[1]).abs();
        let g = n.dot(w).abs() - spread(self) - spread(other);
        if g > T::zero() {
            g / bound_up(n.norm())
        } else {
            T::zero()
        }
    }
}

/// The closest points of segments `p + s·d` and `q + t·e` (`s, t ∈ [0, 1]`): the unconstrained minimiser of
/// `|p + s·d − q − t·e|²`, clamped to the square one parameter at a time (for fixed `s` the best `t` is
/// `(e·(p − q) + s·d·e)/|e|²`, and conversely). Parallel or degenerate segments take `s = 0`.
fn segments<T: Real>(p: &V<T>, d: &V<T>, q: &V<T>, e: &V<T>) -> (V<T>, V<T>) {
    let (zero, one) = (T::zero(), T::one());
    let unit = |x: T| x.max(zero).min(one);
    let r = p - q;
    let (dd, ee, er) = (d.dot(d), e.dot(e), e.dot(&r));
    let (s, t) = if dd <= zero && ee <= zero {
        (zero, zero)
    } else if dd <= zero {
        (zero, unit(er / ee))
    } else {
        let dr = d.dot(&r);
        if ee <= zero {
            (unit(-dr / dd), zero)
        } else {
            let de = d.dot(e);
            let denom = dd * ee - de * de;
            let s = if denom > zero {
                unit((de * er - dr * ee) / denom)
            } else {
                zero
            };
            let t = (de * s + er) / ee;
            if t < zero {
                (unit(-dr / dd), zero)
            } else if t > one {
                (unit((de - dr) / dd), one)
            } else {
                (s, t)
            }
        }
    };
    (p + d * s, q + e * t)
}

/// `q − p` for the closest pair `(p, q)` of rectangles `a` and `b` among the corner–rectangle and edge–edge
/// pairs (module docs), or `None` as soon as some pair of rectangle points (each centre against the other
/// rectangle first) lies within `√reach2`: then the volumes swept by radii summing to `√reach2` certainly
/// overlap, up to the rounding of the candidate points, which only errs towards "overlap".
fn closest_direction<T: Real>(a: &Rect<T>, b: &Rect<T>, reach2: T) -> Option<V<T>> {
    let mut best = (T::lit(f64::INFINITY), V::zeros());
    let mut keep = |p: V<T>, q: V<T>| {
        let d = q - p;
        let d2 = d.norm_squared();
        if d2 < best.0 {
            best = (d2, d);
        }
        d2 <= reach2
    };
    if keep(a.nearest(&b.c), b.c) || keep(a.c, b.nearest(&a.c)) {
        return None;
    }
    let (ca, cb) = (a.corners(), b.corners());
    for x in &cb {
        if keep(a.nearest(x), *x) {
            return None;
        }
    }
    for x in &ca {
        if keep(*x, b.nearest(x)) {
            return None;
        }
    }
    for i in 0..4 {
        let (p, d) = (ca[i], ca[(i + 1) % 4] - ca[i]);
        for j in 0..4 {
            let (q, e) = (cb[j], cb[(j + 1) % 4] - cb[j]);
            let (x, y) = segments(&p, &d, &q, &e);
            if keep(x, y) {
                return None;
            }
        }
    }
    Some(best.1)
}

/// Two RSSs in A's frame, with what their allowance needs: the scale `S` and the parts of the defect `γ`.
pub(crate) struct Placed<'a, T: Real> {
    a: Rect<T>,
    b: Rect<T>,
    radii: T,
    scale: T,
    frames: [&'a [[T; 3]; 3]; 2],
    pose: Option<&'a Pose<T>>,
    given_defect: T,
    /// The query's allowance fixed in advance ([`MoveRounding::allowance`]), replacing the measured one.
    fixed: Option<T>,
}

impl<'a, T: Real> Placed<'a, T> {
    /// `a` and `b` moved by `pose`; `defect` bounds the pose's deviation from the transform the guarantee is
    /// about (its measured defect for the exactly evaluated pose, or `apart`'s `defect` for rigid transforms
    /// near it).
    pub(crate) fn moved(a: &'a Rss<T>, b: &'a Rss<T>, pose: &'a Pose<T>, defect: T) -> Self {
        let scale = l1(&pose.trans.into()) + a.magnitude() + b.magnitude();
        Self {
            a: Rect::of(a),
            b: Rect::moved(b, pose),
            radii: a.radius + b.radius,
            scale,
            frames: [&a.rot, &b.rot],
            pose: None,
            given_defect: defect,
            fixed: None,
        }
    }

    /// [`moved`](Self::moved) with the pose's measured defect, computed only if a certificate needs it.
    pub(crate) fn posed(a: &'a Rss<T>, b: &'a Rss<T>, pose: &'a Pose<T>) -> Self {
        Self {
            pose: Some(pose),
            ..Self::moved(a, b, pose, T::zero())
        }
    }

    /// `a` and `b_moved`, already in A's frame, moved there with rounding `moved`.
    pub(crate) fn local(a: &'a Rss<T>, b_moved: &'a Rss<T>, moved: &MoveRounding<T>) -> Self {
        Self {
            a: Rect::of(a),
            b: Rect::of(b_moved),
            radii: a.radius + b_moved.radius,
            scale: moved.translation * T::lit(2.0) + a.magnitude() + b_moved.magnitude(),
            frames: [&a.rot, &b_moved.rot],
            pose: None,
            given_defect: moved.defect,
            fixed: moved.allowance,
        }
    }

    fn defect(&self) -> T {
        let pose = self.pose.map_or(T::zero(), pose_defect);
        self.given_defect + pose + frame_defect(self.frames[0]) + frame_defect(self.frames[1])
    }

    /// The centre offset, or `None` when the centres are within `r_a + r_b` (the volumes then overlap; a
    /// shortcut of [`closest_direction`]'s early exit).
    fn offset(&self) -> Option<V<T>> {
        let w = self.b.c - self.a.c;
        (w.norm_squared() > self.radii * self.radii).then_some(w)
    }

    /// The certified lower bound of the distance between the two volumes ([`crate::lower_bound`]).
    pub(crate) fn lower_bound(&self) -> T {
        let Some(w) = self.offset() else {
            return T::zero();
        };
        let (a, b) = (&self.a, &self.b);
        let Some(closest) = closest_direction(a, b, self.radii * self.radii) else {
            return T::zero();
        };
        let best = [w, a.n, b.n, closest]
            .iter()
            .fold(T::zero(), |m, n| m.max(a.gap_along(b, &w, n)));
        if best <= self.radii {
            return T::zero();
        }
        match self.fixed {
            Some(e) => less_allowance(best - self.radii, e),
            None => certified(best - self.radii, self.scale, self.defect()),
        }
    }

    /// Whether the volumes are certainly farther apart than `gap` (`gap ≤ 0`: certainly disjoint): the first
    /// certificate that beats `gap` plus the radii and the allowance decides; the centre direction and both
    /// normals are tried before the closest-point search.
    pub(crate) fn apart_by(&self, gap: T) -> bool {
        let Some(w) = self.offset() else {
            return false;
        };
        let (a, b) = (&self.a, &self.b);
        let floor = gap.max(T::zero()) + self.radii;
        let mut need: Option<T> = None;
        let mut beats = |g: T| {
            if g > floor {
                let need = *need.get_or_insert_with(|| {
                    let defect = self.defect();
                    if usable(defect) {
                        floor + allowance(self.scale, defect)
                    } else {
                        T::lit(f64::INFINITY)
                    }
                });
                g > need
            } else {
                false
            }
        };
        [w, a.n, b.n].iter().any(|n| beats(a.gap_along(b, &w, n)))
            || closest_direction(a, b, floor * floor).is_some_and(|n| beats(a.gap_along(b, &w, &n)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crossing_and_skew_segments() {
        let v = |x: f64, y: f64, z: f64| V::new(x, y, z);
        // Skew: x-axis segment and a segment along y lifted by 1.
        let (p, q) = segments(
            &v(-1., 0., 0.),
            &v(2., 0., 0.),
            &v(0.5, -1., 1.),
            &v(0., 2., 0.),
        );
        assert_eq!((p, q), (v(0.5, 0., 0.), v(0.5, 0., 1.)));
        // Parallel, overlapping in x: some pair at distance 1.
        let (p, q) = segments(
            &v(0., 0., 0.),
            &v(1., 0., 0.),
            &v(0.5, 1., 0.),
            &v(1., 0., 0.),
        );
        assert!(((q - p).norm() - 1.0).abs() < 1e-15);
        // A point against a segment.
        let (p, q) = segments(
            &v(3., 1., 0.),
            &v(0., 0., 0.),
            &v(0., 0., 0.),
            &v(2., 0., 0.),
        );
        assert_eq!((p, q), (v(3., 1., 0.), v(2., 0., 0.)));
    }
}

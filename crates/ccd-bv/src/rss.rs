//! Rectangle swept sphere: a rectangle (rotation, centre, half side lengths) swept by a ball.

use bytemuck::{Pod, Zeroable};
use nalgebra::{Matrix3, Vector3};

use crate::lower_bound::{MoveRounding, rss_lower_bound, rss_lower_bound_local};
use crate::rect::Placed;
use crate::{BoundingVolume, BvKind, FitFrame, FitMethod, Pose, Real, fit};

/// A rectangle swept sphere (RSS): the points within `radius` of the rectangle
/// `{center + s₀·axis₀ + s₁·axis₁ : |s_j| ≤ half_j}` (closed), the distance volume of PQP.
///
/// `rot[j]` is axis `j`, a **column** of the volume's rotation matrix, as in [`Obb`](crate::Obb): axes 0 and 1
/// span the rectangle, axis 2 is its normal (the direction of the sweep's thickness). The corner form of
/// Larsen et al. (corner `center − half₀·axis₀ − half₁·axis₁`, side lengths `2·half_j`) describes the same set;
/// the centre form keeps every fitted parameter finite up to half the largest `T`, as for the other volumes.
/// Half-lengths and radius may be 0 (a rectangle, a segment, a ball).
///
/// # Reference
/// E. Larsen, S. Gottschalk, M. C. Lin, D. Manocha, *Fast proximity queries with swept sphere volumes*,
/// UNC TR99-018, 1999.
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(C)]
pub struct Rss<T> {
    /// The axes: `rot[j]` is axis `j` (column `j` of the rotation); axis 2 is the rectangle's normal.
    pub rot: [[T; 3]; 3],
    /// Centre of the rectangle.
    pub center: [T; 3],
    /// Half side lengths of the rectangle along axes 0 and 1 (≥ 0).
    pub half: [T; 2],
    /// Radius of the swept ball (≥ 0).
    pub radius: T,
}

// SAFETY: `Rss<T>` is `repr(C)` and every field is `T: Pod` or an array of it, all of the same alignment and
// sizes a multiple of it, so it has no padding, and every bit pattern of its bytes is a valid value of each field;
// the all-zero pattern is too.
unsafe impl<T: Real> Zeroable for Rss<T> {}
// SAFETY: as above; `T: Pod` is also `Copy + 'static`.
unsafe impl<T: Real> Pod for Rss<T> {}

impl<T: Real> Rss<T> {
    /// The rotation whose columns are the axes.
    #[inline(always)]
    pub fn rotation(&self) -> Matrix3<T> {
        Matrix3::from(self.rot)
    }

    /// Coordinates of `p` in the volume's frame: `Rᵀ(p − c)`, evaluated as [`dist2`](Self::dist2) evaluates them.
    #[inline]
    pub fn local_coords(&self, p: &[T; 3]) -> [T; 3] {
        crate::obb::frame_coords(&self.rot, &self.center, p)
    }

    /// Squared distance from `p` to the rectangle: `Σ_j max(0, |l_j| − half_j)² + l_2²` with `l` the
    /// [`local_coords`](Self::local_coords) (exact for orthonormal axes). This exact evaluation is what
    /// [`contains_point`](BoundingVolume::contains_point) and the fit's containment guarantee use.
    #[inline]
    pub fn dist2(&self, p: &[T; 3]) -> T {
        let l = self.local_coords(p);
        let out = |j: usize| (l[j].abs() - self.half[j]).max(T::zero());
        let (x, y) = (out(0), out(1));
        x * x + y * y + l[2] * l[2]
    }
}

impl<T: Real> BoundingVolume<T> for Rss<T> {
    const KIND: BvKind = BvKind::Rss;

    /// Axes from [`fit::obb_axes`] (the two of largest spread span the rectangle, the smallest is the normal),
    /// radius from the vertices' extent along the normal, then the rectangle shrunk by the radius where the
    /// swept ball still covers the vertices (Larsen et al. §4), made conservative in `T` as described in
    /// [`fit`] (the radius is raised until every vertex passes `contains_point`, then padded).
    fn fit(vertices: &[[T; 3]], faces: &[[u32; 3]], method: FitMethod) -> Self {
        fit::fit_rss(vertices, faces, method)
    }

    /// As [`fit`](BoundingVolume::fit) on the given vertices, with the given axes or the method's. With
    /// [`FitFrame::Axes`] or [`FitFrame::Tighter`] only `ids` is read: `faces` may be empty (a tree builder
    /// then skips collecting them).
    fn fit_shared(vertices: &[[T; 3]], faces: &[[u32; 3]], ids: &[u32], frame: &FitFrame) -> Self {
        fit::fit_rss_shared(vertices, faces, ids, frame)
    }

    /// Exact up to round-off: axes `R·axes`, centre `R·c + t`, same half-lengths and radius.
    #[inline]
    fn transformed(&self, pose: &Pose<T>) -> Self {
        Self {
            rot: (pose.rot * self.rotation()).into(),
            center: pose.transform_array(&self.center),
            half: self.half,
            radius: self.radius,
        }
    }

    /// Disjoint only where a certified rectangle gap (along the centre direction, a normal, or the direction of
    /// the rectangles' closest points) exceeds `r_a + r_b` plus the allowance of
    /// [`lower_bound`](crate::lower_bound).
    ///
    /// # Guarantee
    /// Conservative: never "disjoint" for volumes that touch or intersect, rounding included (for the pose
    /// evaluated exactly); may report overlap for volumes closer than the allowance `16 (8ε + γ) S`.
    #[inline]
    fn overlaps(&self, other: &Self, b_in_a: &Pose<T>) -> bool {
        !Placed::posed(self, other, b_in_a).apart_by(T::zero())
    }

    /// [`overlaps`](BoundingVolume::overlaps) for two volumes in the same frame.
    ///
    /// # Guarantee
    /// As [`overlaps`](BoundingVolume::overlaps) for the volumes as stored; the round-off of the transform
    /// that moved `other` is not guarded separately (it is far below the allowance unless `|R·c|` and `|t|`
    /// cancel), as for the other volumes.
    #[inline]
    fn overlaps_local(&self, other: &Self) -> bool {
        !Placed::local(self, other, &MoveRounding::none()).apart_by(T::zero())
    }

    /// The rectangle gap along the best of the centre direction, both normals and the closest-point direction,
    /// minus both radii and the allowance ([`lower_bound::rss_lower_bound`](crate::lower_bound::rss_lower_bound)).
    ///
    /// # Guarantee
    /// Never exceeds the distance between the volumes (and their contents), rounding included; equals the
    /// distance minus the allowance up to the accuracy of the closest-point search in `T`.
    fn distance_lower_bound(&self, other: &Self, b_in_a: &Pose<T>) -> T {
        rss_lower_bound(self, other, b_in_a)
    }

    /// As [`BoundingVolume::magnitude`].
    #[inline]
    fn magnitude(&self) -> T {
        crate::lower_bound::l1(&self.center) + self.half[0] + self.half[1] + self.radius
    }

    /// As [`BoundingVolume::axis_defect`].
    #[inline]
    fn axis_defect(&self) -> T {
        crate::lower_bound::frame_defect(&self.rot)
    }

    /// As [`distance_lower_bound`](BoundingVolume::distance_lower_bound) for `other_moved` already in A's
    /// frame ([`lower_bound::rss_lower_bound_local`](crate::lower_bound::rss_lower_bound_local)).
    ///
    /// # Guarantee
    /// As [`BoundingVolume::distance_lower_bound_local`].
    fn distance_lower_bound_local(&self, other_moved: &Self, moved: &MoveRounding<T>) -> T {
        rss_lower_bound_local(self, other_moved, moved)
    }

    /// `dist2(p) ≤ (r + tol)²` (and `r + tol ≥ 0`).
    fn contains_point(&self, p: &[T; 3], tol: T) -> bool {
        let r = self.radius + tol;
        r >= T::zero() && self.dist2(p) <= r * r
    }

    /// `2·√(h₀² + h₁²) + 2r`: the rectangle's diagonal plus the ball's diameter.
    fn diameter(&self) -> T {
        let [x, y] = self.half;
        T::lit(2.0) * ((x * x + y * y).sqrt() + self.radius)
    }

    /// `8h₀h₁ + 4πr(h₀ + h₁) + 4πr²`: two faces, half-cylinders along the four edges, the corners' ball.
    fn area(&self) -> T {
        let ([x, y], r) = (self.half, self.radius);
        let pi = T::lit(std::f64::consts::PI);
        T::lit(8.0) * x * y + T::lit(4.0) * pi * r * (x + y) + T::lit(4.0) * pi * r * r
    }

    /// `8h₀h₁r + 2πr²(h₀ + h₁) + (4/3)πr³`: slab, half-cylinders, corner ball.
    fn volume(&self) -> T {
        let ([x, y], r) = (self.half, self.radius);
        let pi = T::lit(std::f64::consts::PI);
        T::lit(8.0) * x * y * r
            + T::lit(2.0) * pi * r * r * (x + y)
            + T::lit(4.0 / 3.0) * pi * r * r * r
    }

    /// `2r`: the slab along the normal (every other width is larger).
    fn thickness(&self) -> T {
        T::lit(2.0) * self.radius
    }

    /// Numbers of magnitude at most `most`, half-lengths and radius ≥ 0 (the axes may be anything within it: the
    /// tests measure their orthonormality, see [`lower_bound`](crate::lower_bound)).
    fn is_well_formed_within(&self, most: T) -> bool {
        let all: &[T; 15] = bytemuck::cast_ref(self);
        crate::well_formed::well_formed(all, &[self.half[0], self.half[1], self.radius], most)
    }
}

impl<T: Real> Rss<T> {
    /// The rectangle's corner at `(s₀, s₁) = (−half₀, −half₁)`, the origin of Larsen et al.'s corner form
    /// (side lengths `2·half_j` along the axes from it); rounded to nearest.
    pub fn corner(&self) -> [T; 3] {
        let c = Vector3::from(self.center)
            - Vector3::from(self.rot[0]) * self.half[0]
            - Vector3::from(self.rot[1]) * self.half[1];
        c.into()
    }
}

//! The bounding-volume seam: what a tree node's volume must provide.

use crate::{MoveRounding, Pose, Real};

/// Which bounding-volume type a tree uses; written into file headers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum BvKind {
    /// [`Sphere`](crate::Sphere).
    Sphere = 0,
    /// [`Aabb`](crate::Aabb).
    Aabb = 1,
    /// [`Obb`](crate::Obb).
    Obb = 2,
    /// [`Rss`](crate::Rss).
    Rss = 3,
}

impl BvKind {
    /// Lower-case name (`"sphere"`, `"aabb"`, `"obb"`, `"rss"`).
    pub fn name(self) -> &'static str {
        match self {
            BvKind::Sphere => "sphere",
            BvKind::Aabb => "aabb",
            BvKind::Obb => "obb",
            BvKind::Rss => "rss",
        }
    }
}

/// How a volume's orientation is chosen when fitting (OBBs and RSSs; spheres
/// and AABBs ignore it).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum FitMethod {
    /// Eigenvectors of the area-weighted covariance of the surface of the
    /// convex hull of the triangles (Gottschalk §3.3.4, the thesis default):
    /// insensitive to tessellation, interior geometry and small outliers.
    #[default]
    HullSurface,
    /// Eigenvectors of the area-weighted covariance of the triangles
    /// themselves (Gottschalk 2000, §3.3.3, with the formulas of §3.4):
    /// cheaper, as used by RAPID.
    TriangleSurface,
}

/// How [`BoundingVolume::fit_shared`] orients a volume that has axes (OBBs
/// and RSSs; spheres and AABBs ignore it).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum FitFrame {
    /// Choose the axes as [`BoundingVolume::fit`] does with this method.
    Method(FitMethod),
    /// Use these axes (columns of a rotation, orthonormal and right-handed
    /// to `f64` round-off, e.g. from [`principal_axes`](crate::fit::principal_axes)),
    /// sorted by descending spread; a tree builder passes the principal axes
    /// of the triangle covariance it already computed for its split rule.
    /// Containment does not depend on them; only the volume's tightness does.
    Axes(nalgebra::Matrix3<f64>),
    /// The frame of the *projected hull*, the thin-hull limit of
    /// [`FitMethod::HullSurface`] ([`fit::obb_axes`](crate::fit::obb_axes)'s
    /// degenerate-case rules first): axis 2 is the minor principal axis of
    /// the distinct vertices' covariance, and axis 0 the major principal axis
    /// of the area of their convex polygon in the plane of the other two.
    /// The 3-D hull surface of a patch this flat is the two faces of that
    /// polygon plus a rim of negligible area, so both choose nearly the same
    /// axes (equal ones for coplanar vertices), without building a 3-D hull
    /// with exact predicates, which is slow precisely for nearly flat point
    /// sets.
    ProjectedHull,
    /// The tighter of two frames (columns of rotations sorted by descending
    /// spread, as for [`Axes`](Self::Axes)): the principal axes of the
    /// distinct vertices' covariance, `vertex_axes` (computed by the fit when
    /// `None`: [`fit::principal_axes`](crate::fit::principal_axes) of
    /// [`fit::vertex_covariance`](crate::fit::vertex_covariance)), unless the
    /// vertices' box along `axes` has a smaller volume (their ranges
    /// projected on each frame's axes, compared before rounding and padding).
    /// A tree builder passes the triangle covariance's axes it computed for
    /// its split, and the vertex covariances' axes of many nodes decomposed
    /// together: on the small nodes of tessellated surfaces the better of the
    /// two makes trees at least as tight as the hull surface's frames, at a
    /// fraction of the cost. Containment does not depend on them; only the
    /// volume's tightness does.
    Tighter {
        /// The other candidate, e.g. the triangle covariance's axes.
        axes: nalgebra::Matrix3<f64>,
        /// The principal axes of the distinct vertices' covariance, if known.
        vertex_axes: Option<nalgebra::Matrix3<f64>>,
    },
}

/// A convex bounding volume usable as a tree node.
///
/// # Contract for implementers
/// - `fit` returns a volume that contains every given triangle **exactly**,
///   i.e. after rounding to `T` (implementations pad by a few ulps).
/// - `overlaps` is conservative: it may report an overlap of disjoint volumes
///   (within the SAT guard, or by the AABB wrap) but never reports disjoint
///   volumes that intersect, touching included.
/// - `distance_lower_bound` and `distance_lower_bound_local` never exceed the
///   true distance between the volumes, rounding included, and are 0 when
///   they may overlap (see [`lower_bound`](crate::lower_bound)).
/// - The type is plain data (`Pod`) made only of `T` fields, so a slice of
///   nodes can be written to and mapped from a file as is.
pub trait BoundingVolume<T: Real>:
    Copy + std::fmt::Debug + Send + Sync + bytemuck::Pod + 'static
{
    /// Tag written in file headers.
    const KIND: BvKind;

    /// Fits the volume to the triangles `faces` (indices into `vertices`),
    /// all in the same model frame.
    ///
    /// # Panics
    /// May panic if `faces` is empty or an index is out of range; the tree
    /// builder validates its input before fitting.
    fn fit(vertices: &[[T; 3]], faces: &[[u32; 3]], method: FitMethod) -> Self;

    /// [`fit`](Self::fit) with work a tree builder shares across nodes:
    /// `ids` are the distinct vertex indices used by `faces` (each once, in
    /// any order), and `frame` says how an oriented volume picks its axes.
    /// The containment guarantee is that of `fit`, for any `frame`; with
    /// `FitFrame::Method(m)` and `ids` sorted ascending the result equals
    /// `fit(vertices, faces, m)` bit for bit. The default ignores `ids` and
    /// fits with the frame's method (triangle surface for given or chosen
    /// axes, hull surface for the projected hull).
    ///
    /// # Panics
    /// As [`fit`](Self::fit); results are unspecified (but still contain
    /// `faces`' vertices listed in `ids`) if `ids` misses a vertex of `faces`.
    fn fit_shared(vertices: &[[T; 3]], faces: &[[u32; 3]], ids: &[u32], frame: &FitFrame) -> Self {
        let _ = ids;
        match frame {
            FitFrame::Method(m) => Self::fit(vertices, faces, *m),
            FitFrame::Axes(_) | FitFrame::Tighter { .. } => {
                Self::fit(vertices, faces, FitMethod::TriangleSurface)
            }
            FitFrame::ProjectedHull => Self::fit(vertices, faces, FitMethod::HullSurface),
        }
    }

    /// For a tree builder that bounds its largest nodes by the ranges of
    /// their vertices' projections, gathered where it visits the vertices of
    /// smaller nodes below them, instead of a pass over each large node's
    /// vertices: the axes (columns) along which
    /// [`from_ranges`](Self::from_ranges) builds the volume `fit_shared`
    /// would orient by `frame`, as the volume stores them. `None` (the
    /// default) where the type is not built that way.
    fn range_axes(frame: &FitFrame) -> Option<nalgebra::Matrix3<f64>> {
        let _ = frame;
        None
    }

    /// The volume with the axes `axes` (from
    /// [`range_axes`](Self::range_axes)) around every point whose
    /// projections on them, as [`fit::widen_ranges`](crate::fit::widen_ranges)
    /// computes them, lie within `ranges` (the low and the high ends, one
    /// entry per axis): every such point passes `contains_point(p, 0)` as
    /// evaluated, as it would after a fit. `None` where the type is not built
    /// that way (the default) or a parameter would not be finite.
    fn from_ranges(
        axes: &nalgebra::Matrix3<f64>,
        ranges: &(nalgebra::Vector3<f64>, nalgebra::Vector3<f64>),
    ) -> Option<Self> {
        let _ = (axes, ranges);
        None
    }

    /// This volume moved by `pose` (exact for spheres and OBBs; an AABB is
    /// wrapped by the axis-aligned box of its rotated self, Gottschalk §2.3.2).
    fn transformed(&self, pose: &Pose<T>) -> Self;

    /// Whether `self` (in A's frame) and `other` (in B's frame) may intersect,
    /// where `b_in_a` is B's frame in A's frame. Touching counts as overlap.
    fn overlaps(&self, other: &Self, b_in_a: &Pose<T>) -> bool;

    /// Whether `self` and `other`, both in the same frame, may intersect
    /// (conservative as [`overlaps`](Self::overlaps)).
    ///
    /// With `other` = B's volume [`transformed`](Self::transformed) into A's
    /// frame this equals `overlaps(other, b_in_a)` up to round-off in the
    /// transform; traversals use it to move each volume of B once and test
    /// it against several volumes of A.
    fn overlaps_local(&self, other: &Self) -> bool {
        self.overlaps(other, &Pose::identity())
    }

    /// `[a[0].overlaps_local(b[0]), a[1].overlaps_local(b[1])]`: the same
    /// verdicts, computed together. Traversals test the two children of a
    /// split node at once (against the same node of the other tree), which
    /// lets implementations evaluate both tests in the lanes of SIMD
    /// registers.
    fn overlaps_local_pair(a: [&Self; 2], b: [&Self; 2]) -> [bool; 2] {
        [a[0].overlaps_local(b[0]), a[1].overlaps_local(b[1])]
    }

    /// The verdicts of [`overlaps_local`](Self::overlaps_local) on the four pairs of `a` × `b`, in the order
    /// `[(a₀, b₀), (a₀, b₁), (a₁, b₀), (a₁, b₁)]`, computed together (the four child pairs of two split
    /// nodes). Default: two [`overlaps_local_pair`](Self::overlaps_local_pair) calls, one per volume of `a`.
    #[inline(always)]
    fn overlaps_local_cross(a: [&Self; 2], b: [&Self; 2]) -> [bool; 4] {
        overlaps_by_pairs(a, b)
    }

    /// [`overlaps_local_cross`](Self::overlaps_local_cross) for code compiled with AVX: the same verdicts, bit
    /// for bit, from a 256-bit kernel where the volume has one (the `f64` box: the four pairs in the four lanes
    /// of one register). Default: `overlaps_local_cross`.
    ///
    /// Inlined into a function compiled without AVX, the kernel's instructions become calls: the fast path is
    /// for callers compiled with AVX enabled (as the query engine's AVX copies are).
    ///
    /// # Safety
    /// The processor must support AVX.
    #[inline(always)]
    unsafe fn overlaps_local_cross_avx(a: [&Self; 2], b: [&Self; 2]) -> [bool; 4] {
        Self::overlaps_local_cross(a, b)
    }

    /// `[v[0].transformed(pose), v[1].transformed(pose)]`: the same volumes,
    /// computed together (the two children of a split node of B).
    fn transformed_pair(v: [&Self; 2], pose: &Pose<T>) -> [Self; 2] {
        [v[0].transformed(pose), v[1].transformed(pose)]
    }

    /// A lower bound on the distance between `self` and `other` (frames as in
    /// [`overlaps`](Self::overlaps)); 0 where they may overlap.
    ///
    /// # Guarantee
    /// Never exceeds the Euclidean distance between `self` and `other` moved
    /// by `x ↦ b_in_a.rot·x + b_in_a.trans` evaluated exactly, nor the
    /// distance to the images of `other`'s points under
    /// [`Pose::transform_array`], rounding of the bound's own evaluation
    /// included: an a-priori allowance is subtracted and the result clamped
    /// at 0 ([`lower_bound`](crate::lower_bound) states it per volume).
    fn distance_lower_bound(&self, other: &Self, b_in_a: &Pose<T>) -> T;

    /// [`distance_lower_bound`](Self::distance_lower_bound) for `other_moved`
    /// already in `self`'s frame: `other.transformed(pose)`, with `moved =`
    /// [`MoveRounding::of`]`(pose)` (or [`MoveRounding::none`] for volumes
    /// fitted in the same frame). Traversals move each volume of B once and
    /// bound it against several volumes of A.
    ///
    /// # Guarantee
    /// Never exceeds the distance between `self` and `other` moved by `pose`
    /// evaluated exactly (nor the images of its points under
    /// [`Pose::transform_array`]): `other_moved` contains that moved content
    /// only up to the rounding of [`transformed`](Self::transformed), at most
    /// `8ε (2|trans|₁ + |c'|₁ + sizes)` plus the pose's defect times the
    /// sizes, and the allowance subtracted covers it as well. For AABBs the
    /// moved content is the wrap's.
    fn distance_lower_bound_local(&self, other_moved: &Self, moved: &MoveRounding<T>) -> T;

    /// `|c|₁` plus the volume's sizes as the lower bounds' scale counts them (half-extents, half side lengths,
    /// radius): what a [`VolumeProfile`](crate::profile::VolumeProfile) collects. NaN for NaN fields.
    fn magnitude(&self) -> T;

    /// An upper bound of `‖XᵀX − I‖₂` for the volume's axes `X` as stored, the rounding of its measurement
    /// included (NaN for NaN axes); 0 for volumes without axes.
    fn axis_defect(&self) -> T;

    /// [`distance_lower_bound_local`](Self::distance_lower_bound_local) of the pairs `(a[0], b[0])` and
    /// `(a[1], b[1])`, computed together (the two children of a split node, as for
    /// [`overlaps_local_pair`](Self::overlaps_local_pair)), bit for bit the same values.
    ///
    /// # Guarantee
    /// As [`distance_lower_bound_local`](Self::distance_lower_bound_local).
    fn distance_lower_bound_local_pair(
        a: [&Self; 2],
        b: [&Self; 2],
        moved: &MoveRounding<T>,
    ) -> [T; 2] {
        [
            a[0].distance_lower_bound_local(b[0], moved),
            a[1].distance_lower_bound_local(b[1], moved),
        ]
    }

    /// [`distance_lower_bound_local`](Self::distance_lower_bound_local) of the four pairs of `a` × `b`, in the
    /// order `[(a₀, b₀), (a₀, b₁), (a₁, b₀), (a₁, b₁)]`, bit for bit the same values (as
    /// [`overlaps_local_cross`](Self::overlaps_local_cross)). Default: two
    /// [`distance_lower_bound_local_pair`](Self::distance_lower_bound_local_pair) calls.
    ///
    /// # Guarantee
    /// As [`distance_lower_bound_local`](Self::distance_lower_bound_local).
    #[inline(always)]
    fn distance_lower_bound_local_cross(
        a: [&Self; 2],
        b: [&Self; 2],
        moved: &MoveRounding<T>,
    ) -> [T; 4] {
        bounds_by_pairs(a, b, moved)
    }

    /// [`distance_lower_bound_local_cross`](Self::distance_lower_bound_local_cross) for code compiled with AVX
    /// (as [`overlaps_local_cross_avx`](Self::overlaps_local_cross_avx)): the same values, bit for bit.
    ///
    /// # Safety
    /// The processor must support AVX.
    ///
    /// # Guarantee
    /// As [`distance_lower_bound_local`](Self::distance_lower_bound_local).
    #[inline(always)]
    unsafe fn distance_lower_bound_local_cross_avx(
        a: [&Self; 2],
        b: [&Self; 2],
        moved: &MoveRounding<T>,
    ) -> [T; 4] {
        Self::distance_lower_bound_local_cross(a, b, moved)
    }

    /// Whether `p` lies inside the volume, enlarged by `tol`.
    fn contains_point(&self, p: &[T; 3], tol: T) -> bool;

    /// Largest distance between two points of the volume (descent rule).
    fn diameter(&self) -> T;

    /// The square of [`diameter`](Self::diameter), possibly computed without
    /// its square root: what the largest-diameter descent rule compares.
    ///
    /// # Contract
    /// Within a relative `2ε` ([`Real::EPSILON`](crate::Real::EPSILON)) of
    /// `diameter()²`, so that two squares further apart than that order the
    /// diameters the same way; the rule compares the diameters themselves
    /// only on near-ties.
    fn diameter_squared(&self) -> T {
        let d = self.diameter();
        d * d
    }

    /// Surface area (descent rule).
    fn area(&self) -> T;

    /// Volume (descent rule).
    fn volume(&self) -> T;

    /// Width of the thinnest enclosing slab: 2·(smallest half-extent) for
    /// boxes, the diameter for spheres (Gottschalk §5.3.2.3, Fig. 5.17).
    fn thickness(&self) -> T;

    /// Whether the parameters describe a volume the tests are sound for:
    /// every number finite, radii and half-extents non-negative. Every fit
    /// produces such volumes ([`is_well_formed_within`](Self::is_well_formed_within)
    /// the largest finite value).
    fn is_well_formed(&self) -> bool {
        T::max_value().is_some_and(|most| self.is_well_formed_within(most))
    }

    /// Whether the volume is well formed with every number of magnitude at
    /// most `most` (so finite): archive validation requires it of every
    /// volume for [`supported_magnitude`](crate::supported_magnitude), which
    /// every fit of vertices in the supported range stays below. One
    /// comparison per number, branch-free, so a pass over many volumes
    /// vectorises.
    fn is_well_formed_within(&self, most: T) -> bool;
}

/// [`BoundingVolume::overlaps_local_cross`] as two [`overlaps_local_pair`](BoundingVolume::overlaps_local_pair)
/// calls, A's first volume against both of B's, then A's second: the default, and the `f64` box's path without
/// AVX. A plain function, not a closure-taking helper: closures in these lane paths were left out of line in
/// some builds.
#[inline(always)]
pub(crate) fn overlaps_by_pairs<T: Real, V: BoundingVolume<T>>(
    a: [&V; 2],
    b: [&V; 2],
) -> [bool; 4] {
    let [k0, k1] = V::overlaps_local_pair([a[0], a[0]], b);
    let [k2, k3] = V::overlaps_local_pair([a[1], a[1]], b);
    [k0, k1, k2, k3]
}

/// [`BoundingVolume::distance_lower_bound_local_cross`] as two
/// [`distance_lower_bound_local_pair`](BoundingVolume::distance_lower_bound_local_pair) calls (as
/// [`overlaps_by_pairs`]).
#[inline(always)]
pub(crate) fn bounds_by_pairs<T: Real, V: BoundingVolume<T>>(
    a: [&V; 2],
    b: [&V; 2],
    moved: &MoveRounding<T>,
) -> [T; 4] {
    let [l0, l1] = V::distance_lower_bound_local_pair([a[0], a[0]], b, moved);
    let [l2, l3] = V::distance_lower_bound_local_pair([a[1], a[1]], b, moved);
    [l0, l1, l2, l3]
}

//! Options of the top-down build.

use ccd_bv::FitMethod;

/// How a hierarchy is built (Gottschalk §3.1, §3.6, §7.5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct BuildOptions {
    /// Largest number of triangles in a leaf, `1..=MAX_LEAF_SIZE`
    /// (default 1, as in every thesis experiment).
    pub leaf_size: u32,
    /// How OBB and RSS orientations are fitted (default: convex-hull surface
    /// covariance; [`BuildMethod::Fast`] uses it for nodes of 3 to 16
    /// triangles and the triangle covariance elsewhere). Spheres and AABBs
    /// ignore it.
    pub fit: FitMethod,
    /// Build subtrees of at least this many triangles in parallel (rayon);
    /// `usize::MAX` builds sequentially. The tree is identical either way.
    pub parallel_threshold: usize,
    /// How nodes are split and fitted (default [`BuildMethod::Fast`]). Not
    /// stored in `.bvh` files, which hold the tree itself.
    pub method: BuildMethod,
}

/// How [`Bvh::build`](crate::Bvh::build) computes each node's split and
/// volume. Both split at the mean of the triangle centroids orthogonal to the
/// major axis of the triangle covariance (median fallback), and both fit
/// every volume around its triangles with the same containment guarantee
/// (`BoundingVolume::fit`); they differ in cost and, slightly, in the trees.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum BuildMethod {
    /// Statistics computed once per triangle and summed per node; each node's
    /// vertices collected once; with [`FitMethod::HullSurface`], hull-surface
    /// frames only for nodes of 3 to 16 triangles
    /// ([`HULL_TRIANGLES`](crate::HULL_TRIANGLES)), in their thin-hull limit
    /// ([`FitFrame::ProjectedHull`](ccd_bv::FitFrame::ProjectedHull): the
    /// planar hull of the vertices projected on their plane of largest
    /// spread), and the split's triangle-covariance frame elsewhere (flat
    /// nodes included); small sequential subtrees built level by level with
    /// their eigen-decompositions and leaf frames batched in AVX registers.
    /// Measured (f64 OBB trees, `cargo xtask bench-build --repeats 9`, 2-core
    /// Intel Xeon host, three rounds alternating with the previous version at
    /// load 1.2–1.4): 40,000-triangle lat/long sphere on one thread
    /// 37.7–39.2 ms (`Reference`: 323 ms, measured earlier);
    /// 327,680-triangle icosphere on two threads 194–201 ms.
    /// Parallel-close-proximity BV tests (40,000 triangles, ε = 1e-3, OBB,
    /// descent rule `Both`): 353,240.
    #[default]
    Fast,
    /// Every node's statistics recomputed from its triangles, and the frame
    /// of every node of two or more triangles from `fit` (the 3-D hull
    /// surface by default, thesis §3.3.4): the trees of earlier versions (up
    /// to the rounding of the closed-form polygon axis of coplanar nodes), at
    /// several times the cost of `Fast`.
    Reference,
}

impl Default for BuildOptions {
    fn default() -> Self {
        Self {
            leaf_size: 1,
            fit: FitMethod::HullSurface,
            parallel_threshold: 2048,
            method: BuildMethod::Fast,
        }
    }
}

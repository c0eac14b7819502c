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
    /// covariance, which [`BuildMethod::Reference`] computes for every node;
    /// [`BuildMethod::Fast`] replaces it by the tighter of the vertex and
    /// triangle covariances' frames for nodes of 3 to 16 triangles and uses
    /// the triangle covariance elsewhere; `TriangleSurface` makes both use
    /// the triangle covariance everywhere). Spheres and AABBs ignore it.
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
    /// vertices collected once; with [`FitMethod::HullSurface`], nodes of 3
    /// to 16 triangles ([`TIGHTER_FRAME_TRIANGLES`](crate::TIGHTER_FRAME_TRIANGLES))
    /// oriented by the tighter of their vertex covariance's and triangle
    /// covariance's frames ([`FitFrame::Tighter`](ccd_bv::FitFrame::Tighter):
    /// the frame in which the vertices' box is smaller), which makes trees
    /// tighter than hull-surface frames there, and the split's
    /// triangle-covariance frame elsewhere (flat nodes included); nodes of
    /// more than 512 triangles bounded from the ranges of their vertices'
    /// projections gathered below them (OBBs); small sequential subtrees
    /// built level by level with their eigen-decompositions and leaf frames
    /// batched in AVX registers.
    /// Measured (f64 OBB trees, 2-core Intel Xeon host): see the README's
    /// build row. Parallel-close-proximity BV tests (40,000 triangles,
    /// ε = 1e-3, OBB, descent rule `Both`): 348,120 (353,240 with the
    /// hull-surface frames of earlier versions).
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

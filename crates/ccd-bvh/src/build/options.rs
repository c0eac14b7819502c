//! Options of the top-down build.

use ccd_bv::FitMethod;

/// How a hierarchy is built (Gottschalk §3.1, §3.6, §7.5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BuildOptions {
    /// Largest number of triangles in a leaf, `1..=MAX_LEAF_SIZE`
    /// (default 1, as in every thesis experiment).
    pub leaf_size: u32,
    /// How OBB orientations are fitted (default: convex-hull surface
    /// covariance). Spheres and AABBs ignore it.
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
pub enum BuildMethod {
    /// Statistics computed once per triangle and summed per node; each node's
    /// vertices collected once; with [`FitMethod::HullSurface`], hull-surface
    /// frames only for nodes of 3 to 16 triangles
    /// ([`HULL_TRIANGLES`](crate::HULL_TRIANGLES)) and the split's
    /// triangle-covariance frame elsewhere. About 10× faster than
    /// `Reference` with hull fits; on the 40,000-triangle parallel-close-
    /// proximity benchmark its OBB trees need no more BV tests.
    #[default]
    Fast,
    /// Every node's statistics recomputed from its triangles, and the frame
    /// of every node of two or more triangles from `fit` (the hull surface by
    /// default, thesis §3.3.4): the trees of earlier versions, bit for bit.
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

//! Options of the top-down build.

use ccd_bv::FitMethod;

/// How a hierarchy is built (Gottschalk §3.1, §3.6, §7.5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
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
}

impl Default for BuildOptions {
    fn default() -> Self {
        Self {
            leaf_size: 1,
            fit: FitMethod::HullSurface,
            parallel_threshold: 2048,
        }
    }
}

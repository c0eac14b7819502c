//! Top-down construction ("fit and split", Gottschalk §3.1) into the flat
//! node / face / vertex arrays of FPQ (§7.2).

mod fast;
mod layout;
mod moments;
mod options;
mod partition;

pub use fast::TIGHTER_FRAME_TRIANGLES;
pub use options::{BuildMethod, BuildOptions};

use ccd_bv::{BoundingVolume, Real};

use crate::node::{MAX_LEAF_SIZE, Node};
use crate::{BuildError, Face};
use layout::{Placed, Site};

/// Below this depth nodes are split at the mean (the thesis rule); deeper
/// ones at the median, which bounds the depth (and the recursion) by
/// `MEAN_SPLIT_DEPTH + log2(n)` even on adversarial inputs where mean splits
/// peel off one triangle at a time.
pub(crate) const MEAN_SPLIT_DEPTH: u32 = 64;

/// Checks the mesh and the options; every failure is a typed error.
pub(crate) fn validate<T: Real>(
    vertices: &[[T; 3]],
    triangles: &[[u32; 3]],
    options: &BuildOptions,
) -> Result<(), BuildError> {
    if !(1..=MAX_LEAF_SIZE).contains(&options.leaf_size) {
        return Err(BuildError::InvalidLeafSize {
            leaf_size: options.leaf_size,
            max: MAX_LEAF_SIZE,
        });
    }
    // Triangles first: a mesh file with vertices but no faces reaches here with its unused vertices dropped, and
    // "no triangles" is what is wrong with it.
    if triangles.is_empty() {
        return Err(BuildError::NoTriangles);
    }
    if vertices.is_empty() {
        return Err(BuildError::NoVertices);
    }
    if vertices.len() > u32::MAX as usize {
        return Err(BuildError::TooLarge {
            what: "vertices",
            count: vertices.len(),
            max: u32::MAX.into(),
        });
    }
    // A binary tree over n faces has fewer than 2n nodes.
    let max_faces = Node::<T, ()>::max_face_index()
        .min(Node::<T, ()>::max_child_index() / 2)
        .min(u32::MAX.into());
    if triangles.len() as u64 > max_faces {
        return Err(BuildError::TooLarge {
            what: "triangles",
            count: triangles.len(),
            max: max_faces,
        });
    }
    check_vertices(vertices)?;
    let len = vertices.len();
    for (face, t) in triangles.iter().enumerate() {
        if let Some(&index) = t.iter().find(|&&i| i as usize >= len) {
            return Err(BuildError::FaceIndexOutOfRange { face, index, len });
        }
    }
    Ok(())
}

/// Every coordinate within the supported range of `T` ([`ccd_bv::limits`]): finite, zero or of a magnitude in
/// `[length_min, length_max]`, and the largest magnitude at least `scale_min`. Branch-free over the whole array; the first culprit is looked up only on failure.
pub(crate) fn check_vertices<T: Real>(vertices: &[[T; 3]]) -> Result<(), BuildError> {
    let coords: &[T] = bytemuck::cast_slice(vertices);
    if in_range::<T>(coords) {
        let scale = coords.iter().fold(T::zero(), |m, x| m.max(x.abs()));
        return ccd_bv::limits::check_scale(scale, || {
            "mesh scale (largest coordinate magnitude)".into()
        })
        .map_err(BuildError::ScaleOutOfRange);
    }
    for (vertex, p) in vertices.iter().enumerate() {
        for (axis, &c) in p.iter().enumerate() {
            ccd_bv::limits::check_length(c, || {
                format!("vertex {vertex} coordinate {}", ["x", "y", "z"][axis])
            })
            .map_err(|range| BuildError::VertexOutOfRange { vertex, range })?;
        }
    }
    Ok(())
}

/// Whether every value is a supported length (see [`check_vertices`]); branch-free so it vectorises.
pub(crate) fn in_range<T: Real>(xs: &[T]) -> bool {
    let (lo, hi) = (T::lit(T::LIMITS.length_min), T::lit(T::LIMITS.length_max));
    xs.iter().fold(true, |ok, x| {
        let a = x.abs();
        ok & (a <= hi) & ((a >= lo) | (a == T::zero()))
    })
}

/// What a build produces: the node and face arrays.
pub(crate) struct Built<T: Real, B> {
    pub(crate) nodes: Vec<Node<T, B>>,
    pub(crate) faces: Vec<Face>,
}

/// Builds the node and face arrays for a validated mesh by `options.method`.
pub(crate) fn build<T: Real, B: BoundingVolume<T>>(
    vertices: &[[T; 3]],
    triangles: &[[u32; 3]],
    options: &BuildOptions,
    progress: &Progress<'_>,
) -> Built<T, B> {
    let ctx = Context {
        vertices,
        options,
        progress,
    };
    match options.method {
        BuildMethod::Fast => fast::build::<T, B>(&ctx, triangles),
        BuildMethod::Reference => {
            let mut tris = triangles.to_vec();
            let mut ids: Vec<u32> = (0..triangles.len() as u32).collect();
            let nodes = layout::build(triangles.len(), |site| {
                subtree::<T, B>(&ctx, &mut tris, &mut ids, 0, 0, site)
            });
            let faces = tris
                .into_iter()
                .zip(ids)
                .map(|(vertices, id)| Face { vertices, id })
                .collect();
            Built { nodes, faces }
        }
    }
}

/// Reports how many triangles have reached their leaf so far; called from
/// the build's worker threads.
pub(crate) struct Progress<'a> {
    done: std::sync::atomic::AtomicUsize,
    report: &'a (dyn Fn(usize) + Sync),
}

impl<'a> Progress<'a> {
    pub(crate) fn new(report: &'a (dyn Fn(usize) + Sync)) -> Self {
        Self {
            done: std::sync::atomic::AtomicUsize::new(0),
            report,
        }
    }

    fn leaf(&self, count: usize) {
        use std::sync::atomic::Ordering::Relaxed;
        let before = self.done.fetch_add(count, Relaxed);
        // Report about every 4096 triangles, not per leaf.
        if (before + count) >> 12 != before >> 12 {
            (self.report)(before + count);
        }
    }
}

/// What every recursion level shares.
struct Context<'a, T> {
    vertices: &'a [[T; 3]],
    options: &'a BuildOptions,
    progress: &'a Progress<'a>,
}

/// The reference build of the subtree over `tris` (and their `ids`,
/// reordered alike), whose first face lands at `start`, its descendants
/// written to `site`.
fn subtree<T: Real, B: BoundingVolume<T>>(
    ctx: &Context<'_, T>,
    tris: &mut [[u32; 3]],
    ids: &mut [u32],
    start: usize,
    depth: u32,
    site: Site<'_, T, B>,
) -> Placed {
    let (vertices, options) = (ctx.vertices, ctx.options);
    let bv = B::fit(vertices, tris, options.fit);
    let count = tris.len();
    if count <= options.leaf_size as usize {
        ctx.progress.leaf(count);
        return site.leaf(bv, start, count);
    }
    let mid = if depth < MEAN_SPLIT_DEPTH {
        partition::split(vertices, tris, ids)
    } else {
        partition::median_split(vertices, tris, ids)
    };
    let (tris_l, tris_r) = tris.split_at_mut(mid);
    let (ids_l, ids_r) = ids.split_at_mut(mid);
    let (fork, site_l, site_r) = site.split(mid, count);
    let left = move || subtree::<T, B>(ctx, tris_l, ids_l, start, depth + 1, site_l);
    let right = move || subtree::<T, B>(ctx, tris_r, ids_r, start + mid, depth + 1, site_r);
    let (l, r) = if count >= options.parallel_threshold {
        rayon::join(left, right)
    } else {
        (left(), right())
    };
    fork.join(bv, l, r)
}

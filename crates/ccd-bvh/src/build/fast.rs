//! The default build ([`BuildMethod::Fast`](super::BuildMethod::Fast)): the
//! thesis's fit-and-split (Gottschalk §3.1, §3.6) on statistics computed
//! once per triangle ([`super::moments`]), with each node's vertices
//! collected once and shared by its split and its fit.
//!
//! - Split: the plane through the area-weighted mean centroid orthogonal to
//!   the major axis of the node's triangle covariance (the median where one
//!   side would be empty, and below depth 64), as the reference build, with
//!   the covariance summed from the per-triangle moments.
//! - Frames: for nodes of [`TIGHTER_FRAME_TRIANGLES`] triangles, the
//!   tighter of two covariance frames ([`FitFrame::Tighter`]): the principal
//!   axes of the distinct vertices' covariance (§3.3.2) unless the triangle
//!   covariance's (§3.3.3, computed for the split) give the vertices a
//!   smaller box. On the small nodes of tessellated surfaces each frame
//!   fails where the other does not (vertex axes on uneven vertex spacing,
//!   triangle axes on slivers), and the better of the two makes trees tighter
//!   than the hull-surface frame (§3.3.4) these nodes took before, in its
//!   thin-hull limit, at a fifth of its cost (parallel-close-proximity BV
//!   tests of `cargo xtask bench-proximity`: 348,120 against 353,240 with
//!   `Both`, 330,900 against 335,390 with `LargestDiameter`). Larger nodes
//!   and pairs take the triangle covariance's frame, where the choice gains
//!   little for its cost (flat nodes included: their smallest axis is the
//!   normal); one-triangle leaves and nodes that do not span a plane follow
//!   the fits' own rules.
//! - Extents: the fits' own, over the node's distinct vertices, so every
//!   volume contains its triangles exactly as `BoundingVolume::fit`'s do;
//!   except that nodes of more than [`LEVELLED`] triangles whose volume is
//!   built from ranges (OBBs with the split's axes,
//!   [`BoundingVolume::range_axes`]) are bounded after their children, from
//!   the ranges of their vertices' projections on their axes, which the
//!   nodes below gather when they visit their own vertices
//!   ([`widen_ranges`]): those few nodes (the top seven levels, about 127
//!   of the 79,999 nodes of a 40,000-triangle mesh) then need no pass over
//!   their vertices, which was about 9 % of the build, and their boxes are
//!   looser than fits by a slack of 64 units in the last place
//!   ([`BoundingVolume::from_ranges`]), with every counter of the
//!   benchmarks unchanged.
//! - Order of work: sequential subtrees of up to [`LEVELLED`] triangles go
//!   level by level, so the eigen-decompositions of a level's nodes (their
//!   triangle covariances, and for oriented volumes the vertex covariances
//!   of the nodes whose frame is chosen) and the frames of its one-face
//!   leaves are computed together, eight at a time in AVX registers
//!   ([`ccd_bv::fit::principal_axes_many`], [`ccd_bv::fit::leaf_frames_many`]),
//!   bit for bit what the one-at-a-time code computes: the same tree in
//!   either order. Such a subtree writes its nodes into a scratch array of
//!   its task that stays in the cache, copied into place when it is done
//!   ([`Fast::levelled`]).

use std::ops::RangeInclusive;
use std::sync::Mutex;

use ccd_bv::fit::{
    EMPTY_RANGE, leaf_frames_many, principal_axes_many, vertex_covariance_scaled, widen_ranges,
};
use ccd_bv::{BoundingVolume, BvKind, FitFrame, FitMethod, Real};
use nalgebra::{Matrix3, Vector3};
use rayon::prelude::*;

use super::layout::{Placed, Site, Staging};
use super::moments::{NodeMoments, NodeStats, Tri, node_moments, node_stats};
use super::partition::partition_in_place;
use super::{Built, Context, MEAN_SPLIT_DEPTH};
use crate::Face;

/// Node sizes (triangles) whose OBB and RSS frames are the tighter of the
/// vertex and triangle covariances' ([`FitFrame::Tighter`]) when
/// [`FitMethod::HullSurface`] is asked for (module docs).
pub const TIGHTER_FRAME_TRIANGLES: RangeInclusive<usize> = 3..=16;

/// Builds the tree and the face order for a validated mesh.
pub(super) fn build<T: Real, B: BoundingVolume<T>>(
    ctx: &Context<'_, T>,
    triangles: &[[u32; 3]],
) -> Built<T, B> {
    let k = ccd_bv::fit::statistics_exponent(ctx.vertices);
    let mut tris: Vec<Tri> = triangles
        .par_iter()
        .enumerate()
        .map(|(id, t)| Tri::new(ctx.vertices, *t, id as u32, k))
        .collect();
    let marks = Marks::new();
    let fast = Fast {
        ctx,
        marks: &marks,
        exponent: k,
    };
    let nodes = super::layout::build(triangles.len(), |site| {
        let root = Pending {
            tris: &mut tris,
            start: 0,
            depth: 0,
            site,
        };
        fast.subtree::<B>(root, &mut Buffers::default(), None, &[])
            .0
    });
    let faces = tris
        .iter()
        .map(|t| Face {
            vertices: t.vertices,
            id: t.id,
        })
        .collect();
    Built { nodes, faces }
}

/// What every recursion level shares.
struct Fast<'a, T> {
    ctx: &'a Context<'a, T>,
    marks: &'a Marks,
    /// The mesh's statistics exponent (the triangles' and the vertex
    /// covariances' units, [`ccd_bv::fit::statistics_exponent`]).
    exponent: i32,
}

impl<T: Real> Fast<'_, T> {
    /// The subtree of `node` (its triangles reordered in place, its nodes
    /// written to its site), and the ranges of its
    /// vertices' projections on each of `above` (the axes of the nodes above
    /// it that are built from ranges, [`widen_ranges`]); `buf` holds the
    /// calling task's reusable buffers and `held` the vertex marks it holds.
    ///
    /// Subtrees below the parallel threshold run on one thread, so the first
    /// such call takes its thread's marks and holds them for the whole
    /// subtree; above it, each node takes them for its own fit.
    fn subtree<B: BoundingVolume<T>>(
        &self,
        node: Pending<'_, T, B>,
        buf: &mut Buffers<T, B>,
        held: Option<&mut Slot>,
        above: &[Matrix3<f64>],
    ) -> (Placed, Vec<Range>) {
        let count = node.tris.len();
        let parallel = count >= self.ctx.options.parallel_threshold;
        let mut held = match held {
            None if !parallel => {
                let mut slot = self.marks.lock();
                return self.subtree(node, buf, Some(&mut slot), above);
            }
            held => held,
        };
        if let Some(slot) = held
            .as_deref_mut()
            .filter(|_| !parallel && count <= LEVELLED)
        {
            return self.levelled::<B>(node, buf, slot, above);
        }
        let Pending {
            tris,
            start,
            depth,
            site,
        } = node;
        let stats = (count > 1).then(|| node_stats(tris));
        let frame = frame(count, self.ctx.options.fit, stats.as_ref());
        let leaf_size = self.ctx.options.leaf_size as usize;
        // Nodes of more than `LEVELLED` triangles are built from the ranges their subtrees gather where the volume
        // type allows (module docs); the others fit their vertices before they are split, as in the
        // level-by-level order, and widen the ranges of the nodes above them in the same visit.
        let by_ranges = (count > LEVELLED && count > leaf_size)
            .then(|| B::range_axes(&frame))
            .flatten();
        let mut ranges = vec![EMPTY_RANGE; above.len()];
        let fitted = by_ranges.is_none().then(|| {
            let bv = self.fit_vertices::<B>(tris, &frame, buf, held.as_deref_mut());
            widen_ranges(self.ctx.vertices, &buf.ids, above, &mut ranges);
            bv
        });
        let Some(stats) = stats.filter(|_| count > leaf_size) else {
            // A leaf (reached here only with a parallel threshold below the leaf size).
            let bv = fitted.expect("a leaf is fitted to its vertices");
            self.ctx.progress.leaf(count);
            return (site.leaf(bv, start, count), ranges);
        };
        let mid = split(
            tris,
            &stats,
            depth < MEAN_SPLIT_DEPTH,
            &mut buf.scratch.keys,
        );
        let below: Vec<Matrix3<f64>> = match by_ranges {
            Some(axes) => above.iter().copied().chain([axes]).collect(),
            None => Vec::new(),
        };
        let (l, r) = tris.split_at_mut(mid);
        let (fork, site_l, site_r) = site.split(mid, count);
        let l = Pending {
            tris: l,
            start,
            depth: depth + 1,
            site: site_l,
        };
        let r = Pending {
            tris: r,
            start: start + mid,
            depth: depth + 1,
            site: site_r,
        };
        let ((l, ranges_l), (r, ranges_r)) = if parallel {
            rayon::join(
                || self.subtree::<B>(l, buf, None, &below),
                || self.subtree::<B>(r, &mut Buffers::default(), None, &below),
            )
        } else {
            let l = self.subtree::<B>(l, buf, held.as_deref_mut(), &below);
            (l, self.subtree::<B>(r, buf, held.as_deref_mut(), &below))
        };
        let bv = match (fitted, by_ranges) {
            (Some(bv), _) => bv,
            (None, Some(axes)) => {
                ranges = ranges_l
                    .iter()
                    .zip(&ranges_r)
                    .map(|(a, b)| (a.0.inf(&b.0), a.1.sup(&b.1)))
                    .collect();
                let own = ranges.pop().expect("one range per axes below");
                B::from_ranges(&axes, &own)
                    .unwrap_or_else(|| self.fit_vertices::<B>(tris, &frame, buf, held))
            }
            (None, None) => unreachable!("a node is fitted unless it is built from ranges"),
        };
        (fork.join(bv, l, r), ranges)
    }

    /// The volume of the node over `tris` oriented by `frame` ([`fit_node`]),
    /// its distinct vertices collected with the marks `held`, else with the
    /// calling thread's.
    fn fit_vertices<B: BoundingVolume<T>>(
        &self,
        tris: &[Tri],
        frame: &FitFrame,
        buf: &mut Buffers<T, B>,
        held: Option<&mut Slot>,
    ) -> B {
        let len = self.ctx.vertices.len();
        buf.ids.clear();
        match held {
            Some(slot) => slot.distinct(tris, len, &mut buf.ids),
            None => self.marks.lock().distinct(tris, len, &mut buf.ids),
        }
        fit_node(
            self.ctx.vertices,
            tris,
            frame,
            &buf.ids,
            &mut buf.scratch.faces,
        )
    }

    /// [`subtree`](Self::subtree) for a sequential subtree, built level by
    /// level: the triangle covariances of a level's nodes are decomposed
    /// together ([`ccd_bv::fit::principal_axes_many`], eight at a time with
    /// AVX, bit for bit the one-at-a-time axes), then each node is fitted
    /// ([`fit_node`]) and split ([`split`]). The same nodes in the same
    /// slots as the depth-first order; subtrees are small enough
    /// ([`LEVELLED`]) for a level's triangles to stay in the cache. Returns
    /// the ranges of the subtree's vertices on each of `above`, as
    /// [`subtree`](Self::subtree) does.
    ///
    /// The descendants are staged in the task's scratch node array
    /// ([`Site::staged`]): the levels write their nodes all over the
    /// subtree's slots (up to 1,022 nodes, 128 KB of OBB nodes in `f64`),
    /// which in the node array of a large tree are lines that are not in the
    /// cache, each written piecemeal; the scratch array stays in the cache,
    /// and one sequential copy puts the subtree in place (about 1.5 ms of a
    /// 40,000-triangle build).
    fn levelled<B: BoundingVolume<T>>(
        &self,
        node: Pending<'_, T, B>,
        buf: &mut Buffers<T, B>,
        marks: &mut Slot,
        above: &[Matrix3<f64>],
    ) -> (Placed, Vec<Range>) {
        let mut staging = std::mem::take(&mut buf.staging);
        let (site, staged) = node.site.staged(&mut staging);
        let node = Pending { site, ..node };
        let mut placed = Placed::empty();
        let mut ranges = vec![EMPTY_RANGE; above.len()];
        let mut root = true;
        let mut level = vec![node];
        let mut next = Vec::with_capacity(2);
        let batch = &mut buf.level;
        let oriented = matches!(B::KIND, BvKind::Obb | BvKind::Rss);
        while !level.is_empty() {
            batch.stats(&level);
            batch.distinct(&level, self.ctx.vertices.len(), marks);
            if let Some(ids) = batch.ids.chunks().next().filter(|_| root) {
                // The subtree's vertices are its root's.
                widen_ranges(self.ctx.vertices, ids, above, &mut ranges);
                root = false;
            }
            batch.frames(&level, oriented, self.ctx, self.exponent);
            let mut reached = 0;
            let work = level
                .drain(..)
                .zip(&batch.node_stats)
                .zip(&batch.frames)
                .zip(batch.ids.chunks());
            let mut leaf_frames = batch.leaf_frames.iter();
            for (((p, stats), frame), ids) in work {
                let count = p.tris.len();
                let frame = if oriented && takes_leaf_frame(frame, count) {
                    leaf_frames.next().expect("one frame per one-face leaf")
                } else {
                    frame
                };
                let bv: B = fit_node(
                    self.ctx.vertices,
                    p.tris,
                    frame,
                    ids,
                    &mut buf.scratch.faces,
                );
                let leaf_size = self.ctx.options.leaf_size as usize;
                let mid = stats
                    .as_ref()
                    .filter(|_| count > leaf_size)
                    .map(|s| split(p.tris, s, p.depth < MEAN_SPLIT_DEPTH, &mut buf.scratch.keys));
                let Some(mid) = mid else {
                    reached += count;
                    placed.absorb(p.site.leaf(bv, p.start, count));
                    continue;
                };
                let (l, r) = p.tris.split_at_mut(mid);
                let (site_l, site_r) = p.site.internal(bv, mid, count, &mut placed);
                next.push(Pending {
                    tris: l,
                    start: p.start,
                    depth: p.depth + 1,
                    site: site_l,
                });
                next.push(Pending {
                    tris: r,
                    start: p.start + mid,
                    depth: p.depth + 1,
                    site: site_r,
                });
            }
            self.ctx.progress.leaf(reached);
            std::mem::swap(&mut level, &mut next);
        }
        // The level lists borrow the staging array.
        drop((level, next));
        staged.finish(&staging);
        buf.staging = staging;
        (placed, ranges)
    }
}

/// The volume of the node over `tris`, whose distinct vertices are `ids`,
/// oriented by `frame` ([`BoundingVolume::fit_shared`]); `faces` is scratch for
/// the fits that read the faces.
fn fit_node<T: Real, B: BoundingVolume<T>>(
    vertices: &[[T; 3]],
    tris: &[Tri],
    frame: &FitFrame,
    ids: &[u32],
    faces: &mut Vec<[u32; 3]>,
) -> B {
    // Oriented volumes with given or chosen axes read only the vertices (`Obb::fit_shared`,
    // `Rss::fit_shared`); every other fit gets its faces.
    let axes_only = matches!(B::KIND, BvKind::Obb | BvKind::Rss)
        && matches!(frame, FitFrame::Axes(_) | FitFrame::Tighter { .. });
    faces.clear();
    if !axes_only {
        faces.extend(tris.iter().map(|t| t.vertices));
    }
    B::fit_shared(vertices, faces, ids, frame)
}

/// The low and high ends of vertices' projections on three axes.
type Range = (Vector3<f64>, Vector3<f64>);

/// Sequential subtrees of at most this many triangles are built level by
/// level ([`Fast::levelled`]); larger ones depth first.
const LEVELLED: usize = 512;

/// A node to build: its triangles, the face offset of the first, its depth
/// and where it goes (in [`Fast::levelled`], one waiting for its level).
struct Pending<'a, T: Real, B> {
    tris: &'a mut [Tri],
    start: usize,
    depth: u32,
    site: Site<'a, T, B>,
}

/// One level's batched work in [`Fast::levelled`].
#[derive(Default)]
struct LevelBatch {
    /// The triangle moments of the level's nodes of two or more triangles,
    /// their covariances and decompositions.
    moments: Vec<NodeMoments>,
    covs: Vec<Matrix3<f64>>,
    decomposed: Vec<(Matrix3<f64>, [f64; 3])>,
    /// Per node of the level: its statistics and frame (`frames` keeps
    /// entries of larger earlier levels after the level's own).
    node_stats: Vec<Option<NodeStats>>,
    frames: Vec<FitFrame>,
    /// The faces of the level's one-face leaves and, for oriented volumes,
    /// their frames.
    leaves: Vec<[u32; 3]>,
    leaf_frames: Vec<FitFrame>,
    /// The distinct vertices of each node of the level.
    ids: Runs,
}

/// Runs of vertex indices, one per node, in one array.
#[derive(Default)]
struct Runs {
    all: Vec<u32>,
    ends: Vec<usize>,
}

impl Runs {
    /// The runs in order.
    fn chunks(&self) -> impl Iterator<Item = &[u32]> {
        let starts = std::iter::once(0).chain(self.ends.iter().copied());
        starts.zip(&self.ends).map(|(a, &b)| &self.all[a..b])
    }
}

impl LevelBatch {
    /// The statistics of each node of `level`, the covariances of all of
    /// them decomposed together.
    fn stats<T: Real, B>(&mut self, level: &[Pending<'_, T, B>]) {
        self.moments.clear();
        self.moments.extend(
            level
                .iter()
                .filter(|p| p.tris.len() > 1)
                .map(|p| node_moments(p.tris)),
        );
        self.covs.clear();
        self.covs.extend(self.moments.iter().map(|m| m.cov));
        self.decomposed.clear();
        principal_axes_many(&self.covs, &mut self.decomposed);
        let mut decomposed = self.moments.iter().zip(&self.decomposed);
        self.node_stats.clear();
        for p in level {
            self.node_stats.push((p.tris.len() > 1).then(|| {
                let (m, &(axes, spreads)) = decomposed
                    .next()
                    .expect("one decomposition per node of two or more");
                m.stats(axes, spreads)
            }));
        }
    }

    /// The distinct vertices of each node of `level` (vertex indices below
    /// `len`).
    fn distinct<T: Real, B>(&mut self, level: &[Pending<'_, T, B>], len: usize, marks: &mut Slot) {
        let Runs { all, ends } = &mut self.ids;
        all.clear();
        ends.clear();
        for p in level {
            marks.distinct(p.tris, len, all);
            ends.push(all.len());
        }
    }

    /// The frame of each node of `level`: [`frame`]'s, and for an `oriented`
    /// volume (one that reads its frame) with the vertex covariances of the
    /// chosen frames decomposed together (their `vertex_axes`); and for an
    /// `oriented` volume the frames of the level's one-face leaves, in order,
    /// computed together ([`ccd_bv::fit::leaf_frames_many`]) into
    /// `leaf_frames`, where the leaves read them (`frames` keeps their
    /// `Method`). Bit for bit the frames the fits would find themselves.
    fn frames<T: Real, B>(
        &mut self,
        level: &[Pending<'_, T, B>],
        oriented: bool,
        ctx: &Context<'_, T>,
        exponent: i32,
    ) {
        let vertices = ctx.vertices;
        // Written over earlier levels' (the list only grows; the first `level.len()` are this level's).
        if self.frames.len() < level.len() {
            self.frames
                .resize(level.len(), FitFrame::Method(ctx.options.fit));
        }
        for ((f, p), s) in self.frames.iter_mut().zip(level).zip(&self.node_stats) {
            frame_into(f, p.tris.len(), ctx.options.fit, s.as_ref());
        }
        if !oriented {
            return;
        }
        self.covs.clear();
        self.leaves.clear();
        for ((p, f), ids) in level.iter().zip(&self.frames).zip(self.ids.chunks()) {
            match f {
                FitFrame::Tighter { .. } => {
                    self.covs
                        .push(vertex_covariance_scaled(vertices, ids, exponent));
                }
                f if takes_leaf_frame(f, p.tris.len()) => self.leaves.push(p.tris[0].vertices),
                _ => {}
            }
        }
        self.decomposed.clear();
        principal_axes_many(&self.covs, &mut self.decomposed);
        self.leaf_frames.clear();
        leaf_frames_many(vertices, &self.leaves, &mut self.leaf_frames);
        let mut vertex = self.decomposed.iter();
        for f in &mut self.frames[..level.len()] {
            if let FitFrame::Tighter { vertex_axes, .. } = f {
                let (axes, _) = vertex.next().expect("one decomposition per chosen frame");
                *vertex_axes = Some(*axes);
            }
        }
    }
}

/// A task's reusable buffers: a node's distinct vertices, the scratch of
/// [`fit_node`] and [`split`], and the node slots and the level lists of a
/// subtree built in the cache ([`Fast::levelled`]), kept from one subtree to
/// the next.
struct Buffers<T: Real, B> {
    ids: Vec<u32>,
    scratch: Scratch,
    staging: Staging<T, B>,
    level: LevelBatch,
}

impl<T: Real, B> Default for Buffers<T, B> {
    fn default() -> Self {
        Self {
            ids: Vec::new(),
            scratch: Scratch::default(),
            staging: Staging::default(),
            level: LevelBatch::default(),
        }
    }
}

/// The scratch of a node's fit and split: its faces (for the fits that read
/// them, [`fit_node`]) and the split's projections.
#[derive(Default)]
struct Scratch {
    faces: Vec<[u32; 3]>,
    keys: Vec<f64>,
}

/// [`frame`] written over `f` (in place: a frame is 160 bytes, and building
/// one to move it into a list of a level's frames went through a copy).
#[inline(always)]
fn frame_into(f: &mut FitFrame, count: usize, fit: FitMethod, stats: Option<&NodeStats>) {
    match stats {
        Some(s) if chooses_frame(count, fit) => {
            *f = FitFrame::Tighter {
                axes: s.axes,
                vertex_axes: None,
            }
        }
        Some(s) if s.spans_plane => *f = FitFrame::Axes(s.axes),
        _ if count == 1 => *f = FitFrame::Method(fit),
        _ => *f = FitFrame::Method(FitMethod::TriangleSurface),
    }
}

/// How the volume of a node of `count` triangles is oriented (module docs).
fn frame(count: usize, fit: FitMethod, stats: Option<&NodeStats>) -> FitFrame {
    let mut f = FitFrame::Method(fit);
    frame_into(&mut f, count, fit, stats);
    f
}

/// Whether a node of `count` triangles whose frame is `frame` is a one-face
/// leaf whose frame an oriented volume takes from
/// [`ccd_bv::fit::leaf_frames_many`] ([`LevelBatch::frames`]).
fn takes_leaf_frame(frame: &FitFrame, count: usize) -> bool {
    count == 1 && matches!(frame, FitFrame::Method(_))
}

/// Whether a node of `count` triangles takes the tighter of two frames.
fn chooses_frame(count: usize, fit: FitMethod) -> bool {
    fit == FitMethod::HullSurface && TIGHTER_FRAME_TRIANGLES.contains(&count)
}

/// Reorders `tris` into two non-empty groups and returns the size of the
/// first: centroids strictly below the mean on the major axis first (with
/// `mean`), else at the median. `keys` is scratch: the mean split partitions
/// the triangles' projections, computed first in one streaming pass, and
/// swaps the 96-byte records in lockstep (the same swaps as partitioning the
/// records by their projection, with the loads off the branch's path).
fn split(tris: &mut [Tri], stats: &NodeStats, mean: bool, keys: &mut Vec<f64>) -> usize {
    let axis = stats.axes.column(0).into_owned();
    let key = |t: &Tri| axis.dot(&t.centroid);
    if mean {
        let cut = axis.dot(&stats.mean);
        keys.clear();
        keys.extend(tris.iter().map(key));
        let lo = partition_in_place(keys, |&k| k < cut, |i, j| tris.swap(i, j));
        if lo != 0 && lo != tris.len() {
            return lo;
        }
    }
    let mid = tris.len() / 2;
    tris.select_nth_unstable_by(mid, |a, b| key(a).total_cmp(&key(b)));
    mid
}

/// Per-thread vertex marks for collecting a node's distinct vertices in
/// one pass (first appearance order, so the result does not depend on the
/// thread). One slot per worker of the current rayon pool plus one for a
/// caller outside it; each grows to the vertex count on first use and is
/// freed with the build.
struct Marks {
    slots: Vec<Mutex<Slot>>,
}

#[derive(Default)]
struct Slot {
    mark: Vec<u32>,
    stamp: u32,
}

impl Marks {
    fn new() -> Self {
        Self {
            slots: (0..=rayon::current_num_threads())
                .map(|_| Mutex::default())
                .collect(),
        }
    }

    /// The calling thread's marks.
    fn lock(&self) -> std::sync::MutexGuard<'_, Slot> {
        let last = self.slots.len() - 1;
        let slot = rayon::current_thread_index().map_or(last, |i| i.min(last));
        // A poisoned slot only means another task panicked; its marks are
        // still consistent (stamps are bumped before use).
        self.slots[slot]
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

impl Slot {
    /// Appends the distinct vertex indices of `tris` (indices below `len`)
    /// to `ids`, in order of first appearance.
    fn distinct(&mut self, tris: &[Tri], len: usize, ids: &mut Vec<u32>) {
        if let [t] = tris {
            let [a, b, c] = t.vertices;
            // One triangle (every leaf): no marks needed.
            ids.push(a);
            ids.extend((b != a).then_some(b));
            ids.extend((c != a && c != b).then_some(c));
            return;
        }
        let Self { mark, stamp } = self;
        if mark.len() < len {
            mark.resize(len, 0);
        }
        *stamp = stamp.wrapping_add(1);
        if *stamp == 0 {
            mark.fill(0);
            *stamp = 1;
        }
        let stamp = *stamp;
        // Branch-free: every index is written at the end of the list, which
        // grows only where the vertex is new (whether it is new is a coin flip
        // a branch would mispredict).
        let mut end = ids.len();
        ids.resize(end + 3 * tris.len(), 0);
        for &v in tris.iter().flat_map(|t| &t.vertices) {
            let m = &mut mark[v as usize];
            ids[end] = v;
            end += usize::from(*m != stamp);
            *m = stamp;
        }
        ids.truncate(end);
    }
}

//! The leaf test: earliest time in `[t0, t1]` at which one of the 15 vertex–face and edge–edge feature pairs of
//! two triangles, each carried by its rigid motion, may come within `min_separation`.
//!
//! # Method
//! Time boxes are searched earliest first (depth first, earlier half first). A box is dropped when the
//! triangles are certainly farther apart than `δ` over all of it ([`tri_apart`]): at the box's span (B's float
//! pose in A's frame at the box midpoint and the motions' slack, [`RelativeSpan`](ccd_motion::RelativeSpan)),
//! the two static triangles must be farther apart than `δ` plus the slack for their radii — bounding spheres
//! first, then projections on a separating direction in interval arithmetic. Boxes that survive are halved.
//!
//! The first box no wider than `tolerance / 64` that survives is checked again by the interval feature tests
//! ([`surviving`]), which also name the features: both motions are enclosed over the box ([`Motion::enclose`])
//! and composed into the interval pose of A relative to B and of B relative to A, so each feature function is
//! evaluated in the frame of the triangle that owns the face or the second edge, where that triangle is fixed.
//! For vertex–face,
//!
//! `F(t, u, v) = P(t) − (x0 + u·(x1 − x0) + v·(x2 − x0))`, `u, v ≥ 0`, `u + v ≤ 1`,
//!
//! and for edge–edge `F(t, u, v) = P0(t) + u·D(t) − (y0 + v·(y1 − y0))`, `u, v ∈ [0, 1]`, where `P` and `P0` are
//! interval boxes of the moving vertex and `D = R·(a1 − a0)` the interval edge vector (bounded through the
//! rotation alone, so the translation does not enter twice). The features touch at `t` iff
//! `|F(t, u, v)| ≤ δ` for some admissible `(u, v)`. A feature is excluded iff for some finite axis `k` the
//! interval `k·F` over the box and the whole `(u, v)` domain certainly avoids `[−δ|k|, δ|k|]`. Because `k·F` is
//! affine in `(u, v)`, its range over the domain is the projection of the fixed feature's vertices, so one axis
//! decides the whole `(u, v)` domain at once. The axes tried are the face normal and its three in-plane edge
//! normals (vertex–face), the edges' cross product (edge–edge), and in both cases the direction between the
//! features' closest points at the box's midpoint configuration. If every feature is excluded the box is
//! dropped after all and the search goes on.
//!
//! # Guarantee
//! Conservative: a box is dropped only where the triangles certainly stay farther than `δ` (the span's
//! guarantee plus outward-rounded projections, or the interval feature tests on enclosures that contain every
//! pose), so no feature contact in `[t0, t1]` earlier than the reported `t_lo` exists, and `None` means none at
//! all. Exactly degenerate faces (collinear vertices) are skipped as faces by the feature tests: a contact with
//! one is a contact with one of its edges, which the edge–edge pairs cover.

use ccd_bv::Real;
use ccd_interval::{IMat3, IVec3, Interval, bound_up};
use ccd_motion::{IntervalPose, Motion};
use nalgebra::Vector3;

use super::describe::closest_triangles;
use super::geometry::{closest_on_triangle, closest_segments};
use super::request::ToiStats;
use super::spans::{Span, Spans};

/// All 15 features: bits 0–2 vertex of A on B's face, 3–5 vertex of B on A's face, 6–14 edge `i` of A with
/// edge `j` of B at bit `6 + 3i + j`.
pub(crate) const ALL_FEATURES: u16 = (1 << 15) - 1;

/// One triangle in its model frame, with the data every time box reuses.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Tri<T: Real> {
    pub v: [Vector3<T>; 3],
    /// Edge vectors `v[i+1] − v[i]`, enclosed (the float difference is rounded).
    pub e: [IVec3<T>; 3],
    /// Float normal (any finite vector is a sound axis).
    pub n: Vector3<T>,
    /// Exactly collinear vertices.
    pub degenerate: bool,
    /// Upper bound of the vertices' distance from the model origin.
    pub radius: T,
    /// Centroid (float) and an upper bound of the vertices' distance from it.
    pub centroid: Vector3<T>,
    pub spread: T,
    /// Largest 1-norm of a vertex (scale of the rounding allowance).
    pub scale: T,
}

impl<T: Real> Tri<T> {
    pub fn new(t: &[[T; 3]; 3]) -> Self {
        let v = t.map(Vector3::from);
        let e = std::array::from_fn(|i| IVec3::point(&v[(i + 1) % 3]) - IVec3::point(&v[i]));
        let n = (v[1] - v[0]).cross(&(v[2] - v[0]));
        let centroid = (v[0] + v[1] + v[2]) / T::lit(3.0);
        let most = |f: &dyn Fn(&Vector3<T>) -> T| v.iter().map(f).fold(T::zero(), |m, x| m.max(x));
        Self {
            v,
            e,
            n,
            degenerate: collinear(t),
            radius: bound_up(most(&|x| x.norm())),
            centroid,
            spread: bound_up(most(&|x| (x - centroid).norm())),
            scale: most(&|x| x.x.abs() + x.y.abs() + x.z.abs()),
        }
    }
}

/// Exact collinearity: all three coordinate projections have zero orientation.
fn collinear<T: Real>(t: &[[T; 3]; 3]) -> bool {
    let c = |p: &[T; 3], i: usize, j: usize| robust::Coord {
        x: p[i].to_f64_exact(),
        y: p[j].to_f64_exact(),
    };
    [(0, 1), (1, 2), (2, 0)]
        .iter()
        .all(|&(i, j)| robust::orient2d(c(&t[0], i, j), c(&t[1], i, j), c(&t[2], i, j)) == 0.0)
}

/// A relative interval pose: body points of one triangle in the other's model frame.
struct Rel<T: Real> {
    rot: IMat3<T>,
    trans: IVec3<T>,
}

impl<T: Real> Rel<T> {
    /// The pose of `x` in `y`'s frame: `R_yᵀ·R_x`, `R_yᵀ·(p_x − p_y)`.
    fn new(x: &IntervalPose<T>, y: &IntervalPose<T>) -> Self {
        let ryt = y.rot.transpose();
        Self {
            rot: ryt.mul(&x.rot),
            trans: ryt.mul_vec(&(x.trans - y.trans)),
        }
    }

    fn point(&self, p: &Vector3<T>) -> IVec3<T> {
        self.rot.mul_real_vec(p) + self.trans
    }
}

fn mid<T: Real>(b: &IVec3<T>) -> Vector3<T> {
    Vector3::new(b.x.midpoint(), b.y.midpoint(), b.z.midpoint())
}

/// Upper bound of `δ·|k|`.
fn threshold<T: Real>(k: &Vector3<T>, delta: T) -> T {
    if delta <= T::zero() {
        return T::zero();
    }
    match IVec3::point(k).norm_sqr().sqrt() {
        Some(n) => (n * delta).hi(),
        None => T::zero(),
    }
}

/// Hull of the projections of fixed points onto `k`.
fn project_fixed<T: Real>(pts: &[Vector3<T>], k: &Vector3<T>) -> Interval<T> {
    pts.iter()
        .map(|p| IVec3::point(p).dot_real(k))
        .reduce(|a, b| a.hull(b))
        .unwrap_or_default()
}

/// `true` if `a` and `b` are certainly more than `thr` apart.
fn apart<T: Real>(a: Interval<T>, b: Interval<T>, thr: T) -> bool {
    (Interval::point(b.lo()) - a.hi()).lo() > thr || (Interval::point(a.lo()) - b.hi()).lo() > thr
}

fn usable<T: Real>(k: &Vector3<T>) -> bool {
    let s = k.norm_squared();
    s > T::zero() && s.finite()
}

/// Vertex box `p` against the fixed face `f`: certainly farther than `δ` over the whole box?
fn vertex_face_excluded<T: Real>(p: &IVec3<T>, f: &Tri<T>, delta: T) -> bool {
    let pm = mid(p);
    let closest = pm - closest_on_triangle(&pm, &f.v);
    let lateral = |i: usize| f.n.cross(&(f.v[(i + 1) % 3] - f.v[i]));
    let axes = [closest, f.n, lateral(0), lateral(1), lateral(2)];
    axes.iter()
        .filter(|k| usable(*k))
        .any(|k| apart(p.dot_real(k), project_fixed(&f.v, k), threshold(k, delta)))
}

/// Moving edge `p0 + u·d` against the fixed segment `[y0, y1]`: certainly farther than `δ`?
fn edge_edge_excluded<T: Real>(
    p0: &IVec3<T>,
    d: &IVec3<T>,
    y0: &Vector3<T>,
    y1: &Vector3<T>,
    delta: T,
) -> bool {
    let (pm, dm) = (mid(p0), mid(d));
    let (ca, cb) = closest_segments(&pm, &(pm + dm), y0, y1);
    let axes = [ca - cb, dm.cross(&(y1 - y0))];
    axes.iter().filter(|k| usable(*k)).any(|k| {
        let dk = d.dot_real(k);
        let sweep = Interval::new(dk.lo().min(T::zero()), dk.hi().max(T::zero()));
        apart(
            p0.dot_real(k) + sweep,
            project_fixed(&[*y0, *y1], k),
            threshold(k, delta),
        )
    })
}

/// Triangle-level test: hull of A's vertex boxes against B's fixed triangle.
fn triangles_excluded<T: Real>(pa: &[IVec3<T>; 3], b: &Tri<T>, delta: T) -> bool {
    let m: [Vector3<T>; 3] = std::array::from_fn(|j| mid(&pa[j]));
    let ea = [m[1] - m[0], m[2] - m[1], m[0] - m[2]];
    let eb = [b.v[1] - b.v[0], b.v[2] - b.v[1], b.v[0] - b.v[2]];
    let mut axes = [Vector3::zeros(); 11];
    axes[0] = b.n;
    axes[1] = ea[0].cross(&ea[1]);
    for i in 0..3 {
        for j in 0..3 {
            axes[2 + 3 * i + j] = ea[i].cross(&eb[j]);
        }
    }
    axes.iter().filter(|k| usable(*k)).any(|k| {
        let sa = pa
            .iter()
            .map(|p| p.dot_real(k))
            .reduce(|x, y| x.hull(y))
            .unwrap_or_default();
        apart(sa, project_fixed(&b.v, k), threshold(k, delta))
    })
}

/// The features of `mask` not excluded over the box whose relative poses are `ab` (A in B) and `ba` (B in A).
fn surviving<T: Real>(
    a: &Tri<T>,
    b: &Tri<T>,
    ab: &Rel<T>,
    ba: &Rel<T>,
    mask: u16,
    delta: T,
) -> u16 {
    let pa: [IVec3<T>; 3] = std::array::from_fn(|j| ab.point(&a.v[j]));
    if triangles_excluded(&pa, b, delta) {
        return 0;
    }
    let mut out = 0u16;
    for bit in 0..15u16 {
        if mask & (1 << bit) == 0 {
            continue;
        }
        let excluded = match bit {
            0..=2 => b.degenerate || vertex_face_excluded(&pa[bit as usize], b, delta),
            3..=5 => {
                a.degenerate || vertex_face_excluded(&ba.point(&b.v[bit as usize - 3]), a, delta)
            }
            _ => {
                let (i, j) = (((bit - 6) / 3) as usize, ((bit - 6) % 3) as usize);
                let d = ab.rot.mul_vec(&a.e[i]);
                edge_edge_excluded(&pa[i], &d, &b.v[j], &b.v[(j + 1) % 3], delta)
            }
        };
        if !excluded {
            out |= 1 << bit;
        }
    }
    out
}

/// A bracket found by [`earliest`]: `[t_lo, t_hi]` and the features surviving in it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Bracket<T> {
    pub t_lo: T,
    pub t_hi: T,
    pub features: u16,
    /// Upper bound of the triangles' distance at every time of the confirmed box (see [`separation_bound`]).
    pub separation: T,
    /// The box was reported because `max_iterations` ran out, not because it was fine enough.
    pub hit_cap: bool,
}

/// An upper bound of the distance between the triangles at every time of `span`'s interval: their distance at
/// the span's float pose plus the span's slack for their radii (the [`RelativeSpan`](ccd_motion::RelativeSpan)
/// inequality read the other way: every pose of the interval moves each point by at most its reach), plus an
/// allowance for the rounding of B's moved vertices and of the closest points (64 ε of the coordinates'
/// magnitudes).
pub(crate) fn separation_bound<T: Real>(a: &Tri<T>, b: &Tri<T>, span: &Span<T>) -> T {
    let pose = &span.pose;
    let w = b.v.map(|v| pose.rot * v + pose.trans);
    let (pa, pb) = closest_triangles(&a.v, &w);
    let trans1 = pose.trans.x.abs() + pose.trans.y.abs() + pose.trans.z.abs();
    let slop =
        T::EPSILON * T::lit(64.0) * (a.scale + b.scale * (T::one() + span.rel.defect) + trans1);
    bound_up((pa - pb).norm() + span.rel.slack(a.radius, b.radius) + slop)
}

/// `true` if the triangles are certainly farther apart than `delta` at every time of `span`'s interval: in A's
/// frame, `a` and `b` moved by the span's float pose are farther apart than `delta` plus the span's slack for
/// their radii (the [`RelativeSpan`](ccd_motion::RelativeSpan) guarantee).
///
/// First the bounding spheres about the centroids; then a direction on which both vertex sets are projected in
/// interval arithmetic (any direction is sound): `dir`, the one that worked on an earlier box of the same pair,
/// and if it fails the direction between the closest points of the two float triangles, which makes the test
/// as tight as the triangles' distance (and becomes the new `dir`). B's moved vertices carry the rounding of the
/// float transform (a 3-term dot product and an addition: within `16 ε (|v|₁ (1 + defect) + |trans|₁)`).
fn tri_apart<T: Real>(
    a: &Tri<T>,
    b: &Tri<T>,
    span: &Span<T>,
    delta: T,
    dir: &mut Option<Vector3<T>>,
) -> bool {
    let rel = &span.rel;
    let pose = &span.pose;
    let gap = bound_up(rel.slack(a.radius, b.radius) + delta);
    let trans1 = pose.trans.x.abs() + pose.trans.y.abs() + pose.trans.z.abs();
    // Spheres: |rot·(y − c)| ≤ (1 + defect)·|y − c| for the float (not quite orthogonal) rotation.
    let cb = pose.rot * b.centroid + pose.trans;
    let centre_gap = (cb - a.centroid).norm();
    let slop = T::EPSILON * T::lit(64.0) * (a.scale + b.scale + trans1);
    let reach = bound_up(a.spread + b.spread * (T::one() + rel.defect) + slop);
    if centre_gap - reach > gap {
        return true;
    }
    let w = b.v.map(|v| pose.rot * v + pose.trans);
    let err = bound_up(T::EPSILON * T::lit(16.0) * (b.scale * (T::one() + rel.defect) + trans1));
    let spread = Interval::new(-err, err);
    let separates = |k: &Vector3<T>| {
        if !usable(k) {
            return false;
        }
        let sb = w
            .iter()
            .map(|p| (IVec3::point(p) + IVec3::new(spread, spread, spread)).dot_real(k))
            .reduce(|x, y| x.hull(y))
            .unwrap_or_default();
        apart(project_fixed(&a.v, k), sb, threshold(k, gap))
    };
    if dir.as_ref().is_some_and(separates) {
        return true;
    }
    let (pa, pb) = closest_triangles(&a.v, &w);
    let k = pa - pb;
    *dir = Some(k);
    separates(&k)
}

/// The earliest box of `[t0, t1]` (no wider than `tolerance / 64`, unless `max_iterations` ran out) in which
/// some feature pair of `a` and `b` may be within `delta`, reported as `[start, start + tolerance]` (clamped to
/// `t_max`). Boxes starting at or after `limit` are not examined
/// (`strict`: start ≥ limit skipped; otherwise start > limit).
///
/// Boxes are dropped by [`tri_apart`] on the span of their interval; the first fine box it cannot drop is
/// handed to the interval feature tests ([`surviving`]) on the motions' enclosures, which certify the box
/// again, feature by feature, and name the features that may touch.
#[allow(clippy::too_many_arguments)]
pub(crate) fn earliest<T: Real, MA: Motion<T> + ?Sized, MB: Motion<T> + ?Sized>(
    a: &Tri<T>,
    b: &Tri<T>,
    spans: &mut Spans<'_, T, MA, MB>,
    (t0, t1, t_max): (T, T, T),
    (limit, strict): (T, bool),
    tolerance: T,
    delta: T,
    max_iterations: usize,
    stats: &mut ToiStats,
) -> Option<Bracket<T>> {
    // Boxes are refined to 1/64 of the tolerance: the slack shrinks with the box, so the first surviving fine
    // box starts within a small fraction of the tolerance of the contact.
    let fine = tolerance * T::lit(1.0 / 64.0);
    let mut stack = vec![(t0, t1)];
    let mut iterations = 0usize;
    let mut dir = None;
    while let Some((s, e)) = stack.pop() {
        if (strict && s >= limit) || (!strict && s > limit) {
            continue;
        }
        iterations += 1;
        stats.primitive_tests += 1;
        let span = spans.get(s, e, stats);
        if tri_apart(a, b, &span, delta, &mut dir) {
            continue;
        }
        let m = s + (e - s) * T::lit(0.5);
        let resolved = e - s <= fine || !(s < m && m < e);
        if resolved || iterations >= max_iterations {
            let (ea, eb) = spans.enclose(s, e, stats);
            let (ab, ba) = (Rel::new(&ea, &eb), Rel::new(&eb, &ea));
            let alive = surviving(a, b, &ab, &ba, ALL_FEATURES, delta);
            if alive == 0 {
                continue;
            }
            // The box's start is certified; the contact follows within the slack of a box 64 times finer than
            // the tolerance, so the bracket is the tolerance from there (never narrower than the box).
            let t_hi = (s + tolerance).max(e).min(t_max.max(e));
            return Some(Bracket {
                t_lo: s,
                t_hi,
                features: alive,
                separation: separation_bound(a, b, &span),
                hit_cap: !resolved,
            });
        }
        stack.push((m, e));
        stack.push((s, m));
    }
    None
}

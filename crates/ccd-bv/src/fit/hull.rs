//! Convex hulls (3-D quickhull and 2-D monotone chain) with exact
//! orientation predicates, for the hull-surface covariance.

use std::cell::Cell;
use std::cmp::Ordering;

use nalgebra::Vector3;

use super::exact::{orient2d_sign, orient3d_sign};
use ccd_interval::pow2::{ldexp, unit_exponent};

/// "No face" in adjacency links.
const NONE: u32 = u32::MAX;

/// Relative error bound of the orientation filter: Shewchuk's
/// `o3derrboundA = (7 + 56ε)ε` rounded up to `8ε`.
const FILTER: f64 = 8.0 * f64::EPSILON / 2.0;

/// The filter decides only when its bound is at least `2^-960`: then the
/// permanent exceeds `2^-910`, and the absolute errors of products that
/// underflow (at most `2^-1075` each, a dozen of them) are far below the
/// filter's slack `ε·permanent` (`ε = 2^-53`); smaller determinants go to the
/// exact predicate.
const FILTER_MIN: f64 = f64::from_bits((1023 - 960) << 52);

/// The triangulated surface of the convex hull of `points`.
///
/// Returns triangles of indices into `points`, oriented counter-clockwise
/// seen from outside, or `None` when the points do not span a volume (all
/// coplanar, collinear or equal; fewer than 4 points), when a coordinate is
/// not finite, or when there are `u32::MAX` points or more.
///
/// # Guarantee
/// Every returned vertex is an input point, and the function never panics.
/// The hull is computed on the copy `P' = {p·2^k}` of the points, each
/// coordinate rounded once, where `2^k` brings the largest magnitude `M` of
/// any coordinate into `[0.5, 1)` (the hull's combinatorics do not change
/// under scaling). On `P'` it is exact: visibility is decided with a
/// filtered determinant, then Shewchuk's adaptive `orient3d` where it cannot
/// underflow, else big-integer arithmetic; so every point of `P'` lies
/// inside or on the returned surface, and `None` means exactly that `P'`
/// spans no volume.
///
/// `P'` is exactly `2^k·P` — so the result is exact for the input — when
/// every coordinate `x·2^k` is representable, in particular when every
/// non-zero coordinate has `|x| ≥ M·2^-1021` (its scaled value is then a
/// normal number). Smaller coordinates are rounded to a multiple of
/// `2^-1074-k ≤ M·2^-1073`: a point may then lie outside the surface, or a
/// flat set be reported as a volume (or vice versa), by that much.
///
/// Points on the hull boundary that are not needed as vertices (e.g. in the
/// interior of a hull facet) may be left out; coplanar facets are
/// triangulated arbitrarily. Duplicates are harmless.
///
/// Quickhull with conflict lists (Barber, Dobkin, Huhdanpaa 1996):
/// expected `O(n log n)`.
pub fn convex_hull(points: &[Vector3<f64>]) -> Option<Vec<[u32; 3]>> {
    let (mut m, mut finite) = (0.0f64, true);
    for x in points
        .iter()
        .flat_map(|p| [p.x.abs(), p.y.abs(), p.z.abs()])
    {
        finite &= x < f64::INFINITY; // false for NaN too
        m = if x > m { x } else { m };
    }
    if points.len() >= NONE as usize || !finite {
        return None;
    }
    match unit_exponent(m) {
        0 => hull_of(points),
        k => {
            // 2^k in one factor where it is an f64, else two (the first exact).
            let (a, b) = (ldexp(1.0, k.min(1023)), ldexp(1.0, k - k.min(1023)));
            hull_of(&points.iter().map(|p| p * a * b).collect::<Vec<_>>())
        }
    }
}

/// Most emptied conflict lists a thread keeps between hulls, and the most
/// points of a hull whose buffers are kept: enough for the many small hulls
/// of a tree build without holding on to the memory of a large one.
const KEEP_LISTS: usize = 4096;
const KEEP_CAPACITY: usize = 256;

/// Buffers of [`Hull`] kept per thread between calls, so that the small
/// hulls of a tree build allocate little.
#[derive(Default)]
struct Buffers {
    faces: Vec<Face>,
    pool: Vec<Vec<u32>>,
    scratch: Scratch,
}

thread_local! {
    static BUFFERS: std::cell::RefCell<Buffers> = std::cell::RefCell::default();
}

/// Quickhull on points whose coordinates are below 1 in magnitude; `None`
/// for no volume or (defensively) any inconsistency of the structure.
fn hull_of(points: &[Vector3<f64>]) -> Option<Vec<[u32; 3]>> {
    let mut b = BUFFERS.with(|b| b.take());
    let mut h = Hull {
        pts: points,
        faces: std::mem::take(&mut b.faces),
        pool: std::mem::take(&mut b.pool),
        scratch: std::mem::take(&mut b.scratch),
        failed: Cell::new(false),
    };
    let result = quickhull(&mut h);
    // Keep the buffers of a small hull (emptied, with at most `KEEP_LISTS`
    // conflict lists); a hull of more than `KEEP_CAPACITY` points gives its
    // memory back. With at most that many points no list outgrows it.
    if points.len() <= KEEP_CAPACITY {
        let Hull {
            mut faces,
            mut pool,
            scratch,
            ..
        } = h;
        for face in faces.drain(..) {
            let mut list = face.outside;
            list.clear();
            pool.push(list);
        }
        pool.truncate(KEEP_LISTS);
        BUFFERS.with(|cell| {
            *cell.borrow_mut() = Buffers {
                faces,
                pool,
                scratch,
            }
        });
    }
    result
}

/// [`hull_of`] on the state `h` (empty buffers).
fn quickhull(h: &mut Hull<'_>) -> Option<Vec<[u32; 3]>> {
    let points = h.pts;
    let [v0, v1, v2, v3] = initial_simplex(points)?;
    for v in [[v0, v1, v2], [v0, v3, v1], [v1, v3, v2], [v2, v3, v0]] {
        h.new_face(v);
    }
    for f in 0..4 {
        for g in 0..4 {
            for e in 0..3 {
                if let Some(k) = h.edge_index(g, h.faces[f].v[(e + 1) % 3], h.faces[f].v[e]) {
                    h.faces[f].adj[e] = g as u32;
                    h.faces[g].adj[k] = f as u32;
                }
            }
        }
    }
    if h.faces.iter().any(|f| f.adj.contains(&NONE)) {
        return None;
    }
    let start = [0, 1, 2, 3];
    for p in 0..points.len() as u32 {
        if ![v0, v1, v2, v3].contains(&p) {
            h.assign(p, &start);
        }
    }
    let mut stack: Vec<u32> = start.to_vec();
    let mut stamp = 0;
    while let Some(f) = stack.pop() {
        let face = h.faces.get(f as usize)?;
        if !face.alive || face.outside.is_empty() {
            continue;
        }
        stamp += 1;
        let new = h.add_point(f, stamp)?;
        stack.extend(new.filter(|&g| !h.faces[g as usize].outside.is_empty()));
    }
    if h.failed.get() {
        return None;
    }
    Some(h.faces.iter().filter(|f| f.alive).map(|f| f.v).collect())
}

/// The convex polygon of 2-D points: indices counter-clockwise, without
/// collinear boundary points (Andrew's monotone chain with exact
/// `orient2d`). Fewer than 3 indices when the points are collinear.
/// Written to `hull`, with `keys` as scratch (both reused by a caller that
/// computes many small hulls).
///
/// The points are sorted by `(x, y)` in the order of `f64::total_cmp`, on
/// keys that compare as integers in that order; points with equal keys are
/// equal, so which of them survives the deduplication does not change any
/// coordinate of the result.
pub(crate) fn convex_hull_2d_into(
    points: &[[f64; 2]],
    keys: &mut Vec<(i64, i64, u32)>,
    hull: &mut Vec<u32>,
) {
    keys.clear();
    keys.extend(
        points
            .iter()
            .enumerate()
            .map(|(i, p)| (total_key(p[0]), total_key(p[1]), i as u32)),
    );
    keys.sort_unstable_by_key(|&(x, y, _)| (x, y));
    keys.dedup_by_key(|&mut (x, y, _)| (x, y));
    hull.clear();
    if keys.len() < 3 {
        hull.extend(keys.iter().map(|k| k.2));
        return;
    }
    let turns_left = |h: &[u32], p: u32| {
        let c = [h[h.len() - 2], h[h.len() - 1], p].map(|i| points[i as usize]);
        orient2d_sign(c) == Ordering::Greater
    };
    for &(_, _, p) in keys.iter() {
        while hull.len() >= 2 && !turns_left(hull, p) {
            hull.pop();
        }
        hull.push(p);
    }
    let lower = hull.len() + 1;
    for &(_, _, p) in keys.iter().rev().skip(1) {
        while hull.len() >= lower && !turns_left(hull, p) {
            hull.pop();
        }
        hull.push(p);
    }
    hull.pop();
}

/// An integer that orders as `x` does under `f64::total_cmp` (its
/// definition: the sign-magnitude bits turned into two's complement).
fn total_key(x: f64) -> i64 {
    let bits = x.to_bits() as i64;
    bits ^ (((bits >> 63) as u64) >> 1) as i64
}

/// One hull triangle during construction.
struct Face {
    /// Vertices, counter-clockwise seen from outside.
    v: [u32; 3],
    /// `adj[e]`: the face across edge `(v[e], v[(e+1)%3])`.
    adj: [u32; 3],
    /// Outward normal `(v1 − v0) × (v2 − v0)` as computed in `f64`
    /// (unnormalised), for the filtered predicate and to rank outside points.
    normal: Vector3<f64>,
    /// Component-wise permanents of that cross product (`|u_y v_z| + |u_z v_y|`,
    /// …), for the filter's error bound.
    perm: Vector3<f64>,
    /// `zero[k]`: both products of `normal[k]` have an exactly zero factor,
    /// so that component is exactly 0 (e.g. faces in a coordinate plane).
    zero: [bool; 3],
    /// Points strictly outside this face and assigned to it.
    outside: Vec<u32>,
    /// The farthest outside point and its (scaled) distance.
    far: u32,
    far_d: f64,
    /// Visibility cache: valid when `mark` equals the current stamp.
    mark: u32,
    visible: bool,
    alive: bool,
}

/// Quickhull state.
struct Hull<'a> {
    pts: &'a [Vector3<f64>],
    faces: Vec<Face>,
    /// Emptied conflict lists, reused.
    pool: Vec<Vec<u32>>,
    scratch: Scratch,
    /// Set when a predicate met a non-finite value (never, for points below
    /// 1 in magnitude): the result is then `None`.
    failed: Cell<bool>,
}

impl Hull<'_> {
    /// Whether point `p` is strictly outside face `f` (exact). A non-finite
    /// filter (impossible for points below 1 in magnitude) sets
    /// [`Hull::failed`] and answers `false`.
    ///
    /// `w·n` with `w = p − v0` and the face's cross product `n` is the
    /// orientation determinant evaluated exactly as Shewchuk's `orient3d`
    /// fast path evaluates it (one rounded difference per input, minors,
    /// then the expansion), so his bound `(7 + 56ε)ε·permanent` holds; with
    /// a slightly larger constant it decides most cases (those with a bound
    /// of at least [`FILTER_MIN`]), and the rest go to the exact predicate.
    fn above(&self, f: usize, p: u32) -> bool {
        let face = &self.faces[f];
        let w = self.pts[p as usize] - self.pts[face.v[0] as usize];
        let det = w.dot(&face.normal);
        let bound = FILTER * w.abs().dot(&face.perm);
        // An infinite `det` (at most `bound / FILTER`) has an infinite bound
        // and is not decided here.
        if bound >= FILTER_MIN {
            if det > bound {
                return true;
            }
            if det < -bound {
                return false;
            }
        }
        self.undecided(f, p, det, bound)
    }

    /// [`Hull::above`] where the filter does not decide.
    #[cold]
    #[inline(never)]
    fn undecided(&self, f: usize, p: u32, det: f64, bound: f64) -> bool {
        if !(det.is_finite() && bound.is_finite()) {
            self.failed.set(true);
            return false;
        }
        let face = &self.faces[f];
        let w = self.pts[p as usize] - self.pts[face.v[0] as usize];
        // Every term has an exactly zero factor (a rounded difference is 0
        // only if the exact one is): the determinant is exactly 0. Common
        // for grids and axis-aligned faces, where the adaptive predicate
        // would expand to full precision.
        if (0..3).all(|k| w[k] == 0.0 || face.zero[k]) {
            return false;
        }
        let [a, b, c] = face.v.map(|i| &self.pts[i as usize]);
        orient3d_sign([a, b, c, &self.pts[p as usize]]) == Ordering::Less
    }

    fn new_face(&mut self, v: [u32; 3]) -> u32 {
        let [a, b, c] = v.map(|i| self.pts[i as usize]);
        let (u, w) = (b - a, c - a);
        let outside = self.pool.pop().unwrap_or_default();
        self.faces.push(Face {
            v,
            adj: [NONE; 3],
            normal: u.cross(&w),
            perm: Vector3::new(
                (u.y * w.z).abs() + (u.z * w.y).abs(),
                (u.z * w.x).abs() + (u.x * w.z).abs(),
                (u.x * w.y).abs() + (u.y * w.x).abs(),
            ),
            zero: std::array::from_fn(|k| {
                let (i, j) = ((k + 1) % 3, (k + 2) % 3);
                (u[i] == 0.0 || w[j] == 0.0) && (u[j] == 0.0 || w[i] == 0.0)
            }),
            outside,
            far: NONE,
            far_d: f64::NEG_INFINITY,
            mark: 0,
            visible: false,
            alive: true,
        });
        (self.faces.len() - 1) as u32
    }

    /// The index `k` of the directed edge `(a, b)` in face `f`.
    fn edge_index(&self, f: usize, a: u32, b: u32) -> Option<usize> {
        let v = self.faces[f].v;
        (0..3).find(|&k| v[k] == a && v[(k + 1) % 3] == b)
    }

    /// Assigns `p` to the first of `candidates` it is strictly outside of;
    /// drops it (it is inside the hull) when there is none.
    #[inline(always)]
    fn assign(&mut self, p: u32, candidates: &[u32]) {
        let Some(&f) = candidates.iter().find(|&&f| self.above(f as usize, p)) else {
            return;
        };
        let pt = self.pts[p as usize];
        let face = &mut self.faces[f as usize];
        let d = face.normal.dot(&(pt - self.pts[face.v[0] as usize]));
        if d > face.far_d {
            face.far = p;
            face.far_d = d;
        }
        face.outside.push(p);
    }

    /// Adds the farthest outside point of face `f` to the hull: removes the
    /// faces it sees, cones the horizon to it and redistributes their
    /// outside points. Returns the new faces' range, or `None` on an
    /// inconsistency: a missing link or back edge, a dead neighbour, a
    /// horizon that is not a simple cycle (impossible with exact predicates).
    fn add_point(&mut self, f: u32, stamp: u32) -> Option<std::ops::Range<u32>> {
        let eye = self.faces.get(f as usize)?.far;
        if eye == NONE {
            return None;
        }
        let mut s = std::mem::take(&mut self.scratch);
        s.visible.clear();
        s.horizon.clear();
        // Visible faces by breadth-first search; horizon edges (a, b, behind).
        s.visible.push(f);
        self.faces[f as usize].mark = stamp;
        self.faces[f as usize].visible = true;
        let mut k = 0;
        while k < s.visible.len() {
            let (v, adj) = (
                self.faces[s.visible[k] as usize].v,
                self.faces[s.visible[k] as usize].adj,
            );
            k += 1;
            for e in 0..3 {
                let n = adj[e] as usize;
                if !self.faces.get(n)?.alive {
                    return None;
                }
                if self.faces[n].mark != stamp {
                    let vis = self.above(n, eye);
                    self.faces[n].mark = stamp;
                    self.faces[n].visible = vis;
                    if vis {
                        s.visible.push(n as u32);
                    }
                }
                if !self.faces[n].visible {
                    s.horizon.push((v[e], v[(e + 1) % 3], n as u32));
                }
            }
        }
        order_cycle(&mut s.horizon, &mut s.cycle)?;

        let first = self.faces.len() as u32;
        let m = s.cycle.len() as u32;
        for (i, &h) in s.cycle.iter().enumerate() {
            let (a, b, behind) = s.horizon[h];
            let g = self.new_face([a, b, eye]);
            let back = self.edge_index(behind as usize, b, a)?;
            self.faces[behind as usize].adj[back] = g;
            let i = i as u32;
            self.faces[g as usize].adj = [behind, first + (i + 1) % m, first + (i + m - 1) % m];
        }
        s.new.clear();
        s.new.extend(first..first + m);
        for &vf in &s.visible {
            let face = &mut self.faces[vf as usize];
            face.alive = false;
            let mut pts = std::mem::take(&mut face.outside);
            for &p in &pts {
                if p != eye {
                    self.assign(p, &s.new);
                }
            }
            pts.clear();
            self.pool.push(pts);
        }
        self.scratch = s;
        Some(first..first + m)
    }
}

/// Buffers reused across [`Hull::add_point`] calls.
#[derive(Default)]
struct Scratch {
    visible: Vec<u32>,
    horizon: Vec<(u32, u32, u32)>,
    cycle: Vec<usize>,
    new: Vec<u32>,
}

/// Orders horizon edges `(a, b, _)` into one cycle (`b` of each is `a` of
/// the next), writing their indices in order to `cycle`; `None` if they do
/// not form a single simple cycle. Sorts `edges` by `a`.
fn order_cycle(edges: &mut [(u32, u32, u32)], cycle: &mut Vec<usize>) -> Option<()> {
    edges.sort_unstable_by_key(|e| e.0);
    if edges.windows(2).any(|w| w[0].0 == w[1].0) {
        return None;
    }
    cycle.clear();
    let mut cur = 0;
    for _ in 0..edges.len() {
        cycle.push(cur);
        cur = edges.binary_search_by_key(&edges[cur].1, |e| e.0).ok()?;
        if cur == 0 && cycle.len() < edges.len() {
            return None;
        }
    }
    (cur == 0 && cycle.len() >= 3).then_some(())
}

/// Four affinely independent points, ordered so that `orient3d` of the
/// first three against the fourth is positive (the fourth lies below the
/// first face): a seed tetrahedron; `None` if the points span no volume.
///
/// The far points are picked with `f64` distances, then checked with the
/// exact predicates; when a check fails, every point is tried exactly, so
/// `None` is exact too.
fn initial_simplex(pts: &[Vector3<f64>]) -> Option<[u32; 4]> {
    if pts.len() < 4 {
        return None;
    }
    let extreme = |axis: usize| {
        let by = |i: &usize, j: &usize| pts[*i][axis].total_cmp(&pts[*j][axis]);
        let lo = (0..pts.len()).min_by(by).unwrap_or(0);
        let hi = (0..pts.len()).max_by(by).unwrap_or(0);
        (pts[hi][axis] - pts[lo][axis], lo, hi)
    };
    let (span, i0, i1) = (0..3).map(extreme).max_by(|a, b| a.0.total_cmp(&b.0))?;
    if !span.is_finite() || span <= 0.0 {
        return None;
    }
    let (p0, d) = (pts[i0], pts[i1] - pts[i0]);
    let argmax = |key: &dyn Fn(&Vector3<f64>) -> f64| {
        (0..pts.len())
            .max_by(|&i, &j| key(&pts[i]).total_cmp(&key(&pts[j])))
            .unwrap_or(0)
    };
    // Off the line p0 p1: some projection onto a coordinate plane turns.
    let off_line = |i: usize| {
        (0..3).any(|k| {
            let (u, v) = ((k + 1) % 3, (k + 2) % 3);
            let flat = [i0, i1, i].map(|j| [pts[j][u], pts[j][v]]);
            orient2d_sign(flat) != Ordering::Equal
        })
    };
    let i2 = argmax(&|p| (p - p0).cross(&d).norm_squared());
    let i2 = if off_line(i2) {
        i2
    } else {
        (0..pts.len()).find(|&i| off_line(i))?
    };
    let n = d.cross(&(pts[i2] - p0));
    let i3 = argmax(&|p| n.dot(&(p - p0)).abs());
    let o = |i: usize| orient3d_sign([&pts[i0], &pts[i1], &pts[i2], &pts[i]]);
    let i3 = if o(i3) != Ordering::Equal {
        i3
    } else {
        (0..pts.len()).find(|&i| o(i) != Ordering::Equal)?
    };
    let [a, b, c, d] = [i0, i1, i2, i3].map(|i| i as u32);
    Some(if o(i3) == Ordering::Greater {
        [a, b, c, d]
    } else {
        [a, c, b, d]
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// The polygon is counter-clockwise and convex (exact orientation), keeps every point on or inside each
        /// edge, and starts at the smallest point in `(x, y)` order; duplicated, negative-zero and collinear
        /// points included.
        #[test]
        fn hull_2d_is_the_convex_polygon(
            raw in prop::collection::vec(prop::array::uniform2(-4i32..4), 1..40),
            zero_sign in any::<bool>(),
        ) {
            let pts: Vec<[f64; 2]> = raw
                .iter()
                .map(|p| p.map(|c| if c == 0 && zero_sign { -0.0 } else { f64::from(c) / 2.0 }))
                .collect();
            let mut poly = Vec::new();
            convex_hull_2d_into(&pts, &mut Vec::new(), &mut poly);
            let at = |k: usize| pts[poly[k % poly.len()] as usize];
            let first = pts
                .iter()
                .copied()
                .min_by(|p, q| p[0].total_cmp(&q[0]).then(p[1].total_cmp(&q[1])));
            prop_assert_eq!(Some(at(0)), first);
            if poly.len() >= 3 {
                for k in 0..poly.len() {
                    prop_assert_eq!(orient2d_sign([at(k), at(k + 1), at(k + 2)]), Ordering::Greater);
                    for p in &pts {
                        prop_assert_ne!(orient2d_sign([at(k), at(k + 1), *p]), Ordering::Less);
                    }
                }
            } else {
                // Collinear input: every point on the line through the (at most two) returned points.
                for p in &pts {
                    prop_assert_eq!(orient2d_sign([at(0), at(1), *p]), Ordering::Equal);
                }
            }
        }
    }
}

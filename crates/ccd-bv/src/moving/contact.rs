//! Contact sets of the constant-velocity tests (Eberly, *Dynamic Collision Detection using Oriented Bounding Boxes*, §2.3.2, §3.3.2, §4.3.2):
//! at the first time of contact, the extreme features of both objects on the
//! last-entered axis touch, and their intersection is the contact set.
//!
//! Features are convex point lists (a vertex, an edge, or a face polygon in
//! cyclic order) lying, up to the rounding of the contact time, in one plane
//! orthogonal to the axis. The intersection is computed by cases:
//!
//! | features | contact set |
//! |---|---|
//! | vertex – anything | that vertex |
//! | edge – edge, not parallel | the midpoint of the segments' closest points |
//! | edge – edge, parallel | their overlap, on A's edge |
//! | edge – face | the edge clipped by the face's side planes |
//! | face – face | A's face clipped by B's side planes (Sutherland–Hodgman) |
//!
//! A side plane of a face contains the axis direction and one face edge, so
//! clipping ignores the (tiny) height difference of the two features. Clipping
//! keeps points up to a tolerance outside the planes, so exactly touching
//! boundaries (an edge lying on a face's border) survive round-off. When
//! round-off still leaves nothing, the vertex of the more specific feature
//! nearest the other's centroid is returned.

use nalgebra::Vector3;

use super::ContactSet;
use crate::Real;

/// Capacity of a point list: a convex polygon of at most 4 vertices clipped
/// by at most 4 half-planes has at most 8 vertices; round-off could add a
/// few more, and points beyond the capacity are dropped (never a panic).
const CAP: usize = 16;

/// A short list of points on the stack: a feature (a vertex, an edge or a
/// convex face in cyclic order) or a piece of a contact set.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Feature<T: Real> {
    pts: [Vector3<T>; CAP],
    len: usize,
}

impl<T: Real> Feature<T> {
    /// No point yet.
    pub(crate) fn empty() -> Self {
        Self {
            pts: [Vector3::zeros(); CAP],
            len: 0,
        }
    }

    /// A vertex.
    pub(crate) fn point(p: Vector3<T>) -> Self {
        let mut f = Self::empty();
        f.push(p);
        f
    }

    /// An edge.
    pub(crate) fn segment(p: Vector3<T>, q: Vector3<T>) -> Self {
        let mut f = Self::point(p);
        f.push(q);
        f
    }

    /// A quadrilateral face (cyclic order).
    pub(crate) fn quad(q: [Vector3<T>; 4]) -> Self {
        let mut f = Self::empty();
        for p in q {
            f.push(p);
        }
        f
    }

    /// Appends a point (dropped when the list is full).
    pub(crate) fn push(&mut self, p: Vector3<T>) {
        if self.len < CAP {
            self.pts[self.len] = p;
            self.len += 1;
        }
    }

    /// The points.
    fn points(&self) -> &[Vector3<T>] {
        &self.pts[..self.len]
    }

    /// Number of points.
    fn len(&self) -> usize {
        self.len
    }
}

/// The contact set of features `fa` (on A) and `fb` (on B), both extreme on
/// the unit axis `dir`; `tol` is the length tolerance (coincident points,
/// collinearity, clipping slack) and `tau` the angle tolerance (parallel
/// edges, as a sine).
pub(crate) fn contact_set<T: Real>(
    fa: &Feature<T>,
    fb: &Feature<T>,
    dir: &Vector3<T>,
    tol: T,
    tau: T,
) -> ContactSet<T> {
    let a = reduce(*fa, tol);
    let b = reduce(*fb, tol);
    let out = match (a.len(), b.len()) {
        (0, _) | (_, 0) => Feature::empty(),
        (1, _) => a,
        (_, 1) => b,
        (2, 2) => segment_segment(a.points(), b.points(), tol, tau),
        (2, _) => clip(a, b.points(), dir, tol),
        (_, 2) => clip(b, a.points(), dir, tol),
        _ => clip(a, b.points(), dir, tol),
    };
    let out = reduce(out, tol);
    let out = if out.len() == 0 {
        fallback(a.points(), b.points())
    } else {
        out
    };
    to_set(out.points())
}

/// The list as a [`ContactSet`] (1, 2 or more points).
fn to_set<T: Real>(pts: &[Vector3<T>]) -> ContactSet<T> {
    let arr = |p: &Vector3<T>| [p.x, p.y, p.z];
    match pts.len() {
        0 => ContactSet::Point([T::zero(); 3]),
        1 => ContactSet::Point(arr(&pts[0])),
        2 => ContactSet::Segment([arr(&pts[0]), arr(&pts[1])]),
        _ => ContactSet::Polygon(pts.iter().map(arr).collect()),
    }
}

/// Removes (cyclically) consecutive points within `tol` of each other, and
/// collapses a list whose points all lie within `tol` of the line through
/// its two farthest points to those two points (or to one, if they are
/// within `tol`).
fn reduce<T: Real>(f: Feature<T>, tol: T) -> Feature<T> {
    let tol2 = tol * tol;
    let mut pts = Feature::empty();
    for p in f.points() {
        if pts.len == 0 || (pts.pts[pts.len - 1] - p).norm_squared() > tol2 {
            pts.push(*p);
        }
    }
    while pts.len > 1 && (pts.pts[0] - pts.pts[pts.len - 1]).norm_squared() <= tol2 {
        pts.len -= 1;
    }
    if pts.len < 2 {
        return pts;
    }
    let v = pts.points();
    // Farthest pair.
    let (mut i0, mut j0, mut best) = (0, 1, T::zero());
    for i in 0..v.len() {
        for j in i + 1..v.len() {
            let d = (v[i] - v[j]).norm_squared();
            if d > best {
                (i0, j0, best) = (i, j, d);
            }
        }
    }
    if best <= tol2 {
        return Feature::point(v[0]);
    }
    if v.len() == 2 {
        return pts;
    }
    let (p, q) = (v[i0], v[j0]);
    let d = q - p;
    let flat = v
        .iter()
        .all(|x| d.cross(&(x - p)).norm_squared() <= tol2 * best);
    if flat { Feature::segment(p, q) } else { pts }
}

/// Two edges: the midpoint of their closest points, or, for parallel edges,
/// the overlap of B's edge projected onto A's.
fn segment_segment<T: Real>(a: &[Vector3<T>], b: &[Vector3<T>], tol: T, tau: T) -> Feature<T> {
    let (p0, d0) = (a[0], a[1] - a[0]);
    let (q0, d1) = (b[0], b[1] - b[0]);
    let (l0, l1) = (d0.norm_squared(), d1.norm_squared());
    let zero = T::zero();
    let one = T::one();
    if d0.cross(&d1).norm_squared() <= tau * tau * l0 * l1 {
        let s = |x: &Vector3<T>| (x - p0).dot(&d0) / l0;
        let (s0, s1) = (s(&b[0]), s(&b[1]));
        let lo = s0.min(s1).max(zero);
        let hi = s0.max(s1).min(one);
        if hi >= lo {
            return Feature::segment(p0 + d0 * lo, p0 + d0 * hi);
        }
        // Round-off gap between collinear edges: the nearer end of A's edge.
        let slack = tol / l0.sqrt();
        if lo <= hi + slack {
            let m = (lo + hi) * T::lit(0.5);
            return Feature::point(p0 + d0 * m.max(zero).min(one));
        }
        return Feature::empty();
    }
    // Closest points of two non-parallel segments (clamped parameters).
    let r = p0 - q0;
    let (b01, c, f) = (d0.dot(&d1), d0.dot(&r), d1.dot(&r));
    let denom = l0 * l1 - b01 * b01;
    let mut s = if denom > zero {
        ((b01 * f - c * l1) / denom).max(zero).min(one)
    } else {
        zero
    };
    let mut t = (b01 * s + f) / l1;
    if t < zero {
        t = zero;
        s = (-c / l0).max(zero).min(one);
    } else if t > one {
        t = one;
        s = ((b01 - c) / l0).max(zero).min(one);
    }
    let pa = p0 + d0 * s;
    let pb = q0 + d1 * t;
    Feature::point((pa + pb) * T::lit(0.5))
}

/// `pts` (a point, segment or convex polygon) clipped by the side planes of
/// the convex polygon `poly` along `dir`, with slack `tol`.
fn clip<T: Real>(mut pts: Feature<T>, poly: &[Vector3<T>], dir: &Vector3<T>, tol: T) -> Feature<T> {
    let n = poly.len();
    let centroid = poly.iter().fold(Vector3::zeros(), |s, p| s + p) / T::lit(n as f64);
    for i in 0..n {
        let q = poly[i];
        let e = poly[(i + 1) % n] - q;
        let mut normal = dir.cross(&e);
        let len = normal.norm();
        if len <= T::zero() {
            continue;
        }
        normal /= len;
        if normal.dot(&(centroid - q)) < T::zero() {
            normal = -normal;
        }
        let dist = |p: &Vector3<T>| normal.dot(&(p - q));
        pts = clip_half_space(pts.points(), dist, tol);
        if pts.len() == 0 {
            break;
        }
    }
    pts
}

/// One Sutherland–Hodgman step: the part of `pts` (a segment when it has
/// two points, otherwise a polygon) where `dist ≥ 0`, keeping points with
/// `dist ≥ −tol` where they are (so a boundary that touches the plane
/// survives round-off) and cutting crossing edges at `dist = 0`.
fn clip_half_space<T: Real>(
    pts: &[Vector3<T>],
    dist: impl Fn(&Vector3<T>) -> T,
    tol: T,
) -> Feature<T> {
    let zero = T::zero();
    let mut d = [zero; CAP];
    for (di, p) in d.iter_mut().zip(pts) {
        *di = dist(p);
    }
    let keep = |i: usize| d[i] >= -tol;
    let cut = |i: usize, j: usize| {
        let s = (d[i] / (d[i] - d[j])).max(zero).min(T::one());
        pts[i] + (pts[j] - pts[i]) * s
    };
    let mut out = Feature::empty();
    match pts.len() {
        1 => {
            if keep(0) {
                out.push(pts[0]);
            }
        }
        2 => match (keep(0), keep(1)) {
            (true, true) => out = Feature::segment(pts[0], pts[1]),
            (false, false) => {}
            (true, false) => out = Feature::segment(pts[0], cut(0, 1)),
            (false, true) => out = Feature::segment(cut(0, 1), pts[1]),
        },
        n => {
            for (i, p) in pts.iter().enumerate() {
                let j = (i + 1) % n;
                let (ini, inj) = (keep(i), keep(j));
                if ini {
                    out.push(*p);
                }
                if ini != inj {
                    out.push(cut(i, j));
                }
            }
        }
    }
    out
}

/// Round-off left nothing: the point of the feature with fewer points (the
/// more specific one) nearest the other feature's centroid.
fn fallback<T: Real>(a: &[Vector3<T>], b: &[Vector3<T>]) -> Feature<T> {
    let (small, big) = if a.len() <= b.len() { (a, b) } else { (b, a) };
    if small.is_empty() || big.is_empty() {
        let mut f = Feature::empty();
        if let Some(p) = small.iter().chain(big).next() {
            f.push(*p);
        }
        return f;
    }
    let c = big.iter().fold(Vector3::zeros(), |s, p| s + p) / T::lit(big.len() as f64);
    let mut best = small[0];
    for p in small {
        if (p - c).norm_squared() < (best - c).norm_squared() {
            best = *p;
        }
    }
    Feature::point(best)
}

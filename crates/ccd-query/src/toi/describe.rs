//! Contact point and normal of a feature pair at the end of its bracket (floating point, descriptive only).

use ccd_bv::Real;
use ccd_motion::Motion;
use nalgebra::Vector3;

use super::geometry::{closest_on_triangle, closest_segments};
use super::request::Feature;

/// Both triangles of a pair in their model frames.
pub(crate) struct ModelPair<T: Real> {
    pub a: [Vector3<T>; 3],
    pub b: [Vector3<T>; 3],
}

/// The feature of bit `bit` (see `leaf::ALL_FEATURES`).
pub(crate) fn feature_of(bit: u32) -> Feature {
    match bit {
        0..=2 => Feature::VertexFace {
            vertex_of_a: true,
            vertex: bit as u8,
        },
        3..=5 => Feature::VertexFace {
            vertex_of_a: false,
            vertex: (bit - 3) as u8,
        },
        _ => Feature::EdgeEdge {
            edge_a: ((bit - 6) / 3) as u8,
            edge_b: ((bit - 6) % 3) as u8,
        },
    }
}

type World<T> = ([Vector3<T>; 3], [Vector3<T>; 3]);

fn world<T: Real, MA: Motion<T> + ?Sized, MB: Motion<T> + ?Sized>(
    p: &ModelPair<T>,
    ma: &MA,
    mb: &MB,
    t: T,
) -> World<T> {
    let (pa, pb) = (ma.pose(t), mb.pose(t));
    (
        p.a.map(|v| pa.transform_point(&v.into()).coords),
        p.b.map(|v| pb.transform_point(&v.into()).coords),
    )
}

/// Closest points (on A's feature, on B's feature) of `feature` in the world configuration `w`.
fn closest<T: Real>(feature: Feature, w: &World<T>) -> (Vector3<T>, Vector3<T>) {
    let (a, b) = w;
    match feature {
        Feature::VertexFace {
            vertex_of_a: true,
            vertex,
        } => {
            let p = a[vertex as usize];
            (p, closest_on_triangle(&p, b))
        }
        Feature::VertexFace {
            vertex_of_a: false,
            vertex,
        } => {
            let q = b[vertex as usize];
            (closest_on_triangle(&q, a), q)
        }
        Feature::EdgeEdge { edge_a, edge_b } => {
            let (i, j) = (edge_a as usize, edge_b as usize);
            closest_segments(&a[i], &a[(i + 1) % 3], &b[j], &b[(j + 1) % 3])
        }
        Feature::Overlap => (
            a.iter().sum::<Vector3<T>>() / T::lit(3.0),
            b.iter().sum::<Vector3<T>>() / T::lit(3.0),
        ),
    }
}

/// Distance between the features at `t` (floating point).
pub(crate) fn feature_distance<T: Real, MA: Motion<T> + ?Sized, MB: Motion<T> + ?Sized>(
    p: &ModelPair<T>,
    ma: &MA,
    mb: &MB,
    feature: Feature,
    t: T,
) -> T {
    let (x, y) = closest(feature, &world(p, ma, mb, t));
    (x - y).norm()
}

/// Point (midway between the closest points at `t_hi`) and unit normal (from B towards A) of a contact.
pub(crate) fn describe<T: Real, MA: Motion<T> + ?Sized, MB: Motion<T> + ?Sized>(
    p: &ModelPair<T>,
    ma: &MA,
    mb: &MB,
    feature: Feature,
    (t_lo, t_hi): (T, T),
) -> ([T; 3], [T; 3]) {
    let w = world(p, ma, mb, t_hi);
    let (x, y) = closest(feature, &w);
    let point = (x + y) * T::lit(0.5);
    let (lx, ly) = closest(feature, &world(p, ma, mb, t_lo));
    let apart = lx - ly;
    let (a, b) = &w;
    let face = |t: &[Vector3<T>; 3]| (t[1] - t[0]).cross(&(t[2] - t[0]));
    let candidate = match feature {
        Feature::VertexFace {
            vertex_of_a: true, ..
        } => face(b),
        Feature::VertexFace {
            vertex_of_a: false, ..
        } => face(a),
        Feature::EdgeEdge { edge_a, edge_b } => {
            let (i, j) = (edge_a as usize, edge_b as usize);
            (a[(i + 1) % 3] - a[i]).cross(&(b[(j + 1) % 3] - b[j]))
        }
        Feature::Overlap => apart,
    };
    let tiny =
        |v: &Vector3<T>| v.norm_squared() <= T::EPSILON * T::EPSILON || !v.norm_squared().finite();
    let mut n = if tiny(&candidate) { apart } else { candidate };
    if tiny(&n) {
        return ([point.x, point.y, point.z], [T::zero(); 3]);
    }
    if n.dot(&apart) < T::zero() {
        n = -n;
    }
    n.normalize_mut();
    ([point.x, point.y, point.z], [n.x, n.y, n.z])
}

/// Closest points (on `a`, on `b`) of two triangles in one frame: the closest of the 15 feature pairs.
pub(crate) fn closest_triangles<T: Real>(
    a: &[Vector3<T>; 3],
    b: &[Vector3<T>; 3],
) -> (Vector3<T>, Vector3<T>) {
    let w = (*a, *b);
    (0..15)
        .map(|bit| closest(feature_of(bit), &w))
        .min_by(|x, y| {
            (x.0 - x.1)
                .norm_squared()
                .partial_cmp(&(y.0 - y.1).norm_squared())
                .unwrap_or(std::cmp::Ordering::Equal)
        })
        .unwrap_or((a[0], b[0]))
}

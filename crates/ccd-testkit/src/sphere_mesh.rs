//! Tessellated spheres: the lat/long mesh of the thesis experiments and the icosphere control.
//!
//! Both are inscribed: every vertex lies on the sphere (up to rounding of `sin`/`cos`/`sqrt`), so every mesh point is
//! at a distance in `[R·ρ_min, R]` from the centre (see [`min_face_plane_distance`](crate::min_face_plane_distance)).
//! Both are closed 2-manifolds with outward (counter-clockwise seen from outside) triangles.

use std::collections::HashMap;
use std::f64::consts::PI;

use crate::mesh::Mesh;

/// A latitude/longitude sphere of the given radius, centred at the origin, poles on the z axis.
///
/// `stacks` = t, `slices` = s. Vertices: the north pole (index 0), then t − 1 rings of s vertices at polar angles
/// θ_k = πk/t (k = 1 … t − 1, ring k's vertex j at azimuth 2πj/s), then the south pole (last index).
/// Triangles: a fan of s at each pole and two per quad in each of the t − 2 bands between rings, so
/// `2·s·(t − 1)` in all: `latlong(100, 200, 1.0)` has 39,600, `latlong(101, 200, 1.0)` 40,000 and
/// `latlong(5, 10, 1.0)` 80. Each band quad is an isosceles trapezoid, hence planar, so both its triangles share a
/// plane.
///
/// # Panics
/// If `stacks < 2` or `slices < 3`, or if the vertex count `s·(t − 1) + 2` does not fit in `u32`.
///
/// # Reference
/// `tris = 2·s·(t−1)` (default s = 2t), which reproduces the triangle counts of Gottschalk 2000, §5.3.2.
pub fn latlong(stacks: u32, slices: u32, radius: f64) -> Mesh {
    assert!(stacks >= 2, "latlong needs at least 2 stacks, got {stacks}");
    assert!(slices >= 3, "latlong needs at least 3 slices, got {slices}");
    let (t, s) = (stacks, slices);
    let rings = t - 1;
    let n_vertices = u64::from(s) * u64::from(rings) + 2;
    let south = u32::try_from(n_vertices - 1).expect("latlong vertex count exceeds u32");

    let mut vertices = Vec::with_capacity(n_vertices as usize);
    vertices.push([0.0, 0.0, radius]);
    for k in 1..t {
        let (sin_t, cos_t) = (PI * f64::from(k) / f64::from(t)).sin_cos();
        for j in 0..s {
            let (sin_p, cos_p) = (2.0 * PI * f64::from(j) / f64::from(s)).sin_cos();
            vertices.push([
                radius * sin_t * cos_p,
                radius * sin_t * sin_p,
                radius * cos_t,
            ]);
        }
    }
    vertices.push([0.0, 0.0, -radius]);

    // Index of ring k (1-based) vertex j (taken modulo s).
    let v = |k: u32, j: u32| 1 + (k - 1) * s + j % s;
    let mut triangles = Vec::with_capacity(2 * s as usize * rings as usize);
    for j in 0..s {
        triangles.push([0, v(1, j), v(1, j + 1)]);
    }
    for k in 1..rings {
        for j in 0..s {
            // Ring k is above ring k + 1; azimuth grows counter-clockwise seen from +z.
            let (a, b, c, d) = (v(k, j), v(k + 1, j), v(k + 1, j + 1), v(k, j + 1));
            triangles.push([a, b, c]);
            triangles.push([a, c, d]);
        }
    }
    for j in 0..s {
        triangles.push([south, v(rings, j + 1), v(rings, j)]);
    }
    Mesh {
        vertices,
        triangles,
    }
}

/// An icosphere: a regular icosahedron inscribed in the sphere of the given radius (centred at the origin), with each
/// triangle split `level` times into four (edge midpoints shared between neighbours and pushed onto the sphere).
///
/// `20·4^level` triangles and `10·4^level + 2` vertices: 80 for level 1, 1,280 for level 3, 1,310,720 for level 8.
/// A control for the pole anomaly of [`latlong`] (Gottschalk 2000, §5.3.2), its triangles being nearly uniform.
///
/// # Panics
/// If `level > 12` (the vertex count would exceed `u32`).
pub fn icosphere(level: u32, radius: f64) -> Mesh {
    assert!(level <= 12, "icosphere level {level} too large");
    let mut unit = icosahedron();
    for _ in 0..level {
        unit = subdivide(&unit);
    }
    unit.scaled(radius)
}

/// The regular icosahedron on the unit sphere, faces oriented outward.
fn icosahedron() -> Mesh {
    // The 12 vertices are the cyclic permutations of (0, ±1, ±φ); two of them are adjacent iff their distance is 2.
    // The faces are the 20 mutually adjacent triples, found by search rather than typed in.
    let phi = (1.0 + 5f64.sqrt()) / 2.0;
    let mut raw = Vec::with_capacity(12);
    for (a, b) in [(1.0, phi), (1.0, -phi), (-1.0, phi), (-1.0, -phi)] {
        raw.push([0.0, a, b]);
        raw.push([a, b, 0.0]);
        raw.push([b, 0.0, a]);
    }
    let dist2 = |p: [f64; 3], q: [f64; 3]| (0..3).map(|i| (p[i] - q[i]).powi(2)).sum::<f64>();
    let adjacent = |i: usize, j: usize| (dist2(raw[i], raw[j]) - 4.0).abs() < 1e-9;
    let mut triangles = Vec::with_capacity(20);
    for i in 0..12 {
        for j in i + 1..12 {
            for k in j + 1..12 {
                if adjacent(i, j) && adjacent(j, k) && adjacent(k, i) {
                    let (p, q, r) = (raw[i], raw[j], raw[k]);
                    let e1 = [q[0] - p[0], q[1] - p[1], q[2] - p[2]];
                    let e2 = [r[0] - p[0], r[1] - p[1], r[2] - p[2]];
                    let n = [
                        e1[1] * e2[2] - e1[2] * e2[1],
                        e1[2] * e2[0] - e1[0] * e2[2],
                        e1[0] * e2[1] - e1[1] * e2[0],
                    ];
                    // The face centroid points outward from the origin for a convex body around it.
                    let outward = n[0] * (p[0] + q[0] + r[0])
                        + n[1] * (p[1] + q[1] + r[1])
                        + n[2] * (p[2] + q[2] + r[2])
                        > 0.0;
                    let (i, j, k) = (i as u32, j as u32, k as u32);
                    triangles.push(if outward { [i, j, k] } else { [i, k, j] });
                }
            }
        }
    }
    debug_assert_eq!(triangles.len(), 20);
    Mesh {
        vertices: raw.into_iter().map(normalize).collect(),
        triangles,
    }
}

fn normalize(p: [f64; 3]) -> [f64; 3] {
    let len = (p[0] * p[0] + p[1] * p[1] + p[2] * p[2]).sqrt();
    p.map(|c| c / len)
}

/// One 1-to-4 split of every triangle of a unit-sphere mesh, midpoints projected to the unit sphere.
fn subdivide(mesh: &Mesh) -> Mesh {
    let mut vertices = mesh.vertices.clone();
    let mut midpoints: HashMap<(u32, u32), u32> = HashMap::with_capacity(mesh.len() * 3 / 2);
    let mut midpoint = |a: u32, b: u32| -> u32 {
        *midpoints.entry((a.min(b), a.max(b))).or_insert_with(|| {
            let (p, q) = (vertices[a as usize], vertices[b as usize]);
            vertices.push(normalize([p[0] + q[0], p[1] + q[1], p[2] + q[2]]));
            (vertices.len() - 1) as u32
        })
    };
    let mut triangles = Vec::with_capacity(4 * mesh.len());
    for &[a, b, c] in &mesh.triangles {
        let (ab, bc, ca) = (midpoint(a, b), midpoint(b, c), midpoint(c, a));
        triangles.extend([[a, ab, ca], [b, bc, ab], [c, ca, bc], [ab, bc, ca]]);
    }
    Mesh {
        vertices,
        triangles,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::measure::{is_closed_oriented_manifold, min_face_plane_distance, signed_volume};

    fn assert_on_sphere(m: &Mesh, radius: f64) {
        for v in &m.vertices {
            let r = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt();
            assert!(
                (r - radius).abs() <= 4.0 * f64::EPSILON * radius,
                "vertex {v:?} at radius {r}"
            );
        }
    }

    /// The inscribed polyhedron contains the ball of radius R·ρ_min and lies inside the ball of radius R.
    fn assert_volume_sandwiched(m: &Mesh, radius: f64) {
        let vol = signed_volume(m);
        let rho = min_face_plane_distance(m, [0.0; 3]);
        let ball = |r: f64| 4.0 / 3.0 * PI * r.powi(3);
        assert!(vol > 0.0);
        assert!(vol <= ball(radius) * (1.0 + 1e-12), "volume {vol} > ball");
        assert!(
            vol >= ball(rho) * (1.0 - 1e-12),
            "volume {vol} < inner ball"
        );
    }

    #[test]
    fn latlong_counts() {
        assert_eq!(latlong(101, 200, 1.0).len(), 40_000);
        assert_eq!(latlong(100, 200, 1.0).len(), 39_600);
        assert_eq!(latlong(5, 10, 1.0).len(), 80);
        let m = latlong(2, 3, 1.0);
        assert_eq!((m.len(), m.vertices.len()), (6, 5));
        assert_eq!(latlong(7, 9, 1.0).vertices.len(), 9 * 6 + 2);
    }

    #[test]
    fn latlong_is_a_closed_outward_sphere() {
        for (t, s, r) in [(2, 3, 1.0), (5, 10, 1.0), (6, 9, 2.5), (40, 80, 0.75)] {
            let m = latlong(t, s, r);
            assert!(is_closed_oriented_manifold(&m), "latlong({t}, {s})");
            assert_on_sphere(&m, r);
            assert_volume_sandwiched(&m, r);
        }
        // Fine tessellations converge to the ball's volume.
        let vol = signed_volume(&latlong(100, 200, 1.0));
        assert!((vol / (4.0 / 3.0 * PI) - 1.0).abs() < 1e-3);
    }

    #[test]
    fn latlong_every_face_faces_outward() {
        let m = latlong(12, 17, 1.0);
        for [a, b, c] in m.triangle_corners() {
            let e1 = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
            let e2 = [c[0] - a[0], c[1] - a[1], c[2] - a[2]];
            let n = [
                e1[1] * e2[2] - e1[2] * e2[1],
                e1[2] * e2[0] - e1[0] * e2[2],
                e1[0] * e2[1] - e1[1] * e2[0],
            ];
            assert!(n[0] * a[0] + n[1] * a[1] + n[2] * a[2] > 0.0);
        }
    }

    #[test]
    fn latlong_rho_min_is_0_9997533() {
        let rho = min_face_plane_distance(&latlong(100, 200, 1.0), [0.0; 3]);
        assert!((rho - 0.9997533).abs() < 5e-8, "rho {rho}");
        let rho = min_face_plane_distance(&latlong(5, 10, 1.0), [0.0; 3]);
        assert!((rho - 0.904508).abs() < 5e-7, "rho {rho}");
        let rho = min_face_plane_distance(&latlong(5, 10, 3.0), [0.0; 3]);
        assert!((rho / 3.0 - 0.904508).abs() < 5e-7, "rho {rho}");
        let big = latlong(387, 774, 1.0);
        assert_eq!(big.len(), 597_528);
        let rho = min_face_plane_distance(&big, [0.0; 3]);
        assert!((rho - 0.9999835).abs() < 5e-8, "rho {rho}");
        let eps_contact = 1.0 / min_face_plane_distance(&latlong(100, 200, 1.0), [0.0; 3]) - 1.0;
        assert!(
            (eps_contact - 2.4675e-4).abs() < 1e-7,
            "eps_contact {eps_contact}"
        );
    }

    #[test]
    fn icosphere_counts_and_shape() {
        for level in 0..=4 {
            let m = icosphere(level, 2.0);
            assert_eq!(m.len(), 20 * 4usize.pow(level));
            assert_eq!(m.vertices.len(), 10 * 4usize.pow(level) + 2);
            assert!(is_closed_oriented_manifold(&m), "level {level}");
            assert_on_sphere(&m, 2.0);
            assert_volume_sandwiched(&m, 2.0);
        }
        let vol = signed_volume(&icosphere(5, 1.0));
        assert!((vol / (4.0 / 3.0 * PI) - 1.0).abs() < 2e-3);
    }
}

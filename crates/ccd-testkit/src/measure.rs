//! Measures of a [`Mesh`]: face-plane distances, enclosed volume and closed-manifold structure.

use std::collections::HashMap;

use nalgebra::Vector3;

use crate::mesh::Mesh;

fn vec3(p: [f64; 3]) -> Vector3<f64> {
    Vector3::new(p[0], p[1], p[2])
}

/// The smallest distance from `centre` to the plane of any non-degenerate face (`f64::INFINITY` if there is none).
///
/// For a mesh inscribed in a sphere of radius R about `centre` (all vertices on the sphere), every point of the mesh
/// lies at a distance in `[d_min, R]` from `centre`. So an outer copy scaled by `(1 + ε)` cannot touch the inner one
/// when `(1 + ε)·d_min > R`, i.e. `ε > R/d_min − 1` (ρ_min = d_min/R; 0.9997533 for
/// `latlong(100, 200, 1.0)`, 0.904508 for `latlong(5, 10, 1.0)`).
///
/// Faces whose computed normal is exactly zero are skipped. Computed in `f64`; relative error about 1e-15.
pub fn min_face_plane_distance(mesh: &Mesh, centre: [f64; 3]) -> f64 {
    let c = vec3(centre);
    mesh.triangle_corners()
        .filter_map(|[a, b, d]| {
            let (a, b, d) = (vec3(a), vec3(b), vec3(d));
            let n = (b - a).cross(&(d - a));
            let len = n.norm();
            (len > 0.0).then(|| ((a - c).dot(&n) / len).abs())
        })
        .fold(f64::INFINITY, f64::min)
}

/// The signed volume enclosed by the mesh: Σ a·(b×c)/6 over its triangles (a, b, c).
///
/// For a closed, consistently oriented mesh this is the enclosed volume, positive when the triangles are
/// counter-clockwise seen from outside, and independent of the origin.
pub fn signed_volume(mesh: &Mesh) -> f64 {
    mesh.triangle_corners()
        .map(|[a, b, c]| vec3(a).dot(&vec3(b).cross(&vec3(c))))
        .sum::<f64>()
        / 6.0
}

/// `true` when the mesh is a closed, consistently oriented 2-manifold by its connectivity: every undirected edge is
/// used by exactly two triangles, once in each direction, and no triangle repeats a vertex index.
///
/// Only indices are examined (no geometry): coincident but distinct vertices count as different. Vertex-manifoldness
/// (a single fan around each vertex) is not checked.
pub fn is_closed_oriented_manifold(mesh: &Mesh) -> bool {
    let mut directed: HashMap<(u32, u32), u32> = HashMap::with_capacity(3 * mesh.len());
    for t in &mesh.triangles {
        if t[0] == t[1] || t[1] == t[2] || t[2] == t[0] {
            return false;
        }
        for k in 0..3 {
            *directed.entry((t[k], t[(k + 1) % 3])).or_insert(0) += 1;
        }
    }
    directed
        .iter()
        .all(|(&(i, j), &count)| count == 1 && directed.get(&(j, i)) == Some(&1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tetrahedron;

    #[test]
    fn tetrahedron_measures() {
        let t = tetrahedron();
        assert!((signed_volume(&t) - 1.0 / 6.0).abs() < 1e-15);
        assert!((signed_volume(&t.clone().translated([3.0, -2.0, 7.0])) - 1.0 / 6.0).abs() < 1e-13);
        assert!(is_closed_oriented_manifold(&t));
        // Distance from the origin-facing corner: the three coordinate faces pass through the origin.
        assert_eq!(min_face_plane_distance(&t, [0.0, 0.0, 0.0]), 0.0);
        let d = min_face_plane_distance(&t, [0.1, 0.1, 0.1]);
        assert!((d - 0.1).abs() < 1e-15);
    }

    #[test]
    fn broken_meshes_are_not_manifold() {
        let mut open = tetrahedron();
        open.triangles.pop();
        assert!(!is_closed_oriented_manifold(&open));
        let mut flipped = tetrahedron();
        flipped.triangles[0] = [0, 1, 2];
        assert!(!is_closed_oriented_manifold(&flipped));
        let mut degenerate = tetrahedron();
        degenerate.triangles.push([1, 1, 2]);
        assert!(!is_closed_oriented_manifold(&degenerate));
        assert_eq!(
            min_face_plane_distance(&Mesh::default(), [0.0; 3]),
            f64::INFINITY
        );
    }
}

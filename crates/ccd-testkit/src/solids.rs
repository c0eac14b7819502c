//! Small closed solids as triangle meshes: boxes and the unit tetrahedron.

use crate::Mesh;

/// The box `centre ± half` as 12 triangles (two per face), 8 shared
/// vertices, consistently oriented with outward normals (vertex `i` has
/// sign `+` on axis `k` iff bit `k` of `i` is set).
pub fn cuboid(half: [f64; 3], centre: [f64; 3]) -> Mesh {
    let vertices = (0..8)
        .map(|i: usize| {
            let sign = |bit: usize| if i >> bit & 1 == 1 { 1.0 } else { -1.0 };
            [0, 1, 2].map(|k| centre[k] + sign(k) * half[k])
        })
        .collect();
    let quads: [[u32; 4]; 6] = [
        [0, 2, 3, 1],
        [4, 5, 7, 6],
        [0, 1, 5, 4],
        [2, 6, 7, 3],
        [0, 4, 6, 2],
        [1, 3, 7, 5],
    ];
    let triangles = quads
        .iter()
        .flat_map(|q| [[q[0], q[1], q[2]], [q[0], q[2], q[3]]])
        .collect();
    Mesh {
        vertices,
        triangles,
    }
}

/// The tetrahedron with vertices (0,0,0), (1,0,0), (0,1,0), (0,0,1), faces
/// oriented outward.
pub fn tetrahedron() -> Mesh {
    Mesh {
        vertices: vec![
            [0.0, 0.0, 0.0],
            [1.0, 0.0, 0.0],
            [0.0, 1.0, 0.0],
            [0.0, 0.0, 1.0],
        ],
        triangles: vec![[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{is_closed_oriented_manifold, signed_volume};

    #[test]
    fn tetrahedron_is_closed_and_outward() {
        let t = tetrahedron();
        assert!(is_closed_oriented_manifold(&t));
        assert!((signed_volume(&t) - 1.0 / 6.0).abs() < 1e-15);
    }

    #[test]
    fn cuboid_is_a_closed_outward_box() {
        let m = cuboid([1.0, 2.0, 0.5], [3.0, -1.0, 0.0]);
        assert_eq!((m.vertices.len(), m.triangles.len()), (8, 12));
        assert!(is_closed_oriented_manifold(&m));
        assert!(
            (signed_volume(&m) - 8.0).abs() < 1e-12,
            "volume {}",
            signed_volume(&m)
        );
    }
}

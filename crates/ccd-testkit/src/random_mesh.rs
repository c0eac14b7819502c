//! Random meshes for collision tests: triangle soups, jittered spheres, and degenerate triangles.

use crate::mesh::Mesh;
use crate::rng::SplitMix64;
use crate::sphere_mesh::icosphere;

/// `n_tris` independent random triangles (no shared vertices; `3·n_tris` vertices).
///
/// Each triangle picks a centre uniformly in the cube `[-centre_box_half, centre_box_half]³` and its three corners
/// as centre + a uniform offset in `[-tri_size, tri_size]³`. Triangles may intersect each other and may be thin;
/// exactly degenerate ones are possible but rare (add them with [`sprinkle_degenerate`]).
///
/// # Panics
/// If `3·n_tris` exceeds `u32::MAX`.
pub fn random_soup(
    rng: &mut SplitMix64,
    n_tris: usize,
    centre_box_half: f64,
    tri_size: f64,
) -> Mesh {
    u32::try_from(3 * n_tris).expect("random_soup vertex count exceeds u32");
    let mut vertices = Vec::with_capacity(3 * n_tris);
    let mut triangles = Vec::with_capacity(n_tris);
    for i in 0..n_tris {
        let centre: [f64; 3] =
            std::array::from_fn(|_| rng.range(-centre_box_half, centre_box_half));
        for _ in 0..3 {
            vertices.push(centre.map(|c| c + rng.range(-tri_size, tri_size)));
        }
        let base = 3 * i as u32;
        triangles.push([base, base + 1, base + 2]);
    }
    Mesh {
        vertices,
        triangles,
    }
}

/// A lumpy closed sphere: [`icosphere`]`(level, radius)` with each vertex moved along its ray from the origin to
/// radius `radius·(1 + noise·u)`, `u` uniform in `[-1, 1)` per vertex.
///
/// Because each vertex stays on its own ray at a positive radius, the mesh stays a radial graph over the sphere:
/// closed, free of self-intersections, star-shaped about the origin and outward-oriented (the sign of a·(b×c) of each
/// triangle is unchanged). `20·4^level` triangles.
///
/// # Panics
/// If `noise` is not in `[0, 1)` or `level > 12`.
pub fn random_blob(rng: &mut SplitMix64, level: u32, radius: f64, noise: f64) -> Mesh {
    assert!(
        (0.0..1.0).contains(&noise),
        "random_blob noise must be in [0, 1), got {noise}"
    );
    let mut mesh = icosphere(level, radius);
    for v in &mut mesh.vertices {
        let f = 1.0 + noise * rng.range(-1.0, 1.0);
        *v = v.map(|c| c * f);
    }
    mesh
}

/// Adds `count` zero-area triangles to `mesh`, each swapped to a random position among the existing triangles.
///
/// The kinds, chosen at random with equal probability, are exactly degenerate in `f64` (not merely thin):
/// - a repeated vertex `[a, a, b]` of two existing vertices (a segment, or a point when a = b);
/// - a single point `[a, a, a]`;
/// - three collinear vertices: an existing vertex and two new ones differing from it in one coordinate only (so the
///   three are collinear whatever the rounding), in random order.
///
/// Existing triangles keep their vertices; their order in the list changes. The mesh must have at least one vertex.
///
/// # Panics
/// If `count > 0` and the mesh has no vertices, or the new vertex count exceeds `u32::MAX`.
pub fn sprinkle_degenerate(mesh: &mut Mesh, rng: &mut SplitMix64, count: usize) {
    if count == 0 {
        return;
    }
    assert!(
        !mesh.vertices.is_empty(),
        "sprinkle_degenerate needs a mesh with vertices"
    );
    let n = mesh.vertices.len() as u64;
    for _ in 0..count {
        let a = rng.below(n) as u32;
        let tri = match rng.below(3) {
            0 => {
                let b = rng.below(n) as u32;
                let mut t = [a, a, b];
                t.rotate_left(rng.below(3) as usize);
                t
            }
            1 => [a, a, a],
            _ => {
                let p = mesh.vertices[a as usize];
                let axis = rng.below(3) as usize;
                let scale = p.iter().fold(1.0f64, |m, c| m.max(c.abs()));
                let mut new = [p, p];
                for q in &mut new {
                    q[axis] += scale * rng.range(-0.5, 0.5);
                }
                let base =
                    u32::try_from(mesh.vertices.len() + 2).expect("vertex count exceeds u32") - 2;
                mesh.vertices.extend(new);
                let mut t = [a, base, base + 1];
                t.rotate_left(rng.below(3) as usize);
                if rng.chance(0.5) {
                    t.swap(0, 1);
                }
                t
            }
        };
        mesh.triangles.push(tri);
        let last = mesh.triangles.len() - 1;
        let j = rng.below(mesh.triangles.len() as u64) as usize;
        mesh.triangles.swap(j, last);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::measure::{is_closed_oriented_manifold, signed_volume};

    fn cross_is_zero(t: [[f64; 3]; 3]) -> bool {
        // Exact test for the kinds produced above: either two corners coincide or all three agree in two coordinates.
        let [a, b, c] = t;
        a == b
            || b == c
            || c == a
            || (0..3).any(|i| {
                (0..3)
                    .filter(|&j| j != i)
                    .all(|j| a[j] == b[j] && b[j] == c[j])
            })
    }

    #[test]
    fn soup_shape() {
        let mut rng = SplitMix64::new(1);
        let m = random_soup(&mut rng, 500, 10.0, 0.5);
        assert_eq!(m.len(), 500);
        assert_eq!(m.vertices.len(), 1500);
        for v in &m.vertices {
            assert!(v.iter().all(|c| c.abs() <= 10.5));
        }
        let again = random_soup(&mut SplitMix64::new(1), 500, 10.0, 0.5);
        assert_eq!(m, again);
    }

    #[test]
    fn blob_is_closed_outward_and_bounded() {
        let mut rng = SplitMix64::new(2);
        let m = random_blob(&mut rng, 3, 2.0, 0.3);
        assert_eq!(m.len(), 1280);
        assert!(is_closed_oriented_manifold(&m));
        for v in &m.vertices {
            let r = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt();
            assert!((1.4 - 1e-12..=2.6 + 1e-12).contains(&r));
        }
        for [a, b, c] in m.triangle_corners() {
            let det = a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0])
                + a[2] * (b[0] * c[1] - b[1] * c[0]);
            assert!(det > 0.0);
        }
        assert!(signed_volume(&m) > 0.0);
    }

    #[test]
    fn sprinkled_triangles_are_degenerate_and_originals_survive() {
        let mut rng = SplitMix64::new(3);
        let original = random_blob(&mut rng, 2, 1.0, 0.2);
        let mut m = original.clone();
        sprinkle_degenerate(&mut m, &mut rng, 60);
        assert_eq!(m.len(), original.len() + 60);
        let degenerate = m.triangle_corners().filter(|&t| cross_is_zero(t)).count();
        assert_eq!(degenerate, 60);
        let mut kept: Vec<_> = m
            .triangles
            .iter()
            .filter(|t| original.triangles.contains(t))
            .collect();
        kept.dedup();
        assert_eq!(kept.len(), original.len());
        // The sprinkled triangles are not all at the end.
        assert!(
            m.triangles[..original.len()]
                .iter()
                .any(|t| !original.triangles.contains(t))
        );
    }
}

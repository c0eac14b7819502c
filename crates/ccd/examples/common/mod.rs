//! A mesh generator shared by the examples: a closed latitude/longitude sphere.

/// A closed sphere of `radius` about the origin with `rings` latitude bands and `segments` longitude
/// segments: vertices and counter-clockwise triangles (indices into the vertices).
pub fn sphere(radius: f64, rings: u32, segments: u32) -> (Vec<[f64; 3]>, Vec<[u32; 3]>) {
    use std::f64::consts::PI;
    let mut vertices = vec![[0.0, 0.0, radius]];
    for i in 1..rings {
        let polar = PI * f64::from(i) / f64::from(rings);
        for j in 0..segments {
            let azimuth = 2.0 * PI * f64::from(j) / f64::from(segments);
            vertices.push([
                radius * polar.sin() * azimuth.cos(),
                radius * polar.sin() * azimuth.sin(),
                radius * polar.cos(),
            ]);
        }
    }
    vertices.push([0.0, 0.0, -radius]);
    let south = (vertices.len() - 1) as u32;
    let ring = |i: u32, j: u32| 1 + (i - 1) * segments + j % segments;
    let mut triangles = Vec::new();
    for j in 0..segments {
        triangles.push([0, ring(1, j), ring(1, j + 1)]);
        triangles.push([south, ring(rings - 1, j + 1), ring(rings - 1, j)]);
        for i in 1..rings - 1 {
            let (a, b, c, d) = (
                ring(i, j),
                ring(i, j + 1),
                ring(i + 1, j),
                ring(i + 1, j + 1),
            );
            triangles.push([a, c, b]);
            triangles.push([b, c, d]);
        }
    }
    (vertices, triangles)
}

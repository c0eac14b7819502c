//! [`Mesh`]: an indexed triangle list, the exchange format of every generator in this crate.

use nalgebra::{Isometry3, Point3};

/// An indexed triangle mesh in `f64`.
///
/// Triangles index into `vertices`; generators in this crate orient closed meshes outward (counter-clockwise seen
/// from outside). Nothing is validated: a hand-built mesh may hold out-of-range indices, and the helpers below then
/// panic on indexing.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Mesh {
    /// Vertex positions.
    pub vertices: Vec<[f64; 3]>,
    /// Triangles as triples of indices into [`vertices`](Self::vertices).
    pub triangles: Vec<[u32; 3]>,
}

impl Mesh {
    /// The number of triangles.
    pub fn len(&self) -> usize {
        self.triangles.len()
    }

    /// `true` when the mesh has no triangles.
    pub fn is_empty(&self) -> bool {
        self.triangles.is_empty()
    }

    /// The mesh scaled by `2^k`, with the second coordinate of every third vertex (from the first) set to
    /// `tiny` where given: a mesh at the end of a scalar type's supported range, mixing lengths far below its
    /// scale.
    pub fn at_scale(mut self, k: i32, tiny: Option<f64>) -> Self {
        let s = 2f64.powi(k);
        for (i, p) in self.vertices.iter_mut().enumerate() {
            *p = p.map(|x| x * s);
            if let Some(t) = tiny.filter(|_| i % 3 == 0) {
                p[1] = t;
            }
        }
        self
    }

    /// The three corner positions of triangle `i`.
    ///
    /// # Panics
    /// If `i` or one of its vertex indices is out of range.
    pub fn triangle(&self, i: usize) -> [[f64; 3]; 3] {
        self.triangles[i].map(|v| self.vertices[v as usize])
    }

    /// Iterates over all triangles as corner positions, in order.
    pub fn triangle_corners(&self) -> impl ExactSizeIterator<Item = [[f64; 3]; 3]> + '_ {
        (0..self.len()).map(|i| self.triangle(i))
    }

    /// The mesh with every vertex multiplied by `f` (about the origin). A negative `f` also reverses orientation.
    pub fn scaled(mut self, f: f64) -> Self {
        for v in &mut self.vertices {
            *v = v.map(|c| c * f);
        }
        self
    }

    /// The mesh with `offset` added to every vertex.
    pub fn translated(mut self, offset: [f64; 3]) -> Self {
        for v in &mut self.vertices {
            *v = [v[0] + offset[0], v[1] + offset[1], v[2] + offset[2]];
        }
        self
    }

    /// The mesh with every vertex mapped by the rigid motion `pose` (rotation, then translation).
    pub fn transformed(mut self, pose: &Isometry3<f64>) -> Self {
        for v in &mut self.vertices {
            let p = pose * Point3::from(*v);
            *v = [p.x, p.y, p.z];
        }
        self
    }

    /// Appends `other`, re-indexing its triangles after this mesh's vertices.
    ///
    /// # Panics
    /// If the combined vertex count exceeds `u32::MAX`.
    pub fn append(&mut self, other: &Mesh) {
        let base = u32::try_from(self.vertices.len()).expect("vertex count exceeds u32");
        u32::try_from(self.vertices.len() + other.vertices.len())
            .expect("vertex count exceeds u32");
        self.vertices.extend_from_slice(&other.vertices);
        self.triangles
            .extend(other.triangles.iter().map(|t| t.map(|i| i + base)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::{Translation3, UnitQuaternion, Vector3};

    fn one_triangle() -> Mesh {
        Mesh {
            vertices: vec![[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]],
            triangles: vec![[0, 1, 2]],
        }
    }

    #[test]
    fn helpers_move_vertices() {
        let m = one_triangle().scaled(2.0).translated([1.0, 2.0, 3.0]);
        assert_eq!(m.len(), 1);
        assert!(!m.is_empty());
        assert_eq!(
            m.triangle(0),
            [[1.0, 2.0, 3.0], [3.0, 2.0, 3.0], [1.0, 4.0, 3.0]]
        );
        let pose = Isometry3::from_parts(
            Translation3::new(0.0, 0.0, 1.0),
            UnitQuaternion::from_axis_angle(&Vector3::z_axis(), std::f64::consts::FRAC_PI_2),
        );
        let r = one_triangle().transformed(&pose);
        let t = r.triangle(0);
        assert!((t[1][0]).abs() < 1e-15 && (t[1][1] - 1.0).abs() < 1e-15 && t[1][2] == 1.0);
    }

    #[test]
    fn append_reindexes() {
        let mut m = one_triangle();
        m.append(&one_triangle().translated([5.0, 0.0, 0.0]));
        assert_eq!(m.len(), 2);
        assert_eq!(m.triangles[1], [3, 4, 5]);
        assert_eq!(m.triangle(1)[0], [5.0, 0.0, 0.0]);
        assert_eq!(m.triangle_corners().count(), 2);
    }
}

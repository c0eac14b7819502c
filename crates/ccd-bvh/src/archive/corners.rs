//! The vertices of a run of a file's faces in face-slot order, three per face (the triangle's corners) and
//! stored by coordinate, so that the containment proof tests the vertices of a node's faces (contiguous slots)
//! as one contiguous run ([`Enclose::holds_points`]), several corners per instruction; and the run's distinct
//! vertices, for the nodes above it.

use std::ops::Range;

use ccd_bv::Real;

use crate::{Face, FileError};

/// How many values past a run of corners a vector copy of the run test may read: it reads whole chunks of
/// up to eight `f64` lanes (an AVX-512 register).
pub(crate) const READ_PAST: usize = 7;

/// A run of `len` corners by coordinate: the `k`-th is `(xs[k], ys[k], zs[k])`, in the file's scalar type.
/// The coordinate slices reach at least [`READ_PAST`] values past the run, so that a vector copy of the run
/// test reads it in whole chunks (the values past its end are read, then ignored).
#[derive(Clone, Copy)]
pub(crate) struct Points<'a, T> {
    pub(crate) xs: &'a [T],
    pub(crate) ys: &'a [T],
    pub(crate) zs: &'a [T],
    pub(crate) len: usize,
}

impl<T: Real> Points<'_, T> {
    /// The `k`-th corner.
    #[cfg(test)]
    pub(crate) fn get(&self, k: usize) -> [T; 3] {
        [self.xs[k], self.ys[k], self.zs[k]]
    }

    /// The number of corners.
    pub(crate) fn len(&self) -> usize {
        self.len
    }
}

/// The corners of the faces of one run of face slots (a frontier node's: the proof's unit of work), three per
/// face in slot order, and the run's distinct vertices in order of first appearance (about a sixth of its
/// corners on a closed mesh, where six triangles meet at a vertex), both by coordinate and each followed by
/// [`READ_PAST`] copies of its last value (so that any run of corners can be read in whole vector chunks).
///
/// The buffers are reused from one run to the next, so they stay in the cache of the thread that tests them
/// and nothing is allocated per run once they have grown: at most `3·SMALL + READ_PAST` values per coordinate
/// (module docs of `soundness`), and 4 bytes per vertex of the file for the marks of the distinct vertices.
#[derive(Default)]
pub(crate) struct Corners<T> {
    /// The first face slot of the run.
    base: usize,
    xs: Vec<T>,
    ys: Vec<T>,
    zs: Vec<T>,
    /// The distinct vertices: `len` of them, then the copies.
    distinct: [Vec<T>; 3],
    len: usize,
    /// Per vertex of the file, the number of the last run that gathered it.
    marks: Vec<u32>,
    run: u32,
}

impl<T: Real> Corners<T> {
    /// Gathers the corners of the faces in `slots` (vertex indices in bounds of `vertices`) and their distinct
    /// vertices.
    ///
    /// # Errors
    /// [`FileError::Invalid`] if the marks (4 bytes per vertex) cannot be allocated.
    pub(crate) fn gather(
        &mut self,
        faces: &[Face],
        vertices: &[[T; 3]],
        slots: Range<usize>,
    ) -> Result<(), FileError> {
        if self.marks.len() != vertices.len() {
            self.marks = bytemuck::allocation::try_zeroed_vec(vertices.len()).map_err(|()| {
                FileError::Invalid(format!(
                    "not enough memory to verify the file ({} vertices)",
                    vertices.len()
                ))
            })?;
            self.run = 0;
        }
        self.run = self.run.wrapping_add(1);
        if self.run == 0 {
            self.marks.fill(0);
            self.run = 1;
        }
        let n = 3 * slots.len();
        self.base = slots.start;
        let [dx, dy, dz] = &mut self.distinct;
        for v in [&mut self.xs, &mut self.ys, &mut self.zs, dx, dy, dz] {
            v.resize(n + READ_PAST, T::zero());
        }
        // Every corner is also written at the end of the distinct vertices, which grows only past first
        // appearances (no branch on the marks: whether a vertex is new is a coin flip).
        let mut len = 0;
        let corners = faces[slots].iter().flat_map(|f| f.vertices);
        for (k, v) in corners.enumerate() {
            let p = vertices[v as usize];
            [self.xs[k], self.ys[k], self.zs[k]] = p;
            [dx[len], dy[len], dz[len]] = p;
            let mark = &mut self.marks[v as usize];
            len += usize::from(*mark != self.run);
            *mark = self.run;
        }
        self.len = len;
        for (v, end) in [
            (&mut self.xs, n),
            (&mut self.ys, n),
            (&mut self.zs, n),
            (dx, len),
            (dy, len),
            (dz, len),
        ] {
            let last = end.checked_sub(1).map_or_else(T::zero, |i| v[i]);
            v[end..end + READ_PAST].fill(last);
        }
        Ok(())
    }

    /// Every corner of the run by coordinate (`x`, `y`, `z`), three per face in slot order, then the
    /// [`READ_PAST`] copies.
    pub(crate) fn coordinates(&self) -> [&[T]; 3] {
        [&self.xs, &self.ys, &self.zs]
    }

    /// The index in [`Corners::coordinates`] of the first corner of face slot `slot` (a slot of the run).
    #[inline(always)]
    pub(crate) fn first_corner(&self, slot: usize) -> usize {
        3 * (slot - self.base)
    }

    /// The corners of the faces in `slots` (slots of the run), three per face in slot order.
    pub(crate) fn of_slots(&self, slots: Range<usize>) -> Points<'_, T> {
        let first = self.first_corner(slots.start);
        let r = first..first + 3 * slots.len() + READ_PAST;
        Points {
            xs: &self.xs[r.clone()],
            ys: &self.ys[r.clone()],
            zs: &self.zs[r],
            len: 3 * slots.len(),
        }
    }

    /// The distinct vertices of the run, in order of first appearance.
    pub(crate) fn distinct(&self) -> Points<'_, T> {
        let r = ..self.len + READ_PAST;
        Points {
            xs: &self.distinct[0][r],
            ys: &self.distinct[1][r],
            zs: &self.distinct[2][r],
            len: self.len,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The corners and the distinct vertices of runs of faces that share vertices often: every corner in slot
    /// order, each vertex of the run once in order of first appearance, padded with the last; marks left by one
    /// run do not hide vertices from the next.
    #[test]
    fn corners_and_distinct_vertices_of_runs() {
        let vertices: Vec<[f64; 3]> = (0..12).map(|i| [i as f64, 2.0 * i as f64, -1.0]).collect();
        let mut rng = ccd_testkit::SplitMix64::new(5);
        let faces: Vec<Face> = (0..40)
            .map(|id| Face {
                vertices: std::array::from_fn(|_| (rng.next_u64() % 12) as u32),
                id,
            })
            .collect();
        let mut corners = Corners::default();
        for (start, end) in [(0, 40), (3, 9), (3, 9), (10, 11), (0, 1), (20, 40)] {
            corners.gather(&faces, &vertices, start..end).unwrap();
            let mut expected: Vec<u32> = Vec::new();
            for v in faces[start..end].iter().flat_map(|f| f.vertices) {
                if !expected.contains(&v) {
                    expected.push(v);
                }
            }
            let run = corners.distinct();
            assert_eq!(run.len(), expected.len());
            for (k, &v) in expected.iter().enumerate() {
                assert_eq!(run.get(k), vertices[v as usize]);
            }
            let last = vertices[*expected.last().unwrap() as usize];
            for k in run.len()..run.len() + READ_PAST {
                assert_eq!([run.xs[k], run.ys[k], run.zs[k]], last);
            }
            for (s, face) in faces.iter().enumerate().take(end).skip(start) {
                let slot = corners.of_slots(s..s + 1);
                for (k, &v) in face.vertices.iter().enumerate() {
                    assert_eq!(slot.get(k), vertices[v as usize]);
                }
            }
        }
    }

    use crate::archive::enclose::{Enclose, Simd, wide};
    use ccd_bv::{Aabb, Obb, Rss, Sphere};

    /// Corners scattered around a volume and on its boundary, so that both answers occur.
    fn corners(center: [f64; 3], reach: f64, n: usize) -> Vec<[f64; 3]> {
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
        };
        (0..n)
            .map(|_| std::array::from_fn(|k| center[k] + reach * next()))
            .collect()
    }

    /// The run test, and its vector copies where the CPU has them, answer as the point test applied to every
    /// corner, for every run length (vector bodies and remainders; the NaN padding past a run is ignored) and
    /// every volume type.
    fn agrees<B: Enclose<f64>>(bv: B, center: [f64; 3], reach: f64) {
        let outer = bv.widen();
        let pts = corners(center, reach, 64);
        // Padded past the last corner with values the test refuses, which a run must ignore.
        let pad = |k: usize| {
            pts.iter()
                .map(|p| p[k])
                .chain([f64::NAN; READ_PAST])
                .collect::<Vec<f64>>()
        };
        let (xs, ys, zs) = (pad(0), pad(1), pad(2));
        let (mut accepted, mut refused) = (0, 0);
        for start in 0..pts.len() {
            for end in start..=pts.len().min(start + 19) {
                let run = Points {
                    xs: &xs[start..end + READ_PAST],
                    ys: &ys[start..end + READ_PAST],
                    zs: &zs[start..end + READ_PAST],
                    len: end - start,
                };
                let expected = pts[start..end]
                    .iter()
                    .all(|p| B::holds_point(&outer, wide(p)));
                assert_eq!(B::holds_points(&outer, run), expected);
                for simd in Simd::available() {
                    // SAFETY: `Simd::available` lists only instruction sets this CPU has.
                    let held = unsafe { B::holds_points_simd(&outer, run, simd) };
                    assert_eq!(held, expected, "{simd:?}");
                }
                if expected {
                    accepted += 1
                } else {
                    refused += 1
                }
            }
        }
        assert!(accepted > 0 && refused > 0, "{accepted} {refused}");
    }

    #[test]
    fn run_tests_agree_with_point_tests() {
        let c = [0.3, -0.2, 0.5];
        agrees(
            Sphere {
                center: c,
                radius: 0.8,
            },
            c,
            0.6,
        );
        agrees(
            Aabb {
                center: c,
                half: [0.5, 0.2, 0.4],
            },
            c,
            0.5,
        );
        let (s, k) = (0.6f64.sin(), 0.6f64.cos());
        let rot = [[k, s, 0.0], [-s, k, 0.0], [0.0, 0.0, 1.0]];
        agrees(
            Obb {
                center: c,
                half: [0.5, 0.2, 0.4],
                rot,
            },
            c,
            0.5,
        );
        agrees(
            Rss {
                center: c,
                half: [0.5, 0.2],
                radius: 0.1,
                rot,
            },
            c,
            0.6,
        );
    }
}

//! The vertices of a run of a file's faces in face-slot order, three per face (the triangle's corners) and
//! stored by coordinate, so that the containment proof tests the vertices of a node's faces (contiguous slots)
//! as one contiguous run ([`Enclose::holds_points`]), several corners per instruction; and for larger nodes the
//! same run with every vertex once.

use std::ops::Range;

use crate::{Face, FileError};
use ccd_bv::Real;

/// The fewest faces of a node that the proof tests against its list rather than its corners (module docs of
/// [`Corners`]): below, building lists costs more than the tests it saves.
pub(crate) const LISTED: usize = 32;

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
/// face in slot order, by coordinate, and from them the *list* of every node of at least [`LISTED`] faces below:
/// its faces' corners less those whose vertex an earlier corner of its faces has, so each of its distinct
/// vertices once (about a third of its corners on a closed mesh at 32 faces, a fifth at 512).
///
/// Each corner carries the position of the previous corner of the run with the same vertex (its *key*: that
/// position plus one, 0 for none), so a corner of a node's faces repeats an earlier one of them exactly when its
/// key lies past the node's first corner. Lists are built children first, in place, each at its node's first
/// corner: a node's list is the corners of its first child's list (or, for a child of fewer than [`LISTED`]
/// faces, of its corners) whose key lies at or before the node's first corner, followed by those of its second
/// child's. Each copy moves corners forward (a child's list begins at its first corner, the second child's
/// after all of the first child's corners) and never overwrites what it has yet to read, and only ever writes
/// within the node's own corners, whose descendants have all been tested by then. A first child's list needs no
/// filtering (it begins at the same corner); a second child's list already lacks the corners that repeat one
/// of its own, so the filter drops exactly the repeats of the first child's vertices. Smaller nodes are tested
/// against their corners as gathered: building their lists costs more than the tests it saves.
///
/// The buffers are reused from one run to the next, so they stay in the cache of the thread that tests them
/// and nothing is allocated per run once they have grown: at most `3·SMALL + READ_PAST` values per coordinate
/// (module docs of `soundness`), and 8 bytes per vertex of the file for the last positions.
#[derive(Default)]
pub(crate) struct Corners<T> {
    /// The first face slot of the run.
    base: usize,
    xs: Vec<T>,
    ys: Vec<T>,
    zs: Vec<T>,
    /// Per corner, the position of the previous corner with the same vertex plus one (0 for none).
    keys: Vec<u32>,
    /// Per face slot of the run, the length of the list of the last node listed that begins there.
    lens: Vec<u32>,
    /// Per vertex of the file, `run << 32 | (position + 1)` of its last corner in run number `run`.
    last: Vec<u64>,
    run: u32,
}

impl<T: Real> Corners<T> {
    /// Gathers the corners of the faces in `slots` (vertex indices in bounds of `vertices`; fewer than `2^32`
    /// corners) with their keys.
    ///
    /// # Errors
    /// [`FileError::Invalid`] if the last positions (8 bytes per vertex) cannot be allocated.
    pub(crate) fn gather(
        &mut self,
        faces: &[Face],
        vertices: &[[T; 3]],
        slots: Range<usize>,
    ) -> Result<(), FileError> {
        if self.last.len() != vertices.len() {
            self.last = bytemuck::allocation::try_zeroed_vec(vertices.len()).map_err(|()| {
                FileError::Invalid(format!(
                    "not enough memory to verify the file ({} vertices)",
                    vertices.len()
                ))
            })?;
            self.run = 0;
        }
        self.run = self.run.wrapping_add(1);
        if self.run == 0 {
            self.last.fill(0);
            self.run = 1;
        }
        let run = u64::from(self.run) << 32;
        let n = 3 * slots.len();
        self.base = slots.start;
        self.lens.resize(slots.len(), 0);
        self.keys.resize(n, 0);
        let (xs, ys, zs) = (&mut self.xs, &mut self.ys, &mut self.zs);
        for v in [&mut *xs, &mut *ys, &mut *zs] {
            v.resize(n + READ_PAST, T::zero());
        }
        let corners = faces[slots].iter().flat_map(|f| f.vertices);
        for (k, v) in corners.enumerate() {
            [xs[k], ys[k], zs[k]] = vertices[v as usize];
            let last = &mut self.last[v as usize];
            // The previous position where this run marked the vertex (no branch: a coin flip).
            let seen = *last & !0xffff_ffff == run;
            self.keys[k] = if seen { *last as u32 } else { 0 };
            *last = run | (k as u64 + 1);
        }
        for v in [xs, ys, zs] {
            let last = n.checked_sub(1).map_or_else(T::zero, |i| v[i]);
            v[n..].fill(last);
        }
        Ok(())
    }

    /// Every corner of the run by coordinate (`x`, `y`, `z`), three per face in slot order, then the
    /// [`READ_PAST`] copies: those of a node's faces as gathered until a node above it is listed.
    pub(crate) fn coordinates(&self) -> [&[T]; 3] {
        [&self.xs, &self.ys, &self.zs]
    }

    /// The index in [`Corners::coordinates`] of the first corner of face slot `slot` (a slot of the run).
    #[inline(always)]
    pub(crate) fn first_corner(&self, slot: usize) -> usize {
        3 * (slot - self.base)
    }

    /// The distinct vertices of the node whose faces are `slots` (slots of the run), tested last (by
    /// [`Corners::list`]): its list where it has one, else its corners less repeats, written over them.
    pub(crate) fn distinct(&mut self, slots: Range<usize>) -> Points<'_, T> {
        let first = self.first_corner(slots.start);
        let end = if slots.len() >= LISTED {
            first + self.lens[slots.start - self.base] as usize
        } else {
            self.keep(first, first, first + 3 * slots.len(), first)
        };
        self.points(first, end)
    }

    /// What the proof tests node `slots` (slots of the run; module docs) against: for a node of fewer than
    /// [`LISTED`] faces its corners; for a larger one, whose second child's faces start at slot `second`
    /// (`None` for a leaf), its list, built from its children's (their corners or lists), which must have been
    /// tested since anything else beginning at their first slots.
    #[inline(always)]
    pub(crate) fn list(&mut self, slots: Range<usize>, second: Option<usize>) -> Points<'_, T> {
        let first = self.first_corner(slots.start);
        let corners = 3 * slots.len();
        if slots.len() < LISTED {
            return self.points(first, first + corners);
        }
        let end = match second {
            None => self.keep(first, first, first + corners, first),
            Some(second) => {
                let mid = self.first_corner(second);
                let end = if second - slots.start >= LISTED {
                    first + self.lens[slots.start - self.base] as usize
                } else {
                    self.keep(first, first, mid, first)
                };
                let right = if slots.end - second >= LISTED {
                    self.lens[second - self.base] as usize
                } else {
                    3 * (slots.end - second)
                };
                self.keep(first, mid, mid + right, end)
            }
        };
        self.lens[slots.start - self.base] = (end - first) as u32;
        self.points(first, end)
    }

    /// Moves the corners `from..to` whose key lies at or before corner `first` (the previous corner with the
    /// vertex lies before it, or there is none) to `end` onwards, in order; returns the end of what it moved.
    /// `end ≤ from`, so nothing is overwritten before it is read.
    #[inline(always)]
    fn keep(&mut self, first: usize, from: usize, to: usize, mut end: usize) -> usize {
        let bound = first as u32;
        for k in from..to {
            let key = self.keys[k];
            self.xs[end] = self.xs[k];
            self.ys[end] = self.ys[k];
            self.zs[end] = self.zs[k];
            self.keys[end] = key;
            end += usize::from(key <= bound);
        }
        end
    }

    /// The corners `first..end`, padded as [`Points`] requires.
    fn points(&self, first: usize, end: usize) -> Points<'_, T> {
        let r = first..end + READ_PAST;
        Points {
            xs: &self.xs[r.clone()],
            ys: &self.ys[r.clone()],
            zs: &self.zs[r],
            len: end - first,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Splits `slots` at random into a binary tree whose leaves hold one to three faces, lists every node
    /// children first, and checks that each node of at least [`LISTED`] faces is tested against its faces'
    /// distinct vertices in order of first appearance, each smaller one against its corners, and the root's
    /// distinct vertices.
    fn list_subtree(
        corners: &mut Corners<f64>,
        faces: &[Face],
        vertices: &[[f64; 3]],
        slots: Range<usize>,
        rng: &mut ccd_testkit::SplitMix64,
    ) {
        let second = (slots.len() > 3 || (slots.len() > 1 && rng.next_u64().is_multiple_of(2)))
            .then(|| {
                let mid = slots.start + 1 + (rng.next_u64() as usize % (slots.len() - 1));
                list_subtree(corners, faces, vertices, slots.start..mid, rng);
                list_subtree(corners, faces, vertices, mid..slots.end, rng);
                mid
            });
        let listed = slots.len() >= LISTED;
        let expected = |all: bool| {
            let mut vs: Vec<u32> = Vec::new();
            for v in faces[slots.clone()].iter().flat_map(|f| f.vertices) {
                if all || !vs.contains(&v) {
                    vs.push(v);
                }
            }
            vs
        };
        let check = |points: Points<'_, f64>, vs: Vec<u32>| {
            assert_eq!(points.len(), vs.len(), "{slots:?}");
            for (k, &v) in vs.iter().enumerate() {
                assert_eq!(points.get(k), vertices[v as usize], "{slots:?} {k}");
            }
        };
        check(corners.list(slots.clone(), second), expected(!listed));
    }

    /// Lists built children first hold each node's distinct vertices, for random trees over runs of faces that
    /// share vertices often; keys left by one run do not leak into the next.
    #[test]
    fn lists_hold_each_distinct_vertex_once() {
        let vertices: Vec<[f64; 3]> = (0..40).map(|i| [i as f64, 2.0 * i as f64, -1.0]).collect();
        let mut rng = ccd_testkit::SplitMix64::new(5);
        let faces: Vec<Face> = (0..300)
            .map(|id| {
                let a = (rng.next_u64() % 40) as u32;
                let b = (a + 1 + (rng.next_u64() % 39) as u32) % 40;
                let mut c = (rng.next_u64() % 40) as u32;
                while c == a || c == b {
                    c = (c + 1) % 40;
                }
                Face {
                    vertices: [a, b, c],
                    id,
                }
            })
            .collect();
        let mut corners = Corners::default();
        for (start, end) in [
            (0, 300),
            (3, 9),
            (3, 90),
            (10, 11),
            (0, 1),
            (20, 300),
            (7, 140),
        ] {
            for _ in 0..20 {
                corners.gather(&faces, &vertices, start..end).unwrap();
                list_subtree(&mut corners, &faces, &vertices, start..end, &mut rng);
                let mut vs: Vec<u32> = Vec::new();
                for v in faces[start..end].iter().flat_map(|f| f.vertices) {
                    if !vs.contains(&v) {
                        vs.push(v);
                    }
                }
                let distinct = corners.distinct(start..end);
                assert_eq!(distinct.len(), vs.len());
                for (k, &v) in vs.iter().enumerate() {
                    assert_eq!(distinct.get(k), vertices[v as usize]);
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

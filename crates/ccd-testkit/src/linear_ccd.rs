//! Seeded query generators for the linear-trajectory vertex–face and edge–edge CCD tests, in the format of the
//! Wang et al. 2021 benchmark: four points at `t = 0` and the same four at `t = 1`.
//!
//! Every coordinate is a small integer or a dyadic rational, so each query is exactly representable in `f64`
//! (and, for the integer families, in `f32`) and an exact rational oracle can decide it.

use crate::SplitMix64;

/// A point's `[position at t = 0, position at t = 1]`.
pub type Track = [[f64; 3]; 2];

/// One query: vertex–face `[p, a, b, c]` or edge–edge `[p0, p1, q0, q1]`.
pub type Query = [Track; 4];

/// The query families.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    /// All 24 coordinates uniform integers in `-4..=4` (many degenerate cases).
    Grid,
    /// A constructed contact at a dyadic time and dyadic feature parameters.
    Hit,
    /// [`Family::Hit`] with both positions of one point shifted by `±2^-k` per coordinate, `k` in `4..=19`
    /// (at least `1.9e-6`, above the default tolerance).
    NearMiss,
    /// As [`Family::NearMiss`] with `k` in `20..=40` (below the default tolerance: contact or not, a
    /// conservative test may report contact).
    NearMissTiny,
    /// Every point in the plane `z = 0` at both times.
    CoplanarMotion,
    /// A constructed contact at exactly `t = 0`.
    ContactAtStart,
    /// A constructed contact at exactly `t = 1`.
    ContactAtEnd,
    /// Nothing moves (integer grid).
    Static,
    /// Edge–edge: the two edges parallel at both times. Vertex–face: the vertex moves parallel to the face.
    Parallel,
    /// Edge–edge: `p0 = p1` at both times. Vertex–face: the triangle has zero area (`c` on line `ab`).
    Degenerate,
    /// Vertex–face: the vertex slides along the line of edge `ab` of a static or translating triangle.
    /// Edge–edge: collinear edges sliding along one line.
    Sliding,
}

impl Family {
    /// Every family.
    pub const ALL: [Family; 11] = [
        Family::Grid,
        Family::Hit,
        Family::NearMiss,
        Family::NearMissTiny,
        Family::CoplanarMotion,
        Family::ContactAtStart,
        Family::ContactAtEnd,
        Family::Static,
        Family::Parallel,
        Family::Degenerate,
        Family::Sliding,
    ];
}

fn int(rng: &mut SplitMix64) -> f64 {
    rng.below(9) as f64 - 4.0
}

fn ivec(rng: &mut SplitMix64) -> [f64; 3] {
    [int(rng), int(rng), int(rng)]
}

fn track(rng: &mut SplitMix64) -> Track {
    [ivec(rng), ivec(rng)]
}

/// A dyadic in `[0, 1]` with denominator 8.
fn eighth(rng: &mut SplitMix64) -> f64 {
    rng.below(9) as f64 / 8.0
}

fn add(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [a[0] + b[0], a[1] + b[1], a[2] + b[2]]
}

fn sub(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

fn scale(a: [f64; 3], s: f64) -> [f64; 3] {
    [a[0] * s, a[1] * s, a[2] * s]
}

/// The track through `x` at time `tc` with integer velocity `vel` (exact for dyadic `x`, `tc`).
fn through(x: [f64; 3], tc: f64, vel: [f64; 3]) -> Track {
    [sub(x, scale(vel, tc)), add(x, scale(vel, 1.0 - tc))]
}

/// A contact constructed at time `tc`: every point moves with its own integer velocity.
fn hit(rng: &mut SplitMix64, edge_edge: bool, tc: f64) -> Query {
    let x = ivec(rng);
    let pos: [[f64; 3]; 4] = if edge_edge {
        let (a, b) = (ivec(rng), ivec(rng));
        let (s, u) = (eighth(rng), eighth(rng));
        [
            sub(x, scale(a, s)),
            add(x, scale(a, 1.0 - s)),
            sub(x, scale(b, u)),
            add(x, scale(b, 1.0 - u)),
        ]
    } else {
        let (e1, e2) = (ivec(rng), ivec(rng));
        let u = eighth(rng);
        let v = rng.below((8.0 - u * 8.0) as u64 + 1) as f64 / 8.0;
        // x = a + u e1 + v e2.
        let a = sub(sub(x, scale(e1, u)), scale(e2, v));
        [x, a, add(a, e1), add(a, e2)]
    };
    pos.map(|q| through(q, tc, ivec(rng)))
}

/// One query of `family`.
pub fn query(rng: &mut SplitMix64, family: Family, edge_edge: bool) -> Query {
    match family {
        Family::Grid => [track(rng), track(rng), track(rng), track(rng)],
        Family::Hit => {
            let tc = eighth(rng);
            hit(rng, edge_edge, tc)
        }
        Family::NearMiss | Family::NearMissTiny => {
            let tc = eighth(rng);
            let mut q = hit(rng, edge_edge, tc);
            let k = if family == Family::NearMiss {
                4 + rng.below(16) as i32
            } else {
                20 + rng.below(21) as i32
            };
            let eps = 2f64.powi(-k);
            let dir = [0, 1, 2].map(|_| if rng.chance(0.5) { eps } else { -eps });
            let which = rng.below(4) as usize;
            q[which] = q[which].map(|x| add(x, dir));
            q
        }
        Family::CoplanarMotion => {
            let mut q = query(rng, Family::Grid, edge_edge);
            for t in &mut q {
                t[0][2] = 0.0;
                t[1][2] = 0.0;
            }
            q
        }
        Family::ContactAtStart => hit(rng, edge_edge, 0.0),
        Family::ContactAtEnd => hit(rng, edge_edge, 1.0),
        Family::Static => {
            let q = [ivec(rng), ivec(rng), ivec(rng), ivec(rng)];
            q.map(|x| [x, x])
        }
        Family::Parallel => {
            if edge_edge {
                let (p0, q0) = (track(rng), track(rng));
                let dir = track(rng);
                let k = [1.0, -1.0, 2.0, 0.5][rng.below(4) as usize];
                let p1 = [add(p0[0], dir[0]), add(p0[1], dir[1])];
                let q1 = [add(q0[0], scale(dir[0], k)), add(q0[1], scale(dir[1], k))];
                [p0, p1, q0, q1]
            } else {
                // Vertex velocity parallel to the (translating) face's plane.
                let (a, e1, e2) = (ivec(rng), ivec(rng), ivec(rng));
                let vel = ivec(rng);
                let b = add(a, e1);
                let c = add(a, e2);
                let p0 = ivec(rng);
                let p1 = add(add(p0, vel), add(scale(e1, int(rng)), scale(e2, int(rng))));
                [
                    [p0, p1],
                    [a, add(a, vel)],
                    [b, add(b, vel)],
                    [c, add(c, vel)],
                ]
            }
        }
        Family::Degenerate => {
            let mut q = query(rng, Family::Grid, edge_edge);
            if edge_edge {
                q[1] = q[0];
            } else {
                let s = [-1.0, 0.0, 0.5, 1.0, 2.0][rng.below(5) as usize];
                q[3] = [0, 1].map(|i| add(q[1][i], scale(sub(q[2][i], q[1][i]), s)));
            }
            q
        }
        Family::Sliding => {
            let (a, e) = (ivec(rng), ivec(rng));
            let vel = if rng.chance(0.5) { [0.0; 3] } else { ivec(rng) };
            let s = [0, 1].map(|_| rng.below(25) as f64 / 8.0 - 1.0);
            let on = |s: f64, i: f64| add(add(a, scale(e, s)), scale(vel, i));
            if edge_edge {
                let s2 = [0, 1].map(|_| rng.below(25) as f64 / 8.0 - 1.0);
                let l = rng.below(3) as f64 / 2.0;
                let mv = |s: f64, i: f64| add(on(s, i), scale(e, l * i));
                [
                    [on(0.0, 0.0), on(0.0, 1.0)],
                    [on(1.0, 0.0), on(1.0, 1.0)],
                    [mv(s[0], 0.0), mv(s[1], 1.0)],
                    [mv(s2[0], 0.0), mv(s2[1], 1.0)],
                ]
            } else {
                let c = ivec(rng);
                [
                    [on(s[0], 0.0), on(s[1], 1.0)],
                    [on(0.0, 0.0), on(0.0, 1.0)],
                    [on(1.0, 0.0), on(1.0, 1.0)],
                    [c, add(c, vel)],
                ]
            }
        }
    }
}

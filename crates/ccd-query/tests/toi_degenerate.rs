//! `time_of_impact` of degenerate triangles (points, segments, three collinear vertices) under translation, on the
//! constant-velocity path (issue 12: it reported contact at `t = 0` for triangles that first meet at `t = 1/3`):
//! - the nine kind pairs built from `fixtures/meshes/degenerate.obj` meet at the true time (1/3 or 1/2) on the constant-velocity
//!   path, on the interval path and on a rotating motion with the same truth;
//! - random scenes of flat triangles: both paths against the sampled distance of `ccd_testkit::flat` (convex in
//!   time per triangle pair) and against each other;
//! - random soups with degenerate triangles sprinkled in: both paths against each other and against the exact
//!   distance query at the reported times.

mod common;

use ccd_bv::Obb;
use ccd_bvh::{BuildOptions, Bvh};
use ccd_motion::{ConstantRotationTranslation, Motion, Static, Translation};
use ccd_query::{
    CollideRequest, DistanceRequest, Toi, ToiRequest, collide, distance, time_of_impact,
};
use ccd_testkit::flat::{FlatKind, flat_distance, flat_triangle, sample_convex};
use ccd_testkit::{Mesh, SplitMix64, random_soup, sprinkle_degenerate};
use common::general::General;
use nalgebra::{Isometry3, Vector3};
use proptest::prelude::*;

type Tree = Bvh<f64, Obb<f64>>;
type V = Vector3<f64>;

fn build(m: &Mesh) -> Tree {
    Bvh::build(m.vertices.clone(), &m.triangles, &BuildOptions::default()).unwrap()
}

/// A mesh of separate triangles (three vertices each).
fn soup(tris: &[[[f64; 3]; 3]]) -> Mesh {
    Mesh {
        vertices: tris.iter().flatten().copied().collect(),
        triangles: (0..tris.len() as u32)
            .map(|i| [3 * i, 3 * i + 1, 3 * i + 2])
            .collect(),
    }
}

/// The contact of `a` (motion `ma`) and `b` (motion `mb`) on the path the motions select.
fn toi(a: &Tree, ma: &dyn Motion<f64>, b: &Tree, mb: &dyn Motion<f64>) -> Option<Toi<f64>> {
    time_of_impact(a, ma, b, mb, &ToiRequest::default())
        .unwrap()
        .toi()
        .copied()
}

/// `fixtures/meshes/degenerate.obj`: a tetrahedron and the zero-area triangle `f 1 2 5` on the x axis.
const FIXTURE_VERTICES: [[f64; 3]; 5] = [
    [0.0, 0.0, 0.0],
    [1.0, 0.0, 0.0],
    [0.0, 1.0, 0.0],
    [0.0, 0.0, 1.0],
    [0.5, 0.0, 0.0],
];

#[test]
fn fixture_kinds_meet_at_the_true_time_on_every_path() {
    let v = FIXTURE_VERTICES;
    // A point, a segment (a repeated vertex) and the fixture's collinear face, all on the x axis and reaching
    // x = 1; B (the same shapes) starts 3 further along and slides by -6: contact when the gap 2 + (B's least x)
    // is closed, at 1/3 (1/2 for B's point, which is at x = 1).
    let kinds_a = [
        ("point", [v[1]; 3]),
        ("segment", [v[0], v[1], v[1]]),
        ("collinear", [v[0], v[1], v[4]]),
    ];
    let whole = Mesh {
        vertices: v.to_vec(),
        triangles: vec![[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3], [0, 1, 4]],
    };
    let start_b = Isometry3::translation(3.0, 0.0, 0.0);
    let d = V::new(-6.0, 0.0, 0.0);
    let still = Static::new(Isometry3::identity());
    let slide = Translation::new(start_b, d);
    // Turning about the x axis through B's origin leaves every point of the x axis where the slide puts it.
    let turn = ConstantRotationTranslation::new(start_b, V::x_axis(), 2.0, d);
    let mut cases: Vec<(String, Mesh, Mesh, f64)> = Vec::new();
    for (na, ta) in kinds_a {
        for (nb, tb) in kinds_a {
            let truth = if nb == "point" { 0.5 } else { 1.0 / 3.0 };
            cases.push((format!("{na}-{nb}"), soup(&[ta]), soup(&[tb]), truth));
        }
    }
    cases.push(("whole fixture".into(), whole.clone(), whole, 1.0 / 3.0));
    for (name, a, b, truth) in &cases {
        let (a, b) = (build(a), build(b));
        let paths: [(&str, &dyn Motion<f64>, &dyn Motion<f64>); 3] = [
            ("constant velocity", &still, &slide),
            ("interval", &General(still), &General(slide)),
            ("rotating", &still, &turn),
        ];
        for (path, ma, mb) in paths {
            let t =
                toi(&a, ma, &b, mb).unwrap_or_else(|| panic!("{name} ({path}): contact missed"));
            println!(
                "{name:<20} {path:<18} [{:.12}, {:.12}] sep {:e}",
                t.t_lo, t.t_hi, t.separation
            );
            assert!(
                t.t_lo <= truth + 1e-12 && *truth <= t.t_hi + 1e-12,
                "{name} ({path}): [{}, {}] misses {truth}",
                t.t_lo,
                t.t_hi
            );
            assert!(
                t.t_hi - t.t_lo <= 1.000001e-6,
                "{name} ({path}): bracket too wide"
            );
        }
    }
}

/// Length scale of the random scenes.
const SCALE: f64 = 4.0;
/// The oracle's contact allowance (far above its error and the constant-velocity path's rounding margin).
const EPS: f64 = 1e-9 * SCALE;
/// "Clearly apart": the interval path may report contact for gaps below the distance its time tolerance covers.
const NEAR: f64 = 1e-4 * SCALE;

/// Up to four flat triangles of random kinds around `c`, moved by `d` over `[0, 1]`.
fn flat_mesh(rng: &mut SplitMix64, c: V) -> Mesh {
    let n = 1 + rng.below(4) as usize;
    let tris: Vec<_> = (0..n)
        .map(|_| {
            let kind = FlatKind::ALL[rng.below(3) as usize];
            let p = c + V::new(
                rng.range(-0.5, 0.5),
                rng.range(-0.5, 0.5),
                rng.range(-0.5, 0.5),
            );
            let dir = if rng.chance(0.5) {
                V::ith(rng.below(3) as usize, rng.range(-1.0, 1.0))
            } else {
                V::new(
                    rng.range(-1.0, 1.0),
                    rng.range(-1.0, 1.0),
                    rng.range(-1.0, 1.0),
                )
            };
            flat_triangle(rng, kind, p, dir)
        })
        .collect();
    soup(&tris)
}

fn tri(m: &Mesh, i: usize) -> [[f64; 3]; 3] {
    m.triangles[i].map(|k| m.vertices[k as usize])
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Flat meshes (world coordinates at t = 0) sliding towards each other: per triangle pair, the oracle's first
    /// time within `EPS` and its closest approach; the mesh's first contact lies between the least of each.
    #[test]
    fn flat_scenes_match_the_sampled_distance(seed in any::<u64>()) {
        let mut rng = SplitMix64::new(seed);
        let (ma, mb) = (flat_mesh(&mut rng, V::zeros()), flat_mesh(&mut rng, V::new(2.0, 0.3, 0.0)));
        let (da, db) = (
            V::new(rng.range(0.0, 1.5), rng.range(-0.5, 0.5), rng.range(-0.5, 0.5)),
            V::new(rng.range(-2.5, 0.0), rng.range(-0.8, 0.5), rng.range(-0.5, 0.5)),
        );
        let (mut first, mut closest, mut min) = (f64::INFINITY, f64::INFINITY, f64::INFINITY);
        let mut first_near = f64::INFINITY;
        for i in 0..ma.triangles.len() {
            for j in 0..mb.triangles.len() {
                let (a, b) = (tri(&ma, i), tri(&mb, j));
                let dist = |t: f64| flat_distance(&a, &da, &b, &db, t);
                let s = sample_convex(dist, 1.0, 200, EPS);
                min = min.min(s.min.0);
                if let Some(f) = s.first {
                    first = first.min(f);
                    closest = closest.min(s.min.1);
                }
                if let Some(f) = sample_convex(dist, 1.0, 200, NEAR).first {
                    first_near = first_near.min(f);
                }
            }
        }
        let (a, b) = (build(&ma), build(&mb));
        let id = Isometry3::identity();
        let (sa, sb) = (Translation::new(id, da), Translation::new(id, db));
        let fast = toi(&a, &sa, &b, &sb);
        let general = toi(&a, &General(sa), &b, &General(sb));
        for (path, r) in [("constant velocity", fast), ("interval", general)] {
            match r {
                None => prop_assert!(min > 1e-12 * SCALE, "{path}: missed a contact (min distance {min})"),
                Some(t) => {
                    prop_assert!(
                        t.t_lo <= closest + 1e-12,
                        "{path}: t_lo {} after the closest approach {closest} of a touching pair", t.t_lo
                    );
                    prop_assert!(
                        t.t_hi >= first_near - 1e-9,
                        "{path}: [{}, {}] before any pair comes within {NEAR} (at {first_near})", t.t_lo, t.t_hi
                    );
                }
            }
        }
        // The constant-velocity path is exact: contact only where the oracle has one, from its first time on.
        if let Some(t) = fast {
            prop_assert!(first.is_finite(), "contact [{}, {}] but min distance {min}", t.t_lo, t.t_hi);
            prop_assert!(t.t_hi >= first - 1e-12, "[{}, {}] before the first contact {first}", t.t_lo, t.t_hi);
        }
        if let (Some(f), Some(g)) = (fast, general) {
            prop_assert!(
                f.t_lo <= g.t_hi + 1e-12 && g.t_lo <= f.t_hi + 1e-12,
                "brackets disjoint: constant velocity [{}, {}], interval [{}, {}]", f.t_lo, f.t_hi, g.t_lo, g.t_hi
            );
        }
    }
}

/// Soups of ordinary triangles with degenerate ones sprinkled in (`sprinkle_degenerate`: repeated vertices,
/// points, collinear triples), sliding towards each other: both paths agree, no sampled collision comes before
/// `t_lo`, and the meshes are within `NEAR` of each other at `t_hi` (issue 12: contact was reported with the
/// meshes 0.05–0.31 apart).
#[test]
fn degenerate_soups_agree_on_both_paths() {
    let (mut hits, mut misses) = (0, 0);
    for seed in 0..90u64 {
        let mut rng = SplitMix64::new(seed);
        let mut ma = random_soup(&mut rng, 6, 0.5, 0.3);
        let mut mb = random_soup(&mut rng, 6, 0.5, 0.3);
        sprinkle_degenerate(&mut ma, &mut rng, 6);
        sprinkle_degenerate(&mut mb, &mut rng, 6);
        let (a, b) = (build(&ma), build(&mb));
        let start_b = Isometry3::translation(2.5, rng.range(-0.6, 0.6), rng.range(-0.6, 0.6));
        let sa = Translation::new(Isometry3::identity(), V::new(rng.range(0.0, 1.0), 0.0, 0.0));
        let sb = Translation::new(start_b, V::new(rng.range(-3.0, -1.0), 0.0, 0.0));
        let fast = toi(&a, &sa, &b, &sb);
        let general = toi(&a, &General(sa), &b, &General(sb));
        let gap = |t: f64| {
            let r = distance(&a, &sa.pose(t), &b, &sb.pose(t), &DistanceRequest::exact()).unwrap();
            r.closest().map_or(f64::INFINITY, |c| c.distance)
        };
        let sampled = (0..=400).map(|i| f64::from(i) / 400.0).find(|&t| {
            collide(&a, &sa.pose(t), &b, &sb.pose(t), &CollideRequest::first())
                .unwrap()
                .is_colliding()
        });
        match (fast, general) {
            (Some(f), Some(g)) => {
                hits += 1;
                assert!(
                    f.t_lo <= g.t_hi + 1e-12 && g.t_lo <= f.t_hi + 1e-12,
                    "seed {seed}: constant velocity [{}, {}], interval [{}, {}]",
                    f.t_lo,
                    f.t_hi,
                    g.t_lo,
                    g.t_hi
                );
                for (path, t) in [("constant velocity", f), ("interval", g)] {
                    assert!(
                        sampled.is_none_or(|s| t.t_lo <= s),
                        "seed {seed} ({path}): t_lo {} after the sampled collision {sampled:?}",
                        t.t_lo
                    );
                    let d = gap(t.t_hi);
                    assert!(
                        d <= NEAR,
                        "seed {seed} ({path}): contact at {} with the meshes {d} apart",
                        t.t_hi
                    );
                }
            }
            (None, None) => {
                misses += 1;
                assert!(
                    sampled.is_none(),
                    "seed {seed}: both paths missed the collision at {sampled:?}"
                );
            }
            (f, g) => panic!("seed {seed}: constant velocity {f:?}, interval {g:?}"),
        }
    }
    println!("contacts {hits}, no contact {misses}");
    assert!(
        hits >= 20 && misses >= 5,
        "the scenes should mix contacts ({hits}) and misses ({misses})"
    );
}

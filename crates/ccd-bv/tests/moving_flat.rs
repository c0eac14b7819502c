//! `moving_triangle_triangle` on pairs of flat triangles (points, segments, three collinear vertices), all nine
//! kind pairs: the first time of contact against the convex-distance oracle of `ccd_testkit::flat` (the sampled
//! segment–segment distance over time). The normals and edge crossings of two flat triangles are zero or
//! parallel, so the 11 usual axes separate nothing; before the flat-pair axes this reported contact at `t = 0`
//! for two segments on one line that first meet at `t = 1/3` (issue 12).

use ccd_bv::moving::{MovingContact, moving_triangle_triangle};
use ccd_bv::nalgebra::Vector3;
use ccd_testkit::SplitMix64;
use ccd_testkit::flat::{FlatKind, flat_distance, flat_triangle, sample_convex, span};
use proptest::prelude::*;

type V = Vector3<f64>;

/// Length scale of the scenes.
const SCALE: f64 = 4.0;

/// Distance allowance of the oracle's contacts, far above the test's rounding margin and the oracle's error.
const EPS: f64 = 1e-9 * SCALE;

fn random_vec(rng: &mut SplitMix64, r: f64) -> V {
    V::new(rng.range(-r, r), rng.range(-r, r), rng.range(-r, r))
}

/// A pair of flat triangles with velocities, arranged by `layout`: 0 any directions (collinear only up to
/// rounding), 1 axis-aligned directions (exactly collinear), 2 parallel directions, 3 on one line moving along it.
/// B heads for a point near A's span (a hit or a near miss) from 1 to 4 lengths away.
fn scene(
    seed: u64,
    ka: FlatKind,
    kb: FlatKind,
    layout: u8,
) -> ([[f64; 3]; 3], V, [[f64; 3]; 3], V) {
    let mut rng = SplitMix64::new(seed);
    let axis = |rng: &mut SplitMix64| V::ith(rng.below(3) as usize, rng.range(0.5, 2.0));
    let pa = random_vec(&mut rng, 1.0);
    let (dir_a, dir_b) = match layout {
        0 => (random_vec(&mut rng, 1.5), random_vec(&mut rng, 1.5)),
        1 => (axis(&mut rng), axis(&mut rng)),
        _ => {
            let d = random_vec(&mut rng, 1.5);
            (d, d * rng.range(-1.5, 1.5))
        }
    };
    let a = flat_triangle(&mut rng, ka, pa, dir_a);
    let va = random_vec(&mut rng, 0.2);
    let (pb, vb) = if layout == 3 {
        let s = rng.range(1.2, 3.0);
        let pb = pa + dir_a * s;
        (pb, va - dir_a * (s * rng.range(0.5, 2.0)))
    } else {
        let [a0, a1] = span(&a);
        let aim = a0 + (a1 - a0) * rng.range(-0.2, 1.2) + random_vec(&mut rng, 0.1);
        let pb = aim + random_vec(&mut rng, 1.0).normalize() * rng.range(1.0, 4.0);
        (pb, va + (aim - pb) * rng.range(0.5, 2.0))
    };
    let b = flat_triangle(&mut rng, kb, pb, dir_b);
    (a, va, b, vb)
}

/// Checks one verdict of `moving_triangle_triangle` against the oracle: no miss (a sampled minimum distance of
/// at most `1e-12·SCALE` is a contact), never after the time of the sampled minimum when it reports a contact, and
/// the triangles within the allowance of each other at the reported time (never early: convexity puts that time
/// after the sampled first time within the allowance).
fn check(
    res: &MovingContact<f64>,
    dist: &dyn Fn(f64) -> f64,
    what: &str,
) -> Result<(), TestCaseError> {
    let sampled = sample_convex(dist, 1.0, 400, EPS);
    match res.time() {
        None => prop_assert!(
            sampled.min.0 > 1e-12 * SCALE,
            "{what}: missed the contact ({sampled:?})"
        ),
        Some(t) => {
            prop_assert!(
                t <= sampled.min.1 + 1e-12,
                "{what}: time {t} after the closest approach ({sampled:?})"
            );
            prop_assert!(
                dist(t) <= EPS,
                "{what}: time {t} early, the triangles are {} apart then ({sampled:?})",
                dist(t)
            );
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn flat_pairs_match_the_sampled_distance(
        seed in any::<u64>(),
        ka in 0usize..3,
        kb in 0usize..3,
        layout in 0u8..4,
    ) {
        let (ka, kb) = (FlatKind::ALL[ka], FlatKind::ALL[kb]);
        let (a, va, b, vb) = scene(seed, ka, kb, layout);
        let what = format!("{ka:?} a, {kb:?} b, layout {layout}");
        let dist = |t: f64| flat_distance(&a, &va, &b, &vb, t);
        check(&moving_triangle_triangle(&a, &va, &b, &vb, 1.0), &dist, &what)?;
        check(&moving_triangle_triangle(&b, &vb, &a, &va, 1.0), &dist, &format!("{what}, swapped"))?;
    }
}

/// The case: the fixture's collinear triangle against itself three lengths along its line, closing at
/// speed 6, first touches at `t = 1/3`, for every pair of the three kinds built from its vertices.
#[test]
fn flat_kinds_on_one_line_meet_at_a_third() {
    let (o, x, mid) = ([0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.5, 0.0, 0.0]);
    let kinds = [
        ("point", [x, x, x]),
        ("segment", [o, x, x]),
        ("collinear", [o, x, mid]),
    ];
    let shift = |t: [[f64; 3]; 3]| t.map(|p| [p[0] + 3.0, p[1], p[2]]);
    let point_b = [[3.0, 0.0, 0.0]; 3];
    for (na, a) in kinds {
        for (nb, b) in kinds {
            // B's point is its leftmost vertex, so that every pair is 2 apart at t = 0.
            let b = if nb == "point" { point_b } else { shift(b) };
            let res = moving_triangle_triangle(&a, &V::zeros(), &b, &V::new(-6.0, 0.0, 0.0), 1.0);
            let t = res.time().unwrap_or_else(|| panic!("{na}-{nb}: missed"));
            assert!((t - 1.0 / 3.0).abs() < 1e-12, "{na}-{nb}: {res:?}");
        }
    }
}

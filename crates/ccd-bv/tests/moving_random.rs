//! Eberly's constant-velocity tests (`ccd_bv::moving`) on random moving
//! boxes and triangles against the independent time oracle of
//! `moving_oracle` (static tests only), in `f64` and `f32`.

mod common;
mod moving_oracle;

use ccd_bv::Obb;
use ccd_bv::moving::{
    MovingContact, moving_obb_obb, moving_triangle_obb, moving_triangle_triangle,
};
use ccd_bv::nalgebra::Vector3;
use common::Rng;
use moving_oracle::*;

// ---------------------------------------------------------------------------
// Random pairs against the oracle.

/// Length scale of the random scenes (tolerances are relative to it).
const SCALE: f64 = 8.0;

/// Tallies of a random run, to keep the samples balanced.
#[derive(Default, Debug)]
struct Tally {
    separated: usize,
    touching: usize,
    at_start: usize,
    sampled: usize,
}

/// Checks one result against the oracle `g` (static separation over the
/// candidate axes) and the contact set against the objects at its time.
/// `on_a`/`on_b`: distance of a point to A/B at time `t`.
fn check(
    res: &MovingContact<f64>,
    g: &dyn Fn(f64) -> f64,
    t_max: f64,
    on_a: &dyn Fn(f64, &V) -> f64,
    on_b: &dyn Fn(f64, &V) -> f64,
    tally: &mut Tally,
    what: &str,
) {
    let scale = SCALE;
    let tr = truth(g, t_max);
    let robust = tr.min_gap < -1e-7 * scale;
    match res {
        MovingContact::Separated => {
            tally.separated += 1;
            assert!(
                tr.min_gap > -1e-12 * scale,
                "{what}: missed a contact ({:?}, gap {})",
                tr.first,
                tr.min_gap
            );
        }
        MovingContact::OverlappingAtStart => {
            tally.at_start += 1;
            assert!(
                g(0.0) <= 1e-12 * scale,
                "{what}: not overlapping at 0 (gap {})",
                g(0.0)
            );
        }
        MovingContact::Touching { time, contact } => {
            tally.touching += 1;
            let t = *time;
            assert!(
                t > 0.0 && t <= t_max,
                "{what}: time {t} outside (0, {t_max}]"
            );
            assert!(
                g(0.0) > -1e-12 * scale,
                "{what}: overlapping at 0 reported as a later contact"
            );
            // At the reported time they touch (within round-off).
            assert!(
                g(t).abs() <= 1e-9 * scale,
                "{what}: gap {} at the reported time {t}",
                g(t)
            );
            if let Some(t_o) = tr.first {
                // Never later than the first contact.
                assert!(
                    t <= t_o + 1e-12,
                    "{what}: time {t} later than the oracle's {t_o}"
                );
                if robust {
                    assert!(
                        (t - t_o).abs() <= 1e-8 * t_max,
                        "{what}: time {t} vs oracle {t_o}"
                    );
                }
            }
            for p in points(contact) {
                let (da, db) = (on_a(t, &p), on_b(t, &p));
                assert!(
                    da <= 1e-7 * scale && db <= 1e-7 * scale,
                    "{what}: contact point {p:?} off the objects by {da:e}, {db:e} ({contact:?})"
                );
            }
        }
    }
}

#[test]
fn random_boxes_match_the_oracle() {
    let mut rng = Rng::new(3);
    let mut tally = Tally::default();
    for case in 0..3000 {
        let a = obb(&rng.rotation_mixed(), rng.vec(-1.0, 1.0), rng.half());
        let b = obb(&rng.rotation_mixed(), rng.vec(-4.0, 4.0), rng.half());
        let va = rng.vec(-1.0, 1.0);
        let target = V::from(a.center) + rng.vec(-2.0, 2.0);
        let vb = (target - V::from(b.center)) * rng.range(0.5, 2.0);
        let t_max = 1.0;
        let res = moving_obb_obb(&a, &va, &b, &vb, t_max);
        let axes = box_box_axes(&a, &b);
        let (ba, bb) = (
            Body {
                pts: corners_of(&a),
                vel: va,
            },
            Body {
                pts: corners_of(&b),
                vel: vb,
            },
        );
        let g = |t: f64| gap(&ba, &bb, &axes, t);
        let on_a = |t: f64, p: &V| dist_box(&moved_box(&a, &va, t), p);
        let on_b = |t: f64, p: &V| dist_box(&moved_box(&b, &vb, t), p);
        check(
            &res,
            &g,
            t_max,
            &on_a,
            &on_b,
            &mut tally,
            &format!("box case {case}"),
        );
        // The independent static SAT, sampled and bisected.
        if let Some(t_s) = sat_first(&a, &va, &b, &vb, t_max, 400) {
            tally.sampled += 1;
            let t = res
                .time()
                .unwrap_or_else(|| panic!("box case {case}: SAT finds overlap at {t_s}"));
            assert!(
                t <= t_s + 1e-12,
                "box case {case}: {t} later than the SAT's {t_s}"
            );
            if t_s > 0.0 {
                assert!(t_s - t <= 1e-8, "box case {case}: {t} vs SAT {t_s}");
            }
        }
        // Swapping the boxes gives the same time.
        let swapped = moving_obb_obb(&b, &vb, &a, &va, t_max);
        match (res.time(), swapped.time()) {
            (Some(x), Some(y)) => {
                assert!((x - y).abs() <= 1e-9, "box case {case}: {x} vs swapped {y}")
            }
            (x, y) => assert_eq!(
                x.is_some(),
                y.is_some(),
                "box case {case}: swap changes verdict"
            ),
        }
    }
    eprintln!("{tally:?}");
    assert!(
        tally.touching > 500 && tally.separated > 500 && tally.at_start > 100,
        "{tally:?}"
    );
}

/// A random triangle around `c` with coordinates spread `s`.
fn random_tri(rng: &mut Rng, c: V, s: f64) -> [[f64; 3]; 3] {
    tri([c + rng.vec(-s, s), c + rng.vec(-s, s), c + rng.vec(-s, s)])
}

#[test]
fn random_triangle_box_match_the_oracle() {
    let mut rng = Rng::new(4);
    let mut tally = Tally::default();
    for case in 0..3000 {
        let c0 = rng.vec(-4.0, 4.0);
        let t = random_tri(&mut rng, c0, 1.5);
        let b = obb(&rng.rotation_mixed(), rng.vec(-1.0, 1.0), rng.half());
        let vb = rng.vec(-1.0, 1.0);
        let c = V::from(t[0]);
        let vt = (V::from(b.center) + rng.vec(-2.0, 2.0) - c) * rng.range(0.5, 2.0);
        let res = moving_triangle_obb(&t, &vt, &b, &vb, 1.0);
        let axes = tri_box_axes(&t, &b);
        let (bt, bbx) = (
            Body {
                pts: t.map(V::from).to_vec(),
                vel: vt,
            },
            Body {
                pts: corners_of(&b),
                vel: vb,
            },
        );
        let g = |s: f64| gap(&bt, &bbx, &axes, s);
        let on_a = |s: f64, p: &V| dist_tri(&moved_tri(&t, &vt, s), p);
        let on_b = |s: f64, p: &V| dist_box(&moved_box(&b, &vb, s), p);
        check(
            &res,
            &g,
            1.0,
            &on_a,
            &on_b,
            &mut tally,
            &format!("tri-box case {case}"),
        );
    }
    eprintln!("{tally:?}");
    assert!(
        tally.touching > 500 && tally.separated > 500 && tally.at_start > 100,
        "{tally:?}"
    );
}

#[test]
fn random_triangles_match_the_oracle() {
    let mut rng = Rng::new(5);
    let mut tally = Tally::default();
    for case in 0..4000 {
        let family = case % 3;
        let r = rng.rotation();
        let (a, b, va, vb) = if family == 0 {
            // General position.
            let (ca, cb) = (rng.vec(-0.5, 0.5), rng.vec(-4.0, 4.0));
            let a = random_tri(&mut rng, ca, 1.5);
            let b = random_tri(&mut rng, cb, 1.5);
            let vb = (rng.vec(-1.0, 1.0) - V::from(b[0])) * rng.range(0.5, 2.0);
            (a, b, rng.vec(-0.5, 0.5), vb)
        } else {
            // Coplanar (family 1) or parallel planes (family 2) under a random
            // rotation, moving in the plane or across it.
            let flat = |rng: &mut Rng, c: V, z: f64| {
                let p = |rng: &mut Rng| {
                    let q = c + rng.vec(-1.5, 1.5);
                    r * v(q.x, q.y, z)
                };
                tri([p(rng), p(rng), p(rng)])
            };
            let z = if family == 1 {
                0.0
            } else {
                rng.range(-1.0, 1.0)
            };
            let a = flat(&mut rng, V::zeros(), 0.0);
            let cb = rng.vec(-4.0, 4.0);
            let b = flat(&mut rng, cb, z);
            let target = rng.vec(-1.0, 1.0);
            let mut w = target - (r.transpose() * V::from(b[0]));
            w.z = if family == 1 {
                0.0
            } else {
                -z * rng.range(0.5, 2.0)
            };
            (a, b, V::zeros(), r * w * rng.range(0.5, 2.0))
        };
        let res = moving_triangle_triangle(&a, &va, &b, &vb, 1.0);
        let axes = tri_tri_axes(&a, &b);
        let (ba, bb) = (
            Body {
                pts: a.map(V::from).to_vec(),
                vel: va,
            },
            Body {
                pts: b.map(V::from).to_vec(),
                vel: vb,
            },
        );
        let g = |s: f64| gap(&ba, &bb, &axes, s);
        let on_a = |s: f64, p: &V| dist_tri(&moved_tri(&a, &va, s), p);
        let on_b = |s: f64, p: &V| dist_tri(&moved_tri(&b, &vb, s), p);
        check(
            &res,
            &g,
            1.0,
            &on_a,
            &on_b,
            &mut tally,
            &format!("tri-tri case {case} (family {family})"),
        );
        let swapped = moving_triangle_triangle(&b, &vb, &a, &va, 1.0);
        match (res.time(), swapped.time()) {
            (Some(x), Some(y)) => assert!(
                (x - y).abs() <= 1e-9,
                "tri-tri case {case}: {x} vs swapped {y}"
            ),
            (x, y) => assert_eq!(
                x.is_some(),
                y.is_some(),
                "tri-tri case {case}: swap changes verdict"
            ),
        }
    }
    eprintln!("{tally:?}");
    assert!(tally.touching > 500 && tally.separated > 500, "{tally:?}");
}

/// `f32` inputs: the `f32` tests, with their own margins, stay conservative
/// against the `f64` oracle of the same (rounded) inputs.
#[test]
fn f32_is_conservative() {
    let mut rng = Rng::new(6);
    let (mut hits, mut early) = (0, 0.0f64);
    for case in 0..2000 {
        let a = obb(&rng.rotation(), rng.vec(-1.0, 1.0), rng.half());
        let b = obb(&rng.rotation(), rng.vec(-4.0, 4.0), rng.half());
        let vb = (V::from(a.center) + rng.vec(-2.0, 2.0) - V::from(b.center)) * rng.range(0.5, 2.0);
        let r32 = |o: &Obb<f64>| Obb {
            rot: o.rot.map(|c| c.map(|x| x as f32)),
            center: o.center.map(|x| x as f32),
            half: o.half.map(|x| x as f32),
        };
        let (a32, b32, vb32) = (r32(&a), r32(&b), vb.cast::<f32>());
        let back = |o: &Obb<f32>| Obb {
            rot: o.rot.map(|c| c.map(f64::from)),
            center: o.center.map(f64::from),
            half: o.half.map(f64::from),
        };
        let (a64, b64, vb64) = (back(&a32), back(&b32), vb32.cast::<f64>());
        let res = moving_obb_obb(&a32, &Vector3::zeros(), &b32, &vb32, 1.0f32);
        let axes = box_box_axes(&a64, &b64);
        let (ba, bb) = (
            Body {
                pts: corners_of(&a64),
                vel: V::zeros(),
            },
            Body {
                pts: corners_of(&b64),
                vel: vb64,
            },
        );
        let tr = truth(|t| gap(&ba, &bb, &axes, t), 1.0);
        if let Some(t_o) = tr.first.filter(|_| tr.min_gap < -1e-12) {
            hits += 1;
            let t = res
                .time()
                .unwrap_or_else(|| panic!("f32 case {case}: missed a contact at {t_o}"));
            assert!(
                f64::from(t) <= t_o + 1e-12,
                "f32 case {case}: {t} later than {t_o}"
            );
            early = early.max(t_o - f64::from(t));
        }
    }
    assert!(hits > 300, "{hits}");
    // Early by the f32 margin only (relative 1e-6 of coordinates of order 5).
    assert!(early < 1e-3, "{early}");
}

/// Oracle T-1 in `f32`: early by at most the `f32` margin.
#[test]
fn f32_oracle_case() {
    let unit = |c: [f32; 3]| Obb {
        rot: [[1.0f32, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]],
        center: c,
        half: [1.0; 3],
    };
    let r = moving_obb_obb(
        &unit([0.0; 3]),
        &Vector3::zeros(),
        &unit([5.0, 0.5, 0.5]),
        &Vector3::new(-2.0, 0.0, 0.0),
        2.0,
    );
    let t = r.time().unwrap();
    assert!(t <= 1.5 && 1.5 - t < 1e-4, "{t}");
}

//! Shared scenario generators for the ccd-motion integration tests.
//!
//! Scenarios are drawn in `f64` from a seeded [`SplitMix64`] and converted to the scalar under test, so the same
//! seed exercises `f32` and `f64` alike.

#![allow(dead_code)]

use std::f64::consts::{PI, TAU};

use ccd_interval::Real;
use ccd_motion::{
    Bucketed, ConstantRotationTranslation, Interp, Motion, Screw, Static, Translation,
};
use ccd_testkit::{SplitMix64, random_rotation};
use nalgebra::{Isometry3, Point3, Quaternion, Translation3, Unit, UnitQuaternion, Vector3};

/// How the end orientation relates to the start (and how far the spinning motions turn).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RotKind {
    /// A uniformly random relative rotation; spins in [−2π, 2π].
    Generic,
    /// A half-turn, exactly or within 1e-15 … 1e-5 of it, either side; spins of ±π.
    NearPi,
    /// A rotation of 1e-12 … 1e-7 rad; spins as small.
    Tiny,
    /// The end quaternion is minus the start's (same orientation), possibly times a tiny rotation.
    Antipodal,
    /// No rotation at all.
    Zero,
    /// Several turns: |angle| in [2π, 60] for the spinning constructors.
    Spin,
}

/// Every kind, for selection by index.
pub const ROT_KINDS: [RotKind; 6] = [
    RotKind::Generic,
    RotKind::NearPi,
    RotKind::Tiny,
    RotKind::Antipodal,
    RotKind::Zero,
    RotKind::Spin,
];

/// A motion scenario in `f64`: two poses plus the parameters of the spinning constructors.
#[derive(Clone, Debug)]
pub struct Scenario {
    pub start: Isometry3<f64>,
    pub end: Isometry3<f64>,
    pub axis: Vector3<f64>,
    pub angle: f64,
    pub displacement: Vector3<f64>,
    pub point: Vector3<f64>,
    pub slide: f64,
    /// Length scale of positions and displacements.
    pub scale: f64,
}

/// A random unit vector.
pub fn unit(rng: &mut SplitMix64) -> Vector3<f64> {
    random_rotation(rng) * Vector3::x()
}

/// A random vector of length up to `scale`.
pub fn vector(rng: &mut SplitMix64, scale: f64) -> Vector3<f64> {
    unit(rng) * (scale * rng.next_f64())
}

fn tiny_angle(rng: &mut SplitMix64) -> f64 {
    let a = 10f64.powf(rng.range(-12.0, -7.0));
    if rng.chance(0.5) { a } else { -a }
}

impl Scenario {
    /// Draws a scenario of the given rotation kind.
    pub fn draw(rng: &mut SplitMix64, kind: RotKind) -> Self {
        let scale = 10f64.powf(rng.range(-3.0, 3.0));
        let q0 = random_rotation(rng);
        let p0 = vector(rng, scale);
        let p1 = if rng.chance(0.1) {
            p0
        } else {
            vector(rng, scale)
        };
        let axis = unit(rng);
        let rel = match kind {
            RotKind::Generic | RotKind::Spin => random_rotation(rng),
            RotKind::NearPi => {
                let deltas = [0.0, 1e-15, 1e-9, 1e-5];
                let d = deltas[rng.below(4) as usize];
                let d = if rng.chance(0.5) { d } else { -d };
                UnitQuaternion::from_axis_angle(&Unit::new_normalize(axis), PI + d)
            }
            RotKind::Tiny => {
                UnitQuaternion::from_axis_angle(&Unit::new_normalize(axis), tiny_angle(rng))
            }
            RotKind::Antipodal => {
                let r = if rng.chance(0.5) {
                    UnitQuaternion::identity()
                } else {
                    UnitQuaternion::from_axis_angle(&Unit::new_normalize(axis), tiny_angle(rng))
                };
                UnitQuaternion::new_unchecked(-r.into_inner())
            }
            RotKind::Zero => UnitQuaternion::identity(),
        };
        let q1 = if kind == RotKind::Zero {
            q0
        } else {
            UnitQuaternion::new_unchecked(rel.into_inner() * q0.into_inner())
        };
        let sign = if rng.chance(0.5) { 1.0 } else { -1.0 };
        let angle = sign
            * match kind {
                RotKind::Generic => rng.range(0.0, TAU),
                RotKind::NearPi => PI,
                RotKind::Tiny | RotKind::Antipodal => tiny_angle(rng).abs(),
                RotKind::Zero => 0.0,
                RotKind::Spin => rng.range(TAU, 60.0),
            };
        Self {
            start: Isometry3::from_parts(Translation3::from(p0), q0),
            end: Isometry3::from_parts(Translation3::from(p1), q1),
            axis,
            angle,
            displacement: vector(rng, scale),
            point: p0 + vector(rng, scale),
            slide: rng.range(-scale, scale),
            scale,
        }
    }
}

/// Converts a vector to `T` (rounded to nearest for `f32`).
pub fn vec_t<T: Real>(v: &Vector3<f64>) -> Vector3<T> {
    Vector3::new(T::lit(v.x), T::lit(v.y), T::lit(v.z))
}

/// Converts a pose to `T`, renormalising the quaternion after rounding; the sign of the quaternion is kept (so an
/// antipodal pair stays antipodal).
pub fn iso_t<T: Real>(iso: &Isometry3<f64>) -> Isometry3<T> {
    let q = iso.rotation.into_inner();
    let q = Quaternion::new(T::lit(q.w), T::lit(q.i), T::lit(q.j), T::lit(q.k));
    Isometry3::from_parts(
        Translation3::from(vec_t(&iso.translation.vector)),
        UnitQuaternion::new_normalize(q),
    )
}

/// A named motion under test, with its total rotation angle (for width expectations).
pub struct Named<T: Real> {
    pub name: &'static str,
    pub motion: Box<dyn Motion<T>>,
    pub angle: f64,
}

/// Every motion type built from one scenario.
pub fn motions<T: Real>(s: &Scenario) -> Vec<Named<T>> {
    let start = iso_t::<T>(&s.start);
    let end = iso_t::<T>(&s.end);
    let axis = Unit::new_normalize(vec_t::<T>(&s.axis));
    let angle = T::lit(s.angle);
    let disp = vec_t::<T>(&s.displacement);
    let point = Point3::from(vec_t::<T>(&s.point));
    let slide = T::lit(s.slide);
    let crt_between = ConstantRotationTranslation::between(&start, &end);
    let screw_between = Screw::between(&start, &end);
    let interp = Interp::new(start, end);
    let between_angle = crt_between.angle().to_f64_exact();
    vec![
        Named {
            name: "static",
            motion: Box::new(Static::new(start)),
            angle: 0.0,
        },
        Named {
            name: "translation",
            motion: Box::new(Translation::new(start, disp)),
            angle: 0.0,
        },
        Named {
            name: "crt-between",
            motion: Box::new(crt_between),
            angle: between_angle,
        },
        Named {
            name: "crt-spin",
            motion: Box::new(ConstantRotationTranslation::new(start, axis, angle, disp)),
            angle: s.angle,
        },
        Named {
            name: "screw-spin",
            motion: Box::new(Screw::new(start, axis, point, angle, slide)),
            angle: s.angle,
        },
        Named {
            name: "screw-between",
            angle: screw_between.angle().to_f64_exact(),
            motion: Box::new(screw_between),
        },
        Named {
            name: "interp",
            motion: Box::new(interp),
            angle: between_angle,
        },
        Named {
            name: "bucketed-crt-spin",
            motion: Box::new(Bucketed::new(
                ConstantRotationTranslation::new(start, axis, angle, disp),
                3,
            )),
            angle: s.angle,
        },
    ]
}

/// A time interval of the given kind: 0 zero width, 1 tiny width, 2 random, 3 the whole of [0, 1].
pub fn time_interval<T: Real>(rng: &mut SplitMix64, kind: u8) -> (T, T) {
    let edge = |rng: &mut SplitMix64| match rng.below(5) {
        0 => 0.0,
        1 => 1.0,
        _ => rng.next_f64(),
    };
    let (a, b) = match kind {
        0 => {
            let t = edge(rng);
            (t, t)
        }
        1 => {
            let t = rng.next_f64() * (1.0 - 1e-6);
            (t, t + 1e-9 * (1.0 + rng.next_f64() * 1000.0))
        }
        2 => {
            let (a, b) = (edge(rng), edge(rng));
            (a.min(b), a.max(b))
        }
        _ => (0.0, 1.0),
    };
    let (a, b) = (T::lit(a), T::lit(b));
    (a, if b < a { a } else { b })
}

/// `n + 1` evenly spaced samples of [t0, t1] (both ends included exactly).
pub fn samples<T: Real>(t0: T, t1: T, n: usize) -> Vec<T> {
    let mut out: Vec<T> = (0..=n)
        .map(|k| {
            let t = t0 + (t1 - t0) * T::lit(k as f64 / n as f64);
            if t > t1 {
                t1
            } else if t < t0 {
                t0
            } else {
                t
            }
        })
        .collect();
    out.push(t0);
    out.push(t1);
    out
}

/// The largest |RᵀR − I| entry of a matrix.
pub fn orthonormality_error<T: Real>(r: &nalgebra::Matrix3<T>) -> f64 {
    let e = r.transpose() * r - nalgebra::Matrix3::identity();
    e.iter().fold(0.0, |m, x| m.max(x.to_f64_exact().abs()))
}

/// The angle (radians) of the rotation taking `a` to `b` (sign of the quaternions ignored).
pub fn rotation_gap<T: Real>(a: &UnitQuaternion<T>, b: &UnitQuaternion<T>) -> f64 {
    let qa = a.into_inner();
    let qb = b.into_inner();
    let d = (qa - qb)
        .norm()
        .to_f64_exact()
        .min((qa + qb).norm().to_f64_exact());
    // chord d = 2 sin(θ/4) on the 3-sphere for rotation angle θ.
    4.0 * (d / 2.0).min(1.0).asin()
}

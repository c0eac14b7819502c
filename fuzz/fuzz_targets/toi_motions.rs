//! Any bytes → two motions of any of the five kinds (start poses, displacements, axes, points, angles and end
//! poses from tagged values: tame numbers, raw bit patterns, values at and just beyond the documented limits)
//! and a request with a small work budget → the motion constructors must never panic, whatever the parameters,
//! and `ccd::time_of_impact` on two small icospheres (f64 OBB, f64 sphere and f32 AABB trees) must return `Ok`
//! or the range error, never panic. With `Ok` the volume tests stay within the budget (plus the one entry that
//! crosses it, or the discrete check at t = 0 when that alone is larger), and every reported time lies in
//! `[0, t_max]`.
//!
//! The seeded counterpart that runs in CI is `crates/ccd-query/tests/toi_range.rs` (generators and property in
//! `crates/ccd-query/tests/common/toi_range/`, regressions in `toi_range_regressions.rs`).

#![no_main]

use std::sync::OnceLock;

use ccd::motion::{ConstantRotationTranslation, Interp, Motion, Screw, Static, Translation};
use ccd::nalgebra::{Isometry3, Point3, Quaternion, Translation3, Unit, UnitQuaternion, Vector3};
use ccd::{
    Aabb, BoundingVolume, CollideRequest, DescentRule, Model, Obb, Real, Sphere, ToiBudget,
    ToiMode, ToiOutcome, ToiRequest,
};
use libfuzzer_sys::fuzz_target;

/// A reader that yields zeros once the input runs out.
struct Bytes<'a>(&'a [u8]);

impl Bytes<'_> {
    fn u8(&mut self) -> u8 {
        match self.0.split_first() {
            Some((&b, rest)) => {
                self.0 = rest;
                b
            }
            None => 0,
        }
    }

    fn u16(&mut self) -> u16 {
        u16::from_le_bytes([self.u8(), self.u8()])
    }

    fn u64(&mut self) -> u64 {
        (0..8).fold(0u64, |v, _| (v << 8) | u64::from(self.u8()))
    }

    /// A tagged value: tag < 160 → `(tag − 80) / 16` (tame, within ±5); 160..224 → raw f64 bits; 224.. → a
    /// value at or just beyond a documented limit, or an IEEE special.
    fn value(&mut self) -> f64 {
        let tag = self.u8();
        match tag {
            0..160 => f64::from(i32::from(tag) - 80) / 16.0,
            160..224 => f64::from_bits(self.u64()),
            _ => special(tag - 224),
        }
    }

    /// A time-like value: tag < 200 → `tag / 199` in [0, 1], otherwise a tagged [`value`](Self::value).
    fn time(&mut self) -> f64 {
        match self.u8() {
            t @ 0..200 => f64::from(t) / 199.0,
            _ => self.value(),
        }
    }

    /// Components of a would-be unit vector: tag < 192 → a unit direction from tame values, scaled by one of a
    /// few factors straddling the unit tolerances of f64 and f32; otherwise raw tagged components.
    fn unit<const N: usize>(&mut self) -> [f64; N] {
        let tag = self.u8();
        let mut c = [0.0; N];
        if tag < 192 {
            for x in &mut c {
                *x = f64::from(i32::from(self.u8()) - 128) + 0.5;
            }
            let n = c.iter().map(|x| x * x).sum::<f64>().sqrt();
            let f = UNIT_SCALES[usize::from(tag) % UNIT_SCALES.len()];
            c.map(|x| x / n * f)
        } else {
            for x in &mut c {
                *x = self.value();
            }
            c
        }
    }
}

/// Factors on a unit vector: exact, inside and just outside the f64 (2^-20) and f32 (2^-16) unit tolerances.
const UNIT_SCALES: [f64; 8] = [
    1.0,
    1.0,
    1.0 + 0.9 * 9.5367431640625e-7,
    1.0 - 1.1 * 9.5367431640625e-7,
    1.0 + 0.9 * 1.52587890625e-5,
    1.0 - 1.1 * 1.52587890625e-5,
    0.5,
    2.0,
];

/// Values at and just beyond the documented limits, and IEEE specials.
fn special(k: u8) -> f64 {
    let (l64, l32) = (2f64.powi(128), 2f64.powi(40));
    let (s64, s32) = (2f64.powi(-200), 2f64.powi(-100));
    let table = [
        l64,
        l64.next_up(),
        -l64.next_down(),
        s64,
        s64.next_down(),
        -s64.next_up(),
        l32,
        f64::from((l32 as f32).next_up()),
        s32,
        f64::from((s32 as f32).next_down()),
        4096.0,
        4096f64.next_up(),
        -4096f64.next_down(),
        1024.0,
        f64::from(1024f32.next_up()),
        -f64::from(1024f32.next_down()),
        1.0,
        1f64.next_up(),
        -0.0,
        -1e-300,
        1f64.next_down(),
        f64::MIN_POSITIVE,
        5e-324,
        f64::MAX,
        f64::MIN,
        f64::NAN,
        f64::INFINITY,
        f64::NEG_INFINITY,
        1e300,
        -f64::MIN_POSITIVE,
        0.0,
        3.0,
    ];
    table[usize::from(k) % table.len()]
}

fn vec3<T: Real>(v: [f64; 3]) -> Vector3<T> {
    Vector3::from(v.map(T::lit))
}

fn pose<T: Real>(b: &mut Bytes<'_>) -> Isometry3<T> {
    let t = [b.value(), b.value(), b.value()];
    let [w, i, j, k] = b.unit::<4>().map(T::lit);
    Isometry3::from_parts(
        Translation3::from(vec3::<T>(t)),
        UnitQuaternion::new_unchecked(Quaternion::new(w, i, j, k)),
    )
}

fn motion<T: Real>(b: &mut Bytes<'_>) -> Box<dyn Motion<T>> {
    let kind = b.u8() % 5;
    let start = pose::<T>(b);
    match kind {
        0 => Box::new(Static::new(start)),
        1 => Box::new(Translation::new(
            start,
            vec3([b.value(), b.value(), b.value()]),
        )),
        2 => {
            let axis = vec3::<T>(b.unit::<3>());
            let point = Point3::from(vec3::<T>([b.value(), b.value(), b.value()]));
            let (angle, distance) = (T::lit(b.value()), T::lit(b.value()));
            Box::new(Screw::new(
                start,
                Unit::new_unchecked(axis),
                point,
                angle,
                distance,
            ))
        }
        3 => {
            let axis = vec3::<T>(b.unit::<3>());
            let angle = T::lit(b.value());
            let displacement = vec3([b.value(), b.value(), b.value()]);
            Box::new(ConstantRotationTranslation::new(
                start,
                Unit::new_unchecked(axis),
                angle,
                displacement,
            ))
        }
        _ => {
            let end = pose::<T>(b);
            Box::new(Interp::new(start, end))
        }
    }
}

// Fields added to the request later keep their defaults.
#[allow(clippy::needless_update)]
fn request<T: Real>(b: &mut Bytes<'_>) -> ToiRequest<T> {
    ToiRequest {
        t_max: T::lit(b.time()),
        tolerance: T::lit(b.time() * 0.01),
        min_separation: T::lit(if b.u8() < 128 { 0.0 } else { b.value() }),
        max_iterations: usize::from(b.u8()) * 16,
        budget: ToiBudget {
            volume_tests: u64::from(b.u16() % 2048),
            primitive_tests: u64::from(b.u16() % 2048),
        },
        mode: if b.u8() < 128 {
            ToiMode::FirstContact
        } else {
            ToiMode::AllFeaturePairs
        },
        ..ToiRequest::default()
    }
}

fn sphere<T: Real, B: BoundingVolume<T>>(level: u32, radius: f64) -> Model<T, B> {
    let m = ccd_testkit::icosphere(level, radius);
    let v = m.vertices.iter().map(|p| p.map(T::lit)).collect();
    Model::new(v, &m.triangles).expect("an icosphere is in range")
}

fn run<T: Real, B: ccd_query::ContinuousVolume<T>>(
    models: &(Model<T, B>, Model<T, B>),
    data: &[u8],
) {
    let mut b = Bytes(data);
    // Constructing a motion never panics, whatever its parameters; `time_of_impact` refuses out-of-range ones.
    let (ma, mb) = (motion::<T>(&mut b), motion::<T>(&mut b));
    let request = request::<T>(&mut b);
    let (a, bm) = (&models.0, &models.1);
    let Ok(r) = ccd::time_of_impact(a, &*ma, bm, &*mb, &request) else {
        return;
    };
    // The discrete check at t = 0 is part of the count but not of the budget's loop: the loop stops at the first
    // entry after the count exceeds the budget, and each entry makes one volume test. The check descends by the
    // largest diameter, as the search does (its count differs from the default rule's).
    let zero = T::zero();
    let start = ccd::collide(
        a,
        &ma.pose(zero),
        bm,
        &mb.pose(zero),
        &if request.mode == ToiMode::AllFeaturePairs {
            CollideRequest::all()
        } else {
            CollideRequest::first()
        }
        .with_descent(DescentRule::LargestDiameter),
    )
    .expect("time_of_impact accepted these poses");
    let bound = (request.budget.volume_tests + 1).max(start.stats.bv_tests);
    assert!(
        r.stats.bv_tests <= bound,
        "{} volume tests for a budget of {} (t = 0 check: {})",
        r.stats.bv_tests,
        request.budget.volume_tests,
        start.stats.bv_tests
    );
    let t_max = request.t_max;
    let within = |t: T| zero <= t && t <= t_max;
    match r.outcome {
        ToiOutcome::Contact(c) => assert!(within(c.t_lo) && within(c.t_hi) && c.t_lo <= c.t_hi),
        ToiOutcome::Undecided { t_lo, found } => {
            assert!(within(t_lo));
            if let Some(c) = found {
                assert!(within(c.t_lo) && c.t_lo <= c.t_hi);
            }
        }
        ToiOutcome::NoContact => {}
    }
}

type Pair<T, B> = (Model<T, B>, Model<T, B>);

static OBB64: OnceLock<Pair<f64, Obb<f64>>> = OnceLock::new();
static SPHERE64: OnceLock<Pair<f64, Sphere<f64>>> = OnceLock::new();
static AABB32: OnceLock<Pair<f32, Aabb<f32>>> = OnceLock::new();

fuzz_target!(|data: &[u8]| {
    run(OBB64.get_or_init(|| (sphere(1, 1.0), sphere(0, 0.5))), data);
    run(
        SPHERE64.get_or_init(|| (sphere(1, 1.0), sphere(0, 0.5))),
        data,
    );
    run(
        AABB32.get_or_init(|| (sphere(1, 1.0), sphere(0, 0.5))),
        data,
    );
});

//! `time_of_impact` over the whole input range, as a seeded property test (the CI counterpart of the cargo-fuzz
//! target `fuzz/fuzz_targets/toi_motions.rs`).
//!
//! Each case draws two motions of any of the five kinds and a request. Every scalar parameter is either a tame
//! value of a small scene (two icospheres) or, where a per-case mask says so, a wild one: a random bit pattern
//! (NaN, infinities, subnormals, huge and tiny magnitudes), an IEEE special, or a value at, one or two ulps inside
//! or outside a documented limit (length max and min, angle max, the time interval's ends). Unit quaternions and
//! axes are also scaled to just inside or just outside the unit tolerance, and both bodies' positions are, in a
//! fifth of the cases, moved to the small end of the length range or far out towards its top ([`Place`]).
//! Budgets are small (up to 2,000 volume and primitive tests).
//!
//! Checked for every case:
//! - no panic in `time_of_impact`, nor in constructing the motions except the known one (see
//!   [`Tally::constructor_panics`] and the ignored test [`motion_constructors_panic_on_a_nan_rotation`]);
//! - `Err` exactly when the test's own restatement of the limits table of `ccd_interval::limits` ([`Table`],
//!   [`Params::verdict`], [`request_verdict`]; it calls none of the library's check functions) says some
//!   parameter that the motion kind or the request uses is out of range, and the error names the first such
//!   part (request, motion of model a, motion of model b) — with one known exception, see
//!   [`Tally::relative_refusals`] and the ignored test
//!   [`in_range_poses_whose_difference_is_below_length_min_are_refused`];
//! - with `Ok`: at most `budget.volume_tests + 1` volume tests (or those of the discrete check at t = 0 when it
//!   alone uses more), primitive tests within the budget plus one leaf pair's bisection, and every reported time
//!   in `[0, t_max]`;
//! - for in-range cases of moderate size: no contact found by the exact discrete `collide` at 129 evenly spaced
//!   times of `[0, t_max]` lies before the reported certified `t_lo` (and none at all when the answer is
//!   `NoContact`), as `toi_sampling.rs` checks on tame scenes.
//!
//! Case counts (fixed seeds; `PROPTEST_CASES` overrides the count for soak runs, `PROPTEST_RNG_SEED` the seed):
//! f64 OBB 6,000, f64 AABB 3,000, f64 sphere 3,000, f32 OBB 4,000, f32 sphere 2,000 (18,000 in all, a few seconds
//! in the test profile on two cores).

use std::cell::RefCell;
use std::fmt::Debug;

use ccd_bv::{Aabb, Limits, Obb, RangeError, Real, Sphere};
use ccd_bvh::{BuildOptions, Bvh};
use ccd_motion::{ConstantRotationTranslation, Interp, Motion, Screw, Static, Translation};
use ccd_query::{
    CollideRequest, ContinuousVolume, ToiBudget, ToiMode, ToiOutcome, ToiRequest, ToiResult,
    collide, time_of_impact,
};
use ccd_testkit::{Mesh, icosphere};
use nalgebra::{Isometry3, Point3, Quaternion, Translation3, Unit, UnitQuaternion, Vector3};
use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed, TestError, TestRunner};

// ---------------------------------------------------------------------------------------------------------------
// The documented limits, restated.

/// 2^k for a normal exponent, built from its bits (exact, and const).
const fn pow2(k: i32) -> f64 {
    f64::from_bits(((1023 + k) as u64) << 52)
}

/// The limits table of `ccd_interval::limits`, restated from its documentation.
#[derive(Clone, Copy, Debug)]
struct Table {
    /// Largest magnitude of a coordinate, translation, displacement, point, distance, `min_separation`.
    length_max: f64,
    /// Smallest non-zero magnitude of the same.
    length_min: f64,
    /// Largest total rotation (radians, either sign).
    angle_max: f64,
    /// Largest `|‖q‖ − 1|` of a unit quaternion or axis.
    unit_tolerance: f64,
}

const F64_TABLE: Table = Table {
    length_max: pow2(128),
    length_min: pow2(-200),
    angle_max: 4096.0,
    unit_tolerance: pow2(-20),
};

const F32_TABLE: Table = Table {
    length_max: pow2(40),
    length_min: pow2(-100),
    angle_max: 1024.0,
    unit_tolerance: pow2(-16),
};

/// Whether a value is inside its documented range.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Verdict {
    In,
    /// A unit norm within a few ulps of the tolerance: the table does not say how the norm is rounded, so either
    /// answer is accepted.
    Boundary,
    Out,
}

fn is_length(x: f64, t: &Table) -> bool {
    let a = x.abs();
    x.is_finite() && (a == 0.0 || (t.length_min..=t.length_max).contains(&a))
}

fn length(x: f64, t: &Table) -> Verdict {
    if is_length(x, t) {
        Verdict::In
    } else {
        Verdict::Out
    }
}

fn angle(x: f64, t: &Table) -> Verdict {
    if x.is_finite() && x.abs() <= t.angle_max {
        Verdict::In
    } else {
        Verdict::Out
    }
}

fn time(x: f64) -> Verdict {
    if (0.0..=1.0).contains(&x) {
        Verdict::In
    } else {
        Verdict::Out
    }
}

/// A unit quaternion or axis: finite components whose norm is within the tolerance of 1. The norm is taken
/// with the components scaled by the largest magnitude first (no overflow or underflow); results within
/// `1e-8` of the tolerance (a few dozen ulps of 1) are [`Verdict::Boundary`].
fn unit(c: &[f64], t: &Table) -> Verdict {
    if !c.iter().all(|x| x.is_finite()) {
        return Verdict::Out;
    }
    let m = c.iter().fold(0.0f64, |m, x| m.max(x.abs()));
    if m == 0.0 {
        return Verdict::Out;
    }
    let norm = m * c.iter().map(|x| (x / m) * (x / m)).sum::<f64>().sqrt();
    let d = (norm - 1.0).abs();
    if d <= t.unit_tolerance * (1.0 - 1e-8) {
        Verdict::In
    } else if d >= t.unit_tolerance * (1.0 + 1e-8) {
        Verdict::Out
    } else {
        Verdict::Boundary
    }
}

fn worst(vs: impl IntoIterator<Item = Verdict>) -> Verdict {
    vs.into_iter().max().unwrap_or(Verdict::In)
}

// ---------------------------------------------------------------------------------------------------------------
// Scalars.

/// What the test needs of a scalar type beyond [`Real`].
trait Sc: Real + Debug {
    const TABLE: Table;
    /// The value of `bits` (the low 32 for `f32`) as this type.
    fn from_wild_bits(bits: u64) -> Self;
    /// `x` rounded to this type, then moved `steps` ulps (up if positive).
    fn near(x: f64, steps: i8) -> Self;
    /// IEEE specials and extremes of this type.
    fn special(k: u8) -> Self;
}

impl Sc for f64 {
    const TABLE: Table = F64_TABLE;
    fn from_wild_bits(bits: u64) -> Self {
        f64::from_bits(bits)
    }
    fn near(x: f64, steps: i8) -> Self {
        (0..steps.unsigned_abs()).fold(x, |v, _| {
            if steps > 0 {
                v.next_up()
            } else {
                v.next_down()
            }
        })
    }
    fn special(k: u8) -> Self {
        let table = [
            0.0,
            -0.0,
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::MIN_POSITIVE,
            -5e-324,
            f64::MAX,
            f64::MIN,
            1e-300,
            -1e300,
            1.0,
            -1.0,
            1e30,
            2.5e-40,
            0.5,
        ];
        table[usize::from(k) % table.len()]
    }
}

impl Sc for f32 {
    const TABLE: Table = F32_TABLE;
    fn from_wild_bits(bits: u64) -> Self {
        f32::from_bits(bits as u32)
    }
    fn near(x: f64, steps: i8) -> Self {
        (0..steps.unsigned_abs()).fold(x as f32, |v, _| {
            if steps > 0 {
                v.next_up()
            } else {
                v.next_down()
            }
        })
    }
    fn special(k: u8) -> Self {
        let table = [
            0.0,
            -0.0,
            f32::NAN,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::MIN_POSITIVE,
            -1e-45,
            f32::MAX,
            f32::MIN,
            1e-38,
            -1e38,
            1.0,
            -1.0,
            1e12,
            2.5e-31,
            0.5,
        ];
        table[usize::from(k) % table.len()]
    }
}

fn wide<T: Real>(x: T) -> f64 {
    x.to_f64_exact()
}

// ---------------------------------------------------------------------------------------------------------------
// Cases.

/// A wild scalar.
#[derive(Clone, Copy, Debug)]
enum Wild {
    /// A random bit pattern.
    Bits(u64),
    /// An IEEE special or extreme ([`Sc::special`]).
    Special(u8),
    /// `±base` moved `steps` ulps (`base`: length max, length min, angle max, 1, 0.5 · length min).
    Near { base: u8, steps: i8, negative: bool },
}

impl Wild {
    fn value<T: Sc>(self) -> T {
        match self {
            Wild::Bits(b) => T::from_wild_bits(b),
            Wild::Special(k) => T::special(k),
            Wild::Near {
                base,
                steps,
                negative,
            } => {
                let t = T::TABLE;
                let x = [
                    t.length_max,
                    t.length_min,
                    t.angle_max,
                    1.0,
                    t.length_min * 0.5,
                ][usize::from(base) % 5];
                T::near(if negative { -x } else { x }, steps)
            }
        }
    }
}

fn wild() -> impl Strategy<Value = Wild> {
    prop_oneof![
        3 => any::<u64>().prop_map(Wild::Bits),
        2 => any::<u8>().prop_map(Wild::Special),
        5 => (0u8..5, -2i8..=2, any::<bool>()).prop_map(|(base, steps, negative)| Wild::Near {
            base,
            steps,
            negative
        }),
    ]
}

/// How a unit quaternion or axis is scaled: exactly unit, or by `1 ± 15/16` or `1 ± 17/16` of the tolerance.
#[derive(Clone, Copy, Debug)]
enum UnitScale {
    Exact,
    Inside(bool),
    Outside(bool),
}

impl UnitScale {
    fn factor(self, t: &Table) -> f64 {
        let d = t.unit_tolerance / 16.0;
        match self {
            UnitScale::Exact => 1.0,
            UnitScale::Inside(up) => 1.0 + if up { 15.0 * d } else { -15.0 * d },
            UnitScale::Outside(up) => 1.0 + if up { 17.0 * d } else { -17.0 * d },
        }
    }
}

fn unit_scale() -> impl Strategy<Value = UnitScale> {
    prop_oneof![
        16 => Just(UnitScale::Exact),
        2 => any::<bool>().prop_map(UnitScale::Inside),
        1 => any::<bool>().prop_map(UnitScale::Outside),
    ]
}

/// Scalar slots of one motion (offsets within its block of [`SLOTS_PER_MOTION`]).
const START_T: usize = 0;
const START_Q: usize = 3;
const DISP: usize = 7;
const AXIS: usize = 10;
const POINT: usize = 13;
const ANGLE: usize = 16;
const DISTANCE: usize = 17;
const END_T: usize = 18;
const END_Q: usize = 21;
const SLOTS_PER_MOTION: usize = 25;
/// Request slots after the two motions.
const T_MAX: usize = 50;
const TOLERANCE: usize = 51;
const MIN_SEP: usize = 52;
const SLOTS: usize = 53;

/// Tame half-ranges of the scalar slots of motion A and motion B (quaternion and axis slots draw in [-1, 1] and
/// are normalised).
fn tame_range(motion: usize, slot: usize) -> f64 {
    let b = motion == 1;
    match slot {
        START_T..START_Q => {
            if b {
                2.0
            } else {
                0.5
            }
        }
        DISP..AXIS => {
            if b {
                4.0
            } else {
                1.5
            }
        }
        END_T..END_Q => {
            if b {
                2.0
            } else {
                1.5
            }
        }
        POINT..ANGLE => 2.0,
        DISTANCE => 3.0,
        ANGLE => 8.0,
        _ => 1.0,
    }
}

#[derive(Clone, Debug)]
struct Case {
    kinds: [u8; 2],
    /// Tame values in [-1, 1], scaled by [`tame_range`] (motion slots); request slots hold their values.
    tame: Vec<f64>,
    wild: Vec<Wild>,
    /// Bit `i` set: slot `i` takes its wild value.
    mask: u64,
    /// Start quaternion, axis, end quaternion of each motion.
    scales: [UnitScale; 6],
    max_iterations: usize,
    budget: (u64, u64),
    all_pairs: bool,
    /// Where both bodies are placed (their start and end positions).
    place: Place,
}

/// Where the tame start and end positions of both bodies lie.
#[derive(Clone, Copy, Debug)]
enum Place {
    /// Near the origin (the scene's own ranges).
    Near,
    /// Scaled down to a few times `length_min`: positions (and their differences) at the small end of the
    /// length range, some just below it.
    Tiny,
    /// Offset by `±2^k·(1 + f)` (A's and B's signs and fractions apart), `k` up to the top of the length
    /// range: bodies far from the origin, from each other, or both.
    Far {
        k: u8,
        signs: (bool, bool),
        fractions: (f64, f64),
    },
}

impl Place {
    fn position<T: Sc>(self, m: usize, x: f64) -> f64 {
        let t = T::TABLE;
        match self {
            Place::Near => x,
            Place::Tiny => x * 4.0 * t.length_min,
            Place::Far {
                k,
                signs,
                fractions,
            } => {
                let top = t.length_max.log2() as i32;
                let e = top - i32::from(k) % (top / 2);
                let (neg, f) = if m == 0 {
                    (signs.0, fractions.0)
                } else {
                    (signs.1, fractions.1)
                };
                let offset = 2f64.powi(e - 1) * (1.0 + f);
                x + if neg { -offset } else { offset }
            }
        }
    }
}

fn place() -> impl Strategy<Value = Place> {
    prop_oneof![
        8 => Just(Place::Near),
        1 => Just(Place::Tiny),
        1 => (any::<u8>(), any::<(bool, bool)>(), (0.0f64..1.0, 0.0f64..1.0)).prop_map(
            |(k, signs, fractions)| Place::Far {
                k,
                signs,
                fractions
            }
        ),
    ]
}

fn case() -> impl Strategy<Value = Case> {
    let mask = prop_oneof![
        6 => Just(0u64),
        4 => (0..SLOTS).prop_map(|i| 1u64 << i),
        2 => (any::<u64>(), any::<u64>()).prop_map(|(a, b)| a & b),
        1 => any::<u64>(),
    ]
    .prop_map(|m| m & ((1u64 << SLOTS) - 1));
    let request = (
        prop_oneof![3 => Just(1.0), 2 => 0.0..=1.0, 1 => Just(0.0)],
        prop_oneof![Just(1e-6), Just(1e-3), 0.0..0.05, Just(0.0)],
        prop_oneof![4 => Just(0.0), 1 => 0.0..0.1],
    );
    let work = (
        prop_oneof![12 => Just(4096usize), 4 => 1usize..64, 1 => Just(0)],
        prop_oneof![1 => Just(0u64), 4 => 1u64..20, 6 => 20u64..2000, 14 => Just(2000)],
        prop_oneof![1 => Just(0u64), 4 => 1u64..20, 6 => 20u64..2000, 14 => Just(2000)],
        any::<bool>(),
    );
    (
        (0u8..5, 0u8..5),
        prop::collection::vec(-1.0f64..=1.0, 2 * SLOTS_PER_MOTION),
        prop::collection::vec(wild(), SLOTS),
        mask,
        prop::array::uniform6(unit_scale()),
        request,
        work,
        place(),
    )
        .prop_map(
            |(kinds, mut tame, wild, mask, scales, (t_max, tol, sep), (it, vb, pb, all), place)| {
                tame.extend([t_max, tol, sep]);
                Case {
                    kinds: [kinds.0, kinds.1],
                    tame,
                    wild,
                    mask,
                    scales,
                    max_iterations: it,
                    budget: (vb, pb),
                    all_pairs: all,
                    place,
                }
            },
        )
}

/// One motion's parameters, realised in `T`.
#[derive(Clone, Copy, Debug)]
struct Params<T: Real> {
    kind: u8,
    start_t: [T; 3],
    start_q: [T; 4],
    disp: [T; 3],
    axis: [T; 3],
    point: [T; 3],
    angle: T,
    distance: T,
    end_t: [T; 3],
    end_q: [T; 4],
}

impl Case {
    fn wild_at(&self, slot: usize) -> bool {
        self.mask & (1 << slot) != 0
    }

    fn scalar<T: Sc>(&self, slot: usize, range: f64) -> T {
        if self.wild_at(slot) {
            self.wild[slot].value()
        } else {
            T::lit(self.tame[slot] * range)
        }
    }

    fn vector<T: Sc, const N: usize>(&self, m: usize, offset: usize) -> [T; N] {
        let base = m * SLOTS_PER_MOTION + offset;
        std::array::from_fn(|k| self.scalar(base + k, tame_range(m, offset)))
    }

    /// A start or end position: tame values moved by [`Place`], wild ones as drawn.
    fn position<T: Sc>(&self, m: usize, offset: usize) -> [T; 3] {
        let base = m * SLOTS_PER_MOTION + offset;
        std::array::from_fn(|k| {
            if self.wild_at(base + k) {
                self.wild[base + k].value()
            } else {
                let x = self.tame[base + k] * tame_range(m, offset);
                T::lit(self.place.position::<T>(m, x))
            }
        })
    }

    /// A unit vector from the tame components (normalised, then scaled), with wild components where masked.
    fn unit<T: Sc, const N: usize>(&self, m: usize, offset: usize, scale: UnitScale) -> [T; N] {
        let base = m * SLOTS_PER_MOTION + offset;
        let mut dir: [f64; N] = std::array::from_fn(|k| self.tame[base + k]);
        let n = dir.iter().map(|x| x * x).sum::<f64>().sqrt();
        if n < 1e-3 {
            dir = std::array::from_fn(|k| if k == 0 { 1.0 } else { 0.0 });
        } else {
            dir = dir.map(|x| x / n);
        }
        let f = scale.factor(&T::TABLE);
        std::array::from_fn(|k| {
            if self.wild_at(base + k) {
                self.wild[base + k].value()
            } else {
                T::lit(dir[k] * f)
            }
        })
    }

    fn params<T: Sc>(&self, m: usize) -> Params<T> {
        let s = &self.scales[3 * m..3 * m + 3];
        let base = m * SLOTS_PER_MOTION;
        Params {
            kind: self.kinds[m],
            start_t: self.position(m, START_T),
            start_q: self.unit(m, START_Q, s[0]),
            disp: self.vector(m, DISP),
            axis: self.unit(m, AXIS, s[1]),
            point: self.vector(m, POINT),
            angle: self.scalar(base + ANGLE, tame_range(m, ANGLE)),
            distance: self.scalar(base + DISTANCE, tame_range(m, DISTANCE)),
            end_t: self.position(m, END_T),
            end_q: self.unit(m, END_Q, s[2]),
        }
    }

    // Fields added to the request later keep their defaults.
    #[allow(clippy::needless_update)]
    fn request<T: Sc>(&self) -> ToiRequest<T> {
        ToiRequest {
            t_max: self.scalar(T_MAX, 1.0),
            tolerance: self.scalar(TOLERANCE, 1.0),
            min_separation: self.scalar(MIN_SEP, 1.0),
            max_iterations: self.max_iterations,
            budget: ToiBudget {
                volume_tests: self.budget.0,
                primitive_tests: self.budget.1,
            },
            mode: if self.all_pairs {
                ToiMode::AllFeaturePairs
            } else {
                ToiMode::FirstContact
            },
            ..ToiRequest::default()
        }
    }
}

fn isometry<T: Real>(t: &[T; 3], q: &[T; 4]) -> Isometry3<T> {
    Isometry3::from_parts(
        Translation3::new(t[0], t[1], t[2]),
        UnitQuaternion::new_unchecked(Quaternion::new(q[0], q[1], q[2], q[3])),
    )
}

impl<T: Sc> Params<T> {
    fn motion(&self) -> Box<dyn Motion<T>> {
        let start = isometry(&self.start_t, &self.start_q);
        let axis = Unit::new_unchecked(Vector3::from(self.axis));
        match self.kind {
            0 => Box::new(Static::new(start)),
            1 => Box::new(Translation::new(start, Vector3::from(self.disp))),
            2 => Box::new(Screw::new(
                start,
                axis,
                Point3::from(self.point),
                self.angle,
                self.distance,
            )),
            3 => Box::new(ConstantRotationTranslation::new(
                start,
                axis,
                self.angle,
                Vector3::from(self.disp),
            )),
            _ => Box::new(Interp::new(start, isometry(&self.end_t, &self.end_q))),
        }
    }

    /// The restated limits applied to the parameters this kind of motion uses.
    fn verdict(&self) -> Verdict {
        let t = &T::TABLE;
        let lengths = |v: &[T]| worst(v.iter().map(|&x| length(wide(x), t)));
        let unit = |v: &[T]| unit(&v.iter().map(|&x| wide(x)).collect::<Vec<_>>(), t);
        let start = worst([lengths(&self.start_t), unit(&self.start_q)]);
        match self.kind {
            0 => start,
            1 => worst([start, lengths(&self.disp)]),
            2 => worst([
                start,
                unit(&self.axis),
                lengths(&self.point),
                angle(wide(self.angle), t),
                length(wide(self.distance), t),
            ]),
            3 => worst([
                start,
                unit(&self.axis),
                angle(wide(self.angle), t),
                lengths(&self.disp),
            ]),
            _ => worst([start, lengths(&self.end_t), unit(&self.end_q)]),
        }
    }

    /// Whether a unit quaternion or axis that the motion's constructor turns into an interval frame (the axis
    /// and start rotation of a screw or a rotation-translation; the start and end rotations of an interpolation,
    /// which set its axis) is out of range (see [`Tally::constructor_panics`]).
    fn units_out(&self) -> bool {
        let t = &T::TABLE;
        let unit = |v: &[T]| unit(&v.iter().map(|&x| wide(x)).collect::<Vec<_>>(), t);
        match self.kind {
            2 | 3 => unit(&self.start_q) == Verdict::Out || unit(&self.axis) == Verdict::Out,
            4 => unit(&self.start_q) == Verdict::Out || unit(&self.end_q) == Verdict::Out,
            _ => false,
        }
    }

    /// Whether every length the motion uses is at most `bound` (the scene stays small enough for the sampling
    /// oracle's own float poses to be meaningful).
    fn moderate(&self, bound: f64) -> bool {
        let small = |v: &[T]| v.iter().all(|&x| wide(x).abs() <= bound);
        small(&self.start_t)
            && small(&self.disp)
            && small(&self.point)
            && small(&[self.distance])
            && small(&self.end_t)
    }
}

fn request_verdict<T: Sc>(r: &ToiRequest<T>) -> Verdict {
    let sep = wide(r.min_separation);
    worst([
        time(wide(r.t_max)),
        time(wide(r.tolerance)),
        if sep >= 0.0 {
            length(sep, &T::TABLE)
        } else {
            Verdict::Out
        },
        if r.max_iterations >= 1 && r.budget.volume_tests >= 1 && r.budget.primitive_tests >= 1 {
            Verdict::In
        } else {
            Verdict::Out
        },
    ])
}

// ---------------------------------------------------------------------------------------------------------------
// The property.

/// The two meshes: an 80-triangle icosphere of radius 1 (A) and a 20-triangle one of radius 0.5 (B).
fn meshes() -> (Mesh, Mesh) {
    (icosphere(1, 1.0), icosphere(0, 0.5))
}

fn tree<T: Real, B: ContinuousVolume<T>>(m: &Mesh) -> Bvh<T, B> {
    let v = m.vertices.iter().map(|p| p.map(T::lit)).collect();
    Bvh::build(v, &m.triangles, &BuildOptions::default()).expect("an icosphere is in range")
}

/// The trees under test and the oracle's f64 OBB trees of the same (rounded) meshes.
struct Scene<T: Real, B: ContinuousVolume<T>> {
    a: Bvh<T, B>,
    b: Bvh<T, B>,
    a64: Bvh<f64, Obb<f64>>,
    b64: Bvh<f64, Obb<f64>>,
}

impl<T: Real, B: ContinuousVolume<T>> Scene<T, B> {
    fn new() -> Self {
        let (ma, mb) = meshes();
        let rounded = |m: &Mesh| Mesh {
            vertices: m
                .vertices
                .iter()
                .map(|p| p.map(|x| T::lit(x).to_f64_exact()))
                .collect(),
            triangles: m.triangles.clone(),
        };
        Self {
            a: tree(&ma),
            b: tree(&mb),
            a64: tree(&rounded(&ma)),
            b64: tree(&rounded(&mb)),
        }
    }
}

/// What the cases covered (printed, and checked for a minimum mix).
#[derive(Debug, Default)]
struct Tally {
    cases: usize,
    refused: usize,
    in_range: usize,
    boundary: usize,
    contact: usize,
    contact_at_zero: usize,
    no_contact: usize,
    undecided: usize,
    /// In-range cases compared with sampling, and those in which sampling found a contact.
    sampled: usize,
    sampled_hits: usize,
    /// Sampled contacts compared with a reported `t_lo` after 0 (the informative comparisons).
    sampled_after_zero: usize,
    /// In-range parameters refused because the poses at t = 0, each in range, have a relative translation
    /// (`pose_a⁻¹·pose_b`) that is not a supported length, e.g. a non-zero component below `length_min` (the
    /// difference of two nearby tiny translations, or a tiny translation rotated). `time_of_impact` documents
    /// errors only for out-of-range requests and motions; see the ignored test
    /// [`in_range_poses_whose_difference_is_below_length_min_are_refused`].
    relative_refusals: usize,
    first_relative_refusal: Option<String>,
    /// Motions whose constructor panicked (before `time_of_impact` could refuse them): `Screw::new`,
    /// `ConstantRotationTranslation::new` and `Interp::new` build interval matrices from the axis and the start
    /// rotation (`AxisFrame::new`), and interval arithmetic panics on NaN and infinite operands. Allowed here only when
    /// one of those unit quaternions or axes is out of range; see the ignored test
    /// [`motion_constructors_panic_on_a_nan_rotation`].
    constructor_panics: usize,
    first_constructor_panic: Option<String>,
}

fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| (*s).to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "(not a string)".into())
}

fn pose_f64<T: Real>(p: &Isometry3<T>) -> Isometry3<f64> {
    let c = p.rotation.quaternion().coords;
    let t = p.translation.vector;
    Isometry3::from_parts(
        Translation3::new(wide(t.x), wide(t.y), wide(t.z)),
        UnitQuaternion::new_unchecked(Quaternion::new(wide(c.w), wide(c.x), wide(c.y), wide(c.z))),
    )
}

/// Samples in the discrete oracle.
const SAMPLES: u32 = 128;

/// Largest leaf-pair bisection depth: halving [0, 1] down to adjacent floats, subnormals included.
const MAX_DEPTH: u64 = 1100;

/// [`check_realised`], with the realised parameters added to a failure's message.
fn check_case<T: Sc, B: ContinuousVolume<T>>(
    case: &Case,
    scene: &Scene<T, B>,
    tally: &RefCell<Tally>,
) -> Result<(), TestCaseError> {
    check_realised(case, scene, tally).map_err(|e| match e {
        TestCaseError::Fail(why) => TestCaseError::fail(format!(
            "{why}\nmotion a: {:?}\nmotion b: {:?}\nrequest: {:?}",
            case.params::<T>(0),
            case.params::<T>(1),
            case.request::<T>()
        )),
        other => other,
    })
}

fn check_realised<T: Sc, B: ContinuousVolume<T>>(
    case: &Case,
    scene: &Scene<T, B>,
    tally: &RefCell<Tally>,
) -> Result<(), TestCaseError> {
    let (pa, pb) = (case.params::<T>(0), case.params::<T>(1));
    let request = case.request::<T>();
    let parts = [request_verdict(&request), pa.verdict(), pb.verdict()];
    let verdict = worst(parts);
    let mut tally = tally.borrow_mut();
    tally.cases += 1;
    match verdict {
        Verdict::In => tally.in_range += 1,
        Verdict::Boundary => tally.boundary += 1,
        Verdict::Out => tally.refused += 1,
    }
    let built =
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| (pa.motion(), pb.motion())));
    let (ma, mb) = match built {
        Ok(m) => m,
        Err(payload) => {
            let message = panic_message(payload.as_ref());
            prop_assert!(
                pa.units_out() || pb.units_out(),
                "constructing the motions panicked: {message}"
            );
            tally.constructor_panics += 1;
            if tally.first_constructor_panic.is_none() {
                tally.first_constructor_panic = Some(format!("{message} ({pa:?}, {pb:?})"));
            }
            return Ok(());
        }
    };
    let result = time_of_impact(&scene.a, &*ma, &scene.b, &*mb, &request);
    let r = match (verdict, result) {
        (Verdict::Out, Ok(r)) => {
            return Err(TestCaseError::fail(format!(
                "accepted out-of-range parameters (request, a, b: {parts:?}): {:?}",
                r.outcome
            )));
        }
        (Verdict::Out, Err(e)) => {
            if !parts.contains(&Verdict::Boundary) {
                let first = parts.iter().position(|&v| v == Verdict::Out).unwrap_or(0);
                let name = ["request", "motion of model a", "motion of model b"][first];
                prop_assert!(
                    e.what.starts_with(name),
                    "the error should name {name}: {e}"
                );
            }
            return Ok(());
        }
        (Verdict::Boundary, Err(_)) => return Ok(()),
        (Verdict::In, Err(e)) => {
            if is_relative_refusal::<T>(&e, &ma.pose(T::zero()), &mb.pose(T::zero())) {
                tally.relative_refusals += 1;
                if tally.first_relative_refusal.is_none() {
                    tally.first_relative_refusal = Some(format!("{e} ({pa:?}, {pb:?})"));
                }
                return Ok(());
            }
            return Err(TestCaseError::fail(format!(
                "refused in-range parameters: {e}"
            )));
        }
        (_, Ok(r)) => r,
    };
    check_result(&request, &r, scene, &*ma, &*mb, &mut tally)?;
    if verdict == Verdict::In && pa.moderate(1e3) && pb.moderate(1e3) {
        check_sampling(&request, &r, scene, &*ma, &*mb, &mut tally)?;
    }
    Ok(())
}

/// The refusal of in-range motions by the discrete check at t = 0 (see [`Tally::relative_refusals`]): the
/// error names the relative translation, and the test's own `f64` evaluation of `R_a⁻¹·(p_b − p_a)` at t = 0
/// has a component beyond half `length_max` or, non-zero or not, below twice `length_min` (a factor 2 for the
/// library's rounding in `T`).
fn is_relative_refusal<T: Sc>(e: &RangeError, a: &Isometry3<T>, b: &Isometry3<T>) -> bool {
    let (a, b) = (pose_f64(a), pose_f64(b));
    let rot = UnitQuaternion::new_normalize(*a.rotation.quaternion());
    let rel = rot.inverse() * (b.translation.vector - a.translation.vector);
    let t = T::TABLE;
    e.what.starts_with("relative pose translation")
        && rel
            .iter()
            .any(|c| c.abs() > t.length_max / 2.0 || c.abs() < 2.0 * t.length_min)
}

fn check_result<T: Sc, B: ContinuousVolume<T>>(
    request: &ToiRequest<T>,
    r: &ToiResult<T>,
    scene: &Scene<T, B>,
    ma: &dyn Motion<T>,
    mb: &dyn Motion<T>,
    tally: &mut Tally,
) -> Result<(), TestCaseError> {
    // The discrete check at t = 0 is counted but runs before the budget's loop, which stops at the first entry
    // after a count exceeds its budget; each entry makes one volume test and at most one leaf pair's bisection.
    let zero = T::zero();
    let start = collide(
        &scene.a,
        &ma.pose(zero),
        &scene.b,
        &mb.pose(zero),
        &if request.mode == ToiMode::AllFeaturePairs {
            CollideRequest::all()
        } else {
            CollideRequest::first()
        },
    )
    .expect("time_of_impact accepted these poses");
    let (budget, s) = (request.budget, &r.stats);
    prop_assert!(
        s.bv_tests <= (budget.volume_tests + 1).max(start.stats.bv_tests),
        "{} volume tests for a budget of {} (the check at t = 0: {})",
        s.bv_tests,
        budget.volume_tests,
        start.stats.bv_tests
    );
    let leaf = request.max_iterations as u64 + MAX_DEPTH;
    prop_assert!(
        s.primitive_tests <= (budget.primitive_tests + leaf).max(start.stats.tri_tests),
        "{} primitive tests for a budget of {} (the check at t = 0: {})",
        s.primitive_tests,
        budget.primitive_tests,
        start.stats.tri_tests
    );
    let t_max = request.t_max;
    let within = |t: T| zero <= t && t <= t_max;
    match &r.outcome {
        ToiOutcome::Contact(c) => {
            tally.contact += 1;
            if c.t_hi == zero {
                tally.contact_at_zero += 1;
            }
            prop_assert!(
                within(c.t_lo) && within(c.t_hi) && c.t_lo <= c.t_hi,
                "contact [{:?}, {:?}] outside [0, {t_max:?}]",
                c.t_lo,
                c.t_hi
            );
        }
        ToiOutcome::NoContact => tally.no_contact += 1,
        ToiOutcome::Undecided { t_lo, found } => {
            tally.undecided += 1;
            prop_assert!(
                within(*t_lo),
                "undecided t_lo {t_lo:?} outside [0, {t_max:?}]"
            );
            if let Some(c) = found {
                prop_assert!(
                    within(c.t_lo) && within(c.t_hi) && *t_lo <= c.t_lo && c.t_lo <= c.t_hi,
                    "found [{:?}, {:?}] with t_lo {t_lo:?}, t_max {t_max:?}",
                    c.t_lo,
                    c.t_hi
                );
            }
        }
    }
    for c in &r.at_impact {
        prop_assert!(
            within(c.t_lo) && c.t_lo <= c.t_hi,
            "feature pair [{:?}, {:?}] outside [0, {t_max:?}]",
            c.t_lo,
            c.t_hi
        );
    }
    Ok(())
}

/// No contact of the exact discrete test at evenly spaced times lies before the certified `t_lo`.
fn check_sampling<T: Sc, B: ContinuousVolume<T>>(
    request: &ToiRequest<T>,
    r: &ToiResult<T>,
    scene: &Scene<T, B>,
    ma: &dyn Motion<T>,
    mb: &dyn Motion<T>,
    tally: &mut Tally,
) -> Result<(), TestCaseError> {
    let t_max = request.t_max;
    let first = (0..=SAMPLES)
        .map(|i| T::lit(wide(t_max) * f64::from(i) / f64::from(SAMPLES)).min(t_max))
        .find(|&t| {
            let (pa, pb) = (pose_f64(&ma.pose(t)), pose_f64(&mb.pose(t)));
            // A sample whose relative pose the library refuses is skipped.
            collide(&scene.a64, &pa, &scene.b64, &pb, &CollideRequest::first())
                .is_ok_and(|c| c.is_colliding())
        });
    tally.sampled += 1;
    let Some(s) = first else { return Ok(()) };
    tally.sampled_hits += 1;
    if r.t_lo().is_some_and(|t| t > T::zero()) {
        tally.sampled_after_zero += 1;
    }
    match &r.outcome {
        ToiOutcome::NoContact => Err(TestCaseError::fail(format!(
            "no contact reported, but the discrete test finds one at t = {s:?}"
        ))),
        ToiOutcome::Contact(c) => {
            prop_assert!(
                c.t_lo <= s,
                "t_lo {:?} after the sampled contact at {s:?}",
                c.t_lo
            );
            Ok(())
        }
        ToiOutcome::Undecided { t_lo, .. } => {
            prop_assert!(
                *t_lo <= s,
                "undecided t_lo {t_lo:?} after the sampled contact at {s:?}"
            );
            Ok(())
        }
    }
}

/// Runs `cases` cases (or `PROPTEST_CASES`) from a fixed seed (or `PROPTEST_RNG_SEED`), prints the tally and
/// checks the mix of outcomes.
fn run<T: Sc, B: ContinuousVolume<T>>(name: &str, cases: u32, seed: u64) -> Tally {
    let env = |k: &str| std::env::var(k).ok().and_then(|v| v.parse::<u64>().ok());
    let config = Config {
        cases: env("PROPTEST_CASES").map_or(cases, |c| c as u32),
        rng_seed: RngSeed::Fixed(env("PROPTEST_RNG_SEED").unwrap_or(seed)),
        failure_persistence: None,
        ..Config::default()
    };
    let scene = Scene::<T, B>::new();
    let tally = RefCell::new(Tally::default());
    let mut runner = TestRunner::new(config);
    let outcome = runner.run(&case(), |c| check_case(&c, &scene, &tally));
    let tally = tally.into_inner();
    println!("{name}: {tally:#?}");
    match outcome {
        Ok(()) => {}
        Err(TestError::Fail(why, case)) => panic!("{name}: {why}\nminimal case: {case:#?}"),
        Err(e) => panic!("{name}: {e}"),
    }
    tally
}

/// The cases mixed refusals and in-range queries, and every kind of outcome, in proportions well below those
/// seen (about 55 % refused, 8 % contacts, 25 % no contact, 9 % undecided, 4 % sampled contacts after t = 0).
fn assert_mix(t: &Tally) {
    let n = t.cases;
    assert!(
        t.refused * 4 >= n && t.in_range * 4 >= n,
        "in/out mix: {t:#?}"
    );
    assert!(
        t.contact * 40 >= n
            && t.no_contact * 10 >= n
            && t.undecided * 40 >= n
            && t.sampled_after_zero * 100 >= n,
        "outcome mix: {t:#?}"
    );
}

#[test]
fn restated_limits_match_the_documented_constants() {
    for (t, l) in [(F64_TABLE, Limits::F64), (F32_TABLE, Limits::F32)] {
        assert_eq!(t.length_max, l.length_max);
        assert_eq!(t.length_min, l.length_min);
        assert_eq!(t.angle_max, l.angle_max);
        assert_eq!(t.unit_tolerance, l.unit_tolerance);
    }
}

#[test]
fn f64_obb() {
    assert_mix(&run::<f64, Obb<f64>>("f64 obb", 6000, 0x70_1000));
}

#[test]
fn f64_aabb() {
    assert_mix(&run::<f64, Aabb<f64>>("f64 aabb", 3000, 0x70_1001));
}

#[test]
fn f64_sphere() {
    assert_mix(&run::<f64, Sphere<f64>>("f64 sphere", 3000, 0x70_1002));
}

#[test]
fn f32_obb() {
    assert_mix(&run::<f32, Obb<f32>>("f32 obb", 4000, 0x70_1003));
}

#[test]
fn f32_sphere() {
    assert_mix(&run::<f32, Sphere<f32>>("f32 sphere", 2000, 0x70_1004));
}

// ---------------------------------------------------------------------------------------------------------------
// Findings, reproduced minimally (ignored: they fail until the library changes; run with `--ignored`).

/// Each pose is a supported one, but their difference is not a supported length: the discrete check at t = 0
/// (`collide` → `Pose::relative_checked` → `collide_relative` → `Pose::check`) refuses the relative translation,
/// so `time_of_impact` returns `Err` for inputs its documentation accepts (it documents errors only for an
/// out-of-range request or motion). `ccd_query::collide` behaves alike for two in-range poses.
#[test]
#[ignore = "finding: in-range poses whose relative translation is below length_min (or above length_max) are refused"]
fn in_range_poses_whose_difference_is_below_length_min_are_refused() {
    let scene = Scene::<f64, Obb<f64>>::new();
    let (min, max) = (F64_TABLE.length_min, F64_TABLE.length_max);
    let mut refused = Vec::new();
    for (xa, xb) in [(1.5 * min, min), (0.75 * max, -0.75 * max)] {
        let ma = Static::new(Isometry3::translation(xa, 0.0, 0.0));
        let mb = Static::new(Isometry3::translation(xb, 0.0, 0.0));
        assert!(ma.check_range().is_ok() && mb.check_range().is_ok());
        if let Err(e) = time_of_impact(&scene.a, &ma, &scene.b, &mb, &ToiRequest::default()) {
            refused.push(format!("A at x = {xa:e}, B at x = {xb:e}: {e}"));
        }
    }
    assert!(refused.is_empty(), "{refused:#?}");
}

/// `Screw::new` and `ConstantRotationTranslation::new` build interval matrices from the start rotation and the
/// axis (`AxisFrame::new`) and panic on a non-finite one (`Interval::new(NaN, NaN): lo > hi or NaN`, or
/// `scalar operand inf must be finite`), so the `RangeError` that `time_of_impact` would give
/// (`Motion::check_range`) is never reached. `Interp::new` panics likewise on a start quaternion with a huge
/// component (its short arc's axis is NaN); with a NaN end rotation it builds, and `Static::new` (control) too,
/// and both are refused by `time_of_impact`. The CLI reaches the panic: `parse_pose` accepts `0,0,0,1e200,1e200,0` with a NaN rotation
/// (see `crates/ccd-cli/tests/args_fuzz.rs`).
#[test]
#[ignore = "finding: motion constructors panic on a NaN or infinite rotation or axis instead of leaving it to check_range"]
fn motion_constructors_panic_on_a_nan_rotation() {
    let nan = UnitQuaternion::new_unchecked(Quaternion::new(f64::NAN, 0.0, 0.0, 0.0));
    let bad_start = Isometry3::from_parts(Translation3::identity(), nan);
    let id = Isometry3::identity();
    let z = Vector3::z_axis();
    let bad_axis = Unit::new_unchecked(Vector3::new(f64::INFINITY, 0.0, 0.0));
    type Build = Box<dyn Fn() -> Box<dyn Motion<f64>>>;
    let huge = UnitQuaternion::new_unchecked(Quaternion::new(1.0, 0.0, 0.0, f64::MAX));
    let huge_start = Isometry3::from_parts(Translation3::identity(), huge);
    let tilted = Isometry3::from_parts(
        Translation3::identity(),
        UnitQuaternion::new_unchecked(Quaternion::new(1.0, 0.0, 1f64.next_up(), 0.0)),
    );
    let builds: [(&str, Build); 6] = [
        (
            "Screw::new, NaN start rotation",
            Box::new(move || Box::new(Screw::new(bad_start, z, Point3::origin(), 1.0, 0.0))),
        ),
        (
            "Screw::new, infinite axis",
            Box::new(move || Box::new(Screw::new(id, bad_axis, Point3::origin(), 1.0, 0.0))),
        ),
        (
            "ConstantRotationTranslation::new, NaN start rotation",
            Box::new(move || {
                Box::new(ConstantRotationTranslation::new(
                    bad_start,
                    z,
                    1.0,
                    Vector3::zeros(),
                ))
            }),
        ),
        (
            "Interp::new, start quaternion (1, 0, 0, f64::MAX), end (1, 0, 1 + ulp, 0)",
            Box::new(move || Box::new(Interp::new(huge_start, tilted))),
        ),
        (
            "Interp::new, NaN end rotation (control: refused by time_of_impact)",
            Box::new(move || Box::new(Interp::new(id, bad_start))),
        ),
        (
            "Static::new, NaN rotation (control: refused by time_of_impact)",
            Box::new(move || Box::new(Static::new(bad_start))),
        ),
    ];
    let scene = Scene::<f64, Obb<f64>>::new();
    let mut panics = Vec::new();
    for (name, build) in &builds {
        match std::panic::catch_unwind(std::panic::AssertUnwindSafe(build)) {
            Ok(m) => {
                let still = Static::new(Isometry3::translation(5.0, 0.0, 0.0));
                let r = time_of_impact(&scene.a, &*m, &scene.b, &still, &ToiRequest::default());
                assert!(r.is_err(), "{name}: accepted");
            }
            Err(p) => panics.push(format!("{name}: {}", panic_message(p.as_ref()))),
        }
    }
    assert!(panics.is_empty(), "{panics:#?}");
}

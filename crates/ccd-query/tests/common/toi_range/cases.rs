//! The cases: two motions of any of the five kinds and a request, each scalar tame or, where a per-case mask
//! says so, wild.

use ccd_query::{ToiBudget, ToiMode, ToiRequest};
use proptest::prelude::*;

use super::limits::{Sc, Table};
use super::params::Params;

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

/// One case: two motions' kinds and parameters, and a request.
#[derive(Clone, Debug)]
pub struct Case {
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

/// The cases (see the [module](super)).
pub fn case() -> impl Strategy<Value = Case> {
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

    /// Motion `m`'s parameters (0: A, 1: B).
    pub fn params<T: Sc>(&self, m: usize) -> Params<T> {
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
    /// The request.
    pub fn request<T: Sc>(&self) -> ToiRequest<T> {
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

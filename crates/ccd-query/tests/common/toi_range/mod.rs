//! `time_of_impact` over the whole input range, as a seeded property test (the CI counterpart of the cargo-fuzz
//! target `fuzz/fuzz_targets/toi_motions.rs`): the generators, the restated limits and the property, shared by
//! `tests/toi_range.rs` (the property runs) and `tests/toi_range_regressions.rs` (minimal reproductions).
//!
//! Each case draws two motions of any of the five kinds and a request ([`cases`]). Every scalar parameter is
//! either a tame value of a small scene (two icospheres, [`scene`]) or, where a per-case mask says so, a wild one:
//! a random bit pattern (NaN, infinities, subnormals, huge and tiny magnitudes), an IEEE special, or a value at,
//! one or two ulps inside or outside a documented limit (length max and min, angle max, the time interval's
//! ends). Unit quaternions and axes are also scaled to just inside or just outside the unit tolerance, and both
//! bodies' positions are, in a fifth of the cases, moved to the small end of the length range or far out towards
//! its top. Budgets are small (up to 2,000 volume and primitive tests).
//!
//! Checked for every case ([`check`]):
//! - no panic, neither in constructing the motions (whatever their parameters) nor in `time_of_impact`;
//! - `Err` exactly when the test's own restatement of the limits table of `ccd_interval::limits` ([`limits`],
//!   [`params::Params::verdict`], [`params::request_verdict`]; it calls none of the library's check functions)
//!   says some parameter that the motion kind or the request uses is out of range, and the error names the first
//!   such part (request, motion of model a, motion of model b). The rule is about the inputs: the relative pose of
//!   two in-range poses (which the discrete check at t = 0 derives) is never refused, whether its translation is
//!   tiny or up to `2·√3·length_max` ([`limits::derived_length`], checked on the test's own evaluation);
//! - with `Ok`: at most `budget.volume_tests + 1` volume tests (or those of the discrete check at t = 0 when it
//!   alone uses more), primitive tests within the budget plus one leaf pair's bisection, and every reported time
//!   in `[0, t_max]`;
//! - for in-range cases of moderate size: no contact found by the exact discrete `collide` at 129 evenly spaced
//!   times of `[0, t_max]` lies before the reported certified `t_lo` (and none at all when the answer is
//!   `NoContact`), as `toi_sampling.rs` checks on tame scenes.

pub mod cases;
pub mod check;
pub mod limits;
pub mod params;
pub mod scene;

//! `time_of_impact` over the whole input range, as seeded property tests (the generators, the restated limits
//! and the property are in `common/toi_range/`, which describes what each case checks).
//!
//! Case counts (fixed seeds; `PROPTEST_CASES` overrides the count for soak runs, `PROPTEST_RNG_SEED` the seed):
//! f64 OBB 6,000, f64 AABB 3,000, f64 sphere 3,000, f32 OBB 4,000, f32 sphere 2,000 (18,000 in all, a few seconds
//! in the test profile on two cores).

mod common;

use ccd_bv::{Aabb, Limits, Obb, Sphere};
use common::toi_range::check::{assert_mix, run};
use common::toi_range::limits::{F32_TABLE, F64_TABLE};

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

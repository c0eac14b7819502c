//! Any bytes → a vertex array (as `f64`, and rounded to `f32`) and triangle indices → `ccd::Model::new` for
//! OBB, AABB and sphere trees must return `Ok` or the typed error, never panic. The error is the one the
//! documented range predicts (checked against the test's own restatement of the limits table); an accepted
//! model collides with itself at the identity exactly as the brute-force all-pairs test says.
//!
//! Input: byte 0 → vertex count (1 + b % 24), byte 1 → triangle count (1 + b % 24), bytes 2–3 → a mesh
//! exponent E (`i16`, clamped to ±1100), then one tagged value per coordinate (see [`Bytes::coordinate`]), then
//! three index bytes per triangle (255: an index past the end, otherwise `b % vertex count`). Missing bytes read
//! as zero.

#![no_main]

use std::collections::BTreeSet;

use ccd::nalgebra::Isometry3;
use ccd::{
    Aabb, BoundingVolume, BuildError, CollideRequest, Error, Model, Obb, Pose, Real, Sphere,
};
use ccd_query::{ContactPair, collide_brute_force};
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

    fn u64(&mut self) -> u64 {
        (0..8).fold(0u64, |v, _| (v << 8) | u64::from(self.u8()))
    }

    /// One coordinate: tag < 200 → a small integer (`tag − 100`) times 2^E (so whole meshes sit at any scale,
    /// overflowing to infinity or underflowing to zero past the f64 range); 200..240 → raw f64 bits; 240.. → a
    /// value at or just beyond a documented limit.
    fn coordinate(&mut self, exponent: i32) -> f64 {
        let tag = self.u8();
        match tag {
            0..200 => {
                // 2^E as two factors so that products reach the subnormal range instead of flushing early.
                let half = exponent / 2;
                f64::from(i32::from(tag) - 100) * 2f64.powi(half) * 2f64.powi(exponent - half)
            }
            200..240 => f64::from_bits(self.u64()),
            _ => SPECIAL[usize::from(tag - 240)],
        }
    }
}

/// Values at and just beyond the documented limits of both scalar types, and IEEE specials.
const SPECIAL: [f64; 16] = [
    f64::from_bits(0x47F0_0000_0000_0000), // f64 length_max 2^128
    f64::from_bits(0x47F0_0000_0000_0001), // the next f64 above it
    f64::from_bits(0xC7F0_0000_0000_0000), // -2^128
    f64::from_bits(0x3370_0000_0000_0000), // f64 length_min 2^-200
    f64::from_bits(0x336F_FFFF_FFFF_FFFF), // the f64 just below it
    f64::from_bits(0x37F0_0000_0000_0000), // f64 scale_min 2^-128
    f64::from_bits(0x4270_0000_0000_0000), // f32 length_max 2^40
    1_099_511_627_776.5,                   // above 2^40, rounds to it in f32
    1_099_511_758_848.0,                   // the next f32 above 2^40
    f64::from_bits(0x39B0_0000_0000_0000), // f32 length_min 2^-100
    f64::from_bits(0x3D70_0000_0000_0000), // f32 scale_min 2^-40
    f64::MIN_POSITIVE,
    5e-324,
    f64::NAN,
    f64::INFINITY,
    -0.0,
];

/// The documented rule for vertex arrays, restated: every coordinate finite and zero or of magnitude in
/// `[length_min, length_max]`; the largest magnitude at least `scale_min`.
fn expected<T: Real>(v: &[[T; 3]]) -> Expect {
    let (max, min, scale_min) = if T::NAME == "f32" {
        (2f64.powi(40), 2f64.powi(-100), 2f64.powi(-40))
    } else {
        (2f64.powi(128), 2f64.powi(-200), 2f64.powi(-128))
    };
    let mut scale = 0.0f64;
    for c in v.iter().flatten() {
        let a = c.to_f64_exact().abs();
        if !(a <= max && (a == 0.0 || a >= min)) {
            return Expect::Vertex;
        }
        scale = scale.max(a);
    }
    if scale < scale_min {
        Expect::Scale
    } else {
        Expect::Ok
    }
}

#[derive(Debug, PartialEq)]
enum Expect {
    Ok,
    Vertex,
    Scale,
}

fn check<T: Real, B: BoundingVolume<T>>(v: &[[T; 3]], tris: &[[u32; 3]]) {
    let bad_index = tris.iter().flatten().any(|&i| i as usize >= v.len());
    let want = expected(v);
    match Model::<T, B>::new(v.to_vec(), tris) {
        Ok(model) => {
            assert!(
                want == Expect::Ok && !bad_index,
                "built {want:?} (bad index: {bad_index})"
            );
            let id = Isometry3::<T>::identity();
            let got: BTreeSet<ContactPair> =
                ccd::collide(&model, &id, &model, &id, &CollideRequest::all())
                    .expect("the identity pose is in range")
                    .contacts
                    .into_iter()
                    .collect();
            let truth: BTreeSet<ContactPair> =
                collide_brute_force(&model, &model, &Pose::identity())
                    .into_iter()
                    .collect();
            assert_eq!(got, truth, "collide differs from brute force");
        }
        Err(Error::Build(BuildError::VertexOutOfRange { .. })) => {
            assert_eq!(want, Expect::Vertex)
        }
        Err(Error::Build(BuildError::ScaleOutOfRange(_))) => assert_eq!(want, Expect::Scale),
        Err(Error::Build(BuildError::FaceIndexOutOfRange { .. })) => {
            assert!(want == Expect::Ok && bad_index)
        }
        Err(e) => panic!("unexpected error {e}"),
    }
}

fn check_all<T: Real>(v: &[[T; 3]], tris: &[[u32; 3]]) {
    check::<T, Obb<T>>(v, tris);
    check::<T, Aabb<T>>(v, tris);
    check::<T, Sphere<T>>(v, tris);
}

fuzz_target!(|data: &[u8]| {
    let mut bytes = Bytes(data);
    let nv = 1 + usize::from(bytes.u8() % 24);
    let nt = 1 + usize::from(bytes.u8() % 24);
    let exponent = i32::from(i16::from_le_bytes([bytes.u8(), bytes.u8()])).clamp(-1100, 1100);
    let v64: Vec<[f64; 3]> = (0..nv)
        .map(|_| [0; 3].map(|_| bytes.coordinate(exponent)))
        .collect();
    let tris: Vec<[u32; 3]> = (0..nt)
        .map(|_| {
            [0; 3].map(|_| match bytes.u8() {
                255 => nv as u32,
                b => u32::from(b) % nv as u32,
            })
        })
        .collect();
    check_all::<f64>(&v64, &tris);
    let v32: Vec<[f32; 3]> = v64.iter().map(|p| p.map(|x| x as f32)).collect();
    check_all::<f32>(&v32, &tris);
});

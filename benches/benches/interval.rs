//! Cost of the interval primitives of `ccd-interval` (outward rounding
//! included): add, sign-mixed multiply, sin/cos, `IVec3` cross product and
//! `IMat3 · IVec3`, in `f64` and `f32`.
//!
//! Each benchmark runs one operation over a set of 1024 precomputed operands
//! (seeded, so runs are comparable); criterion reports time per set and
//! throughput in operations. The multiply operands mix all sign cases
//! (positive, negative, straddling zero), the case the interval product of
//! Jørgensen 2006 (`interval.h`) got wrong.

use std::hint::black_box;

use ccd_interval::nalgebra::Vector3;
use ccd_interval::{IMat3, IVec3, Interval, Real};
use criterion::{Criterion, Throughput};

/// Operands per set.
const N: usize = 1024;

/// A small deterministic generator (SplitMix64), uniform in `[lo, hi)`.
struct Rng(u64);

impl Rng {
    fn next(&mut self, lo: f64, hi: f64) -> f64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^= z >> 31;
        lo + (hi - lo) * ((z >> 11) as f64 / (1u64 << 53) as f64)
    }

    /// An interval of the given sign class: 0 positive, 1 negative, 2
    /// straddling zero.
    fn interval<T: Real>(&mut self, class: usize) -> Interval<T> {
        let (a, w) = (self.next(0.1, 4.0), self.next(0.0, 1.0));
        let (lo, hi) = match class % 3 {
            0 => (a, a + w),
            1 => (-a - w, -a),
            _ => (-a, w + 0.05),
        };
        Interval::new(T::lit(lo), T::lit(hi))
    }

    fn ivec<T: Real>(&mut self, i: usize) -> IVec3<T> {
        IVec3::new(self.interval(i), self.interval(i + 1), self.interval(i + 2))
    }
}

fn operands<T: Real>() -> (Vec<Interval<T>>, Vec<Interval<T>>) {
    let mut rng = Rng(0x5eed);
    // Classes of `b` cycle at a different rate, so every pairing occurs.
    let a = (0..N).map(|i| rng.interval(i)).collect();
    let b = (0..N).map(|i| rng.interval(i / 3)).collect();
    (a, b)
}

fn scalar_ops<T: Real>(c: &mut Criterion) {
    let (a, b) = operands::<T>();
    let mut g = c.benchmark_group(format!("interval/{}", T::NAME));
    g.throughput(Throughput::Elements(N as u64));
    g.bench_function("add", |bench| {
        bench.iter(|| {
            for (x, y) in black_box(&a).iter().zip(black_box(&b)) {
                black_box(*x + *y);
            }
        })
    });
    g.bench_function("mul_mixed_signs", |bench| {
        bench.iter(|| {
            for (x, y) in black_box(&a).iter().zip(black_box(&b)) {
                black_box(*x * *y);
            }
        })
    });
    g.bench_function("mul_real", |bench| {
        bench.iter(|| {
            for (x, y) in black_box(&a).iter().zip(black_box(&b)) {
                black_box(*x * y.lo());
            }
        })
    });
    g.bench_function("sin_cos", |bench| {
        bench.iter(|| {
            for x in black_box(&a) {
                black_box((x.sin(), x.cos()));
            }
        })
    });
    g.finish();
}

fn vector_ops<T: Real>(c: &mut Criterion) {
    let mut rng = Rng(0xc0ffee);
    let u: Vec<IVec3<T>> = (0..N).map(|i| rng.ivec(i)).collect();
    let v: Vec<IVec3<T>> = (0..N).map(|i| rng.ivec(i / 3)).collect();
    let m: Vec<IMat3<T>> = (0..N)
        .map(|i| IMat3 {
            m: [
                rng.ivec(i).to_array(),
                rng.ivec(i + 1).to_array(),
                rng.ivec(i + 2).to_array(),
            ],
        })
        .collect();
    let p: Vec<Vector3<T>> = (0..N)
        .map(|_| Vector3::from_fn(|_, _| T::lit(rng.next(-2.0, 2.0))))
        .collect();
    let mut g = c.benchmark_group(format!("interval_linalg/{}", T::NAME));
    g.throughput(Throughput::Elements(N as u64));
    g.bench_function("ivec3_cross", |bench| {
        bench.iter(|| {
            for (x, y) in black_box(&u).iter().zip(black_box(&v)) {
                black_box(x.cross(y));
            }
        })
    });
    g.bench_function("imat3_mul_ivec3", |bench| {
        bench.iter(|| {
            for (a, x) in black_box(&m).iter().zip(black_box(&v)) {
                black_box(a.mul_vec(x));
            }
        })
    });
    g.bench_function("imat3_mul_real_vec", |bench| {
        bench.iter(|| {
            for (a, x) in black_box(&m).iter().zip(black_box(&p)) {
                black_box(a.mul_real_vec(x));
            }
        })
    });
    g.finish();
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    scalar_ops::<f64>(&mut c);
    scalar_ops::<f32>(&mut c);
    vector_ops::<f64>(&mut c);
    vector_ops::<f32>(&mut c);
    c.final_summary();
}

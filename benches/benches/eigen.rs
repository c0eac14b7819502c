//! Cost of the symmetric 3×3 eigen-decomposition behind every split axis and
//! OBB frame of a tree build: `ccd_bv::fit::principal_axes` (closed form),
//! its batched form `principal_axes_many` (eight matrices at a time in AVX
//! registers where the processor has them, the same results bit for bit) and
//! nalgebra's iterative `SymmetricEigen`, over 1024 seeded covariance
//! matrices: random ones, and rotated spectra with a repeated eigenvalue (the
//! symmetric nodes of sphere meshes). Criterion reports time per set and
//! throughput in decompositions.

use std::hint::black_box;

use ccd_interval::nalgebra::{Matrix3, Rotation3, SymmetricEigen, Vector3};
use ccd_testkit::SplitMix64;
use criterion::{Criterion, Throughput};

/// Matrices per set.
const N: usize = 1024;

/// `N` covariance matrices `R·diag(λ)·Rᵀ`: random positive spectra, or (with
/// `repeated`) two equal eigenvalues.
fn matrices(seed: u64, repeated: bool) -> Vec<Matrix3<f64>> {
    let mut rng = SplitMix64::new(seed);
    (0..N)
        .map(|_| {
            let axis = Vector3::new(
                rng.range(-3.0, 3.0),
                rng.range(-3.0, 3.0),
                rng.range(-3.0, 3.0),
            );
            let r = Rotation3::new(axis);
            let (a, b) = (rng.range(0.1, 2.0), rng.range(0.1, 2.0));
            let l = Vector3::new(a + b, if repeated { b } else { rng.range(0.0, b) }, b * 0.1);
            r.matrix() * Matrix3::from_diagonal(&l) * r.matrix().transpose()
        })
        .collect()
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    let mut group = c.benchmark_group("eigen3");
    group.throughput(Throughput::Elements(N as u64));
    for (name, repeated) in [("random", false), ("repeated", true)] {
        let ms = matrices(7, repeated);
        group.bench_function(format!("principal_axes/{name}"), |b| {
            b.iter(|| {
                ms.iter()
                    .map(|m| ccd_bv::fit::principal_axes(black_box(m))[(0, 0)])
                    .sum::<f64>()
            })
        });
        let mut out = Vec::with_capacity(N);
        group.bench_function(format!("principal_axes_many/{name}"), |b| {
            b.iter(|| {
                out.clear();
                ccd_bv::fit::principal_axes_many(black_box(&ms), &mut out);
                out.iter().map(|(a, _)| a[(0, 0)]).sum::<f64>()
            })
        });
        group.bench_function(format!("nalgebra_symmetric_eigen/{name}"), |b| {
            b.iter(|| {
                ms.iter()
                    .map(|m| SymmetricEigen::new(*black_box(m)).eigenvectors[(0, 0)])
                    .sum::<f64>()
            })
        });
    }
    group.finish();
    c.final_summary();
}

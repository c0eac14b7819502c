//! Cost of the certified linear-trajectory CCD tests (`ccd_query::primitive::ccd_vertex_face_linear`,
//! `ccd_edge_edge_linear`) on the benchmark-format queries of `ccd_testkit::linear_ccd`.
//!
//! Three fixed sets of 512 queries per primitive, at the default request (tolerance `1e-6`):
//! - `hits`: constructed contacts at dyadic times, including exactly `t = 0` and `t = 1`;
//! - `near_misses`: those contacts shifted by `±2^-k` per coordinate, `k` in `4..=40`;
//! - `degenerate`: coplanar motion, static, parallel, zero-area / zero-length and sliding queries.
//!
//! Criterion reports the time per set and the throughput in queries. Before that, each query is timed on its
//! own (best of 16 runs) and the median and 90th percentile per set are printed, with the share of queries
//! reported as contact (false-positive rates against the exact oracle are printed by
//! `cargo test -p ccd-query --test linear_ccd -- --nocapture`).

use std::hint::black_box;
use std::time::Instant;

use ccd_query::primitive::{
    LinearCcdRequest, LinearCcdResult, ccd_edge_edge_linear, ccd_vertex_face_linear,
};
use ccd_testkit::SplitMix64;
use ccd_testkit::linear_ccd::{Family, Query, query};
use criterion::{Criterion, Throughput};

/// Queries per set.
const N: usize = 512;

fn set(families: &[Family], edge_edge: bool, seed: u64) -> Vec<Query> {
    let mut rng = SplitMix64::new(seed);
    (0..N)
        .map(|i| query(&mut rng, families[i % families.len()], edge_edge))
        .collect()
}

fn run(edge_edge: bool, q: &Query, req: &LinearCcdRequest<f64>) -> LinearCcdResult<f64> {
    let [a, b, c, d] = *q;
    if edge_edge {
        ccd_edge_edge_linear(a, b, c, d, req)
    } else {
        ccd_vertex_face_linear(a, b, c, d, req)
    }
}

fn per_query_report(name: &str, edge_edge: bool, qs: &[Query], req: &LinearCcdRequest<f64>) {
    let mut times: Vec<f64> = qs
        .iter()
        .map(|q| {
            (0..16)
                .map(|_| {
                    let start = Instant::now();
                    black_box(run(edge_edge, black_box(q), req));
                    start.elapsed().as_secs_f64()
                })
                .fold(f64::INFINITY, f64::min)
        })
        .collect();
    times.sort_by(f64::total_cmp);
    let contacts = qs
        .iter()
        .filter(|q| run(edge_edge, q, req).is_contact())
        .count();
    let boxes: usize = qs.iter().map(|q| run(edge_edge, q, req).iterations).sum();
    eprintln!(
        "linear_ccd/{name}: median {:.2} µs, p90 {:.2} µs, max {:.2} µs per query; {:.1} % contact; {:.1} boxes/query",
        times[times.len() / 2] * 1e6,
        times[times.len() * 9 / 10] * 1e6,
        times[times.len() - 1] * 1e6,
        100.0 * contacts as f64 / qs.len() as f64,
        boxes as f64 / qs.len() as f64,
    );
}

fn main() {
    let mut criterion = Criterion::default().configure_from_args();
    let req = LinearCcdRequest::default();
    let sets: [(&str, &[Family]); 3] = [
        (
            "hits",
            &[Family::Hit, Family::ContactAtStart, Family::ContactAtEnd],
        ),
        ("near_misses", &[Family::NearMiss, Family::NearMissTiny]),
        (
            "degenerate",
            &[
                Family::CoplanarMotion,
                Family::Static,
                Family::Parallel,
                Family::Degenerate,
                Family::Sliding,
            ],
        ),
    ];
    for edge_edge in [false, true] {
        let prim = if edge_edge {
            "edge_edge"
        } else {
            "vertex_face"
        };
        for (i, (label, families)) in sets.iter().enumerate() {
            let qs = set(families, edge_edge, 0xbe_0000 + i as u64);
            per_query_report(&format!("{prim}/{label}"), edge_edge, &qs, &req);
            let mut group = criterion.benchmark_group(format!("linear_ccd/{prim}"));
            group.throughput(Throughput::Elements(N as u64));
            group.bench_function(*label, |bench| {
                bench.iter(|| {
                    qs.iter()
                        .filter(|q| run(edge_edge, black_box(q), &req).is_contact())
                        .count()
                })
            });
            group.finish();
        }
    }
    criterion.final_summary();
}

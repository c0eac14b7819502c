//! `cargo xtask`: ccd's benchmark suites reproducing the experiments of
//! Gottschalk's thesis, Ch. 5.
//!
//! - `cargo xtask bench-proximity`: parallel close proximity (Fig. 5.11,
//!   Fig. 5.17 with `--levels`);
//! - `cargo xtask bench-transverse`: transverse contact against tessellation
//!   density (Figs. 5.21–5.23);
//! - `cargo xtask bench-archive`: build, save, validated and unchecked
//!   memory-mapped open, and first-query latency of `.bvh` files;
//! - `cargo xtask bench-build`: build time of OBB trees (40,000 triangles on
//!   one thread, 327,680 on two);
//! - `cargo xtask bench-ccd`: continuous collision (time of impact) against
//!   analytic oracles and dense discrete sampling;
//! - `cargo xtask bench-distance`: distance and tolerance queries in parallel
//!   close proximity and transverse contact;
//! - `cargo xtask bench-sliding`: the sliding sphere, contacts, BV tests and
//!   time against position (Figs. 5.4–5.8);
//! - `cargo xtask bench-overlap`: cost of one overlap test per BV type on
//!   volume pairs recorded from real traversals (Tables 5.1/5.2);
//! - `cargo xtask tidy`: the house rules (layering, CLI on the façade, file
//!   lengths, citations) as a check.
//!
//! Every suite prints a stamped header (host, revision, seed), CSV rows on
//! stdout and in `--out`, a comparison block against the thesis numbers, SVG
//! plots and, with `--json`, a machine-readable summary.

mod bench;
mod fit;
mod flags;
mod mesh;
mod plot;
mod report;
mod stats;
mod tidy;

use std::process::ExitCode;

use clap::Parser;

use crate::flags::{Cli, Command};

fn main() -> ExitCode {
    let cli = Cli::parse();
    let outcome = match cli.command {
        Command::BenchProximity(flags) => bench::proximity::run(&flags),
        Command::BenchTransverse(flags) => bench::transverse::run(&flags),
        Command::BenchArchive(flags) => bench::archive::run(&flags),
        Command::BenchBuild(flags) => bench::build::run(&flags),
        Command::BenchCcd(flags) => bench::ccd::run(&flags),
        Command::BenchDistance(flags) => bench::distance::run(&flags),
        Command::Tidy => tidy::run(),
        Command::BenchSliding(flags) => bench::sliding::run(&flags),
        Command::BenchOverlap(flags) => bench::overlap::run(&flags),
    };
    match outcome {
        Ok(bench::Verdict::Pass) => ExitCode::SUCCESS,
        Ok(bench::Verdict::Fail(why)) => {
            eprintln!("xtask: hard check failed: {why}");
            ExitCode::FAILURE
        }
        Err(e) => {
            eprintln!("xtask: error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

//! `ccd distance A B` and `ccd within A B --tolerance D`: how far apart two placed models are, and whether they
//! are closer than a tolerance.

use std::io::Write;

use anyhow::Result;
use ccd::{BoundingVolume, Closest, DistanceOutcome, DistanceRequest, Real, ToleranceOutcome};
use serde_json::{Value, json};

use super::{Input, Typed, models, resolve_kind, with_types};
use crate::args::{DistanceArgs, WithinArgs};

/// What either command found, widened to `f64` for printing.
struct Report {
    /// The closest pair (distance) or the witness (within), if any.
    pair: Option<Closest<f64>>,
    /// `distance`: "beyond max_distance"; `within`: not within.
    beyond: bool,
    /// Counters as `(name, value)`.
    stats: Vec<(&'static str, u64)>,
}

fn widen<T: Real>(c: &Closest<T>) -> Closest<f64> {
    Closest {
        distance: c.distance.to_f64_exact(),
        point_a: c.point_a.map(Real::to_f64_exact),
        point_b: c.point_b.map(Real::to_f64_exact),
        tri_a: c.tri_a,
        tri_b: c.tri_b,
    }
}

fn pair_json(c: &Closest<f64>) -> Value {
    json!({
        "distance": c.distance,
        "point_a": c.point_a,
        "point_b": c.point_b,
        "tri_a": c.tri_a,
        "tri_b": c.tri_b,
    })
}

fn print_pair(out: &mut dyn Write, c: &Closest<f64>) -> Result<()> {
    writeln!(out, "triangles {} {}", c.tri_a, c.tri_b)?;
    let ([ax, ay, az], [bx, by, bz]) = (c.point_a, c.point_b);
    writeln!(out, "point_a {ax} {ay} {az}")?;
    writeln!(out, "point_b {bx} {by} {bz}")?;
    Ok(())
}

fn print_stats(out: &mut dyn Write, r: &Report, kind: impl std::fmt::Display) -> Result<()> {
    let s: Vec<String> = r.stats.iter().map(|(k, v)| format!("{k} {v}")).collect();
    writeln!(out, "{} ({kind})", s.join(", "))?;
    Ok(())
}

fn stats_json(r: &Report) -> Value {
    Value::Object(
        r.stats
            .iter()
            .map(|(k, v)| ((*k).to_owned(), json!(v)))
            .collect(),
    )
}

/// Runs `ccd distance`.
pub fn run_distance(args: &DistanceArgs, out: &mut dyn Write) -> Result<()> {
    let (a, b) = (Input::read(&args.a)?, Input::read(&args.b)?);
    let kind = resolve_kind(&args.tree, &a, &b)?;
    let r = with_types(kind, DistanceJob { args, a, b })?;
    if args.json {
        let value = json!({
            "beyond": r.beyond.then_some(args.max_distance).flatten(),
            "closest": r.pair.as_ref().map(pair_json),
            "stats": stats_json(&r),
            "scalar": kind.scalar.name(),
            "bv": kind.bv.name(),
        });
        writeln!(out, "{value}")?;
    } else {
        match &r.pair {
            Some(c) => {
                writeln!(out, "distance {}", c.distance)?;
                print_pair(out, c)?;
            }
            None => writeln!(
                out,
                "farther than {}",
                args.max_distance.unwrap_or(f64::INFINITY)
            )?,
        }
        print_stats(out, &r, kind)?;
    }
    Ok(())
}

/// Runs `ccd within`.
pub fn run_within(args: &WithinArgs, out: &mut dyn Write) -> Result<()> {
    let (a, b) = (Input::read(&args.a)?, Input::read(&args.b)?);
    let kind = resolve_kind(&args.tree, &a, &b)?;
    let r = with_types(kind, WithinJob { args, a, b })?;
    if args.json {
        let value = json!({
            "within": !r.beyond,
            "tolerance": args.tolerance,
            "witness": r.pair.as_ref().map(pair_json),
            "stats": stats_json(&r),
            "scalar": kind.scalar.name(),
            "bv": kind.bv.name(),
        });
        writeln!(out, "{value}")?;
    } else {
        match &r.pair {
            Some(c) => {
                writeln!(
                    out,
                    "within {} (a pair {} apart)",
                    args.tolerance, c.distance
                )?;
                print_pair(out, c)?;
            }
            None => writeln!(out, "not within {}", args.tolerance)?,
        }
        print_stats(out, &r, kind)?;
    }
    Ok(())
}

struct DistanceJob<'a> {
    args: &'a DistanceArgs,
    a: Input,
    b: Input,
}

impl Typed for DistanceJob<'_> {
    type Output = Result<Report>;

    fn run<T: Real, B: BoundingVolume<T>>(self) -> Result<Report> {
        let (a, b) = models::<T, B>(self.a, self.b, &self.args.tree)?;
        let request = DistanceRequest {
            rel_err: T::lit(self.args.rel_err),
            abs_err: T::lit(self.args.abs_err),
            max_distance: self.args.max_distance.map(T::lit),
            ..DistanceRequest::default()
        };
        let r = ccd::distance(
            &a,
            &self.args.poses.isometry(self.args.pose_a),
            &b,
            &self.args.poses.isometry(self.args.pose_b),
            &request,
        )?;
        let s = r.stats;
        Ok(Report {
            pair: match &r.outcome {
                DistanceOutcome::Closest(c) => Some(widen(c)),
                DistanceOutcome::Beyond(_) => None,
            },
            beyond: matches!(r.outcome, DistanceOutcome::Beyond(_)),
            stats: vec![
                ("bv_tests", s.bv_tests),
                ("primitive_tests", s.primitive_tests),
                ("queue_pushes", s.queue_pushes),
                ("queue_peak", s.queue_peak),
            ],
        })
    }
}

struct WithinJob<'a> {
    args: &'a WithinArgs,
    a: Input,
    b: Input,
}

impl Typed for WithinJob<'_> {
    type Output = Result<Report>;

    fn run<T: Real, B: BoundingVolume<T>>(self) -> Result<Report> {
        let (a, b) = models::<T, B>(self.a, self.b, &self.args.tree)?;
        let tolerance = T::lit(self.args.tolerance);
        let r = ccd::within_distance(
            &a,
            &self.args.poses.isometry(self.args.pose_a),
            &b,
            &self.args.poses.isometry(self.args.pose_b),
            tolerance,
        )?;
        let s = r.stats;
        Ok(Report {
            pair: match &r.outcome {
                ToleranceOutcome::Within(c) => Some(widen(c)),
                ToleranceOutcome::Beyond => None,
            },
            beyond: !r.is_within(),
            stats: vec![("bv_tests", s.bv_tests), ("tri_tests", s.tri_tests)],
        })
    }
}

//! `ccd toi A B --motion-a M --motion-b M`: the conservative first time of contact of two moving models.

use std::io::Write;

use anyhow::{Result, bail};
use ccd::ContinuousVolume;
use ccd::motion::{ConstantRotationTranslation, Interp, Motion, Screw, Static, Translation};
use ccd::nalgebra::{Point3, Unit, Vector3};
use ccd::{Feature, Real, ToiBudget, ToiOutcome, ToiRequest, ToiResult};
use serde_json::json;

use super::{Input, Typed, models, resolve_kind, with_types};
use crate::args::{MotionArg, PoseArg, PoseFormat, ToiArgs};

/// Runs `ccd toi`.
pub fn run(args: &ToiArgs, out: &mut dyn Write) -> Result<()> {
    for (which, motion, pose) in [
        ('a', &args.motion_a, &args.pose_a),
        ('b', &args.motion_b, &args.pose_b),
    ] {
        if matches!(motion, MotionArg::Interp(..)) && pose.is_some() {
            bail!(
                "--motion-{which} interp:POSE0;POSE1 gives its own start pose; drop --pose-{which}"
            );
        }
    }
    let a = Input::read(&args.a)?;
    let b = Input::read(&args.b)?;
    let kind = resolve_kind(&args.tree, &a, &b)?;
    let report = with_types(kind, Job { args, a, b })?;
    let t_max = args.t_max;
    if args.json {
        let toi = report.toi.as_ref().map(|t| {
            json!({
                "t_lo": t.t_lo,
                "t_hi": t.t_hi,
                "separation": t.separation,
                "tri_a": t.tri_a,
                "tri_b": t.tri_b,
                "feature": feature_json(t.feature),
                "point": t.point,
                "normal": t.normal,
            })
        });
        let s = &report.stats;
        let value = json!({
            "outcome": match report.undecided_from {
                Some(_) => "undecided",
                None if report.toi.is_some() => "contact",
                None => "no-contact",
            },
            "contact": report.toi.is_some() && report.undecided_from.is_none(),
            "undecided_t_lo": report.undecided_from,
            "toi": toi,
            "t_max": t_max,
            "tolerance": args.tolerance,
            "stats": {
                "bv_tests": s.bv_tests,
                "primitive_tests": s.primitive_tests,
                "queue_pushes": s.queue_pushes,
                "motion_enclosures": s.motion_enclosures,
            },
            "scalar": kind.scalar.name(),
            "bv": kind.bv.name(),
        });
        writeln!(out, "{value}")?;
    } else {
        if let Some(t_lo) = report.undecided_from {
            writeln!(
                out,
                "undecided within the budget: no contact before {t_lo:.9}"
            )?;
            if report.toi.is_some() {
                writeln!(
                    out,
                    "a contact found so far (an earlier one is not excluded):"
                )?;
            }
        }
        match &report.toi {
            Some(t) => {
                writeln!(out, "{:.9} {:.9}", t.t_lo, t.t_hi)?;
                writeln!(
                    out,
                    "separation at most {:e} within the bracket",
                    t.separation
                )?;
                writeln!(out, "triangles {} {}", t.tri_a, t.tri_b)?;
                writeln!(out, "feature {}", t.feature)?;
                let [px, py, pz] = t.point;
                let [nx, ny, nz] = t.normal;
                writeln!(out, "point {px} {py} {pz}")?;
                writeln!(out, "normal {nx} {ny} {nz}")?;
            }
            None if report.undecided_from.is_none() => writeln!(out, "no contact in [0, {t_max}]")?,
            None => {}
        }
        let s = &report.stats;
        writeln!(
            out,
            "bv_tests {}, primitive_tests {}, queue_pushes {}, motion_enclosures {} ({kind})",
            s.bv_tests, s.primitive_tests, s.queue_pushes, s.motion_enclosures
        )?;
    }
    Ok(())
}

/// The result, widened to `f64` for printing.
struct Report {
    /// The first contact, or with an undecided outcome the contact found so far.
    toi: Option<ccd::Toi<f64>>,
    /// The certified `t_lo` of an undecided outcome.
    undecided_from: Option<f64>,
    stats: ccd::ToiStats,
}

impl Report {
    fn of<T: Real>(r: ToiResult<T>) -> Self {
        let wide = |x: T| x.to_f64_exact();
        let (toi, undecided_from) = match r.outcome {
            ToiOutcome::Contact(t) => (Some(t), None),
            ToiOutcome::NoContact => (None, None),
            ToiOutcome::Undecided { t_lo, found } => (found, Some(wide(t_lo))),
        };
        Self {
            undecided_from,
            toi: toi.map(|t| ccd::Toi {
                t_lo: wide(t.t_lo),
                t_hi: wide(t.t_hi),
                separation: wide(t.separation),
                hit_cap: t.hit_cap,
                tri_a: t.tri_a,
                tri_b: t.tri_b,
                feature: t.feature,
                point: t.point.map(wide),
                normal: t.normal.map(wide),
            }),
            stats: r.stats,
        }
    }
}

fn feature_json(f: Feature) -> serde_json::Value {
    match f {
        Feature::VertexFace {
            vertex_of_a,
            vertex,
        } => {
            json!({"kind": "vertex-face", "vertex_of": if vertex_of_a { "a" } else { "b" }, "vertex": vertex})
        }
        Feature::EdgeEdge { edge_a, edge_b } => {
            json!({"kind": "edge-edge", "edge_a": edge_a, "edge_b": edge_b})
        }
        Feature::Overlap => json!({"kind": "overlap"}),
    }
}

/// The motion `spec` from `start` (identity when `None`), in scalar `T`.
pub fn motion<T: Real>(
    spec: &MotionArg,
    start: Option<PoseArg>,
    poses: PoseFormat,
) -> Box<dyn Motion<T>> {
    let start = poses.isometry::<T>(start);
    let v = |c: [f64; 3]| Vector3::new(T::lit(c[0]), T::lit(c[1]), T::lit(c[2]));
    match *spec {
        MotionArg::Static => Box::new(Static::new(start)),
        MotionArg::Translate(d) => Box::new(Translation::new(start, v(d))),
        MotionArg::Screw {
            axis,
            angle,
            distance,
        } => Box::new(Screw::new(
            start,
            Unit::new_normalize(v(axis)),
            Point3::from(start.translation.vector),
            T::lit(angle),
            T::lit(distance),
        )),
        MotionArg::RotateTranslate {
            axis,
            angle,
            displacement,
        } => Box::new(ConstantRotationTranslation::new(
            start,
            Unit::new_normalize(v(axis)),
            T::lit(angle),
            v(displacement),
        )),
        MotionArg::Interp(p0, p1) => Box::new(Interp::new(
            p0.isometry(poses.quat_order),
            p1.isometry(poses.quat_order),
        )),
    }
}

struct Job<'a> {
    args: &'a ToiArgs,
    a: Input,
    b: Input,
}

impl Typed for Job<'_> {
    type Output = Result<Report>;

    fn run<T: Real, B: ContinuousVolume<T>>(self) -> Result<Report> {
        let (a, b) = models::<T, B>(self.a, self.b, &self.args.tree)?;
        let ma = motion::<T>(&self.args.motion_a, self.args.pose_a, self.args.poses);
        let mb = motion::<T>(&self.args.motion_b, self.args.pose_b, self.args.poses);
        let request = ToiRequest {
            t_max: T::lit(self.args.t_max),
            tolerance: T::lit(self.args.tolerance),
            budget: ToiBudget {
                volume_tests: self.args.max_volume_tests,
                primitive_tests: self.args.max_primitive_tests,
            },
            ..ToiRequest::default()
        };
        let r = ccd::time_of_impact(&a, &*ma, &b, &*mb, &request)?;
        Ok(Report::of(r))
    }
}

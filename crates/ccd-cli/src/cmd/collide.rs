//! `ccd collide A B`: the intersecting triangle pairs of two placed models.

use std::io::Write;

use anyhow::Result;
use ccd::{BoundingVolume, CollideRequest, CollideResult, Real};
use serde_json::json;

use super::{Input, Typed, models, resolve_kind, with_types};
use crate::args::CollideArgs;

/// Runs `ccd collide`; returns whether the models collide.
pub fn run(args: &CollideArgs, out: &mut dyn Write) -> Result<bool> {
    let a = Input::read(&args.a)?;
    let b = Input::read(&args.b)?;
    let kind = resolve_kind(&args.tree, &a, &b)?;
    let result = with_types(kind, Job { args, a, b })?;
    if args.json {
        let contacts: Vec<[u32; 2]> = result.contacts.iter().map(|c| [c.a, c.b]).collect();
        let s = &result.stats;
        let report = json!({
            "colliding": result.is_colliding(),
            "contacts": contacts,
            "stats": {
                "bv_tests": s.bv_tests,
                "bv_disjoint": s.bv_disjoint,
                "bv_overlapping": s.bv_overlapping,
                "tri_tests": s.tri_tests,
                "contacts": s.contacts,
            },
            "scalar": kind.scalar.name(),
            "bv": kind.bv.name(),
        });
        writeln!(out, "{report}")?;
    } else {
        for c in &result.contacts {
            writeln!(out, "{} {}", c.a, c.b)?;
        }
        let s = &result.stats;
        writeln!(
            out,
            "{} ({} contact{}, {kind})",
            if result.is_colliding() {
                "colliding"
            } else {
                "not colliding"
            },
            result.contacts.len(),
            if result.contacts.len() == 1 { "" } else { "s" },
        )?;
        writeln!(
            out,
            "bv_tests {} (disjoint {}, overlapping {}), tri_tests {}, contacts {}",
            s.bv_tests, s.bv_disjoint, s.bv_overlapping, s.tri_tests, s.contacts
        )?;
    }
    Ok(result.is_colliding())
}

struct Job<'a> {
    args: &'a CollideArgs,
    a: Input,
    b: Input,
}

impl Typed for Job<'_> {
    type Output = Result<CollideResult>;

    fn run<T: Real, B: BoundingVolume<T>>(self) -> Result<CollideResult> {
        let (a, b) = models::<T, B>(self.a, self.b, &self.args.tree)?;
        let pose_a = self.args.poses.isometry::<T>(self.args.pose_a);
        let pose_b = self.args.poses.isometry::<T>(self.args.pose_b);
        let request = if self.args.first {
            CollideRequest::first()
        } else {
            CollideRequest::all()
        };
        let result = ccd::collide(&a, &pose_a, &b, &pose_b, &request)?;
        if let Some(path) = &self.args.export {
            super::export::write_ply(path, (&a, &pose_a), (&b, &pose_b), &result.contacts)?;
        }
        Ok(result)
    }
}

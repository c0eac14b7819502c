//! Per-level shape of a tree (`bench-proximity --levels`; Gottschalk
//! Fig. 5.17): node count, mean diameter and mean thickness per level.
//!
//! On a smooth surface the footprint (diameter) of a level-l volume halves
//! every two levels for any BV type. Sphere and AABB thickness falls in
//! proportion (linear convergence), OBB thickness with the square of the
//! diameter (quadratic convergence: ÷2 per level, ÷4 per two levels), which
//! is what makes the PCP ramp slopes −2 and −1.

use std::path::Path;

use anyhow::Result;
use ccd::{BoundingVolume, Hierarchy, Real};
use plotters::prelude::SeriesLabelPosition;

use crate::flags::BvType;
use crate::plot::{Chart, Series};
use crate::report::{Table, num};

/// Shape statistics of one tree level.
#[derive(Clone, Debug, PartialEq)]
pub struct LevelRow {
    /// Depth (the root is 0).
    pub level: usize,
    /// Nodes at this depth.
    pub nodes: usize,
    /// Leaves among them.
    pub leaves: usize,
    /// Mean diameter of the volumes.
    pub diameter: f64,
    /// Mean thickness (thinnest enclosing slab) of the volumes.
    pub thickness: f64,
    /// Mean thickness of the internal nodes only (NaN if none): leaves of
    /// single triangles have (nearly) zero OBB thickness and drag the
    /// all-node mean down at the deepest levels.
    pub thickness_internal: f64,
}

/// Per-level statistics of `tree`.
pub fn per_level<H: Hierarchy>(tree: &H) -> Vec<LevelRow> {
    let depths = tree.node_depths();
    let levels = depths.iter().max().map_or(0, |&d| d as usize + 1);
    // Per level: nodes, leaves, Σ diameter, Σ thickness, internal count, Σ internal thickness.
    let mut acc = vec![(0usize, 0usize, 0.0f64, 0.0f64, 0usize, 0.0f64); levels];
    for (node, &d) in tree.nodes().iter().zip(&depths) {
        let a = &mut acc[d as usize];
        let thickness = node.bv.thickness().to_f64_exact();
        a.0 += 1;
        a.2 += node.bv.diameter().to_f64_exact();
        a.3 += thickness;
        if node.is_leaf() {
            a.1 += 1;
        } else {
            a.4 += 1;
            a.5 += thickness;
        }
    }
    acc.iter()
        .enumerate()
        .map(|(level, &(n, leaves, dsum, tsum, ni, tisum))| LevelRow {
            level,
            nodes: n,
            leaves,
            diameter: dsum / n as f64,
            thickness: tsum / n as f64,
            thickness_internal: if ni == 0 { f64::NAN } else { tisum / ni as f64 },
        })
        .collect()
}

/// Prints the per-level tables, writes `levels.csv` and `levels.svg` into
/// `out`, and prints the OBB thickness check on levels 2–14.
pub fn report(trees: &[(BvType, Vec<LevelRow>)], out: &Path, header: &str) -> Result<()> {
    let mut table = Table::new(&[
        "bv",
        "level",
        "nodes",
        "leaves",
        "diameter_mean",
        "thickness_mean",
        "thickness_over_diameter",
        "thickness_internal_mean",
    ]);
    table.comments.push(header.to_owned());
    table.comments.push("per-level shape of the inner tree (Fig. 5.17); thickness = 2·min half-extent (boxes), 2r (spheres)".into());
    for (bv, rows) in trees {
        for r in rows {
            table.rows.push(vec![
                bv.name().into(),
                r.level.to_string(),
                r.nodes.to_string(),
                r.leaves.to_string(),
                num(r.diameter),
                num(r.thickness),
                num(r.thickness / r.diameter),
                num(r.thickness_internal),
            ]);
        }
    }
    println!();
    println!("## levels (inner tree per BV type; Fig. 5.17)");
    print!("{}", table.render_body());
    table.write(&out.join("levels.csv"))?;

    if let Some((_, obb)) = trees.iter().find(|(b, _)| *b == BvType::Obb) {
        // Thesis: levels 2–14 follow ÷4 per two levels. Report the fitted
        // per-level factor of the internal-node mean thickness there.
        let pts: Vec<(f64, f64)> = obb
            .iter()
            .filter(|r| (2..=14).contains(&r.level) && r.thickness_internal > 0.0)
            .map(|r| (r.level as f64, r.thickness_internal.log2()))
            .collect();
        if let Some(line) = crate::fit::least_squares(&pts) {
            println!(
                "obb thickness factor per level on levels 2–14 (internal nodes)={:.3} (theory 0.5: ÷4 per two levels)",
                line.slope.exp2()
            );
        }
    }
    for (bv, rows) in trees {
        // Levels without leaves, so every mean is over internal nodes only.
        let ratios: Vec<(usize, f64)> = rows
            .iter()
            .filter(|r| r.level >= 2 && r.leaves == 0)
            .map(|r| (r.level, r.thickness / r.diameter))
            .collect();
        if let (Some(first), Some(last)) = (ratios.first(), ratios.last()) {
            println!(
                "thickness/diameter {} at level {} → level {} (deepest without leaves): {} → {} (sphere, aabb: roughly constant; obb: falling)",
                bv.name(),
                first.0,
                last.0,
                num(first.1),
                num(last.1)
            );
        }
    }

    let mut series: Vec<Series> = trees
        .iter()
        .map(|(bv, rows)| {
            Series::bv(
                *bv,
                rows.iter().map(|r| (r.level as f64, r.thickness)).collect(),
            )
        })
        .collect();
    if let Some(anchor) = trees
        .iter()
        .find(|(b, _)| *b == BvType::Obb)
        .and_then(|(_, rows)| rows.get(2))
    {
        let last = trees
            .iter()
            .map(|(_, r)| r.len())
            .max()
            .unwrap_or(3)
            .saturating_sub(1);
        let reference = (2..=last)
            .map(|l| (l as f64, anchor.thickness * 0.5f64.powi(l as i32 - 2)))
            .collect();
        series.push(Series::reference("÷2 per level (OBB theory)", reference));
    }
    Chart {
        title: "Mean BV thickness per tree level (Fig. 5.17)".into(),
        x_label: "tree level".into(),
        y_label: "mean thickness".into(),
        x_log: false,
        legend: SeriesLabelPosition::LowerLeft,
        series,
    }
    .write_svg(&out.join("levels.svg"))?;
    eprintln!(
        "wrote {} and {}",
        out.join("levels.csv").display(),
        out.join("levels.svg").display()
    );
    Ok(())
}

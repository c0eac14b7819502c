//! SVG line charts with plotters: log-scaled y, log or linear x, one curve
//! per series, legend, optional dashed reference lines.

use std::path::Path;

use anyhow::{Result, anyhow};
use plotters::coord::Shift;
use plotters::coord::ranged1d::{DefaultFormatting, Ranged};
use plotters::prelude::*;

use crate::flags::BvType;

/// One curve.
#[derive(Clone, Debug)]
pub struct Series {
    /// Legend text.
    pub label: String,
    /// `(x, y)` points in drawing order; non-positive values are skipped on
    /// log axes.
    pub points: Vec<(f64, f64)>,
    /// Line colour.
    pub color: RGBColor,
    /// Dashed line without markers (reference lines).
    pub reference: bool,
}

impl Series {
    /// A data curve in the colour of `bv`.
    pub fn bv(bv: BvType, points: Vec<(f64, f64)>) -> Self {
        Self { label: bv.name().into(), points, color: bv_color(bv), reference: false }
    }

    /// A dashed grey reference line.
    pub fn reference(label: impl Into<String>, points: Vec<(f64, f64)>) -> Self {
        Self { label: label.into(), points, color: RGBColor(110, 110, 110), reference: true }
    }
}

/// The colour of a BV type's curves (the same in every chart).
pub fn bv_color(bv: BvType) -> RGBColor {
    match bv {
        BvType::Sphere => RGBColor(200, 40, 40),
        BvType::Aabb => RGBColor(30, 90, 200),
        BvType::Obb => RGBColor(20, 150, 60),
    }
}

/// A chart to draw.
#[derive(Clone, Debug)]
pub struct Chart {
    /// Caption.
    pub title: String,
    /// X axis label.
    pub x_label: String,
    /// Y axis label.
    pub y_label: String,
    /// Logarithmic x axis (the y axis is always logarithmic).
    pub x_log: bool,
    /// The curves.
    pub series: Vec<Series>,
}

impl Chart {
    /// Draws the chart into an SVG file at `path`.
    ///
    /// # Errors
    /// If there is nothing positive to plot or the file cannot be written.
    pub fn write_svg(&self, path: &Path) -> Result<()> {
        let keep = |&(x, y): &(f64, f64)| y > 0.0 && y.is_finite() && x.is_finite() && (!self.x_log || x > 0.0);
        let pts: Vec<(f64, f64)> = self.series.iter().flat_map(|s| s.points.iter().copied()).filter(keep).collect();
        if pts.is_empty() {
            return Err(anyhow!("nothing to plot in {}", path.display()));
        }
        let (mut x0, mut x1) = bounds(pts.iter().map(|p| p.0));
        let (mut y0, mut y1) = bounds(pts.iter().map(|p| p.1));
        (y0, y1) = (y0 / 1.5, y1 * 1.5);
        if self.x_log {
            (x0, x1) = (x0 / 1.2, x1 * 1.2);
        } else {
            let pad = ((x1 - x0) * 0.03).max(0.5);
            (x0, x1) = (x0 - pad, x1 + pad);
        }
        let root = SVGBackend::new(path, (960, 680)).into_drawing_area();
        root.fill(&WHITE).map_err(plot_err)?;
        if self.x_log {
            self.draw_on(&root, (x0..x1).log_scale(), (y0..y1).log_scale(), true)?;
        } else {
            self.draw_on(&root, x0..x1, (y0..y1).log_scale(), false)?;
        }
        root.present().map_err(plot_err)
    }

    fn draw_on<DB, X, Y>(&self, root: &DrawingArea<DB, Shift>, x: X, y: Y, x_log: bool) -> Result<()>
    where
        DB: DrawingBackend,
        X: Ranged<ValueType = f64, FormatOption = DefaultFormatting>,
        Y: Ranged<ValueType = f64, FormatOption = DefaultFormatting>,
    {
        let mut chart = ChartBuilder::on(root)
            .caption(&self.title, ("sans-serif", 22))
            .margin(18)
            .x_label_area_size(55)
            .y_label_area_size(85)
            .build_cartesian_2d(x, y)
            .map_err(plot_err)?;
        let x_fmt = |v: &f64| if x_log { format!("{v:.0e}") } else { format!("{v:.0}") };
        chart
            .configure_mesh()
            .x_desc(&self.x_label)
            .y_desc(&self.y_label)
            .x_label_formatter(&x_fmt)
            .y_label_formatter(&|v: &f64| format!("{v:.0e}"))
            .label_style(("sans-serif", 14))
            .axis_desc_style(("sans-serif", 17))
            .draw()
            .map_err(plot_err)?;
        let x_log = self.x_log;
        for s in &self.series {
            let pts: Vec<(f64, f64)> =
                s.points.iter().copied().filter(|&(x, y)| y > 0.0 && y.is_finite() && (!x_log || x > 0.0)).collect();
            if pts.is_empty() {
                continue;
            }
            let color = s.color;
            let anno = if s.reference {
                chart
                    .draw_series(DashedLineSeries::new(pts.clone(), 8, 6, color.stroke_width(1)))
                    .map_err(plot_err)?
            } else {
                chart.draw_series(pts.iter().map(|&p| Circle::new(p, 3, color.filled()))).map_err(plot_err)?;
                chart.draw_series(LineSeries::new(pts.clone(), color.stroke_width(2))).map_err(plot_err)?
            };
            anno.label(s.label.clone()).legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 22, y)], color));
        }
        chart
            .configure_series_labels()
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .label_font(("sans-serif", 15))
            .draw()
            .map_err(plot_err)?;
        Ok(())
    }
}

/// Min and max of an iterator of finite values.
fn bounds(xs: impl Iterator<Item = f64>) -> (f64, f64) {
    xs.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), x| (lo.min(x), hi.max(x)))
}

fn plot_err<E: std::fmt::Display>(e: E) -> anyhow::Error {
    anyhow!("plotting: {e}")
}

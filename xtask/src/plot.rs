//! SVG line charts with plotters: log-scaled y, log or linear x, one curve
//! per series, legend, optional dashed reference lines.

use std::path::Path;

use anyhow::{Result, anyhow};
use plotters::coord::Shift;
use plotters::coord::ranged1d::{Ranged, ValueFormatter};
use plotters::coord::types::RangedCoordf64;
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
    /// Small markers without a line (one point per query, e.g. per position
    /// of the sliding sphere, where neighbours are independent samples).
    pub scatter: bool,
}

impl Series {
    /// A data curve in the colour of `bv`.
    pub fn bv(bv: BvType, points: Vec<(f64, f64)>) -> Self {
        Self {
            label: bv.name().into(),
            points,
            color: bv_color(bv),
            reference: false,
            scatter: false,
        }
    }

    /// Markers without a line, labelled `label`, in `color`.
    pub fn scatter(label: impl Into<String>, color: RGBColor, points: Vec<(f64, f64)>) -> Self {
        Self {
            label: label.into(),
            points,
            color,
            reference: false,
            scatter: true,
        }
    }

    /// A dashed grey reference line.
    pub fn reference(label: impl Into<String>, points: Vec<(f64, f64)>) -> Self {
        Self {
            label: label.into(),
            points,
            color: RGBColor(110, 110, 110),
            reference: true,
            scatter: false,
        }
    }
}

/// The colour of a BV type's curves (the same in every chart).
pub fn bv_color(bv: BvType) -> RGBColor {
    match bv {
        BvType::Sphere => RGBColor(200, 40, 40),
        BvType::Aabb => RGBColor(30, 90, 200),
        BvType::Obb => RGBColor(20, 150, 60),
        BvType::Rss => RGBColor(140, 60, 170),
    }
}

/// `c` halfway to white (a second series of the same BV type).
pub fn lighter(c: RGBColor) -> RGBColor {
    let half = |v: u8| ((u16::from(v) + 255) / 2) as u8;
    RGBColor(half(c.0), half(c.1), half(c.2))
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
    /// Where the legend goes (a corner the curves leave empty).
    pub legend: SeriesLabelPosition,
}

impl Chart {
    /// Draws the chart into an SVG file at `path`.
    ///
    /// # Errors
    /// If there is nothing positive to plot or the file cannot be written.
    pub fn write_svg(&self, path: &Path) -> Result<()> {
        let keep = |&(x, y): &(f64, f64)| {
            y > 0.0 && y.is_finite() && x.is_finite() && (!self.x_log || x > 0.0)
        };
        let pts: Vec<(f64, f64)> = self
            .series
            .iter()
            .flat_map(|s| s.points.iter().copied())
            .filter(keep)
            .collect();
        if pts.is_empty() {
            return Err(anyhow!("nothing to plot in {}", path.display()));
        }
        let (mut x0, mut x1) = bounds(pts.iter().map(|p| p.0));
        let (mut y0, mut y1) = bounds(pts.iter().map(|p| p.1));
        (y0, y1) = (y0 / 1.5, y1 * 1.5);
        if y1 / y0 < 1e3 {
            // plotters puts log ticks only from the first power of ten up:
            // start narrow axes at a power of ten so they get labelled ticks,
            // and leave room for the legend above the curves.
            (y0, y1) = (10f64.powf(y0.log10().floor()), y1 * 2.0);
        }
        if self.x_log {
            (x0, x1) = (x0 / 1.2, x1 * 1.2);
        } else {
            let pad = if x1 - x0 >= 10.0 {
                ((x1 - x0) * 0.03).max(0.5)
            } else {
                (x1 - x0) * 0.03
            };
            (x0, x1) = (x0 - pad, x1 + pad);
        }
        let root = SVGBackend::new(path, (960, 680)).into_drawing_area();
        root.fill(&WHITE).map_err(plot_err)?;
        if self.x_log {
            self.draw_on(
                &root,
                LogCoord::from((x0..x1).log_scale()),
                LogCoord::from((y0..y1).log_scale()),
                (Some(x1 / x0), y1 / y0),
            )?;
        } else {
            self.draw_on(
                &root,
                RangedCoordf64::from(x0..x1),
                LogCoord::from((y0..y1).log_scale()),
                (None, y1 / y0),
            )?;
        }
        root.present().map_err(plot_err)
    }

    /// Whether the finite x values span less than 10 (linear ticks then get
    /// one decimal).
    fn x_range_small(&self) -> bool {
        let (x0, x1) = bounds(
            self.series
                .iter()
                .flat_map(|s| s.points.iter().map(|p| p.0))
                .filter(|x| x.is_finite()),
        );
        x1 - x0 < 10.0
    }

    fn draw_on<DB, X, Y>(
        &self,
        root: &DrawingArea<DB, Shift>,
        x: X,
        y: Y,
        (x_ratio, y_ratio): (Option<f64>, f64),
    ) -> Result<()>
    where
        DB: DrawingBackend,
        X: Ranged<ValueType = f64> + ValueFormatter<f64>,
        Y: Ranged<ValueType = f64> + ValueFormatter<f64>,
    {
        let mut chart = ChartBuilder::on(root)
            .caption(&self.title, ("sans-serif", 22))
            .margin(18)
            .x_label_area_size(55)
            .y_label_area_size(85)
            .build_cartesian_2d(x, y)
            .map_err(plot_err)?;
        let x_fmt = |v: &f64| match x_ratio {
            Some(ratio) => log_tick(*v, ratio),
            None if self.x_range_small() => format!("{v:.1}"),
            None => format!("{v:.0}"),
        };
        let y_fmt = |v: &f64| log_tick(*v, y_ratio);
        chart
            .configure_mesh()
            .x_desc(&self.x_label)
            .y_desc(&self.y_label)
            .x_label_formatter(&x_fmt)
            .y_label_formatter(&y_fmt)
            .y_labels(if y_ratio < 1e3 { 30 } else { 10 })
            .light_line_style(BLACK.mix(0.03))
            .label_style(("sans-serif", 14))
            .axis_desc_style(("sans-serif", 17))
            .draw()
            .map_err(plot_err)?;
        let x_log = self.x_log;
        for s in &self.series {
            let pts: Vec<(f64, f64)> = s
                .points
                .iter()
                .copied()
                .filter(|&(x, y)| y > 0.0 && y.is_finite() && (!x_log || x > 0.0))
                .collect();
            if pts.is_empty() {
                continue;
            }
            let color = s.color;
            let anno = if s.scatter {
                chart
                    .draw_series(pts.iter().map(|&p| Circle::new(p, 2, color.filled())))
                    .map_err(plot_err)?
            } else if s.reference {
                chart
                    .draw_series(DashedLineSeries::new(
                        pts.clone(),
                        8,
                        6,
                        color.stroke_width(1),
                    ))
                    .map_err(plot_err)?
            } else {
                chart
                    .draw_series(pts.iter().map(|&p| Circle::new(p, 3, color.filled())))
                    .map_err(plot_err)?;
                chart
                    .draw_series(LineSeries::new(pts.clone(), color.stroke_width(2)))
                    .map_err(plot_err)?
            };
            anno.label(s.label.clone())
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 22, y)], color));
        }
        chart
            .configure_series_labels()
            .position(self.legend.clone())
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .label_font(("sans-serif", 15))
            .draw()
            .map_err(plot_err)?;
        Ok(())
    }
}

/// A tick label on a log axis spanning a factor `ratio`: powers of ten as
/// `1e-6` on wide axes, plain numbers (`20`, `0.05`) on axes spanning less
/// than three decades, where the ticks fall on 2, 3, … × 10^k.
fn log_tick(v: f64, ratio: f64) -> String {
    if ratio >= 1e3 || !(1e-4..1e6).contains(&v.abs()) {
        format!("{v:.0e}")
    } else {
        let decimals = (-v.abs().log10().floor()).max(0.0) as usize;
        format!("{v:.decimals$}")
    }
}

/// Min and max of an iterator of finite values.
fn bounds(xs: impl Iterator<Item = f64>) -> (f64, f64) {
    xs.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), x| {
        (lo.min(x), hi.max(x))
    })
}

fn plot_err<E: std::fmt::Display>(e: E) -> anyhow::Error {
    anyhow!("plotting: {e}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn log_ticks() {
        assert_eq!(log_tick(1e-6, 1e7), "1e-6");
        assert_eq!(log_tick(100.0, 1e7), "1e2");
        assert_eq!(log_tick(30.0, 5.0), "30");
        assert_eq!(log_tick(0.05, 50.0), "0.05");
        assert_eq!(log_tick(2e7, 5.0), "2e7");
    }
}

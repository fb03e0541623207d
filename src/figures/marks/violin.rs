//! `violin`: a mirrored Gaussian kernel density estimate of the raw values
//! per category, as scipy's `gaussian_kde` computes it (Scott's bandwidth:
//! h = s · n^(-1/5), s the sample standard deviation), evaluated at 100
//! points from the smallest to the largest value (Vega-Lite's density
//! extent). Each violin is scaled so its widest point fills `band`; inside,
//! a thin box from the first to the third quartile and a white median dot.

use super::{Input, record};
use crate::color::Color;
use crate::error::Result;
use crate::figures::encode::{CsvRecord, LayerCtx, PanelState, num_text};
use crate::figures::model::*;
use crate::spec::value;
use crate::stats;

/// Points at which each violin's density is evaluated.
pub const STEPS: usize = 100;

/// Scott's bandwidth of `xs` as scipy's `gaussian_kde` uses it (the
/// kernel's standard deviation); `None` below two values or with no spread.
pub fn scott_bandwidth(xs: &[f64]) -> Option<f64> {
    let s = stats::std(xs)?;
    (s > 0.0).then(|| s * (xs.len() as f64).powf(-0.2))
}

/// The Gaussian KDE of `xs` with kernel width `h` at `t`.
pub fn kde(xs: &[f64], h: f64, t: f64) -> f64 {
    let norm = 1.0 / ((2.0 * std::f64::consts::PI).sqrt() * h * xs.len() as f64);
    xs.iter()
        .map(|x| (-0.5 * ((t - x) / h).powi(2)).exp())
        .sum::<f64>()
        * norm
}

/// One violin's numbers: its density on a grid of [`STEPS`] points from
/// the smallest to the largest value, and its quartiles.
struct Density {
    bw: f64,
    lo: f64,
    hi: f64,
    grid: Vec<f64>,
    dens: Vec<f64>,
    dmax: f64,
    q1: f64,
    med: f64,
    q3: f64,
}

impl Density {
    /// The density of `xs`; `None` below two values or with no spread.
    fn of(xs: &[f64]) -> Option<Density> {
        let bw = scott_bandwidth(xs)?;
        let lo = xs.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = xs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let grid = stats::linspace(lo, hi, STEPS);
        let dens: Vec<f64> = grid.iter().map(|t| kde(xs, bw, *t)).collect();
        let dmax = dens.iter().copied().fold(0.0, f64::max);
        let (q1, med, q3) = (
            stats::quantile(xs, 0.25).unwrap_or(lo),
            stats::quantile(xs, 0.5).unwrap_or(lo),
            stats::quantile(xs, 0.75).unwrap_or(lo),
        );
        Some(Density {
            bw,
            lo,
            hi,
            grid,
            dens,
            dmax,
            q1,
            med,
            q3,
        })
    }

    /// The CSV rows of the violin of `n` values at category `key` of
    /// series `series`: its summary, then its density at each grid point.
    fn records(
        &self,
        csv: &mut Vec<CsvRecord>,
        base: &CsvRecord,
        (cn, vn): (&str, &str),
        key: &str,
        series: &str,
        n: usize,
    ) {
        csv.push(record(
            base,
            vec![
                ("part", "violin".into()),
                (cn, key.to_string()),
                ("series", series.to_string()),
                ("n", n.to_string()),
                ("bandwidth", num_text(self.bw)),
                ("q1", num_text(self.q1)),
                ("median", num_text(self.med)),
                ("q3", num_text(self.q3)),
            ],
        ));
        for (t, d) in self.grid.iter().zip(&self.dens) {
            csv.push(record(
                base,
                vec![
                    ("part", "density".into()),
                    (cn, key.to_string()),
                    ("series", series.to_string()),
                    (vn, num_text(*t)),
                    ("density", num_text(*d)),
                ],
            ));
        }
    }

    /// The violin's outline around `center`, widest `half` from it: one
    /// side up the grid, the mirror back down (`at` places a (category,
    /// value) pair on the panel's axes).
    fn outline(
        &self,
        center: f64,
        half: f64,
        at: impl Fn(f64, f64) -> (f64, f64),
    ) -> Vec<(f64, f64)> {
        let w = |d: f64| half * d / self.dmax;
        self.grid
            .iter()
            .zip(&self.dens)
            .map(|(t, d)| at(center + w(*d), *t))
            .chain(
                self.grid
                    .iter()
                    .zip(&self.dens)
                    .rev()
                    .map(|(t, d)| at(center - w(*d), *t)),
            )
            .collect()
    }
}

impl LayerCtx<'_, '_> {
    /// Builds a `violin` layer: one violin per (category, colour group).
    pub(in crate::figures) fn violin(
        &self,
        inp: &Input,
        st: &mut PanelState,
        csv: &mut Vec<CsvRecord>,
    ) -> Result<Mark> {
        let h = inp.horizontal;
        let (cn, vn) = if h { ("y", "x") } else { ("x", "y") };
        let (cc, vc) = if h {
            (&inp.ch.y, &inp.ch.x)
        } else {
            (&inp.ch.x, &inp.ch.y)
        };
        let vc = vc
            .as_ref()
            .ok_or_else(|| self.err(format!("a `violin` layer needs `{vn}` (the raw values)")))?;
        let band = value(&self.layer.band).unwrap_or(0.8);
        self.numeric_axis(if h { &mut st.xcats } else { &mut st.ycats }, vn)?;
        let positions = self.category_positions(inp, st, cc.as_ref(), cn)?;
        let groups = self.groups(inp)?;
        let opacity = self.const_opacity(inp, 1.0)?;
        let width = self.const_width(inp, 1.0)?;
        let stroke = self
            .const_stroke(inp)?
            .or(Some(Color::rgb(0x33, 0x33, 0x33)));
        let at = |c: f64, v: f64| if h { (v, c) } else { (c, v) };
        let (mut shapes, mut boxes, mut dots) = (Vec::new(), Vec::new(), Vec::new());
        let n_slots = super::slots(&groups, |i| super::pos_key(&positions[i].1));
        for (gi, g) in groups.iter().enumerate() {
            let by = self.values_by_category(g, &positions, vc, vn)?;
            for (key, (center, xs)) in by {
                // Colour groups side by side in the category (seaborn's hue).
                let (center, band) = super::dodged(center, band, gi, n_slots);
                let Some(d) = Density::of(&xs) else {
                    return Err(self.err(format!(
                        "a `violin` needs at least 2 different values at each {cn} for a density; {cn} = {key} has {} value{} and no spread",
                        xs.len(),
                        if xs.len() == 1 { "" } else { "s" }
                    )));
                };
                let (lo, hi, q1, med, q3) = (d.lo, d.hi, d.q1, d.med, d.q3);
                let half = band / 2.0;
                d.records(csv, inp.base, (cn, vn), &key, &g.key, xs.len());
                let pts = d.outline(center, half, at);
                let (ce, ve) = if h {
                    (&mut st.yext, &mut st.xext)
                } else {
                    (&mut st.xext, &mut st.yext)
                };
                ce.add(center - half);
                ce.add(center + half);
                ve.add(lo);
                ve.add(hi);
                shapes.push(AreaItem {
                    points: pts,
                    style: super::fill(g.color, opacity, stroke, width),
                });
                let inner = super::fill(stroke, 1.0, None, 0.0);
                let iw = band * 0.06;
                let ((x0, y0), (x1, y1)) = (at(center - iw, q1), at(center + iw, q3));
                boxes.push(RectItem {
                    x: Some((x0, x1)),
                    y: Some((y0, y1)),
                    style: inner,
                });
                let (mx, my) = at(center, med);
                dots.push(PointItem {
                    x: mx,
                    y: my,
                    shape: Shape::Circle,
                    diameter: 3.5,
                    style: super::fill(Some(Color::WHITE), 1.0, None, 0.0),
                });
            }
        }
        self.group_legend(inp, &groups, st, |c| {
            Swatch::Patch(super::fill(c, opacity, stroke, width))
        });
        Ok(Mark::Group(vec![
            Mark::Areas(shapes),
            Mark::Rects(boxes),
            Mark::Points(dots),
        ]))
    }
}

//! `boxplot`: Tukey boxes of the raw values per category (and colour).
//! Colour groups (`color = { field }` or `series`) stand side by side in
//! each category, as seaborn's `hue` does.
//!
//! Quartiles are numpy's default `linear` quantiles ([`crate::stats::quantile`]);
//! whiskers reach the most extreme values within `k` IQRs of the box
//! (`extent = k`, Vega-Lite's default 1.5), values beyond them are outliers,
//! drawn as hollow points. `extent = "min-max"` puts the whiskers at the
//! minimum and maximum (no outliers).

use super::{Input, default_color, record};
use crate::color::Color;
use crate::error::Result;
use crate::figures::encode::{CsvRecord, LayerCtx, PanelState, num_text};
use crate::figures::model::*;
use crate::spec::value;

/// How far the whiskers reach.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Whiskers {
    /// To the most extreme values within `k` IQRs beyond the box.
    Iqr(f64),
    /// To the minimum and maximum.
    MinMax,
}

/// The five numbers of one box, the count and the outliers (in input order).
#[derive(Debug, Clone, PartialEq)]
pub struct BoxStats {
    /// Values in the box.
    pub n: usize,
    /// First quartile (numpy `linear`).
    pub q1: f64,
    /// Median.
    pub median: f64,
    /// Third quartile.
    pub q3: f64,
    /// Lower whisker end.
    pub lower: f64,
    /// Upper whisker end.
    pub upper: f64,
    /// Values beyond the whiskers.
    pub outliers: Vec<f64>,
}

/// The Tukey statistics of `xs` (finite, at least one value).
pub fn box_stats(xs: &[f64], whiskers: Whiskers) -> Option<BoxStats> {
    let q = |p| crate::stats::quantile(xs, p);
    let (q1, median, q3) = (q(0.25)?, q(0.5)?, q(0.75)?);
    let min = xs.iter().copied().fold(f64::INFINITY, f64::min);
    let max = xs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let (lower, upper) = match whiskers {
        Whiskers::MinMax => (min, max),
        Whiskers::Iqr(k) => {
            let (lo_fence, hi_fence) = (q1 - k * (q3 - q1), q3 + k * (q3 - q1));
            // The most extreme data within the fences (never inside the box).
            let lower = xs
                .iter()
                .copied()
                .filter(|v| *v >= lo_fence)
                .fold(q1, f64::min);
            let upper = xs
                .iter()
                .copied()
                .filter(|v| *v <= hi_fence)
                .fold(q3, f64::max);
            (lower, upper)
        }
    };
    let outliers = xs
        .iter()
        .copied()
        .filter(|v| *v < lower || *v > upper)
        .collect();
    Some(BoxStats {
        n: xs.len(),
        q1,
        median,
        q3,
        lower,
        upper,
        outliers,
    })
}

/// The marks of one box centred at `center` (category axis, data units),
/// `width` wide: (box, whiskers with caps, median, outliers). Values run
/// along y, or along x when `horizontal`. Kept apart from the grouping so
/// a dodge (`xOffset`) can move the centre and narrow the width.
pub fn draw_box(
    s: &BoxStats,
    center: f64,
    width: f64,
    horizontal: bool,
    fill: Style,
    line: Style,
    outlier: Style,
) -> (RectItem, Vec<Segment>, Segment, Vec<PointItem>) {
    // (category, value) -> (x, y)
    let at = |c: f64, v: f64| if horizontal { (v, c) } else { (c, v) };
    let seg = |a: (f64, f64), b: (f64, f64), style: &Style| Segment {
        from: at(a.0, a.1),
        to: at(b.0, b.1),
        style: style.clone(),
    };
    let (c0, c1) = (center - width / 2.0, center + width / 2.0);
    let cap = width / 4.0;
    let rect = if horizontal {
        RectItem {
            x: Some((s.q1, s.q3)),
            y: Some((c0, c1)),
            style: fill,
        }
    } else {
        RectItem {
            x: Some((c0, c1)),
            y: Some((s.q1, s.q3)),
            style: fill,
        }
    };
    let whiskers = vec![
        seg((center, s.q1), (center, s.lower), &line),
        seg((center, s.q3), (center, s.upper), &line),
        seg((center - cap, s.lower), (center + cap, s.lower), &line),
        seg((center - cap, s.upper), (center + cap, s.upper), &line),
    ];
    let median = seg(
        (c0, s.median),
        (c1, s.median),
        &Style {
            stroke_width: line.stroke_width * 1.5,
            ..line.clone()
        },
    );
    let points = s
        .outliers
        .iter()
        .map(|v| {
            let (x, y) = at(center, *v);
            PointItem {
                x,
                y,
                shape: Shape::Circle,
                diameter: 4.0,
                style: outlier.clone(),
            }
        })
        .collect();
    (rect, whiskers, median, points)
}

impl LayerCtx<'_, '_> {
    /// The whisker rule written as `extent` (default 1.5 IQRs).
    fn whiskers(&self) -> Result<Whiskers> {
        let Some(raw) = &self.layer.extent else {
            return Ok(Whiskers::Iqr(1.5));
        };
        let bad = || {
            self.spec.error(
                raw.span(),
                "a boxplot's `extent` is a number of IQRs (Tukey's 1.5) or \"min-max\"",
            )
        };
        match raw.get_ref() {
            toml::Value::String(s) if s == "min-max" => Ok(Whiskers::MinMax),
            toml::Value::Integer(i) if *i >= 0 => Ok(Whiskers::Iqr(*i as f64)),
            toml::Value::Float(f) if f.is_finite() && *f >= 0.0 => Ok(Whiskers::Iqr(*f)),
            _ => Err(bad()),
        }
    }

    /// Builds a `boxplot` layer: one box per (category, colour group).
    pub(in crate::figures) fn boxplot(
        &self,
        inp: &Input,
        st: &mut PanelState,
        csv: &mut Vec<CsvRecord>,
    ) -> Result<Mark> {
        let h = inp.horizontal;
        let (cat_name, val_name) = if h { ("y", "x") } else { ("x", "y") };
        let (cat_chan, val_chan) = if h {
            (&inp.ch.y, &inp.ch.x)
        } else {
            (&inp.ch.x, &inp.ch.y)
        };
        let val_chan = val_chan.as_ref().ok_or_else(|| {
            self.err(format!(
                "a `boxplot` layer needs `{val_name}` (the raw values{})",
                if h { "; it is horizontal" } else { "" }
            ))
        })?;
        let whiskers = self.whiskers()?;
        self.numeric_axis(if h { &mut st.xcats } else { &mut st.ycats }, val_name)?;
        let band = value(&self.layer.band).unwrap_or(0.8);
        // Categories in the rows' order, as bars take them.
        let positions = self.category_positions(inp, st, cat_chan.as_ref(), cat_name)?;
        let groups = self.groups(inp)?;
        let opacity = self.const_opacity(inp, 1.0)?;
        let width = self.const_width(inp, 1.0)?;
        let dark = Color::rgb(0x33, 0x33, 0x33);
        let line = Style {
            fill: None,
            stroke: Some(dark),
            stroke_width: width,
            dash: Dash::Solid,
        };
        let (mut rects, mut whisk, mut medians, mut points) =
            (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        let n_slots = super::slots(&groups, |i| super::pos_key(&positions[i].1));
        for (gi, g) in groups.iter().enumerate() {
            let boxes = self.values_by_category(g, &positions, val_chan, val_name)?;
            for (key, (center, vals)) in boxes {
                let (center, band) = super::dodged(center, band, gi, n_slots);
                let Some(s) = box_stats(&vals, whiskers) else {
                    continue;
                };
                let fill = super::fill(g.color, opacity, Some(dark), width);
                let outlier = Style {
                    fill: None,
                    stroke: g.color.or(default_color()).map(|c| c.with_alpha(opacity)),
                    stroke_width: 0.8,
                    dash: Dash::Solid,
                };
                let (r, w, m, pts) = draw_box(&s, center, band, h, fill, line.clone(), outlier);
                let (ce, ve) = if h {
                    (&mut st.yext, &mut st.xext)
                } else {
                    (&mut st.xext, &mut st.yext)
                };
                ce.add(center - band / 2.0);
                ce.add(center + band / 2.0);
                ve.add(s.lower);
                ve.add(s.upper);
                let series = ("series", g.key.clone());
                csv.push(record(
                    inp.base,
                    vec![
                        ("part", "box".into()),
                        (cat_name, key.clone()),
                        series.clone(),
                        ("n", s.n.to_string()),
                        ("lower", num_text(s.lower)),
                        ("q1", num_text(s.q1)),
                        ("median", num_text(s.median)),
                        ("q3", num_text(s.q3)),
                        ("upper", num_text(s.upper)),
                        ("color", g.color.map(|c| c.hex()).unwrap_or_default()),
                    ],
                ));
                for o in &s.outliers {
                    ve.add(*o);
                    csv.push(record(
                        inp.base,
                        vec![
                            ("part", "outlier".into()),
                            (cat_name, key.clone()),
                            series.clone(),
                            (val_name, num_text(*o)),
                        ],
                    ));
                }
                rects.push(r);
                whisk.extend(w);
                medians.push(m);
                points.extend(pts);
            }
        }
        self.group_legend(inp, &groups, st, |c| {
            Swatch::Patch(super::fill(c, opacity, Some(dark), width))
        });
        Ok(Mark::Group(vec![
            Mark::Segments(whisk),
            Mark::Rects(rects),
            Mark::Segments(medians),
            Mark::Points(points),
        ]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tukey_box_of_one_to_ten_and_a_hundred() {
        // numpy: quantile([1..10, 100], [.25, .5, .75]) = 3.5, 6, 8.5.
        let xs: Vec<f64> = (1..=10).map(f64::from).chain([100.0]).collect();
        let s = box_stats(&xs, Whiskers::Iqr(1.5)).unwrap();
        assert_eq!((s.q1, s.median, s.q3), (3.5, 6.0, 8.5));
        assert_eq!((s.lower, s.upper), (1.0, 10.0));
        assert_eq!(s.outliers, vec![100.0]);
        let m = box_stats(&xs, Whiskers::MinMax).unwrap();
        assert_eq!((m.lower, m.upper, m.outliers.len()), (1.0, 100.0, 0));
    }

    #[test]
    fn a_whisker_never_ends_inside_the_box_when_all_values_beyond_it_are_outliers() {
        // Below q1 = 10 only -100, beyond the fence: the whisker stops at q1,
        // as matplotlib's does.
        let xs = [-100.0, 10.0, 10.0, 10.0, 10.0, 10.0, 10.0, 10.0];
        let s = box_stats(&xs, Whiskers::Iqr(1.5)).unwrap();
        assert_eq!((s.q1, s.lower, s.upper), (10.0, 10.0, 10.0));
        assert_eq!(s.outliers, vec![-100.0]);
    }
}

//! `line`: one polyline per `series`, its points in x order (Vega-Lite's
//! line mark), with optional markers and end labels.

use super::{Input, default_color, pos_key as pos_text};
use crate::error::Result;
use crate::figures::encode::{Chans, CsvRecord, LayerCtx, PanelState};
use crate::figures::encode::{SeriesPoints, check_row_label, csv_text, pseudo_row};
use crate::figures::layers::SERIES_HINT;
use crate::figures::model::*;
use crate::spec::value;
use indexmap::IndexMap;

impl LayerCtx<'_, '_> {
    /// Builds a `line` layer from `inp`'s rows.
    pub(in crate::figures) fn line(
        &self,
        inp: &Input<'_, '_, '_>,
        st: &mut PanelState,
        csv: &mut Vec<CsvRecord>,
    ) -> Result<Mark> {
        let l = self.layer;
        let ch = inp.ch;
        let rows = inp.rows;
        let dash = inp.dash;
        let label: Option<String> = inp.label.map(str::to_string);
        let default_fill = default_color();
        let (xc, yc) = (self.need(&ch.x, "x")?, self.need(&ch.y, "y")?);
        let series_expr = self.plan.series.as_ref().map(|s| s.get()).transpose()?;
        let mut series: IndexMap<String, SeriesPoints> = IndexMap::new();
        let mut shapes: IndexMap<String, Shape> = IndexMap::new();
        self.constant_only(
            ch.stroke_width.as_ref(),
            &l.stroke_width,
            "stroke_width",
            "each line",
        )?;
        self.constant_only(ch.opacity.as_ref(), &l.opacity, "opacity", "each line")?;
        let width = self.number(ch.stroke_width.as_ref(), &pseudo_row(), "stroke_width", 1.5)?;
        let opacity = self.number(ch.opacity.as_ref(), &pseudo_row(), "opacity", 1.0)?;
        for row in rows {
            let key = match &series_expr {
                Some(e) => {
                    let key = csv_text(&e.eval_row(self.globals, row)?);
                    check_row_label(row, e.text, &key)?;
                    key
                }
                None => String::new(),
            };
            let (x, xr) = self.pos(xc, row, "x", &mut st.xcats)?;
            let (y, yr) = self.pos(yc, row, "y", &mut st.ycats)?;
            // Without `color`, each series takes its value's colour.
            let own = match (&series_expr, &ch.color) {
                (Some(_), None) => {
                    self.group_colour(&key, series.get_index_of(&key).unwrap_or(series.len()))
                }
                _ => default_fill,
            };
            let col = self
                .color(&ch.color, row, own)?
                .map(|c| c.with_alpha(opacity));
            st.xext.add(x);
            st.yext.add(y);
            self.row_record(
                inp,
                vec![
                    ("series", key.clone()),
                    ("x", pos_text(&xr)),
                    ("y", pos_text(&yr)),
                    ("color", col.map(|c| c.hex()).unwrap_or_default()),
                ],
                row,
                csv,
            );
            let entry = series
                .entry(key.clone())
                .or_insert_with(|| (Vec::new(), col));
            // One line is one stroke: a colour that changes along a
            // series would be drawn as its first row's.
            if entry.1 != col {
                return Err(crate::figures::encode::colour_change(
                    row,
                    "a line has one colour per series",
                    "series",
                    col,
                    entry.1,
                    SERIES_HINT,
                ));
            }
            entry.0.push((x, y));
            self.series_shape(ch, row, &key, &mut shapes)?;
        }
        let marker = match l.marker.as_deref() {
            None => None,
            Some(m) => Some((
                Shape::parse(m).ok_or_else(|| self.err(format!("unknown marker `{m}`")))?,
                value(&l.marker_size).unwrap_or(6.0),
            )),
        };
        let mut out = Vec::new();
        for (key, (mut pts, col)) in series {
            let marker = marker.map(|(s, d)| (shapes.get(&key).copied().unwrap_or(s), d));
            // Connect points in x order, as Vega-Lite's line mark does.
            pts.sort_by(|a, b| a.0.total_cmp(&b.0));
            let style = Style {
                fill: None,
                stroke: col,
                stroke_width: width,
                dash,
            };
            let lbl = if series_expr.is_some() {
                Some(key)
            } else {
                label.clone()
            };
            if let Some(t) = &lbl
                && l.legend != Some(false)
                && !t.is_empty()
            {
                st.legend.push(LegendEntry {
                    label: t.clone(),
                    swatch: Swatch::Line(style.clone(), marker),
                });
            }
            out.push(Series {
                points: pts,
                style,
                marker,
                label: lbl,
            });
        }
        if value(&l.end_labels) == Some(true) && series_expr.is_none() && label.is_none() {
            return Err(self.err(
                "`end_labels` prints each line's `series` (or the layer's `label`): give one",
            ));
        }
        if value(&l.end_labels) == Some(true) {
            let size = value(&l.font_size).unwrap_or(self.font_size);
            st.extra
                .push(Mark::EndLabels(crate::figures::text_marks::end_labels(
                    &out, size,
                )));
        }
        Ok(Mark::Lines(out))
    }
}

impl LayerCtx<'_, '_> {
    /// A `shape` on a line picks each series' marker (a second cue beside
    /// colour): records `row`'s shape for series `key`. Errors: no
    /// `marker` to draw, or a series whose rows name two shapes.
    fn series_shape(
        &self,
        ch: &Chans,
        row: &crate::value::Row,
        key: &str,
        shapes: &mut IndexMap<String, Shape>,
    ) -> Result<()> {
        if ch.shape.is_none() {
            return Ok(());
        }
        if self.layer.marker.is_none() {
            return Err(self.err(
                "`shape` on a `line` picks each series' marker: give `marker` (and `marker_size`) to draw markers",
            ));
        }
        let s = self.shape(&ch.shape, row)?;
        if *shapes.entry(key.to_string()).or_insert(s) != s {
            return Err(crate::tables::aggregate::field_error(
                row,
                "shape",
                format!(
                    "a line has one marker shape per series; series `{}` changes shape here",
                    crate::error::shown(key)
                ),
            ));
        }
        Ok(())
    }
}

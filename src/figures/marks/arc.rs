//! `arc`: a pie or donut (Vega-Lite's arc mark). Each row is a wedge whose
//! angle is its `theta` as a share of the rows' total, in row order from
//! 12 o'clock clockwise (Vega-Lite's `theta` scale, 0 at the top); `color`
//! fills it (a scale gives the legend), `innerRadius` makes a donut, and
//! `text` labels each wedge at its middle, with the row's `share` to print.
//! A panel of arcs has no x or y axis ([`no_axes`]).

use super::{Input, default_color};
use crate::color::Color;
use crate::error::Result;
use crate::figures::encode::{CsvRecord, LayerCtx, PanelState, check_row_label, num_text};
use crate::figures::model::*;
use crate::figures::text_marks::contrast;
use std::ops::Range;

use crate::spec::{LayerSpec, LoadedSpec, PanelSpec, value};
use crate::value::Value;

/// The field an arc's `text` reads for the wedge's fraction of the total.
pub const SHARE: &str = "share";

impl LayerCtx<'_, '_> {
    /// Builds an `arc` layer from `inp`'s rows: one wedge per row.
    pub(in crate::figures) fn arc(
        &self,
        inp: &Input<'_, '_, '_>,
        st: &mut PanelState,
        csv: &mut Vec<CsvRecord>,
    ) -> Result<Mark> {
        let ch = inp.ch;
        let theta = self.need(&ch.theta, "theta")?;
        let mut values = Vec::with_capacity(inp.rows.len());
        for row in inp.rows {
            let v = self.number(Some(theta), row, "theta", 0.0)?;
            if v < 0.0 {
                return Err(crate::tables::aggregate::field_error(
                    row,
                    "theta",
                    format!(
                        "an `arc`'s `theta` is a share of the total; it is {v} here: a wedge cannot be negative"
                    ),
                ));
            }
            values.push(v);
        }
        let total: f64 = values.iter().sum();
        let whole = total > 0.0 && total.is_finite();
        if !values.is_empty() && !whole {
            return Err(self.err(format!(
                "an `arc`'s `theta` values sum to {total}: there is no whole to share"
            )));
        }
        let inner = value(&self.layer.inner_radius).unwrap_or(0.0);
        let outer = value(&self.layer.outer_radius);
        if let (Some(o), Some(r)) = (outer, &self.layer.inner_radius)
            && inner >= o
        {
            return Err(self.spec.error(
                r.span(),
                format!("an arc's `innerRadius` ({inner}) must be below its `outerRadius` ({o}): the hole would cover the ring"),
            ));
        }
        let size = value(&self.layer.font_size).unwrap_or(self.font_size);
        let mut items = Vec::with_capacity(values.len());
        let mut before = 0.0;
        for (row, v) in inp.rows.iter().zip(&values) {
            let opacity = self.number(ch.opacity.as_ref(), row, "opacity", 1.0)?;
            let fill = self
                .color(&ch.color, row, default_color())?
                .map(|c| c.with_alpha(opacity));
            let style = Style {
                fill,
                stroke: self.color(&ch.stroke, row, Some(Color::WHITE))?,
                stroke_width: self.number(ch.stroke_width.as_ref(), row, "stroke_width", 1.0)?,
                dash: Dash::Solid,
            };
            // Angles from the running sum: 50/30/20 are 180, 108, 72 degrees
            // exactly (no share rounded before it is turned into degrees).
            let (start, end) = (before * 360.0 / total, (before + v) * 360.0 / total);
            before += v;
            let share = v / total;
            let mut extra = vec![
                ("theta", num_text(*v)),
                (SHARE, num_text(share)),
                ("start", num_text(start)),
                ("end", num_text(end)),
                ("color", fill.map(|c| c.hex()).unwrap_or_default()),
            ];
            let label = match inp.text {
                Some(t) => {
                    let text = t.render_row(self.globals, &row.with(SHARE, Value::from(share)))?;
                    check_row_label(row, "text", &text)?;
                    extra.push(("text", text.clone()));
                    Some((text, size, contrast(fill)))
                }
                None => None,
            };
            self.row_record(inp, extra, row, csv);
            items.push(ArcItem {
                start,
                end,
                inner,
                outer,
                style,
                label,
            });
        }
        let first = items.first().map_or_else(
            || super::fill(default_color(), 1.0, None, 0.0),
            |i| Style {
                stroke: None,
                ..i.style.clone()
            },
        );
        self.legend_for(ch, inp.label, st, Swatch::Patch, first);
        Ok(Mark::Arcs(items))
    }
}

/// A panel whose layers are arcs (`has_arcs`, its `layers` as written
/// with their spans) is drawn without axes: no ticks, tick labels or axis
/// titles (and layout draws no frame). A panel that mixes arcs with marks
/// on x and y, or that sets `grid` or an axis title, is an error at that
/// layer or key: it would do nothing.
pub(in crate::figures) fn no_axes<'s>(
    spec: &LoadedSpec,
    ps: &PanelSpec,
    (has_arcs, mut layers): (bool, impl Iterator<Item = (&'s LayerSpec, Range<usize>)>),
    (x, y): (&mut Axis, &mut Axis),
) -> Result<()> {
    if !has_arcs {
        return Ok(());
    }
    if let Some((other, span)) = layers.find(|(l, _)| l.mark.get_ref() != "arc") {
        let mark = other.mark.get_ref();
        return Err(spec.error(
            span,
            format!(
                "{} `{mark}` layer needs x and y axes, which a panel of `arc`s does not have: draw it in a panel of its own",
                super::article(mark)
            ),
        ));
    }
    if let Some(g) = &ps.grid {
        return Err(spec.error(
            g.span(),
            "`grid` does nothing on a panel of `arc`s (it has no axes)",
        ));
    }
    for (name, a) in [("x", &ps.x), ("y", &ps.y)] {
        if let Some(t) = &a.title {
            return Err(spec.error(
                t.span(),
                format!("`{name}`'s `title` does nothing on a panel of `arc`s (it has no axes)"),
            ));
        }
    }
    for a in [x, y] {
        a.ticks = Some(Vec::new());
        a.labels = false;
        a.title = None;
        a.log = false;
        a.symlog = None;
        a.domain = (-1.0, 1.0);
    }
    Ok(())
}

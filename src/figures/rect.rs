//! The `rect` mark: bands (`x`..`x2`, `y`..`y2`, a missing pair spanning
//! the axis) and heatmap cells.
//!
//! A side given as `x` alone must be a category (a string): the cell fills
//! `band` (default 1) of the category's slot, so two categorical axes and a
//! colour scale make a heatmap. A heatmap of binned numbers gives each
//! cell's two edges (`x`/`x2`, `y`/`y2`), e.g. from a table step that
//! derives them; a numeric `x` without `x2` is an error, since the cell's
//! width would be a guess. `text` (a template over the row) writes each
//! cell's text at its centre, black or white, whichever contrasts more
//! with the cell (WCAG 2 contrast ratio).

use super::channels::Channel;
use super::colorscale::text_on;
use super::encode::{Chans, CsvRecord, LayerCtx, PanelState, Pos, check_row_label, num_text};
use super::model::*;
use super::text_source::Text;
use crate::color::Color;
use crate::error::Result;
use crate::spec::value;
use crate::value::Row;

/// Writes a row's CSV record with the mark's extra cells.
type RecordFn<'r> = dyn Fn(Vec<(&str, String)>, &Row, &mut Vec<CsvRecord>) + 'r;

/// One side of a cell: its range in data units and its CSV cells.
type Side = Option<((f64, f64), Vec<(&'static str, String)>)>;

impl<'a, 's> LayerCtx<'a, 's> {
    /// Builds a `rect` layer; `record` writes a row's CSV record.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn build_rect(
        &self,
        ch: &Chans,
        rows: &[Row],
        st: &mut PanelState,
        csv: &mut Vec<CsvRecord>,
        record: &RecordFn,
        text: Option<&Text>,
        default_fill: Option<Color>,
        dash: Dash,
    ) -> Result<Mark> {
        let l = self.layer;
        let band = value(&l.band).unwrap_or(1.0);
        if !(band > 0.0 && band <= 1.0) {
            let span = l.band.as_ref().map_or(self.span.clone(), |b| b.span());
            return Err(self.spec.error(
                span,
                "a rect's `band` is a fraction of the slot, above 0 and at most 1",
            ));
        }
        let data_rows: Vec<Row> = if rows.is_empty() {
            vec![super::encode::pseudo_row()]
        } else {
            rows.to_vec()
        };
        let mut items = Vec::new();
        let mut hatches = Vec::new();
        let mut texts = Vec::new();
        for row in &data_rows {
            let xr = self.rect_side(&ch.x, &ch.x2, ("x", "x2"), row, band, st, false)?;
            let yr = self.rect_side(&ch.y, &ch.y2, ("y", "y2"), row, band, st, true)?;
            let style = self.fill_style(ch, row, default_fill, dash)?;
            let mut ex = Vec::new();
            for side in [&xr, &yr].into_iter().flatten() {
                ex.extend(side.1.iter().cloned());
            }
            ex.push(("color", style.fill.map(|c| c.hex()).unwrap_or_default()));
            let (x, y) = (xr.map(|s| s.0), yr.map(|s| s.0));
            if let Some(tpl) = text {
                let (Some(x), Some(y)) = (x, y) else {
                    return Err(self.err("cell `text` on a `rect` needs both `x` and `y`"));
                };
                let t = tpl.render_row(self.globals, row)?;
                check_row_label(row, "text", &t)?;
                // Opacity shows the background through: judge the contrast
                // on the colour as painted over white.
                let color = style.fill.map_or(Color::BLACK, |f| text_on(over_white(f)));
                ex.push(("text", t.clone()));
                ex.push(("text_color", color.hex()));
                texts.push(TextItem {
                    x: (x.0 + x.1) / 2.0,
                    y: (y.0 + y.1) / 2.0,
                    text: t,
                    dx: 0.0,
                    dy: 0.0,
                    align: Align::Center,
                    baseline: Baseline::Middle,
                    size: value(&l.font_size).unwrap_or(self.font_size),
                    color,
                });
            }
            let hatch = self.hatch(ch, row)?;
            if let Some(h) = hatch {
                ex.push(("hatch", super::colorscale::hatch_name(h).to_string()));
            }
            if let (Some(h), Some(x), Some(y)) = (hatch, x, y) {
                hatches.push(HatchItem { x, y, pattern: h });
            }
            record(ex, row, csv);
            items.push(RectItem { x, y, style });
        }
        if !hatches.is_empty() {
            st.extra.push(Mark::Hatches(hatches));
        }
        if !texts.is_empty() {
            st.extra.push(Mark::Texts {
                items: texts,
                avoid_overlap: false,
            });
        }
        let first = items.first().map(|i| i.style.clone());
        if l.label.is_some() || ch.color.as_ref().is_some_and(|c| c.scale_expr().is_some()) {
            let label = match &self.plan.label {
                Some(t) => Some(super::label(self.spec, t, self.globals)?),
                None => None,
            };
            let style = first.unwrap_or(Style {
                fill: default_fill,
                stroke: None,
                stroke_width: 1.0,
                dash,
            });
            self.legend_for(ch, label.as_deref(), st, Swatch::Patch, style);
        }
        Ok(Mark::Rects(items))
    }

    /// One side of a cell: `a` to `b` in numbers, or the slot of `a`'s
    /// category; `None` when neither is given (the band spans the axis).
    #[allow(clippy::too_many_arguments)]
    fn rect_side(
        &self,
        a: &Option<Channel>,
        b: &Option<Channel>,
        (n1, n2): (&'static str, &'static str),
        row: &Row,
        band: f64,
        st: &mut PanelState,
        vertical: bool,
    ) -> Result<Side> {
        let (cats, ext) = if vertical {
            (&mut st.ycats, &mut st.yext)
        } else {
            (&mut st.xcats, &mut st.xext)
        };
        let side = match (a, b) {
            (None, None) => return Ok(None),
            (Some(_), Some(_)) => {
                let lo = self.number(a.as_ref(), row, n1, 0.0)?;
                let hi = self.number(b.as_ref(), row, n2, 0.0)?;
                ((lo, hi), vec![(n1, num_text(lo)), (n2, num_text(hi))])
            }
            (Some(c), None) => {
                let v = c.eval(self.globals, row)?;
                if v.as_str().is_none() {
                    return Err(self.err(format!(
                        "a `rect` with a numeric `{n1}` needs `{n2}`: give each cell's two edges (binned numbers), or categories (strings) whose slot the cell fills"
                    )));
                }
                let (p, pos) = self.pos(c, row, n1, cats)?;
                let name = match pos {
                    Pos::Cat(name) => name,
                    Pos::Num(x) => num_text(x),
                };
                let r = (p - band / 2.0, p + band / 2.0);
                // A heatmap fills the plot: no margin beyond the cells.
                for e in [r.0, r.1] {
                    if !ext.sticky.contains(&e) {
                        ext.sticky.push(e);
                    }
                }
                (r, vec![(n1, name)])
            }
            (None, Some(_)) => {
                return Err(self.err(format!(
                    "a `rect` needs both `{n1}` and `{n2}`, or neither (to span the axis)"
                )));
            }
        };
        ext.add(side.0.0);
        ext.add(side.0.1);
        Ok(Some(side))
    }
}

/// `c` painted over white (its opacity blended in).
fn over_white(c: Color) -> Color {
    let m = |u: u8| (u as f64 * c.a + 255.0 * (1.0 - c.a)).round() as u8;
    Color::rgb(m(c.r), m(c.g), m(c.b))
}

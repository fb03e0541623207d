//! `errorbar` from given ends: a segment from `y` to `y2` at `x` (or `x`
//! to `x2` at `y` when horizontal); see [`super::errorband`] for extents
//! computed from raw rows.

use super::{Input, pos_key as pos_text};
use crate::color::Color;
use crate::error::Result;
use crate::figures::encode::num_text;
use crate::figures::encode::{CsvRecord, LayerCtx, PanelState};
use crate::figures::model::*;

impl LayerCtx<'_, '_> {
    /// Builds a `errorbar` layer from `inp`'s rows.
    pub(in crate::figures) fn errorbar(
        &self,
        inp: &Input<'_, '_, '_>,
        st: &mut PanelState,
        csv: &mut Vec<CsvRecord>,
    ) -> Result<Mark> {
        let ch = inp.ch;
        let rows = inp.rows;
        let dash = inp.dash;
        let horizontal = inp.horizontal;
        let od = self.dodge(ch, horizontal, rows, st)?;
        let ok = if horizontal { "yOffset" } else { "xOffset" };
        let mut items = Vec::new();
        for (i, row) in rows.iter().enumerate() {
            let shift = od.as_ref().map_or(0.0, |d| d.shift(i));
            let style = Style {
                fill: None,
                stroke: self.color(&ch.color, row, Some(Color::BLACK))?,
                stroke_width: self.number(ch.stroke_width.as_ref(), row, "stroke_width", 1.0)?,
                dash,
            };
            let (from, to, ex) = if horizontal {
                let (y, yr) = self.pos(self.need(&ch.y, "y")?, row, "y", &mut st.ycats)?;
                let y = y + shift;
                let a = self.number(ch.x.as_ref(), row, "x", 0.0)?;
                let b = self.number(ch.x2.as_ref(), row, "x2", 0.0)?;
                st.xext.add(a);
                st.xext.add(b);
                (
                    (a, y),
                    (b, y),
                    vec![
                        ("y", pos_text(&yr)),
                        ("x", num_text(a)),
                        ("x2", num_text(b)),
                    ],
                )
            } else {
                let (x, xr) = self.pos(self.need(&ch.x, "x")?, row, "x", &mut st.xcats)?;
                let x = x + shift;
                let a = self.number(ch.y.as_ref(), row, "y", 0.0)?;
                let b = self.number(ch.y2.as_ref(), row, "y2", 0.0)?;
                st.yext.add(a);
                st.yext.add(b);
                (
                    (x, a),
                    (x, b),
                    vec![
                        ("x", pos_text(&xr)),
                        ("y", num_text(a)),
                        ("y2", num_text(b)),
                    ],
                )
            };
            let mut ex = ex;
            if let Some(d) = &od {
                ex.insert(1, (ok, d.keys[i].0.clone()));
            }
            self.row_record(inp, ex, row, csv);
            items.push(Segment { from, to, style });
        }
        Ok(Mark::Segments(items))
    }
}

//! `hist`: numpy's histogram of `x` in `bins` equal bins (grouped by colour
//! in [`crate::figures::grouped`]).

use super::{Input, default_color};
use crate::error::Result;
use crate::figures::encode::{CsvRecord, LayerCtx, PanelState};
use crate::figures::encode::{num_text, pseudo_row};
use crate::figures::model::*;
use crate::spec::value;

impl LayerCtx<'_, '_> {
    /// Builds a `hist` layer from `inp`'s rows.
    pub(in crate::figures) fn hist(
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
        let base = inp.base;
        let default_fill = default_color();
        let xc = self.need(&ch.x, "x")?;
        let bins = value(&l.bins).unwrap_or(10);
        if bins == 0 {
            return Err(self.err("`bins` must be at least 1"));
        }
        let mut values = Vec::with_capacity(rows.len());
        for row in rows {
            let v = xc.eval(self.globals, row)?;
            values.push(xc.number(row, &v, "x")?);
        }
        self.hist_span_fits(&values)?;
        if let Some(m) = self.hist_groups(ch, rows, &values, bins, st, csv, base, dash)? {
            return Ok(m);
        }
        let (counts, edges) = crate::stats::histogram(&values, bins, None);
        for (c, raw, key) in [
            (&ch.color, &l.color, "color"),
            (&ch.stroke, &l.stroke, "stroke"),
            (&ch.opacity, &l.opacity, "opacity"),
            (&ch.stroke_width, &l.stroke_width, "stroke_width"),
        ] {
            self.constant_only(c.as_ref(), raw, key, "all its bars")?;
        }
        let style = self.fill_style(ch, &pseudo_row(), default_fill, dash)?;
        let mut items = Vec::with_capacity(bins);
        for (i, c) in counts.iter().enumerate() {
            st.xext.add(edges[i]);
            st.xext.add(edges[i + 1]);
            st.yext.add_base(0.0);
            // An empty bin draws nothing, also on a log axis.
            if *c > 0 {
                st.yext.add(*c as f64);
            }
            let mut r = base.clone();
            r.insert("x", num_text(edges[i]).into());
            r.insert("x2", num_text(edges[i + 1]).into());
            r.insert("y", c.to_string().into());
            csv.push(r);
            items.push(RectItem {
                x: Some((edges[i], edges[i + 1])),
                y: Some((0.0, *c as f64)),
                style: style.clone(),
            });
        }
        if let Some(lbl) = &label
            && l.legend != Some(false)
        {
            st.legend.push(LegendEntry {
                label: lbl.clone(),
                swatch: Swatch::Patch(style),
            });
        }
        Ok(Mark::Rects(items))
    }
}

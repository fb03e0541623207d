//! `area`: a filled area from a baseline `y2` (default 0) up to `y` along
//! `x`, one per series, drawn with opacity 0.7 by default so overlapping
//! areas stay readable.

use super::{Input, record};
use crate::error::Result;
use crate::figures::encode::{CsvRecord, LayerCtx, PanelState, Pos, num_text};
use crate::figures::model::*;

/// The closed outline of the area between `lower` and `upper` over the
/// same x's (each `(x, lower, upper)`, in x order): along the top, then
/// back along the bottom.
pub fn band_polygon(pts: &[(f64, f64, f64)]) -> Vec<(f64, f64)> {
    pts.iter()
        .map(|&(x, _, hi)| (x, hi))
        .chain(pts.iter().rev().map(|&(x, lo, _)| (x, lo)))
        .collect()
}

impl LayerCtx<'_, '_> {
    /// Builds an `area` layer.
    pub(in crate::figures) fn area(
        &self,
        inp: &Input,
        st: &mut PanelState,
        csv: &mut Vec<CsvRecord>,
    ) -> Result<Mark> {
        let missing = |n: &str| self.err(format!("an `area` layer needs `{n}`"));
        let xc = inp.ch.x.as_ref().ok_or_else(|| missing("x"))?;
        let yc = inp.ch.y.as_ref().ok_or_else(|| missing("y"))?;
        let groups = self.groups(inp)?;
        self.numeric_axis(&mut st.ycats, "y")?;
        let opacity = self.const_opacity(inp, 0.7)?;
        let width = self.const_width(inp, 1.0)?;
        let stroke = self.const_stroke(inp)?;
        let mut out = Vec::new();
        for g in &groups {
            let mut pts = Vec::with_capacity(g.rows.len());
            for row in &g.rows {
                let (x, xr) = self.pos(xc, row, "x", &mut st.xcats)?;
                let y = self.number(Some(yc), row, "y", 0.0)?;
                let y2 = self.number(inp.ch.y2.as_ref(), row, "y2", 0.0)?;
                st.xext.add(x);
                st.yext.add(y);
                st.yext.add(y2);
                csv.push(record(
                    inp.base,
                    vec![
                        ("series", g.key.clone()),
                        (
                            "x",
                            match xr {
                                Pos::Num(v) => num_text(v),
                                Pos::Cat(s) => s,
                            },
                        ),
                        ("y", num_text(y)),
                        ("y2", num_text(y2)),
                    ],
                ));
                pts.push((x, y2, y));
            }
            // Along x, as a line is drawn (stable: equal x keep row order).
            pts.sort_by(|a, b| a.0.total_cmp(&b.0));
            out.push(AreaItem {
                points: band_polygon(&pts),
                style: super::fill(g.color, opacity, stroke, width),
            });
        }
        if inp.ch.y2.is_none() && !st.yext.sticky.contains(&0.0) {
            st.yext.sticky.push(0.0);
        }
        self.group_legend(inp, &groups, st, |c| {
            Swatch::Patch(super::fill(c, opacity, stroke, width))
        });
        Ok(Mark::Areas(out))
    }
}

//! `rule`: a vertical (`x`), horizontal (`y`) or diagonal (y = x) line per
//! row, or one without data; with `x2` or `y2`, a segment (Vega-Lite's
//! rule: from `y` to `y2` at `x`, from `x` to `x2` at `y`, or from
//! (`x`, `y`) to (`x2`, `y2`)).

use super::Input;
use crate::color::Color;
use crate::error::Result;
use crate::figures::encode::{CsvRecord, LayerCtx, PanelState};
use crate::figures::encode::{num_text, pseudo_row};
use crate::figures::model::*;
use crate::value::Row;

impl LayerCtx<'_, '_> {
    /// Builds a `rule` layer from `inp`'s rows.
    pub(in crate::figures) fn rule(
        &self,
        inp: &Input<'_, '_, '_>,
        st: &mut PanelState,
        csv: &mut Vec<CsvRecord>,
    ) -> Result<Mark> {
        let ch = inp.ch;
        let rows = inp.rows;
        let dash = inp.dash;
        let label: Option<String> = inp.label.map(str::to_string);
        let diagonal = inp.diagonal;
        let data_rows: Vec<Row> = if rows.is_empty() {
            vec![pseudo_row()]
        } else {
            rows.to_vec()
        };
        let mut items = Vec::new();
        for row in &data_rows {
            let style = Style {
                fill: None,
                stroke: {
                    let opacity = self.number(ch.opacity.as_ref(), row, "opacity", 1.0)?;
                    self.color(&ch.color, row, Some(Color::BLACK))?
                        .map(|c| c.with_alpha(opacity))
                },
                stroke_width: self.number(ch.stroke_width.as_ref(), row, "stroke_width", 1.0)?,
                dash,
            };
            let kind = if diagonal {
                RuleKind::Diagonal
            } else if ch.x2.is_some() || ch.y2.is_some() {
                self.rule_segment(inp, row, st)?
            } else if let Some(xc) = &ch.x {
                let (x, _) = self.pos(xc, row, "x", &mut st.xcats)?;
                st.xext.add(x);
                RuleKind::X(x)
            } else if let Some(yc) = &ch.y {
                let (y, _) = self.pos(yc, row, "y", &mut st.ycats)?;
                st.yext.add(y);
                RuleKind::Y(y)
            } else {
                return Err(self.err(
                    "a `rule` needs `x` (vertical), `y` (horizontal) or `orient = \"diagonal\"`",
                ));
            };
            let mut extra = match &kind {
                RuleKind::X(x) => vec![("x", num_text(*x))],
                RuleKind::Y(y) => vec![("y", num_text(*y))],
                RuleKind::Diagonal => vec![("x", "y=x".to_string())],
                RuleKind::Segment(a, b) => vec![
                    ("x", num_text(a.0)),
                    ("y", num_text(a.1)),
                    ("x2", num_text(b.0)),
                    ("y2", num_text(b.1)),
                ],
            };
            extra.push(("color", style.stroke.map(|c| c.hex()).unwrap_or_default()));
            self.row_record(inp, extra, row, csv);
            items.push(RuleItem { kind, style });
        }
        if let Some(first) = items.first() {
            // A colour scale's entries show the colour as the line's stroke.
            self.legend_for(
                ch,
                label.as_deref(),
                st,
                |s| {
                    Swatch::Line(
                        Style {
                            stroke: s.fill.or(s.stroke),
                            fill: None,
                            ..s
                        },
                        None,
                    )
                },
                first.style.clone(),
            );
        }
        Ok(Mark::Rules(items))
    }
}

impl LayerCtx<'_, '_> {
    /// A row's segment: from (`x`, `y`) to (`x2` or `x`, `y2` or `y`); the
    /// plan made sure `x` and `y` are there.
    fn rule_segment(
        &self,
        inp: &Input<'_, '_, '_>,
        row: &Row,
        st: &mut PanelState,
    ) -> Result<RuleKind> {
        let ch = inp.ch;
        let (x, _) = self.pos(self.need(&ch.x, "x")?, row, "x", &mut st.xcats)?;
        let (y, _) = self.pos(self.need(&ch.y, "y")?, row, "y", &mut st.ycats)?;
        let x2 = match &ch.x2 {
            Some(c) => self.pos(c, row, "x2", &mut st.xcats)?.0,
            None => x,
        };
        let y2 = match &ch.y2 {
            Some(c) => self.pos(c, row, "y2", &mut st.ycats)?.0,
            None => y,
        };
        for v in [x, x2] {
            st.xext.add(v);
        }
        for v in [y, y2] {
            st.yext.add(v);
        }
        Ok(RuleKind::Segment((x, y), (x2, y2)))
    }
}

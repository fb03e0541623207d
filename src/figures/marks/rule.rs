//! `rule`: a vertical (`x`), horizontal (`y`) or diagonal (y = x) line per
//! row, or one without data.

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
            let (k, v) = match &kind {
                RuleKind::X(x) => ("x", num_text(*x)),
                RuleKind::Y(y) => ("y", num_text(*y)),
                RuleKind::Diagonal => ("x", "y=x".to_string()),
            };
            self.row_record(
                inp,
                vec![
                    (k, v),
                    ("color", style.stroke.map(|c| c.hex()).unwrap_or_default()),
                ],
                row,
                csv,
            );
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

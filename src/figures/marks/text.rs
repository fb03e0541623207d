//! `text`: a template's text at each row's position (the `text` mark).

use super::{Input, pos_key as pos_text};
use crate::color::Color;
use crate::error::Result;
use crate::figures::encode::check_row_label;
use crate::figures::encode::{CsvRecord, LayerCtx, PanelState};
use crate::figures::layers::MAX_MOVABLE_LABELS;
use crate::figures::model::*;
use crate::spec::value;

impl LayerCtx<'_, '_> {
    /// Builds a `text` layer from `inp`'s rows.
    pub(in crate::figures) fn text_mark(
        &self,
        inp: &Input<'_, '_, '_>,
        st: &mut PanelState,
        csv: &mut Vec<CsvRecord>,
    ) -> Result<Mark> {
        let l = self.layer;
        let ch = inp.ch;
        let rows = inp.rows;
        let text_tpl = inp.text;
        let (xc, yc) = (self.need(&ch.x, "x")?, self.need(&ch.y, "y")?);
        let tpl = text_tpl
            .as_ref()
            .ok_or_else(|| self.err("a `text` layer needs `text` (a template)"))?;
        let align = match l.align.as_deref() {
            None | Some("center") => Align::Center,
            Some("left") => Align::Left,
            Some("right") => Align::Right,
            Some(o) => {
                return Err(self.err(format!("unknown align `{o}` (left, center, right)")));
            }
        };
        let baseline = match l.baseline.as_deref() {
            None | Some("bottom") => Baseline::Bottom,
            Some("middle") => Baseline::Middle,
            Some("top") => Baseline::Top,
            Some(o) => {
                return Err(self.err(format!("unknown baseline `{o}` (bottom, middle, top)")));
            }
        };
        let xd = self.dodge(ch, false, rows, st)?;
        let yd = self.dodge(ch, true, rows, st)?;
        let mut items = Vec::new();
        for (i, row) in rows.iter().enumerate() {
            let (mut x, xr) = self.pos(xc, row, "x", &mut st.xcats)?;
            let (mut y, yr) = self.pos(yc, row, "y", &mut st.ycats)?;
            x += xd.as_ref().map_or(0.0, |d| d.shift(i));
            y += yd.as_ref().map_or(0.0, |d| d.shift(i));
            let text = tpl.render_row(self.globals, row)?;
            check_row_label(row, "text", &text)?;
            let opacity = self.number(ch.opacity.as_ref(), row, "opacity", 1.0)?;
            let col = self
                .color(&ch.color, row, Some(Color::BLACK))?
                .unwrap_or(Color::BLACK)
                .with_alpha(opacity);
            self.row_record(
                inp,
                vec![
                    ("x", pos_text(&xr)),
                    ("y", pos_text(&yr)),
                    ("text", text.clone()),
                ],
                row,
                csv,
            );
            items.push(TextItem {
                x,
                y,
                text,
                dx: value(&l.dx).unwrap_or(0.0),
                dy: value(&l.dy).unwrap_or(0.0),
                align,
                baseline,
                size: value(&l.font_size).unwrap_or(self.font_size),
                color: col,
            });
        }
        let avoid_overlap = value(&l.avoid_overlap) == Some(true);
        if avoid_overlap && items.len() > MAX_MOVABLE_LABELS {
            // Placement tries positions against every placed label:
            // thousands take minutes.
            let span = l
                .avoid_overlap
                .as_ref()
                .map_or(self.span.clone(), |s| s.span());
            return Err(self.spec.error(
                span,
                format!(
                    "avoid_overlap places at most {MAX_MOVABLE_LABELS} labels; this layer has {}: filter the table (`where`) or drop avoid_overlap",
                    items.len()
                ),
            ));
        }
        Ok(Mark::Texts {
            items,
            avoid_overlap,
        })
    }
}

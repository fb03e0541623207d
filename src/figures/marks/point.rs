//! `point`: one marker per row (size as area in pt², as matplotlib's `s`),
//! dodged by `xOffset`/`yOffset`.

use super::{Input, default_color, pos_key as pos_text};
use crate::error::Result;
use crate::figures::encode::num_text;
use crate::figures::encode::{CsvRecord, LayerCtx, PanelState};
use crate::figures::model::*;

impl LayerCtx<'_, '_> {
    /// Builds a `point` layer from `inp`'s rows.
    pub(in crate::figures) fn point(
        &self,
        inp: &Input<'_, '_, '_>,
        st: &mut PanelState,
        csv: &mut Vec<CsvRecord>,
    ) -> Result<Mark> {
        let ch = inp.ch;
        let rows = inp.rows;
        let dash = inp.dash;
        let label: Option<String> = inp.label.map(str::to_string);
        let default_fill = default_color();
        let (xc, yc) = (self.need(&ch.x, "x")?, self.need(&ch.y, "y")?);
        let xd = self.dodge(ch, false, rows, st)?;
        let yd = self.dodge(ch, true, rows, st)?;
        let by_offset = self.colours_by_offset(&xd) || self.colours_by_offset(&yd);
        let mut items = Vec::with_capacity(rows.len());
        for (i, row) in rows.iter().enumerate() {
            let (mut x, xr) = self.pos(xc, row, "x", &mut st.xcats)?;
            let (mut y, yr) = self.pos(yc, row, "y", &mut st.ycats)?;
            x += xd.as_ref().map_or(0.0, |d| d.shift(i));
            y += yd.as_ref().map_or(0.0, |d| d.shift(i));
            let area = self.number(ch.size.as_ref(), row, "size", 36.0)?;
            let opacity = self.number(ch.opacity.as_ref(), row, "opacity", 1.0)?;
            let own = match (&xd, &yd) {
                (Some(d), _) | (None, Some(d)) if by_offset => d.fill(i),
                _ => default_fill,
            };
            let fill = self.color(&ch.color, row, own)?;
            let shape = self.shape(&ch.shape, row)?;
            let sw = self.number(ch.stroke_width.as_ref(), row, "stroke_width", 1.0)?;
            let stroke = if sw > 0.0 {
                self.color(&ch.stroke, row, None)?
            } else {
                None
            };
            st.xext.add(x);
            st.yext.add(y);
            let mut extra = vec![("x", pos_text(&xr))];
            if let Some(d) = &xd {
                extra.push(("xOffset", d.keys[i].0.clone()));
            }
            extra.push(("y", pos_text(&yr)));
            if let Some(d) = &yd {
                extra.push(("yOffset", d.keys[i].0.clone()));
            }
            extra.extend([
                ("size", num_text(area)),
                ("color", fill.map(|c| c.hex()).unwrap_or_default()),
                ("shape", format!("{shape:?}").to_lowercase()),
            ]);
            self.row_record(inp, extra, row, csv);
            items.push(PointItem {
                x,
                y,
                shape,
                diameter: area.max(0.0).sqrt(),
                style: Style {
                    fill: fill.map(|c| c.with_alpha(opacity)),
                    stroke: stroke.map(|c| c.with_alpha(opacity)),
                    stroke_width: sw,
                    dash,
                },
            });
        }
        let d = items.first().map_or(6.0, |p| p.diameter.clamp(4.0, 9.0));
        let first_style = items
            .first()
            .map(|p| Style {
                stroke: None,
                ..p.style.clone()
            })
            .unwrap_or(Style {
                fill: default_fill,
                stroke: None,
                stroke_width: 0.0,
                dash,
            });
        let shape_chan = &ch.shape;
        match (&xd, &yd) {
            (Some(od), _) | (None, Some(od)) if by_offset => {
                let on_y = xd.is_none();
                let cats = std::mem::take(if on_y { &mut st.yoffs } else { &mut st.xoffs });
                self.offset_legend(
                    od,
                    &cats,
                    st,
                    |style| Swatch::Marker(Shape::Circle, d, style),
                    first_style,
                );
                *(if on_y { &mut st.yoffs } else { &mut st.xoffs }) = cats;
            }
            _ => self.legend_for(
                ch,
                label.as_deref(),
                st,
                |style| Swatch::Marker(Shape::Circle, d, style),
                first_style,
            ),
        }
        // A scale on both colour and shape: legend markers take the mapped shape.
        if let (Some(sc), Some(cc)) = (shape_chan, &ch.color)
            && sc.scale_expr().map(|e| e.text) == cc.scale_expr().map(|e| e.text)
        {
            for entry in st.legend.iter_mut() {
                if let (Swatch::Marker(s, _, _), Some(out)) =
                    (&mut entry.swatch, sc.output_for(&entry.label))
                {
                    *s = Shape::parse(&out).unwrap_or(Shape::Circle);
                }
            }
        }
        Ok(Mark::Points(items))
    }
}

//! `bar`: one rectangle per row from the axis (or `y2`/`x2`) to the value;
//! stacked (`stack`), dodged (`xOffset`/`yOffset`), hatched, with value labels
//! (`text`).

use super::{Input, default_color, pos_key as pos_text};
use crate::error::Result;
use crate::figures::encode::{CsvRecord, LayerCtx, PanelState, Pos};
use crate::figures::encode::{check_row_label, num_text};
use crate::figures::grouped::{Stack, Stacker};
use crate::figures::model::*;
use crate::spec::value;
use crate::value::Row;

impl LayerCtx<'_, '_> {
    /// Builds a `bar` layer from `inp`'s rows.
    pub(in crate::figures) fn bar(
        &self,
        inp: &Input<'_, '_, '_>,
        st: &mut PanelState,
        csv: &mut Vec<CsvRecord>,
    ) -> Result<Mark> {
        let l = self.layer;
        let ch = inp.ch;
        let rows = inp.rows;
        let dash = inp.dash;
        let horizontal = inp.horizontal;
        let label: Option<String> = inp.label.map(str::to_string);
        let text_tpl = inp.text;
        let default_fill = default_color();
        let band = value(&l.band).unwrap_or(0.8);
        let (pc, vc, bc) = if horizontal {
            (self.need(&ch.y, "y")?, self.need(&ch.x, "x")?, &ch.x2)
        } else {
            (self.need(&ch.x, "x")?, self.need(&ch.y, "y")?, &ch.y2)
        };
        let stack = self.stack_mode()?;
        if stack != Stack::Off && bc.is_some() {
            let (raw, k) = if horizontal {
                (&l.x2, "x2")
            } else {
                (&l.y2, "y2")
            };
            return Err(self.spec.error(
                raw.as_ref().map_or(self.span.clone(), |r| r.span()),
                format!("stacked bars start where the previous one ends: drop `{k}` (or `stack`)"),
            ));
        }
        // On a log axis a bar without a stated base (`y2`, `x2`) grows from
        // 1, not from the axis's low end: 0.375x is drawn down from 1.
        let log_base =
            stack == Stack::Off && bc.is_none() && if horizontal { st.log.0 } else { st.log.1 };
        let default_base = if log_base { 1.0 } else { 0.0 };
        // Positions and values first: a normalized stack needs its totals.
        let mut placed = Vec::with_capacity(rows.len());
        for row in rows {
            let (p, praw) = if horizontal {
                self.pos(pc, row, "y", &mut st.ycats)?
            } else {
                self.pos(pc, row, "x", &mut st.xcats)?
            };
            let v = self.number(Some(vc), row, if horizontal { "x" } else { "y" }, 0.0)?;
            let b = self.number(
                bc.as_ref(),
                row,
                if horizontal { "x2" } else { "y2" },
                default_base,
            )?;
            // Shares of a whole are undefined with negative parts.
            if stack == Stack::Normalize && v < 0.0 {
                let field = if horizontal { "x" } else { "y" };
                return Err(crate::tables::aggregate::field_error(
                    row,
                    field,
                    format!(
                        "`stack = \"normalize\"` draws shares of a whole; `{field}` is {v} here: shares of negative parts are undefined (use `stack = true`)"
                    ),
                ));
            }
            placed.push((p, praw, v, b));
        }
        let dodge = self.dodge(ch, horizontal, rows, st)?;
        let padding = self.padding(dodge.is_some(), 0.1)?;
        let by_offset = self.colours_by_offset(&dodge);
        let group = |i: usize| dodge.as_ref().map_or(0, |d| d.keys[i].1);
        if stack == Stack::Off && bc.is_none() {
            self.no_bar_over_another(&placed, &group, rows, horizontal)?;
        }
        let mut stacker = Stacker::new(
            stack,
            placed
                .iter()
                .enumerate()
                .map(|(i, (p, _, v, _))| (*p, group(i), *v)),
        );
        let mut items = Vec::with_capacity(rows.len());
        let mut hatches = Vec::new();
        let mut texts = Vec::new();
        for (i, (row, (p, praw, v0, b0))) in rows.iter().zip(placed).enumerate() {
            let (b, v) = match stack {
                Stack::Off => (b0, v0),
                _ => stacker.place(p, group(i), v0),
            };
            let fill = match &dodge {
                Some(d) if by_offset => d.fill(i),
                _ => default_fill,
            };
            let style = self.fill_style(ch, row, fill, dash)?;
            let span = match &dodge {
                Some(d) => {
                    let c = p + d.shift(i);
                    let w = d.slot() * (1.0 - padding);
                    (c - w / 2.0, c + w / 2.0)
                }
                None => (p - band / 2.0, p + band / 2.0),
            };
            let (pe, ve) = if horizontal {
                (&mut st.yext, &mut st.xext)
            } else {
                (&mut st.xext, &mut st.yext)
            };
            pe.add(span.0);
            pe.add(span.1);
            ve.add(v);
            // A log axis shows the base 1, where its margin stops.
            if bc.is_some() || log_base || (stack != Stack::Off && b != 0.0) {
                ve.add(b);
            }
            if stack == Stack::Off || b == 0.0 {
                ve.add_base(b);
            }
            let (xk, yk, bk, ok) = if horizontal {
                ("y", "x", "x2", "yOffset")
            } else {
                ("x", "y", "y2", "xOffset")
            };
            let mut extra = vec![(xk, pos_text(&praw))];
            if let Some(d) = &dodge {
                extra.push((ok, d.keys[i].0.clone()));
            }
            extra.push((yk, num_text(v)));
            extra.push((bk, num_text(b)));
            if stack != Stack::Off {
                extra.push(("value", num_text(v0)));
            }
            extra.push(("color", style.fill.map(|c| c.hex()).unwrap_or_default()));
            let hatch = self.hatch(ch, row)?;
            if let Some(h) = hatch {
                extra.push((
                    "hatch",
                    crate::figures::colorscale::hatch_name(h).to_string(),
                ));
            }
            if let Some(tpl) = &text_tpl {
                let t = tpl.render_row(self.globals, row)?;
                check_row_label(row, "text", &t)?;
                extra.push(("text", t.clone()));
                texts.push(t);
            }
            self.row_record(inp, extra, row, csv);
            if let Some(pattern) = hatch {
                let (x, y) = if horizontal {
                    ((b, v), span)
                } else {
                    (span, (b, v))
                };
                hatches.push(HatchItem { x, y, pattern });
            }
            items.push(if horizontal {
                RectItem {
                    x: Some((b, v)),
                    y: Some(span),
                    style,
                }
            } else {
                RectItem {
                    x: Some(span),
                    y: Some((b, v)),
                    style,
                }
            });
        }
        let first = Style {
            fill: items.first().and_then(|i| i.style.fill).or(default_fill),
            stroke: items.first().and_then(|i| i.style.stroke),
            stroke_width: 1.0,
            dash,
        };
        let legend_from = st.legend.len();
        match &dodge {
            Some(d) if by_offset => {
                let cats = std::mem::take(if horizontal {
                    &mut st.yoffs
                } else {
                    &mut st.xoffs
                });
                self.offset_legend(d, &cats, st, Swatch::Patch, first);
                *(if horizontal {
                    &mut st.yoffs
                } else {
                    &mut st.xoffs
                }) = cats;
            }
            _ => self.legend_for(ch, label.as_deref(), st, Swatch::Patch, first),
        }
        // (Colours by offset are side by side, not stacked: kept in order.)
        if stack != Stack::Off && !horizontal && !(dodge.is_some() && by_offset) {
            // A vertical stack's legend reads top-down, as the stack does
            // (Vega-Lite, ggplot2): the last row stacked, the top, first.
            st.legend[legend_from..].reverse();
        }
        if !hatches.is_empty() {
            st.extra.push(Mark::Hatches(hatches));
        }
        if text_tpl.is_some() {
            use crate::figures::text_marks::{BarTextPos, bar_labels};
            let pos = match &l.text_position {
                None => BarTextPos::Outside,
                Some(p) => BarTextPos::parse(p.get_ref()).ok_or_else(|| {
                    self.spec.error(
                        p.span(),
                        format!("unknown text_position `{}` (outside, inside)", p.get_ref()),
                    )
                })?,
            };
            let size = value(&l.font_size).unwrap_or(self.font_size);
            st.extra.push(Mark::Texts {
                items: bar_labels(&items, &texts, horizontal, pos, size),
                avoid_overlap: false,
            });
        }
        Ok(Mark::Rects(items))
    }

    /// Two rows of one bar layer at the same category (and offset group)
    /// with neither `stack` nor a base would draw one bar over the other:
    /// the second hid the first without a word (a new user's trial).
    fn no_bar_over_another(
        &self,
        placed: &[(f64, Pos, f64, f64)],
        group: &dyn Fn(usize) -> usize,
        rows: &[Row],
        horizontal: bool,
    ) -> Result<()> {
        let mut seen: std::collections::HashMap<(u64, usize), usize> =
            std::collections::HashMap::with_capacity(placed.len());
        for (i, (p, praw, _, _)) in placed.iter().enumerate() {
            if let Some(&j) = seen.get(&(p.to_bits(), group(i))) {
                let (row, first) = (&rows[i], &rows[j]);
                let at = match praw {
                    Pos::Num(x) => num_text(*x),
                    Pos::Cat(c) => format!("`{c}`"),
                };
                let axis = if horizontal { "y" } else { "x" };
                return Err(crate::error::Error::input(
                    row.origin.path.to_string(),
                    row.origin.line_opt(),
                    Some(axis.into()),
                    format!(
                        "this row's bar at {axis} = {at} would be drawn over the bar of {}: one bar per {axis} in a layer; stack them (`stack = true`), dodge them (`{axis}Offset`), or group the table first",
                        first.origin.describe()
                    ),
                ));
            }
            seen.insert((p.to_bits(), group(i)), i);
        }
        Ok(())
    }
}

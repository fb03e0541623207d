//! Histograms per group (a `series`, a `color` from the data, or an
//! `xOffset`): one set of numpy edges over all the layer's values, then
//! the groups overlaid, stacked or side by side within each bin.

use indexmap::IndexMap;

use super::channels::Chan;
use super::encode::{Chans, CsvRecord, LayerCtx, PanelState, check_row_label, csv_text};
use super::grouped::{MAX_HIST_BARS, MAX_HIST_GROUPS, Stack, offset_key, push_legend};
use super::model::*;
use crate::color::Color;
use crate::error::Result;
use crate::value::Row;

impl<'a, 's> LayerCtx<'a, 's> {
    /// A histogram's bins split max − min; when that overflows (values
    /// near ±1.8e308) every edge would be NaN, so it is an error naming
    /// both ends in short form.
    pub(super) fn hist_span_fits(&self, values: &[f64]) -> Result<()> {
        let (lo, hi) = values
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &x| {
                (a.min(x), b.max(x))
            });
        if values.is_empty() || (hi - lo).is_finite() {
            return Ok(());
        }
        Err(self.err(format!(
            "a `hist` over [{}, {}] has bins wider than double precision holds: rescale the values (other units)",
            super::short(lo),
            super::short(hi)
        )))
    }

    /// A histogram per group (a `series`, a `color` from the data, or an
    /// `xOffset`) over shared edges, numpy's over all the layer's values:
    /// overlaid (opacity 0.5 unless given), stacked, or side by side within
    /// each bin. `None` when the layer has no groups.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn hist_groups(
        &self,
        ch: &Chans,
        rows: &[Row],
        values: &[f64],
        bins: usize,
        st: &mut PanelState,
        csv: &mut Vec<CsvRecord>,
        base: &CsvRecord,
        dash: Dash,
    ) -> Result<Option<Mark>> {
        let l = self.layer;
        let series = self.plan.series.as_ref().map(|s| s.get()).transpose()?;
        let color_field = matches!(
            ch.color.as_ref().map(|c| c.plan),
            Some(Chan::Scale { .. } | Chan::Expr(_))
        );
        let dodge = self.dodge(ch, false, rows, st)?;
        let stack = self.stack_mode()?;
        if series.is_none() && !color_field && dodge.is_none() {
            if stack != Stack::Off {
                return Err(self.err_at(
                    &l.stack,
                    "`stack` on a `hist` stacks its groups: give `color = { field = ... }` or `series`",
                ));
            }
            self.padding(false, 0.0)?;
            return Ok(None);
        }
        if stack == Stack::Normalize {
            return Err(self.err_at(
                &l.stack,
                "`stack = \"normalize\"` on a `hist` would draw every bin at 1: use `true`",
            ));
        }
        if dodge.is_some() && stack != Stack::Off {
            return Err(self.err_at(
                &l.stack,
                "a `hist` is either stacked or side by side (`xOffset`), not both",
            ));
        }
        let padding = self.padding(dodge.is_some(), 0.0)?;
        if let Some(lbl) = &l.label {
            return Err(self.spec.error(
                lbl.span(),
                "a `hist` with groups takes its legend entries from the groups' values: drop `label`",
            ));
        }
        for (c, raw, key) in [
            (&ch.stroke, &l.stroke, "stroke"),
            (&ch.opacity, &l.opacity, "opacity"),
            (&ch.stroke_width, &l.stroke_width, "stroke_width"),
        ] {
            self.constant_only(c.as_ref(), raw, key, "all its bars")?;
        }
        // Group key and colour per row, groups in first-seen order.
        let mut groups: IndexMap<String, (Vec<f64>, Option<Color>, usize)> = IndexMap::new();
        for (i, row) in rows.iter().enumerate() {
            let key = if let Some(d) = &dodge {
                d.keys[i].0.clone()
            } else if let Some(e) = &series {
                let v = e.eval_row(self.globals, row)?;
                super::channels::no_value_is_no_group(row, e.text, &v, "series")?;
                let k = csv_text(&v);
                check_row_label(row, e.text, &k)?;
                k
            } else {
                offset_key(
                    self,
                    ch.color.as_ref().expect("colour field"),
                    row,
                    "colour",
                )?
            };
            let order = groups.len();
            let default = match &dodge {
                Some(d) => d.fill(i),
                None => self.group_colour(&key, groups.get_index_of(&key).unwrap_or(order)),
            };
            let col = self.color(&ch.color, row, default)?;
            let entry = groups.entry(key.clone()).or_insert_with(|| {
                (
                    Vec::new(),
                    col,
                    dodge.as_ref().map_or(order, |d| d.keys[i].1),
                )
            });
            if entry.1 != col {
                return Err(super::encode::colour_change(
                    row,
                    "a histogram has one colour per group",
                    &format!("group `{key}`"),
                    col,
                    entry.1,
                    "",
                ));
            }
            entry.0.push(values[i]);
            if groups.len() > MAX_HIST_GROUPS {
                return Err(self.err(format!(
                    "a `hist` has more than {MAX_HIST_GROUPS} groups; is the group field right?"
                )));
            }
        }
        if groups.len() * bins > MAX_HIST_BARS {
            return Err(self.err(format!(
                "a `hist` with {} groups of {bins} bins would draw more than {MAX_HIST_BARS} bars: fewer `bins` or groups",
                groups.len()
            )));
        }
        let (_, edges) = crate::stats::histogram(values, bins, None);
        let range = (edges[0], edges[bins]);
        let default_opacity = if stack == Stack::Off && dodge.is_none() {
            0.5
        } else {
            1.0
        };
        let opacity = self.number(
            ch.opacity.as_ref(),
            &super::encode::pseudo_row(),
            "opacity",
            default_opacity,
        )?;
        let stroke = self.color(&ch.stroke, &super::encode::pseudo_row(), None)?;
        let stroke_width = self.number(
            ch.stroke_width.as_ref(),
            &super::encode::pseudo_row(),
            "stroke_width",
            1.0,
        )?;
        let n = dodge.as_ref().map_or(1, |d| d.n);
        let legend_from = st.legend.len();
        let mut tops = vec![0.0f64; bins];
        let mut items = Vec::new();
        for (key, (vals, col, slot_i)) in &groups {
            let (counts, _) = crate::stats::histogram(vals, bins, Some(range));
            let style = Style {
                fill: col.map(|c| c.with_alpha(opacity)),
                stroke,
                stroke_width,
                dash,
            };
            for (b, c) in counts.iter().enumerate() {
                let c = *c as f64;
                let (y0, y1) = match stack {
                    Stack::Off => (0.0, c),
                    _ => {
                        let y0 = tops[b];
                        tops[b] += c;
                        (y0, tops[b])
                    }
                };
                let (x0, x1) = if dodge.is_some() {
                    let w = (edges[b + 1] - edges[b]) / n as f64;
                    let a = edges[b] + *slot_i as f64 * w;
                    (a + w * padding / 2.0, a + w - w * padding / 2.0)
                } else {
                    (edges[b], edges[b + 1])
                };
                st.xext.add(edges[b]);
                st.xext.add(edges[b + 1]);
                st.yext.add(y0);
                st.yext.add(y1);
                let mut r = base.clone();
                r.insert("group", key.as_str().into());
                r.insert("x", super::encode::num_text(x0).into());
                r.insert("x2", super::encode::num_text(x1).into());
                r.insert("bin", super::encode::num_text(edges[b]).into());
                r.insert("bin2", super::encode::num_text(edges[b + 1]).into());
                r.insert("count", ((c as u64).to_string()).into());
                r.insert("y", super::encode::num_text(y1).into());
                r.insert("y2", super::encode::num_text(y0).into());
                r.insert("color", col.map(|c| c.hex()).unwrap_or_default().into());
                csv.push(r);
                items.push(RectItem {
                    x: Some((x0, x1)),
                    y: Some((y0, y1)),
                    style: style.clone(),
                });
            }
            if l.legend != Some(false) {
                push_legend(
                    st,
                    LegendEntry {
                        label: key.clone(),
                        swatch: Swatch::Patch(style),
                    },
                );
            }
        }
        if stack != Stack::Off {
            // The top group first, as the stack reads (see `bar`).
            st.legend[legend_from..].reverse();
        }
        st.yext.sticky.push(0.0);
        Ok(Some(Mark::Rects(items)))
    }
}

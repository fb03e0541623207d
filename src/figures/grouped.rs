//! Grouped and stacked marks: the `xOffset` / `yOffset` channels (Vega-Lite's)
//! that dodge bars, points, error bars and texts within a category, `stack`
//! on bars; histograms per group are in `hist_groups.rs`.
//!
//! Geometry of a dodge: a category at position `p` has a band of width
//! `band` (default 0.8 of its slot) centred on `p`; the band is split into
//! one equal sub-band per offset value the panel has seen (first-seen order,
//! or the scale's `domain` first), and a row sits at the centre of its
//! value's sub-band. A bar fills `1 - padding` of its sub-band, so padding
//! never moves a centre: points and error bars with the same offset land
//! on their bars. A category lacking a value leaves that sub-band empty (a
//! gap, as Vega-Lite draws it). The panel's values are collected from all
//! its layers before any is built ([`LayerCtx::register_offsets`]), so a
//! later layer with a value the bars lack does not shift them.

use indexmap::IndexMap;

use super::channels::{Chan, Channel};
use super::encode::{
    Categories, Chans, CsvRecord, LayerCtx, PanelState, check_row_label, csv_text,
};
use super::model::*;
use crate::color::Color;
use crate::error::{Error, Result};
use crate::spec::value;
use crate::value::Row;

/// At most this many offset values (sub-bands) in a panel.
pub const MAX_OFFSETS: usize = 1000;

/// At most this many groups in one histogram layer.
pub const MAX_HIST_GROUPS: usize = 1000;

/// At most this many bars (groups times bins) in one grouped histogram.
pub const MAX_HIST_BARS: usize = 200_000;

/// A layer's dodge along one axis: each row's sub-band.
#[derive(Debug)]
pub(super) struct Dodge {
    /// Per row: the offset value and its index among the panel's values.
    pub(super) keys: Vec<(String, usize)>,
    /// Sub-bands per category (the panel's offset values so far).
    pub(super) n: usize,
    /// The width the groups of a category share, in data units.
    pub(super) band: f64,
    /// Per row: its offset value's colour when the offset colours the
    /// layer (the paper's colour of the value).
    pub(super) colours: Vec<Option<Color>>,
}

impl Dodge {
    /// Where row `i`'s sub-band centre lies relative to its category.
    pub(super) fn shift(&self, i: usize) -> f64 {
        -self.band / 2.0 + (self.keys[i].1 as f64 + 0.5) * self.slot()
    }

    /// One sub-band's width.
    pub(super) fn slot(&self) -> f64 {
        self.band / self.n.max(1) as f64
    }

    /// The default fill of row `i` when the offset colours the layer.
    pub(super) fn fill(&self, i: usize) -> Option<Color> {
        self.colours[i]
    }
}

/// `xOffset`/`yOffset` split a category's band; on an axis of numbers a
/// shift would move marks off their values, so it is an error at the
/// channel naming the layer's first number on that axis.
pub(super) fn offset_on_numbers(
    spec: &crate::spec::LoadedSpec,
    layer: &crate::spec::LayerSpec,
    cats: (&Categories, &Categories),
    records: &[CsvRecord],
) -> Result<()> {
    // A histogram's `xOffset` dodges within its bins, on numbers.
    if layer.mark.get_ref() == "hist" {
        return Ok(());
    }
    for (name, axis, raw, c) in [
        ("xOffset", "x", &layer.x_offset, cats.0),
        ("yOffset", "y", &layer.y_offset, cats.1),
    ] {
        let Some(raw) = raw else { continue };
        if !c.numeric {
            continue;
        }
        let first = records
            .iter()
            .find_map(|r| r.get(axis).filter(|v| v.parse::<f64>().is_ok()))
            .map_or(String::new(), |v| format!(" ({v})"));
        return Err(spec.error(
            raw.span(),
            format!("{name} dodges within categories; {axis} here holds numbers{first}"),
        ));
    }
    Ok(())
}

/// How a `stack` key stacks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Stack {
    /// Each bar from its own base.
    Off,
    /// Stacked from 0 (Vega-Lite's `"zero"`).
    Zero,
    /// Stacked shares of the group's total, summing to 1 (values are not
    /// negative: the layer refuses them).
    Normalize,
}

/// Running tops of stacks, one per key (a category, an offset group) and
/// sign: positive values grow up from 0, negative ones down (Vega-Lite).
#[derive(Debug, Default)]
pub(super) struct Stacker {
    up: IndexMap<(u64, usize), f64>,
    down: IndexMap<(u64, usize), f64>,
    totals: IndexMap<(u64, usize), f64>,
}

impl Stacker {
    /// A stacker; for `Normalize`, `all` gives every (position, group,
    /// value) first, to total each stack.
    pub(super) fn new(mode: Stack, all: impl Iterator<Item = (f64, usize, f64)>) -> Stacker {
        let mut s = Stacker::default();
        if mode == Stack::Normalize {
            for (p, g, v) in all {
                *s.totals.entry((p.to_bits(), g)).or_default() += v.abs();
            }
        }
        s
    }

    /// Base and top of the next value `v` at position `p`, group `g`.
    pub(super) fn place(&mut self, p: f64, g: usize, v: f64) -> (f64, f64) {
        let key = (p.to_bits(), g);
        let v = match self.totals.get(&key) {
            Some(t) if *t > 0.0 => v / t,
            _ => v,
        };
        let run = if v < 0.0 {
            self.down.entry(key).or_default()
        } else {
            self.up.entry(key).or_default()
        };
        let base = *run;
        *run += v;
        (base, *run)
    }
}

/// A legend's entries with repeats merged: an entry equal to an earlier
/// one (label and swatch) goes, and a line and a marker of one label and
/// colour (a line layer and a point layer coloured by one field) become
/// one line-with-marker swatch.
pub(super) fn merge_legend(entries: Vec<LegendEntry>) -> Vec<LegendEntry> {
    fn line_marker(a: &Swatch, b: &Swatch) -> Option<Swatch> {
        match (a, b) {
            (Swatch::Line(l, None), Swatch::Marker(shape, size, m))
            | (Swatch::Marker(shape, size, m), Swatch::Line(l, None))
                if l.stroke.is_some() && l.stroke == m.fill.or(m.stroke) =>
            {
                Some(Swatch::Line(l.clone(), Some((*shape, *size))))
            }
            _ => None,
        }
    }
    let mut out: Vec<LegendEntry> = Vec::with_capacity(entries.len());
    for e in entries {
        if out.contains(&e) {
            continue;
        }
        if let Some(prev) = out.iter_mut().find(|p| p.label == e.label)
            && let Some(both) = line_marker(&prev.swatch, &e.swatch)
        {
            prev.swatch = both;
            continue;
        }
        out.push(e);
    }
    out
}

/// Adds a legend entry unless one with the same text is there (a bar and
/// an error bar layer dodged by the same field share one legend).
pub(super) fn push_legend(st: &mut PanelState, entry: LegendEntry) {
    if !st.legend.iter().any(|e| e.label == entry.label) {
        st.legend.push(entry);
    }
}

impl<'a, 's> LayerCtx<'a, 's> {
    pub(super) fn err_at(&self, raw: &Option<crate::spec::Raw>, msg: impl Into<String>) -> Error {
        let span = raw.as_ref().map_or(self.span.clone(), |r| r.span());
        self.spec.error(span, msg)
    }

    /// The layer's `stack`.
    pub(super) fn stack_mode(&self) -> Result<Stack> {
        let Some(raw) = &self.layer.stack else {
            return Ok(Stack::Off);
        };
        Ok(match raw.get_ref() {
            toml::Value::Boolean(false) => Stack::Off,
            toml::Value::Boolean(true) => Stack::Zero,
            toml::Value::String(s) if s == "zero" => Stack::Zero,
            toml::Value::String(s) if s == "normalize" => Stack::Normalize,
            _ => {
                return Err(self.err_at(
                    &self.layer.stack,
                    "`stack` is true, false, \"zero\" or \"normalize\"",
                ));
            }
        })
    }

    /// The layer's `padding` (default `default`); an error without an offset.
    pub(super) fn padding(&self, dodged: bool, default: f64) -> Result<f64> {
        let Some(p) = &self.layer.padding else {
            return Ok(default);
        };
        if !dodged {
            return Err(self.spec.error(
                p.span(),
                "`padding` separates the groups of an `xOffset` / `yOffset`; this layer has none",
            ));
        }
        let v = *p.get_ref();
        if !(0.0..1.0).contains(&v) {
            return Err(self.spec.error(p.span(), "`padding` is from 0 to below 1"));
        }
        Ok(v)
    }

    /// Refuses options the layer would not use: a vertical bar's or
    /// errorbar's `yOffset`, a horizontal one's `xOffset`, `band` on a
    /// point, errorbar or text without an offset.
    pub(super) fn check_unused(&self, horizontal: bool) -> Result<()> {
        let l = self.layer;
        let mark = l.mark.get_ref().as_str();
        let orient = if horizontal { "horizontal" } else { "vertical" };
        // (A vertical bar's `x2` and a horizontal one's `y2` are refused
        // with the spec's keys, by orientation.)
        if matches!(mark, "bar" | "errorbar") {
            let (off, name, hint) = if horizontal {
                (&l.x_offset, "xOffset", "yOffset")
            } else {
                (&l.y_offset, "yOffset", "xOffset")
            };
            if off.is_some() {
                return Err(self.err_at(
                    off,
                    format!("`{name}` does nothing on a {orient} `{mark}` (it dodges along its categories: `{hint}`)"),
                ));
            }
        }
        if matches!(mark, "point" | "errorbar" | "text")
            && l.x_offset.is_none()
            && l.y_offset.is_none()
            && let Some(b) = &l.band
        {
            return Err(self.spec.error(
                b.span(),
                format!("`band` on a `{mark}` is the width its `xOffset` / `yOffset` groups share; this layer has none"),
            ));
        }
        // `font_size` sizes a bar's value labels and a line's end labels.
        if let Some(f) = &l.font_size {
            let unread = match mark {
                "bar" if l.text.is_none() => Some("`text` (value labels)"),
                "line" if value(&l.end_labels) != Some(true) => Some("`end_labels = true`"),
                _ => None,
            };
            if let Some(what) = unread {
                return Err(self.spec.error(
                    f.span(),
                    format!("`font_size` does nothing on a `{mark}` without {what}"),
                ));
            }
        }
        Ok(())
    }

    /// The dodge of `rows` along x (`on_y` false) or y: `None` without an
    /// offset channel. Registers the values in the panel's order.
    pub(super) fn dodge(
        &self,
        ch: &Chans,
        on_y: bool,
        rows: &[Row],
        st: &mut PanelState,
    ) -> Result<Option<Dodge>> {
        let (chan, raw, name, cats, panel_band) = if on_y {
            (
                &ch.y_offset,
                &self.layer.y_offset,
                "yOffset",
                &mut st.yoffs,
                &mut st.yband,
            )
        } else {
            (
                &ch.x_offset,
                &self.layer.x_offset,
                "xOffset",
                &mut st.xoffs,
                &mut st.xband,
            )
        };
        let Some(chan) = chan else {
            return Ok(None);
        };
        if matches!(chan.plan, Chan::Const(_)) {
            return Err(self.err_at(
                raw,
                format!("`{name}` is one value for every row: one group, nothing to dodge; give a field (`{name} = \"name\"`)"),
            ));
        }
        // One band per panel and axis: bars and the points or error bars
        // dodged with them must split the same width to line up.
        let band = match (&self.layer.band, *panel_band) {
            (Some(b), Some(p)) if *b.get_ref() != p => {
                return Err(self.spec.error(
                    b.span(),
                    format!(
                        "`band` is {p} for this panel's `{name}` groups (set by an earlier layer); this layer's {} would put its marks beside theirs",
                        b.get_ref()
                    ),
                ));
            }
            (Some(b), None) => {
                *panel_band = Some(*b.get_ref());
                *b.get_ref()
            }
            (_, p) => p.unwrap_or(0.8),
        };
        if let Chan::Scale { range, .. } = chan.plan {
            if !range.is_empty() {
                return Err(self.err_at(
                    raw,
                    format!("`range` does nothing on `{name}` (its sub-bands follow `domain`)"),
                ));
            }
            for d in chan.domain().iter() {
                cats.index(d);
            }
        }
        let mut keys = Vec::with_capacity(rows.len());
        for row in rows {
            let key = offset_key(self, chan, row, "offset")?;
            let i = cats.index(&key);
            if cats.names.len() > MAX_OFFSETS {
                return Err(self.err_at(
                    raw,
                    format!("`{name}` has more than {MAX_OFFSETS} values; is it the right field?"),
                ));
            }
            keys.push((key, i as usize));
        }
        let colours = keys.iter().map(|(k, i)| self.group_colour(k, *i)).collect();
        Ok(Some(Dodge {
            keys,
            n: cats.names.len(),
            band,
            colours,
        }))
    }

    /// Adds the layer's offset values to the panel's, before any layer of
    /// the panel is built: every layer then splits its bands alike.
    pub fn register_offsets(&self, rows: &[Row], st: &mut PanelState) -> Result<()> {
        if self.layer.x_offset.is_none() && self.layer.y_offset.is_none() {
            return Ok(());
        }
        let ch = self.chans()?;
        self.dodge(&ch, false, rows, st)?;
        self.dodge(&ch, true, rows, st)?;
        Ok(())
    }

    /// Whether a dodged layer takes its colours from its offset: no
    /// `color`, no `label`.
    pub(super) fn colours_by_offset(&self, dodge: &Option<Dodge>) -> bool {
        dodge.is_some() && self.layer.color.is_none() && self.layer.label.is_none()
    }

    /// One legend entry per offset value of this layer, in the panel's order.
    pub(super) fn offset_legend(
        &self,
        dodge: &Dodge,
        cats: &Categories,
        st: &mut PanelState,
        swatch: impl Fn(Style) -> Swatch,
        style: Style,
    ) {
        if self.layer.legend == Some(false) {
            return;
        }
        for (i, name) in cats.names.iter().enumerate() {
            if dodge.keys.iter().any(|(_, k)| *k == i) {
                push_legend(
                    st,
                    LegendEntry {
                        label: name.clone(),
                        swatch: swatch(Style {
                            fill: self
                                .group_colour(name, i)
                                .map(|c| c.with_alpha(style.fill.map_or(1.0, |f| f.a))),
                            ..style.clone()
                        }),
                    },
                );
            }
        }
    }
}

/// A row's offset (or group) value as text: the scale's key, an
/// expression's value, or the constant.
pub(super) fn offset_key(ctx: &LayerCtx, chan: &Channel, row: &Row, what: &str) -> Result<String> {
    let (v, text) = match chan.plan {
        Chan::Const(v) => (v.clone(), "xOffset"),
        Chan::Expr(e) | Chan::Scale { expr: e, .. } | Chan::Continuous { expr: e, .. } => {
            (e.eval_row(ctx.globals, row)?, e.text)
        }
    };
    super::channels::no_value_is_no_group(row, text, &v, what)?;
    let key = csv_text(&v);
    check_row_label(row, text, &key)?;
    Ok(key)
}

//! The marks, each in its own file, called from the one match of
//! [`super::layers`] with the layer's [`Input`]:
//!
//! - [`bar`], [`hist`], [`point`], [`line`], [`rule`], [`text`] and
//!   [`errorbar`] (from given ends): one item per row (or per bin, per
//!   series), with their CSV records and legend entries;
//! - [`boxplot`]: Tukey boxes per category, quartiles as numpy's `linear`;
//! - [`ecdf`]: the empirical CDF (or its complement) as a step line;
//! - [`area`]: a filled area between `y2` (default 0) and `y`;
//! - [`errorband`]: a band from `y`/`y2`, or computed per x (`extent`);
//!   [`errorband::extent_of`] also serves `errorbar` from raw rows;
//! - [`violin`]: a mirrored Gaussian KDE per category;
//! - [`arc`]: a pie or donut, one wedge per row (a panel without axes).
//!
//! The summarising marks (boxplot, ecdf, area, errorband, violin) split
//! rows into groups by `series` (or by the key of a `color` scale); each
//! group has one colour, and is one legend entry. `rect` lives in
//! [`super::rect`] with the heatmap logic.

pub mod arc;
pub mod area;
pub mod bar;
pub mod boxplot;
pub mod ecdf;
pub mod errorband;
pub mod errorbar;
pub mod hist;
pub mod line;
pub mod point;
pub mod rule;
pub mod text;
pub mod violin;

use indexmap::IndexMap;

use super::channels::Channel;
use super::text_source::Text;

use super::encode::{Chans, CsvRecord, LayerCtx, PanelState, Pos, check_row_label, csv_text};
use super::model::{Dash, LegendEntry, Style, Swatch};
use crate::color::{self, Color, scheme::DEFAULT};
use crate::error::Result;
use crate::value::{Row, Value};

/// What every mark of this module gets from [`LayerCtx::build`].
pub(in crate::figures) struct Input<'r, 'c, 's> {
    /// The layer's compiled channels.
    pub ch: &'c Chans<'c, 's>,
    /// The rows drawn.
    pub rows: &'r [Row],
    /// The CSV columns every record starts with (panel, layer, mark, label).
    pub base: &'c CsvRecord,
    /// The legend text written as `label`.
    pub label: Option<&'c str>,
    /// `orient = "horizontal"`: categories on y, values on x.
    pub horizontal: bool,
    /// The line / outline dash.
    pub dash: Dash,
    /// The layer's `text` (a bar's value labels, a text mark's template).
    pub text: Option<&'c Text<'s>>,
    /// `orient = "diagonal"` (rules only): the line y = x.
    pub diagonal: bool,
}

/// The rows of one series (or colour) and its colour.
pub struct Group<'r> {
    /// The series' key (empty without `series` or a colour scale).
    pub key: String,
    /// Its rows, in input order.
    pub rows: Vec<&'r Row>,
    /// Their indices in [`Input::rows`].
    pub index: Vec<usize>,
    /// Its colour (the `color` channel on its rows; tab10 blue by default).
    pub color: Option<Color>,
}

/// Where colour group `gi` of `n` sits in a category's band, as
/// (centre, width): one slot per group side by side, 90% of its slot wide
/// (seaborn's `hue` with `dodge=True`); the whole band when `n` is 1.
/// A group missing at a category leaves its slot empty.
pub fn dodged(center: f64, band: f64, gi: usize, n: usize) -> (f64, f64) {
    if n <= 1 {
        return (center, band);
    }
    let gi = gi.min(n - 1);
    let slot = band / n as f64;
    (center - band / 2.0 + (gi as f64 + 0.5) * slot, 0.9 * slot)
}

/// How many slots a category's band is split into: the number of colour
/// groups when some category holds more than one of them, else 1 (the
/// colour repeats the category: seaborn's `dodge = "auto"`).
pub fn slots<'r>(groups: &[Group<'r>], category_of: impl Fn(usize) -> String) -> usize {
    let mut seen: IndexMap<String, usize> = IndexMap::new();
    for g in groups {
        let mut mine: Vec<String> = g.index.iter().map(|&i| category_of(i)).collect();
        mine.sort();
        mine.dedup();
        for c in mine {
            let n = seen.entry(c).or_insert(0);
            *n += 1;
            if *n > 1 {
                return groups.len();
            }
        }
    }
    1
}

/// A category's text: its name, or its number as the CSV writes it.
pub fn pos_key(p: &Pos) -> String {
    match p {
        Pos::Num(x) => super::encode::num_text(*x),
        Pos::Cat(s) => s.clone(),
    }
}

/// The default colour of a mark without `color`.
pub fn default_color() -> Option<Color> {
    color::parse(DEFAULT[0]).ok().flatten()
}

impl<'p, 'x> LayerCtx<'_, '_> {
    /// The channel `name` a mark cannot do without, or the error that the
    /// layer needs it.
    pub(in crate::figures) fn need<'c>(
        &self,
        c: &'c Option<Channel<'p, 'x>>,
        name: &str,
    ) -> Result<&'c Channel<'p, 'x>> {
        c.as_ref().ok_or_else(|| {
            self.err(format!(
                "a `{}` layer needs `{name}`",
                self.layer.mark.get_ref()
            ))
        })
    }

    /// Pushes a row's CSV record: the layer's base columns, the mark's
    /// `extra` cells, then each `detail` field of the row.
    pub(in crate::figures) fn row_record(
        &self,
        inp: &Input<'_, '_, '_>,
        extra: Vec<(&str, String)>,
        row: &Row,
        csv: &mut Vec<CsvRecord>,
    ) {
        let detail = self.layer.detail.as_ref().map_or(0, Vec::len);
        let mut r = with_room(inp.base, extra, detail);
        for f in self.layer.detail.iter().flatten() {
            let v = row.get(f).cloned().unwrap_or(Value::UNDEFINED);
            r.insert(f.as_str(), csv_text(&v).into());
        }
        csv.push(r);
    }
}

impl LayerCtx<'_, '_> {
    /// Splits `rows` by `series` (else by the key of a `color` scale) in
    /// first-seen order. A colour that changes within a group is an error
    /// naming the row, as a line's is: one band or step line is one paint.
    pub(in crate::figures) fn groups<'r>(&self, inp: &Input<'r, '_, '_>) -> Result<Vec<Group<'r>>> {
        let series = self.plan.series.as_ref().map(|s| s.get()).transpose()?;
        let scale = inp.ch.color.as_ref().and_then(|c| c.scale_expr());
        let mut out: IndexMap<String, Group<'r>> = IndexMap::new();
        for (i, row) in inp.rows.iter().enumerate() {
            let key = match (&series, scale) {
                (Some(e), _) => {
                    let k = csv_text(&e.eval_row(self.globals, row)?);
                    check_row_label(row, e.text, &k)?;
                    k
                }
                (None, Some(e)) => csv_text(&e.eval_row(self.globals, row)?),
                (None, None) => String::new(),
            };
            // Without `color`, each series takes its value's colour.
            let own = match (&series, &inp.ch.color) {
                (Some(_), None) => {
                    self.group_colour(&key, out.get_index_of(&key).unwrap_or(out.len()))
                }
                _ => default_color(),
            };
            let col = self.color(&inp.ch.color, row, own)?;
            let g = out.entry(key.clone()).or_insert_with(|| Group {
                key,
                rows: Vec::new(),
                index: Vec::new(),
                color: col,
            });
            if g.color != col {
                let mark = self.layer.mark.get_ref();
                return Err(super::encode::colour_change(
                    row,
                    &format!("{} `{mark}` has one colour per series", article(mark)),
                    "series",
                    col,
                    g.color,
                    super::layers::SERIES_HINT,
                ));
            }
            g.rows.push(row);
            g.index.push(i);
        }
        Ok(out.into_values().collect())
    }

    /// Each row's place on the category axis (y when `horizontal`), in
    /// the rows' order as bars take them; all at 0 without a channel.
    pub(in crate::figures) fn category_positions(
        &self,
        inp: &Input,
        st: &mut PanelState,
        chan: Option<&super::channels::Channel>,
        name: &str,
    ) -> Result<Vec<(f64, Pos)>> {
        let mut positions = Vec::with_capacity(inp.rows.len());
        for row in inp.rows {
            positions.push(match chan {
                Some(c) => {
                    let cats = if inp.horizontal {
                        &mut st.ycats
                    } else {
                        &mut st.xcats
                    };
                    self.pos(c, row, name, cats)?
                }
                None => (0.0, Pos::Num(0.0)),
            });
        }
        Ok(positions)
    }

    /// A group's values by category, in first-seen order: each category's
    /// text (its name, or its number) -> (band centre, the values of
    /// `chan`, `name` in messages). `positions` are the rows' places on
    /// the category axis (what `pos` gave, by row index).
    pub(in crate::figures) fn values_by_category(
        &self,
        g: &Group,
        positions: &[(f64, Pos)],
        chan: &super::channels::Channel,
        name: &str,
    ) -> Result<IndexMap<String, (f64, Vec<f64>)>> {
        let mut by: IndexMap<String, (f64, Vec<f64>)> = IndexMap::new();
        for (&i, row) in g.index.iter().zip(&g.rows) {
            let (p, raw) = &positions[i];
            let v = self.number(Some(chan), row, name, 0.0)?;
            by.entry(pos_key(raw))
                .or_insert_with(|| (*p, Vec::new()))
                .1
                .push(v);
        }
        Ok(by)
    }

    /// The layer's opacity, a constant (`default` when not written).
    pub(in crate::figures) fn const_opacity(&self, inp: &Input, default: f64) -> Result<f64> {
        self.constant_only(
            inp.ch.opacity.as_ref(),
            &self.layer.opacity,
            "opacity",
            "each shape it draws",
        )?;
        self.number(
            inp.ch.opacity.as_ref(),
            &super::encode::pseudo_row(),
            "opacity",
            default,
        )
    }

    /// The layer's line width, a constant (`default` when not written).
    pub(in crate::figures) fn const_width(&self, inp: &Input, default: f64) -> Result<f64> {
        self.constant_only(
            inp.ch.stroke_width.as_ref(),
            &self.layer.stroke_width,
            "stroke_width",
            "each shape it draws",
        )?;
        self.number(
            inp.ch.stroke_width.as_ref(),
            &super::encode::pseudo_row(),
            "stroke_width",
            default,
        )
    }

    /// The layer's outline colour, a constant (`None` when not written).
    pub(in crate::figures) fn const_stroke(&self, inp: &Input) -> Result<Option<Color>> {
        self.constant_only(
            inp.ch.stroke.as_ref(),
            &self.layer.stroke,
            "stroke",
            "each shape it draws",
        )?;
        self.color(&inp.ch.stroke, &super::encode::pseudo_row(), None)
    }

    /// Legend entries: the written `label` as one entry, else one per keyed
    /// group (series or colour), each with `swatch` painted in its colour.
    pub(in crate::figures) fn group_legend(
        &self,
        inp: &Input,
        groups: &[Group],
        st: &mut PanelState,
        swatch: impl Fn(Option<Color>) -> Swatch,
    ) {
        if self.layer.legend == Some(false) {
            return;
        }
        if let Some(lbl) = inp.label {
            st.legend.push(LegendEntry {
                label: lbl.to_string(),
                swatch: swatch(groups.first().and_then(|g| g.color).or(default_color())),
            });
            return;
        }
        for g in groups.iter().filter(|g| !g.key.is_empty()) {
            if st
                .legend
                .iter()
                .any(|e| e.label == g.key && e.swatch == swatch(g.color))
            {
                continue;
            }
            st.legend.push(LegendEntry {
                label: g.key.clone(),
                swatch: swatch(g.color),
            });
        }
    }

    /// Claims an axis for numbers (a fraction, a value, a bound): an error
    /// when an earlier layer put categories on it, and a later layer's
    /// category is refused by [`LayerCtx::pos`].
    pub(in crate::figures) fn numeric_axis(
        &self,
        cats: &mut super::encode::Categories,
        axis: &str,
    ) -> Result<()> {
        if let Some(c) = cats.names.first() {
            return Err(self.err(format!(
                "{} `{}` layer puts numbers on {axis}, where this panel's {axis} holds categories (\"{c}\")",
                article(self.layer.mark.get_ref()),
                self.layer.mark.get_ref()
            )));
        }
        cats.numeric = true;
        Ok(())
    }

    /// The values of a channel on `rows` as finite numbers (`name` names
    /// the channel in messages).
    pub(in crate::figures) fn values(
        &self,
        chan: &super::channels::Channel,
        rows: &[&Row],
        name: &str,
    ) -> Result<Vec<f64>> {
        rows.iter()
            .map(|r| self.number(Some(chan), r, name, 0.0))
            .collect()
    }
}

/// "a" or "an" before a mark's name (`an ecdf`, `a boxplot`).
pub fn article(mark: &str) -> &'static str {
    if mark.starts_with(['a', 'e', 'i', 'o', 'u']) {
        "an"
    } else {
        "a"
    }
}

/// A CSV record: `base` with these columns added.
pub fn record(base: &CsvRecord, extra: Vec<(&str, String)>) -> CsvRecord {
    with_room(base, extra, 0)
}

/// [`record`] with room for `more` fields after: one per mark of a
/// million-point layer, so sized exactly (grown, a vector doubles).
fn with_room(base: &CsvRecord, extra: Vec<(&str, String)>, more: usize) -> CsvRecord {
    let mut r = CsvRecord::on(base, extra.len() + more);
    for (k, v) in extra {
        r.insert(k, v.into());
    }
    r
}

/// A fill style: `color` at `opacity`, an optional outline.
pub fn fill(color: Option<Color>, opacity: f64, stroke: Option<Color>, width: f64) -> Style {
    Style {
        fill: color.map(|c| c.with_alpha(opacity)),
        stroke,
        stroke_width: width,
        dash: Dash::Solid,
    }
}

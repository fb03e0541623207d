//! Encoding: the state a panel collects, a layer's compiled channels and
//! how a row maps to a position, a colour, a shape (used by `layers`).

use std::sync::Arc;

use super::channels::{Chan, Channel};
use super::model::*;
use crate::color::{self, Color};
use crate::error::{Error, Result};
use crate::expr::Globals;
use crate::font as text;
use crate::plan::layers::LayerPlan;
use crate::spec::{LayerSpec, LoadedSpec};
use crate::tables::aggregate::field_error;
use crate::value::{Row, Value, as_number};

/// A position on an axis: a number, or a category (a string value).
#[derive(Debug, Clone, PartialEq)]
pub enum Pos {
    /// Quantitative.
    Num(f64),
    /// Categorical; placed at the category's index.
    Cat(String),
}

/// Categories of one axis in first-seen order (their index is their position).
#[derive(Debug, Default, Clone)]
pub struct Categories {
    /// Names in order.
    pub names: Vec<String>,
    /// Whether some value on this axis was a number.
    pub numeric: bool,
}

impl Categories {
    /// The index of `name`, appended if new.
    pub(super) fn index(&mut self, name: &str) -> f64 {
        match self.names.iter().position(|n| n == name) {
            Some(i) => i as f64,
            None => {
                self.names.push(name.to_string());
                (self.names.len() - 1) as f64
            }
        }
    }
}

/// Data extent seen on one axis, and values where no margin is added
/// (matplotlib's sticky edges: a bar's base at 0).
#[derive(Debug, Default, Clone)]
pub struct Extent {
    /// Smallest and largest value seen.
    pub range: Option<(f64, f64)>,
    /// Values that stop the automatic margin.
    pub sticky: Vec<f64>,
    /// Smallest and largest value seen, without implicit bases
    /// ([`Extent::add_base`]): what a log axis must show.
    pub data: Option<(f64, f64)>,
    /// Some value added was not a whole number.
    pub fractional: bool,
}

impl Extent {
    /// Includes `v`.
    pub fn add(&mut self, v: f64) {
        if !v.is_finite() {
            return;
        }
        self.range = Some(grow(self.range, v));
        self.data = Some(grow(self.data, v));
        self.fractional |= v.fract() != 0.0;
    }

    /// Whether values were seen and every one is a whole number.
    pub fn integer(&self) -> bool {
        self.range.is_some() && !self.fractional
    }

    /// Includes an implicit base `v` (a bar's or a bin's 0), where the
    /// automatic margin stops. A log axis has no 0: there a bar's base is
    /// 1 (`marks::bar`), a bin's 0 starts at the axis's low end.
    pub fn add_base(&mut self, v: f64) {
        if !v.is_finite() {
            return;
        }
        self.range = Some(grow(self.range, v));
        self.fractional |= v.fract() != 0.0;
        if !self.sticky.contains(&v) {
            self.sticky.push(v);
        }
    }
}

fn grow(r: Option<(f64, f64)>, v: f64) -> (f64, f64) {
    match r {
        None => (v, v),
        Some((a, b)) => (a.min(v), b.max(v)),
    }
}

/// What a panel collects while its layers are built.
#[derive(Debug, Default)]
pub struct PanelState {
    /// Categories on x.
    pub xcats: Categories,
    /// Categories on y.
    pub ycats: Categories,
    /// Extent on x.
    pub xext: Extent,
    /// Extent on y.
    pub yext: Extent,
    /// Legend entries in order.
    pub legend: Vec<LegendEntry>,
    /// Marks a layer draws above or beside itself (hatches, cell texts,
    /// value labels, end labels), taken by the panel right after the layer.
    pub extra: Vec<Mark>,
    /// The colour bar of a quantitative colour scale.
    pub colorbar: Option<ColorBar>,
    /// Values of `xOffset` in the panel (its sub-bands, in order).
    pub xoffs: Categories,
    /// Values of `yOffset` in the panel.
    pub yoffs: Categories,
    /// The width `xOffset` groups share, set by the first layer with an
    /// offset and a `band` (every dodged layer of the panel uses it).
    pub xband: Option<f64>,
    /// See `xband`, for `yOffset`.
    pub yband: Option<f64>,
    /// Whether x and y have a log scale (a bar grows from 1 there).
    pub log: (bool, bool),
    /// Each layer's positions on axes with a fixed `domain`.
    pub outside: Vec<super::outside::Positions>,
    /// Notes of its layers (rows outside, dropped, ...).
    pub notes: Vec<String>,
    /// Its vector layers of [`MANY_MARKS`](super::panels::MANY_MARKS) marks
    /// or more (`layer 2 (point) draws 20000 marks as vectors`): noted with
    /// the size of the PDF they make once it is rendered.
    pub dense: Vec<String>,
}

pub use super::csv_record::CsvRecord;

/// A cell as CSV text: shortest round-trip numbers, empty for null.
pub fn csv_text(v: &Value) -> String {
    if v.is_none() || v.is_undefined() {
        return String::new();
    }
    if let Some(s) = v.as_str() {
        return s.to_string();
    }
    if let Some(x) = as_number(v) {
        if v.is_integer() {
            return v.to_string();
        }
        return format!("{x}");
    }
    if v.kind() == minijinja::value::ValueKind::Bool {
        return if v.is_true() { "true" } else { "false" }.to_string();
    }
    v.to_string()
}

pub(super) fn num_text(x: f64) -> String {
    format!("{x}")
}

/// Everything needed to build one layer.
pub struct LayerCtx<'a, 's> {
    /// The spec.
    pub spec: &'a LoadedSpec,
    /// Numbers and meta.
    pub globals: &'a Arc<Globals>,
    /// The layer as written.
    pub layer: &'s LayerSpec,
    /// The layer as compiled.
    pub plan: &'a LayerPlan<'s>,
    /// Its span in the spec.
    pub span: std::ops::Range<usize>,
    /// Base font size.
    pub font_size: f64,
    /// Panel and layer index, for the CSV.
    pub index: (usize, usize),
    /// Rows whose keys fix the order of the layer's categorical scales
    /// before its own rows are drawn (a facet's rows of every panel, so a
    /// key has the same colour and shape in every panel); `None`: its own.
    pub scale_rows: Option<&'a [Row]>,
    /// The figure's `scheme`: the categorical scheme of a colour scale
    /// without its own `range` or `scheme` (default okabe-ito).
    pub scheme: Option<&'a str>,
    /// What the layer's categorical colours follow and the paper's colour
    /// of each value of that field up to this figure's last
    /// ([`crate::plan::palette`]); `None` when its colours are its own.
    pub shared: Option<(
        crate::plan::palette::Via,
        indexmap::IndexMap<String, String>,
    )>,
}

/// A layer's channels while it is built.
pub(super) struct Chans<'p, 's> {
    pub(super) x: Option<Channel<'p, 's>>,
    pub(super) y: Option<Channel<'p, 's>>,
    pub(super) x2: Option<Channel<'p, 's>>,
    pub(super) y2: Option<Channel<'p, 's>>,
    pub(super) color: Option<Channel<'p, 's>>,
    pub(super) stroke: Option<Channel<'p, 's>>,
    pub(super) shape: Option<Channel<'p, 's>>,
    pub(super) size: Option<Channel<'p, 's>>,
    pub(super) opacity: Option<Channel<'p, 's>>,
    pub(super) stroke_width: Option<Channel<'p, 's>>,
    pub(super) theta: Option<Channel<'p, 's>>,
    pub(super) x_offset: Option<Channel<'p, 's>>,
    pub(super) y_offset: Option<Channel<'p, 's>>,
}

impl<'a, 's> LayerCtx<'a, 's> {
    pub(super) fn err(&self, msg: impl Into<String>) -> Error {
        self.spec.error(self.span.clone(), msg)
    }

    /// The colour of group `key` (the `i`-th of the layer's groups) of a
    /// layer coloured by its `series` or offset: the paper's colour of the
    /// value, else the default scheme's `i`-th.
    pub(super) fn group_colour(&self, key: &str, i: usize) -> Option<Color> {
        let hex = match &self.shared {
            Some((_, map)) => map.get(key).map(String::as_str),
            None => None,
        };
        let d = &crate::color::scheme::DEFAULT;
        color::parse(hex.unwrap_or(d[i % d.len()])).ok().flatten()
    }

    /// Checks that a channel the mark draws once for all its rows (a line's
    /// width, a histogram's fill) is a constant: evaluated on no row, a
    /// field or an expression would fail with a misleading message, or
    /// silently mean the first row's value. `what` says what it is one
    /// value for ("each series", "all its bars").
    pub(super) fn constant_only(
        &self,
        chan: Option<&Channel>,
        raw: &Option<crate::spec::Raw>,
        key: &str,
        what: &str,
    ) -> Result<()> {
        match chan.map(|c| c.plan) {
            None | Some(Chan::Const(_)) => Ok(()),
            Some(_) => {
                let span = raw.as_ref().map_or(self.span.clone(), |r| r.span());
                Err(self.spec.error(
                    span,
                    format!(
                        "`{key}` on a `{}` layer is one value for {what}: give a constant, not a field or an expression",
                        self.layer.mark.get_ref()
                    ),
                ))
            }
        }
    }

    /// The layer's channels, as compiled, with nothing seen yet; an
    /// offset's compile error is the figure's, here.
    pub(super) fn chans(&self) -> Result<Chans<'a, 's>> {
        let p = &self.plan.chans;
        let c = |c: &'a Option<Chan<'s>>| c.as_ref().map(Channel::new);
        let later = |c: &'a Option<crate::plan::Later<Chan<'s>>>| {
            c.as_ref().map(|l| l.get().map(Channel::new)).transpose()
        };
        let color = match (&p.color, &self.shared) {
            (Some(col), Some((crate::plan::palette::Via::Color, map))) => {
                Some(Channel::shared(col, map))
            }
            (col, _) => c(col),
        };
        let shape = match (&p.shape, &self.shared) {
            (Some(s), Some((_, map))) if crate::plan::palette::shape_follows(self.layer) => {
                Some(Channel::seeded(s, map.keys()))
            }
            (s, _) => c(s),
        };
        let chans = Chans {
            x: c(&p.x),
            y: c(&p.y),
            x2: c(&p.x2),
            y2: c(&p.y2),
            color,
            stroke: c(&p.stroke),
            shape,
            size: c(&p.size),
            opacity: c(&p.opacity),
            stroke_width: c(&p.stroke_width),
            theta: c(&p.theta),
            x_offset: later(&p.x_offset)?,
            y_offset: later(&p.y_offset)?,
        };
        if let Some(rows) = self.scale_rows {
            for ch in [&chans.color, &chans.stroke, &chans.shape]
                .into_iter()
                .flatten()
            {
                ch.seed(self.globals, rows)?;
            }
        }
        Ok(chans)
    }

    pub(super) fn pos(
        &self,
        chan: &Channel,
        row: &Row,
        field: &str,
        cats: &mut Categories,
    ) -> Result<(f64, Pos)> {
        let v = chan.eval(self.globals, row)?;
        if let Some(s) = v.as_str() {
            check_row_label(row, channel_text(chan, field), s)?;
            if cats.numeric {
                return Err(field_error(
                    row,
                    field,
                    format!("`{field}` mixes categories (\"{s}\") and numbers on one axis"),
                ));
            }
            return Ok((cats.index(s), Pos::Cat(s.to_string())));
        }
        let x = chan.number(row, &v, field)?;
        if !cats.names.is_empty() {
            return Err(field_error(
                row,
                field,
                format!("`{field}` mixes numbers ({x}) and categories on one axis"),
            ));
        }
        cats.numeric = true;
        Ok((x, Pos::Num(x)))
    }

    pub(super) fn number(
        &self,
        chan: Option<&Channel>,
        row: &Row,
        field: &str,
        default: f64,
    ) -> Result<f64> {
        match chan {
            None => Ok(default),
            Some(c) => {
                let v = c.eval(self.globals, row)?;
                c.number(row, &v, field)
            }
        }
    }

    pub(super) fn color(
        &self,
        chan: &Option<Channel>,
        row: &Row,
        default: Option<Color>,
    ) -> Result<Option<Color>> {
        match chan {
            None => Ok(default),
            Some(c) => {
                let s = self.style_text(c, row)?;
                color::parse(&s).map_err(|e| match c.plan {
                    // A colour written in the spec: point at it there. A
                    // name that is no colour is often a field meant to
                    // colour by (`color = "family"`): say how to write that.
                    Chan::Const(_) if !e.contains("did you mean") => self.err(format!(
                        "{e}; a colour from the data is written `{{ field = \"{}\" }}`",
                        crate::error::shown(&s)
                    )),
                    Chan::Const(_) => self.err(e),
                    _ => field_error(row, "color", e),
                })
            }
        }
    }

    /// Fits a quantitative colour scale to the layer's rows and makes its
    /// colour bar (a panel shows one: a second must agree with the first).
    pub(super) fn fit_color(&self, ch: &Chans, rows: &[Row], st: &mut PanelState) -> Result<()> {
        let Some(c) = &ch.color else { return Ok(()) };
        super::colorscale::check_scheme_size(self, c, rows)?;
        c.fit(self.globals, rows)?;
        let Some((scale, domain, title)) = c.continuous() else {
            return Ok(());
        };
        let Some(domain) = domain else { return Ok(()) };
        // 128 bands: smooth at print size, and the same bytes every run.
        let n = 128;
        let colors = (0..n)
            .map(|i| {
                let v = domain.0 + (domain.1 - domain.0) * (i as f64 + 0.5) / n as f64;
                scale.color(domain, v)
            })
            .collect();
        let bar = ColorBar {
            title,
            domain,
            colors,
        };
        match &st.colorbar {
            Some(b) if *b != bar => Err(self.err(
                "a panel has one colour bar: this layer's quantitative colour scale differs from an earlier layer's (give both the same `scheme` and `domain`)",
            )),
            _ => {
                st.colorbar = Some(bar);
                Ok(())
            }
        }
    }

    /// The hatch pattern of `row` when the layer's colour scale is hatched
    /// (the `greys` scheme).
    pub(super) fn hatch(&self, ch: &Chans, row: &Row) -> Result<Option<char>> {
        match &ch.color {
            Some(c) => c.hatch(self.globals, row),
            None => Ok(None),
        }
    }

    /// A style channel's value for `row` as text (a colour or shape name).
    fn style_text(&self, c: &Channel, row: &Row) -> Result<String> {
        let v = c.eval(self.globals, row)?;
        Ok(v.as_str()
            .map(str::to_string)
            .unwrap_or_else(|| v.to_string()))
    }

    pub(super) fn shape(&self, chan: &Option<Channel>, row: &Row) -> Result<Shape> {
        match chan {
            None => Ok(Shape::Circle),
            Some(c) => {
                let s = self.style_text(c, row)?;
                Shape::parse(&s).ok_or_else(|| {
                    field_error(
                        row,
                        "shape",
                        format!("unknown shape `{s}` (circle, square, triangle, diamond)"),
                    )
                })
            }
        }
    }

    /// The paint of a filled mark (bar, rect) for `row`: fill with opacity,
    /// outline colour and width.
    pub(super) fn fill_style(
        &self,
        ch: &Chans,
        row: &Row,
        default_fill: Option<Color>,
        dash: Dash,
    ) -> Result<Style> {
        let opacity = self.number(ch.opacity.as_ref(), row, "opacity", 1.0)?;
        Ok(Style {
            fill: self
                .color(&ch.color, row, default_fill)?
                .map(|c| c.with_alpha(opacity)),
            stroke: self.color(&ch.stroke, row, None)?,
            stroke_width: self.number(ch.stroke_width.as_ref(), row, "stroke_width", 1.0)?,
            dash,
        })
    }

    pub(super) fn dash(&self) -> Result<Dash> {
        match &self.layer.dash {
            None => Ok(Dash::Solid),
            Some(d) => Dash::parse(d.get_ref()).ok_or_else(|| {
                self.spec
                    .error(d.span(), "unknown dash (solid, dashed, dotted, dashdot)")
            }),
        }
    }

    /// Legend entries for a layer: its label, or one entry per key of its
    /// colour scale.
    pub(super) fn legend_for(
        &self,
        ch: &Chans,
        label: Option<&str>,
        st: &mut PanelState,
        swatch: impl Fn(Style) -> Swatch,
        style: Style,
    ) {
        if self.layer.legend == Some(false) {
            return;
        }
        if let Some(lbl) = label {
            st.legend.push(LegendEntry {
                label: lbl.to_string(),
                swatch: swatch(style),
            });
            return;
        }
        if let Some(c) = &ch.color {
            for (key, out) in c.legend_keys() {
                let fill = color::parse(&out).ok().flatten();
                let mut sw = swatch(Style {
                    fill,
                    ..style.clone()
                });
                if let (Swatch::Patch(paint), Some(h)) = (&sw, c.hatch_of(&key)) {
                    sw = Swatch::Hatched(paint.clone(), h);
                }
                st.legend.push(LegendEntry {
                    label: key,
                    swatch: sw,
                });
            }
        }
    }
}

/// Refuses a label drawn from `row` holding a character a figure cannot
/// draw ([`text::undrawable`]), naming the file, the line and the row's
/// field holding it (or `field`, when the text was made by a template).
pub fn check_row_label(row: &Row, field: &str, label: &str) -> Result<()> {
    let Some(c) = text::undrawable(label) else {
        return Ok(());
    };
    let fields = row.flat_fields();
    let holder = fields
        .0
        .iter()
        .find(|(_, v)| v.as_str().is_some_and(|s| s.contains(c)))
        .map(|(k, _)| k.to_string());
    Err(field_error(
        row,
        holder.as_deref().unwrap_or(field),
        text::undrawable_message(c),
    ))
}

pub(super) fn channel_text<'x>(c: &'x Channel, field: &'x str) -> &'x str {
    match c.plan {
        Chan::Expr(e) => e.text,
        _ => field,
    }
}

/// The points of one line series and its colour.
pub(super) type SeriesPoints = (Vec<(f64, f64)>, Option<Color>);

/// A row with no fields, for layers without data (reference lines, bands).
pub fn pseudo_row() -> Row {
    Row {
        extra: Default::default(),
        fields: Arc::new(crate::value::Record::default()),
        origin: crate::value::Origin::line(Arc::from("artifact.toml"), 0),
    }
}

/// The error for a row whose colour differs from the one its stroke or
/// group began with (one line, band or histogram is one paint): `what`
/// opens the sentence ("a line has one colour per series"), `group` names
/// what began ("series", "group `k`"), `hint` ends it.
pub(super) fn colour_change(
    row: &crate::value::Row,
    what: &str,
    group: &str,
    this: Option<Color>,
    began: Option<Color>,
    hint: &str,
) -> Error {
    let shown = |c: Option<Color>| c.map_or("none".to_string(), |c| c.hex());
    Error::input(
        row.origin.path.to_string(),
        row.origin.line_opt(),
        Some("color".into()),
        format!(
            "{what}: this row's is {} where its {group} began with {}{hint}",
            shown(this),
            shown(began)
        ),
    )
}

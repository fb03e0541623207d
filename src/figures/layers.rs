//! One layer: rows of a table turned into marks, legend entries and the
//! CSV records of what was drawn.

use std::sync::Arc;

use indexmap::IndexMap;

use super::channels::{Chan, Kind};
use super::model::*;
use crate::error::{Error, Result};
use crate::expr::{Globals, Template};
use crate::render::color::{self, Color, TAB10};
use crate::spec::{LayerSpec, LoadedSpec};
use crate::tables::aggregate::{field_error, finite_number};
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
#[derive(Debug, Default)]
pub struct Categories {
    /// Names in order.
    pub names: Vec<String>,
    /// Whether some value on this axis was a number.
    pub numeric: bool,
}

impl Categories {
    fn index(&mut self, name: &str) -> f64 {
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
}

impl Extent {
    /// Includes `v`.
    pub fn add(&mut self, v: f64) {
        if !v.is_finite() {
            return;
        }
        self.range = Some(match self.range {
            None => (v, v),
            Some((a, b)) => (a.min(v), b.max(v)),
        });
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
}

/// One CSV record: column -> text.
pub type CsvRecord = IndexMap<String, String>;

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

fn num_text(x: f64) -> String {
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
    /// Its span in the spec.
    pub span: std::ops::Range<usize>,
    /// Base font size.
    pub font_size: f64,
    /// Panel and layer index, for the CSV.
    pub index: (usize, usize),
}

struct Chans<'s> {
    x: Option<Chan<'s>>,
    y: Option<Chan<'s>>,
    x2: Option<Chan<'s>>,
    y2: Option<Chan<'s>>,
    color: Option<Chan<'s>>,
    stroke: Option<Chan<'s>>,
    shape: Option<Chan<'s>>,
    size: Option<Chan<'s>>,
    opacity: Option<Chan<'s>>,
    stroke_width: Option<Chan<'s>>,
}

const SHAPES: [&str; 4] = ["circle", "square", "triangle", "diamond"];

impl<'a, 's> LayerCtx<'a, 's> {
    fn err(&self, msg: impl Into<String>) -> Error {
        self.spec.error(self.span.clone(), msg)
    }

    fn chans(&self) -> Result<Chans<'s>> {
        let l = self.layer;
        let c = |raw: &'s Option<crate::spec::Raw>, kind: Kind, range: &[&str]| {
            raw.as_ref()
                .map(|r| Chan::compile(self.spec, r, kind, range))
                .transpose()
        };
        Ok(Chans {
            x: c(&l.x, Kind::Data, &[])?,
            y: c(&l.y, Kind::Data, &[])?,
            x2: c(&l.x2, Kind::Data, &[])?,
            y2: c(&l.y2, Kind::Data, &[])?,
            color: c(&l.color, Kind::Style, &TAB10)?,
            stroke: c(&l.stroke, Kind::Style, &TAB10)?,
            shape: c(&l.shape, Kind::Style, &SHAPES)?,
            size: c(&l.size, Kind::Data, &[])?,
            opacity: c(&l.opacity, Kind::Data, &[])?,
            stroke_width: c(&l.stroke_width, Kind::Data, &[])?,
        })
    }

    fn pos(
        &self,
        chan: &Chan,
        row: &Row,
        field: &str,
        cats: &mut Categories,
    ) -> Result<(f64, Pos)> {
        let v = chan.eval(self.globals, row)?;
        if let Some(s) = v.as_str() {
            if cats.numeric {
                return Err(field_error(
                    row,
                    field,
                    format!("`{field}` mixes categories (\"{s}\") and numbers on one axis"),
                ));
            }
            return Ok((cats.index(s), Pos::Cat(s.to_string())));
        }
        let x = finite_number(row, channel_text(chan, field), &v)?;
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

    fn number(&self, chan: Option<&Chan>, row: &Row, field: &str, default: f64) -> Result<f64> {
        match chan {
            None => Ok(default),
            Some(c) => {
                let v = c.eval(self.globals, row)?;
                finite_number(row, channel_text(c, field), &v)
            }
        }
    }

    fn color(
        &self,
        chan: &Option<Chan>,
        row: &Row,
        default: Option<Color>,
    ) -> Result<Option<Color>> {
        match chan {
            None => Ok(default),
            Some(c) => {
                let v = c.eval(self.globals, row)?;
                let s = v
                    .as_str()
                    .map(str::to_string)
                    .unwrap_or_else(|| v.to_string());
                color::parse(&s).map_err(|e| field_error(row, "color", e))
            }
        }
    }

    fn shape(&self, chan: &Option<Chan>, row: &Row) -> Result<Shape> {
        match chan {
            None => Ok(Shape::Circle),
            Some(c) => {
                let v = c.eval(self.globals, row)?;
                let s = v
                    .as_str()
                    .map(str::to_string)
                    .unwrap_or_else(|| v.to_string());
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
    fn fill_style(
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

    fn dash(&self) -> Result<Dash> {
        match &self.layer.dash {
            None => Ok(Dash::Solid),
            Some(d) => Dash::parse(d.get_ref()).ok_or_else(|| {
                self.spec
                    .error(d.span(), "unknown dash (solid, dashed, dotted, dashdot)")
            }),
        }
    }

    /// Builds the layer's mark from `rows`.
    pub fn build(
        &self,
        rows: &[Row],
        st: &mut PanelState,
        csv: &mut Vec<CsvRecord>,
    ) -> Result<Option<Mark>> {
        let ch = self.chans()?;
        let l = self.layer;
        let mark = l.mark.get_ref().as_str();
        let dash = self.dash()?;
        let label = match &l.label {
            Some(t) => {
                Some(Template::compile(self.spec, t)?.render(self.spec, self.globals.context())?)
            }
            None => None,
        };
        let text_tpl = l
            .text
            .as_ref()
            .map(|t| Template::compile(self.spec, t))
            .transpose()?;
        let horizontal = match l.orient.as_ref().map(|o| o.get_ref().as_str()) {
            None | Some("vertical") => false,
            Some("horizontal") => true,
            Some("diagonal") if mark == "rule" => false,
            Some(other) => {
                return Err(self.err(format!(
                    "unknown orient `{other}` (vertical, horizontal{})",
                    if mark == "rule" { ", diagonal" } else { "" }
                )));
            }
        };
        let diagonal = l.orient.as_ref().is_some_and(|o| o.get_ref() == "diagonal");
        let mut base = CsvRecord::new();
        base.insert("panel".into(), self.index.0.to_string());
        base.insert("layer".into(), self.index.1.to_string());
        base.insert("mark".into(), mark.to_string());
        if let Some(lbl) = &label {
            base.insert("label".into(), lbl.clone());
        }
        let record = |extra: Vec<(&str, String)>, row: &Row, csv: &mut Vec<CsvRecord>| {
            let mut r = base.clone();
            for (k, v) in extra {
                r.insert(k.to_string(), v);
            }
            for f in l.detail.iter().flatten() {
                let v = row.get(f).cloned().unwrap_or(Value::UNDEFINED);
                r.insert(f.clone(), csv_text(&v));
            }
            csv.push(r);
        };
        let pos_text = |p: &Pos| match p {
            Pos::Num(x) => num_text(*x),
            Pos::Cat(s) => s.clone(),
        };
        fn need_of<'c, 'x>(
            c: &'c Option<Chan<'x>>,
            e: impl FnOnce() -> Error,
        ) -> Result<&'c Chan<'x>> {
            c.as_ref().ok_or_else(e)
        }
        let missing = |name: &str| self.err(format!("a `{mark}` layer needs `{name}`"));
        let default_fill = color::parse(TAB10[0]).ok().flatten();
        let built = match mark {
            "bar" => {
                let band = l.band.unwrap_or(0.8);
                let (pc, vc, bc) = if horizontal {
                    (
                        need_of(&ch.y, || missing("y"))?,
                        need_of(&ch.x, || missing("x"))?,
                        &ch.x2,
                    )
                } else {
                    (
                        need_of(&ch.x, || missing("x"))?,
                        need_of(&ch.y, || missing("y"))?,
                        &ch.y2,
                    )
                };
                let mut items = Vec::with_capacity(rows.len());
                for row in rows {
                    let (p, praw) = if horizontal {
                        self.pos(pc, row, "y", &mut st.ycats)?
                    } else {
                        self.pos(pc, row, "x", &mut st.xcats)?
                    };
                    let v = self.number(Some(vc), row, if horizontal { "x" } else { "y" }, 0.0)?;
                    let b =
                        self.number(bc.as_ref(), row, if horizontal { "x2" } else { "y2" }, 0.0)?;
                    let style = self.fill_style(&ch, row, default_fill, dash)?;
                    let span = (p - band / 2.0, p + band / 2.0);
                    let (pe, ve) = if horizontal {
                        (&mut st.yext, &mut st.xext)
                    } else {
                        (&mut st.xext, &mut st.yext)
                    };
                    pe.add(span.0);
                    pe.add(span.1);
                    ve.add(b);
                    ve.add(v);
                    if !ve.sticky.contains(&b) {
                        ve.sticky.push(b);
                    }
                    let (xk, yk, bk) = if horizontal {
                        ("y", "x", "x2")
                    } else {
                        ("x", "y", "y2")
                    };
                    record(
                        vec![
                            (xk, pos_text(&praw)),
                            (yk, num_text(v)),
                            (bk, num_text(b)),
                            ("color", style.fill.map(|c| c.hex()).unwrap_or_default()),
                        ],
                        row,
                        csv,
                    );
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
                self.legend_for(
                    &ch,
                    label.as_deref(),
                    st,
                    Swatch::Patch,
                    Style {
                        fill: items.first().and_then(|i| i.style.fill).or(default_fill),
                        stroke: items.first().and_then(|i| i.style.stroke),
                        stroke_width: 1.0,
                        dash,
                    },
                );
                Mark::Rects(items)
            }
            "hist" => {
                let xc = need_of(&ch.x, || missing("x"))?;
                let bins = l.bins.unwrap_or(10);
                if bins == 0 {
                    return Err(self.err("`bins` must be at least 1"));
                }
                let mut values = Vec::with_capacity(rows.len());
                for row in rows {
                    let v = xc.eval(self.globals, row)?;
                    values.push(finite_number(row, channel_text(xc, "x"), &v)?);
                }
                let (counts, edges) = crate::stats::histogram(&values, bins, None);
                let style = self.fill_style(&ch, &pseudo_row(), default_fill, dash)?;
                let mut items = Vec::with_capacity(bins);
                for (i, c) in counts.iter().enumerate() {
                    st.xext.add(edges[i]);
                    st.xext.add(edges[i + 1]);
                    st.yext.add(0.0);
                    st.yext.add(*c as f64);
                    let mut r = base.clone();
                    r.insert("x".into(), num_text(edges[i]));
                    r.insert("x2".into(), num_text(edges[i + 1]));
                    r.insert("y".into(), c.to_string());
                    csv.push(r);
                    items.push(RectItem {
                        x: Some((edges[i], edges[i + 1])),
                        y: Some((0.0, *c as f64)),
                        style: style.clone(),
                    });
                }
                st.yext.sticky.push(0.0);
                if let Some(lbl) = &label
                    && l.legend != Some(false)
                {
                    st.legend.push(LegendEntry {
                        label: lbl.clone(),
                        swatch: Swatch::Patch(style),
                    });
                }
                Mark::Rects(items)
            }
            "point" => {
                let (xc, yc) = (
                    need_of(&ch.x, || missing("x"))?,
                    need_of(&ch.y, || missing("y"))?,
                );
                let mut items = Vec::with_capacity(rows.len());
                for row in rows {
                    let (x, xr) = self.pos(xc, row, "x", &mut st.xcats)?;
                    let (y, yr) = self.pos(yc, row, "y", &mut st.ycats)?;
                    let area = self.number(ch.size.as_ref(), row, "size", 36.0)?;
                    let opacity = self.number(ch.opacity.as_ref(), row, "opacity", 1.0)?;
                    let fill = self.color(&ch.color, row, default_fill)?;
                    let shape = self.shape(&ch.shape, row)?;
                    let sw = self.number(ch.stroke_width.as_ref(), row, "stroke_width", 1.0)?;
                    let stroke = if sw > 0.0 {
                        self.color(&ch.stroke, row, None)?
                    } else {
                        None
                    };
                    st.xext.add(x);
                    st.yext.add(y);
                    record(
                        vec![
                            ("x", pos_text(&xr)),
                            ("y", pos_text(&yr)),
                            ("size", num_text(area)),
                            ("color", fill.map(|c| c.hex()).unwrap_or_default()),
                            ("shape", format!("{shape:?}").to_lowercase()),
                        ],
                        row,
                        csv,
                    );
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
                self.legend_for(
                    &ch,
                    label.as_deref(),
                    st,
                    |style| Swatch::Marker(Shape::Circle, d, style),
                    first_style,
                );
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
                Mark::Points(items)
            }
            "line" => {
                let (xc, yc) = (
                    need_of(&ch.x, || missing("x"))?,
                    need_of(&ch.y, || missing("y"))?,
                );
                let series_expr = l
                    .series
                    .as_ref()
                    .map(|s| crate::expr::Expr::compile(self.spec, s))
                    .transpose()?;
                let mut series: IndexMap<String, SeriesPoints> = IndexMap::new();
                let width =
                    self.number(ch.stroke_width.as_ref(), &pseudo_row(), "stroke_width", 1.5)?;
                let opacity = self.number(ch.opacity.as_ref(), &pseudo_row(), "opacity", 1.0)?;
                for row in rows {
                    let key = match &series_expr {
                        Some(e) => csv_text(&e.eval_row(self.globals, row)?),
                        None => String::new(),
                    };
                    let (x, xr) = self.pos(xc, row, "x", &mut st.xcats)?;
                    let (y, yr) = self.pos(yc, row, "y", &mut st.ycats)?;
                    let col = self
                        .color(&ch.color, row, default_fill)?
                        .map(|c| c.with_alpha(opacity));
                    st.xext.add(x);
                    st.yext.add(y);
                    record(
                        vec![
                            ("series", key.clone()),
                            ("x", pos_text(&xr)),
                            ("y", pos_text(&yr)),
                            ("color", col.map(|c| c.hex()).unwrap_or_default()),
                        ],
                        row,
                        csv,
                    );
                    series
                        .entry(key)
                        .or_insert_with(|| (Vec::new(), col))
                        .0
                        .push((x, y));
                }
                let marker = match l.marker.as_deref() {
                    None => None,
                    Some(m) => Some((
                        Shape::parse(m).ok_or_else(|| self.err(format!("unknown marker `{m}`")))?,
                        l.marker_size.unwrap_or(6.0),
                    )),
                };
                let mut out = Vec::new();
                for (key, (mut pts, col)) in series {
                    // Connect points in x order, as Vega-Lite's line mark does.
                    pts.sort_by(|a, b| a.0.total_cmp(&b.0));
                    let style = Style {
                        fill: None,
                        stroke: col,
                        stroke_width: width,
                        dash,
                    };
                    let lbl = if series_expr.is_some() {
                        Some(key)
                    } else {
                        label.clone()
                    };
                    if let Some(t) = &lbl
                        && l.legend != Some(false)
                        && !t.is_empty()
                    {
                        st.legend.push(LegendEntry {
                            label: t.clone(),
                            swatch: Swatch::Line(style.clone(), marker),
                        });
                    }
                    out.push(Series {
                        points: pts,
                        style,
                        marker,
                        label: lbl,
                    });
                }
                Mark::Lines(out)
            }
            "rule" => {
                let data_rows: Vec<Row> = if rows.is_empty() {
                    vec![pseudo_row()]
                } else {
                    rows.to_vec()
                };
                let mut items = Vec::new();
                for row in &data_rows {
                    let style = Style {
                        fill: None,
                        stroke: self.color(&ch.color, row, Some(Color::BLACK))?.map(|c| {
                            c.with_alpha(
                                self.number(ch.opacity.as_ref(), row, "opacity", 1.0)
                                    .unwrap_or(1.0),
                            )
                        }),
                        stroke_width: self.number(
                            ch.stroke_width.as_ref(),
                            row,
                            "stroke_width",
                            1.0,
                        )?,
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
                        return Err(self.err("a `rule` needs `x` (vertical), `y` (horizontal) or `orient = \"diagonal\"`"));
                    };
                    let (k, v) = match &kind {
                        RuleKind::X(x) => ("x", num_text(*x)),
                        RuleKind::Y(y) => ("y", num_text(*y)),
                        RuleKind::Diagonal => ("x", "y=x".to_string()),
                    };
                    record(
                        vec![
                            (k, v),
                            ("color", style.stroke.map(|c| c.hex()).unwrap_or_default()),
                        ],
                        row,
                        csv,
                    );
                    items.push(RuleItem { kind, style });
                }
                if let (Some(lbl), Some(first)) = (&label, items.first())
                    && l.legend != Some(false)
                {
                    st.legend.push(LegendEntry {
                        label: lbl.clone(),
                        swatch: Swatch::Line(first.style.clone(), None),
                    });
                }
                Mark::Rules(items)
            }
            "rect" => {
                let data_rows: Vec<Row> = if rows.is_empty() {
                    vec![pseudo_row()]
                } else {
                    rows.to_vec()
                };
                let mut items = Vec::new();
                for row in &data_rows {
                    let range = |a: &Option<Chan>,
                                 b: &Option<Chan>,
                                 n1: &str,
                                 n2: &str|
                     -> Result<Option<(f64, f64)>> {
                        match (a, b) {
                            (None, None) => Ok(None),
                            (Some(_), Some(_)) => Ok(Some((self.number(a.as_ref(), row, n1, 0.0)?, self.number(b.as_ref(), row, n2, 0.0)?))),
                            _ => Err(self.err(format!("a `rect` needs both `{n1}` and `{n2}`, or neither (to span the axis)"))),
                        }
                    };
                    let xr = range(&ch.x, &ch.x2, "x", "x2")?;
                    let yr = range(&ch.y, &ch.y2, "y", "y2")?;
                    if let Some((a, b)) = xr {
                        st.xext.add(a);
                        st.xext.add(b);
                    }
                    if let Some((a, b)) = yr {
                        st.yext.add(a);
                        st.yext.add(b);
                    }
                    let style = self.fill_style(&ch, row, default_fill, dash)?;
                    let mut ex = Vec::new();
                    if let Some((a, b)) = xr {
                        ex.push(("x", num_text(a)));
                        ex.push(("x2", num_text(b)));
                    }
                    if let Some((a, b)) = yr {
                        ex.push(("y", num_text(a)));
                        ex.push(("y2", num_text(b)));
                    }
                    ex.push(("color", style.fill.map(|c| c.hex()).unwrap_or_default()));
                    record(ex, row, csv);
                    items.push(RectItem {
                        x: xr,
                        y: yr,
                        style,
                    });
                }
                if let (Some(lbl), Some(first)) = (&label, items.first())
                    && l.legend != Some(false)
                {
                    st.legend.push(LegendEntry {
                        label: lbl.clone(),
                        swatch: Swatch::Patch(first.style.clone()),
                    });
                }
                Mark::Rects(items)
            }
            "text" => {
                let (xc, yc) = (
                    need_of(&ch.x, || missing("x"))?,
                    need_of(&ch.y, || missing("y"))?,
                );
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
                        return Err(
                            self.err(format!("unknown baseline `{o}` (bottom, middle, top)"))
                        );
                    }
                };
                let mut items = Vec::new();
                for row in rows {
                    let (x, xr) = self.pos(xc, row, "x", &mut st.xcats)?;
                    let (y, yr) = self.pos(yc, row, "y", &mut st.ycats)?;
                    let text = tpl.render_row(self.globals, row)?;
                    let opacity = self.number(ch.opacity.as_ref(), row, "opacity", 1.0)?;
                    let col = self
                        .color(&ch.color, row, Some(Color::BLACK))?
                        .unwrap_or(Color::BLACK)
                        .with_alpha(opacity);
                    record(
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
                        dx: l.dx.unwrap_or(0.0),
                        dy: l.dy.unwrap_or(0.0),
                        align,
                        baseline,
                        size: l.font_size.unwrap_or(self.font_size),
                        color: col,
                    });
                }
                Mark::Texts {
                    items,
                    avoid_overlap: l.avoid_overlap,
                }
            }
            "errorbar" => {
                let mut items = Vec::new();
                for row in rows {
                    let style = Style {
                        fill: None,
                        stroke: self.color(&ch.color, row, Some(Color::BLACK))?,
                        stroke_width: self.number(
                            ch.stroke_width.as_ref(),
                            row,
                            "stroke_width",
                            1.0,
                        )?,
                        dash,
                    };
                    let (from, to, ex) = if horizontal {
                        let (y, yr) =
                            self.pos(need_of(&ch.y, || missing("y"))?, row, "y", &mut st.ycats)?;
                        let a = self.number(ch.x.as_ref(), row, "x", 0.0)?;
                        let b = self.number(ch.x2.as_ref(), row, "x2", 0.0)?;
                        st.xext.add(a);
                        st.xext.add(b);
                        (
                            (a, y),
                            (b, y),
                            vec![
                                ("y", pos_text(&yr)),
                                ("x", num_text(a)),
                                ("x2", num_text(b)),
                            ],
                        )
                    } else {
                        let (x, xr) =
                            self.pos(need_of(&ch.x, || missing("x"))?, row, "x", &mut st.xcats)?;
                        let a = self.number(ch.y.as_ref(), row, "y", 0.0)?;
                        let b = self.number(ch.y2.as_ref(), row, "y2", 0.0)?;
                        st.yext.add(a);
                        st.yext.add(b);
                        (
                            (x, a),
                            (x, b),
                            vec![
                                ("x", pos_text(&xr)),
                                ("y", num_text(a)),
                                ("y2", num_text(b)),
                            ],
                        )
                    };
                    record(ex, row, csv);
                    items.push(Segment { from, to, style });
                }
                Mark::Segments(items)
            }
            other => {
                return Err(self.spec.error(
                    l.mark.span(),
                    format!("unknown mark `{other}` (bar, point, line, rule, rect, text, errorbar, hist)"),
                ));
            }
        };
        Ok(Some(built))
    }

    /// Legend entries for a layer: its label, or one entry per key of its
    /// colour scale.
    fn legend_for(
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
                st.legend.push(LegendEntry {
                    label: key,
                    swatch: swatch(Style {
                        fill,
                        ..style.clone()
                    }),
                });
            }
        }
    }
}

fn channel_text<'x>(c: &'x Chan, field: &'x str) -> &'x str {
    match c {
        Chan::Expr(e) => e.text,
        _ => field,
    }
}

/// The points of one line series and its colour.
type SeriesPoints = (Vec<(f64, f64)>, Option<Color>);

/// A row with no fields, for layers without data (reference lines, bands).
pub fn pseudo_row() -> Row {
    Row {
        extra: Default::default(),
        fields: Arc::new(crate::value::Record::default()),
        origin: crate::value::Origin::line(Arc::from("artifact.toml"), 0),
    }
}

//! One layer: rows of a table turned into marks, legend entries and the
//! CSV records of what was drawn (one arm per mark kind).

use indexmap::IndexMap;

use super::channels::Channel;
pub use super::encode::{Categories, CsvRecord, Extent, LayerCtx, PanelState, Pos, csv_text};
use super::encode::{SeriesPoints, check_row_label, num_text, pseudo_row};
use super::grouped::{Stack, Stacker};
use super::marks::Input;
use super::model::*;
use crate::color::{self, Color, TAB10};
use crate::error::{Error, Result};
use crate::spec::value;
use crate::value::{Row, Value};

/// The most labels one `avoid_overlap` text layer moves apart (per panel):
/// placement tries each label against those already placed.
pub const MAX_MOVABLE_LABELS: usize = 1000;

/// How to give each series its own colour.
pub(super) const SERIES_HINT: &str = "; give `series` the expression that picks the colour";

impl<'a, 's> LayerCtx<'a, 's> {
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
                return Err(Error::input(
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

    /// Builds the layer's mark from `rows`.
    pub fn build(
        &self,
        rows: &[Row],
        st: &mut PanelState,
        csv: &mut Vec<CsvRecord>,
    ) -> Result<Option<Mark>> {
        let ch = self.chans()?;
        self.fit_color(&ch, rows, st)?;
        let l = self.layer;
        let mark = l.mark.get_ref().as_str();
        let dash = self.dash()?;
        let label = match &self.plan.label {
            Some(t) => Some(super::label(self.spec, t, self.globals)?),
            None => None,
        };
        let text_tpl = self.plan.text.as_ref().map(|t| t.get()).transpose()?;
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
        self.check_unused(horizontal)?;
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
        fn need_of<'c, 'p, 'x>(
            c: &'c Option<Channel<'p, 'x>>,
            e: impl FnOnce() -> Error,
        ) -> Result<&'c Channel<'p, 'x>> {
            c.as_ref().ok_or_else(e)
        }
        let missing = |name: &str| self.err(format!("a `{mark}` layer needs `{name}`"));
        let default_fill = color::parse(TAB10[0]).ok().flatten();
        let inp = Input {
            ch: &ch,
            rows,
            base: &base,
            label: label.as_deref(),
            horizontal,
            dash,
        };
        let built = match mark {
            "boxplot" => self.boxplot(&inp, st, csv)?,
            "ecdf" => self.ecdf(&inp, st, csv)?,
            "area" => self.area(&inp, st, csv)?,
            "errorband" => self.errorband(&inp, st, csv)?,
            "violin" => self.violin(&inp, st, csv)?,
            "errorbar" if self.layer.extent.is_some() => self.errorbar_from_rows(&inp, st, csv)?,
            "bar" => {
                let band = value(&l.band).unwrap_or(0.8);
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
                // Positions and values first: a normalized stack needs its totals.
                let mut placed = Vec::with_capacity(rows.len());
                for row in rows {
                    let (p, praw) = if horizontal {
                        self.pos(pc, row, "y", &mut st.ycats)?
                    } else {
                        self.pos(pc, row, "x", &mut st.xcats)?
                    };
                    let v = self.number(Some(vc), row, if horizontal { "x" } else { "y" }, 0.0)?;
                    let b =
                        self.number(bc.as_ref(), row, if horizontal { "x2" } else { "y2" }, 0.0)?;
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
                let dodge = self.dodge(&ch, horizontal, rows, st)?;
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
                    let style = self.fill_style(&ch, row, fill, dash)?;
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
                    if bc.is_some() || (stack != Stack::Off && b != 0.0) {
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
                    let hatch = self.hatch(&ch, row)?;
                    if let Some(h) = hatch {
                        extra.push(("hatch", super::colorscale::hatch_name(h).to_string()));
                    }
                    if let Some(tpl) = &text_tpl {
                        let t = tpl.render_row(self.globals, row)?;
                        check_row_label(row, "text", &t)?;
                        extra.push(("text", t.clone()));
                        texts.push(t);
                    }
                    record(extra, row, csv);
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
                    _ => self.legend_for(&ch, label.as_deref(), st, Swatch::Patch, first),
                }
                if !hatches.is_empty() {
                    st.extra.push(Mark::Hatches(hatches));
                }
                if text_tpl.is_some() {
                    use super::text_marks::{BarTextPos, bar_labels};
                    let pos = match &l.text_position {
                        None => BarTextPos::Outside,
                        Some(p) => BarTextPos::parse(p.get_ref()).ok_or_else(|| {
                            self.spec.error(
                                p.span(),
                                format!(
                                    "unknown text_position `{}` (outside, inside)",
                                    p.get_ref()
                                ),
                            )
                        })?,
                    };
                    let size = value(&l.font_size).unwrap_or(self.font_size);
                    st.extra.push(Mark::Texts {
                        items: bar_labels(&items, &texts, horizontal, pos, size),
                        avoid_overlap: false,
                    });
                }
                Mark::Rects(items)
            }
            "hist" => {
                let xc = need_of(&ch.x, || missing("x"))?;
                let bins = value(&l.bins).unwrap_or(10);
                if bins == 0 {
                    return Err(self.err("`bins` must be at least 1"));
                }
                let mut values = Vec::with_capacity(rows.len());
                for row in rows {
                    let v = xc.eval(self.globals, row)?;
                    values.push(xc.number(row, &v, "x")?);
                }
                self.hist_span_fits(&values)?;
                if let Some(m) = self.hist_groups(&ch, rows, &values, bins, st, csv, &base, dash)? {
                    return Ok(Some(m));
                }
                let (counts, edges) = crate::stats::histogram(&values, bins, None);
                for (c, raw, key) in [
                    (&ch.color, &l.color, "color"),
                    (&ch.stroke, &l.stroke, "stroke"),
                    (&ch.opacity, &l.opacity, "opacity"),
                    (&ch.stroke_width, &l.stroke_width, "stroke_width"),
                ] {
                    self.constant_only(c.as_ref(), raw, key, "all its bars")?;
                }
                let style = self.fill_style(&ch, &pseudo_row(), default_fill, dash)?;
                let mut items = Vec::with_capacity(bins);
                for (i, c) in counts.iter().enumerate() {
                    st.xext.add(edges[i]);
                    st.xext.add(edges[i + 1]);
                    st.yext.add_base(0.0);
                    // An empty bin draws nothing, also on a log axis.
                    if *c > 0 {
                        st.yext.add(*c as f64);
                    }
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
                let xd = self.dodge(&ch, false, rows, st)?;
                let yd = self.dodge(&ch, true, rows, st)?;
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
                    record(extra, row, csv);
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
                        &ch,
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
                Mark::Points(items)
            }
            "line" => {
                let (xc, yc) = (
                    need_of(&ch.x, || missing("x"))?,
                    need_of(&ch.y, || missing("y"))?,
                );
                let series_expr = self.plan.series.as_ref().map(|s| s.get()).transpose()?;
                let mut series: IndexMap<String, SeriesPoints> = IndexMap::new();
                self.constant_only(
                    ch.stroke_width.as_ref(),
                    &l.stroke_width,
                    "stroke_width",
                    "each line",
                )?;
                self.constant_only(ch.opacity.as_ref(), &l.opacity, "opacity", "each line")?;
                let width =
                    self.number(ch.stroke_width.as_ref(), &pseudo_row(), "stroke_width", 1.5)?;
                let opacity = self.number(ch.opacity.as_ref(), &pseudo_row(), "opacity", 1.0)?;
                for row in rows {
                    let key = match &series_expr {
                        Some(e) => {
                            let key = csv_text(&e.eval_row(self.globals, row)?);
                            check_row_label(row, e.text, &key)?;
                            key
                        }
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
                    let entry = series.entry(key).or_insert_with(|| (Vec::new(), col));
                    // One line is one stroke: a colour that changes along a
                    // series would be drawn as its first row's.
                    if entry.1 != col {
                        return Err(super::encode::colour_change(
                            row,
                            "a line has one colour per series",
                            "series",
                            col,
                            entry.1,
                            SERIES_HINT,
                        ));
                    }
                    entry.0.push((x, y));
                }
                let marker = match l.marker.as_deref() {
                    None => None,
                    Some(m) => Some((
                        Shape::parse(m).ok_or_else(|| self.err(format!("unknown marker `{m}`")))?,
                        value(&l.marker_size).unwrap_or(6.0),
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
                if value(&l.end_labels) == Some(true) && series_expr.is_none() && label.is_none() {
                    return Err(self.err(
                        "`end_labels` prints each line's `series` (or the layer's `label`): give one",
                    ));
                }
                if value(&l.end_labels) == Some(true) {
                    let size = value(&l.font_size).unwrap_or(self.font_size);
                    st.extra
                        .push(Mark::EndLabels(super::text_marks::end_labels(&out, size)));
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
                        stroke: {
                            let opacity = self.number(ch.opacity.as_ref(), row, "opacity", 1.0)?;
                            self.color(&ch.color, row, Some(Color::BLACK))?
                                .map(|c| c.with_alpha(opacity))
                        },
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
                if let Some(first) = items.first() {
                    // A colour scale's entries show the colour as the line's stroke.
                    self.legend_for(
                        &ch,
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
                Mark::Rules(items)
            }
            "rect" => self.build_rect(&ch, rows, st, csv, &record, text_tpl, default_fill, dash)?,
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
                let xd = self.dodge(&ch, false, rows, st)?;
                let yd = self.dodge(&ch, true, rows, st)?;
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
                Mark::Texts {
                    items,
                    avoid_overlap,
                }
            }
            "errorbar" => {
                let od = self.dodge(&ch, horizontal, rows, st)?;
                let ok = if horizontal { "yOffset" } else { "xOffset" };
                let mut items = Vec::new();
                for (i, row) in rows.iter().enumerate() {
                    let shift = od.as_ref().map_or(0.0, |d| d.shift(i));
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
                        let y = y + shift;
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
                        let x = x + shift;
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
                    let mut ex = ex;
                    if let Some(d) = &od {
                        ex.insert(1, (ok, d.keys[i].0.clone()));
                    }
                    record(ex, row, csv);
                    items.push(Segment { from, to, style });
                }
                Mark::Segments(items)
            }
            other => {
                return Err(self.spec.error(
                    l.mark.span(),
                    format!("unknown mark `{other}` (bar, point, line, rule, rect, text, errorbar, hist, boxplot, ecdf, area, errorband, violin)"),
                ));
            }
        };
        Ok(Some(built))
    }
}

//! Facets (Vega-Lite's small multiples): a single-panel figure drawn once
//! per value of `facet.field` (wrapped into `columns`), or per `row` and
//! `column` value (a grid).
//!
//! Each data layer's rows are split by the value, an expression evaluated
//! per row; a row that gives no value (a missing field, null, an empty
//! string) is an error naming the layer and the row. A layer without
//! `data` (a constant rule) is drawn in every panel. Panels are ordered by
//! `sort` (ascending by default, numbers numerically) and capped at
//! [`MAX_PANELS`].
//!
//! Scales are shared unless `resolve` says `independent`: the figure
//! compiler ([`super::compile`]) then gives every panel the union of the
//! panels' extents and categories, and only the outer panels label their
//! axes. One legend, merged from every panel (an entry once), is drawn
//! in the top-right panel, or beside or below the whole grid with
//! `legend = { position = "right" | "bottom" }`.

use super::rows::LayerRows;
use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

use toml::Spanned;

use super::layers::CsvRecord;
use crate::error::Result;
use crate::expr::{Expr, Globals};
use crate::plan::facet::{FacetExpr, FacetPlan};
use crate::spec::{FacetSpec, FigureSpec, LayerSpec, LoadedSpec, Raw, ResolveSpec, SpannedStr};
use crate::value::{Record, Row, Value, as_number};

/// The most panels a facet makes.
pub const MAX_PANELS: usize = 100;

/// One panel of a faceted figure.
#[derive(Debug)]
pub struct Cell {
    /// The panel's title.
    pub title: String,
    /// CSV columns naming the panel's value(s): `facet`, or `row` and `column`.
    pub csv: Vec<(&'static str, String)>,
    /// Each layer's rows in this panel (`None`: the layer is skipped).
    pub rows: Vec<Option<LayerRows>>,
}

/// The panels of a faceted figure and how they are arranged.
#[derive(Debug)]
pub struct Plan {
    /// Panels in reading order (row by row).
    pub cells: Vec<Cell>,
    /// `(rows, columns)`.
    pub layout: (usize, usize),
    /// The x scale is shared across panels.
    pub share_x: bool,
    /// The y scale is shared across panels.
    pub share_y: bool,
}

impl Plan {
    /// Whether panel `i` shows its x axis's tick labels and title: with a
    /// shared x scale, only a panel with no panel below it does.
    pub fn x_labels(&self, i: usize) -> bool {
        !self.share_x || i + self.layout.1 >= self.cells.len()
    }

    /// Whether panel `i` shows its y axis's tick labels and title: with a
    /// shared y scale, only the first column does.
    pub fn y_labels(&self, i: usize) -> bool {
        !self.share_y || i.is_multiple_of(self.layout.1)
    }

    /// Whether panel `i` shows its x axis's title: only a panel with no
    /// panel below it does, whatever the scale's resolution (one title per
    /// column, as matplotlib's `supxlabel`, instead of one per row).
    pub fn x_title(&self, i: usize) -> bool {
        i + self.layout.1 >= self.cells.len()
    }

    /// Whether panel `i` shows its y axis's title: only the first column's
    /// middle row (the upper of two), so titles longer than a short panel
    /// do not run into each other.
    pub fn y_title(&self, i: usize) -> bool {
        let rows = self.cells.len().div_ceil(self.layout.1.max(1));
        i.is_multiple_of(self.layout.1) && i / self.layout.1 == (rows.max(1) - 1) / 2
    }

    /// The panel that draws the figure's one legend: the last of the first row.
    pub fn legend_panel(&self) -> usize {
        self.layout.1.min(self.cells.len()).saturating_sub(1)
    }

    /// Adds the panel's value column(s) to `records` (the CSV rows of panel `i`).
    pub fn tag(&self, i: usize, records: &mut [CsvRecord]) {
        for r in records {
            for (k, v) in &self.cells[i].csv {
                r.insert(k, v.as_str().into());
            }
        }
    }
}

/// A facet value: its text (title, CSV, identity) and its number, if any (sort).
#[derive(Debug, Clone)]
struct Key {
    text: String,
    num: Option<f64>,
}

/// The distinct values of one facet expression, in `sort` order.
struct Axis<'s> {
    src: &'s SpannedStr,
    span: std::ops::Range<usize>,
    keys: Vec<Key>,
    index: HashMap<String, usize>,
}

impl<'s> Axis<'s> {
    fn new(e: &'s FacetExpr) -> Result<Axis<'s>> {
        e.compiled.get()?;
        Ok(Axis {
            src: e.src,
            span: e.src.span(),
            keys: Vec::new(),
            index: HashMap::new(),
        })
    }

    /// The value of `row`, registered; an error when it has none.
    #[allow(clippy::too_many_arguments)]
    fn key_of(
        &mut self,
        expr: &Expr,
        spec: &LoadedSpec,
        globals: &Arc<Globals>,
        row: &Row,
        table: &str,
        layer: usize,
        mark: &str,
        limit: usize,
    ) -> Result<usize> {
        let v = expr.eval_row(globals, row)?;
        let text = if v.is_undefined() || v.is_none() {
            if let Some(e) = expr.missing_field(row) {
                return Err(spec.error(
                    self.span.clone(),
                    format!(
                        "layer {} ({mark}) cannot be split by the facet: {e}",
                        layer + 1
                    ),
                ));
            }
            String::new()
        } else {
            super::encode::csv_text(&v)
        };
        if text.is_empty() {
            let at = match row.origin.line_opt() {
                Some(l) => format!("{}:{l}", row.origin.path),
                None => row.origin.path.to_string(),
            };
            return Err(spec.error(
                self.span.clone(),
                format!(
                    "the facet `{}` gives no value (null or empty) for a row of table `{table}` ({at}), drawn by layer {} ({mark}); filter such rows out with the layer's `where`",
                    self.src.get_ref(),
                    layer + 1
                ),
            ));
        }
        super::encode::check_row_label(row, self.src.get_ref(), &text)?;
        if let Some(&i) = self.index.get(&text) {
            return Ok(i);
        }
        if self.keys.len() >= limit {
            return Err(spec.error(
                self.span.clone(),
                format!(
                    "the facet `{}` has more than {limit} values; a figure has at most {MAX_PANELS} panels (filter the rows with the layer's `where`, or facet by a coarser field)",
                    self.src.get_ref()
                ),
            ));
        }
        let num = if v.as_str().is_none() {
            as_number(&v)
        } else {
            None
        };
        self.index.insert(text.clone(), self.keys.len());
        self.keys.push(Key { text, num });
        Ok(self.keys.len() - 1)
    }

    /// The order of the keys (indices into `keys`) as `sort` says.
    fn order(&self, spec: &LoadedSpec, sort: Option<&Raw>) -> Result<Vec<usize>> {
        let mut idx: Vec<usize> = (0..self.keys.len()).collect();
        let ascending = |idx: &mut Vec<usize>| {
            let all_numbers = self.keys.iter().all(|k| k.num.is_some());
            idx.sort_by(|&a, &b| {
                let (ka, kb) = (&self.keys[a], &self.keys[b]);
                match (all_numbers, ka.num, kb.num) {
                    (true, Some(x), Some(y)) => x.total_cmp(&y),
                    _ => ka.text.cmp(&kb.text),
                }
            });
        };
        match sort.map(|s| (s.get_ref(), s.span())) {
            None => ascending(&mut idx),
            Some((toml::Value::String(s), span)) => match s.as_str() {
                "ascending" => ascending(&mut idx),
                "descending" => {
                    ascending(&mut idx);
                    idx.reverse();
                }
                "none" => {}
                other => {
                    return Err(spec.error(
                        span,
                        format!(
                            "unknown facet sort `{}` (ascending, descending, none, or a list of values)",
                            crate::error::shown(other)
                        ),
                    ));
                }
            },
            Some((toml::Value::Array(items), span)) => {
                // Listed values first, in the list's order; the others after, ascending.
                ascending(&mut idx);
                let mut first = Vec::new();
                let mut unknown = Vec::new();
                for item in items {
                    let text = match item {
                        toml::Value::String(s) => s.clone(),
                        toml::Value::Integer(i) => i.to_string(),
                        toml::Value::Float(f) => f.to_string(),
                        toml::Value::Boolean(b) => b.to_string(),
                        _ => {
                            return Err(
                                spec.error(span, "a facet sort list holds strings or numbers")
                            );
                        }
                    };
                    match self.index.get(&text) {
                        Some(&i) if !first.contains(&i) => first.push(i),
                        Some(_) => {}
                        None => unknown.push(format!("`{}`", crate::error::shown(&text))),
                    }
                }
                if !unknown.is_empty() {
                    // A misspelt value would silently fall to the end.
                    let known: Vec<String> = idx
                        .iter()
                        .take(10)
                        .map(|&i| format!("`{}`", crate::error::shown(&self.keys[i].text)))
                        .collect();
                    return Err(spec.error(
                        span,
                        format!(
                            "the facet's `sort` lists {} no row has (the values: {}{})",
                            unknown.join(", "),
                            known.join(", "),
                            if idx.len() > 10 { ", ..." } else { "" }
                        ),
                    ));
                }
                idx.retain(|i| !first.contains(i));
                first.extend(idx);
                idx = first;
            }
            Some((_, span)) => {
                return Err(spec.error(
                    span,
                    "a facet's `sort` is \"ascending\", \"descending\", \"none\" or a list of values",
                ));
            }
        }
        Ok(idx)
    }
}

fn scale_mode(spec: &LoadedSpec, s: Option<&SpannedStr>) -> Result<bool> {
    match s.map(|s| (s.get_ref().as_str(), s.span())) {
        None | Some(("shared", _)) => Ok(true),
        Some(("independent", _)) => Ok(false),
        Some((other, span)) => Err(spec.error(
            span,
            format!(
                "unknown scale resolution `{}` (shared, independent)",
                crate::error::shown(other)
            ),
        )),
    }
}

/// Splits each layer's rows (`rows`, as the one panel would draw them)
/// into the facet's panels.
#[allow(clippy::too_many_arguments)]
pub fn plan(
    spec: &LoadedSpec,
    globals: &Arc<Globals>,
    f: &FigureSpec,
    facet: (&Spanned<FacetSpec>, &FacetPlan),
    resolve: Option<&ResolveSpec>,
    layers: &[Spanned<LayerSpec>],
    rows: &[Option<LayerRows>],
) -> Result<Plan> {
    let (facet, compiled) = facet;
    let fs = facet.get_ref();
    if f.layout.is_some() {
        return Err(spec.error(
            facet.span(),
            "`facet` arranges its panels itself: give `columns` in the facet instead of the figure's `layout`",
        ));
    }
    let scale = resolve.and_then(|r| r.scale.as_ref());
    let share_x = scale_mode(spec, scale.and_then(|s| s.x.as_ref()))?;
    let share_y = scale_mode(spec, scale.and_then(|s| s.y.as_ref()))?;
    // Up to two facet expressions: `field`, or `row` and `column`.
    let mut axes: Vec<(&'static str, Axis)> = Vec::new();
    let mut exprs: Vec<&FacetExpr> = Vec::new();
    match (&compiled.field, &compiled.row, &compiled.column) {
        (Some(e), None, None) => {
            axes.push(("facet", Axis::new(e)?));
            exprs.push(e);
        }
        (None, r, c) if r.is_some() || c.is_some() => {
            if let Some(r) = r {
                axes.push(("row", Axis::new(r)?));
                exprs.push(r);
            }
            if let Some(c) = c {
                axes.push(("column", Axis::new(c)?));
                exprs.push(c);
            }
        }
        (Some(_), _, _) => {
            return Err(spec.error(
                facet.span(),
                "a facet has `field` (wrapped panels) or `row` and `column` (a grid), not both",
            ));
        }
        _ => {
            return Err(spec.error(
                facet.span(),
                "a facet needs `field`, or `row` and/or `column`",
            ));
        }
    }
    if let (Some(c), None) = (&fs.columns, &fs.field) {
        return Err(spec.error(
            c.span(),
            "`columns` wraps a facet's `field`; a grid's columns are its `column` values",
        ));
    }
    // Each data row's key index per facet expression.
    let mut keyed: Vec<Option<Vec<Vec<usize>>>> = Vec::with_capacity(rows.len());
    for (li, (lspec, lrows)) in layers.iter().zip(rows).enumerate() {
        let l = lspec.get_ref();
        let (Some(d), Some(lrows)) = (&l.data, lrows) else {
            keyed.push(None);
            continue;
        };
        // Each compiled over the layer's table (they compiled: `Axis::new`).
        let in_layer: Vec<&Expr> = exprs
            .iter()
            .map(|e| e.in_layers[li].as_ref().expect("compiled with the plan"))
            .collect();
        let mut per_row = Vec::with_capacity(lrows.len());
        for row in lrows.iter() {
            let mut ks = Vec::with_capacity(axes.len());
            for ((_, a), e) in axes.iter_mut().zip(&in_layer) {
                ks.push(a.key_of(
                    e,
                    spec,
                    globals,
                    row,
                    d.get_ref(),
                    li,
                    l.mark.get_ref(),
                    MAX_PANELS,
                )?);
            }
            per_row.push(ks);
        }
        keyed.push(Some(per_row));
    }
    if axes.iter().all(|(_, a)| a.keys.is_empty()) {
        return Err(spec.error(
            facet.span(),
            "a facet needs a layer with `data`: its rows give the panels",
        ));
    }
    let orders: Vec<Vec<usize>> = axes
        .iter()
        .map(|(_, a)| a.order(spec, fs.sort.as_ref()))
        .collect::<Result<_>>()?;
    // Panel of each combination of key indices, in reading order.
    let combos: Vec<Vec<usize>> = match orders.as_slice() {
        [one] => one.iter().map(|&k| vec![k]).collect(),
        [r, c] => r
            .iter()
            .flat_map(|&a| c.iter().map(move |&b| vec![a, b]))
            .collect(),
        _ => unreachable!("one or two facet expressions"),
    };
    if combos.len() > MAX_PANELS {
        return Err(spec.error(
            facet.span(),
            format!(
                "the facet makes {} panels ({}); a figure has at most {MAX_PANELS}",
                combos.len(),
                axes.iter()
                    .map(|(n, a)| format!("{} {n} values", a.keys.len()))
                    .collect::<Vec<_>>()
                    .join(" x ")
            ),
        ));
    }
    let layout = match (fs.field.is_some(), orders.as_slice()) {
        (true, [one]) => {
            let cols = match &fs.columns {
                None => one.len(),
                Some(c) if *c.get_ref() == 0 || *c.get_ref() > MAX_PANELS => {
                    return Err(spec.error(
                        c.span(),
                        format!("a facet's `columns` is 1 to {MAX_PANELS}"),
                    ));
                }
                Some(c) => (*c.get_ref()).min(one.len()),
            };
            (one.len().div_ceil(cols), cols)
        }
        (false, [one]) if fs.row.is_some() => (one.len(), 1),
        (false, [one]) => (1, one.len()),
        (_, [r, c]) => (r.len(), c.len()),
        _ => unreachable!("one or two facet expressions"),
    };
    let position: BTreeMap<Vec<usize>, usize> = combos
        .iter()
        .enumerate()
        .map(|(i, c)| (c.clone(), i))
        .collect();
    let mut cells: Vec<Cell> = Vec::with_capacity(combos.len());
    let tpl = compiled.title.as_ref().map(|t| t.get()).transpose()?;
    for combo in &combos {
        let mut extra = Record::default();
        let mut csv = Vec::new();
        let mut texts = Vec::new();
        for ((name, a), &k) in axes.iter().zip(combo) {
            let text = a.keys[k].text.clone();
            let var = if *name == "facet" { "value" } else { name };
            extra.insert(var, Value::from(text.as_str()));
            csv.push((*name, text.clone()));
            texts.push(text);
        }
        let title = match &tpl {
            Some(t) => {
                let s = t.render(spec, globals.context_with(extra))?;
                if let Some(c) = crate::font::undrawable(&s) {
                    return Err(spec.error(
                        fs.title.as_ref().expect("some").span(),
                        crate::font::undrawable_message(c),
                    ));
                }
                s
            }
            None => texts.join(", "),
        };
        cells.push(Cell {
            title,
            csv,
            rows: Vec::with_capacity(layers.len()),
        });
    }
    for (li, lrows) in rows.iter().enumerate() {
        match (&keyed[li], lrows) {
            (None, r) => {
                for c in cells.iter_mut() {
                    c.rows.push(r.clone());
                }
            }
            (Some(keys), Some(lrows)) => {
                let mut split: Vec<Vec<Row>> = vec![Vec::new(); cells.len()];
                for (row, ks) in lrows.iter().zip(keys) {
                    split[position[ks]].push(row.clone());
                }
                // A panel without rows of this layer skips it.
                for (c, r) in cells.iter_mut().zip(split) {
                    c.rows.push((!r.is_empty()).then_some(LayerRows::Own(r)));
                }
            }
            (Some(_), None) => unreachable!("keyed only with rows"),
        }
    }
    Ok(Plan {
        cells,
        layout,
        share_x,
        share_y,
    })
}

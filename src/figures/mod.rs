//! Figures: the spec's `[figures.NAME]` resolved against the tables into
//! marks ([`model::Plot`]) and the CSV of every mark drawn.
//!
//! Words are Vega-Lite's: a figure has panels; a panel has axes, a legend
//! and layers; a layer is a mark, its data (a table) and an encoding of
//! channels. No figure has code of its own: everything is in the spec.
//!
//! A layer whose table is unavailable (an optional source is missing) or
//! empty is skipped and reported; a figure left with nothing to draw is
//! skipped and reported, never written empty.

pub mod channels;
pub mod colorscale;
pub(crate) mod data_csv;
pub mod encode;
pub mod facet;
mod grouped;
pub mod layers;
mod marks;
pub mod model;
mod rect;
pub mod scales;
pub mod sizing;
pub mod text_marks;
pub mod text_source;

use std::collections::BTreeSet;
use std::sync::Arc;

use toml::Spanned;

use crate::error::{Error, Result};
use crate::expr::{Expr, Globals, Template};
use crate::spec::{AxisSpec, FigureSpec, LayerSpec, LegendSpec, LoadedSpec, PanelSpec, Raw, value};
use crate::tables::Catalog;
use crate::ticks;
use crate::value::{Record, Row, Value, as_number};
use layers::{CsvRecord, Extent, LayerCtx, PanelState};
use model::*;

/// A figure ready to render, with its data.
#[derive(Debug)]
pub struct Figure {
    /// What to draw.
    pub plot: Plot,
    /// `NAME.csv`: one record per mark drawn.
    pub csv: Vec<u8>,
    /// Sources the figure depends on.
    pub sources: BTreeSet<String>,
    /// Layers skipped, with the reason.
    pub notes: Vec<String>,
}

/// What compiling a figure gives.
#[derive(Debug)]
pub enum Outcome {
    /// Something to draw.
    Drawn(Box<Figure>),
    /// Nothing to draw, and why.
    Skipped(String),
}

/// Points per inch.
pub const PT_PER_IN: f64 = 72.0;

fn eval_number(spec: &LoadedSpec, raw: &Raw, ctx: Value, what: &str) -> Result<f64> {
    match raw.get_ref() {
        toml::Value::Integer(i) => Ok(*i as f64),
        toml::Value::Float(f) if f.is_finite() => Ok(*f),
        toml::Value::Float(f) => Err(spec.error(
            raw.span(),
            format!("{what} must be a finite number, got {f}"),
        )),
        toml::Value::String(s) => {
            let e = Expr::compile_str(spec, s, raw.span())?;
            let v = e.eval(ctx).map_err(|e| match e {
                // Already at its place in the spec (`meta.NAME` of several files).
                e @ Error::Spec { .. } => e,
                e => spec.error(raw.span(), e.to_string()),
            })?;
            as_number(&v).filter(|x| x.is_finite()).ok_or_else(|| {
                spec.error(
                    raw.span(),
                    format!("{what} must evaluate to a finite number, got {v}"),
                )
            })
        }
        _ => Err(spec.error(raw.span(), format!("{what} is a number or an expression"))),
    }
}

/// A title or legend label: template `t` rendered over the numbers and the
/// metadata; a character a figure cannot draw is an error at the template.
pub fn label(
    spec: &LoadedSpec,
    t: &crate::spec::SpannedStr,
    globals: &Arc<Globals>,
) -> Result<String> {
    let text = Template::compile(spec, t)?.render(spec, globals.context())?;
    match crate::font::undrawable(&text) {
        None => Ok(text),
        Some(c) => Err(spec.error(
            t.span(),
            format!(
                "{} (the text this template gives)",
                crate::font::undrawable_message(c)
            ),
        )),
    }
}

/// Compiles figure `name` against the built tables and numbers.
pub fn compile(
    spec: &LoadedSpec,
    cat: &Catalog<'_>,
    globals: &Arc<Globals>,
    name: &str,
    fig: &Spanned<FigureSpec>,
) -> Result<Outcome> {
    let f = fig.get_ref();
    // Sized in the document's terms, text defaults to the document's size
    // and tick labels and legend to 2 pt less (see `sizing`).
    let (width, height, doc_font) = match sizing::figure_size(spec, name, fig)? {
        Some(sized) => sized,
        None => {
            let size = f.size.as_ref().expect("figure_size checked it");
            let width = eval_number(spec, &size[0], globals.context(), "the width")?;
            crate::spec::bounds::figure_inches(spec, size[0].span(), "width", width)?;
            let height = eval_number(spec, &size[1], globals.context(), "the height")?;
            crate::spec::bounds::figure_inches(spec, size[1].span(), "height", height)?;
            (width * PT_PER_IN, height * PT_PER_IN, None)
        }
    };
    let font_size = value(&f.font_size).or(doc_font).unwrap_or(10.0);
    let small = match doc_font {
        Some(_) => (font_size - sizing::SMALL_OFFSET * sizing::BP_PER_TEX_PT).max(1.0),
        None => font_size,
    };
    let title_size = value(&f.title_size).unwrap_or(match doc_font {
        Some(_) => font_size,
        None => 1.2 * font_size,
    });
    let title = f
        .title
        .as_ref()
        .map(|t| label(spec, t, globals))
        .transpose()?;
    let spines = match &f.spines {
        None => Spines {
            left: true,
            right: true,
            top: true,
            bottom: true,
        },
        Some(list) => {
            for s in list {
                if !["left", "right", "top", "bottom"].contains(&s.get_ref().as_str()) {
                    return Err(spec.error(
                        s.span(),
                        format!(
                            "unknown spine `{}` (left, right, top, bottom)",
                            crate::error::shown(s.get_ref())
                        ),
                    ));
                }
            }
            let has = |n: &str| list.iter().any(|s| s.get_ref() == n);
            Spines {
                left: has("left"),
                right: has("right"),
                top: has("top"),
                bottom: has("bottom"),
            }
        }
    };
    let scheme = match &f.scheme {
        None => None,
        Some(s) if colorscale::categorical(s.get_ref()).is_some() => Some(s.get_ref().clone()),
        Some(s) => {
            return Err(spec.error(
                s.span(),
                format!(
                    "a figure's `scheme` is a categorical scheme ({}){}; a quantitative scale names its own (`color = {{ field = \"...\", scale = {{ scheme = \"viridis\" }} }}`)",
                    colorscale::CATEGORICAL.join(", "),
                    colorscale::nearest(s.get_ref())
                        .map_or(String::new(), |n| format!("; did you mean `{n}`?"))
                ),
            ));
        }
    };
    if let Some(s) = &f.scheme {
        let layers = f
            .layers
            .iter()
            .flatten()
            .chain(f.panels.iter().flatten().flat_map(|p| &p.get_ref().layers));
        if !layers
            .filter_map(|l| l.get_ref().color.as_ref())
            .any(|c| colorscale::takes_figure_scheme(c.get_ref()))
        {
            return Err(spec.error(
                s.span(),
                "the figure's `scheme` colours nothing: no layer has `color = { field = ... }` without its own `range` or `scheme`",
            ));
        }
    }
    let single;
    let mut panel_specs: Vec<(&PanelSpec, std::ops::Range<usize>)> = match &f.panels {
        Some(ps) => {
            if f.layers.is_some()
                || f.x.is_some()
                || f.y.is_some()
                || f.legend.is_some()
                || f.grid.is_some()
            {
                return Err(spec.error(fig.span(), "a figure with `panels` puts `x`, `y`, `layers`, `legend` and `grid` inside each panel"));
            }
            ps.iter().map(|p| (p.get_ref(), p.span())).collect()
        }
        None => {
            single = PanelSpec {
                title: None,
                x: f.x.clone().unwrap_or_default(),
                y: f.y.clone().unwrap_or_default(),
                layers: Vec::new(),
                legend: f.legend.clone(),
                grid: f.grid.clone(),
            };
            vec![(&single, fig.span())]
        }
    };
    let mut layout = f
        .layout
        .as_ref()
        .map(|l| (l.get_ref()[0], l.get_ref()[1]))
        .unwrap_or((panel_specs.len(), 1));
    if layout.0 * layout.1 < panel_specs.len() || layout.0 == 0 || layout.1 == 0 {
        return Err(spec.error(
            fig.span(),
            format!(
                "layout {}x{} has no room for {} panels",
                layout.0,
                layout.1,
                panel_specs.len()
            ),
        ));
    }
    let mut csv_rows: Vec<CsvRecord> = Vec::new();
    let mut panels = Vec::new();
    let mut sources = BTreeSet::new();
    let mut notes = Vec::new();
    // First the rows of every layer: a figure whose data layers all come
    // out empty (or unavailable) is skipped before anything is rendered.
    let mut drawn_data_layers = 0usize;
    let mut resolved: Vec<Vec<Option<Vec<Row>>>> = Vec::new();
    for (ps, _) in &panel_specs {
        let layer_list: &[Spanned<LayerSpec>] = match (&f.panels, &f.layers) {
            (None, Some(l)) => l,
            _ => &ps.layers,
        };
        let mut per_layer = Vec::new();
        for (li, lspec) in layer_list.iter().enumerate() {
            let l = lspec.get_ref();
            let Some(d) = &l.data else {
                per_layer.push(Some(Vec::new()));
                continue;
            };
            let table = cat.lookup(d.get_ref(), d.span())?;
            sources.extend(table.sources.iter().cloned());
            if let Some(reason) = &table.unavailable {
                notes.push(format!(
                    "layer {} ({}) skipped: {reason}",
                    li + 1,
                    l.mark.get_ref()
                ));
                per_layer.push(None);
                continue;
            }
            let mut rows = table.rows.clone();
            if let Some(w) = &l.where_ {
                rows = Expr::compile(spec, w)?
                    .in_table(d.get_ref())
                    .keep(globals, rows)?;
            }
            if rows.is_empty() {
                notes.push(format!(
                    "layer {} ({}) skipped: table `{}` has no rows{}",
                    li + 1,
                    l.mark.get_ref(),
                    d.get_ref(),
                    if l.where_.is_some() {
                        " where the layer's `where` holds"
                    } else {
                        ""
                    }
                ));
                per_layer.push(None);
                continue;
            }
            drawn_data_layers += 1;
            per_layer.push(Some(rows));
        }
        resolved.push(per_layer);
    }
    let has_data_layers = panel_specs
        .iter()
        .any(|(ps, _)| match (&f.panels, &f.layers) {
            (None, Some(l)) => l.iter().any(|l| l.get_ref().data.is_some()),
            _ => ps.layers.iter().any(|l| l.get_ref().data.is_some()),
        });
    if has_data_layers && drawn_data_layers == 0 {
        let why = if notes.is_empty() {
            "no layer has data".to_string()
        } else {
            notes.join("; ")
        };
        return Ok(Outcome::Skipped(format!(
            "figure `{name}` has nothing to draw: {why}"
        )));
    }
    // A faceted figure: the one panel's rows split into one panel per value.
    let mut facets = None;
    let mut all_rows: Vec<Option<Vec<Row>>> = Vec::new();
    if let (Some(fc), None) = (&f.facet, &f.panels) {
        let layer_list = f.layers.as_deref().unwrap_or(&[]);
        let mut plan = facet::plan(
            spec,
            globals,
            f,
            fc,
            f.resolve.as_ref(),
            layer_list,
            &resolved[0],
        )?;
        all_rows = resolved.pop().expect("one panel");
        resolved = plan
            .cells
            .iter_mut()
            .map(|c| std::mem::take(&mut c.rows))
            .collect();
        let one = panel_specs[0].clone();
        panel_specs = vec![one; plan.cells.len()];
        layout = plan.layout;
        facets = Some(plan);
    }
    // Every panel's marks first: shared facet scales need all their extents.
    let mut built = Vec::with_capacity(panel_specs.len());
    let (mut carry_x, mut carry_y) = (Default::default(), Default::default());
    for (pi, (ps, _)) in panel_specs.iter().enumerate() {
        let layer_list: &[Spanned<LayerSpec>] = match (&f.panels, &f.layers) {
            (None, Some(l)) => l,
            _ => &ps.layers,
        };
        let mut st = PanelState::default();
        // Shared categorical scales: one category list across panels.
        if facets.as_ref().is_some_and(|p| p.share_x) {
            st.xcats = std::mem::take(&mut carry_x);
        }
        if facets.as_ref().is_some_and(|p| p.share_y) {
            st.ycats = std::mem::take(&mut carry_y);
        }
        let first_csv = csv_rows.len();
        // Offset values first: all layers split their bands alike.
        for (li, lspec) in layer_list.iter().enumerate() {
            if let Some(rows) = &resolved[pi][li] {
                LayerCtx {
                    spec,
                    globals,
                    layer: lspec.get_ref(),
                    span: lspec.span(),
                    font_size,
                    index: (pi, li),
                    scale_rows: None,
                    scheme: scheme.as_deref(),
                }
                .register_offsets(rows, &mut st)?;
            }
        }
        let mut marks = Vec::new();
        let kinds = (
            scales::ScaleKind::of(spec, &ps.x)?,
            scales::ScaleKind::of(spec, &ps.y)?,
        );
        for (li, lspec) in layer_list.iter().enumerate() {
            let l = lspec.get_ref();
            let Some(rows) = resolved[pi][li].take() else {
                continue;
            };
            let before = (st.xext.data, st.yext.data, csv_rows.len());
            let ctx = LayerCtx {
                spec,
                globals,
                layer: l,
                span: lspec.span(),
                font_size,
                index: (pi, li),
                scale_rows: all_rows.get(li).and_then(|r| r.as_deref()),
                scheme: scheme.as_deref(),
            };
            if let Some(m) = ctx.build(&rows, &mut st, &mut csv_rows)? {
                let z = value(&l.z).unwrap_or(li as f64);
                marks.extend(m.flatten().into_iter().map(|m| (z, m)));
                // Hatches and cell texts right above their layer (the sort is stable).
                for extra in std::mem::take(&mut st.extra) {
                    marks.push((z, extra));
                }
            }
            let mark = l.mark.get_ref().as_str();
            if let Some(msg) = scales::nonfinite_violation((li, mark), &csv_rows[before.2..], &rows)
            {
                return Err(spec.error(lspec.span(), msg));
            }
            scales::check_kinds(spec, (&ps.x, &ps.y), kinds, (&st.xcats, &st.ycats))?;
            grouped::offset_on_numbers(spec, l, (&st.xcats, &st.ycats), &csv_rows[before.2..])?;
            for (name, kind, b, a) in [
                ("x", kinds.0, before.0, st.xext.data),
                ("y", kinds.1, before.1, st.yext.data),
            ] {
                let mark = l.mark.get_ref().as_str();
                if kind == scales::ScaleKind::Log
                    && let Some(msg) = scales::log_violation(
                        name,
                        (li, mark),
                        b,
                        a,
                        &csv_rows[before.2..],
                        &rows,
                        {
                            let second = if name == "x" { &l.x2 } else { &l.y2 };
                            mark == "area" && second.is_none()
                        },
                    )
                {
                    return Err(spec.error(lspec.span(), msg));
                }
            }
            // Texts a layer puts on its marks (bar values, line ends).
            for m in st.extra.drain(..) {
                marks.push((value(&l.z).unwrap_or(li as f64), m));
            }
        }
        if let Some(p) = &facets {
            p.tag(pi, &mut csv_rows[first_csv..]);
            if p.share_x {
                carry_x = std::mem::take(&mut st.xcats);
            }
            if p.share_y {
                carry_y = std::mem::take(&mut st.ycats);
            }
        }
        built.push((marks, st));
    }
    let shared = |pick: fn(&PanelState) -> &Extent| {
        let mut e = Extent::default();
        for (_, st) in &built {
            let x = pick(st);
            // The union of both ranges: with implicit bases (a bar's 0, for
            // linear axes) and without (what a log axis shows).
            let union = |r: Option<(f64, f64)>, o: Option<(f64, f64)>| match (r, o) {
                (Some((a, b)), Some((c, d))) => Some((a.min(c), b.max(d))),
                (r, o) => r.or(o),
            };
            e.range = union(e.range, x.range);
            e.data = union(e.data, x.data);
            for v in &x.sticky {
                if !e.sticky.contains(v) {
                    e.sticky.push(*v);
                }
            }
        }
        e
    };
    let (all_x, all_y) = (shared(|s| &s.xext), shared(|s| &s.yext));
    // One legend for a faceted figure: every panel's entries, once each.
    let mut merged: Vec<LegendEntry> = Vec::new();
    if facets.is_some() {
        for (_, st) in built.iter_mut() {
            for e in std::mem::take(&mut st.legend) {
                if !merged.contains(&e) {
                    merged.push(e);
                }
            }
        }
    }
    // A facet's legend outside (`right`, `bottom`) is the figure's: beside
    // or below the whole grid; inside, it is drawn in the top-right panel.
    let outside = facets.is_some()
        && matches!(
            f.legend
                .as_ref()
                .and_then(|l| l.position.as_ref())
                .map(|p| p.get_ref().as_str()),
            Some("right" | "bottom")
        );
    let figure_legend = if outside {
        Some(resolve_legend(
            spec,
            f.legend.as_ref(),
            std::mem::take(&mut merged),
            small,
        )?)
    } else {
        None
    };
    for (pi, ((ps, pspan), (mut marks, st))) in panel_specs.iter().zip(built).enumerate() {
        let title = match &facets {
            Some(p) => Some(p.cells[pi].title.clone()),
            None => ps
                .title
                .as_ref()
                .map(|t| label(spec, t, globals))
                .transpose()?,
        };
        let (share_x, share_y) = facets
            .as_ref()
            .map_or((false, false), |p| (p.share_x, p.share_y));
        let mut x = resolve_axis(
            spec,
            cat,
            globals,
            &ps.x,
            if share_x { &all_x } else { &st.xext },
            if share_x {
                &carry_x.names
            } else {
                &st.xcats.names
            },
            false,
            small,
            pspan.clone(),
        )?;
        let mut y = resolve_axis(
            spec,
            cat,
            globals,
            &ps.y,
            if share_y { &all_y } else { &st.yext },
            if share_y {
                &carry_y.names
            } else {
                &st.ycats.names
            },
            true,
            small,
            pspan.clone(),
        )?;
        let entries = match &facets {
            Some(p) if pi == p.legend_panel() && !outside => std::mem::take(&mut merged),
            _ => st.legend,
        };
        if let Some(p) = &facets {
            x.labels = p.x_labels(pi);
            y.labels = p.y_labels(pi);
            if !p.x_title(pi) {
                x.title = None;
            }
            if !p.y_title(pi) {
                y.title = None;
            }
        }
        let legend = if outside {
            Legend {
                position: LegendPos::Hidden,
                ..resolve_legend(spec, None, entries, small)?
            }
        } else {
            resolve_legend(spec, ps.legend.as_ref(), entries, small)?
        };
        let grid = match ps.grid.as_ref().map(|g| g.get_ref()) {
            None | Some(toml::Value::Boolean(false)) => Grid::Off,
            Some(toml::Value::Boolean(true)) => Grid::Major,
            Some(toml::Value::String(s)) if s == "major" => Grid::Major,
            Some(toml::Value::String(s)) if s == "both" => Grid::Both,
            Some(_) => {
                return Err(spec.error(
                    ps.grid.as_ref().expect("some").span(),
                    "grid is true, false, \"major\" or \"both\"",
                ));
            }
        };
        marks.sort_by(|a, b| a.0.total_cmp(&b.0));
        let layers = marks.into_iter().map(|(_, m)| m).collect();
        panels.push(Panel {
            title,
            x,
            y,
            layers,
            legend,
            grid,
            colorbar: st.colorbar,
        });
    }
    Ok(Outcome::Drawn(Box::new(Figure {
        plot: Plot {
            width,
            height,
            title,
            font_size,
            title_size,
            spines,
            layout,
            panels,
            legend: figure_legend,
        },
        csv: data_csv::write_csv(&csv_rows)?,
        sources,
        notes,
    })))
}

#[allow(clippy::too_many_arguments)]
fn resolve_axis(
    spec: &LoadedSpec,
    cat: &Catalog<'_>,
    globals: &Arc<Globals>,
    a: &AxisSpec,
    ext: &Extent,
    categories: &[String],
    vertical: bool,
    font_size: f64,
    span: std::ops::Range<usize>,
) -> Result<Axis> {
    let kind = scales::ScaleKind::of(spec, a)?;
    let log = kind == scales::ScaleKind::Log;
    let (format, label_angle) = scales::label_style(spec, a)?;
    let title = a
        .title
        .as_ref()
        .map(|t| label(spec, t, globals))
        .transpose()?;
    let (dmin, dmax) = if log { ext.data } else { ext.range }.unwrap_or((0.0, 1.0));
    let auto = scales::auto_domain(ext, kind);
    let domain = match &a.domain {
        None => auto,
        Some([lo, hi]) => {
            let mut extra = Record::default();
            extra.insert("data_min", Value::from(dmin));
            extra.insert("data_max", Value::from(dmax));
            let ctx = globals.context_with(extra);
            (
                eval_number(spec, lo, ctx.clone(), "the domain's low end")?,
                eval_number(spec, hi, ctx, "the domain's high end")?,
            )
        }
    };
    // An explicit domain is blamed at its key; an automatic one whose
    // padding overflows (data near ±1.8e308) at the figure.
    let at = match &a.domain {
        Some([lo, hi]) => lo.span().start..hi.span().end,
        None => span,
    };
    let width = kind.forward(domain.1) - kind.forward(domain.0);
    if !(domain.0.is_finite() && domain.1.is_finite() && width.is_finite()) {
        return Err(spec.error(
            at,
            format!(
                "the axis domain [{}, {}] is not finite: the data {} overflow double precision; \
                 rescale them (other units) or set `domain`",
                short(domain.0),
                short(domain.1),
                match ext.range {
                    Some((lo, hi)) => format!("[{}, {}] and their margin", short(lo), short(hi)),
                    None => "values".to_string(),
                }
            ),
        ));
    }
    if domain.0.partial_cmp(&domain.1) != Some(std::cmp::Ordering::Less) || (log && domain.0 <= 0.0)
    {
        return Err(spec.error(
            at,
            format!(
                "the axis domain [{}, {}] is empty or invalid",
                domain.0, domain.1
            ),
        ));
    }
    scales::format_applies(spec, a, !categories.is_empty())?;
    let ticks = match &a.ticks {
        Some(raw) => Some(explicit_ticks(spec, cat, globals, raw, format.as_ref())?),
        None if !categories.is_empty() => Some(
            categories
                .iter()
                .enumerate()
                .map(|(i, c)| (i as f64, c.clone()))
                .collect(),
        ),
        None => None,
    };
    // A categorical y axis reads top-down (first category on top), as a
    // table does; `reverse` flips either kind.
    let reverse = a.reverse ^ (vertical && !categories.is_empty());
    Ok(Axis {
        title,
        log,
        domain,
        ticks,
        reverse,
        tick_font_size: value(&a.tick_font_size).unwrap_or(font_size),
        labels: true,
        symlog: match kind {
            scales::ScaleKind::Symlog(c) => Some(c),
            _ => None,
        },
        format,
        label_angle,
    })
}

/// A number in short form: up to 6 significant digits, exponent beyond
/// 1e6 (so 1e308 is not written with 309 digits).
pub(crate) fn short(x: f64) -> String {
    if x != 0.0 && x.is_finite() && !(1e-4..1e6).contains(&x.abs()) {
        format!("{x:e}")
    } else {
        format!("{x}")
    }
}

fn explicit_ticks(
    spec: &LoadedSpec,
    cat: &Catalog<'_>,
    globals: &Arc<Globals>,
    raw: &Raw,
    format: Option<&crate::format::tick::TickFormat>,
) -> Result<Vec<(f64, String)>> {
    let span = raw.span();
    match raw.get_ref() {
        toml::Value::Array(items) => {
            let vals: Vec<f64> =
                items
                    .iter()
                    .map(|v| match v {
                        toml::Value::Integer(i) => Ok(*i as f64),
                        toml::Value::Float(f) if f.is_finite() => Ok(*f),
                        toml::Value::Float(f) => Err(spec.error(
                            span.clone(),
                            format!("ticks must be finite numbers, got {f}"),
                        )),
                        _ => Err(spec
                            .error(span.clone(), "ticks are numbers, or { data, value, label }")),
                    })
                    .collect::<Result<_>>()?;
            let labels = match format {
                Some(f) => f.labels(&vals),
                None => ticks::format_linear(&vals),
            };
            Ok(vals.into_iter().zip(labels).collect())
        }
        toml::Value::Table(t) => {
            let get = |k: &str| match t.get(k) {
                Some(toml::Value::String(s)) => Ok(s.as_str()),
                _ => Err(spec.error(span.clone(), format!("tick table needs `{k}` (a string)"))),
            };
            let (data, value, label) = (get("data")?, get("value")?, get("label")?);
            let table = cat.lookup(data, span.clone())?;
            let ve = Expr::compile_str(spec, value, span.clone())?.in_table(data);
            let le = Expr::compile_str(spec, label, span.clone())?.in_table(data);
            table
                .rows
                .iter()
                .map(|r| {
                    let v = ve.eval_row(globals, r)?;
                    let x = crate::tables::aggregate::finite_number(r, value, &v)?;
                    let text = layers::csv_text(&le.eval_row(globals, r)?);
                    encode::check_row_label(r, label, &text)?;
                    Ok((x, text))
                })
                .collect()
        }
        _ => Err(spec.error(
            span,
            "ticks are a list of numbers, or { data, value, label }",
        )),
    }
}

fn resolve_legend(
    spec: &LoadedSpec,
    l: Option<&LegendSpec>,
    entries: Vec<LegendEntry>,
    font_size: f64,
) -> Result<Legend> {
    let entries = grouped::merge_legend(entries);
    let position = match l.and_then(|l| l.position.as_ref()) {
        None => LegendPos::Best,
        Some(p) => match p.get_ref().as_str() {
            "best" => LegendPos::Best,
            "upper right" => LegendPos::Inside(1.0, 1.0),
            "upper left" => LegendPos::Inside(0.0, 1.0),
            "lower left" => LegendPos::Inside(0.0, 0.0),
            "lower right" => LegendPos::Inside(1.0, 0.0),
            "center right" | "right inside" => LegendPos::Inside(1.0, 0.5),
            "center left" => LegendPos::Inside(0.0, 0.5),
            "upper center" => LegendPos::Inside(0.5, 1.0),
            "lower center" => LegendPos::Inside(0.5, 0.0),
            "center" => LegendPos::Inside(0.5, 0.5),
            "right" => LegendPos::Right,
            "bottom" => LegendPos::Bottom,
            "none" => LegendPos::Hidden,
            other => {
                return Err(spec.error(p.span(), format!("unknown legend position `{other}` (best, upper right, upper left, lower left, lower right, center right, center left, upper center, lower center, center, right, bottom, none)")));
            }
        },
    };
    let columns = l.and_then(|l| value(&l.columns)).unwrap_or(1);
    if columns == 0 {
        return Err(Error::msg("legend columns must be at least 1"));
    }
    Ok(Legend {
        position,
        columns,
        frame: l.and_then(|l| l.frame).unwrap_or(true),
        font_size: l.and_then(|l| value(&l.font_size)).unwrap_or(font_size),
        entries,
    })
}

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

mod build;
pub mod channels;
pub mod colorscale;
mod csv_record;
pub(crate) mod data_csv;
pub mod encode;
pub mod facet;
mod grouped;
mod hist_groups;
pub mod layers;
mod marks;
pub mod model;
pub mod outside;
pub mod palette;
mod panels;
mod rect;
pub mod rows;
pub mod scales;
pub mod text_marks;
pub mod text_source;

use std::collections::BTreeSet;
use std::sync::Arc;

use crate::error::{Error, Result};
use crate::expr::{Globals, Template};
use crate::plan::FigurePlan;
use crate::plan::axes::{AxisPlan, NumberExpr};
use crate::spec::{AxisSpec, FigureSpec, LegendSpec, LoadedSpec, PanelSpec, Raw, value};
use crate::tables::Catalog;
use crate::ticks;
use crate::value::{Record, Value, as_number};
use layers::Extent;
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
    /// Layers skipped, with the reason; rows outside a fixed domain.
    pub notes: Vec<String>,
    /// Vector layers of many marks (`layer 1 (point) draws 20000 marks as
    /// vectors`), noted with the rendered PDF's size.
    pub dense: Vec<String>,
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

/// A setting written as a number or an expression (`compiled`, by the
/// plan), evaluated over `ctx`.
fn eval_number(
    spec: &LoadedSpec,
    raw: &Raw,
    compiled: &NumberExpr,
    ctx: Value,
    what: &str,
) -> Result<f64> {
    match raw.get_ref() {
        toml::Value::Integer(i) => Ok(*i as f64),
        toml::Value::Float(f) if f.is_finite() => Ok(*f),
        toml::Value::Float(f) => Err(spec.error(
            raw.span(),
            format!("{what} must be a finite number, got {f}"),
        )),
        toml::Value::String(_) => {
            let e = compiled
                .as_ref()
                .expect("the plan compiles a string")
                .get()?;
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
pub fn label(spec: &LoadedSpec, t: &Template, globals: &Arc<Globals>) -> Result<String> {
    let text = t.render(spec, globals.context())?;
    match crate::font::undrawable(&text) {
        None => Ok(text),
        Some(c) => Err(spec.error(
            t.span.clone(),
            format!(
                "{} (the text this template gives)",
                crate::font::undrawable_message(c)
            ),
        )),
    }
}

/// Builds figure `fp` against the built tables and numbers, its colours
/// found over the figures of `cat`'s plan (see [`compile_with`]).
pub fn compile(fp: &FigurePlan<'_>, cat: &Catalog<'_>, globals: &Arc<Globals>) -> Result<Outcome> {
    let palette = palette::Palette::new(cat.plan(), cat, globals);
    compile_with(fp, cat, globals, &palette)
}

/// Builds figure `fp` against the built tables and numbers; `palette`
/// gives the colours of the values it shares with other figures (one
/// palette for every figure of a run).
pub fn compile_with<'a, 's>(
    fp: &'a FigurePlan<'s>,
    cat: &'a Catalog<'a>,
    globals: &'a Arc<Globals>,
    palette: &'a palette::Palette<'a, 's>,
) -> Result<Outcome> {
    let b = build::Build {
        fp,
        spec: fp.spec,
        f: fp.figure.get_ref(),
        cat,
        globals,
        palette,
    };
    b.run()
}

fn resolve_axis(
    b: &build::Build,
    (a, ap): (&AxisSpec, &AxisPlan),
    ext: &Extent,
    categories: &[String],
    vertical: bool,
    font_size: f64,
    span: std::ops::Range<usize>,
) -> Result<Axis> {
    let (spec, globals) = (b.spec, b.globals);
    let kind = scales::ScaleKind::of(spec, a)?;
    let log = kind == scales::ScaleKind::Log;
    let (format, label_angle) = scales::label_style(spec, a, ap.format.as_ref())?;
    let title = ap
        .title
        .as_ref()
        .map(|t| label(spec, t.get()?, globals))
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
                eval_number(spec, lo, &ap.domain[0], ctx.clone(), "the domain's low end")?,
                eval_number(spec, hi, &ap.domain[1], ctx, "the domain's high end")?,
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
        Some(raw) => Some(explicit_ticks(b, raw, ap, format.as_ref())?),
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
        // Categories sit at whole slot indices; their ticks are given.
        integer: kind == scales::ScaleKind::Linear && ext.integer(),
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
    b: &build::Build,
    raw: &Raw,
    ap: &AxisPlan,
    format: Option<&crate::format::tick::TickFormat>,
) -> Result<Vec<(f64, String)>> {
    let (spec, globals) = (b.spec, b.globals);
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
            let table = b.cat.lookup(data, span.clone())?;
            let (ve, le) = ap.ticks.as_ref().expect("the plan compiles them").get()?;
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

/// A figure's spines: all four, or those `spines` names.
fn spines(spec: &LoadedSpec, f: &FigureSpec) -> Result<Spines> {
    let Some(list) = &f.spines else {
        return Ok(Spines {
            left: true,
            right: true,
            top: true,
            bottom: true,
        });
    };
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
    Ok(Spines {
        left: has("left"),
        right: has("right"),
        top: has("top"),
        bottom: has("bottom"),
    })
}

/// A panel's `grid`.
fn grid(spec: &LoadedSpec, ps: &PanelSpec) -> Result<Grid> {
    Ok(match ps.grid.as_ref().map(|g| g.get_ref()) {
        None | Some(toml::Value::Boolean(false)) => Grid::Off,
        Some(toml::Value::Boolean(true)) => Grid::Major,
        Some(toml::Value::String(s)) if s == "major" => Grid::Major,
        Some(toml::Value::String(s)) if s == "both" => Grid::Both,
        Some(toml::Value::String(s)) if s == "x" => Grid::X,
        Some(toml::Value::String(s)) if s == "y" => Grid::Y,
        Some(_) => {
            return Err(spec.error(
                ps.grid.as_ref().expect("some").span(),
                "grid is true, false, \"major\", \"both\", \"x\" or \"y\"",
            ));
        }
    })
}

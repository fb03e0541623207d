//! A figure's layer, compiled: its channels, `where`, `text`, `label` and
//! `series`, and the keys its mark and orientation leave unread.

use std::ops::Range;

use toml::Spanned;

use super::Later;
use super::channels::{Chan, Kind, SHAPES, check_range};
use super::text::Text;
use crate::color::scheme::DEFAULT;
use crate::error::Result;
use crate::expr::{Expr, Template};
use crate::spec::{LayerSpec, LoadedSpec, Raw, no_table};

/// A layer's channels, compiled (each `None` where the layer has none).
#[derive(Debug)]
pub struct Chans<'s> {
    /// Position.
    pub x: Option<Chan<'s>>,
    /// Position.
    pub y: Option<Chan<'s>>,
    /// Second position (a bar's base, an interval's end).
    pub x2: Option<Chan<'s>>,
    /// Second position.
    pub y2: Option<Chan<'s>>,
    /// Fill (or stroke, on a stroked mark); its scale's default range is
    /// the figure's `scheme` (okabe-ito without one).
    pub color: Option<Chan<'s>>,
    /// Outline colour.
    pub stroke: Option<Chan<'s>>,
    /// Marker shape.
    pub shape: Option<Chan<'s>>,
    /// Marker size.
    pub size: Option<Chan<'s>>,
    /// Opacity.
    pub opacity: Option<Chan<'s>>,
    /// Line or outline width.
    pub stroke_width: Option<Chan<'s>>,
    /// An arc's angle (Vega-Lite's `theta`).
    pub theta: Option<Chan<'s>>,
    /// `xOffset`: a sub-band of the x category.
    pub x_offset: Option<Later<Chan<'s>>>,
    /// `yOffset`.
    pub y_offset: Option<Later<Chan<'s>>>,
}

/// A layer as the figure builds it.
#[derive(Debug)]
pub struct LayerPlan<'s> {
    /// The layer as written.
    pub spec: &'s LayerSpec,
    /// Its span in the spec.
    pub span: Range<usize>,
    /// Its channels.
    pub chans: Chans<'s>,
    /// `where`, over rows of its `data`.
    pub where_: Option<Expr<'s>>,
    /// `text`, over rows of its `data`.
    pub text: Option<Later<Text<'s>>>,
    /// `label`, rendered over the numbers.
    pub label: Option<Template<'s>>,
    /// `series`: the expression that splits its rows into lines or groups.
    pub series: Option<Later<Expr<'s>>>,
}

fn known(spec: &LoadedSpec, name: &str) -> bool {
    spec.spec.tables.contains_key(name) || spec.spec.sources.contains_key(name)
}

/// Compiles layer `l` of a figure whose `scheme` is `scheme`. Errors, in
/// the order they are looked for: a `data` that names no table, a key
/// its orientation leaves unread, its `text`, `label`, `where`, channels
/// and scale ranges.
pub fn compile<'s>(
    spec: &LoadedSpec,
    l: &'s Spanned<LayerSpec>,
    scheme: Option<&str>,
) -> Result<LayerPlan<'s>> {
    let (span, l) = (l.span(), l.get_ref());
    if let Some(d) = &l.data
        && !known(spec, d.get_ref())
    {
        return Err(spec.error(d.span(), no_table(spec, d.get_ref())));
    }
    orientation(spec, l)?;
    let table = l.data.as_ref().map(|d| d.get_ref().as_str());
    let text = l
        .text
        .as_ref()
        .map(|t| super::text::compile(spec, t, table))
        .transpose()?;
    let label = l
        .label
        .as_ref()
        .map(|t| Template::compile(spec, t))
        .transpose()?;
    let where_ = l
        .where_
        .as_ref()
        .map(|w| Ok::<_, crate::error::Error>(in_table(Expr::compile(spec, w)?, table)))
        .transpose()?;
    let chans = channels(spec, l, scheme)?;
    let series = l
        .series
        .as_ref()
        .map(|s| Later::new(Expr::compile(spec, s)));
    Ok(LayerPlan {
        spec: l,
        span,
        chans,
        where_,
        text,
        label,
        series,
    })
}

fn in_table<'s>(e: Expr<'s>, table: Option<&str>) -> Expr<'s> {
    match table {
        Some(d) => e.in_table(d),
        None => e,
    }
}

/// The layer's channels: position and numeric ones first, then colour,
/// stroke and shape, then their scales' ranges; the offsets last (their
/// errors are the figure's, [`Later`]).
fn channels<'s>(spec: &LoadedSpec, l: &'s LayerSpec, scheme: Option<&str>) -> Result<Chans<'s>> {
    let table = l.data.as_ref().map(|d| d.get_ref().as_str());
    let c = |raw: &'s Option<Raw>, kind: Kind, range: &[&str]| {
        raw.as_ref()
            .map(|r| {
                let mut c = Chan::compile(spec, r, kind, range)?;
                if let Some(d) = table {
                    c.set_table(d);
                }
                Ok(c)
            })
            .transpose()
    };
    let (x, y, x2, y2) = (
        c(&l.x, Kind::Data, &[])?,
        c(&l.y, Kind::Data, &[])?,
        c(&l.x2, Kind::Data, &[])?,
        c(&l.y2, Kind::Data, &[])?,
    );
    let (size, opacity, stroke_width, theta) = (
        c(&l.size, Kind::Data, &[])?,
        c(&l.opacity, Kind::Data, &[])?,
        c(&l.stroke_width, Kind::Data, &[])?,
        c(&l.theta, Kind::Data, &[])?,
    );
    let (default_colors, hatch) = scheme
        .and_then(crate::color::scheme::categorical)
        .unwrap_or_else(|| (DEFAULT.iter().map(|s| s.to_string()).collect(), false));
    hatch_on_fills(spec, l)?;
    let color = l
        .color
        .as_ref()
        .map(|r| {
            let mut c = Chan::compile_scaled(spec, r, Kind::Style, (&default_colors, hatch), true)?;
            if let Some(d) = table {
                c.set_table(d);
            }
            c.darker_greys_for_strokes(l.mark.get_ref());
            Ok::<_, crate::error::Error>(c)
        })
        .transpose()?;
    let stroke = c(&l.stroke, Kind::Style, &DEFAULT)?;
    let shape = c(&l.shape, Kind::Style, &SHAPES)?;
    for (raw, shape) in [(&l.color, false), (&l.stroke, false), (&l.shape, true)] {
        if let Some(raw) = raw {
            check_range(spec, raw, shape)?;
        }
    }
    let later = |raw: &'s Option<Raw>| {
        raw.as_ref()
            .map(|_| Later::new(c(raw, Kind::Data, &[]).map(|c| c.expect("written"))))
    };
    Ok(Chans {
        x,
        y,
        x2,
        y2,
        color,
        stroke,
        shape,
        size,
        opacity,
        stroke_width,
        theta,
        x_offset: later(&l.x_offset),
        y_offset: later(&l.y_offset),
    })
}

/// A colour scale's `hatch` patterns the bars or cells it fills; on any
/// other mark it would do nothing, so it is an error at the channel.
fn hatch_on_fills(spec: &LoadedSpec, l: &LayerSpec) -> Result<()> {
    let Some(c) = &l.color else { return Ok(()) };
    let hatch = c.get_ref().get("scale").and_then(|s| s.get("hatch"));
    let mark = l.mark.get_ref().as_str();
    if hatch == Some(&toml::Value::Boolean(true)) && !["bar", "rect"].contains(&mark) {
        return Err(spec.error(
            c.span(),
            format!("`hatch` patterns the bars or cells it fills (`bar`, `rect`); a `{mark}` layer has none"),
        ));
    }
    Ok(())
}

/// The keys a layer's orientation leaves unread are errors: a vertical
/// bar's base is `y2` (a horizontal one's `x2`), an errorbar spans `y` to
/// `y2` (horizontal: `x` to `x2`), and a rule is vertical at `x`,
/// horizontal at `y`, the diagonal, or a segment ([`rule_ends`]).
fn orientation(spec: &LoadedSpec, l: &LayerSpec) -> Result<()> {
    let mark = l.mark.get_ref().as_str();
    let orient = l.orient.as_ref().map(|o| o.get_ref().as_str());
    let horizontal = orient == Some("horizontal");
    match mark {
        "bar" | "errorbar" => {
            let (unread, read, how) = if horizontal {
                (&l.y2, "x2", "horizontal")
            } else {
                (&l.x2, "y2", "vertical")
            };
            if let Some(raw) = unread {
                let name = if horizontal { "y2" } else { "x2" };
                return Err(spec.error(
                    raw.span(),
                    format!(
                        "`{name}` does nothing on a {how} `{mark}`: its second position is `{read}`"
                    ),
                ));
            }
        }
        "rule" => rule_ends(spec, l)?,
        _ => {}
    }
    Ok(())
}

/// A rule's positions (Vega-Lite's): `x` alone is a vertical line across
/// the plot, `y` alone a horizontal one; with both, a segment needs its
/// other end: `y2` (vertical, from `y` to `y2` at `x`), `x2` (horizontal,
/// from `x` to `x2` at `y`) or both (from (`x`, `y`) to (`x2`, `y2`)).
/// `orient = "diagonal"` takes none of them. Each unread key is an error at
/// its place.
fn rule_ends(spec: &LoadedSpec, l: &LayerSpec) -> Result<()> {
    if let Some(o) = &l.orient
        && o.get_ref() != "diagonal"
    {
        return Err(spec.error(
            o.span(),
            "a rule's `orient` is only `diagonal`: a rule is vertical at `x` and horizontal at `y`",
        ));
    }
    let at = |raw: &Raw, msg: String| Err(spec.error(raw.span(), msg));
    if l.orient.is_some() {
        for (k, raw) in [("x", &l.x), ("y", &l.y), ("x2", &l.x2), ("y2", &l.y2)] {
            if let Some(raw) = raw {
                return at(
                    raw,
                    format!("`{k}` does nothing on a rule with `orient = \"diagonal\"`"),
                );
            }
        }
        return Ok(());
    }
    for (k, raw, base, other) in [("x2", &l.x2, &l.x, "y"), ("y2", &l.y2, &l.y, "x")] {
        let Some(raw) = raw else { continue };
        let b = &k[..1];
        if base.is_none() {
            return at(
                raw,
                format!("`{k}` needs `{b}`: a rule's segment runs from `{b}` to `{k}`"),
            );
        }
        let crossing = if other == "y" { &l.y } else { &l.x };
        if crossing.is_none() {
            return at(
                raw,
                format!(
                    "`{k}` needs `{other}`: a segment from `{b}` to `{k}` is drawn at `{other}` (without `{k}`, a rule at `{b}` spans the plot)"
                ),
            );
        }
    }
    if l.x2.is_none()
        && l.y2.is_none()
        && let (Some(_), Some(y)) = (&l.x, &l.y)
    {
        return at(
            y,
            "`y` does nothing on a rule with `x`: a rule is vertical at `x` or horizontal at `y`; for a segment give its other end, `y2` (or `x2`)".to_string(),
        );
    }
    Ok(())
}

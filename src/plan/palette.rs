//! One colour per value across the paper, from the spec alone: which field
//! each layer's categorical colours follow (its colour scale's, its
//! `series`', or its offset's), and the values `[style] colors` fixes.
//!
//! The figures stage gives each value of such a field the colour of its
//! place among the field's values over every figure, in spec order (the
//! figures in declaration order, their layers in order, each layer's rows
//! in order): a value keeps its colour whatever the layer, panel or figure
//! it is drawn in. A figure's colours so depend on the figures before it
//! that colour by the same field, which its fingerprint covers
//! (`fingerprint::Fingerprint::figure_keys`).

use crate::error::Result;
use crate::spec::{LayerSpec, LoadedSpec};

/// What a layer's categorical colours follow.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Via {
    /// `color = { field = ... }` without its own `range` or `domain`.
    Color,
    /// `series`, on a layer without `color`.
    Series,
    /// `xOffset` or `yOffset` on a bar, point or hist without `color` or
    /// `label`.
    Offset,
}

/// The marks a `series` colours when the layer has no `color`.
const SERIES_MARKS: &[&str] = &["line", "ecdf", "area", "errorband", "hist"];

/// The marks an offset colours when the layer has no `color` or `label`.
const OFFSET_MARKS: &[&str] = &["bar", "point", "hist"];

/// The field (its expression's text, trimmed) whose values colour layer
/// `l`, and how; `None` for a layer whose colours are its own (a constant,
/// an expression, a scale with its own `range` or `domain`, a
/// quantitative scale).
pub fn colour_field(l: &LayerSpec) -> Option<(String, Via)> {
    let mark = l.mark.get_ref().as_str();
    if let Some(c) = &l.color {
        let t = c.get_ref().as_table()?;
        let field = t.get("field")?.as_str()?;
        let scale = t.get("scale").and_then(|s| s.as_table());
        let own = scale.is_some_and(|s| s.contains_key("range") || s.contains_key("domain"));
        let quantitative = match t.get("type").and_then(|v| v.as_str()) {
            Some(ty) => ty == "quantitative",
            None => scale
                .and_then(|s| s.get("scheme"))
                .and_then(|s| s.as_str())
                .is_some_and(|s| crate::color::scheme::categorical(s).is_none()),
        };
        return (!own && !quantitative).then(|| (field.trim().to_string(), Via::Color));
    }
    if let Some(s) = &l.series
        && SERIES_MARKS.contains(&mark)
    {
        return Some((s.get_ref().trim().to_string(), Via::Series));
    }
    if l.label.is_some() || !OFFSET_MARKS.contains(&mark) {
        return None;
    }
    let offset = l.x_offset.as_ref().or(l.y_offset.as_ref())?;
    let text = match offset.get_ref() {
        toml::Value::String(s) => s.as_str(),
        toml::Value::Table(t) => t.get("field")?.as_str()?,
        _ => return None,
    };
    Some((text.trim().to_string(), Via::Offset))
}

/// Whether layer `l`'s `shape` is a scale over the field its colours
/// follow, without its own `range` or `domain`: its keys then take the
/// places the paper gives their colours, so a value has one shape too.
pub fn shape_follows(l: &LayerSpec) -> bool {
    let Some((field, _)) = colour_field(l) else {
        return false;
    };
    let Some(t) = l.shape.as_ref().and_then(|s| s.get_ref().as_table()) else {
        return false;
    };
    let own = t
        .get("scale")
        .and_then(|s| s.as_table())
        .is_some_and(|s| s.contains_key("range") || s.contains_key("domain"));
    !own && t.get("field").and_then(|f| f.as_str()).map(str::trim) == Some(field.as_str())
}

/// The layers of a figure as written, every panel's in order.
pub fn layers_of(f: &crate::spec::FigureSpec) -> impl Iterator<Item = &LayerSpec> {
    f.layers
        .iter()
        .flatten()
        .chain(f.panels.iter().flatten().flat_map(|p| &p.get_ref().layers))
        .map(|l| l.get_ref())
}

/// `[style] colors`: each value and its colour, in the order written.
/// Errors, at the table: a colour that does not parse or is `none`, two
/// values given one colour, and a table no figure reads (no layer colours
/// by a field).
pub fn fixed(spec: &LoadedSpec) -> Result<Vec<(String, String)>> {
    let Some(raw) = &spec.spec.style.colors else {
        return Ok(Vec::new());
    };
    let toml::Value::Table(t) = raw.get_ref() else {
        return Err(spec.error(
            raw.span(),
            "`colors` is a table of colours by value: `{ Baseline = \"#4477aa\" }`",
        ));
    };
    if t.is_empty() {
        return Err(spec.error(
            raw.span(),
            "`colors` is empty: give a colour per value, or drop it",
        ));
    }
    let mut out: Vec<(String, String)> = Vec::with_capacity(t.len());
    let mut hexes: Vec<String> = Vec::with_capacity(t.len());
    for (value, c) in t {
        let shown = crate::error::shown(value);
        let Some(text) = c.as_str() else {
            return Err(spec.error(
                raw.span(),
                format!("`colors`: the colour of `{shown}` is a string (\"#4477aa\", a CSS name)"),
            ));
        };
        let hex = match crate::color::parse(text) {
            Ok(Some(c)) => c.hex(),
            Ok(None) => {
                return Err(spec.error(
                    raw.span(),
                    format!(
                        "`colors`: `{shown}` is `{text}`: a value is drawn in a colour, not `none`"
                    ),
                ));
            }
            Err(e) => return Err(spec.error(raw.span(), format!("`colors`: `{shown}`: {e}"))),
        };
        if let Some(i) = hexes.iter().position(|h| *h == hex) {
            return Err(spec.error(
                raw.span(),
                format!(
                    "`colors` gives `{}` and `{shown}` the same colour {hex}: one colour per value",
                    crate::error::shown(&out[i].0)
                ),
            ));
        }
        hexes.push(hex);
        out.push((value.clone(), text.to_string()));
    }
    let read = spec
        .spec
        .figures
        .values()
        .flat_map(|f| layers_of(f.get_ref()))
        .any(|l| colour_field(l).is_some());
    if !read {
        return Err(spec.error(
            raw.span(),
            "`[style] colors` colours nothing: no layer colours by a field (`color = { field = ... }`, a `series` or an offset)",
        ));
    }
    Ok(out)
}

//! Axis scales (`linear`, `log`, `symlog`), their automatic domains, tick
//! label styles (`format`, `labelAngle`), and the check that a log axis
//! sees no value at or below 0, naming the layer and the row.

use super::encode::Extent;
use crate::error::Result;
use crate::format::tick::TickFormat;
use crate::plan::Later;
use crate::spec::{AxisSpec, LoadedSpec, value};
use crate::value::Row;

/// How data values map to an axis.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ScaleKind {
    /// Proportional.
    Linear,
    /// log10; values must be positive.
    Log,
    /// sign(x)·log10(1 + |x|/C) with the constant C (Vega-Lite's `symlog`).
    Symlog(f64),
}

impl ScaleKind {
    /// The axis's scale as written; `constant` only with `symlog`.
    pub fn of(spec: &LoadedSpec, a: &AxisSpec) -> Result<ScaleKind> {
        let kind = match a.scale.as_ref().map(|s| s.get_ref().as_str()) {
            None | Some("linear") => ScaleKind::Linear,
            Some("log") => ScaleKind::Log,
            Some("symlog") => {
                let c = value(&a.constant).unwrap_or(1.0);
                // Beyond these bounds the scale's units overflow or
                // collapse (1e-300 gives 600 decades, 1e300 one point).
                if !(c.is_finite() && (1e-12..=1e12).contains(&c)) {
                    let span = a.constant.as_ref().expect("set").span();
                    return Err(spec.error(
                        span,
                        format!(
                            "`constant` must be a positive number from 1e-12 to 1e12, got {}",
                            super::short(c)
                        ),
                    ));
                }
                ScaleKind::Symlog(c)
            }
            Some(other) => {
                return Err(spec.error(
                    a.scale.as_ref().expect("some").span(),
                    format!("unknown scale `{other}` (linear, log or symlog)"),
                ));
            }
        };
        if let (Some(c), false) = (&a.constant, matches!(kind, ScaleKind::Symlog(_))) {
            return Err(spec.error(
                c.span(),
                "`constant` sets the linear range of a `symlog` scale; this axis is not symlog",
            ));
        }
        Ok(kind)
    }

    /// A value in the scale's units (log10 or symlog's).
    pub fn forward(self, v: f64) -> f64 {
        match self {
            ScaleKind::Linear => v,
            ScaleKind::Log => v.log10(),
            ScaleKind::Symlog(c) => symlog(v, c),
        }
    }

    /// Back from the scale's units.
    pub fn inverse(self, t: f64) -> f64 {
        match self {
            ScaleKind::Linear => t,
            ScaleKind::Log => 10f64.powf(t),
            ScaleKind::Symlog(c) => t.signum() * c * (10f64.powf(t.abs()) - 1.0),
        }
    }
}

/// Whether each of an x and a y scale is `log`.
pub fn logs(kinds: (ScaleKind, ScaleKind)) -> (bool, bool) {
    (kinds.0 == ScaleKind::Log, kinds.1 == ScaleKind::Log)
}

/// sign(v)·log10(1 + |v|/c).
pub fn symlog(v: f64, c: f64) -> f64 {
    v.signum() * (v.abs() / c).ln_1p() / std::f64::consts::LN_10
}

/// The tick label style of an axis: its `format` and `labelAngle`.
/// (`format` as the plan compiled it).
pub fn label_style(
    spec: &LoadedSpec,
    a: &AxisSpec,
    format: Option<&Later<TickFormat>>,
) -> Result<(Option<TickFormat>, Option<f64>)> {
    let format = format.map(|f| f.get().cloned()).transpose()?;
    let angle = match &a.label_angle {
        None => None,
        Some(x) => {
            let v = *x.get_ref();
            if !(-90.0..=90.0).contains(&v) {
                return Err(spec.error(
                    x.span(),
                    format!("labelAngle is in degrees from -90 to 90, got {v}"),
                ));
            }
            Some(v)
        }
    };
    Ok((format, angle))
}

/// A `format` writes numbers: on an axis whose labels are categories, or
/// come from a ticks table's `label`, it would do nothing, so it is an
/// error at the key.
pub fn format_applies(spec: &LoadedSpec, a: &AxisSpec, categorical: bool) -> Result<()> {
    let Some(f) = &a.format else {
        return Ok(());
    };
    let table_labels = a
        .ticks
        .as_ref()
        .is_some_and(|t| matches!(t.get_ref(), toml::Value::Table(_)));
    if table_labels {
        return Err(spec.error(
            f.span(),
            "`format` writes numeric tick labels; this axis's labels come from its ticks table's `label`",
        ));
    }
    if categorical && a.ticks.is_none() {
        return Err(spec.error(
            f.span(),
            "`format` writes numeric tick labels; this axis's labels are categories",
        ));
    }
    Ok(())
}

/// A log or symlog scale maps numbers; on an axis of categories (whose
/// positions are slot indices) it would be ignored or misread, so it is an
/// error at the `scale` key.
pub fn check_kinds(
    spec: &LoadedSpec,
    axes: (&AxisSpec, &AxisSpec),
    kinds: (ScaleKind, ScaleKind),
    cats: (&super::encode::Categories, &super::encode::Categories),
) -> Result<()> {
    for (name, a, kind, c) in [
        ("x", axes.0, kinds.0, cats.0),
        ("y", axes.1, kinds.1, cats.1),
    ] {
        if kind == ScaleKind::Linear {
            continue;
        }
        if let (Some(first), Some(s)) = (c.names.first(), &a.scale) {
            return Err(spec.error(
                s.span(),
                format!("a log/symlog scale needs numbers; {name} holds categories (\"{first}\")"),
            ));
        }
    }
    Ok(())
}

/// matplotlib's autoscale: the data range plus 5% each side (in the
/// scale's units), except at a sticky value the data reaches (a bar's
/// base). A log axis ignores implicit bases (0) and sees only the data.
pub fn auto_domain(ext: &Extent, kind: ScaleKind) -> (f64, f64) {
    let range = if kind == ScaleKind::Log {
        ext.data
    } else {
        ext.range
    };
    let Some((lo, hi)) = range else {
        return if kind == ScaleKind::Log {
            (1.0, 10.0)
        } else {
            (0.0, 1.0)
        };
    };
    let (a, b) = (kind.forward(lo), kind.forward(hi));
    // One value (an ECDF of one distinct value: y is 1 alone): pad it
    // on both sides even where it is sticky, as matplotlib does.
    if a == b {
        return (kind.inverse(a - 0.55), kind.inverse(b + 0.55));
    }
    let m = (b - a) * 0.05;
    let lo_out = if ext.sticky.contains(&lo) {
        lo
    } else {
        kind.inverse(a - m)
    };
    let hi_out = if ext.sticky.contains(&hi) {
        hi
    } else {
        kind.inverse(b + m)
    };
    (lo_out, hi_out)
}

/// The error for a layer that puts a value at or below 0 on a log axis,
/// or `None`. `before` is the axis's data extent before the layer was
/// built, `after` after it; `records` are the CSV records the layer wrote
/// (one per row for most marks: then the row's file and line are named);
/// `implicit_base`: the layer's `{axis}2` is an area's default 0.
pub fn log_violation(
    axis: &str,
    layer: (usize, &str),
    before: Option<(f64, f64)>,
    after: Option<(f64, f64)>,
    records: &[super::encode::CsvRecord],
    rows: &[Row],
    implicit_base: bool,
) -> Option<String> {
    let (lo, _) = after?;
    if lo > 0.0 || before.is_some_and(|(b, _)| b <= 0.0) {
        return None;
    }
    // The first row, in file order, whose value (or second value) is the
    // trouble: `x` before `x2`, so a bar's implicit base is not blamed.
    let field2 = format!("{axis}2");
    let mut found = None;
    if records.len() == rows.len() {
        'outer: for key in [axis, field2.as_str()] {
            for (i, r) in records.iter().enumerate() {
                if let Some(v) = r.get(key).and_then(|t| t.parse::<f64>().ok())
                    && v <= 0.0
                {
                    found = Some((key == field2, v, Some(i)));
                    break 'outer;
                }
            }
        }
    }
    let (second, v, at) = found.unwrap_or((false, lo, None));
    let place = at.map_or(String::new(), |i| row_place(&rows[i]));
    // An area's implicit base is 0, not a value of the row.
    if second && implicit_base {
        return Some(format!(
            "layer {} ({}): an area's base {field2} (default 0) is not on a log axis{place}: \
             give {field2} or a linear axis",
            layer.0 + 1,
            layer.1
        ));
    }
    let key = if second { &field2 } else { axis };
    Some(format!(
        "layer {} ({}) has {key} = {v}{place}: a log axis needs positive values",
        layer.0 + 1,
        layer.1
    ))
}

/// The error for a layer whose CSV records hold a number that is not
/// finite (`inf`, `-inf`, `NaN`): a statistic, stack sum or position that
/// overflowed double precision would be drawn at infinity, so it is an
/// error naming the layer, the column and the row (one record per row) or
/// the record's categories.
pub fn nonfinite_violation(
    layer: (usize, &str),
    records: &[super::encode::CsvRecord],
    rows: &[Row],
) -> Option<String> {
    for (i, r) in records.iter().enumerate() {
        for (key, text) in r.iter() {
            let t = text.trim_start_matches('\'');
            if !matches!(t, "inf" | "-inf" | "NaN") {
                continue;
            }
            let place = if records.len() == rows.len() {
                row_place(&rows[i])
            } else {
                let cats: Vec<String> = r
                    .iter()
                    .filter(|(k, v)| &***k != "mark" && !v.is_empty() && v.parse::<f64>().is_err())
                    .map(|(k, v)| format!("{k} = {v}"))
                    .collect();
                if cats.is_empty() {
                    String::new()
                } else {
                    format!(" (at {})", cats.join(", "))
                }
            };
            return Some(format!(
                "layer {} ({}) computes {key} = {t}{place}: not a finite number \
                 (the values overflow double precision; rescale them, e.g. to other units)",
                layer.0 + 1,
                layer.1
            ));
        }
    }
    None
}

/// " (file line N)" or " (origin)" for a row.
fn row_place(row: &Row) -> String {
    let o = &row.origin;
    match (o.line_opt(), &o.record) {
        (Some(line), None) => format!(" ({} line {line})", o.path),
        _ => format!(" ({o})"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symlog_is_odd_and_inverts() {
        let k = ScaleKind::Symlog(1.0);
        assert_eq!(k.forward(0.0), 0.0);
        assert!((k.forward(9.0) - 1.0).abs() < 1e-12);
        assert!((k.forward(-99.0) + 2.0).abs() < 1e-12);
        assert!((k.inverse(k.forward(-37.5)) + 37.5).abs() < 1e-9);
    }

    #[test]
    fn log_domain_ignores_the_bar_base() {
        let mut e = Extent::default();
        e.add_base(0.0);
        e.add(10.0);
        e.add(1000.0);
        let (lo, hi) = auto_domain(&e, ScaleKind::Log);
        assert!((lo - 10f64.powf(0.9)).abs() < 1e-9, "{lo}");
        assert!((hi - 10f64.powf(3.1)).abs() < 1e-9, "{hi}");
        assert_eq!(auto_domain(&e, ScaleKind::Linear).0, 0.0);
    }
}

//! Encoding channels: how a layer maps a row to a position, a colour, a size.
//!
//! A channel is written as
//! - a number: a constant (`x = 0`, `size = 14`);
//! - a string: an expression over the row for position and numeric channels
//!   (`y = "H_byte1 + H_byte0"`), or a constant for style channels
//!   (`color = "#1f77b4"`, `shape = "circle"`, `stroke = "none"`);
//! - `{ expr = "..." }`: an expression for any channel (`stroke = { expr =
//!   "'black' if on_front else 'none'" }`);
//! - `{ field = "class", scale = { domain = [...], range = [...] } }`: a
//!   categorical scale (Vega-Lite's words) from the field's values to colours
//!   or shapes; without a domain, values take the range in first-seen order.
//!   A colour scale may name a `scheme` instead of a range; a continuous
//!   scheme (or `type = "quantitative"`) maps numbers to a gradient (see
//!   [`super::colorscale`] for the rule and the names).

use std::cell::{Cell, RefCell};
use std::sync::Arc;

use super::colorscale::{self, Continuous};
use crate::error::Result;
use crate::expr::{Expr, Globals};
use crate::spec::{LoadedSpec, Raw};
use crate::value::{Row, Value};

/// A compiled channel.
#[derive(Debug)]
pub enum Chan<'s> {
    /// The same value for every row.
    Const(Value),
    /// An expression per row.
    Expr(Expr<'s>),
    /// A categorical scale: the expression's value picks from `range`.
    Scale {
        /// The key expression.
        expr: Expr<'s>,
        /// Ordered keys; keys not listed are appended as seen.
        domain: RefCell<Vec<String>>,
        /// Output values, cycled.
        range: Vec<String>,
        /// Keys seen so far (for legend entries).
        seen: RefCell<Vec<String>>,
        /// Keys also get hatch patterns (the `greys` scheme).
        hatch: bool,
    },
    /// A quantitative colour scale: the expression's number picks a colour
    /// from a gradient.
    Continuous {
        /// The value expression.
        expr: Expr<'s>,
        /// Scheme, fixed domain, centre.
        scale: Continuous,
        /// The domain in use: the fixed one, or the data's range once
        /// [`Chan::fit`] has seen the rows.
        domain: Cell<Option<(f64, f64)>>,
        /// The colour bar's title (default: the field).
        title: Option<String>,
    },
}

/// A quantitative colour scale as [`Chan::continuous`] shows it: the
/// scale, the domain in use (`None` before any row was seen) and the
/// colour bar's title.
pub type ContinuousView<'c> = (&'c Continuous, Option<(f64, f64)>, String);

/// Whether a bare string is an expression (position and numeric channels)
/// or a constant (style channels).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Strings are expressions.
    Data,
    /// Strings are constants.
    Style,
}

fn string_list(
    spec: &LoadedSpec,
    raw: &Raw,
    v: Option<&toml::Value>,
    what: &str,
) -> Result<Vec<String>> {
    match v {
        None => Ok(Vec::new()),
        Some(toml::Value::Array(a)) => a
            .iter()
            .map(|x| match x {
                toml::Value::String(s) => Ok(s.clone()),
                toml::Value::Integer(i) => Ok(i.to_string()),
                toml::Value::Float(f) => Ok(f.to_string()),
                toml::Value::Boolean(b) => Ok(b.to_string()),
                _ => Err(spec.error(raw.span(), format!("`{what}` holds strings or numbers"))),
            })
            .collect(),
        Some(_) => Err(spec.error(raw.span(), format!("`{what}` is a list"))),
    }
}

impl<'s> Chan<'s> {
    /// Compiles a channel; `default_range` is the range of a scale without one.
    pub fn compile(
        spec: &LoadedSpec,
        raw: &'s Raw,
        kind: Kind,
        default_range: &[&str],
    ) -> Result<Chan<'s>> {
        let range: Vec<String> = default_range.iter().map(|s| s.to_string()).collect();
        Self::compile_scaled(spec, raw, kind, (&range, false), false)
    }

    /// Compiles a channel whose scale without a range or scheme takes
    /// `default.0` (hatched when `default.1`); `color` allows schemes and
    /// quantitative scales.
    pub fn compile_scaled(
        spec: &LoadedSpec,
        raw: &'s Raw,
        kind: Kind,
        default: (&[String], bool),
        color: bool,
    ) -> Result<Chan<'s>> {
        let span = raw.span();
        Ok(match raw.get_ref() {
            toml::Value::Integer(i) => Chan::Const(Value::from(*i)),
            toml::Value::Float(f) => Chan::Const(Value::from(*f)),
            toml::Value::Boolean(b) => Chan::Const(Value::from(*b)),
            toml::Value::String(s) => match kind {
                Kind::Data => Chan::Expr(Expr::compile_str(spec, s, span)?),
                Kind::Style => Chan::Const(Value::from(s.as_str())),
            },
            toml::Value::Table(t) => {
                let accepted = crate::spec::schema::kind("channel").keys_of(None);
                if let Some(bad) = t.keys().find(|k| !accepted.contains(&k.as_str())) {
                    return Err(spec.error(
                        span,
                        format!("unknown channel key `{bad}` ({})", accepted.join(", ")),
                    ));
                }
                if let Some(v) = t.get("value") {
                    return Ok(Chan::Const(crate::value::toml_to_value(v)));
                }
                if let Some(toml::Value::String(e)) = t.get("expr") {
                    return Ok(Chan::Expr(Expr::compile_str(spec, e, span)?));
                }
                let Some(toml::Value::String(field)) = t.get("field") else {
                    return Err(
                        spec.error(span, "a channel table needs `expr`, `field` or `value`")
                    );
                };
                let expr = Expr::compile_str(spec, field, span.clone())?;
                let sc = match t.get("scale") {
                    None => None,
                    Some(toml::Value::Table(sc)) => {
                        let accepted = crate::spec::schema::kind("scale").keys_of(None);
                        if let Some(bad) = sc.keys().find(|k| !accepted.contains(&k.as_str())) {
                            return Err(spec.error(
                                span,
                                format!("unknown scale key `{bad}` ({})", accepted.join(", ")),
                            ));
                        }
                        Some(sc)
                    }
                    Some(_) => return Err(spec.error(span, "`scale` is a table { domain, range }")),
                };
                let get = |k: &str| sc.and_then(|sc| sc.get(k));
                let scheme = match get("scheme") {
                    None => None,
                    Some(toml::Value::String(s)) => Some(s.as_str()),
                    Some(_) => {
                        return Err(spec
                            .error(span, "`scheme` is a name (\"viridis\", \"okabe-ito\", ...)"));
                    }
                };
                let ty = match t.get("type") {
                    None => None,
                    Some(toml::Value::String(s))
                        if ["quantitative", "nominal", "ordinal"].contains(&s.as_str()) =>
                    {
                        Some(s.as_str())
                    }
                    Some(_) => {
                        return Err(spec.error(
                            span,
                            "`type` is \"quantitative\", \"nominal\" or \"ordinal\"",
                        ));
                    }
                };
                if !color && (scheme.is_some() || ty.is_some() || get("domainMid").is_some()) {
                    return Err(spec.error(
                        span,
                        "a `scheme`, `type` or `domainMid` is for a colour scale (`color`)",
                    ));
                }
                if let Some(s) = scheme
                    && colorscale::categorical(s).is_none()
                    && colorscale::gradient(s).is_none()
                {
                    let hint = colorscale::nearest(s)
                        .map_or(String::new(), |n| format!("; did you mean `{n}`?"));
                    return Err(spec.error(
                        span,
                        format!(
                            "unknown scheme `{}` (categorical: {}; continuous: {}){hint}",
                            crate::error::shown(s),
                            colorscale::CATEGORICAL.join(", "),
                            colorscale::CONTINUOUS.join(", ")
                        ),
                    ));
                }
                if scheme.is_some() && get("range").is_some() {
                    return Err(spec.error(span, "a scale takes `scheme` or `range`, not both"));
                }
                let quantitative = match ty {
                    Some("quantitative") => true,
                    Some(_) => false,
                    None => scheme.is_some_and(|s| colorscale::categorical(s).is_none()),
                };
                let title = match t.get("title") {
                    None => None,
                    Some(toml::Value::String(s)) => Some(s.clone()),
                    Some(_) => return Err(spec.error(span, "`title` is a string")),
                };
                if quantitative {
                    let scheme = scheme.unwrap_or("viridis");
                    if get("range").is_some() {
                        return Err(spec.error(
                            span,
                            "a quantitative colour scale takes a `scheme`, not a `range`",
                        ));
                    }
                    let num = |v: &toml::Value| match v {
                        toml::Value::Integer(i) => Some(*i as f64),
                        toml::Value::Float(f) if f.is_finite() => Some(*f),
                        _ => None,
                    };
                    let fixed = match get("domain") {
                        None => None,
                        Some(toml::Value::Array(a)) if a.len() == 2 => match (num(&a[0]), num(&a[1])) {
                            (Some(lo), Some(hi)) if lo < hi => Some((lo, hi)),
                            _ => return Err(spec.error(span, "a quantitative scale's `domain` is [low, high], two numbers, low below high")),
                        },
                        Some(_) => return Err(spec.error(span, "a quantitative scale's `domain` is [low, high], two numbers, low below high")),
                    };
                    let mid =
                        match get("domainMid") {
                            None => None,
                            Some(v) => Some(num(v).ok_or_else(|| {
                                spec.error(span.clone(), "`domainMid` is a number")
                            })?),
                        };
                    if let (Some(m), Some((lo, hi))) = (mid, fixed)
                        && !(lo < m && m < hi)
                    {
                        return Err(spec.error(
                            span,
                            format!("`domainMid` {m} is not inside the domain [{lo}, {hi}]"),
                        ));
                    }
                    let scale = Continuous::new(scheme, fixed, mid).ok_or_else(|| {
                        spec.error(span.clone(), format!(
                            "`{scheme}` is a categorical scheme; a quantitative scale takes a continuous one ({})",
                            colorscale::CONTINUOUS.join(", ")
                        ))
                    })?;
                    return Ok(Chan::Continuous {
                        expr,
                        scale,
                        domain: Cell::new(fixed),
                        title,
                    });
                }
                if let Some(s) = scheme
                    && colorscale::categorical(s).is_none()
                {
                    return Err(spec.error(
                        span,
                        format!(
                            "`{s}` is a continuous scheme; a {} scale takes a categorical one ({})",
                            ty.unwrap_or("nominal"),
                            colorscale::CATEGORICAL.join(", ")
                        ),
                    ));
                }
                if get("domainMid").is_some() {
                    return Err(spec.error(span, "`domainMid` centres a quantitative colour scale; this one is categorical (give `type = \"quantitative\"` or a continuous `scheme`)"));
                }
                if title.is_some() {
                    return Err(spec.error(span, "`title` names a quantitative colour scale's colour bar; a categorical scale's keys are its legend"));
                }
                let domain = string_list(spec, raw, get("domain"), "domain")?;
                let range = string_list(spec, raw, get("range"), "range")?;
                let (range, hatch) = match scheme {
                    Some(s) => colorscale::categorical(s).expect("checked above"),
                    None if range.is_empty() => (default.0.to_vec(), default.1),
                    None => (range, false),
                };
                Chan::Scale {
                    expr,
                    domain: RefCell::new(domain),
                    range,
                    seen: RefCell::new(Vec::new()),
                    hatch,
                }
            }
            _ => return Err(spec.error(span, "a channel is a number, a string or a table")),
        })
    }

    /// Names the table the channel's expression reads, for messages.
    pub fn set_table(&mut self, table: &str) {
        match self {
            Chan::Expr(e) | Chan::Scale { expr: e, .. } | Chan::Continuous { expr: e, .. } => {
                e.set_table(table)
            }
            Chan::Const(_) => {}
        }
    }

    /// The channel's value `v` for `row` as a finite number (`field`
    /// names the channel in messages).
    pub fn number(&self, row: &Row, v: &Value, field: &str) -> Result<f64> {
        match self {
            Chan::Expr(e) => e.number(row, v),
            _ => crate::tables::aggregate::finite_number(row, field, v),
        }
    }

    /// The channel's value for `row`.
    pub fn eval(&self, globals: &Arc<Globals>, row: &Row) -> Result<Value> {
        match self {
            Chan::Const(v) => Ok(v.clone()),
            Chan::Expr(e) => e.eval_row(globals, row),
            Chan::Scale {
                expr,
                domain,
                range,
                seen,
                ..
            } => {
                let key = expr.eval_row(globals, row)?;
                no_value_is_no_group(row, expr.text, &key, "colour")?;
                let key = key
                    .as_str()
                    .map(str::to_string)
                    .unwrap_or_else(|| key.to_string());
                // A key becomes a legend entry's text.
                super::encode::check_row_label(row, expr.text, &key)?;
                let mut d = domain.borrow_mut();
                let i = match d.iter().position(|k| *k == key) {
                    Some(i) => i,
                    None => {
                        d.push(key.clone());
                        d.len() - 1
                    }
                };
                let mut s = seen.borrow_mut();
                if !s.contains(&key) {
                    s.push(key);
                }
                Ok(Value::from(range[i % range.len()].as_str()))
            }
            Chan::Continuous {
                expr,
                scale,
                domain,
                ..
            } => {
                let x = continuous_number(globals, expr, scale, row)?;
                let d = domain.get().ok_or_else(|| {
                    crate::error::Error::msg(format!(
                        "a quantitative colour scale over `{}` is not available on this mark; colour it by a categorical field",
                        expr.text
                    ))
                })?;
                Ok(Value::from(scale.color(d, x).hex()))
            }
        }
    }

    /// A quantitative colour scale without a fixed domain takes the range
    /// of its values over `rows` (every value must be a finite number).
    pub fn fit(&self, globals: &Arc<Globals>, rows: &[Row]) -> Result<()> {
        if let Chan::Continuous {
            expr,
            scale,
            domain,
            ..
        } = self
        {
            if scale.fixed.is_some() {
                return Ok(());
            }
            let mut lo_hi: Option<(f64, f64)> = None;
            for row in rows {
                let x = continuous_number(globals, expr, scale, row)?;
                lo_hi = Some(lo_hi.map_or((x, x), |(a, b)| (a.min(x), b.max(x))));
            }
            domain.set(lo_hi);
        }
        Ok(())
    }

    /// A quantitative colour scale: its scale, the domain in use and the
    /// colour bar's title.
    pub fn continuous(&self) -> Option<ContinuousView<'_>> {
        match self {
            Chan::Continuous {
                expr,
                scale,
                domain,
                title,
            } => Some((
                scale,
                domain.get(),
                title.clone().unwrap_or_else(|| expr.text.to_string()),
            )),
            _ => None,
        }
    }

    /// The hatch pattern of a hatched scale's key (the `greys` scheme).
    pub fn hatch_of(&self, key: &str) -> Option<char> {
        match self {
            Chan::Scale {
                domain,
                hatch: true,
                ..
            } => domain
                .borrow()
                .iter()
                .position(|k| k == key)
                .map(|i| colorscale::HATCHES[i % colorscale::HATCHES.len()]),
            _ => None,
        }
    }

    /// The hatch pattern for `row` under a hatched scale, else `None`.
    pub fn hatch(&self, globals: &Arc<Globals>, row: &Row) -> Result<Option<char>> {
        match self {
            Chan::Scale {
                expr, hatch: true, ..
            } => {
                let key = expr.eval_row(globals, row)?;
                let key = key
                    .as_str()
                    .map(str::to_string)
                    .unwrap_or_else(|| key.to_string());
                Ok(self.hatch_of(&key))
            }
            _ => Ok(None),
        }
    }

    /// For a scale: puts the keys of `rows` into the domain in first-seen
    /// order, without showing them in the legend (see
    /// [`super::encode::LayerCtx::scale_rows`]).
    pub fn seed(&self, globals: &Arc<Globals>, rows: &[Row]) -> Result<()> {
        if let Chan::Scale { expr, domain, .. } = self {
            let mut d = domain.borrow_mut();
            let mut known: std::collections::HashSet<String> = d.iter().cloned().collect();
            for row in rows {
                let key = expr.eval_row(globals, row)?;
                let key = key
                    .as_str()
                    .map(str::to_string)
                    .unwrap_or_else(|| key.to_string());
                if known.insert(key.clone()) {
                    d.push(key);
                }
            }
        }
        Ok(())
    }

    /// For a scale: the keys seen, in domain order, with their outputs.
    pub fn legend_keys(&self) -> Vec<(String, String)> {
        match self {
            Chan::Scale {
                domain,
                range,
                seen,
                ..
            } => {
                let seen = seen.borrow();
                domain
                    .borrow()
                    .iter()
                    .enumerate()
                    .filter(|(_, k)| seen.contains(k))
                    .map(|(i, k)| (k.clone(), range[i % range.len()].clone()))
                    .collect()
            }
            _ => Vec::new(),
        }
    }

    /// The scale's output for a key already seen.
    pub fn output_for(&self, key: &str) -> Option<String> {
        match self {
            Chan::Scale { domain, range, .. } => domain
                .borrow()
                .iter()
                .position(|k| k == key)
                .map(|i| range[i % range.len()].clone()),
            _ => None,
        }
    }

    /// The key expression of a scale.
    pub fn scale_expr(&self) -> Option<&Expr<'s>> {
        match self {
            Chan::Scale { expr, .. } => Some(expr),
            _ => None,
        }
    }
}

/// The number a quantitative colour scale maps for `row`: text is an
/// error naming the scale's scheme (a continuous scheme fed categories).
fn continuous_number(
    globals: &Arc<Globals>,
    expr: &Expr,
    scale: &Continuous,
    row: &Row,
) -> Result<f64> {
    let v = expr.eval_row(globals, row)?;
    if let Some(s) = v.as_str() {
        return Err(crate::tables::aggregate::field_error(
            row,
            expr.text,
            format!(
                "`{}` is \"{}\": a quantitative colour scale ({}) needs numbers; colour categories with a categorical scheme (tab10, okabe-ito, greys)",
                expr.text,
                crate::error::shown(s),
                scale.scheme
            ),
        ));
    }
    expr.number(row, &v)
}

/// A group key (a colour or offset category) that is null, missing or
/// empty would become a group named "None" or a blank legend entry; it is
/// an error naming the row and the field, as a facet's is.
pub(super) fn no_value_is_no_group(row: &Row, field: &str, v: &Value, what: &str) -> Result<()> {
    if v.is_none() || v.is_undefined() || v.as_str() == Some("") {
        return Err(crate::tables::aggregate::field_error(
            row,
            field,
            format!(
                "`{field}` gives no value (null or empty) for this row, so it has no {what} group; filter such rows out with the layer's `where`"
            ),
        ));
    }
    Ok(())
}

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

use std::cell::RefCell;
use std::sync::Arc;

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
    },
}

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
                    return Ok(Chan::Const(crate::sources::toml_to_value(v)));
                }
                if let Some(toml::Value::String(e)) = t.get("expr") {
                    return Ok(Chan::Expr(Expr::compile_str(spec, e, span)?));
                }
                let Some(toml::Value::String(field)) = t.get("field") else {
                    return Err(
                        spec.error(span, "a channel table needs `expr`, `field` or `value`")
                    );
                };
                let (domain, range) = match t.get("scale") {
                    None => (Vec::new(), Vec::new()),
                    Some(toml::Value::Table(sc)) => {
                        let accepted = crate::spec::schema::kind("scale").keys_of(None);
                        if let Some(bad) = sc.keys().find(|k| !accepted.contains(&k.as_str())) {
                            return Err(spec.error(
                                span,
                                format!("unknown scale key `{bad}` ({})", accepted.join(", ")),
                            ));
                        }
                        (
                            string_list(spec, raw, sc.get("domain"), "domain")?,
                            string_list(spec, raw, sc.get("range"), "range")?,
                        )
                    }
                    Some(_) => return Err(spec.error(span, "`scale` is a table { domain, range }")),
                };
                let range = if range.is_empty() {
                    default_range.iter().map(|s| s.to_string()).collect()
                } else {
                    range
                };
                Chan::Scale {
                    expr: Expr::compile_str(spec, field, span)?,
                    domain: RefCell::new(domain),
                    range,
                    seen: RefCell::new(Vec::new()),
                }
            }
            _ => return Err(spec.error(span, "a channel is a number, a string or a table")),
        })
    }

    /// Names the table the channel's expression reads, for messages.
    pub fn set_table(&mut self, table: &str) {
        match self {
            Chan::Expr(e) | Chan::Scale { expr: e, .. } => e.set_table(table),
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
            } => {
                let key = expr.eval_row(globals, row)?;
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

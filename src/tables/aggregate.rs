//! Aggregates: one value from many rows (for `group` steps and numbers).
//!
//! Written as `"count"` or a table naming the operation and its expression:
//! `{ median = "m.decompress_MBps" }`, `{ weighted_mean = "m.ratio", weight
//! = "input_bytes" }`, `{ quantile = "x", q = 0.9 }`, `{ ci95 = "x", bound =
//! "low" }` (Student t; `method = "bootstrap"` with `seed` and `resamples`).
//! Numbers may also use `{ cell = "x" }` (the value in the one row left) and
//! `{ expr = "..." }` (no table; over `meta`, `v`, `n`).
//!
//! Every value an aggregate reads must be a finite number; anything else is
//! an error naming the file, line, field and the value found — `"1.27"` is
//! not converted behind the user's back, and a NaN never reaches a median.

use std::sync::Arc;

use crate::error::{Error, Result};
use crate::expr::{Expr, Globals};
use crate::spec::{LoadedSpec, Raw};
use crate::stats::{self, Bound};
use crate::value::{Row, Value, as_number, describe};

/// The operation of an aggregate.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Op {
    /// Number of rows.
    Count,
    /// Number of rows where the expression is not null/missing.
    CountOf,
    /// Sequential sum.
    Sum,
    /// Arithmetic mean.
    Mean,
    /// `Σ x·w / Σ w`.
    WeightedMean,
    /// numpy median.
    Median,
    /// numpy linear quantile at `q`.
    Quantile(f64),
    /// Smallest value.
    Min,
    /// Largest value.
    Max,
    /// Sample standard deviation (ddof 1).
    Std,
    /// A confidence interval bound of the mean.
    Ci {
        /// Confidence level, e.g. 0.95.
        level: f64,
        /// Which end.
        bound: Bound,
        /// `None` for Student t; `Some((resamples, seed))` for bootstrap.
        bootstrap: Option<(usize, u64)>,
    },
    /// The value in the first row (any type).
    First,
    /// The value in the last row (any type).
    Last,
    /// The value in the only row (any type); an error unless exactly one row.
    Cell,
    /// An expression over the globals (numbers only; no rows).
    Expr,
}

/// A compiled aggregate.
#[derive(Debug)]
pub struct Agg<'s> {
    /// What it computes.
    pub op: Op,
    /// The per-row expression (none for `count`).
    pub expr: Option<Expr<'s>>,
    /// The weight expression of `weighted_mean`.
    pub weight: Option<Expr<'s>>,
}

const OPS: &[&str] = &[
    "count",
    "sum",
    "mean",
    "weighted_mean",
    "median",
    "quantile",
    "min",
    "max",
    "std",
    "ci95",
    "first",
    "last",
    "cell",
    "expr",
];
const OPTIONS: &[&str] = &[
    "weight",
    "q",
    "bound",
    "method",
    "seed",
    "resamples",
    "level",
];

impl<'s> Agg<'s> {
    /// Compiles an aggregate written as `"count"` or `{ op = "expr", ... }`.
    /// `cell` and `expr` are allowed only when `for_number`.
    pub fn compile(spec: &LoadedSpec, raw: &'s Raw, for_number: bool) -> Result<Agg<'s>> {
        let span = raw.span();
        let table = match raw.get_ref() {
            toml::Value::String(s) if s == "count" => {
                return Ok(Agg {
                    op: Op::Count,
                    expr: None,
                    weight: None,
                });
            }
            toml::Value::Table(t) => t,
            _ => {
                return Err(spec.error(
                    span,
                    "an aggregate is \"count\" or a table such as { median = \"field\" }",
                ));
            }
        };
        let ops: Vec<&str> = table
            .keys()
            .map(String::as_str)
            .filter(|k| OPS.contains(k))
            .collect();
        if let Some(bad) = table
            .keys()
            .find(|k| !OPS.contains(&k.as_str()) && !OPTIONS.contains(&k.as_str()))
        {
            return Err(spec.error(
                span,
                format!(
                    "unknown aggregate key `{bad}` (operations: {}; options: {})",
                    OPS.join(", "),
                    OPTIONS.join(", ")
                ),
            ));
        }
        let [name] = ops.as_slice() else {
            return Err(spec.error(
                span,
                format!(
                    "an aggregate names exactly one operation, found {}",
                    ops.len()
                ),
            ));
        };
        let name = *name;
        if !for_number && (name == "cell" || name == "expr") {
            return Err(spec.error(
                span,
                format!("`{name}` is for numbers, not group aggregates"),
            ));
        }
        let str_opt = |key: &str| -> Result<Option<&'s str>> {
            match table.get(key) {
                None => Ok(None),
                Some(toml::Value::String(s)) => Ok(Some(s.as_str())),
                Some(_) => Err(spec.error(span.clone(), format!("`{key}` must be a string"))),
            }
        };
        let num_opt = |key: &str| -> Result<Option<f64>> {
            match table.get(key) {
                None => Ok(None),
                Some(toml::Value::Float(f)) => Ok(Some(*f)),
                Some(toml::Value::Integer(i)) => Ok(Some(*i as f64)),
                Some(_) => Err(spec.error(span.clone(), format!("`{key}` must be a number"))),
            }
        };
        let text = match table.get(name) {
            Some(toml::Value::String(s)) => s.as_str(),
            Some(toml::Value::Boolean(true)) if name == "count" => {
                return Ok(Agg {
                    op: Op::Count,
                    expr: None,
                    weight: None,
                });
            }
            _ => {
                return Err(spec.error(
                    span,
                    format!("`{name}` takes an expression string, e.g. {{ {name} = \"field\" }}"),
                ));
            }
        };
        let expr = Some(Expr::compile_str(spec, text, span.clone())?);
        let op = match name {
            "count" => Op::CountOf,
            "sum" => Op::Sum,
            "mean" => Op::Mean,
            "weighted_mean" => Op::WeightedMean,
            "median" => Op::Median,
            "quantile" => {
                let q = num_opt("q")?
                    .ok_or_else(|| spec.error(span.clone(), "`quantile` needs `q` (0 to 1)"))?;
                if !(0.0..=1.0).contains(&q) {
                    return Err(spec.error(span, "`q` must be between 0 and 1"));
                }
                Op::Quantile(q)
            }
            "min" => Op::Min,
            "max" => Op::Max,
            "std" => Op::Std,
            "ci95" => {
                let bound = match str_opt("bound")? {
                    Some("low") => Bound::Low,
                    Some("high") => Bound::High,
                    _ => {
                        return Err(
                            spec.error(span, "`ci95` needs `bound = \"low\"` or `\"high\"`")
                        );
                    }
                };
                let level = num_opt("level")?.unwrap_or(0.95);
                let bootstrap = match str_opt("method")? {
                    None | Some("t") => None,
                    Some("bootstrap") => {
                        let seed = num_opt("seed")?.ok_or_else(|| {
                            spec.error(
                                span.clone(),
                                "a bootstrap needs a fixed `seed` (it is recorded with the number)",
                            )
                        })?;
                        Some((
                            num_opt("resamples")?.unwrap_or(10_000.0) as usize,
                            seed as u64,
                        ))
                    }
                    Some(other) => {
                        return Err(spec.error(
                            span,
                            format!("unknown interval method `{other}` (t or bootstrap)"),
                        ));
                    }
                };
                Op::Ci {
                    level,
                    bound,
                    bootstrap,
                }
            }
            "first" => Op::First,
            "last" => Op::Last,
            "cell" => Op::Cell,
            _ => Op::Expr,
        };
        let weight = match (op, str_opt("weight")?) {
            (Op::WeightedMean, Some(w)) => Some(Expr::compile_str(spec, w, span.clone())?),
            (Op::WeightedMean, None) => {
                return Err(spec.error(span, "`weighted_mean` needs `weight`"));
            }
            (_, Some(_)) => return Err(spec.error(span, "`weight` applies only to weighted_mean")),
            (_, None) => None,
        };
        Ok(Agg { op, expr, weight })
    }

    /// Computes the aggregate over `rows` (or over the globals for `expr`).
    pub fn compute(&self, globals: &Arc<Globals>, rows: &[&Row]) -> Result<Value> {
        let expr = || self.expr.as_ref().expect("compiled with an expression");
        match self.op {
            Op::Count => return Ok(Value::from(rows.len() as i64)),
            Op::CountOf => {
                let mut n = 0i64;
                for r in rows {
                    let v = expr().eval_row(globals, r)?;
                    if !(v.is_none() || v.is_undefined()) {
                        n += 1;
                    }
                }
                return Ok(Value::from(n));
            }
            Op::Expr => return expr().eval(globals.context()),
            Op::First | Op::Last | Op::Cell => {
                if self.op == Op::Cell && rows.len() != 1 {
                    return Err(Error::msg(format!(
                        "`cell` needs exactly one row, but {} rows are left{}",
                        rows.len(),
                        list_origins(rows)
                    )));
                }
                let row = if self.op == Op::Last {
                    rows.last()
                } else {
                    rows.first()
                };
                let row = row.ok_or_else(|| Error::msg("no rows"))?;
                return expr().eval_row(globals, row);
            }
            _ => {}
        }
        if rows.is_empty() {
            return Err(Error::msg(format!(
                "no rows to aggregate (`{}`)",
                expr().text
            )));
        }
        // Sums of integers stay integers and min/max keep the value found,
        // as Python's sum(), min() and max() do (704, not 704.0).
        if matches!(self.op, Op::Sum | Op::Min | Op::Max) {
            let mut vals = Vec::with_capacity(rows.len());
            for r in rows {
                let v = expr().eval_row(globals, r)?;
                finite_number(r, expr().text, &v)?;
                vals.push(v);
            }
            let ints: Option<Vec<i64>> = vals
                .iter()
                .map(|v| v.is_integer().then(|| v.as_i64()).flatten())
                .collect();
            return Ok(match (self.op, ints) {
                (Op::Sum, Some(is)) => match is.iter().try_fold(0i64, |a, b| a.checked_add(*b)) {
                    Some(t) => Value::from(t),
                    None => Value::from(is.iter().map(|i| *i as f64).sum::<f64>()),
                },
                (Op::Sum, None) => {
                    Value::from(vals.iter().filter_map(crate::value::as_number).sum::<f64>())
                }
                (op, _) => {
                    let pick = |a: &Value, b: &Value| {
                        let (x, y) = (
                            crate::value::as_number(a).unwrap_or(f64::NAN),
                            crate::value::as_number(b).unwrap_or(f64::NAN),
                        );
                        if (op == Op::Min && y < x) || (op == Op::Max && y > x) {
                            b.clone()
                        } else {
                            a.clone()
                        }
                    };
                    vals.iter()
                        .skip(1)
                        .fold(vals[0].clone(), |a, b| pick(&a, b))
                }
            });
        }
        let xs = numbers(globals, expr(), rows)?;
        let value = match self.op {
            Op::Mean => stats::mean(&xs),
            Op::WeightedMean => {
                let ws = numbers(globals, self.weight.as_ref().expect("weight"), rows)?;
                if let Some((i, w)) = ws.iter().enumerate().find(|(_, w)| **w < 0.0) {
                    return Err(field_error(
                        rows[i],
                        self.weight.as_ref().expect("weight").text,
                        format!("weight must not be negative, found {w}"),
                    ));
                }
                match stats::weighted_mean(&xs, &ws) {
                    Some(v) => Some(v),
                    None => {
                        return Err(Error::msg(format!(
                            "the weights `{}` sum to 0 over {} rows",
                            self.weight.as_ref().expect("weight").text,
                            rows.len()
                        )));
                    }
                }
            }
            Op::Median => stats::median(&xs),
            Op::Quantile(q) => stats::quantile(&xs, q),
            Op::Std => stats::std(&xs),
            Op::Ci {
                level,
                bound,
                bootstrap,
            } => {
                let ci = match bootstrap {
                    None => stats::ci_t(&xs, level),
                    Some((resamples, seed)) => stats::ci_bootstrap(&xs, level, resamples, seed),
                };
                ci.map(|(lo, hi)| if bound == Bound::Low { lo } else { hi })
            }
            _ => unreachable!("handled above"),
        };
        let v = value.ok_or_else(|| {
            Error::msg(format!(
                "`{}` needs at least two values, found {}",
                expr().text,
                xs.len()
            ))
        })?;
        if !v.is_finite() {
            return Err(Error::msg(format!("`{}` aggregates to {v}", expr().text)));
        }
        Ok(Value::from(v))
    }
}

fn list_origins(rows: &[&Row]) -> String {
    if rows.is_empty() {
        return String::new();
    }
    let shown: Vec<String> = rows.iter().take(5).map(|r| r.origin.to_string()).collect();
    let more = if rows.len() > 5 { ", ..." } else { "" };
    format!(" ({}{more})", shown.join(", "))
}

/// An error about `field` in `row`, naming its file and line.
pub fn field_error(row: &Row, field: &str, message: String) -> Error {
    Error::input(
        row.origin.path.to_string(),
        row.origin.line_opt(),
        Some(field.to_string()),
        match &row.origin.record {
            Some((ptr, i)) => format!("{message} (record {ptr}/{i})"),
            None => message,
        },
    )
}

/// Evaluates `expr` on every row as a finite number, or fails naming the
/// first row whose value is not one.
pub fn numbers(globals: &Arc<Globals>, expr: &Expr, rows: &[&Row]) -> Result<Vec<f64>> {
    rows.iter()
        .map(|r| {
            let v = expr.eval_row(globals, r)?;
            finite_number(r, expr.text, &v)
        })
        .collect()
}

/// The value as a finite `f64`, or an error naming the row and field.
pub fn finite_number(row: &Row, field: &str, v: &Value) -> Result<f64> {
    match as_number(v) {
        Some(x) if x.is_finite() => Ok(x),
        Some(x) => Err(field_error(
            row,
            field,
            format!(
                "{x} is not a finite number (say in the spec how to treat it, e.g. filter `{field} is finite`)"
            ),
        )),
        None => Err(field_error(
            row,
            field,
            format!("expected a number, found {}", describe(v)),
        )),
    }
}

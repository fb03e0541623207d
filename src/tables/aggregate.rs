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

use super::values::Values;
use crate::error::{Error, Result};
use crate::expr::{Expr, Globals};
use crate::spec::{LoadedSpec, Raw};
use crate::stats::{self, Bound};
use crate::value::{Row, Value, as_number};
pub use crate::value::{field_error, finite_number};

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

/// The operations and their options, as the spec's declaration has them
/// (`spec::schema`): the declaration's variants are the operations.
fn ops() -> Vec<&'static str> {
    crate::spec::schema::kind("aggregate")
        .variant_list
        .iter()
        .map(|v| v.name)
        .collect()
}

fn options() -> Vec<&'static str> {
    let k = crate::spec::schema::kind("aggregate");
    k.keys
        .iter()
        .map(|key| key.name)
        .filter(|n| !k.is_variant(n))
        .collect()
}

impl<'s> Agg<'s> {
    /// Names the table the aggregate's expressions run in, for messages.
    pub fn set_table(&mut self, table: &str) {
        for e in self.expr.iter_mut().chain(self.weight.iter_mut()) {
            e.set_table(table);
        }
    }

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
        let (all_ops, all_options) = (ops(), options());
        let ops: Vec<&str> = table
            .keys()
            .map(String::as_str)
            .filter(|k| all_ops.contains(k))
            .collect();
        if let Some(bad) = table
            .keys()
            .find(|k| !all_ops.contains(&k.as_str()) && !all_options.contains(&k.as_str()))
        {
            return Err(spec.error(
                span,
                format!(
                    "unknown aggregate key `{bad}` (operations: {}; options: {})",
                    all_ops.join(", "),
                    all_options.join(", ")
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
                let level = crate::spec::bounds::level(num_opt("level")?.unwrap_or(0.95))
                    .map_err(|m| spec.error(span.clone(), m))?;
                let bootstrap = match str_opt("method")? {
                    None | Some("t") => {
                        // The keys checker knows `seed` needs a method, not which.
                        if let Some(k) = ["seed", "resamples"]
                            .into_iter()
                            .find(|k| table.contains_key(*k))
                        {
                            return Err(spec.error(
                                span,
                                format!("`{k}` does nothing without `method = \"bootstrap\"`"),
                            ));
                        }
                        None
                    }
                    Some("bootstrap") => {
                        let seed = num_opt("seed")?.ok_or_else(|| {
                            spec.error(
                                span.clone(),
                                "a bootstrap needs a fixed `seed` (it is recorded with the number)",
                            )
                        })?;
                        let resamples = num_opt("resamples")?.unwrap_or(10_000.0);
                        let (resamples, seed) = crate::spec::bounds::bootstrap(resamples, seed)
                            .map_err(|m| spec.error(span.clone(), m))?;
                        Some((resamples, seed))
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
        if self.op == Op::Expr {
            return self
                .expr
                .as_ref()
                .expect("expression")
                .eval(globals.context());
        }
        let mut acc = self.start();
        for r in rows {
            acc.push(globals, r)?;
        }
        acc.finish()
    }

    /// A running accumulator, fed one row at a time (streamed group steps).
    pub fn start(&self) -> Acc<'_, 's> {
        let state = match self.op {
            Op::Count | Op::Expr => State::Count,
            Op::CountOf => State::CountOf(0),
            Op::Sum => State::Sum {
                int: 0,
                float: None,
            },
            Op::Mean | Op::Median | Op::Quantile(_) | Op::Std | Op::Ci { .. } => {
                State::Values(Values::default())
            }
            Op::WeightedMean => State::Weighted { sxw: 0.0, sw: 0.0 },
            Op::Min | Op::Max | Op::First | Op::Last => State::Pick(None),
            Op::Cell => State::Cell {
                value: None,
                origins: Vec::new(),
            },
        };
        Acc {
            agg: self,
            rows: 0,
            state,
        }
    }
}

#[derive(Debug)]
enum State {
    Count,
    CountOf(i64),
    /// Python's sum(): exact while every value is an integer.
    Sum {
        int: i64,
        float: Option<f64>,
    },
    Weighted {
        sxw: f64,
        sw: f64,
    },
    Values(Values),
    Pick(Option<Value>),
    Cell {
        value: Option<Value>,
        origins: Vec<String>,
    },
}

/// The running state of one aggregate.
#[derive(Debug)]
pub struct Acc<'a, 's> {
    agg: &'a Agg<'s>,
    rows: usize,
    state: State,
}

/// What one row gives an aggregate, already checked (a finite number
/// where one is needed, a weight that is not negative). Computed from a row
/// ([`Agg::input`]) or by the fast reader (`tables::fast`), then added
/// ([`Acc::add`]): both paths accumulate the same way.
#[derive(Debug, Clone)]
pub enum Input {
    /// Nothing read (`count`).
    Nothing,
    /// Whether the value is present (`count` of an expression).
    Present(bool),
    /// An integer (kept exact by `sum`).
    Int(i64),
    /// A finite number.
    Num(f64),
    /// A value and its weight.
    Weighted(f64, f64),
    /// Any value (`first`, `last`; `min`/`max` after the number check).
    Value(Value),
}

impl Agg<'_> {
    /// What `row` gives this aggregate; an error names the row and field.
    pub fn input(&self, globals: &Arc<Globals>, row: &Row) -> Result<Input> {
        let Some(expr) = self.expr.as_ref() else {
            return Ok(Input::Nothing);
        };
        let v = expr.eval_row(globals, row)?;
        Ok(match self.op {
            Op::Count | Op::Expr | Op::Cell => Input::Nothing,
            Op::CountOf => Input::Present(!(v.is_none() || v.is_undefined())),
            Op::Sum => {
                let x = expr.number(row, &v)?;
                match v.is_integer().then(|| v.as_i64()).flatten() {
                    Some(i) => Input::Int(i),
                    None => Input::Num(x),
                }
            }
            Op::WeightedMean => {
                let x = expr.number(row, &v)?;
                let we = self.weight.as_ref().expect("weight");
                let w = we.number(row, &we.eval_row(globals, row)?)?;
                if w < 0.0 {
                    return Err(field_error(
                        row,
                        we.text,
                        format!("weight must not be negative, found {w}"),
                    ));
                }
                Input::Weighted(x, w)
            }
            Op::Mean | Op::Median | Op::Quantile(_) | Op::Std | Op::Ci { .. } => {
                Input::Num(expr.number(row, &v)?)
            }
            Op::Min | Op::Max => {
                expr.number(row, &v)?;
                Input::Value(v)
            }
            Op::First | Op::Last => Input::Value(v),
        })
    }
}

impl Acc<'_, '_> {
    /// Adds one row.
    pub fn push(&mut self, globals: &Arc<Globals>, row: &Row) -> Result<()> {
        if let State::Cell { value, origins } = &mut self.state {
            self.rows += 1;
            if value.is_none()
                && let Some(expr) = self.agg.expr.as_ref()
            {
                *value = Some(expr.eval_row(globals, row)?);
            }
            if origins.len() < 5 {
                origins.push(row.origin.to_string());
            }
            return Ok(());
        }
        let input = self.agg.input(globals, row)?;
        self.add(&input);
        Ok(())
    }

    /// Adds what one row gives (see [`Input`]); whether it kept a value
    /// in memory (for the group step's budget).
    #[inline]
    pub fn add(&mut self, input: &Input) -> bool {
        self.rows += 1;
        let op = self.agg.op;
        match (&mut self.state, input) {
            (State::CountOf(n), Input::Present(yes)) => *n += *yes as i64,
            (State::Sum { int, float }, Input::Int(i)) => match float.as_mut() {
                Some(f) => *f += *i as f64,
                None => match int.checked_add(*i) {
                    Some(t) => *int = t,
                    None => *float = Some(*int as f64 + *i as f64),
                },
            },
            (State::Sum { int, float }, Input::Num(x)) => match float.as_mut() {
                Some(f) => *f += *x,
                None => *float = Some(*int as f64 + *x),
            },
            (State::Weighted { sxw, sw }, Input::Weighted(x, w)) => {
                *sxw += x * w;
                *sw += w;
            }
            (State::Values(vals), Input::Num(x)) => {
                vals.push(*x);
                return true;
            }
            (State::Pick(best), Input::Value(v)) => {
                let replace = match (op, best.as_ref()) {
                    (_, None) | (Op::Last, _) => true,
                    (Op::First, _) => false,
                    (op, Some(b)) => {
                        let (x, y) = (
                            as_number(b).unwrap_or(f64::NAN),
                            as_number(v).unwrap_or(f64::NAN),
                        );
                        (op == Op::Min && y < x) || (op == Op::Max && y > x)
                    }
                };
                if replace {
                    *best = Some(v.clone());
                }
            }
            _ => {}
        }
        false
    }

    /// Values held in memory (for a group step's memory budget).
    pub fn buffered(&self) -> usize {
        match &self.state {
            State::Values(v) => v.buffered(),
            _ => 0,
        }
    }

    /// Moves values held in memory to a temporary file.
    pub fn spill(&mut self) -> Result<()> {
        match &mut self.state {
            State::Values(v) => v.spill(),
            _ => Ok(()),
        }
    }

    /// The aggregate's value.
    pub fn finish(self) -> Result<Value> {
        let text = self.agg.expr.as_ref().map_or("", |e| e.text);
        let n = self.rows;
        let no_rows = || Error::msg(format!("no rows to aggregate (`{text}`)"));
        let v = match self.state {
            State::Count => return Ok(Value::from(n as i64)),
            State::CountOf(c) => return Ok(Value::from(c)),
            State::Cell { value, origins } => {
                if n != 1 {
                    let more = if n > 5 { ", ..." } else { "" };
                    let listed = if n == 0 {
                        String::new()
                    } else {
                        format!(" ({}{more})", origins.join(", "))
                    };
                    return Err(Error::msg(format!(
                        "`cell` needs exactly one row, but {n} rows are left{listed}"
                    )));
                }
                return Ok(value.expect("one row"));
            }
            State::Pick(best) => return best.ok_or_else(no_rows),
            // numpy: the sum of nothing is 0.
            State::Sum { int, float } => {
                return Ok(match float {
                    None => Value::from(int),
                    Some(f) => Value::from(f),
                });
            }
            State::Weighted { sxw, sw } => {
                if n == 0 {
                    return Err(no_rows());
                }
                if sw == 0.0 {
                    let w = self.agg.weight.as_ref().map_or("", |e| e.text);
                    return Err(Error::msg(format!(
                        "the weights `{w}` sum to 0 over {n} rows"
                    )));
                }
                Some(sxw / sw)
            }
            State::Values(mut vals) => {
                if vals.is_empty() {
                    return Err(no_rows());
                }
                match self.agg.op {
                    Op::Mean => vals.mean_std()?.0,
                    Op::Median => vals.median()?,
                    Op::Quantile(q) => vals.quantile(q)?,
                    Op::Std => vals.mean_std()?.1,
                    Op::Ci {
                        level,
                        bound,
                        bootstrap,
                    } => {
                        let ci = match bootstrap {
                            None => {
                                let (m, s) = vals.mean_std()?;
                                match (m, s) {
                                    (Some(m), Some(s)) => {
                                        stats::t_interval(m, s, vals.len() as usize, level)
                                    }
                                    _ => None,
                                }
                            }
                            Some((resamples, seed)) => {
                                stats::ci_bootstrap(&vals.all()?, level, resamples, seed)
                            }
                        };
                        ci.map(|(lo, hi)| if bound == Bound::Low { lo } else { hi })
                    }
                    _ => unreachable!("values are kept only for these"),
                }
            }
        };
        let v =
            v.ok_or_else(|| Error::msg(format!("`{text}` needs at least two values, found {n}")))?;
        if !v.is_finite() {
            return Err(Error::msg(format!("`{text}` aggregates to {v}")));
        }
        Ok(Value::from(v))
    }
}

/// Evaluates `expr` on every row as a finite number, or fails naming the
/// first row whose value is not one.
pub fn numbers(globals: &Arc<Globals>, expr: &Expr, rows: &[&Row]) -> Result<Vec<f64>> {
    rows.iter()
        .map(|r| {
            let v = expr.eval_row(globals, r)?;
            expr.number(r, &v)
        })
        .collect()
}

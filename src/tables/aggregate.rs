//! Aggregates: one value from many rows (for `group` steps and numbers).
//!
//! Written as `"count"` or a table naming the operation and its expression:
//! `{ median = "m.decompress_MBps" }`, `{ weighted_mean = "m.ratio", weight
//! = "input_bytes" }`, `{ quantile = "x", q = 0.9 }`, `{ ci95 = "x", bound =
//! "low" }` (Student t; `method = "bootstrap"` with `seed` and `resamples`),
//! `{ gmean = "x" }`, `{ hmean = "x" }`, `{ mad = "x", scale = "normal" }`,
//! `{ argmax = "x", field = "config" }`.
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
use crate::plan::aggregate::{Agg, Op};
use crate::stats::{self, Bound};
use crate::value::{Row, Value, as_number};
pub use crate::value::{field_error, finite_number};

impl<'s> Agg<'s> {
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
            Op::Mean | Op::Median | Op::Quantile(_) | Op::Std | Op::Ci { .. } | Op::Mad { .. } => {
                State::Values(Values::default())
            }
            // Streaming: Σ ln x or Σ 1/x, in arrival order.
            Op::Gmean | Op::Hmean => State::Transformed(0.0),
            Op::Argmax | Op::Argmin => State::Arg(None),
            Op::TtestInd | Op::MannWhitneyU => {
                State::TwoGroups(Box::new([Values::default(), Values::default()]))
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
    /// The values of the first and of the second group of a test.
    TwoGroups(Box<[Values; 2]>),
    /// The sum of `ln x` (gmean) or `1/x` (hmean).
    Transformed(f64),
    /// argmax/argmin: the best key so far and what the row gives.
    Arg(Option<(Value, Value)>),
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
    /// argmax/argmin: the number compared, and the `field` value read on
    /// the row (`None`: the row's index is kept).
    Keyed(Value, Option<Value>),
    /// A two-group test: the value and its group (0 or 1; `None`: in
    /// neither, left out).
    Grouped(f64, Option<u8>),
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
            Op::Mean | Op::Median | Op::Quantile(_) | Op::Std | Op::Ci { .. } | Op::Mad { .. } => {
                Input::Num(expr.number(row, &v)?)
            }
            Op::Gmean | Op::Hmean => {
                let x = expr.number(row, &v)?;
                if x <= 0.0 {
                    let name = if self.op == Op::Gmean {
                        "gmean"
                    } else {
                        "hmean"
                    };
                    return Err(field_error(
                        row,
                        expr.text,
                        format!("{name} needs values above 0, found {x}"),
                    ));
                }
                Input::Num(x)
            }
            Op::Argmax | Op::Argmin => {
                expr.number(row, &v)?;
                let field = match self.field.as_ref() {
                    Some(f) => Some(f.eval_row(globals, row)?),
                    None => None,
                };
                Input::Keyed(v, field)
            }
            Op::TtestInd | Op::MannWhitneyU => {
                let (by, groups) = self.groups.as_ref().expect("groups");
                let g = by.eval_row(globals, row)?;
                match groups.iter().position(|x| *x == g) {
                    Some(i) => Input::Grouped(expr.number(row, &v)?, Some(i as u8)),
                    None => Input::Grouped(0.0, None),
                }
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
            (State::TwoGroups(groups), Input::Grouped(x, Some(g))) => {
                groups[*g as usize].push(*x);
                return true;
            }
            (State::Transformed(sum), Input::Num(x)) => {
                *sum += if op == Op::Gmean { x.ln() } else { 1.0 / x };
            }
            (State::Pick(best), Input::Value(v)) => {
                let replace = match (op, best.as_ref()) {
                    (_, None) | (Op::Last, _) => true,
                    (Op::First, _) => false,
                    (op, Some(b)) => beats(op == Op::Max, v, b),
                };
                if replace {
                    *best = Some(v.clone());
                }
            }
            // Strictly better only: the first of ties stays (numpy).
            (State::Arg(best), Input::Keyed(k, field))
                if best
                    .as_ref()
                    .is_none_or(|(b, _)| beats(op == Op::Argmax, k, b)) =>
            {
                let got = field
                    .clone()
                    .unwrap_or_else(|| Value::from(self.rows as i64 - 1));
                *best = Some((k.clone(), got));
            }
            _ => {}
        }
        false
    }

    /// Values held in memory (for a group step's memory budget).
    pub fn buffered(&self) -> usize {
        match &self.state {
            State::Values(v) => v.buffered(),
            State::TwoGroups(g) => g[0].buffered() + g[1].buffered(),
            _ => 0,
        }
    }

    /// Moves values held in memory to a temporary file.
    pub fn spill(&mut self) -> Result<()> {
        match &mut self.state {
            State::Values(v) => v.spill(),
            State::TwoGroups(g) => {
                g[0].spill()?;
                g[1].spill()
            }
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
            State::Arg(best) => return best.map(|(_, v)| v).ok_or_else(no_rows),
            State::TwoGroups(mut groups) => return self.agg.two_groups(text, &mut groups),
            State::Transformed(sum) => {
                if n == 0 {
                    return Err(no_rows());
                }
                let m = sum / n as f64;
                Some(if self.agg.op == Op::Gmean {
                    m.exp()
                } else {
                    1.0 / m
                })
            }
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
                    Op::Mad { normal } => vals.mad()?.map(|m| {
                        if normal {
                            m / stats::NORMAL_MAD_SCALE
                        } else {
                            m
                        }
                    }),
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

impl Agg<'_> {
    /// The p-value of a two-group test over the values of its groups; an
    /// error says how many values each group has when there are too few.
    fn two_groups(&self, text: &str, groups: &mut [Values; 2]) -> Result<Value> {
        let [a, b] = groups;
        // Welch's test needs each group's mean and spread only (read in
        // arrival order, spilled or not); Mann–Whitney ranks all values.
        let p = if self.op == Op::TtestInd {
            let of = |v: &mut Values| -> Result<Option<(f64, f64, usize)>> {
                let (m, s) = v.mean_std()?;
                Ok(m.zip(s).map(|(m, s)| (m, s, v.len() as usize)))
            };
            match (of(a)?, of(b)?) {
                (Some(x), Some(y)) => stats::welch_p_of(x, y),
                _ => None,
            }
        } else {
            stats::mannwhitneyu_p(&a.all()?, &b.all()?)
        };
        let (ga, gb) = self
            .groups
            .as_ref()
            .map_or((Value::from(()), Value::from(())), |(_, g)| {
                (g[0].clone(), g[1].clone())
            });
        p.map(Value::from).ok_or_else(|| {
            Error::msg(format!(
                "`{text}`: the test needs values in both groups ({ga}: {}, {gb}: {}){}",
                a.len(),
                b.len(),
                if self.op == Op::TtestInd {
                    ", at least two in each, not all equal"
                } else {
                    ""
                }
            ))
        })
    }
}

/// Whether number `v` is strictly larger (`larger`) or smaller than `b`;
/// integers compared exactly (two may round to one double).
fn beats(larger: bool, v: &Value, b: &Value) -> bool {
    if let Some(o) = crate::value::cmp_ints(v, b) {
        if larger { o.is_gt() } else { o.is_lt() }
    } else {
        let (x, y) = (
            as_number(b).unwrap_or(f64::NAN),
            as_number(v).unwrap_or(f64::NAN),
        );
        if larger { y > x } else { y < x }
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

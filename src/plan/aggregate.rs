//! Aggregates as the spec writes them, compiled: `"count"` or a table
//! naming the operation and its expression (`{ median = "x" }`,
//! `{ quantile = "x", q = 0.9 }`, `{ ci95 = "x", bound = "low" }`,
//! `{ mad = "x", scale = "normal" }`, `{ argmax = "x", field = "config" }`), for
//! `group` steps, numbers, figures and results tables. Computed by
//! `tables::aggregate`.

use std::ops::Range;

use crate::error::Result;
use crate::expr::Expr;
use crate::spec::{LoadedSpec, Raw};
use crate::stats::Bound;
use crate::value::Value;

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
    /// Geometric mean (scipy.stats.gmean) of positive values.
    Gmean,
    /// Harmonic mean (scipy.stats.hmean) of positive values.
    Hmean,
    /// Median absolute deviation (scipy.stats.median_abs_deviation); with
    /// `normal`, divided by [`crate::stats::NORMAL_MAD_SCALE`].
    Mad {
        /// scipy's `scale="normal"`.
        normal: bool,
    },
    /// Where the expression is largest (first on ties, as numpy.argmax):
    /// the `field` expression's value on that row, or the row's 0-based
    /// index among the aggregated rows.
    Argmax,
    /// Where the expression is smallest (first on ties, as numpy.argmin).
    Argmin,
    /// The two-sided p-value of Welch's t-test between the two `groups`
    /// (scipy.stats.ttest_ind, equal_var=False).
    TtestInd,
    /// The two-sided p-value of the Mann–Whitney U test between the two
    /// `groups` (scipy.stats.mannwhitneyu, method "auto").
    MannWhitneyU,
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
    /// The `field` expression of `argmax`/`argmin`: what is read on the
    /// chosen row (none: the row's index).
    pub field: Option<Expr<'s>>,
    /// `by` and `groups` of a two-group test: the expression telling a
    /// row's group, and the values naming the first and the second group.
    pub groups: Option<(Expr<'s>, [Value; 2])>,
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
        for e in self
            .expr
            .iter_mut()
            .chain(self.weight.iter_mut())
            .chain(self.field.iter_mut())
            .chain(self.groups.iter_mut().map(|(by, _)| by))
        {
            e.set_table(table);
        }
    }

    /// Compiles an aggregate written as `"count"` or `{ op = "expr", ... }`.
    /// `cell` and `expr` are allowed only when `for_number`.
    pub fn compile(spec: &LoadedSpec, raw: &'s Raw, for_number: bool) -> Result<Agg<'s>> {
        Self::compile_at(spec, raw.get_ref(), raw.span(), for_number)
    }

    /// [`Agg::compile`] of a value inside a larger one (an interval's
    /// `low`), its errors at `span`.
    pub fn compile_at(
        spec: &LoadedSpec,
        value: &'s toml::Value,
        span: Range<usize>,
        for_number: bool,
    ) -> Result<Agg<'s>> {
        const COUNT: Agg<'static> = Agg {
            op: Op::Count,
            expr: None,
            weight: None,
            field: None,
            groups: None,
        };
        let table = match value {
            toml::Value::String(s) if s == "count" => return Ok(COUNT),
            toml::Value::Table(t) => t,
            // A bare field name is the usual slip for one row's value.
            toml::Value::String(s) if for_number => {
                return Err(spec.error(
                    span,
                    format!(
                        "an aggregate is \"count\" or a table such as {{ median = \"field\" }}; \
                         a field of the one row is {{ cell = {s:?} }}"
                    ),
                ));
            }
            _ => {
                return Err(spec.error(
                    span,
                    "an aggregate is \"count\" or a table such as { median = \"field\" }",
                ));
            }
        };
        let name = the_op(spec, table, span.clone(), for_number)?;
        let text = match table.get(name) {
            Some(toml::Value::String(s)) => s.as_str(),
            Some(toml::Value::Boolean(true)) if name == "count" => return Ok(COUNT),
            _ => {
                return Err(spec.error(
                    span,
                    format!("`{name}` takes an expression string, e.g. {{ {name} = \"field\" }}"),
                ));
            }
        };
        let expr = Some(Expr::compile_str(spec, text, span.clone())?);
        let opts = Options { spec, table, span };
        let op = match name {
            "count" => Op::CountOf,
            "sum" => Op::Sum,
            "mean" => Op::Mean,
            "weighted_mean" => Op::WeightedMean,
            "median" => Op::Median,
            "quantile" => opts.quantile()?,
            "min" => Op::Min,
            "max" => Op::Max,
            "std" => Op::Std,
            "gmean" => Op::Gmean,
            "hmean" => Op::Hmean,
            "mad" => opts.mad()?,
            "argmax" => Op::Argmax,
            "argmin" => Op::Argmin,
            "ttest_ind" => Op::TtestInd,
            "mannwhitneyu" => Op::MannWhitneyU,
            "ci95" => opts.ci()?,
            "first" => Op::First,
            "last" => Op::Last,
            "cell" => Op::Cell,
            _ => Op::Expr,
        };
        let weight = opts.weight(op)?;
        let field = opts.field(op)?;
        let groups = opts.groups(op)?;
        Ok(Agg {
            op,
            expr,
            weight,
            field,
            groups,
        })
    }
}

/// The one operation `table` names (an error at `span` for an unknown key,
/// none or several operations, or `cell`/`expr` outside a number).
fn the_op<'t>(
    spec: &LoadedSpec,
    table: &'t toml::Table,
    span: Range<usize>,
    for_number: bool,
) -> Result<&'t str> {
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
    Ok(name)
}

/// An aggregate's options (`q`, `bound`, `level`, `method`, `weight`, ...),
/// read with their errors at the aggregate's span.
struct Options<'a, 's> {
    spec: &'a LoadedSpec,
    table: &'s toml::Table,
    span: Range<usize>,
}

impl<'s> Options<'_, 's> {
    fn error(&self, message: impl Into<String>) -> crate::error::Error {
        self.spec.error(self.span.clone(), message)
    }

    fn str_opt(&self, key: &str) -> Result<Option<&'s str>> {
        match self.table.get(key) {
            None => Ok(None),
            Some(toml::Value::String(s)) => Ok(Some(s.as_str())),
            Some(_) => Err(self.error(format!("`{key}` must be a string"))),
        }
    }

    fn num_opt(&self, key: &str) -> Result<Option<f64>> {
        match self.table.get(key) {
            None => Ok(None),
            Some(toml::Value::Float(f)) => Ok(Some(*f)),
            Some(toml::Value::Integer(i)) => Ok(Some(*i as f64)),
            Some(_) => Err(self.error(format!("`{key}` must be a number"))),
        }
    }

    /// `quantile` at `q`, between 0 and 1.
    fn quantile(&self) -> Result<Op> {
        let q = self
            .num_opt("q")?
            .ok_or_else(|| self.error("`quantile` needs `q` (0 to 1)"))?;
        if !(0.0..=1.0).contains(&q) {
            return Err(self.error("`q` must be between 0 and 1"));
        }
        Ok(Op::Quantile(q))
    }

    /// `ci95`: its `bound`, `level` and `method`.
    fn ci(&self) -> Result<Op> {
        let bound = match self.str_opt("bound")? {
            Some("low") => Bound::Low,
            Some("high") => Bound::High,
            _ => return Err(self.error("`ci95` needs `bound = \"low\"` or `\"high\"`")),
        };
        let level = crate::spec::bounds::level(self.num_opt("level")?.unwrap_or(0.95))
            .map_err(|m| self.error(m))?;
        let bootstrap = self.bootstrap()?;
        Ok(Op::Ci {
            level,
            bound,
            bootstrap,
        })
    }

    /// An interval's `method`: `None` for Student t, or a bootstrap's
    /// (resamples, seed).
    fn bootstrap(&self) -> Result<Option<(usize, u64)>> {
        match self.str_opt("method")? {
            None | Some("t") => {
                // The keys checker knows `seed` needs a method, not which.
                if let Some(k) = ["seed", "resamples"]
                    .into_iter()
                    .find(|k| self.table.contains_key(*k))
                {
                    return Err(self.error(format!(
                        "`{k}` does nothing without `method = \"bootstrap\"`"
                    )));
                }
                Ok(None)
            }
            Some("bootstrap") => {
                let seed = self.num_opt("seed")?.ok_or_else(|| {
                    self.error("a bootstrap needs a fixed `seed` (it is recorded with the number)")
                })?;
                let resamples = self.num_opt("resamples")?.unwrap_or(10_000.0);
                let (resamples, seed) =
                    crate::spec::bounds::bootstrap(resamples, seed).map_err(|m| self.error(m))?;
                Ok(Some((resamples, seed)))
            }
            Some(other) => Err(self.error(format!(
                "unknown interval method `{other}` (t or bootstrap)"
            ))),
        }
    }

    /// `mad`'s `scale`: `"raw"` (scipy's scale=1, the default) or
    /// `"normal"`.
    fn mad(&self) -> Result<Op> {
        match self.str_opt("scale")? {
            None | Some("raw") => Ok(Op::Mad { normal: false }),
            Some("normal") => Ok(Op::Mad { normal: true }),
            Some(other) => Err(self.error(format!("unknown `scale` `{other}` (raw or normal)"))),
        }
    }

    /// `by` and `groups` of a two-group test (both required there).
    fn groups(&self, op: Op) -> Result<Option<(Expr<'s>, [Value; 2])>> {
        if !matches!(op, Op::TtestInd | Op::MannWhitneyU) {
            return Ok(None);
        }
        let by = self.str_opt("by")?.ok_or_else(|| {
            self.error("a two-group test needs `by`, the expression naming a row's group")
        })?;
        let groups = match self.table.get("groups") {
            Some(toml::Value::Array(a)) if a.len() == 2 => [
                crate::value::toml_to_value(&a[0]),
                crate::value::toml_to_value(&a[1]),
            ],
            _ => {
                return Err(self.error(
                    "a two-group test needs `groups`, the two values of `by` compared, e.g. groups = [\"A\", \"B\"]",
                ));
            }
        };
        let by = Expr::compile_str(self.spec, by, self.span.clone())?;
        Ok(Some((by, groups)))
    }

    /// `field` of `argmax`/`argmin` (optional); an error elsewhere.
    fn field(&self, op: Op) -> Result<Option<Expr<'s>>> {
        match (op, self.str_opt("field")?) {
            (Op::Argmax | Op::Argmin, f) => f
                .map(|f| Expr::compile_str(self.spec, f, self.span.clone()))
                .transpose(),
            (_, Some(_)) => Err(self.error("`field` applies only to argmax and argmin")),
            (_, None) => Ok(None),
        }
    }

    /// `weight`: required by `weighted_mean`, an error elsewhere.
    fn weight(&self, op: Op) -> Result<Option<Expr<'s>>> {
        match (op, self.str_opt("weight")?) {
            (Op::WeightedMean, Some(w)) => {
                Ok(Some(Expr::compile_str(self.spec, w, self.span.clone())?))
            }
            (Op::WeightedMean, None) => Err(self.error("`weighted_mean` needs `weight`")),
            (_, Some(_)) => Err(self.error("`weight` applies only to weighted_mean")),
            (_, None) => Ok(None),
        }
    }
}

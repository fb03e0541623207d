//! `window` and `joinaggregate` steps, compiled (run by `tables::window`).

use super::aggregate::Agg;
use crate::error::Result;
use crate::plan::steps::{SortKey, compile_sort as sort_keys};
use crate::spec::{LoadedSpec, Raw, StepSpec};
use crate::value::Value;

/// Largest `offset` of a lag or lead.
pub const MAX_OFFSET: i64 = 1_000_000;

/// One window operation.
#[derive(Debug, Clone, PartialEq)]
pub enum WindowOp {
    /// 1, 2, 3, ... in sort order.
    RowNumber,
    /// 1 + the rows sorting strictly before (ties share the lowest rank).
    Rank,
    /// 1 + the distinct sort keys before.
    DenseRank,
    /// `(rank - 1) / (n - 1)`, 0 for a group of one row.
    PercentRank,
    /// A field's value `offset` rows before (`lead`: after), or `default`.
    Shift {
        /// The field.
        field: String,
        /// Rows back (negative: ahead).
        offset: i64,
        /// Where no row is that far.
        default: Value,
    },
    /// Running sum of a field (an integer while every value is one).
    Sum(String),
    /// Running mean.
    Mean(String),
    /// Running count of the field's non-null values.
    Count(String),
    /// Running minimum (the value as it was).
    Min(String),
    /// Running maximum.
    Max(String),
    /// A counter from 0, one more whenever the fields differ from the
    /// previous row's.
    Block(Vec<String>),
}

/// A compiled `window` step.
#[derive(Debug)]
pub struct Window<'s> {
    /// Output fields and their operations, in the order written.
    pub ops: Vec<(String, WindowOp)>,
    /// Group fields.
    pub per: Vec<String>,
    /// The order within each group (empty: input order).
    pub sort: Vec<SortKey<'s>>,
}

/// A compiled `joinaggregate` step.
#[derive(Debug)]
pub struct JoinAggregate<'s> {
    /// Output fields, each an aggregate over the row's group.
    pub aggs: Vec<(String, Agg<'s>)>,
    /// Group fields (none: the whole table).
    pub per: Vec<String>,
}

const NAMED: &[(&str, WindowOp)] = &[
    ("row_number", WindowOp::RowNumber),
    ("rank", WindowOp::Rank),
    ("dense_rank", WindowOp::DenseRank),
    ("percent_rank", WindowOp::PercentRank),
];

/// Compiles a `window` step (`s.window` is present).
pub fn compile<'s>(
    spec: &LoadedSpec,
    s: &'s StepSpec,
    span: std::ops::Range<usize>,
    per: Vec<String>,
) -> Result<Window<'s>> {
    let sort = match &s.sort {
        Some(raw) => sort_keys(spec, raw)?,
        None => Vec::new(),
    };
    let mut ops = Vec::new();
    for (name, raw) in s.window.as_ref().expect("verb") {
        let op = compile_op(spec, raw)?;
        if matches!(
            op,
            WindowOp::Rank | WindowOp::DenseRank | WindowOp::PercentRank
        ) && sort.is_empty()
        {
            return Err(spec.error(
                raw.span(),
                format!("window `{name}`: a rank needs `sort` in the step (the order it ranks by)"),
            ));
        }
        ops.push((name.clone(), op));
    }
    if ops.is_empty() {
        return Err(spec.error(span, "`window` needs at least one output field"));
    }
    let window = s.window.as_ref().expect("verb");
    check_not_per(
        spec,
        "window",
        &per,
        window.iter().map(|(n, raw)| (n.clone(), raw.span())),
    )?;
    Ok(Window { ops, per, sort })
}

fn compile_op(spec: &LoadedSpec, raw: &Raw) -> Result<WindowOp> {
    let names = || NAMED.iter().map(|(n, _)| *n).collect::<Vec<_>>().join(", ");
    let t = match raw.get_ref() {
        toml::Value::String(s) => {
            return NAMED
                .iter()
                .find(|(n, _)| n == s)
                .map(|(_, op)| op.clone())
                .ok_or_else(|| {
                    spec.error(
                        raw.span(),
                        format!(
                            "unknown window operation `{s}` ({}; or a table: lag, lead, sum, mean, count, min, max, block)",
                            names()
                        ),
                    )
                });
        }
        toml::Value::Table(t) => t,
        _ => {
            return Err(spec.error(
                raw.span(),
                format!(
                    "a window operation is one of {} or a table such as `{{ lag = \"x\" }}`",
                    names()
                ),
            ));
        }
    };
    let field = |op: &str| -> Result<Option<String>> {
        match t.get(op) {
            None => Ok(None),
            Some(toml::Value::String(f)) => Ok(Some(f.clone())),
            Some(_) => Err(spec.error(raw.span(), format!("`{op}` names a field (a string)"))),
        }
    };
    let shift = |op: &str, sign: i64| -> Result<Option<WindowOp>> {
        let Some(f) = field(op)? else { return Ok(None) };
        let offset = match t.get("offset") {
            None => 1,
            Some(toml::Value::Integer(n)) if (1..=MAX_OFFSET).contains(n) => *n,
            Some(_) => {
                return Err(spec.error(raw.span(), "`offset` is a whole number, 1 to 1,000,000"));
            }
        };
        let default = t
            .get("default")
            .map_or(Value::from(()), crate::value::toml_to_value);
        Ok(Some(WindowOp::Shift {
            field: f,
            offset: sign * offset,
            default,
        }))
    };
    if let Some(op) = shift("lag", 1)? {
        return Ok(op);
    }
    if let Some(op) = shift("lead", -1)? {
        return Ok(op);
    }
    type Make = fn(String) -> WindowOp;
    let running: [(&str, Make); 5] = [
        ("sum", WindowOp::Sum),
        ("mean", WindowOp::Mean),
        ("count", WindowOp::Count),
        ("min", WindowOp::Min),
        ("max", WindowOp::Max),
    ];
    for (op, make) in running {
        if let Some(f) = field(op)? {
            return Ok(make(f));
        }
    }
    if let Some(b) = t.get("block") {
        let raw = Raw::new(raw.span(), b.clone());
        return Ok(WindowOp::Block(crate::plan::steps::str_list(
            spec, &raw, "`block`",
        )?));
    }
    Err(spec.error(
        raw.span(),
        "a window operation table names one of lag, lead, sum, mean, count, min, max, block",
    ))
}

/// A step's new fields that name one of its group fields (`per`).
pub fn check_not_per(
    spec: &LoadedSpec,
    verb: &str,
    per: &[String],
    names: impl IntoIterator<Item = (String, std::ops::Range<usize>)>,
) -> Result<()> {
    for (name, span) in names {
        if per.contains(&name) {
            return Err(spec.error(
                span,
                format!("{verb}: the new field `{name}` would overwrite the group field `{name}` named in `per`"),
            ));
        }
    }
    Ok(())
}

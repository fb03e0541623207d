//! Transform steps: compiled from the spec (applied in `apply`).
//!
//! Each step keeps row order stable (groups appear in first-seen order, sort
//! is stable), so the output matches what a Python script iterating dicts in
//! insertion order produces.

use std::ops::Range;

use toml::Spanned;

use super::aggregate::Agg;
use crate::error::Result;
use crate::expr::Expr;
use crate::spec::{LoadedSpec, Raw, StepSpec};
use crate::value::Value;

/// A sort key: an expression, its direction, and an optional explicit
/// category order (listed values first, in that order; others after).
#[derive(Debug)]
pub struct SortKey<'s> {
    /// The key.
    pub expr: Expr<'s>,
    /// Largest first.
    pub descending: bool,
    /// Values listed first, in this order.
    pub order: Option<Vec<Value>>,
}

/// What `lookup` does with rows whose key has no match.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unmatched {
    /// Drop them and report how many (the default).
    Drop,
    /// Keep them; the looked-up fields are null.
    Keep,
    /// Fail, naming the first.
    Error,
}

/// A compiled step.
#[derive(Debug)]
pub enum Step<'s> {
    /// Keep rows where true; with its top-level `and` terms when it is a
    /// conjunction of two or more (empty otherwise), so a drop is noted
    /// against the term that dropped the row.
    Filter(Expr<'s>, Vec<Expr<'s>>),
    /// Fail on the first row where false.
    Require(Expr<'s>),
    /// Add fields, in order.
    Derive(Vec<(String, Expr<'s>)>),
    /// One row per entry of a map/list field.
    Explode {
        /// The field holding the collection.
        field: String,
        /// Output field for the entry's key (or index).
        key: String,
        /// Output field for the entry's value.
        value: String,
    },
    /// Look up rows of another table by key.
    Lookup {
        /// The other table.
        table: String,
        /// Key fields of this table's rows.
        on: Vec<String>,
        /// The same keys in the other table (the names of `on` unless
        /// `on = { left, right }` names them differently).
        right: Vec<String>,
        /// Nest the matched row under this name.
        as_: Option<String>,
        /// Or copy these fields (default: all the row lacks).
        fields: Option<Vec<String>>,
        /// Policy for rows without a match.
        unmatched: Unmatched,
    },
    /// Append other tables' rows.
    Union {
        /// The tables, in order.
        tables: Vec<String>,
        /// Only rows whose key is new.
        only_new: Option<Vec<String>>,
    },
    /// Group by fields; one row per group with aggregates.
    Group {
        /// Key fields.
        keys: Vec<String>,
        /// Output fields.
        aggs: Vec<(String, Agg<'s>)>,
    },
    /// Stable sort.
    Sort(Vec<SortKey<'s>>),
    /// First N rows (per group).
    Limit {
        /// How many.
        n: usize,
        /// Group fields.
        per: Vec<String>,
    },
    /// Flag non-dominated rows.
    Pareto {
        /// Fields where larger is better.
        maximize: Vec<String>,
        /// Fields where smaller is better.
        minimize: Vec<String>,
        /// Output boolean field.
        as_: String,
        /// One front per group of these fields (none: one front).
        per: Vec<String>,
    },
    /// Key fields must not repeat.
    Unique {
        /// Key fields.
        keys: Vec<String>,
        /// `error`, `first` or `last`.
        keep: String,
    },
    /// Number rows from 0.
    RowNumber {
        /// Output field.
        as_: String,
        /// Restart per group of these fields.
        per: Vec<String>,
    },
    /// Ranks, lags, running values and block ids (see [`super::window`]).
    Window(super::window::Window<'s>),
    /// Group aggregates added to every row (see [`super::window`]).
    JoinAggregate(super::window::JoinAggregate<'s>),
    /// Wide to long (see [`super::reshape`]).
    Fold(super::reshape::Fold),
    /// Long to wide (see [`super::reshape`]).
    Pivot(super::reshape::Pivot),
    /// Equal-width bins (see [`super::bin`]).
    Bin(super::bin::Bin),
}

impl Step<'_> {
    /// Whether the step works one row at a time (it can run on a stream's
    /// parallel stage).
    pub fn is_row_wise(&self) -> bool {
        matches!(
            self,
            Step::Filter(..) | Step::Require(_) | Step::Derive(_) | Step::Explode { .. }
        )
    }

    /// Whether the step can run on a stream, row by row in file order,
    /// with memory bounded by what it must remember (`tables::serial`).
    pub fn streams(&self) -> bool {
        match self {
            Step::Unique { keep, .. } => keep != "last",
            Step::Lookup { .. } | Step::Limit { .. } | Step::RowNumber { .. } => true,
            s => s.is_row_wise(),
        }
    }

    /// The verb, for messages.
    pub fn verb(&self) -> &'static str {
        match self {
            Step::Filter(..) => "filter",
            Step::Require(_) => "require",
            Step::Derive(_) => "derive",
            Step::Explode { .. } => "explode",
            Step::Lookup { .. } => "lookup",
            Step::Union { .. } => "union",
            Step::Group { .. } => "group",
            Step::Sort(_) => "sort",
            Step::Limit { .. } => "limit",
            Step::Pareto { .. } => "pareto",
            Step::Unique { .. } => "unique",
            Step::RowNumber { .. } => "row_number",
            Step::Window(_) => "window",
            Step::JoinAggregate(_) => "joinaggregate",
            Step::Fold(_) => "fold",
            Step::Pivot(_) => "pivot",
            Step::Bin(_) => "bin",
        }
    }

    /// Names the table the step's expressions run in, for their messages.
    pub fn set_table(&mut self, table: &str) {
        match self {
            Step::Filter(e, terms) => {
                e.set_table(table);
                terms.iter_mut().for_each(|t| t.set_table(table));
            }
            Step::Require(e) => e.set_table(table),
            Step::Derive(fields) => fields.iter_mut().for_each(|(_, e)| e.set_table(table)),
            Step::Sort(keys) => keys.iter_mut().for_each(|k| k.expr.set_table(table)),
            Step::Group { aggs, .. }
            | Step::JoinAggregate(super::window::JoinAggregate { aggs, .. }) => {
                aggs.iter_mut().for_each(|(_, a)| a.set_table(table))
            }
            Step::Window(w) => w.sort.iter_mut().for_each(|k| k.expr.set_table(table)),
            _ => {}
        }
    }

    /// Tables this step reads besides its input.
    pub fn dependencies(&self) -> Vec<&str> {
        match self {
            Step::Lookup { table, .. } => vec![table.as_str()],
            Step::Union { tables, .. } => tables.iter().map(String::as_str).collect(),
            _ => Vec::new(),
        }
    }
}

/// A string or a list of strings.
pub fn str_list(spec: &LoadedSpec, raw: &Raw, what: &str) -> Result<Vec<String>> {
    match raw.get_ref() {
        toml::Value::String(s) => Ok(vec![s.clone()]),
        toml::Value::Array(a) => a
            .iter()
            .map(|v| match v {
                toml::Value::String(s) => Ok(s.clone()),
                _ => Err(spec.error(
                    raw.span(),
                    format!("{what} must be a string or a list of strings"),
                )),
            })
            .collect(),
        _ => Err(spec.error(
            raw.span(),
            format!("{what} must be a string or a list of strings"),
        )),
    }
}

/// Compiles one step; exactly one verb must be present.
pub fn compile<'s>(spec: &LoadedSpec, raw: &'s Spanned<StepSpec>) -> Result<Step<'s>> {
    let s = raw.get_ref();
    let span = raw.span();
    let verb = the_verb(spec, s, span.clone())?;
    let per = |raw: &Option<Raw>| per_fields(spec, raw);
    Ok(match verb {
        "filter" => {
            let e = Expr::compile(spec, s.filter.as_ref().expect("verb"))?;
            let terms = filter_terms(spec, &e);
            Step::Filter(e, terms)
        }
        "require" => Step::Require(Expr::compile(spec, s.require.as_ref().expect("verb"))?),
        "derive" => Step::Derive(
            s.derive
                .as_ref()
                .expect("verb")
                .iter()
                .map(|(k, e)| Ok((k.clone(), Expr::compile(spec, e)?)))
                .collect::<Result<_>>()?,
        ),
        "explode" => Step::Explode {
            field: s.explode.as_ref().expect("verb").get_ref().clone(),
            key: s.key.clone().unwrap_or_else(|| "key".into()),
            value: s.value.clone().unwrap_or_else(|| "value".into()),
        },
        "lookup" => compile_lookup(spec, s, span)?,
        "union" => Step::Union {
            tables: str_list(spec, s.union.as_ref().expect("verb"), "`union`")?,
            only_new: s
                .only_new
                .as_ref()
                .map(|r| str_list(spec, r, "`only_new`"))
                .transpose()?,
        },
        "group" | "aggregate" => compile_group(spec, s)?,
        "sort" => Step::Sort(compile_sort(spec, s.sort.as_ref().expect("verb"))?),
        "limit" => {
            let n = s.limit.as_ref().expect("verb");
            if *n.get_ref() < 0 {
                return Err(spec.error(n.span(), "`limit` must not be negative"));
            }
            Step::Limit {
                n: *n.get_ref() as usize,
                per: per(&s.per)?,
            }
        }
        "pareto" => Step::Pareto {
            maximize: str_list(spec, s.pareto.as_ref().expect("verb"), "`pareto`")?,
            minimize: s
                .minimize
                .as_ref()
                .map(|r| str_list(spec, r, "`minimize`"))
                .transpose()?
                .unwrap_or_default(),
            as_: s.as_.clone().unwrap_or_else(|| "pareto".into()),
            per: per(&s.per)?,
        },
        "unique" => compile_unique(spec, s)?,
        "window" => Step::Window(super::window::compile(spec, s, span, per(&s.per)?)?),
        "joinaggregate" => compile_joinaggregate(spec, s)?,
        "fold" => compile_fold(spec, s, span)?,
        "pivot" => Step::Pivot(super::reshape::compile_pivot(spec, s, per(&s.per)?)?),
        "bin" => Step::Bin(super::bin::compile(spec, s)?),
        _ => Step::RowNumber {
            as_: s.row_number.clone().expect("verb"),
            per: per(&s.per)?,
        },
    })
}

/// The compiled top-level `and` terms of a filter (see
/// [`crate::expr::terms::conjuncts`]); empty when it is not a conjunction
/// or a term does not compile on its own (its notes then name no term).
fn filter_terms<'s>(spec: &LoadedSpec, e: &Expr<'s>) -> Vec<Expr<'s>> {
    let text: &'s str = e.text;
    crate::expr::terms::conjuncts(text)
        .into_iter()
        .map(|r| Expr::compile_str(spec, &text[r], e.span.clone()).ok())
        .collect::<Option<Vec<_>>>()
        .unwrap_or_default()
}

/// The one verb of step `s` (an error at `span` naming those found when
/// there are none or several). `aggregate` beside `group`, and `sort`
/// beside `window`, are options, not verbs.
fn the_verb(spec: &LoadedSpec, s: &StepSpec, span: Range<usize>) -> Result<&'static str> {
    let verbs: Vec<&'static str> = [
        ("filter", s.filter.is_some()),
        ("require", s.require.is_some()),
        ("derive", s.derive.is_some()),
        ("explode", s.explode.is_some()),
        ("lookup", s.lookup.is_some()),
        ("union", s.union.is_some()),
        ("group", s.group.is_some()),
        ("sort", s.sort.is_some()),
        ("limit", s.limit.is_some()),
        ("pareto", s.pareto.is_some()),
        ("unique", s.unique.is_some()),
        ("row_number", s.row_number.is_some()),
        // Alone, or beside its verb (`group`, `window`) as an option.
        ("aggregate", s.aggregate.is_some() && s.group.is_none()),
        ("window", s.window.is_some()),
        ("joinaggregate", s.joinaggregate.is_some()),
        ("fold", s.fold.is_some()),
        ("pivot", s.pivot.is_some()),
        ("bin", s.bin.is_some()),
    ]
    .into_iter()
    .filter_map(|(v, on)| on.then_some(v))
    .filter(|v| !(*v == "sort" && s.window.is_some()))
    .collect();
    let [verb] = verbs.as_slice() else {
        return Err(spec.error(
            span,
            format!(
                "a step has exactly one verb (filter, require, derive, explode, lookup, union, group, aggregate, sort, limit, pareto, unique, row_number, window, joinaggregate, fold, pivot, bin); found {}",
                if verbs.is_empty() { "none".to_string() } else { verbs.join(", ") }
            ),
        ));
    };
    Ok(*verb)
}

/// A step's `per`: none when absent, an error when empty.
fn per_fields(spec: &LoadedSpec, raw: &Option<Raw>) -> Result<Vec<String>> {
    let Some(r) = raw else { return Ok(Vec::new()) };
    let per = str_list(spec, r, "`per`")?;
    if per.is_empty() {
        return Err(spec.error(
            r.span(),
            "`per = []` groups by nothing: leave `per` out for the whole table, or name the group fields",
        ));
    }
    Ok(per)
}

/// `lookup`: the other table, the key fields on each side and the policy
/// for rows without a match.
fn compile_lookup<'s>(spec: &LoadedSpec, s: &'s StepSpec, span: Range<usize>) -> Result<Step<'s>> {
    let on = s.on.as_ref().ok_or_else(|| {
        spec.error(
            span.clone(),
            "`lookup` needs `on` (the key field or fields)",
        )
    })?;
    let unmatched = match s.unmatched.as_ref().map(|u| u.get_ref().as_str()) {
        None | Some("drop") => Unmatched::Drop,
        Some("keep") => Unmatched::Keep,
        Some("error") => Unmatched::Error,
        Some(other) => {
            return Err(spec.error(
                s.unmatched.as_ref().expect("some").span(),
                format!("unknown policy `{other}` (drop, keep or error)"),
            ));
        }
    };
    let (on, right) = join_keys(spec, on)?;
    Ok(Step::Lookup {
        table: s.lookup.as_ref().expect("verb").get_ref().clone(),
        on,
        right,
        as_: s.as_.clone(),
        fields: s.fields.clone(),
        unmatched,
    })
}

/// `group` (with `aggregate`), or `aggregate` alone: one row over the
/// whole table.
fn compile_group<'s>(spec: &LoadedSpec, s: &'s StepSpec) -> Result<Step<'s>> {
    let aggs = s
        .aggregate
        .as_ref()
        .map(|m| {
            m.iter()
                .map(|(k, raw)| Ok((k.clone(), Agg::compile(spec, raw, false)?)))
                .collect::<Result<Vec<_>>>()
        })
        .transpose()?
        .unwrap_or_default();
    Ok(Step::Group {
        keys: match &s.group {
            Some(g) => str_list(spec, g, "`group`")?,
            // One row over the whole table.
            None => Vec::new(),
        },
        aggs,
    })
}

/// `unique` and its `keep` policy.
fn compile_unique<'s>(spec: &LoadedSpec, s: &'s StepSpec) -> Result<Step<'s>> {
    let keep = s.keep.as_ref().map_or("error", |k| k.get_ref().as_str());
    if !["error", "first", "last"].contains(&keep) {
        return Err(spec.error(
            s.keep.as_ref().expect("some").span(),
            "`keep` is error, first or last",
        ));
    }
    Ok(Step::Unique {
        keys: str_list(spec, s.unique.as_ref().expect("verb"), "`unique`")?,
        keep: keep.to_string(),
    })
}

/// `joinaggregate`: aggregates per group added to every row (an aggregate
/// may not read its own `per` fields).
fn compile_joinaggregate<'s>(spec: &LoadedSpec, s: &'s StepSpec) -> Result<Step<'s>> {
    let ja = s.joinaggregate.as_ref().expect("verb");
    let per = per_fields(spec, &s.per)?;
    super::window::check_not_per(
        spec,
        "joinaggregate",
        &per,
        ja.iter().map(|(n, raw)| (n.clone(), raw.span())),
    )?;
    Ok(Step::JoinAggregate(super::window::JoinAggregate {
        aggs: ja
            .iter()
            .map(|(k, raw)| Ok((k.clone(), Agg::compile(spec, raw, false)?)))
            .collect::<Result<Vec<_>>>()?,
        per,
    }))
}

/// `fold`: the fields folded into `key`/`value` rows (neither empty nor
/// the two names alike).
fn compile_fold<'s>(spec: &LoadedSpec, s: &'s StepSpec, span: Range<usize>) -> Result<Step<'s>> {
    let raw = s.fold.as_ref().expect("verb");
    let fields = str_list(spec, raw, "`fold`")?;
    if fields.is_empty() {
        return Err(spec.error(
            raw.span(),
            "`fold = []` folds no field (and would leave no rows): name the fields to fold",
        ));
    }
    let key = s.key.clone().unwrap_or_else(|| "key".into());
    let value = s.value.clone().unwrap_or_else(|| "value".into());
    if key == value {
        return Err(spec.error(
            span,
            format!("fold: `key` and `value` are both `{key}`: the value would overwrite the name; give them different names"),
        ));
    }
    Ok(Step::Fold(super::reshape::Fold { fields, key, value }))
}

/// `on`: a field or fields named alike in both tables, or `{ left, right }`
/// (this table's fields, the other's, as many of each).
fn join_keys(spec: &LoadedSpec, on: &Raw) -> Result<(Vec<String>, Vec<String>)> {
    let toml::Value::Table(t) = on.get_ref() else {
        let keys = str_list(spec, on, "`on`")?;
        return Ok((keys.clone(), keys));
    };
    let side = |name: &str| -> Result<Vec<String>> {
        let v = t.get(name).ok_or_else(|| {
            spec.error(
                on.span(),
                format!("`on` as a table needs `left` (this table's key fields) and `right` (the other's); `{name}` is missing"),
            )
        })?;
        let raw = Raw::new(on.span(), v.clone());
        str_list(spec, &raw, &format!("`on.{name}`"))
    };
    if let Some(bad) = t.keys().find(|k| !["left", "right"].contains(&k.as_str())) {
        return Err(spec.error(
            on.span(),
            format!("unknown key `{bad}` in `on` (left, right)"),
        ));
    }
    let (left, right) = (side("left")?, side("right")?);
    if left.len() != right.len() || left.is_empty() {
        return Err(spec.error(
            on.span(),
            format!(
                "`on.left` names {} field(s) and `on.right` {}: they pair up one to one",
                left.len(),
                right.len()
            ),
        ));
    }
    Ok((left, right))
}

/// Compiles sort keys (a `sort` step's, or a `window`'s `sort`).
pub fn compile_sort<'s>(spec: &LoadedSpec, raw: &'s Raw) -> Result<Vec<SortKey<'s>>> {
    let span = raw.span();
    let items: Vec<&'s toml::Value> = match raw.get_ref() {
        toml::Value::Array(a) => a.iter().collect(),
        v => vec![v],
    };
    items
        .into_iter()
        .map(|item| match item {
            toml::Value::String(s) => Ok(SortKey {
                expr: Expr::compile_str(spec, s, span.clone())?,
                descending: false,
                order: None,
            }),
            toml::Value::Table(t) => {
                let accepted = crate::spec::schema::kind("sort_key").keys_of(None);
                if let Some(bad) = t.keys().find(|k| !accepted.contains(&k.as_str())) {
                    return Err(spec.error(
                        span.clone(),
                        format!("unknown sort key option `{bad}` ({})", accepted.join(", ")),
                    ));
                }
                let by = match t.get("by") {
                    Some(toml::Value::String(s)) => s,
                    _ => {
                        return Err(spec
                            .error(span.clone(), "a sort key table needs `by = \"expression\"`"));
                    }
                };
                let descending = match t.get("descending") {
                    None => false,
                    Some(toml::Value::Boolean(b)) => *b,
                    Some(_) => {
                        return Err(spec.error(span.clone(), "`descending` is true or false"));
                    }
                };
                let order = match t.get("order") {
                    None => None,
                    Some(toml::Value::Array(a)) => {
                        Some(a.iter().map(crate::value::toml_to_value).collect())
                    }
                    Some(_) => return Err(spec.error(span.clone(), "`order` is a list of values")),
                };
                Ok(SortKey {
                    expr: Expr::compile_str(spec, by, span.clone())?,
                    descending,
                    order,
                })
            }
            _ => Err(spec.error(
                span.clone(),
                "a sort key is an expression or { by, descending, order }",
            )),
        })
        .collect()
}

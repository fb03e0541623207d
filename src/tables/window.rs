//! The `window` and `joinaggregate` steps (Vega-Lite's): fields computed
//! from the other rows of a row's group, added to every row; row order is
//! kept.
//!
//! A window runs over each `per` group in `sort` order (stable: rows that
//! tie keep their input order; without `sort`, the input order). Ranks count
//! from 1 as in Vega-Lite (`rank` is pandas' `rank(method="min")`); a row
//! whose sort key is null or NaN gets a null rank and is not counted, as
//! pandas (`percent_rank` divides by the ranked rows less one);
//! `row_number` numbers every row, as Vega-Lite; running
//! values (sum, mean, count, min, max) cover the rows up to and including
//! the row, ties counted one row at a time (Vega-Lite's frame `[null, 0]`
//! with `ignorePeers = true`). Both steps hold the table's rows.

use std::sync::Arc;

use indexmap::IndexMap;

use super::aggregate::{field_error, finite_number};
use super::apply::{compare_keys, require_row_fields, row_key};
use crate::error::{Error, Result};
use crate::expr::Globals;
use crate::plan::steps::SortKey;
use crate::plan::window::{JoinAggregate, Window, WindowOp};
use crate::value::{Key, Row, Value, compare};

/// Each group's row indices (groups in first-seen order). A row without a
/// `per` field is in the group of its null (one meaning of missing); a
/// field no row has is a typo, the error of the first row.
fn groups(rows: &[Row], per: &[String], verb: &str) -> Result<IndexMap<Key, Vec<usize>>> {
    for f in per {
        if let Some(first) = rows.first()
            && !rows.iter().any(|r| r.get(f).is_some())
        {
            require_row_fields(first, std::slice::from_ref(f), verb)?;
        }
    }
    let mut parts: IndexMap<Key, Vec<usize>> = IndexMap::new();
    for (i, r) in rows.iter().enumerate() {
        parts.entry(row_key(r, per)).or_default().push(i);
    }
    Ok(parts)
}

/// The rows with each new field laid over them, in their order; a new
/// field a row already has is an error naming the row (only `derive`
/// overwrites).
fn with_fields(
    rows: Vec<Row>,
    names: &[&str],
    values: Vec<Vec<Value>>,
    verb: &str,
) -> Result<Vec<Row>> {
    rows.into_iter()
        .zip(values)
        .map(|(r, vals)| {
            let mut rec = (*r.flat_fields()).clone();
            for (n, v) in names.iter().zip(vals) {
                if rec.0.contains_key(*n) {
                    return Err(overwrite_error(&r, verb, n));
                }
                rec.insert(*n, v);
            }
            Ok(Row {
                extra: Default::default(),
                fields: Arc::new(rec),
                origin: r.origin,
            })
        })
        .collect()
}

/// A step's new field `name` that `row` already has.
pub fn overwrite_error(row: &Row, verb: &str, name: &str) -> Error {
    field_error(
        row,
        name,
        format!(
            "{verb}: the new field `{name}` would overwrite the row's own `{name}`; give the new field another name (only `derive` overwrites)"
        ),
    )
}

/// Applies a `window` step.
pub fn apply(w: &Window, rows: Vec<Row>, g: &Arc<Globals>) -> Result<Vec<Row>> {
    let mut parts = groups(&rows, &w.per, "window")?;
    read_fields_exist(w, &rows)?;
    let keys: Vec<Vec<Value>> = if w.sort.is_empty() {
        Vec::new()
    } else {
        rows.iter()
            .map(|r| w.sort.iter().map(|k| k.expr.eval_row(g, r)).collect())
            .collect::<Result<_>>()?
    };
    let mut out: Vec<Vec<Value>> = vec![Vec::with_capacity(w.ops.len()); rows.len()];
    for idx in parts.values_mut() {
        if !keys.is_empty() {
            idx.sort_by(|&a, &b| compare_keys(&w.sort, &keys[a], &keys[b]));
        }
        for (name, op) in &w.ops {
            let vals = run(op, idx, &rows, &keys, &w.sort)
                .map_err(|e| e.context(format!("window `{name}`")))?;
            for (&i, v) in idx.iter().zip(vals) {
                out[i].push(v);
            }
        }
    }
    let names: Vec<&str> = w.ops.iter().map(|(n, _)| n.as_str()).collect();
    with_fields(rows, &names, out, "window")
}

/// One operation over one group's rows `idx` (in window order): a value
/// per row, in that order.
fn run(
    op: &WindowOp,
    idx: &[usize],
    rows: &[Row],
    keys: &[Vec<Value>],
    sort: &[SortKey],
) -> Result<Vec<Value>> {
    let n = idx.len();
    let cell = |i: usize, f: &str| field_of(rows, i, f);
    let mut vals = Vec::with_capacity(n);
    match op {
        WindowOp::RowNumber => vals.extend((1..=n as i64).map(Value::from)),
        WindowOp::Rank | WindowOp::PercentRank | WindowOp::DenseRank => {
            ranks(op, idx, keys, sort, &mut vals)
        }
        WindowOp::Shift {
            field,
            offset,
            default,
        } => {
            // A row without the field gives none, as a missing field
            // reads everywhere else (`read_fields_exist` has already
            // refused a field no row has: a typo).
            for p in 0..n {
                let from = p as i64 - offset;
                vals.push(if (0..n as i64).contains(&from) {
                    rows[idx[from as usize]]
                        .get(field)
                        .cloned()
                        .unwrap_or_else(|| Value::from(()))
                } else {
                    default.clone()
                });
            }
        }
        WindowOp::Sum(f) | WindowOp::Mean(f) => running_sums(op, f, idx, rows, &mut vals)?,
        WindowOp::Count(f) => {
            let mut count = 0i64;
            for &i in idx {
                // A row without the field has no value, as a null has
                // (`value::is_missing`; `read_fields_exist` has refused a
                // field no row has): pandas' `expanding().count()`.
                if rows[i].get(f).is_some_and(|v| !crate::value::is_missing(v)) {
                    count += 1;
                }
                vals.push(Value::from(count));
            }
        }
        WindowOp::Min(f) | WindowOp::Max(f) => {
            let mut best: Option<(f64, Value)> = None;
            for &i in idx {
                let v = cell(i, f)?;
                let x = finite_number(&rows[i], f, &v)?;
                let better = match &best {
                    None => true,
                    Some((b, _)) if matches!(op, WindowOp::Min(_)) => x < *b,
                    Some((b, _)) => x > *b,
                };
                if better {
                    best = Some((x, v));
                }
                vals.push(best.as_ref().expect("set").1.clone());
            }
        }
        WindowOp::Block(fields) => {
            let mut block = 0i64;
            let mut prev: Option<Vec<Value>> = None;
            for &i in idx {
                let key: Vec<Value> = fields.iter().map(|f| cell(i, f)).collect::<Result<_>>()?;
                if let Some(p) = &prev
                    && p.iter().zip(&key).any(|(a, b)| compare(a, b).is_ne())
                {
                    block += 1;
                }
                prev = Some(key);
                vals.push(Value::from(block));
            }
        }
    }
    Ok(vals)
}

/// Fails when a `lag`, `lead` or `count` reads a field that no row has (a
/// typo, named as a missing field of the first row); a field some rows
/// lack is none on those rows.
fn read_fields_exist(w: &Window, rows: &[Row]) -> Result<()> {
    for (name, op) in &w.ops {
        if let WindowOp::Shift { field, .. } | WindowOp::Count(field) = op
            && !rows.iter().any(|r| r.get(field).is_some())
            && let Err(e) = field_of(rows, 0, field)
        {
            return Err(e.context(format!("window `{name}`")));
        }
    }
    Ok(())
}

/// Field `f` of row `i`; a row without it is an error naming its fields.
#[inline]
fn field_of(rows: &[Row], i: usize, f: &str) -> Result<Value> {
    let r = &rows[i];
    r.get(f).cloned().ok_or_else(|| {
        field_error(
            r,
            f,
            format!("window: {}", crate::expr::undefined::no_named_field(f, r)),
        )
    })
}

/// `rank`, `dense_rank` or `percent_rank` of the rows `idx` (in window
/// order, by their sort `keys`), pushed to `vals`.
fn ranks(
    op: &WindowOp,
    idx: &[usize],
    keys: &[Vec<Value>],
    sort: &[SortKey],
    vals: &mut Vec<Value>,
) {
    let n = idx.len();
    // A row whose sort key is null or NaN gets a null rank and is
    // not counted (pandas' `rank`, `na_option="keep"`).
    let missing = |p: usize| keys[idx[p]].iter().any(is_missing);
    let m = (0..n).filter(|&p| !missing(p)).count();
    let (mut rank, mut dense, mut seen) = (1i64, 0i64, 0i64);
    let mut prev: Option<usize> = None;
    for p in 0..n {
        if missing(p) {
            vals.push(Value::from(()));
            continue;
        }
        let tie = prev.is_some_and(|q| compare_keys(sort, &keys[idx[q]], &keys[idx[p]]).is_eq());
        if !tie {
            rank = seen + 1;
            dense += 1;
        }
        seen += 1;
        prev = Some(p);
        vals.push(match op {
            WindowOp::Rank => Value::from(rank),
            WindowOp::DenseRank => Value::from(dense),
            _ if m == 1 => Value::from(0.0),
            _ => Value::from((rank - 1) as f64 / (m - 1) as f64),
        });
    }
}

/// The running sum or mean of field `f` over the rows `idx`, pushed to
/// `vals`: an integer sum while every value is an integer and it fits.
fn running_sums(
    op: &WindowOp,
    f: &str,
    idx: &[usize],
    rows: &[Row],
    vals: &mut Vec<Value>,
) -> Result<()> {
    let (mut int, mut float, mut count) = (Some(0i64), 0.0f64, 0u64);
    for &i in idx {
        let v = field_of(rows, i, f)?;
        let x = finite_number(&rows[i], f, &v)?;
        int = match (int, v.as_i64()) {
            (Some(a), Some(b)) if v.is_integer() => a.checked_add(b),
            _ => None,
        };
        float += x;
        count += 1;
        vals.push(match (op, int) {
            (WindowOp::Sum(_), Some(s)) => Value::from(s),
            (WindowOp::Sum(_), None) => Value::from(float),
            _ => Value::from(float / count as f64),
        });
    }
    Ok(())
}

/// Whether a sort key is null (or missing) or NaN: such a row has no rank.
fn is_missing(v: &Value) -> bool {
    v.is_none() || v.is_undefined() || crate::value::as_number(v).is_some_and(f64::is_nan)
}

/// Applies a `joinaggregate` step: each group's aggregates (numpy's
/// definitions, as `group`) on every row of the group.
pub fn join_aggregate(j: &JoinAggregate, rows: Vec<Row>, g: &Arc<Globals>) -> Result<Vec<Row>> {
    let parts = groups(&rows, &j.per, "joinaggregate")?;
    let mut out: Vec<Vec<Value>> = vec![Vec::with_capacity(j.aggs.len()); rows.len()];
    for (key, idx) in &parts {
        let mut accs: Vec<_> = j.aggs.iter().map(|(_, a)| a.start()).collect();
        let context =
            |name: &str, e: Error| e.context(format!("joinaggregate `{name}` of group ({key})"));
        for &i in idx {
            for ((name, _), acc) in j.aggs.iter().zip(accs.iter_mut()) {
                acc.push(g, &rows[i]).map_err(|e| context(name, e))?;
            }
        }
        for ((name, _), acc) in j.aggs.iter().zip(accs) {
            let v = acc.finish().map_err(|e| context(name, e))?;
            for &i in idx {
                out[i].push(v.clone());
            }
        }
    }
    let names: Vec<&str> = j.aggs.iter().map(|(n, _)| n.as_str()).collect();
    with_fields(rows, &names, out, "joinaggregate")
}

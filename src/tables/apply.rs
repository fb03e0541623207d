//! Applying compiled steps: row by row (filter, require, derive, explode),
//! with a running grouper (group), or on the whole table (the rest).

use std::sync::Arc;

use super::aggregate::field_error;
use crate::error::{Error, Result};
use crate::expr::Globals;
use crate::plan::steps::Step;
use crate::value::{Key, Row, Value, as_record, compare};

/// Everything a step may read besides its input rows.
pub struct StepEnv<'a> {
    /// Numbers/meta visible to expressions.
    pub globals: &'a Arc<Globals>,
    /// Other tables (for lookup and union).
    pub tables: &'a dyn Fn(&str) -> Option<Arc<super::Table>>,
    /// Reports for the user.
    pub notes: &'a mut Vec<String>,
}

fn key_of(row: &Row, fields: &[String]) -> Key {
    let vals: Vec<Value> = fields
        .iter()
        .map(|f| row.get(f).cloned().unwrap_or(Value::UNDEFINED))
        .collect();
    Key::of(&vals)
}

fn require_fields(row: &Row, fields: &[String], verb: &str) -> Result<()> {
    for f in fields {
        if row.get(f).is_none() {
            return Err(field_error(
                row,
                f,
                format!("{verb}: {}", crate::expr::undefined::no_named_field(f, row)),
            ));
        }
    }
    Ok(())
}

mod drops;
mod grouper;
mod lookup;
mod whole;

pub use drops::{DERIVED_NOTHING, DropLog, Dropped, flush_drops, note_drop};
pub use grouper::Grouper;
pub use lookup::{MISSED_SHOWN, joined, missed_note, no_match, repeated_key};

/// Applies a row-wise step to one row, pushing what comes out to `out`.
pub fn apply_row(
    step: &Step,
    row: Row,
    g: &Arc<Globals>,
    drops: &mut DropLog,
    out: &mut Vec<Row>,
) -> Result<()> {
    match step {
        Step::Filter(e, terms) => {
            if e.test_row(g, &row)? {
                out.push(row);
                return Ok(());
            }
            note_filter_drop((e, terms), &row, g, drops);
        }
        Step::Require(e) => {
            if !e.test_row(g, &row)? {
                return Err(requirement_failed(e, &row));
            }
            out.push(row);
        }
        Step::Derive(fields) => {
            let mut row = row;
            for (name, e) in fields {
                let v = e.eval_row(g, &row)?;
                // An expression that yields nothing (a fallback chain of
                // missing fields) makes a null field, which later steps see
                // and report; the run says so too, since a typo
                // (`_source.meta.config.loader`) would otherwise become a
                // column of nulls without a word.
                let v = if v.is_undefined() {
                    note_drop(drops, (e.text, "", name, DERIVED_NOTHING), || {
                        row.origin.to_string()
                    });
                    Value::from(())
                } else {
                    v
                };
                row.flatten();
                Arc::make_mut(&mut row.fields).insert(name.as_str(), v);
            }
            out.push(row);
        }
        Step::Explode { field, key, value } => explode(row, (field, key, value), out)?,
        _ => unreachable!("not a row-wise step"),
    }
    Ok(())
}

/// Notes a row `filter` dropped while a field it read is null, NaN,
/// infinite or zero: `H_byte1 > 0` meeting `"H_byte1": null` (or 0.0)
/// drops the row, and says so. For a conjunction only the fields of the
/// term that dropped the row count (the first false one, left to right, as
/// `and` evaluates; one that fails on its own counts too), and the note
/// names it: a null read by a later term did not drop the row.
#[inline]
fn note_filter_drop(
    (e, terms): (&crate::expr::Expr, &[crate::expr::Expr]),
    row: &Row,
    g: &Arc<Globals>,
    drops: &mut DropLog,
) {
    let by = terms.iter().find(|t| !t.test_row(g, row).unwrap_or(false));
    let (reads, by) = match by {
        Some(t) => (t, t.text),
        None => (e, ""),
    };
    for p in reads.paths() {
        let Some(v) = crate::expr::lookup_path(row, p) else {
            continue;
        };
        let why = if v.is_none() {
            "null"
        } else if crate::value::as_number(&v).is_some_and(|x| x.is_nan()) {
            "NaN"
        } else if crate::value::as_number(&v).is_some_and(|x| x.is_infinite()) {
            "infinite"
        } else if crate::value::as_number(&v) == Some(0.0) {
            // A falsy but valid value dropped by the spec's rule: said,
            // so a zero never leaves a figure without a word.
            "0"
        } else {
            continue;
        };
        note_drop(drops, (e.text, by, p, why), || row.origin.to_string());
        break;
    }
}

/// The error of a `require` that does not hold on `row`, with the values
/// it read.
#[cold]
fn requirement_failed(e: &crate::expr::Expr, row: &Row) -> Error {
    let values: Vec<String> = e
        .paths()
        .iter()
        .map(|p| {
            format!(
                "{p} = {}",
                crate::expr::lookup_path(row, p)
                    .map_or("missing".into(), |v| crate::value::show(&v))
            )
        })
        .collect();
    Error::input(
        row.origin.path.to_string(),
        row.origin.line_opt(),
        e.paths().first().cloned(),
        format!(
            "required `{}` does not hold (where {})",
            e.text,
            values.join(", ")
        ),
    )
}

/// `explode`: one row per entry of the mapping or list in `field`, with
/// the entry's key and value.
#[inline]
fn explode(
    row: Row,
    (field, key, value): (&String, &String, &String),
    out: &mut Vec<Row>,
) -> Result<()> {
    // An entry of an entry: lay the new fields over a flat row.
    let mut row = row;
    row.flatten();
    let coll = row.get(field).cloned().unwrap_or(Value::UNDEFINED);
    let (field_name, key_name, value_name): (Arc<str>, Arc<str>, Arc<str>) = (
        Arc::from(field.as_str()),
        Arc::from(key.as_str()),
        Arc::from(value.as_str()),
    );
    // Each entry shares the row's fields and lays its key and value
    // (and the exploded field's absence) over them: no copy per entry.
    let mut push = |k: Value, v: Value| {
        let mut extra = crate::value::Extra::default();
        extra.set(field_name.clone(), Value::UNDEFINED);
        extra.set(key_name.clone(), k);
        extra.set(value_name.clone(), v);
        out.push(Row {
            extra,
            fields: row.fields.clone(),
            origin: row.origin.clone(),
        });
    };
    if let Some(map) = as_record(&coll) {
        for (k, v) in &map.0 {
            push(Value::from(&**k), v.clone());
        }
    } else if coll.kind() == minijinja::value::ValueKind::Map {
        // A mapping made by an expression (`{'a': x, 'b': y}` in a
        // derive): minijinja's own map, in its order.
        for k in coll.try_iter().into_iter().flatten() {
            let v = coll.get_item(&k).unwrap_or(Value::UNDEFINED);
            push(k, v);
        }
    } else if coll.kind() == minijinja::value::ValueKind::Seq {
        for (i, v) in coll.try_iter().into_iter().flatten().enumerate() {
            push(Value::from(i as i64), v);
        }
    } else {
        return Err(field_error(
            &row,
            field,
            format!(
                "explode needs a mapping or a list, found {} (filter such rows first, e.g. `{field} is mapping`)",
                crate::value::describe(&coll)
            ),
        ));
    }
    Ok(())
}

/// Applies `step` to `rows`.
pub fn apply(step: &Step, rows: Vec<Row>, env: &mut StepEnv) -> Result<Vec<Row>> {
    let g = env.globals;
    if step.is_row_wise() {
        let mut out = Vec::with_capacity(rows.len());
        let mut drops = DropLog::new();
        for r in rows {
            apply_row(step, r, g, &mut drops, &mut out)?;
        }
        flush_drops(&mut drops, env.notes);
        return Ok(out);
    }
    Ok(match step {
        Step::Lookup {
            table,
            on,
            right,
            as_,
            fields,
            unmatched,
        } => whole::lookup((table, on, right), (as_, fields, unmatched), rows, env)?,
        Step::Union { tables, only_new } => whole::union(tables, only_new, rows, env)?,
        Step::Group { .. } => {
            let mut grouper = Grouper::new(step);
            for r in rows {
                grouper.push(g, r)?;
            }
            grouper.finish()?
        }
        Step::Filter(..) | Step::Require(_) | Step::Derive(_) | Step::Explode { .. } => {
            unreachable!("row-wise steps are applied above")
        }
        Step::Sort(keys) => whole::sort(keys, rows, g)?,
        Step::Limit { n, per } => whole::limit(n, per, rows),
        Step::Pareto {
            maximize,
            minimize,
            as_,
            per,
        } => whole::pareto((maximize, minimize), as_, per, rows)?,
        Step::Unique { keys, keep } => whole::unique(keys, keep, rows, env)?,
        Step::Window(w) => super::window::apply(w, rows, g)?,
        Step::JoinAggregate(j) => super::window::join_aggregate(j, rows, g)?,
        Step::Fold(f) => super::reshape::fold(f, rows)?,
        Step::Pivot(p) => super::reshape::pivot(p, rows)?,
        Step::Bin(b) => super::bin::apply(b, rows)?,
        Step::RowNumber { as_, per } => whole::row_number(as_, per, rows),
    })
}

/// Orders two rows' sort-key values (`a[i]`, `b[i]` for `keys[i]`): a listed
/// `order` first, then [`compare`], reversed where descending.
pub fn compare_keys(
    keys: &[crate::plan::steps::SortKey],
    a: &[Value],
    b: &[Value],
) -> std::cmp::Ordering {
    for (i, k) in keys.iter().enumerate() {
        let ord = match &k.order {
            Some(order) => {
                let pos = |v: &Value| order.iter().position(|o| compare(o, v).is_eq());
                match (pos(&a[i]), pos(&b[i])) {
                    (Some(x), Some(y)) => x.cmp(&y),
                    (Some(_), None) => std::cmp::Ordering::Less,
                    (None, Some(_)) => std::cmp::Ordering::Greater,
                    (None, None) => compare(&a[i], &b[i]),
                }
            }
            None => compare(&a[i], &b[i]),
        };
        let ord = if k.descending { ord.reverse() } else { ord };
        if ord.is_ne() {
            return ord;
        }
    }
    std::cmp::Ordering::Equal
}

/// The key of `row` made of `fields` (missing ones undefined).
pub fn row_key(row: &Row, fields: &[String]) -> Key {
    key_of(row, fields)
}

/// Fails naming the row when one of `fields` is missing from it.
pub fn require_row_fields(row: &Row, fields: &[String], verb: &str) -> Result<()> {
    require_fields(row, fields, verb)
}

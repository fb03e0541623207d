//! `sort` on a results table: its rows ordered by the keys a `sort` step
//! takes (compiled by `plan::steps::compile_sort`) and compared as that
//! step compares them (`tables::apply::compare_keys`: numbers by value,
//! an `order` list first, stable), except that a row whose key is null,
//! missing or NaN comes last whichever the direction (pandas'
//! `na_position = "last"`): a table of results lists what was measured
//! first, and `descending` must not bring the blanks to the top.

use std::ops::Range;
use std::sync::Arc;

use crate::error::Result;
use crate::expr::Globals;
use crate::plan::steps::SortKey;
use crate::tables::apply::compare_keys;
use crate::value::{Row, Value, as_number};

/// `rows` in the order of `keys` (stable; `keys` empty: as they are).
/// Errors: a key that does not evaluate on a row (naming the row).
pub fn sort(globals: &Arc<Globals>, keys: &[SortKey<'_>], rows: Vec<Row>) -> Result<Vec<Row>> {
    if keys.is_empty() {
        return Ok(rows);
    }
    let mut keyed: Vec<(Vec<Value>, Row)> = rows
        .into_iter()
        .map(|r| {
            let ks = keys
                .iter()
                .map(|k| k.expr.eval_row(globals, &r))
                .collect::<Result<Vec<_>>>()?;
            Ok((ks, r))
        })
        .collect::<Result<_>>()?;
    keyed.sort_by(|(a, _), (b, _)| {
        for i in 0..keys.len() {
            // Blanks last in both directions, then the step's order.
            let ord = blank(&a[i])
                .cmp(&blank(&b[i]))
                .then_with(|| compare_keys(&keys[i..=i], &a[i..=i], &b[i..=i]));
            if ord.is_ne() {
                return ord;
            }
        }
        std::cmp::Ordering::Equal
    });
    Ok(keyed.into_iter().map(|(_, r)| r).collect())
}

/// Whether a key's value has nothing to order by: null, missing or NaN.
fn blank(v: &Value) -> bool {
    v.is_undefined() || v.is_none() || as_number(v).is_some_and(f64::is_nan)
}

/// The fields the sort keys read as bare names (`speedup`), each with the
/// span of `sort`: a name the table lacks is an error there, not a column
/// of blanks sorted last.
pub fn named_fields<'a>(
    keys: &'a [SortKey<'_>],
    span: &Range<usize>,
) -> Vec<(&'a str, Range<usize>)> {
    keys.iter()
        .filter_map(|k| match k.expr.fast() {
            Some(crate::expr::fast::Node::Var(name)) => Some((&**name, span.clone())),
            _ => None,
        })
        .collect()
}

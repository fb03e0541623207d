//! The steps that need the whole table (besides `group`, `window` and the
//! reshapes, which have their own modules): one function each, so `apply`
//! is a table of verbs.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use indexmap::IndexMap;

use super::{
    MISSED_SHOWN, StepEnv, compare_keys, joined, key_of, missed_note, no_match, repeated_key,
    require_fields,
};
use crate::error::{Error, Result};
use crate::expr::Globals;
use crate::plan::steps::{SortKey, Unmatched};
use crate::tables::aggregate::finite_number;
use crate::value::{Key, Row, Value};

/// `lookup`: each row joined with the one row of `table` whose `right`
/// fields equal its `on` fields.
pub(super) fn lookup(
    (table, on, right): (&str, &[String], &[String]),
    (as_, fields, unmatched): (&Option<String>, &Option<Vec<String>>, &Unmatched),
    rows: Vec<Row>,
    env: &mut StepEnv,
) -> Result<Vec<Row>> {
    let other = (env.tables)(table).ok_or_else(|| Error::msg(format!("no table `{table}`")))?;
    let mut index: HashMap<Key, &Row> = HashMap::with_capacity(other.rows.len());
    for r in &other.rows {
        require_fields(r, right, "lookup")?;
        if let Some(prev) = index.insert(key_of(r, right), r) {
            return Err(Error::msg(format!(
                "lookup: `{table}` has key ({}) twice: {} and {}; a lookup needs one row per key (add a `unique` step to choose)",
                key_of(r, right),
                prev.origin,
                r.origin
            )));
        }
    }
    let mut out = Vec::with_capacity(rows.len());
    let (mut missed, mut shown) = (0usize, Vec::new());
    for r in rows {
        require_fields(&r, on, "lookup")?;
        let k = key_of(&r, on);
        let found = index.get(&k).copied();
        if found.is_none() {
            if *unmatched == Unmatched::Error {
                return Err(no_match(&r, &k, table));
            }
            missed += 1;
            if shown.len() < MISSED_SHOWN {
                shown.push(format!("({k}) at {}", r.origin));
            }
            if *unmatched == Unmatched::Drop {
                continue;
            }
        }
        out.push(joined(r, found, as_.as_deref(), fields.as_deref()));
    }
    if missed > 0 {
        env.notes
            .push(missed_note(missed, &shown, table, on, *unmatched));
    }
    Ok(out)
}

/// `union`: the rows, then those of `tables` (only those with a new key
/// with `only_new`).
pub(super) fn union(
    tables: &[String],
    only_new: &Option<Vec<String>>,
    rows: Vec<Row>,
    env: &mut StepEnv,
) -> Result<Vec<Row>> {
    let mut out = rows;
    for t in tables {
        let other = (env.tables)(t).ok_or_else(|| Error::msg(format!("no table `{t}`")))?;
        if let Some(reason) = &other.unavailable {
            env.notes.push(format!(
                "union: `{t}` is unavailable ({reason}); its rows are left out"
            ));
            continue;
        }
        match only_new {
            None => out.extend(other.rows.iter().cloned()),
            Some(keys) => {
                let seen: HashSet<Key> = out.iter().map(|r| key_of(r, keys)).collect();
                out.extend(
                    other
                        .rows
                        .iter()
                        .filter(|r| !seen.contains(&key_of(r, keys)))
                        .cloned(),
                );
            }
        }
    }
    Ok(out)
}

/// `sort`: rows ordered by their keys' values (stable).
pub(super) fn sort(keys: &[SortKey], rows: Vec<Row>, g: &Arc<Globals>) -> Result<Vec<Row>> {
    let mut keyed: Vec<(Vec<Value>, Row)> = rows
        .into_iter()
        .map(|r| {
            let ks = keys
                .iter()
                .map(|k| k.expr.eval_row(g, &r))
                .collect::<Result<Vec<_>>>()?;
            Ok((ks, r))
        })
        .collect::<Result<_>>()?;
    keyed.sort_by(|(a, _), (b, _)| compare_keys(keys, a, b));
    Ok(keyed.into_iter().map(|(_, r)| r).collect())
}

/// `limit`: the first `n` rows of each `per` group.
pub(super) fn limit(n: &usize, per: &[String], rows: Vec<Row>) -> Vec<Row> {
    let mut counts: HashMap<Key, usize> = HashMap::new();
    let mut out = Vec::new();
    for r in rows {
        let c = counts.entry(key_of(&r, per)).or_default();
        if *c < *n {
            *c += 1;
            out.push(r);
        }
    }
    out
}

/// `pareto`: each row flagged under `as_` whether it is on its group's
/// front.
pub(super) fn pareto(
    (maximize, minimize): (&[String], &[String]),
    as_: &str,
    per: &[String],
    rows: Vec<Row>,
) -> Result<Vec<Row>> {
    // Each row as a vector where larger is better on every axis.
    let mut pts: Vec<Vec<f64>> = Vec::with_capacity(rows.len());
    // Row indices of each group, groups in first-seen order.
    let mut groups: IndexMap<Key, Vec<usize>> = IndexMap::new();
    for (i, r) in rows.iter().enumerate() {
        // A missing group field would pool its rows into one front.
        require_fields(r, per, "pareto")?;
        let mut p = Vec::new();
        for (f, sign) in maximize
            .iter()
            .map(|f| (f, 1.0))
            .chain(minimize.iter().map(|f| (f, -1.0)))
        {
            let v = r.get(f).cloned().unwrap_or(Value::UNDEFINED);
            p.push(sign * finite_number(r, f, &v)?);
        }
        pts.push(p);
        groups.entry(key_of(r, per)).or_default().push(i);
    }
    let mut flags = vec![false; rows.len()];
    for idx in groups.values() {
        let sub: Vec<Vec<f64>> = idx.iter().map(|&i| pts[i].clone()).collect();
        for (&i, on) in idx.iter().zip(crate::tables::pareto::front(&sub)) {
            flags[i] = on;
        }
    }
    Ok(rows
        .into_iter()
        .zip(flags)
        .map(|(r, on)| r.with(as_, Value::from(on)))
        .collect())
}

/// `unique`: one row per key, the first or last (or an error at a repeat).
pub(super) fn unique(
    keys: &[String],
    keep: &str,
    rows: Vec<Row>,
    env: &mut StepEnv,
) -> Result<Vec<Row>> {
    let mut seen: IndexMap<Key, usize> = IndexMap::new();
    let mut out: Vec<Row> = Vec::with_capacity(rows.len());
    let mut replaced = 0usize;
    for r in rows {
        require_fields(&r, keys, "unique")?;
        let k = key_of(&r, keys);
        match seen.get(&k) {
            None => {
                seen.insert(k, out.len());
                out.push(r);
            }
            Some(&i) => match keep {
                "first" => replaced += 1,
                "last" => {
                    out[i] = r;
                    replaced += 1;
                }
                _ => return Err(repeated_key(&r.origin, keys, &k, &out[i].origin)),
            },
        }
    }
    if replaced > 0 {
        env.notes.push(format!(
            "unique: {replaced} repeated row(s) dropped (keep = {keep})"
        ));
    }
    Ok(out)
}

/// `row_number`: each row numbered from 0 within its `per` group.
pub(super) fn row_number(as_: &str, per: &[String], rows: Vec<Row>) -> Vec<Row> {
    let mut counts: HashMap<Key, i64> = HashMap::new();
    rows.into_iter()
        .map(|r| {
            let c = counts.entry(key_of(&r, per)).or_default();
            let out = r.with(as_, Value::from(*c));
            *c += 1;
            out
        })
        .collect()
}

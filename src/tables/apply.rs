//! Applying compiled steps: row by row (filter, require, derive, explode),
//! with a running grouper (group), or on the whole table (the rest).

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use indexmap::IndexMap;

use super::aggregate::{field_error, finite_number};
use crate::error::{Error, Result};
use crate::expr::Globals;
use crate::plan::aggregate::Agg;
use crate::plan::steps::{Step, Unmatched};
use crate::value::{FileMeta, Key, Origin, Record, Row, Value, as_record, compare};

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

/// Rows that filters dropped because a field they read was null, NaN,
/// infinite or 0: (filter text, field, why) -> how many and where.
pub type DropLog = IndexMap<(String, String, &'static str), Dropped>;

/// The cause of a [`DropLog`] entry for a derive that gave no value (the
/// entry's text is the expression, its field the derived field).
pub const DERIVED_NOTHING: &str = "derived nothing";

/// How many rows one cause dropped, and where the first few were (memory
/// stays bounded however many rows a filter drops).
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Dropped {
    /// Rows dropped.
    pub count: u64,
    /// `file:line` of the first [`Dropped::SHOWN`].
    pub at: Vec<String>,
}

impl Dropped {
    /// Places named in a report.
    pub const SHOWN: usize = 5;

    /// Counts one more row, dropped at `origin`.
    pub fn add(&mut self, origin: impl FnOnce() -> String) {
        self.count += 1;
        if self.at.len() < Self::SHOWN {
            self.at.push(origin());
        }
    }

    /// Adds the drops of a later batch.
    pub fn merge(&mut self, later: Dropped) {
        self.count += later.count;
        let room = Self::SHOWN.saturating_sub(self.at.len());
        self.at.extend(later.at.into_iter().take(room));
    }
}

/// A [`DropLog`] key borrowed: it hashes and compares as the owned key, so
/// a row dropped for a cause already logged allocates nothing.
#[derive(Hash)]
struct DropKey<'k>(&'k str, &'k str, &'static str);

impl indexmap::Equivalent<(String, String, &'static str)> for DropKey<'_> {
    fn equivalent(&self, k: &(String, String, &'static str)) -> bool {
        self.0 == k.0 && self.1 == k.1 && self.2 == k.2
    }
}

/// Counts one row dropped for (expression text, field, cause) at `origin`.
pub fn note_drop(
    drops: &mut DropLog,
    (text, field, why): (&str, &str, &'static str),
    origin: impl FnOnce() -> String,
) {
    // (A tuple hashes as its fields in order, `String` as its `str`: the
    // borrowed key finds the owned one.)
    match drops.get_mut(&DropKey(text, field, why)) {
        Some(d) => d.add(origin),
        None => drops
            .entry((text.to_string(), field.to_string(), why))
            .or_default()
            .add(origin),
    }
}

/// Turns the drop log into notes.
pub fn flush_drops(drops: &mut DropLog, notes: &mut Vec<String>) {
    for ((text, p, why), d) in drops.drain(..) {
        let more = if d.count > d.at.len() as u64 {
            ", ..."
        } else {
            ""
        };
        if why == DERIVED_NOTHING {
            notes.push(format!(
                "derive `{p}`: `{text}` gave no value on {} row(s), stored as null: {}{more}",
                d.count,
                d.at.join(", "),
            ));
            continue;
        }
        notes.push(format!(
            "filter `{text}` dropped {} row(s) where `{p}` is {why}: {}{}",
            d.count,
            d.at.join(", "),
            if d.count > d.at.len() as u64 {
                ", ..."
            } else {
                ""
            }
        ));
    }
}

impl Step<'_> {
    /// Whether the step works one row at a time (it can run on a stream).
    pub fn is_row_wise(&self) -> bool {
        matches!(
            self,
            Step::Filter(_) | Step::Require(_) | Step::Derive(_) | Step::Explode { .. }
        )
    }
}

/// Applies a row-wise step to one row, pushing what comes out to `out`.
pub fn apply_row(
    step: &Step,
    row: Row,
    g: &Arc<Globals>,
    drops: &mut DropLog,
    out: &mut Vec<Row>,
) -> Result<()> {
    match step {
        Step::Filter(e) => {
            if e.test_row(g, &row)? {
                out.push(row);
                return Ok(());
            }
            // A row dropped while a field the filter read is null, NaN,
            // infinite or zero is reported: `H_byte1 > 0` meeting
            // `"H_byte1": null` (or 0.0) drops the row, and says so.
            for p in e.paths() {
                let Some(v) = crate::expr::lookup_path(&row, p) else {
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
                note_drop(drops, (e.text, p, why), || row.origin.to_string());
                break;
            }
        }
        Step::Require(e) => {
            if !e.test_row(g, &row)? {
                let values: Vec<String> = e
                    .paths()
                    .iter()
                    .map(|p| {
                        format!(
                            "{p} = {}",
                            crate::expr::lookup_path(&row, p)
                                .map_or("missing".into(), |v| crate::value::show(&v))
                        )
                    })
                    .collect();
                return Err(Error::input(
                    row.origin.path.to_string(),
                    row.origin.line_opt(),
                    e.paths().first().cloned(),
                    format!(
                        "required `{}` does not hold (where {})",
                        e.text,
                        values.join(", ")
                    ),
                ));
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
                    note_drop(drops, (e.text, name, DERIVED_NOTHING), || {
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
        Step::Explode { field, key, value } => {
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
        }
        _ => unreachable!("not a row-wise step"),
    }
    Ok(())
}

/// Values all groups of a group step may hold in memory before they spill.
const GROUP_VALUE_BUDGET: usize = 1 << 19;

/// A group step fed one row at a time: one accumulator per aggregate per
/// group, groups in first-seen order.
pub struct Grouper<'a, 's> {
    keys: &'a [String],
    aggs: &'a [(String, Agg<'s>)],
    groups: IndexMap<Key, (Row, Vec<super::aggregate::Acc<'a, 's>>)>,
    buffered: usize,
    scratch: Vec<Value>,
}

impl<'a, 's> Grouper<'a, 's> {
    /// A grouper for a `group` step.
    pub fn new(step: &'a Step<'s>) -> Grouper<'a, 's> {
        let Step::Group { keys, aggs } = step else {
            unreachable!("not a group step")
        };
        Grouper {
            keys,
            aggs,
            groups: IndexMap::new(),
            buffered: 0,
            scratch: Vec::new(),
        }
    }

    /// Adds a row to its group.
    pub fn push(&mut self, g: &Arc<Globals>, row: Row) -> Result<()> {
        require_fields(&row, self.keys, "group")?;
        // The key cells go in a reused buffer: no allocation per row.
        let mut vals = std::mem::take(&mut self.scratch);
        vals.clear();
        vals.extend(
            self.keys
                .iter()
                .map(|f| row.get(f).cloned().unwrap_or(Value::UNDEFINED)),
        );
        let entry = self.group_of(&vals, &row);
        self.scratch = vals;
        let (first, accs) = &mut self.groups[entry];
        // The group's row is its first row's, `_source` included; its
        // `_source.meta` is that file's only if every row came from it.
        if !FileMeta::same(&first.origin.meta, &row.origin.meta)
            && !matches!(first.origin.meta.as_deref(), Some(FileMeta::Several(..)))
        {
            first.origin.meta = Some(Arc::new(FileMeta::Several(
                first.origin.path.clone(),
                row.origin.path.clone(),
            )));
        }
        for ((name, _), acc) in self.aggs.iter().zip(accs.iter_mut()) {
            let before = acc.buffered();
            acc.push(g, &row).map_err(|e| {
                e.context(format!(
                    "aggregate `{name}` of group ({})",
                    key_of(first, self.keys)
                ))
            })?;
            self.buffered += acc.buffered() - before;
        }
        self.spill_if_full()
    }

    /// The index of the group with key cells `vals`, made (with `first` as
    /// its first row) if it is new.
    pub fn group_of(&mut self, vals: &[Value], first: &Row) -> usize {
        match self.groups.get_index_of(&crate::value::KeyRef(vals)) {
            Some(i) => i,
            None => {
                let accs = self.aggs.iter().map(|(_, a)| a.start()).collect();
                self.groups.insert(Key::of(vals), (first.clone(), accs));
                self.groups.len() - 1
            }
        }
    }

    /// Adds what one row gives each aggregate (`inputs`, in order) to group
    /// `index`. The memory budget is not checked: call [`Grouper::spill_if_full`]
    /// after a batch.
    #[inline]
    pub fn add(&mut self, index: usize, inputs: &[super::aggregate::Input]) {
        let (_, accs) = &mut self.groups[index];
        for (acc, input) in accs.iter_mut().zip(inputs) {
            self.buffered += acc.add(input) as usize;
        }
    }

    /// Spills every group's values to temporary files when they hold more
    /// than the budget.
    pub fn spill_if_full(&mut self) -> Result<()> {
        if self.buffered > GROUP_VALUE_BUDGET {
            for (_, accs) in self.groups.values_mut() {
                for acc in accs {
                    acc.spill()?;
                }
            }
            self.buffered = 0;
        }
        Ok(())
    }

    /// One row per group: the key fields and the aggregates.
    pub fn finish(self) -> Result<Vec<Row>> {
        use rayon::prelude::*;
        let (keys, aggs) = (self.keys, self.aggs);
        // Groups finish in parallel (a median over spilled values reads its
        // own file); the rows and the first error keep the groups' order.
        let mut groups: Vec<(Row, Vec<super::aggregate::Acc>)> =
            self.groups.into_iter().map(|(_, g)| g).collect();
        // Aggregates over the whole table give one row, even of no rows
        // (count 0, sum 0; a mean of nothing is an error, as for a number).
        if keys.is_empty() && groups.is_empty() {
            let row = Row {
                extra: Default::default(),
                fields: Default::default(),
                origin: Origin {
                    path: Arc::from("(no rows)"),
                    line: 0,
                    record: None,
                    meta: None,
                    partial: false,
                },
            };
            groups.push((row, aggs.iter().map(|(_, a)| a.start()).collect()));
        }
        let rows: Vec<Result<Row>> = groups
            .into_par_iter()
            .map(|(first, accs)| {
                let mut rec = Record::with_capacity(keys.len() + aggs.len());
                for k in keys {
                    rec.insert(k.as_str(), first.get(k).cloned().unwrap_or(Value::from(())));
                }
                for ((name, _), acc) in aggs.iter().zip(accs) {
                    let v = acc.finish().map_err(|e| {
                        e.context(format!(
                            "aggregate `{name}` of group ({})",
                            key_of(&first, keys)
                        ))
                    })?;
                    rec.insert(name.as_str(), v);
                }
                Ok(Row {
                    extra: Default::default(),
                    fields: Arc::new(rec),
                    // The group's row has all its fields.
                    origin: Origin {
                        partial: false,
                        ..first.origin.clone()
                    },
                })
            })
            .collect();
        rows.into_iter().collect()
    }
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
        } => {
            let other =
                (env.tables)(table).ok_or_else(|| Error::msg(format!("no table `{table}`")))?;
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
            out
        }
        Step::Union { tables, only_new } => {
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
            out
        }
        Step::Group { .. } => {
            let mut grouper = Grouper::new(step);
            for r in rows {
                grouper.push(g, r)?;
            }
            grouper.finish()?
        }
        Step::Filter(_) | Step::Require(_) | Step::Derive(_) | Step::Explode { .. } => {
            unreachable!("row-wise steps are applied above")
        }
        Step::Sort(keys) => {
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
            keyed.into_iter().map(|(_, r)| r).collect()
        }
        Step::Limit { n, per } => {
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
        Step::Pareto {
            maximize,
            minimize,
            as_,
            per,
        } => {
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
                for (&i, on) in idx.iter().zip(super::pareto::front(&sub)) {
                    flags[i] = on;
                }
            }
            rows.into_iter()
                .zip(flags)
                .map(|(r, on)| r.with(as_, Value::from(on)))
                .collect()
        }
        Step::Unique { keys, keep } => {
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
                    Some(&i) => match keep.as_str() {
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
            out
        }
        Step::Window(w) => super::window::apply(w, rows, g)?,
        Step::JoinAggregate(j) => super::window::join_aggregate(j, rows, g)?,
        Step::Fold(f) => super::reshape::fold(f, rows)?,
        Step::Pivot(p) => super::reshape::pivot(p, rows)?,
        Step::Bin(b) => super::bin::apply(b, rows)?,
        Step::RowNumber { as_, per } => {
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
    })
}

/// Rows of a lookup without a match named in its note.
pub const MISSED_SHOWN: usize = 5;

/// The error of `unique` (keep = "error") meeting key `k` again at `at`,
/// first seen at `first`.
pub fn repeated_key(at: &Origin, keys: &[String], k: &Key, first: &Origin) -> Error {
    Error::input(
        at.path.to_string(),
        at.line_opt(),
        Some(keys.join(", ")),
        format!(
            "key ({k}) repeats the row at {first} (set `keep = \"first\"` or `\"last\"` to choose one)"
        ),
    )
}

/// The error of a lookup (unmatched = "error") finding no row for `k`.
pub fn no_match(row: &Row, k: &Key, table: &str) -> Error {
    Error::input(
        row.origin.path.to_string(),
        row.origin.line_opt(),
        None,
        format!("lookup: key ({k}) has no match in `{table}`"),
    )
}

/// The note of a lookup whose `missed` rows had no match (`shown`: the
/// first few, as `(key) at origin`).
pub fn missed_note(
    missed: usize,
    shown: &[String],
    table: &str,
    on: &[String],
    unmatched: Unmatched,
) -> String {
    let action = if unmatched == Unmatched::Drop {
        "dropped"
    } else {
        "kept with null fields"
    };
    format!(
        "{missed} row(s) had no match in `{table}` on {} and were {action}: {}{}",
        on.join(", "),
        shown.join("; "),
        if missed > shown.len() { "; ..." } else { "" }
    )
}

/// `row` with the fields a lookup takes from its match `found`: under
/// `as_` (the whole row, null without a match), the listed `fields` (null
/// without a match), or every field the row lacks.
pub fn joined(row: Row, found: Option<&Row>, as_: Option<&str>, fields: Option<&[String]>) -> Row {
    let mut row = row;
    row.flatten();
    // (The row's own fields, not a copy, when nothing else holds them.)
    let rec = Arc::make_mut(&mut row.fields);
    match (as_, found) {
        (Some(name), Some(m)) => rec.insert(name, Value::from_dyn_object(m.flat_fields())),
        (Some(name), None) => rec.insert(name, Value::from(())),
        (None, m) => match fields {
            Some(list) => {
                for f in list {
                    let v = m.and_then(|m| m.get(f)).cloned().unwrap_or(Value::from(()));
                    rec.insert(f.as_str(), v);
                }
            }
            None => {
                if let Some(m) = m {
                    for (k, v) in &m.flat_fields().0 {
                        if !rec.0.contains_key(k) {
                            rec.insert(k.clone(), v.clone());
                        }
                    }
                }
            }
        },
    }
    row
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A cause logged once is found again by its borrowed key: one entry,
    /// counted twice, the first places kept in order.
    #[test]
    fn a_drop_for_a_logged_cause_counts_on_the_same_entry() {
        let mut drops = DropLog::new();
        note_drop(&mut drops, ("x > 0", "x", "null"), || "a:1".into());
        note_drop(&mut drops, ("x > 0", "x", "0"), || "a:2".into());
        note_drop(&mut drops, ("x > 0", "x", "null"), || "a:3".into());
        let got: Vec<(String, u64, Vec<String>)> = drops
            .iter()
            .map(|((t, f, w), d)| (format!("{t}|{f}|{w}"), d.count, d.at.clone()))
            .collect();
        assert_eq!(
            got,
            [
                (
                    "x > 0|x|null".to_string(),
                    2,
                    vec!["a:1".into(), "a:3".into()]
                ),
                ("x > 0|x|0".to_string(), 1, vec!["a:2".into()]),
            ]
        );
    }
}

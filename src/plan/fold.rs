//! A number computed on a stream: the steps that fold its table's rows
//! into the one row its value and uncertainty are read from.
//!
//! A number reading a source, or a table whose steps all work one row at a
//! time (or in file order, remembering only keys) over a source, need not
//! hold the table: its `where` becomes a filter and its aggregates one
//! group step without keys, run on the stream as any table's group step is
//! (one pass, order statistics spilled, the fast path where it applies).
//! `tables::Catalog::fold` runs them, every such number over one source in
//! the same pass. A family (`each`) folds as well: its group step is keyed
//! by its `per` fields (one member per group) or, one member per row, by
//! the fields its templates read ([`family_keys`]), so it holds one
//! accumulator per member, not its table's rows.

use toml::Spanned;

use super::aggregate::{Agg, Op};
use super::numbers::{FamilyPlan, UncertaintyPlan};
use super::steps::{self, Step};
use crate::expr::Expr;
use crate::spec::{LoadedSpec, NumberSpec};

/// The aggregate names of a fold's group step: the number's value, its
/// row count, and its uncertainty (`u`, or the bounds `low` and `high`).
pub const VALUE: &str = "value";
/// The number of rows the number is computed over (after `where`).
pub const ROWS: &str = "rows";
/// A symmetric uncertainty.
pub const U: &str = "u";
/// An interval's low bound.
pub const LOW: &str = "low";
/// An interval's high bound.
pub const HIGH: &str = "high";

/// A number's table as a stream folded into one row.
#[derive(Debug)]
pub struct Fold<'s> {
    /// The source the rows come from.
    pub from: &'s str,
    /// The table the number names (a source or a table over `from`).
    pub table: &'s str,
    /// The table's steps, then the number's `where` as a filter, then one
    /// group step giving [`VALUE`], [`ROWS`] and the uncertainty's
    /// aggregates (those over rows: an `expr` reads no row): without keys,
    /// or for a family keyed by [`family_keys`].
    pub steps: Vec<Step<'s>>,
    /// How many of `steps` are the table's own.
    pub table_steps: usize,
}

/// A count of rows as an aggregate.
fn count<'s>() -> Agg<'s> {
    Agg {
        op: Op::Count,
        expr: None,
        weight: None,
        field: None,
        groups: None,
    }
}

/// The fold of number `n` over table `table` (`family`: its family's
/// templates and `per`, if it is one), or `None` when it cannot be one: a
/// family whose members cannot be keyed by fields ([`family_keys`]), a
/// value that is an `expr`, a table that is not a source or a stream of
/// one, a step that holds rows (a sort, a group, a window), or anything
/// that does not compile again (its error is the number's own, reported
/// by its plan).
pub fn compile<'s>(
    spec: &'s LoadedSpec,
    n: &'s Spanned<NumberSpec>,
    table: &'s str,
    family: Option<&FamilyPlan<'_>>,
) -> Option<Fold<'s>> {
    let keys = match family {
        Some(f) => family_keys(f)?,
        None => Vec::new(),
    };
    let (from, mut steps, table_steps) = base(spec, n, table)?;
    steps.push(Step::Group {
        keys,
        aggs: aggregates(spec, n, table, "")?,
    });
    Some(Fold {
        from,
        table,
        steps,
        table_steps,
    })
}

/// A fold's source, the table's steps then the number's `where` (no group
/// step yet), and how many of them are the table's: see [`compile`].
type Base<'s> = (&'s str, Vec<Step<'s>>, usize);

fn base<'s>(spec: &'s LoadedSpec, n: &'s Spanned<NumberSpec>, table: &'s str) -> Option<Base<'s>> {
    let s = n.get_ref();
    let sources = &spec.spec.sources;
    let (from, raw): (&'s str, &'s [Spanned<crate::spec::StepSpec>]) =
        match sources.get_key_value(table) {
            Some((name, _)) => (name.as_str(), &[]),
            None => {
                let t = spec.spec.tables.get(table)?.get_ref();
                (t.from.get_ref().as_str(), &t.steps)
            }
        };
    if !sources.contains_key(from) {
        return None;
    }
    let mut steps = Vec::with_capacity(raw.len() + 2);
    for r in raw {
        let mut step = steps::compile(spec, r).ok()?;
        step.set_table(table);
        if !step.streams() {
            return None;
        }
        steps.push(step);
    }
    let table_steps = steps.len();
    if let Some(w) = &s.where_ {
        let e = Expr::compile(spec, w).ok()?.in_table(table);
        steps.push(Step::Filter(e, Vec::new()));
    }
    Some((from, steps, table_steps))
}

/// The group keys of a family's fold: its `per` fields, or (a member per
/// row) the fields its `each` and `description` templates read, whose
/// values give a member's key and text: a group of two rows is two rows
/// giving one key. `None` when the members cannot be told apart by fields:
/// a template reading `_source` (a group's is its first row's), or, a
/// member per row, the whole row (`_`), a name that may be a field or a
/// global (`n`, `v`, `meta`), or no field at all.
pub fn family_keys(f: &FamilyPlan<'_>) -> Option<Vec<String>> {
    let mut read: std::collections::BTreeSet<String> = f.each.variables().into_iter().collect();
    if let Some(d) = &f.description {
        read.extend(d.variables());
    }
    if read.contains("_source") {
        return None;
    }
    if let Some(per) = &f.per {
        return Some(per.clone());
    }
    let whole = ["_", "n", "v", "meta"];
    if read.is_empty() || whole.iter().any(|w| read.contains(*w)) {
        return None;
    }
    Some(read.into_iter().collect())
}

/// Number `n`'s aggregates over its rows, named [`VALUE`], [`ROWS`] and
/// the uncertainty's, each after `prefix`; `None` for a value that is an
/// `expr` (it reads no row) or one that does not compile again.
fn aggregates<'s>(
    spec: &'s LoadedSpec,
    n: &'s Spanned<NumberSpec>,
    table: &'s str,
    prefix: &str,
) -> Option<Vec<(String, Agg<'s>)>> {
    let s = n.get_ref();
    let mut value = Agg::compile(spec, &s.value, true).ok()?;
    if value.op == Op::Expr {
        return None;
    }
    value.set_table(table);
    let name = |part: &str| format!("{prefix}{part}");
    let mut aggs = vec![(name(VALUE), value), (name(ROWS), count())];
    if let Some(raw) = &s.uncertainty {
        let over_rows = |a: Box<Agg<'s>>| (a.op != Op::Expr).then_some(*a);
        match super::numbers::uncertainty(spec, raw, Some(table)).ok()? {
            UncertaintyPlan::Symmetric { agg, .. } => {
                aggs.extend(over_rows(agg).map(|a| (name(U), a)));
            }
            UncertaintyPlan::Interval { low, high, .. } => {
                aggs.extend(over_rows(low).map(|a| (name(LOW), a)));
                aggs.extend(over_rows(high).map(|a| (name(HIGH), a)));
            }
        }
    }
    Some(aggs)
}

/// The prefix of number `key`'s aggregates in a merged fold.
pub fn prefix(key: &str) -> String {
    format!("{key}/")
}

/// Whether number `key`'s part of the spec, or the steps of its table
/// `table` (and the tables those read), quote a number (`v['k']`, `n.k`):
/// such a number waits for those, and is folded on its own pass.
pub fn quotes_numbers(spec: &LoadedSpec, key: &str, table: &str) -> bool {
    let parts = spec.parts();
    let quotes = |p: Option<&crate::spec::parts::Part>| {
        p.is_some_and(|p| p.quoted.all || !p.quoted.keys.is_empty())
    };
    quotes(parts.get("number", key))
        || super::deps::closure(spec, [table.to_string()])
            .iter()
            .any(|t| quotes(parts.get("table", t)))
}

/// The folds of several numbers each: the numbers that fold (their own
/// [`Fold`] compiled), read no number, and share a table and a `where`
/// (as written) are one group step with every one's aggregates, named
/// after [`prefix`] of its key, so the pass evaluates their steps once.
/// Returns the merged folds and, by number key, the merged fold it is in.
/// (A merged fold that fails is not told: each of its numbers is then
/// folded alone, and fails or not on its own.)
pub fn merge<'s>(
    spec: &'s LoadedSpec,
    numbers: &indexmap::IndexMap<String, super::numbers::NumberPlan<'s>>,
) -> (Vec<Fold<'s>>, indexmap::IndexMap<String, usize>) {
    let mut groups: indexmap::IndexMap<(&str, Option<&str>), Vec<&str>> = indexmap::IndexMap::new();
    for (key, np) in numbers {
        // (A family's group step has keys of its own.)
        let Some(f) = np.fold.as_ref().filter(|_| np.family.is_none()) else {
            continue;
        };
        if quotes_numbers(spec, key, f.table) {
            continue;
        }
        let w = np
            .decl
            .get_ref()
            .where_
            .as_ref()
            .map(|w| w.get_ref().as_str());
        groups.entry((f.table, w)).or_default().push(key);
    }
    let mut merged = Vec::new();
    let mut of = indexmap::IndexMap::new();
    for ((table, _), keys) in groups {
        if keys.len() < 2 {
            continue;
        }
        let first = numbers[keys[0]].decl;
        let Some((from, mut steps, table_steps)) = base(spec, first, table) else {
            continue;
        };
        let mut aggs = Vec::new();
        for k in keys {
            if let Some(a) = aggregates(spec, numbers[k].decl, table, &prefix(k)) {
                aggs.extend(a);
                of.insert(k.to_string(), merged.len());
            }
        }
        steps.push(Step::Group {
            keys: Vec::new(),
            aggs,
        });
        merged.push(Fold {
            from,
            table,
            steps,
            table_steps,
        });
    }
    (merged, of)
}

//! Number families: one `[numbers.NAME]` with `each` is one number per row
//! of its table (or per group of rows with equal `per` fields), each keyed
//! by the `each` template rendered over that row (or over the group's `per`
//! fields).
//!
//! A member is a number like any other (macros, `numbers.json`, the lock,
//! `n['KEY']`); `NAME` itself is no key. Members come in table order
//! (groups in the order of their first row). Two rows giving one key, a
//! key that is not a valid key ([`crate::plan::keys::key_problem`]), a key
//! another number has, a key equal to a family's name (its own included:
//! `artifact explain NAME` explains the family) or a key made from a null
//! field (in `each` or `per`) are errors naming the rows; more than
//! [`MAX_MEMBERS`] members is an error, found by counting the rows or
//! groups before any member is built (a family over a million rows must
//! not first hold a million members).

use std::collections::BTreeSet;
use std::sync::Arc;

use indexmap::IndexMap;
use toml::Spanned;

use crate::error::{Error, Result};
use crate::expr::{Globals, Template};
use crate::spec::{LoadedSpec, NumberSpec};
use crate::tables::Catalog;
use crate::value::{Key, Record, Row};

use super::Number;

mod folded;

/// The most members one family may have.
pub const MAX_MEMBERS: usize = 100_000;

/// What a family computed: its members, or why it has none.
#[derive(Debug, Default)]
pub struct Members {
    /// The members, in table order.
    pub list: Vec<Number>,
    /// A note for the user (an empty table gives no members).
    pub note: Option<String>,
    /// Why its table is unavailable (an optional source is missing).
    pub unavailable: Option<String>,
}

/// One row or group: the row the templates read and how messages name it.
struct Item {
    row: Row,
    rows: Vec<Row>,
    label: String,
}

/// Computes family `name` (declared at `raw`) over its table with
/// `globals`. Errors name the row or group (the caller adds the family and
/// its line: [`declared`]).
pub fn compute(
    spec: &LoadedSpec,
    cat: &Catalog<'_>,
    globals: &Arc<Globals>,
    name: &str,
    raw: &Spanned<NumberSpec>,
    earlier: super::Earlier<'_>,
) -> Result<Members> {
    let n = raw.get_ref();
    let Some(t) = &n.table else {
        return Err(spec.error(raw.span(), "a family (`each`) needs `table = \"...\"`"));
    };
    let table_name = t.get_ref();
    let plan = super::planned(cat, name)?;
    let fam = plan.family.as_ref().expect("a family has `each`");
    let (key_tpl, desc_tpl, per) = (&fam.each, &fam.description, &fam.per);
    // On a stream when it can be (its table then never held); anything the
    // members over held rows could tell otherwise (a null key, two rows
    // giving one key, an error) is told as the held rows tell it, unless
    // holding them would pass the memory cap.
    let mut folded_error = None;
    match cat.fold(name) {
        Some(Ok(f)) => match folded::members(spec, globals, name, plan, &f, earlier) {
            Ok(m) => return Ok(m),
            Err(folded::Unsure::Exact(e)) => return Err(e),
            Err(folded::Unsure::Held(e)) => folded_error = Some(e),
        },
        Some(Err(e)) => folded_error = Some(e),
        None => {}
    }
    let table = match (cat.lookup(table_name, t.span()), folded_error) {
        (Ok(table), _) => table,
        (Err(e), Some(first)) if crate::value::held::is_cap_error(&e) => {
            return Err(first.context(format!("table `{table_name}`")));
        }
        (Err(e), _) => return Err(e),
    };
    if let Some(reason) = &table.unavailable {
        return Ok(Members {
            unavailable: Some(reason.clone()),
            ..Members::default()
        });
    }
    // Rows by their index in the table (1-based in messages); the rows are
    // the table's, not copies, until the members are known to be few
    // enough (a family over a million rows stops before building any).
    let mut rows: Vec<usize> = (0..table.rows.len()).collect();
    if let Some(cond) = &plan.where_ {
        let mut kept = Vec::with_capacity(rows.len());
        for i in rows {
            if cond.test_row(globals, &table.rows[i])? {
                kept.push(i);
            }
        }
        rows = kept;
    }
    if rows.is_empty() {
        return Ok(no_rows(name, table_name, n));
    }
    let read = template_fields(key_tpl);
    let items = match per {
        None => row_items(spec, name, table_name, &table.rows, rows, &read)?,
        Some(fields) => groups(fields, &table.rows, rows, table_name).map_err(|e| match e {
            Grouping::TooMany => too_many_groups(spec, name, table_name),
            Grouping::Error(e) => Error::msg(format!("{}: {e}", declared_line(spec, name))),
        })?,
    };
    let mut sources = table.sources.clone();
    sources.extend(super::read_sources(
        spec,
        name,
        std::slice::from_ref(table_name),
        earlier,
        false,
    ));
    let reserved = crate::plan::keys::Reserved::of(spec);
    let mut seen: IndexMap<String, String> = IndexMap::new();
    let mut out = Vec::with_capacity(items.len());
    for item in items {
        let key = key_tpl.render_row(globals, &item.row)?;
        let shown = format!("{} ({})", item.label, fields_of(&item.row, &read));
        check_key(spec, name, &key, &shown, &seen, &reserved)?;
        let refs: Vec<&Row> = item.rows.iter().collect();
        let (value, text, uncertainty, parts) =
            super::value_and_text(spec, plan, name, globals, &refs, &|e| e)
                .map_err(|e| e.context(shown.clone()))?;
        let description = desc_tpl
            .as_ref()
            .map(|d| d.render_row(globals, &item.row))
            .transpose()?;
        seen.insert(key.clone(), shown);
        out.push(Number {
            key,
            value,
            text,
            uncertainty,
            parts,
            description,
            table: Some(table_name.clone()),
            rows: item.rows.len(),
            sources: sources.clone(),
            family: Some(name.to_string()),
        });
    }
    Ok(Members {
        list: out,
        ..Members::default()
    })
}

/// A family with no rows (after `where`): no members, and a note.
fn no_rows(name: &str, table_name: &str, n: &NumberSpec) -> Members {
    Members {
        note: Some(format!(
            "number family `{name}`: table `{table_name}` has no rows{}, so it gives no numbers",
            if n.where_.is_some() {
                " where `where` holds"
            } else {
                ""
            }
        )),
        ..Members::default()
    }
}

/// The error for more than [`MAX_MEMBERS`] rows (`count` of them).
fn too_many_rows(spec: &LoadedSpec, name: &str, table_name: &str, count: usize) -> Error {
    Error::msg(format!(
        "{}: table `{table_name}` gives {count} numbers, more than the {MAX_MEMBERS} a family may have",
        declared_line(spec, name),
    ))
}

/// The error for more than [`MAX_MEMBERS`] groups of `per`.
fn too_many_groups(spec: &LoadedSpec, name: &str, table_name: &str) -> Error {
    Error::msg(format!(
        "{}: table `{table_name}` gives more than the {MAX_MEMBERS} numbers a family may have (groups of `per`; counting stopped there)",
        declared_line(spec, name),
    ))
}

/// One item per row of `rows` (indices into `all`), each named by its row;
/// an error for more than [`MAX_MEMBERS`] rows (before any is copied) or a
/// row with a null field `each` reads (`read`).
fn row_items(
    spec: &LoadedSpec,
    name: &str,
    table_name: &str,
    all: &[Row],
    rows: Vec<usize>,
    read: &BTreeSet<String>,
) -> Result<Vec<Item>> {
    if rows.len() > MAX_MEMBERS {
        return Err(too_many_rows(spec, name, table_name, rows.len()));
    }
    let mut items = Vec::with_capacity(rows.len());
    for i in rows {
        let r = &all[i];
        let label = format!("row {} of table `{table_name}`", i + 1);
        for f in read {
            if r.get(f).is_some_and(|v| v.is_none()) {
                return Err(Error::msg(format!(
                    "{}: {label} ({}) has a null `{f}`, read by `each`: a key is never made from a null (leave such rows out with `where`)",
                    declared_line(spec, name),
                    r.origin
                )));
            }
        }
        items.push(Item {
            label,
            rows: vec![r.clone()],
            row: r.clone(),
        });
    }
    Ok(items)
}

/// Fails when `key`, made by family `name` from the item `shown`, is not a
/// valid key, was made before (`seen`), is a family's name or another
/// number's key.
fn check_key(
    spec: &LoadedSpec,
    name: &str,
    key: &str,
    shown: &str,
    seen: &IndexMap<String, String>,
    reserved: &crate::plan::keys::Reserved,
) -> Result<()> {
    let declared_at = |key: &str| declared_line(spec, key);
    if let Some(problem) = crate::plan::keys::key_problem(key, reserved) {
        return Err(Error::msg(format!(
            "{}: {shown} gives the key `{}`: {problem}",
            declared_at(name),
            key.escape_debug()
        )));
    }
    if let Some(first) = seen.get(key) {
        return Err(Error::msg(format!(
            "{}: {first} and {shown} both give the key `{key}`",
            declared_at(name)
        )));
    }
    if is_family(spec, key) {
        let whose = if key == name {
            "its own family's name".to_string()
        } else {
            format!(
                "the name of family `[numbers.{key}]` ({})",
                declared_at(key)
            )
        };
        return Err(Error::msg(format!(
            "{}: {shown} gives the key `{key}`, {whose}: a member's key must differ from every family's name (`artifact explain {key}` names the family)",
            declared_at(name),
        )));
    }
    if spec
        .spec
        .numbers
        .get(key)
        .is_some_and(|n| n.get_ref().each.is_none())
    {
        return Err(Error::msg(format!(
            "{}: {shown} gives the key `{key}`, which `[numbers.{key}]` ({}) declares too",
            declared_at(name),
            declared_at(key)
        )));
    }
    Ok(())
}

/// Why rows could not be grouped.
enum Grouping {
    /// More than [`MAX_MEMBERS`] groups (counting stops there).
    TooMany,
    /// A row without a `per` field, or with a null one.
    Error(String),
}

/// The rows `kept` (indices into `all`) grouped by `fields`, groups in the
/// order of their first row; each group's template row holds only those
/// fields. More than [`MAX_MEMBERS`] groups stop the grouping before any
/// group's rows are copied.
fn groups(
    fields: &[String],
    all: &[Row],
    kept: Vec<usize>,
    table: &str,
) -> std::result::Result<Vec<Item>, Grouping> {
    let mut by: IndexMap<Key, (usize, Vec<usize>)> = IndexMap::new();
    for i in kept {
        let r = &all[i];
        let mut cells = Vec::with_capacity(fields.len());
        for f in fields {
            match r.get(f) {
                Some(v) if v.is_none() => {
                    return Err(Grouping::Error(format!(
                        "row {} of table `{table}` ({}) has a null `{f}`, read by `per`: a key is never made from a null (leave such rows out with `where`)",
                        i + 1,
                        r.origin
                    )));
                }
                Some(v) => cells.push(v.clone()),
                None => {
                    return Err(Grouping::Error(format!(
                        "row {} of table `{table}` ({}) has no field `{f}` (read by `per`)",
                        i + 1,
                        r.origin
                    )));
                }
            }
        }
        let key = Key::of(&cells);
        if !by.contains_key(&key) && by.len() == MAX_MEMBERS {
            return Err(Grouping::TooMany);
        }
        by.entry(key).or_insert_with(|| (i, Vec::new())).1.push(i);
    }
    Ok(by
        .into_values()
        .map(|(first, idx)| {
            let rows: Vec<Row> = idx.iter().map(|&i| all[i].clone()).collect();
            let mut rec = Record::with_capacity(fields.len());
            for f in fields {
                rec.insert(f.as_str(), rows[0].get(f).cloned().unwrap_or_default());
            }
            let row = Row {
                extra: Default::default(),
                fields: Arc::new(rec),
                origin: rows[0].origin.clone(),
            };
            Item {
                row,
                label: format!(
                    "the group of {} row(s) from row {} of table `{table}`",
                    rows.len(),
                    first + 1
                ),
                rows,
            }
        })
        .collect())
}

/// The fields a template reads, as it names them.
fn template_fields(t: &Template<'_>) -> BTreeSet<String> {
    t.variables().into_iter().collect()
}

/// `a = "x", b = 2`: the row's fields among `read`, in the row's order.
fn fields_of(row: &Row, read: &BTreeSet<String>) -> String {
    let flat = row.flat_fields();
    let parts: Vec<String> = flat
        .0
        .iter()
        .filter(|(k, _)| read.contains(&***k))
        .map(|(k, v)| format!("{k} = {}", crate::value::show(v)))
        .collect();
    if parts.is_empty() {
        row.origin.to_string()
    } else {
        parts.join(", ")
    }
}

/// Whether `[numbers.NAME]` is a family (has `each`).
pub fn is_family(spec: &LoadedSpec, name: &str) -> bool {
    spec.spec
        .numbers
        .get(name)
        .is_some_and(|n| n.get_ref().each.is_some())
}

/// Where `[numbers.KEY]` is declared: `artifact.toml line N`.
pub fn declared_line(spec: &LoadedSpec, key: &str) -> String {
    let line = spec.spec.numbers.get(key).map_or(0, |n| {
        let span = crate::spec::paths::key_span(spec, "numbers", key, n.span());
        spec.line_col(span.start).0
    });
    format!("{} line {line}", crate::spec::SPEC_FILE)
}

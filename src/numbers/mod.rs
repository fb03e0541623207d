//! Numbers: the values the paper's prose quotes, computed from tables.
//!
//! Each `[numbers.KEY]` is computed after what it reads ([`order`]: its
//! table, the numbers it quotes through `v` and `n`, and the numbers its
//! table's steps quote), whatever the order of declaration; a family
//! (`each`, [`family`]) is one number per row or group of its table. Each
//! is formatted once, and that one text is what the macros print and what
//! figure titles and legends print through `n['KEY']`: the figure and the
//! prose cannot disagree.

mod by_key;
pub mod differential;
pub mod family;
use crate::format;
use crate::plan::order;
pub use by_key::{ByKey, Earlier};
pub mod uncertainty;

use std::collections::BTreeSet;
use std::sync::Arc;

use crate::error::{Error, Result};
use crate::expr::Globals;
use crate::plan::aggregate::{Agg, Op};
use crate::plan::numbers::NumberPlan;
use crate::spec::LoadedSpec;
use crate::tables::Catalog;
use crate::value::{Row, Value, as_number};

/// One computed number.
#[derive(Debug, Clone)]
pub struct Number {
    /// The key as written in the spec (`fig3-median`), or made by its
    /// family's `each` template.
    pub key: String,
    /// The full-precision value.
    pub value: Value,
    /// The printed text (after `format`), with the uncertainty if any.
    pub text: String,
    /// The uncertainty printed with the value, if the spec gives one.
    pub uncertainty: Option<uncertainty::Uncertainty>,
    /// The parts of the text when there is an uncertainty (the value, the
    /// bounds, the uncertainty alone: `\artnum[value]{key}`).
    pub parts: Option<format::Parts>,
    /// The spec's description.
    pub description: Option<String>,
    /// The table it was computed from.
    pub table: Option<String>,
    /// How many rows it was computed over.
    pub rows: usize,
    /// The sources it depends on: its table's, or for an `expr`, those of
    /// the numbers it reads and the documents whose `meta` it reads.
    pub sources: BTreeSet<String>,
    /// The family (`[numbers.NAME]` with `each`) it is a member of.
    pub family: Option<String>,
}

/// All numbers of a spec.
#[derive(Debug, Default)]
pub struct Numbers {
    /// Computed numbers, in the order computed (a family's members in
    /// table order).
    pub list: Vec<Number>,
    /// Numbers skipped because their table is unavailable: (key, reason).
    pub skipped: Vec<(String, String)>,
    /// Numbers that failed, each with its error.
    pub errors: Vec<Error>,
    /// Notes for the user (a family whose table has no rows).
    pub notes: Vec<String>,
}

/// Takes a declaration's numbers from the last run: `reuse(name, earlier)`
/// gives the number (or a family's members) unchanged since then, given
/// the numbers computed before it, or `None` to compute it.
pub type Reuse<'a> = dyn Fn(&str, Earlier<'_>) -> Option<Vec<Number>> + 'a;

/// Computes every number; returns them and the globals extended with
/// `n` (texts) and `v` (values) of those that succeeded. A failing number
/// does not stop the others; failures are in [`Numbers::errors`].
///
/// `reuse` may return a number unchanged since the last run (from the
/// lock), which is then taken as is without reading its table.
pub fn compute(spec: &LoadedSpec, cat: &Catalog<'_>, reuse: &Reuse<'_>) -> (Numbers, Arc<Globals>) {
    compute_selected(spec, cat, reuse, &|_| true)
}

/// As [`compute`], for only the declarations `want` selects (the others
/// are neither computed nor in the globals): `artifact explain` computes
/// one number and those it reads ([`reads`]). The catalog's tables see the
/// numbers computed before them ([`Catalog::set_globals`]).
pub fn compute_selected(
    spec: &LoadedSpec,
    cat: &Catalog<'_>,
    reuse: &Reuse<'_>,
    want: &dyn Fn(&str) -> bool,
) -> (Numbers, Arc<Globals>) {
    let mut globals = (*cat.globals).clone();
    let mut out = Numbers::default();
    let mut by_key = ByKey::default();
    // The plan's order: each after what it reads (a plan of the tables
    // alone has none, and computes no number).
    let order = &cat.plan().order;
    // (Keys are checked as typst and LaTeX names by validation.)
    for key in order.iter().filter(|k| want(k)) {
        let raw = &spec.spec.numbers[key.as_str()];
        by_key.grow(&out.list);
        let earlier = Earlier {
            list: &out.list,
            by_key: &by_key,
        };
        if let Some(list) = reuse(key, earlier) {
            for n in list {
                globals
                    .n
                    .insert(n.key.as_str(), Value::from(n.text.as_str()));
                globals.v.insert(n.key.as_str(), n.value.clone());
                out.list.push(n);
            }
            continue;
        }
        let g = Arc::new(globals.clone());
        cat.set_globals(g.clone());
        if raw.get_ref().each.is_some() {
            let context = format!("number family `{key}`");
            match family::compute(spec, cat, &g, key, raw, earlier) {
                Ok(m) => {
                    if let Some(reason) = m.unavailable {
                        out.skipped.push((key.clone(), reason));
                    }
                    out.notes.extend(m.note);
                    let taken = m.list.iter().find_map(|n| {
                        globals.n.get(&n.key)?;
                        let other = out.list.iter().find(|o| o.key == n.key)?;
                        Some(format!(
                            "{}: it gives the key `{}`, which number family `{}` gives too",
                            family::declared_line(spec, key),
                            n.key,
                            other.family.as_deref().unwrap_or(&other.key)
                        ))
                    });
                    if let Some(msg) = taken {
                        out.errors.push(Error::msg(msg).context(context));
                        continue;
                    }
                    for n in m.list {
                        globals
                            .n
                            .insert(n.key.as_str(), Value::from(n.text.as_str()));
                        globals.v.insert(n.key.as_str(), n.value.clone());
                        out.list.push(n);
                    }
                }
                Err(e) => out.errors.push(e.context(context)),
            }
            continue;
        }
        match compute_one(spec, cat, &g, key, raw, earlier) {
            Ok(Computed::Number(n)) => {
                let n = *n;
                globals.n.insert(key.as_str(), Value::from(n.text.as_str()));
                globals.v.insert(key.as_str(), n.value.clone());
                out.list.push(n);
            }
            Ok(Computed::Unavailable(reason)) => out.skipped.push((key.clone(), reason)),
            Err(e) => out.errors.push(e.context(format!("number `{key}`"))),
        }
    }
    let globals = Arc::new(globals);
    cat.set_globals(globals.clone());
    (out, globals)
}

/// The number declarations that number `key` reads through `n['KEY']` /
/// `v['KEY']` anywhere in its part of the spec or in its table's steps,
/// directly or through those it reads (a family for a key it may give), in
/// the order they are computed (a key not written out, `v[k]`, is a spec
/// error by then: [`order::order`]; here it reads all numbers before it).
/// Empty for an unknown key.
pub fn reads(spec: &LoadedSpec, key: &str) -> Vec<String> {
    let numbers = &spec.spec.numbers;
    let mut wanted = BTreeSet::new();
    let mut stack = vec![key.to_string()];
    while let Some(k) = stack.pop() {
        let Some(pos) = numbers.get_index_of(&k) else {
            continue;
        };
        let tables: Vec<String> = spec.spec.numbers[pos]
            .get_ref()
            .table
            .iter()
            .map(|t| t.get_ref().clone())
            .collect();
        let (q, _) = quotes(spec, &k, tables);
        let read: Vec<String> = if q.all {
            numbers.keys().take(pos).cloned().collect()
        } else {
            q.keys
                .iter()
                .flat_map(|q| order::declarations_of(spec, q))
                .map(String::from)
                .collect()
        };
        for r in read {
            if r != key && wanted.insert(r.clone()) {
                stack.push(r);
            }
        }
    }
    // In the order computed (in spec order when that is an error).
    let place = |k: &String| match order::placed(spec) {
        Some(o) => o.place(k),
        None => numbers.get_index_of(k),
    };
    let mut placed: Vec<(usize, String)> = wanted
        .into_iter()
        .filter_map(|k| Some((place(&k)?, k)))
        .collect();
    placed.sort_unstable();
    placed.into_iter().map(|(_, k)| k).collect()
}

/// The number declarations table `table`'s steps read (and those of the
/// tables it reads), with what they read, in the order they are computed:
/// what `artifact show` computes before building the table.
pub fn table_reads(spec: &LoadedSpec, table: &str) -> Vec<String> {
    let mut wanted = BTreeSet::new();
    for name in crate::plan::deps::closure(spec, [table.to_string()]) {
        let Some(part) = spec.parts().get("table", &name) else {
            continue;
        };
        for k in &part.quoted.keys {
            for d in order::declarations_of(spec, k) {
                wanted.insert(d.to_string());
                wanted.extend(reads(spec, d));
            }
        }
    }
    let Some(order) = order::placed(spec) else {
        return Vec::new();
    };
    let mut placed: Vec<(usize, String)> = wanted
        .into_iter()
        .filter_map(|k| Some((order.place(&k)?, k)))
        .collect();
    placed.sort_unstable();
    placed.into_iter().map(|(_, k)| k).collect()
}

/// The sources behind the numbers number `key` reads (in its part of the
/// spec, or in the steps of `tables`: its table's closure), given those
/// computed before it (all of them for a computed key); with `meta`, the
/// JSON documents when it reads `meta`.
fn read_sources(
    spec: &LoadedSpec,
    key: &str,
    tables: &[String],
    earlier: Earlier<'_>,
    meta: bool,
) -> BTreeSet<String> {
    let (q, mentions_meta) = quotes(spec, key, tables.iter().cloned());
    let quoted: Vec<&Number> = match q.all {
        true => earlier.list.iter().collect(),
        false => q.keys.iter().filter_map(|k| earlier.get(k)).collect(),
    };
    let mut out: BTreeSet<String> = quoted
        .into_iter()
        .flat_map(|n| n.sources.iter().cloned())
        .collect();
    if meta && mentions_meta {
        out.extend(crate::plan::deps::document_sources(spec));
    }
    out
}

/// The numbers quoted by number `key`'s part of the spec and by the steps
/// of the tables `tables` read (their closure), and whether any of those
/// parts mentions `meta`.
fn quotes(
    spec: &LoadedSpec,
    key: &str,
    tables: impl IntoIterator<Item = String>,
) -> (crate::spec::parts::Quoted, bool) {
    let parts = spec.parts();
    let own = parts.get("number", key);
    let mut q = own.map(|p| p.quoted.clone()).unwrap_or_default();
    let mut meta = own.is_some_and(|p| p.meta);
    for name in crate::plan::deps::closure(spec, tables) {
        if let Some(t) = parts.get("table", &name) {
            q.keys.extend(t.quoted.keys.iter().cloned());
            q.all |= t.quoted.all;
            meta |= t.meta;
        }
    }
    (q, meta)
}

/// What computing one declaration gave: its number, or why its table has
/// no data (an optional source is missing).
enum Computed {
    Number(Box<Number>),
    Unavailable(String),
}

fn compute_one(
    spec: &LoadedSpec,
    cat: &Catalog<'_>,
    globals: &Arc<Globals>,
    key: &str,
    raw: &toml::Spanned<crate::spec::NumberSpec>,
    earlier: Earlier<'_>,
) -> Result<Computed> {
    let n = raw.get_ref();
    let plan = planned(cat, key)?;
    let number = |value, text, uncertainty, parts, table, rows, sources| Number {
        key: key.to_string(),
        text,
        value,
        uncertainty,
        parts,
        description: n.description.clone(),
        table,
        rows,
        sources,
        family: None,
    };
    let Some(t) = &n.table else {
        if plan.value.op != Op::Expr {
            return Err(spec.error(raw.span(), "this number needs `table = \"...\"`"));
        }
        let (value, text, unc, parts) = value_and_text(spec, plan, key, globals, &[], &|e| e)?;
        let sources = read_sources(spec, key, &[], earlier, true);
        return Ok(Computed::Number(Box::new(number(
            value, text, unc, parts, None, 0, sources,
        ))));
    };
    let name = t.get_ref().clone();
    // The quoted numbers' sources.
    let quoted = || read_sources(spec, key, std::slice::from_ref(&name), earlier, false);
    // On a stream when it can be (its table then never held); any error
    // there is told as the rows' path tells it, unless holding the rows
    // would pass the memory cap.
    let mut folded_error = None;
    match cat.fold(key) {
        Some(Ok(f)) => {
            if let Some(reason) = f.unavailable {
                return Ok(Computed::Unavailable(reason));
            }
            let row = f
                .rows
                .first()
                .ok_or_else(|| Error::msg("the fold gave no row"));
            match row.and_then(|row| from_fold(spec, plan, key, globals, (row, &f.prefix))) {
                Ok(((value, text, unc, parts), rows)) => {
                    let mut sources = f.sources;
                    sources.extend(quoted());
                    return Ok(Computed::Number(Box::new(number(
                        value,
                        text,
                        unc,
                        parts,
                        Some(name),
                        rows,
                        sources,
                    ))));
                }
                Err(e) => folded_error = Some(e),
            }
        }
        Some(Err(e)) => folded_error = Some(e),
        None => {}
    }
    let table = match (cat.lookup(&name, t.span()), folded_error) {
        (Ok(table), _) => table,
        (Err(e), Some(first)) if crate::value::held::is_cap_error(&e) => {
            return Err(first.context(format!("table `{name}`")));
        }
        (Err(e), _) => return Err(e),
    };
    if let Some(reason) = &table.unavailable {
        return Ok(Computed::Unavailable(reason.clone()));
    }
    let mut rows = table.rows.clone();
    if let Some(w) = &plan.where_ {
        rows = w.keep(globals, rows)?;
    }
    // The table's sources, and those of the numbers it or its steps read.
    let mut sources = table.sources.clone();
    sources.extend(quoted());
    let refs: Vec<&Row> = rows.iter().collect();
    let over = |e: Error| e.context(format!("over {} row(s) of table `{name}`", rows.len()));
    let (value, text, unc, parts) = value_and_text(spec, plan, key, globals, &refs, &over)?;
    Ok(Computed::Number(Box::new(number(
        value,
        text,
        unc,
        parts,
        Some(name.clone()),
        rows.len(),
        sources,
    ))))
}

/// Declaration `plan`'s value and text from the one row its fold gave
/// ([`crate::plan::fold`]; its aggregates named after `prefix`), with the
/// number of rows it was computed over.
fn from_fold(
    spec: &LoadedSpec,
    plan: &NumberPlan<'_>,
    key: &str,
    globals: &Arc<Globals>,
    (row, prefix): (&Row, &str),
) -> Result<(TextAndParts, usize)> {
    use crate::plan::fold;
    let rows = row
        .get(&format!("{prefix}{}", fold::ROWS))
        .and_then(as_number)
        .map_or(0, |n| n as usize);
    let eval = |agg: &Agg<'_>, name: &str| -> Result<Value> {
        if agg.op == Op::Expr {
            return agg.compute(globals, &[]);
        }
        row.get(&format!("{prefix}{name}"))
            .cloned()
            .ok_or_else(|| Error::msg(format!("the fold gave no `{name}`")))
    };
    let value = eval(&plan.value, fold::VALUE)?;
    Ok((text_of(spec, plan, key, value, &eval, None)?, rows))
}

/// Declaration `key`'s compiled plan; an error (not a panic) for a catalog
/// over a plan of the tables alone.
fn planned<'c>(cat: &'c Catalog<'_>, key: &str) -> Result<&'c NumberPlan<'c>> {
    cat.plan().numbers.get(key).ok_or_else(|| {
        Error::msg(format!(
            "number `{key}` was not compiled (a plan of the tables alone)"
        ))
    })
}

/// The value of declaration `plan`'s aggregate over `rows` and its text
/// ([`text_of`]). `key` is the declaration's (a family's name for a
/// member); `over` wraps the aggregate's errors.
fn value_and_text(
    spec: &LoadedSpec,
    plan: &NumberPlan<'_>,
    key: &str,
    globals: &Arc<Globals>,
    rows: &[&Row],
    over: &dyn Fn(Error) -> Error,
) -> Result<TextAndParts> {
    let value = plan.value.compute(globals, rows).map_err(over)?;
    let eval = |agg: &Agg<'_>, _: &str| agg.compute(globals, rows);
    text_of(spec, plan, key, value, &eval, Some((globals, rows)))
}

/// Declaration `plan`'s `value` printed, with its uncertainty (its
/// aggregates computed by `eval`): an error when it is undefined, not
/// finite, or has a control character, or when `format` is given for a
/// value that is not a number. With the rows it was computed over
/// (`over`), an error names the row it comes from.
fn text_of(
    spec: &LoadedSpec,
    plan: &NumberPlan<'_>,
    key: &str,
    value: Value,
    eval: &uncertainty::Eval<'_>,
    over: Option<(&Arc<Globals>, &[&Row])>,
) -> Result<TextAndParts> {
    let (raw, agg, fmt) = (plan.decl, &plan.value, &plan.format);
    let n = raw.get_ref();
    // `first = "cdoe"` would print nothing.
    if value.is_undefined() {
        let missing = agg
            .expr
            .as_ref()
            .zip(over.and_then(|(_, rows)| rows.first()));
        return Err(missing
            .and_then(|(e, r)| e.missing_field(r))
            .unwrap_or_else(|| Error::msg("the value is undefined (nothing to print)")));
    }
    if let Some(x) = as_number(&value)
        && !x.is_finite()
    {
        return Err(Error::msg(format!("the value is {x}, not a finite number")));
    }
    if as_number(&value).is_none() && format::has_format(&n.format) {
        let at = crate::spec::keys::span_of(&spec.text, &["numbers", key, "format"]);
        return Err(spec.error(
            at.unwrap_or(raw.span()),
            format!(
                "`format` does nothing here: the value is not a number ({})",
                crate::value::describe(&value)
            ),
        ));
    }
    let unc = uncertainty::compute(spec, plan.uncertainty.as_ref(), eval, &value)?;
    let (text, parts) = match (unc, as_number(&value)) {
        (Some(u), Some(x)) => {
            let parts = fmt.parts(x, u).map_err(|why| spec.error(raw.span(), why))?;
            (parts.whole.clone(), Some(parts))
        }
        _ if n.format.separate_uncertainty.is_some() || n.format.interval.is_some() => {
            let word = if n.format.interval.is_some() {
                "interval"
            } else {
                "separate-uncertainty"
            };
            // At the key itself, else at `format`.
            let at = crate::spec::keys::span_of(&spec.text, &["numbers", key, "format", word])
                .or_else(|| crate::spec::keys::span_of(&spec.text, &["numbers", key, "format"]));
            return Err(spec.error(
                at.unwrap_or(raw.span()),
                format!("`{word}` does nothing without an `uncertainty`"),
            ));
        }
        _ => (fmt.apply(&value), None),
    };
    if let Some(c) = text.chars().find(|c| c.is_control()) {
        let empty = Arc::new(Globals::default());
        let (globals, rows) = over.unwrap_or((&empty, &[]));
        let owned: Vec<Row> = rows.iter().map(|r| (*r).clone()).collect();
        return Err(control_in_text(spec, raw, globals, agg, &owned, &value, c));
    }
    Ok((value, text, unc, parts))
}

/// A number's value, its text, its uncertainty and the text's parts.
type TextAndParts = (
    Value,
    String,
    Option<format::Uncertainty>,
    Option<format::Parts>,
);

/// The error for a number whose printed text holds control character `c`
/// (it would end a comment or a string in macros.typ or macros.tex, or has
/// no LaTeX spelling): naming the row it was read from when the value is
/// a string of the data (`cell`, `first`, ...), else the number in the spec
/// (a `unit` or an `expr` over `meta`).
fn control_in_text(
    spec: &LoadedSpec,
    raw: &toml::Spanned<crate::spec::NumberSpec>,
    globals: &Arc<Globals>,
    agg: &Agg<'_>,
    rows: &[Row],
    value: &Value,
    c: char,
) -> Error {
    let msg = format!(
        "control character {} in the number's text: it cannot be printed in LaTeX or typst",
        crate::error::codepoint(c)
    );
    if let (Some(s), Some(expr)) = (value.as_str(), &agg.expr)
        && s.contains(c)
        && let Some(row) = rows.iter().find(|r| {
            expr.eval_row(globals, r)
                .is_ok_and(|v| v.as_str() == Some(s))
        })
    {
        return crate::tables::aggregate::field_error(row, expr.text, msg);
    }
    spec.error(raw.span(), msg)
}

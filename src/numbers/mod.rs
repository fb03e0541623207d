//! Numbers: the values the paper's prose quotes, computed from tables.
//!
//! Each `[numbers.KEY]` is computed in spec order (a number's `expr` may read
//! earlier numbers through `v`), formatted once, and that one text is what
//! the macros print and what figure titles and legends print through
//! `n['KEY']`: the figure and the prose cannot disagree.

pub mod format;
pub mod uncertainty;

use std::collections::BTreeSet;
use std::sync::Arc;

use crate::error::{Error, Result};
use crate::expr::{Expr, Globals};
use crate::spec::LoadedSpec;
use crate::tables::Catalog;
use crate::tables::aggregate::{Agg, Op};
use crate::value::{Row, Value, as_number};

/// One computed number.
#[derive(Debug, Clone)]
pub struct Number {
    /// The key as written in the spec (`fig3-median`).
    pub key: String,
    /// The full-precision value.
    pub value: Value,
    /// The printed text (after `format`), with the uncertainty if any.
    pub text: String,
    /// The uncertainty printed with the value, if the spec gives one.
    pub uncertainty: Option<uncertainty::Uncertainty>,
    /// The spec's description.
    pub description: Option<String>,
    /// The table it was computed from.
    pub table: Option<String>,
    /// How many rows it was computed over.
    pub rows: usize,
    /// The sources it depends on.
    pub sources: BTreeSet<String>,
}

/// All numbers of a spec.
#[derive(Debug, Default)]
pub struct Numbers {
    /// Computed numbers, in spec order.
    pub list: Vec<Number>,
    /// Numbers skipped because their table is unavailable: (key, reason).
    pub skipped: Vec<(String, String)>,
    /// Numbers that failed, each with its error.
    pub errors: Vec<Error>,
}

/// Computes every number; returns them and the globals extended with
/// `n` (texts) and `v` (values) of those that succeeded. A failing number
/// does not stop the others; failures are in [`Numbers::errors`].
///
/// `reuse(key, earlier)` may return a number unchanged since the last run
/// (from the lock), which is then taken as is without reading its table.
pub fn compute(
    spec: &LoadedSpec,
    cat: &Catalog<'_>,
    reuse: &dyn Fn(&str, &[Number]) -> Option<Number>,
) -> (Numbers, Arc<Globals>) {
    compute_selected(spec, cat, reuse, &|_| true)
}

/// As [`compute`], for only the numbers `want` selects (in spec order; the
/// others are neither computed nor in the globals): `artifact explain`
/// computes one number and those it reads ([`reads`]).
pub fn compute_selected(
    spec: &LoadedSpec,
    cat: &Catalog<'_>,
    reuse: &dyn Fn(&str, &[Number]) -> Option<Number>,
    want: &dyn Fn(&str) -> bool,
) -> (Numbers, Arc<Globals>) {
    let mut globals = (*cat.globals).clone();
    let mut out = Numbers::default();
    let mut errors = Vec::new();
    // (Keys are checked as typst and LaTeX names by validation.)
    for (key, raw) in spec.spec.numbers.iter().filter(|(k, _)| want(k)) {
        if let Some(n) = reuse(key, &out.list) {
            globals.n.insert(key.as_str(), Value::from(n.text.as_str()));
            globals.v.insert(key.as_str(), n.value.clone());
            out.list.push(n);
            continue;
        }
        let g = Arc::new(globals.clone());
        match compute_one(spec, cat, &g, key, raw) {
            Ok(Some(n)) => {
                globals.n.insert(key.as_str(), Value::from(n.text.as_str()));
                globals.v.insert(key.as_str(), n.value.clone());
                out.list.push(n);
            }
            Ok(None) => {}
            Err(e) => errors.push(e.context(format!("number `{key}`"))),
        }
        if let Some(t) = raw.get_ref().table.as_ref()
            && let Ok(table) = cat.table(t.get_ref())
            && let Some(reason) = &table.unavailable
        {
            out.skipped.push((key.clone(), reason.clone()));
        }
    }
    out.errors = errors;
    (out, Arc::new(globals))
}

/// The numbers that number `key` reads through `n['KEY']` / `v['KEY']`
/// anywhere in its part of the spec (its `where` or its `expr`), directly
/// or through those it reads, in spec order; all numbers before it when it
/// names one by a computed key (`n[k]`). Empty for an unknown key.
pub fn reads(spec: &LoadedSpec, key: &str) -> Vec<String> {
    let doc: toml::Table = toml::from_str(&spec.text).unwrap_or_default();
    let keys: Vec<&String> = spec.spec.numbers.keys().collect();
    let mut wanted = std::collections::BTreeSet::new();
    let mut stack = vec![key.to_string()];
    while let Some(k) = stack.pop() {
        let Some(pos) = keys.iter().position(|x| **x == k) else {
            continue;
        };
        let text = doc
            .get("numbers")
            .and_then(|n| n.get(&k))
            .and_then(|v| toml::to_string(&toml::Table::from_iter([(k.clone(), v.clone())])).ok())
            .unwrap_or_default();
        let q = crate::fingerprint::quoted_numbers(&text);
        let read: Vec<String> = if q.all {
            keys[..pos].iter().map(|s| s.to_string()).collect()
        } else {
            q.keys.into_iter().collect()
        };
        for r in read {
            if r != key && wanted.insert(r.clone()) {
                stack.push(r);
            }
        }
    }
    keys.into_iter()
        .filter(|k| wanted.contains(*k))
        .cloned()
        .collect()
}

fn compute_one(
    spec: &LoadedSpec,
    cat: &Catalog<'_>,
    globals: &Arc<Globals>,
    key: &str,
    raw: &toml::Spanned<crate::spec::NumberSpec>,
) -> Result<Option<Number>> {
    let n = raw.get_ref();
    let fmt = format::Format::compile(spec, &n.format, raw.span())?;
    let mut agg = Agg::compile(spec, &n.value, true)?;
    if let Some(t) = &n.table {
        agg.set_table(t.get_ref());
    }
    let (rows, table_name, sources): (Vec<Row>, Option<String>, BTreeSet<String>) = match &n.table {
        None => {
            if agg.op != Op::Expr {
                return Err(spec.error(raw.span(), "this number needs `table = \"...\"`"));
            }
            (Vec::new(), None, BTreeSet::new())
        }
        Some(t) => {
            let table = cat.lookup(t.get_ref(), t.span())?;
            if table.unavailable.is_some() {
                return Ok(None);
            }
            let mut rows = table.rows.clone();
            if let Some(w) = &n.where_ {
                rows = Expr::compile(spec, w)?
                    .in_table(t.get_ref())
                    .keep(globals, rows)?;
            }
            (rows, Some(t.get_ref().clone()), table.sources.clone())
        }
    };
    let refs: Vec<&Row> = rows.iter().collect();
    let value = agg.compute(globals, &refs).map_err(|e| match &table_name {
        Some(t) => e.context(format!("over {} row(s) of table `{t}`", rows.len())),
        None => e,
    })?;
    // `first = "cdoe"` would print nothing.
    if value.is_undefined() {
        let missing = agg.expr.as_ref().zip(rows.first());
        return Err(missing
            .and_then(|(e, r)| e.missing_field(r))
            .unwrap_or_else(|| Error::msg("the value is undefined (nothing to print)")));
    }
    if let Some(x) = as_number(&value)
        && !x.is_finite()
    {
        return Err(Error::msg(format!("the value is {x}, not a finite number")));
    }
    if as_number(&value).is_none() && has_format(&n.format) {
        let at = crate::spec::keys::span_of(&spec.text, &["numbers", key, "format"]);
        return Err(spec.error(
            at.unwrap_or(raw.span()),
            format!(
                "`format` does nothing here: the value is not a number ({})",
                crate::value::describe(&value)
            ),
        ));
    }
    let unc = uncertainty::compute(
        spec,
        globals,
        n.uncertainty.as_ref(),
        table_name.as_deref(),
        &refs,
        &value,
    )?;
    let text = match (unc, as_number(&value)) {
        (Some(u), Some(x)) => fmt
            .apply_uncertain(x, u)
            .map_err(|why| spec.error(raw.span(), why))?,
        _ if n.format.separate_uncertainty.is_some() => {
            let at = crate::spec::keys::span_of(&spec.text, &["numbers", key, "format"]);
            return Err(spec.error(
                at.unwrap_or(raw.span()),
                "`separate-uncertainty` does nothing without an `uncertainty`",
            ));
        }
        _ => fmt.apply(&value),
    };
    if let Some(c) = text.chars().find(|c| c.is_control()) {
        return Err(control_in_text(spec, raw, globals, &agg, &rows, &value, c));
    }
    Ok(Some(Number {
        key: key.to_string(),
        text,
        value,
        uncertainty: unc,
        description: n.description.clone(),
        table: table_name,
        rows: rows.len(),
        sources,
    }))
}

/// Whether `f` sets anything (a value that is not a number ignores it).
fn has_format(f: &crate::spec::FormatSpec) -> bool {
    f.places.is_some()
        || f.figures.is_some()
        || f.sign.is_some()
        || f.percent
        || f.group_digits
        || f.group_separator.is_some()
        || f.unit.is_some()
        || f.exponent_mode.is_some()
        || f.print_unity_mantissa.is_some()
        || f.output_decimal_marker.is_some()
        || f.number_unit_product.is_some()
        || f.separate_uncertainty.is_some()
}

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
        crate::emit::codepoint(c)
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

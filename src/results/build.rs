//! From a results table's plan ([`ResultsPlan`]) and the rows of its table
//! to the model ([`ResultsTable`]): rows kept by `where`, split by `group`,
//! ordered by `sort`, each column printed with its format (or the format
//! its row's `format_by` value picks), the best values bold. Everything
//! here needs the rows; what needs only the spec was checked when the plan
//! was compiled.

use std::collections::{BTreeSet, HashMap};
use std::ops::Range;
use std::sync::Arc;

use super::highlight::{self, Best};
use super::{Align, Cell, Column, Group, MAX_CELL_CHARS, MAX_ROWS, MAX_TABLE_TEXT, ResultsTable};
use crate::error::Result;
use crate::expr::Globals;
use crate::format::Format;
use crate::plan::results::{ColumnKind, FormatBy, ResultsColumn, ResultsPlan};
use crate::spec::{LoadedSpec, SpannedStr};
use crate::tables::Catalog;
use crate::value::{Key, Row, Value, as_number, field_error};

/// What building a results table gave.
#[derive(Debug)]
pub enum Outcome {
    /// The model, and the sources its rows come from.
    Built(ResultsTable, BTreeSet<String>),
    /// Its table is unavailable (an optional source is missing): why.
    Skipped(String),
}

/// Builds results table `name`, planned as `plan`, over the rows of its
/// table in `cat`. Errors: a field the table lacks, more than
/// [`MAX_ROWS`] rows, a value a column cannot print (a highlighted value
/// that is no number, a negative uncertainty, a cell too long or holding
/// a control character), a `format` on a column with no number, a sort
/// key naming a field the table lacks, a `formats` entry no row picks.
pub fn build(
    spec: &LoadedSpec,
    cat: &Catalog<'_>,
    globals: &Arc<Globals>,
    name: &str,
    plan: &ResultsPlan<'_>,
) -> Result<Outcome> {
    let table = cat.lookup(plan.from.get_ref(), plan.from.span())?;
    if let Some(why) = &table.unavailable {
        return Ok(Outcome::Skipped(why.clone()));
    }
    let rows = kept_rows(spec, globals, name, plan, table.rows.clone())?;
    let fields = fields_of(&table.rows, &rows);
    check_fields(spec, plan, &fields, &|| shown_fields(&table.rows, &rows))?;
    let rows = super::order::sort(globals, &plan.sort, rows)?;
    let (labels, group_of) = groups(plan, &rows);
    let mut printed = print(globals, name, plan, &rows)?;
    unread_formats(spec, plan, &printed)?;
    unpicked_formats(spec, plan, &printed)?;
    let bold = highlight::bold(&printed.lit, &group_of, &plan.rules(), plan.per);
    let lit_columns: Vec<usize> = (plan.columns.iter().enumerate())
        .filter(|(_, c)| highlight_of(c).is_some())
        .map(|(i, _)| i)
        .collect();
    for (r, flags) in bold.iter().enumerate() {
        for (j, b) in flags.iter().enumerate() {
            printed.cells[r][lit_columns[j]].bold = *b;
        }
    }
    let columns = (plan.columns.iter().zip(&printed.numeric))
        .map(|(c, numeric)| column(c, *numeric))
        .collect();
    let mut groups: Vec<Group> = labels
        .into_iter()
        .map(|(label, csv_label)| Group {
            label: plan.group.is_some().then_some(label),
            csv_label,
            rows: Vec::new(),
        })
        .collect();
    for (line, g) in printed.cells.into_iter().zip(&group_of) {
        groups[*g].rows.push(line);
    }
    // A table without groups still prints its header with no rows.
    if groups.is_empty() && plan.group.is_none() {
        groups.push(Group {
            label: None,
            csv_label: String::new(),
            rows: Vec::new(),
        });
    }
    Ok(Outcome::Built(
        ResultsTable {
            name: name.to_string(),
            group_field: plan.group.map(|g| g.get_ref().clone()),
            columns,
            groups,
            long: plan.long,
        },
        table.sources.clone(),
    ))
}

/// The rows `where` keeps, at most [`MAX_ROWS`].
fn kept_rows(
    spec: &LoadedSpec,
    globals: &Arc<Globals>,
    name: &str,
    plan: &ResultsPlan<'_>,
    rows: Vec<Row>,
) -> Result<Vec<Row>> {
    let rows = match &plan.where_ {
        Some(w) => w.keep(globals, rows)?,
        None => rows,
    };
    if rows.len() > MAX_ROWS {
        let span = crate::spec::paths::key_span(spec, "results_tables", name, plan.span.clone());
        return Err(spec.error(
            span,
            format!(
                "results table `{name}` has {} rows, more than the {MAX_ROWS} a results table prints (keep fewer with `where` or a table's steps)",
                rows.len()
            ),
        ));
    }
    Ok(rows)
}

/// The table's fields, in first-seen order: those of its first rows
/// (`all`) and of every row printed (`kept`), a bounded count either way.
fn fields_of(all: &[Row], kept: &[Row]) -> Vec<String> {
    let mut fields: Vec<String> = Vec::new();
    let mut seen = BTreeSet::new();
    for r in all.iter().take(MAX_ROWS).chain(kept) {
        for k in r.flat_fields().0.keys() {
            if seen.insert(k.to_string()) {
                fields.push(k.to_string());
            }
        }
    }
    fields
}

/// [`fields_of`] for a message: a row of a CSV or Parquet file read in
/// part (only the fields something reads) gives its file's fields, read
/// again once per file, as when the rows were held whole.
fn shown_fields(all: &[Row], kept: &[Row]) -> Vec<String> {
    let mut fields: Vec<String> = Vec::new();
    let mut seen = BTreeSet::new();
    let mut files = BTreeSet::new();
    let mut add = |k: &str| {
        if seen.insert(k.to_string()) {
            fields.push(k.to_string());
        }
    };
    for r in all.iter().take(MAX_ROWS).chain(kept) {
        if r.origin.partial && files.insert(r.origin.path.clone()) {
            for k in crate::sources::file_fields(&r.origin).unwrap_or_default() {
                add(&k);
            }
        }
        for k in r.flat_fields().0.keys() {
            add(k);
        }
    }
    fields
}

/// Every field the table names (`group`, a column's `field`,
/// `uncertainty` and `format_by`, a sort key that is a bare name) is one
/// of `fields`.
fn check_fields(
    spec: &LoadedSpec,
    plan: &ResultsPlan<'_>,
    fields: &[String],
    shown: &dyn Fn() -> Vec<String>,
) -> Result<()> {
    let from = plan.from.get_ref();
    fn named(f: &SpannedStr) -> (&str, Range<usize>) {
        (f.get_ref().as_str(), f.span())
    }
    let mut names: Vec<(&str, Range<usize>)> = plan.group.map(named).into_iter().collect();
    for c in &plan.columns {
        if let ColumnKind::Field {
            field,
            uncertainty,
            by,
            ..
        } = &c.kind
        {
            names.push(named(field));
            names.extend(uncertainty.map(named));
            names.extend(by.as_ref().map(|b| named(b.field)));
        }
    }
    if let Some(span) = &plan.sort_span {
        names.extend(super::order::named_fields(&plan.sort, span));
    }
    for (f, span) in names {
        if !fields.is_empty() && !fields.iter().any(|x| x == f) {
            known_field(spec, from, &shown(), f, span)?;
        }
    }
    Ok(())
}

/// `f` (written at `span`) of the table's fields, or an error there
/// naming them.
fn known_field(
    spec: &LoadedSpec,
    from: &str,
    fields: &[String],
    f: &str,
    span: Range<usize>,
) -> Result<()> {
    if fields.is_empty() || fields.iter().any(|x| x == f) {
        return Ok(());
    }
    let names: Vec<&str> = fields.iter().map(String::as_str).collect();
    let hint = crate::spec::keys::nearest(f, &names)
        .map(|n| format!("; did you mean `{}`?", crate::error::shown(n)))
        .unwrap_or_default();
    Err(spec.error(
        span,
        format!(
            "table `{from}` has no field `{}`{hint} (its fields: {})",
            crate::error::shown(f),
            crate::error::name_list(names, false)
        ),
    ))
}

/// The groups in first-seen order, each (printed label, CSV label), and
/// each row's group index. Rows are in one group when the `group` step
/// would put them in one (the same `Key`: 1 and 1.0 are one group),
/// labelled by the first row's value.
fn groups(plan: &ResultsPlan<'_>, rows: &[Row]) -> (Vec<(String, String)>, Vec<usize>) {
    let mut labels: Vec<(String, String)> = Vec::new();
    let mut index: HashMap<Key, usize> = HashMap::new();
    let mut group_of = Vec::with_capacity(rows.len());
    for r in rows {
        let v = match plan.group {
            None => Value::UNDEFINED,
            Some(g) => r.get(g.get_ref()).cloned().unwrap_or(Value::UNDEFINED),
        };
        // A missing field and null both print as no label: one group.
        let key = if is_empty(&v) {
            Key::of(&[Value::from(())])
        } else {
            Key::of(std::slice::from_ref(&v))
        };
        let i = *index.entry(key).or_insert_with(|| {
            let label = if is_empty(&v) {
                String::new()
            } else {
                Format::default().apply(&v)
            };
            labels.push((label, csv_value(&v)));
            labels.len() - 1
        });
        group_of.push(i);
    }
    (labels, group_of)
}

/// The rows printed: each row's cells, the highlighted columns' values
/// on the side, and what each column's values were.
struct Printed {
    /// Rows × columns.
    cells: Vec<Vec<Cell>>,
    /// Rows × highlighted columns: the value compared (`None` when empty).
    lit: Vec<Vec<Option<f64>>>,
    /// Per column: every value a number or empty (right-aligned).
    numeric: Vec<bool>,
    /// Per column: some value a number.
    any_number: Vec<bool>,
    /// Per column: where its first value that is no number was read, and
    /// that value described (for the error on a `format` it ignores).
    first_text: Vec<Option<String>>,
    /// Per column: which of its `formats` (`format_by`) some row picked.
    picked: Vec<Vec<bool>>,
}

/// Prints every cell of `rows`, checking each cell's text (length, the
/// table's total, control characters) in row order.
fn print(
    globals: &Arc<Globals>,
    name: &str,
    plan: &ResultsPlan<'_>,
    rows: &[Row],
) -> Result<Printed> {
    let n = plan.columns.len();
    let mut out = Printed {
        cells: Vec::with_capacity(rows.len()),
        lit: Vec::with_capacity(rows.len()),
        numeric: vec![true; n],
        any_number: vec![false; n],
        first_text: vec![None; n],
        picked: (plan.columns.iter())
            .map(|c| match &c.kind {
                ColumnKind::Field { by: Some(b), .. } => vec![false; b.formats.len()],
                _ => Vec::new(),
            })
            .collect(),
    };
    let highlighted = plan.rules().len();
    let mut total = 0usize;
    for r in rows {
        let mut line = Vec::with_capacity(n);
        let mut marks = Vec::with_capacity(highlighted);
        for (i, c) in plan.columns.iter().enumerate() {
            let header = &c.header;
            let cell = match &c.kind {
                ColumnKind::Text(tpl) => {
                    out.numeric[i] = false;
                    let text = tpl.render_row(globals, r)?;
                    Cell {
                        csv: vec![text.clone()],
                        text,
                        bold: false,
                    }
                }
                ColumnKind::Field {
                    field,
                    format,
                    uncertainty,
                    highlight,
                    by,
                    ..
                } => {
                    let f = field.get_ref();
                    let v = r.get(f).cloned().unwrap_or(Value::UNDEFINED);
                    if !is_empty(&v) && as_number(&v).is_none() {
                        out.numeric[i] = false;
                        if out.first_text[i].is_none() {
                            out.first_text[i] =
                                Some(format!("{}: {}", r.origin, crate::value::describe(&v)));
                        }
                    } else if !is_empty(&v) {
                        out.any_number[i] = true;
                    }
                    if let Some(best) = highlight {
                        marks.push(mark(r, header, f, &v, *best)?);
                    }
                    let format = match by.as_ref().and_then(|b| pick(b, r)) {
                        Some((k, picked)) => {
                            out.picked[i][k] = true;
                            picked
                        }
                        None => format,
                    };
                    field_cell(r, header, f, &v, format, *uncertainty)?
                }
            };
            total += cell.text.len();
            check_cell(r, name, header, &cell, total)?;
            line.push(cell);
        }
        out.cells.push(line);
        out.lit.push(marks);
    }
    Ok(out)
}

/// The value of highlighted field `f` compared for the best (`None` when
/// empty); an error when it is no number.
fn mark(r: &Row, header: &str, f: &str, v: &Value, best: Best) -> Result<Option<f64>> {
    if is_empty(v) {
        return Ok(None);
    }
    match as_number(v) {
        Some(x) => Ok(Some(x)),
        None => {
            let rule = if best == Best::Max { "max" } else { "min" };
            Err(field_error(
                r,
                f,
                format!(
                    "column `{header}`: `highlight = \"{rule}\"` compares numbers, and this row's value is {}",
                    crate::value::describe(v)
                ),
            ))
        }
    }
}

/// The cell of value `v` of field `f`, printed with `format`, and with
/// the row's `uncertainty` when the column has one.
fn field_cell(
    r: &Row,
    header: &str,
    f: &str,
    v: &Value,
    format: &Format,
    uncertainty: Option<&SpannedStr>,
) -> Result<Cell> {
    let mut csv = vec![csv_value(v)];
    let text = match uncertainty {
        _ if is_empty(v) => String::new(),
        None => format.apply(v),
        Some(u) => {
            let uv = r.get(u.get_ref()).cloned().unwrap_or(Value::UNDEFINED);
            csv.push(csv_value(&uv));
            match as_number(&uv) {
                _ if is_empty(&uv) => format.apply(v),
                Some(x) if x >= 0.0 => with_uncertainty(format, v, x)
                    .map_err(|m| field_error(r, f, format!("column `{header}`: {m}")))?,
                _ => {
                    return Err(field_error(
                        r,
                        u.get_ref(),
                        format!(
                            "column `{header}`: an uncertainty is a number of at least 0, not {}",
                            crate::value::describe(&uv)
                        ),
                    ));
                }
            }
        }
    };
    // The CSV has an uncertainty column whenever the column has one.
    if uncertainty.is_some() && csv.len() == 1 {
        csv.push(String::new());
    }
    Ok(Cell {
        text,
        bold: false,
        csv,
    })
}

/// A cell's text fits ([`MAX_CELL_CHARS`], and `total`, the table's text
/// so far, [`MAX_TABLE_TEXT`]) and holds no control character (which
/// LaTeX and typst cannot print).
fn check_cell(r: &Row, name: &str, header: &str, cell: &Cell, total: usize) -> Result<()> {
    // Bytes bound characters: count them only when the bytes exceed it.
    if cell.text.len() > MAX_CELL_CHARS {
        let n = cell.text.chars().count();
        if n > MAX_CELL_CHARS {
            return Err(field_error(
                r,
                header,
                format!(
                    "column `{header}`: the cell's text is {n} characters, more than the {MAX_CELL_CHARS} a cell holds"
                ),
            ));
        }
    }
    if total > MAX_TABLE_TEXT {
        return Err(field_error(
            r,
            header,
            format!(
                "results table `{name}`: its cells' texts reach {} MiB at this row, more than the {} MiB a results table holds",
                total >> 20,
                MAX_TABLE_TEXT >> 20
            ),
        ));
    }
    if let Some(c) = cell.text.chars().find(|c| c.is_control()) {
        return Err(field_error(
            r,
            header,
            format!(
                "control character {} in a cell: it cannot be printed in LaTeX or typst",
                crate::error::codepoint(c)
            ),
        ));
    }
    Ok(())
}

/// A format on a column with no number does nothing (as on a number
/// whose value is not one): an error at the format.
fn unread_formats(spec: &LoadedSpec, plan: &ResultsPlan<'_>, printed: &Printed) -> Result<()> {
    for (i, c) in plan.columns.iter().enumerate() {
        if let (
            ColumnKind::Field {
                format_set: Some(span),
                ..
            },
            false,
            Some(row),
        ) = (&c.kind, printed.any_number[i], &printed.first_text[i])
        {
            return Err(spec.error(
                span.clone(),
                format!(
                    "column `{}`: `format` does nothing here: no value of the column is a number ({row})",
                    c.header
                ),
            ));
        }
    }
    Ok(())
}

/// The format `by` picks for row `r` (its index in `by.formats`): the
/// one listed under the value of `by.field` as the CSV holds it.
fn pick<'b>(by: &'b FormatBy<'_>, r: &Row) -> Option<(usize, &'b Format)> {
    let v = r.get(by.field.get_ref())?;
    if is_empty(v) {
        return None;
    }
    by.get(&csv_value(v))
}

/// A `formats` entry that no row picks does nothing: an error at it
/// naming the values the rows hold.
fn unpicked_formats(spec: &LoadedSpec, plan: &ResultsPlan<'_>, printed: &Printed) -> Result<()> {
    for (i, c) in plan.columns.iter().enumerate() {
        let ColumnKind::Field { by: Some(by), .. } = &c.kind else {
            continue;
        };
        if let Some(k) = printed.picked[i].iter().position(|p| !p) {
            let (key, _, span) = &by.formats[k];
            return Err(spec.error(
                span.clone(),
                format!(
                    "column `{}`: format `{}` does nothing: no row's `{}` is `{}`",
                    c.header,
                    crate::error::shown(key),
                    crate::error::shown(by.field.get_ref()),
                    crate::error::shown(key)
                ),
            ));
        }
    }
    Ok(())
}

/// The highlight rule of column `c`, if it is a highlighted field.
fn highlight_of(c: &ResultsColumn<'_>) -> Option<Best> {
    match c.kind {
        ColumnKind::Field { highlight, .. } => highlight,
        ColumnKind::Text(_) => None,
    }
}

/// The model's column for `c`: right-aligned when every value is a number
/// (`numeric`), with a second CSV column for an uncertainty.
fn column(c: &ResultsColumn<'_>, numeric: bool) -> Column {
    let header = &c.header;
    Column {
        header: header.clone(),
        align: if numeric { Align::Right } else { Align::Left },
        csv_headers: match c.kind {
            ColumnKind::Field {
                uncertainty: Some(_),
                ..
            } => vec![header.clone(), format!("{header} uncertainty")],
            _ => vec![header.clone()],
        },
    }
}

/// A value as the CSV holds it: full precision (JSON's shortest
/// round-trip text for numbers), strings as they are, empty for null.
fn csv_value(v: &Value) -> String {
    use minijinja::value::ValueKind as K;
    match v.kind() {
        K::Undefined | K::None => String::new(),
        K::String => v.as_str().unwrap_or_default().to_string(),
        _ => serde_json::to_string(v).unwrap_or_else(|_| v.to_string()),
    }
}

fn is_empty(v: &Value) -> bool {
    v.is_undefined() || v.is_none()
}

/// `value ± u` as a number with this format and uncertainty prints it
/// ([`Format::apply_uncertain`]): `(12.3 ± 0.4) ms`, the same text as a
/// `[numbers]` entry; a value that is not a number prints as itself.
fn with_uncertainty(format: &Format, v: &Value, u: f64) -> std::result::Result<String, String> {
    match as_number(v) {
        Some(x) => format.apply_uncertain(x, crate::format::Uncertainty::Symmetric(u)),
        None => Ok(format.apply(v)),
    }
}

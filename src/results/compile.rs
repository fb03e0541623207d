//! From `[results_tables.NAME]` and the rows of its table to the model
//! ([`ResultsTable`]): rows kept by `where`, split by `group`, each column
//! printed with its format, the best values bold.

use std::collections::BTreeSet;
use std::sync::Arc;

use toml::Spanned;

use super::highlight::{self, Best, Per};
use super::{
    Align, Cell, Column, Group, MAX_CELL_CHARS, MAX_COLUMNS, MAX_ROWS, MAX_TABLE_TEXT, ResultsTable,
};
use crate::error::Result;
use crate::expr::{Expr, Globals, Template};
use crate::format::Format;
use crate::spec::{LoadedSpec, ResultsColumnSpec, ResultsTableSpec};
use crate::tables::Catalog;
use crate::tables::aggregate::field_error;
use crate::value::{Key, Row, Value, as_number};

/// What compiling a results table gave.
#[derive(Debug)]
pub enum Outcome {
    /// The model, and the sources its rows come from.
    Built(ResultsTable, BTreeSet<String>),
    /// Its table is unavailable (an optional source is missing): why.
    Skipped(String),
}

/// A column as checked against the spec, before any row is read.
enum Kind<'s> {
    /// A field printed with a format (and `value ± uncertainty`).
    Field {
        field: &'s Spanned<String>,
        format: Format,
        /// The span of `format` when it sets anything (it does nothing
        /// on a column of strings).
        format_set: Option<std::ops::Range<usize>>,
        uncertainty: Option<&'s Spanned<String>>,
        highlight: Option<Best>,
    },
    /// A template over the row.
    Text(Template<'s>),
}

/// A results table's spec checked: formats, rules, counts. Everything
/// that needs no rows (what validation runs before anything is read).
struct Checked<'s> {
    columns: Vec<(String, Kind<'s>)>,
    per: Per,
}

fn check<'s>(
    spec: &LoadedSpec,
    name: &str,
    raw: &'s Spanned<ResultsTableSpec>,
) -> Result<Checked<'s>> {
    let t = raw.get_ref();
    let cols = t.columns.get_ref();
    if cols.is_empty() || cols.len() > MAX_COLUMNS {
        return Err(spec.error(
            t.columns.span(),
            format!(
                "results table `{name}` has {} columns; a results table has 1 to {MAX_COLUMNS}",
                cols.len()
            ),
        ));
    }
    let mut columns = Vec::with_capacity(cols.len());
    for c in cols {
        columns.push(column(spec, c, t.from.get_ref())?);
    }
    let rules: Vec<Best> = columns
        .iter()
        .filter_map(|(_, k)| match k {
            Kind::Field { highlight, .. } => *highlight,
            Kind::Text(_) => None,
        })
        .collect();
    let per = match t.highlight_per.as_ref() {
        None if t.group.is_some() => Per::Group,
        None => Per::Column,
        Some(p) => {
            let err = |m: &str| Err(spec.error(p.span(), m.to_string()));
            if rules.is_empty() {
                return err("`highlight_per` does nothing: no column has `highlight`");
            }
            match p.get_ref().as_str() {
                "column" => Per::Column,
                "group" if t.group.is_none() => {
                    return err(
                        "`highlight_per = \"group\"` needs `group`: the table has no groups",
                    );
                }
                "group" => Per::Group,
                "row" if rules.iter().any(|r| *r != rules[0]) => {
                    return err(
                        "`highlight_per = \"row\"` compares the highlighted columns of each row, so they must all be `max` or all `min`",
                    );
                }
                "row" => Per::Row,
                other => {
                    return err(&format!(
                        "unknown highlight_per `{other}` (column, group, row)"
                    ));
                }
            }
        }
    };
    Ok(Checked { columns, per })
}

fn column<'s>(
    spec: &LoadedSpec,
    c: &'s Spanned<ResultsColumnSpec>,
    from: &str,
) -> Result<(String, Kind<'s>)> {
    let col = c.get_ref();
    let header = col.header.as_ref().map(|h| h.get_ref().clone());
    match (&col.field, &col.text) {
        (Some(field), None) => {
            let fspec = col
                .format
                .as_ref()
                .map(|f| f.get_ref().clone())
                .unwrap_or_default();
            let span = col.format.as_ref().map_or(c.span(), |f| f.span());
            let format = Format::compile(spec, &fspec, span.clone())?;
            if fspec.separate_uncertainty.is_some() && col.uncertainty.is_none() {
                return Err(spec.error(
                    span,
                    "`separate-uncertainty` does nothing without an `uncertainty`",
                ));
            }
            let highlight = match col.highlight.as_ref() {
                None => None,
                Some(h) => Some(match h.get_ref().as_str() {
                    "max" => Best::Max,
                    "min" => Best::Min,
                    other => {
                        return Err(
                            spec.error(h.span(), format!("unknown highlight `{other}` (max, min)"))
                        );
                    }
                }),
            };
            Ok((
                header.unwrap_or_else(|| field.get_ref().clone()),
                Kind::Field {
                    field,
                    format,
                    format_set: col
                        .format
                        .as_ref()
                        .filter(|f| crate::numbers::has_format(f.get_ref()))
                        .map(|f| f.span()),
                    uncertainty: col.uncertainty.as_ref(),
                    highlight,
                },
            ))
        }
        (None, Some(text)) => Ok((
            header.unwrap_or_default(),
            Kind::Text(Template::compile(spec, text)?.in_table(from)),
        )),
        _ => Err(spec.error(
            c.span(),
            "a column has `field` (a field of the rows) or `text` (a template)",
        )),
    }
}

/// Checks results table `name` without reading data (for validation).
pub fn validate(spec: &LoadedSpec, name: &str, raw: &Spanned<ResultsTableSpec>) -> Result<()> {
    let t = raw.get_ref();
    if !spec.spec.tables.contains_key(t.from.get_ref())
        && !spec.spec.sources.contains_key(t.from.get_ref())
    {
        return Err(spec.error(t.from.span(), crate::spec::no_table(spec, t.from.get_ref())));
    }
    if let Some(w) = &t.where_ {
        Expr::compile(spec, w)?;
    }
    check(spec, name, raw).map(|_| ())
}

/// `field` of the table's fields, or an error at its span naming them.
fn known_field(
    spec: &LoadedSpec,
    from: &str,
    fields: &[String],
    field: &Spanned<String>,
) -> Result<()> {
    let f = field.get_ref();
    if fields.is_empty() || fields.iter().any(|x| x == f) {
        return Ok(());
    }
    let names: Vec<&str> = fields.iter().map(String::as_str).collect();
    let hint = crate::spec::keys::nearest(f, &names)
        .map(|n| format!("; did you mean `{n}`?"))
        .unwrap_or_default();
    Err(spec.error(
        field.span(),
        format!(
            "table `{from}` has no field `{f}`{hint} (its fields: {})",
            names.join(", ")
        ),
    ))
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

/// Compiles results table `name` over the rows of its table.
pub fn compile(
    spec: &LoadedSpec,
    cat: &Catalog<'_>,
    globals: &Arc<Globals>,
    name: &str,
    raw: &Spanned<ResultsTableSpec>,
) -> Result<Outcome> {
    let t = raw.get_ref();
    let checked = check(spec, name, raw)?;
    let from = t.from.get_ref();
    let table = cat.lookup(from, t.from.span())?;
    if let Some(why) = &table.unavailable {
        return Ok(Outcome::Skipped(why.clone()));
    }
    let mut rows: Vec<Row> = table.rows.clone();
    if let Some(w) = &t.where_ {
        rows = Expr::compile(spec, w)?.in_table(from).keep(globals, rows)?;
    }
    if rows.len() > MAX_ROWS {
        let span = crate::spec::paths::key_span(spec, "results_tables", name, raw.span());
        return Err(spec.error(
            span,
            format!(
                "results table `{name}` has {} rows, more than the {MAX_ROWS} a results table prints (keep fewer with `where` or a table's steps)",
                rows.len()
            ),
        ));
    }
    // The table's fields, in first-seen order: those of its first rows
    // and of every row printed (a bounded count either way).
    let mut fields: Vec<String> = Vec::new();
    let mut seen = BTreeSet::new();
    for r in table.rows.iter().take(MAX_ROWS).chain(&rows) {
        for k in r.flat_fields().0.keys() {
            if seen.insert(k.to_string()) {
                fields.push(k.to_string());
            }
        }
    }
    if let Some(g) = &t.group {
        known_field(spec, from, &fields, g)?;
    }
    for (_, k) in &checked.columns {
        if let Kind::Field {
            field, uncertainty, ..
        } = k
        {
            known_field(spec, from, &fields, field)?;
            if let Some(u) = uncertainty {
                known_field(spec, from, &fields, u)?;
            }
        }
    }
    // Groups in first-seen order; each row's group index. Rows are in
    // one group when the `group` step would put them in one (the same
    // `Key`: 1 and 1.0 are one group), labelled by the first row's value.
    let mut labels: Vec<(String, String)> = Vec::new();
    let mut index: std::collections::HashMap<Key, usize> = std::collections::HashMap::new();
    let mut group_of = Vec::with_capacity(rows.len());
    for r in &rows {
        let v = match &t.group {
            None => Value::UNDEFINED,
            Some(g) => r.get(g.get_ref()).cloned().unwrap_or(Value::UNDEFINED),
        };
        // A missing field and null both print as no label: one group.
        let key = if is_empty(&v) {
            Key::of(&[Value::from(())])
        } else {
            Key::of(std::slice::from_ref(&v))
        };
        let i = match index.get(&key) {
            Some(i) => *i,
            None => {
                let label = if is_empty(&v) {
                    String::new()
                } else {
                    Format::default().apply(&v)
                };
                labels.push((label, csv_value(&v)));
                index.insert(key, labels.len() - 1);
                labels.len() - 1
            }
        };
        group_of.push(i);
    }
    // Cells, row by row; the highlighted columns' values on the side.
    let mut cells: Vec<Vec<Cell>> = Vec::with_capacity(rows.len());
    let mut numeric = vec![true; checked.columns.len()];
    let mut lit: Vec<Vec<Option<f64>>> = Vec::with_capacity(rows.len());
    let mut rules = Vec::new();
    for (_, k) in &checked.columns {
        if let Kind::Field {
            highlight: Some(b), ..
        } = k
        {
            rules.push(*b);
        }
    }
    let mut total = 0usize;
    let mut any_number = vec![false; checked.columns.len()];
    let mut first_text: Vec<Option<String>> = vec![None; checked.columns.len()];
    for r in &rows {
        let mut line = Vec::with_capacity(checked.columns.len());
        let mut marks = Vec::with_capacity(rules.len());
        for (i, (header, k)) in checked.columns.iter().enumerate() {
            let cell = match k {
                Kind::Text(tpl) => {
                    numeric[i] = false;
                    let text = tpl.render_row(globals, r)?;
                    Cell {
                        csv: vec![text.clone()],
                        text,
                        bold: false,
                    }
                }
                Kind::Field {
                    field,
                    format,
                    uncertainty,
                    highlight,
                    ..
                } => {
                    let f = field.get_ref();
                    let v = r.get(f).cloned().unwrap_or(Value::UNDEFINED);
                    if !is_empty(&v) && as_number(&v).is_none() {
                        numeric[i] = false;
                        if first_text[i].is_none() {
                            first_text[i] =
                                Some(format!("{}: {}", r.origin, crate::value::describe(&v)));
                        }
                    } else if !is_empty(&v) {
                        any_number[i] = true;
                    }
                    if let Some(best) = highlight {
                        if is_empty(&v) {
                            marks.push(None);
                        } else {
                            let Some(x) = as_number(&v) else {
                                let rule = if *best == Best::Max { "max" } else { "min" };
                                return Err(field_error(
                                    r,
                                    f,
                                    format!(
                                        "column `{header}`: `highlight = \"{rule}\"` compares numbers, and this row's value is {}",
                                        crate::value::describe(&v)
                                    ),
                                ));
                            };
                            marks.push(Some(x));
                        }
                    }
                    let mut csv = vec![csv_value(&v)];
                    let text = match uncertainty {
                        _ if is_empty(&v) => String::new(),
                        None => format.apply(&v),
                        Some(u) => {
                            let uv = r.get(u.get_ref()).cloned().unwrap_or(Value::UNDEFINED);
                            csv.push(csv_value(&uv));
                            match as_number(&uv) {
                                _ if is_empty(&uv) => format.apply(&v),
                                Some(x) if x >= 0.0 => {
                                    with_uncertainty(format, &v, x).map_err(|m| {
                                        field_error(r, f, format!("column `{header}`: {m}"))
                                    })?
                                }
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
                    if uncertainty.is_some() && csv.len() == 1 {
                        csv.push(String::new());
                    }
                    Cell {
                        text,
                        bold: false,
                        csv,
                    }
                }
            };
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
            total += cell.text.len();
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
            line.push(cell);
        }
        cells.push(line);
        lit.push(marks);
    }
    // A format on a column with no number does nothing (as on a number
    // whose value is not one).
    for (i, (header, k)) in checked.columns.iter().enumerate() {
        if let (
            Kind::Field {
                format_set: Some(span),
                ..
            },
            false,
            Some(row),
        ) = (k, any_number[i], &first_text[i])
        {
            return Err(spec.error(
                span.clone(),
                format!(
                    "column `{header}`: `format` does nothing here: no value of the column is a number ({row})"
                ),
            ));
        }
    }
    let bold = highlight::bold(&lit, &group_of, &rules, checked.per);
    let lit_columns: Vec<usize> = checked
        .columns
        .iter()
        .enumerate()
        .filter(|(_, (_, k))| {
            matches!(
                k,
                Kind::Field {
                    highlight: Some(_),
                    ..
                }
            )
        })
        .map(|(i, _)| i)
        .collect();
    for (r, flags) in bold.iter().enumerate() {
        for (j, b) in flags.iter().enumerate() {
            cells[r][lit_columns[j]].bold = *b;
        }
    }
    let columns = checked
        .columns
        .iter()
        .enumerate()
        .map(|(i, (header, k))| Column {
            header: header.clone(),
            align: if numeric[i] {
                Align::Right
            } else {
                Align::Left
            },
            csv_headers: match k {
                Kind::Field {
                    uncertainty: Some(_),
                    ..
                } => {
                    vec![header.clone(), format!("{header} uncertainty")]
                }
                _ => vec![header.clone()],
            },
        })
        .collect();
    let mut groups: Vec<Group> = labels
        .into_iter()
        .map(|(label, csv_label)| Group {
            label: t.group.is_some().then_some(label),
            csv_label,
            rows: Vec::new(),
        })
        .collect();
    for (line, g) in cells.into_iter().zip(&group_of) {
        groups[*g].rows.push(line);
    }
    if groups.is_empty() && t.group.is_none() {
        groups.push(Group {
            label: None,
            csv_label: String::new(),
            rows: Vec::new(),
        });
    }
    Ok(Outcome::Built(
        ResultsTable {
            name: name.to_string(),
            group_field: t.group.as_ref().map(|g| g.get_ref().clone()),
            columns,
            groups,
        },
        table.sources.clone(),
    ))
}

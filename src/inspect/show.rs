//! `artifact show NAME`: a source's or table's fields, with their types,
//! and its first rows, after all of the table's steps.
//!
//! The table is built by the [`Catalog`] that `gen` uses (every step,
//! streamed or not, through the same code), so what `show` prints is what
//! a number or a figure reading the table sees. Three forms:
//!
//! - text: a header (`table fig5_points: 26 rows, 9 fields (from
//!   results, after 9 steps)`), one line per field (name, type, distinct values, first
//!   non-null value), then the first rows aligned in columns (a cell longer
//!   than 32 columns cut with `…`, control characters escaped);
//! - csv: the first rows with a header (the `csv` crate), a null or
//!   missing cell empty (as a CSV source reads it back);
//! - json: `{"name", "kind", "rows", "fields": [{"name", "type",
//!   "distinct"}], "first_rows": [...]}`, keys in that order.
//!
//! A field's type is the union of what its values are across all rows,
//! in a fixed order: `int`, `float`, `string`, `bool`, `list`, `record`,
//! `null`, then `missing` when some rows lack it (`float|null`).

use std::collections::HashSet;
use std::fmt::Write as _;

use indexmap::IndexMap;
use serde::Serialize;
use unicode_width::UnicodeWidthStr;

use super::{Format, cell_text, did_you_mean, listed, other_kind, to_json, type_name};
use crate::error::{Error, Result, shown};
use crate::spec::LoadedSpec;
use crate::tables::{Catalog, Table};
use crate::value::Row;

/// The widest a cell of the text table is, in terminal columns.
pub const CELL_WIDTH: usize = 32;

/// What `show` prints, and the notes of building the table (rows its
/// filters dropped, skipped sources) for stderr.
#[derive(Debug)]
pub struct Shown {
    /// The output, in the format asked for.
    pub output: String,
    /// Reports of the build, as `gen` gives them.
    pub notes: Vec<String>,
}

/// What is known of one field across all rows.
#[derive(Debug, Default)]
struct Field {
    name: String,
    types: Vec<&'static str>,
    distinct: HashSet<String>,
    example: Option<String>,
}

const TYPE_ORDER: [&str; 10] = [
    "int", "float", "string", "bool", "list", "record", "bytes", "value", "null", "missing",
];

impl Field {
    fn type_text(&self) -> String {
        let mut t: Vec<&str> = TYPE_ORDER
            .iter()
            .copied()
            .filter(|t| self.types.contains(t))
            .collect();
        if t.is_empty() {
            t.push("missing");
        }
        t.join("|")
    }
}

/// Every field of `rows` in the order first seen, with its types, its
/// distinct values (by type and JSON text, so `1` and `1.0` differ, and a
/// NaN from the string `"NaN"`) and its first non-null value.
fn survey(rows: &[Row]) -> Vec<Field> {
    let mut fields: IndexMap<String, Field> = IndexMap::new();
    for (i, row) in rows.iter().enumerate() {
        let rec = row.flat_fields();
        for (k, v) in rec.0.iter() {
            let f = fields.entry(k.to_string()).or_insert_with(|| Field {
                name: k.to_string(),
                // Absent from every row before this one.
                types: if i > 0 { vec!["missing"] } else { Vec::new() },
                ..Field::default()
            });
            let t = type_name(v);
            if !f.types.contains(&t) {
                f.types.push(t);
            }
            f.distinct.insert(format!("{t}:{}", to_json(v)));
            if f.example.is_none() && !v.is_none() && !v.is_undefined() {
                f.example = Some(cell_text(v));
            }
        }
        for f in fields.values_mut() {
            if rec.get(&f.name).is_none() && !f.types.contains(&"missing") {
                f.types.push("missing");
            }
        }
    }
    fields.into_values().collect()
}

/// A field of some rows, as `show` and `init` describe it.
#[derive(Debug, Clone, PartialEq)]
pub struct FieldSummary {
    /// Its name (`a.b` for a field of a nested record).
    pub name: String,
    /// Its types across the rows (`float|null`, `string|missing`).
    pub types: String,
    /// How many distinct values it has.
    pub distinct: usize,
    /// Its first non-null value, as `show` prints it.
    pub example: Option<String>,
}

/// Every field of `rows`, in the order first seen.
pub fn fields_of(rows: &[Row]) -> Vec<FieldSummary> {
    survey(rows)
        .into_iter()
        .map(|f| FieldSummary {
            types: f.type_text(),
            distinct: f.distinct.len(),
            name: f.name,
            example: f.example,
        })
        .collect()
}

fn plural(n: usize, what: &str) -> String {
    format!("{n} {what}{}", if n == 1 { "" } else { "s" })
}

/// The error for a name that is neither a source nor a table.
fn unknown(spec: &LoadedSpec, name: &str) -> Error {
    let s = &spec.spec;
    let hint = match other_kind(spec, name) {
        h if h.is_empty() => did_you_mean(
            name,
            s.sources.keys().chain(s.tables.keys()).map(String::as_str),
        ),
        h => h,
    };
    Error::msg(format!(
        "no source or table named `{}`{hint}\n  sources: {}\n  tables: {}",
        shown(name),
        listed(s.sources.keys()),
        listed(s.tables.keys()),
    ))
}

/// Builds source or table `name` as `gen` does and prints its fields and
/// its first `rows` rows in `format`.
pub fn show(spec: &LoadedSpec, name: &str, rows: usize, format: Format) -> Result<Shown> {
    let kind = if spec.spec.sources.contains_key(name) {
        "source"
    } else if spec.spec.tables.contains_key(name) {
        "table"
    } else {
        return Err(unknown(spec, name));
    };
    let plan = crate::plan::Plan::compile_tables(spec)?;
    let cat = Catalog::new(&plan)?;
    // The numbers its steps read (`v['total']`) first, as `gen` computes them.
    let reads = crate::numbers::table_reads(spec, name);
    if !reads.is_empty() {
        crate::validate::numbers(spec)?;
        let (nums, _) = crate::numbers::compute_selected(spec, &cat, &|_, _| None, &|k| {
            reads.iter().any(|r| r == k)
        });
        if let Some(e) = nums.errors.into_iter().next() {
            return Err(e);
        }
    }
    let table = cat.table(name)?;
    let fields = survey(&table.rows);
    let first = &table.rows[..rows.min(table.rows.len())];
    let output = match format {
        Format::Text => text(spec, &cat, name, kind, &table, &fields, first),
        Format::Csv => csv(&fields, first)?,
        Format::Json => json(name, kind, &table, &fields, first)?,
    };
    Ok(Shown {
        output,
        notes: cat.notes(),
    })
}

/// Where the rows come from: the number of steps, or the source's files.
fn origin(spec: &LoadedSpec, cat: &Catalog<'_>, name: &str, kind: &str) -> String {
    if kind == "table" {
        let t = spec.spec.tables[name].get_ref();
        return format!(
            "from {}, after {}",
            shown(t.from.get_ref()),
            plural(t.steps.len(), "step")
        );
    }
    let files = cat.files();
    let files = files.get(name).map(Vec::as_slice).unwrap_or_default();
    match files {
        [] if spec.spec.sources[name].get_ref().rows.is_some() => "rows in the spec".into(),
        [] => "no file".into(),
        [f] => f.rel.clone(),
        many => format!("{} files", many.len()),
    }
}

/// `s` escaped and cut to [`CELL_WIDTH`] columns (a cut cell ends in `…`).
fn fit(s: &str) -> String {
    let s = shown(s);
    if s.width() <= CELL_WIDTH {
        return s;
    }
    let mut out = String::new();
    let mut w = 0;
    for c in s.chars() {
        let cw = unicode_width::UnicodeWidthChar::width(c).unwrap_or(0);
        if w + cw > CELL_WIDTH - 1 {
            break;
        }
        out.push(c);
        w += cw;
    }
    out.push('…');
    out
}

/// Lines of aligned columns: each cell padded to its column's width (right
/// aligned in the columns `right` marks), two spaces apart, trailing
/// spaces trimmed.
fn aligned(out: &mut String, lines: &[Vec<String>], right: &[bool]) {
    let cols = lines.iter().map(Vec::len).max().unwrap_or(0);
    let widths: Vec<usize> = (0..cols)
        .map(|c| {
            lines
                .iter()
                .filter_map(|l| l.get(c))
                .map(|s| s.width())
                .max()
                .unwrap_or(0)
        })
        .collect();
    for l in lines {
        let mut line = String::new();
        for (c, cell) in l.iter().enumerate() {
            if c > 0 {
                line.push_str("  ");
            }
            let pad = " ".repeat(widths[c] - cell.width());
            if right.get(c).copied().unwrap_or(false) {
                line.push_str(&pad);
                line.push_str(cell);
            } else {
                line.push_str(cell);
                line.push_str(&pad);
            }
        }
        let _ = writeln!(out, "{}", line.trim_end());
    }
}

fn text(
    spec: &LoadedSpec,
    cat: &Catalog<'_>,
    name: &str,
    kind: &str,
    table: &Table,
    fields: &[Field],
    first: &[Row],
) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{kind} {}: {}, {} ({})",
        shown(name),
        plural(table.rows.len(), "row"),
        plural(fields.len(), "field"),
        origin(spec, cat, name, kind)
    );
    if let Some(why) = &table.unavailable {
        let _ = writeln!(out, "unavailable: {}", shown(why));
    }
    if fields.is_empty() {
        return out;
    }
    out.push('\n');
    let mut list = vec![vec![
        "field".to_string(),
        "type".to_string(),
        "distinct".to_string(),
        "example".to_string(),
    ]];
    for f in fields {
        list.push(vec![
            shown(&f.name),
            f.type_text(),
            f.distinct.len().to_string(),
            f.example.as_deref().map_or_else(String::new, fit),
        ]);
    }
    aligned(&mut out, &list, &[false, false, true, false]);
    if first.is_empty() {
        return out;
    }
    let how = if first.len() == table.rows.len() {
        format!("all {}:", plural(first.len(), "row"))
    } else {
        format!("first {} of {} rows:", first.len(), table.rows.len())
    };
    let _ = writeln!(out, "\n{how}");
    let mut lines = vec![fields.iter().map(|f| fit(&f.name)).collect::<Vec<_>>()];
    for row in first {
        lines.push(
            fields
                .iter()
                .map(|f| {
                    row.get(&f.name)
                        .map_or_else(String::new, |v| fit(&cell_text(v)))
                })
                .collect(),
        );
    }
    let numeric: Vec<bool> = fields
        .iter()
        .map(|f| {
            f.types
                .iter()
                .all(|t| ["int", "float", "null", "missing"].contains(t))
        })
        .collect();
    aligned(&mut out, &lines, &numeric);
    out
}

fn csv(fields: &[Field], first: &[Row]) -> Result<String> {
    let err = |e: csv::Error| Error::msg(format!("csv: {e}"));
    let mut w = csv::WriterBuilder::new()
        .terminator(csv::Terminator::Any(b'\n'))
        .from_writer(Vec::new());
    w.write_record(fields.iter().map(|f| f.name.as_str()))
        .map_err(err)?;
    for row in first {
        w.write_record(fields.iter().map(|f| match row.get(&f.name) {
            // As a CSV source reads it back: an empty cell is null.
            Some(v) if !v.is_none() => cell_text(v),
            _ => String::new(),
        }))
        .map_err(err)?;
    }
    let bytes = w
        .into_inner()
        .map_err(|e| Error::msg(format!("csv: {e}")))?;
    String::from_utf8(bytes).map_err(|e| Error::msg(format!("csv: {e}")))
}

#[derive(Serialize)]
struct JsonField<'a> {
    name: &'a str,
    #[serde(rename = "type")]
    type_: String,
    distinct: usize,
}

#[derive(Serialize)]
struct JsonShow<'a> {
    name: &'a str,
    kind: &'a str,
    rows: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    unavailable: Option<&'a str>,
    fields: Vec<JsonField<'a>>,
    first_rows: Vec<IndexMap<&'a str, serde_json::Value>>,
}

fn json(name: &str, kind: &str, table: &Table, fields: &[Field], first: &[Row]) -> Result<String> {
    let doc = JsonShow {
        name,
        kind,
        rows: table.rows.len(),
        unavailable: table.unavailable.as_deref(),
        fields: fields
            .iter()
            .map(|f| JsonField {
                name: &f.name,
                type_: f.type_text(),
                distinct: f.distinct.len(),
            })
            .collect(),
        first_rows: first
            .iter()
            .map(|row| {
                // A missing field is left out, as in the data.
                fields
                    .iter()
                    .filter_map(|f| Some((f.name.as_str(), to_json(row.get(&f.name)?))))
                    .collect()
            })
            .collect(),
    };
    let mut s = serde_json::to_string_pretty(&doc).map_err(|e| Error::msg(format!("json: {e}")))?;
    s.push('\n');
    Ok(s)
}

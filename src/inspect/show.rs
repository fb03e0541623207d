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

use std::fmt::Write as _;

use indexmap::IndexMap;
use serde::Serialize;
use unicode_width::UnicodeWidthStr;

use super::survey::{Field, Survey, survey};
use super::{Format, cell_text, did_you_mean, listed, other_kind, to_json};
use crate::error::{Error, Result, shown};
use crate::spec::LoadedSpec;
use crate::tables::Catalog;
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
    // The numbers its steps read (`v['total']`) first, as `gen` computes
    // them: compiled only then, so a broken number does not stop `show`
    // of a table that reads none.
    let reads = crate::numbers::table_reads(spec, name);
    let plan = match reads.is_empty() {
        true => crate::plan::Plan::tables_only(spec)?,
        false => crate::plan::Plan::tables_and_numbers(spec)?,
    };
    if kind == "source" {
        return show_source(spec, name, rows, format);
    }
    let cat = Catalog::new(&plan)?;
    if !reads.is_empty() {
        let (nums, _) = crate::numbers::compute_selected(spec, &cat, &|_, _| None, &|k| {
            reads.iter().any(|r| r == k)
        });
        if let Some(e) = nums.errors.into_iter().next() {
            return Err(e);
        }
    }
    let table = cat.table(name)?;
    let seen = Seen {
        name,
        kind,
        rows: table.rows.len(),
        unavailable: table.unavailable.as_deref(),
        origin: origin(spec, &cat, name, kind),
        fields: survey(&table.rows),
        first: &table.rows[..rows.min(table.rows.len())],
    };
    Ok(Shown {
        output: seen.print(format)?,
        notes: cat.notes(),
    })
}

/// A source shown as it streams past: every row counted and surveyed,
/// only the first `rows` kept, so a log of any size is shown in bounded
/// memory (see [`super::survey`]).
fn show_source(spec: &LoadedSpec, name: &str, rows: usize, format: Format) -> Result<Shown> {
    let src = &spec.spec.sources[name];
    let mut survey = Survey::default();
    let mut first = Vec::new();
    let mut count = 0usize;
    let loaded = crate::sources::stream(spec, name, src, None, &mut |row| {
        survey.add(&row);
        count += 1;
        if first.len() < rows {
            first.push(row);
        }
        Ok(())
    })
    .map_err(|e| e.context(format!("source `{name}`")))?;
    let origin = match loaded.files.as_slice() {
        [] if src.get_ref().rows.is_some() => "rows in the spec".into(),
        [] => "no file".into(),
        [f] => f.rel.clone(),
        many => format!("{} files", many.len()),
    };
    let seen = Seen {
        name,
        kind: "source",
        rows: count,
        unavailable: loaded.missing.as_deref(),
        origin,
        fields: survey.fields(),
        first: &first,
    };
    Ok(Shown {
        output: seen.print(format)?,
        notes: loaded
            .notes
            .iter()
            .map(|n| format!("source `{}`: {n}", shown(name)))
            .collect(),
    })
}

/// What `show` prints of a source or table.
struct Seen<'a> {
    name: &'a str,
    kind: &'a str,
    /// Its rows, all counted.
    rows: usize,
    unavailable: Option<&'a str>,
    /// Where the rows come from (`from results, after 9 steps`, a file).
    origin: String,
    fields: Vec<Field>,
    first: &'a [Row],
}

impl Seen<'_> {
    fn print(&self, format: Format) -> Result<String> {
        Ok(match format {
            Format::Text => text(self),
            Format::Csv => csv(&self.fields, self.first)?,
            Format::Json => json(self)?,
        })
    }
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

fn text(seen: &Seen) -> String {
    let Seen {
        name,
        kind,
        rows,
        unavailable,
        origin,
        fields,
        first,
    } = seen;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{kind} {}: {}, {} ({origin})",
        shown(name),
        plural(*rows, "row"),
        plural(fields.len(), "field"),
    );
    if let Some(why) = unavailable {
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
            f.distinct_text(),
            f.example.as_deref().map_or_else(String::new, fit),
        ]);
    }
    aligned(&mut out, &list, &[false, false, true, false]);
    if first.is_empty() {
        return out;
    }
    let how = if first.len() == *rows {
        format!("all {}:", plural(first.len(), "row"))
    } else {
        format!("first {} of {} rows:", first.len(), rows)
    };
    let _ = writeln!(out, "\n{how}");
    let mut lines = vec![fields.iter().map(|f| fit(&f.name)).collect::<Vec<_>>()];
    for row in first.iter() {
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
    for row in first.iter() {
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

fn json(seen: &Seen) -> Result<String> {
    let (fields, first) = (&seen.fields, seen.first);
    let doc = JsonShow {
        name: seen.name,
        kind: seen.kind,
        rows: seen.rows,
        unavailable: seen.unavailable,
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

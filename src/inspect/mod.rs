//! Looking at the data while writing the spec: `artifact show NAME` prints
//! a source's or table's fields and first rows ([`show`]), `artifact
//! explain KEY` where a number comes from ([`explain`]).
//!
//! Both read the spec and the data exactly as `gen` does (the same
//! [`Catalog`](crate::tables::Catalog) builds the tables, the same
//! [`numbers`](crate::numbers) code computes the numbers) and write nothing.

pub mod explain;
pub mod show;
pub mod survey;

use crate::error::shown;
use crate::spec::LoadedSpec;
use crate::value::{Value, as_number};
use minijinja::value::ValueKind;

/// How `show` and `explain` print what they found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Format {
    /// Aligned text for the terminal.
    #[default]
    Text,
    /// CSV with a header row (`show` only).
    Csv,
    /// One JSON document.
    Json,
}

/// Names longer than this are not compared (the edit distance takes time
/// quadratic in the length; no one misspells a 300-character name).
const COMPARED: usize = 256;

/// ` (did you mean `x`?)` when a candidate is close to `name`, else empty.
/// One pass over the candidates, within [`crate::error::COMPARE_BUDGET`].
pub fn did_you_mean<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> String {
    if name.len() > COMPARED {
        return String::new();
    }
    let mut budget = crate::error::Budget::default();
    let best = candidates
        .into_iter()
        .filter(|c| c.len() <= COMPARED)
        .take_while(|c| budget.spend(name.len(), c.len()))
        .map(|c| (strsim::normalized_damerau_levenshtein(name, c), c))
        .filter(|(score, _)| *score >= 0.6)
        .fold(None::<(f64, &str)>, |best, (s, c)| match best {
            Some((b, _)) if b >= s => best,
            _ => Some((s, c)),
        });
    best.map(|(_, c)| format!(" (did you mean `{}`?)", shown(c)))
        .unwrap_or_default()
}

/// ` (`NAME` is a number: ...)` when `name` names something of another
/// kind than asked for (`show` of a number or a figure, `explain` of a
/// table), with the command that looks at it; else empty.
pub fn other_kind(spec: &LoadedSpec, name: &str) -> String {
    let s = &spec.spec;
    let n = shown(name);
    if s.numbers.contains_key(name) {
        return format!(" (`{n}` is a number: `artifact explain {n}`)");
    }
    if s.sources.contains_key(name) || s.tables.contains_key(name) {
        let kind = if s.sources.contains_key(name) {
            "source"
        } else {
            "table"
        };
        return format!(" (`{n}` is a {kind}: `artifact show {n}`)");
    }
    if let Some(f) = s.figures.get(name) {
        let f = f.get_ref();
        let mut tables: Vec<&String> = Vec::new();
        let layers = f
            .layers
            .iter()
            .flatten()
            .chain(f.panels.iter().flatten().flat_map(|p| &p.get_ref().layers));
        for l in layers {
            if let Some(d) = &l.get_ref().data
                && !tables.contains(&d.get_ref())
            {
                tables.push(d.get_ref());
            }
        }
        return match tables.as_slice() {
            [] => format!(" (`{n}` is a figure)"),
            _ => format!(" (`{n}` is a figure; it draws {})", listed(tables)),
        };
    }
    String::new()
}

/// The names of `names`, quoted and comma-separated, or `none`: at most
/// [`crate::error::LISTED`], then how many more.
pub fn listed<'a>(names: impl IntoIterator<Item = &'a String>) -> String {
    crate::error::name_list(names.into_iter().map(String::as_str), true)
}

/// A float as its shortest text that reads back as the same `f64`
/// (`2.0`, `0.1`, `3.8594150000000003`, `1e-7`, `NaN`, `inf`).
pub fn float_text(x: f64) -> String {
    format!("{x:?}")
}

/// The type of a value as `show` names it: `int`, `float`, `string`,
/// `bool`, `null`, `list`, `record` (or minijinja's name for anything else).
pub fn type_name(v: &Value) -> &'static str {
    match v.kind() {
        ValueKind::Undefined => "missing",
        ValueKind::None => "null",
        ValueKind::Bool => "bool",
        ValueKind::Number if v.is_integer() => "int",
        ValueKind::Number => "float",
        ValueKind::String => "string",
        ValueKind::Seq | ValueKind::Iterable => "list",
        ValueKind::Map => "record",
        ValueKind::Bytes => "bytes",
        _ => "value",
    }
}

/// A value as JSON: numbers as they are (a float keeps its shortest
/// round-trip form), a NaN or an infinity as the string `"NaN"`, `"inf"`
/// or `"-inf"` (JSON has no such number), lists and records recursively.
pub fn to_json(v: &Value) -> serde_json::Value {
    use serde_json::Value as J;
    match v.kind() {
        ValueKind::Undefined | ValueKind::None => J::Null,
        ValueKind::Bool => J::Bool(v.is_true()),
        ValueKind::Number if v.is_integer() => match v.as_i64() {
            Some(i) => J::from(i),
            None => serde_json::to_value(v).unwrap_or_else(|_| J::String(v.to_string())),
        },
        ValueKind::Number => match as_number(v) {
            Some(x) if x.is_finite() => serde_json::Number::from_f64(x).map_or(J::Null, J::Number),
            Some(x) => J::String(float_text(x)),
            None => J::String(v.to_string()),
        },
        ValueKind::String => J::String(v.as_str().unwrap_or_default().to_string()),
        ValueKind::Map => {
            let mut m = serde_json::Map::new();
            if let Ok(keys) = v.try_iter() {
                for k in keys {
                    let item = v.get_item(&k).unwrap_or_default();
                    let name = k.as_str().map_or_else(|| k.to_string(), String::from);
                    m.insert(name, to_json(&item));
                }
            }
            J::Object(m)
        }
        ValueKind::Seq | ValueKind::Iterable => J::Array(
            v.try_iter()
                .map(|it| it.map(|x| to_json(&x)).collect())
                .unwrap_or_default(),
        ),
        _ => J::String(v.to_string()),
    }
}

/// A value as one cell of text: a string as it is, a number in its
/// shortest round-trip form (floats keep `.0`), `null`, `true`/`false`,
/// a list or record as compact JSON; a missing field is empty.
pub fn cell_text(v: &Value) -> String {
    match v.kind() {
        ValueKind::Undefined => String::new(),
        ValueKind::None => "null".into(),
        ValueKind::Bool => if v.is_true() { "true" } else { "false" }.into(),
        ValueKind::String => v.as_str().unwrap_or_default().to_string(),
        ValueKind::Number if v.is_integer() => v.to_string(),
        ValueKind::Number => as_number(v).map_or_else(|| v.to_string(), float_text),
        _ => to_json(v).to_string(),
    }
}

/// The 1-based line of byte offset `pos` of the spec.
pub fn spec_line(spec: &LoadedSpec, pos: usize) -> usize {
    spec.line_col(pos).0
}

/// `[section.NAME]`'s block of the spec: its line and its text, from the
/// line that names it to the end of its value (a `[section.NAME]` header
/// runs to the next header that is not one of its own sub-tables; blank
/// and comment lines before that header belong to what follows).
pub fn spec_block(
    spec: &LoadedSpec,
    section: &str,
    name: &str,
    value: std::ops::Range<usize>,
) -> (usize, String) {
    let key = crate::spec::paths::key_span(spec, section, name, value.clone());
    let lines: Vec<&str> = spec.text.lines().collect();
    let first = spec_line(spec, key.start) - 1;
    let header = lines
        .get(first)
        .is_some_and(|l| l.trim_start().starts_with('['));
    let mut last = spec_line(spec, value.end.max(key.end).saturating_sub(1)) - 1;
    if header {
        let prefix = |l: &str| {
            let l = l.trim_start().trim_start_matches('[');
            l.starts_with(&format!("{section}.{name}."))
                || l.starts_with(&format!("{section}.\"{name}\"."))
        };
        last = first;
        for (i, l) in lines.iter().enumerate().skip(first + 1) {
            let t = l.trim_start();
            if t.starts_with('[') && !prefix(t) {
                break;
            }
            if !t.is_empty() && !t.starts_with('#') {
                last = i;
            }
        }
    }
    let last = last.max(first).min(lines.len().saturating_sub(1));
    let text = lines
        .get(first..=last)
        .map(|l| l.join("\n"))
        .unwrap_or_default();
    (first + 1, text)
}

/// The spec's text at `span` on one line: each line trimmed and joined
/// with a space.
pub fn one_line(spec: &LoadedSpec, span: std::ops::Range<usize>) -> String {
    let text = spec.text.get(span).unwrap_or_default();
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_close_name_is_suggested() {
        let names = ["fig5_points", "fig5_front", "results"];
        assert_eq!(
            did_you_mean("fig5_point", names),
            " (did you mean `fig5_points`?)"
        );
        assert_eq!(did_you_mean("zzz", names), "");
    }

    #[test]
    fn cells_keep_their_type_visible() {
        assert_eq!(cell_text(&Value::from(2.0)), "2.0");
        assert_eq!(cell_text(&Value::from(2)), "2");
        assert_eq!(cell_text(&Value::from(f64::NAN)), "NaN");
        assert_eq!(cell_text(&Value::from(())), "null");
        assert_eq!(cell_text(&Value::from(vec![1, 2])), "[1,2]");
        assert_eq!(to_json(&Value::from(f64::INFINITY)), "inf");
        assert_eq!(type_name(&Value::from(0.5)), "float");
    }
}

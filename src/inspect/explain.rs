//! `artifact explain KEY`: where a number comes from.
//!
//! Prints the number's full-precision value (the shortest text that reads
//! back as the same `f64`) and its printed text, its block of the spec
//! with its line, the table it reads and every table that one reads
//! (`from`, `lookup`, `union`), each step on one line with its spec line, how many rows fed it (the
//! table's rows left by `where`), the numbers it reads (`n['KEY']`,
//! `v['KEY']`), and every input file (its own and those of the numbers it
//! reads) with its blake3 hash, hashed as the
//! lock hashes it ([`crate::lock::hash_file`]), and whether that matches
//! `artifact.lock`.
//!
//! The number is computed by [`crate::numbers::compute_selected`], the code
//! `gen` runs, with the numbers it reads and nothing else.

use std::fmt::Write as _;

use serde::Serialize;

use super::{Format, did_you_mean, listed, one_line, other_kind, spec_block, to_json};
use crate::error::{Error, Result, shown};
use crate::fingerprint::Fingerprint;
use crate::lock::Lock;
use crate::numbers::{self, Number};
use crate::plan::deps::document_sources;
use crate::spec::LoadedSpec;
use crate::tables::Catalog;

/// What `explain` prints, and the notes of building the tables.
#[derive(Debug)]
pub struct Explained {
    /// The output, in the format asked for.
    pub output: String,
    /// Reports of the build, as `gen` gives them.
    pub notes: Vec<String>,
}

/// One step of a table, as written.
#[derive(Debug, Serialize)]
struct StepLine {
    line: usize,
    verb: &'static str,
    text: String,
}

/// A table the number reads, directly or through `from`.
#[derive(Debug, Serialize)]
struct TableLine {
    name: String,
    line: usize,
    from: String,
    from_kind: &'static str,
    steps: Vec<StepLine>,
}

/// An input file, its hash now and in the lock.
#[derive(Debug, Serialize)]
struct Input {
    source: String,
    path: String,
    /// blake3 of the file now, or `missing` (an optional source).
    blake3: String,
    /// What `artifact.lock` records for it (`None`: no lock or no record).
    lock_blake3: Option<String>,
    /// Whether the two agree (`None` without a record in the lock).
    matches_lock: Option<bool>,
}

/// A source of rows written in the spec (no file).
#[derive(Debug, Serialize)]
struct Inline {
    source: String,
    line: usize,
}

/// A number the explained one reads.
#[derive(Debug, Serialize)]
struct Read {
    key: String,
    text: Option<String>,
    value: Option<serde_json::Value>,
}

/// The whole explanation, in the order it prints.
#[derive(Debug, Serialize)]
struct Explanation {
    key: String,
    value: serde_json::Value,
    text: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    description: Option<String>,
    spec_line: usize,
    spec_text: String,
    table: Option<String>,
    #[serde(rename = "where")]
    where_: Option<String>,
    rows: usize,
    table_rows: Option<usize>,
    tables: Vec<TableLine>,
    reads: Vec<Read>,
    inputs: Vec<Input>,
    /// Sources of rows written in the spec.
    inline: Vec<Inline>,
    /// `same`, `stale`, `absent` (no record) or `no lock`.
    lock: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    lock_text: Option<String>,
}

/// The error for a key that is not a number of the spec.
fn unknown(spec: &LoadedSpec, key: &str) -> Error {
    let keys = spec.spec.numbers.keys();
    let hint = match other_kind(spec, key) {
        h if h.is_empty() => did_you_mean(key, keys.clone().map(String::as_str)),
        h => h,
    };
    Error::msg(format!(
        "no number named `{}`{hint}\n  numbers: {}",
        shown(key),
        listed(keys)
    ))
}

/// Computes number `key` as `gen` does and tells where it comes from, in
/// `format` (text or json).
pub fn explain(spec: &LoadedSpec, key: &str, format: Format) -> Result<Explained> {
    // A family's member is explained through its family's declaration.
    let decls: Vec<&str> = match spec.spec.numbers.get_key_value(key) {
        Some((k, _)) => vec![k.as_str()],
        None => crate::plan::order::declarations_of(spec, key),
    };
    if decls.is_empty() {
        return Err(unknown(spec, key));
    }
    let plan = crate::plan::Plan::tables_and_numbers(spec)?;
    // As `gen` builds it: the rows streamed from a log keep only the fields
    // something after them reads (explain prints no row), so a big log is
    // held no more than `gen` holds it.
    let cat = Catalog::new(&plan)?.trimming();
    let mut reads: Vec<String> = decls.iter().map(|d| d.to_string()).collect();
    for d in &decls {
        reads.extend(numbers::reads(spec, d));
    }
    let (nums, _) = numbers::compute_selected(spec, &cat, &|_, _| None, &|k| {
        k == key || reads.iter().any(|r| r == k)
    });
    if numbers::family::is_family(spec, key) {
        let members: Vec<&String> = nums
            .list
            .iter()
            .filter(|n| n.family.as_deref() == Some(key))
            .map(|n| &n.key)
            .collect();
        return Err(Error::msg(format!(
            "`{}` is a number family, not a number: explain one of its members ({})",
            shown(key),
            listed(members)
        )));
    }
    let Some(n) = nums.list.iter().find(|n| n.key == key) else {
        return Err(not_computed(nums, key));
    };
    // The declaration it comes from (its family's, for a member).
    let decl = n.family.as_deref().unwrap_or(key);
    let raw = &spec.spec.numbers[decl];
    let reads: Vec<String> = numbers::reads(spec, decl);
    let lock = Lock::read(&spec.root)?;
    let spec_n = raw.get_ref();
    let (spec_line, spec_text) = spec_block(spec, "numbers", decl, raw.span());
    let table = spec_n.table.as_ref().map(|t| t.get_ref().clone());
    let table_rows = match &table {
        Some(t) => Some(cat.table(t)?.rows.len()),
        None => None,
    };
    let sources = input_sources(spec, decl, &reads);
    let inline = sources
        .iter()
        .filter(|s| spec.spec.sources[*s].get_ref().rows.is_some())
        .map(|s| Inline {
            source: s.clone(),
            line: spec_block(spec, "sources", s, spec.spec.sources[s].span()).0,
        })
        .collect();
    let (lock_state, lock_text) = lock_state(lock.as_ref(), n);
    let quoted = crate::spec::parts::quoted_numbers(&spec_text);
    let e = Explanation {
        key: key.to_string(),
        value: to_json(&n.value),
        text: n.text.clone(),
        description: n.description.clone(),
        spec_line,
        spec_text,
        where_: spec_n.where_.as_ref().map(|w| w.get_ref().clone()),
        rows: n.rows,
        table_rows,
        tables: table_chain(&plan, table.as_deref())?,
        table,
        reads: reads_of(&nums.list, &reads, &quoted.keys),
        inputs: inputs(spec, &sources, lock.as_ref())?,
        inline,
        lock: lock_state,
        lock_text,
    };
    let output = match format {
        Format::Json => {
            let mut s =
                serde_json::to_string_pretty(&e).map_err(|e| Error::msg(format!("json: {e}")))?;
            s.push('\n');
            s
        }
        _ => text(&e),
    };
    Ok(Explained {
        output,
        notes: cat.notes(),
    })
}

/// Why number `key` is not among those computed: skipped, its own error,
/// or not computed.
fn not_computed(nums: numbers::Numbers, key: &str) -> Error {
    if let Some((_, why)) = nums.skipped.iter().find(|(k, _)| k == key) {
        return Error::msg(format!("number `{}` is skipped: {why}", shown(key)));
    }
    let what = format!("number `{key}`");
    nums.errors
        .into_iter()
        .find(|e| matches!(e, Error::Context { what: w, .. } if *w == what))
        .unwrap_or_else(|| Error::msg(format!("number `{}` was not computed", shown(key))))
}

/// The sources of declaration `decl` and of the numbers it `reads`.
fn input_sources(
    spec: &LoadedSpec,
    decl: &str,
    reads: &[String],
) -> std::collections::BTreeSet<String> {
    // Its own inputs, and those of the numbers it reads.
    let mut sources = std::collections::BTreeSet::new();
    for k in reads.iter().map(String::as_str).chain([decl]) {
        let n = &spec.spec.numbers[k];
        sources.extend(match &n.get_ref().table {
            Some(t) => Fingerprint::sources_of(spec, [t.get_ref().clone()]),
            None => meta_read(spec, &spec_block(spec, "numbers", k, n.span()).1),
        });
    }
    sources
}

/// The numbers a number reads, with their text and value: a family's
/// members that it quotes, else the family (or number) itself.
fn reads_of(
    list: &[Number],
    reads: &[String],
    quoted: &std::collections::BTreeSet<String>,
) -> Vec<Read> {
    reads
        .iter()
        .flat_map(|r| {
            // A family's members that the number quotes, else the family.
            let members: Vec<&Number> = list
                .iter()
                .filter(|m| m.family.as_ref() == Some(r) && quoted.contains(&m.key))
                .collect();
            let read = |key: &str, m: Option<&Number>| Read {
                key: key.to_string(),
                text: m.map(|m| m.text.clone()),
                value: m.map(|m| to_json(&m.value)),
            };
            match members.as_slice() {
                [] => vec![read(r, list.iter().find(|m| &m.key == r))],
                list => list.iter().map(|m| read(&m.key, Some(m))).collect(),
            }
        })
        .collect()
}

/// The JSON documents whose `meta` a number without a table reads: those
/// its text names (`meta.NAME`, `meta['NAME']`), or all of them when it
/// reads `meta` otherwise (its key in the lock depends on all of them).
fn meta_read(spec: &LoadedSpec, text: &str) -> std::collections::BTreeSet<String> {
    let docs = document_sources(spec);
    let named: std::collections::BTreeSet<String> = docs
        .iter()
        .filter(|d| {
            [
                format!("meta.{d}"),
                format!("meta['{d}']"),
                format!("meta[\\\"{d}\\\"]"),
                format!("meta[\"{d}\"]"),
            ]
            .iter()
            .any(|p| text.contains(p.as_str()))
        })
        .cloned()
        .collect();
    if named.is_empty() && text.contains("meta") {
        return docs.into_iter().collect();
    }
    named
}

/// Whether the lock records `n` as it is now.
fn lock_state(lock: Option<&Lock>, n: &Number) -> (&'static str, Option<String>) {
    let Some(lock) = lock else {
        return ("no lock", None);
    };
    let Some(rec) = lock.numbers.get(&n.key) else {
        return ("absent", None);
    };
    let value = serde_json::to_string(&n.value).unwrap_or_default();
    if rec.text == n.text && rec.value == value {
        ("same", None)
    } else {
        ("stale", Some(rec.text.clone()))
    }
}

/// Table `first` and every table it reads (its `from`, then what its
/// steps look up or add by `union`, and so on), each once with its steps
/// as written.
fn table_chain(plan: &crate::plan::Plan<'_>, first: Option<&str>) -> Result<Vec<TableLine>> {
    let spec = plan.spec;
    let mut out: Vec<TableLine> = Vec::new();
    let mut queue: std::collections::VecDeque<String> =
        first.map(str::to_string).into_iter().collect();
    while let Some(name) = queue.pop_front() {
        // A source of the same name wins, as when the tables are built.
        if spec.spec.sources.contains_key(&name) || out.iter().any(|l| l.name == name) {
            continue;
        }
        let Some(t) = spec.spec.tables.get(&name) else {
            continue;
        };
        let ts = t.get_ref();
        let from = ts.from.get_ref().clone();
        let from_kind = if spec.spec.sources.contains_key(&from) {
            "source"
        } else {
            "table"
        };
        queue.push_back(from.clone());
        let mut steps = Vec::new();
        let compiled = plan.table(&name).map_or(&[][..], |t| &t.steps[..]);
        for (s, step) in ts.steps.iter().zip(compiled) {
            queue.extend(step.dependencies().into_iter().map(String::from));
            steps.push(StepLine {
                line: super::spec_line(spec, s.span().start),
                verb: step.verb(),
                text: one_line(spec, s.span()),
            });
        }
        out.push(TableLine {
            line: spec_block(spec, "tables", &name, t.span()).0,
            name,
            from,
            from_kind,
            steps,
        });
    }
    Ok(out)
}

/// Every file of `sources`, hashed as the lock hashes it.
fn inputs(
    spec: &LoadedSpec,
    sources: &std::collections::BTreeSet<String>,
    lock: Option<&Lock>,
) -> Result<Vec<Input>> {
    let mut out = Vec::new();
    for name in sources {
        let Some(src) = spec.spec.sources.get(name) else {
            continue;
        };
        let list = crate::fingerprint::source_hashes(spec, src)?;
        for (path, hash) in list {
            let recorded = lock.and_then(|l| l.inputs.get(&path)).cloned();
            out.push(Input {
                source: name.clone(),
                matches_lock: recorded.as_ref().map(|r| *r == hash),
                lock_blake3: recorded,
                path,
                blake3: hash,
            });
        }
    }
    Ok(out)
}

fn text(e: &Explanation) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "number {}", shown(&e.key));
    let _ = writeln!(s, "value: {}", e.value);
    let _ = writeln!(s, "text: {}", shown(&e.text));
    let _ = writeln!(s, "spec: artifact.toml:{}", e.spec_line);
    for l in e.spec_text.lines() {
        let _ = writeln!(s, "  {l}");
    }
    match (&e.table, e.table_rows) {
        (Some(t), Some(all)) => {
            let filter = match &e.where_ {
                Some(w) => format!(" where `{w}`"),
                None => String::new(),
            };
            let _ = writeln!(
                s,
                "rows: {} (of {all} in table `{}`{filter})",
                e.rows,
                shown(t)
            );
        }
        _ => {
            let _ = writeln!(s, "rows: none (an expression, no table)");
        }
    }
    for t in &e.tables {
        let _ = writeln!(
            s,
            "table `{}` (artifact.toml:{}), from {} `{}`:",
            shown(&t.name),
            t.line,
            t.from_kind,
            shown(&t.from)
        );
        if t.steps.is_empty() {
            let _ = writeln!(s, "  (no steps)");
        }
        for st in &t.steps {
            let _ = writeln!(s, "  artifact.toml:{}: {}", st.line, st.text);
        }
    }
    if !e.reads.is_empty() {
        let _ = writeln!(s, "reads numbers:");
        for r in &e.reads {
            match (&r.text, &r.value) {
                (Some(t), Some(v)) => {
                    let _ = writeln!(s, "  {} = {} (value {v})", shown(&r.key), shown(t));
                }
                _ => {
                    let _ = writeln!(s, "  {} (not computed)", shown(&r.key));
                }
            }
        }
    }
    for i in &e.inline {
        let _ = writeln!(
            s,
            "source `{}`: rows written in the spec (artifact.toml:{})",
            shown(&i.source),
            i.line
        );
    }
    if e.inputs.is_empty() {
        let _ = writeln!(s, "inputs: none (no file)");
    } else {
        let _ = writeln!(s, "inputs:");
        for i in &e.inputs {
            let state = match (i.matches_lock, &i.lock_blake3, e.lock) {
                (_, _, "no lock") => "no artifact.lock".to_string(),
                (Some(true), _, _) => "matches artifact.lock".to_string(),
                (Some(false), Some(h), _) => {
                    format!("artifact.lock has {h}: changed since the last gen")
                }
                _ => "not in artifact.lock".to_string(),
            };
            let _ = writeln!(s, "  {}  blake3 {}  ({state})", i.path, i.blake3);
        }
    }
    let lock = match (e.lock, &e.lock_text) {
        ("same", _) => "same text and value".to_string(),
        ("stale", Some(t)) => format!(
            "records text `{}`: stale, `artifact gen` updates it",
            shown(t)
        ),
        ("absent", _) => "no record of this number".to_string(),
        _ => "none (run `artifact gen`)".to_string(),
    };
    let _ = writeln!(s, "artifact.lock: {lock}");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unknown_key_lists_the_numbers() {
        let text = "[numbers.mean-ms]\nvalue = { expr = \"1\" }\n";
        let spec = crate::spec::parse(text, std::path::Path::new("artifact.toml")).unwrap();
        assert_eq!(
            unknown(&spec, "mean_ms").to_string(),
            "no number named `mean_ms` (did you mean `mean-ms`?)\n  numbers: `mean-ms`"
        );
    }

    #[test]
    fn a_number_block_runs_to_the_next_header() {
        let text =
            "[numbers.a]\nvalue = { expr = \"1\" }\n\n# b\n[numbers.b]\nvalue = { expr = \"2\" }\n";
        let spec = crate::spec::parse(text, std::path::Path::new("artifact.toml")).unwrap();
        let raw = &spec.spec.numbers["a"];
        assert_eq!(
            spec_block(&spec, "numbers", "a", raw.span()),
            (1, "[numbers.a]\nvalue = { expr = \"1\" }".to_string())
        );
        let raw = &spec.spec.numbers["b"];
        assert_eq!(spec_block(&spec, "numbers", "b", raw.span()).0, 5);
    }
}

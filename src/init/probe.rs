//! What `init` finds out about a data file before it writes its source:
//! its format (the extension's, else its first bytes'), for a JSON
//! document where its records are (the longest array of objects in it),
//! and a sample of its rows to describe and to choose the example from.

use std::io::Read;
use std::path::Path;

use crate::error::{Error, Result, shown};
use crate::sources::limit::DEFAULT_MAX_LINE;
use crate::sources::{Compression, Format, SourceFile};
use crate::spec::LoadedSpec;
use crate::value::Row;

/// At most this many rows of a source are read to describe it: a 1 GiB
/// log is surveyed in the time of its first rows.
pub const SAMPLE_ROWS: usize = 10_000;

/// What the spec's source needs besides its `path`.
#[derive(Debug, Default, PartialEq)]
pub struct Probed {
    /// `format = ...`, when the extension does not say it.
    pub format: Option<&'static str>,
    /// `records = ...` for a JSON document that is not a top-level array.
    pub records: Option<String>,
    /// The other arrays of records found (pointer, length), for a comment.
    pub others: Vec<Found>,
    /// The tool that wrote the file, when init knows its layout.
    pub kind: Option<Kind>,
    /// The `path` to write instead of the file's own: a glob over every
    /// file of the kind (criterion's `**/new/estimates.json`).
    pub path: Option<String>,
}

/// Layouts `init` knows, with a starter spec of their own
/// ([`super::recipes`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// hyperfine's `--export-json`: `results`, one per command, with
    /// `mean`, `stddev` and `times` in seconds.
    Hyperfine,
    /// A Hugging Face Trainer's `trainer_state.json`: `log_history`, with
    /// training rows (`loss`) and evaluation rows (`eval_loss`, ...).
    Trainer,
    /// criterion's `new/estimates.json` (nanoseconds), one per benchmark,
    /// beside its `benchmark.json` (`full_id`).
    Criterion,
    /// Google Benchmark's `--benchmark_out` JSON: `benchmarks`, each
    /// repetition (`run_type = "iteration"`) with `real_time` in
    /// `time_unit`, and the aggregates it computed.
    GoogleBenchmark,
    /// pytest-benchmark's `--benchmark-json`: `benchmarks`, each with its
    /// statistics in seconds under `stats`.
    PytestBenchmark,
}

/// The layout `doc` has, if init knows it (`rel` is its path, `abs` on disk).
fn kind_of(doc: &serde_json::Value, rel: &str, abs: &Path) -> Option<Kind> {
    let first = |k: &str| doc.get(k)?.as_array()?.first()?.as_object();
    if first("results").is_some_and(|r| {
        ["command", "mean", "times"]
            .iter()
            .all(|k| r.contains_key(*k))
    }) {
        return Some(Kind::Hyperfine);
    }
    if first("log_history").is_some() && doc.get("global_step").is_some() {
        return Some(Kind::Trainer);
    }
    if let Some(b) = first("benchmarks") {
        if ["run_name", "run_type", "real_time", "time_unit"]
            .iter()
            .all(|k| b.contains_key(*k))
        {
            return Some(Kind::GoogleBenchmark);
        }
        let stats = b.get("stats").and_then(|s| s.as_object());
        if b.contains_key("name")
            && stats.is_some_and(|s| s.contains_key("mean") && s.contains_key("stddev"))
        {
            return Some(Kind::PytestBenchmark);
        }
    }
    let estimate = |k: &str| doc.get(k).and_then(|v| v.get("point_estimate")).is_some();
    let beside = abs.with_file_name("benchmark.json");
    if estimate("mean")
        && estimate("median")
        && rel.ends_with("/new/estimates.json")
        && beside.is_file()
    {
        return Some(Kind::Criterion);
    }
    None
}

/// For criterion's `…/criterion/<bench>/new/estimates.json`: the glob over
/// every benchmark of that `criterion` folder (the file alone elsewhere).
fn criterion_glob(rel: &str) -> Option<String> {
    let at = rel.rfind("criterion/")? + "criterion/".len();
    Some(format!(
        "{}**/new/estimates.json",
        glob::Pattern::escape(&rel[..at])
    ))
}

/// The spec's name of a format.
fn key_of(f: Format) -> &'static str {
    match f {
        Format::Jsonl => "jsonl",
        Format::Json => "json",
        Format::Csv => "csv",
        Format::Parquet => "parquet",
    }
}

/// Probes the file at `abs` (shown as `rel`). `format` is `--format`
/// (`"jsonl"`, `"csv"`, ...), `records` is `--records`.
///
/// Errors: the file cannot be read or decompressed; a JSON document with
/// several arrays of records of the same largest length (which one is
/// the user's to say, with `--records`).
pub fn probe(abs: &Path, rel: &str, format: Option<&str>, records: Option<&str>) -> Result<Probed> {
    let named = crate::sources::format_of(rel);
    let (fmt, written) = match format {
        Some(f) => {
            let fmt = match f {
                "jsonl" | "ndjson" => Format::Jsonl,
                "json" => Format::Json,
                "csv" | "tsv" => Format::Csv,
                "parquet" => Format::Parquet,
                other => {
                    return Err(Error::msg(format!(
                        "--format {}: one of jsonl, json, csv, tsv, parquet",
                        shown(other)
                    )));
                }
            };
            let key: &'static str = match f {
                "tsv" => "tsv",
                "ndjson" => "ndjson",
                _ => key_of(fmt),
            };
            (fmt, (named != Some(fmt) || f == "tsv").then_some(key))
        }
        None => match named {
            Some(f) => (f, None),
            None => {
                let f = sniff(&open(abs, rel, SNIFF_BYTES)?)?;
                (f, Some(key_of(f)))
            }
        },
    };
    let mut out = Probed {
        format: written,
        ..Probed::default()
    };
    if let Some(r) = records {
        out.records = Some(r.to_string());
    } else if fmt == Format::Json {
        // An unreadable document is `gen`'s error to give, with its line.
        if let Ok(doc) =
            serde_json::from_slice::<serde_json::Value>(&open(abs, rel, DEFAULT_MAX_LINE)?)
        {
            let (records, others) = find_records(&doc, rel)?;
            out.records = records;
            out.others = others;
            out.kind = kind_of(&doc, rel, abs);
            if out.kind == Some(Kind::Criterion) {
                out.path = criterion_glob(rel);
            }
        }
    }
    Ok(out)
}

/// How much of a file's start tells its format (a first JSON line longer
/// than this is taken for a document).
const SNIFF_BYTES: u64 = 1 << 20;

/// The file's text (decompressed), up to `limit` bytes.
fn open(abs: &Path, rel: &str, limit: u64) -> Result<Vec<u8>> {
    let lower = rel.to_ascii_lowercase();
    let compression = Compression::of_name(&lower)
        .1
        .unwrap_or_else(|| Compression::sniff(abs));
    let file = SourceFile {
        rel: rel.to_string(),
        abs: abs.to_path_buf(),
        format: Format::Json,
        compression,
        max_line: DEFAULT_MAX_LINE,
        dialect: None,
        partition: None,
    };
    let mut bytes = Vec::new();
    crate::sources::open(&file)?
        .take(limit)
        .read_to_end(&mut bytes)
        .map_err(|e| crate::sources::compress::read_error(&file, &e, None))?;
    Ok(bytes)
}

/// The format of text that no extension names: Parquet by its magic
/// number, JSON Lines when the first line is a whole JSON object and
/// another follows, a JSON document when it starts with `{` or `[`
/// otherwise, else CSV.
fn sniff(bytes: &[u8]) -> Result<Format> {
    if bytes.starts_with(b"PAR1") {
        return Ok(Format::Parquet);
    }
    let text = bytes.strip_prefix(b"\xef\xbb\xbf").unwrap_or(bytes);
    let start = text.iter().position(|b| !b.is_ascii_whitespace());
    let Some(start) = start else {
        return Ok(Format::Csv);
    };
    let text = &text[start..];
    match text[0] {
        b'[' => Ok(Format::Json),
        b'{' => {
            let mut lines = text
                .split(|&b| b == b'\n')
                .filter(|l| !l.trim_ascii().is_empty());
            let first = lines.next().unwrap_or_default();
            let whole = serde_json::from_slice::<serde_json::Value>(first).is_ok();
            let more = lines
                .next()
                .is_some_and(|l| l.trim_ascii().starts_with(b"{"));
            Ok(if whole && more {
                Format::Jsonl
            } else {
                Format::Json
            })
        }
        _ => Ok(Format::Csv),
    }
}

/// RFC 6901's escape of one key of a JSON pointer.
fn escape(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

/// An array of records found: its JSON pointer and length.
type Found = (String, usize);

/// The arrays of objects in `v` (not inside one another): their pointers
/// and lengths, in key order (serde_json's map is sorted); at most 100, at most 32 levels deep.
fn arrays_of_records(
    v: &serde_json::Value,
    at: &str,
    depth: usize,
    out: &mut Vec<(String, usize)>,
) {
    if depth > 32 || out.len() >= 100 {
        return;
    }
    match v {
        serde_json::Value::Array(items)
            if !items.is_empty() && items.iter().all(|i| i.is_object()) =>
        {
            out.push((at.to_string(), items.len()));
        }
        serde_json::Value::Object(map) => {
            for (k, item) in map {
                arrays_of_records(item, &format!("{at}/{}", escape(k)), depth + 1, out);
            }
        }
        _ => {}
    }
}

/// Where a JSON document's records are: `None` for a top-level array,
/// else the longest array of objects in it (`""`, the whole document as
/// one record, when it has none), with the other arrays found.
fn find_records(doc: &serde_json::Value, rel: &str) -> Result<(Option<String>, Vec<Found>)> {
    if !doc.is_object() {
        return Ok((None, Vec::new()));
    }
    let mut found = Vec::new();
    arrays_of_records(doc, "", 0, &mut found);
    // Longest first; key order among equals (a stable sort).
    found.sort_by_key(|(_, n)| std::cmp::Reverse(*n));
    match found.as_slice() {
        [] => Ok((Some(String::new()), Vec::new())),
        [(_, a), (_, b), ..] if a == b => {
            let list: Vec<String> = found
                .iter()
                .map(|(p, n)| format!("{p} ({n} record{})", if *n == 1 { "" } else { "s" }))
                .collect();
            Err(Error::msg(format!(
                "{}: which array holds the records? {}: pass `--records POINTER`",
                shown(rel),
                list.join(", ")
            )))
        }
        _ => {
            let best = found.remove(0);
            Ok((Some(best.0), found))
        }
    }
}

/// The first rows of source `name` of `draft` (at most [`SAMPLE_ROWS`]),
/// read as `gen` reads them, and whether the source has more.
pub fn sample(draft: &LoadedSpec, name: &str) -> Result<(Vec<Row>, bool)> {
    let src = draft
        .spec
        .sources
        .get(name)
        .ok_or_else(|| Error::msg(format!("no source `{name}`")))?;
    let mut rows = Vec::new();
    let mut more = false;
    let read = crate::sources::stream(draft, name, src, None, &mut |row| {
        if rows.len() == SAMPLE_ROWS {
            more = true;
            // Stops the read: the sample is full.
            return Err(Error::msg("the sample is full"));
        }
        rows.push(row);
        Ok(())
    });
    match read {
        Err(_) if more => Ok((rows, true)),
        Err(e) => Err(e),
        Ok(_) => Ok((rows, false)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(bytes: &[u8]) -> serde_json::Value {
        serde_json::from_slice(bytes).unwrap()
    }

    #[test]
    fn sniffing_tells_jsonl_from_a_pretty_json_document_and_csv() {
        assert_eq!(sniff(b"{\"a\": 1}\n{\"a\": 2}\n").unwrap(), Format::Jsonl);
        assert_eq!(sniff(b"{\n  \"context\": {}\n}\n").unwrap(), Format::Json);
        assert_eq!(sniff(b"{\"a\": 1}\n").unwrap(), Format::Json);
        assert_eq!(sniff(b"  [1, 2]").unwrap(), Format::Json);
        assert_eq!(sniff(b"name,time\nx,1\n").unwrap(), Format::Csv);
        assert_eq!(sniff(b"PAR1....").unwrap(), Format::Parquet);
    }

    #[test]
    fn the_longest_array_of_objects_holds_the_records() {
        let gbench = br#"{"context": {"caches": [{"type": "L1"}, {"type": "L2"}]},
            "benchmarks": [{"name": "a"}, {"name": "b"}, {"name": "c"}]}"#;
        let (r, others) = find_records(&doc(gbench), "b.json").unwrap();
        assert_eq!(r.as_deref(), Some("/benchmarks"));
        assert_eq!(others, vec![("/context/caches".to_string(), 2)]);
        // A flat summary is one record; a top-level array needs no pointer.
        let flat = br#"{"epoch": 3.0, "eval_accuracy": 0.8459}"#;
        assert_eq!(
            find_records(&doc(flat), "r.json").unwrap().0.as_deref(),
            Some("")
        );
        assert_eq!(
            find_records(&doc(b"[{\"a\": 1}]"), "r.json").unwrap().0,
            None
        );
        // A key with `/` or `~` is escaped as RFC 6901 says.
        let odd = br#"{"a/b~": [{"x": 1}]}"#;
        assert_eq!(
            find_records(&doc(odd), "r.json").unwrap().0.as_deref(),
            Some("/a~1b~0")
        );
    }

    #[test]
    fn two_arrays_of_the_same_length_are_a_question_not_a_guess() {
        let two = br#"{"train": [{"x": 1}], "eval": [{"x": 2}]}"#;
        assert_eq!(
            find_records(&doc(two), "m.json").unwrap_err().to_string(),
            "m.json: which array holds the records? /eval (1 record), /train (1 record): pass `--records POINTER`"
        );
    }
}

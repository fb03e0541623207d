//! Issue 28, item 1, the consumers that still held rows: a number family
//! (`each`) over a source, or over a table of streaming steps over one, is
//! folded on the stream (one group step keyed by its `per` fields, or a
//! member per row by the fields its templates read), so it holds one
//! accumulator per member; a figure or results table reading a CSV or
//! Parquet source holds only the fields it draws, as for JSONL.

mod common;

use std::fmt::Write as _;
use std::path::Path;

use common::{artifact, numbers, numpy_median, stderr, write_requests_log};

/// Families over the log: one member per `op` (through a table of
/// streaming steps), one per row of the first twenty (straight on the
/// source), one per pair of fields.
const FAMILIES: &str = r#"
[sources.log]
path = "data/log.jsonl"

[tables.timed]
from = "log"
steps = [{ derive = { us = "latency_ms * 1000" } }]

[numbers.op-median]
table = "timed"
each = "{{ op }}-median"
per = "op"
value = { median = "latency_ms" }
uncertainty = { low = { ci95 = "latency_ms", bound = "low" }, high = { ci95 = "latency_ms", bound = "high" } }
description = "median latency of {{ op }}"

[numbers.lat]
table = "log"
where = "t < 20"
each = "lat{{ t }}"
value = { cell = "latency_ms" }
description = "request {{ t }} ({{ op }})"

[numbers.op-ok]
table = "timed"
where = "ok is defined and ok is not none"
each = "{{ op }}-{{ 'ok' if ok else 'failed' }}"
per = ["op", "ok"]
value = { quantile = "us", q = 0.99 }
format = { figures = 3 }
"#;

/// A table reading `timed` whole (`tojson`), so `timed` is held with
/// every field: the families over it are computed over held rows.
const HOLD_TIMED: &str = r#"
[tables.whole]
from = "timed"
steps = [{ derive = { j = "_ | tojson" } }]
"#;

fn gen_ok(dir: &Path, args: &[&str]) {
    let mut all = vec!["gen"];
    all.extend(args);
    let out = artifact(dir, &all);
    assert!(out.status.success(), "{}", stderr(&out));
}

#[test]
fn families_over_a_log_fold_under_a_one_mebibyte_cap() {
    // 10,000 rows of about 1.2 KiB (11 MiB); held, even trimmed to the
    // fields read, they would pass the cap.
    let dir = tempfile::tempdir().unwrap();
    let lat = write_requests_log(dir.path(), 10_000);
    std::fs::write(dir.path().join("artifact.toml"), FAMILIES).unwrap();
    gen_ok(dir.path(), &["--max-memory", "2MiB"]);
    let n = numbers(dir.path());
    for (i, op) in ["get", "put", "scan"].iter().enumerate() {
        let xs: Vec<f64> = lat.iter().skip(i).step_by(3).copied().collect();
        let m = &n[format!("{op}-median")];
        assert_eq!(m["value"].as_f64().unwrap(), numpy_median(&xs), "{op}");
        assert_eq!(m["rows"], xs.len());
        assert_eq!(m["description"], format!("median latency of {op}"));
    }
    for t in 0..20 {
        let m = &n[format!("lat{t}")];
        assert_eq!(m["value"].as_f64().unwrap(), lat[t], "{t}");
        assert_eq!(
            m["description"],
            format!("request {t} ({})", ["get", "put", "scan"][t % 3])
        );
    }
    // One member per pair (`op`, `ok`), over the rows where `ok` is not
    // null (every 97th).
    let ok: Vec<&str> = n
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .filter(|k| k.ends_with("-ok") || k.ends_with("-failed"))
        .collect();
    assert_eq!(
        ok,
        [
            "get-failed",
            "get-ok",
            "put-failed",
            "put-ok",
            "scan-failed",
            "scan-ok"
        ]
    );
    let failed_gets = (0..10_000)
        .filter(|t| t % 3 == 0 && t % 13 == 0 && t % 97 != 0)
        .count();
    assert_eq!(n["get-failed"]["rows"], failed_gets);
}

#[test]
fn families_over_held_rows_pass_the_one_mebibyte_cap() {
    // The same families over `timed` held whole: what folding saves.
    let dir = tempfile::tempdir().unwrap();
    write_requests_log(dir.path(), 3000);
    std::fs::write(
        dir.path().join("artifact.toml"),
        format!("{FAMILIES}{HOLD_TIMED}"),
    )
    .unwrap();
    let out = artifact(dir.path(), &["gen", "--max-memory", "1MiB"]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(err.contains("error: table `timed` holds "), "{err}");
    assert!(err.contains("over the memory cap of 1 MiB"), "{err}");
}

#[test]
fn a_folded_family_writes_the_bytes_of_the_family_over_held_rows() {
    let dir = tempfile::tempdir().unwrap();
    write_requests_log(dir.path(), 3000);
    let outputs = [
        "generated/numbers.json",
        "generated/macros.tex",
        "generated/macros.typ",
    ];
    std::fs::write(dir.path().join("artifact.toml"), FAMILIES).unwrap();
    gen_ok(dir.path(), &[]);
    let folded: Vec<Vec<u8>> = outputs
        .iter()
        .map(|o| std::fs::read(dir.path().join(o)).unwrap())
        .collect();
    std::fs::write(
        dir.path().join("artifact.toml"),
        format!("{FAMILIES}{HOLD_TIMED}"),
    )
    .unwrap();
    gen_ok(dir.path(), &["--force"]);
    for (o, before) in outputs.iter().zip(&folded) {
        let held = std::fs::read(dir.path().join(o)).unwrap();
        assert_eq!(
            String::from_utf8_lossy(before),
            String::from_utf8_lossy(&held),
            "{o}"
        );
    }
    let json = String::from_utf8_lossy(&folded[0]);
    assert!(json.contains("\"get-median\""), "{json}");
}

#[test]
fn a_null_key_of_a_folded_family_is_told_as_over_held_rows() {
    let dir = tempfile::tempdir().unwrap();
    write_requests_log(dir.path(), 300);
    let spec = r#"
[sources.log]
path = "data/log.jsonl"

[numbers.by-ok]
table = "log"
each = "ok-{{ ok }}"
per = "ok"
value = "count"
"#;
    std::fs::write(dir.path().join("artifact.toml"), spec).unwrap();
    let out = artifact(dir.path(), &["gen"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains(
            "error: number family `by-ok`: artifact.toml line 5: row 1 of table `log` (data/log.jsonl:1) has a null `ok`, read by `per`: a key is never made from a null (leave such rows out with `where`)\n"
        ),
        "{}",
        stderr(&out)
    );
}

#[test]
fn two_rows_giving_one_key_are_told_as_over_held_rows() {
    let dir = tempfile::tempdir().unwrap();
    write_requests_log(dir.path(), 300);
    let spec = r#"
[sources.log]
path = "data/log.jsonl"

[numbers.by-op]
table = "log"
each = "op-{{ op }}"
value = { cell = "t" }
"#;
    std::fs::write(dir.path().join("artifact.toml"), spec).unwrap();
    let out = artifact(dir.path(), &["gen"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains(
            "error: number family `by-op`: artifact.toml line 5: row 1 of table `log` (op = \"get\") and row 4 of table `log` (op = \"get\") both give the key `op-get`\n"
        ),
        "{}",
        stderr(&out)
    );
}

#[path = "parquet_files/mod.rs"]
mod parquet_files;

/// The wide data of [`parquet_files::write_wide`] (`k` = row % 3 as text,
/// `c{i}` = i * row) as JSONL and as CSV (`k` prefixed with `k` so that
/// CSV reads it as text too).
fn write_wide_text(dir: &Path, columns: usize, rows: i64) {
    let mut jsonl = String::new();
    let mut csv = String::from("k");
    for i in 0..columns {
        write!(csv, ",c{i}").unwrap();
    }
    csv.push('\n');
    for r in 0..rows {
        write!(jsonl, r#"{{"k":"{}""#, r % 3).unwrap();
        write!(csv, "{}", r % 3).unwrap();
        for i in 0..columns as i64 {
            write!(jsonl, r#","c{i}":{}"#, i * r).unwrap();
            write!(csv, ",{}", i * r).unwrap();
        }
        jsonl.push_str("}\n");
        csv.push('\n');
    }
    std::fs::write(dir.join("wide.jsonl"), jsonl).unwrap();
    std::fs::write(dir.join("wide.csv"), csv).unwrap();
}

/// A figure and a results table drawing two columns of a wide source, and
/// a number over it.
const WIDE: &str = r#"
[sources.wide]
path = "wide.FORMAT"

[figures.w]
size = [4, 3]
layers = [{ mark = "point", data = "wide", x = "c1", y = "c2" }]

[results_tables.r]
from = "wide"
columns = [{ field = "c3", header = "three" }, { field = "c4", header = "four" }]

[numbers.total]
table = "wide"
value = { sum = "c5" }
"#;

/// A table reading the wide source whole (`tojson`): the source is then
/// held with every field, as every CSV and Parquet source was before.
const WHOLE: &str = r#"
[tables.whole]
from = "wide"
steps = [{ derive = { j = "_ | tojson" } }]
"#;

/// The outputs of [`WIDE`].
const WIDE_OUTPUTS: [&str; 4] = [
    "figures/w.csv",
    "generated/r.csv",
    "generated/r.tex",
    "generated/numbers.json",
];

/// Runs `gen` (with `args`) on [`WIDE`] over `wide.FORMAT` (plus `extra`)
/// and returns the bytes of [`WIDE_OUTPUTS`].
fn wide_outputs(dir: &Path, format: &str, extra: &str, args: &[&str]) -> Vec<String> {
    let spec = format!("{}{extra}", WIDE.replace("FORMAT", format));
    std::fs::write(dir.join("artifact.toml"), spec).unwrap();
    let mut all = vec!["gen", "--force"];
    all.extend(args);
    let out = artifact(dir, &all);
    assert!(out.status.success(), "{format}: {}", stderr(&out));
    WIDE_OUTPUTS
        .iter()
        .map(|o| std::fs::read_to_string(dir.join(o)).unwrap())
        .collect()
}

#[test]
fn a_figure_on_a_wide_csv_or_parquet_source_holds_only_the_fields_it_draws() {
    // 3,000 rows of 41 columns: about 6 MiB held whole, 1.3 MiB with the
    // five columns read (about 434 B a row).
    let dir = tempfile::tempdir().unwrap();
    write_wide_text(dir.path(), 40, 3000);
    parquet_files::write_wide(&dir.path().join("wide.parquet"), 40, 3000);
    let jsonl = wide_outputs(dir.path(), "jsonl", "", &["--max-memory", "2MiB"]);
    assert_eq!(jsonl[0].lines().count(), 3001);
    assert!(jsonl[3].contains("\"value\": 22492500"), "{}", jsonl[3]);
    for format in ["csv", "parquet"] {
        let trimmed = wide_outputs(dir.path(), format, "", &["--max-memory", "2MiB"]);
        for ((o, a), b) in WIDE_OUTPUTS.iter().zip(&jsonl).zip(&trimmed) {
            assert_eq!(a, b, "{format}: {o}");
        }
        // Held whole, as before: the same bytes, and past the cap.
        let whole = wide_outputs(dir.path(), format, WHOLE, &[]);
        assert_eq!(whole, trimmed, "{format}");
        let spec = format!("{}{WHOLE}", WIDE.replace("FORMAT", format));
        std::fs::write(dir.path().join("artifact.toml"), spec).unwrap();
        let out = artifact(dir.path(), &["gen", "--force", "--max-memory", "2MiB"]);
        assert_eq!(out.status.code(), Some(2), "{format}");
        assert!(
            stderr(&out).contains("error: source `wide`: the source holds "),
            "{format}: {}",
            stderr(&out)
        );
    }
}

#[test]
fn a_missing_field_of_a_trimmed_csv_or_parquet_row_lists_every_field_of_the_file() {
    // The message lists the file's columns (read again), not the few the
    // figure's rows kept: as when the source was held whole.
    let dir = tempfile::tempdir().unwrap();
    write_wide_text(dir.path(), 3, 10);
    parquet_files::write_wide(&dir.path().join("wide.parquet"), 3, 10);
    let spec = r#"
[sources.wide]
path = "wide.FORMAT"

[figures.w]
size = [4, 3]
layers = [{ mark = "point", data = "wide", x = "c1", y = "c22" }]
"#;
    for (format, line) in [("csv", 2), ("parquet", 1), ("jsonl", 1)] {
        for extra in ["", WHOLE] {
            let text = format!("{}{extra}", spec.replace("FORMAT", format));
            std::fs::write(dir.path().join("artifact.toml"), text).unwrap();
            let out = artifact(dir.path(), &["gen", "--force"]);
            assert_eq!(out.status.code(), Some(2));
            let want = format!(
                "error: figure `w`: wide.{format}:{line}: no field `c22` in table `wide` (fields: k, c0, c1, c2); did you mean `c2`?\n"
            );
            assert!(
                stderr(&out).contains(&want),
                "{format} {extra}: {}",
                stderr(&out)
            );
        }
    }
}

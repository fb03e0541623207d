//! Issue 28, item 1: every consumer streams. A number reading a source (or
//! a table of row-wise steps over one) is folded on the stream as a group
//! step is, so it holds no rows; a figure reading a source holds only the
//! fields it draws; a run whose rows would pass the memory cap
//! (`--max-memory`) stops with an error naming the table and the cap.

mod common;

use std::fmt::Write as _;

use common::{artifact, numbers, numbers_on_both_paths, numpy_median, write_requests_log};

/// The numbers, each read straight from the log.
const STRAIGHT: &str = r#"
[sources.log]
path = "data/log.jsonl"

[tables.gets]
from = "log"
steps = [
  { filter = "op == 'get'" },
  { derive = { us = "latency_ms * 1000" } },
]

[numbers.requests]
table = "log"
value = "count"

[numbers.total]
table = "log"
value = { sum = "latency_ms" }

[numbers.median]
table = "log"
value = { median = "latency_ms" }

[numbers.p99]
table = "log"
where = "ok is defined and ok"
value = { quantile = "latency_ms", q = 0.99 }

[numbers.mean]
table = "log"
value = { mean = "latency_ms" }
uncertainty = { low = { ci95 = "latency_ms", bound = "low" }, high = { ci95 = "latency_ms", bound = "high" } }

[numbers.boot]
table = "log"
value = { mean = "latency_ms" }
uncertainty = { low = { ci95 = "latency_ms", bound = "low", method = "bootstrap", seed = 7, resamples = 200 }, high = { ci95 = "latency_ms", bound = "high", method = "bootstrap", seed = 7, resamples = 200 } }

[numbers.spread]
table = "log"
value = { mean = "latency_ms" }
uncertainty = { std = "latency_ms" }

[numbers.fastest]
table = "log"
value = { min = "latency_ms" }

[numbers.slowest]
table = "log"
value = { max = "latency_ms" }

[numbers.first-op]
table = "log"
value = { first = "op" }

[numbers.last-op]
table = "log"
value = { last = "op" }

[numbers.the-tenth]
table = "log"
where = "t == 10"
value = { cell = "latency_ms" }

[numbers.get-median-us]
table = "gets"
value = { median = "us" }
"#;

/// The same numbers through group steps, each read with `cell`.
const GROUPED: &str = r#"
[sources.log]
path = "data/log.jsonl"

[tables.all]
from = "log"
steps = [{ group = [], aggregate = { requests = "count", total = { sum = "latency_ms" }, median = { median = "latency_ms" }, mean = { mean = "latency_ms" }, lo = { ci95 = "latency_ms", bound = "low" }, hi = { ci95 = "latency_ms", bound = "high" }, blo = { ci95 = "latency_ms", bound = "low", method = "bootstrap", seed = 7, resamples = 200 }, bhi = { ci95 = "latency_ms", bound = "high", method = "bootstrap", seed = 7, resamples = 200 }, sd = { std = "latency_ms" }, fastest = { min = "latency_ms" }, slowest = { max = "latency_ms" }, first = { first = "op" }, last = { last = "op" } } }]

[tables.ok]
from = "log"
steps = [{ filter = "ok is defined and ok" }, { group = [], aggregate = { p99 = { quantile = "latency_ms", q = 0.99 } } }]

[tables.tenth]
from = "log"
steps = [{ filter = "t == 10" }, { group = [], aggregate = { x = { first = "latency_ms" } } }]

[tables.gets]
from = "log"
steps = [
  { filter = "op == 'get'" },
  { derive = { us = "latency_ms * 1000" } },
  { group = [], aggregate = { m = { median = "us" } } },
]

[numbers.requests]
table = "all"
value = { cell = "requests" }

[numbers.total]
table = "all"
value = { cell = "total" }

[numbers.median]
table = "all"
value = { cell = "median" }

[numbers.p99]
table = "ok"
value = { cell = "p99" }

[numbers.mean]
table = "all"
value = { cell = "mean" }
uncertainty = { low = { cell = "lo" }, high = { cell = "hi" } }

[numbers.boot]
table = "all"
value = { cell = "mean" }
uncertainty = { low = { cell = "blo" }, high = { cell = "bhi" } }

[numbers.spread]
table = "all"
value = { cell = "mean" }
uncertainty = { cell = "sd" }

[numbers.fastest]
table = "all"
value = { cell = "fastest" }

[numbers.slowest]
table = "all"
value = { cell = "slowest" }

[numbers.first-op]
table = "all"
value = { cell = "first" }

[numbers.last-op]
table = "all"
value = { cell = "last" }

[numbers.the-tenth]
table = "tenth"
value = { cell = "x" }

[numbers.get-median-us]
table = "gets"
value = { cell = "m" }
"#;

/// Each number's value, text and uncertainty (not its table or rows).
fn values(all: &serde_json::Value) -> Vec<(String, serde_json::Value)> {
    all.as_object()
        .unwrap()
        .iter()
        .map(|(k, n)| {
            (
                k.clone(),
                serde_json::json!([n["value"], n["text"], n["uncertainty"]]),
            )
        })
        .collect()
}

#[test]
fn numbers_straight_on_a_log_equal_the_same_numbers_through_group_steps() {
    let dir = tempfile::tempdir().unwrap();
    let lat = write_requests_log(dir.path(), 3000);
    std::fs::write(dir.path().join("artifact.toml"), STRAIGHT).unwrap();
    // Straight on the log: the fast path and the generic one agree.
    let straight = numbers_on_both_paths(dir.path());
    std::fs::write(dir.path().join("artifact.toml"), GROUPED).unwrap();
    let grouped = numbers_on_both_paths(dir.path());
    assert_eq!(values(&straight), values(&grouped));
    // And they are the values themselves.
    assert_eq!(straight["requests"]["value"], 3000);
    assert_eq!(straight["requests"]["rows"], 3000);
    assert_eq!(
        straight["median"]["value"].as_f64().unwrap(),
        numpy_median(&lat)
    );
    let fastest = lat.iter().copied().fold(f64::INFINITY, f64::min);
    assert_eq!(straight["fastest"]["value"].as_f64().unwrap(), fastest);
    assert_eq!(straight["the-tenth"]["value"].as_f64().unwrap(), lat[10]);
    assert_eq!(straight["first-op"]["value"], "get");
    assert_eq!(straight["last-op"]["value"], "scan");
    let total: f64 = lat.iter().sum();
    assert_eq!(straight["total"]["value"].as_f64().unwrap(), total);
    // `where` counts the rows it keeps: no `ok` on every 97th, false on
    // every 13th.
    let kept = (0..3000).filter(|t| t % 97 != 0 && t % 13 != 0).count();
    assert_eq!(straight["p99"]["rows"], kept);
    let gets: Vec<f64> = lat.iter().step_by(3).map(|x| x * 1000.0).collect();
    assert_eq!(
        straight["get-median-us"]["value"].as_f64().unwrap(),
        numpy_median(&gets)
    );
}

#[test]
fn numbers_straight_on_a_log_hold_no_rows_under_a_one_mebibyte_cap() {
    // 3,000 rows of about 1.2 KiB: 3.5 MiB if held.
    let dir = tempfile::tempdir().unwrap();
    write_requests_log(dir.path(), 3000);
    std::fs::write(dir.path().join("artifact.toml"), STRAIGHT).unwrap();
    let out = artifact(dir.path(), &["gen", "--max-memory", "1MiB"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(numbers(dir.path())["requests"]["value"], 3000);
}

/// A figure drawing `t` and `latency_ms` of the log.
const FIGURE: &str = r#"
[sources.log]
path = "data/log.jsonl"

[figures.lat]
size = [4, 3]
layers = [{ mark = "point", data = "log", x = "t", y = "latency_ms" }]
"#;

#[test]
fn a_figure_on_a_log_holds_only_the_fields_it_draws() {
    // 3,000 rows: about 0.6 MiB with the two fields drawn, 3.3 MiB whole.
    let dir = tempfile::tempdir().unwrap();
    write_requests_log(dir.path(), 3000);
    std::fs::write(dir.path().join("artifact.toml"), FIGURE).unwrap();
    let out = artifact(dir.path(), &["gen", "--max-memory", "1MiB"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let csv = std::fs::read_to_string(dir.path().join("figures/lat.csv")).unwrap();
    assert_eq!(csv.lines().count(), 3001);
}

#[test]
fn rows_past_the_memory_cap_stop_the_run_naming_the_source_and_the_cap() {
    // A figure drawing `pad` (as its colour) holds it: about 1.3 KiB a
    // row, though a CSV source's rows keep only the fields drawn.
    let dir = tempfile::tempdir().unwrap();
    let lat = write_requests_log(dir.path(), 3000);
    let mut csv = String::from("t,op,latency_ms,pad\n");
    for (t, x) in lat.iter().enumerate() {
        writeln!(csv, "{t},get,{x},{}", "x".repeat(1000)).unwrap();
    }
    std::fs::write(dir.path().join("data/log.csv"), csv).unwrap();
    let spec = FIGURE.replace("log.jsonl", "log.csv").replace(
        r#"y = "latency_ms""#,
        r#"y = "latency_ms", color = { field = "pad" }"#,
    );
    std::fs::write(dir.path().join("artifact.toml"), &spec).unwrap();
    let out = artifact(dir.path(), &["gen", "--max-memory", "1MiB"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "wrote generated/macros.tex\nwrote generated/macros.typ\nwrote generated/numbers.json\n\
         wrote artifact.lock\n\
         error: figure `lat`: table `log` holds 811 row(s) of about 1.3 KiB each, \
         and the run's rows would go over the memory cap of 1 MiB: read it through a step that \
         streams (a `group` step, or a number straight on it: docs/explanation/streaming.md), \
         keep fewer fields, or raise the cap with `--max-memory` (or ARTIFACT_MAX_MEMORY)\n\
         1 part(s) failed; their previous outputs are left as they were\n"
    );
    // The environment sets the cap too.
    let out = assert_cmd::Command::cargo_bin("artifact")
        .unwrap()
        .current_dir(dir.path())
        .env("ARTIFACT_MAX_MEMORY", "64MiB")
        .arg("gen")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn a_group_per_record_passes_the_cap_naming_its_table() {
    let dir = tempfile::tempdir().unwrap();
    write_requests_log(dir.path(), 3000);
    let spec = r#"
[sources.log]
path = "data/log.jsonl"

[tables.each]
from = "log"
steps = [{ group = ["t", "pad"], aggregate = { n = "count" } }]

[numbers.groups]
table = "each"
value = "count"
"#;
    std::fs::write(dir.path().join("artifact.toml"), spec).unwrap();
    let out = artifact(dir.path(), &["gen", "--max-memory", "1MiB"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("error: number `groups`: table `each`, step 1 (group, artifact.toml line 7): the group step holds "),
        "{err}"
    );
    assert!(err.contains("over the memory cap of 1 MiB"), "{err}");
}

#[test]
fn notes_of_a_table_only_numbers_read_are_told_once() {
    let dir = tempfile::tempdir().unwrap();
    write_requests_log(dir.path(), 300);
    let spec = r#"
[sources.log]
path = "data/log.jsonl"

[tables.ok]
from = "log"
steps = [{ filter = "ok" }]

[numbers.n-ok]
table = "ok"
value = "count"

[numbers.m-ok]
table = "ok"
where = "latency_ms > 0"
value = { median = "latency_ms" }
"#;
    std::fs::write(dir.path().join("artifact.toml"), spec).unwrap();
    let out = artifact(dir.path(), &["gen"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let err = String::from_utf8_lossy(&out.stderr);
    let notes: Vec<&str> = err.lines().filter(|l| l.starts_with("note:")).collect();
    assert_eq!(notes.len(), 1, "{err}");
    assert!(
        notes[0].starts_with("note: table `ok`: filter `ok` dropped 4 row(s) where `ok` is "),
        "{err}"
    );
    let kept = (0..300).filter(|t| t % 97 != 0 && t % 13 != 0).count();
    assert_eq!(numbers(dir.path())["n-ok"]["value"], kept);
}

#[test]
fn a_failing_number_does_not_fail_the_numbers_folded_with_it() {
    // `bad` shares its table and `where` with the others: one group step
    // for all of them fails, then each is folded alone.
    let dir = tempfile::tempdir().unwrap();
    let lat = write_requests_log(dir.path(), 3000);
    let spec =
        format!("{STRAIGHT}\n[numbers.bad]\ntable = \"log\"\nvalue = {{ median = \"op\" }}\n");
    std::fs::write(dir.path().join("artifact.toml"), spec).unwrap();
    let out = artifact(dir.path(), &["gen", "--max-memory", "1MiB"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    let errors: Vec<&str> = err.lines().filter(|l| l.starts_with("error:")).collect();
    assert_eq!(
        errors,
        [
            "error: number `bad`: table `log`: data/log.jsonl:1: field `op`: expected a number, found string \"get\""
        ],
        "{err}"
    );
    let got = numbers(dir.path());
    assert_eq!(got["median"]["value"].as_f64().unwrap(), numpy_median(&lat));
    assert_eq!(got["requests"]["value"], 3000);
}

//! `artifact show` and `artifact explain`: looking at the data while
//! writing the spec. Exact outputs on a small project.

mod common;

use std::path::Path;
use std::process::Stdio;

use common::small::{stderr, stdout};
use common::{artifact, snapshot};

const SPEC: &str = r#"[sources.runs]
path = "data/runs.csv"

[sources.labels]
rows = [
  { name = "red\u001b[31m", note = "a note that is much longer than thirty-two columns" },
  { name = "plain", size = 3 },
]

[tables.fast]
from = "runs"
steps = [
  { filter = "ms < 4" },
  { derive = { "per op" = "ms / n", tag = "'run ' ~ n" } },
]

[numbers.mean-ms]
table = "runs"
value = { mean = "ms" }
format = { places = 2 }
description = "mean latency"

[numbers.fast-n]
table = "fast"
where = "n > 1"
value = "count"

[numbers.double]
value = { expr = "v['mean-ms'] * 2" }
format = { places = 1 }

[figures.lat]
size = [4, 3]
title = "mean {{ n['mean-ms'] }} ms"
layers = [ { mark = "point", data = "runs", x = "n", y = "ms" } ]
"#;

const DATA: &str = "n,ms,host\n1,2.5,a\n2,3.5,\n3,4.25,b\n";

/// The project in a temporary folder, built once (so it has a lock).
fn project() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("data")).unwrap();
    std::fs::write(dir.path().join("artifact.toml"), SPEC).unwrap();
    std::fs::write(dir.path().join("data/runs.csv"), DATA).unwrap();
    let out = artifact(dir.path(), &["gen"]);
    assert!(out.status.success(), "{}", stderr(&out));
    dir
}

/// Runs `artifact ARGS` in `dir`, requires success and that nothing was
/// written; returns stdout.
fn ok(dir: &Path, args: &[&str]) -> String {
    let before = snapshot(dir);
    let out = artifact(dir, args);
    assert!(out.status.success(), "{args:?}: {}", stderr(&out));
    assert_eq!(snapshot(dir), before, "{args:?} wrote nothing");
    stdout(&out)
}

fn blake3_of(path: &Path) -> String {
    blake3::hash(&std::fs::read(path).unwrap())
        .to_hex()
        .to_string()
}

#[test]
fn show_a_table_after_its_steps() {
    let dir = project();
    assert_eq!(
        ok(dir.path(), &["show", "fast"]),
        "\
table fast: 2 rows, 5 fields (from runs, after 2 steps)

field   type         distinct  example
n       int                 2  1
ms      float               2  2.5
host    string|null         2  a
per op  float               2  2.5
tag     string              2  run 1

all 2 rows:
n   ms  host  per op  tag
1  2.5  a        2.5  run 1
2  3.5  null    1.75  run 2
"
    );
}

#[test]
fn show_a_source_and_fewer_rows() {
    let dir = project();
    assert_eq!(
        ok(dir.path(), &["show", "runs", "--rows", "2"]),
        "\
source runs: 3 rows, 3 fields (data/runs.csv)

field  type         distinct  example
n      int                 3  1
ms     float               3  2.5
host   string|null         3  a

first 2 of 3 rows:
n   ms  host
1  2.5  a
2  3.5  null
"
    );
    assert_eq!(
        ok(dir.path(), &["show", "runs", "--rows", "0"]),
        "\
source runs: 3 rows, 3 fields (data/runs.csv)

field  type         distinct  example
n      int                 3  1
ms     float               3  2.5
host   string|null         3  a
"
    );
}

#[test]
fn show_cuts_long_cells_and_escapes_control_characters() {
    let dir = project();
    assert_eq!(
        ok(dir.path(), &["show", "labels"]),
        "\
source labels: 2 rows, 3 fields (rows in the spec)

field  type            distinct  example
name   string                 2  red\\u{1b}[31m
note   string|missing         1  a note that is much longer than…
size   int|missing            1  3

all 2 rows:
name           note                              size
red\\u{1b}[31m  a note that is much longer than…
plain                                               3
"
    );
}

#[test]
fn show_as_csv() {
    let dir = project();
    assert_eq!(
        ok(dir.path(), &["show", "fast", "--format", "csv"]),
        "n,ms,host,per op,tag\n1,2.5,a,2.5,run 1\n2,3.5,,1.75,run 2\n"
    );
    assert_eq!(
        ok(
            dir.path(),
            &["show", "labels", "--format", "csv", "--rows", "1"]
        ),
        "name,note,size\nred\u{1b}[31m,a note that is much longer than thirty-two columns,\n"
    );
}

#[test]
fn show_as_json() {
    let dir = project();
    let out = ok(
        dir.path(),
        &["show", "fast", "--format", "json", "--rows", "1"],
    );
    assert_eq!(
        out,
        r#"{
  "name": "fast",
  "kind": "table",
  "rows": 2,
  "fields": [
    {
      "name": "n",
      "type": "int",
      "distinct": 2
    },
    {
      "name": "ms",
      "type": "float",
      "distinct": 2
    },
    {
      "name": "host",
      "type": "string|null",
      "distinct": 2
    },
    {
      "name": "per op",
      "type": "float",
      "distinct": 2
    },
    {
      "name": "tag",
      "type": "string",
      "distinct": 2
    }
  ],
  "first_rows": [
    {
      "n": 1,
      "ms": 2.5,
      "host": "a",
      "per op": 2.5,
      "tag": "run 1"
    }
  ]
}
"#
    );
    // A missing field is left out of its row; a source says so.
    let v: serde_json::Value =
        serde_json::from_str(&ok(dir.path(), &["show", "labels", "--format", "json"])).unwrap();
    assert_eq!(v["kind"], "source");
    assert_eq!(
        v["first_rows"],
        serde_json::json!([
            { "name": "red\u{1b}[31m", "note": "a note that is much longer than thirty-two columns" },
            { "name": "plain", "size": 3 }
        ])
    );
}

#[test]
fn show_from_another_folder_with_c() {
    let dir = project();
    let parent = dir.path().parent().unwrap();
    let name = dir.path().file_name().unwrap().to_str().unwrap();
    let out = artifact(parent, &["-C", name, "show", "runs", "--rows", "0"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).starts_with("source runs: 3 rows, 3 fields (data/runs.csv)\n"));
}

#[test]
fn show_an_unknown_name_suggests_one() {
    let dir = project();
    let out = artifact(dir.path(), &["show", "fats"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        "error: no source or table named `fats` (did you mean `fast`?)\n  sources: `runs`, `labels`\n  tables: `fast`\n"
    );
    assert_eq!(stdout(&out), "");
    let out = artifact(dir.path(), &["show", "mean-ms"]);
    assert_eq!(
        stderr(&out),
        "error: no source or table named `mean-ms` (`mean-ms` is a number: `artifact explain mean-ms`)\n  sources: `runs`, `labels`\n  tables: `fast`\n"
    );
    let out = artifact(dir.path(), &["show", "lat"]);
    assert!(
        stderr(&out).starts_with(
            "error: no source or table named `lat` (`lat` is a figure; it draws `runs`)\n"
        ),
        "{}",
        stderr(&out)
    );
    let out = artifact(dir.path(), &["show", "zzzzzz"]);
    assert_eq!(
        stderr(&out),
        "error: no source or table named `zzzzzz`\n  sources: `runs`, `labels`\n  tables: `fast`\n"
    );
}

#[test]
fn show_reports_a_bad_row_as_gen_does() {
    let dir = project();
    std::fs::write(
        dir.path().join("data/runs.csv"),
        "n,ms,host\n1,2.5,a\n2,x,b\n",
    )
    .unwrap();
    let out = artifact(dir.path(), &["show", "fast"]);
    assert_eq!(out.status.code(), Some(2));
    let built = artifact(dir.path(), &["gen"]);
    let err = stderr(&out);
    assert!(
        err.starts_with("error: table `fast`, step 1 (filter, artifact.toml line 13): "),
        "{err}"
    );
    assert!(err.contains("data/runs.csv:3"), "{err}");
    let cause = err.trim_start_matches("error: ").trim_end();
    assert!(stderr(&built).contains(cause), "{}\n{err}", stderr(&built));
}

#[test]
fn explain_a_number_of_a_table() {
    let dir = project();
    let hash = blake3_of(&dir.path().join("data/runs.csv"));
    assert_eq!(
        ok(dir.path(), &["explain", "fast-n"]),
        format!(
            "\
number fast-n
value: 1
text: 1
spec: artifact.toml:23
  [numbers.fast-n]
  table = \"fast\"
  where = \"n > 1\"
  value = \"count\"
rows: 1 (of 2 in table `fast` where `n > 1`)
table `fast` (artifact.toml:10), from source `runs`:
  artifact.toml:13: {{ filter = \"ms < 4\" }}
  artifact.toml:14: {{ derive = {{ \"per op\" = \"ms / n\", tag = \"'run ' ~ n\" }} }}
inputs:
  data/runs.csv  blake3 {hash}  (matches artifact.lock)
artifact.lock: same text and value
"
        )
    );
}

#[test]
fn explain_an_expression_names_the_numbers_it_reads() {
    let dir = project();
    let hash = blake3_of(&dir.path().join("data/runs.csv"));
    assert_eq!(
        ok(dir.path(), &["explain", "double"]),
        format!(
            "\
number double
value: 6.833333333333333
text: 6.8
spec: artifact.toml:28
  [numbers.double]
  value = {{ expr = \"v['mean-ms'] * 2\" }}
  format = {{ places = 1 }}
rows: none (an expression, no table)
reads numbers:
  mean-ms = 3.42 (value 3.4166666666666665)
inputs:
  data/runs.csv  blake3 {hash}  (matches artifact.lock)
artifact.lock: same text and value
"
        )
    );
}

#[test]
fn explain_as_json() {
    let dir = project();
    let hash = blake3_of(&dir.path().join("data/runs.csv"));
    let out = ok(dir.path(), &["explain", "mean-ms", "--format", "json"]);
    assert_eq!(
        out,
        format!(
            r#"{{
  "key": "mean-ms",
  "value": 3.4166666666666665,
  "text": "3.42",
  "description": "mean latency",
  "spec_line": 17,
  "spec_text": "[numbers.mean-ms]\ntable = \"runs\"\nvalue = {{ mean = \"ms\" }}\nformat = {{ places = 2 }}\ndescription = \"mean latency\"",
  "table": "runs",
  "where": null,
  "rows": 3,
  "table_rows": 3,
  "tables": [],
  "reads": [],
  "inputs": [
    {{
      "source": "runs",
      "path": "data/runs.csv",
      "blake3": "{hash}",
      "lock_blake3": "{hash}",
      "matches_lock": true
    }}
  ],
  "inline": [],
  "lock": "same"
}}
"#
        )
    );
    // The value reads back as the same f64 as the mean of the data.
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["value"].as_f64(), Some((2.5 + 3.5 + 4.25) / 3.0));
}

#[test]
fn explain_after_the_data_changed_says_what_the_lock_records() {
    let dir = project();
    std::fs::write(
        dir.path().join("data/runs.csv"),
        "n,ms,host\n1,2.5,a\n2,3.5,\n3,9.75,b\n",
    )
    .unwrap();
    let hash = blake3_of(&dir.path().join("data/runs.csv"));
    let lock = std::fs::read_to_string(dir.path().join("artifact.lock")).unwrap();
    let old = lock
        .lines()
        .find_map(|l| l.strip_prefix("\"data/runs.csv\" = \""))
        .unwrap()
        .trim_end_matches('"')
        .to_string();
    let out = ok(dir.path(), &["explain", "mean-ms"]);
    assert!(
        out.starts_with("number mean-ms\nvalue: 5.25\ntext: 5.25\n"),
        "{out}"
    );
    assert!(
        out.ends_with(&format!(
            "inputs:\n  data/runs.csv  blake3 {hash}  (artifact.lock has {old}: changed since the last gen)\nartifact.lock: records text `3.42`: stale, `artifact gen` updates it\n"
        )),
        "{out}"
    );
}

#[test]
fn explain_an_unknown_key_suggests_one() {
    let dir = project();
    let out = artifact(dir.path(), &["explain", "mean_ms"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        "error: no number named `mean_ms` (did you mean `mean-ms`?)\n  numbers: `mean-ms`, `fast-n`, `double`\n"
    );
    let out = artifact(dir.path(), &["explain", "fast"]);
    assert_eq!(
        stderr(&out),
        "error: no number named `fast` (`fast` is a table: `artifact show fast`)\n  numbers: `mean-ms`, `fast-n`, `double`\n"
    );
}

#[test]
fn a_closed_pipe_is_no_panic() {
    let dir = project();
    // More than a pipe holds, so the write meets the closed end.
    let mut data = String::from("n,ms,host\n");
    for i in 0..20_000 {
        data.push_str(&format!("{i},{}.5,host-{i}\n", i % 97));
    }
    std::fs::write(dir.path().join("data/runs.csv"), data).unwrap();
    for args in [
        &["show", "runs", "--rows", "20000"][..],
        &["show", "runs", "--rows", "20000", "--format", "json"][..],
    ] {
        let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("artifact"))
            .current_dir(dir.path())
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        let err = stderr(&out);
        assert!(!err.contains("panicked"), "{err}");
        assert_eq!(out.status.code(), Some(0), "{err}");
    }
}

#[test]
fn show_and_explain_to_a_full_disk_are_an_error_not_exit_0() {
    let dir = project();
    for args in [
        &["show", "runs"][..],
        &["explain", "mean-ms"][..],
        &["schema"][..],
    ] {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let out = std::process::Command::new(assert_cmd::cargo::cargo_bin("artifact"))
            .current_dir(dir.path())
            .args(args)
            .stdout(full)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert_eq!(
            stderr(&out),
            "error: cannot write to standard output: no space left on device\n",
            "{args:?}"
        );
    }
}

#[test]
fn explain_a_failing_number_gives_the_error_gen_gives() {
    let dir = project();
    let spec = format!("{SPEC}\n[numbers.one-ms]\ntable = \"runs\"\nvalue = {{ cell = \"ms\" }}\n");
    std::fs::write(dir.path().join("artifact.toml"), spec).unwrap();
    let out = artifact(dir.path(), &["explain", "one-ms"]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(err.starts_with("error: number `one-ms`: "), "{err}");
    let built = artifact(dir.path(), &["gen"]);
    let cause = err.trim_start_matches("error: ").trim_end();
    assert!(stderr(&built).contains(cause), "{}\n{err}", stderr(&built));
}

#[test]
fn an_optional_source_that_is_missing() {
    let dir = project();
    let spec = format!(
        "{SPEC}\n[sources.extra]\npath = \"data/extra.jsonl\"\noptional = true\n\n[numbers.extra-n]\ntable = \"extra\"\nvalue = \"count\"\n"
    );
    std::fs::write(dir.path().join("artifact.toml"), spec).unwrap();
    assert_eq!(
        ok(dir.path(), &["show", "extra"]),
        "source extra: 0 rows, 0 fields (no file)\nunavailable: optional source `extra`: data/extra.jsonl not found\n"
    );
    let out = artifact(dir.path(), &["explain", "extra-n"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        common::small::last_line(&out),
        "error: number `extra-n` is skipped: optional source `extra`: data/extra.jsonl not found"
    );
}

#[test]
fn explain_lists_every_table_the_number_reads() {
    let dir = project();
    let spec = format!(
        "{SPEC}\n[tables.joined]\nfrom = \"runs\"\nsteps = [{{ lookup = \"fast\", on = \"n\", as = \"f\", unmatched = \"keep\" }}]\n\n[numbers.joined-n]\ntable = \"joined\"\nvalue = \"count\"\n"
    );
    let base = SPEC.lines().count();
    std::fs::write(dir.path().join("artifact.toml"), spec).unwrap();
    let out = ok(dir.path(), &["explain", "joined-n"]);
    let hash = blake3_of(&dir.path().join("data/runs.csv"));
    let tables = &out[out.find("\ntable `").unwrap() + 1..];
    assert_eq!(
        tables,
        format!(
            "\
table `joined` (artifact.toml:{}), from source `runs`:
  artifact.toml:{}: {{ lookup = \"fast\", on = \"n\", as = \"f\", unmatched = \"keep\" }}
table `fast` (artifact.toml:10), from source `runs`:
  artifact.toml:13: {{ filter = \"ms < 4\" }}
  artifact.toml:14: {{ derive = {{ \"per op\" = \"ms / n\", tag = \"'run ' ~ n\" }} }}
inputs:
  data/runs.csv  blake3 {hash}  (matches artifact.lock)
artifact.lock: no record of this number
",
            base + 2,
            base + 4
        )
    );
}

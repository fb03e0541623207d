//! Issue 28, closer to the floor: the fast path finds each line's end as
//! it reads the line (no search for the newline first). Whatever a log's
//! line endings, blank lines, BOM or objects cut by a newline, the rows,
//! numbers, notes and errors are those of the generic path (which cuts
//! every line first), byte for byte.

mod common;

use std::path::Path;

use assert_cmd::Command;
use common::snapshot;

const SPEC: &str = r#"
[sources.results]
path = "results.jsonl"

[tables.points]
from = "results"
steps = [
  { filter = "_kind == 'bench' and methods is mapping" },
  { explode = "methods", key = "method", value = "m" },
  { filter = "m is mapping and m.ratio is not none" },
  { group = ["method"], aggregate = { n = "count", r = { sum = "m.ratio" } } },
]

[numbers.rows]
table = "points"
value = { sum = "n" }

[numbers.total]
table = "points"
value = { sum = "r" }

[numbers.groups]
table = "points"
value = "count"
"#;

/// Exit code, stderr, and every output file (path, bytes) of a run.
type Run = (Option<i32>, String, Vec<(String, Vec<u8>)>);

/// `gen` in `dir`, the fast path on or off.
fn run(dir: &Path, generic: bool) -> Run {
    for sub in ["figures", "generated"] {
        let _ = std::fs::remove_dir_all(dir.join(sub));
    }
    let _ = std::fs::remove_file(dir.join("artifact.lock"));
    let mut cmd = Command::cargo_bin("artifact").unwrap();
    cmd.current_dir(dir).arg("gen");
    if generic {
        cmd.env("ARTIFACT_GENERIC_ONLY", "1");
    }
    let out = cmd.output().unwrap();
    let files = match dir.join("generated").is_dir() {
        true => snapshot(&dir.join("generated")),
        false => Vec::new(),
    };
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        files,
    )
}

/// Runs `log` both ways; asserts they agree; the fast run.
fn both_ways(log: &[u8]) -> Run {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("artifact.toml"), SPEC).unwrap();
    std::fs::write(dir.path().join("results.jsonl"), log).unwrap();
    let generic = run(dir.path(), true);
    let fast = run(dir.path(), false);
    assert_eq!(fast.1, generic.1, "stderr differs between the paths");
    assert_eq!(fast.0, generic.0, "exit code");
    assert!(fast.2 == generic.2, "outputs differ between the paths");
    fast
}

fn number(files: &[(String, Vec<u8>)], key: &str) -> f64 {
    let (_, bytes) = files
        .iter()
        .find(|(p, _)| p == "numbers.json")
        .expect("numbers.json");
    let v: serde_json::Value = serde_json::from_slice(bytes).unwrap();
    v[key]["value"].as_f64().unwrap()
}

#[test]
fn crlf_blank_lines_a_bom_and_blanks_around_objects_give_the_same_numbers_both_ways() {
    // 6,000 lines (several batches), ending `\n` or `\r\n` by turns; a BOM
    // on line 1; blank lines; lines starting or ending with blanks.
    let mut log = b"\xEF\xBB\xBF".to_vec();
    let (mut rows, mut total) = (0u64, 0i64);
    for i in 0..6000i64 {
        let (a, b) = (i % 7, i % 3);
        let object = format!(
            "{{\"_kind\": \"bench\", \"pad\": \"{}\", \"methods\": {{\"a\": {{\"ratio\": {a}}}, \"b\": {{\"ratio\": {b}, \"x\": [1, 2]}}}}}}",
            "p".repeat((i % 40) as usize)
        );
        let line = match i % 5 {
            0 => format!("  {object}"),
            1 => format!("{object} \t"),
            _ => object,
        };
        log.extend_from_slice(line.as_bytes());
        log.extend_from_slice(if i % 2 == 0 { b"\r\n" } else { b"\n" });
        if i % 11 == 0 {
            log.extend_from_slice(b"\n  \r\n");
        }
        rows += 2;
        total += a + b;
    }
    let (code, err, files) = both_ways(&log);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(number(&files, "rows"), rows as f64);
    assert_eq!(number(&files, "total"), total as f64);
    assert_eq!(number(&files, "groups"), 2.0);
}

#[test]
fn an_object_cut_by_a_newline_is_two_bad_lines_both_ways() {
    // A newline where a blank may be ends the line: line 3 is not a whole
    // object (the read must not run on into line 4).
    let log = "{\"_kind\": \"bench\", \"methods\": {\"a\": {\"ratio\": 1}}}\n\
               {\"_kind\": \"bench\", \"methods\": {\"a\": {\"ratio\": 2}}}\r\n\
               {\"_kind\": \"bench\", \"methods\": {\"a\":\n{\"ratio\": 4}}}\n";
    let (code, err, _) = both_ways(log.as_bytes());
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("results.jsonl:3"), "line 3 is named: {err}");
    assert!(
        !err.contains("results.jsonl:4"),
        "line 4 is not reached: {err}"
    );
}

#[test]
fn the_last_line_without_a_newline_is_read() {
    let log = "{\"_kind\": \"bench\", \"methods\": {\"a\": {\"ratio\": 1}}}\r\n\
               {\"_kind\": \"bench\", \"methods\": {\"a\": {\"ratio\": 2}, \"b\": {\"ratio\": 5}}}";
    let (code, err, files) = both_ways(log.as_bytes());
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(number(&files, "rows"), 3.0);
    assert_eq!(number(&files, "total"), 8.0);
}

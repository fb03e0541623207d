//! Methods called on the row or a field (`_.get('x y', 0)`, `_.keys()`,
//! `codec.split(':')`) in tables whose loads keep only the fields read.

mod common;

use std::path::Path;
use std::process::Output;

use common::numbers;
use common::small::stderr;

const LOG: &str = "{\"execution time\": 2.5, \"k\": \"a\", \"codec\": \"zstd:3\"}\n\
                   {\"execution time\": 3.5, \"k\": \"a\", \"codec\": \"zstd:9\"}\n\
                   {\"execution time\": 1.0, \"k\": \"b\", \"codec\": \"lz4:1\"}\n";

/// A project with `spec` and the log above as `data/runs.jsonl`.
fn project(spec: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("data")).unwrap();
    std::fs::write(dir.path().join("data/runs.jsonl"), LOG).unwrap();
    std::fs::write(dir.path().join("artifact.toml"), spec).unwrap();
    dir
}

/// `artifact gen` in `dir`, on the fast path or the generic path only.
fn run_gen(dir: &Path, generic_only: bool) -> Output {
    let mut cmd = assert_cmd::Command::cargo_bin("artifact").unwrap();
    cmd.current_dir(dir).arg("gen");
    if generic_only {
        cmd.env("ARTIFACT_GENERIC_ONLY", "1");
    }
    cmd.output().unwrap()
}

const SPEC: &str = r#"[sources.runs]
path = "data/runs.jsonl"

[tables.by_k]
from = "runs"
steps = [
  { filter = "_.get('execution time', 0) > 2" },
  { group = ["k"], aggregate = { n = "count" } },
]

[tables.fields]
from = "runs"
steps = [
  { derive = { nf = "_.keys() | list | length" } },
  { group = ["k"], aggregate = { nf = { max = "nf" }, s = { sum = "_.get('execution time', 0)" } } },
]

[tables.levels]
from = "runs"
steps = [
  { derive = { level = "codec.split(':')[1] | int" } },
  { group = ["k"], aggregate = { l = { sum = "level" } } },
]

[numbers.n]
table = "by_k"
value = { sum = "n" }

[numbers.nf]
table = "fields"
value = { max = "nf" }

[numbers.s]
table = "fields"
value = { sum = "s" }

[numbers.l]
table = "levels"
value = { sum = "l" }
"#;

/// `_.get(...)` was read as a field named `get`: the projection loaded
/// only `get` and `k`, and the sums came out 0 with exit 0.
#[test]
fn a_method_of_the_row_reads_every_field_in_a_grouped_table() {
    for generic_only in [false, true] {
        let dir = project(SPEC);
        let out = run_gen(dir.path(), generic_only);
        assert!(out.status.success(), "{}", stderr(&out));
        let n = numbers(dir.path());
        assert_eq!(n["n"]["text"], "2", "generic only: {generic_only}");
        assert_eq!(n["nf"]["text"], "3", "generic only: {generic_only}");
        assert_eq!(n["s"]["text"], "7.0", "generic only: {generic_only}");
        assert_eq!(n["l"]["text"], "13", "generic only: {generic_only}");
    }
}

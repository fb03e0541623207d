//! Issue 27, part E: one meaning of missing. A key a JSONL record lacks, a
//! JSON `null`, a Parquet null (what DuckDB writes for that missing key)
//! and an empty CSV cell read alike: `is defined` is false, `is none` true,
//! `default(d)` gives `d`, `count` (of a group or a window) skips them, a
//! `group` or `per` key without the field keys as a null, and a number
//! aggregate (`mean`, `median`, ...) over one is an error naming the row.

mod common;
mod duckdb_parquet;

use std::path::Path;

use common::small::stderr;
use common::*;
use serde_json::Value;

/// Six runs; `t` (seconds) and `note` are absent from some records.
const MISSING_KEYS: &str = r#"{"run": 1, "m": "a", "t": 2.0, "note": "x"}
{"run": 2, "m": "a", "t": 4.0}
{"run": 3, "m": "a"}
{"run": 4, "m": "b", "t": 10.0, "note": "y"}
{"run": 5, "m": "b"}
{"run": 6, "m": "b", "t": 7.0}
"#;

/// The same runs with every key written, null where it was absent.
const NULLS: &str = r#"{"run": 1, "m": "a", "t": 2.0, "note": "x"}
{"run": 2, "m": "a", "t": 4.0, "note": null}
{"run": 3, "m": "a", "t": null, "note": null}
{"run": 4, "m": "b", "t": 10.0, "note": "y"}
{"run": 5, "m": "b", "t": null, "note": null}
{"run": 6, "m": "b", "t": 7.0, "note": null}
"#;

/// The same runs as CSV: an empty cell where the key was absent.
const EMPTY_CELLS: &str = "run,m,t,note\n1,a,2.0,x\n2,a,4.0,\n3,a,,\n4,b,10.0,y\n5,b,,\n6,b,7.0,\n";

/// The spec every format runs; `SOURCE` is replaced by the source's table.
/// The expected values are pandas', on `df` read from any of the files:
const SPEC: &str = r#"
[sources.runs]
SOURCE

[tables.timed]
from = "runs"
steps = [{ filter = "t is defined" }]

[tables.untimed]
from = "runs"
steps = [{ filter = "t is not defined" }]

[tables.none]
from = "runs"
steps = [{ filter = "t is none and note is none" }]

[tables.by_m]
from = "timed"
steps = [{ group = ["m"], aggregate = { t = { mean = "t" }, n = "count" } }]

[tables.running]
from = "runs"
steps = [{ window = { c = { count = "t" } } }]

[tables.by_note]
from = "runs"
steps = [{ group = ["note"], aggregate = { n = "count" } }]

[tables.per_note]
from = "runs"
steps = [{ joinaggregate = { n = "count" }, per = "note" }, { limit = 1, per = "note" }]

[numbers.note-groups]
table = "by_note"
value = "count"

[numbers.no-note]
table = "by_note"
value = { cell = "n" }
where = "note is none"

[numbers.per-note]
table = "per_note"
value = { sum = "n" }

[numbers.rows]
table = "runs"
value = "count"

[numbers.t-count]
table = "runs"
value = { count = "t" }

[numbers.note-count]
table = "runs"
value = { count = "note" }

[numbers.t-mean]
table = "timed"
value = { mean = "t" }

[numbers.t-median]
table = "timed"
value = { median = "t" }

[numbers.t-max]
table = "timed"
value = { max = "t" }

[numbers.t-zero-mean]
table = "runs"
value = { mean = "t | default(0)" }

[numbers.untimed]
table = "untimed"
value = "count"

[numbers.no-value]
table = "none"
value = "count"

[numbers.b-mean]
table = "by_m"
value = { cell = "t" }
where = "m == 'b'"

[numbers.t-running]
table = "running"
value = { last = "c" }

[numbers.notes]
table = "runs"
value = { first = "note | default('-')" }
where = "run == 2"
"#;

/// (key, pandas' value, the pandas expression).
const EXPECTED: &[(&str, f64, &str)] = &[
    ("rows", 6.0, "len(df)"),
    ("t-count", 4.0, "df.t.count()"),
    ("note-count", 2.0, "df.note.count()"),
    ("t-mean", 5.75, "df.t.mean(): (2 + 4 + 10 + 7) / 4"),
    ("t-median", 5.5, "df.t.median(): (4 + 7) / 2"),
    ("t-max", 10.0, "df.t.max()"),
    ("t-zero-mean", 23.0 / 6.0, "df.t.fillna(0).mean()"),
    ("untimed", 2.0, "df.t.isna().sum()"),
    ("no-value", 2.0, "(df.t.isna() & df.note.isna()).sum()"),
    (
        "note-groups",
        3.0,
        "df.groupby('note', dropna=False).ngroups",
    ),
    ("no-note", 4.0, "df.note.isna().sum()"),
    (
        "per-note",
        6.0,
        "df.groupby('note', dropna=False).size().sum(): 1 + 4 + 1, one row a group",
    ),
    (
        "b-mean",
        8.5,
        "df.dropna(subset=['t']).groupby('m').t.mean()['b']",
    ),
];

/// The five files of the same runs: (file name, source table, contents).
fn formats(dir: &Path) -> Vec<(&'static str, String)> {
    let write = |name: &str, text: &str| std::fs::write(dir.join(name), text).unwrap();
    write("missing.jsonl", MISSING_KEYS);
    write("nulls.jsonl", NULLS);
    write("runs.csv", EMPTY_CELLS);
    let records: Vec<Value> = NULLS
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let doc = serde_json::json!({ "tool": "bench", "runs": records });
    write("runs.json", &doc.to_string());
    duckdb_parquet::write(
        &dir.join("runs.parquet"),
        &duckdb_parquet::records(MISSING_KEYS),
    );
    vec![
        ("missing keys (JSONL)", "path = \"../missing.jsonl\"".into()),
        ("nulls (JSONL)", "path = \"../nulls.jsonl\"".into()),
        ("empty cells (CSV)", "path = \"../runs.csv\"".into()),
        (
            "nulls (JSON document)",
            "path = \"../runs.json\"\nrecords = \"/runs\"".into(),
        ),
        (
            "nulls (Parquet, as DuckDB writes)",
            "path = \"../runs.parquet\"".into(),
        ),
    ]
}

/// `gen --force` in `dir`, on the fast path or the generic one only.
fn gen_force(dir: &Path, generic: bool) -> Value {
    let mut cmd = assert_cmd::Command::cargo_bin("artifact").unwrap();
    cmd.current_dir(dir).args(["gen", "--force"]);
    if generic {
        cmd.env("ARTIFACT_GENERIC_ONLY", "1");
    }
    let out = cmd.output().unwrap();
    assert!(out.status.success(), "generic: {generic}: {}", stderr(&out));
    numbers(dir)
}

#[test]
fn missing_key_null_parquet_null_and_empty_cell_give_the_same_numbers() {
    let root = tempfile::tempdir().unwrap();
    let mut first: Option<(&str, Value)> = None;
    for (i, (what, source)) in formats(root.path()).into_iter().enumerate() {
        let dir = root.path().join(format!("p{i}"));
        std::fs::create_dir(&dir).unwrap();
        std::fs::write(dir.join("artifact.toml"), SPEC.replace("SOURCE", &source)).unwrap();
        let fast = gen_force(&dir, false);
        let generic = gen_force(&dir, true);
        assert_eq!(fast, generic, "{what}: the fast path disagrees");
        for (key, want, pandas) in EXPECTED {
            let got = fast[*key]["value"].as_f64();
            assert_eq!(got, Some(*want), "{what}: `{key}` ({pandas})");
        }
        // `note | default('-')`: a null note and a missing one alike.
        assert_eq!(fast["notes"]["value"], "-", "{what}");
        match &first {
            None => first = Some((what, fast)),
            Some((w, f)) => assert_eq!(*f, fast, "{what} differs from {w}"),
        }
    }
}

#[test]
fn is_defined_is_false_for_a_null_as_for_a_missing_key() {
    let spec = r#"
[sources.s]
path = "s.jsonl"

[tables.t]
from = "s"
steps = [{ derive = { d = "x is defined", u = "x is undefined", n = "x is none", z = "x | default(1, true)" } }]

[numbers.defined]
table = "t"
value = { count = "d or none" }

[numbers.undefined]
table = "t"
value = { count = "u or none" }

[numbers.no-value]
table = "t"
value = { count = "n or none" }

[numbers.z]
table = "t"
value = { sum = "z" }
"#;
    let dir = project(spec);
    let log = "{\"x\": 5}\n{\"x\": null}\n{}\n{\"x\": 0}\n";
    std::fs::write(dir.path().join("s.jsonl"), log).unwrap();
    let got = gen_force(dir.path(), false);
    assert_eq!(got, gen_force(dir.path(), true));
    let value = |k: &str| got[k]["value"].as_i64();
    // Rows 1 and 4 have a value; rows 2 (null) and 3 (no key) have none.
    assert_eq!(value("defined"), Some(2));
    assert_eq!(value("undefined"), Some(2));
    assert_eq!(value("no-value"), Some(2));
    // default(1, true): 5, then 1 for null, missing and the falsy 0.
    assert_eq!(value("z"), Some(8));
}

#[test]
fn demo_fig4_median_is_the_same_on_the_log_and_its_parquet_conversion() {
    let log = root().join("paper/data/compression/provenance/iter5/precheck_l/atlas_train.jsonl");
    let text = std::fs::read_to_string(&log).unwrap();
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("pairs.jsonl"), &text).unwrap();
    // The log's two summary records lack `corr_pearson` (null in Parquet).
    duckdb_parquet::write(
        &dir.path().join("pairs.parquet"),
        &duckdb_parquet::records(&text),
    );
    let spec = |file: &str| {
        format!(
            r#"
[sources.pairs]
path = "{file}"

[tables.fig4_corr]
from = "pairs"
steps = [{{ filter = "corr_pearson is defined" }}]

[numbers.fig4-n]
table = "fig4_corr"
value = "count"

[numbers.fig4-median]
table = "fig4_corr"
value = {{ median = "corr_pearson" }}
format = {{ places = 4, sign = "always" }}

[numbers.fig4-ci-low]
table = "fig4_corr"
value = {{ ci95 = "corr_pearson", bound = "low" }}
"#
        )
    };
    let mut got = Vec::new();
    for file in ["pairs.jsonl", "pairs.parquet"] {
        std::fs::write(dir.path().join("artifact.toml"), spec(file)).unwrap();
        let n = gen_force(dir.path(), false);
        assert_eq!(n["fig4-n"]["value"], 160, "{file}");
        assert_eq!(
            n["fig4-median"]["value"].as_f64(),
            Some(0.01846305),
            "{file}"
        );
        assert_eq!(n["fig4-median"]["text"], "+0.0185", "{file}");
        got.push(n["fig4-ci-low"]["value"].clone());
    }
    assert_eq!(got[0], got[1]);
}

#[test]
fn a_number_aggregate_over_a_null_is_an_error_naming_the_row_as_over_a_missing_key() {
    let spec = r#"
[sources.s]
path = "s.LOG"

[numbers.m]
table = "s"
value = { median = "t" }
"#;
    for (ext, log, why) in [
        (
            "jsonl",
            "{\"t\": 1.0}\n{\"t\": null}\n",
            "s.jsonl:2: field `t`: expected a number, found null (a null is a missing value: leave such rows out first, e.g. filter `t is defined`)",
        ),
        (
            "csv",
            "k,t\na,1.0\nb,\n",
            "s.csv:3: field `t`: expected a number, found null (a null is a missing value: leave such rows out first, e.g. filter `t is defined`)",
        ),
    ] {
        let dir = project(&spec.replace("LOG", ext));
        std::fs::write(dir.path().join(format!("s.{ext}")), log).unwrap();
        let out = artifact(dir.path(), &["gen"]);
        assert!(!out.status.success());
        assert!(stderr(&out).contains(why), "{}", stderr(&out));
    }
}

#[test]
fn a_window_count_of_a_field_no_row_has_is_still_a_typo() {
    let spec = r#"
[sources.s]
path = "s.jsonl"

[tables.w]
from = "s"
steps = [{ window = { c = { count = "tt" } } }]

[numbers.c]
table = "w"
value = { last = "c" }
"#;
    let dir = project(spec);
    let log = "{\"m\": \"a\", \"t\": 1.0}\n{\"m\": \"b\"}\n";
    std::fs::write(dir.path().join("s.jsonl"), log).unwrap();
    let out = artifact(dir.path(), &["gen"]);
    assert!(!out.status.success());
    let want = "window `c`: s.jsonl:1: field `tt`: window: no field `tt` (fields: m, t); did you mean `t`?";
    assert!(stderr(&out).contains(want), "{}", stderr(&out));
}

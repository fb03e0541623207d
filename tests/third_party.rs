//! Logs in the layouts other projects publish, read as they come: the
//! pcodec project's benchmark CSV (`tests/fixtures/pcodec`, Apache-2.0) and
//! Google Benchmark's JSON output with repetitions and aggregate rows
//! (`tests/fixtures/gbench`). Expected values are what Python computes on
//! the same files (`statistics.median`, plain division), written out here.

mod common;

use std::path::Path;

use common::small::stderr;
use common::*;
use serde_json::Value;

fn gen_numbers(dir: &Path) -> Value {
    let out = artifact(dir, &["gen"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = std::fs::read_to_string(dir.join("generated/numbers.json")).unwrap();
    serde_json::from_str(&text).unwrap()
}

const PCODEC: &str = r#"
[sources.columnar]
path = "data/columnar_intel_xeon_platinum_8488c_rust1_88.csv"

[tables.runs]
from = "columnar"
steps = [
  { derive = { ratio = "uncompressed_size / compressed_size", mbps = "uncompressed_size / decompress_dt / 1e6", family = "codec.split(':')[0]" } },
]

[tables.taxi]
from = "runs"
steps = [ { filter = "input == 'taxi'" }, { pareto = ["ratio", "mbps"], as = "front" } ]

[tables.best]
from = "runs"
steps = [ { group = ["input", "family"], aggregate = { best = { max = "ratio" } } } ]

[numbers.pco-taxi]
table = "best"
where = "input == 'taxi' and family == 'pco'"
value = { cell = "best" }
format = { places = 2 }

[numbers.zstd-taxi]
table = "best"
where = "input == 'taxi' and family == 'zstd'"
value = { cell = "best" }
format = { places = 2 }

[numbers.pco-over-zstd]
value = { expr = "v['pco-taxi'] / v['zstd-taxi']" }
format = { places = 2 }

[numbers.air-quality-runs]
table = "runs"
where = "input == 'air quality'"
value = "count"

[numbers.taxi-front]
table = "taxi"
where = "front"
value = "count"
"#;

#[test]
fn pcodec_best_ratios_and_front_match_python() {
    let dir = project_with_fixture(PCODEC, "pcodec");
    let n = gen_numbers(dir.path());
    let value = |k: &str| n[k]["value"].as_f64().unwrap();
    let text = |k: &str| n[k]["text"].as_str().unwrap().to_string();
    // max(uncompressed_size / compressed_size) over the taxi rows per family.
    assert_eq!(value("pco-taxi"), 7.021364754954809);
    assert_eq!(value("zstd-taxi"), 4.502061325053442);
    assert_eq!(text("pco-over-zstd"), "1.56");
    assert_eq!(value("air-quality-runs"), 75.0);
    // Seven pco settings and vortex are on taxi's front (pairwise check in Python).
    assert_eq!(value("taxi-front"), 8.0);
}

const GBENCH: &str = r#"
[sources.laptop]
path = "data/laptop.json"
records = "/benchmarks"

[tables.reps]
from = "laptop"
steps = [ { filter = "run_type == 'iteration'" } ]

[tables.medians]
from = "reps"
steps = [ { group = ["run_name"], aggregate = { median = { median = "real_time" }, reps = "count" } } ]

[tables.theirs]
from = "laptop"
steps = [ { filter = "run_type == 'aggregate' and aggregate_name == 'median'" } ]

[numbers.sort1k-median]
table = "medians"
where = "run_name == 'BM_sort/1024'"
value = { cell = "median" }
format = { places = 3 }

[numbers.sort1k-theirs]
table = "theirs"
where = "run_name == 'BM_sort/1024'"
value = { cell = "real_time" }
format = { places = 3 }

[numbers.sort4k-reps]
table = "medians"
where = "run_name == 'BM_sort/4096'"
value = { cell = "reps" }

[numbers.cpus]
value = { expr = "meta.laptop.context.num_cpus" }
"#;

#[test]
fn google_benchmark_repetitions_give_its_own_median() {
    let dir = project_with_fixture(GBENCH, "gbench");
    let n = gen_numbers(dir.path());
    let value = |k: &str| n[k]["value"].as_f64().unwrap();
    // statistics.median([105.25, 101.5, 103.75, 102.0]): the middle two averaged.
    assert_eq!(value("sort1k-median"), 102.875);
    assert_eq!(n["sort1k-median"]["text"], "102.875");
    // The file's own `_median` aggregate row says the same.
    assert_eq!(value("sort1k-theirs"), 102.875);
    // Aggregate rows (mean, median, stddev, cv) are not repetitions.
    assert_eq!(value("sort4k-reps"), 3.0);
    assert_eq!(value("cpus"), 8.0);
}

const GBENCH_MACHINES: &str = r#"
[sources.machines]
path = "data/*.json"
records = "/benchmarks"

[tables.medians]
from = "machines"
steps = [
  { filter = "run_type == 'iteration'" },
  { derive = { host = "_source.meta.context.host_name", cpus = "_source.meta.context.num_cpus" } },
  { group = ["host", "cpus", "run_name"], aggregate = { median = { median = "real_time" } } },
]

[numbers.server-sort1k]
table = "medians"
where = "host == 'server' and run_name == 'BM_sort/1024'"
value = { cell = "median" }
format = { places = 3 }

[numbers.server-cpus]
table = "medians"
where = "host == 'server' and run_name == 'BM_sort/1024'"
value = { cell = "cpus" }

[numbers.laptop-sort1k]
table = "medians"
where = "host == 'laptop' and run_name == 'BM_sort/1024'"
value = { cell = "median" }

[numbers.speedup]
value = { expr = "v['laptop-sort1k'] / v['server-sort1k']" }
format = { places = 4 }
"#;

#[test]
fn google_benchmark_files_of_two_machines_each_keep_their_context() {
    let dir = project_with_fixture(GBENCH_MACHINES, "gbench");
    let n = gen_numbers(dir.path());
    // statistics.median([88.5, 87.25, 90.0, 86.75]) on the server's file.
    assert_eq!(n["server-sort1k"]["value"].as_f64().unwrap(), 87.875);
    assert_eq!(n["server-cpus"]["value"].as_f64().unwrap(), 64.0);
    // 102.875 / 87.875
    assert_eq!(n["speedup"]["text"], "1.1707");
}

#[test]
fn meta_of_a_source_of_two_machines_is_an_error_naming_both_files() {
    let spec = format!(
        "{GBENCH_MACHINES}\n[numbers.cpus]\nvalue = {{ expr = \"meta.machines.context.num_cpus\" }}\n"
    );
    let dir = project_with_fixture(&spec, "gbench");
    let out = artifact(dir.path(), &["gen"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains(
            "meta.machines: source `machines` reads 2 files (data/laptop.json, data/server.json); \
             each row has its own file's metadata as `_source.meta`, or read one file"
        ),
        "{}",
        stderr(&out)
    );
}

const COMMITS: &str = r#"
[sources.history]
path = "data/history.json"
records_key = "commit"

[tables.bench]
from = "history"
steps = [
  { explode = "bench", key = "task", value = "r" },
  { derive = { mean_ns = "r.mean_ns" } },
]

[numbers.parse-first]
table = "bench"
where = "task == 'parse' and commit == '3f2a9c1'"
value = { cell = "mean_ns" }

[numbers.parse-last]
table = "bench"
where = "task == 'parse' and commit == 'c77e020'"
value = { cell = "mean_ns" }

[numbers.parse-gain]
value = { expr = "1 - v['parse-last'] / v['parse-first']" }
format = { places = 1, percent = true }

[numbers.commits]
table = "history"
value = "count"

[numbers.first-date]
table = "history"
where = "commit == '3f2a9c1'"
value = { cell = "date" }
"#;

#[test]
fn per_commit_json_mapping_is_one_row_per_commit_with_records_key() {
    let dir = project_with_fixture(COMMITS, "commits");
    let n = gen_numbers(dir.path());
    assert_eq!(n["commits"]["value"].as_f64().unwrap(), 3.0);
    assert_eq!(n["first-date"]["text"], "2026-10-02");
    assert_eq!(n["parse-first"]["value"].as_f64().unwrap(), 1520.5);
    // 1 - 1210.0 / 1520.5 = 0.20421...
    assert_eq!(n["parse-gain"]["text"], "20.4%");
}

#[test]
fn per_commit_json_mapping_without_records_key_says_how_to_read_it() {
    let dir = project_with_fixture(
        &COMMITS.replace("records_key = \"commit\"\n", ""),
        "commits",
    );
    let out = artifact(dir.path(), &["gen"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains(
            "error: source `history`: data/history.json: expected an array of records at the top level, \
             found a mapping of 3 records; to read each entry as a row, set `records_key` to the field \
             that gets its key (`records_key = \"key\"`), or set `records` to the JSON pointer of an array"
        ),
        "{}",
        stderr(&out)
    );
}

#[test]
fn records_key_naming_a_field_the_records_have_is_an_error() {
    let dir = project_with_fixture(
        &COMMITS.replace("records_key = \"commit\"", "records_key = \"date\""),
        "commits",
    );
    let out = artifact(dir.path(), &["gen"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains(
            "data/history.json: field `/3f2a9c1`: the record already has a field `date`; choose another `records_key`"
        ),
        "{}",
        stderr(&out)
    );
}

#[test]
fn an_empty_mapping_of_records_is_no_records_not_an_empty_file() {
    let dir = project_with_fixture(COMMITS, "commits");
    std::fs::write(dir.path().join("data/history.json"), "{}\n").unwrap();
    let out = artifact(dir.path(), &["gen"]);
    assert!(
        stderr(&out).contains("note: source `history`: data/history.json: no records\n"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn records_key_empty_is_an_error_at_its_place_not_a_field_named_nothing() {
    let spec = COMMITS.replace("records_key = \"commit\"", "records_key = \"\"");
    let dir = project_with_fixture(&spec, "commits");
    let out = artifact(dir.path(), &["gen"]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(
        err.contains(
            "error: source `history`: artifact.toml:4:15: `records_key` is the name \
             of the field that gets each record's key; it cannot be empty\n  |\n4 | records_key = \"\"\n  \
             |               ^^\n"
        ),
        "{err}"
    );
}

#[test]
fn records_on_a_csv_is_an_error_at_the_key_naming_the_file() {
    let spec = PCODEC.replace(
        "path = \"data/columnar_intel_xeon_platinum_8488c_rust1_88.csv\"\n",
        "path = \"data/columnar_intel_xeon_platinum_8488c_rust1_88.csv\"\nrecords = \"/x\"\n",
    );
    let dir = project_with_fixture(&spec, "pcodec");
    let out = artifact(dir.path(), &["gen"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains(
            "artifact.toml:4:11: `records` applies only to JSON documents; \
             `data/columnar_intel_xeon_platinum_8488c_rust1_88.csv` is read as CSV\n  |\n4 | records = \"/x\"\n  |           ^^^^\n"
        ),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_derive_that_gives_nothing_is_reported_not_a_silent_column_of_nulls() {
    // A typo in a derive (`loader` for `loaders`) used to become nulls
    // without a word, and a group by it then merged every file.
    let dir = tempfile::tempdir().unwrap();
    let lines: String = (0..3)
        .map(|i| format!("{{\"loaders\": {}, \"t\": {i}}}\n", i % 2))
        .collect();
    std::fs::write(dir.path().join("runs.jsonl"), lines).unwrap();
    std::fs::write(
        dir.path().join("artifact.toml"),
        "[sources.runs]\npath = \"runs.jsonl\"\n\n[tables.by]\nfrom = \"runs\"\nsteps = [\n  { derive = { l = \"loader\" } },\n  { group = [\"l\"], aggregate = { n = \"count\" } },\n]\n\n[numbers.groups]\ntable = \"by\"\nvalue = \"count\"\n",
    )
    .unwrap();
    for generic in [false, true] {
        let mut cmd = assert_cmd::Command::cargo_bin("artifact").unwrap();
        cmd.current_dir(dir.path()).arg("gen").arg("--force");
        if generic {
            cmd.env("ARTIFACT_GENERIC_ONLY", "1");
        }
        let out = cmd.output().unwrap();
        assert!(out.status.success(), "{}", stderr(&out));
        assert!(
            stderr(&out).contains(
                "note: table `by`: derive `l`: `loader` gave no value on 3 row(s), stored as null: runs.jsonl:1, runs.jsonl:2, runs.jsonl:3\n"
            ),
            "generic={generic}: {}",
            stderr(&out)
        );
    }
}

#[test]
fn a_records_pointer_to_nothing_lists_the_keys_there_and_the_nearest() {
    let spec = GBENCH.replace("records = \"/benchmarks\"", "records = \"/benchmark\"");
    let dir = project_with_fixture(&spec, "gbench");
    let out = artifact(dir.path(), &["gen"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains(
            "data/laptop.json: the document has nothing at JSON pointer `/benchmark` \
             (keys at `/`: context, benchmarks); did you mean `/benchmarks`?"
        ),
        "{}",
        stderr(&out)
    );
}

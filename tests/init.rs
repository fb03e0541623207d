//! `artifact init`: a starter spec from the demo paper's data that `gen`
//! accepts as written; it never overwrites a file.

mod common;

use common::*;

const SWEEP: &str = "data/offload/benchmarks/raw/gateB/capacity_sweep_laptop/sweep.jsonl";
const RESULTS: &str = "data/compression/results/results.jsonl.zst";

#[test]
fn init_on_the_demo_data_writes_a_spec_that_gen_accepts() {
    let dir = paper_copy();
    let d = dir.path();
    std::fs::remove_file(d.join("artifact.toml")).unwrap();
    let out = artifact(d, &["init", RESULTS, SWEEP]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        stderr(&out),
        "wrote artifact.toml\nwrote main.typ\nwrote main.tex\nnext: artifact gen, then open main.typ or main.tex\n"
    );
    let spec = std::fs::read_to_string(d.join("artifact.toml")).unwrap();
    // One source per file, its fields listed as `gen` reads them.
    assert!(spec.contains(&format!(
        "[sources.sweep]\npath = \"{SWEEP}\"\n# 32 rows; fields (type, distinct values, first value):\n\
         #   ts: string, 32 distinct, e.g. 2025-03-20T09:00:37Z\n"
    )));
    assert!(
        spec.contains("#   peak_rss_gb: float, 11 distinct, e.g. 4.1\n"),
        "{spec}"
    );
    assert!(spec.contains(
        "[sources.results]\npath = \"data/compression/results/results.jsonl.zst\"\n# 600 rows;"
    ));
    // The example: the two numeric fields of the first source with the
    // most distinct values, the one with fewer on x.
    assert!(spec.contains("layers = [{ mark = \"point\", data = \"example\", x = \"n_values\", y = \"input_bytes\" }]"), "{spec}");
    let out = artifact(d, &["gen"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let numbers = numbers(d);
    assert_eq!(numbers["example-rows"]["text"], "574");
    // The stubs use what the spec makes: lint finds nothing.
    let lint = artifact(d, &["lint"]);
    assert_eq!(
        String::from_utf8_lossy(&lint.stdout),
        "lint: 0 errors, 0 warnings in 2 files (main.tex, main.typ)\n"
    );
}

#[test]
fn init_never_overwrites() {
    let dir = paper_copy();
    let d = dir.path();
    // An existing spec: an error, and nothing else is written.
    let before = std::fs::read(d.join("artifact.toml")).unwrap();
    let out = artifact(d, &["init", SWEEP]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("artifact.toml exists: init never overwrites it"),
        "{}",
        stderr(&out)
    );
    assert_eq!(std::fs::read(d.join("artifact.toml")).unwrap(), before);
    assert!(!d.join("main.typ").exists());
    // An existing paper stub is kept as it is.
    std::fs::remove_file(d.join("artifact.toml")).unwrap();
    std::fs::write(d.join("main.tex"), "mine").unwrap();
    let out = artifact(d, &["init", SWEEP]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stderr(&out).contains("kept main.tex (it exists)\n"));
    assert_eq!(std::fs::read_to_string(d.join("main.tex")).unwrap(), "mine");
}

#[test]
fn init_without_data_starts_from_inline_rows_and_names_data_beside_the_folder_with_dotdot() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let out = artifact(d, &["init"]);
    assert!(out.status.success(), "{}", stderr(&out));
    gen_ok(d);
    assert_eq!(numbers(d)["example-median"]["text"], "6.05");

    let top = tempfile::tempdir().unwrap();
    let paper = top.path().join("paper");
    std::fs::create_dir(&paper).unwrap();
    std::fs::write(top.path().join("x.csv"), "a,b\n1,2\n3,5\n").unwrap();
    let out = artifact(&paper, &["init", "../x.csv"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let spec = std::fs::read_to_string(paper.join("artifact.toml")).unwrap();
    assert!(
        spec.contains("[sources.x]\npath = \"../x.csv\"\n# 2 rows;"),
        "{spec}"
    );
    gen_ok(&paper);
}

#[test]
fn file_names_with_glob_characters_or_the_starter_names_and_keyword_headers_still_run() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("run[1].csv"), "true,not,_,x\n1,2,3,4\n5,6,7,8\n").unwrap();
    std::fs::write(d.join("r*.csv"), "a\n1\n").unwrap();
    std::fs::write(d.join("rx.csv"), "a\n2\n").unwrap();
    std::fs::write(d.join("example.csv"), "a\n3\n").unwrap();
    let out = artifact(d, &["init", "run[1].csv", "r*.csv", "example.csv"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let spec = std::fs::read_to_string(d.join("artifact.toml")).unwrap();
    assert!(
        spec.contains("[sources.run_1_]\npath = \"run[[]1[]].csv\"\n# 2 rows;"),
        "{spec}"
    );
    // `r*.csv` is that one file, not a pattern also matching rx.csv.
    assert!(
        spec.contains("[sources.r_]\npath = \"r[*].csv\"\n# 1 row;"),
        "{spec}"
    );
    assert!(spec.contains("[sources.example_data]\n"), "{spec}");
    // Headers that are words of the expression language are read through
    // `_`, never bare.
    assert!(
        spec.contains("layers = [{ mark = \"point\", data = \"example\", x = \"_['true']\", y = \"_['not']\" }]"),
        "{spec}"
    );
    gen_ok(d);
}

#[test]
fn a_failed_init_leaves_nothing_and_what_it_writes_is_readable() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // main.tex is a dangling link: kept, never written through.
    std::os::unix::fs::symlink("nowhere", d.join("main.tex")).unwrap();
    let out = artifact(d, &["init"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stderr(&out).contains("kept main.tex (it exists)"));
    assert!(!d.join("nowhere").exists());
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(d.join("artifact.toml"))
        .unwrap()
        .permissions()
        .mode();
    assert_ne!(
        mode & 0o044,
        0,
        "artifact.toml is {mode:o}: others cannot read it"
    );
    // A data file that cannot be read: nothing is written.
    let other = tempfile::tempdir().unwrap();
    std::fs::write(other.path().join("bad.jsonl"), "{\"a\": 1}\n{oops\n").unwrap();
    let out = artifact(other.path(), &["init", "bad.jsonl"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("bad.jsonl"), "{}", stderr(&out));
    let left: Vec<_> = std::fs::read_dir(other.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(left, ["bad.jsonl"]);
}

/// Google Benchmark's JSON output, as `--benchmark_out` writes it with no
/// extension: `context` has an array of caches, `benchmarks` the runs.
const GBENCH: &str = r#"{
  "context": {
    "num_cpus": 8,
    "caches": [
      {"type": "Data", "level": 1, "size": 32768},
      {"type": "Unified", "level": 2, "size": 262144}
    ]
  },
  "benchmarks": [
    {"name": "BM_Sort/8", "iterations": 1000000, "real_time": 42.3, "time_unit": "ns"},
    {"name": "BM_Sort/64", "iterations": 100000, "real_time": 610.5, "time_unit": "ns"},
    {"name": "BM_Sort/512", "iterations": 10000, "real_time": 7020.0, "time_unit": "ns"}
  ]
}
"#;

#[test]
fn init_on_a_file_without_extension_finds_its_format_and_the_records_array() {
    // Was: "cannot tell the format ...; set 'format'" at a line of a spec
    // init never wrote, then "expected an array of records".
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("bench_out"), GBENCH).unwrap();
    let out = artifact(d, &["init", "bench_out"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let spec = std::fs::read_to_string(d.join("artifact.toml")).unwrap();
    assert!(
        spec.contains(
            "[sources.bench_out]\npath = \"bench_out\"\nformat = \"json\"\n\
             # also an array of 2 records: records = \"/context/caches\"\n\
             records = \"/benchmarks\"\n# 3 rows; fields"
        ),
        "{spec}"
    );
    gen_ok(d);
    assert_eq!(numbers(d)["example-median"]["text"], "610");
}

#[test]
fn init_takes_records_and_format_from_the_command_line() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // JSON Lines under a `.log` name, and a summary read as one record.
    std::fs::write(d.join("run.log"), "{\"t\": 1.5}\n{\"t\": 2.5}\n").unwrap();
    std::fs::write(d.join("all_results.json"), GBENCH).unwrap();
    let out = artifact(d, &["init", "--format", "jsonl", "run.log"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let spec = std::fs::read_to_string(d.join("artifact.toml")).unwrap();
    assert!(
        spec.contains("path = \"run.log\"\nformat = \"jsonl\"\n# 2 rows;"),
        "{spec}"
    );
    std::fs::remove_file(d.join("artifact.toml")).unwrap();
    let out = artifact(d, &["init", "--records", "", "all_results.json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let spec = std::fs::read_to_string(d.join("artifact.toml")).unwrap();
    assert!(spec.contains("records = \"\"\n# 1 row;"), "{spec}");
}

#[test]
fn two_arrays_of_records_of_one_length_are_asked_about_not_guessed() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(
        d.join("m.json"),
        r#"{"train": [{"loss": 1.0}], "eval": [{"loss": 2.0}]}"#,
    )
    .unwrap();
    let out = artifact(d, &["init", "m.json"]);
    assert!(!out.status.success());
    assert_eq!(
        stderr(&out),
        "error: m.json: which array holds the records? /eval (1 record), /train (1 record): pass `--records POINTER`\n"
    );
    assert!(!d.join("artifact.toml").exists());
}

#[test]
fn pandas_index_column_is_not_the_example_and_a_header_with_spaces_is_read_through_underscore() {
    // Was: a bar per index value (2,788 bars).
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let mut csv = String::from(",config,Time (s),threads\n");
    for i in 0..100 {
        csv.push_str(&format!("{i},cfg{i},{}.5,{}\n", i % 7, 1 << (i % 4)));
    }
    std::fs::write(d.join("res.csv"), csv).unwrap();
    let out = artifact(d, &["init", "res.csv"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let spec = std::fs::read_to_string(d.join("artifact.toml")).unwrap();
    assert!(
        spec.contains("layers = [{ mark = \"point\", data = \"example\", x = \"threads\", y = \"_['Time (s)']\" }]"),
        "{spec}"
    );
    assert!(!spec.contains("docs/spec.md"), "{spec}");
    gen_ok(d);
    // np.median([i % 7 + 0.5 for i in range(100)])
    assert_eq!(numbers(d)["example-median"]["text"], "3.50");
}

#[test]
fn init_on_a_big_log_reads_a_sample_and_the_example_keeps_the_first_rows() {
    // Was: 6.27 GB, then "nodes limit reached" drawing 10^6 points.
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let mut log = String::new();
    for i in 0..12_000 {
        log.push_str(&format!("{{\"i\": {i}, \"ms\": {}}}\n", i % 97));
    }
    std::fs::write(d.join("log.jsonl"), log).unwrap();
    let out = artifact(d, &["init", "log.jsonl"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let spec = std::fs::read_to_string(d.join("artifact.toml")).unwrap();
    assert!(
        spec.contains("# the first 10000 rows; fields (type, distinct values, first value):\n#   i: int, 10000 distinct"),
        "{spec}"
    );
    assert!(
        spec.contains("steps = [{ filter = \"ms is number and i is number\" }, { limit = 5000 }]"),
        "{spec}"
    );
    gen_ok(d);
    assert_eq!(numbers(d)["example-rows"]["text"], "5000");
}

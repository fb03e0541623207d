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

/// A number's text with its no-break spaces as spaces (this pins the
/// digits and units, not the spacing).
fn text(n: &serde_json::Value, key: &str) -> String {
    n[key]["text"].as_str().unwrap().replace('\u{a0}', " ")
}

/// hyperfine's `--export-json` of two commands (fields it writes, cut to
/// five runs each).
const HYPERFINE: &str = r#"{"results": [
  {"command": "rg -c foo big.txt", "mean": 0.01234, "stddev": 0.00041, "median": 0.01221,
   "user": 0.0081, "system": 0.0039, "min": 0.0119, "max": 0.0135,
   "times": [0.0119, 0.0121, 0.01221, 0.0124, 0.0135], "exit_codes": [0, 0, 0, 0, 0]},
  {"command": "grep -c foo big.txt", "mean": 0.0531, "stddev": 0.00122, "median": 0.0529,
   "user": 0.0451, "system": 0.0079, "min": 0.0518, "max": 0.0548,
   "times": [0.0518, 0.0525, 0.0529, 0.0538, 0.0548], "exit_codes": [0, 0, 0, 0, 0]}
]}"#;

#[test]
fn init_on_hyperfine_json_quotes_mean_and_sigma_and_the_relative_speed() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("bench.json"), HYPERFINE).unwrap();
    let out = artifact(d, &["init", "bench.json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    gen_ok(d);
    let n = numbers(d);
    // hyperfine prints "Time (mean ± σ): 12.3 ms ± 0.4 ms"; 0.0531 / 0.01234
    assert_eq!(text(&n, "rg_-c_foo_big_txt-mean"), "(12.34 ± 0.41) ms");
    assert_eq!(text(&n, "grep_-c_foo_big_txt-mean"), "(53.1 ± 1.2) ms");
    assert_eq!(text(&n, "grep_-c_foo_big_txt-relative"), "4.30×");
    assert_eq!(text(&n, "rg_-c_foo_big_txt-relative"), "1.00×");
    let csv = std::fs::read_to_string(d.join("figures/example.csv")).unwrap();
    // The box plot reads every run: np.percentile of the 5 times, Tukey's
    // whiskers (0.0135 is above q3 + 1.5 IQR = 0.01285: an outlier).
    assert!(
        csv.contains("boxplot,box,rg -c foo big.txt,,5,0.0119,0.0121,0.01221,0.0124,0.0124,"),
        "{csv}"
    );
    assert!(
        csv.contains("boxplot,outlier,rg -c foo big.txt,,,,,,,,,0.0135"),
        "{csv}"
    );
}

#[test]
fn init_on_a_trainer_state_draws_both_losses_and_quotes_the_last_evaluation() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let mut log = Vec::new();
    for s in (10..=100).step_by(10) {
        log.push(format!(
            r#"{{"epoch": {e}, "grad_norm": 1.5, "learning_rate": 5e-05, "loss": {l}, "step": {s}}}"#,
            e = s as f64 / 100.0,
            l = 2.5 - s as f64 / 100.0
        ));
        if s % 50 == 0 {
            log.push(format!(
                r#"{{"epoch": {e}, "eval_accuracy": {a}, "eval_loss": {l}, "eval_runtime": 3.2, "eval_samples_per_second": 100.0, "step": {s}}}"#,
                e = s as f64 / 100.0,
                a = 0.6 + s as f64 / 1000.0,
                l = 2.0 - s as f64 / 200.0
            ));
        }
    }
    log.push(r#"{"epoch": 1.0, "step": 100, "train_loss": 2.05, "train_runtime": 100.0}"#.into());
    let state = format!(
        r#"{{"epoch": 1.0, "global_step": 100, "log_history": [{}], "max_steps": 100}}"#,
        log.join(",\n")
    );
    std::fs::write(d.join("trainer_state.json"), state).unwrap();
    let out = artifact(d, &["init", "trainer_state.json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let spec = std::fs::read_to_string(d.join("artifact.toml")).unwrap();
    assert!(spec.contains("records = \"/log_history\"\n"), "{spec}");
    // No number for the evaluation's speed.
    assert!(!spec.contains("[numbers.eval-runtime]"), "{spec}");
    gen_ok(d);
    let n = numbers(d);
    assert_eq!(text(&n, "eval-accuracy"), "0.7000");
    assert_eq!(text(&n, "eval-loss"), "1.500");
    assert_eq!(text(&n, "train-loss"), "2.050");
    assert_eq!(text(&n, "example-rows"), "10");
    // 10 training losses and 2 evaluation losses drawn.
    let csv = std::fs::read_to_string(d.join("figures/example.csv")).unwrap();
    assert_eq!(csv.matches(",training").count(), 10, "{csv}");
    assert_eq!(csv.matches(",evaluation").count(), 2, "{csv}");
}

#[test]
fn init_on_one_criterion_estimate_reads_every_benchmark_as_criterion_prints_it() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    for (id, lo, mean, hi) in [
        ("fib/20", 10256.1, 10309.3, 10365.2),
        ("fib/30", 1262000.5, 1270123.4, 1280000.9),
        ("sort/1k", 0.66, 0.66975, 0.68),
    ] {
        let new = d.join("target/criterion").join(id).join("new");
        std::fs::create_dir_all(&new).unwrap();
        let ci = format!(
            r#"{{"confidence_interval": {{"confidence_level": 0.95, "lower_bound": {lo}, "upper_bound": {hi}}}, "point_estimate": {mean}, "standard_error": 1.0}}"#
        );
        std::fs::write(
            new.join("estimates.json"),
            format!(r#"{{"mean": {ci}, "median": {ci}, "median_abs_dev": {ci}, "slope": null, "std_dev": {ci}}}"#),
        )
        .unwrap();
        std::fs::write(
            new.join("benchmark.json"),
            format!(
                r#"{{"group_id": "x", "function_id": null, "full_id": "{id}", "title": "{id}"}}"#
            ),
        )
        .unwrap();
    }
    let out = artifact(d, &["init", "target/criterion/fib/20/new/estimates.json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let spec = std::fs::read_to_string(d.join("artifact.toml")).unwrap();
    assert!(
        spec.contains(
            "path = \"target/criterion/**/new/estimates.json\"\nrecords = \"\"\n# 3 rows;"
        ),
        "{spec}"
    );
    gen_ok(d);
    let n = numbers(d);
    // criterion: "time: [10.256 µs 10.309 µs 10.365 µs]", 1.2701 ms, 669.75 ps
    assert_eq!(text(&n, "fib_20"), "10.309 µs");
    assert_eq!(text(&n, "fib_30"), "1.2701 ms");
    assert_eq!(text(&n, "sort_1k"), "669.75 ps");
}

#[test]
fn a_text_field_of_quantities_gets_the_expression_that_reads_it() {
    // Was: `p99: string, ... e.g. 87us` and no word of `quantity`.
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(
        d.join("kv.jsonl"),
        "{\"system\": \"a\", \"p99\": \"87us\", \"size\": \"1.5 GiB\"}\n{\"system\": \"b\", \"p99\": \"2.80ms\", \"size\": \"2 GiB\"}\n",
    )
    .unwrap();
    let out = artifact(d, &["init", "kv.jsonl"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let spec = std::fs::read_to_string(d.join("artifact.toml")).unwrap();
    assert!(
        spec.contains("#   p99: string, 2 distinct, e.g. 87us\n#     a quantity with its unit: `quantity(p99, 's')` reads it as a number of s\n"),
        "{spec}"
    );
    assert!(
        spec.contains(
            "#     a quantity with its unit: `quantity(size, 'B')` reads it as a number of B\n"
        ),
        "{spec}"
    );
    assert!(!spec.contains("quantity(system"), "{spec}");
}

#[test]
fn init_on_google_benchmark_json_quotes_each_benchmarks_median_in_seconds() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::copy(
        root().join("tests/fixtures/gbench/laptop.json"),
        d.join("laptop.json"),
    )
    .unwrap();
    let out = artifact(d, &["init", "laptop.json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let spec = std::fs::read_to_string(d.join("artifact.toml")).unwrap();
    assert!(spec.contains("records = \"/benchmarks\"\n"), "{spec}");
    gen_ok(d);
    let n = numbers(d);
    // statistics.median([105.25, 101.5, 103.75, 102.0]) ns = 102.875 ns,
    // the file's own `_median` row; to 3 figures.
    assert_eq!(n["BM_sort_1024"]["value"], 1.02875e-7);
    assert_eq!(text(&n, "BM_sort_1024"), "103 ns");
}

#[test]
fn init_on_pytest_benchmark_json_quotes_mean_and_stddev() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(
        d.join("0001_parse.json"),
        r#"{"machine_info": {"node": "bench1"}, "commit_info": {"id": "3f2a9c1e"},
  "benchmarks": [
    {"group": null, "name": "test_parse[large]", "fullname": "t.py::test_parse[large]", "param": "large",
     "stats": {"min": 0.021945, "max": 0.025872, "mean": 0.0231, "stddev": 0.000693, "rounds": 43, "median": 0.022869, "ops": 43.29}},
    {"group": null, "name": "test_parse[small]", "fullname": "t.py::test_parse[small]", "param": "small",
     "stats": {"min": 0.000101, "max": 0.000190, "mean": 0.000123, "stddev": 0.0000081, "rounds": 900, "median": 0.000119, "ops": 8130.1}}
  ],
  "datetime": "2026-11-30T10:20:03+00:00", "version": "4.0.0"}"#,
    )
    .unwrap();
    let out = artifact(d, &["init", "0001_parse.json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    gen_ok(d);
    let n = numbers(d);
    // pytest-benchmark: 23.1000 ms ± 0.693 ms; 123.0 µs ± 8.1 µs.
    assert_eq!(text(&n, "test_parse_large"), "(23.10 ± 0.69) ms");
    assert_eq!(text(&n, "test_parse_small"), "(123.0 ± 8.1) µs");
    assert_eq!(n["example-rows"]["text"], "2");
}

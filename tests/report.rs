//! `artifact check --report`: the report for artifact evaluators, on a copy
//! of the demo paper as committed and with re-measured data (host times
//! 1% slower), with and without a tolerance.

mod common;

use std::path::Path;

use common::*;

fn report(dir: &Path, args: &[&str]) -> (Option<i32>, serde_json::Value, String) {
    let mut all = vec!["check", "--report", "r.json"];
    all.extend_from_slice(args);
    let out = artifact(dir, &all);
    let json = serde_json::from_slice(&std::fs::read(dir.join("r.json")).unwrap()).unwrap();
    (out.status.code(), json, stderr(&out))
}

fn number<'a>(r: &'a serde_json::Value, key: &str) -> &'a serde_json::Value {
    r["numbers"]
        .as_array()
        .unwrap()
        .iter()
        .find(|n| n["key"] == key)
        .unwrap()
}

#[test]
fn the_committed_paper_reproduces_and_the_markdown_says_so() {
    let dir = paper_whole();
    let out = artifact(dir.path(), &["check", "--report", "report.md"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        stderr(&out),
        "wrote report.md: reproduced (0 of 26 numbers, 0 of 135 results-table cells not reproduced)\n"
    );
    let md = std::fs::read_to_string(dir.path().join("report.md")).unwrap();
    assert!(md.starts_with("# Reproduction report\n\n**Result: reproduced.** 26 of 26 numbers reproduced (printed text identical); 135 of 135 results-table cells reproduced; 10 of 10 figures and results tables identical.\n"), "{md}");
    assert!(md.contains("| fig3-median | 3.859 | 3.859 | 0 | identical |\n"));
    assert!(md.contains("| data/compression/results/results.jsonl.zst | `0ce62b7ec28af14a68103a0fa477f08b7f9e4ced6995074665e27e19f336ad5b` | same |\n"));
    assert!(
        md.contains(
            "| fig1 | identical | figures/fig1.svg, figures/fig1.pdf, figures/fig1.csv |\n"
        )
    );
    // The same tree, the same bytes.
    let again = artifact(dir.path(), &["check", "--report", "again.md"]);
    assert!(again.status.success());
    assert_eq!(
        md,
        std::fs::read_to_string(dir.path().join("again.md")).unwrap()
    );
}

#[test]
fn remeasured_data_is_reproduced_within_a_tolerance_and_not_without() {
    let dir = paper_whole();
    let d = dir.path();
    remeasure(d);

    // No tolerance: the number's text changed, as `check` says (exit 1).
    let (code, r, _) = report(d, &[]);
    assert_eq!(code, Some(1));
    let n = number(&r, "attr-none-ms");
    assert_eq!(n["committed"], "30.69");
    assert_eq!(n["recomputed"], "30.89");
    assert_eq!(n["status"], "differs");
    assert_eq!(r["reproduced"], false);
    let input = r["inputs"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["file"] == ATTRIBUTION)
        .unwrap();
    assert_eq!(input["status"], "changed");

    // Within 2%: reproduced; the figure drawn from it differs (listed, not failing).
    let (code, r, err) = report(d, &["--tolerance", "2%"]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(number(&r, "attr-none-ms")["status"], "within tolerance");
    let rel = number(&r, "attr-none-ms")["relative"].as_f64().unwrap();
    assert!((0.005..0.007).contains(&rel), "{rel}");
    let attribution = r["figures"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["name"] == "attribution")
        .unwrap();
    assert_eq!(attribution["status"], "differs");
    assert_eq!(
        r["tolerance"],
        serde_json::json!({"kind": "relative", "by": 0.02})
    );

    // Within an absolute 0.1 ms: not (the difference is 0.2 ms).
    let (code, r, err) = report(d, &["--tolerance", "0.1"]);
    assert_eq!(code, Some(1));
    assert_eq!(number(&r, "attr-none-ms")["status"], "differs");
    assert!(
        err.contains(
            ": NOT reproduced (1 of 26 numbers, 0 of 135 results-table cells not reproduced)"
        ),
        "{err}"
    );
}

#[test]
fn a_bad_tolerance_is_an_error_and_needs_a_report() {
    let dir = paper_whole();
    let out = artifact(
        dir.path(),
        &["check", "--report", "r.md", "--tolerance", "-2%"],
    );
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        "error: --tolerance `-2%`: expected a percentage (`2%`) or an absolute difference (`0.05`), not negative\n"
    );
    let out = artifact(dir.path(), &["check", "--tolerance", "2%"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--report <FILE>"), "{}", stderr(&out));
}

#[test]
fn a_report_never_overwrites_the_spec_the_lock_an_input_or_an_output() {
    let dir = paper_whole();
    let d = dir.path();
    let before = snapshot(d);
    for (target, what) in [
        ("artifact.toml", "the spec (artifact.toml)"),
        ("./figures/../artifact.lock", "the lock (artifact.lock)"),
        ("generated/macros.tex", "an output (generated/macros.tex)"),
        (ATTRIBUTION, &format!("an input ({ATTRIBUTION})")),
    ] {
        let out = artifact(d, &["check", "--report", target]);
        assert_eq!(out.status.code(), Some(2));
        assert_eq!(
            stderr(&out),
            format!("error: --report {target}: that is {what}; write the report to another file\n")
        );
    }
    assert!(before == snapshot(d), "a refused report changed the folder");
}

/// A project whose results table and interval number read `t.csv`.
const SMALL: &str = r#"[sources.t]
path = "t.csv"

[numbers.base]
table = "t"
where = "system == 'baseline'"
value = { mean = "ms" }
uncertainty = { low = { min = "ms" }, high = { max = "ms" } }
format = { places = 1 }

[results_tables.times]
from = "t"
columns = [{ field = "system" }, { field = "ms", header = "Time (ms)", format = { places = 1 } }]
"#;

#[test]
fn a_results_table_cell_that_doubled_is_not_reproduced_within_two_percent() {
    // Was: "Result: reproduced. 3 of 3 numbers reproduced within 2%", exit 0.
    let dir = project(SMALL);
    let d = dir.path();
    std::fs::write(
        d.join("t.csv"),
        "system,ms\nbaseline,24.6\nbaseline,24.4\nours,12.1\n",
    )
    .unwrap();
    gen_ok(d);
    std::fs::write(
        d.join("t.csv"),
        "system,ms\nbaseline,24.6\nbaseline,24.4\nours,24.2\n",
    )
    .unwrap();
    let (code, r, err) = report(d, &["--tolerance", "2%"]);
    assert_eq!(code, Some(1), "{err}");
    assert_eq!(number(&r, "base")["status"], "identical");
    let cells = &r["results_tables"][0]["cells"];
    assert_eq!(
        (cells["total"].as_u64(), cells["reproduced"].as_u64()),
        (Some(8), Some(7))
    );
    assert_eq!(
        cells["differing"][0],
        serde_json::json!({"row": 3, "column": "Time (ms)", "committed": "12.1", "recomputed": "24.2"})
    );
    assert!(
        err.contains("NOT reproduced (0 of 1 numbers, 1 of 8 results-table cells not reproduced)"),
        "{err}"
    );
    let md = artifact(d, &["check", "--report", "-", "--tolerance", "2%"]);
    let md = String::from_utf8_lossy(&md.stdout).into_owned();
    assert!(md.contains("**Result: NOT reproduced.** 1 of 1 numbers reproduced within 2% (relative); 7 of 8 results-table cells reproduced within 2% (relative);"), "{md}");
    assert!(
        md.contains("Not reproduced: results table times row 3, Time (ms): 12.1 -> 24.2.\n"),
        "{md}"
    );
}

#[test]
fn an_interval_bound_outside_the_tolerance_is_not_reproduced_though_the_value_is() {
    let dir = project(SMALL);
    let d = dir.path();
    std::fs::write(
        d.join("t.csv"),
        "system,ms\nbaseline,20.0\nbaseline,30.0\nours,12.1\n",
    )
    .unwrap();
    gen_ok(d);
    // The mean stays 25.0; the interval [20, 30] becomes [15, 35].
    std::fs::write(
        d.join("t.csv"),
        "system,ms\nbaseline,15.0\nbaseline,35.0\nours,12.1\n",
    )
    .unwrap();
    let (code, r, err) = report(d, &["--tolerance", "2%"]);
    assert_eq!(code, Some(1), "{err}");
    let n = number(&r, "base");
    assert_eq!(n["status"], "differs");
    assert_eq!(n["bound"], "low 20 -> 15");
    assert_eq!(n["difference"], 0.0);
}

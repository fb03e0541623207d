//! Issue 25, point 6: a failed run removed a figure. With an empty
//! `attribution.jsonl`, `gen` exited 2 (`attr-none-ms` needs one row) and,
//! in the same failed run, deleted `figures/attribution.{svg,pdf,csv}`
//! because the figure had nothing to draw: the paper no longer compiled.
//! Now a figure with nothing to draw in a run where a part fails is held
//! as a failed part: its files stay byte for byte, its record stays in the
//! lock, a note says why, and `check` names it stale with the reason. In a
//! run where nothing fails, nothing to draw still removes its files (the
//! data says there is no figure; `check` then passes).

mod common;

use std::path::Path;

use common::{ATTRIBUTION, artifact, paper_whole, stderr};

const FILES: [&str; 3] = [
    "figures/attribution.svg",
    "figures/attribution.pdf",
    "figures/attribution.csv",
];

/// Why the attribution figure has nothing to draw once its log is empty.
const NOTHING: &str = "figure `attribution` has nothing to draw: layer 1 (bar) skipped: table `attribution_bars` has no rows; layer 2 (bar) skipped: table `attribution_bars` has no rows; layer 3 (bar) skipped: table `attribution_bars` has no rows; layer 4 (text) skipped: table `attribution_bars` has no rows";

fn bytes(dir: &Path) -> Vec<Vec<u8>> {
    FILES
        .iter()
        .map(|f| std::fs::read(dir.join(f)).unwrap())
        .collect()
}

#[test]
fn a_failed_run_keeps_the_files_of_a_figure_with_nothing_to_draw() {
    let dir = paper_whole();
    let d = dir.path();
    let before = bytes(d);
    let lock_before = std::fs::read_to_string(d.join("artifact.lock")).unwrap();
    std::fs::write(d.join(ATTRIBUTION), "").unwrap();

    let out = artifact(d, &["gen"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(err.contains("note: figure `attribution` keeps its previous files (figures/attribution.svg, figures/attribution.pdf, figures/attribution.csv): it has nothing to draw in a run where a part failed, and a failed run removes no figure (`artifact check` names it stale)\n"), "{err}");
    assert!(err.contains(&format!("skip: {NOTHING}\n")), "{err}");
    assert!(err.contains("error: number `attr-none-ms`: over 0 row(s) of table `attribution_bars`: `cell` needs exactly one row, but 0 rows are left\n"), "{err}");
    assert!(!err.contains("removed figures/attribution"), "{err}");
    assert_eq!(bytes(d), before, "the figure's files are unchanged");

    // Its record stays (as a failed figure's), and the lock says it failed.
    let lock = std::fs::read_to_string(d.join("artifact.lock")).unwrap();
    assert!(
        lock.contains("failed = [\"figure.attribution\", \"number.attr-none-ms\"]\n"),
        "{lock}"
    );
    let record = |l: &str| {
        let at = l.find("[figures.attribution]").unwrap();
        l[at..].split("\n\n").next().unwrap().to_string()
    };
    assert_eq!(record(&lock), record(&lock_before));
    for f in FILES {
        let line = |l: &str| {
            l.lines()
                .find(|x| x.starts_with(&format!("\"{f}\"")))
                .unwrap()
                .to_string()
        };
        assert_eq!(line(&lock), line(&lock_before), "{f}");
    }

    let check = artifact(d, &["check"]);
    assert_eq!(check.status.code(), Some(2));
    assert_eq!(
        stderr(&check),
        format!(
            "stale: 1 figure\n\n\
             figures:\n  attribution: figures/attribution.svg, figures/attribution.pdf, figures/attribution.csv differ (the data no longer draws it: {NOTHING}; `artifact gen` keeps its files while a part fails)\n\n\
             inputs since artifact.lock:\n  changed  {ATTRIBUTION}\n\n\
             to bring them up to date: artifact gen\n\
             error: number `attr-none-ms`: over 0 row(s) of table `attribution_bars`: `cell` needs exactly one row, but 0 rows are left\n"
        )
    );
}

#[test]
fn a_held_figure_is_current_again_once_its_data_is_back() {
    let dir = paper_whole();
    let d = dir.path();
    let log = std::fs::read(d.join(ATTRIBUTION)).unwrap();
    std::fs::write(d.join(ATTRIBUTION), "").unwrap();
    assert_eq!(artifact(d, &["gen"]).status.code(), Some(2));
    std::fs::write(d.join(ATTRIBUTION), log).unwrap();
    let out = artifact(d, &["gen"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("current (not rebuilt): fig1, fig2, fig3, fig4, fig5, sim_hit_vs_capacity, capacity_sweep, two_node, attribution, results table fig5_points\n"),
        "{}",
        stderr(&out)
    );
    let check = artifact(d, &["check"]);
    assert_eq!(check.status.code(), Some(0), "{}", stderr(&check));
    for f in FILES {
        assert_eq!(
            std::fs::read(d.join(f)).unwrap(),
            std::fs::read(common::root().join("paper").join(f)).unwrap(),
            "{f}"
        );
    }
}

#[test]
fn nothing_to_draw_in_a_run_without_failures_still_removes_the_files() {
    // The failing number gone, the run succeeds: the data says there is no
    // figure, its files go in the same transaction, and `check` passes.
    let dir = paper_whole();
    let d = dir.path();
    let spec = std::fs::read_to_string(d.join("artifact.toml")).unwrap();
    let number = "[numbers.attr-none-ms]\ntable = \"attribution_bars\"\nwhere = \"predictor == 'none' and m == 0\"\nvalue = { cell = \"total\" }\nformat = { places = 2 }\ndescription = \"host ms per token without prediction (sync + prefetch + demand reads)\"\n";
    assert!(spec.contains(number));
    std::fs::write(d.join("artifact.toml"), spec.replace(number, "")).unwrap();
    std::fs::write(d.join(ATTRIBUTION), "").unwrap();
    let out = artifact(d, &["gen"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(err.contains(&format!("skip: {NOTHING}\n")), "{err}");
    for f in FILES {
        assert!(
            err.contains(&format!("removed {f} (its figure has nothing to draw)\n")),
            "{err}"
        );
        assert!(!d.join(f).exists(), "{f}");
    }
    assert!(!err.contains("keeps its previous files"), "{err}");
    let check = artifact(d, &["check"]);
    assert_eq!(check.status.code(), Some(0), "{}", stderr(&check));
}

/// A results table over an optional source, and a number over `a` that
/// needs exactly one row.
const SPEC: &str = r#"[sources.a]
path = "a.csv"

[sources.b]
path = "b.csv"
optional = true

[numbers.one]
table = "a"
value = { cell = "x" }

[results_tables.t]
from = "b"
columns = [{ field = "y" }]
"#;

#[test]
fn a_failed_run_keeps_the_files_of_a_results_table_whose_table_is_unavailable() {
    let dir = common::project(SPEC);
    let d = dir.path();
    std::fs::write(d.join("a.csv"), "x\n1\n").unwrap();
    std::fs::write(d.join("b.csv"), "y\n5\n").unwrap();
    let out = artifact(d, &["gen"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let files = [
        "generated/t.tex",
        "generated/t.typ",
        "generated/t.csv",
        "generated/t.md",
    ];
    let before: Vec<Vec<u8>> = files
        .iter()
        .map(|f| std::fs::read(d.join(f)).unwrap())
        .collect();
    // `one` fails (two rows) and `b` is gone in the same run.
    std::fs::write(d.join("a.csv"), "x\n1\n2\n").unwrap();
    std::fs::remove_file(d.join("b.csv")).unwrap();
    let out = artifact(d, &["gen"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(err.contains("note: results table `t` keeps its previous files (generated/t.tex, generated/t.typ, generated/t.csv, generated/t.md): its table is unavailable in a run where a part failed, and a failed run removes no output (`artifact check` names it stale)\n"), "{err}");
    let after: Vec<Vec<u8>> = files
        .iter()
        .map(|f| std::fs::read(d.join(f)).unwrap())
        .collect();
    assert_eq!(after, before);
    let check = artifact(d, &["check"]);
    assert_eq!(check.status.code(), Some(2));
    assert!(stderr(&check).contains("results tables:\n  t: generated/t.tex, generated/t.typ, generated/t.csv, generated/t.md differ (its table is unavailable; `artifact gen` keeps its files while a part fails)\n"), "{}", stderr(&check));
    // With the number fixed, the run succeeds and the files go.
    std::fs::write(d.join("a.csv"), "x\n1\n").unwrap();
    let out = artifact(d, &["gen"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    for f in files {
        assert!(!d.join(f).exists(), "{f}");
    }
}

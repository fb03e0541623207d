//! check and gen say why a number or figure is stale (issue 13, item 7):
//! a number computed from other numbers or from `meta` names the input
//! file that changed (it said "spec changed"); a figure says `spec
//! changed`, `quoted number changed: KEY` or `input changed: FILE`.

mod common;

use std::path::Path;

use common::artifact;

/// `twice` reads `total` (of `a.csv`), `seed` reads the metadata of
/// `run.json`; figure `f` quotes `total`.
const SPEC: &str = r#"[sources.a]
path = "a.csv"

[sources.run]
path = "run.json"
records = "/rows"

[numbers.total]
table = "a"
value = { sum = "x" }

[numbers.twice]
value = { expr = "v['total'] * 2" }

[numbers.seed]
value = { expr = "meta['run'].seed" }

[figures.f]
size = [3, 2]
title = "total {{ n['total'] }}"
layers = [{ mark = "point", data = "a", x = "x", y = "x" }]
"#;

fn stderr(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The project built once: total 3, twice 6, seed 7.
fn project() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("artifact.toml"), SPEC).unwrap();
    std::fs::write(d.join("a.csv"), "x\n1\n2\n").unwrap();
    std::fs::write(d.join("run.json"), r#"{"seed": 7, "rows": [{"k": 1}]}"#).unwrap();
    let out = artifact(d, &["gen"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    dir
}

fn edit_spec(d: &Path, from: &str, to: &str) {
    let spec = std::fs::read_to_string(d.join("artifact.toml")).unwrap();
    assert!(spec.contains(from));
    std::fs::write(d.join("artifact.toml"), spec.replace(from, to)).unwrap();
}

#[test]
fn data_changed_under_an_expr_number_names_the_file_not_the_spec() {
    let dir = project();
    let d = dir.path();
    std::fs::write(d.join("a.csv"), "x\n1\n3\n").unwrap();
    std::fs::write(d.join("run.json"), r#"{"seed": 8, "rows": [{"k": 1}]}"#).unwrap();
    let out = artifact(d, &["check"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stderr(&out),
        "stale: 3 numbers, 1 figure\n\n\
         numbers (committed -> from the data now):\n  \
         total  3 -> 4   (input changed: a.csv)\n  \
         twice  6 -> 8   (input changed: a.csv)\n  \
         seed   7 -> 8   (input changed: run.json)\n\n\
         figures:\n  f: figures/f.svg, figures/f.pdf, figures/f.csv differ (input changed: a.csv)\n\n\
         inputs since artifact.lock:\n  changed  a.csv\n  changed  run.json\n\n\
         to bring them up to date: artifact gen\n"
    );
    let out = artifact(d, &["gen"]);
    assert!(
        stderr(&out).starts_with("rebuilt f (input changed: a.csv)\n"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_changed_expression_is_a_spec_change() {
    let dir = project();
    let d = dir.path();
    edit_spec(d, "v['total'] * 2", "v['total'] * 3");
    let out = artifact(d, &["check"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stderr(&out),
        "stale: 1 number\n\n\
         numbers (committed -> from the data now):\n  \
         twice  6 -> 9   (spec changed)\n\n\
         to bring them up to date: artifact gen\n"
    );
}

#[test]
fn a_figure_whose_own_part_changed_says_spec_changed() {
    let dir = project();
    let d = dir.path();
    edit_spec(d, "size = [3, 2]", "size = [3, 2.5]");
    let out = artifact(d, &["check"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stderr(&out),
        "stale: 1 figure\n\n\
         figures:\n  f: figures/f.svg, figures/f.pdf differ (spec changed)\n\n\
         to bring them up to date: artifact gen\n"
    );
    let out = artifact(d, &["gen"]);
    assert!(
        stderr(&out).starts_with("rebuilt f (spec changed)\n"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_quoted_number_that_changed_is_named() {
    let dir = project();
    let d = dir.path();
    edit_spec(d, "value = { sum = \"x\" }", "value = { max = \"x\" }");
    let out = artifact(d, &["check"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stderr(&out),
        "stale: 2 numbers, 1 figure\n\n\
         numbers (committed -> from the data now):\n  \
         total  3 -> 2   (spec changed)\n  \
         twice  6 -> 4   (quoted number changed: total)\n\n\
         figures:\n  f: figures/f.svg, figures/f.pdf differ (quoted number changed: total)\n\n\
         to bring them up to date: artifact gen\n"
    );
    let out = artifact(d, &["gen"]);
    assert!(
        stderr(&out).starts_with("rebuilt f (quoted number changed: total)\n"),
        "{}",
        stderr(&out)
    );
}

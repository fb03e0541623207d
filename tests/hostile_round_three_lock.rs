//! Issue 25, point 7: a record deleted from or edited in `artifact.lock`
//! was rightly stale but got the reason `(spec changed)`, though the spec
//! was the one the lock hashed. Now the reason is the true one: `not in
//! artifact.lock`, or `its record in artifact.lock was edited` (its key,
//! text or value match nothing the inputs give). A figure whose files
//! match the data but whose record is missing or edited gets a note from
//! `check`, and `gen` says why it writes the record again.

mod common;

use std::path::Path;

use common::{artifact, stderr};

/// `total` sums `a.csv`; `nb` sums `b.csv`; table `t` keeps the rows of
/// `a.csv` at most `nb` (a table quoting a number); figure `f` draws `a`,
/// figure `g` draws `t`.
const SPEC: &str = r#"[sources.a]
path = "a.csv"

[sources.b]
path = "b.csv"

[numbers.total]
table = "a"
value = { sum = "x" }

[numbers.nb]
table = "b"
value = { sum = "y" }

[tables.t]
from = "a"
steps = [{ filter = "x <= v['nb']" }]

[figures.f]
size = [3, 2]
layers = [{ mark = "point", data = "a", x = "x", y = "x" }]

[figures.g]
size = [3, 2]
layers = [{ mark = "point", data = "t", x = "x", y = "x" }]
"#;

fn stdout(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// The project built once: total 3, nb 5.
fn project() -> tempfile::TempDir {
    let dir = common::project(SPEC);
    let d = dir.path();
    std::fs::write(d.join("a.csv"), "x\n1\n2\n").unwrap();
    std::fs::write(d.join("b.csv"), "y\n5\n").unwrap();
    let out = artifact(d, &["gen"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    dir
}

fn edit_lock(d: &Path, edit: impl Fn(&str) -> String) {
    let lock = std::fs::read_to_string(d.join("artifact.lock")).unwrap();
    let edited = edit(&lock);
    assert_ne!(edited, lock);
    std::fs::write(d.join("artifact.lock"), edited).unwrap();
}

/// The lock without the section `[header]` (up to the blank line).
fn without(lock: &str, header: &str) -> String {
    let at = lock.find(header).unwrap();
    let end = lock[at..].find("\n\n").map_or(lock.len(), |e| at + e + 2);
    format!("{}{}", &lock[..at], &lock[end..])
}

#[test]
fn a_number_record_deleted_from_the_lock_is_not_in_artifact_lock() {
    let dir = project();
    let d = dir.path();
    edit_lock(d, |l| without(l, "[numbers.total]"));
    let out = artifact(d, &["check"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stderr(&out),
        "stale: 1 number\n\n\
         numbers (committed -> from the data now):\n  \
         total  (none) -> 3   (not in artifact.lock)\n\n\
         to bring them up to date: artifact gen\n"
    );
}

#[test]
fn a_number_record_edited_in_the_lock_says_so_not_spec_changed() {
    let dir = project();
    let d = dir.path();
    edit_lock(d, |l| {
        let at = l.find("[numbers.total]").unwrap();
        format!(
            "{}{}",
            &l[..at],
            l[at..].replacen("text = \"3\"", "text = \"9\"", 1)
        )
    });
    let out = artifact(d, &["check"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stderr(&out),
        "stale: 1 number\n\n\
         numbers (committed -> from the data now):\n  \
         total  9 -> 3   (its record in artifact.lock was edited)\n\n\
         to bring them up to date: artifact gen\n"
    );
    let out = artifact(d, &["gen"]);
    assert!(
        stderr(&out).contains("number total: 9 -> 3 (its record in artifact.lock was edited)\n"),
        "{}",
        stderr(&out)
    );
    let out = artifact(d, &["check"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
}

#[test]
fn a_number_record_whose_spec_changed_still_says_spec_changed() {
    let dir = project();
    let d = dir.path();
    let spec = std::fs::read_to_string(d.join("artifact.toml")).unwrap();
    std::fs::write(
        d.join("artifact.toml"),
        spec.replace("value = { sum = \"x\" }", "value = { max = \"x\" }"),
    )
    .unwrap();
    let out = artifact(d, &["check"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("  total  3 -> 2   (spec changed)\n"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_figure_record_deleted_from_the_lock_is_rebuilt_as_not_in_artifact_lock() {
    let dir = project();
    let d = dir.path();
    edit_lock(d, |l| without(l, "[figures.f]"));
    let out = artifact(d, &["check"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "all figures and numbers are current\n\
         note: figure `f`: not in artifact.lock; its files match the data, and `artifact gen` records it again\n"
    );
    let out = artifact(d, &["check", "--fast"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stdout(&out).contains("note: figure `f`: not in artifact.lock;"));
    let out = artifact(d, &["gen"]);
    assert!(
        stderr(&out).starts_with("rebuilt f (not in artifact.lock)\ncurrent (not rebuilt): g\n"),
        "{}",
        stderr(&out)
    );
    let out = artifact(d, &["check"]);
    assert_eq!(stdout(&out), "all figures and numbers are current\n");
}

#[test]
fn a_figure_key_edited_in_the_lock_says_its_record_was_edited() {
    let dir = project();
    let d = dir.path();
    edit_lock(d, |l| {
        let at = l.find("[figures.f]\nkey = \"").unwrap() + "[figures.f]\nkey = \"".len();
        let first = if &l[at..at + 1] == "0" { "1" } else { "0" };
        format!("{}{first}{}", &l[..at], &l[at + 1..])
    });
    let out = artifact(d, &["check"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "all figures and numbers are current\n\
         note: figure `f`: its record in artifact.lock was edited; its files match the data, and `artifact gen` records it again\n"
    );
    let out = artifact(d, &["gen"]);
    assert!(
        stderr(&out).starts_with(
            "rebuilt f (its record in artifact.lock was edited)\ncurrent (not rebuilt): g\n"
        ),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_number_quoted_by_a_table_a_figure_draws_is_the_reason_not_an_edit() {
    // `g` draws `t`, whose filter quotes `nb`: `nb` changing changes `g`'s
    // key with its spec and its own inputs unchanged. That is a quoted
    // number, not an edited record (nor a spec change).
    let dir = project();
    let d = dir.path();
    std::fs::write(d.join("b.csv"), "y\n1\n").unwrap();
    let out = artifact(d, &["check"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stderr(&out),
        "stale: 1 number, 1 figure\n\n\
         numbers (committed -> from the data now):\n  \
         nb  5 -> 1   (input changed: b.csv)\n\n\
         figures:\n  g: figures/g.svg, figures/g.pdf, figures/g.csv differ (quoted number changed: nb)\n\n\
         inputs since artifact.lock:\n  changed  b.csv\n\n\
         to bring them up to date: artifact gen\n"
    );
    let out = artifact(d, &["gen"]);
    assert!(
        stderr(&out).starts_with("rebuilt g (quoted number changed: nb)\n"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_results_table_key_edited_in_the_lock_says_its_record_was_edited() {
    let dir = common::project(&format!(
        "{SPEC}\n[results_tables.r]\nfrom = \"a\"\ncolumns = [{{ field = \"x\" }}]\n"
    ));
    let d = dir.path();
    std::fs::write(d.join("a.csv"), "x\n1\n2\n").unwrap();
    std::fs::write(d.join("b.csv"), "y\n5\n").unwrap();
    assert_eq!(artifact(d, &["gen"]).status.code(), Some(0));
    edit_lock(d, |l| {
        let head = "[results_tables.r]\nkey = \"";
        let at = l.find(head).unwrap() + head.len();
        let first = if &l[at..at + 1] == "0" { "1" } else { "0" };
        format!("{}{first}{}", &l[..at], &l[at + 1..])
    });
    let out = artifact(d, &["check"]);
    assert_eq!(
        stdout(&out),
        "all figures and numbers are current\n\
         note: results table `r`: its record in artifact.lock was edited; its files match the data, and `artifact gen` records it again\n"
    );
    let out = artifact(d, &["gen"]);
    assert!(
        stderr(&out).contains("rebuilt results table r (its record in artifact.lock was edited)\n"),
        "{}",
        stderr(&out)
    );
    edit_lock(d, |l| without(l, "[results_tables.r]"));
    let out = artifact(d, &["gen"]);
    assert!(
        stderr(&out).contains("rebuilt results table r (not in artifact.lock)\n"),
        "{}",
        stderr(&out)
    );
}

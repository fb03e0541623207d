//! A step verb written on the table itself is an error that shows where it goes.

mod common;
use common::*;

/// `[tables.both] union = [...]` said only "a table takes one of: from,
/// steps" (a new user's trial): docs/writing-a-spec.md lists `union` among the steps.
#[test]
fn a_step_written_on_a_table_says_it_goes_in_steps() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("d.csv"), "a\n1\n").unwrap();
    std::fs::write(
        dir.path().join("artifact.toml"),
        "[sources.s]\npath = \"d.csv\"\n\n[tables.both]\nfrom = \"s\"\nunion = \"s\"\n",
    )
    .unwrap();
    let out = artifact(dir.path(), &["gen"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("artifact.toml:6:1: unknown key `union` in a table; `union` is a step: `steps = [{ union = ... }]` (a table takes one of: from, steps)"),
        "{err}"
    );
}

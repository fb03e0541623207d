//! `artifact diff`: numbers and figures that changed between two commits
//! of a temporary git repository holding the demo paper, and between a
//! commit and the working tree.

mod common;

use common::*;

fn stdout(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn diff_names_changed_numbers_with_their_inputs_and_changed_figures() {
    let dir = paper_whole();
    let d = dir.path();
    git(d, &["init", "-q"]);
    commit(d, "submitted");
    let same = artifact(d, &["diff"]);
    assert_eq!(
        stdout(&same),
        "HEAD -> working tree\nno number's text and no figure differs\n"
    );

    remeasure(d);
    gen_ok(d);
    let now = artifact(d, &["diff"]);
    assert!(now.status.success(), "{}", stderr(&now));
    assert_eq!(
        stdout(&now),
        format!(
            "HEAD -> working tree\n\
             number attr-none-ms: 30.69 -> 30.89 (inputs changed: {ATTRIBUTION})\n\
             figure attribution differs: figures/attribution.svg, figures/attribution.pdf, figures/attribution.csv\n"
        )
    );
    commit(d, "camera-ready");
    let md = artifact(d, &["diff", "HEAD~1", "HEAD", "--format", "md"]);
    assert_eq!(
        stdout(&md),
        format!(
            "Changes from `HEAD~1` to HEAD:\n\n\
             | number | before | after | inputs changed |\n|---|---|---|---|\n\
             | `attr-none-ms` | 30.69 | 30.89 | {ATTRIBUTION} |\n\n\
             Figures and tables that changed: attribution (differs).\n"
        )
    );
    let json: serde_json::Value =
        serde_json::from_slice(&artifact(d, &["diff", "HEAD~1", "--format", "json"]).stdout)
            .unwrap();
    assert_eq!(
        json["inputs"],
        serde_json::json!([{"status": "changed", "file": ATTRIBUTION}])
    );
}

#[test]
fn diff_at_a_revision_without_a_lock_or_an_unknown_one_is_an_error() {
    let dir = paper_whole();
    let d = dir.path();
    git(d, &["init", "-q"]);
    let out = artifact(d, &["diff", "nope"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).starts_with("error: cannot read artifact.lock at revision nope (git show nope:./artifact.lock: fatal: "),
        "{}",
        stderr(&out)
    );
    let out = artifact(d, &["diff", "--", "-x"]);
    assert_eq!(stderr(&out), "error: `-x` is not a git revision\n");
}

#[test]
fn diff_before_gen_says_the_lock_is_behind_and_what_gen_would_change() {
    // Was: "no number's text and no figure differs" while `check` said
    // a number and a figure were stale.
    let dir = paper_whole();
    let d = dir.path();
    git(d, &["init", "-q"]);
    commit(d, "submitted");
    remeasure(d);
    let out = artifact(d, &["diff"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let fix = String::from_utf8_lossy(&artifact(d, &["check"]).stderr)
        .lines()
        .find_map(|l| {
            l.strip_prefix("to bring them up to date: ")
                .map(String::from)
        })
        .unwrap();
    assert_eq!(
        stdout(&out),
        format!(
            "HEAD -> working tree\nno number's text and no figure differs\n\n\
             artifact.lock is behind the data or the spec (`artifact check` is stale): \
             `artifact gen` would change 1 number, 1 figure:\n  \
             number attr-none-ms: 30.69 -> 30.89 (input changed: {ATTRIBUTION})\n  \
             figure attribution\nto bring them up to date: {fix}\n"
        )
    );
    let json: serde_json::Value =
        serde_json::from_slice(&artifact(d, &["diff", "--format", "json"]).stdout).unwrap();
    assert_eq!(json["pending"]["numbers"][0]["new"], "30.89");
    assert_eq!(
        json["pending"]["figures"],
        serde_json::json!(["attribution"])
    );
    // Two revisions: the locks only.
    let two = artifact(d, &["diff", "HEAD", "HEAD"]);
    assert_eq!(
        stdout(&two),
        "HEAD -> HEAD\nno number's text and no figure differs\n"
    );
}

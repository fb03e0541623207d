//! artifact.lock, `artifact check` and the pre-commit hook: stale numbers
//! and figures cannot be committed.

mod common;

use std::path::Path;

use common::*;

fn stderr(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn stdout(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Replaces the first `from` in a data file by `to`.
fn edit(dir: &Path, rel: &str, from: &str, to: &str) {
    let p = dir.join(rel);
    let text = std::fs::read_to_string(&p).unwrap();
    assert!(text.contains(from), "{rel} lacks {from}");
    std::fs::write(&p, text.replacen(from, to, 1)).unwrap();
}

const PAIRS: &str = "data/compression/provenance/iter5/precheck_l/atlas_train.jsonl";

#[test]
fn gen_writes_a_sorted_lock_and_rebuilds_only_what_changed() {
    let dir = paper_copy();
    gen_ok(dir.path());
    let lock = std::fs::read_to_string(dir.path().join("artifact.lock")).unwrap();
    assert!(lock.contains("tool = \"artifact "));
    assert!(lock.contains(&format!("\"{PAIRS}\" = ")));
    assert!(lock.contains("[numbers.fig3-median]\nkey = "));
    assert!(lock.contains("text = \"3.859\""));
    let out = gen_ok(dir.path());
    assert!(
        stderr(&out).contains("current (not rebuilt): fig1, fig2, fig3, fig4, fig5, sim_hit_vs_capacity, capacity_sweep, two_node, attribution"),
        "{}",
        stderr(&out)
    );
    edit(
        dir.path(),
        PAIRS,
        "\"corr_pearson\": 0.519367",
        "\"corr_pearson\": 0.919367",
    );
    let out = gen_ok(dir.path());
    let err = stderr(&out);
    assert!(
        err.contains(&format!("rebuilt fig4 (input changed: {PAIRS})")),
        "{err}"
    );
    assert!(err.contains("current (not rebuilt): fig1, fig2, fig3, fig5, sim_hit_vs_capacity, capacity_sweep, two_node, attribution"), "{err}");
    assert!(
        err.contains("wrote figures/fig4.pdf") && !err.contains("wrote figures/fig3.pdf"),
        "{err}"
    );
    // What was rebuilt incrementally equals a full rebuild.
    let full = paper_copy();
    edit(
        full.path(),
        PAIRS,
        "\"corr_pearson\": 0.519367",
        "\"corr_pearson\": 0.919367",
    );
    gen_ok(full.path());
    assert_eq!(
        snapshot(&dir.path().join("figures")),
        snapshot(&full.path().join("figures"))
    );
    assert_eq!(
        snapshot(&dir.path().join("generated")),
        snapshot(&full.path().join("generated"))
    );
}

#[test]
fn check_names_each_stale_number_with_old_and_new_text() {
    let dir = paper_copy();
    gen_ok(dir.path());
    let out = artifact(dir.path(), &["check"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stdout(&out), "all figures and numbers are current\n");
    let out = artifact(dir.path(), &["check", "--fast"]);
    assert_eq!(
        stdout(&out),
        "all figures and numbers are current (hashes match artifact.lock)\n"
    );

    edit(
        dir.path(),
        PAIRS,
        "\"corr_pearson\": 0.519367",
        "\"corr_pearson\": 0.919367",
    );
    for args in [&["check"][..], &["check", "--fast"][..]] {
        let out = artifact(dir.path(), args);
        assert_eq!(out.status.code(), Some(1));
        let err = stderr(&out);
        assert!(err.starts_with("stale: 2 numbers, 1 figure\n"), "{err}");
        assert!(
            err.contains(&format!(
                "  fig4-ci-low   +0.1763 -> +0.1782   (input changed: {PAIRS})\n"
            )),
            "{err}"
        );
        assert!(
            err.contains(&format!(
                "  fig4-ci-high  +0.2823 -> +0.2854   (input changed: {PAIRS})\n"
            )),
            "{err}"
        );
        assert!(err.contains(&format!("  fig4: figures/fig4.svg, figures/fig4.pdf, figures/fig4.csv differ (input changed: {PAIRS})\n")), "{err}");
        assert!(err.contains(&format!("  changed  {PAIRS}\n")), "{err}");
        assert!(
            err.ends_with("to bring them up to date: artifact gen\n"),
            "{err}"
        );
    }
    // check writes nothing.
    let before = snapshot(dir.path());
    artifact(dir.path(), &["check"]);
    assert_eq!(snapshot(dir.path()), before);
    gen_ok(dir.path());
    assert_eq!(artifact(dir.path(), &["check"]).status.code(), Some(0));
}

#[test]
fn a_number_edited_by_hand_in_macros_tex_is_caught() {
    let dir = paper_copy();
    gen_ok(dir.path());
    edit(
        dir.path(),
        "generated/macros.tex",
        "\\@namedef{artnum@fig3-median}{3.859}",
        "\\@namedef{artnum@fig3-median}{3.860}",
    );
    for args in [&["check"][..], &["check", "--fast"][..]] {
        let out = artifact(dir.path(), args);
        assert_eq!(out.status.code(), Some(1));
        let err = stderr(&out);
        assert!(err.starts_with("stale: 1 output edited by hand\n"), "{err}");
        assert!(
            err.contains("  generated/macros.tex: fig3-median reads 3.860, the data gives 3.859\n"),
            "{err}"
        );
    }
}

#[test]
fn a_data_edit_that_changes_no_output_passes_the_full_check() {
    let dir = paper_copy();
    gen_ok(dir.path());
    // H_sign is not read by any figure or number.
    edit(
        dir.path(),
        "data/compression/provenance/iter3_precommit/03_atlas/results.jsonl",
        "\"H_sign\": 0.0,",
        "\"H_sign\": 0.5,",
    );
    for args in [&["check"][..], &["check", "--fast"][..]] {
        let out = artifact(dir.path(), args);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        assert!(
            stdout(&out).contains("note: inputs or spec changed without changing any output"),
            "{}",
            stdout(&out)
        );
    }
}

#[test]
fn check_fails_with_2_when_the_data_cannot_be_read() {
    let dir = paper_copy();
    gen_ok(dir.path());
    edit(
        dir.path(),
        PAIRS,
        "\"corr_pearson\": 0.519367",
        "\"corr_pearson\": 0.519367,,",
    );
    let out = artifact(dir.path(), &["check", "--fast"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains(&format!("{PAIRS}:1: invalid JSON")),
        "{}",
        stderr(&out)
    );
}

#[test]
fn pre_commit_hook_refuses_stale_numbers_until_gen_runs() {
    let repo = tempfile::tempdir().unwrap();
    let paper = repo.path().join("paper");
    let copy = paper_copy();
    std::fs::rename(copy.path(), &paper).unwrap_or_else(|_| {
        for (rel, bytes) in snapshot(copy.path()) {
            let p = paper.join(rel);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, bytes).unwrap();
        }
    });
    gen_ok(&paper);
    assert!(git(repo.path(), &["init", "-q"]).status.success());
    assert!(git(repo.path(), &["add", "-A"]).status.success());
    assert!(
        git(repo.path(), &["commit", "-qm", "paper"])
            .status
            .success()
    );

    // A hook it did not write is kept unless asked.
    let hook = repo.path().join(".git/hooks/pre-commit");
    std::fs::write(&hook, "#!/bin/sh\nexit 0\n").unwrap();
    let out = artifact(&paper, &["hook", "install"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("was not written by artifact"),
        "{}",
        stderr(&out)
    );
    let out = artifact(&paper, &["hook", "install", "--force"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        artifact(&paper, &["hook", "install"]).status.success(),
        "its own hook is replaced freely"
    );

    // Change one value in a data file: the commit is refused, naming the number.
    edit(
        &paper,
        PAIRS,
        "\"corr_pearson\": 0.519367",
        "\"corr_pearson\": 0.919367",
    );
    git(repo.path(), &["add", "-A"]);
    let out = git(repo.path(), &["commit", "-qm", "new data"]);
    assert!(
        !out.status.success(),
        "commit with stale numbers must be refused"
    );
    let err = stderr(&out);
    assert!(err.contains("fig4-ci-low   +0.1763 -> +0.1782"), "{err}");
    assert!(
        err.contains("to bring them up to date: artifact gen -C paper"),
        "{err}"
    );
    assert!(err.contains("commit refused"), "{err}");

    // The hook checks what is staged: regenerating without staging is not enough.
    gen_ok(&paper);
    let out = git(repo.path(), &["commit", "-qm", "new data"]);
    assert!(!out.status.success(), "unstaged outputs do not count");
    git(repo.path(), &["add", "-A"]);
    let out = git(repo.path(), &["commit", "-qm", "new data"]);
    assert!(out.status.success(), "{}", stderr(&out));
}

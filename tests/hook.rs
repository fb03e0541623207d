//! The pre-commit hook checks out only what the check reads, and still
//! refuses a commit whose numbers are stale when the inputs live outside
//! the spec's folder.

mod common;

use std::path::Path;

use common::*;

fn stderr(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn stdout(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn git_ok(dir: &Path, args: &[&str]) {
    let out = git(dir, args);
    assert!(out.status.success(), "git {args:?}: {}", stderr(&out));
}

const PAIRS: &str = "data/compression/provenance/iter5/precheck_l/atlas_train.jsonl";

/// A repository holding the demo paper in `paper/` whose data lives in
/// `data/` beside it (read as `../data/...`, one source through a glob).
fn repo_with_data_outside_the_spec_folder() -> tempfile::TempDir {
    let repo = tempfile::tempdir().unwrap();
    let copy = paper_copy();
    for (rel, bytes) in snapshot(copy.path()) {
        let to = if rel.starts_with("data/") {
            repo.path().join(&rel)
        } else {
            repo.path().join("paper").join(&rel)
        };
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::write(to, bytes).unwrap();
    }
    let spec_path = repo.path().join("paper/artifact.toml");
    let spec = std::fs::read_to_string(&spec_path).unwrap();
    let spec = spec.replace("\"data/", "\"../data/").replace(
        &format!("\"../{PAIRS}\""),
        "\"../data/compression/provenance/iter5/precheck_l/*.jsonl\"",
    );
    assert!(spec.contains("precheck_l/*.jsonl"));
    std::fs::write(&spec_path, spec).unwrap();
    repo
}

#[test]
fn hook_checks_out_only_what_the_spec_reads_with_inputs_outside_its_folder() {
    let repo = repo_with_data_outside_the_spec_folder();
    let paper = repo.path().join("paper");
    gen_ok(&paper);
    git_ok(repo.path(), &["init", "-q"]);
    git_ok(repo.path(), &["add", "-A"]);
    git_ok(repo.path(), &["commit", "-qm", "paper"]);
    let out = artifact(&paper, &["hook", "install"]);
    assert!(out.status.success(), "{}", stderr(&out));

    // A staged file the spec does not read, whose content git cannot even
    // produce: checking out the whole index (as the hook did) fails on it.
    git_ok(
        repo.path(),
        &[
            "update-index",
            "--add",
            "--cacheinfo",
            "100644,1111111111111111111111111111111111111111,big/unrelated.bin",
        ],
    );
    let out = artifact(repo.path(), &["hook", "run", "paper"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "all figures and numbers are current (hashes match artifact.lock)\n"
    );
    git_ok(
        repo.path(),
        &["update-index", "--force-remove", "big/unrelated.bin"],
    );

    // New data outside the spec's folder: the commit is refused.
    let data = repo.path().join(PAIRS);
    let text = std::fs::read_to_string(&data).unwrap();
    std::fs::write(
        &data,
        text.replacen(
            "\"corr_pearson\": 0.519367",
            "\"corr_pearson\": 0.919367",
            1,
        ),
    )
    .unwrap();
    git_ok(repo.path(), &["add", "-A"]);
    let out = git(repo.path(), &["commit", "-qm", "new data"]);
    assert!(!out.status.success(), "stale numbers must be refused");
    let err = stderr(&out);
    assert!(
        err.contains("  fig4-ci-low   +0.1763 -> +0.1782   (input changed: ../data/compression/provenance/iter5/precheck_l/atlas_train.jsonl)\n"),
        "{err}"
    );
    assert!(
        err.contains("\nto bring them up to date: artifact gen -C paper\n"),
        "{err}"
    );
    assert!(err.contains("artifact: commit refused"), "{err}");

    gen_ok(&paper);
    git_ok(repo.path(), &["add", "-A"]);
    let out = git(repo.path(), &["commit", "-qm", "new data"]);
    assert!(out.status.success(), "{}", stderr(&out));
}

#[test]
fn hook_run_without_a_staged_spec_is_an_error() {
    let repo = tempfile::tempdir().unwrap();
    git_ok(repo.path(), &["init", "-q"]);
    let out = artifact(repo.path(), &["hook", "run", "paper"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(stderr(&out), "error: paper/artifact.toml is not staged\n");
}

#[test]
fn hook_follows_a_staged_link_to_the_data() {
    // `paper/data -> ../shared`: the spec reads `data/runs.csv`, which the
    // index holds as `shared/runs.csv` (the hook refused every commit).
    let repo = tempfile::tempdir().unwrap();
    let paper = repo.path().join("paper");
    std::fs::create_dir_all(repo.path().join("shared")).unwrap();
    std::fs::create_dir_all(&paper).unwrap();
    std::fs::write(repo.path().join("shared/runs.csv"), small::DATA).unwrap();
    std::fs::write(paper.join("artifact.toml"), small::SPEC).unwrap();
    std::os::unix::fs::symlink("../shared", paper.join("data")).unwrap();
    gen_ok(&paper);
    git_ok(repo.path(), &["init", "-q"]);
    git_ok(repo.path(), &["add", "-A"]);
    git_ok(repo.path(), &["commit", "-qm", "paper"]);
    let out = artifact(&paper, &["hook", "install"]);
    assert!(out.status.success(), "{}", stderr(&out));
    git_ok(
        repo.path(),
        &["commit", "-q", "--allow-empty", "-m", "current"],
    );
    std::fs::write(repo.path().join("shared/runs.csv"), "n,ms\n1,9\n").unwrap();
    git_ok(repo.path(), &["add", "-A"]);
    let refused = git(repo.path(), &["commit", "-qm", "stale"]);
    assert!(!refused.status.success());
    assert!(
        stderr(&refused).contains("input changed: data/runs.csv"),
        "{}",
        stderr(&refused)
    );
    gen_ok(&paper);
    git_ok(repo.path(), &["add", "-A"]);
    git_ok(repo.path(), &["commit", "-qm", "regenerated"]);
}

#[test]
fn hook_uninstall_removes_only_the_hook_artifact_wrote() {
    let dir = project("[sources.s]\nrows = [{ a = 1 }]\n");
    let d = dir.path();
    git_ok(d, &["init", "-q"]);
    let hook = d.join(".git/hooks/pre-commit");
    let out = artifact(d, &["hook", "uninstall"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out), "no pre-commit hook: nothing to remove\n");
    let out = artifact(d, &["hook", "install"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(hook.exists());
    let out = artifact(d, &["hook", "uninstall"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).starts_with("removed "), "{}", stdout(&out));
    assert!(
        stdout(&out).ends_with(".git/hooks/pre-commit\n"),
        "{}",
        stdout(&out)
    );
    assert!(!hook.exists());
    // Someone else's hook stays, with an error.
    std::fs::write(&hook, "#!/bin/sh\nexit 0\n").unwrap();
    let out = artifact(d, &["hook", "uninstall"]);
    assert!(!out.status.success());
    assert!(
        stderr(&out)
            .ends_with(".git/hooks/pre-commit was not written by artifact: left as it is\n"),
        "{}",
        stderr(&out)
    );
    assert_eq!(
        std::fs::read_to_string(&hook).unwrap(),
        "#!/bin/sh\nexit 0\n"
    );
}

#[test]
fn every_pre_commit_hook_entry_is_a_command_that_passes_on_the_demo_paper() {
    let text = std::fs::read_to_string(root().join(".pre-commit-hooks.yaml")).unwrap();
    let entries: Vec<&str> = text
        .lines()
        .filter_map(|l| l.trim().strip_prefix("entry: "))
        .collect();
    assert_eq!(
        entries,
        [
            "artifact check --fast",
            "artifact lint",
            "artifact check --fast"
        ]
    );
    let dir = paper_whole();
    for entry in entries {
        let args: Vec<&str> = entry.split(' ').skip(1).collect();
        let out = artifact(dir.path(), &args);
        assert!(out.status.success(), "{entry}: {}", stderr(&out));
    }
}

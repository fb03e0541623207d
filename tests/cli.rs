//! Command-line conventions: --quiet, --verbose, --color, check --format
//! json, shell completions, and --help naming every command with an example.

mod common;

use common::*;

fn stdout(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn quiet_prints_errors_only_and_verbose_prints_more() {
    let dir = paper_copy();
    let d = dir.path();
    let out = artifact(d, &["--quiet", "gen"]);
    assert!(out.status.success());
    assert_eq!(stderr(&out), "");
    let out = artifact(d, &["gen", "-v"]);
    let err = stderr(&out);
    assert!(err.starts_with("spec: "), "{err}");
    assert!(err.contains("current (not rebuilt): fig1"), "{err}");
    assert!(
        err.trim_end()
            .lines()
            .last()
            .unwrap()
            .starts_with("done in "),
        "{err}"
    );
    // An error is printed even when quiet.
    let out = artifact(d, &["-q", "explain", "nope"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).starts_with("error: no number named `nope`"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn color_always_paints_the_label_and_never_does_not() {
    let dir = paper_copy();
    let out = artifact(dir.path(), &["--color", "always", "explain", "nope"]);
    assert!(
        stderr(&out).starts_with("\u{1b}[1m\u{1b}[31merror:\u{1b}[0m no number named"),
        "{:?}",
        stderr(&out)
    );
    let out = artifact(dir.path(), &["--color", "never", "explain", "nope"]);
    assert!(stderr(&out).starts_with("error: no number named"));
}

#[test]
fn check_format_json_lists_what_is_stale() {
    let dir = paper_copy();
    let d = dir.path();
    gen_ok(d);
    let pairs = "data/compression/provenance/iter5/precheck_l/atlas_train.jsonl";
    let text = std::fs::read_to_string(d.join(pairs)).unwrap();
    let first = text.lines().next().unwrap().len() + 1;
    std::fs::write(d.join(pairs), &text[first..]).unwrap();
    let out = artifact(d, &["check", "--format", "json"]);
    assert_eq!(out.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["stale"], true);
    assert_eq!(
        v["inputs"],
        serde_json::json!([{"status": "changed", "file": pairs}])
    );
    let keys: Vec<&str> = v["numbers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n["key"].as_str().unwrap())
        .collect();
    assert!(keys.contains(&"fig4-n"), "{keys:?}");
    assert_eq!(v["fix"], "artifact gen");
}

#[test]
fn completions_and_help_cover_every_command() {
    let dir = tempfile::tempdir().unwrap();
    let commands = [
        "gen",
        "check",
        "show",
        "explain",
        "schema",
        "lint",
        "diff",
        "watch",
        "init",
        "hook",
        "completions",
    ];
    for shell in ["bash", "zsh", "fish"] {
        let out = artifact(dir.path(), &["completions", shell]);
        assert!(out.status.success());
        let text = stdout(&out);
        for c in commands {
            assert!(text.contains(c), "{shell} completion lacks {c}");
        }
    }
    let help = stdout(&artifact(dir.path(), &["--help"]));
    for c in commands {
        assert!(help.contains(&format!("\n  {c} ")), "--help lists no {c}");
        assert!(
            help.contains(&format!("  artifact {c}")),
            "--help has no example of {c}"
        );
    }
}

#[test]
fn version_names_the_commit_it_was_built_from_without_a_date() {
    let dir = tempfile::tempdir().unwrap();
    let out = artifact(dir.path(), &["--version"]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let head = std::process::Command::new("git")
        .args(["rev-parse", "--short=12", "HEAD"])
        .current_dir(root())
        .output()
        .unwrap();
    let want = match String::from_utf8_lossy(&head.stdout).trim() {
        "" => format!("artifact {}\n", env!("CARGO_PKG_VERSION")),
        commit => format!("artifact {} (commit {commit})\n", env!("CARGO_PKG_VERSION")),
    };
    assert_eq!(text, want);
}

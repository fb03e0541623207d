//! Records the git commit the binary is built from, for `--version`
//! (`artifact 0.1.0 (commit 1a2b3c4d5e6f)`): no date, so that two builds
//! of one commit are the same. Outside a git checkout (a crates.io
//! package) there is none and `--version` prints the version alone.

use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    let text = String::from_utf8(out.stdout).ok()?;
    (out.status.success() && !text.trim().is_empty()).then(|| text.trim().to_string())
}

fn main() {
    let version = std::env::var("CARGO_PKG_VERSION").unwrap_or_default();
    println!("cargo:rerun-if-env-changed=ARTIFACT_COMMIT");
    let Some(commit) = std::env::var("ARTIFACT_COMMIT")
        .ok()
        .or_else(|| git(&["rev-parse", "--short=12", "HEAD"]))
    else {
        println!("cargo:rustc-env=ARTIFACT_VERSION={version}");
        return;
    };
    // Built again when HEAD moves (a commit, a checkout) or its branch does.
    for path in ["HEAD", "packed-refs"] {
        if let Some(p) = git(&["rev-parse", "--git-path", path]) {
            println!("cargo:rerun-if-changed={p}");
        }
    }
    if let Some(head) = git(&["symbolic-ref", "-q", "HEAD"])
        && let Some(p) = git(&["rev-parse", "--git-path", &head])
    {
        println!("cargo:rerun-if-changed={p}");
    }
    println!("cargo:rustc-env=ARTIFACT_VERSION={version} (commit {commit})");
}

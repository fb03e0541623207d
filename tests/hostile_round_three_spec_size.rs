//! Hostile input, round three: specs of many parts. How `gen`, `check
//! --fast`, `show` and `explain` scale is measured by `cargo bench --bench
//! spec_size` (see ARCHITECTURE.md, "Performance"); what can be counted
//! rather than timed is pinned here.

mod common;

use common::*;

/// A spec of `figures` one-point figures writing SVG and CSV files.
fn many_figures(figures: usize) -> String {
    let mut spec = String::from(
        "[output]\nformats = [\"svg\"]\n\n[sources.s]\nrows = [{ x = 1, y = 2 }, { x = 2, y = 3 }]\n",
    );
    for i in 0..figures {
        spec.push_str(&format!(
            "\n[figures.f{i}]\nsize = [2, 1.5]\nlayers = [{{ mark = \"point\", data = \"s\", x = \"x\", y = \"y\" }}]\n"
        ));
    }
    spec
}

/// Regression: `gen` kept every temporary file open until it renamed them
/// all, so a run writing more files than the open-file limit (often 1,024
/// on Linux, 256 on macOS) failed with "too many open files". Files are
/// now flushed and closed in batches: 300 files under a limit of 128.
#[cfg(unix)]
#[test]
fn gen_writes_more_files_than_the_open_file_limit() {
    use std::os::unix::process::CommandExt;
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("artifact.toml"), many_figures(150)).unwrap();
    let mut cmd = std::process::Command::new(assert_cmd::cargo::cargo_bin("artifact"));
    cmd.arg("gen").current_dir(dir.path());
    // SAFETY: setrlimit is async-signal-safe; the closure allocates nothing.
    unsafe {
        cmd.pre_exec(|| {
            let limit = libc::rlimit {
                rlim_cur: 128,
                rlim_max: 128,
            };
            match libc::setrlimit(libc::RLIMIT_NOFILE, &limit) {
                0 => Ok(()),
                _ => Err(std::io::Error::last_os_error()),
            }
        });
    }
    let out = cmd.output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let written = std::fs::read_dir(dir.path().join("figures"))
        .unwrap()
        .filter(|e| {
            !e.as_ref()
                .unwrap()
                .file_name()
                .to_string_lossy()
                .starts_with('.')
        })
        .count();
    assert_eq!(written, 300);
    let check = artifact(dir.path(), &["check", "--fast"]);
    assert_eq!(
        String::from_utf8_lossy(&check.stdout),
        "all figures and numbers are current (hashes match artifact.lock)\n"
    );
}

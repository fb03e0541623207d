//! Issue 28, commands on big logs: `init` reads a sample of a big log and
//! checks its starter on that sample, `explain` holds a log no more than
//! `gen` does, and no progress bar reaches captured output.

mod common;

use std::io::Write as _;
use std::path::Path;
use std::process::{Command, Output};

use common::*;

/// Writes `rows` JSONL rows to `path`: `run`, `system` (`ours`, `base`
/// alternately), `threads` (1, 2, 4), `seconds`, and a `blob` of
/// `blob` bytes that nothing reads.
fn write_log(path: &Path, rows: usize, blob: usize) {
    let mut out = std::io::BufWriter::new(std::fs::File::create(path).unwrap());
    let pad = "x".repeat(blob);
    for i in 0..rows {
        writeln!(
            out,
            "{{\"run\": {i}, \"system\": \"{}\", \"threads\": {}, \"seconds\": {}, \"blob\": \"{pad}\"}}",
            ["ours", "base"][i % 2],
            1 << (i % 3),
            1.5 + (i % 97) as f64 * 0.25
        )
        .unwrap();
    }
    out.flush().unwrap();
}

/// `artifact ARGS` in `dir` under a virtual memory limit of `mib` MiB,
/// one malloc arena (each thread's own would reserve 64 MiB of address
/// space, whatever it uses).
fn limited(dir: &Path, mib: u64, args: &[&str]) -> Output {
    Command::new("sh")
        .arg("-c")
        .arg(format!("ulimit -v {}; exec \"$0\" \"$@\"", mib * 1024))
        .arg(assert_cmd::cargo::cargo_bin("artifact"))
        .args(args)
        .env("MALLOC_ARENA_MAX", "1")
        .current_dir(dir)
        .output()
        .unwrap()
}

#[test]
fn init_checks_its_starter_on_the_sample_not_the_whole_log() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let log = d.join("runs.jsonl");
    // A broken line far past the 10,000 rows of the sample (batches of
    // lines away): init never reads it.
    write_log(&log, 30_000, 0);
    std::fs::OpenOptions::new()
        .append(true)
        .open(&log)
        .unwrap()
        .write_all(b"{\"run\": oops}\n")
        .unwrap();
    let out = artifact(d, &["init", "runs.jsonl"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let spec = std::fs::read_to_string(d.join("artifact.toml")).unwrap();
    assert!(
        spec.contains("[sources.runs_data]\npath = \"runs.jsonl\"\n# the first 10000 rows;"),
        "{spec}"
    );
    // The temporary sample is gone.
    let left: Vec<String> = std::fs::read_dir(d)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(".artifact-init-"))
        .collect();
    assert_eq!(left, Vec::<String>::new());
    // gen reads the whole log and finds the line.
    let out = artifact(d, &["gen"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("runs.jsonl:30001"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn init_starter_on_a_many_row_log_builds_with_gen() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write_log(&d.join("runs.jsonl"), 30_000, 0);
    let out = artifact(d, &["init", "runs.jsonl"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let out = artifact(d, &["gen"]);
    assert!(out.status.success(), "{}", stderr(&out));
    // The example keeps the first 5,000 rows of the 30,000.
    assert_eq!(numbers(d)["example-rows"]["text"], "5000");
    assert!(d.join("figures/example.pdf").exists());
}

#[test]
fn init_on_a_log_bigger_than_its_memory_limit_succeeds() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // 600 MB of log: 150,000 rows of 4 kB; the sample is 10,000 of them.
    write_log(&d.join("runs.jsonl"), 150_000, 4_000);
    let out = limited(d, 300, &["init", "runs.jsonl"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let spec = std::fs::read_to_string(d.join("artifact.toml")).unwrap();
    assert!(spec.contains("# the first 10000 rows;"), "{spec}");
}

const EXPLAINED: &str = r#"[sources.runs]
path = "runs.jsonl"

[tables.ours]
from = "runs"
steps = [{ filter = "system == 'ours'" }]

[numbers.ours-median]
table = "ours"
value = { median = "seconds" }
format = { figures = 3 }

[numbers.ours-wide]
table = "ours"
value = "count"
where = "threads > 1"
"#;

#[test]
fn explain_holds_a_big_log_no_more_than_gen() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("artifact.toml"), EXPLAINED).unwrap();
    // 600 MB of log, half of it in table `ours`, whose rows explain held
    // whole (the blob too) before it built them as gen does.
    write_log(&d.join("runs.jsonl"), 150_000, 4_000);
    let out = limited(d, 300, &["explain", "ours-wide"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        String::from_utf8_lossy(&out.stdout)
            .contains("rows: 50000 (of 75000 in table `ours` where `threads > 1`)\n"),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

#[test]
fn explain_output_on_a_small_log_is_unchanged() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("artifact.toml"), EXPLAINED).unwrap();
    let log: String = (0..12)
        .map(|i| {
            format!(
                "{{\"run\": {i}, \"system\": \"{}\", \"threads\": {}, \"seconds\": {:?}}}\n",
                ["ours", "base"][i % 2],
                1 << (i % 3),
                1.5 + i as f64 * 0.25
            )
        })
        .collect();
    std::fs::write(d.join("runs.jsonl"), log).unwrap();
    let out = artifact(d, &["explain", "ours-wide"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "number ours-wide\nvalue: 4\ntext: 4\nspec: artifact.toml:13\n  [numbers.ours-wide]\n  \
         table = \"ours\"\n  value = \"count\"\n  where = \"threads > 1\"\n\
         rows: 4 (of 6 in table `ours` where `threads > 1`)\n\
         table `ours` (artifact.toml:4), from source `runs`:\n  \
         artifact.toml:6: { filter = \"system == 'ours'\" }\ninputs:\n  runs.jsonl  blake3 \
         305b117278a0e04edb31f877d47442fbc63fbd199702513acf7ea4ae3d1a6fd0  (no artifact.lock)\n\
         artifact.lock: none (run `artifact gen`)\n"
    );
    assert_eq!(stderr(&out), "");
}

#[test]
fn no_progress_bar_in_captured_stderr_of_show_explain_and_init() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("artifact.toml"), EXPLAINED).unwrap();
    // Long enough a read that a bar would be drawn (after a second) on a
    // terminal.
    write_log(&d.join("runs.jsonl"), 150_000, 400);
    let show = artifact(d, &["show", "runs", "--rows", "1"]);
    assert!(show.status.success(), "{}", stderr(&show));
    let explain = artifact(d, &["explain", "ours-median"]);
    assert!(explain.status.success(), "{}", stderr(&explain));
    for out in [&show, &explain] {
        assert_eq!(stderr(out), "");
    }
    let fresh = tempfile::tempdir().unwrap();
    let init = artifact(
        fresh.path(),
        &["init", d.join("runs.jsonl").to_str().unwrap()],
    );
    assert_eq!(
        stderr(&init),
        "wrote artifact.toml\nwrote main.typ\nwrote main.tex\nnext: artifact gen, then open main.typ or main.tex\n"
    );
}

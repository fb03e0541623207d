//! Helpers for integration tests: copies of the demo paper in temporary
//! folders, the binary, and the seed scripts' reference values.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Output;

use assert_cmd::Command;

pub mod small;

/// The repository root.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Copies the folder `from` into `to` (created), recursively.
pub fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

/// A temporary copy of the demo paper's spec and data (no outputs).
pub fn paper_copy() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(
        root().join("paper/artifact.toml"),
        dir.path().join("artifact.toml"),
    )
    .unwrap();
    copy_dir(&root().join("paper/data"), &dir.path().join("data"));
    dir
}

/// A temporary copy of the whole demo paper folder: spec, data, committed
/// outputs and lock.
pub fn paper_whole() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    copy_dir(&root().join("paper"), dir.path());
    dir
}

/// The demo paper's host-time log (the attribution figure, `attr-none-ms`).
pub const ATTRIBUTION: &str =
    "data/offload/benchmarks/raw/gateC/cold_nvme_laptop/attribution.jsonl";

/// Re-measures `ATTRIBUTION` in the paper at `dir`: every record's
/// demand-read time 1% higher (`attr-none-ms` 30.69 -> 30.89).
pub fn remeasure(dir: &Path) {
    let p = dir.join(ATTRIBUTION);
    let text = std::fs::read_to_string(&p).unwrap();
    let mut out = String::new();
    for line in text.lines() {
        let mut v: serde_json::Value = serde_json::from_str(line).unwrap();
        let t = &mut v["host_time_s"]["ensure"];
        *t = serde_json::json!(t.as_f64().unwrap() * 1.01);
        out.push_str(&serde_json::to_string(&v).unwrap());
        out.push('\n');
    }
    std::fs::write(&p, out).unwrap();
}

/// Commits everything in the git repository at `dir` as a fixed author.
pub fn commit(dir: &Path, message: &str) {
    git(dir, &["add", "-A"]);
    git(
        dir,
        &[
            "-c",
            "user.email=a@b",
            "-c",
            "user.name=t",
            "commit",
            "-qm",
            message,
        ],
    );
}

/// A temporary copy of the demo paper with the files of a defective case
/// (a folder of `tests/fixtures/dirty`) swapped into its data.
pub fn paper_with_case(case: &Path) -> tempfile::TempDir {
    let dir = paper_copy();
    for (rel, bytes) in snapshot(case) {
        let part = if rel.starts_with("benchmarks") {
            "offload"
        } else {
            "compression"
        };
        std::fs::write(dir.path().join("data").join(part).join(&rel), bytes).unwrap();
    }
    dir
}

/// Runs `artifact ARGS` in `dir`.
pub fn artifact(dir: &Path, args: &[&str]) -> Output {
    Command::cargo_bin("artifact")
        .unwrap()
        .current_dir(dir)
        .args(args)
        .output()
        .unwrap()
}

/// Runs `artifact gen` in `dir` and requires success.
pub fn gen_ok(dir: &Path) -> Output {
    let out = artifact(dir, &["gen"]);
    assert!(
        out.status.success(),
        "artifact gen failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// What the seed scripts computed on setA (`reference.json`).
pub fn reference() -> serde_json::Value {
    let text = std::fs::read_to_string(root().join("tests/fixtures/setA/reference.json")).unwrap();
    serde_json::from_str(&text).unwrap()
}

/// `generated/numbers.json` of a built paper.
pub fn numbers(dir: &Path) -> serde_json::Value {
    let text = std::fs::read_to_string(dir.join("generated/numbers.json")).unwrap();
    serde_json::from_str(&text).unwrap()
}

/// Runs `artifact gen` in `dir`, on the generic path only when `generic`
/// (`ARTIFACT_GENERIC_ONLY`).
pub fn gen_on(dir: &Path, generic: bool) -> Output {
    let mut cmd = Command::cargo_bin("artifact").unwrap();
    cmd.current_dir(dir).arg("gen");
    if generic {
        cmd.env("ARTIFACT_GENERIC_ONLY", "1");
    }
    cmd.output().unwrap()
}

/// The numbers of `gen` in `dir` run on the fast path and on the generic
/// one: both succeed and agree.
pub fn numbers_on_both_paths(dir: &Path) -> serde_json::Value {
    let mut got = Vec::new();
    for generic in [false, true] {
        let out = gen_on(dir, generic);
        assert!(
            out.status.success(),
            "generic only: {generic}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        got.push(numbers(dir));
    }
    assert_eq!(got[0], got[1]);
    got.remove(0)
}

/// A figure's CSV as (header, rows).
pub fn csv(dir: &Path, name: &str) -> Vec<std::collections::HashMap<String, String>> {
    let mut rdr = csv::Reader::from_path(dir.join(format!("figures/{name}.csv"))).unwrap();
    let headers: Vec<String> = rdr.headers().unwrap().iter().map(String::from).collect();
    rdr.records()
        .map(|r| {
            let r = r.unwrap();
            headers
                .iter()
                .cloned()
                .zip(r.iter().map(String::from))
                .collect()
        })
        .collect()
}

/// Every file under `dir` with its bytes, sorted by path.
pub fn snapshot(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    fn walk(base: &Path, d: &Path, out: &mut Vec<(String, Vec<u8>)>) {
        for e in std::fs::read_dir(d).unwrap() {
            let e = e.unwrap();
            if e.file_type().unwrap().is_dir() {
                walk(base, &e.path(), out);
            } else {
                let rel = e
                    .path()
                    .strip_prefix(base)
                    .unwrap()
                    .to_string_lossy()
                    .into_owned();
                out.push((rel, std::fs::read(e.path()).unwrap()));
            }
        }
    }
    walk(dir, dir, &mut out);
    out.sort();
    out
}

/// Relative float comparison.
pub fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-12 * a.abs().max(b.abs()).max(1.0)
}

/// A temporary copy of the demo paper's spec with `data/` taken from
/// `tests/fixtures/NAME` (which holds `compression/` and `offload/`).
pub fn paper_with_data(name: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(
        root().join("paper/artifact.toml"),
        dir.path().join("artifact.toml"),
    )
    .unwrap();
    for part in ["compression", "offload"] {
        copy_dir(
            &root().join("tests/fixtures").join(name).join(part),
            &dir.path().join("data").join(part),
        );
    }
    dir
}

/// A JSON number of the reference.
pub fn f(v: &serde_json::Value) -> f64 {
    v.as_f64().unwrap()
}

/// A number in a CSV cell.
pub fn num(s: &str) -> f64 {
    s.parse().unwrap()
}

/// Runs `git ARGS` in `dir`, with no user or system configuration and a
/// fixed author.
pub fn git(dir: &Path, args: &[&str]) -> Output {
    std::process::Command::new("git")
        .current_dir(dir)
        .args(args)
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_AUTHOR_NAME", "t")
        .env("GIT_AUTHOR_EMAIL", "t@example.org")
        .env("GIT_COMMITTER_NAME", "t")
        .env("GIT_COMMITTER_EMAIL", "t@example.org")
        .output()
        .unwrap()
}

/// A temporary folder holding `spec` as its artifact.toml.
pub fn project(spec: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("artifact.toml"), spec).unwrap();
    dir
}

/// A project whose `data/` holds a copy of `tests/fixtures/FIXTURE`'s
/// files and whose spec is `spec`.
pub fn project_with_fixture(spec: &str, fixture: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    std::fs::create_dir_all(&data).unwrap();
    for entry in std::fs::read_dir(root().join("tests/fixtures").join(fixture)).unwrap() {
        let entry = entry.unwrap();
        std::fs::copy(entry.path(), data.join(entry.file_name())).unwrap();
    }
    std::fs::write(dir.path().join("artifact.toml"), spec).unwrap();
    dir
}

/// A command's standard error as text.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Runs `show TABLE --format csv --rows 1000` on a spec made of sources
/// `s` (from `data`, JSONL) and, when `other` is given, `q`, then `tables`:
/// the CSV text, or the error text.
pub fn show_table(
    data: &str,
    other: Option<&str>,
    tables: &str,
    table: &str,
) -> Result<String, String> {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("s.jsonl"), data).unwrap();
    let mut spec = "[sources.s]\npath = \"s.jsonl\"\n".to_string();
    if let Some(other) = other {
        std::fs::write(dir.path().join("q.jsonl"), other).unwrap();
        spec.push_str("[sources.q]\npath = \"q.jsonl\"\n");
    }
    std::fs::write(
        dir.path().join("artifact.toml"),
        format!("{spec}\n{tables}"),
    )
    .unwrap();
    let out = artifact(
        dir.path(),
        &["show", table, "--format", "csv", "--rows", "1000"],
    );
    if out.status.success() {
        Ok(String::from_utf8(out.stdout).unwrap())
    } else {
        Err(stderr(&out))
    }
}

/// Whether `tool` runs here (pdflatex, pdftotext): compile tests skip
/// without it.
pub fn has_tool(tool: &str) -> bool {
    std::process::Command::new(tool).arg("-v").output().is_ok()
}

/// Runs pdflatex on `dir/main.tex` `passes` times (panicking with its log
/// on failure); pdflatex's log (`main.log`).
pub fn pdflatex(dir: &Path, passes: usize) -> String {
    for _ in 0..passes {
        let out = std::process::Command::new("pdflatex")
            .current_dir(dir)
            .args(["-interaction=nonstopmode", "-halt-on-error", "main.tex"])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stdout)
        );
    }
    std::fs::read_to_string(dir.join("main.log")).unwrap_or_default()
}

/// Issue 28's generated log, `data/log.jsonl` under `dir`: `n` requests (`t`, `op`, `latency_ms`, `ok`, and a 1,000-byte
/// `pad` nothing reads), the same on every run: latencies from a fixed
/// linear congruential sequence, every 97th request's `ok` null. Returns
/// the latencies in file order.
pub fn write_requests_log(dir: &Path, n: usize) -> Vec<f64> {
    use std::fmt::Write as _;
    let mut text = String::new();
    let mut state: u64 = 42;
    let mut lat = Vec::with_capacity(n);
    let pad = "x".repeat(1000);
    for t in 0..n {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let x = ((state >> 33) % 100_000) as f64 / 1000.0 + 0.5;
        lat.push(x);
        let op = ["get", "put", "scan"][t % 3];
        let ok = match t % 97 {
            0 => r#","ok":null"#.to_string(),
            _ => format!(r#","ok":{}"#, t % 13 != 0),
        };
        writeln!(
            text,
            r#"{{"t":{t},"op":"{op}","latency_ms":{x}{ok},"pad":"{pad}"}}"#
        )
        .unwrap();
    }
    std::fs::create_dir_all(dir.join("data")).unwrap();
    std::fs::write(dir.join("data/log.jsonl"), text).unwrap();
    lat
}

/// numpy's median of `xs` (an even count averages the middle two).
pub fn numpy_median(xs: &[f64]) -> f64 {
    let mut v = xs.to_vec();
    v.sort_by(f64::total_cmp);
    let m = v.len() / 2;
    match v.len() % 2 {
        0 => (v[m - 1] + v[m]) / 2.0,
        _ => v[m],
    }
}

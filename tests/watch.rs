//! `artifact watch` on a copy of the demo paper: an edit to an input is
//! picked up and rebuilt; a broken spec is reported and the watch goes on.

mod common;

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use common::*;

/// Kills the watch when the test ends, passed or not.
struct Watch(Child);

impl Drop for Watch {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Waits (at most 20 s) for a stderr line containing `what`; returns the
/// lines read on the way and when the line came.
fn until(rx: &mpsc::Receiver<(Instant, String)>, what: &str) -> (Vec<String>, Instant) {
    let mut seen = Vec::new();
    let deadline = Instant::now() + Duration::from_secs(20);
    while let Ok((at, line)) = rx.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
        seen.push(line.clone());
        if line.contains(what) {
            return (seen, at);
        }
    }
    panic!(
        "no line with {what:?} within 20 s; read:\n{}",
        seen.join("\n")
    );
}

/// Starts `artifact watch` in `dir`: the process (killed when dropped) and
/// its stderr lines, as they come.
fn watch(dir: &Path) -> (Watch, mpsc::Receiver<(Instant, String)>) {
    let mut child = Command::new(assert_cmd::cargo::cargo_bin!("artifact"))
        .current_dir(dir)
        .args(["watch"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let stderr = child.stderr.take().unwrap();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            if tx.send((Instant::now(), line)).is_err() {
                break;
            }
        }
    });
    (Watch(child), rx)
}

#[test]
fn watch_rebuilds_an_edited_input_and_survives_a_broken_spec() {
    let dir = paper_whole();
    let d = dir.path();
    let (_watch, rx) = watch(d);
    until(&rx, "watching ");

    // An input changes: picked up (debounced 0.2 s) and rebuilt.
    let edited = Instant::now();
    remeasure(d);
    let (_, seen_at) = until(&rx, &format!("changed: {ATTRIBUTION}"));
    let latency = seen_at.duration_since(edited);
    assert!(
        latency < Duration::from_secs(1),
        "picked up after {latency:?}"
    );
    let (lines, _) = until(&rx, "watching ");
    assert!(
        lines.contains(&format!(
            "number attr-none-ms: 30.69 -> 30.89 (input changed: {ATTRIBUTION})"
        )),
        "{lines:?}"
    );
    assert!(
        lines.contains(&"wrote figures/attribution.pdf".to_string()),
        "{lines:?}"
    );
    assert_eq!(numbers(d)["attr-none-ms"]["text"], "30.89");

    // What gen writes, and other files in the folder, trigger nothing.
    std::fs::write(d.join("main.pdf"), "not an input").unwrap();

    // A broken spec: its error, and the watch goes on.
    let spec = std::fs::read_to_string(d.join("artifact.toml")).unwrap();
    std::fs::write(d.join("artifact.toml"), format!("{spec}[[[\n")).unwrap();
    let (lines, _) = until(&rx, "error: artifact.toml:");
    assert_eq!(lines[0], "changed: artifact.toml", "{lines:?}");
    until(&rx, "watching ");
    std::fs::write(d.join("artifact.toml"), spec).unwrap();
    let (lines, _) = until(&rx, "watching ");
    assert_eq!(lines[0], "changed: artifact.toml", "{lines:?}");
    assert!(
        lines.iter().any(|l| l == "3 file(s) already up to date"),
        "{lines:?}"
    );
}

#[test]
fn watch_sees_a_source_beside_the_folder() {
    let top = tempfile::tempdir().unwrap();
    let paper = top.path().join("paper");
    std::fs::create_dir(&paper).unwrap();
    std::fs::write(top.path().join("d.csv"), "a,b\n1,2\n3,4\n").unwrap();
    assert!(artifact(&paper, &["init", "../d.csv"]).status.success());
    gen_ok(&paper);
    let (_watch, rx) = watch(&paper);
    until(&rx, "watching ");
    let mut f = std::fs::OpenOptions::new()
        .append(true)
        .open(top.path().join("d.csv"))
        .unwrap();
    std::io::Write::write_all(&mut f, b"5,9\n").unwrap();
    drop(f);
    let (lines, _) = until(&rx, "wrote artifact.lock");
    assert_eq!(lines[0], "changed: ../d.csv", "{lines:?}");
    assert!(
        lines.contains(&"number example-rows: 2 -> 3 (input changed: ../d.csv)".to_string()),
        "{lines:?}"
    );
}

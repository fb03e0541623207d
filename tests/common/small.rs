//! A small project for the tests of issue 10 (transactions, output paths,
//! stale checks): one CSV source, one number, two figures.
#![allow(dead_code)]

use std::path::Path;
use std::process::Output;

use super::{artifact, snapshot};

pub const SPEC: &str = r#"[sources.runs]
path = "data/runs.csv"

[numbers.mean-ms]
table = "runs"
value = { mean = "ms" }
format = { places = 2 }
description = "mean latency"

[figures.lat]
size = [4, 3]
title = "mean {{ n['mean-ms'] }} ms"
layers = [ { mark = "point", data = "runs", x = "n", y = "ms" } ]

[figures.lat2]
size = [4, 3]
layers = [ { mark = "line", data = "runs", x = "n", y = "ms" } ]
"#;

pub const DATA: &str = "n,ms\n1,2.5\n2,3.5\n3,4.25\n";

/// A small project in `dir`, built once.
pub fn project(dir: &Path) {
    std::fs::create_dir_all(dir.join("data")).unwrap();
    std::fs::write(dir.join("artifact.toml"), SPEC).unwrap();
    std::fs::write(dir.join("data/runs.csv"), DATA).unwrap();
    let out = artifact(dir, &["gen"]);
    assert!(out.status.success(), "{}", stderr(&out));
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// The last line of stderr (the error).
pub fn last_line(o: &Output) -> String {
    stderr(o).lines().last().unwrap_or_default().to_string()
}

/// Changes the data so that every output changes.
pub fn change_data(dir: &Path) {
    std::fs::write(dir.join("data/runs.csv"), "n,ms\n1,2.5\n2,3.5\n3,9.75\n").unwrap();
}

/// Every file but the data (what a run may write).
pub fn outputs(dir: &Path) -> Vec<(String, Vec<u8>)> {
    snapshot(dir)
        .into_iter()
        .filter(|(rel, _)| !rel.starts_with("data"))
        .collect()
}

/// Runs gen on the small project with `edit` applied to its spec; returns
/// the error, after checking that nothing changed.
pub fn spec_error(edit: impl Fn(&str) -> String) -> String {
    let dir = tempfile::tempdir().unwrap();
    project(dir.path());
    std::fs::write(dir.path().join("artifact.toml"), edit(SPEC)).unwrap();
    let before = snapshot(dir.path());
    let out = artifact(dir.path(), &["gen"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert_eq!(snapshot(dir.path()), before, "nothing changed");
    let parent = dir.path().parent().unwrap();
    assert!(!parent.join("x.svg").exists() && !parent.join("data").exists());
    // The error, without the notes of what was (re)built in memory before it.
    let e = stderr(&out);
    e[e.find("error: ").unwrap()..].to_string()
}

pub fn names_in(dir: &Path) -> Vec<String> {
    let mut n: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    n.sort();
    n
}

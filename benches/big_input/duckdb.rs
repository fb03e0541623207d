//! The DuckDB peer: `benches/duckdb_peer.py` in a venv made once under
//! `target/bench-data/duckdb-venv`, and the check of its rows against
//! artifact's fig5.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

const DUCKDB: &str = "duckdb==1.1.3";

/// The venv's Python with DuckDB installed (made on first use), or `None`
/// with a note when it cannot be made (no network, no `python3`) or
/// `NO_DUCKDB` is set.
pub fn python(root: &Path) -> Option<PathBuf> {
    if std::env::var_os("NO_DUCKDB").is_some() {
        println!("note: NO_DUCKDB is set: no DuckDB peer");
        return None;
    }
    let venv = root.join("target/bench-data/duckdb-venv");
    let py = venv.join("bin/python");
    let has_duckdb = |py: &Path| {
        Command::new(py)
            .args(["-c", "import duckdb"])
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    };
    if has_duckdb(&py) {
        return Some(py);
    }
    eprintln!("making {} with {DUCKDB}", venv.display());
    let made = Command::new("python3")
        .arg("-m")
        .arg("venv")
        .arg(&venv)
        .status()
        .is_ok_and(|s| s.success())
        && Command::new(&py)
            .args(["-m", "pip", "install", "--quiet", DUCKDB])
            .status()
            .is_ok_and(|s| s.success());
    if made && has_duckdb(&py) {
        Some(py)
    } else {
        println!(
            "note: cannot make a Python venv with {DUCKDB} (no network or no python3?): no DuckDB peer"
        );
        None
    }
}

/// The peer's command: fig5's table from `data`, its rows written to `out`.
pub fn command(root: &Path, py: &Path, data: &Path, out: &Path) -> Command {
    let mut cmd = Command::new(py);
    cmd.arg(root.join("benches/duckdb_peer.py"))
        .arg(data)
        .arg(out);
    cmd
}

/// One (corpus, method) row of fig5: n, ratio, mbps.
type Points = BTreeMap<(String, String), (u64, f64, f64)>;

fn read_csv(path: &Path) -> csv::Reader<std::fs::File> {
    csv::Reader::from_path(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn column(headers: &csv::StringRecord, name: &str, path: &Path) -> usize {
    headers
        .iter()
        .position(|h| h == name)
        .unwrap_or_else(|| panic!("{}: no column {name}", path.display()))
}

/// Rows of a CSV with the named columns: (corpus, method) -> (n, ratio, mbps),
/// for rows whose column `only.0` is `only.1` when given.
fn points(path: &Path, cols: [&str; 5], only: Option<(&str, &str)>) -> Points {
    let mut reader = read_csv(path);
    let headers = reader.headers().expect("a CSV header").clone();
    let idx = cols.map(|c| column(&headers, c, path));
    let only = only.map(|(c, v)| (column(&headers, c, path), v));
    let num = |s: &str| -> f64 {
        s.parse()
            .unwrap_or_else(|_| panic!("{}: not a number: {s:?}", path.display()))
    };
    let mut out = Points::new();
    for row in reader.records() {
        let row = row.unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        if only.is_some_and(|(c, v)| &row[c] != v) {
            continue;
        }
        out.insert(
            (row[idx[0]].to_owned(), row[idx[1]].to_owned()),
            (
                num(&row[idx[2]]) as u64,
                num(&row[idx[3]]),
                num(&row[idx[4]]),
            ),
        );
    }
    out
}

/// Compares DuckDB's rows (`duck`) with artifact's fig5 in the paper copy
/// `work`: the (corpus, method) rows of `generated/fig5_points.csv`, and
/// the n, ratio and mbps of `figures/fig5.csv`'s points (the results
/// table has no n). Prints the outcome; true when they agree.
pub fn check(duck: &Path, work: &Path) -> bool {
    let ours = points(duck, ["corpus", "method", "n", "ratio", "mbps"], None);
    let fig = work.join("figures/fig5.csv");
    let theirs = points(
        &fig,
        ["corpus", "method", "n", "y", "x"],
        Some(("mark", "point")),
    );
    let table = work.join("generated/fig5_points.csv");
    let mut reader = read_csv(&table);
    let headers = reader.headers().expect("a CSV header").clone();
    let (c, m) = (
        column(&headers, "corpus", &table),
        column(&headers, "Method", &table),
    );
    let table_keys: Vec<(String, String)> = reader
        .records()
        .map(|r| {
            let r = r.unwrap_or_else(|e| panic!("{}: {e}", table.display()));
            (r[c].to_owned(), r[m].to_owned())
        })
        .collect();
    let mut problems = Vec::new();
    let mut sorted_keys = table_keys.clone();
    sorted_keys.sort();
    if !sorted_keys.iter().eq(ours.keys()) {
        problems.push(format!(
            "(corpus, method) rows differ: DuckDB {:?}, artifact's fig5_points.csv {:?}",
            ours.keys().collect::<Vec<_>>(),
            table_keys
        ));
    }
    let mut worst: f64 = 0.0;
    for (key, &(n, ratio, mbps)) in &ours {
        match theirs.get(key) {
            None => problems.push(format!("{key:?}: not among artifact's fig5 points")),
            Some(&(an, ar, am)) => {
                if n != an {
                    problems.push(format!("{key:?}: n {n} (DuckDB) vs {an} (artifact)"));
                }
                let rel =
                    |a: f64, b: f64| (a - b).abs() / a.abs().max(b.abs()).max(f64::MIN_POSITIVE);
                worst = worst.max(rel(ratio, ar)).max(rel(mbps, am));
            }
        }
    }
    if worst > 1e-9 {
        problems.push(format!(
            "ratio or mbps differ by up to {worst:.2e} (relative)"
        ));
    }
    if problems.is_empty() {
        println!(
            "DuckDB check: {} rows, the same (corpus, method) rows and n as artifact's fig5 (ratio and mbps within {worst:.1e} relative)",
            ours.len()
        );
        true
    } else {
        println!("DuckDB check: MISMATCH with artifact's fig5:");
        for p in &problems {
            println!("  {p}");
        }
        false
    }
}

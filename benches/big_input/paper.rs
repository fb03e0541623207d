//! Mode `paper`: `artifact gen --force` on a copy of the whole demo paper
//! (`target/bench-data/whole-paper-SIZE/`: all its sources, figures, numbers
//! and results table) whose `data/compression/results/results.jsonl.zst` is
//! the generated log of `paper_log.rs`, side by side with `zstd -dc` on that
//! log and the DuckDB peer computing fig5's table from it.

use std::path::Path;
use std::process::Command;

use crate::{Runs, artifact_exe, duckdb, link_or_copy, measure, paper_log, zstd_dc};

pub const DEFAULT_SIZES: [u64; 3] = [256, 1024, 4096];
const RESULTS: &str = "data/compression/results/results.jsonl.zst";

/// Free bytes for an unprivileged user on `dir`'s file system.
fn free_bytes(dir: &Path) -> u64 {
    use std::os::unix::ffi::OsStrExt;
    let c = std::ffi::CString::new(dir.as_os_str().as_bytes()).expect("a path without NUL");
    let mut st: libc::statvfs = unsafe { std::mem::zeroed() };
    // SAFETY: a NUL-terminated path and a valid out-pointer.
    let rc = unsafe { libc::statvfs(c.as_ptr(), &mut st) };
    assert!(rc == 0, "statvfs {}", dir.display());
    st.f_bavail as u64 * st.f_frsize as u64
}

/// Copies the directory `from` to `to` (files and directories).
fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap_or_else(|e| panic!("{}: {e}", to.display()));
    for entry in std::fs::read_dir(from).unwrap_or_else(|e| panic!("{}: {e}", from.display())) {
        let entry = entry.expect("a directory entry");
        let (src, dst) = (entry.path(), to.join(entry.file_name()));
        let kind = entry.file_type().expect("a file type");
        if kind.is_dir() {
            copy_dir(&src, &dst);
        } else {
            std::fs::copy(&src, &dst)
                .unwrap_or_else(|e| panic!("copy {} to {}: {e}", src.display(), dst.display()));
        }
    }
}

/// One size's results, for the summary table.
struct Row {
    mib: u64,
    stats: paper_log::LogStats,
    zstd: Runs,
    artifact: Runs,
    duck: Option<Runs>,
}

pub fn run(root: &Path, sizes: &[u64], runs: usize) {
    let exe = artifact_exe(root);
    let demo = root.join("paper");
    let dir = root.join("target/bench-data");
    std::fs::create_dir_all(&dir).expect("create target/bench-data");
    let py = duckdb::python(root);
    // Compressed / JSON bytes, for the disk check of a log not yet made:
    // the last log's, at first a pessimistic guess.
    let mut zratio = 0.25;
    let mut rows = Vec::new();
    for &mib in sizes {
        let data = dir.join(format!("paper-results-{mib}MiB.jsonl.zst"));
        let have = std::fs::metadata(&data).map_or(0, |m| m.len());
        let compressed = if have > 0 {
            have
        } else {
            ((mib << 20) as f64 * zratio) as u64
        };
        let free = free_bytes(&dir);
        if free + have < 3 * compressed {
            println!(
                "note: skipping {mib} MiB: {:.1} GB free, under 3x the ~{:.1} GB compressed log",
                free as f64 / 1e9,
                compressed as f64 / 1e9
            );
            continue;
        }
        let stats = paper_log::ensure(&demo.join(RESULTS), &data, mib);
        zratio = stats.compressed_bytes as f64 / stats.json_bytes as f64;

        let work = dir.join(format!("whole-paper-{mib}"));
        if work.exists() {
            std::fs::remove_dir_all(&work).unwrap_or_else(|e| panic!("{}: {e}", work.display()));
        }
        copy_dir(&demo, &work);
        link_or_copy(&data, &work.join(RESULTS));
        let gen_log = dir.join(format!("whole-paper-{mib}.gen.stderr"));
        let duck_out = dir.join(format!("whole-paper-{mib}.duckdb.csv"));

        let (mut zs, mut gs, mut ds) = (Runs::default(), Runs::default(), Runs::default());
        for _ in 0..runs {
            zs.push(measure(&mut zstd_dc(&data), None));
            gs.push(measure(
                Command::new(&exe)
                    .arg("-C")
                    .arg(&work)
                    .arg("gen")
                    .arg("--force"),
                Some(&gen_log),
            ));
            if let Some(py) = &py {
                ds.push(measure(
                    &mut duckdb::command(root, py, &data, &duck_out),
                    Some(&dir.join(format!("whole-paper-{mib}.duckdb.stderr"))),
                ));
            }
        }
        let mb = stats.json_bytes as f64 / 1e6;
        println!(
            "== whole paper, {mib} MiB of JSON: {} ({} records, {} distinct tensor names, {:.1} MB compressed), {runs} runs each",
            data.display(),
            stats.records,
            stats.tensor_names,
            stats.compressed_bytes as f64 / 1e6
        );
        zs.print("zstd -dc > /dev/null", mb, None);
        gs.print("artifact gen --force (paper)", mb, Some(&zs));
        if py.is_some() {
            ds.print("DuckDB fig5 (duckdb_peer.py)", mb, Some(&zs));
            duckdb::check(&duck_out, &work);
        }
        rows.push(Row {
            mib,
            stats,
            zstd: zs,
            artifact: gs,
            duck: py.is_some().then_some(ds),
        });
    }
    summary(&rows, runs);
}

/// The README's table (minimum walls; ratios to zstd's minimum).
fn summary(rows: &[Row], runs: usize) {
    if rows.is_empty() {
        return;
    }
    println!("\n{runs} runs each, alternately; wall: the minimum");
    println!(
        "| MiB of JSON | records | distinct tensor names | `zstd -dc` | `artifact gen` whole paper | ratio | MB/s | peak RSS | DuckDB fig5 | ratio | peak RSS |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|---|");
    for r in rows {
        let mb = r.stats.json_bytes as f64 / 1e6;
        let (z, g) = (r.zstd.min(), r.artifact.min());
        let duck = r.duck.as_ref().map_or("| - | - | - |".to_owned(), |d| {
            format!(
                "| {:.2} s | {:.1}x | {:.0} MiB |",
                d.min(),
                d.min() / z,
                d.peak_rss()
            )
        });
        println!(
            "| {} | {} | {} | {z:.2} s | {g:.2} s | {:.1}x | {:.0} | {:.0} MiB {duck}",
            r.mib,
            r.stats.records,
            r.stats.tensor_names,
            g / z,
            mb / g,
            r.artifact.peak_rss()
        );
    }
}

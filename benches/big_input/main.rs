//! Gigabyte input: `artifact gen` on a generated `results.jsonl.zst`, side by
//! side with `zstd -dc` (and, for the whole paper, a DuckDB peer).
//!
//! ```text
//! cargo build --release
//! cargo bench --bench big_input                   # fig5 at 1024, then paper
//! cargo bench --bench big_input -- fig5 [SIZE_MIB]        # default 1024
//! cargo bench --bench big_input -- SIZE_MIB               # the same
//! cargo bench --bench big_input -- paper [SIZE_MIB...]    # default 256 1024 4096
//! ```
//!
//! Mode `fig5` (`fig5.rs`): a spec that builds fig5's table alone, on a
//! synthetic log in the compression paper's schema. Mode `paper`
//! (`paper.rs`): `artifact gen --force` on a copy of the whole demo paper
//! whose `results.jsonl.zst` is the demo's own records repeated up to the
//! size (`paper_log.rs`), against `zstd -dc` and DuckDB computing fig5's
//! table (`benches/duckdb_peer.py`, `duckdb.rs`).
//!
//! Every command runs `RUNS` times (default 5), the commands alternately;
//! wall time and peak RSS come from `wait4`. Generated files and working
//! copies live under `target/bench-data/` and are generated once.

mod dense;
mod duckdb;
mod fig5;
mod holds;
mod init;
mod numbers;
mod paper;
mod paper_log;
mod parquet;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

/// The library's SplitMix64 (the same numbers on every machine), with
/// uniform floats.
pub struct Rng(pub artifact::stats::SplitMix64);

impl Rng {
    pub fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
    /// `x` times a uniform factor in [1 - spread, 1 + spread).
    pub fn around(&mut self, x: f64, spread: f64) -> f64 {
        x * (1.0 + spread * (2.0 * self.unit() - 1.0))
    }
}

/// One measured run: wall seconds and the child's peak RSS in MiB.
#[derive(Clone, Copy)]
pub struct Run {
    pub wall: f64,
    pub rss_mib: f64,
}

/// Runs a command (stdout to /dev/null, stderr to `stderr_log` or
/// /dev/null) and measures it; fails the bench, with the log's tail, when
/// the command fails.
pub fn measure(cmd: &mut Command, stderr_log: Option<&Path>) -> Run {
    cmd.stdout(Stdio::null());
    match stderr_log {
        Some(log) => {
            cmd.stderr(std::fs::File::create(log).expect("create the command's stderr log"))
        }
        None => cmd.stderr(Stdio::null()),
    };
    let start = Instant::now();
    // Reaped by wait4 below (which also gives the peak RSS).
    #[allow(clippy::zombie_processes)]
    let child = cmd
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {cmd:?}: {e}"));
    let mut status = 0;
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: wait4 on our own child with valid out-pointers.
    let pid = unsafe { libc::wait4(child.id() as i32, &mut status, 0, &mut usage) };
    let wall = start.elapsed().as_secs_f64();
    if !(pid > 0 && libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0) {
        let tail = stderr_log
            .and_then(|log| std::fs::read_to_string(log).ok())
            .map(|s| {
                let lines: Vec<&str> = s.lines().collect();
                lines[lines.len().saturating_sub(20)..].join("\n")
            })
            .unwrap_or_default();
        panic!("command failed (wait status {status:#x}): {cmd:?}\n{tail}");
    }
    Run {
        wall,
        rss_mib: usage.ru_maxrss as f64 / 1024.0,
    }
}

/// The runs of one command.
#[derive(Default)]
pub struct Runs(Vec<Run>);

impl Runs {
    pub fn push(&mut self, run: Run) {
        self.0.push(run);
    }
    fn sorted(&self) -> Vec<f64> {
        let mut walls: Vec<f64> = self.0.iter().map(|r| r.wall).collect();
        walls.sort_by(f64::total_cmp);
        walls
    }
    pub fn min(&self) -> f64 {
        self.sorted()[0]
    }
    /// The upper median (the middle run of an odd count).
    pub fn median(&self) -> f64 {
        let walls = self.sorted();
        walls[walls.len() / 2]
    }
    pub fn peak_rss(&self) -> f64 {
        self.0.iter().map(|r| r.rss_mib).fold(0.0, f64::max)
    }
    /// One line: min and median wall, MB/s of `mb` MB of JSON at the
    /// minimum, peak RSS, and the ratios to `base` (min / min, median /
    /// median) when given.
    pub fn print(&self, what: &str, mb: f64, base: Option<&Runs>) {
        let (min, med) = (self.min(), self.median());
        print!(
            "{what:<28}: min {min:7.2} s ({:5.0} MB/s)  median {med:7.2} s  peak RSS {:7.1} MiB",
            mb / min,
            self.peak_rss()
        );
        if let Some(b) = base {
            print!("  {:.2}x / {:.2}x zstd", min / b.min(), med / b.median());
        }
        println!();
    }
}

/// `zstd -dc FILE`, its output to /dev/null (by `measure`).
pub fn zstd_dc(file: &Path) -> Command {
    let mut cmd = Command::new("zstd");
    cmd.arg("-dc").arg(file);
    cmd
}

/// The release binary the bench runs.
pub fn artifact_exe(root: &Path) -> PathBuf {
    let exe = root.join("target/release/artifact");
    assert!(
        exe.exists(),
        "build the binary first: cargo build --release"
    );
    exe
}

/// `to` becomes a hard link to `from` (a copy across file systems).
pub fn link_or_copy(from: &Path, to: &Path) {
    let _ = std::fs::remove_file(to);
    std::fs::hard_link(from, to)
        .or_else(|_| std::fs::copy(from, to).map(|_| ()))
        .unwrap_or_else(|e| panic!("cannot link {} to {}: {e}", from.display(), to.display()));
}

fn main() {
    // `cargo bench` adds `--bench`; other flags are ignored too.
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let sizes = |from: usize| -> Vec<u64> {
        args[from..]
            .iter()
            .map(|a| {
                a.parse()
                    .unwrap_or_else(|_| panic!("not a size in MiB: {a:?}"))
            })
            .collect()
    };
    let runs: usize = std::env::var("RUNS")
        .ok()
        .map(|r| r.parse().expect("RUNS is a number of runs"))
        .unwrap_or(5);
    assert!(runs > 0, "RUNS must be at least 1");
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    match args.first().map(String::as_str) {
        None => {
            fig5::run(&root, 1024, runs);
            paper::run(&root, &paper::DEFAULT_SIZES, runs);
        }
        Some("fig5") => {
            let s = sizes(1);
            assert!(s.len() <= 1, "fig5 takes one size");
            fig5::run(&root, s.first().copied().unwrap_or(1024), runs);
        }
        Some("numbers") => {
            let s = sizes(1);
            assert!(s.len() <= 1, "numbers takes one size");
            numbers::run(&root, s.first().copied().unwrap_or(1024), runs);
        }
        Some("dense") => dense::run(&root, sizes(1).first().copied().unwrap_or(1_000_000), runs),
        Some("init") => init::run(&root, sizes(1).first().copied().unwrap_or(1024), runs),
        Some("parquet") => parquet::run(&root, sizes(1).first().copied().unwrap_or(1024), runs),
        Some("holds") => holds::run(&root, sizes(1).first().copied().unwrap_or(1024), runs),
        Some("paper") => {
            let s = sizes(1);
            paper::run(
                &root,
                if s.is_empty() {
                    &paper::DEFAULT_SIZES
                } else {
                    &s
                },
                runs,
            );
        }
        Some(_) => {
            let s = sizes(0);
            assert!(
                s.len() == 1,
                "usage: big_input [fig5 [SIZE_MIB] | numbers [SIZE_MIB] | dense [POINTS] | init [SIZE_MIB] | parquet [SIZE_MIB] | paper [SIZE_MIB...] | SIZE_MIB]"
            );
            fig5::run(&root, s[0], runs);
        }
    }
}

//! Mode `dense`: a scatter and a line of 10⁶ points, drawn as vectors and
//! rasterized (`rasterize = true`).
//!
//! Writes (once, under `target/bench-data/dense/`) a JSONL log of POINTS
//! rows (default 10⁶; `x` a run index, `y` a noisy measurement, `bytes` a
//! spread-out size), and two specs over it, each with a point figure of
//! `bytes` against `y` and a line figure of `y` against `x`: one draws
//! them as vectors, the other with `rasterize = true`. Then `artifact gen
//! --force` on each, alternately, `RUNS` times. Prints the minimum and
//! median wall time, the peak RSS, and each figure's PDF and SVG bytes.

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::Path;
use std::process::Command;

use crate::{Rng, Runs, artifact_exe, link_or_copy, measure};

fn generate(path: &Path, points: u64) {
    let tmp = path.with_extension("jsonl.tmp");
    let f = std::fs::File::create(&tmp).expect("create the generated log");
    let mut out = std::io::BufWriter::new(f);
    let mut rng = Rng(artifact::stats::SplitMix64(20261205));
    let mut line = String::new();
    for i in 0..points {
        line.clear();
        let y = 5.0 + 2.0 * (i as f64 / points as f64 * 12.0).sin() + rng.around(1.0, 0.9);
        let bytes = 1 + rng.next_u64() % 1_000_000_000;
        let _ = writeln!(line, "{{\"x\": {i}, \"y\": {y:.6}, \"bytes\": {bytes}}}");
        out.write_all(line.as_bytes())
            .expect("write the generated log");
    }
    out.flush().expect("flush the generated log");
    drop(out);
    std::fs::rename(&tmp, path).expect("rename the generated log");
    eprintln!("generated {} ({points} rows)", path.display());
}

fn spec(raster: bool) -> String {
    let r = if raster { ", rasterize = true" } else { "" };
    format!(
        r#"[sources.points]
path = "points.jsonl"

[figures.scatter]
size = [5, 3.2]
x = {{ title = "bytes" }}
y = {{ title = "y" }}
layers = [{{ mark = "point", data = "points", x = "bytes", y = "y"{r} }}]

[figures.line]
size = [5, 3.2]
x = {{ title = "run" }}
y = {{ title = "y" }}
layers = [{{ mark = "line", data = "points", x = "x", y = "y"{r} }}]
"#
    )
}

fn size(path: &Path) -> u64 {
    std::fs::metadata(path).map_or(0, |m| m.len())
}

/// Runs the dense mode on `points` rows.
pub fn run(root: &Path, points: u64, runs: usize) {
    let dir = root.join("target/bench-data/dense");
    std::fs::create_dir_all(&dir).expect("create target/bench-data/dense");
    let data = dir.join(format!("points-{points}.jsonl"));
    if !data.exists() {
        generate(&data, points);
    }
    let exe = artifact_exe(root);
    let works: Vec<_> = [false, true]
        .iter()
        .map(|&raster| {
            let work = dir.join(if raster { "raster" } else { "vector" });
            std::fs::create_dir_all(&work).expect("create the spec's directory");
            std::fs::write(work.join("artifact.toml"), spec(raster)).expect("write the spec");
            link_or_copy(&data, &work.join("points.jsonl"));
            work
        })
        .collect();
    let mut measured = [Runs::default(), Runs::default()];
    for _ in 0..runs {
        for (work, m) in works.iter().zip(measured.iter_mut()) {
            m.push(measure(
                Command::new(&exe)
                    .arg("-C")
                    .arg(work)
                    .arg("gen")
                    .arg("--force"),
                Some(&work.join("gen.stderr")),
            ));
        }
    }
    let mb = size(&data) as f64 / 1e6;
    println!(
        "== dense: {} ({points} rows, {mb:.0} MB), {runs} runs each",
        data.display()
    );
    for (work, m) in works.iter().zip(&measured) {
        let what = work.file_name().map_or(String::new(), |n| {
            format!("artifact gen ({})", n.to_string_lossy())
        });
        m.print(&what, mb, None);
        let mut files = String::new();
        for fig in ["scatter", "line"] {
            for ext in ["pdf", "svg"] {
                let _ = write!(
                    files,
                    "  {fig}.{ext} {} bytes",
                    size(&work.join(format!("figures/{fig}.{ext}")))
                );
            }
        }
        println!("   {files}");
    }
}

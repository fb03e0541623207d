//! Issue 28, dense figures: a rasterized scatter and line of 10⁵ points
//! each render within a fixed address space (200 MiB), so a figure's memory per
//! point cannot creep back up unnoticed.

mod common;

use std::io::Write as _;
use std::path::Path;
use std::process::{Command, Output};

use common::*;

const SPEC: &str = r#"[sources.points]
path = "points.jsonl"

[figures.scatter]
size = [5, 3.2]
x = { title = "bytes" }
y = { title = "y" }
layers = [{ mark = "point", data = "points", x = "bytes", y = "y", rasterize = true }]

[figures.line]
size = [5, 3.2]
x = { title = "run" }
y = { title = "y" }
layers = [{ mark = "line", data = "points", x = "x", y = "y", rasterize = true }]
"#;

/// `rows` rows of `x` (the run), `y` (a wave) and `bytes` (spread up to
/// 10⁹), as the `dense` bench writes them.
fn write_points(path: &Path, rows: u64) {
    let mut out = std::io::BufWriter::new(std::fs::File::create(path).unwrap());
    for i in 0..rows {
        let y = 5.0 + 2.0 * (i as f64 / rows as f64 * 12.0).sin() + (i % 17) as f64 / 17.0;
        let bytes = 1 + (i * 2_654_435_761) % 1_000_000_000;
        writeln!(out, "{{\"x\": {i}, \"y\": {y:.6}, \"bytes\": {bytes}}}").unwrap();
    }
    out.flush().unwrap();
}

/// `artifact gen` in `dir` under a virtual memory limit of `mib` MiB, one
/// malloc arena (each thread's own would reserve 64 MiB of address space).
fn gen_limited(dir: &Path, mib: u64) -> Output {
    Command::new("sh")
        .arg("-c")
        .arg(format!("ulimit -v {}; exec \"$0\" \"$@\"", mib * 1024))
        .arg(assert_cmd::cargo::cargo_bin("artifact"))
        .arg("gen")
        .env("MALLOC_ARENA_MAX", "1")
        .current_dir(dir)
        .output()
        .unwrap()
}

#[test]
fn a_rasterized_scatter_and_line_of_100k_points_fit_in_200_mib() {
    // Measured: 160-170 MiB of address space, 148 MB peak RSS (release).
    // Before the figure's CSV records shared their layer's cells, a layer
    // without `where` shared its table's rows, a row shrank to 80 bytes
    // and the run let go of its tables before rendering, the peak RSS
    // alone was 236 MB.
    let dir = project(SPEC);
    let d = dir.path();
    write_points(&d.join("points.jsonl"), 100_000);
    let out = gen_limited(d, 200);
    assert!(out.status.success(), "{}", stderr(&out));
    for fig in ["scatter", "line"] {
        let csv = std::fs::read_to_string(d.join(format!("figures/{fig}.csv"))).unwrap();
        assert_eq!(csv.lines().count(), 100_001, "{fig}");
        assert!(d.join(format!("figures/{fig}.pdf")).exists(), "{fig}");
    }
    let csv = std::fs::read_to_string(d.join("figures/scatter.csv")).unwrap();
    let mut lines = csv.lines();
    assert_eq!(lines.next(), Some("panel,layer,mark,x,y,size,color,shape"));
    assert_eq!(lines.next(), Some("0,0,point,1,5,36,#0072b2,circle"));
}

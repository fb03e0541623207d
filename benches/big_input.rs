//! Gigabyte input: fig5's table from a generated `results.jsonl.zst`.
//!
//! `cargo bench --bench big_input [-- SIZE_MIB]` writes (once, under
//! `target/bench-data/`) a zstd-compressed JSONL file in the compression
//! paper's schema, SIZE_MIB of JSON when decompressed (default 1024), with
//! realistic method maps (bf16, Q4_K and 7B-shard records, 7-12 methods each,
//! some error entries and strings). Then, side by side in one run:
//! `zstd -dc FILE > /dev/null`, and `artifact gen` on a spec that builds
//! fig5's table (and its numbers) from the file, alternately, `RUNS` times
//! each (default 5). It prints the minimum and median wall time, MB/s of
//! decompressed JSON, and the peak RSS of each process.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

/// SplitMix64: a tiny seeded generator, the same numbers on every machine.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
    fn around(&mut self, x: f64, spread: f64) -> f64 {
        x * (1.0 + spread * (2.0 * self.unit() - 1.0))
    }
}

const BF16: &[(&str, f64, f64)] = &[
    ("gzip6", 1.26, 277.0),
    ("xz9", 1.39, 33.0),
    ("zstd3_raw", 1.28, 1340.0),
    ("zstd19_raw", 1.281, 1150.0),
    ("brotli_q9", 1.287, 260.0),
    ("zstd19_bytegrouped", 1.487, 700.0),
    ("bf16_split", 1.501, 45.4),
];
const Q4K: &[(&str, f64, f64)] = &[
    ("zstd3_raw", 1.025, 1700.0),
    ("zstd19_raw", 1.025, 1630.0),
    ("gzip6", 1.022, 360.0),
    ("xz9", 1.018, 21.0),
    ("brotli_q9", 1.026, 290.0),
    ("zstd19_bytegrouped", 1.036, 1110.0),
    ("decomp_qb_full", 1.035, 907.0),
    ("qb_k4", 1.044, 43.0),
    ("qb_k8", 1.045, 44.0),
    ("qb_k16", 1.046, 44.5),
];
const B7: &[(&str, f64, f64)] = &[
    ("whole_xz6", 1.388, 33.1),
    ("whole_zstd3", 1.275, 1810.0),
    ("whole_zstd9", 1.278, 1525.0),
    ("whole_zstd19", 1.279, 1033.0),
    ("decomp_perstream_zstd3", 1.412, 1030.0),
    ("decomp_perstream_zstd19", 1.494, 1297.0),
    ("decomp_perstream_xz6", 1.452, 35.3),
    ("bf16_pretrained_k1", 1.487, 48.1),
    ("zstd19_dict", 1.283, 1212.0),
];

fn record(rng: &mut Rng, i: u64, out: &mut String) {
    use std::fmt::Write;
    let pick = rng.unit();
    let (kind, methods, input_bytes) = if pick < 0.55 {
        ("bench_bf16_perfile", BF16, 1 + (rng.next() % 4_000_000))
    } else if pick < 0.92 {
        ("Q4_K_benchmark", Q4K, 1 + (rng.next() % 600_000))
    } else {
        ("bench_7B", B7, 4_194_304)
    };
    let model = if i.is_multiple_of(2) {
        "minilm-l6-bf16rne"
    } else {
        "minilm-l6-bf16trunc"
    };
    let _ = write!(
        out,
        "{{\"_kind\": \"{kind}\", \"tensor_name\": \"{model}/encoder.layer.{}.attention.self.key.weight#{i}\", \"model\": \"{model}\", \"source_tensor\": \"encoder.layer.{}.attention.self.key.weight\", \"tensor_category\": \"attention\", \"layer\": {}, \"shape\": [384, 384], \"offset\": [0, 147456], \"n_values\": 147456, \"input_bytes\": {input_bytes}, \"methods\": {{",
        i % 6,
        i % 6,
        i % 6
    );
    for (k, (name, ratio, mbps)) in methods.iter().enumerate() {
        if k > 0 {
            out.push_str(", ");
        }
        let r = rng.around(*ratio, 0.01);
        let d = rng.around(*mbps, 0.15);
        let c = rng.around(*mbps * 0.3, 0.5);
        let _ = write!(
            out,
            "\"{name}\": {{\"ratio\": {r:.6}, \"compressed_bytes\": {}, \"compress_MBps\": {c:.4}, \"decompress_MBps\": {d:.4}}}",
            (input_bytes as f64 / r) as u64
        );
    }
    if rng.unit() < 0.05 {
        out.push_str(", \"scape_per_file\": {\"error\": \"openzl binary not available\", \"compress_MBps\": null}");
    }
    if rng.unit() < 0.03 {
        out.push_str(", \"qa\": \"not applicable to bf16\"");
    }
    out.push_str("}}\n");
}

fn generate(path: &Path, mib: u64) {
    let target = mib << 20;
    let f = std::fs::File::create(path).unwrap();
    let mut enc = zstd::stream::write::Encoder::new(f, 3).unwrap();
    let mut rng = Rng(20261130);
    let mut written = 0u64;
    let mut buf = String::with_capacity(1 << 20);
    let mut i = 0u64;
    while written < target {
        buf.clear();
        while buf.len() < (1 << 20) && written + (buf.len() as u64) < target {
            record(&mut rng, i, &mut buf);
            i += 1;
        }
        enc.write_all(buf.as_bytes()).unwrap();
        written += buf.len() as u64;
    }
    enc.finish().unwrap();
    eprintln!(
        "generated {} ({} records, {:.0} MiB decompressed)",
        path.display(),
        i,
        written as f64 / (1 << 20) as f64
    );
}

/// Runs a command; returns (wall seconds, peak RSS in MiB) of the child.
fn measure(cmd: &mut Command) -> (f64, f64) {
    let start = Instant::now();
    // Reaped by wait4 below (which also gives the peak RSS).
    #[allow(clippy::zombie_processes)]
    let child = cmd.spawn().unwrap();
    let mut status = 0;
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: wait4 on our own child with valid out-pointers.
    let pid = unsafe { libc::wait4(child.id() as i32, &mut status, 0, &mut usage) };
    assert!(
        pid > 0 && libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0,
        "command failed: {cmd:?}"
    );
    (
        start.elapsed().as_secs_f64(),
        usage.ru_maxrss as f64 / 1024.0,
    )
}

const SPEC: &str = r#"
[sources.results]
path = "results.jsonl.zst"

[tables.fig5_points]
from = "results"
steps = [
  { filter = "_kind in ['bench_bf16_perfile', 'bench_7B', 'Q4_K_benchmark'] and methods is mapping" },
  { derive = { corpus = "'Q4_K' if _kind == 'Q4_K_benchmark' else 'bf16'" } },
  { explode = "methods", key = "method", value = "m" },
  { filter = "m is mapping and m.ratio is not none and m.decompress_MBps is not none and m.ratio > 0 and m.decompress_MBps > 0" },
  { group = ["corpus", "method"], aggregate = { n = "count", ratio = { weighted_mean = "m.ratio", weight = "input_bytes" }, mbps = { median = "m.decompress_MBps" } } },
  { filter = "n >= 5" },
  { pareto = ["mbps", "ratio"], as = "on_front" },
]

[numbers.points]
table = "fig5_points"
value = "count"

[numbers.pareto]
table = "fig5_points"
where = "on_front"
value = "count"

[numbers.bf16-split-mbps]
table = "fig5_points"
where = "corpus == 'bf16' and method == 'bf16_split'"
value = { cell = "mbps" }
format = { places = 1 }
"#;

fn main() {
    let mib: u64 = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(1024);
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let dir = root.join("target/bench-data");
    std::fs::create_dir_all(&dir).unwrap();
    let data = dir.join(format!("results-{mib}MiB.jsonl.zst"));
    if !data.exists() {
        generate(&data, mib);
    }
    let work = dir.join(format!("paper-{mib}"));
    std::fs::create_dir_all(&work).unwrap();
    std::fs::write(work.join("artifact.toml"), SPEC).unwrap();
    let link = work.join("results.jsonl.zst");
    let _ = std::fs::remove_file(&link);
    std::fs::hard_link(&data, &link)
        .or_else(|_| std::fs::copy(&data, &link).map(|_| ()))
        .unwrap();
    let _ = std::fs::remove_file(work.join("artifact.lock"));
    let exe = root.join("target/release/artifact");
    assert!(
        exe.exists(),
        "build the binary first: cargo build --release"
    );
    let bytes = (mib << 20) as f64 / 1e6;
    // Both commands, alternately, RUNS times each: this machine is shared,
    // so one run of each can be off by half; the minimum is the time the
    // work takes, the median what a user sees.
    let runs: usize = std::env::var("RUNS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(5);
    let (mut zs, mut gs) = (Vec::new(), Vec::new());
    for _ in 0..runs {
        zs.push(measure(
            Command::new("sh")
                .arg("-c")
                .arg(format!("zstd -dc '{}' > /dev/null", data.display())),
        ));
        gs.push(measure(
            Command::new(&exe)
                .arg("-C")
                .arg(&work)
                .arg("gen")
                .arg("--force")
                .stderr(std::process::Stdio::null()),
        ));
    }
    let stats = |v: &mut Vec<(f64, f64)>| {
        v.sort_by(|a, b| a.0.total_cmp(&b.0));
        let rss = v.iter().map(|r| r.1).fold(0.0, f64::max);
        (v[0].0, v[v.len() / 2].0, rss)
    };
    let (zmin, zmed, zrss) = stats(&mut zs);
    let (amin, amed, arss) = stats(&mut gs);
    println!(
        "input: {} ({mib} MiB of JSON), {runs} runs each",
        data.display()
    );
    println!(
        "zstd -dc > /dev/null : min {zmin:5.2} s ({:5.0} MB/s)  median {zmed:5.2} s  peak RSS {zrss:6.1} MiB",
        bytes / zmin
    );
    println!(
        "artifact gen (fig5)  : min {amin:5.2} s ({:5.0} MB/s)  median {amed:5.2} s  peak RSS {arss:6.1} MiB",
        bytes / amin
    );
    println!(
        "ratio artifact / zstd: {:.2}x (min / min), {:.2}x (median / median)",
        amin / zmin,
        amed / zmed
    );
    let numbers = std::fs::read_to_string(work.join("generated/numbers.json")).unwrap();
    println!(
        "{}",
        numbers
            .lines()
            .filter(|l| l.contains("\"text\""))
            .collect::<Vec<_>>()
            .join("\n")
    );
}

//! Mode `fig5`: fig5's table alone from a generated `results.jsonl.zst`.
//!
//! Writes (once, under `target/bench-data/`) a zstd-compressed JSONL file in
//! the compression paper's schema, SIZE_MIB of JSON when decompressed, with
//! realistic method maps (bf16, Q4_K and 7B-shard records, 7-12 methods each,
//! some error entries and strings). Then, side by side: `zstd -dc FILE >
//! /dev/null`, and `artifact gen` on a spec that builds fig5's table (and its
//! numbers) from the file, alternately, `RUNS` times each. Prints the minimum
//! and median wall time, MB/s of decompressed JSON, and the peak RSS of each.

use std::io::Write;
use std::path::Path;
use std::process::Command;

use crate::{Rng, Runs, artifact_exe, link_or_copy, measure, zstd_dc};

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

pub(crate) fn record(rng: &mut Rng, i: u64, out: &mut String) {
    use std::fmt::Write;
    let pick = rng.unit();
    let (kind, methods, input_bytes) = if pick < 0.55 {
        ("bench_bf16_perfile", BF16, 1 + (rng.next_u64() % 4_000_000))
    } else if pick < 0.92 {
        ("Q4_K_benchmark", Q4K, 1 + (rng.next_u64() % 600_000))
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
    // Written aside and renamed: an interrupted run leaves no short file.
    let tmp = path.with_extension("zst.tmp");
    let f = std::fs::File::create(&tmp).expect("create the generated log");
    let mut enc = zstd::stream::write::Encoder::new(f, 3).expect("zstd encoder");
    let mut rng = Rng(artifact::stats::SplitMix64(20261130));
    let mut written = 0u64;
    let mut buf = String::with_capacity(1 << 20);
    let mut i = 0u64;
    while written < target {
        buf.clear();
        while buf.len() < (1 << 20) && written + (buf.len() as u64) < target {
            record(&mut rng, i, &mut buf);
            i += 1;
        }
        enc.write_all(buf.as_bytes())
            .expect("write the generated log");
        written += buf.len() as u64;
    }
    enc.finish().expect("finish the generated log");
    std::fs::rename(&tmp, path).expect("rename the generated log");
    eprintln!(
        "generated {} ({} records, {:.0} MiB decompressed)",
        path.display(),
        i,
        written as f64 / (1 << 20) as f64
    );
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

/// The generated log of SIZE_MIB of JSON in `dir` (made once).
pub fn data(dir: &Path, mib: u64) -> std::path::PathBuf {
    std::fs::create_dir_all(dir).expect("create target/bench-data");
    let data = dir.join(format!("results-{mib}MiB.jsonl.zst"));
    if !data.exists() {
        generate(&data, mib);
    }
    data
}

/// Runs the fig5 mode on SIZE_MIB of JSON.
pub fn run(root: &Path, mib: u64, runs: usize) {
    let dir = root.join("target/bench-data");
    let data = data(&dir, mib);
    let work = dir.join(format!("paper-{mib}"));
    std::fs::create_dir_all(&work).expect("create the fig5 spec's directory");
    std::fs::write(work.join("artifact.toml"), SPEC).expect("write the fig5 spec");
    link_or_copy(&data, &work.join("results.jsonl.zst"));
    let _ = std::fs::remove_file(work.join("artifact.lock"));
    let exe = artifact_exe(root);
    let bytes = (mib << 20) as f64 / 1e6;
    // Both commands, alternately, RUNS times each: this machine is shared,
    // so one run of each can be off by half; the minimum is the time the
    // work takes, the median what a user sees.
    let (mut zs, mut gs) = (Runs::default(), Runs::default());
    for _ in 0..runs {
        zs.push(measure(&mut zstd_dc(&data), None));
        gs.push(measure(
            Command::new(&exe)
                .arg("-C")
                .arg(&work)
                .arg("gen")
                .arg("--force"),
            Some(&work.join("gen.stderr")),
        ));
    }
    println!(
        "== fig5: {} ({mib} MiB of JSON), {runs} runs each",
        data.display()
    );
    zs.print("zstd -dc > /dev/null", bytes, None);
    gs.print("artifact gen (fig5)", bytes, Some(&zs));
    let numbers = std::fs::read_to_string(work.join("generated/numbers.json"))
        .expect("artifact gen wrote generated/numbers.json");
    println!(
        "{}",
        numbers
            .lines()
            .filter(|l| l.contains("\"text\""))
            .collect::<Vec<_>>()
            .join("\n")
    );
}

//! The `numbers` mode: numbers read straight from the log (count, median,
//! p99, a mean with its ci95) beside the same numbers through a `group`
//! step, on the fig5 mode's generated log, alternately with `zstd -dc`.
//! The straight numbers fold on the stream (`src/plan/fold.rs`): they
//! should take about as long and as little memory as the group step.

use std::path::Path;
use std::process::Command;

use super::{Runs, artifact_exe, fig5, link_or_copy, measure, zstd_dc};

const SOURCE: &str = r#"
[sources.log]
path = "results.jsonl.zst"
"#;

const STRAIGHT: &str = r#"
[numbers.records]
table = "log"
value = "count"

[numbers.median-bytes]
table = "log"
value = { median = "input_bytes" }

[numbers.p99-bytes]
table = "log"
value = { quantile = "input_bytes", q = 0.99 }

[numbers.mean-bytes]
table = "log"
value = { mean = "input_bytes" }
uncertainty = { low = { ci95 = "input_bytes", bound = "low" }, high = { ci95 = "input_bytes", bound = "high" } }
"#;

const GROUPED: &str = r#"
[tables.all]
from = "log"
steps = [{ group = [], aggregate = { n = "count", median = { median = "input_bytes" }, p99 = { quantile = "input_bytes", q = 0.99 }, mean = { mean = "input_bytes" }, lo = { ci95 = "input_bytes", bound = "low" }, hi = { ci95 = "input_bytes", bound = "high" } } }]

[numbers.records]
table = "all"
value = { cell = "n" }

[numbers.median-bytes]
table = "all"
value = { cell = "median" }

[numbers.p99-bytes]
table = "all"
value = { cell = "p99" }

[numbers.mean-bytes]
table = "all"
value = { cell = "mean" }
uncertainty = { low = { cell = "lo" }, high = { cell = "hi" } }
"#;

/// Runs the numbers mode on SIZE_MIB of JSON.
pub fn run(root: &Path, mib: u64, runs: usize) {
    let dir = root.join("target/bench-data");
    let data = fig5::data(&dir, mib);
    let exe = artifact_exe(root);
    let bytes = (mib << 20) as f64 / 1e6;
    let specs = [("straight", STRAIGHT), ("grouped", GROUPED)];
    let mut works = Vec::new();
    for (name, spec) in specs {
        let work = dir.join(format!("numbers-{name}-{mib}"));
        std::fs::create_dir_all(&work).expect("create the numbers spec's directory");
        std::fs::write(work.join("artifact.toml"), format!("{SOURCE}{spec}"))
            .expect("write the numbers spec");
        link_or_copy(&data, &work.join("results.jsonl.zst"));
        let _ = std::fs::remove_file(work.join("artifact.lock"));
        works.push(work);
    }
    let mut all = [Runs::default(), Runs::default(), Runs::default()];
    for _ in 0..runs {
        all[0].push(measure(&mut zstd_dc(&data), None));
        for (i, work) in works.iter().enumerate() {
            all[i + 1].push(measure(
                Command::new(&exe)
                    .arg("-C")
                    .arg(work)
                    .arg("gen")
                    .arg("--force"),
                Some(&work.join("gen.stderr")),
            ));
        }
    }
    println!(
        "== numbers: {} ({mib} MiB of JSON), {runs} runs each",
        data.display()
    );
    all[0].print("zstd -dc > /dev/null", bytes, None);
    all[1].print("numbers straight on the log", bytes, Some(&all[0]));
    all[2].print("numbers through a group step", bytes, Some(&all[0]));
    println!(
        "straight / grouped: {:.2}x (min / min), {:.2}x (median / median)",
        all[1].min() / all[2].min(),
        all[1].median() / all[2].median()
    );
    let read = |w: &Path| {
        std::fs::read_to_string(w.join("generated/numbers.json"))
            .expect("artifact gen wrote generated/numbers.json")
    };
    let values = |text: String| -> Vec<String> {
        text.lines()
            .filter(|l| l.contains("\"text\""))
            .map(str::to_string)
            .collect()
    };
    let (a, b) = (values(read(&works[0])), values(read(&works[1])));
    assert_eq!(a, b, "the straight and grouped numbers differ");
    println!("{}", a.join("\n"));
}

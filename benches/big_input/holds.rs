//! The `holds` mode: the consumers that held rows before issue 28's
//! `holds` part, alternately with what they are measured against.
//!
//! 1. A number family (`each`, `per`) straight on the fig5 mode's
//!    generated log (folded on the stream: one group step keyed by `per`),
//!    beside the same members through a `group` step and `zstd -dc`.
//! 2. A figure and a results table drawing two columns of a wide CSV and
//!    of the same rows as Parquet (`ROWS` rows of 40 integer columns),
//!    keeping only those columns, beside the same spec with a table that
//!    reads the rows whole (`_ | tojson`), which holds every column as
//!    every CSV and Parquet source was held before.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;

use super::{Runs, artifact_exe, fig5, link_or_copy, measure, zstd_dc};

const FAMILY: &str = r#"
[sources.log]
path = "results.jsonl.zst"

[numbers.median]
table = "log"
each = "{{ model }}-{{ _kind }}-median"
per = ["model", "_kind"]
value = { median = "input_bytes" }

[numbers.count]
table = "log"
each = "{{ model }}-{{ _kind }}-n"
per = ["model", "_kind"]
value = "count"
"#;

const FAMILY_GROUPED: &str = r#"
[sources.log]
path = "results.jsonl.zst"

[tables.by]
from = "log"
steps = [{ group = ["model", "_kind"], aggregate = { n = "count", median = { median = "input_bytes" } } }]

[numbers.median]
table = "by"
each = "{{ model }}-{{ _kind }}-median"
per = ["model", "_kind"]
value = { cell = "median" }

[numbers.count]
table = "by"
each = "{{ model }}-{{ _kind }}-n"
per = ["model", "_kind"]
value = { cell = "n" }
"#;

/// The family over rows held as before it folded: its table `t` is read
/// by another table too, so `t` is held (with the fields read).
const FAMILY_HELD: &str = r#"
[sources.log]
path = "results.jsonl.zst"

[tables.t]
from = "log"

[tables.other]
from = "t"

[numbers.median]
table = "t"
each = "{{ model }}-{{ _kind }}-median"
per = ["model", "_kind"]
value = { median = "input_bytes" }

[numbers.count]
table = "t"
each = "{{ model }}-{{ _kind }}-n"
per = ["model", "_kind"]
value = "count"
"#;

/// Columns of the wide files.
const COLUMNS: usize = 40;
/// Rows of the wide files.
const ROWS: i64 = 200_000;

const WIDE: &str = r#"
[sources.wide]
path = "wide.FORMAT"

[figures.w]
size = [4, 3]
layers = [{ mark = "point", data = "wide", x = "c1", y = "c2", rasterize = true }]

[results_tables.r]
from = "wide"
where = "c5 < 25000"
columns = [{ field = "c3" }, { field = "c4" }]
"#;

const WHOLE: &str = r#"
[tables.whole]
from = "wide"
steps = [{ derive = { j = "_ | tojson" } }]
"#;

/// Writes `wide.csv` and `wide.parquet` (once): `k` (row % 3 as text) and
/// `c{i}` = i * row + row % 7.
fn wide(dir: &Path) -> (PathBuf, PathBuf) {
    use parquet::data_type::{ByteArray, ByteArrayType, Int64Type};
    let (csv, pq) = (dir.join("wide.csv"), dir.join("wide.parquet"));
    let value = |i: i64, r: i64| i * r + r % 7;
    if !csv.exists() {
        let mut text = String::from("k");
        for i in 0..COLUMNS {
            let _ = write!(text, ",c{i}");
        }
        text.push('\n');
        for r in 0..ROWS {
            let _ = write!(text, "k{}", r % 3);
            for i in 0..COLUMNS as i64 {
                let _ = write!(text, ",{}", value(i, r));
            }
            text.push('\n');
        }
        std::fs::write(&csv, text).expect("write wide.csv");
    }
    if !pq.exists() {
        let mut schema = String::from("message wide { REQUIRED BYTE_ARRAY k (UTF8);");
        for i in 0..COLUMNS {
            let _ = write!(schema, " REQUIRED INT64 c{i};");
        }
        schema.push('}');
        let schema =
            Arc::new(parquet::schema::parser::parse_message_type(&schema).expect("schema"));
        let props = Arc::new(parquet::file::properties::WriterProperties::builder().build());
        let file = std::fs::File::create(&pq).expect("create wide.parquet");
        let mut writer =
            parquet::file::writer::SerializedFileWriter::new(file, schema, props).expect("writer");
        // Row groups of 50,000 rows.
        for start in (0..ROWS).step_by(50_000) {
            let rows = start..(start + 50_000).min(ROWS);
            let mut rg = writer.next_row_group().expect("row group");
            let mut leaf = 0i64;
            while let Some(mut col) = rg.next_column().expect("column") {
                if leaf == 0 {
                    let keys: Vec<ByteArray> = rows
                        .clone()
                        .map(|r| ByteArray::from(format!("k{}", r % 3).as_str()))
                        .collect();
                    col.typed::<ByteArrayType>()
                        .write_batch(&keys, None, None)
                        .expect("k");
                } else {
                    let v: Vec<i64> = rows.clone().map(|r| value(leaf - 1, r)).collect();
                    col.typed::<Int64Type>()
                        .write_batch(&v, None, None)
                        .expect("c");
                }
                col.close().expect("close column");
                leaf += 1;
            }
            rg.close().expect("close row group");
        }
        writer.close().expect("close wide.parquet");
    }
    (csv, pq)
}

/// A working folder `name` under `dir` with `spec` and `files` linked in
/// (each under the name given with it).
fn work(dir: &Path, name: &str, spec: &str, files: &[(&Path, &str)]) -> PathBuf {
    let w = dir.join(name);
    std::fs::create_dir_all(&w).expect("create the spec's directory");
    std::fs::write(w.join("artifact.toml"), spec).expect("write the spec");
    for (f, as_name) in files {
        link_or_copy(f, &w.join(as_name));
    }
    let _ = std::fs::remove_file(w.join("artifact.lock"));
    w
}

/// `artifact -C work gen --force`.
fn run_gen(exe: &Path, work: &Path) -> super::Run {
    measure(
        Command::new(exe)
            .arg("-C")
            .arg(work)
            .arg("gen")
            .arg("--force"),
        Some(&work.join("gen.stderr")),
    )
}

/// The lines of `numbers.json` with a member's text.
fn texts(work: &Path) -> Vec<String> {
    std::fs::read_to_string(work.join("generated/numbers.json"))
        .expect("artifact gen wrote generated/numbers.json")
        .lines()
        .filter(|l| l.contains("\"text\""))
        .map(str::to_string)
        .collect()
}

/// Runs the holds mode: the family on SIZE_MIB of JSON, then the wide files.
pub fn run(root: &Path, mib: u64, runs: usize) {
    let dir = root.join("target/bench-data");
    let exe = artifact_exe(root);
    let data = fig5::data(&dir, mib);
    let folded = work(
        &dir,
        &format!("holds-family-{mib}"),
        FAMILY,
        &[(&data, "results.jsonl.zst")],
    );
    let grouped = work(
        &dir,
        &format!("holds-grouped-{mib}"),
        FAMILY_GROUPED,
        &[(&data, "results.jsonl.zst")],
    );
    let held = work(
        &dir,
        &format!("holds-held-{mib}"),
        FAMILY_HELD,
        &[(&data, "results.jsonl.zst")],
    );
    let mut all = [
        Runs::default(),
        Runs::default(),
        Runs::default(),
        Runs::default(),
    ];
    for _ in 0..runs {
        all[0].push(measure(&mut zstd_dc(&data), None));
        all[1].push(run_gen(&exe, &folded));
        all[2].push(run_gen(&exe, &grouped));
        all[3].push(run_gen(&exe, &held));
    }
    let bytes = (mib << 20) as f64 / 1e6;
    println!(
        "== holds: a family on {} ({mib} MiB of JSON), {runs} runs each",
        data.display()
    );
    all[0].print("zstd -dc > /dev/null", bytes, None);
    all[1].print("family straight on the log", bytes, Some(&all[0]));
    all[2].print("family over a group step", bytes, Some(&all[0]));
    all[3].print("family over held rows", bytes, Some(&all[0]));
    assert_eq!(
        texts(&folded),
        texts(&grouped),
        "the folded and grouped members differ"
    );
    assert_eq!(
        texts(&folded),
        texts(&held),
        "the folded and held members differ"
    );
    println!("{}", texts(&folded).join("\n"));

    let (csv, pq) = wide(&dir);
    for (format, file) in [("csv", &csv), ("parquet", &pq)] {
        let files = [(file.as_path(), format!("wide.{format}"))];
        let files: Vec<(&Path, &str)> = files.iter().map(|(f, n)| (*f, n.as_str())).collect();
        let spec = WIDE.replace("FORMAT", format);
        let trimmed = work(&dir, &format!("holds-wide-{format}"), &spec, &files);
        let whole = work(
            &dir,
            &format!("holds-whole-{format}"),
            &format!("{spec}{WHOLE}"),
            &files,
        );
        let mut all = [Runs::default(), Runs::default()];
        for _ in 0..runs {
            all[0].push(run_gen(&exe, &trimmed));
            all[1].push(run_gen(&exe, &whole));
        }
        let mb = std::fs::metadata(file).map_or(0.0, |m| m.len() as f64 / 1e6);
        println!(
            "== holds: a figure and a results table on {} ({mb:.0} MB, {ROWS} rows of {} columns), {runs} runs each",
            file.display(),
            COLUMNS + 1
        );
        all[0].print("the columns drawn", mb, None);
        all[1].print("every column (held whole)", mb, Some(&all[0]));
        for out in ["figures/w.csv", "generated/r.csv"] {
            let a = std::fs::read(trimmed.join(out)).expect("an output");
            let b = std::fs::read(whole.join(out)).expect("an output");
            assert!(a == b, "{format}: {out} differs");
        }
    }
}

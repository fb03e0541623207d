//! Mode `parquet`: fig5's table from the fig5 bench's log written as a
//! partitioned Parquet dataset, by artifact and by DuckDB.
//!
//! Writes (once, under `target/bench-data/parquet-SIZE/`) the records of
//! the fig5 bench's generator (the same seed, so the same records as its
//! `results-SIZEMiB.jsonl.zst`) as DuckDB's `COPY ... TO 'logs' (FORMAT
//! parquet, PARTITION_BY (_kind))` writes them: one folder a record kind
//! (`logs/_kind=Q4_K_benchmark/data_0.parquet`), the key left out of the
//! file, every column OPTIONAL, snappy, row groups of 122,880 rows with
//! statistics, `methods` a MAP of VARCHAR to a STRUCT (ratio,
//! compressed_bytes, compress_MBps, decompress_MBps, error; the log's one
//! entry that is a string, `qa`, is a struct with only `error`, which the
//! filters drop as they drop the string). Then, alternately, RUNS times
//! each: `artifact gen` on fig5's spec reading `logs/**/*.parquet`, and
//! DuckDB (`benches/duckdb_parquet_peer.py`) computing the same table from
//! the same files. Prints min and median wall time and peak RSS of both,
//! and checks that DuckDB's rows give artifact's numbers.

use std::path::Path;
use std::process::Command;
use std::sync::Arc;

use ::parquet::data_type::{ByteArray, ByteArrayType, DoubleType, Int64Type};
use ::parquet::file::properties::WriterProperties;
use ::parquet::file::writer::SerializedFileWriter;
use ::parquet::schema::parser::parse_message_type;

use crate::{Rng, Runs, artifact_exe, measure};

/// DuckDB's default row group size.
const ROW_GROUP: usize = 122_880;

const SCHEMA: &str = "message duckdb_schema {
  OPTIONAL BYTE_ARRAY tensor_name (UTF8);
  OPTIONAL BYTE_ARRAY model (UTF8);
  OPTIONAL BYTE_ARRAY source_tensor (UTF8);
  OPTIONAL BYTE_ARRAY tensor_category (UTF8);
  OPTIONAL INT64 layer;
  OPTIONAL group shape (LIST) { REPEATED group list { OPTIONAL INT64 element; } }
  OPTIONAL group offset (LIST) { REPEATED group list { OPTIONAL INT64 element; } }
  OPTIONAL INT64 n_values;
  OPTIONAL INT64 input_bytes;
  OPTIONAL group methods (MAP) {
    REPEATED group key_value {
      REQUIRED BYTE_ARRAY key (UTF8);
      OPTIONAL group value {
        OPTIONAL DOUBLE ratio;
        OPTIONAL INT64 compressed_bytes;
        OPTIONAL DOUBLE compress_MBps;
        OPTIONAL DOUBLE decompress_MBps;
        OPTIONAL BYTE_ARRAY error (UTF8);
      }
    }
  }
}";

/// One leaf's values, definition and repetition levels.
#[derive(Default)]
struct Leaf<T> {
    v: Vec<T>,
    d: Vec<i16>,
    r: Vec<i16>,
}

impl<T> Leaf<T> {
    fn push(&mut self, v: Option<T>, full: i16, rep: i16) {
        match v {
            Some(v) => {
                self.v.push(v);
                self.d.push(full);
            }
            None => self.d.push(full - 1),
        }
        self.r.push(rep);
    }
}

/// The rows of one partition not yet written, column by column.
#[derive(Default)]
struct Buffer {
    rows: usize,
    texts: [Leaf<ByteArray>; 4],
    layer: Leaf<i64>,
    lists: [Leaf<i64>; 2],
    n_values: Leaf<i64>,
    input_bytes: Leaf<i64>,
    key: Leaf<ByteArray>,
    ratio: Leaf<f64>,
    compressed: Leaf<i64>,
    compress: Leaf<f64>,
    decompress: Leaf<f64>,
    error: Leaf<ByteArray>,
}

fn text(v: &serde_json::Value) -> Option<ByteArray> {
    v.as_str().map(ByteArray::from)
}

impl Buffer {
    /// Adds one record (a JSON object of the fig5 log).
    fn push(&mut self, rec: &serde_json::Map<String, serde_json::Value>) {
        use serde_json::Value as J;
        let null = J::Null;
        let get = |k: &str| rec.get(k).unwrap_or(&null);
        for (i, k) in ["tensor_name", "model", "source_tensor", "tensor_category"]
            .into_iter()
            .enumerate()
        {
            self.texts[i].push(text(get(k)), 1, 0);
        }
        self.layer.push(get("layer").as_i64(), 1, 0);
        for (i, k) in ["shape", "offset"].into_iter().enumerate() {
            let items = get(k).as_array().cloned().unwrap_or_default();
            for (j, x) in items.iter().enumerate() {
                self.lists[i].push(x.as_i64(), 3, i16::from(j > 0));
            }
        }
        self.n_values.push(get("n_values").as_i64(), 1, 0);
        self.input_bytes.push(get("input_bytes").as_i64(), 1, 0);
        let methods = get("methods").as_object().cloned().unwrap_or_default();
        for (j, (name, m)) in methods.iter().enumerate() {
            let rep = i16::from(j > 0);
            self.key.v.push(ByteArray::from(name.as_str()));
            self.key.d.push(2);
            self.key.r.push(rep);
            // A string entry: a struct with only `error`.
            let (m, error) = match m {
                J::Object(o) => (o.clone(), o.get("error").and_then(text)),
                other => (serde_json::Map::new(), text(other)),
            };
            let f = |k: &str| m.get(k).and_then(J::as_f64);
            self.ratio.push(f("ratio"), 4, rep);
            self.compressed
                .push(m.get("compressed_bytes").and_then(J::as_i64), 4, rep);
            self.compress.push(f("compress_MBps"), 4, rep);
            self.decompress.push(f("decompress_MBps"), 4, rep);
            self.error.push(error, 4, rep);
        }
        self.rows += 1;
    }

    /// Writes the buffered rows as one row group and empties the buffer.
    fn flush(&mut self, w: &mut SerializedFileWriter<std::fs::File>) {
        if self.rows == 0 {
            return;
        }
        let b = std::mem::take(self);
        let mut rg = w.next_row_group().expect("a row group");
        let mut leaf = 0;
        while let Some(mut c) = rg.next_column().expect("a column") {
            let bytes = |c: &mut ::parquet::file::writer::SerializedColumnWriter<'_>,
                         l: &Leaf<ByteArray>| {
                c.typed::<ByteArrayType>()
                    .write_batch(&l.v, Some(&l.d), Some(&l.r))
            };
            let ints = |c: &mut ::parquet::file::writer::SerializedColumnWriter<'_>,
                        l: &Leaf<i64>| {
                c.typed::<Int64Type>()
                    .write_batch(&l.v, Some(&l.d), Some(&l.r))
            };
            let floats = |c: &mut ::parquet::file::writer::SerializedColumnWriter<'_>,
                          l: &Leaf<f64>| {
                c.typed::<DoubleType>()
                    .write_batch(&l.v, Some(&l.d), Some(&l.r))
            };
            match leaf {
                0..=3 => bytes(&mut c, &b.texts[leaf]),
                4 => ints(&mut c, &b.layer),
                5 | 6 => ints(&mut c, &b.lists[leaf - 5]),
                7 => ints(&mut c, &b.n_values),
                8 => ints(&mut c, &b.input_bytes),
                9 => bytes(&mut c, &b.key),
                10 => floats(&mut c, &b.ratio),
                11 => ints(&mut c, &b.compressed),
                12 => floats(&mut c, &b.compress),
                13 => floats(&mut c, &b.decompress),
                _ => bytes(&mut c, &b.error),
            }
            .expect("write a column");
            c.close().expect("close a column");
            leaf += 1;
        }
        rg.close().expect("close a row group");
    }
}

/// Writes the dataset of SIZE_MIB of JSON records (as the fig5 bench counts
/// them) under `logs`, one file a `_kind`.
fn generate(logs: &Path, mib: u64) {
    let tmp = logs.with_extension("tmp");
    let _ = std::fs::remove_dir_all(&tmp);
    let schema = Arc::new(parse_message_type(SCHEMA).expect("the schema"));
    let props = Arc::new(
        WriterProperties::builder()
            .set_compression(::parquet::basic::Compression::SNAPPY)
            .set_max_row_group_row_count(Some(ROW_GROUP))
            .build(),
    );
    let mut files: std::collections::BTreeMap<
        String,
        (SerializedFileWriter<std::fs::File>, Buffer),
    > = Default::default();
    let mut rng = Rng(artifact::stats::SplitMix64(20261130));
    let target = mib << 20;
    let (mut written, mut i) = (0u64, 0u64);
    let mut line = String::new();
    // The fig5 generator's records, counted as it counts them (its 1 MiB
    // batches stop at the target too).
    while written < target {
        line.clear();
        crate::fig5::record(&mut rng, i, &mut line);
        i += 1;
        written += line.len() as u64;
        let rec: serde_json::Map<String, serde_json::Value> =
            serde_json::from_str(&line).expect("a generated record");
        let kind = rec["_kind"].as_str().expect("a kind").to_string();
        let (w, buf) = files.entry(kind.clone()).or_insert_with(|| {
            let dir = tmp.join(format!("_kind={kind}"));
            std::fs::create_dir_all(&dir).expect("create a partition folder");
            let f = std::fs::File::create(dir.join("data_0.parquet")).expect("create a file");
            let w = SerializedFileWriter::new(f, schema.clone(), props.clone()).expect("a writer");
            (w, Buffer::default())
        });
        buf.push(&rec);
        if buf.rows >= ROW_GROUP {
            buf.flush(w);
        }
    }
    for (_, (mut w, mut buf)) in files {
        buf.flush(&mut w);
        w.close().expect("close a file");
    }
    std::fs::rename(&tmp, logs).expect("rename the dataset");
    eprintln!("generated {} ({i} records)", logs.display());
}

const SPEC: &str = r#"
[sources.results]
path = "logs/**/*.parquet"

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

[numbers.bf16-split-mbps]
table = "fig5_points"
where = "corpus == 'bf16' and method == 'bf16_split'"
value = { cell = "mbps" }
format = { places = 1 }
"#;

/// Runs the parquet mode on SIZE_MIB of JSON records.
pub fn run(root: &Path, mib: u64, runs: usize) {
    let work = root.join(format!("target/bench-data/parquet-{mib}"));
    let logs = work.join("logs");
    std::fs::create_dir_all(&work).expect("create the parquet bench's folder");
    if !logs.exists() {
        generate(&logs, mib);
    }
    std::fs::write(work.join("artifact.toml"), SPEC).expect("write the spec");
    let _ = std::fs::remove_file(work.join("artifact.lock"));
    let exe = artifact_exe(root);
    let py = crate::duckdb::python(root);
    let duck_out = work.join("duckdb.csv");
    let (mut ours, mut theirs) = (Runs::default(), Runs::default());
    for _ in 0..runs {
        ours.push(measure(
            Command::new(&exe)
                .arg("-C")
                .arg(&work)
                .args(["gen", "--force"]),
            Some(&work.join("gen.stderr")),
        ));
        if let Some(py) = &py {
            theirs.push(measure(
                Command::new(py)
                    .arg(root.join("benches/duckdb_parquet_peer.py"))
                    .arg(logs.join("**/*.parquet"))
                    .arg(&duck_out),
                None,
            ));
        }
    }
    let bytes: u64 = walk_bytes(&logs);
    println!(
        "== parquet: {} ({mib} MiB of JSON records as {:.0} MiB of Parquet), {runs} runs each",
        logs.display(),
        bytes as f64 / (1 << 20) as f64
    );
    let mb = (mib << 20) as f64 / 1e6;
    ours.print("artifact gen (fig5, parquet)", mb, None);
    if py.is_some() {
        theirs.print("DuckDB (fig5, parquet)", mb, None);
    }
    let numbers = std::fs::read_to_string(work.join("generated/numbers.json"))
        .expect("artifact gen wrote generated/numbers.json");
    let v: serde_json::Value = serde_json::from_str(&numbers).expect("numbers.json");
    println!(
        "artifact: points {}, bf16_split median MB/s {}",
        v["points"]["value"], v["bf16-split-mbps"]["text"]
    );
    if py.is_some() {
        check(&duck_out, &v);
    }
}

/// DuckDB's rows against artifact's numbers: as many (corpus, method)
/// rows, and bf16_split's median to one place.
fn check(duck: &Path, v: &serde_json::Value) {
    let text = std::fs::read_to_string(duck).expect("DuckDB's rows");
    let rows: Vec<&str> = text.lines().skip(1).collect();
    let split = rows
        .iter()
        .find(|r| r.starts_with("bf16,bf16_split,"))
        .and_then(|r| r.rsplit(',').next())
        .and_then(|x| x.parse::<f64>().ok());
    let same_rows = v["points"]["value"] == serde_json::json!(rows.len());
    let same_split =
        split.map(|x| format!("{x:.1}")).as_deref() == v["bf16-split-mbps"]["text"].as_str();
    if same_rows && same_split {
        println!(
            "DuckDB check: {} rows and bf16_split's median {:?}, as artifact's",
            rows.len(),
            split
        );
    } else {
        println!(
            "DuckDB check: MISMATCH: DuckDB {} rows, bf16_split {split:?}; artifact {}",
            rows.len(),
            v
        );
    }
}

/// The bytes of the files below `dir`.
fn walk_bytes(dir: &Path) -> u64 {
    let mut total = 0;
    for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let p = e.path();
        total += if p.is_dir() {
            walk_bytes(&p)
        } else {
            e.metadata().map_or(0, |m| m.len())
        };
    }
    total
}

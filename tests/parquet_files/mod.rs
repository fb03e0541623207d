//! The Parquet files the Parquet tests write (with the `parquet` crate:
//! flat columns, a struct, a list, a map, logical types, two row groups,
//! every codec built in), and the specs that read them.
#![allow(dead_code)]

use std::path::Path;
use std::sync::Arc;

use parquet::basic::Compression;
use parquet::data_type::{BoolType, ByteArray, ByteArrayType, DoubleType, Int32Type, Int64Type};
use parquet::file::properties::WriterProperties;
use parquet::file::writer::SerializedFileWriter;
use parquet::schema::parser::parse_message_type;

/// The five rows, in two row groups (rows 1-3, rows 4-5):
///
/// | row | method | n | ratio | ok | none | cfg | sizes |
/// | 1 | zstd | 10 | 2.5 | true | null | {zstd, 3} | [1, 2] |
/// | 2 | lz4 | 20 | null | false | null | null | [] |
/// | 3 | zstd | 30 | 3.5 | true | null | {zstd, 19} | [3] |
/// | 4 | gzip | 40 | 1.5 | true | null | {gzip, 9} | null |
/// | 5 | zstd | 50 | 4.0 | false | null | {zstd, 3} | [4, 5, 6] |
pub const SCHEMA: &str = "
message runs {
  REQUIRED BYTE_ARRAY method (UTF8);
  REQUIRED INT64 n;
  OPTIONAL DOUBLE ratio;
  REQUIRED BOOLEAN ok;
  OPTIONAL INT32 none;
  OPTIONAL group cfg {
    REQUIRED BYTE_ARRAY codec (UTF8);
    REQUIRED INT32 level;
  }
  OPTIONAL group sizes (LIST) {
    REPEATED group list {
      REQUIRED INT64 element;
    }
  }
}";

/// One row group's columns, in leaf order: (values, definition levels,
/// repetition levels) for each.
pub struct Group {
    method: Vec<&'static str>,
    n: Vec<i64>,
    ratio: (Vec<f64>, Vec<i16>),
    ok: Vec<bool>,
    none: Vec<i16>,
    cfg: (Vec<&'static str>, Vec<i32>, Vec<i16>),
    sizes: (Vec<i64>, Vec<i16>, Vec<i16>),
}

pub fn groups() -> [Group; 2] {
    [
        Group {
            method: vec!["zstd", "lz4", "zstd"],
            n: vec![10, 20, 30],
            ratio: (vec![2.5, 3.5], vec![1, 0, 1]),
            ok: vec![true, false, true],
            none: vec![0, 0, 0],
            cfg: (vec!["zstd", "zstd"], vec![3, 19], vec![1, 0, 1]),
            sizes: (vec![1, 2, 3], vec![2, 2, 1, 2], vec![0, 1, 0, 0]),
        },
        Group {
            method: vec!["gzip", "zstd"],
            n: vec![40, 50],
            ratio: (vec![1.5, 4.0], vec![1, 1]),
            ok: vec![true, false],
            none: vec![0, 0],
            cfg: (vec!["gzip", "zstd"], vec![9, 3], vec![1, 1]),
            sizes: (vec![4, 5, 6], vec![0, 2, 2, 2], vec![0, 0, 1, 1]),
        },
    ]
}

pub fn strings(v: &[&str]) -> Vec<ByteArray> {
    v.iter().map(|s| ByteArray::from(*s)).collect()
}

/// Writes the five rows to `path`, pages compressed with `codec`.
pub fn write_runs(path: &Path, codec: Compression) {
    write_runs_scaled(path, codec, 1);
}

/// Writes the five rows, `n` multiplied by `scale`.
pub fn write_runs_scaled(path: &Path, codec: Compression, scale: i64) {
    let schema = Arc::new(parse_message_type(SCHEMA).unwrap());
    let props = Arc::new(WriterProperties::builder().set_compression(codec).build());
    let file = std::fs::File::create(path).unwrap();
    let mut writer = SerializedFileWriter::new(file, schema, props).unwrap();
    for g in groups() {
        let mut rg = writer.next_row_group().unwrap();
        let mut leaf = 0;
        while let Some(mut col) = rg.next_column().unwrap() {
            match leaf {
                0 => col
                    .typed::<ByteArrayType>()
                    .write_batch(&strings(&g.method), None, None),
                1 => {
                    let n: Vec<i64> = g.n.iter().map(|n| n * scale).collect();
                    col.typed::<Int64Type>().write_batch(&n, None, None)
                }
                2 => col
                    .typed::<DoubleType>()
                    .write_batch(&g.ratio.0, Some(&g.ratio.1), None),
                3 => col.typed::<BoolType>().write_batch(&g.ok, None, None),
                4 => col
                    .typed::<Int32Type>()
                    .write_batch(&[], Some(&g.none), None),
                5 => col.typed::<ByteArrayType>().write_batch(
                    &strings(&g.cfg.0),
                    Some(&g.cfg.2),
                    None,
                ),
                6 => col
                    .typed::<Int32Type>()
                    .write_batch(&g.cfg.1, Some(&g.cfg.2), None),
                7 => col.typed::<Int64Type>().write_batch(
                    &g.sizes.0,
                    Some(&g.sizes.1),
                    Some(&g.sizes.2),
                ),
                _ => unreachable!(),
            }
            .unwrap();
            col.close().unwrap();
            leaf += 1;
        }
        rg.close().unwrap();
    }
    writer.close().unwrap();
}

pub const SPEC: &str = r#"
[sources.runs]
path = "runs.parquet"

[tables.rated]
from = "runs"
steps = [{ filter = "ratio is not none" }]

[tables.zstd3]
from = "runs"
steps = [{ filter = "cfg is not none and cfg.level == 3 and cfg.codec == 'zstd'" }]

[tables.sizes]
from = "runs"
steps = [{ filter = "sizes is not none" }, { explode = "sizes" }]

[tables.by_method]
from = "runs"
steps = [{ group = ["method"], aggregate = { total = { sum = "n" }, rows = "count" } }]

[tables.fortieth]
from = "runs"
steps = [{ filter = "method == 'gzip' and ok and none is none" }]

[tables.levels]
from = "runs"
steps = [
  { filter = "cfg is not none" },
  { group = ["method"], aggregate = { l = { sum = "cfg.level" } } },
]

[numbers.n-sum]
table = "runs"
value = { sum = "n" }

[numbers.zstd-levels]
table = "levels"
value = { cell = "l" }
where = "method == 'zstd'"

[numbers.ratio-median]
table = "rated"
value = { median = "ratio" }

[numbers.zstd3]
table = "zstd3"
value = "count"

[numbers.sizes-sum]
table = "sizes"
value = { sum = "value" }

[numbers.methods]
table = "by_method"
value = "count"

[numbers.zstd-total]
table = "by_method"
value = { cell = "total" }
where = "method == 'zstd'"

[numbers.fortieth-row]
table = "fortieth"
value = { first = "_source.line" }
"#;

/// A project with the spec and the rows written with `codec`.
pub fn project(spec: &str, codec: Compression) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("artifact.toml"), spec).unwrap();
    write_runs(&dir.path().join("runs.parquet"), codec);
    dir
}

pub fn value(dir: &Path, key: &str) -> serde_json::Value {
    crate::common::numbers(dir)[key]["value"].clone()
}

/// A file of `columns` INT64 columns `c0`, `c1`, ... of `rows` rows each,
/// `c{i}` holding `i * row`, and a string column `k` (`row % 3`).
pub fn write_wide(path: &Path, columns: usize, rows: i64) {
    let mut schema = String::from("message wide { REQUIRED BYTE_ARRAY k (UTF8);");
    for i in 0..columns {
        schema.push_str(&format!(" REQUIRED INT64 c{i};"));
    }
    schema.push('}');
    let schema = Arc::new(parse_message_type(&schema).unwrap());
    let props = Arc::new(WriterProperties::builder().build());
    let file = std::fs::File::create(path).unwrap();
    let mut writer = SerializedFileWriter::new(file, schema, props).unwrap();
    let mut rg = writer.next_row_group().unwrap();
    let mut leaf = 0i64;
    while let Some(mut col) = rg.next_column().unwrap() {
        if leaf == 0 {
            let keys: Vec<ByteArray> = (0..rows)
                .map(|r| ByteArray::from((r % 3).to_string().as_str()))
                .collect();
            col.typed::<ByteArrayType>()
                .write_batch(&keys, None, None)
                .unwrap();
        } else {
            let v: Vec<i64> = (0..rows).map(|r| (leaf - 1) * r).collect();
            col.typed::<Int64Type>()
                .write_batch(&v, None, None)
                .unwrap();
        }
        col.close().unwrap();
        leaf += 1;
    }
    rg.close().unwrap();
    writer.close().unwrap();
}

pub const SUM_SPEC: &str = r#"
[sources.runs]
path = "runs.parquet"

[numbers.n-sum]
table = "runs"
value = { sum = "n" }
"#;

pub const FAILED: &str = "1 part(s) failed; their previous outputs are left as they were\n";

/// What a first `gen` whose number fails writes: the other outputs and
/// the lock (which records the failure).
pub const WROTE: &str = "wrote generated/macros.tex\nwrote generated/macros.typ\nwrote generated/numbers.json\nwrote artifact.lock\n";

/// A file of one INTERVAL column (which the record API does not convert:
/// it would panic) and an INT64 column `n`.
pub fn write_interval(path: &Path) {
    use parquet::data_type::{FixedLenByteArray, FixedLenByteArrayType};
    let schema =
        "message m { REQUIRED FIXED_LEN_BYTE_ARRAY (12) iv (INTERVAL); REQUIRED INT64 n; }";
    let schema = Arc::new(parse_message_type(schema).unwrap());
    let props = Arc::new(WriterProperties::builder().build());
    let file = std::fs::File::create(path).unwrap();
    let mut writer = SerializedFileWriter::new(file, schema, props).unwrap();
    let mut rg = writer.next_row_group().unwrap();
    let mut iv = rg.next_column().unwrap().unwrap();
    let value = FixedLenByteArray::from(ByteArray::from(vec![1u8; 12]));
    iv.typed::<FixedLenByteArrayType>()
        .write_batch(&[value], None, None)
        .unwrap();
    iv.close().unwrap();
    let mut n = rg.next_column().unwrap().unwrap();
    n.typed::<Int64Type>()
        .write_batch(&[7], None, None)
        .unwrap();
    n.close().unwrap();
    rg.close().unwrap();
    writer.close().unwrap();
}

/// Two rows of logical types: timestamps (micros in UTC, nanos local), a
/// date, a decimal, a 32-bit float and a map (null in row 2).
pub fn write_typed(path: &Path) {
    use parquet::data_type::FloatType;
    let schema = "message typed {
      REQUIRED INT64 ts (TIMESTAMP(MICROS, true));
      REQUIRED INT64 ts_ns (TIMESTAMP(NANOS, false));
      REQUIRED INT32 day (DATE);
      REQUIRED INT64 price (DECIMAL(10, 2));
      REQUIRED FLOAT f;
      OPTIONAL group m (MAP) {
        REPEATED group key_value {
          REQUIRED BYTE_ARRAY key (UTF8);
          REQUIRED DOUBLE value;
        }
      }
    }";
    let schema = Arc::new(parse_message_type(schema).unwrap());
    let props = Arc::new(WriterProperties::builder().build());
    let file = std::fs::File::create(path).unwrap();
    let mut writer = SerializedFileWriter::new(file, schema, props).unwrap();
    let mut rg = writer.next_row_group().unwrap();
    let mut leaf = 0;
    while let Some(mut col) = rg.next_column().unwrap() {
        match leaf {
            0 => col
                .typed::<Int64Type>()
                .write_batch(&[1_709_294_400_250_000, 0], None, None),
            1 => col
                .typed::<Int64Type>()
                .write_batch(&[1_500_000_001, -1], None, None),
            2 => col
                .typed::<Int32Type>()
                .write_batch(&[19_783, 0], None, None),
            3 => col
                .typed::<Int64Type>()
                .write_batch(&[-12_345, 10_000], None, None),
            4 => col
                .typed::<FloatType>()
                .write_batch(&[0.1, 2.5], None, None),
            5 => col.typed::<ByteArrayType>().write_batch(
                &strings(&["a", "b"]),
                Some(&[2, 2, 0]),
                Some(&[0, 1, 0]),
            ),
            6 => col.typed::<DoubleType>().write_batch(
                &[1.5, 2.5],
                Some(&[2, 2, 0]),
                Some(&[0, 1, 0]),
            ),
            _ => unreachable!(),
        }
        .unwrap();
        col.close().unwrap();
        leaf += 1;
    }
    rg.close().unwrap();
    writer.close().unwrap();
}

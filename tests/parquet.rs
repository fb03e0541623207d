//! Parquet sources: files written here with the `parquet` crate (flat
//! columns, a struct, a list, two row groups, every codec), read by a spec;
//! a wide file read for one column; and the errors of a truncated file, of
//! garbage named `.parquet`, of a column no row has, of `max_line`.

mod common;

use std::path::Path;
use std::sync::Arc;

use common::{artifact, gen_ok, numbers};
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
const SCHEMA: &str = "
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
struct Group {
    method: Vec<&'static str>,
    n: Vec<i64>,
    ratio: (Vec<f64>, Vec<i16>),
    ok: Vec<bool>,
    none: Vec<i16>,
    cfg: (Vec<&'static str>, Vec<i32>, Vec<i16>),
    sizes: (Vec<i64>, Vec<i16>, Vec<i16>),
}

fn groups() -> [Group; 2] {
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

fn strings(v: &[&str]) -> Vec<ByteArray> {
    v.iter().map(|s| ByteArray::from(*s)).collect()
}

/// Writes the five rows to `path`, pages compressed with `codec`.
fn write_runs(path: &Path, codec: Compression) {
    write_runs_scaled(path, codec, 1);
}

/// Writes the five rows, `n` multiplied by `scale`.
fn write_runs_scaled(path: &Path, codec: Compression, scale: i64) {
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

const SPEC: &str = r#"
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
fn project(spec: &str, codec: Compression) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("artifact.toml"), spec).unwrap();
    write_runs(&dir.path().join("runs.parquet"), codec);
    dir
}

fn value(dir: &Path, key: &str) -> serde_json::Value {
    numbers(dir)[key]["value"].clone()
}

#[test]
fn a_spec_computes_the_numbers_of_the_rows_written_whatever_the_codec() {
    use parquet::basic::{GzipLevel, ZstdLevel};
    for codec in [
        Compression::UNCOMPRESSED,
        Compression::SNAPPY,
        Compression::GZIP(GzipLevel::default()),
        Compression::LZ4,
        Compression::LZ4_RAW,
        Compression::ZSTD(ZstdLevel::default()),
    ] {
        let dir = project(SPEC, codec);
        gen_ok(dir.path());
        let want = [
            ("n-sum", serde_json::json!(150)),
            ("ratio-median", serde_json::json!(3.0)),
            ("zstd3", serde_json::json!(2)),
            ("sizes-sum", serde_json::json!(21)),
            ("methods", serde_json::json!(3)),
            ("zstd-total", serde_json::json!(90)),
            // A struct's field read by a streamed group table.
            ("zstd-levels", serde_json::json!(25)),
            // Row 4 is the first row of the second row group.
            ("fortieth-row", serde_json::json!(4)),
        ];
        for (key, v) in want {
            assert_eq!(value(dir.path(), key), v, "{key} with {codec:?}");
        }
    }
}

#[test]
fn check_is_clean_after_gen_and_stale_when_the_file_changes() {
    let dir = project(SPEC, Compression::SNAPPY);
    gen_ok(dir.path());
    let out = artifact(dir.path(), &["check"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    // The same rows, compressed otherwise: other bytes, same numbers.
    let file = dir.path().join("runs.parquet");
    write_runs(&file, Compression::UNCOMPRESSED);
    let out = artifact(dir.path(), &["check"]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "all figures and numbers are current\nnote: inputs or spec changed without changing any output; `artifact gen` refreshes artifact.lock\n"
    );
    // Other values of `n`: stale.
    write_runs_scaled(&file, Compression::SNAPPY, 2);
    let out = artifact(dir.path(), &["check"]);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "stale: 2 numbers\n\nnumbers (committed -> from the data now):\n  n-sum       150 -> 300   (input changed: runs.parquet)\n  zstd-total   90 -> 180   (input changed: runs.parquet)\n\ninputs since artifact.lock:\n  changed  runs.parquet\n\nto bring them up to date: artifact gen\n"
    );
}

/// A file of `columns` INT64 columns `c0`, `c1`, ... of `rows` rows each,
/// `c{i}` holding `i * row`, and a string column `k` (`row % 3`).
fn write_wide(path: &Path, columns: usize, rows: i64) {
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

#[test]
fn a_table_reading_one_column_of_a_wide_file() {
    let dir = tempfile::tempdir().unwrap();
    write_wide(&dir.path().join("wide.parquet"), 300, 1000);
    std::fs::write(
        dir.path().join("artifact.toml"),
        r#"
[sources.wide]
path = "wide.parquet"

[tables.by_k]
from = "wide"
steps = [{ group = ["k"], aggregate = { s = { sum = "c7" } } }]

[tables.rows]
from = "wide"
steps = [{ group = [], aggregate = { n = "count" } }]

[numbers.k0]
table = "by_k"
value = { cell = "s" }
where = "k == '0'"

[numbers.rows]
table = "rows"
value = { cell = "n" }

[numbers.c299]
table = "wide"
value = { max = "c299" }
"#,
    )
    .unwrap();
    gen_ok(dir.path());
    // `c7` is 7 * row; rows 0, 3, ..., 999 have k = "0".
    assert_eq!(
        value(dir.path(), "k0"),
        serde_json::json!(7 * 3 * 333 * 334 / 2)
    );
    assert_eq!(value(dir.path(), "rows"), serde_json::json!(1000));
    assert_eq!(value(dir.path(), "c299"), serde_json::json!(299 * 999));
}

const SUM_SPEC: &str = r#"
[sources.runs]
path = "runs.parquet"

[numbers.n-sum]
table = "runs"
value = { sum = "n" }
"#;

/// A built project of `spec` whose file is then replaced by `bad`: `gen`
/// exits 2 with `want` on stderr and leaves the outputs as they were.
fn fails_with(spec: &str, bad: &dyn Fn(Vec<u8>) -> Vec<u8>, want: &str) {
    let dir = project(spec, Compression::SNAPPY);
    gen_ok(dir.path());
    let before = common::snapshot(&dir.path().join("generated"));
    let file = dir.path().join("runs.parquet");
    std::fs::write(&file, bad(std::fs::read(&file).unwrap())).unwrap();
    let out = artifact(dir.path(), &["gen"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert_eq!(stderr, want);
    assert_eq!(common::snapshot(&dir.path().join("generated")), before);
}

const FAILED: &str = "1 part(s) failed; their previous outputs are left as they were\n";

#[test]
fn a_truncated_file_is_an_error_naming_it() {
    fails_with(
        SUM_SPEC,
        &|b| b[..b.len() - 100].to_vec(),
        &format!(
            "error: number `n-sum`: source `runs`: runs.parquet: not a readable Parquet file: Invalid Parquet file. Corrupt footer\n{FAILED}"
        ),
    );
    // The pages overwritten, the footer kept: the row is named.
    fails_with(
        SUM_SPEC,
        &|mut b| {
            let third = b.len() / 3;
            b[4..third].fill(0xAB);
            b
        },
        &format!(
            "error: number `n-sum`: source `runs`: runs.parquet:1: cannot read the row: integer overflow decoding thrift value\n{FAILED}"
        ),
    );
}

#[test]
fn garbage_named_parquet_is_an_error_naming_it() {
    let garbage: Vec<u8> = (0..4096u32).map(|i| (i * 7919 % 251) as u8).collect();
    fails_with(
        SUM_SPEC,
        &|_| garbage.clone(),
        &format!(
            "error: number `n-sum`: source `runs`: runs.parquet: not a readable Parquet file: Invalid Parquet file. Corrupt footer\n{FAILED}"
        ),
    );
    fails_with(
        SUM_SPEC,
        &|_| Vec::new(),
        &format!(
            "error: number `n-sum`: source `runs`: runs.parquet: not a readable Parquet file: EOF: Parquet file too small. Size is 0 but need 8\n{FAILED}"
        ),
    );
    // Magic bytes at both ends, a footer length past the start.
    let mut fake = b"PAR1".to_vec();
    fake.extend_from_slice(&[0xff, 0xff, 0xff, 0x7f]);
    fake.extend_from_slice(b"PAR1");
    fails_with(
        SUM_SPEC,
        &|_| fake.clone(),
        &format!(
            "error: number `n-sum`: source `runs`: runs.parquet: not a readable Parquet file: EOF: Parquet file too small. Size is 12 but need 2147483655\n{FAILED}"
        ),
    );
    // A footer of garbage.
    fails_with(
        SUM_SPEC,
        &|mut b| {
            let n = b.len();
            b[n - 200..n - 8].fill(0x5A);
            b
        },
        &format!(
            "error: number `n-sum`: source `runs`: runs.parquet: not a readable Parquet file: Unexpected Encoding 45\n{FAILED}"
        ),
    );
}

#[test]
fn a_column_no_row_has_is_an_error_naming_it() {
    let dir = project(SUM_SPEC, Compression::SNAPPY);
    gen_ok(dir.path());
    let spec = SUM_SPEC.replace("sum = \"n\"", "sum = \"n_rows\"");
    std::fs::write(dir.path().join("artifact.toml"), spec).unwrap();
    let out = artifact(dir.path(), &["gen"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        format!(
            "error: number `n-sum`: over 5 row(s) of table `runs`: runs.parquet:1: field `n_rows`: expected a number, found nothing (the field is missing)\n{FAILED}"
        )
    );
}

#[test]
fn max_line_on_a_parquet_source_is_an_error() {
    let spec = SUM_SPEC.replace(
        "path = \"runs.parquet\"",
        "path = \"runs.parquet\"\nmax_line = \"1 MiB\"",
    );
    let dir = project(&spec, Compression::SNAPPY);
    let out = artifact(dir.path(), &["gen"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "error: artifact.toml:4:12: `max_line` bounds lines of text; `runs.parquet` is a Parquet file, read one row group at a time\n  |\n4 | max_line = \"1 MiB\"\n  |            ^^^^^^^\n"
    );
}

/// A file of one INTERVAL column (which the record API does not convert:
/// it would panic) and an INT64 column `n`.
fn write_interval(path: &Path) {
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

#[test]
fn a_column_of_a_type_not_converted_is_an_error_naming_it_when_read() {
    let dir = tempfile::tempdir().unwrap();
    write_interval(&dir.path().join("runs.parquet"));
    std::fs::write(dir.path().join("artifact.toml"), SUM_SPEC).unwrap();
    let out = artifact(dir.path(), &["gen"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        format!(
            "wrote generated/macros.tex\nwrote generated/macros.typ\nwrote generated/numbers.json\nerror: number `n-sum`: source `runs`: runs.parquet: field `iv`: a column of type FIXED_LEN_BYTE_ARRAY (INTERVAL) is not read (the parquet crate's record reader does not convert it); leave it out of the file or cast it, e.g. to a string\n{FAILED}"
        )
    );
    // A table reading only `n` does not decode the INTERVAL column.
    let spec = format!(
        "{SUM_SPEC}\n[tables.g]\nfrom = \"runs\"\nsteps = [{{ group = [], aggregate = {{ s = {{ sum = \"n\" }} }} }}]\n"
    )
    .replace("table = \"runs\"", "table = \"g\"")
    .replace("sum = \"n\" }\n\n", "cell = \"s\" }\n\n");
    std::fs::write(dir.path().join("artifact.toml"), spec).unwrap();
    gen_ok(dir.path());
    assert_eq!(value(dir.path(), "n-sum"), serde_json::json!(7));
}

/// Two rows of logical types: timestamps (micros in UTC, nanos local), a
/// date, a decimal, a 32-bit float and a map (null in row 2).
fn write_typed(path: &Path) {
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

#[test]
fn logical_types_read_as_the_logs_wrote_them() {
    let dir = tempfile::tempdir().unwrap();
    write_typed(&dir.path().join("typed.parquet"));
    std::fs::write(
        dir.path().join("artifact.toml"),
        r#"
[sources.typed]
path = "typed.parquet"

[tables.first]
from = "typed"
steps = [{ filter = "ts == '2024-03-01T12:00:00.250000Z' and ts_ns == '1970-01-01T00:00:01.500000001' and day == '2024-03-01' and f == 0.1" }]

[tables.second]
from = "typed"
steps = [{ filter = "ts == '1970-01-01T00:00:00.000000Z' and ts_ns == '1969-12-31T23:59:59.999999999' and day == '1970-01-01' and f == 2.5 and m is none" }]

[tables.mapped]
from = "typed"
steps = [{ filter = "m is not none" }]

[tables.entries]
from = "typed"
steps = [{ filter = "m is not none" }, { explode = "m" }]

[numbers.first]
table = "first"
value = { cell = "price" }
where = "_source.line == 1"

[numbers.second]
table = "second"
value = { cell = "price" }
where = "_source.line == 2"

[numbers.m-b]
table = "mapped"
value = { sum = "m.b" }

[numbers.entries]
table = "entries"
value = { sum = "value" }
"#,
    )
    .unwrap();
    gen_ok(dir.path());
    assert_eq!(value(dir.path(), "first"), serde_json::json!(-123.45));
    assert_eq!(value(dir.path(), "second"), serde_json::json!(100.0));
    assert_eq!(value(dir.path(), "m-b"), serde_json::json!(2.5));
    assert_eq!(value(dir.path(), "entries"), serde_json::json!(4.0));
}

#[test]
fn a_parquet_file_named_zst_or_with_another_name_and_format() {
    let dir = project(SUM_SPEC, Compression::SNAPPY);
    let file = dir.path().join("runs.parquet");
    std::fs::rename(&file, dir.path().join("runs.parquet.zst")).unwrap();
    let spec = SUM_SPEC.replace("runs.parquet", "runs.parquet.zst");
    std::fs::write(dir.path().join("artifact.toml"), spec).unwrap();
    let out = artifact(dir.path(), &["gen"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        format!(
            "wrote generated/macros.tex\nwrote generated/macros.typ\nwrote generated/numbers.json\nerror: number `n-sum`: source `runs`: runs.parquet.zst: a Parquet file is read as it is, not through zstd (its pages are compressed inside); remove the `.zst`\n{FAILED}"
        )
    );
    // Any name, with `format = "parquet"`.
    std::fs::rename(
        dir.path().join("runs.parquet.zst"),
        dir.path().join("runs.bin"),
    )
    .unwrap();
    let spec = SUM_SPEC.replace("\"runs.parquet\"", "\"runs.bin\"\nformat = \"parquet\"");
    std::fs::write(dir.path().join("artifact.toml"), spec).unwrap();
    gen_ok(dir.path());
    assert_eq!(value(dir.path(), "n-sum"), serde_json::json!(150));
}

/// The same spec on the demo paper's pairs as JSONL and as the Parquet file
/// DuckDB wrote from it (`tests/fixtures/parquet/`): the same numbers.
#[test]
fn a_file_written_by_duckdb_reads_as_the_jsonl_it_came_from() {
    let dir = tempfile::tempdir().unwrap();
    let root = common::root();
    std::fs::copy(
        root.join("paper/data/compression/provenance/iter5/precheck_l/atlas_train.jsonl"),
        dir.path().join("pairs.jsonl"),
    )
    .unwrap();
    std::fs::copy(
        root.join("tests/fixtures/parquet/pairs.parquet"),
        dir.path().join("pairs.parquet"),
    )
    .unwrap();
    let mut spec = String::new();
    for ext in ["jsonl", "parquet"] {
        spec.push_str(&format!(
            r#"
[sources.{ext}]
path = "pairs.{ext}"

[tables.{ext}_pairs]
from = "{ext}"
steps = [{{ filter = "corr_pearson is not none" }}, {{ derive = {{ lo = "ci95[0]" }} }}]

[tables.{ext}_by_category]
from = "{ext}"
steps = [
  {{ filter = "corr_pearson is not none" }},
  {{ group = ["tensor_category"], aggregate = {{ m = {{ median = "corr_pearson" }} }} }},
]

[numbers.{ext}-n]
table = "{ext}_pairs"
value = "count"

[numbers.{ext}-median]
table = "{ext}_pairs"
value = {{ median = "corr_pearson" }}

[numbers.{ext}-lo]
table = "{ext}_pairs"
value = {{ mean = "lo" }}

[numbers.{ext}-last-line]
table = "{ext}_pairs"
value = {{ max = "_source.line" }}

[numbers.{ext}-norm]
table = "{ext}_by_category"
value = {{ cell = "m" }}
where = "tensor_category == 'norm'"

[numbers.{ext}-summary-pairs]
table = "{ext}"
value = {{ sum = "n_pairs" }}
where = "_kind is defined and _kind == 'summary'"
"#
        ));
    }
    std::fs::write(dir.path().join("artifact.toml"), spec).unwrap();
    gen_ok(dir.path());
    let n = numbers(dir.path());
    for key in ["n", "median", "lo", "last-line", "norm", "summary-pairs"] {
        assert_eq!(
            n[format!("jsonl-{key}")]["value"],
            n[format!("parquet-{key}")]["value"],
            "{key}"
        );
    }
    assert_eq!(n["parquet-n"]["value"], serde_json::json!(160));
    assert_eq!(n["parquet-median"]["value"], serde_json::json!(0.01846305));
}

/// The demo paper with its results log replaced by the Parquet file DuckDB
/// wrote from it: every number's text is the committed one.
#[test]
fn the_demo_paper_reads_its_numbers_from_a_parquet_copy_of_its_results() {
    let dir = common::paper_copy();
    let results = dir.path().join("data/compression/results");
    std::fs::remove_file(results.join("results.jsonl.zst")).unwrap();
    std::fs::copy(
        common::root().join("tests/fixtures/parquet/results.parquet"),
        results.join("results.parquet"),
    )
    .unwrap();
    let spec = std::fs::read_to_string(dir.path().join("artifact.toml")).unwrap();
    let spec = spec.replace(
        "data/compression/results/results.jsonl.zst",
        "data/compression/results/results.parquet",
    );
    std::fs::write(dir.path().join("artifact.toml"), spec).unwrap();
    gen_ok(dir.path());
    let got = numbers(dir.path());
    let committed: serde_json::Value = serde_json::from_slice(
        &std::fs::read(common::root().join("paper/generated/numbers.json")).unwrap(),
    )
    .unwrap();
    let committed = committed.as_object().unwrap();
    assert_eq!(committed.len(), 20);
    for (key, want) in committed {
        assert_eq!(got[key]["text"], want["text"], "{key}");
    }
}

/// Brotli pages (a file DuckDB wrote, `tests/fixtures/parquet/`) are an
/// error naming the column and the codecs that are read.
#[test]
fn a_brotli_file_is_an_error_naming_the_codecs_read() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(
        common::root().join("tests/fixtures/parquet/brotli.parquet"),
        dir.path().join("runs.parquet"),
    )
    .unwrap();
    std::fs::write(dir.path().join("artifact.toml"), SUM_SPEC).unwrap();
    let out = artifact(dir.path(), &["gen"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        format!(
            "wrote generated/macros.tex\nwrote generated/macros.typ\nwrote generated/numbers.json\nerror: number `n-sum`: source `runs`: runs.parquet: column `n` is compressed with BROTLI, which is not read here (snappy, gzip, lz4 and zstd are); write the file with one of those, e.g. DuckDB's `(FORMAT parquet, COMPRESSION zstd)`\n{FAILED}"
        )
    );
}

/// Writes one row group of INT64 columns under `schema` (leaves in order,
/// each `values` with its definition and repetition levels), then runs
/// `gen` on a spec summing `n` over it: exit 2 and stderr.
fn gen_on(schema: &str, leaves: &[(&[i64], Option<&[i16]>, Option<&[i16]>)]) -> String {
    let dir = tempfile::tempdir().unwrap();
    let schema = Arc::new(parse_message_type(schema).unwrap());
    let props = Arc::new(WriterProperties::builder().build());
    let file = std::fs::File::create(dir.path().join("runs.parquet")).unwrap();
    let mut writer = SerializedFileWriter::new(file, schema, props).unwrap();
    let mut rg = writer.next_row_group().unwrap();
    for (values, def, rep) in leaves {
        let mut col = rg.next_column().unwrap().unwrap();
        col.typed::<Int64Type>()
            .write_batch(values, *def, *rep)
            .unwrap();
        col.close().unwrap();
    }
    rg.close().unwrap();
    writer.close().unwrap();
    std::fs::write(dir.path().join("artifact.toml"), SUM_SPEC).unwrap();
    let out = artifact(dir.path(), &["gen"]);
    assert_eq!(out.status.code(), Some(2));
    String::from_utf8_lossy(&out.stderr).to_string()
}

const WROTE: &str =
    "wrote generated/macros.tex\nwrote generated/macros.typ\nwrote generated/numbers.json\n";

#[test]
fn two_fields_of_one_name_are_an_error_naming_them() {
    assert_eq!(
        gen_on(
            "message m { REQUIRED INT64 n; REQUIRED INT64 n; }",
            &[(&[1], None, None), (&[2], None, None)]
        ),
        format!(
            "{WROTE}error: number `n-sum`: source `runs`: runs.parquet: the schema has two columns named `n` (a row cannot hold both)\n{FAILED}"
        )
    );
    assert_eq!(
        gen_on(
            "message m { REQUIRED INT64 n; REQUIRED group g { REQUIRED INT64 a; REQUIRED INT64 a; } }",
            &[(&[1], None, None), (&[2], None, None), (&[3], None, None)]
        ),
        format!(
            "{WROTE}error: number `n-sum`: source `runs`: runs.parquet: column `g` has two fields named `a` (a record cannot hold both)\n{FAILED}"
        )
    );
}

#[test]
fn a_map_repeating_a_key_is_an_error_naming_row_and_field() {
    let schema = "message m {
      REQUIRED INT64 n;
      REQUIRED group m (MAP) {
        REPEATED group key_value { REQUIRED INT64 key; REQUIRED INT64 value; }
      }
    }";
    assert_eq!(
        gen_on(
            schema,
            &[
                (&[1, 2], None, None),
                // Row 1: {7: 10, 7: 20}; row 2: {8: 30}.
                (&[7, 7, 8], Some(&[1, 1, 1]), Some(&[0, 1, 0])),
                (&[10, 20, 30], Some(&[1, 1, 1]), Some(&[0, 1, 0])),
            ]
        ),
        format!(
            "{WROTE}error: number `n-sum`: source `runs`: runs.parquet:1: field `m`: the map has the key `7` twice (a record cannot hold both)\n{FAILED}"
        )
    );
}

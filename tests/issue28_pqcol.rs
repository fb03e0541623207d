//! Issue 28, item 4's speed: Parquet row groups read column by column (the
//! `parquet` crate's arrow reader) give the rows, values, types, origins
//! and errors of the record API, on every fixture and on a generated file
//! of every type in several row groups and pages.

mod common;
mod parquet_files;
mod pqcol_files;

use std::path::Path;
use std::sync::Arc;

use arrow_array::builder::{Int64Builder, MapBuilder, StringBuilder};
use arrow_array::{ArrayRef, Int64Array, RecordBatch};
use artifact::sources::json::Projection;
use artifact::sources::parquetfile::read_path_with;
use parquet::arrow::ArrowWriter;
use parquet::basic::Compression;
use parquet::file::properties::WriterProperties;

/// The rows of `path` read both ways (as `file:row: {fields}` text, or
/// the error), and the row groups the columnar read read wholly.
fn both(path: &Path, projection: Option<&Projection>) -> (Result<Vec<String>, String>, u64) {
    let read = |columnar| {
        read_path_with(path, "f.parquet", projection, columnar).map(|(rows, n)| {
            let text = rows
                .iter()
                .map(|r| format!("{}: {:?}", r.origin, r.fields))
                .collect::<Vec<_>>();
            (text, n)
        })
    };
    let records = read(false).map_err(|e| e.to_string());
    let columns = read(true).map_err(|e| e.to_string());
    assert_eq!(
        records.as_ref().map(|r| &r.0),
        columns.as_ref().map(|c| &c.0)
    );
    assert_eq!(records.as_ref().map(|r| r.1).unwrap_or(0), 0);
    let groups = columns.as_ref().map(|c| c.1).unwrap_or(0);
    (columns.map(|c| c.0), groups)
}

/// Every projection a table makes of `path`'s top-level `columns`: none
/// named (the row count), each alone, all.
fn projections(columns: &[&str]) -> Vec<Option<Projection>> {
    let mut out = vec![None, Some(Projection::default())];
    for c in columns {
        let mut p = Projection::default();
        p.fields.insert((*c).into(), None);
        out.push(Some(p));
    }
    out
}

fn fixture(name: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/parquet")
        .join(name)
}

#[test]
fn every_fixture_reads_the_same_column_by_column_as_with_the_record_api() {
    let dir = tempfile::tempdir().unwrap();
    let runs = dir.path().join("runs.parquet");
    let typed = dir.path().join("typed.parquet");
    parquet_files::write_typed(&typed);
    let mut files: Vec<(std::path::PathBuf, u64)> = vec![
        (fixture("pairs.parquet"), 1),
        (fixture("results.parquet"), 1),
    ];
    files.push((fixture("types.parquet"), 1));
    files.push((typed, 1));
    for (path, groups) in &files {
        let (rows, read) = both(path, None);
        assert!(!rows.unwrap().is_empty());
        assert_eq!(read, *groups, "{}", path.display());
    }
    use parquet::basic::{GzipLevel, ZstdLevel};
    for codec in [
        Compression::UNCOMPRESSED,
        Compression::SNAPPY,
        Compression::GZIP(GzipLevel::default()),
        Compression::LZ4,
        Compression::LZ4_RAW,
        Compression::ZSTD(ZstdLevel::default()),
    ] {
        parquet_files::write_runs(&runs, codec);
        let columns = ["method", "n", "ratio", "ok", "none", "cfg", "sizes"];
        for p in projections(&columns) {
            let (rows, read) = both(&runs, p.as_ref());
            assert_eq!(rows.unwrap().len(), 5);
            assert_eq!(read, 2);
        }
    }
    let (rows, _) = both(&runs, None);
    assert_eq!(
        rows.unwrap()[..2],
        [
            r#"f.parquet:1: Record({"method": 'zstd', "n": 10, "ratio": 2.5, "ok": True, "none": None, "cfg": {'codec': 'zstd', 'level': 3}, "sizes": [1, 2]})"#,
            r#"f.parquet:2: Record({"method": 'lz4', "n": 20, "ratio": None, "ok": False, "none": None, "cfg": None, "sizes": []})"#,
        ]
    );
}

#[test]
fn duckdb_types_read_column_by_column_as_documented() {
    let (rows, read) = both(&fixture("types.parquet"), None);
    assert_eq!(read, 1);
    assert_eq!(
        rows.unwrap(),
        [
            r#"f.parquet:1: Record({"ts": '2024-03-01T12:00:00.250000', "tstz": '2024-03-01T12:00:00.250000Z', "d": '2024-03-01', "t": '12:34:56.789000', "dec": 12.345, "huge": 1.2345678901234568e29, "ub": 3, "e": 'a', "u": '12345678-1234-5678-1234-567812345678', "st": {'k': 1}, "m": {'x': 1, 'y': 2}, "fl": [1.5, 2.5], "s": 'café', "b": '0x00ff'})"#
        ]
    );
}

/// Files the columnar read leaves to the record API (INT96, INTERVAL) or
/// that fail (brotli, a corrupt page header) read or fail as before.
#[test]
fn files_the_columnar_read_does_not_convert_read_or_fail_as_with_the_record_api() {
    let dir = tempfile::tempdir().unwrap();
    let interval = dir.path().join("interval.parquet");
    parquet_files::write_interval(&interval);
    let mut n = Projection::default();
    n.fields.insert("n".into(), None);
    let (rows, read) = both(&interval, Some(&n));
    assert_eq!(rows.unwrap(), [r#"f.parquet:1: Record({"n": 7})"#]);
    assert_eq!(read, 1);
    let (rows, _) = both(&interval, None);
    assert_eq!(
        rows.unwrap_err(),
        "f.parquet: field `iv`: a column of type FIXED_LEN_BYTE_ARRAY (INTERVAL) is not read (the parquet crate's record reader does not convert it); leave it out of the file or cast it, e.g. to a string"
    );
    let (rows, _) = both(&fixture("brotli.parquet"), None);
    assert!(rows.unwrap_err().contains("compressed with BROTLI"));
    let (rows, _) = both(&fixture("skip_list.parquet"), None);
    assert_eq!(
        rows.unwrap_err(),
        "f.parquet:1: cannot read the row: the file ends inside a page"
    );
}

#[test]
fn a_generated_file_of_every_type_in_many_row_groups_reads_the_same_both_ways() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("gen.parquet");
    let batch = pqcol_files::generated();
    let props = WriterProperties::builder()
        .set_max_row_group_row_count(Some(700))
        .set_data_page_row_count_limit(100)
        .set_write_batch_size(50)
        .set_compression(Compression::SNAPPY)
        .build();
    let mut w = ArrowWriter::try_new(
        std::fs::File::create(&path).unwrap(),
        batch.schema(),
        Some(props),
    )
    .unwrap();
    w.write(&batch).unwrap();
    w.close().unwrap();
    let names: Vec<String> = batch
        .schema()
        .fields()
        .iter()
        .map(|f| f.name().clone())
        .collect();
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    for p in projections(&names) {
        let (rows, read) = both(&path, p.as_ref());
        assert_eq!(rows.unwrap().len(), 2500);
        assert_eq!(read, 4, "700, 700, 700 and 400 rows");
    }
    let (rows, _) = both(&path, None);
    let rows = rows.unwrap();
    assert_eq!(
        rows[4],
        r#"f.parquet:5: Record({"i8": 4, "i16": -4, "i32": 4000, "i64": -28000000000, "u8": 4, "u16": 65531, "u32": 4294967291, "u64": 18446744073709551611, "f16": 0.39990234, "f32": 0.4, "f64": 1.3333333333333333, "b": True, "s": 'm4', "bin": 'ok', "day": '1945-06-25', "t_ms": '00:02:00.004', "t_us": '00:02:00.000004', "t_ns": '00:02:00.000000004', "ts_ms": '2024-03-01T12:00:00.254Z', "ts_us": '1969-12-31T23:59:55.999988', "ts_ns": '1970-01-01T00:00:06.000000004Z', "dec": -506.2, "dec_wide": 100000000000000000000000000004, "st": {'ratio': 1.0, 'n': 4}, "l": [40, 41, 42], "m": None, "ll": [[4]]})"#
    );
    assert_eq!(
        rows[3],
        r#"f.parquet:4: Record({"i8": None, "i16": None, "i32": None, "i64": None, "u8": None, "u16": None, "u32": None, "u64": None, "f16": None, "f32": None, "f64": None, "b": None, "s": None, "bin": None, "day": None, "t_ms": None, "t_us": None, "t_ns": None, "ts_ms": None, "ts_us": None, "ts_ns": None, "dec": None, "dec_wide": None, "st": {'ratio': 0.75, 'n': None}, "l": [None, 31, 32], "m": {'k0': {'ratio': None, 'n': 3}, 'k1': {'ratio': 1.5, 'n': 3}, 'k2': None}, "ll": []})"#
    );
}

/// A map repeating a key in row 1,500 (past the first batch of 1,024
/// rows, in the second row group) names that row.
#[test]
fn a_map_error_past_the_first_batch_names_its_row() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad.parquet");
    let n = 2000;
    let mut map = MapBuilder::new(None, StringBuilder::new(), Int64Builder::new());
    for i in 0..n {
        map.keys().append_value("a");
        map.values().append_value(i as i64);
        if i == 1499 {
            map.keys().append_value("a");
            map.values().append_value(0);
        }
        map.append(true).unwrap();
    }
    let x: ArrayRef = Arc::new((0..n as i64).collect::<Int64Array>());
    let batch =
        RecordBatch::try_from_iter(vec![("m", Arc::new(map.finish()) as ArrayRef), ("x", x)])
            .unwrap();
    let props = WriterProperties::builder()
        .set_max_row_group_row_count(Some(1200))
        .build();
    let mut w = ArrowWriter::try_new(
        std::fs::File::create(&path).unwrap(),
        batch.schema(),
        Some(props),
    )
    .unwrap();
    w.write(&batch).unwrap();
    w.close().unwrap();
    let mut m = Projection::default();
    m.fields.insert("m".into(), None);
    let (rows, _) = both(&path, Some(&m));
    assert_eq!(
        rows.unwrap_err(),
        "f.parquet:1500: field `m`: the map has the key `a` twice (a record cannot hold both)"
    );
    let mut x = Projection::default();
    x.fields.insert("x".into(), None);
    let (rows, read) = both(&path, Some(&x));
    assert_eq!(rows.unwrap().len(), 2000);
    assert_eq!(read, 2);
}

/// A UTF8 string that is not UTF-8 in row 1,800 (the arrow reader refuses
/// its whole batch) is read by the record API from the first row not
/// handed on, and its error names that row.
#[test]
fn a_string_that_is_not_utf8_past_the_first_batch_names_its_row() {
    use parquet::data_type::{ByteArray, ByteArrayType};
    use parquet::file::writer::SerializedFileWriter;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad.parquet");
    let schema = "message m { REQUIRED BYTE_ARRAY s (UTF8); }";
    let schema = Arc::new(parquet::schema::parser::parse_message_type(schema).unwrap());
    let props = Arc::new(WriterProperties::builder().build());
    let file = std::fs::File::create(&path).unwrap();
    let mut w = SerializedFileWriter::new(file, schema, props).unwrap();
    let mut rg = w.next_row_group().unwrap();
    let mut c = rg.next_column().unwrap().unwrap();
    let values: Vec<ByteArray> = (0..2000)
        .map(|i| match i {
            1799 => ByteArray::from(vec![0xffu8]),
            i => ByteArray::from(format!("r{i}").as_str()),
        })
        .collect();
    c.typed::<ByteArrayType>()
        .write_batch(&values, None, None)
        .unwrap();
    c.close().unwrap();
    rg.close().unwrap();
    w.close().unwrap();
    let (rows, _) = both(&path, None);
    let error = rows.unwrap_err();
    assert!(
        error
            .starts_with("f.parquet:1800: cannot read the row: Error reading BYTE_ARRAY as String"),
        "{error}"
    );
}

const STRINGS_SPEC: &str = r#"
[sources.runs]
path = "runs.parquet"

[tables.kept]
from = "runs"
steps = [{ filter = "s != 'r0'" }]

[numbers.kept]
table = "kept"
value = "count"

[numbers.n-sum]
table = "kept"
value = { sum = "n" }
"#;

/// Through `gen`, 10,000 rows in row groups of 3,000 give the record
/// API's numbers (`ARTIFACT_PARQUET_RECORD_API=1`); a string that is not
/// UTF-8 in row 7,000 (the third group: the columnar read stops at its
/// first batch, the record API reads on from row 6,001) is the same error
/// naming that row.
#[test]
fn gen_gives_the_record_apis_numbers_and_errors() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("artifact.toml"), STRINGS_SPEC).unwrap();
    let runs = dir.path().join("runs.parquet");
    pqcol_files::write_strings(&runs, 10_000, 3_000, None);
    let numbers = |env: &[(&str, &str)]| {
        let mut cmd = assert_cmd::Command::cargo_bin("artifact").unwrap();
        cmd.current_dir(dir.path()).args(["gen", "--force"]);
        for (k, v) in env {
            cmd.env(k, v);
        }
        let out = cmd.output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr).to_string();
        match out.status.success() {
            true => Ok(std::fs::read_to_string(dir.path().join("generated/numbers.json")).unwrap()),
            false => Err(stderr),
        }
    };
    let columns = numbers(&[]).unwrap();
    assert_eq!(
        columns,
        numbers(&[("ARTIFACT_PARQUET_RECORD_API", "1")]).unwrap()
    );
    let v: serde_json::Value = serde_json::from_str(&columns).unwrap();
    // Rows 1..=10,000 but those with i % 3 == 0 (i = row - 1).
    assert_eq!(v["kept"]["value"], serde_json::json!(6666));
    let sum: i64 = (1..=10_000i64).filter(|r| (r - 1) % 3 != 0).sum();
    assert_eq!(v["n-sum"]["value"], serde_json::json!(sum));
    pqcol_files::write_strings(&runs, 10_000, 3_000, Some(7_000));
    let error = numbers(&[]).unwrap_err();
    assert!(
        error.contains("source `runs`: runs.parquet:7000: cannot read the row: Error reading BYTE_ARRAY as String"),
        "{error}"
    );
    // (The second run leaves the lock as the first wrote it.)
    let records = numbers(&[("ARTIFACT_PARQUET_RECORD_API", "1")]).unwrap_err();
    assert_eq!(error.replace("wrote artifact.lock\n", ""), records);
}

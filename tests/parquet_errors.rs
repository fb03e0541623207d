//! Parquet files that cannot be read: truncated, garbage, damaged pages
//! or footer, a codec or a type not read, two fields of one name, a map
//! repeating a key, a column no row has, `max_line`. Each error names the
//! file (and the row, the column) and leaves the last outputs as they were.

mod common;
mod parquet_files;

use std::sync::Arc;

use common::{artifact, gen_ok};
use parquet::basic::Compression;
use parquet::data_type::Int64Type;
use parquet::file::properties::WriterProperties;
use parquet::file::writer::SerializedFileWriter;
use parquet::schema::parser::parse_message_type;
use parquet_files::*;

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
    // The lock records the failure; the outputs are as they were.
    assert_eq!(stderr, format!("wrote artifact.lock\n{want}"));
    assert_eq!(common::snapshot(&dir.path().join("generated")), before);
}

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
            "wrote artifact.lock\nerror: number `n-sum`: over 5 row(s) of table `runs`: runs.parquet:1: no field `n_rows` in table `runs` (fields: method, n, ratio, ok, none, cfg, sizes)\n{FAILED}"
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

#[test]
fn a_column_of_a_type_not_converted_is_an_error_naming_it_when_read() {
    let dir = tempfile::tempdir().unwrap();
    write_interval(&dir.path().join("runs.parquet"));
    // A number reading `iv` decodes it (one reading only `n` does not).
    let reads_iv = SUM_SPEC.replace("}\n", "}\nwhere = \"iv is defined or n > 0\"\n");
    std::fs::write(dir.path().join("artifact.toml"), reads_iv).unwrap();
    let out = artifact(dir.path(), &["gen"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        format!(
            "{WROTE}error: number `n-sum`: source `runs`: runs.parquet: field `iv`: a column of type FIXED_LEN_BYTE_ARRAY (INTERVAL) is not read (the parquet crate's record reader does not convert it); leave it out of the file or cast it, e.g. to a string\n{FAILED}"
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
    // Nor does a table that names no column (it counts rows by `n`).
    let spec = "[sources.runs]\npath = \"runs.parquet\"\n\n[tables.c]\nfrom = \"runs\"\nsteps = [{ group = [], aggregate = { n = \"count\" } }]\n\n[numbers.rows]\ntable = \"c\"\nvalue = { cell = \"n\" }\n";
    std::fs::write(dir.path().join("artifact.toml"), spec).unwrap();
    gen_ok(dir.path());
    assert_eq!(value(dir.path(), "rows"), serde_json::json!(1));
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
            "{WROTE}error: number `n-sum`: source `runs`: runs.parquet: column `n` is compressed with BROTLI, which is not read here (snappy, gzip, lz4 and zstd are); write the file with one of those, e.g. DuckDB's `(FORMAT parquet, COMPRESSION zstd)`\n{FAILED}"
        )
    );
}

/// A row group whose row count was damaged (4, where its columns and the
/// footer's total hold 21): the record API read 4 rows and the columnar
/// read 21, each without an error. Found by the `parquet` fuzz target.
#[test]
fn a_row_group_whose_count_was_damaged_is_an_error_not_fewer_rows() {
    for record_api in [false, true] {
        let dir = tempfile::tempdir().unwrap();
        std::fs::copy(
            common::root().join("tests/fixtures/parquet/damaged_row_count.parquet"),
            dir.path().join("runs.parquet"),
        )
        .unwrap();
        std::fs::write(dir.path().join("artifact.toml"), SUM_SPEC).unwrap();
        let mut cmd = assert_cmd::Command::cargo_bin("artifact").unwrap();
        if record_api {
            cmd.env("ARTIFACT_PARQUET_RECORD_API", "1");
        }
        let out = cmd.arg("gen").current_dir(dir.path()).output().unwrap();
        assert_eq!(out.status.code(), Some(2));
        assert_eq!(
            String::from_utf8_lossy(&out.stderr),
            format!(
                "{WROTE}error: number `n-sum`: source `runs`: runs.parquet: its row groups hold 4 rows and its footer counts 21 (the footer is corrupt)\n{FAILED}"
            )
        );
    }
}

/// One INT64 leaf: values, definition levels, repetition levels.
type Leaf<'a> = (&'a [i64], Option<&'a [i16]>, Option<&'a [i16]>);

/// Writes one row group of INT64 columns under `schema` (leaves in order,
/// each `values` with its definition and repetition levels), then runs
/// `gen` on a spec summing `n` over it: exit 2 and stderr.
fn gen_on(schema: &str, leaves: &[Leaf<'_>]) -> String {
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
    // The number reads `m` too: a column nothing reads is not decoded.
    let reads_m = SUM_SPEC.replace("}\n", "}\nwhere = \"m is defined or n > 0\"\n");
    std::fs::write(dir.path().join("artifact.toml"), reads_m).unwrap();
    let out = artifact(dir.path(), &["gen"]);
    assert_eq!(out.status.code(), Some(2));
    String::from_utf8_lossy(&out.stderr).to_string()
}

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

/// A page header listing two billion elements past the end of the file
/// (found by the fuzz target) is an error at once, not minutes of reads.
#[test]
fn a_header_skipping_past_the_end_is_an_error_at_once() {
    let bad =
        std::fs::read(common::root().join("tests/fixtures/parquet/skip_list.parquet")).unwrap();
    // Read whole (a table reads its rows with `tojson`): the damaged page
    // is not in column `n`, the only one a number on the file decodes.
    let spec = format!(
        "{SUM_SPEC}\n[tables.whole]\nfrom = \"runs\"\nsteps = [{{ derive = {{ j = \"_ | tojson\" }} }}]\n"
    );
    fails_with(
        &spec,
        &|_| bad.clone(),
        &format!(
            "error: number `n-sum`: source `runs`: runs.parquet:1: cannot read the row: the file ends inside a page\n{FAILED}"
        ),
    );
}

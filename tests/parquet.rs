//! Parquet sources read: the rows a test writes (flat columns, a struct,
//! a list, a map, logical types, two row groups, every codec), a wide file
//! read for one column, `check` after `gen`, and files DuckDB wrote from
//! the demo paper's logs, which give the same numbers as the logs.

mod common;
mod parquet_files;

use common::{artifact, gen_ok, numbers};
use parquet::basic::Compression;
use parquet_files::*;

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
            "{WROTE}error: number `n-sum`: source `runs`: runs.parquet.zst: a Parquet file is read as it is, not through zstd (its pages are compressed inside); remove the `.zst`\n{FAILED}"
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
    assert_eq!(committed.len(), 26);
    for (key, want) in committed {
        assert_eq!(got[key]["text"], want["text"], "{key}");
    }
}

/// One row of DuckDB's types (`tests/fixtures/parquet/types.parquet`):
/// each reads as the module docs of `sources::parquetcell` say.
#[test]
fn duckdb_types_read_as_documented() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(
        common::root().join("tests/fixtures/parquet/types.parquet"),
        dir.path().join("types.parquet"),
    )
    .unwrap();
    let checks = [
        "ts == '2024-03-01T12:00:00.250000'",
        "tstz == '2024-03-01T12:00:00.250000Z'",
        "d == '2024-03-01'",
        "t == '12:34:56.789000'",
        "dec == 12.345",
        "huge == 123456789012345678901234567890.0",
        "ub == 3",
        "e == 'a'",
        "u == '12345678-1234-5678-1234-567812345678'",
        "st.k == 1",
        "m.x == 1 and m.y == 2",
        "fl[0] == 1.5 and fl[1] == 2.5",
        "s == 'café'",
        "b == '0x00ff'",
    ];
    let mut spec = String::from("[sources.t]\npath = \"types.parquet\"\n");
    for (i, check) in checks.iter().enumerate() {
        spec.push_str(&format!(
            "\n[tables.t{i}]\nfrom = \"t\"\nsteps = [{{ require = \"{check}\" }}]\n\n[numbers.n{i}]\ntable = \"t{i}\"\nvalue = \"count\"\n"
        ));
    }
    std::fs::write(dir.path().join("artifact.toml"), spec).unwrap();
    gen_ok(dir.path());
    let n = numbers(dir.path());
    for (i, check) in checks.iter().enumerate() {
        assert_eq!(n[format!("n{i}")]["value"], serde_json::json!(1), "{check}");
    }
}

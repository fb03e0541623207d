//! Partitioned Parquet datasets (issue 28, item 4): a folder of
//! `day=.../shard=.../part-0.parquet` files as DuckDB's `COPY ... TO 'logs'
//! (FORMAT parquet, PARTITION_BY (day, shard))` writes it gives the numbers
//! and figure data of the JSONL log it was written from; row groups and
//! partition folders the first filters rule out are skipped, with the same
//! numbers as reading them; bad datasets are errors naming file and column.

mod common;

use std::path::Path;
use std::sync::Arc;

use common::{artifact, stderr};
use parquet::data_type::{ByteArray, ByteArrayType, DoubleType, Int64Type};
use parquet::file::properties::WriterProperties;
use parquet::file::writer::SerializedFileWriter;
use parquet::schema::parser::parse_message_type;

/// The days (`None`: the null partition, `__HIVE_DEFAULT_PARTITION__`).
const DAYS: [Option<&str>; 3] = [Some("2024-03-01"), Some("2024-03-02"), None];
const SHARDS: [i64; 3] = [1, 2, 3];
/// Rows per file and per row group.
const ROWS: i64 = 30;
const PER_GROUP: usize = 10;

/// One logged record.
struct Rec {
    step: i64,
    loss: f64,
    ratio: f64,
    mbps: f64,
    label: Vec<u8>,
    name: Vec<u8>,
    day: Option<&'static str>,
    shard: i64,
}

/// The records of one (day, shard) file, in file order.
fn records(d: usize, shard: i64) -> Vec<Rec> {
    (1..=ROWS)
        .map(|step| Rec {
            step,
            loss: (d as f64 + 1.0) / step as f64 + shard as f64 * 0.25,
            ratio: 1.0 + (step % 7) as f64 / 8.0,
            mbps: 100.0 + (step * shard) as f64 * 1.5,
            label: b"ok".to_vec(),
            name: format!("run-{d}-{shard}").into_bytes(),
            day: DAYS[d],
            shard,
        })
        .collect()
}

/// What a test changes in the written files.
#[derive(Default, Clone, Copy)]
struct Twist {
    /// `step` written as text in the (second day, shard 2) file.
    step_as_text: bool,
    /// Every file also has a `shard` column.
    shard_column: bool,
    /// The `name` of step 5 of the (first day, shard 1) file is not UTF-8
    /// (reading its row is an error).
    bad_name: bool,
    /// The `m.label` of step 15 of that file is not UTF-8.
    bad_label: bool,
}

/// Writes one file as DuckDB writes a partition: every column OPTIONAL,
/// the partition keys left out, `PER_GROUP` rows a row group with
/// statistics.
fn write_file(path: &Path, recs: &[Rec], twist: Twist, text_step: bool) {
    let step = if text_step {
        "OPTIONAL BYTE_ARRAY step (UTF8);"
    } else {
        "OPTIONAL INT64 step;"
    };
    let shard = if twist.shard_column {
        "OPTIONAL INT64 shard;"
    } else {
        ""
    };
    let schema = format!(
        "message duckdb_schema {{ {step} OPTIONAL DOUBLE loss; OPTIONAL group m {{ OPTIONAL DOUBLE ratio; OPTIONAL DOUBLE mbps; OPTIONAL BYTE_ARRAY label (UTF8); }} OPTIONAL BYTE_ARRAY name (UTF8); {shard} }}"
    );
    let schema = Arc::new(parse_message_type(&schema).unwrap());
    let props = Arc::new(WriterProperties::builder().build());
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let file = std::fs::File::create(path).unwrap();
    let mut w = SerializedFileWriter::new(file, schema, props).unwrap();
    for group in recs.chunks(PER_GROUP) {
        let mut rg = w.next_row_group().unwrap();
        let mut leaf = 0;
        while let Some(mut c) = rg.next_column().unwrap() {
            let one = vec![1i16; group.len()];
            let two = vec![2i16; group.len()];
            match leaf {
                0 if text_step => {
                    let v: Vec<ByteArray> = group
                        .iter()
                        .map(|r| ByteArray::from(r.step.to_string().as_str()))
                        .collect();
                    c.typed::<ByteArrayType>().write_batch(&v, Some(&one), None)
                }
                0 => {
                    let v: Vec<i64> = group.iter().map(|r| r.step).collect();
                    c.typed::<Int64Type>().write_batch(&v, Some(&one), None)
                }
                1 => {
                    let v: Vec<f64> = group.iter().map(|r| r.loss).collect();
                    c.typed::<DoubleType>().write_batch(&v, Some(&one), None)
                }
                2 => {
                    let v: Vec<f64> = group.iter().map(|r| r.ratio).collect();
                    c.typed::<DoubleType>().write_batch(&v, Some(&two), None)
                }
                3 => {
                    let v: Vec<f64> = group.iter().map(|r| r.mbps).collect();
                    c.typed::<DoubleType>().write_batch(&v, Some(&two), None)
                }
                4 => {
                    let v: Vec<ByteArray> = group
                        .iter()
                        .map(|r| ByteArray::from(r.label.clone()))
                        .collect();
                    c.typed::<ByteArrayType>().write_batch(&v, Some(&two), None)
                }
                5 => {
                    let v: Vec<ByteArray> = group
                        .iter()
                        .map(|r| ByteArray::from(r.name.clone()))
                        .collect();
                    c.typed::<ByteArrayType>().write_batch(&v, Some(&one), None)
                }
                _ => {
                    let v: Vec<i64> = group.iter().map(|r| r.shard).collect();
                    c.typed::<Int64Type>().write_batch(&v, Some(&one), None)
                }
            }
            .unwrap();
            c.close().unwrap();
            leaf += 1;
        }
        rg.close().unwrap();
    }
    w.close().unwrap();
}

/// The partition folder of a day.
fn day_folder(day: Option<&str>) -> String {
    format!("day={}", day.unwrap_or("__HIVE_DEFAULT_PARTITION__"))
}

/// Writes the dataset under `dir/logs` and the same records as
/// `dir/log.jsonl`, in the order the dataset's sorted paths give.
fn write_both(dir: &Path, twist: Twist) {
    let mut files: Vec<(String, usize, i64)> = Vec::new();
    for (d, day) in DAYS.iter().enumerate() {
        for shard in SHARDS {
            files.push((
                format!("logs/{}/shard={shard}/data_0.parquet", day_folder(*day)),
                d,
                shard,
            ));
        }
    }
    files.sort();
    let mut jsonl = String::new();
    for (rel, d, shard) in &files {
        let mut recs = records(*d, *shard);
        if twist.bad_name && *d == 0 && *shard == 1 {
            recs[4].name = b"run-\xff".to_vec();
        }
        if twist.bad_label && *d == 0 && *shard == 1 {
            recs[14].label = b"\xff".to_vec();
        }
        let text_step = twist.step_as_text && *d == 1 && *shard == 2;
        write_file(&dir.join(rel), &recs, twist, text_step);
        for r in &recs {
            let line = serde_json::json!({
                "step": r.step,
                "loss": r.loss,
                "m": { "ratio": r.ratio, "mbps": r.mbps, "label": String::from_utf8_lossy(&r.label) },
                "name": String::from_utf8_lossy(&r.name),
                "day": r.day,
                "shard": r.shard,
            });
            jsonl.push_str(&line.to_string());
            jsonl.push('\n');
        }
    }
    std::fs::write(dir.join("log.jsonl"), jsonl).unwrap();
}

/// Numbers and a figure over every row, and over the rows the first
/// filter keeps (shards 1 and 2 past step 10).
const SPEC: &str = r#"
[sources.log]
path = "PATH"

[tables.kept]
from = "log"
steps = [
  { filter = "step > 10 and shard in [1, 2]" },
  { group = ["day", "shard"], aggregate = { n = "count", loss = { mean = "loss" }, ratio = { mean = "m.ratio" }, fast = { max = "m.mbps" } } },
]

[tables.all]
from = "log"
steps = [{ group = ["day"], aggregate = { n = "count", steps = { sum = "step" } } }]

[numbers.kept-rows]
table = "kept"
value = { sum = "n" }

[numbers.kept-ratio]
table = "kept"
where = "day == '2024-03-02' and shard == 2"
value = { cell = "ratio" }
format = { places = 4 }

[numbers.null-day-steps]
table = "all"
where = "day is none"
value = { cell = "steps" }

[numbers.days]
table = "all"
value = "count"

[figures.loss]
size = [4, 3]
layers = [{ mark = "point", data = "kept", x = "shard", y = "loss" }]
"#;

/// Only the filtered table (so that every table reading the source starts
/// with the filter, and row groups can be skipped).
const KEPT: &str = r#"
[sources.log]
path = "PATH"

[tables.kept]
from = "log"
steps = [
  { filter = "step > 10 and shard in [1, 2] and name != 'x'" },
  { group = ["day", "shard"], aggregate = { n = "count", loss = { mean = "loss" }, fast = { max = "m.mbps" } } },
]

[numbers.kept-rows]
table = "kept"
value = { sum = "n" }

[numbers.fastest]
table = "kept"
value = { max = "fast" }
"#;

/// A project of `spec` reading `path`, with the dataset and log written.
fn project(spec: &str, path: &str, twist: Twist) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("artifact.toml"), spec.replace("PATH", path)).unwrap();
    write_both(dir.path(), twist);
    dir
}

/// `artifact gen` in `dir` (with `env` set), which must succeed: its
/// stderr.
fn gen_ok(dir: &Path, env: &[(&str, &str)]) -> String {
    let mut cmd = assert_cmd::Command::cargo_bin("artifact").unwrap();
    cmd.current_dir(dir).arg("gen").arg("--force");
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    stderr(&out)
}

fn read(dir: &Path, rel: &str) -> String {
    std::fs::read_to_string(dir.join(rel)).unwrap()
}

const DATASET: &str = "logs/**/*.parquet";

#[test]
fn a_partitioned_dataset_gives_the_numbers_and_figure_data_of_its_jsonl_log() {
    let jsonl = project(SPEC, "log.jsonl", Twist::default());
    let parquet = project(SPEC, DATASET, Twist::default());
    gen_ok(jsonl.path(), &[]);
    gen_ok(parquet.path(), &[]);
    let numbers = read(parquet.path(), "generated/numbers.json");
    assert_eq!(numbers, read(jsonl.path(), "generated/numbers.json"));
    assert_eq!(
        read(parquet.path(), "figures/loss.csv"),
        read(jsonl.path(), "figures/loss.csv")
    );
    let v: serde_json::Value = serde_json::from_str(&numbers).unwrap();
    // 3 days (one of them null) x shards 1, 2 x steps 11..=30.
    assert_eq!(v["kept-rows"]["value"], serde_json::json!(120));
    assert_eq!(v["days"]["value"], serde_json::json!(3));
    // The null partition's rows: 3 shards x (1 + ... + 30).
    assert_eq!(v["null-day-steps"]["value"], serde_json::json!(1395));
    // A struct column's field, through the partition's text and integer keys.
    assert_eq!(v["kept-ratio"]["text"], serde_json::json!("1.3750"));
}

#[test]
fn row_groups_and_folders_the_first_filter_rules_out_are_skipped_with_the_same_numbers() {
    let parquet = project(KEPT, DATASET, Twist::default());
    let jsonl = project(KEPT, "log.jsonl", Twist::default());
    let told = gen_ok(parquet.path(), &[]);
    // 9 files of 3 row groups: the 3 files of shard 3 (by their folder) and
    // the first row group (steps 1 to 10) of the 6 others.
    assert!(
        told.contains("source `log`: 15 of 27 row groups skipped: their statistics or partition folders rule out every row the first filters keep (ARTIFACT_NO_SKIP=1 reads them)"),
        "{told}"
    );
    let skipped = read(parquet.path(), "generated/numbers.json");
    let told = gen_ok(parquet.path(), &[("ARTIFACT_NO_SKIP", "1")]);
    assert!(!told.contains("skipped"), "{told}");
    assert_eq!(skipped, read(parquet.path(), "generated/numbers.json"));
    gen_ok(jsonl.path(), &[]);
    assert_eq!(skipped, read(jsonl.path(), "generated/numbers.json"));
    let v: serde_json::Value = serde_json::from_str(&skipped).unwrap();
    assert_eq!(v["kept-rows"]["value"], serde_json::json!(120));
    assert_eq!(v["fastest"]["value"], serde_json::json!(190.0));
}

#[test]
fn a_row_group_the_first_filter_rules_out_is_never_decoded() {
    // Step 5's name is not UTF-8: reading its row group is an error.
    let twist = Twist {
        bad_name: true,
        ..Twist::default()
    };
    let dir = project(KEPT, DATASET, twist);
    gen_ok(dir.path(), &[]);
    let out = assert_cmd::Command::cargo_bin("artifact")
        .unwrap()
        .current_dir(dir.path())
        .args(["gen", "--force"])
        .env("ARTIFACT_NO_SKIP", "1")
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("logs/day=2024-03-01/shard=1/data_0.parquet:5: cannot read the row"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_struct_field_no_table_reads_is_never_decoded() {
    // Step 15's `m.label` is not UTF-8; the tables read `m.ratio` and
    // `m.mbps` only.
    let twist = Twist {
        bad_label: true,
        ..Twist::default()
    };
    let dir = project(SPEC, DATASET, twist);
    gen_ok(dir.path(), &[]);
    let v: serde_json::Value =
        serde_json::from_str(&read(dir.path(), "generated/numbers.json")).unwrap();
    assert_eq!(v["kept-rows"]["value"], serde_json::json!(120));
    // Read, it fails.
    let spec = SPEC.replace("step > 10 and", "m.label != 'x' and step > 10 and");
    let dir = project(&spec, DATASET, twist);
    let error = gen_error(dir.path());
    assert!(
        error.starts_with("error: source `log`: logs/day=2024-03-01/shard=1/data_0.parquet:15: cannot read the row: Error reading BYTE_ARRAY as String"),
        "{error}"
    );
}

/// The first `error:` line of `artifact gen`'s stderr in `dir`, which
/// must fail.
fn gen_error(dir: &Path) -> String {
    let out = artifact(dir, &["gen"]);
    assert!(!out.status.success());
    let text = stderr(&out);
    let line = text.lines().find(|l| l.starts_with("error:"));
    line.unwrap_or_else(|| panic!("no error in {text}"))
        .to_string()
}

#[test]
fn files_that_disagree_on_a_column_type_are_an_error_naming_both() {
    let twist = Twist {
        step_as_text: true,
        ..Twist::default()
    };
    let dir = project(SPEC, DATASET, twist);
    assert_eq!(
        gen_error(dir.path()),
        "error: source `log`: logs/day=2024-03-02/shard=2/data_0.parquet: field `step`: column `step` is BYTE_ARRAY (UTF8) here but INT64 in `logs/day=2024-03-01/shard=1/data_0.parquet`: the files of one source must agree on a column's type (rewrite one, or cast the column)"
    );
}

#[test]
fn a_partition_key_that_is_also_a_column_is_an_error_naming_both() {
    let twist = Twist {
        shard_column: true,
        ..Twist::default()
    };
    let dir = project(SPEC, DATASET, twist);
    assert_eq!(
        gen_error(dir.path()),
        "error: source `log`: logs/day=2024-03-01/shard=1/data_0.parquet: field `shard`: its folder `shard=...` makes a field `shard`, and the file has a column `shard` too: a row cannot hold both (rename the column or the folders)"
    );
}

#[test]
fn a_folder_without_a_key_or_a_dataset_partitioned_otherwise_is_an_error() {
    let dir = project(SPEC, DATASET, Twist::default());
    let from = dir.path().join("logs/day=2024-03-01/shard=1");
    std::fs::create_dir_all(dir.path().join("logs/=7")).unwrap();
    std::fs::copy(
        from.join("data_0.parquet"),
        dir.path().join("logs/=7/data_0.parquet"),
    )
    .unwrap();
    assert_eq!(
        gen_error(dir.path()),
        "error: logs/=7/data_0.parquet: folder `=7` names no partition key (a partition folder is `key=value`)"
    );
    std::fs::remove_dir_all(dir.path().join("logs/=7")).unwrap();
    std::fs::create_dir_all(dir.path().join("logs/day=2024-03-09")).unwrap();
    std::fs::copy(
        from.join("data_0.parquet"),
        dir.path().join("logs/day=2024-03-09/data_0.parquet"),
    )
    .unwrap();
    assert_eq!(
        gen_error(dir.path()),
        "error: logs/day=2024-03-09/data_0.parquet: its partition folders name `day` but those of `logs/day=2024-03-01/shard=1/data_0.parquet` name `day`, `shard`: the files of one dataset must be partitioned alike"
    );
}

#[test]
fn a_folder_named_as_a_source_path_asks_for_a_glob() {
    let dir = project(SPEC, "logs/", Twist::default());
    assert_eq!(
        gen_error(dir.path()),
        "error: artifact.toml:3:8: `logs/` is a folder; name its files with a glob, e.g. `logs/**/*.parquet` for a partitioned Parquet dataset"
    );
}

/// One file `logs/kind=a/data_0.parquet` whose `methods` is a MAP of text
/// to a struct (ratio, label), as DuckDB writes a `MAP(VARCHAR, STRUCT)`:
/// row 1 `{a: {1.5, "ok"}, b: {2.5, <not UTF-8>}}`, row 2 `{a: {3.0, "ok"}}`.
fn write_map(dir: &Path) {
    let schema = "message duckdb_schema { OPTIONAL group methods (MAP) { REPEATED group key_value { REQUIRED BYTE_ARRAY key (UTF8); OPTIONAL group value { OPTIONAL DOUBLE ratio; OPTIONAL BYTE_ARRAY label (UTF8); } } } }";
    let schema = Arc::new(parse_message_type(schema).unwrap());
    let path = dir.join("logs/kind=a/data_0.parquet");
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let props = Arc::new(WriterProperties::builder().build());
    let mut w =
        SerializedFileWriter::new(std::fs::File::create(path).unwrap(), schema, props).unwrap();
    let mut rg = w.next_row_group().unwrap();
    let reps = [0i16, 1, 0];
    let mut leaf = 0;
    while let Some(mut c) = rg.next_column().unwrap() {
        match leaf {
            0 => c.typed::<ByteArrayType>().write_batch(
                &[
                    ByteArray::from("a"),
                    ByteArray::from("b"),
                    ByteArray::from("a"),
                ],
                Some(&[2, 2, 2]),
                Some(&reps),
            ),
            1 => {
                c.typed::<DoubleType>()
                    .write_batch(&[1.5, 2.5, 3.0], Some(&[4, 4, 4]), Some(&reps))
            }
            _ => c.typed::<ByteArrayType>().write_batch(
                &[
                    ByteArray::from("ok"),
                    ByteArray::from(vec![0xffu8]),
                    ByteArray::from("ok"),
                ],
                Some(&[4, 4, 4]),
                Some(&reps),
            ),
        }
        .unwrap();
        c.close().unwrap();
        leaf += 1;
    }
    rg.close().unwrap();
    w.close().unwrap();
}

const MAP_SPEC: &str = r#"
[sources.log]
path = "logs/**/*.parquet"

[tables.per_method]
from = "log"
steps = [
  { explode = "methods", key = "method", value = "m" },
  { group = ["method", "kind"], aggregate = { s = { sum = "READ" } } },
]

[numbers.a-sum]
table = "per_method"
where = "method == 'a' and kind == 'a'"
value = { cell = "s" }
"#;

#[test]
fn an_exploded_map_of_structs_decodes_only_the_entry_fields_read() {
    let dir = tempfile::tempdir().unwrap();
    write_map(dir.path());
    std::fs::write(
        dir.path().join("artifact.toml"),
        MAP_SPEC.replace("READ", "m.ratio"),
    )
    .unwrap();
    gen_ok(dir.path(), &[]);
    let v: serde_json::Value =
        serde_json::from_str(&read(dir.path(), "generated/numbers.json")).unwrap();
    assert_eq!(v["a-sum"]["value"], serde_json::json!(4.5));
    // Read, the label that is not UTF-8 fails its row.
    std::fs::write(
        dir.path().join("artifact.toml"),
        MAP_SPEC.replace("READ", "m.ratio if m.label else 0"),
    )
    .unwrap();
    let error = gen_error(dir.path());
    assert!(
        error.starts_with(
            "error: number `a-sum`: source `log`: logs/kind=a/data_0.parquet:1: cannot read the row"
        ),
        "{error}"
    );
}

//! Issue 25, point 7: a 30-digit JSON integer silently became
//! `1.2345678901234568e29`, and integers beyond 2⁵³ used as group keys
//! merged. Now an integer keeps its digits up to `i128` (JSON, CSV,
//! Parquet `DECIMAL(p, 0)`): a number, a macro, a results table cell and a
//! figure's CSV print all of them; distinct ones are distinct group keys
//! and sort in order; `max` picks the true one; the lock and `numbers.json`
//! keep them. A JSON integer wider than 128 bits is an error naming file,
//! line and field, never a rounding; arithmetic may go through a double.
//! Integers between 2⁵³ and 2⁶³ (`i64`) were exact already and stay so,
//! now also under a format's `places`.

mod common;

use std::path::Path;

use common::{artifact, stderr};

const A: &str = "123456789012345678901234567890";
const B: &str = "123456789012345678901234567891";

const SPEC: &str = r#"[sources.log]
path = "log.jsonl"

[tables.g]
from = "log"
steps = [{ group = ["id"], aggregate = { n = "count" } }, { sort = ["id"] }]

[numbers.big]
table = "log"
where = "k == 'a'"
value = { cell = "id" }

[numbers.big-places]
table = "log"
where = "k == 'a'"
value = { cell = "id" }
format = { places = 0 }

[numbers.mid]
table = "log"
where = "k == 'c'"
value = { cell = "id" }
format = { places = 0 }

[numbers.groups]
table = "g"
value = "count"

[numbers.largest]
table = "log"
value = { max = "id" }

[numbers.next]
table = "log"
where = "id == 123456789012345678901234567890"
value = { expr = "0" }

[results_tables.r]
from = "g"
columns = [{ field = "id" }, { field = "n" }]

[figures.f]
size = [3, 2]
layers = [{ mark = "point", data = "g", x = "n", y = "n", detail = ["id"] }]
"#;

/// Two 30-digit ids one apart (one double), two u64 ids one apart near
/// 2⁶⁴, two i64 ids one apart past 2⁵³, and a negative 30-digit one.
fn log() -> String {
    [
        format!(r#"{{"k": "a", "id": {A}}}"#),
        format!(r#"{{"k": "b", "id": {B}}}"#),
        r#"{"k": "c", "id": 9007199254740993}"#.to_string(),
        r#"{"k": "d", "id": 9007199254740992}"#.to_string(),
        r#"{"k": "e", "id": 18446744073709551615}"#.to_string(),
        r#"{"k": "f", "id": 18446744073709551614}"#.to_string(),
        format!(r#"{{"k": "g", "id": -{A}}}"#),
    ]
    .join("\n")
        + "\n"
}

fn read(d: &Path, rel: &str) -> String {
    std::fs::read_to_string(d.join(rel)).unwrap()
}

fn project() -> tempfile::TempDir {
    let dir = common::project(&SPEC.replace(
        "[numbers.next]\ntable = \"log\"\nwhere = \"id == 123456789012345678901234567890\"\nvalue = { expr = \"0\" }\n",
        "",
    ));
    std::fs::write(dir.path().join("log.jsonl"), log()).unwrap();
    dir
}

#[test]
fn a_30_digit_json_integer_keeps_its_digits_everywhere_it_is_printed() {
    for generic in [false, true] {
        let dir = project();
        let d = dir.path();
        let out = common::gen_on(d, generic);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        let json: serde_json::Value =
            serde_json::from_str(&read(d, "generated/numbers.json")).unwrap();
        assert_eq!(json["big"]["text"], A);
        assert_eq!(json["big-places"]["text"], A);
        assert_eq!(json["mid"]["text"], "9007199254740993");
        assert_eq!(
            json["largest"]["text"], B,
            "max picks the larger of one double"
        );
        // The value keeps its digits in numbers.json (not a double).
        assert!(
            read(d, "generated/numbers.json").contains(&format!("\"value\": {A},")),
            "{}",
            read(d, "generated/numbers.json")
        );
        assert!(
            read(d, "generated/macros.tex").contains(&format!("\\@namedef{{artnum@big}}{{{A}}}"))
        );
        assert!(read(d, "generated/macros.typ").contains(&format!("#let big = \"{A}\"")));
        // The lock records the value exact.
        assert!(read(d, "artifact.lock").contains(&format!("value = \"{A}\"")));
        // Distinct integers are distinct groups, in order.
        assert_eq!(json["groups"]["text"], "7", "generic: {generic}");
        assert_eq!(
            read(d, "generated/r.csv"),
            format!(
                "id,n\n-{A},1\n9007199254740992,1\n9007199254740993,1\n18446744073709551614,1\n18446744073709551615,1\n{A},1\n{B},1\n"
            ),
            "generic: {generic}"
        );
        let csv = read(d, "figures/f.csv");
        for id in [A, B, "18446744073709551614", "18446744073709551615"] {
            assert!(csv.contains(&format!(",{id}\n")), "{id} in {csv}");
        }
        let check = artifact(d, &["check"]);
        assert_eq!(check.status.code(), Some(0), "{}", stderr(&check));
        // Reused from the lock, the numbers keep their digits.
        let again = artifact(d, &["gen"]);
        assert_eq!(again.status.code(), Some(0), "{}", stderr(&again));
        assert!(!stderr(&again).contains("number big"), "{}", stderr(&again));
    }
}

#[test]
fn an_integer_literal_beyond_i64_filters_exactly() {
    let dir = common::project(SPEC);
    let d = dir.path();
    std::fs::write(d.join("log.jsonl"), log()).unwrap();
    let spec = read(d, "artifact.toml").replace("value = { expr = \"0\" }", "value = \"count\"");
    std::fs::write(d.join("artifact.toml"), spec).unwrap();
    for generic in [false, true] {
        let out = common::gen_on(d, generic);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        let json: serde_json::Value =
            serde_json::from_str(&read(d, "generated/numbers.json")).unwrap();
        assert_eq!(json["next"]["text"], "1", "generic: {generic}");
    }
}

#[test]
fn a_json_integer_wider_than_128_bits_is_an_error_naming_file_line_and_field() {
    let dir = project();
    let d = dir.path();
    let wide = "9".repeat(45);
    std::fs::write(
        d.join("log.jsonl"),
        format!(
            "{}{{\"k\": \"z\", \"id\": 1, \"junk\": {{\"deep\": [1, {wide}]}}}}\n",
            log()
        ),
    )
    .unwrap();
    for generic in [false, true] {
        let out = common::gen_on(d, generic);
        assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
        assert!(
            stderr(&out).contains(&format!(
                "error: source `log`: log.jsonl:8: invalid JSON at column 86: field `junk.deep`: the integer {}... (45 digits) is wider than 128 bits (it would be rounded; write it as a string to keep its digits, or with an exponent to read it as a float)",
                "9".repeat(40)
            )),
            "{}",
            stderr(&out)
        );
    }
}

#[test]
fn a_csv_integer_beyond_i64_keeps_its_digits_and_its_group() {
    let dir = common::project(
        r#"[sources.c]
path = "c.csv"

[tables.g]
from = "c"
steps = [{ group = ["id"], aggregate = { n = "count" } }]

[numbers.groups]
table = "g"
value = "count"

[numbers.first]
table = "c"
where = "k == 'a'"
value = { cell = "id" }

[numbers.huge]
table = "c"
where = "k == 'h'"
value = { cell = "id" }
"#,
    );
    let d = dir.path();
    let huge = "9".repeat(45);
    std::fs::write(d.join("c.csv"), format!("k,id\na,{A}\nb,{B}\nh,{huge}\n")).unwrap();
    let out = artifact(d, &["gen"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let json: serde_json::Value = serde_json::from_str(&read(d, "generated/numbers.json")).unwrap();
    assert_eq!(json["groups"]["text"], "3");
    assert_eq!(json["first"]["text"], A);
    // Past i128, the cell is its text (as pandas keeps it).
    assert_eq!(
        json["huge"]["value"],
        serde_json::Value::String(huge.clone())
    );
}

/// A Parquet file of two rows: `d` a DECIMAL(38, 0) (16-byte fixed
/// array) holding `A` and `B`, `u` a UINT64 near 2⁶⁴.
fn write_parquet(path: &Path) {
    use parquet::data_type::{FixedLenByteArray, FixedLenByteArrayType, Int64Type};
    use parquet::file::properties::WriterProperties;
    use parquet::file::writer::SerializedFileWriter;
    use parquet::schema::parser::parse_message_type;
    use std::sync::Arc;
    let schema = "message m {
      REQUIRED FIXED_LEN_BYTE_ARRAY (16) d (DECIMAL(38, 0));
      REQUIRED INT64 u (INTEGER(64, false));
    }";
    let schema = Arc::new(parse_message_type(schema).unwrap());
    let props = Arc::new(WriterProperties::builder().build());
    let file = std::fs::File::create(path).unwrap();
    let mut writer = SerializedFileWriter::new(file, schema, props).unwrap();
    let mut rg = writer.next_row_group().unwrap();
    let mut leaf = 0;
    while let Some(mut col) = rg.next_column().unwrap() {
        match leaf {
            0 => {
                let d: Vec<FixedLenByteArray> = [A, B]
                    .iter()
                    .map(|s| {
                        let v: i128 = s.parse().unwrap();
                        FixedLenByteArray::from(v.to_be_bytes().to_vec())
                    })
                    .collect();
                col.typed::<FixedLenByteArrayType>()
                    .write_batch(&d, None, None)
                    .unwrap();
            }
            _ => {
                // u64::MAX and u64::MAX - 1, as their i64 bits.
                col.typed::<Int64Type>()
                    .write_batch(&[-1, -2], None, None)
                    .unwrap();
            }
        }
        col.close().unwrap();
        leaf += 1;
    }
    rg.close().unwrap();
    writer.close().unwrap();
}

#[test]
fn a_parquet_decimal_38_0_and_a_uint64_keep_their_digits_and_their_groups() {
    let dir = common::project(
        r#"[sources.p]
path = "p.parquet"

[tables.gd]
from = "p"
steps = [{ group = ["d"], aggregate = { n = "count" } }]

[tables.gu]
from = "p"
steps = [{ group = ["u"], aggregate = { n = "count" } }]

[numbers.dgroups]
table = "gd"
value = "count"

[numbers.ugroups]
table = "gu"
value = "count"

[numbers.dmax]
table = "p"
value = { max = "d" }

[numbers.umin]
table = "p"
value = { min = "u" }
"#,
    );
    let d = dir.path();
    write_parquet(&d.join("p.parquet"));
    let out = artifact(d, &["gen"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let json: serde_json::Value = serde_json::from_str(&read(d, "generated/numbers.json")).unwrap();
    assert_eq!(json["dgroups"]["text"], "2");
    assert_eq!(json["ugroups"]["text"], "2");
    assert_eq!(json["dmax"]["text"], B);
    assert_eq!(json["umin"]["text"], "18446744073709551614");
}

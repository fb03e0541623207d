//! A JSONL log converted to Parquet as DuckDB converts it
//! (`COPY (SELECT * FROM read_json('x.jsonl')) TO 'x.parquet'`), written
//! with the `parquet` crate (DuckDB is not a test dependency): the union of
//! the records' keys as OPTIONAL columns in first-seen order, a key a record
//! lacks (or its JSON `null`) written as a null, integers as INT64 (DOUBLE
//! when a float shares the column), strings as UTF8, booleans as BOOLEAN and
//! arrays of numbers as DuckDB's `DOUBLE[]` (a LIST of OPTIONAL DOUBLE).
//! Nested objects, which the logs converted here do not have, are refused.
#![allow(dead_code)]

use std::path::Path;
use std::sync::Arc;

use parquet::data_type::{BoolType, ByteArray, ByteArrayType, DoubleType, Int64Type};
use parquet::file::properties::WriterProperties;
use parquet::file::writer::SerializedFileWriter;
use parquet::schema::parser::parse_message_type;
use serde_json::{Map, Value};

/// A column's Parquet type, as DuckDB's `read_json` infers it.
#[derive(Clone, Copy, PartialEq, Debug)]
enum Kind {
    Int,
    Double,
    Text,
    Bool,
    Doubles,
}

fn kind_of(v: &Value) -> Option<Kind> {
    match v {
        Value::Null => None,
        Value::Bool(_) => Some(Kind::Bool),
        Value::Number(n) if n.is_i64() => Some(Kind::Int),
        Value::Number(_) => Some(Kind::Double),
        Value::String(_) => Some(Kind::Text),
        Value::Array(a) if a.iter().all(|x| x.is_number() || x.is_null()) => Some(Kind::Doubles),
        other => panic!("a value DuckDB would make a struct or JSON column: {other}"),
    }
}

/// The union of the records' keys in first-seen order, each with its type.
fn columns(rows: &[Map<String, Value>]) -> Vec<(String, Kind)> {
    let mut cols: Vec<(String, Option<Kind>)> = Vec::new();
    for r in rows {
        for (k, v) in r {
            let i = match cols.iter().position(|(c, _)| c == k) {
                Some(i) => i,
                None => {
                    cols.push((k.clone(), None));
                    cols.len() - 1
                }
            };
            cols[i].1 = match (cols[i].1, kind_of(v)) {
                (a, None) => a,
                (None, b) => b,
                (Some(Kind::Int), Some(Kind::Double)) | (Some(Kind::Double), Some(Kind::Int)) => {
                    Some(Kind::Double)
                }
                (Some(a), Some(b)) if a == b => Some(a),
                (a, b) => panic!("column `{k}` mixes {a:?} and {b:?}"),
            };
        }
    }
    // A column of nulls only: DuckDB's read_json makes it a VARCHAR... of nulls.
    cols.into_iter()
        .map(|(k, t)| (k, t.unwrap_or(Kind::Text)))
        .collect()
}

fn schema(cols: &[(String, Kind)]) -> String {
    let mut s = String::from("message duckdb_schema {\n");
    for (name, kind) in cols {
        s.push_str(&match kind {
            Kind::Int => format!("  OPTIONAL INT64 {name};\n"),
            Kind::Double => format!("  OPTIONAL DOUBLE {name};\n"),
            Kind::Text => format!("  OPTIONAL BYTE_ARRAY {name} (UTF8);\n"),
            Kind::Bool => format!("  OPTIONAL BOOLEAN {name};\n"),
            Kind::Doubles => format!(
                "  OPTIONAL group {name} (LIST) {{ REPEATED group list {{ OPTIONAL DOUBLE element; }} }}\n"
            ),
        });
    }
    s.push('}');
    s
}

/// One scalar column's values and definition levels (0: null, 1: a value).
fn scalar<T>(
    rows: &[Map<String, Value>],
    name: &str,
    f: impl Fn(&Value) -> T,
) -> (Vec<T>, Vec<i16>) {
    let (mut vals, mut defs) = (Vec::new(), Vec::new());
    for r in rows {
        match r.get(name).filter(|v| !v.is_null()) {
            Some(v) => {
                vals.push(f(v));
                defs.push(1);
            }
            None => defs.push(0),
        }
    }
    (vals, defs)
}

/// A `DOUBLE[]` column: values, definition levels (0 null list, 1 empty
/// list, 2 null element, 3 a value) and repetition levels.
fn doubles(rows: &[Map<String, Value>], name: &str) -> (Vec<f64>, Vec<i16>, Vec<i16>) {
    let (mut vals, mut defs, mut reps) = (Vec::new(), Vec::new(), Vec::new());
    for r in rows {
        match r.get(name).and_then(Value::as_array) {
            None => (defs.push(0), reps.push(0)).0,
            Some(a) if a.is_empty() => (defs.push(1), reps.push(0)).0,
            Some(a) => {
                for (i, x) in a.iter().enumerate() {
                    reps.push(if i == 0 { 0 } else { 1 });
                    match x.as_f64() {
                        Some(x) => (vals.push(x), defs.push(3)).0,
                        None => defs.push(2),
                    }
                }
            }
        }
    }
    (vals, defs, reps)
}

/// Writes `rows` (JSON objects) to `path` as DuckDB's conversion would, in
/// one row group.
pub fn write(path: &Path, rows: &[Map<String, Value>]) {
    let cols = columns(rows);
    let schema = Arc::new(parse_message_type(&schema(&cols)).unwrap());
    let props = Arc::new(WriterProperties::builder().build());
    let file = std::fs::File::create(path).unwrap();
    let mut writer = SerializedFileWriter::new(file, schema, props).unwrap();
    let mut rg = writer.next_row_group().unwrap();
    for (name, kind) in &cols {
        let mut col = rg.next_column().unwrap().unwrap();
        match kind {
            Kind::Int => {
                let (v, d) = scalar(rows, name, |v| v.as_i64().unwrap());
                col.typed::<Int64Type>().write_batch(&v, Some(&d), None)
            }
            Kind::Double => {
                let (v, d) = scalar(rows, name, |v| v.as_f64().unwrap());
                col.typed::<DoubleType>().write_batch(&v, Some(&d), None)
            }
            Kind::Text => {
                let (v, d) = scalar(rows, name, |v| ByteArray::from(v.as_str().unwrap()));
                col.typed::<ByteArrayType>().write_batch(&v, Some(&d), None)
            }
            Kind::Bool => {
                let (v, d) = scalar(rows, name, |v| v.as_bool().unwrap());
                col.typed::<BoolType>().write_batch(&v, Some(&d), None)
            }
            Kind::Doubles => {
                let (v, d, r) = doubles(rows, name);
                col.typed::<DoubleType>()
                    .write_batch(&v, Some(&d), Some(&r))
            }
        }
        .unwrap();
        col.close().unwrap();
    }
    rg.close().unwrap();
    writer.close().unwrap();
}

/// The records of a JSONL text (blank lines skipped).
pub fn records(jsonl: &str) -> Vec<Map<String, Value>> {
    jsonl
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| match serde_json::from_str(l).unwrap() {
            Value::Object(m) => m,
            other => panic!("not a record: {other}"),
        })
        .collect()
}

//! One meaning of missing: a key a record lacks (JSONL, JSON), an explicit
//! JSON `null`, a Parquet null and a CSV empty or NA cell are all "no value".
//!
//! DuckDB's `COPY (SELECT * FROM read_json('x.jsonl')) TO 'x.parquet'` writes
//! the union of the log's keys as columns, each key a record lacks as null:
//! a spec must read the same numbers from either file. So `x is defined` is
//! false, `x is none` true and `x | default(d)` is `d` for both, and `count`
//! counts neither (pandas' `count`: non-missing values).

use super::Value;

/// Whether `v` is no value: undefined (a field the row lacks) or none (a
/// null the file wrote).
#[inline]
pub fn is_missing(v: &Value) -> bool {
    v.is_undefined() || v.is_none()
}

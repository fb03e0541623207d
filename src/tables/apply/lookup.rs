//! The `lookup` step's messages and joined rows, shared by the whole-table
//! form (`apply`) and the streaming one (`tables::serial`).

use std::sync::Arc;

use crate::error::{Error, shown};
use crate::plan::steps::Unmatched;
use crate::value::{Key, Origin, Row, Value};

/// Rows of a lookup without a match named in its note.
pub const MISSED_SHOWN: usize = 5;

/// The error of `unique` (keep = "error") meeting key `k` again at `at`,
/// first seen at `first`.
pub fn repeated_key(at: &Origin, keys: &[String], k: &Key, first: &Origin) -> Error {
    Error::input(
        at.path.to_string(),
        at.line_opt(),
        Some(keys.join(", ")),
        format!(
            "key ({k}) repeats the row at {first} (set `keep = \"first\"` or `\"last\"` to choose one)"
        ),
    )
}

/// The error of a lookup (unmatched = "error") finding no row for `k`.
pub fn no_match(row: &Row, k: &Key, table: &str) -> Error {
    Error::input(
        row.origin.path.to_string(),
        row.origin.line_opt(),
        None,
        format!("lookup: key ({k}) has no match in `{}`", shown(table)),
    )
}

/// The note of a lookup whose `missed` rows had no match (`shown`: the
/// first few, as `(key) at origin`).
pub fn missed_note(
    missed: usize,
    shown: &[String],
    table: &str,
    on: &[String],
    unmatched: Unmatched,
) -> String {
    let action = if unmatched == Unmatched::Drop {
        "dropped"
    } else {
        "kept with null fields"
    };
    format!(
        "{missed} row(s) had no match in `{}` on {} and were {action}: {}{}",
        crate::error::shown(table),
        crate::error::shown(&on.join(", ")),
        shown.join("; "),
        if missed > shown.len() { "; ..." } else { "" }
    )
}

/// `row` with the fields a lookup takes from its match `found`: under
/// `as_` (the whole row, null without a match), the listed `fields` (null
/// without a match), or every field the row lacks.
pub fn joined(row: Row, found: Option<&Row>, as_: Option<&str>, fields: Option<&[String]>) -> Row {
    let mut row = row;
    row.flatten();
    // (The row's own fields, not a copy, when nothing else holds them.)
    let rec = Arc::make_mut(&mut row.fields);
    match (as_, found) {
        (Some(name), Some(m)) => rec.insert(name, Value::from_dyn_object(m.flat_fields())),
        (Some(name), None) => rec.insert(name, Value::from(())),
        (None, m) => match fields {
            Some(list) => {
                for f in list {
                    let v = m.and_then(|m| m.get(f)).cloned().unwrap_or(Value::from(()));
                    rec.insert(f.as_str(), v);
                }
            }
            None => {
                if let Some(m) = m {
                    for (k, v) in &m.flat_fields().0 {
                        if !rec.0.contains_key(k) {
                            rec.insert(k.clone(), v.clone());
                        }
                    }
                }
            }
        },
    }
    row
}

//! JSON documents: the records at a JSON pointer (an array, or with
//! `records_key` a mapping of records) and the rest of the document as the
//! file's metadata, shared by its rows as `_source.meta`.

use std::sync::Arc;

use super::{SourceFile, compress, json, limit, open};
use crate::error::{Error, Result};
use crate::value::{FileMeta, Origin, Row, Value, as_record};

/// Reads the JSON document `file`: each record at JSON pointer `pointer`
/// (an array, or with `records_key` a mapping of records) goes to `each`
/// as a row; returns the rest of the document (the rows' `_source.meta`).
pub(super) fn read_json_document(
    file: &SourceFile,
    pointer: Option<&str>,
    records_key: Option<&str>,
    each: &mut dyn FnMut(Row) -> Result<()>,
) -> Result<Value> {
    let doc = parse(file)?;
    let path: Arc<str> = Arc::from(file.rel.as_str());
    let ptr = pointer.unwrap_or("");
    let records = lookup_pointer(&doc, ptr).ok_or_else(|| nothing_at(file, &doc, ptr))?;
    // The metadata: the document without the records (wherever the
    // pointer leads through objects), so `meta.sim.t_read_ms` reads it.
    // Every row of the file shares it as `_source.meta`.
    let tokens: Vec<String> = match ptr.strip_prefix('/') {
        Some(rest) => rest.split('/').map(unescape_pointer).collect(),
        None => Vec::new(),
    };
    // A `records` written in the spec that leads to an object reads it as
    // one record (a summary file: `records = ""` for the whole document);
    // left out, an object at the top level stays an error that says how
    // to read it, since a mapping of records is the likelier slip.
    if pointer.is_some() && records_key.is_none() && as_record(&records).is_some() {
        let meta = if tokens.is_empty() {
            crate::value::Record::default().into_value()
        } else {
            without_records(&doc, &tokens)
        };
        each(one_record(&path, &records, &meta))?;
        return Ok(meta);
    }
    let records = records_of(file, ptr, records_key, records)?;
    let meta = without_records(&doc, &tokens);
    let shared = Some(Arc::new(FileMeta::Document(meta.clone())));
    let ptr_arc: Arc<str> = Arc::from(ptr);
    for (i, item) in records.try_iter().into_iter().flatten().enumerate() {
        let rec = as_record(&item).ok_or_else(|| {
            Error::input(
                file.rel.clone(),
                None,
                Some(format!("{ptr}/{i}")),
                format!(
                    "expected an object, found {}",
                    crate::value::describe(&item)
                ),
            )
        })?;
        each(Row {
            extra: Default::default(),
            fields: Arc::new(rec.clone()),
            origin: Origin {
                path: path.clone(),
                line: 0,
                record: Some((ptr_arc.clone(), i as u64)),
                meta: shared.clone(),
                partial: false,
            },
        })?;
    }
    Ok(meta)
}

/// The row of a document whose records are one object `rec` (a summary
/// file), with the rest of the document `meta` as its `_source.meta`.
fn one_record(path: &Arc<str>, rec: &Value, meta: &Value) -> Row {
    let fields = as_record(rec).cloned().unwrap_or_default();
    Row {
        extra: Default::default(),
        fields: Arc::new(fields),
        origin: Origin {
            path: path.clone(),
            line: 0,
            record: None,
            meta: Some(Arc::new(FileMeta::Document(meta.clone()))),
            partial: false,
        },
    }
}

/// The JSON document `file` holds (a UTF-8 byte order mark skipped).
fn parse(file: &SourceFile) -> Result<Value> {
    let bytes = limit::read_document(
        &file.rel,
        file.compression.is_compressed(),
        open(file)?,
        file.max_line,
        |e| compress::read_error(file, &e, None),
    )?;
    let text = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&bytes);
    json::parse(text).map_err(|e| {
        Error::input(
            file.rel.clone(),
            Some(e.line as u64),
            None,
            format!("invalid JSON at column {}: {}", e.column, e.message),
        )
    })
}

/// The error for a JSON pointer that leads nowhere: what is there at the
/// deepest object it reached, and the nearest key (`/result` for
/// `/results` is the usual slip).
fn nothing_at(file: &SourceFile, doc: &Value, ptr: &str) -> Error {
    let tokens: Vec<String> = ptr.split('/').skip(1).map(unescape_pointer).collect();
    let (mut parent, mut base) = (doc.clone(), String::new());
    for t in &tokens[..tokens.len().saturating_sub(1)] {
        match as_record(&parent).and_then(|r| r.get(t)).cloned() {
            Some(v) => {
                base.push('/');
                base.push_str(&t.replace('~', "~0").replace('/', "~1"));
                parent = v;
            }
            None => break,
        }
    }
    let there = match as_record(&parent) {
        Some(r) => {
            let keys = crate::error::name_list(r.0.keys().map(|k| &**k), false);
            let close = tokens
                .get(base.matches('/').count())
                .and_then(|t| crate::expr::undefined::did_you_mean(t, r.0.keys().map(|k| &**k)))
                .map(|c| format!("; did you mean `{base}/{}`?", crate::error::shown(c)))
                .unwrap_or_default();
            format!(
                " (keys at `{}`: {}){close}",
                if base.is_empty() { "/" } else { &base },
                keys
            )
        }
        None => String::new(),
    };
    let there = if ptr == "/" {
        // RFC 6901: `/` is the key "" of the top-level object, not the
        // document; a summary file's slip is to write it for the document.
        format!(
            "{there}; `/` names the key \"\" (RFC 6901): for the whole document as one record, write `records = \"\"`"
        )
    } else if ptr.starts_with('/') {
        there
    } else {
        format!("{there}; a JSON pointer starts with `/`: `/{ptr}`")
    };
    Error::input(
        file.rel.clone(),
        None,
        None,
        format!("the document has nothing at JSON pointer `{ptr}`{there}"),
    )
}

/// The records at `ptr` as an array: a mapping of records read by
/// `records_key`, else the array there. Errors: anything else.
fn records_of(
    file: &SourceFile,
    ptr: &str,
    records_key: Option<&str>,
    records: Value,
) -> Result<Value> {
    // Where the records were looked for, as messages say it.
    let at = if ptr.is_empty() {
        "the top level".to_string()
    } else {
        format!("`{ptr}`")
    };
    let field = (!ptr.is_empty()).then(|| ptr.to_string());
    let records = match (records_key, as_record(&records)) {
        (Some(key), Some(map)) => keyed_records(file, ptr, key, map)?,
        (Some(_), None) => {
            return Err(Error::input(
                file.rel.clone(),
                None,
                field.clone(),
                format!(
                    "`records_key` reads a mapping of records at {at}, found {}",
                    crate::value::describe(&records)
                ),
            ));
        }
        (None, Some(map))
            if !map.0.is_empty() && map.0.values().all(|v| as_record(v).is_some()) =>
        {
            return Err(Error::input(
                file.rel.clone(),
                None,
                field.clone(),
                format!(
                    "expected an array of records at {at}, found a mapping of {} records; \
                     to read each entry as a row, set `records_key` to the field that gets its key \
                     (`records_key = \"key\"`), or set `records` to the JSON pointer of an array \
                     (`records = \"\"` reads the whole document as one record)",
                    map.0.len()
                ),
            ));
        }
        (None, _) => records,
    };
    if records.kind() != minijinja::value::ValueKind::Seq {
        let whole = if ptr.is_empty() && as_record(&records).is_some() {
            ", or `records = \"\"` to read the whole document as one record"
        } else {
            ""
        };
        return Err(Error::input(
            file.rel.clone(),
            None,
            field,
            format!(
                "expected an array of records at {at}, found {} (set `records` to the JSON pointer of the array{whole})",
                crate::value::describe(&records)
            ),
        ));
    }
    Ok(records)
}

/// The entries of a mapping of records as a list of rows, each with its
/// key in field `key` (in the document's order). An entry that is not an
/// object, or that has a field named `key` already, is an error naming it.
fn keyed_records(
    file: &SourceFile,
    ptr: &str,
    key: &str,
    map: &crate::value::Record,
) -> Result<Value> {
    let mut rows = Vec::with_capacity(map.0.len());
    for (k, v) in map.0.iter() {
        let at = format!("{ptr}/{}", k.replace('~', "~0").replace('/', "~1"));
        let rec = as_record(v).ok_or_else(|| {
            Error::input(
                file.rel.clone(),
                None,
                Some(at.clone()),
                format!("expected an object, found {}", crate::value::describe(v)),
            )
        })?;
        if rec.get(key).is_some() {
            return Err(Error::input(
                file.rel.clone(),
                None,
                Some(at),
                format!("the record already has a field `{key}`; choose another `records_key`"),
            ));
        }
        let mut row = crate::value::Record::with_capacity(rec.0.len() + 1);
        row.insert(key, Value::from(&**k));
        for (f, x) in rec.0.iter() {
            row.insert(f.clone(), x.clone());
        }
        rows.push(row.into_value());
    }
    Ok(Value::from(rows))
}

/// `doc` without the value at the pointer `tokens` (each an object key):
/// the records removed from their parent object, the parents kept. A pointer
/// that passes through an array, or the whole document (no tokens), leaves
/// the document as it is.
fn without_records(doc: &Value, tokens: &[String]) -> Value {
    let Some((first, rest)) = tokens.split_first() else {
        return doc.clone();
    };
    let Some(rec) = as_record(doc) else {
        return doc.clone();
    };
    let mut m = rec.clone();
    if rest.is_empty() {
        m.0.shift_remove(first.as_str());
    } else if let Some(child) = rec.get(first) {
        let inner = without_records(child, rest);
        m.insert(first.as_str(), inner);
    }
    m.into_value()
}

fn unescape_pointer(token: &str) -> String {
    token.replace("~1", "/").replace("~0", "~")
}

/// Follows an RFC 6901 JSON pointer (`""` is the whole document).
pub fn lookup_pointer(doc: &Value, pointer: &str) -> Option<Value> {
    if pointer.is_empty() {
        return Some(doc.clone());
    }
    let mut cur = doc.clone();
    for token in pointer.strip_prefix('/')?.split('/') {
        let token = unescape_pointer(token);
        cur = match cur.kind() {
            minijinja::value::ValueKind::Seq => cur.get_item_by_index(token.parse().ok()?).ok()?,
            _ => as_record(&cur)?.get(&token)?.clone(),
        };
        if cur.is_undefined() {
            return None;
        }
    }
    Some(cur)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_pointer_walks_objects_and_arrays() {
        let doc = json::parse(br#"{"a": {"b": [10, 20]}}"#).unwrap();
        assert_eq!(lookup_pointer(&doc, "/a/b/1"), Some(Value::from(20)));
        assert_eq!(lookup_pointer(&doc, "/a/c"), None);
    }

    #[test]
    fn metadata_of_a_nested_pointer_leaves_out_the_records_only() {
        let doc = json::parse(br#"{"x": {"runs": [1], "seed": 7}, "y": 5}"#).unwrap();
        let tokens = ["x".to_string(), "runs".to_string()];
        let meta = without_records(&doc, &tokens);
        assert_eq!(
            serde_json::to_string(&meta).unwrap(),
            r#"{"x":{"seed":7},"y":5}"#
        );
        // Through an array the document is kept whole.
        let doc = json::parse(br#"{"x": [{"runs": [1]}]}"#).unwrap();
        let tokens = ["x".to_string(), "0".to_string(), "runs".to_string()];
        assert_eq!(
            serde_json::to_string(&without_records(&doc, &tokens)).unwrap(),
            r#"{"x":[{"runs":[1]}]}"#
        );
    }
}

//! `_source` (where a row came from, and its file's metadata) and the
//! values that cannot be read: `_source.meta` of a row without a JSON
//! document, `meta.NAME` of a source of several documents. Reading one is
//! an error with a message of its own, never one file's data or nothing.

use std::ops::Range;
use std::sync::Arc;

use minijinja::value::{Enumerator, Object, ObjectRepr};

use crate::error::Error;
use crate::spec::LoadedSpec;
use crate::value::{FileMeta, Origin, Value};

/// `_source`: where a row came from, and its file's metadata.
#[derive(Debug)]
pub(super) struct SourceObj(pub(super) Origin);

impl Object for SourceObj {
    fn repr(self: &Arc<Self>) -> ObjectRepr {
        ObjectRepr::Map
    }

    fn get_value(self: &Arc<Self>, key: &Value) -> Option<Value> {
        self.get_value_by_str(key.as_str()?)
    }

    fn get_value_by_str(self: &Arc<Self>, key: &str) -> Option<Value> {
        let o = &self.0;
        match key {
            "path" => Some(Value::from(&*o.path)),
            "line" => Some(Value::from(o.line)),
            "meta" => Some(match o.meta.as_deref() {
                Some(FileMeta::Document(m)) => m.clone(),
                Some(FileMeta::Several(a, b)) => unreadable(
                    format!(
                        "`_source.meta`: this row is a group of rows from more than one file ({a}, {b}); derive what it needs from `_source.meta` before the `group` step"
                    ),
                    None,
                ),
                None => unreadable(
                    "`_source.meta`: only rows of JSON documents (`format = \"json\"`) have metadata, and this row is not from one".to_string(),
                    None,
                ),
            }),
            _ => None,
        }
    }

    fn enumerate(self: &Arc<Self>) -> Enumerator {
        // `meta` is listed only when it can be read: printing `_source`
        // whole stays possible for any row.
        let mut keys = vec![Value::from("path"), Value::from("line")];
        if matches!(self.0.meta.as_deref(), Some(FileMeta::Document(_))) {
            keys.push(Value::from("meta"));
        }
        Enumerator::Values(keys)
    }
}

/// Why a value cannot be read, carried by an invalid minijinja value (see
/// [`unreadable`]) as the source of its error.
#[derive(Debug)]
pub(super) struct Unreadable {
    /// What the user reads.
    pub(super) message: String,
    /// For a mistake of the spec (`meta.NAME`): the spec's text, so the
    /// error points at the expression or template that reads it.
    spec: Option<Arc<str>>,
}

impl std::fmt::Display for Unreadable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Unreadable {}

/// A value that any expression reading it fails on with `message`: an
/// attribute or item of it, a test of it, printing it. An object cannot
/// fail a lookup, but minijinja's invalid values fail where they are read.
fn unreadable(message: String, spec: Option<Arc<str>>) -> Value {
    let e = minijinja::Error::new(minijinja::ErrorKind::InvalidOperation, message.clone());
    Value::from(e.with_source(Unreadable { message, spec }))
}

/// The [`Unreadable`] behind an evaluation's error, if that is its cause.
pub(super) fn unreadable_of(e: &minijinja::Error) -> Option<&Unreadable> {
    let mut cause = std::error::Error::source(e);
    while let Some(c) = cause {
        if let Some(u) = c.downcast_ref::<Unreadable>() {
            return Some(u);
        }
        cause = c.source();
    }
    None
}

/// The error of an evaluation that read `meta.NAME` of a source of several
/// files: at `span`, the expression or template in the spec.
pub(super) fn spec_mistake(e: &minijinja::Error, span: &Range<usize>) -> Option<Error> {
    let u = unreadable_of(e)?;
    Some(Error::Spec {
        path: crate::spec::SPEC_FILE.to_string(),
        source_text: u.spec.as_deref()?.to_string(),
        span: span.clone(),
        message: u.message.clone(),
    })
}

/// `meta.NAME` of a source that failed to load with `error`: reading it
/// fails with that error, and nothing else does.
pub fn broken_meta(error: &str) -> Value {
    unreadable(error.to_string(), None)
}

/// `meta.NAME` of source `name`, which read several JSON documents
/// (`files`): reading it is an error naming them (the first five), since
/// each has its own metadata.
pub fn several_documents(spec: &LoadedSpec, name: &str, files: &[&str]) -> Value {
    const LISTED: usize = 5;
    let mut list = files[..files.len().min(LISTED)].join(", ");
    if files.len() > LISTED {
        list.push_str(&format!(" and {} more", files.len() - LISTED));
    }
    let name = crate::error::shown(name);
    unreadable(
        format!(
            "meta.{name}: source `{name}` reads {} files ({list}); each row has its own file's metadata as `_source.meta`, or read one file",
            files.len()
        ),
        Some(Arc::from(spec.text.as_str())),
    )
}

#[cfg(test)]
mod tests {
    use super::super::tests::{eval, row, spec};
    use super::*;
    use crate::expr::{Expr, Globals};

    #[test]
    fn a_row_without_a_document_lists_no_meta_and_refuses_to_read_it() {
        let keys = eval("_source | list", r#"{"a": 1}"#).unwrap();
        assert_eq!(keys.to_string(), "['path', 'line']");
        let e = eval("_source.meta is defined", r#"{"a": 1}"#).unwrap_err();
        assert_eq!(
            e.to_string(),
            "f.jsonl:7: cannot evaluate `_source.meta is defined`: `_source.meta`: only rows of JSON documents (`format = \"json\"`) have metadata, and this row is not from one"
        );
    }

    #[test]
    fn a_row_of_a_document_reads_its_files_meta() {
        let meta = crate::sources::json::parse(br#"{"config": {"loaders": 8}}"#).unwrap();
        let mut r = row(r#"{"ms": 3.5}"#);
        r.origin.meta = Some(Arc::new(FileMeta::Document(meta)));
        let s = spec();
        let g = Arc::new(Globals::default());
        let e = Expr::compile_str(&s, "_source.meta['config'].loaders * ms", 0..0).unwrap();
        assert_eq!(e.eval_row(&g, &r).unwrap(), Value::from(28.0));
        let keys = Expr::compile_str(&s, "_source | list", 0..0).unwrap();
        assert_eq!(
            keys.eval_row(&g, &r).unwrap().to_string(),
            "['path', 'line', 'meta']"
        );
    }

    #[test]
    fn a_missing_key_of_a_rows_meta_names_the_keys_and_the_closest() {
        let meta = crate::sources::json::parse(br#"{"config": {"loaders": 8}}"#).unwrap();
        let mut r = row(r#"{"ms": 3.5}"#);
        r.origin.meta = Some(Arc::new(FileMeta::Document(meta)));
        let s = spec();
        let g = Arc::new(Globals::default());
        let err = |text: &str| {
            let e = Expr::compile_str(&s, text, 0..0).unwrap();
            e.eval_row(&g, &r).unwrap_err().to_string()
        };
        assert_eq!(
            err("_source.meta.confg.loaders"),
            "f.jsonl:7: cannot evaluate `_source.meta.confg.loaders`: `confg` is missing from f.jsonl (`_source.meta` has: config); did you mean `config`?"
        );
        assert_eq!(
            err("_source.meta.config.loadrs * 2"),
            "f.jsonl:7: cannot evaluate `_source.meta.config.loadrs * 2`: `loadrs` is missing from f.jsonl (`_source.meta.config` has: loaders); did you mean `loaders`?"
        );
    }
}

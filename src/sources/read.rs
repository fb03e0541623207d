//! Reading a source's rows: inline rows, or every file it names, in
//! batches handed to the caller's work in file order.

use std::sync::Arc;

use toml::Spanned;

use super::{
    Format, Loaded, SourceFile, batches, csvfile, document, json, parquetfile, read_in_part,
    resolve_noting,
};
use crate::error::{Error, Result};
use crate::spec::{LoadedSpec, SourceSpec};
use crate::value::{Origin, Record, Row};

/// Reads source `name` row by row, handing each row to `each` without
/// keeping it (the returned [`Loaded`] has no rows): a table whose first
/// steps work row by row never holds the whole file.
///
/// With a `projection`, JSONL records are built with only the fields it
/// names (see [`json::Projection`]).
pub fn stream(
    spec: &LoadedSpec,
    name: &str,
    src: &Spanned<SourceSpec>,
    projection: Option<&json::Projection>,
    each: &mut dyn FnMut(Row) -> Result<()>,
) -> Result<Loaded> {
    stream_with(
        spec,
        name,
        src,
        projection,
        &|rows| Ok(rows),
        None,
        &mut |rows: Vec<Row>| rows.into_iter().try_for_each(&mut *each),
    )
}

/// Work on a batch of whole lines of a JSONL file (the file, the bytes, the
/// number of the first line): the number of records read and the result.
pub type LinesFn<'f, T> = dyn Fn(&SourceFile, &[u8], u64) -> Result<(u64, T)> + Sync + 'f;

/// Reads source `name` in batches of rows: `work` runs on each batch (in
/// parallel for JSONL files, see `batches`), `each` consumes the results
/// in file order. The returned [`Loaded`] has no rows. With `lines`, a
/// JSONL file's batches go to it as text instead (it parses them itself).
pub fn stream_with<T: Send>(
    spec: &LoadedSpec,
    name: &str,
    src: &Spanned<SourceSpec>,
    projection: Option<&json::Projection>,
    work: &(dyn Fn(Vec<Row>) -> Result<T> + Sync),
    lines: Option<&LinesFn<'_, T>>,
    each_batch: &mut dyn FnMut(T) -> Result<()>,
) -> Result<Loaded> {
    const CHUNK: usize = 4096;
    // A Parquet row is a map of records: smaller batches stay in cache
    // (fig5's table from Parquet: 7.4 s and 39 MiB, against 8.5 s and 56
    // MiB in batches of 4,096).
    const PARQUET_CHUNK: usize = 1024;
    let mut pending: Vec<Row> = Vec::new();
    let flush =
        |pending: &mut Vec<Row>, each_batch: &mut dyn FnMut(T) -> Result<()>| -> Result<()> {
            if pending.is_empty() {
                return Ok(());
            }
            each_batch(work(std::mem::take(pending))?)
        };
    let s = src.get_ref();
    let mut out = Loaded::default();
    if let Some(rows) = &s.rows {
        if s.path.is_some() {
            return Err(spec.error(src.span(), "a source has either `path` or `rows`, not both"));
        }
        pending = inline_rows(name, rows);
        out.files_read = pending.len() as u64;
        flush(&mut pending, each_batch)?;
        return Ok(out);
    }
    let Some(files) = files_to_read(spec, name, src, &mut out)? else {
        return Ok(out);
    };
    let mut documents = 0usize;
    let mut set = super::dataset::Dataset::new();
    for file in &files {
        let mut count = 0u64;
        match file.format {
            Format::Jsonl => {
                if projection.is_some() {
                    read_in_part(file);
                }
                count = match lines {
                    Some(f) => batches::stream_batches(file, &|b, l| f(file, b, l), each_batch)?,
                    None => batches::stream_jsonl(file, projection, work, each_batch)?,
                }
            }
            Format::Csv | Format::Json | Format::Parquet => {
                // (A CSV file's rows are trimmed after they are read.)
                if projection.is_some() && file.format != Format::Json {
                    read_in_part(file);
                }
                let mut counted = |r: Row| -> Result<()> {
                    count += 1;
                    pending.push(r);
                    let chunk = match file.format {
                        Format::Parquet => PARQUET_CHUNK,
                        _ => CHUNK,
                    };
                    if pending.len() >= chunk {
                        flush(&mut pending, each_batch)?;
                    }
                    Ok(())
                };
                if file.format == Format::Csv {
                    csvfile::read_csv(file, &mut counted)?;
                } else if file.format == Format::Parquet {
                    // Rows in skipped row groups count: they are the file's.
                    let rows = parquetfile::read_parquet(file, projection, &mut set, &mut counted)?;
                    count = rows;
                } else {
                    let pointer = s.records.as_ref().map(|p| p.get_ref().as_str());
                    let key = s.records_key.as_ref().map(|k| k.get_ref().as_str());
                    let meta = document::read_json_document(file, pointer, key, &mut counted)?;
                    documents += 1;
                    // One document's metadata is the source's; of several,
                    // none is (each row has its own file's as `_source.meta`).
                    out.meta = (documents == 1).then_some(meta);
                }
                flush(&mut pending, each_batch)?;
            }
        }
        out.files_read += count;
        if count == 0 {
            out.notes.push(no_records(file));
        }
    }
    if set.skipped > 0 {
        out.notes.push(format!(
            "{} of {} row groups skipped: their statistics or partition folders rule out every row the first filters keep (ARTIFACT_NO_SKIP=1 reads them)",
            set.skipped, set.groups
        ));
    }
    out.files = files;
    Ok(out)
}

/// The inline rows of source `name` (`rows = [...]` in the spec).
fn inline_rows(name: &str, rows: &[toml::Table]) -> Vec<Row> {
    let mut pending = Vec::with_capacity(rows.len());
    let origin_path: Arc<str> = Arc::from(format!("artifact.toml [sources.{name}]"));
    for (i, table) in rows.iter().enumerate() {
        let mut rec = Record::with_capacity(table.len());
        for (k, v) in table {
            rec.insert(k.as_str(), crate::value::toml_to_value(v));
        }
        pending.push(Row {
            extra: Default::default(),
            fields: Arc::new(rec),
            origin: Origin {
                path: origin_path.clone(),
                line: 0,
                record: Some((Arc::from("rows"), i as u64)),
                meta: None,
                partial: false,
            },
        });
    }
    pending
}

/// The files of source `name`, checked against what its `records` and
/// `records_key` need; `None` when it is optional and none exists (`out`
/// then says which are missing). Errors: no `path`, a file missing from a
/// source that is not optional, `records` or `records_key` on a file that
/// is no JSON document.
fn files_to_read(
    spec: &LoadedSpec,
    name: &str,
    src: &Spanned<SourceSpec>,
    out: &mut Loaded,
) -> Result<Option<Vec<SourceFile>>> {
    let s = src.get_ref();
    if s.path.is_none() {
        return Err(spec.error(
            src.span(),
            format!("source `{name}` needs `path` or `rows`"),
        ));
    }
    let (files, missing) = resolve_noting(spec, src, &mut out.notes)?;
    if !missing.is_empty() {
        if s.optional {
            out.missing = Some(format!(
                "optional source `{name}`: {} not found",
                crate::error::list_of(&missing, String::clone)
            ));
            if files.is_empty() {
                return Ok(None);
            }
        } else {
            return Err(Error::input(
                missing[0].clone(),
                None,
                None,
                "file not found (mark the source `optional = true` if what needs it may be skipped without it)",
            ));
        }
    }
    if let Some(r) = &s.records
        && let Some(f) = files.iter().find(|f| f.format != Format::Json)
    {
        return Err(spec.error(
            r.span(),
            format!(
                "`records` applies only to JSON documents; `{}` is read as {}",
                f.rel,
                f.format.name()
            ),
        ));
    }
    // A field named "" could be read by no expression.
    if let Some(k) = &s.records_key
        && k.get_ref().is_empty()
    {
        return Err(spec.error(
            k.span(),
            "`records_key` is the name of the field that gets each record's key; it cannot be empty",
        ));
    }
    if let Some(k) = &s.records_key
        && files.iter().any(|f| f.format != Format::Json)
    {
        return Err(spec.error(k.span(), "`records_key` applies only to JSON documents"));
    }
    Ok(Some(files))
}

/// The note for a file without records: "empty file" only when it is (a
/// header, a blank JSONL or an empty `records` array is a file without
/// records).
fn no_records(file: &SourceFile) -> String {
    let empty = std::fs::metadata(&file.abs).is_ok_and(|m| m.len() == 0);
    let why = if empty { " (empty file)" } else { "" };
    format!("{}: no records{why}", file.rel)
}

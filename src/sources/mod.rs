//! Sources: data files read into rows.
//!
//! Formats: JSONL (one object per line), JSON documents (records found by
//! a JSON pointer: an array or, with `records_key`, a mapping of records;
//! the rest of the document is the file's metadata), CSV and TSV (a
//! header row; cells that parse as numbers are numbers, empty cells are
//! null; delimiter, comments, preamble: see [`csvfile`]), Parquet (see
//! [`parquetfile`]), and inline `rows` in the spec. Any file may be zstd- or gzip-compressed (see
//! [`compress`]).
//!
//! A JSON document's metadata (the document without its records array, or
//! the whole document when the pointer passes through an array) is shared
//! by every row of the file through one `Arc` ([`Origin::meta`], read as
//! `_source.meta`), so a source of many documents gives each row its own
//! file's. It is also the source's `meta` ([`Loaded::meta`], `meta.NAME`)
//! when the source read one document; of several, none is. JSONL, CSV and
//! inline rows have no metadata.
//!
//! Policies, each deliberate:
//! - a UTF-8 BOM at the start and CRLF line ends are accepted; blank lines
//!   are skipped (as the seed scripts do);
//! - a line that is not valid JSON, or not an object, is an error naming
//!   file, line and column (Python reports "line 1" of the string it parsed);
//! - a missing file is an error unless the source is `optional`, in which
//!   case the run reports the skip;
//! - an empty or truncated compressed file is an error naming it;
//! - a line is valid or not whatever a table reads of it: every path (the
//!   whole parse, the projected one, the tape) checks the whole line: JSON
//!   syntax, the UTF-8 of every string, at most 127 levels of nesting
//!   (serde_json's limit), no key repeated in any object, read or skipped;
//! - a CSV header that repeats a column name is an error naming both, a
//!   row of more or fewer cells than the header one naming its line;
//! - memory per read is bounded by the source's `max_line` (see [`limit`]):
//!   a JSONL line (plain or compressed: batches of whole lines of 256 KiB,
//!   then of 1 MiB; a longer line grows its own buffer up to the limit and
//!   no further), a
//!   CSV record, a JSON document (read whole). Past it, an error names the
//!   file, the line and the byte offset. A Parquet file has no lines: see
//!   [`parquetfile`] for what its read holds.

pub mod batches;
pub mod compress;
pub mod csvfile;
mod dataset;
mod document;
pub mod globs;
pub mod hive;
pub mod json;
pub mod limit;
pub mod parquetcell;
mod parquetcheck;
mod parquetcol;
pub mod parquetfile;
pub mod prune;
mod read;
pub mod tape;

use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use toml::Spanned;

use crate::error::{Error, Result, shown};
use crate::spec::{LoadedSpec, SourceSpec};
use crate::value::{Origin, Record, Row, Value, as_record};
pub use compress::Compression;
pub use read::{LinesFn, stream, stream_with};

/// The file formats a source can have.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// One JSON object per line.
    Jsonl,
    /// One JSON document.
    Json,
    /// Comma-separated values with a header row (or another delimiter:
    /// TSV is CSV with a tab; see [`csvfile`]).
    Csv,
    /// Apache Parquet (binary, columnar; see [`parquetfile`]).
    Parquet,
}

impl Format {
    /// Its name in messages: `JSONL`, `JSON`, `CSV`, `Parquet`.
    pub fn name(self) -> &'static str {
        match self {
            Format::Jsonl => "JSONL",
            Format::Json => "JSON",
            Format::Csv => "CSV",
            Format::Parquet => "Parquet",
        }
    }
}

/// One file of a source.
#[derive(Debug, Clone)]
pub struct SourceFile {
    /// The path as shown to the user (relative to the spec's folder, its
    /// control characters escaped by [`shown`]): in messages, notes, rows'
    /// `_source.path` and the lock's keys.
    pub rel: String,
    /// The path on disk, by which the file is read.
    pub abs: PathBuf,
    /// Its format.
    pub format: Format,
    /// How it is compressed (by its name, or else its first bytes).
    pub compression: Compression,
    /// The longest line, CSV record or JSON document read, in bytes (the
    /// source's `max_line`, see [`limit`]).
    pub max_line: u64,
    /// For a CSV file: how its text is read (see [`csvfile::dialect`]).
    pub dialect: Option<Arc<csvfile::Dialect>>,
    /// For a Parquet file of a partitioned dataset: the fields its
    /// `key=value` folders give every row (see [`hive`]).
    pub partition: Option<Arc<hive::Partition>>,
}

/// What a source yields.
#[derive(Debug, Default)]
pub struct Loaded {
    /// All rows of all files, in file order then line order.
    pub rows: Vec<Row>,
    /// For a source of one JSON document: the document without its
    /// records (`meta.NAME`). `None` when it read several documents: each
    /// row then carries its own file's as [`Origin::meta`] (`_source.meta`).
    pub meta: Option<Value>,
    /// The files read.
    pub files: Vec<SourceFile>,
    /// Why the source is unavailable (an optional source whose file is missing).
    pub missing: Option<String>,
    /// Things the user should hear about (empty files, ...).
    pub notes: Vec<String>,
    /// Rows read from files (and inline rows).
    pub files_read: u64,
}

/// The format a file name says, whatever its compression.
pub fn format_of(rel: &str) -> Option<Format> {
    let lower = rel.to_ascii_lowercase();
    let stem = Compression::of_name(&lower).0;
    let format = if stem.ends_with(".jsonl") || stem.ends_with(".ndjson") {
        Format::Jsonl
    } else if stem.ends_with(".json") {
        Format::Json
    } else if stem.ends_with(".csv") || stem.ends_with(".tsv") {
        Format::Csv
    } else if stem.ends_with(".parquet") {
        Format::Parquet
    } else {
        return None;
    };
    Some(format)
}

pub(crate) fn path_list(spec: &LoadedSpec, raw: &crate::spec::Raw) -> Result<Vec<String>> {
    match raw.get_ref() {
        toml::Value::String(s) => Ok(vec![s.clone()]),
        toml::Value::Array(items) => items
            .iter()
            .map(|v| match v {
                toml::Value::String(s) => Ok(s.clone()),
                _ => Err(spec.error(raw.span(), "`path` must be a string or a list of strings")),
            })
            .collect(),
        _ => Err(spec.error(raw.span(), "`path` must be a string or a list of strings")),
    }
}

/// Resolves a source's files (expanding globs, in sorted order). Missing
/// files are returned separately so the caller can apply `optional`.
pub fn resolve(
    spec: &LoadedSpec,
    src: &Spanned<SourceSpec>,
) -> Result<(Vec<SourceFile>, Vec<String>)> {
    resolve_noting(spec, src, &mut Vec::new())
}

/// [`resolve`], adding to `notes` what a glob's walk skipped (a link back
/// to a folder it is in, a folder it cannot read; see [`globs`]).
pub fn resolve_noting(
    spec: &LoadedSpec,
    src: &Spanned<SourceSpec>,
    notes: &mut Vec<String>,
) -> Result<(Vec<SourceFile>, Vec<String>)> {
    let s = src.get_ref();
    let max_line = limit::max_line(spec, s)?;
    if let (Some(m), Some(_)) = (&s.max_line, &s.rows) {
        return Err(spec.error(
            m.span(),
            "`max_line` bounds what is read from files; this source has inline `rows`",
        ));
    }
    let csv = csvfile::dialect::dialect(spec, s)?;
    let Some(raw) = &s.path else {
        return Ok((Vec::new(), Vec::new()));
    };
    let explicit = match &s.format {
        None => None,
        Some(f) => Some(match f.get_ref().as_str() {
            "jsonl" | "ndjson" => Format::Jsonl,
            "json" => Format::Json,
            "csv" | "tsv" => Format::Csv,
            "parquet" => Format::Parquet,
            other => {
                return Err(spec.error(
                    f.span(),
                    format!("unknown format `{other}` (expected jsonl, json, csv, tsv or parquet)"),
                ));
            }
        }),
    };
    let mut files = Vec::new();
    let mut missing = Vec::new();
    for rel in path_list(spec, raw)? {
        let rels: Vec<(String, PathBuf)> = if globs::is_glob(&rel) {
            // Only the pattern is a glob: the spec's folder is as it is.
            let found = globs::expand(&spec.root, &rel).map_err(|e| {
                spec.error(raw.span(), format!("invalid glob `{}`: {e}", shown(&rel)))
            })?;
            notes.extend(found.notes);
            let found = found.files;
            if found.is_empty() {
                missing.push(format!("{} (no file matches)", shown(&rel)));
            }
            found
        } else {
            let abs = spec.root.join(&rel);
            if abs.is_dir() {
                return Err(spec.error(
                    raw.span(),
                    format!(
                        "`{}` is a folder; name its files with a glob, e.g. `{}/**/*.parquet` for a partitioned Parquet dataset",
                        shown(&rel),
                        shown(rel.trim_end_matches('/'))
                    ),
                ));
            }
            vec![(rel.clone(), abs)]
        };
        let mut parts = dataset_partitions(&rel, &rels, explicit)?.into_iter();
        for (real, abs) in rels {
            let partition = parts.next().flatten();
            // The name every message, note and lock key shows; the file is
            // opened by `abs`. A name matched by a glob is whatever is on
            // disk: `x\n\nall figures ... current\x1b[8m.csv` printed as it
            // is would fake lines of the report.
            let rel = shown(&real);
            if !abs.is_file() {
                // CSV options on a missing JSONL file are still an error.
                if let Some(f) = explicit.or_else(|| format_of(&real)) {
                    csvfile::dialect::of_file(spec, s, &csv, f, &real, &rel)?;
                }
                missing.push(rel);
                continue;
            }
            let named = Compression::of_name(&real.to_ascii_lowercase()).1;
            let format = match (explicit, format_of(&real)) {
                (Some(f), _) => f,
                (None, Some(f)) => f,
                (None, None) => {
                    return Err(spec.error(
                        raw.span(),
                        format!(
                            "cannot tell the format of `{rel}` from its extension; set `format`"
                        ),
                    ));
                }
            };
            if let (Format::Parquet, Some(m)) = (format, &s.max_line) {
                return Err(spec.error(
                    m.span(),
                    format!("`max_line` bounds lines of text; `{rel}` is a Parquet file, read one row group at a time"),
                ));
            }
            let compression = named.unwrap_or_else(|| Compression::sniff(&abs));
            let dialect = csvfile::dialect::of_file(spec, s, &csv, format, &real, &rel)?;
            files.push(SourceFile {
                rel,
                abs,
                format,
                compression,
                max_line,
                dialect,
                partition,
            });
        }
    }
    Ok((files, missing))
}

/// The partition of each of `rels`, the files glob `rel` matched (see
/// [`hive`]): only Parquet files have one, and only below the glob's
/// literal folder. Errors: a bad `key=value` folder, files partitioned
/// differently (naming the file).
fn dataset_partitions(
    rel: &str,
    rels: &[(String, PathBuf)],
    explicit: Option<Format>,
) -> Result<Vec<Option<Arc<hive::Partition>>>> {
    let parquet = |real: &str| explicit.or_else(|| format_of(real)) == Some(Format::Parquet);
    if !globs::is_glob(rel) || !rels.iter().any(|(real, _)| parquet(real)) {
        return Ok(vec![None; rels.len()]);
    }
    let (folder, _) = globs::split(rel);
    let base = folder.trim_start_matches("./").trim_end_matches('/');
    let shown_rels: Vec<String> = rels.iter().map(|(real, _)| shown(real)).collect();
    let pairs: Vec<(usize, (&str, &str))> = rels
        .iter()
        .enumerate()
        .filter(|(_, (real, _))| parquet(real))
        .map(|(i, (real, _))| {
            let real = real.trim_start_matches("./");
            let below = match base {
                "" | "." => real,
                b => real
                    .strip_prefix(b)
                    .map_or(real, |r| r.trim_start_matches('/')),
            };
            (i, (shown_rels[i].as_str(), below))
        })
        .collect();
    let files: Vec<(&str, &str)> = pairs.iter().map(|(_, p)| *p).collect();
    let found = hive::partitions(&files)
        .map_err(|(file, message)| Error::input(file, None, None, message))?;
    let mut out = vec![None; rels.len()];
    for ((i, _), p) in pairs.iter().zip(found) {
        out[*i] = p;
    }
    Ok(out)
}

/// Loads source `name`: every file, or its inline rows.
pub fn load(spec: &LoadedSpec, name: &str, src: &Spanned<SourceSpec>) -> Result<Loaded> {
    let mut rows = Vec::new();
    // Every row is held: counted against the memory cap as it comes.
    // (The error's context names the source.)
    let mut held = crate::value::held::Held::new("the source");
    let mut out = stream(spec, name, src, None, &mut |r| {
        held.add(&r)?;
        rows.push(r);
        Ok(())
    })?;
    out.rows = rows;
    Ok(out)
}

/// The JSONL, CSV and Parquet files whose records were read in part (a
/// projection, or rows trimmed to the fields read), by their shown path
/// ([`SourceFile::rel`], a row's `origin.path`).
static PARTIAL: std::sync::Mutex<Vec<SourceFile>> = std::sync::Mutex::new(Vec::new());

/// Notes that `file`'s records are read in part, for [`whole_record`].
fn read_in_part(file: &SourceFile) {
    crate::value::install_whole_record(whole_record);
    if let Ok(mut files) = PARTIAL.lock() {
        match files.iter_mut().find(|f| f.rel == file.rel) {
            Some(f) => *f = file.clone(),
            None => files.push(file.clone()),
        }
    }
}

/// A reader's callback for each row.
type Each<'a> = &'a mut dyn FnMut(Row) -> Result<()>;

/// The whole record of a row read in part ([`Origin::partial`]), read
/// again from its file: a message listing a row's fields must list what
/// the data holds, not what a table's projection kept (`fields: none`
/// beside a field the file has). `None` when it cannot be read.
pub fn whole_record(origin: &Origin) -> Option<Record> {
    let file = PARTIAL
        .lock()
        .ok()?
        .iter()
        .find(|f| *f.rel == *origin.path)?
        .clone();
    // A CSV record or a Parquet row: its file read again as a source
    // reads it, up to that row (its line, or its row number).
    let row_at = |read: &dyn Fn(Each<'_>) -> Result<()>| {
        let mut found = None;
        let _ = read(&mut |r: Row| match r.origin.line == origin.line {
            true => {
                found = Some(r);
                Err(Error::msg("found"))
            }
            false => Ok(()),
        });
        found.map(|r: Row| (*r.flat_fields()).clone())
    };
    match file.format {
        Format::Csv => return row_at(&|each| csvfile::read_csv(&file, each)),
        Format::Parquet => {
            return row_at(&|each| {
                let mut set = dataset::Dataset::new();
                parquetfile::read_parquet(&file, None, &mut set, each).map(|_| ())
            });
        }
        Format::Jsonl | Format::Json => {}
    }
    let mut text = Vec::new();
    // A message is made once: reading the file up to the line is fine.
    let mut reader = std::io::BufReader::new(open(&file).ok()?);
    let mut line_no = 0u64;
    loop {
        text.clear();
        if std::io::BufRead::read_until(&mut reader, b'\n', &mut text).ok()? == 0 {
            return None;
        }
        line_no += 1;
        if line_no == origin.line {
            break;
        }
    }
    let (_, line) = batches::lines(&text, origin.line).next()?;
    parse_line(&file.rel, origin.line, line).ok()
}

/// The fields of every row of the file a row read in part comes from
/// (`origin`), when the file gives every row the same ones (a CSV header,
/// a Parquet schema): that row read again whole ([`whole_record`]). `None`
/// for a row read whole, or from a JSONL file (each line has its own).
pub fn file_fields(origin: &Origin) -> Option<Vec<Arc<str>>> {
    let format = PARTIAL
        .lock()
        .ok()?
        .iter()
        .find(|f| *f.rel == *origin.path)?
        .format;
    if !origin.partial || !matches!(format, Format::Csv | Format::Parquet) {
        return None;
    }
    Some(whole_record(origin)?.0.keys().cloned().collect())
}

/// Opens a file for streaming, through a decoder when compressed.
pub fn open(file: &SourceFile) -> Result<Box<dyn Read + Send>> {
    open_counted(file, None)
}

/// Like [`open`]; `count` receives the bytes read from the file itself
/// (compressed bytes for a compressed file), for progress.
pub fn open_counted(
    file: &SourceFile,
    count: Option<std::sync::Arc<std::sync::atomic::AtomicU64>>,
) -> Result<Box<dyn Read + Send>> {
    let f = File::open(&file.abs).map_err(|e| Error::io(&file.abs, e))?;
    let f: Box<dyn Read + Send> = match count {
        Some(c) => Box::new(crate::progress::Counted::new(f, c)),
        None => Box::new(f),
    };
    compress::decoder(file, f)
}

/// Parses one JSONL line into a record, or an error naming file:line.
pub fn parse_line(rel: &str, line_no: u64, line: &[u8]) -> Result<Record> {
    record_or_error(rel, line_no, line, json::parse(line))
}

/// Like [`parse_line`], building only the projected fields.
pub fn parse_line_projected(
    rel: &str,
    line_no: u64,
    line: &[u8],
    p: &json::Projection,
) -> Result<Record> {
    record_or_error(rel, line_no, line, json::parse_projected(line, p))
}

fn record_or_error(
    rel: &str,
    line_no: u64,
    line: &[u8],
    parsed: std::result::Result<Value, json::ParseError>,
) -> Result<Record> {
    match parsed {
        Ok(v) => match as_record(&v) {
            Some(r) => Ok(r.clone()),
            None => Err(Error::input(
                rel.to_string(),
                Some(line_no),
                None,
                format!(
                    "expected a JSON object, found {}",
                    crate::value::describe(&v)
                ),
            )),
        },
        Err(e) => {
            // Escaped: a log line's ESC sequences must not reach the terminal.
            let head = crate::error::shown(&String::from_utf8_lossy(&line[..line.len().min(60)]));
            let ellipsis = if line.len() > 60 { "..." } else { "" };
            Err(Error::input(
                rel.to_string(),
                Some(line_no),
                None,
                format!(
                    "invalid JSON at column {}: {} (line starts `{head}{ellipsis}`)",
                    e.column, e.message
                ),
            ))
        }
    }
}

pub use document::lookup_pointer;

/// Whether `path` is inside the spec's folder tree (for reports).
pub fn display_path(root: &Path, abs: &Path) -> String {
    abs.strip_prefix(root)
        .unwrap_or(abs)
        .to_string_lossy()
        .replace('\\', "/")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_are_inferred_from_extensions() {
        assert_eq!(format_of("a/results.jsonl.zst"), Some(Format::Jsonl));
        assert_eq!(format_of("a/results.tsv.GZ"), Some(Format::Csv));
        assert_eq!(format_of("x.json"), Some(Format::Json));
        assert_eq!(format_of("x.CSV"), Some(Format::Csv));
        assert_eq!(format_of("x.txt"), None);
        assert_eq!(format_of("x.gz"), None);
        assert_eq!(format_of("s.Parquet"), Some(Format::Parquet));
    }
}

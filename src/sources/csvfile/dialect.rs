//! A CSV source's options as written in `[sources.NAME]`: `delimiter`,
//! `trim`, `comment`, `skip` and `header`, checked at their spans.
//!
//! Written on a source that is not CSV (a JSONL or JSON file, inline
//! `rows`, `format = "json"`), any of them is an error at its span: an
//! option that cannot apply is never ignored silently.

use std::ops::Range;
use std::sync::Arc;

use crate::error::{Error, Result};
use crate::sources::{Compression, Format};
use crate::spec::{LoadedSpec, SourceSpec};

/// The longest delimiter, in bytes (each byte of a line is matched against
/// it: a longer one is no real file's).
const MAX_DELIMITER: usize = 16;

/// How a CSV file's text is read.
#[derive(Debug, Clone, Default)]
pub struct Dialect {
    /// `delimiter` as written, if it is.
    pub(crate) written: Option<Vec<u8>>,
    /// Whether the file is TSV (`.tsv`, or `format = "tsv"`): a tab
    /// separates cells unless `delimiter` says otherwise.
    pub tab: bool,
    /// Strip spaces and tabs around header names and cells, quoted ones
    /// included (`trim`); spaces before a quote do not keep it from
    /// opening a quoted cell (`a, "b, c"` is two cells).
    pub trim: bool,
    /// Lines starting with this are skipped (`comment`).
    pub comment: Option<Vec<u8>>,
    /// Lines skipped at the start of the file, before the header (`skip`).
    pub skip: u64,
    /// The column names when the file has no header row (`header`).
    pub header: Option<Vec<Arc<str>>>,
}

impl Dialect {
    /// The bytes between two cells: `delimiter`, or a tab for TSV, or `,`.
    pub fn delimiter(&self) -> &[u8] {
        match &self.written {
            Some(d) => d,
            None if self.tab => b"\t",
            None => b",",
        }
    }

    /// The byte the `csv` crate reads cells apart by: the delimiter, or
    /// `0xFF` for one of several bytes (see `stream`).
    pub(crate) fn byte(&self) -> u8 {
        match self.delimiter() {
            [b] => *b,
            _ => 0xFF,
        }
    }
}

/// The CSV options written on `src`, as (name, span), in the spec's order.
pub fn written(src: &SourceSpec) -> Vec<(&'static str, Range<usize>)> {
    let mut all: Vec<_> = [
        ("delimiter", src.delimiter.as_ref().map(|d| d.span())),
        ("trim", src.trim.as_ref().map(|d| d.span())),
        ("comment", src.comment.as_ref().map(|d| d.span())),
        ("skip", src.skip.as_ref().map(|d| d.span())),
        ("header", src.header.as_ref().map(|d| d.span())),
    ]
    .into_iter()
    .filter_map(|(k, s)| Some((k, s?)))
    .collect();
    all.sort_by_key(|(_, span)| span.start);
    all
}

/// The error for a CSV option on a source that is not CSV (`why`: what it
/// is instead), at the first such option's span; `None` when none is written.
pub fn not_csv(spec: &LoadedSpec, src: &SourceSpec, why: &str) -> Option<Error> {
    let (key, span) = written(src).into_iter().next()?;
    Some(spec.error(span, format!("`{key}` applies only to CSV files; {why}")))
}

/// The dialect of file `real` (shown as `rel`) of `src`, from the checked
/// options `csv`: a tab by default when the file is TSV (`format = "tsv"`,
/// or with no `format`, a `.tsv` name). `None` when the file is not CSV,
/// or an error when CSV options are written on it.
pub fn of_file(
    spec: &LoadedSpec,
    src: &SourceSpec,
    csv: &Dialect,
    format: Format,
    real: &str,
    rel: &str,
) -> Result<Option<Arc<Dialect>>> {
    if format != Format::Csv {
        let why = format!("`{rel}` is read as {}", format.name());
        return match not_csv(spec, src, &why) {
            Some(e) => Err(e),
            None => Ok(None),
        };
    }
    let tsv = match &src.format {
        Some(f) => f.get_ref() == "tsv",
        None => Compression::of_name(&real.to_ascii_lowercase())
            .0
            .ends_with(".tsv"),
    };
    let mut d = csv.clone();
    d.tab = tsv;
    Ok(Some(Arc::new(d)))
}

/// The dialect `src` writes (for a `.csv` file: set [`Dialect::tab`] for
/// TSV), or the error at the span of an option that is not valid or is
/// written on inline `rows` or a source whose `format` is not CSV.
pub fn dialect(spec: &LoadedSpec, src: &SourceSpec) -> Result<Dialect> {
    if src.rows.is_some()
        && let Some(e) = not_csv(spec, src, "this source has inline `rows`")
    {
        return Err(e);
    }
    if let Some(f) = &src.format
        && matches!(f.get_ref().as_str(), "json" | "jsonl" | "ndjson")
        && let Some(e) = not_csv(
            spec,
            src,
            &format!("this source's format is `{}`", f.get_ref()),
        )
    {
        return Err(e);
    }
    let mut d = Dialect::default();
    if let Some(raw) = &src.delimiter {
        let text = raw.get_ref();
        if text.is_empty() || text.len() > MAX_DELIMITER {
            return Err(spec.error(
                raw.span(),
                format!("`delimiter` must be 1 to {MAX_DELIMITER} bytes, found {text:?}"),
            ));
        }
        if text.contains(['"', '\n', '\r']) {
            return Err(spec.error(
                raw.span(),
                "`delimiter` cannot hold a quote or a line break (`\"` quotes a cell, a line break ends a row)",
            ));
        }
        d.written = Some(text.as_bytes().to_vec());
    }
    d.trim = src.trim.as_ref().is_some_and(|t| *t.get_ref());
    if let Some(raw) = &src.comment {
        let text = raw.get_ref();
        if text.is_empty() || text.contains(['\n', '\r']) {
            return Err(spec.error(
                raw.span(),
                format!(
                    "`comment` must be the text that starts a comment line, such as \"#\", found {text:?}"
                ),
            ));
        }
        d.comment = Some(text.as_bytes().to_vec());
    }
    if let Some(raw) = &src.skip {
        d.skip = u64::try_from(*raw.get_ref()).map_err(|_| {
            spec.error(
                raw.span(),
                format!(
                    "`skip` must be a number of lines (0 or more), found {}",
                    raw.get_ref()
                ),
            )
        })?;
    }
    if let Some(raw) = &src.header {
        let names = raw.get_ref();
        if names.is_empty() {
            return Err(spec.error(raw.span(), "`header` must name at least one column"));
        }
        let mut first: rustc_hash::FxHashMap<&str, usize> = Default::default();
        for (i, name) in names.iter().enumerate() {
            if let Some(j) = first.insert(name, i) {
                return Err(spec.error(
                    raw.span(),
                    format!(
                        "`header` repeats column `{}` (columns {} and {})",
                        crate::error::shown(name),
                        j + 1,
                        i + 1
                    ),
                ));
            }
        }
        d.header = Some(names.iter().map(|n| Arc::from(n.as_str())).collect());
    }
    Ok(d)
}

//! CSV files: a header row, then one record per row, cells typed as pandas
//! types them.
//!
//! A header that repeats a column name is an error naming both columns (a
//! row cannot hold two fields of one name; keeping the last would drop a
//! column silently). A record longer than the source's `max_line` is an
//! error: [`RecordLimit`] follows the quoting as the `csv` crate does and
//! stops the read there, so memory per record is bounded.

use std::io::Read;
use std::sync::Arc;

use super::{SourceFile, limit, open};
use crate::error::{Error, Result};
use crate::value::{Origin, Record, Row, Value};

/// Reads a CSV file, handing each row to `each`.
pub(super) fn read_csv(file: &SourceFile, each: &mut dyn FnMut(Row) -> Result<()>) -> Result<()> {
    let path: Arc<str> = Arc::from(file.rel.as_str());
    let mut rdr = csv::ReaderBuilder::new()
        .has_headers(true)
        .flexible(false)
        .from_reader(RecordLimit::new(open(file)?, file.max_line));
    let header = rdr
        .headers()
        .map_err(|e| csv_error(file, e, Some(1), "invalid CSV header"))?;
    let headers: Vec<Arc<str>> = header
        .iter()
        .enumerate()
        .map(|(i, h)| {
            let h = if i == 0 {
                h.trim_start_matches('\u{feff}')
            } else {
                h
            };
            Arc::from(h)
        })
        .collect();
    let mut first: rustc_hash::FxHashMap<&str, usize> = Default::default();
    for (i, h) in headers.iter().enumerate() {
        if let Some(j) = first.insert(h, i) {
            return Err(Error::input(
                file.rel.clone(),
                Some(1),
                None,
                format!(
                    "the header repeats column `{h}` (columns {} and {})",
                    j + 1,
                    i + 1
                ),
            ));
        }
    }
    for rec in rdr.records() {
        let rec = rec.map_err(|e| {
            let line = e.position().map(|p| p.line());
            csv_error(file, e, line, "invalid CSV")
        })?;
        let line = rec.position().map_or(0, |p| p.line());
        let mut r = Record::with_capacity(headers.len());
        for (h, cell) in headers.iter().zip(rec.iter()) {
            r.insert(h.clone(), csv_cell(cell));
        }
        each(Row {
            extra: Default::default(),
            fields: Arc::new(r),
            origin: Origin::line(path.clone(), line),
        })?;
    }
    Ok(())
}

/// A `csv` error as the user should read it: a record over `max_line` (seen
/// by [`RecordLimit`]) names its start; anything else is `csv`'s message.
fn csv_error(file: &SourceFile, e: csv::Error, line: Option<u64>, what: &str) -> Error {
    if let csv::ErrorKind::Io(io) = e.kind()
        && let Some(over) = io.get_ref().and_then(|x| x.downcast_ref::<TooLong>())
    {
        return limit::too_long(
            &file.rel,
            file.compression.is_compressed(),
            "CSV record",
            over.line,
            over.offset,
            file.max_line,
        );
    }
    if let csv::ErrorKind::Io(io) = e.kind()
        && let Some(open) = io.get_ref().and_then(|x| x.downcast_ref::<Unclosed>())
    {
        return Error::input(
            file.rel.clone(),
            Some(open.line),
            None,
            "a quoted field opened on this line is not closed before the end of the file (every later row would be read into it)",
        );
    }
    if let csv::ErrorKind::Io(io) = e.kind() {
        return super::compress::read_error(file, io, None);
    }
    Error::input(file.rel.clone(), line, None, format!("{what}: {e}"))
}

/// The stream ended inside a quoted field: the line where it opened.
/// (The `csv` crate reads the rest of the file into that field, silently.)
#[derive(Debug)]
struct Unclosed {
    line: u64,
}

impl std::fmt::Display for Unclosed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "a quoted field is not closed")
    }
}

impl std::error::Error for Unclosed {}

/// A record over the limit: the line and byte offset where it starts.
#[derive(Debug)]
struct TooLong {
    line: u64,
    offset: u64,
}

impl std::fmt::Display for TooLong {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "a record longer than max_line")
    }
}

impl std::error::Error for TooLong {}

/// Where a [`RecordLimit`] is within a record (the `csv` crate's default
/// dialect: `"` quotes a field that starts with it, `""` inside is a quote).
#[derive(Debug, Clone, Copy, PartialEq)]
enum At {
    FieldStart,
    Unquoted,
    Quoted,
    QuoteInQuoted,
}

/// Passes a CSV stream through, failing with [`TooLong`] once a record
/// (quoted newlines included) exceeds `limit` bytes, so the parser never
/// buffers more.
struct RecordLimit<R> {
    inner: R,
    limit: u64,
    at: At,
    /// Bytes of the current record so far.
    len: u64,
    /// Stream offset and line of the current record's start.
    start: u64,
    start_line: u64,
    offset: u64,
    line: u64,
    /// Line where the open quoted field started.
    quote_line: u64,
}

impl<R: Read> RecordLimit<R> {
    fn new(inner: R, limit: u64) -> Self {
        RecordLimit {
            inner,
            limit,
            at: At::FieldStart,
            len: 0,
            start: 0,
            start_line: 1,
            offset: 0,
            line: 1,
            quote_line: 1,
        }
    }
}

impl<R: Read> Read for RecordLimit<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        if n == 0 && self.at == At::Quoted && !buf.is_empty() {
            return Err(std::io::Error::other(Unclosed {
                line: self.quote_line,
            }));
        }
        for &b in &buf[..n] {
            if self.at == At::FieldStart && b == b'"' {
                self.quote_line = self.line;
            }
            self.offset += 1;
            let end = matches!(b, b'\n' | b'\r');
            self.at = match (self.at, b) {
                (At::Quoted, b'"') => At::QuoteInQuoted,
                (At::Quoted, _) => At::Quoted,
                (At::QuoteInQuoted, b'"') | (At::FieldStart, b'"') => At::Quoted,
                (_, b',') => At::FieldStart,
                _ if end => At::FieldStart,
                _ => At::Unquoted,
            };
            if b == b'\n' {
                self.line += 1;
            }
            if end && self.at == At::FieldStart {
                self.len = 0;
                self.start = self.offset;
                self.start_line = self.line;
                continue;
            }
            self.len += 1;
            if self.len > self.limit {
                return Err(std::io::Error::other(TooLong {
                    line: self.start_line,
                    offset: self.start,
                }));
            }
        }
        Ok(n)
    }
}

/// A CSV cell: empty is null, integers and decimals are numbers, anything
/// else is a string (as pandas reads a CSV).
pub(super) fn csv_cell(cell: &str) -> Value {
    let t = cell.trim();
    if t.is_empty() {
        return Value::from(());
    }
    // An identifier such as `007` keeps its zeros: it stays a string.
    let digits = t.trim_start_matches(['-', '+']);
    if digits.len() > 1 && digits.starts_with('0') && !digits.starts_with("0.") {
        return Value::from(cell);
    }
    if let Ok(i) = t.parse::<i64>() {
        return Value::from(i);
    }
    if let Ok(f) = t.parse::<f64>() {
        return Value::from(f);
    }
    match t {
        "true" | "True" | "TRUE" => Value::from(true),
        "false" | "False" | "FALSE" => Value::from(false),
        _ => Value::from(cell),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_cells_are_typed() {
        assert_eq!(csv_cell("3"), Value::from(3));
        assert_eq!(csv_cell("2.5"), Value::from(2.5));
        assert!(csv_cell("").is_none());
        assert_eq!(csv_cell("abc"), Value::from("abc"));
        assert_eq!(csv_cell("007"), Value::from("007"));
        assert_eq!(csv_cell("0.5"), Value::from(0.5));
        assert_eq!(csv_cell("0"), Value::from(0));
    }

    fn read_limited(text: &str, limit: u64) -> std::io::Result<Vec<u8>> {
        let mut out = Vec::new();
        RecordLimit::new(text.as_bytes(), limit).read_to_end(&mut out)?;
        Ok(out)
    }

    fn too_long_at(text: &str, limit: u64) -> (u64, u64) {
        let e = read_limited(text, limit).unwrap_err();
        let t = e.get_ref().unwrap().downcast_ref::<TooLong>().unwrap();
        (t.line, t.offset)
    }

    #[test]
    fn a_quote_left_open_is_an_error_not_the_rest_of_the_file_in_one_field() {
        // The csv crate read every later row into the open field, silently:
        // a count of 4 rows came out 1.
        let unclosed = |text: &str| {
            let e = read_limited(text, 1 << 20).unwrap_err();
            e.get_ref()
                .and_then(|x| x.downcast_ref::<Unclosed>())
                .map(|u| u.line)
        };
        assert_eq!(unclosed("n,j\n1,\"x\n2,y\n3,z\n"), Some(2));
        assert_eq!(unclosed("n,j\n1,x\"y\n2,\"y\"\"\n3,z\n"), Some(3));
        // Closed quotes, doubled quotes and quoted newlines are fine.
        assert!(read_limited("n,j\n1,\"x\ny\"\n2,\"q\"\"r\"\n", 1 << 20).is_ok());
    }

    #[test]
    fn record_limit_counts_quoted_newlines_in_the_record() {
        // Records of 3 bytes pass a limit of 3.
        assert!(read_limited("a,b\n1,2\r\n3,4", 3).is_ok());
        // A quoted field with newlines is one record (of 9 bytes).
        assert!(read_limited("a,b\n\"x\ny\nz\",1\n", 9).is_ok());
        assert_eq!(too_long_at("a,b\n\"x\ny\nz\",1\n", 8), (2, 4));
        // A doubled quote stays inside the field; a quote mid-field is literal.
        assert!(read_limited("a\"b,c\nd,e\n", 5).is_ok());
        assert_eq!(too_long_at("x\n\"a\"\"\nb\"\n", 5), (2, 2));
    }
}

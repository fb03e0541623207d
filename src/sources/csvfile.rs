//! CSV files: a header row (or `header` in the spec), then one record per
//! row, cells typed as pandas types them.
//!
//! The dialect is the source's options (see [`dialect`]): `delimiter` (any
//! text of 1 to 16 bytes; `,` by default, a tab for `.tsv`), `trim`,
//! `comment`, `skip` and `header`. Quoting is the `csv` crate's (RFC 4180:
//! `"` opens a field that starts with it, `""` inside is a quote, quoted
//! fields may hold newlines and the delimiter), with any delimiter.
//!
//! Every row's line is the file's own (1-based, counting the header and the
//! skipped, comment and blank lines, at `\n` or `\r\n` ends alike), as is
//! every error's. A header that repeats a column name is an error naming
//! both columns (a row cannot hold two fields of one name; keeping the last
//! would drop a column silently); a row whose cells are more or fewer than
//! the header's columns is an error naming its line. Memory per record is
//! bounded by the source's `max_line` (see the `stream` module).

pub mod dialect;
mod stream;

use std::sync::Arc;

use super::{SourceFile, limit, open_counted};
use crate::error::{Error, Result, shown};
use crate::value::{Origin, Record, Row, Value};
pub use dialect::Dialect;
use stream::{CsvStream, NotUtf8, Starts, TooLong, Unclosed};

/// Reads a CSV file, handing each row to `each`.
pub(super) fn read_csv(file: &SourceFile, each: &mut dyn FnMut(Row) -> Result<()>) -> Result<()> {
    let path: Arc<str> = Arc::from(file.rel.as_str());
    let plain = Dialect::default();
    let d = file.dialect.as_deref().unwrap_or(&plain);
    let starts = Starts::default();
    // The bytes read, for the progress bar of a long read (a terminal only).
    let read = Arc::new(std::sync::atomic::AtomicU64::new(0));
    let size = std::fs::metadata(&file.abs).map_or(0, |m| m.len());
    let mut progress = crate::progress::Progress::new(&file.rel, size);
    let input = CsvStream::new(
        open_counted(file, Some(read.clone()))?,
        d,
        file.max_line,
        starts.clone(),
    );
    let mut rdr = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .delimiter(d.byte())
        .from_reader(input);
    let mut rec = csv::StringRecord::new();
    // The line of the record read last (the reader pops it once read).
    let next = |rdr: &mut csv::Reader<CsvStream<'_, _>>, rec: &mut csv::StringRecord| match rdr
        .read_record(rec)
    {
        Ok(true) => Ok(Some(starts.pop().unwrap_or(0))),
        Ok(false) => Ok(None),
        Err(e) => Err(csv_error(file, e, starts.front())),
    };
    let headers: Vec<Arc<str>> = match &d.header {
        Some(names) => names.clone(),
        None => {
            let Some(line) = next(&mut rdr, &mut rec)? else {
                return Ok(());
            };
            let names: Vec<Arc<str>> = rec.iter().map(|h| Arc::from(trimmed(d.trim, h))).collect();
            let mut first: rustc_hash::FxHashMap<&str, usize> = Default::default();
            for (i, h) in names.iter().enumerate() {
                if let Some(j) = first.insert(h, i) {
                    return Err(Error::input(
                        file.rel.clone(),
                        Some(line),
                        None,
                        format!(
                            "the header repeats column `{}` (columns {} and {})",
                            shown(h),
                            j + 1,
                            i + 1
                        ),
                    ));
                }
            }
            names
        }
    };
    let mut records = 0u64;
    while let Some(line) = next(&mut rdr, &mut rec)? {
        records += 1;
        if records.is_multiple_of(4096) {
            progress.set(read.load(std::sync::atomic::Ordering::Relaxed));
        }
        if rec.len() != headers.len() {
            return Err(Error::input(
                file.rel.clone(),
                Some(line),
                None,
                format!(
                    "the row has {} but the header has {}{}",
                    count(rec.len(), "cell"),
                    count(headers.len(), "column"),
                    delimiter_hint(&headers)
                ),
            ));
        }
        let mut r = Record::with_capacity(headers.len());
        for (h, c) in headers.iter().zip(rec.iter()) {
            r.insert(h.clone(), csv_cell(trimmed(d.trim, c)));
        }
        each(Row {
            extra: Default::default(),
            fields: Arc::new(r),
            origin: Origin::line(path.clone(), line),
        })?;
    }
    progress.finish();
    Ok(())
}

/// `c`, without the spaces and tabs around it with `trim`.
fn trimmed(trim: bool, c: &str) -> &str {
    if trim { c.trim_matches([' ', '\t']) } else { c }
}

/// A hint when the header is one column holding another common delimiter
/// (a `;` file read with `,`): which `delimiter` to set.
fn delimiter_hint(headers: &[Arc<str>]) -> String {
    let [h] = headers else {
        return String::new();
    };
    [(';', ";"), ('\t', "\\t"), ('|', "|")]
        .iter()
        .find(|(c, _)| h.contains(*c))
        .map(|(_, d)| {
            format!(" (the header holds `{d}`: set `delimiter = \"{d}\"` on the source?)")
        })
        .unwrap_or_default()
}

/// `1 cell`, `2 cells`.
fn count(n: usize, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
    }
}

/// A `csv` error as the user should read it, at `line` (of the record
/// being read): what [`CsvStream`] found, a read error, or a cell that is
/// not UTF-8.
fn csv_error(file: &SourceFile, e: csv::Error, line: Option<u64>) -> Error {
    let at = |line: u64, message: String| Error::input(file.rel.clone(), Some(line), None, message);
    match e.kind() {
        csv::ErrorKind::Io(io) => {
            let inner = io.get_ref();
            if let Some(over) = inner.and_then(|x| x.downcast_ref::<TooLong>()) {
                return limit::too_long(
                    &file.rel,
                    file.compression.is_compressed(),
                    "CSV record",
                    over.line,
                    over.offset,
                    file.max_line,
                );
            }
            if let Some(open) = inner.and_then(|x| x.downcast_ref::<Unclosed>()) {
                return at(
                    open.line,
                    "a quoted field opened on this line is not closed before the end of the file (every later row would be read into it)".into(),
                );
            }
            if let Some(bad) = inner.and_then(|x| x.downcast_ref::<NotUtf8>()) {
                return at(bad.line, "invalid UTF-8: byte 0xFF".into());
            }
            super::compress::read_error(file, io, None)
        }
        csv::ErrorKind::Utf8 { err, .. } => Error::input(
            file.rel.clone(),
            line,
            None,
            format!("invalid UTF-8 in cell {}", err.field() + 1),
        ),
        _ => Error::input(file.rel.clone(), line, None, format!("invalid CSV: {e}")),
    }
}

/// The cells pandas reads as missing, quoted or not: its default
/// `na_values` (`pandas._libs.parsers.STR_NA_VALUES`, pandas 3.1), the
/// empty cell aside. Matched exactly, as pandas does (` NA` is text).
const NA_VALUES: [&str; 18] = [
    "#N/A", "#N/A N/A", "#NA", "-1.#IND", "-1.#QNAN", "-NaN", "-nan", "1.#IND", "1.#QNAN", "<NA>",
    "N/A", "NA", "NULL", "NaN", "None", "n/a", "nan", "null",
];

/// A CSV cell: empty or a missing-value spelling ([`NA_VALUES`]) is null,
/// integers and decimals are numbers, anything else is a string (as pandas
/// reads a CSV).
pub(super) fn csv_cell(cell: &str) -> Value {
    let t = cell.trim();
    if t.is_empty() || NA_VALUES.contains(&cell) {
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
    // An integer beyond i64 keeps its digits: exact up to i128, text past
    // that (as pandas keeps it, an object column), never a rounded double.
    if digits.bytes().all(|b| b.is_ascii_digit()) {
        return match t.parse::<i128>() {
            Ok(i) => crate::value::int_value(i),
            Err(_) => Value::from(cell),
        };
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
        // Beyond i64: exact, and text past i128.
        let big = "123456789012345678901234567890";
        assert_eq!(csv_cell(big).to_string(), big);
        assert!(csv_cell(big).is_integer());
        assert_eq!(csv_cell(&format!("-{big}")).to_string(), format!("-{big}"));
        let huge = "9".repeat(40);
        assert_eq!(csv_cell(&huge), Value::from(huge.as_str()));
    }

    #[test]
    fn pandas_missing_value_spellings_are_null() {
        for na in NA_VALUES {
            assert!(csv_cell(na).is_none(), "{na}");
        }
        // Only the exact spelling, as pandas: these stay text.
        assert_eq!(csv_cell(" NA"), Value::from(" NA"));
        assert_eq!(csv_cell("na"), Value::from("na"));
        assert_eq!(csv_cell("Null"), Value::from("Null"));
    }
}

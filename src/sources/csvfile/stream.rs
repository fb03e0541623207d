//! The bytes a CSV file holds, made into what the `csv` crate reads well,
//! with each record's line in the file.
//!
//! [`CsvStream`] reads the file line by line and follows the quoting as the
//! `csv` crate does (`"` opens a field that starts with it, `""` inside is
//! a quote). On the way it drops the `skip` lines, blank lines and comment
//! lines; ends every record with one `\n`; turns a delimiter of several
//! bytes (`", "`) outside quotes into the one byte `0xFF` (never in UTF-8
//! text, so it cannot be in a cell; a raw `0xFF` is an error); and with
//! `trim`, drops the spaces that start a field, so `a, "b, c"` is two cells.
//! For each record it writes to the `csv` crate it queues the line where
//! the record starts: the `csv` crate counts lines of what it is given and,
//! at CRLF line ends, one too few.
//!
//! Memory is bounded by `max_line`: a line is read up to it and no
//! further, and a record longer (quoted newlines included) is an error
//! ([`TooLong`]) naming its line and byte offset. A quoted field still open
//! at the end of the file is an error naming where it opened ([`Unclosed`]):
//! the `csv` crate would read every later row into it, silently.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read};
use std::rc::Rc;

use super::Dialect;

/// The stream ended inside a quoted field: the line where it opened.
#[derive(Debug)]
pub(super) struct Unclosed {
    pub line: u64,
}

/// A record (or a skipped line, when `record` is false) over the limit:
/// the line and the byte offset where it starts.
#[derive(Debug)]
pub(super) struct TooLong {
    pub line: u64,
    pub offset: u64,
    pub record: bool,
}

/// Byte `0xFF` outside quotes in a file with a delimiter of several bytes:
/// not UTF-8, and the byte that stands for the delimiter.
#[derive(Debug)]
pub(super) struct NotUtf8 {
    pub line: u64,
}

macro_rules! stream_error {
    ($t:ty, $text:expr) => {
        impl std::fmt::Display for $t {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str($text)
            }
        }
        impl std::error::Error for $t {}
    };
}
stream_error!(Unclosed, "a quoted field is not closed");
stream_error!(TooLong, "a record longer than max_line");
stream_error!(NotUtf8, "byte 0xFF is not UTF-8");

/// Where the stream is within a record.
#[derive(Debug, Clone, Copy, PartialEq)]
enum At {
    FieldStart,
    Unquoted,
    Quoted,
    /// A quote inside a quoted field: the end of it, or the first of `""`.
    QuoteInQuoted,
}

/// The lines where records start, in order: the stream pushes, the reader
/// pops one per record it gets. Runs of one line are one entry (a line
/// of many records cut by lone `\r`s costs no more than one).
#[derive(Debug, Default, Clone)]
pub(super) struct Starts(Rc<RefCell<VecDeque<(u64, u64)>>>);

impl Starts {
    fn push(&self, line: u64) {
        let mut q = self.0.borrow_mut();
        match q.back_mut() {
            Some((l, n)) if *l == line => *n += 1,
            _ => q.push_back((line, 1)),
        }
    }

    /// Takes back the record pushed last.
    fn undo(&self) {
        let mut q = self.0.borrow_mut();
        if let Some((_, n)) = q.back_mut() {
            *n -= 1;
            if *n == 0 {
                q.pop_back();
            }
        }
    }

    /// The line of the next record the reader gets.
    pub fn front(&self) -> Option<u64> {
        self.0.borrow().front().map(|(l, _)| *l)
    }

    /// Takes the line of the record the reader got.
    pub fn pop(&self) -> Option<u64> {
        let mut q = self.0.borrow_mut();
        let (line, n) = q.front_mut()?;
        let line = *line;
        *n -= 1;
        if *n == 0 {
            q.pop_front();
        }
        Some(line)
    }
}

/// A CSV file's bytes as the `csv` crate should read them (see the module
/// docs); the delimiter it should use is [`CsvStream::delimiter`].
pub(super) struct CsvStream<'d, R> {
    inner: BufReader<R>,
    dialect: &'d Dialect,
    limit: u64,
    starts: Starts,
    /// Bytes ready for the reader, from `out[pos..]`.
    out: Vec<u8>,
    pos: usize,
    /// The physical line being worked on.
    buf: Vec<u8>,
    /// The number of the next line read, and the stream offset of its start.
    line: u64,
    offset: u64,
    at: At,
    in_record: bool,
    /// Bytes of the current record so far, whether it wrote any, the line
    /// and offset where it started, the line where its open quote opened.
    len: u64,
    wrote: bool,
    start_line: u64,
    start: u64,
    quote_line: u64,
    done: bool,
}

impl<'d, R: Read> CsvStream<'d, R> {
    /// A stream over `inner` (the decompressed file) that reads records of
    /// at most `limit` bytes and queues their lines in `starts`.
    pub fn new(inner: R, dialect: &'d Dialect, limit: u64, starts: Starts) -> Self {
        CsvStream {
            inner: BufReader::new(inner),
            dialect,
            limit,
            starts,
            out: Vec::new(),
            pos: 0,
            buf: Vec::new(),
            line: 1,
            offset: 0,
            at: At::FieldStart,
            in_record: false,
            len: 0,
            wrote: false,
            start_line: 0,
            start: 0,
            quote_line: 0,
            done: false,
        }
    }

    /// The delimiter byte the `csv` crate reads this stream with.
    pub fn delimiter(dialect: &Dialect) -> u8 {
        match dialect.delimiter() {
            [b] => *b,
            _ => 0xFF,
        }
    }

    fn emit(&mut self, b: u8) {
        self.out.push(b);
        self.wrote = true;
    }

    /// Ends the record: a `\n` for the `csv` crate, or, when it wrote
    /// nothing (a line of spaces with `trim`), no record at all.
    fn end_record(&mut self) {
        if self.wrote {
            self.out.push(b'\n');
        } else {
            self.starts.undo();
        }
        self.in_record = false;
    }

    /// Whether `rest` (from a record's start) holds no record: empty, only
    /// spaces and tabs (unless the delimiter is made of them), or a comment.
    fn no_record(&self, rest: &[u8]) -> bool {
        let end = memchr::memchr2(b'\n', b'\r', rest).unwrap_or(rest.len());
        let content = &rest[..end];
        let blank_bytes = |b: &u8| *b == b' ' || *b == b'\t';
        if content.iter().all(blank_bytes) && !self.dialect.delimiter().iter().any(blank_bytes) {
            return true;
        }
        self.dialect
            .comment
            .as_ref()
            .is_some_and(|c| content.starts_with(c))
    }

    /// Reads and works through the next line; false at the end.
    fn fill(&mut self) -> std::io::Result<bool> {
        self.buf.clear();
        // A line of `limit` bytes plus its `\r\n` is the longest one read.
        let budget = self.limit.saturating_add(2);
        let n = (&mut self.inner)
            .take(budget)
            .read_until(b'\n', &mut self.buf)?;
        if n == 0 {
            if self.in_record {
                if self.at == At::Quoted {
                    return Err(std::io::Error::other(Unclosed {
                        line: self.quote_line,
                    }));
                }
                self.end_record();
            }
            return Ok(false);
        }
        let line = self.line;
        let line_start = self.offset;
        self.line += 1;
        self.offset += n as u64;
        let cut = n as u64 == budget && self.buf.last() != Some(&b'\n');
        let mut i = 0;
        if line == 1 && self.buf.starts_with(b"\xEF\xBB\xBF") {
            i = 3;
        }
        if line <= self.dialect.skip {
            if cut {
                return Err(std::io::Error::other(TooLong {
                    line,
                    offset: line_start,
                    record: false,
                }));
            }
            return Ok(true);
        }
        let buf = std::mem::take(&mut self.buf);
        let result = self.work(&buf, i, line, line_start, cut);
        self.buf = buf;
        result.map(|()| true)
    }

    /// Works through `buf` (line `line`, at stream offset `line_start`)
    /// from byte `i`; `cut`: the line goes on past the buffer.
    fn work(
        &mut self,
        buf: &[u8],
        mut i: usize,
        line: u64,
        line_start: u64,
        cut: bool,
    ) -> std::io::Result<()> {
        let delim = self.dialect.delimiter();
        let several = delim.len() > 1;
        let out_delim = Self::delimiter(self.dialect);
        let trim = self.dialect.trim;
        while i < buf.len() {
            if !self.in_record {
                let rest = &buf[i..];
                if self.no_record(rest) {
                    // Past this line's end (a lone `\r` ends it too).
                    let end = memchr::memchr2(b'\n', b'\r', rest).map_or(buf.len(), |e| i + e + 1);
                    let comment = self
                        .dialect
                        .comment
                        .as_ref()
                        .is_some_and(|c| rest.starts_with(c));
                    i = if comment { buf.len() } else { end };
                    continue;
                }
                self.in_record = true;
                self.at = At::FieldStart;
                self.len = 0;
                self.wrote = false;
                self.start_line = line;
                self.start = line_start + i as u64;
                self.starts.push(line);
            }
            // Runs of bytes that change nothing are copied whole: up to the
            // closing quote in a quoted field; up to a line end or a
            // delimiter's first byte in an unquoted one (a quote there is
            // literal).
            let rest = &buf[i..];
            let b = rest[0];
            let run = match self.at {
                At::Quoted => memchr::memchr(b'"', rest).map_or(rest.len(), |k| k + 1),
                At::Unquoted => memchr::memchr3(delim[0], b'\n', b'\r', rest).unwrap_or(rest.len()),
                _ => 0,
            };
            if run > 0 {
                let chunk = &rest[..run];
                if several && self.at == At::Unquoted && memchr::memchr(0xFF, chunk).is_some() {
                    return Err(std::io::Error::other(NotUtf8 { line }));
                }
                if self.at == At::Quoted && chunk.last() == Some(&b'"') {
                    self.at = At::QuoteInQuoted;
                }
                self.out.extend_from_slice(chunk);
                self.wrote = true;
                i += run;
                self.len += run as u64;
            } else if b == b'\n' || b == b'\r' {
                i += if buf[i..].starts_with(b"\r\n") { 2 } else { 1 };
                self.end_record();
                continue;
            } else if buf[i..].starts_with(delim) {
                self.emit(out_delim);
                self.at = At::FieldStart;
                i += delim.len();
                self.len += delim.len() as u64;
            } else if self.at == At::FieldStart && trim && (b == b' ' || b == b'\t') {
                i += 1;
                self.len += 1;
            } else if b == 0xFF && several {
                return Err(std::io::Error::other(NotUtf8 { line }));
            } else {
                self.at = match (self.at, b) {
                    (At::FieldStart, b'"') => {
                        self.quote_line = line;
                        At::Quoted
                    }
                    (At::QuoteInQuoted, b'"') => At::Quoted,
                    _ => At::Unquoted,
                };
                self.emit(b);
                i += 1;
                self.len += 1;
            }
            if self.len > self.limit {
                return Err(std::io::Error::other(TooLong {
                    line: self.start_line,
                    offset: self.start,
                    record: true,
                }));
            }
        }
        if cut {
            // The line goes on past what was read: longer than `max_line`,
            // a record's line or a blank or comment one.
            return Err(std::io::Error::other(TooLong {
                line: if self.in_record {
                    self.start_line
                } else {
                    line
                },
                offset: if self.in_record {
                    self.start
                } else {
                    line_start
                },
                record: self.in_record,
            }));
        }
        Ok(())
    }
}

impl<R: Read> Read for CsvStream<'_, R> {
    fn read(&mut self, dest: &mut [u8]) -> std::io::Result<usize> {
        while self.pos == self.out.len() {
            self.out.clear();
            self.pos = 0;
            if self.done || dest.is_empty() {
                return Ok(0);
            }
            if !self.fill()? {
                self.done = true;
            }
        }
        let n = dest.len().min(self.out.len() - self.pos);
        dest[..n].copy_from_slice(&self.out[self.pos..self.pos + n]);
        self.pos += n;
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What the `csv` crate gets from `text` and the lines queued.
    fn run(text: &[u8], d: &Dialect, limit: u64) -> std::io::Result<(String, Vec<u64>)> {
        let starts = Starts::default();
        let mut out = Vec::new();
        CsvStream::new(text, d, limit, starts.clone()).read_to_end(&mut out)?;
        let lines = std::iter::from_fn(|| starts.pop()).collect();
        Ok((String::from_utf8_lossy(&out).into_owned(), lines))
    }

    fn plain(text: &[u8]) -> (String, Vec<u64>) {
        run(text, &Dialect::default(), 1 << 20).unwrap()
    }

    fn failing<E: std::error::Error + 'static, T>(
        text: &[u8],
        d: &Dialect,
        limit: u64,
        f: impl Fn(&E) -> T,
    ) -> T {
        let e = run(text, d, limit).unwrap_err();
        f(e.get_ref().unwrap().downcast_ref::<E>().unwrap())
    }

    #[test]
    fn records_end_in_one_newline_and_keep_their_lines() {
        assert_eq!(
            plain(b"a,b\r\n1,x\r\n\r\n2,y"),
            ("a,b\n1,x\n2,y\n".into(), vec![1, 2, 4])
        );
        // A quoted newline stays in the field; a lone CR ends a record.
        assert_eq!(
            plain(b"a,b\n1,\"x\r\ny\"\n2,\"\"\"q\"\r3,z\n"),
            (
                "a,b\n1,\"x\r\ny\"\n2,\"\"\"q\"\n3,z\n".into(),
                vec![1, 2, 4, 4]
            )
        );
        assert_eq!(plain(b"\xEF\xBB\xBFa\n1\n"), ("a\n1\n".into(), vec![1, 2]));
    }

    #[test]
    fn skip_comment_trim_and_a_long_delimiter() {
        let d = Dialect {
            written: Some(b", ".to_vec()),
            trim: true,
            comment: Some(b"#".to_vec()),
            skip: 2,
            ..Dialect::default()
        };
        let text = b"x, \"y\n# z\n# c\na,  \"b, c\"\n# c\n  \n1, 2,3\n\"#\n\", 4\n";
        let (out, lines) = run(text, &d, 1 << 20).unwrap();
        // Line 6 (two spaces) is a record of nothing after `trim`: none.
        assert_eq!(out, "a\u{FFFD}\"b, c\"\n1\u{FFFD}2,3\n\"#\n\"\u{FFFD}4\n");
        assert_eq!(lines, vec![4, 7, 8]);
        // Byte 0xFF outside quotes cannot stand for itself.
        let d = Dialect {
            written: Some(b", ".to_vec()),
            ..Dialect::default()
        };
        let line = failing(b"a, b\n1, \xFF\n", &d, 1 << 20, |e: &NotUtf8| e.line);
        assert_eq!(line, 2);
        // Inside quotes it is the cell's (where the `csv` crate finds it).
        assert!(run(b"a, b\n1, \"\xFF\"\n", &d, 1 << 20).is_ok());
    }

    #[test]
    fn a_quote_left_open_names_the_line_it_opened_on() {
        let d = Dialect::default();
        let line = |text: &[u8]| failing(text, &d, 1 << 20, |e: &Unclosed| e.line);
        assert_eq!(line(b"n,j\n1,\"x\n2,y\n3,z\n"), 2);
        assert_eq!(line(b"n,j\n1,x\"y\n2,\"y\"\"\n3,z\n"), 3);
    }

    #[test]
    fn record_limit_counts_quoted_newlines_in_the_record() {
        let d = Dialect::default();
        let over = |text: &[u8], limit| {
            failing(text, &d, limit, |e: &TooLong| (e.line, e.offset, e.record))
        };
        // Records of 3 bytes pass a limit of 3.
        assert!(run(b"a,b\n1,2\r\n3,4", &d, 3).is_ok());
        // A quoted field with newlines is one record (of 9 bytes).
        assert!(run(b"a,b\n\"x\ny\nz\",1\n", &d, 9).is_ok());
        assert_eq!(over(b"a,b\n\"x\ny\nz\",1\n", 8), (2, 4, true));
        // A doubled quote stays inside the field; a quote mid-field is literal.
        assert!(run(b"a\"b,c\nd,e\n", &d, 5).is_ok());
        assert_eq!(over(b"x\n\"a\"\"\nb\"\n", 5), (2, 2, true));
        // A skipped line is bounded too.
        let skip = Dialect {
            skip: 1,
            ..Dialect::default()
        };
        assert_eq!(
            failing(b"xxxxxxxx\na\n", &skip, 5, |e: &TooLong| (
                e.line, e.offset, e.record
            )),
            (1, 0, false)
        );
    }

    /// Records as the `csv` crate reads `bytes` with `delimiter`.
    fn records(bytes: &[u8], delimiter: u8) -> Vec<Vec<Vec<u8>>> {
        let mut rdr = csv::ReaderBuilder::new()
            .has_headers(false)
            .flexible(true)
            .delimiter(delimiter)
            .from_reader(bytes);
        rdr.byte_records()
            .map(|r| r.unwrap().iter().map(<[u8]>::to_vec).collect())
            .collect()
    }

    #[test]
    fn the_csv_crate_reads_the_same_records_from_the_stream() {
        // Pseudo-random texts of the bytes that matter (an LCG: the same
        // texts every run). Spaces are left out: a line of them is blank
        // here and a record of one cell to the `csv` crate.
        let alphabet = b"a,\"\n\r;";
        let mut seed = 7u64;
        let mut checked = 0;
        for _ in 0..3000 {
            let len = (seed >> 33) % 24;
            let mut text = Vec::new();
            for _ in 0..len {
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                text.push(alphabet[((seed >> 33) % alphabet.len() as u64) as usize]);
            }
            for delimiter in [",", ";", ",;"] {
                let d = Dialect {
                    written: Some(delimiter.as_bytes().to_vec()),
                    ..Dialect::default()
                };
                let Ok((out, lines)) = run(&text, &d, 1 << 20) else {
                    continue;
                };
                let ours = records(
                    out.replace('\u{FFFD}', "\u{1}").as_bytes(),
                    if delimiter.len() == 1 {
                        delimiter.as_bytes()[0]
                    } else {
                        1
                    },
                );
                if delimiter.len() == 1 {
                    assert_eq!(ours, records(&text, delimiter.as_bytes()[0]), "{text:?}");
                }
                assert_eq!(ours.len(), lines.len(), "{text:?}");
                checked += 1;
            }
        }
        assert!(checked > 6000, "{checked}");
    }
}

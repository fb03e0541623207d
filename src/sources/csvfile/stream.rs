//! The bytes a CSV file holds, made into what the `csv` crate reads well,
//! with each record's line in the file.
//!
//! [`CsvStream`] reads the file line by line and follows the quoting as the
//! `csv` crate does (`"` opens a field that starts with it, `""` inside is
//! a quote). On the way it drops the `skip` lines, blank lines and comment
//! lines (blank as pandas reads it: empty, or only spaces and tabs none of
//! them the delimiter, whatever its length, with a line end or not); ends
//! every record with one `\n`; turns a delimiter of several
//! bytes (`", "`) outside quotes into the one byte `0xFF` (never in UTF-8
//! text, so it cannot be in a cell; a raw `0xFF` there is an error); and with
//! `trim`, drops the spaces that start a field, so `a, "b, c"` is two cells.
//! For each record it writes to the `csv` crate it queues the line where
//! the record starts: the `csv` crate counts lines of what it is given and,
//! at CRLF line ends, one too few.
//!
//! Memory is bounded: the file is read in pieces of at most [`PIECE`]
//! bytes (a line may take several), skipped and comment lines are never
//! held whole, a line of spaces and tabs is held only up to `max_line`
//! (past that it is blank or a record too long), and a record longer than
//! `max_line` (quoted newlines included) is an error ([`TooLong`]) naming
//! its line and byte offset. A quoted field still open at the end of the
//! file is an error naming where it opened ([`Unclosed`]): the `csv` crate
//! would read every later row into it, silently.

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

/// A record over the limit: the line and the byte offset where it starts.
#[derive(Debug)]
pub(super) struct TooLong {
    pub line: u64,
    pub offset: u64,
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

/// The most bytes read at once (up to a line end).
const PIECE: u64 = 1 << 16;

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

/// A line's start of only blank bytes that its piece ended in: the line is
/// blank if it ends so, else a record starting with them.
struct Blanks {
    /// The bytes, while at most `limit` (past that the record is too long).
    bytes: Vec<u8>,
    len: u64,
    line: u64,
    offset: u64,
}

/// A CSV file's bytes as the `csv` crate should read them (see the module
/// docs); the delimiter it should use is [`Dialect::byte`].
pub(super) struct CsvStream<'d, R> {
    inner: BufReader<R>,
    dialect: &'d Dialect,
    limit: u64,
    starts: Starts,
    /// Bytes ready for the reader, from `out[pos..]`.
    out: Vec<u8>,
    pos: usize,
    /// The piece of a line being worked on.
    buf: Vec<u8>,
    /// The number of the line the next byte read is on, and its offset.
    line: u64,
    offset: u64,
    /// The next byte read is not at a line's start (the last piece did
    /// not end the line); `discard`: the rest of that line is skipped.
    partial: bool,
    discard: bool,
    /// Bytes of the last piece held back for the next (see `piece`).
    carry: Vec<u8>,
    /// The line so far only of blank bytes, from an earlier piece.
    blanks: Option<Blanks>,
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
            partial: false,
            discard: false,
            carry: Vec::new(),
            blanks: None,
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

    /// Whether `b` may make a line blank: a space or a tab that is not
    /// the delimiter (pandas' C reader; its Python one, which reads
    /// delimiters of several bytes, skips every such line).
    fn blank(&self, b: u8) -> bool {
        (b == b' ' || b == b'\t') && self.dialect.delimiter() != [b]
    }

    /// The number of blank bytes `rest` starts with, and whether a record
    /// starts after them (a byte follows that is not a line end).
    fn blank_run(&self, rest: &[u8]) -> (usize, bool) {
        let k = rest
            .iter()
            .position(|b| !self.blank(*b))
            .unwrap_or(rest.len());
        (k, rest.get(k).is_some_and(|b| *b != b'\n' && *b != b'\r'))
    }

    /// Holds `bytes`, blank, from a line's start at `line` and `offset`.
    fn hold(&mut self, bytes: &[u8], line: u64, offset: u64) {
        let limit = self.limit;
        let p = self.blanks.get_or_insert_with(|| Blanks {
            bytes: Vec::new(),
            len: 0,
            line,
            offset,
        });
        p.len += bytes.len() as u64;
        if p.len <= limit {
            p.bytes.extend_from_slice(bytes);
        } else {
            p.bytes = Vec::new();
        }
    }

    fn is_comment(&self, rest: &[u8]) -> bool {
        self.dialect
            .comment
            .as_ref()
            .is_some_and(|c| rest.starts_with(c))
    }

    /// Reads and works through the next piece of a line; false at the end.
    fn fill(&mut self) -> std::io::Result<bool> {
        let mut buf = std::mem::take(&mut self.buf);
        buf.clear();
        buf.append(&mut self.carry);
        let result = self.piece(&mut buf);
        self.buf = buf;
        result
    }

    /// [`Self::fill`] into `buf` (holding the bytes carried from the last
    /// piece).
    fn piece(&mut self, buf: &mut Vec<u8>) -> std::io::Result<bool> {
        let n = (&mut self.inner).take(PIECE).read_until(b'\n', buf)?;
        if buf.is_empty() {
            // A last line of blanks with no line end is blank too.
            self.blanks = None;
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
        let base = self.offset;
        let fresh = !self.partial;
        let ends = buf.last() == Some(&b'\n');
        self.partial = !ends;
        if ends {
            self.line += 1;
        }
        if self.discard || line <= self.dialect.skip {
            // The rest of a comment line, or a skipped line: read through,
            // never held whole.
            self.offset += buf.len() as u64;
            self.discard = !ends;
            return Ok(true);
        }
        let mut i = 0;
        if fresh && line == 1 && buf.starts_with(b"\xEF\xBB\xBF") {
            i = 3;
        }
        // Unless the line ends here (or the file does), a delimiter or a
        // comment mark may go on in the next piece: `work` stops before one
        // that may, and those bytes wait for the next piece.
        // Blanks held from the line's earlier pieces that a record's bytes
        // now follow: the record starts with them.
        let mut joined: Vec<u8>;
        let (data, base) = match self.blanks.take() {
            Some(p) if self.blank_run(&buf[i..]).1 => {
                if p.len > self.limit {
                    return Err(std::io::Error::other(TooLong {
                        line: p.line,
                        offset: p.offset,
                    }));
                }
                joined = p.bytes;
                joined.extend_from_slice(&buf[i..]);
                i = 0;
                (&joined[..], p.offset)
            }
            p => {
                self.blanks = p;
                (&buf[..], base)
            }
        };
        let upto = self.work(data, i, line, base, ends || n == 0)?;
        self.offset = base + upto as u64;
        self.carry.extend_from_slice(&data[upto..]);
        Ok(true)
    }

    /// Works through `buf` (a piece of line `line` at stream offset `base`;
    /// `ends`: no byte of the line follows) from byte `i`, up to the end or
    /// to a delimiter's or comment mark's start that may go on in the next
    /// piece: returns where it stopped.
    fn work(
        &mut self,
        buf: &[u8],
        mut i: usize,
        line: u64,
        base: u64,
        ends: bool,
    ) -> std::io::Result<usize> {
        let cut_short =
            |rest: &[u8], mark: &[u8]| !ends && rest.len() < mark.len() && mark.starts_with(rest);
        let delim = self.dialect.delimiter();
        let several = delim.len() > 1;
        let out_delim = self.dialect.byte();
        let trim = self.dialect.trim;
        while i < buf.len() {
            if !self.in_record {
                let rest = &buf[i..];
                if self.blanks.is_none() {
                    if let Some(c) = &self.dialect.comment
                        && cut_short(rest, c)
                    {
                        return Ok(i);
                    }
                    if self.is_comment(rest) {
                        // A comment runs to the line's end.
                        self.discard = !ends;
                        return Ok(buf.len());
                    }
                }
                let (k, record) = self.blank_run(rest);
                if !record {
                    if k == rest.len() && !ends {
                        // Blank so far: whether the line is depends on
                        // the next piece.
                        self.hold(rest, line, base + i as u64);
                        return Ok(buf.len());
                    }
                    // Past the blank line's end (a lone `\r` ends it too).
                    self.blanks = None;
                    i = (i + k + 1).min(buf.len());
                    continue;
                }
                self.in_record = true;
                self.at = At::FieldStart;
                self.len = 0;
                self.wrote = false;
                self.start_line = line;
                self.start = base + i as u64;
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
            } else if cut_short(rest, delim) {
                return Ok(i);
            } else if rest.starts_with(delim) {
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
                }));
            }
        }
        Ok(buf.len())
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
mod tests;

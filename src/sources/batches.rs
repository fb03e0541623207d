//! JSONL on two cores: one thread reads (and decompresses) and cuts the stream into
//! batches of whole lines; the batches are parsed (and run through the
//! caller's row-wise work) in parallel; the results are consumed in file
//! order. Memory is a few batches in flight, whatever the file size (a
//! batch holds whole lines: a line longer than a batch grows its own, up to
//! the source's `max_line` and no further, see [`super::limit`]), and the
//! output is the same as reading line by line: results are taken in order
//! and the first error in file order wins.

use std::io::Read;
use std::sync::Arc;
use std::sync::mpsc::sync_channel;

use super::json::Projection;
use super::{SourceFile, limit, open_counted, parse_line, parse_line_projected};
use crate::error::Result;
use crate::value::{Origin, Row};

/// Bytes per batch (whole lines; a longer line makes a longer batch) once
/// [`RAMP`] bytes are read: each batch costs a hand-over between threads
/// and its own group keys and buffers, which a megabyte amortises (on the
/// 1 GiB whole-paper bench, 1 MiB batches took 13% less wall time than
/// 256 KiB ones, for +9 MiB of peak RSS with [`QUEUE`]).
const BATCH: usize = 1 << 20;
/// Bytes per batch before [`RAMP`]: a small file still makes several
/// batches, for both cores.
const FIRST_BATCH: usize = 1 << 18;
/// Stream bytes read in batches of [`FIRST_BATCH`].
const RAMP: u64 = 1 << 23;
/// Batches queued between the reading thread and the parsers: the reader
/// shares two cores with the parsers and, descheduled for a time slice,
/// must be far enough ahead that they do not wait (with 2, the parsers
/// waited 0.45 s of a 1 GiB run, with 4 0.2 s; wall over CPU time 0.568
/// and 0.554).
const QUEUE: usize = 4;

/// A run of whole lines (`bytes[..len]`) and the number of its first line.
struct Batch {
    first_line: u64,
    bytes: Vec<u8>,
    len: usize,
}

/// Buffers the workers are done with, for the reader to fill again (so a
/// batch's memory is not zeroed and faulted in anew each time).
type Pool = std::sync::Mutex<Vec<Vec<u8>>>;

/// Reads `file`, sending batches of whole lines until the end or an error.
fn read_batches(
    file: &SourceFile,
    count: Arc<std::sync::atomic::AtomicU64>,
    pool: &Pool,
    tx: std::sync::mpsc::SyncSender<Result<Batch>>,
) {
    let mut reader = match open_counted(file, Some(count)) {
        Ok(r) => r,
        Err(e) => {
            let _ = tx.send(Err(e));
            return;
        }
    };
    // The start of a line cut by the end of the last batch.
    let mut carry: Vec<u8> = Vec::new();
    let mut long: Option<Vec<u8>> = None;
    let mut line = 1u64;
    // The stream offset of the buffer's first byte (a line's start).
    let mut base = 0u64;
    let limit = file.max_line;
    let too_long = |line: u64, at: usize, base: u64| {
        Err(limit::too_long(
            &file.rel,
            file.compression.is_compressed(),
            "line",
            line,
            base + at as u64,
            limit,
        ))
    };
    loop {
        let batch = if base < RAMP { FIRST_BATCH } else { BATCH };
        let (mut buf, start) = next_buffer(long.take(), &mut carry, pool, batch);
        if buf.len() < start + batch {
            buf.resize(start + batch, 0);
        }
        let filled = match fill(&mut reader, &mut buf, start, start + batch) {
            Ok(filled) => filled,
            Err(e) => {
                let _ = tx.send(Err(super::compress::read_error(file, &e, Some(line - 1))));
                return;
            }
        };
        let eof = filled < start + batch;
        // Only the bytes just read can hold a newline (the carried start
        // of a line has none): a long line is not scanned again each time
        // it grows (that was quadratic in its length).
        let cut = if eof {
            filled
        } else {
            memchr::memrchr(b'\n', &buf[start..filled]).map_or(0, |i| start + i + 1)
        };
        if cut == 0 && !eof {
            // One line longer than the batch: keep reading it, but not
            // past `max_line` (a line of gigabytes is not held whole).
            if filled as u64 > limit {
                let _ = tx.send(too_long(line, 0, base));
                return;
            }
            buf.truncate(filled);
            long = Some(buf);
            continue;
        }
        if filled as u64 > limit {
            // Some line here may exceed the limit (with the default limit,
            // only a line of over 64 MiB): measure each. The lines before
            // it are sent first, so an earlier error still comes first.
            if let Some((n, from)) = first_too_long(&buf[..filled], line, limit) {
                if from > 0 {
                    let batch = Batch {
                        first_line: line,
                        bytes: buf,
                        len: from,
                    };
                    if tx.send(Ok(batch)).is_err() {
                        return;
                    }
                }
                let _ = tx.send(too_long(n, from, base));
                return;
            }
        }
        carry.extend_from_slice(&buf[cut..filled]);
        let lines = memchr::memchr_iter(b'\n', &buf[..cut]).count() as u64;
        let first_line = line;
        line += lines;
        base += cut as u64;
        if cut > 0
            && tx
                .send(Ok(Batch {
                    first_line,
                    bytes: buf,
                    len: cut,
                }))
                .is_err()
        {
            return;
        }
        if eof {
            return;
        }
    }
}

/// The buffer for the next batch and where its new bytes start: a long
/// line's own buffer (to grow), or a pooled one that starts with the
/// `carry` (the start of a line cut by the last batch).
fn next_buffer(
    long: Option<Vec<u8>>,
    carry: &mut Vec<u8>,
    pool: &Pool,
    batch: usize,
) -> (Vec<u8>, usize) {
    match long {
        // A line longer than a batch grows in its own buffer.
        Some(b) => {
            let n = b.len();
            (b, n)
        }
        None => {
            let mut buf = pool
                .lock()
                .ok()
                .and_then(|mut p| p.pop())
                .unwrap_or_default();
            let n = carry.len();
            if buf.len() < n + batch {
                buf.resize(n + batch, 0);
            }
            buf[..n].copy_from_slice(carry);
            carry.clear();
            (buf, n)
        }
    }
}

/// Fills `buf[start..end]` from `reader` (which may return short reads);
/// returns how far it is filled (short of `end` at the end of the stream).
fn fill(
    reader: &mut impl Read,
    buf: &mut [u8],
    start: usize,
    end: usize,
) -> std::io::Result<usize> {
    let mut filled = start;
    while filled < end {
        match reader.read(&mut buf[filled..end]) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        }
    }
    Ok(filled)
}

/// The first line of `bytes` (whose first line is `line`) longer than
/// `limit`: its number and offset.
fn first_too_long(bytes: &[u8], line: u64, limit: u64) -> Option<(u64, usize)> {
    let mut from = 0;
    let mut n = line;
    for nl in memchr::memchr_iter(b'\n', bytes) {
        if (nl - from) as u64 > limit {
            return Some((n, from));
        }
        from = nl + 1;
        n += 1;
    }
    ((bytes.len() - from) as u64 > limit).then_some((n, from))
}

/// The non-blank lines of a batch whose first line is `first_line`, with
/// their numbers: a final `\r` and a leading UTF-8 BOM removed.
pub fn lines(bytes: &[u8], first_line: u64) -> impl Iterator<Item = (u64, &[u8])> {
    let mut rest = Some(bytes);
    let mut line_no = first_line;
    std::iter::from_fn(move || {
        loop {
            let text = rest?;
            let raw = match memchr::memchr(b'\n', text) {
                Some(i) => {
                    rest = Some(&text[i + 1..]);
                    &text[..i]
                }
                None => {
                    rest = None;
                    text
                }
            };
            let n = line_no;
            line_no += 1;
            if let Some(line) = line_text(raw, n) {
                return Some((n, line));
            }
        }
    })
}

/// Line `n` (`raw`: without its `\n`) as [`lines`] gives it: a final `\r`
/// and, on line 1, a leading UTF-8 BOM removed; `None` when it is blank.
#[inline]
pub fn line_text(raw: &[u8], n: u64) -> Option<&[u8]> {
    let mut line = raw.strip_suffix(b"\r").unwrap_or(raw);
    if n == 1 {
        line = line.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(line);
    }
    (!line.iter().all(u8::is_ascii_whitespace)).then_some(line)
}

/// The rows of one batch.
fn parse_batch(
    file: &SourceFile,
    path: &Arc<str>,
    batch: &[u8],
    first_line: u64,
    projection: Option<&Projection>,
) -> Result<Vec<Row>> {
    let mut rows = Vec::with_capacity(batch.len() / 256);
    for (line_no, line) in lines(batch, first_line) {
        rows.push(parse_row(file, path, line_no, line, projection)?);
    }
    Ok(rows)
}

/// The row of line `line_no` of `file` (`path`: its name, shared by the
/// rows), whole or with only the fields of `projection`.
pub fn parse_row(
    file: &SourceFile,
    path: &Arc<str>,
    line_no: u64,
    line: &[u8],
    projection: Option<&Projection>,
) -> Result<Row> {
    let rec = match projection {
        None => parse_line(&file.rel, line_no, line)?,
        Some(p) => parse_line_projected(&file.rel, line_no, line, p)?,
    };
    Ok(Row {
        extra: Default::default(),
        fields: Arc::new(rec),
        origin: Origin {
            partial: projection.is_some(),
            ..Origin::line(path.clone(), line_no)
        },
    })
}

/// Work on one batch of whole lines (`bytes`, first line number): returns
/// the number of records read and the result.
pub type BatchFn<'f, T> = dyn Fn(&[u8], u64) -> Result<(u64, T)> + Sync + 'f;

/// Streams a JSONL file: `work` runs on each batch's rows in parallel,
/// `each` consumes the results in file order. Returns the number of rows.
pub fn stream_jsonl<T: Send>(
    file: &SourceFile,
    projection: Option<&Projection>,
    work: &(dyn Fn(Vec<Row>) -> Result<T> + Sync),
    each: &mut dyn FnMut(T) -> Result<()>,
) -> Result<u64> {
    let path: Arc<str> = Arc::from(file.rel.as_str());
    stream_batches(
        file,
        &|bytes, first_line| {
            let rows = parse_batch(file, &path, bytes, first_line, projection)?;
            let n = rows.len() as u64;
            Ok((n, work(rows)?))
        },
        each,
    )
}

/// Streams a JSONL file in batches of whole lines: `run` works on each
/// batch in parallel, `each` consumes the results in file order. Returns
/// the number of records.
pub fn stream_batches<T: Send>(
    file: &SourceFile,
    run: &BatchFn<'_, T>,
    each: &mut dyn FnMut(T) -> Result<()>,
) -> Result<u64> {
    let workers = rayon::current_num_threads().max(1);
    let read = Arc::new(std::sync::atomic::AtomicU64::new(0));
    let size = std::fs::metadata(&file.abs).map(|m| m.len()).unwrap_or(0);
    let mut progress = crate::progress::Progress::new(&file.rel, size);
    let pool = Pool::default();
    let result = std::thread::scope(|scope| -> Result<u64> {
        // reader -> batches -> parsing workers -> results (tagged) -> here,
        // put back in file order; every queue is bounded.
        let (batch_tx, batch_rx) = sync_channel::<Result<Batch>>(QUEUE);
        let (result_tx, result_rx) = sync_channel::<(u64, Result<(u64, T)>)>(QUEUE);
        let reader_count = read.clone();
        let pool = &pool;
        scope.spawn(move || read_batches(file, reader_count, pool, batch_tx));
        let batches = Arc::new(std::sync::Mutex::new((batch_rx, 0u64)));
        for _ in 0..workers {
            let batches = batches.clone();
            let result_tx = result_tx.clone();
            scope.spawn(move || {
                loop {
                    let (index, batch) = {
                        let mut guard = match batches.lock() {
                            Ok(g) => g,
                            Err(_) => return,
                        };
                        let Ok(batch) = guard.0.recv() else { return };
                        guard.1 += 1;
                        (guard.1 - 1, batch)
                    };
                    let out = batch.and_then(|b| {
                        let out = run(&b.bytes[..b.len], b.first_line);
                        if let Ok(mut p) = pool.lock() {
                            p.push(b.bytes);
                        }
                        out
                    });
                    if result_tx.send((index, out)).is_err() {
                        return;
                    }
                }
            });
        }
        drop(result_tx);
        let mut pending = std::collections::BTreeMap::new();
        let mut next = 0u64;
        let mut count = 0u64;
        for (index, out) in result_rx.iter() {
            pending.insert(index, out);
            while let Some(out) = pending.remove(&next) {
                let (n, t) = out?;
                count += n;
                each(t)?;
                next += 1;
                progress.set(read.load(std::sync::atomic::Ordering::Relaxed));
            }
        }
        Ok(count)
    });
    progress.finish();
    result
}

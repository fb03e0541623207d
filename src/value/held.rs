//! The memory cap: how many bytes of rows a run may hold at once.
//!
//! A table that streams into a group step, or a number computed on a
//! stream, holds one row per group; a source loaded whole, a table whose
//! rows a figure draws, or a group step with a group per record holds
//! rows. Each row held is counted here, by an estimate of its bytes
//! ([`row_bytes`]: the same on every machine, so a run stops at the same
//! row everywhere), and a run whose rows would pass the cap stops with an
//! error naming the table and the cap, before the machine's memory runs
//! out. The cap is [`DEFAULT_CAP`] unless `--max-memory` or
//! `ARTIFACT_MAX_MEMORY` sets it ([`set_cap`]).

use std::sync::atomic::{AtomicU64, Ordering};

use super::{Record, Row, Value};
use crate::error::{Error, Result};
use minijinja::value::ValueKind;

/// The cap when nothing sets it: 2 GiB of rows.
pub const DEFAULT_CAP: u64 = 2 << 30;

/// Words every cap error has (what [`is_cap_error`] looks for).
const MARK: &str = "over the memory cap";

static CAP: AtomicU64 = AtomicU64::new(DEFAULT_CAP);
static HELD: AtomicU64 = AtomicU64::new(0);

/// Sets the cap, in bytes (at least 1 MiB).
pub fn set_cap(bytes: u64) {
    CAP.store(bytes.max(1 << 20), Ordering::Relaxed);
}

/// The cap, in bytes.
pub fn cap() -> u64 {
    CAP.load(Ordering::Relaxed)
}

/// Forgets the rows counted so far: a new run (a catalog) starts at zero.
pub fn reset() {
    HELD.store(0, Ordering::Relaxed);
}

/// Whether `e` is the error of a run that passed the cap.
pub fn is_cap_error(e: &Error) -> bool {
    e.to_string().contains(MARK)
}

/// A size as the cap's messages print it: `2 GiB`, `512 MiB`, `1.5 GiB`.
pub fn size_text(bytes: u64) -> String {
    const UNITS: [&str; 4] = ["KiB", "MiB", "GiB", "TiB"];
    let mut x = bytes as f64;
    let mut unit = "B";
    for u in UNITS {
        if x < 1024.0 {
            break;
        }
        x /= 1024.0;
        unit = u;
    }
    let text = format!("{x:.1}");
    format!("{} {unit}", text.strip_suffix(".0").unwrap_or(&text))
}

/// A size such as `2GiB`, `512 MiB`, `4G`, `1.5 GB` or a number of bytes:
/// for `--max-memory` and `ARTIFACT_MAX_MEMORY`. Binary and SI prefixes
/// both count in powers of 1024, as memory is sold.
pub fn parse_size(text: &str) -> std::result::Result<u64, String> {
    let t = text.trim();
    let split = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(t.len());
    let (num, unit) = t.split_at(split);
    let x: f64 = num
        .parse()
        .map_err(|_| format!("`{text}` is not a size (write `4GiB`, `512MiB` or bytes)"))?;
    let scale: u64 = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 1,
        "k" | "kb" | "kib" => 1 << 10,
        "m" | "mb" | "mib" => 1 << 20,
        "g" | "gb" | "gib" => 1 << 30,
        "t" | "tb" | "tib" => 1 << 40,
        other => {
            return Err(format!(
                "`{text}`: unknown unit `{other}` (write `4GiB`, `512MiB` or bytes)"
            ));
        }
    };
    let bytes = x * scale as f64;
    if !bytes.is_finite() || bytes < (1u64 << 20) as f64 || bytes > 1e18 {
        return Err(format!("`{text}`: the cap must be between 1 MiB and 1 EiB"));
    }
    Ok(bytes as u64)
}

/// An estimate of the heap bytes row `row` holds: its fields' names and
/// values, nested maps and lists included (to depth 16), strings by their
/// length. Fields shared with other rows (an exploded entry's record) are
/// counted again: the estimate errs high.
pub fn row_bytes(row: &Row) -> u64 {
    64 + record_bytes(&row.fields, 0)
}

fn record_bytes(rec: &Record, depth: usize) -> u64 {
    rec.0
        .iter()
        .map(|(k, v)| 48 + k.len() as u64 + value_bytes(v, depth + 1))
        .sum()
}

fn value_bytes(v: &Value, depth: usize) -> u64 {
    if depth > 16 {
        return 24;
    }
    match v.kind() {
        ValueKind::String | ValueKind::Bytes => 24 + v.as_str().map_or(0, |s| s.len() as u64),
        ValueKind::Map => match v.downcast_object_ref::<Record>() {
            Some(r) => 64 + record_bytes(r, depth),
            None => 64 + v.len().unwrap_or(0) as u64 * 72,
        },
        ValueKind::Seq => {
            32 + v
                .try_iter()
                .map(|it| it.map(|x| value_bytes(&x, depth + 1)).sum::<u64>())
                .unwrap_or(0)
        }
        _ => 24,
    }
}

/// The rows one table (or source) holds, counted against the cap.
#[derive(Debug)]
pub struct Held {
    /// What holds them, for the message (`table `log``).
    what: String,
    rows: u64,
    bytes: u64,
}

impl Held {
    /// A count for `what` (`table `log``, `source `runs``).
    pub fn new(what: impl Into<String>) -> Held {
        Held {
            what: what.into(),
            rows: 0,
            bytes: 0,
        }
    }

    /// Counts one more row held; an error when the run's rows would pass
    /// the cap.
    pub fn add(&mut self, row: &Row) -> Result<()> {
        let b = row_bytes(row);
        self.rows += 1;
        self.bytes += b;
        let total = HELD.fetch_add(b, Ordering::Relaxed) + b;
        let cap = cap();
        if total <= cap {
            return Ok(());
        }
        Err(Error::msg(format!(
            "{} holds {} row(s) of about {} each, and the run's rows would go {MARK} of {}: \
             read it through a step that streams (a `group` step, or a number straight on \
             it: docs/explanation/streaming.md), keep fewer fields, or raise the cap with \
             `--max-memory` (or ARTIFACT_MAX_MEMORY)",
            self.what,
            self.rows,
            size_text(self.bytes / self.rows.max(1)),
            size_text(cap)
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_parse_in_powers_of_1024() {
        assert_eq!(parse_size("4GiB"), Ok(4 << 30));
        assert_eq!(parse_size("512 MiB"), Ok(512 << 20));
        assert_eq!(parse_size("1.5G"), Ok(3 << 29));
        assert_eq!(parse_size("2097152"), Ok(2 << 20));
        assert!(
            parse_size("12 parsecs")
                .unwrap_err()
                .contains("unknown unit `parsecs`")
        );
        assert!(parse_size("1k").unwrap_err().contains("between 1 MiB"));
        assert!(parse_size("GiB").unwrap_err().contains("not a size"));
    }

    #[test]
    fn sizes_print_short() {
        assert_eq!(size_text(2 << 30), "2 GiB");
        assert_eq!(size_text(1536 << 20), "1.5 GiB");
        assert_eq!(size_text(700), "700 B");
    }
}

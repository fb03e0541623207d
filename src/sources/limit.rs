//! The bound on what one read holds in memory: `max_line` (per source,
//! default [`DEFAULT_MAX_LINE`]).
//!
//! It bounds a JSONL line (compressed or not: the reader stops buffering a
//! line at the limit, it does not read the whole line first), a CSV record
//! (the bytes from one record end to the next, quoted newlines included)
//! and a whole JSON document (read whole, so the limit applies to the
//! document). A longer one is an error naming the file, the line and the
//! byte offset where it starts; `max_line = "1 GiB"` (or a byte count)
//! raises the limit for a source whose lines are that long.

use std::io::Read;

use crate::error::{Error, Result};
use crate::spec::{LoadedSpec, SourceSpec};

/// The default `max_line`: 64 MiB, far above any real log line, far below
/// what exhausts memory.
pub const DEFAULT_MAX_LINE: u64 = 64 << 20;

/// The source's `max_line` in bytes: an integer (bytes) or a size text
/// (`"256 MiB"`, `"1 GiB"`, `"500 kB"`: IEC units are powers of 1024, SI
/// units powers of 1000). An error at its line and column when it is not
/// a positive size.
pub fn max_line(spec: &LoadedSpec, src: &SourceSpec) -> Result<u64> {
    let Some(raw) = &src.max_line else {
        return Ok(DEFAULT_MAX_LINE);
    };
    let bad = |found: String| {
        spec.error(
            raw.span(),
            format!(
                "`max_line` must be a positive size such as \"256 MiB\" or a byte count, found {found}"
            ),
        )
    };
    let bytes = match raw.get_ref() {
        toml::Value::Integer(n) => u64::try_from(*n).map_err(|_| bad(n.to_string()))?,
        toml::Value::String(s) => {
            // `bytesize` reads a number and a unit; a bare number is bytes.
            let t = s.trim();
            let ok = t.starts_with(|c: char| c.is_ascii_digit());
            match t.parse::<bytesize::ByteSize>() {
                Ok(b) if ok => b.as_u64(),
                _ => return Err(bad(format!("{s:?}"))),
            }
        }
        other => return Err(bad(format!("{} {other}", other.type_str()))),
    };
    if bytes == 0 {
        return Err(bad(format!("{}", raw.get_ref())));
    }
    Ok(bytes)
}

/// A byte count as the user would write it: `64 MiB`, `100 bytes`.
pub fn show(bytes: u64) -> String {
    for (unit, shift) in [("GiB", 30), ("MiB", 20), ("KiB", 10)] {
        if bytes >= 1 << shift && bytes.is_multiple_of(1 << shift) {
            return format!("{} {unit}", bytes >> shift);
        }
    }
    if bytes == 1 {
        return "1 byte".to_string();
    }
    format!("{bytes} bytes")
}

/// The error for a line (`what`: "line", "CSV record") of `file` longer
/// than `limit`, starting at byte `offset` (of the decompressed stream when
/// `decompressed`) on line `line`.
pub fn too_long(
    rel: &str,
    decompressed: bool,
    what: &str,
    line: u64,
    offset: u64,
    limit: u64,
) -> Error {
    let of = if decompressed {
        " of the decompressed stream"
    } else {
        ""
    };
    Error::input(
        rel.to_string(),
        Some(line),
        None,
        format!(
            "the {what} at byte offset {offset}{of} is longer than `max_line` ({}); reading stopped there (raise `max_line` on the source if such lines are real)",
            show(limit)
        ),
    )
}

/// Reads a whole document of at most `limit` bytes, or the error naming
/// the file (nothing past the limit is held).
pub fn read_document(
    rel: &str,
    decompressed: bool,
    reader: impl Read,
    limit: u64,
    read_error: impl Fn(std::io::Error) -> Error,
) -> Result<Vec<u8>> {
    let mut bytes = Vec::new();
    reader
        .take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(read_error)?;
    if bytes.len() as u64 > limit {
        let of = if decompressed { " (decompressed)" } else { "" };
        return Err(Error::input(
            rel.to_string(),
            None,
            None,
            format!(
                "the JSON document is longer than `max_line` ({}){of}: a document is read whole, so the limit applies to all of it (raise `max_line` on the source if it is real)",
                show(limit)
            ),
        ));
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_show_in_their_unit() {
        assert_eq!(show(64 << 20), "64 MiB");
        assert_eq!(show(1 << 30), "1 GiB");
        assert_eq!(show(3 << 10), "3 KiB");
        assert_eq!(show(100), "100 bytes");
        assert_eq!(show(1), "1 byte");
        assert_eq!(show((1 << 20) + 1), "1048577 bytes");
    }
}

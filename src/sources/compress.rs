//! Compressed source files: zstd and gzip, on every format, streamed
//! (never decompressed whole).
//!
//! A file is compressed when its name ends in `.zst` or `.gz`, or else when
//! its first bytes are a zstd frame's magic number (`28 b5 2f fd`, RFC 8878)
//! or gzip's (`1f 8b`, RFC 1952): `results.jsonl` that is really gzip, a
//! `.log` read with `format = "jsonl"`. Neither magic is valid UTF-8 (`b5`
//! and `8b` are continuation bytes), so no text file is taken for one.
//!
//! Every frame of a multi-frame zstd file and every member of a
//! multi-member gzip file (`cat a.gz b.gz`) is read. An empty compressed
//! file, a truncated one or one that is not what its name says is an error
//! naming the file.

use std::io::Read;
use std::path::Path;

use super::SourceFile;
use crate::error::{Error, Result};

/// How a source file is compressed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Compression {
    /// Not compressed.
    None,
    /// Zstandard (`.zst`).
    Zstd,
    /// gzip (`.gz`).
    Gzip,
}

impl Compression {
    /// The compression a (lowercase) file name's last extension says, and
    /// the name without it: `a.jsonl.gz` is gzip'd `a.jsonl`.
    pub fn of_name(lower: &str) -> (&str, Option<Compression>) {
        if let Some(stem) = lower.strip_suffix(".zst") {
            (stem, Some(Compression::Zstd))
        } else if let Some(stem) = lower.strip_suffix(".gz") {
            (stem, Some(Compression::Gzip))
        } else {
            (lower, None)
        }
    }

    /// The compression the file's first bytes show (`None` when they show
    /// none, or the file cannot be read: opening it again reports that).
    pub fn sniff(path: &Path) -> Compression {
        let mut head = [0u8; 4];
        let mut n = 0;
        if let Ok(mut f) = std::fs::File::open(path) {
            while n < head.len() {
                match f.read(&mut head[n..]) {
                    Ok(0) | Err(_) => break,
                    Ok(k) => n += k,
                }
            }
        }
        match &head[..n] {
            [0x28, 0xb5, 0x2f, 0xfd] => Compression::Zstd,
            [0x1f, 0x8b, ..] => Compression::Gzip,
            _ => Compression::None,
        }
    }

    /// Whether the bytes read are not the file's own.
    pub fn is_compressed(self) -> bool {
        self != Compression::None
    }

    /// Its name in messages: `zstd`, `gzip`.
    pub fn name(self) -> &'static str {
        match self {
            Compression::None => "uncompressed",
            Compression::Zstd => "zstd",
            Compression::Gzip => "gzip",
        }
    }
}

/// The decompressed stream of `file` read from `raw` (the file's bytes).
pub(super) fn decoder(
    file: &SourceFile,
    raw: Box<dyn Read + Send>,
) -> Result<Box<dyn Read + Send>> {
    if !file.compression.is_compressed() {
        return Ok(raw);
    }
    let len = std::fs::metadata(&file.abs)
        .map_err(|e| Error::io(&file.abs, e))?
        .len();
    if len == 0 {
        return Err(Error::input(
            file.rel.clone(),
            None,
            None,
            format!(
                "empty file (0 bytes): not a {} stream",
                file.compression.name()
            ),
        ));
    }
    Ok(match file.compression {
        // The streaming decoder reads every frame of a multi-frame file,
        // unlike python-zstandard's one-shot decompress(), which stops
        // after the first.
        Compression::Zstd => {
            Box::new(zstd::stream::read::Decoder::new(raw).map_err(|e| Error::io(&file.abs, e))?)
        }
        // `GzDecoder` would stop after the first member, silently.
        Compression::Gzip => Box::new(flate2::read::MultiGzDecoder::new(raw)),
        Compression::None => raw,
    })
}

/// The error for a failed read of `file` (`lines` read before it, when
/// counted): for a compressed file, that it is truncated or not what its
/// name says.
pub fn read_error(file: &SourceFile, e: &std::io::Error, lines: Option<u64>) -> Error {
    let what = if file.compression.is_compressed() {
        format!(
            "cannot decompress: the file is truncated or not {}",
            file.compression.name()
        )
    } else {
        "cannot read the file".to_string()
    };
    let read = match lines {
        Some(n) if n > 0 => format!(" ({n} lines read before it)"),
        _ => String::new(),
    };
    Error::input(file.rel.clone(), None, None, format!("{what} ({e}){read}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_last_extension_names_the_compression() {
        assert_eq!(
            Compression::of_name("a.jsonl.gz"),
            ("a.jsonl", Some(Compression::Gzip))
        );
        assert_eq!(
            Compression::of_name("a.csv.zst"),
            ("a.csv", Some(Compression::Zstd))
        );
        assert_eq!(Compression::of_name("a.gz.csv"), ("a.gz.csv", None));
    }

    #[test]
    fn magic_bytes_name_the_compression() {
        let dir = tempfile::tempdir().unwrap();
        let sniff = |bytes: &[u8]| {
            let p = dir.path().join("f");
            std::fs::write(&p, bytes).unwrap();
            Compression::sniff(&p)
        };
        assert_eq!(
            sniff(&zstd::encode_all(&b"{}\n"[..], 1).unwrap()),
            Compression::Zstd
        );
        assert_eq!(sniff(b"\x1f\x8b"), Compression::Gzip);
        assert_eq!(sniff(b"\x1f"), Compression::None);
        assert_eq!(sniff(b""), Compression::None);
        assert_eq!(sniff(b"a,b\n"), Compression::None);
        assert_eq!(sniff(b"(\xb5/"), Compression::None);
    }
}

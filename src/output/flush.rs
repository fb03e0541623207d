//! Flushing the transaction's temporary files to disk: many at once, and
//! a bounded number open.
//!
//! One `fsync` after another waits on the disk once per file (10⁵
//! figures' files took minutes), and keeping every temporary file open
//! until the renames runs out of file descriptors (the soft limit is
//! often 1,024, 256 on macOS). So files are flushed in batches of [`BATCH`] by
//! [`THREADS`] threads, and closed once flushed.

use std::fs::File;

use crate::error::Result;

/// Temporary files written before they are flushed and closed together.
pub(super) const BATCH: usize = 64;

/// Threads that flush one batch: a flush waits on the disk, not on a
/// core, and a disk takes many at once.
const THREADS: usize = 16;

/// Flushes and closes `files` (each with its output's relative path),
/// [`THREADS`] at a time. Errors: the first failure in `files`' order,
/// naming its file (`no space left on device while writing
/// figures/fig1.svg; nothing was changed`).
pub(super) fn flush(files: Vec<(String, File)>) -> Result<()> {
    if files.is_empty() {
        return Ok(());
    }
    let chunk = files.len().div_ceil(THREADS);
    let failures: Vec<Option<(&str, std::io::Error)>> = std::thread::scope(|scope| {
        let workers: Vec<_> = files
            .chunks(chunk)
            .map(|part| {
                scope.spawn(move || {
                    part.iter()
                        .find_map(|(rel, f)| f.sync_all().err().map(|e| (rel.as_str(), e)))
                })
            })
            .collect();
        workers
            .into_iter()
            .map(|w| {
                w.join().unwrap_or_else(|_| {
                    Some(("", std::io::Error::other("a flushing thread failed")))
                })
            })
            .collect()
    });
    match failures.into_iter().flatten().next() {
        Some((rel, e)) => Err(super::failed("writing", rel, &e)),
        None => Ok(()),
    }
}

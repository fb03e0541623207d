//! Progress on stderr for long reads: an indicatif bar that appears only
//! after a second of work and only when stderr is a terminal (CI logs and
//! pipes stay clean), never with `--quiet`.

use std::io::{IsTerminal, Read};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// A reader that counts the bytes read through it.
pub struct Counted<R> {
    inner: R,
    count: Arc<AtomicU64>,
}

impl<R: Read> Counted<R> {
    /// Wraps `inner`; `count` receives the bytes read.
    pub fn new(inner: R, count: Arc<AtomicU64>) -> Self {
        Counted { inner, count }
    }
}

impl<R: Read> Read for Counted<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.count.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}

/// A byte-progress bar for reading one file.
pub struct Progress {
    bar: ProgressBar,
    start: Instant,
    shown: bool,
    enabled: bool,
}

impl Progress {
    /// A bar for `label` over `total` bytes (hidden until a second passes).
    pub fn new(label: &str, total: u64) -> Progress {
        let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::hidden());
        bar.set_style(
            ProgressStyle::with_template(
                "{msg} {bar:30} {bytes}/{total_bytes} ({bytes_per_sec}, {eta})",
            )
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        // The label is a file's name: as the terminal gets every message.
        bar.set_message(crate::error::shown(label));
        Progress {
            bar,
            start: Instant::now(),
            shown: false,
            enabled: std::io::stderr().is_terminal() && crate::console::normal(),
        }
    }

    /// Reports `done` bytes.
    pub fn set(&mut self, done: u64) {
        if self.enabled && !self.shown && self.start.elapsed() > Duration::from_secs(1) {
            self.bar.set_draw_target(ProgressDrawTarget::stderr());
            self.shown = true;
        }
        self.bar.set_position(done);
    }

    /// Removes the bar.
    pub fn finish(self) {
        self.bar.finish_and_clear();
    }
}

impl Drop for Progress {
    /// A read that stops early (an error, a full sample) removes its bar too.
    fn drop(&mut self) {
        if !self.bar.is_finished() {
            self.bar.finish_and_clear();
        }
    }
}

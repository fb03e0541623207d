//! What the command line prints besides a command's result: errors,
//! notes and progress on stderr, by `--quiet` / `--verbose` and coloured by
//! `--color` (auto: when stderr is a terminal and `NO_COLOR` is unset).
//!
//! stdout and stderr may be a closed pipe (`artifact check | head -1`):
//! what cannot be printed is dropped, rather than panicking as `println!`
//! does. A command's result goes through `print_result` in main, which
//! reports other failures.

use std::io::IsTerminal;
use std::sync::atomic::{AtomicU8, Ordering};

/// 0: `--quiet` (errors only), 1: normal, 2: `--verbose`.
static LEVEL: AtomicU8 = AtomicU8::new(1);
/// 1 when stderr gets ANSI colours.
static COLOR: AtomicU8 = AtomicU8::new(0);

/// `--color`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ColorChoice {
    Auto,
    Always,
    Never,
}

/// Sets the level and colours from the command line.
pub fn init(quiet: bool, verbose: bool, color: ColorChoice) {
    LEVEL.store(
        if quiet {
            0
        } else if verbose {
            2
        } else {
            1
        },
        Ordering::Relaxed,
    );
    let on = match color {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => {
            std::io::stderr().is_terminal()
                && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
        }
    };
    COLOR.store(on as u8, Ordering::Relaxed);
}

/// Whether progress and notes are printed (not `--quiet`).
pub fn normal() -> bool {
    LEVEL.load(Ordering::Relaxed) >= 1
}

/// Whether `--verbose` was given.
pub fn verbose() -> bool {
    LEVEL.load(Ordering::Relaxed) >= 2
}

/// `label` (`error:`, `note:`) in its colour when colours are on.
pub fn tag(label: &str) -> String {
    if COLOR.load(Ordering::Relaxed) == 0 {
        return label.to_string();
    }
    let style = match label {
        "error:" => anstyle::AnsiColor::Red.on_default().bold(),
        "warning:" | "note:" => anstyle::AnsiColor::Yellow.on_default().bold(),
        _ => anstyle::Style::new().bold(),
    };
    format!("{style}{label}{style:#}")
}

/// Writes a line to stdout (a closed pipe is ignored).
#[macro_export]
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stdout(), $($arg)*);
    }};
}

/// Writes a line to stderr, always (errors, stale tables).
#[macro_export]
macro_rules! warn {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}

/// Writes to stderr without a newline, always.
#[macro_export]
macro_rules! warn_raw {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = write!(std::io::stderr(), $($arg)*);
    }};
}

/// `error: ...` on stderr, always.
#[macro_export]
macro_rules! error {
    ($($arg:tt)*) => {{
        $crate::warn!("{} {}", $crate::console::tag("error:"), format_args!($($arg)*));
    }};
}

/// `note: ...` on stderr unless `--quiet`.
#[macro_export]
macro_rules! note {
    ($($arg:tt)*) => {{
        if $crate::console::normal() {
            $crate::warn!("{} {}", $crate::console::tag("note:"), format_args!($($arg)*));
        }
    }};
}

/// Progress on stderr unless `--quiet`.
#[macro_export]
macro_rules! info {
    ($($arg:tt)*) => {{
        if $crate::console::normal() {
            $crate::warn!($($arg)*);
        }
    }};
}

/// Details on stderr with `--verbose` only.
#[macro_export]
macro_rules! detail {
    ($($arg:tt)*) => {{
        if $crate::console::verbose() {
            $crate::warn!($($arg)*);
        }
    }};
}

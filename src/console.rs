//! What the command line prints besides a command's result: errors,
//! notes and progress on stderr, by `--quiet` / `--verbose` and coloured by
//! `--color` (auto: when stderr is a terminal and `NO_COLOR` is unset).
//!
//! stdout and stderr may be a closed pipe (`artifact check | head -1`):
//! what cannot be printed is dropped, rather than panicking as `println!`
//! does. A command's result goes through [`print_result`] (text) or
//! [`print_data`] (JSON, CSV), which report other failures.
//!
//! Nothing reaches the terminal raw: every sink here prints its text
//! through [`shown_lines`], so a control character from data, a file name
//! or the spec is printed as `\u{...}` whatever message carries it.

use std::io::IsTerminal;
use std::sync::atomic::{AtomicU8, Ordering};

use crate::error::shown_lines;

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

/// Writes `text` to stdout as the terminal gets it ([`shown_lines`]: no
/// control character but the line breaks); a closed pipe is ignored. The
/// text results of commands (`show`, `explain`, `check`, `diff`, `lint`)
/// and [`say!`] print through it.
pub fn out(text: &str) -> std::io::Result<()> {
    use std::io::Write as _;
    let mut o = std::io::stdout().lock();
    o.write_all(shown_lines(text).as_bytes())?;
    o.flush()
}

/// Prints a command's text result as the terminal gets it ([`out`]). A
/// closed pipe (`artifact show t | head -1`) is the reader's choice and
/// quiet, any other failure (a full disk) is an error, since the result
/// is lost.
pub fn print_result(text: &str) -> crate::Result<()> {
    written(out(text))
}

/// Prints a machine-readable result (JSON, CSV, a completion script) as
/// it is: JSON escapes control characters itself, and a CSV cell's bytes
/// are the data's. Failures as [`print_result`].
pub fn print_data(text: &str) -> crate::Result<()> {
    use std::io::Write as _;
    let mut o = std::io::stdout().lock();
    written(o.write_all(text.as_bytes()).and_then(|()| o.flush()))
}

/// A write to stdout's outcome: a closed pipe is fine, another failure an
/// error.
fn written(r: std::io::Result<()>) -> crate::Result<()> {
    match r {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(crate::Error::msg(format!(
            "cannot write to standard output: {}",
            crate::files::cause(&e)
        ))),
        _ => Ok(()),
    }
}

/// Writes `text` to stderr as the terminal gets it ([`shown_lines`]);
/// what cannot be written is dropped. Every message on stderr ([`warn!`],
/// [`error!`], [`note!`], [`info!`], [`detail!`]) prints through it.
pub fn err(text: &str) {
    use std::io::Write as _;
    let _ = std::io::stderr()
        .lock()
        .write_all(shown_lines(text).as_bytes());
}

/// `label` (`error:`, `note:`), coloured, then `text` as [`err`] prints it,
/// and a line break.
pub fn tagged(label: &str, text: &str) {
    use std::io::Write as _;
    let _ = std::io::stderr()
        .lock()
        .write_all(tagged_line(label, text).as_bytes());
}

/// The line [`tagged`] prints: the label's colour is the only escape in it.
fn tagged_line(label: &str, text: &str) -> String {
    format!("{} {}\n", tag(label), shown_lines(text))
}

/// Writes a line to stdout (a closed pipe is ignored).
#[macro_export]
macro_rules! say {
    ($($arg:tt)*) => {{
        let _ = $crate::console::out(&format!("{}\n", format_args!($($arg)*)));
    }};
}

/// Writes a line to stderr, always (errors, stale tables).
#[macro_export]
macro_rules! warn {
    ($($arg:tt)*) => {{
        $crate::console::err(&format!("{}\n", format_args!($($arg)*)));
    }};
}

/// Writes to stderr without a newline, always.
#[macro_export]
macro_rules! warn_raw {
    ($($arg:tt)*) => {{
        $crate::console::err(&format!($($arg)*));
    }};
}

/// `error: ...` on stderr, always.
#[macro_export]
macro_rules! error {
    ($($arg:tt)*) => {{
        $crate::console::tagged("error:", &format!($($arg)*));
    }};
}

/// `note: ...` on stderr unless `--quiet`.
#[macro_export]
macro_rules! note {
    ($($arg:tt)*) => {{
        if $crate::console::normal() {
            $crate::console::tagged("note:", &format!($($arg)*));
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tagged_line_has_no_escape_but_its_labels_colour() {
        let hostile = "\u{1b}]0;PWNED\u{7}\u{1b}[2K\r\nerror: FAKE";
        COLOR.store(0, Ordering::Relaxed);
        assert_eq!(
            tagged_line("note:", hostile),
            "note: \\u{1b}]0;PWNED\\u{7}\\u{1b}[2K\\u{d}\nerror: FAKE\n"
        );
        COLOR.store(1, Ordering::Relaxed);
        let coloured = tagged_line("error:", hostile);
        COLOR.store(0, Ordering::Relaxed);
        assert_eq!(
            coloured,
            "\u{1b}[1m\u{1b}[31merror:\u{1b}[0m \\u{1b}]0;PWNED\\u{7}\\u{1b}[2K\\u{d}\nerror: FAKE\n"
        );
    }
}

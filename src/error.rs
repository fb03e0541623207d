//! One error type for the whole pipeline.
//!
//! Every error a user can cause names where it came from: a span of
//! `artifact.toml` (rendered with the offending line and a caret, like `just`
//! and `rustc`), or an input file with its line and field. Nothing in the
//! library panics on user input; everything returns [`Error`].

use std::fmt;
use std::path::{Path, PathBuf};

/// A place in an input file: `path:line` (1-based), plus the field when known.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InputLocation {
    /// The file, as the spec names it (relative to the spec's folder).
    pub path: String,
    /// 1-based line; `None` for whole-file problems (missing, truncated).
    pub line: Option<u64>,
    /// The field (dotted path such as `methods.zstd3_raw.ratio`), if known.
    pub field: Option<String>,
}

impl fmt::Display for InputLocation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // A file and a field are one line each, whatever their names hold.
        f.write_str(&shown(&self.path))?;
        if let Some(line) = self.line {
            write!(f, ":{line}")?;
        }
        if let Some(field) = &self.field {
            write!(f, ": field `{}`", shown(field))?;
        }
        Ok(())
    }
}

/// Everything that can go wrong, with enough context to act on.
#[derive(Debug)]
pub enum Error {
    /// A problem in `artifact.toml`, pointing at a byte span of it.
    Spec {
        /// Path of the spec file as shown to the user.
        path: String,
        /// The whole spec text (to render the offending line).
        source_text: String,
        /// Byte range of the offending text.
        span: std::ops::Range<usize>,
        /// What is wrong: one line (printed [`shown`]).
        message: String,
    },
    /// A problem in a data file: parse errors, type mismatches, missing fields.
    Input {
        /// Where.
        at: InputLocation,
        /// What is wrong: one line (printed [`shown`]).
        message: String,
    },
    /// An I/O failure on a named path.
    Io {
        /// The path involved.
        path: PathBuf,
        /// The OS error.
        source: std::io::Error,
    },
    /// An error inside a named part of the spec (table, number, figure).
    Context {
        /// For example "table `method_points`" or "figure `fig5`".
        what: String,
        /// The underlying error.
        inner: Box<Error>,
    },
    /// Several independent failures (one per figure, say).
    Many(Vec<Error>),
    /// Anything else, already phrased for the user.
    Message(String),
}

/// The crate's result type.
pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    /// An error at `path:line`, optionally naming a field.
    pub fn input(
        path: impl Into<String>,
        line: Option<u64>,
        field: Option<String>,
        message: impl Into<String>,
    ) -> Self {
        Error::Input {
            at: InputLocation {
                path: path.into(),
                line,
                field,
            },
            message: message.into(),
        }
    }

    /// An I/O error on `path`.
    pub fn io(path: &Path, source: std::io::Error) -> Self {
        Error::Io {
            path: path.to_path_buf(),
            source,
        }
    }

    /// A plain message.
    pub fn msg(message: impl Into<String>) -> Self {
        Error::Message(message.into())
    }

    /// The same error again: the plan keeps the error of a part compiled
    /// ahead of its use and reports it at each use. (An I/O error's source
    /// is copied as its kind and text.)
    pub fn again(&self) -> Self {
        match self {
            Error::Spec {
                path,
                source_text,
                span,
                message,
            } => Error::Spec {
                path: path.clone(),
                source_text: source_text.clone(),
                span: span.clone(),
                message: message.clone(),
            },
            Error::Input { at, message } => Error::Input {
                at: at.clone(),
                message: message.clone(),
            },
            Error::Io { path, source } => Error::Io {
                path: path.clone(),
                source: std::io::Error::new(source.kind(), source.to_string()),
            },
            Error::Context { what, inner } => Error::Context {
                what: what.clone(),
                inner: Box::new(inner.again()),
            },
            Error::Many(all) => Error::Many(all.iter().map(Error::again).collect()),
            Error::Message(m) => Error::Message(m.clone()),
        }
    }

    /// Wraps `self` as happening inside `what` (a table, number or figure).
    pub fn context(self, what: impl Into<String>) -> Self {
        Error::Context {
            what: what.into(),
            inner: Box::new(self),
        }
    }
}

/// `text` (a key, a file name) as a message prints it: control characters
/// and whitespace other than a space (plain, no-break or thin) as `\u{...}`, so that the message stays
/// one line and a name cannot move the cursor, colour the terminal or fake
/// a line of the report.
///
/// The one escape of every piece of text from data, file names or the spec
/// put into a message; the terminal's sinks apply it to each line of what
/// they print ([`shown_lines`]). It is idempotent: what it returns it
/// returns unchanged.
pub fn shown(text: &str) -> String {
    if !text.chars().any(escaped) {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        if escaped(c) {
            out.push_str(&format!("\\u{{{:x}}}", c as u32));
        } else {
            out.push(c);
        }
    }
    out
}

/// Whether [`shown`] escapes `c`: control characters, line and paragraph
/// separators, and the direction overrides that make a name read
/// backwards; not the spaces numbers print (no-break, thin).
fn escaped(c: char) -> bool {
    let bidi = matches!(c as u32, 0x200B..=0x200F | 0x202A..=0x202E | 0x2066..=0x2069 | 0xFEFF);
    let space = matches!(c, ' ' | '\u{a0}' | '\u{2009}' | '\u{202f}');
    c.is_control() || (c.is_whitespace() && !space) || bidi
}

/// `text` as the terminal gets it: each line [`shown`], the `\n` between
/// lines kept (a message's own line structure). Every sink of the command
/// line (errors, notes, progress, `lint`, `watch`, the text of `show`,
/// `explain`, `check` and `diff`) prints through it, so no escape, bell or
/// carriage return reaches the terminal whatever a message was built from;
/// a line break inside a piece of data is escaped where the piece is put
/// into the message, by [`shown`].
pub fn shown_lines(text: &str) -> std::borrow::Cow<'_, str> {
    // (Most text needs nothing: it is not copied.)
    if !text.chars().any(|c| c != '\n' && escaped(c)) {
        return text.into();
    }
    let lines: Vec<String> = text.split('\n').map(shown).collect();
    lines.join("\n").into()
}

/// 1-based line and column of byte offset `pos` in `text`, plus the line's text.
pub fn line_col(text: &str, pos: usize) -> (usize, usize, &str) {
    let pos = pos.min(text.len());
    let start = text[..pos].rfind('\n').map_or(0, |i| i + 1);
    let end = text[pos..].find('\n').map_or(text.len(), |i| pos + i);
    let line = text[..start].matches('\n').count() + 1;
    let col = text[start..pos].chars().count() + 1;
    (line, col, text[start..end].trim_end_matches('\r'))
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Spec {
                path,
                source_text,
                span,
                message,
            } => {
                let (line, col, text) = line_col(source_text, span.start);
                let spanned = source_text
                    [span.start.min(source_text.len())..span.end.min(source_text.len())]
                    .split('\n')
                    .next()
                    .unwrap_or("")
                    .trim_end_matches('\r');
                // The line as printed (a tab as four spaces, other control
                // characters escaped), the caret under the span as printed.
                let printed = |s: &str| shown(&s.replace('\t', "    "));
                let before: String = text.chars().take(col - 1).collect();
                let indent = printed(&before).chars().count();
                let width = printed(spanned).chars().count().max(1);
                let gutter = line.to_string().len();
                // A spec error's message is one line: a name or string of the
                // spec in it cannot start another.
                writeln!(f, "{}:{line}:{col}: {}", shown(path), shown(message))?;
                writeln!(f, "{:gutter$} |", "")?;
                writeln!(f, "{line} | {}", printed(text))?;
                write!(
                    f,
                    "{:gutter$} | {}{}",
                    "",
                    " ".repeat(indent),
                    "^".repeat(width)
                )
            }
            // An input error is one line: data in it cannot start another.
            Error::Input { at, message } => write!(f, "{at}: {}", shown(message)),
            Error::Io { path, source } => {
                write!(f, "{}: {source}", shown(&path.to_string_lossy()))
            }
            // The part's name is the spec's: one line, whatever it holds.
            Error::Context { what, inner } => write!(f, "{}: {inner}", shown(what)),
            Error::Many(errors) => {
                for (i, e) in errors.iter().enumerate() {
                    if i > 0 {
                        writeln!(f)?;
                    }
                    write!(f, "{e}")?;
                }
                Ok(())
            }
            Error::Message(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for Error {}

/// Names longer than this are not compared (Jaro-Winkler takes time
/// quadratic in the length; no one misspells a 300-character name).
const COMPARED: usize = 256;

/// What looking for the closest name may cost: the product of the
/// lengths compared, summed over the candidates (2^27, a tenth of a
/// second). A wide row's 200,000 short names take a fraction of it;
/// 200,000 names of 250 characters beside a name as long would take ten
/// seconds, so the candidates past it are not compared.
pub const COMPARE_BUDGET: usize = 1 << 27;

/// The cost of comparisons so far, against [`COMPARE_BUDGET`].
#[derive(Debug, Default)]
pub struct Budget(usize);

impl Budget {
    /// Counts comparing names of `a` and `b` bytes; `false` once the
    /// budget is spent (that comparison is not to be made).
    pub fn spend(&mut self, a: usize, b: usize) -> bool {
        self.0 = self.0.saturating_add(a.max(1).saturating_mul(b.max(1)));
        self.0 <= COMPARE_BUDGET
    }
}

/// The candidate closest to `name`, if one is close enough to be the name
/// meant: the same name in another case, or a Jaro-Winkler similarity of
/// at least 0.8 (`thruput` -> `throughput`). Ties go to the first listed.
/// One pass, within [`COMPARE_BUDGET`].
pub fn did_you_mean<'a>(
    name: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    if name.len() > COMPARED {
        return None;
    }
    let lower = name.to_lowercase();
    let mut best: Option<(f64, &str)> = None;
    let mut budget = Budget::default();
    for c in candidates.into_iter().filter(|c| c.len() <= COMPARED) {
        if !budget.spend(name.len(), c.len()) {
            break;
        }
        let score = if c.to_lowercase() == lower {
            2.0
        } else {
            strsim::jaro_winkler(&lower, &c.to_lowercase())
        };
        if score >= 0.8 && best.is_none_or(|(b, _)| score > b) {
            best = Some((score, c));
        }
    }
    best.map(|(_, c)| c)
}

/// At most this many names are listed in a message ("fields: ...",
/// "numbers: ..."): a row of 200,000 fields gives a line, not a page.
pub const LISTED: usize = 30;

/// A listed name is cut after this many characters (a key of a megabyte
/// would fill the message; its start is enough).
const LISTED_CHARS: usize = 80;

/// `names` joined by ", ", at most [`LISTED`] of them, each [`shown`] (a
/// name holding an escape sequence or a newline may not colour the
/// terminal or fake a line of the report), cut after 80 characters, and
/// wrapped in `` ` `` with `quote`; the rest counted, in the same pass,
/// as " and 199,970 more". `none` when there are none.
pub fn name_list<'a>(names: impl IntoIterator<Item = &'a str>, quote: bool) -> String {
    let q = if quote { "`" } else { "" };
    let listed = list_of(names, |n| match n.char_indices().nth(LISTED_CHARS) {
        Some((at, _)) => format!("{q}{}...{q}", shown(&n[..at])),
        None => format!("{q}{}{q}", shown(n)),
    });
    if listed.is_empty() {
        "none".to_string()
    } else {
        listed
    }
}

/// The first [`LISTED`] of `items`, each as `text` writes it, joined by
/// ", ", then " and N more" for the rest (counted, not written); empty
/// when there are none. One pass.
pub fn list_of<T>(items: impl IntoIterator<Item = T>, mut text: impl FnMut(T) -> String) -> String {
    let mut out = String::new();
    let mut more = 0usize;
    for (i, item) in items.into_iter().enumerate() {
        if i >= LISTED {
            more += 1;
            continue;
        }
        if i > 0 {
            out.push_str(", ");
        }
        out.push_str(&text(item));
    }
    if more > 0 {
        out.push_str(&format!(" and {} more", thousands(more)));
    }
    out
}

/// `n` with its thousands separated by commas (`199,970`), as counts in
/// messages print.
pub fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// `U+001B` notation of a character, as errors print it.
pub fn codepoint(c: char) -> String {
    format!("U+{:04X}", c as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 25's sequence: retitles the terminal, rings, clears the line,
    /// returns the cursor and starts a fake `error:` line.
    const HOSTILE: &str = "\u{1b}]0;PWNED\u{7}\u{1b}[2K\r\nerror: FAKE";
    /// It as every message prints it.
    const ESCAPED: &str = "\\u{1b}]0;PWNED\\u{7}\\u{1b}[2K\\u{d}\\u{a}error: FAKE";

    /// One error of each variant with `text` in every field it has (a
    /// spec's line, a path, a field, a part's name, a message).
    fn every_variant(text: &str) -> Vec<Error> {
        let source_text = format!("[tables.t]\nfrom = \"{text}\"\n");
        let start = source_text.find('"').unwrap();
        vec![
            Error::Spec {
                path: format!("{text}.toml"),
                span: start..start + 2 + text.len(),
                source_text,
                message: format!("unknown source `{text}`"),
            },
            Error::input(text, Some(3), Some(text.into()), format!("got `{text}`")),
            Error::io(Path::new(text), std::io::Error::other("gone")),
            Error::msg("bad").context(format!("table `{text}`")),
            Error::Many(vec![Error::msg("one"), Error::msg("two").context(text)]),
            Error::msg(format!("value `{text}`")),
        ]
    }

    /// The variant's name. No `_` arm: a new variant does not build until
    /// it is named here, and `every_variant` must then make one.
    fn variant(e: &Error) -> &'static str {
        match e {
            Error::Spec { .. } => "Spec",
            Error::Input { .. } => "Input",
            Error::Io { .. } => "Io",
            Error::Context { .. } => "Context",
            Error::Many(_) => "Many",
            Error::Message(_) => "Message",
        }
    }

    #[test]
    fn every_error_variant_prints_a_control_sequence_escaped() {
        let all = every_variant(HOSTILE);
        let names: Vec<&str> = all.iter().map(variant).collect();
        assert_eq!(names, ["Spec", "Input", "Io", "Context", "Many", "Message"]);
        let printed: Vec<String> = all
            .iter()
            .map(|e| shown_lines(&e.to_string()).into_owned())
            .collect();
        for p in &printed {
            // Nothing but the line breaks of the message's own structure.
            assert!(!p.chars().any(|c| c != '\n' && escaped(c)), "{p:?}");
        }
        // A spec's line is printed escaped, the caret under the escaped span.
        let spec = format!(
            "{ESCAPED}.toml:2:8: unknown source `{ESCAPED}`\n  |\n2 | from = \"\\u{{1b}}]0;PWNED\\u{{7}}\\u{{1b}}[2K\n  |        {}",
            "^".repeat(29)
        );
        assert_eq!(printed[0], spec);
        // A file, a field, a part's name, a spec error's and an input
        // error's message are one line, whatever they hold.
        assert_eq!(
            printed[1],
            format!("{ESCAPED}:3: field `{ESCAPED}`: got `{ESCAPED}`")
        );
        assert_eq!(printed[2], format!("{ESCAPED}: gone"));
        assert_eq!(printed[3], format!("table `{ESCAPED}`: bad"));
        assert_eq!(printed[4], format!("one\n{ESCAPED}: two"));
        // A message's own text keeps its line breaks (a piece of data in it
        // is `shown` where it is put in); nothing else gets through.
        assert_eq!(
            printed[5],
            "value `\\u{1b}]0;PWNED\\u{7}\\u{1b}[2K\\u{d}\nerror: FAKE`"
        );
        assert_eq!(
            shown_lines(&Error::msg(format!("value `{}`", shown(HOSTILE))).to_string()),
            format!("value `{ESCAPED}`")
        );
    }

    #[test]
    fn shown_is_idempotent_and_keeps_the_spaces_numbers_print() {
        assert_eq!(shown(HOSTILE), ESCAPED);
        assert_eq!(shown(ESCAPED), ESCAPED);
        assert_eq!(shown_lines(ESCAPED), ESCAPED);
        assert_eq!(
            shown("1\u{a0}234\u{2009}5 6\u{202f}7"),
            "1\u{a0}234\u{2009}5 6\u{202f}7"
        );
        assert_eq!(shown("a\u{202e}b\tc"), "a\\u{202e}b\\u{9}c");
    }

    #[test]
    fn spec_error_with_tabs_prints_them_as_spaces_under_an_aligned_caret() {
        let text = "[tables.t]\n\tfrom =\t\"nope\"\n";
        let start = text.find("\"nope\"").unwrap();
        let e = Error::Spec {
            path: "artifact.toml".into(),
            source_text: text.into(),
            span: start..start + 6,
            message: "unknown source or table `nope`".into(),
        };
        assert_eq!(
            e.to_string(),
            "artifact.toml:2:9: unknown source or table `nope`\n  |\n2 |     from =    \"nope\"\n  |               ^^^^^^"
        );
    }

    #[test]
    fn spec_error_points_at_the_span_with_a_caret() {
        let text = "[tables.t]\nfrom = \"nope\"\n";
        let start = text.find("\"nope\"").unwrap();
        let e = Error::Spec {
            path: "artifact.toml".into(),
            source_text: text.into(),
            span: start..start + 6,
            message: "unknown source or table `nope`".into(),
        };
        assert_eq!(
            e.to_string(),
            "artifact.toml:2:8: unknown source or table `nope`\n  |\n2 | from = \"nope\"\n  |        ^^^^^^"
        );
    }

    #[test]
    fn a_list_of_names_is_bounded_and_counts_the_rest() {
        let many: Vec<String> = (0..200_000).map(|i| format!("k{i}")).collect();
        let listed = name_list(many.iter().map(String::as_str), false);
        assert!(listed.starts_with("k0, k1, k2, "));
        assert!(listed.ends_with(", k28, k29 and 199,970 more"));
        assert_eq!(listed.matches(", ").count(), LISTED - 1);
        assert_eq!(name_list(["a", "b\u{1b}"], true), "`a`, `b\\u{1b}`");
        assert_eq!(name_list([], true), "none");
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(1_234_567), "1,234,567");
    }

    #[test]
    fn the_closest_name_is_looked_for_within_a_budget() {
        // 256-byte names: 2^27 / 2^16 = 2,048 of them are compared.
        let name = "a".repeat(255) + "b";
        let mut many: Vec<String> = (0..10_000).map(|i| format!("{i:0>256}")).collect();
        many[2_000] = "a".repeat(256);
        let found = did_you_mean(&name, many.iter().map(String::as_str));
        assert_eq!(found, Some(many[2_000].as_str()));
        many.swap(2_000, 2_100);
        assert_eq!(did_you_mean(&name, many.iter().map(String::as_str)), None);
    }

    #[test]
    fn input_error_names_file_line_and_field() {
        let e = Error::input(
            "a.jsonl",
            Some(17),
            Some("m.ratio".into()),
            "expected a number",
        );
        assert_eq!(
            e.to_string(),
            "a.jsonl:17: field `m.ratio`: expected a number"
        );
    }
}

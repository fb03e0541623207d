//! What a scanner finds in a paper's source, shared by the LaTeX and typst
//! scanners.

use std::collections::BTreeSet;

use super::typed::Typed;

/// A comment holding this keeps its line out of every report.
pub const IGNORE: &str = "artifact-lint: ignore";

/// Something found in a source file, at a 1-based line and column (in
/// characters).
#[derive(Debug, Clone, PartialEq)]
pub struct Found {
    pub line: usize,
    pub column: usize,
    pub what: What,
}

/// What was found.
#[derive(Debug, Clone, PartialEq)]
pub enum What {
    /// A number typed into the prose.
    Number(Typed),
    /// A number's key read by name: `\artnum{KEY}`, `#artnum("KEY")`.
    Key(String),
    /// A part of a number read by name: `\artnum[PART]{KEY}`,
    /// `#artnum("KEY", part: "PART")`.
    Part { key: String, part: String },
    /// A LaTeX command that looks like a number's (`\artFigThreeMedian`),
    /// without the backslash.
    Command(String),
    /// A typst identifier: `#name` in markup (`hash`) or a name in code.
    Ident { name: String, hash: bool },
    /// A path argument (`\includegraphics{..}`, `\input{..}`, a typst
    /// string), resolved by the driver.
    Path(String),
    /// A file to scan too (`\input`, `\include`, typst `include`).
    Include(String),
    /// A name the file defines (`\newcommand{\x}`, `#let x`).
    Defines(String),
    /// An image included at a width: `\includegraphics[width=0.7\linewidth]{p}`
    /// or typst `image("p", width: 70%)` (the width as written), and
    /// whether it is in a text-wide float (`figure*`).
    Scaled {
        path: String,
        width: String,
        wide: bool,
    },
}

/// A scanned file: what it holds and the lines its comments exempt.
#[derive(Debug, Default)]
pub struct Scan {
    pub found: Vec<Found>,
    pub ignored: BTreeSet<usize>,
    /// How many text-wide floats (`figure*`, `table*`) are open where the
    /// scanner is: there `\linewidth` is the text's width, not a column's.
    pub wide: usize,
}

/// Maps character indices to lines and columns.
pub struct Lines {
    starts: Vec<usize>,
}

impl Lines {
    pub fn new(chars: &[char]) -> Lines {
        let mut starts = vec![0];
        starts.extend(
            chars
                .iter()
                .enumerate()
                .filter(|(_, c)| **c == '\n')
                .map(|(i, _)| i + 1),
        );
        Lines { starts }
    }

    /// (line, column), both from 1.
    pub fn at(&self, i: usize) -> (usize, usize) {
        let line = self.starts.partition_point(|&s| s <= i);
        (line, i - self.starts[line - 1] + 1)
    }
}

impl Scan {
    pub fn push(&mut self, lines: &Lines, i: usize, what: What) {
        let (line, column) = lines.at(i);
        self.found.push(Found { line, column, what });
    }

    /// A comment from `start` to `end` (exclusive): its line is exempt when
    /// it holds [`IGNORE`].
    pub fn comment(&mut self, lines: &Lines, chars: &[char], start: usize, end: usize) {
        let text: String = chars[start..end].iter().collect();
        if text.contains(IGNORE) {
            self.ignored.insert(lines.at(start).0);
        }
    }
}

/// Whether `s` occurs in `chars` at `at`.
pub fn starts(chars: &[char], at: usize, s: &str) -> bool {
    (at..).zip(s.chars()).all(|(k, c)| chars.get(k) == Some(&c))
}

/// The index of the next `s` in `chars` from `from` (or the end).
pub fn find(chars: &[char], from: usize, s: &str) -> usize {
    let first = s.chars().next().unwrap_or(' ');
    let mut k = from;
    while k < chars.len() {
        if chars[k] == first && starts(chars, k, s) {
            return k;
        }
        k += 1;
    }
    chars.len()
}

/// A number of the prose at `chars[i]` (a digit or a sign), recorded when
/// `record`; returns where scanning goes on.
pub fn number(chars: &[char], lines: &Lines, i: usize, out: &mut Scan, record: bool) -> usize {
    let (t, end) = super::typed::parse(chars, i);
    if let Some(t) = t
        && record
    {
        out.push(lines, i, What::Number(t));
    }
    end.max(i + 1)
}

/// The index after the word at `chars[i]` (letters, digits, `_`): digits
/// inside a word are never a number.
pub fn word_end(chars: &[char], mut i: usize) -> usize {
    while chars
        .get(i)
        .is_some_and(|c| c.is_alphanumeric() || *c == '_')
    {
        i += 1;
    }
    i
}

/// Whether `c` may start a number of the prose.
pub fn starts_number(c: char) -> bool {
    c.is_ascii_digit() || matches!(c, '-' | '+' | '\u{2212}')
}

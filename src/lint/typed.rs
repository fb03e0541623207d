//! Numbers typed into the prose, and whether one is a computed number.
//!
//! A typed number is a run of digits with optional thousands separators
//! (`1,234`, `1{,}234`, `1\,234`, a thin space), a decimal part and a sign
//! written right before it, standing alone (not part of a word such as
//! `bf16`, a version such as `1.2.3`, or a length such as `2cm` or
//! `0.7\linewidth`). It is a computed number when it is that number's
//! printed text, or that number's value rounded to the typed number's
//! decimal places (for `64.2%`, the value times 100). Numbers with one
//! significant digit (`3 runs`, `Figure 2`) are too common to tell apart
//! and are never reported by value; only by their exact printed text when
//! that text has two or more significant digits.

use super::scan::starts;

/// A number found in the prose.
#[derive(Debug, Clone, PartialEq)]
pub struct Typed {
    /// As written (`1{,}234.5`).
    pub text: String,
    /// Its value.
    pub value: f64,
    /// Digits after the decimal point.
    pub decimals: u32,
    /// Significant digits (leading zeros not counted).
    pub significant: u32,
    /// Followed by `%` (or `\%`).
    pub percent: bool,
    /// Followed by an uncertainty (`\pm`, `±`, `+/-`, `[`: `2.08 \pm 0.05`),
    /// so it is typed as a whole number with its uncertainty.
    pub uncertain: bool,
}

/// Words that make the number after them a reference or a date, not a
/// measurement (compared lower-cased).
const REFERENCE_WORDS: [&str; 58] = [
    "figure",
    "figures",
    "fig.",
    "figs.",
    "table",
    "tables",
    "tab.",
    "tabs.",
    "section",
    "sections",
    "sec.",
    "secs.",
    "sect.",
    "eq.",
    "eqs.",
    "equation",
    "equations",
    "appendix",
    "appendices",
    "chapter",
    "chapters",
    "ch.",
    "algorithm",
    "algorithms",
    "alg.",
    "line",
    "lines",
    "listing",
    "listings",
    "theorem",
    "theorems",
    "lemma",
    "lemmas",
    "page",
    "pages",
    "p.",
    "pp.",
    "step",
    "steps",
    "def.",
    "definition",
    "corollary",
    "proposition",
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
    "jan.",
    "feb.",
    "mar.",
];

/// Month abbreviations beside those in [`REFERENCE_WORDS`].
const MONTHS: [&str; 9] = [
    "apr.", "jun.", "jul.", "aug.", "sep.", "sept.", "oct.", "nov.", "dec.",
];

/// LaTeX lengths a factor may multiply (`0.7\linewidth`).
const LENGTHS: [&str; 7] = [
    "linewidth",
    "textwidth",
    "columnwidth",
    "textheight",
    "paperwidth",
    "hsize",
    "baselineskip",
];

/// Parses the number starting at `chars[i]` (a digit, or a sign before
/// one). Returns it and the index after it, or `None` when the digits are
/// not a number of the prose (part of a word, a version, a length, or a
/// reference such as `Figure 3`); `end` is then where scanning resumes.
pub fn parse(chars: &[char], i: usize) -> (Option<Typed>, usize) {
    let before = |k: usize| {
        if k == 0 {
            None
        } else {
            chars.get(k - 1).copied()
        }
    };
    let mut j = i;
    let mut negative = false;
    if matches!(chars[j], '-' | '+' | '\u{2212}') {
        // `x-1`: a minus between words, not a sign.
        if before(i).is_some_and(|c| c.is_alphanumeric() || c == '_') {
            return (None, i + 1);
        }
        negative = chars[j] != '+';
        j += 1;
    }
    let start_digits = j;
    let mut digits = String::new();
    let run = |j: &mut usize, out: &mut String| {
        while let Some(c) = chars.get(*j).filter(|c| c.is_ascii_digit()) {
            out.push(*c);
            *j += 1;
        }
    };
    run(&mut j, &mut digits);
    if digits.is_empty() {
        return (None, i + 1);
    }
    // Inside a word (`bf16`, `x86`, `Q4_K`) or after a decimal point that
    // did not start here (`1.2.3`'s `2`): not a number of the prose.
    let prev = before(start_digits).filter(|_| start_digits == i);
    if prev.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '.' || c == '\\') {
        return (None, skip_word(chars, j));
    }
    // Thousands groups: exactly three digits after a separator.
    loop {
        let sep_len = [",", "{,}", "\\,", "\u{2009}", "\u{202f}", "~"]
            .iter()
            .find(|s| starts(chars, j, s))
            .map(|s| s.chars().count());
        let Some(n) = sep_len else { break };
        let k = j + n;
        let three = (k..k + 3).all(|x| chars.get(x).is_some_and(char::is_ascii_digit));
        if three && !chars.get(k + 3).is_some_and(char::is_ascii_digit) && digits.len() <= 3 + 3 * 6
        {
            digits.extend(&chars[k..k + 3]);
            j = k + 3;
        } else {
            break;
        }
    }
    let mut decimals = String::new();
    for point in [".", "{.}"] {
        let n = point.chars().count();
        if starts(chars, j, point) && chars.get(j + n).is_some_and(char::is_ascii_digit) {
            j += n;
            run(&mut j, &mut decimals);
            break;
        }
    }
    // A version (`1.2.3`), a word (`3x`, `2cm`) or a length factor.
    let next = chars.get(j).copied();
    if next == Some('.') && chars.get(j + 1).is_some_and(char::is_ascii_digit) {
        return (None, skip_word(chars, j + 1));
    }
    // `1.5x` is a factor, not a word.
    let factor = next == Some('x')
        && !chars
            .get(j + 1)
            .is_some_and(|c| c.is_alphanumeric() || *c == '_');
    if next.is_some_and(|c| c.is_alphanumeric() || c == '_') && !factor {
        return (None, skip_word(chars, j));
    }
    if next == Some('\\') && LENGTHS.iter().any(|l| starts(chars, j + 1, l)) {
        return (None, j + 1);
    }
    if is_reference(chars, i) || in_date_or_range(chars, start_digits, j) || is_script(chars, i) {
        return (None, j);
    }
    let percent = next == Some('%') || starts(chars, j, "\\%");
    let text: String = chars[i..j].iter().collect();
    let plain = format!("{}{digits}.{}", if negative { "-" } else { "" }, decimals);
    let Ok(value) = plain.trim_end_matches('.').parse::<f64>() else {
        return (None, j);
    };
    let all: String = format!("{digits}{decimals}");
    let significant = all.trim_start_matches('0').len() as u32;
    // A year (`2023`): far more often a date than a measurement.
    if decimals.is_empty() && digits.len() == 4 && (1900.0..2100.0).contains(&value) {
        return (None, j);
    }
    (
        Some(Typed {
            text,
            value,
            decimals: decimals.len() as u32,
            significant,
            percent,
            uncertain: uncertainty_follows(chars, j),
        }),
        j,
    )
}

/// Whether an uncertainty follows `chars[j]` (across spaces, `$`, braces,
/// a unit such as `\times` or `ms`): `\pm`, `±`, `+/-`, or `[` (bounds).
fn uncertainty_follows(chars: &[char], j: usize) -> bool {
    let end = chars.len().min(j + 40);
    let mut k = j;
    // A unit's letters (`ms`, `tok`), not a sentence's words.
    let mut letters = 0;
    while k < end {
        if ["\\pm", "\u{b1}", "+/-", "["]
            .iter()
            .any(|m| starts(chars, k, m))
        {
            return true;
        }
        let c = chars[k];
        if c == '\\' && (starts(chars, k + 1, "times") || starts(chars, k + 1, ",")) {
            k += if starts(chars, k + 1, "times") { 6 } else { 2 };
        } else if matches!(c, ' ' | '~' | '$' | '{' | '}' | '\u{a0}' | '\u{d7}' | '%') {
            k += 1;
        } else if c.is_alphabetic() && letters < 4 {
            letters += 1;
            k += 1;
        } else {
            return false;
        }
    }
    false
}

fn skip_word(chars: &[char], mut j: usize) -> usize {
    while chars
        .get(j)
        .is_some_and(|c| c.is_alphanumeric() || *c == '_' || *c == '.')
    {
        j += 1;
    }
    j
}

/// Whether the word before `chars[i]` (across a space, `~`, `\ ` or an
/// opening parenthesis: `Eq.~(26)`) names a figure, table, section, page
/// or month, or is the section sign (`§`, `\S`).
fn is_reference(chars: &[char], i: usize) -> bool {
    let mut k = i;
    while k > 0 && matches!(chars[k - 1], ' ' | '~' | '\u{a0}' | '\\' | '(') {
        k -= 1;
    }
    if k == i {
        return false;
    }
    if k > 0 && chars[k - 1] == '\u{a7}' {
        return true;
    }
    // The longest reference word is short: a long word is not one (and
    // is not read back over for every number after it).
    let end = k;
    while k > 0 && end - k < 16 && (chars[k - 1].is_alphabetic() || chars[k - 1] == '.') {
        k -= 1;
    }
    let word: String = chars[k..end].iter().collect::<String>().to_lowercase();
    if word == "s" && k > 0 && chars[k - 1] == '\\' {
        return true;
    }
    REFERENCE_WORDS.contains(&word.as_str()) || MONTHS.contains(&word.as_str())
}

/// Whether the digits `chars[from..to]` are part of a date or a range
/// (`2024-03-28`, `24--30`, `3/4`): joined by `-`, `–` or `/` to digits.
fn in_date_or_range(chars: &[char], from: usize, to: usize) -> bool {
    let joined = |c: char| matches!(c, '-' | '\u{2013}' | '/');
    let mut k = from;
    while k > 0 && joined(chars[k - 1]) {
        k -= 1;
    }
    let before = k < from && k > 0 && chars[k - 1].is_ascii_digit();
    let mut m = to;
    while m < chars.len() && joined(chars[m]) {
        m += 1;
    }
    let after = m > to && chars.get(m).is_some_and(char::is_ascii_digit);
    before || after
}

/// Whether the number at `chars[i]` is a superscript or subscript
/// (`e^{28}`, `2^24`, typst `e^(28)`, `x_{10}`).
fn is_script(chars: &[char], i: usize) -> bool {
    let mut k = i;
    if k > 0 && matches!(chars[k - 1], '{' | '(') {
        k -= 1;
    }
    k > 0 && matches!(chars[k - 1], '^' | '_')
}

/// How a typed number equals a computed one.
#[derive(Debug, Clone, PartialEq)]
pub enum Match {
    /// It is the number's printed text.
    Text,
    /// It is the number's value rounded to this many decimal places.
    Rounded(u32),
    /// It is the number's value times 100, rounded to this many places.
    Percent(u32),
    /// It is this part of the number's text, as printed (`lo`, `hi`, `pm`).
    Part(&'static str),
}

impl Match {
    /// `it is <number> ...`, with `number` naming the computed number.
    pub fn describe(&self, number: &str) -> String {
        let places = |d: u32| match d {
            0 => "to an integer".to_string(),
            1 => "to 1 decimal place".to_string(),
            d => format!("to {d} decimal places"),
        };
        match self {
            Match::Text => format!("it is the printed text of {number}"),
            Match::Rounded(d) => format!("it is {number} rounded {}", places(*d)),
            Match::Percent(d) => format!("it is {number} as a percentage, rounded {}", places(*d)),
            Match::Part(p) => {
                let noun = match *p {
                    "lo" => "lower bound",
                    "hi" => "upper bound",
                    "pm" => "uncertainty",
                    _ => "value",
                };
                format!("it is the {noun} of {number}")
            }
        }
    }
}

/// How a typed number equals a computed one: its printed `text` (the
/// first number in it) or its `value` rounded as typed. `None` when it
/// does not.
pub fn equals(typed: &Typed, text: &str, value: f64) -> Option<Match> {
    let chars: Vec<char> = text.chars().collect();
    let printed = (0..chars.len())
        .find(|&k| {
            chars[k].is_ascii_digit()
                || (matches!(chars[k], '-' | '+' | '\u{2212}')
                    && chars.get(k + 1).is_some_and(char::is_ascii_digit))
        })
        .and_then(|k| parse(&chars, k).0);
    if let Some(p) = &printed
        && p.significant >= 2
        && (p.value - typed.value).abs() == 0.0
        && p.decimals == typed.decimals
    {
        return Some(Match::Text);
    }
    if typed.significant < 2 || !value.is_finite() {
        return None;
    }
    let rounded = |v: f64| {
        let scale = 10f64.powi(typed.decimals as i32);
        (v * scale).round() / scale
    };
    let close = |a: f64, b: f64| (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1e-300);
    if close(rounded(value), typed.value) {
        return Some(Match::Rounded(typed.decimals));
    }
    if typed.percent && close(rounded(value * 100.0), typed.value) {
        return Some(Match::Percent(typed.decimals));
    }
    // The printed number rounded further: with an SI prefix the value is in
    // the base unit (0.001287 s) but the text in the prefixed one (1.287 ms).
    if let Some(p) = &printed
        && p.decimals > typed.decimals
        && close(rounded(p.value), typed.value)
    {
        return Some(Match::Rounded(typed.decimals));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn first(s: &str) -> Option<Typed> {
        let chars: Vec<char> = s.chars().collect();
        let mut i = 0;
        while i < chars.len() {
            if chars[i].is_ascii_digit() || chars[i] == '-' {
                let (t, end) = parse(&chars, i);
                if t.is_some() {
                    return t;
                }
                i = end.max(i + 1);
            } else {
                i += 1;
            }
        }
        None
    }

    #[test]
    fn separators_decimals_and_signs() {
        let t = first("about 1{,}234.5 rows").unwrap();
        assert_eq!((t.value, t.decimals, t.significant), (1234.5, 1, 5));
        assert_eq!(first("n = 12,345").unwrap().value, 12345.0);
        assert_eq!(first("n = 12\\,345").unwrap().value, 12345.0);
        assert_eq!(first("r = -0.25 here").unwrap().value, -0.25);
        assert!(first("hits 64.2\\% of").unwrap().percent);
        assert_eq!(first("a 1.52x speedup").unwrap().value, 1.52);
        assert_eq!(first("the 0x1f mask"), None);
    }

    #[test]
    fn words_versions_lengths_and_references_are_not_numbers() {
        assert_eq!(first("bf16 and Q4_K"), None);
        assert_eq!(first("version 1.2.3"), None);
        assert_eq!(first("width=0.7\\linewidth"), None);
        assert_eq!(first("a 2cm margin"), None);
        assert_eq!(first("Figure~12 shows"), None);
        assert_eq!(first("see Section 3.2"), None);
        assert_eq!(first("(Table 10)"), None);
        assert_eq!(first("on 2024-03-28 we"), None);
        assert_eq!(first("Pages 24--30"), None);
        assert_eq!(first("Eq.~(26) and \\S 26"), None);
        assert_eq!(first("Sept.~30, 2023"), None);
        assert_eq!(first("$e^{28}$, $x^24$ and $x_{10}$"), None);
    }

    #[test]
    fn equal_by_text_by_rounding_and_as_a_percentage() {
        let t = |s: &str| first(s).unwrap();
        assert_eq!(equals(&t("250"), "250", 250.0), Some(Match::Text));
        assert_eq!(
            equals(&t("3.86"), "3.859", 3.859415),
            Some(Match::Rounded(2))
        );
        assert_eq!(
            equals(&t("64.2%"), "0.642", 0.642422),
            Some(Match::Percent(1))
        );
        assert_eq!(
            Match::Percent(1).describe("`x`"),
            "it is `x` as a percentage, rounded to 1 decimal place"
        );
        assert_eq!(equals(&t("3.87"), "3.859", 3.859415), None);
        // One significant digit: too common to be told apart.
        assert_eq!(equals(&t("4"), "3.859", 3.859415), None);
        assert_eq!(equals(&t("7"), "7", 7.0), None);
        assert_eq!(equals(&t("0.2823"), "+0.2823", 0.28234), Some(Match::Text));
        // The printed text's own unit: 1.287 ms (value 0.001287 s) typed 1.29.
        assert_eq!(
            equals(&t("1.29"), "1.287\u{a0}ms", 0.001287),
            Some(Match::Rounded(2))
        );
        assert_eq!(equals(&t("1.28"), "1.287\u{a0}ms", 0.001287), None);
    }
}

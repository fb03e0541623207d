//! A guard in front of minijinja's two string formatters: Python's
//! `'{:.2f}'.format(x)` (minijinja-contrib's pycompat) and the `format`
//! filter (`'%.2f' | format(x)`).
//!
//! Both allocate a field's width before any fuel is charged
//! (`'{:>4000000000}'.format(1)` takes gigabytes, a larger width aborts) and
//! Rust's float formatting panics on a precision of 65535 or more. The
//! format string can come from the data, so this module reads it first, as
//! minijinja's parser does, and refuses a width or a precision above
//! [`MAX`] and a non-ASCII key (minijinja slices the key byte by byte and
//! panics inside a multi-byte character). The widths and precisions of all
//! fields are paid for in fuel before formatting, as minijinja's filter
//! does, so that a million `{:>1000}` from the data cannot take a gigabyte.

use minijinja::value::{Rest, ValueOrKwargs};
use minijinja::{Error, ErrorKind, State, Value};

/// The widest width and the longest precision a field may ask for: far
/// beyond any label, far below what could exhaust memory.
pub const MAX: usize = 1000;

#[derive(Clone, Copy, PartialEq)]
enum Style {
    /// `str.format`: `{name[key]:>10.3f}`.
    Braces,
    /// printf: `%(key)-10.3f`.
    Percent,
}

/// Python's `str.format`, after the guard; every other method goes straight
/// to minijinja-contrib.
pub fn unknown_method(
    state: &mut State,
    value: &Value,
    method: &str,
    args: &[Value],
) -> Result<Value, Error> {
    if method == "format"
        && let Some(s) = value.as_str()
    {
        // One fuel per 64 bytes, as the engine charges for a result.
        state.consume_fuel((check(s, Style::Braces)? / 64) as u64)?;
    }
    minijinja_contrib::pycompat::unknown_method_callback(state, value, method, args)
}

/// The `format` filter, after the guard.
pub fn filter(
    state: &mut State,
    format_str: &Value,
    args: Rest<ValueOrKwargs>,
) -> Result<Value, Error> {
    // minijinja's filter charges fuel for the widths itself.
    if let Some(s) = format_str.as_str() {
        check(s, Style::Percent)?;
    }
    minijinja::filters::format(state, format_str, args)
}

fn refuse(what: &str, field: &[u8]) -> Error {
    Error::new(
        ErrorKind::InvalidOperation,
        format!("format: {what} ({})", String::from_utf8_lossy(field)),
    )
}

/// Reads the fields of `s` as minijinja does, up to its first syntax error
/// (minijinja formats the fields before it, and none after it); returns the
/// sum of their widths and precisions.
fn check(s: &str, style: Style) -> Result<usize, Error> {
    let b = s.as_bytes();
    let open = match style {
        Style::Braces => b'{',
        Style::Percent => b'%',
    };
    let mut i = 0;
    let mut total = 0usize;
    while i < b.len() {
        if b[i] == open {
            if b.get(i + 1) == Some(&open) {
                i += 2;
                continue;
            }
            let start = i;
            let mut c = Cursor { b, i: i + 1 };
            let parsed = match style {
                Style::Braces => c.braces_field(),
                Style::Percent => c.percent_field(),
            };
            let end = c.i.min(b.len());
            match parsed {
                Field::Ok(n) => {
                    total = total.saturating_add(n);
                    i = end;
                }
                Field::Stop => return Ok(total),
                Field::TooLarge => {
                    return Err(refuse(
                        &format!("a width or precision above {MAX}"),
                        &b[start..end],
                    ));
                }
                Field::NonAsciiKey => {
                    return Err(refuse("a key that is not ASCII", &b[start..end]));
                }
            }
        } else if style == Style::Braces && b[i] == b'}' {
            if b.get(i + 1) != Some(&b'}') {
                return Ok(total); // minijinja's error
            }
            i += 2;
        } else {
            i += 1;
        }
    }
    Ok(total)
}

enum Field {
    /// The sum of the field's width and precision.
    Ok(usize),
    /// A syntax error: minijinja stops here.
    Stop,
    TooLarge,
    NonAsciiKey,
}

struct Cursor<'a> {
    b: &'a [u8],
    i: usize,
}

impl Cursor<'_> {
    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }

    fn eat(&mut self, c: u8) -> bool {
        let hit = self.peek() == Some(c);
        self.i += usize::from(hit);
        hit
    }

    /// A run of digits, [`MAX`] + 1 for any value above [`MAX`] (minijinja
    /// refuses one beyond `usize`, which is above it too).
    fn number(&mut self) -> Option<usize> {
        let start = self.i;
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.i += 1;
        }
        let digits = std::str::from_utf8(&self.b[start..self.i]).unwrap_or("");
        (!digits.is_empty()).then(|| digits.parse::<usize>().map_or(MAX + 1, |n| n.min(MAX + 1)))
    }

    /// Up to and past `end`, one byte at a time as minijinja's `parse_till`.
    fn key(&mut self, end: u8) -> Field {
        loop {
            match self.peek() {
                Some(c) if c == end => {
                    self.i += 1;
                    return Field::Ok(0);
                }
                None => return Field::Stop,
                Some(c) if !c.is_ascii() => {
                    // Shown up to the key's end, whole characters.
                    let rest = &self.b[self.i..];
                    self.i += rest
                        .iter()
                        .position(|&c| c == end)
                        .map_or(rest.len(), |n| n + 1);
                    return Field::NonAsciiKey;
                }
                Some(_) => self.i += 1,
            }
        }
    }

    fn identifier(&mut self) -> bool {
        let start = self.i;
        while let Some(c) = self.peek() {
            let ok = c == b'_'
                || if self.i == start {
                    c.is_ascii_alphabetic()
                } else {
                    c.is_ascii_alphanumeric()
                };
            if !ok {
                break;
            }
            self.i += 1;
        }
        self.i > start
    }

    /// `{` [name path] [`:` spec] `}`, the `{` read.
    fn braces_field(&mut self) -> Field {
        let named = self.number().is_some() || self.identifier();
        if named {
            loop {
                if self.eat(b'.') {
                    if !self.identifier() {
                        return Field::Stop;
                    }
                } else if self.eat(b'[') {
                    match self.key(b']') {
                        Field::Ok(_) => {}
                        other => return other,
                    }
                } else {
                    break;
                }
            }
        }
        let (mut width, mut precision) = (0, 0);
        if self.eat(b':') {
            // [[fill] align]: the fill is any character.
            let rest = std::str::from_utf8(&self.b[self.i..]).unwrap_or("");
            let mut chars = rest.chars();
            let (first, second) = (chars.next(), chars.next());
            let aligns = |c: Option<char>| matches!(c, Some('<' | '>' | '^'));
            if aligns(second) {
                self.i += first.map_or(0, char::len_utf8) + 1;
            } else if aligns(first) {
                self.i += 1;
            }
            let _ = self.eat(b'+') || self.eat(b' ') || self.eat(b'-');
            self.eat(b'#');
            self.eat(b'0');
            width = self.number().unwrap_or(0);
            let _ = self.eat(b',') || self.eat(b'_');
            if self.eat(b'.') {
                precision = self.number().unwrap_or(0);
            }
            if self.peek().is_some_and(|c| b"bdeEfFgGoxXcs".contains(&c)) {
                self.i += 1;
            }
        }
        // The field is complete only with its `}`; minijinja formats it then.
        if !self.eat(b'}') {
            return Field::Stop;
        }
        Field::sized(width, precision)
    }

    /// `%` [`(` key `)`] flags [width] [`.` precision] [modifier] type, the
    /// `%` read.
    fn percent_field(&mut self) -> Field {
        if self.eat(b'(') {
            match self.key(b')') {
                Field::Ok(_) => {}
                other => return other,
            }
        }
        while self.peek().is_some_and(|c| b"#0- +".contains(&c)) {
            self.i += 1;
        }
        let width = self.number().unwrap_or(0);
        let mut precision = 0;
        if self.eat(b'.') {
            precision = self.number().unwrap_or(0);
        }
        if self.peek().is_some_and(|c| b"hlL".contains(&c)) {
            self.i += 1;
        }
        if !self.peek().is_some_and(|c| b"dieEfFgGoxXcs".contains(&c)) {
            return Field::Stop;
        }
        self.i += 1;
        Field::sized(width, precision)
    }
}

impl Field {
    fn sized(width: usize, precision: usize) -> Field {
        if width.max(precision) > MAX {
            Field::TooLarge
        } else {
            Field::Ok(width + precision)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn braces(s: &str) -> Result<(), String> {
        check(s, Style::Braces)
            .map(|_| ())
            .map_err(|e| e.detail().unwrap_or_default().to_string())
    }

    fn percent(s: &str) -> Result<(), String> {
        check(s, Style::Percent)
            .map(|_| ())
            .map_err(|e| e.detail().unwrap_or_default().to_string())
    }

    #[test]
    fn widths_and_precisions_up_to_1000_pass() {
        for s in [
            "{:.1000}",
            "{:>1000}",
            "{0:08.3f}",
            "{x[k]:_^20,.2f}",
            "ran 5000 times: {}",
        ] {
            assert_eq!(braces(s), Ok(()), "{s}");
        }
        for s in ["%.1000e", "%-1000s", "%(k)08.3f", "5000%% of %d"] {
            assert_eq!(percent(s), Ok(()), "{s}");
        }
    }

    #[test]
    fn str_format_precision_70000_is_refused_not_a_panic() {
        assert_eq!(
            braces("a {:.70000} b"),
            Err("format: a width or precision above 1000 ({:.70000})".into())
        );
        assert_eq!(
            braces("{{}} {:.65535e}"),
            Err("format: a width or precision above 1000 ({:.65535e})".into())
        );
    }

    #[test]
    fn str_format_huge_widths_are_refused_not_gigabytes() {
        for w in [
            "4000000000",
            "100000000000",
            "18446744073709551615",
            "99999999999999999999999",
        ] {
            let field = format!("{{:>{w}}}");
            assert_eq!(
                braces(&field),
                Err(format!("format: a width or precision above 1000 ({field})"))
            );
        }
        assert!(braces("{0[a]:é>5000}").is_err());
    }

    #[test]
    fn printf_precision_65536_is_refused_not_a_panic() {
        assert_eq!(
            percent("%.65536e"),
            Err("format: a width or precision above 1000 (%.65536e)".into())
        );
        assert_eq!(
            percent("%(k)-5000s"),
            Err("format: a width or precision above 1000 (%(k)-5000s)".into())
        );
    }

    #[test]
    fn non_ascii_keys_are_refused_not_a_panic() {
        assert_eq!(
            braces("{a[é]}"),
            Err("format: a key that is not ASCII ({a[é])".into())
        );
        assert_eq!(
            percent("%(é)s"),
            Err("format: a key that is not ASCII (%(é))".into())
        );
    }

    #[test]
    fn widths_and_precisions_are_summed_for_fuel() {
        assert_eq!(
            check("{:>1000} {{:>999}} {0:.5f}", Style::Braces).ok(),
            Some(1005)
        );
        assert_eq!(check("%10.3f %% %5s", Style::Percent).ok(), Some(18));
    }

    #[test]
    fn fields_after_a_syntax_error_are_minijinjas() {
        // minijinja stops at the stray `}` before the field.
        assert_eq!(braces("} {:.70000}"), Ok(()));
    }
}

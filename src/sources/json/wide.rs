//! Integers beyond `u64` in JSON text, kept exact.
//!
//! serde_json (without `arbitrary_precision`, which would change every
//! number of every crate in the build) hands an integer beyond `u64` (or
//! below `i64::MIN`) to the visitor as the double it rounds to:
//! `123456789012345678901234567890` became `1.2345678901234568e29`, and two
//! such ids were one group. A line is parsed as before; a visited double
//! that is whole and at least 2⁶³ in size may have been such an integer,
//! and marks the line ([`float`] while [`watch`]ing). A marked line is
//! parsed once more, replaying its number tokens ([`replay`]): each double
//! serde_json visits is matched, in order, with the token it came from,
//! and an integer token becomes its exact `i128` cell. One wider than
//! `i128` is an error naming the field (never a silent rounding). Other
//! lines pay one comparison per double.

use std::cell::{Cell, RefCell};
use std::collections::VecDeque;
use std::ops::Range;

use crate::value::{Value, int_value};

/// The second parse of a line: the tokens serde_json visits as doubles, in
/// order (`Some`: the range of an integer token), and the line's bytes.
type Replay = (VecDeque<Option<Range<usize>>>, Vec<u8>);

thread_local! {
    // Cells, not one `RefCell`: the common case (a first parse, a double
    // that cannot have been a wide integer) reads one flag.
    static REPLAYING: Cell<bool> = const { Cell::new(false) };
    static MARKED: Cell<bool> = const { Cell::new(false) };
    static TOKENS: RefCell<Option<Replay>> = const { RefCell::new(None) };
}

/// Starts watching a parse (see [`float`]).
pub(super) fn watch() {
    MARKED.with(|m| m.set(false));
}

/// Ends a parse; whether a visited double may have been a wide integer.
pub(super) fn done() -> bool {
    REPLAYING.with(|r| r.set(false));
    TOKENS.with(|t| t.borrow_mut().take());
    MARKED.with(|m| m.replace(false))
}

/// Sets up the second parse of `text` (the bytes serde_json reads).
pub(super) fn replay(text: &[u8]) {
    let tokens = doubles(text);
    TOKENS.with(|t| *t.borrow_mut() = Some((tokens, text.to_vec())));
    REPLAYING.with(|r| r.set(true));
}

/// The cell of a double serde_json visited: the double, or when it came
/// from an integer token, that integer exact. `field` names the value for
/// the error of an integer wider than `i128`.
#[inline]
pub(super) fn float(x: f64, field: impl FnOnce() -> String) -> Result<Value, String> {
    // 2⁶³: below it, serde_json gives every integer as one.
    visit(x, 9_223_372_036_854_775_808.0, field)
}

/// [`float`] for a value the projection skips: only an integer wider than
/// `i128` matters there (an error, read or skipped), so a line is parsed
/// again only for a double of 2¹²⁷ or more (`i128::MAX` rounds to it).
#[inline]
pub(super) fn skipped(x: f64, field: impl FnOnce() -> String) -> Result<(), String> {
    visit(
        x,
        170_141_183_460_469_231_731_687_303_715_884_105_728.0,
        field,
    )
    .map(|_| ())
}

#[inline]
fn visit(x: f64, wide: f64, field: impl FnOnce() -> String) -> Result<Value, String> {
    if !REPLAYING.with(Cell::get) {
        if x.fract() == 0.0 && x.abs() >= wide {
            MARKED.with(|m| m.set(true));
        }
        return Ok(Value::from(x));
    }
    // Every double pops its token, kept or skipped: the order is the line's.
    replayed(x, field)
}

/// [`float`] in the second parse.
#[cold]
fn replayed(x: f64, field: impl FnOnce() -> String) -> Result<Value, String> {
    TOKENS.with(|t| {
        let mut t = t.borrow_mut();
        let Some((tokens, text)) = t.as_mut() else {
            return Ok(Value::from(x));
        };
        match tokens.pop_front().flatten() {
            None => Ok(Value::from(x)),
            Some(r) => {
                let digits = std::str::from_utf8(&text[r]).unwrap_or("");
                match digits.parse::<i128>() {
                    Ok(i) => Ok(int_value(i)),
                    Err(_) => Err(too_wide(digits, &field())),
                }
            }
        }
    })
}

/// The error for an integer token wider than `i128` (its digits shown up
/// to 40 characters).
fn too_wide(digits: &str, field: &str) -> String {
    let shown = match digits.char_indices().nth(40) {
        Some((cut, _)) => format!(
            "{}... ({} digits)",
            &digits[..cut],
            digits.trim_start_matches('-').len()
        ),
        None => digits.to_string(),
    };
    let at = if field.is_empty() {
        String::new()
    } else {
        format!("field `{field}`: ")
    };
    format!(
        "{at}the integer {shown} is wider than 128 bits (it would be rounded; write it as a string to keep its digits, or with an exponent to read it as a float)"
    )
}

/// The number tokens of `text` (valid JSON) that serde_json visits as
/// doubles, in order: a fraction or an exponent (`None`), `-0` (`None`),
/// or an integer beyond `u64` or below `i64::MIN` (`Some`, its range).
fn doubles(text: &[u8]) -> VecDeque<Option<Range<usize>>> {
    let mut out = VecDeque::new();
    let mut i = 0;
    while i < text.len() {
        match text[i] {
            b'"' => {
                // Past the string (an escaped quote does not end it).
                i += 1;
                while i < text.len() && text[i] != b'"' {
                    i += if text[i] == b'\\' { 2 } else { 1 };
                }
                i += 1;
            }
            b'-' | b'0'..=b'9' => {
                let start = i;
                i += usize::from(text[i] == b'-');
                while i < text.len() && text[i].is_ascii_digit() {
                    i += 1;
                }
                let int_end = i;
                while i < text.len()
                    && matches!(text[i], b'.' | b'e' | b'E' | b'+' | b'-' | b'0'..=b'9')
                {
                    i += 1;
                }
                if i > int_end {
                    out.push_back(None);
                    continue;
                }
                let token = std::str::from_utf8(&text[start..i]).unwrap_or("");
                let exact = if token.starts_with('-') {
                    token.parse::<i64>().is_ok_and(|v| v != 0)
                } else {
                    token.parse::<u64>().is_ok()
                };
                if !exact {
                    let zero = token.trim_start_matches('-').bytes().all(|b| b == b'0');
                    out.push_back((!zero).then_some(start..i));
                }
            }
            _ => i += 1,
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn doubles_are_the_tokens_serde_json_visits_as_doubles() {
        let text = br#"{"a": 1.5, "s": "9\"99999999999999999999", "b": 123456789012345678901234567890, "c": -0, "d": 18446744073709551615, "e": -9223372036854775809, "f": [1e3, -9223372036854775808]}"#;
        let got: Vec<Option<&str>> = doubles(text)
            .into_iter()
            .map(|r| r.map(|r| std::str::from_utf8(&text[r]).unwrap()))
            .collect();
        assert_eq!(
            got,
            [
                None,
                Some("123456789012345678901234567890"),
                None,
                Some("-9223372036854775809"),
                None
            ]
        );
    }

    #[test]
    fn an_integer_wider_than_128_bits_names_its_field_and_is_cut_short() {
        let digits = "1".repeat(45);
        assert_eq!(
            too_wide(&digits, "id"),
            format!(
                "field `id`: the integer {}... (45 digits) is wider than 128 bits (it would be rounded; write it as a string to keep its digits, or with an exponent to read it as a float)",
                "1".repeat(40)
            )
        );
    }
}

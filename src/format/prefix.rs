//! SI and binary prefixes: the table tick labels print from, and reading a
//! quantity written with its unit (`6.08ms`, `10.309 us`, `1.2 GiB`,
//! `3.5k`) back to a number in the unit (the `quantity` expression function).

/// SI prefixes from quecto (10⁻³⁰) to quetta (10³⁰), one per power of
/// 1000 (µ is U+00B5, which the bundled font draws).
pub const PREFIXES: [&str; 21] = [
    "q", "r", "y", "z", "a", "f", "p", "n", "\u{b5}", "m", "", "k", "M", "G", "T", "P", "E", "Z",
    "Y", "R", "Q",
];

/// The index of the empty prefix in [`PREFIXES`].
pub const UNIT: i32 = 10;

/// IEC binary prefixes, one per power of 1024 (kibi = 2¹⁰ to yobi = 2⁸⁰).
pub const BINARY: [&str; 8] = ["Ki", "Mi", "Gi", "Ti", "Pi", "Ei", "Zi", "Yi"];

/// What a prefix multiplies by: 10 to a power, or 2 to a power.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Scale {
    Decimal(i32),
    Binary(i32),
}

/// The scale of prefix `p`: an SI prefix (with `u` and Greek mu U+03BC for
/// micro, as logs write it) or a binary one; `None` for anything else.
fn scale(p: &str) -> Option<Scale> {
    let p = match p {
        "u" | "\u{3bc}" => "\u{b5}",
        p => p,
    };
    if let Some(i) = PREFIXES.iter().position(|x| *x == p) {
        return Some(Scale::Decimal(3 * (i as i32 - UNIT)));
    }
    BINARY
        .iter()
        .position(|x| *x == p)
        .map(|i| Scale::Binary(10 * (i as i32 + 1)))
}

/// The length in bytes of the decimal number `s` starts with (sign,
/// digits, point, exponent), and where its exponent starts, if it has one.
/// An `e` not followed by digits is no exponent: in `1.5EB` it is exa.
fn number_len(s: &str) -> (usize, Option<usize>) {
    let b = s.as_bytes();
    let digits = |mut i: usize| {
        let start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        (i, i - start)
    };
    let mut i = usize::from(matches!(b.first(), Some(b'+' | b'-')));
    let (j, whole) = digits(i);
    i = j;
    let mut frac = 0;
    if b.get(i) == Some(&b'.') {
        (i, frac) = digits(i + 1);
        if whole + frac == 0 {
            return (0, None);
        }
    }
    if whole + frac == 0 {
        return (0, None);
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        let sign = usize::from(matches!(b.get(i + 1), Some(b'+' | b'-')));
        let (end, n) = digits(i + 1 + sign);
        if n > 0 {
            return (end, Some(i));
        }
    }
    (i, None)
}

/// Reads `text`, a number with an optional SI or binary prefix and then
/// `unit` (matched exactly; `""` for none), as a number in that unit:
/// `("6.08ms", "s")` is 0.00608, `("10.309 us", "s")` 1.0309e-5,
/// `("1.2 GiB", "B")` 1288490188.8, `("3.5k", "")` 3500. Space may stand
/// between the number and the prefix. A decimal prefix shifts the
/// number's exponent before it is rounded to a float (so `6.08ms` is the
/// float nearest 0.00608, not 6.08 × 0.001); a binary one multiplies by a
/// power of two (exact).
///
/// Errors: the text has no number, does not end in `unit`, or has a
/// prefix that is neither SI nor binary; the message quotes the text and
/// says what was expected.
pub fn parse_quantity(text: &str, unit: &str) -> Result<f64, String> {
    let t = text.trim();
    let expected = || {
        if unit.is_empty() {
            "a number with an optional SI prefix (`3.5k`)".to_string()
        } else {
            format!("a number, an optional SI or binary prefix and `{unit}` (`2.5 k{unit}`)")
        }
    };
    let (len, exp_at) = number_len(t);
    if len == 0 {
        return Err(format!(
            "{:?} does not start with a number; expected {}",
            text,
            expected()
        ));
    }
    let (num, rest) = t.split_at(len);
    let rest = rest.trim_start_matches([' ', '\u{a0}', '\u{2009}', '\u{202f}']);
    let Some(prefix) = rest.strip_suffix(unit) else {
        let what = if rest.is_empty() {
            "has no unit".to_string()
        } else {
            format!("ends in `{rest}`")
        };
        return Err(format!("{text:?} {what}; expected {}", expected()));
    };
    let Some(scale) = scale(prefix) else {
        let hint = if prefix == "K" {
            " (kilo is `k`; `Ki` is kibi, 1024)"
        } else {
            ""
        };
        return Err(format!(
            "{text:?}: `{prefix}` is no SI prefix (q r y z a f p n u µ m k M G T P E Z Y R Q) or binary prefix (Ki Mi Gi Ti Pi Ei Zi Yi){hint}; expected {}",
            expected()
        ));
    };
    Ok(match scale {
        Scale::Decimal(shift) => {
            let (mantissa, exp) = match exp_at {
                // An exponent too long for i64 is far beyond a float's
                // range: clamp it, and the parse gives inf or 0.
                Some(at) => (
                    &num[..at],
                    num[at + 1..]
                        .parse::<i64>()
                        .unwrap_or(if num[at + 1..].starts_with('-') {
                            -100_000
                        } else {
                            100_000
                        }),
                ),
                None => (num, 0),
            };
            let exp = exp.clamp(-100_000, 100_000) + i64::from(shift);
            format!("{mantissa}e{exp}")
                .parse::<f64>()
                .map_err(|e| e.to_string())?
        }
        Scale::Binary(bits) => num.parse::<f64>().map_err(|e| e.to_string())? * 2f64.powi(bits),
    })
}

#[cfg(test)]
mod tests {
    use super::parse_quantity as q;

    #[test]
    fn quantity_reads_rebar_and_criterion_texts_to_the_nearest_float() {
        assert_eq!(q("6.08ms", "s"), Ok(0.00608));
        assert_eq!(q("30.08us", "s"), Ok(3.008e-05));
        assert_eq!(q("4.51s", "s"), Ok(4.51));
        assert_eq!(q("10.309 us", "s"), Ok(1.0309e-5));
        assert_eq!(q("42.325 ns", "s"), Ok(4.2325e-8));
        assert_eq!(q("669.75 ps", "s"), Ok(6.6975e-10));
        assert_eq!(q("10.309 µs", "s"), Ok(1.0309e-5));
        assert_eq!(q("10.309 \u{3bc}s", "s"), Ok(1.0309e-5));
    }

    #[test]
    fn quantity_reads_binary_prefixes_and_no_unit() {
        assert_eq!(q("1.2 GiB", "B"), Ok(1288490188.8));
        assert_eq!(q("4KiB", "B"), Ok(4096.0));
        assert_eq!(q("3.5k", ""), Ok(3500.0));
        assert_eq!(q("-2", ""), Ok(-2.0));
        assert_eq!(q("1.5EB", "B"), Ok(1.5e18));
        assert_eq!(q("1e3 ms", "s"), Ok(1.0));
        assert_eq!(q(".5 Mop/s", "op/s"), Ok(500000.0));
        // `m` is milli, `M` mega; with unit `m`, `mm` is millimetres.
        assert_eq!(q("5 mm", "m"), Ok(0.005));
        assert_eq!(q("5 Mm", "m"), Ok(5e6));
    }

    #[test]
    fn quantity_with_a_wrong_unit_or_prefix_says_what_was_expected() {
        assert_eq!(
            q("6.08ms", "B"),
            Err("\"6.08ms\" ends in `ms`; expected a number, an optional SI or binary prefix and `B` (`2.5 kB`)".into())
        );
        assert_eq!(
            q("5", "s"),
            Err("\"5\" has no unit; expected a number, an optional SI or binary prefix and `s` (`2.5 ks`)".into())
        );
        assert_eq!(
            q("3.5K", ""),
            Err("\"3.5K\": `K` is no SI prefix (q r y z a f p n u µ m k M G T P E Z Y R Q) or binary prefix (Ki Mi Gi Ti Pi Ei Zi Yi) (kilo is `k`; `Ki` is kibi, 1024); expected a number with an optional SI prefix (`3.5k`)".into())
        );
        assert_eq!(
            q("fast", "s"),
            Err("\"fast\" does not start with a number; expected a number, an optional SI or binary prefix and `s` (`2.5 ks`)".into())
        );
        assert!(q("-", "").is_err());
        assert!(q(".", "").is_err());
        assert_eq!(q("1e999999999999999999999 s", "s"), Ok(f64::INFINITY));
    }
}

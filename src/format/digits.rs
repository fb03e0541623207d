//! The digits of a number: fixed or with a power of ten, rounded to
//! places or significant figures.
//!
//! Rounding is Rust's `{:.N}` / `{:.Ne}`, which rounds the exact binary
//! value half to even, as Python's `format()` does (`0.125` to two places
//! is `0.12`, `2.675` is `2.67` because its binary value is below the half).

/// How the exponent is chosen (siunitx `exponent-mode`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Exponent {
    /// Fixed, except scientific when no `places` is given and the rounded
    /// value is below 10⁻⁴ (or, unrounded, at least 10¹⁶), as Python's `g`
    /// and `repr` do.
    #[default]
    Auto,
    /// Never a power of ten.
    Fixed,
    /// One digit before the point: `5.7 × 10⁻¹⁴`.
    Scientific,
    /// A power of ten that is a multiple of 3: `57 × 10⁻¹⁵`.
    Engineering,
}

/// A number's digits: the unsigned mantissa (`.` as decimal point), its
/// sign, and the power of ten when written with one.
#[derive(Debug, Clone, PartialEq)]
pub struct Digits {
    /// Digits and `.`, no sign.
    pub mantissa: String,
    /// Whether the value is below zero (and its text is not all zeros).
    pub negative: bool,
    /// The power of ten, if the text has one.
    pub exponent: Option<i32>,
}

/// The rounding asked for.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Rounding {
    /// Shortest text that reads back the same float.
    Shortest,
    /// Decimal places (of the mantissa, with a power of ten).
    Places(u32),
    /// Significant figures.
    Figures(u32),
}

/// `x` (finite) as digits, with `mode` choosing the exponent.
pub fn digits(x: f64, r: Rounding, mode: Exponent) -> Digits {
    let sci = || scientific(x, r);
    let (text, exponent) = match mode {
        Exponent::Fixed => (fixed(x, r), None),
        Exponent::Scientific => {
            let (m, e) = sci();
            (m, Some(e))
        }
        Exponent::Engineering => {
            let (m, e) = engineering(x, r);
            (m, Some(e))
        }
        Exponent::Auto => {
            let (m, e) = sci();
            let small = x != 0.0 && e < -4 && !matches!(r, Rounding::Places(_));
            let large = r == Rounding::Shortest && x.abs() >= 1e16;
            if small || large {
                (m, Some(e))
            } else {
                (fixed(x, r), None)
            }
        }
    };
    let (negative, mantissa) = match text.strip_prefix('-') {
        Some(rest) => (true, rest.to_string()),
        None => (false, text),
    };
    // `-0.00` prints as `0.00`: the sign of a value that rounds to zero
    // says nothing.
    let negative = negative && mantissa.chars().any(|c| c.is_ascii_digit() && c != '0');
    Digits {
        mantissa,
        negative,
        exponent,
    }
}

/// Fixed notation, signed.
pub fn fixed(x: f64, r: Rounding) -> String {
    match r {
        Rounding::Places(p) => format!("{:.*}", p as usize, x),
        Rounding::Figures(f) => figures(x, f),
        Rounding::Shortest if x == x.trunc() && x.abs() < 1e16 => format!("{x:.1}"),
        Rounding::Shortest => format!("{x}"),
    }
}

fn figures(x: f64, figures: u32) -> String {
    if x == 0.0 {
        return format!("{:.*}", figures.saturating_sub(1) as usize, 0.0);
    }
    // Round in scientific notation (correctly rounded), then place the point.
    let sci = format!("{:.*e}", figures as usize - 1, x);
    let (m, exp) = split(&sci);
    let decimals = (figures as i32 - 1 - exp).max(0) as usize;
    let rounded: f64 = format!("{m}e{exp}").parse().unwrap_or(x);
    format!("{rounded:.decimals$}")
}

/// The digits of a non-negative integer (`digits`, no sign) rounded to
/// `figures` significant figures, half to even, as `figures` rounds a
/// double; more figures than digits add decimal places (`123` to 5 is
/// `123.00`).
pub fn int_figures(digits: &str, figures: usize) -> String {
    let n = digits.len();
    if figures >= n {
        return match figures - n {
            0 => digits.to_string(),
            extra => format!("{digits}.{}", "0".repeat(extra)),
        };
    }
    let (head, rest) = digits.split_at(figures.max(1));
    let half =
        rest.as_bytes()[0]
            .cmp(&b'5')
            .then_with(|| match rest[1..].bytes().any(|b| b != b'0') {
                true => std::cmp::Ordering::Greater,
                false => std::cmp::Ordering::Equal,
            });
    let odd = head.as_bytes()[head.len() - 1] % 2 == 1;
    let up = half.is_gt() || (half.is_eq() && odd);
    let mut head: Vec<u8> = head.bytes().collect();
    if up {
        let mut k = head.len();
        loop {
            if k == 0 {
                head.insert(0, b'1');
                break;
            }
            k -= 1;
            if head[k] == b'9' {
                head[k] = b'0';
            } else {
                head[k] += 1;
                break;
            }
        }
    }
    // A carry (`99` to `100`) scales the head, not the zeros after it.
    let zeros = n - figures.max(1);
    let mut out = String::from_utf8(head).unwrap_or_default();
    out.push_str(&"0".repeat(zeros));
    out
}

fn split(sci: &str) -> (&str, i32) {
    let (m, e) = sci.split_once('e').unwrap_or((sci, "0"));
    (m, e.parse().unwrap_or(0))
}

/// Signed mantissa with one digit before the point, and the exponent.
fn scientific(x: f64, r: Rounding) -> (String, i32) {
    let text = match r {
        Rounding::Shortest => format!("{x:e}"),
        Rounding::Places(p) => format!("{:.*e}", p as usize, x),
        Rounding::Figures(f) => format!("{:.*e}", f as usize - 1, x),
    };
    let (m, e) = split(&text);
    if x == 0.0 {
        return (m.to_string(), 0);
    }
    (m.to_string(), e)
}

/// Signed mantissa from 1 to 999.x, and an exponent that is a multiple of 3.
fn engineering(x: f64, r: Rounding) -> (String, i32) {
    if x == 0.0 {
        return scientific(x, r);
    }
    let floor3 = |e: i32| e.div_euclid(3) * 3;
    let Rounding::Places(p) = r else {
        // Figures and shortest round the same in any notation.
        let (m, e) = scientific(x, r);
        return (shift_point(&m, (e - floor3(e)) as usize), floor3(e));
    };
    // Places count the engineering mantissa's decimals: round to as many
    // figures as reach that place, then move the point.
    let (_, e0) = scientific(x, Rounding::Shortest);
    let e3 = floor3(e0);
    let (mut m, e) = scientific(x, Rounding::Figures((e0 - e3) as u32 + p + 1));
    if e == e0 {
        return (shift_point(&m, (e - e3) as usize), e3);
    }
    // Rounding carried into the next power of ten (99.996 -> 100.00): the
    // mantissa is all zeros after its 1, one figure short of the place.
    if floor3(e) != e3 {
        // ... and into the next power of 1000 (999.96 -> 1.0 × 10³).
        let sign = if m.starts_with('-') { "-" } else { "" };
        let zeros = "0".repeat(p as usize);
        let m = if p == 0 {
            format!("{sign}1")
        } else {
            format!("{sign}1.{zeros}")
        };
        return (m, floor3(e));
    }
    if !m.contains('.') {
        m.push('.');
    }
    m.push('0');
    (shift_point(&m, (e - e3) as usize), e3)
}

/// `m` (`-5.7`) with its point moved `by` places right (`-57`), padding
/// with zeros.
fn shift_point(m: &str, by: usize) -> String {
    let (sign, rest) = match m.strip_prefix('-') {
        Some(r) => ("-", r),
        None => ("", m),
    };
    let (int, frac) = rest.split_once('.').unwrap_or((rest, ""));
    let mut frac = frac.to_string();
    while frac.len() < by {
        frac.push('0');
    }
    let (moved, left) = frac.split_at(by);
    let int = format!("{int}{moved}");
    let int = int.trim_start_matches('0');
    let int = if int.is_empty() { "0" } else { int };
    if left.is_empty() {
        format!("{sign}{int}")
    } else {
        format!("{sign}{int}.{left}")
    }
}

/// `k` in Unicode superscript digits (`⁻¹⁴`).
pub fn superscript(k: i32) -> String {
    crate::ticks::superscript(k)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(x: f64, r: Rounding, m: Exponent) -> (String, bool, Option<i32>) {
        let d = digits(x, r, m);
        (d.mantissa, d.negative, d.exponent)
    }

    #[test]
    fn integer_figures_round_half_to_even_from_the_digits() {
        assert_eq!(
            int_figures("123456789012345678901234567890", 3),
            "123000000000000000000000000000"
        );
        assert_eq!(int_figures("125", 2), "120");
        assert_eq!(int_figures("135", 2), "140");
        assert_eq!(int_figures("1251", 2), "1300");
        assert_eq!(int_figures("9999", 2), "10000");
        assert_eq!(int_figures("123", 5), "123.00");
        assert_eq!(int_figures("123", 3), "123");
    }

    #[test]
    fn engineering_moves_the_point_to_a_multiple_of_three() {
        use Exponent::Engineering as E;
        assert_eq!(
            text(5.7e-14, Rounding::Figures(2), E),
            ("57".into(), false, Some(-15))
        );
        assert_eq!(
            text(123456.0, Rounding::Places(1), E),
            ("123.5".into(), false, Some(3))
        );
        assert_eq!(
            text(999.96, Rounding::Figures(3), E),
            ("1.00".into(), false, Some(3))
        );
        assert_eq!(
            text(-0.00042, Rounding::Shortest, E),
            ("420".into(), true, Some(-6))
        );
    }

    #[test]
    fn engineering_keeps_its_places_when_rounding_carries() {
        use Exponent::Engineering as E;
        let t = |x, p| {
            let (m, _, e) = text(x, Rounding::Places(p), E);
            (m, e.unwrap())
        };
        assert_eq!(t(99.996, 2), ("100.00".into(), 0));
        assert_eq!(t(999.96, 1), ("1.0".into(), 3));
        assert_eq!(t(-999.96, 0), ("1".into(), 3));
        assert_eq!(t(9.6, 0), ("10".into(), 0));
        assert_eq!(t(9.96, 1), ("10.0".into(), 0));
        assert_eq!(t(0.0099996, 2), ("10.00".into(), -3));
        assert_eq!(t(123456.0, 1), ("123.5".into(), 3));
        assert_eq!(t(12.345, 2), ("12.35".into(), 0));
        assert_eq!(
            text(-0.00042, Rounding::Shortest, E),
            ("420".into(), true, Some(-6))
        );
    }

    #[test]
    fn auto_is_scientific_below_ten_to_the_minus_four() {
        use Exponent::Auto as A;
        assert_eq!(
            text(5.7e-14, Rounding::Figures(2), A),
            ("5.7".into(), false, Some(-14))
        );
        // Python: format(0.000099996, '.2g') == '0.0001' (rounded first).
        assert_eq!(
            text(0.000099996, Rounding::Figures(2), A),
            ("0.00010".into(), false, None)
        );
        assert_eq!(
            text(0.00001, Rounding::Places(3), A),
            ("0.000".into(), false, None)
        );
        assert_eq!(
            text(1e20, Rounding::Shortest, A),
            ("1".into(), false, Some(20))
        );
    }
}

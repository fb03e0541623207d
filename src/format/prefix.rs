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
    // A unit that has a prefix itself (`ms`, `kB`): the base unit it
    // scales, which reads every prefix.
    let base = (1..unit.len())
        .filter(|&i| unit.is_char_boundary(i))
        .find(|&i| scale(&unit[..i]).is_some() && !unit[i..].is_empty())
        .map(|i| &unit[i..]);
    let expected = || {
        if unit.is_empty() {
            "a number with an optional SI prefix (`3.5k`)".to_string()
        } else if base.is_some() {
            format!("a number, an optional SI or binary prefix and `{unit}` (`2.5 {unit}`)")
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
        let hint = match base {
            Some(b) if rest.ends_with(b) => format!(
                "; `{unit}` is a prefixed `{b}`: `quantity(x, '{b}')` reads every prefix (the value in {b})"
            ),
            _ => String::new(),
        };
        return Err(format!("{text:?} {what}; expected {}{hint}", expected()));
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

/// Which prefixes a number format writes (`prefix = "si"` or `"binary"`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Prefixes {
    /// Powers of 1000, quecto to quetta.
    Si,
    /// Powers of 1024, none to yobi (no binary prefix below 1).
    Binary,
}

/// `x` (finite) times 10^`e`, rounded once from its shortest decimal text:
/// 1.0309e-5 shifted by 6 is the float nearest 10.309, where dividing by
/// 1e-6 gives 10.308999999999999.
pub fn shift10(x: f64, e: i32) -> f64 {
    let t = format!("{x:e}");
    let (m, exp) = t.split_once('e').unwrap_or((&t, "0"));
    let exp = exp.parse::<i64>().unwrap_or(0) + i64::from(e);
    format!("{m}e{exp}").parse().unwrap_or(x)
}

/// The power `k` of 1000 (SI) or 1024 (binary) whose prefix writes `v`,
/// and the mantissa `v / base^k`, |m| in [1, base) (binary: k ≥ 0, so
/// below 1 it is `v` itself). `same(m, base)` tells whether `m` prints as
/// `base` once rounded: then the next power is taken (999.96 to one place
/// is `1.0k`, not `1000.0`). The SI power is unbounded: a caller past
/// [`PREFIXES`] writes a power of ten instead.
pub fn split(v: f64, p: Prefixes, same: impl Fn(f64, f64) -> bool) -> (i32, f64) {
    let zero = v == 0.0 || !v.is_finite();
    match p {
        Prefixes::Si => {
            let mut k = if zero {
                0
            } else {
                ((v.abs().log10() + 1e-9) / 3.0).floor() as i32
            };
            let mut m = shift10(v, -3 * k);
            if same(m.abs(), 1000.0) {
                k += 1;
                m = shift10(v, -3 * k);
            }
            (k, m)
        }
        Prefixes::Binary => {
            let mut k = if zero {
                0
            } else {
                (v.abs().log2() / 10.0)
                    .floor()
                    .clamp(0.0, BINARY.len() as f64) as i32
            };
            let mut m = v / 2f64.powi(10 * k);
            if k < BINARY.len() as i32 && same(m.abs(), 1024.0) {
                k += 1;
                m /= 1024.0;
            }
            (k, m)
        }
    }
}

/// The prefix of power `k` (as [`split`] gives it), or `None` past the
/// table.
pub fn name(k: i32, p: Prefixes) -> Option<&'static str> {
    match p {
        Prefixes::Si => PREFIXES.get(usize::try_from(k + UNIT).ok()?).copied(),
        Prefixes::Binary if k == 0 => Some(""),
        Prefixes::Binary => BINARY.get(usize::try_from(k - 1).ok()?).copied(),
    }
}

/// A number format's `prefix` (`si` or `binary`), checked: not with
/// `percent` (the schema keeps it from `exponent-mode`). Errors at the
/// key's line and column.
pub(super) fn compile(
    spec: &crate::spec::LoadedSpec,
    f: &crate::spec::FormatSpec,
) -> crate::error::Result<Option<Prefixes>> {
    let Some(p) = &f.prefix else {
        return Ok(None);
    };
    let prefixes = match p.get_ref().as_str() {
        "si" => Prefixes::Si,
        "binary" => Prefixes::Binary,
        other => {
            return Err(spec.error(p.span(), format!("unknown prefix `{other}` (si or binary)")));
        }
    };
    if f.percent {
        return Err(spec.error(p.span(), "`prefix` does not go with `percent`"));
    }
    Ok(Some(prefixes))
}

impl super::Format {
    /// `x` written with the prefix that suits it and the unit after it
    /// (`10.309 µs`, `1.2 GiB`, `2.5k` without a unit), rounded as the
    /// format says, signed; `None` past quetta or quecto (the caller
    /// writes a power of ten).
    pub(super) fn prefixed(&self, x: f64, p: Prefixes, integer: bool) -> Option<String> {
        let r = self.rounding();
        let fixed = super::Format {
            exponent: super::Exponent::Fixed,
            ..self.clone()
        };
        let (k, m) = split(x, p, |m, top| fixed.number(m, r) == fixed.number(top, r));
        let prefix = name(k, p)?;
        // An integer whose mantissa is whole prints as one (`3k` for 3000,
        // `0 s`), as a plain integer does; a float keeps its `.0`.
        let whole = integer && r == super::Rounding::Shortest && m.fract() == 0.0;
        let mut body = fixed.number(m, if whole { super::Rounding::Places(0) } else { r });
        if self.plus && !body.starts_with(super::MINUS) {
            body.insert(0, '+');
        }
        Some(match &self.unit {
            Some(u) => {
                let sep = self.unit_product.as_deref().unwrap_or("\u{a0}");
                format!("{body}{sep}{prefix}{u}")
            }
            None => format!("{body}{prefix}"),
        })
    }

    /// For a value with an uncertainty: the format without its prefix,
    /// the prefix joined to its unit (`(10.31 ± 0.02) µs`), and the value
    /// and uncertainty scaled by the prefix the value takes; `None` when
    /// no prefix applies (then the format prints as it would without).
    pub(super) fn unprefixed(
        &self,
        x: f64,
        u: super::Uncertainty,
    ) -> Option<(super::Format, f64, super::Uncertainty)> {
        let p = self.prefix.filter(|_| x.is_finite())?;
        let (k, _) = split(x, p, |_, _| false);
        let prefix = name(k, p)?;
        let scale = |v: f64| match p {
            Prefixes::Si => shift10(v, -3 * k),
            Prefixes::Binary => v / 2f64.powi(10 * k),
        };
        let unit = match &self.unit {
            Some(u) => Some(format!("{prefix}{u}")),
            None if prefix.is_empty() => None,
            None => Some(prefix.to_string()),
        };
        let u = match u {
            super::Uncertainty::Symmetric(e) => super::Uncertainty::Symmetric(scale(e)),
            super::Uncertainty::Interval { low, high } => super::Uncertainty::Interval {
                low: scale(low),
                high: scale(high),
            },
        };
        let f = super::Format {
            prefix: None,
            unit,
            ..self.clone()
        };
        Some((f, scale(x), u))
    }
}

#[cfg(test)]
mod tests {
    use super::parse_quantity as q;
    use super::{Prefixes, split};
    use crate::format::Format;

    fn f(prefix: &str, unit: Option<&str>, figures: Option<u32>, places: Option<u32>) -> Format {
        let mut f = Format::new(places, figures, false, false, unit.map(String::from));
        f.prefix = Some(if prefix == "si" {
            Prefixes::Si
        } else {
            Prefixes::Binary
        });
        f
    }

    #[test]
    fn prefix_si_writes_criterion_times_with_five_figures() {
        let s = f("si", Some("s"), Some(5), None);
        let v = |x: f64| s.apply(&x.into());
        assert_eq!(v(1.0309e-5), "10.309\u{a0}\u{b5}s");
        assert_eq!(v(4.2325e-8), "42.325\u{a0}ns");
        assert_eq!(v(6.6975e-10), "669.75\u{a0}ps");
        assert_eq!(v(4.51), "4.5100\u{a0}s");
        assert_eq!(v(-0.00608), "\u{2212}6.0800\u{a0}ms");
        // Rounding carries to the next prefix: 999.996 µs to 5 figures.
        assert_eq!(v(9.99996e-4), "1.0000\u{a0}ms");
        // Shortest text without figures: the value's own digits.
        let short = f("si", Some("s"), None, None);
        assert_eq!(short.apply(&1.0309e-5.into()), "10.309\u{a0}\u{b5}s");
        assert_eq!(short.apply(&0.0.into()), "0.0\u{a0}s");
        assert_eq!(f("si", None, None, None).apply(&3500.into()), "3.5k");
        assert_eq!(f("si", None, None, None).apply(&3000.into()), "3k");
        assert_eq!(f("si", None, None, None).apply(&3000.0.into()), "3.0k");
        assert_eq!(short.apply(&0.into()), "0\u{a0}s");
        // Past quetta: a power of ten, with the unit.
        assert_eq!(
            f("si", Some("B"), Some(2), None).apply(&2e33.into()),
            "2.0\u{a0}\u{d7}\u{a0}10\u{b3}\u{b3}\u{a0}B"
        );
    }

    #[test]
    fn prefix_binary_writes_bytes_in_powers_of_1024() {
        let b = f("binary", Some("B"), None, Some(1));
        let v = |x: f64| b.apply(&x.into());
        assert_eq!(v(1288490188.8), "1.2\u{a0}GiB");
        assert_eq!(v(4096.0), "4.0\u{a0}KiB");
        assert_eq!(v(512.0), "512.0\u{a0}B");
        assert_eq!(v(0.5), "0.5\u{a0}B");
        // 1023.96 to one place is 1024.0: the next prefix.
        assert_eq!(v(1023.96 * 1024.0), "1.0\u{a0}MiB");
        assert_eq!(split(2f64.powi(100), Prefixes::Binary, |_, _| false).0, 8);
    }

    #[test]
    fn prefix_with_an_uncertainty_scales_both_and_joins_the_unit() {
        use crate::format::Uncertainty;
        let s = f("si", Some("s"), Some(1), None);
        assert_eq!(
            s.apply_uncertain(1.0309e-5, Uncertainty::Symmetric(2e-8))
                .unwrap(),
            "(10.31\u{a0}\u{b1}\u{a0}0.02)\u{a0}\u{b5}s"
        );
    }

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
        // As a number of artifact prints it: a no-break space.
        assert_eq!(q("1.2\u{a0}GiB", "B"), Ok(1288490188.8));
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
    #[test]
    fn a_prefixed_unit_points_to_its_base_unit_which_reads_every_prefix() {
        assert_eq!(
            q("387us", "ms"),
            Err("\"387us\" ends in `us`; expected a number, an optional SI or binary prefix and `ms` (`2.5 ms`); `ms` is a prefixed `s`: `quantity(x, 's')` reads every prefix (the value in s)".into())
        );
        assert_eq!(q("2.80ms", "ms"), Ok(2.8));
    }
}

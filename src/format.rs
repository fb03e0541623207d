//! Printing numbers, in siunitx's terms.
//!
//! - `places = N`: round to N decimal places (`round-mode = places`);
//! - `figures = N`: round to N significant figures (`round-mode = figures`);
//! - `sign = "always"`: a `+` on non-negative values (`print-implicit-plus`);
//! - `percent = true`: the value times 100, followed by `%`
//!   (`percent-sign = false`: without it, under a column headed "(%)");
//! - `group-digits = true`: thousands separated by `group-separator` (`,`);
//! - `output-decimal-marker`: the decimal point (`.`);
//! - `exponent-mode`: `fixed`, `scientific` (`5.7 × 10⁻¹⁴`) or
//!   `engineering` (`57 × 10⁻¹⁵`); by default fixed, but scientific when
//!   no `places` is given and the value (rounded) is below 10⁻⁴, as
//!   Python's `g` format switches (`figures = 2` prints `5.7 × 10⁻¹⁴`,
//!   not `0.000000000000057`); `print-unity-mantissa = false` drops `1 ×`;
//! - `unit = "ms"`: appended after `number-unit-product` (by default a
//!   no-break space, U+00A0: `~` in LaTeX);
//!   the units `×`, `x`, `%` and `°` attach without one (`4.0×`).
//!
//! One text per number, in Unicode: a negative value takes the true minus
//! U+2212, a power of ten is `×` (U+00D7) and superscript digits between
//! no-break spaces, an uncertainty `±` (U+00B1) between no-break spaces.
//! Figures, typst and numbers.json print it as is; the LaTeX emitter maps
//! those characters to LaTeX (the `emit` module). LaTeX spellings of spaces in
//! `group-separator` and `number-unit-product` (`\,` thin space U+2009,
//! `~` no-break space U+00A0, `{,}`) are read as the character they print.
//!
//! Without `places` or `figures`, integers print as integers and other
//! values with the shortest text that reads back to the same float (Python's
//! `repr`). Rounding is correct rounding of the exact binary value, half to
//! even, as Python's `format()` does: `0.125` to two places is `0.12`,
//! `0.375` is `0.38`, `2.5` to none is `2`, and `2.675` is `2.67` (its
//! binary value is below the half). A value that rounds to zero prints no
//! minus (`-0.001` to two places is `0.00`, where Python prints `-0.00`).

mod digits;
pub mod prefix;
pub mod tick;
mod uncertain;

pub use digits::Exponent;
use digits::{Rounding, digits};
pub use uncertain::{PART_NAMES, Parts, Uncertainty};

use crate::error::Result;
use crate::spec::{FormatSpec, LoadedSpec, SpannedStr};
use crate::value::{Value, as_number};

/// No-break space, around `×` and `±`.
pub const NBSP: char = '\u{a0}';
/// Thin space (`\,`).
pub const THIN: char = '\u{2009}';
/// The true minus sign.
pub const MINUS: char = '\u{2212}';

/// A validated number format.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Format {
    places: Option<u32>,
    figures: Option<u32>,
    plus: bool,
    percent: bool,
    group: Option<String>,
    unit: Option<String>,
    exponent: Exponent,
    /// `print-unity-mantissa = false`.
    drop_unity: bool,
    /// `output-decimal-marker`, when not `.`.
    decimal: Option<String>,
    /// `number-unit-product`, when given.
    unit_product: Option<String>,
    /// `separate-uncertainty = false`.
    compact: bool,
    /// `prefix = "si"` or `"binary"`: a prefix per value before the unit.
    prefix: Option<prefix::Prefixes>,
    /// `percent-sign = false`: times 100 without the `%` (a column headed
    /// "(%)").
    bare_percent: bool,
    /// `interval = "bounds"`: an uncertainty as `2.08× [2.03, 2.13]`.
    bounds: bool,
}

impl Format {
    /// A format from its parts (for the `fmt` template filter).
    pub fn new(
        places: Option<u32>,
        figures: Option<u32>,
        plus: bool,
        percent: bool,
        unit: Option<String>,
    ) -> Format {
        Format {
            places,
            figures,
            plus,
            percent,
            unit,
            ..Format::default()
        }
    }

    /// This format writing a prefix per value (`prefix = "si"` or
    /// `"binary"`); `None` for none.
    pub fn with_prefix(self, prefix: Option<prefix::Prefixes>) -> Format {
        Format { prefix, ..self }
    }

    /// Validates a spec format; `span` locates errors.
    pub fn compile(
        spec: &LoadedSpec,
        f: &FormatSpec,
        span: std::ops::Range<usize>,
    ) -> Result<Format> {
        if f.places.is_some() && f.figures.is_some() {
            return Err(spec.error(span, "a format has `places` or `figures`, not both"));
        }
        crate::spec::bounds::format(spec, f)?;
        let plus = match f.sign.as_ref().map(|s| s.get_ref().as_str()) {
            None | Some("negative") => false,
            Some("always") => true,
            Some(other) => {
                return Err(spec.error(
                    f.sign.as_ref().expect("some").span(),
                    format!("unknown sign mode `{other}` (always or negative)"),
                ));
            }
        };
        let exponent = match f.exponent_mode.as_ref() {
            None => Exponent::Auto,
            Some(m) => match m.get_ref().as_str() {
                "fixed" => Exponent::Fixed,
                "scientific" => Exponent::Scientific,
                "engineering" => Exponent::Engineering,
                other => {
                    return Err(spec.error(
                        m.span(),
                        format!(
                            "unknown exponent-mode `{other}` (fixed, scientific or engineering)"
                        ),
                    ));
                }
            },
        };
        if exponent == Exponent::Fixed && f.print_unity_mantissa.is_some() {
            return Err(spec.error(
                f.exponent_mode.as_ref().expect("given").span(),
                "`print-unity-mantissa` does nothing with `exponent-mode = \"fixed\"` (no power of ten is printed)",
            ));
        }
        let prefix = prefix::compile(spec, f)?;
        if exponent != Exponent::Auto && exponent != Exponent::Fixed && f.percent {
            return Err(spec.error(
                span,
                "`percent` does not go with a scientific or engineering `exponent-mode`",
            ));
        }
        let spacing = |s: &Option<SpannedStr>, key: &str| -> Result<Option<String>> {
            match s {
                None => Ok(None),
                Some(s) => latex_spacing(s.get_ref())
                    .map(Some)
                    .map_err(|why| spec.error(s.span(), format!("`{key}`: {why}"))),
            }
        };
        if let Some(g) = &f.group_separator
            && spacing(&f.group_separator, "group-separator")?.is_some_and(|g| g.is_empty())
        {
            return Err(spec.error(
                g.span(),
                format!(
                    "`group-separator` {:?} prints no separator (braces are LaTeX grouping and print nothing); accepted: a character such as `,` or `'`, `\\,` or `\\thinspace` for a thin space, `~` for a no-break space, `{{,}}` for a comma; for no grouping leave out `group-digits`",
                    g.get_ref()
                ),
            ));
        }
        let group = match spacing(&f.group_separator, "group-separator")? {
            Some(g) => Some(g),
            None => f.group_digits.then(|| ",".to_string()),
        };
        let decimal = spacing(&f.output_decimal_marker, "output-decimal-marker")?;
        if let Some(d) = &decimal {
            let at = f.output_decimal_marker.as_ref().expect("given").span();
            if d.is_empty() || d.chars().any(|c| c.is_ascii_digit() || c.is_whitespace()) {
                return Err(spec.error(
                    at,
                    format!("`output-decimal-marker` is a mark such as `,` or `.`, got {d:?}"),
                ));
            }
            if f.group_digits && group.as_deref() == Some(d.as_str()) {
                return Err(spec.error(
                    at,
                    format!(
                        "the decimal marker and the group separator are both {d:?}: \
                         set `group-separator` too (e.g. \"\\\\,\" for a thin space)"
                    ),
                ));
            }
        }
        Ok(Format {
            places: crate::spec::value(&f.places),
            figures: crate::spec::value(&f.figures),
            plus,
            percent: f.percent,
            group: if f.group_digits { group } else { None },
            unit: f.unit.clone(),
            exponent,
            drop_unity: f.print_unity_mantissa == Some(false),
            decimal,
            unit_product: spacing(&f.number_unit_product, "number-unit-product")?,
            compact: f.separate_uncertainty == Some(false),
            prefix,
            bare_percent: f.percent_sign == Some(false),
            bounds: interval(spec, f)?,
        })
    }

    /// Whether the format fixes the rounding (`places` or `figures`).
    pub fn rounds(&self) -> bool {
        self.places.is_some() || self.figures.is_some()
    }

    /// Whether values print as percentages.
    pub fn percent(&self) -> bool {
        self.percent
    }

    /// This format with `places` decimal places (and no `figures`).
    pub fn with_places(&self, places: u32) -> Format {
        Format {
            places: Some(places),
            figures: None,
            ..self.clone()
        }
    }

    /// This format with `exponent-mode = fixed` (tick labels choose their
    /// own powers of ten).
    pub fn fixed(&self) -> Format {
        Format {
            exponent: Exponent::Fixed,
            ..self.clone()
        }
    }

    /// The printed text of `v`. Non-numbers print as themselves.
    pub fn apply(&self, v: &Value) -> String {
        let Some(x) = as_number(v) else {
            return match v.as_str() {
                Some(s) => s.to_string(),
                None => v.to_string(),
            };
        };
        if let Some(p) = self.prefix.filter(|_| x.is_finite()) {
            return self.prefixed(x, p, v.is_integer()).unwrap_or_else(|| {
                // Past quetta or quecto: a power of ten, as siunitx would.
                let sci = Format {
                    exponent: Exponent::Scientific,
                    prefix: None,
                    ..self.clone()
                };
                sci.apply(v)
            });
        }
        let x = if self.percent { x * 100.0 } else { x };
        let mut body = if v.is_integer() && !self.percent && !self.rounds() {
            let t = v.to_string();
            match t.strip_prefix('-') {
                Some(rest) => format!("{MINUS}{}", self.grouped(rest)),
                None => self.grouped(&t),
            }
        } else if let Some(exact) = self.exact_int(v) {
            exact
        } else {
            self.number(x, self.rounding())
        };
        if self.plus && !body.starts_with(MINUS) {
            body.insert(0, '+');
        }
        if self.percent_sign() {
            body.push('%');
        }
        self.with_unit(body)
    }

    /// Whether a `%` follows the number (`percent`, and not
    /// `percent-sign = false`).
    fn percent_sign(&self) -> bool {
        self.percent && !self.bare_percent
    }

    /// An integer beyond 2⁵³ (where doubles skip integers) rounded to
    /// places or figures from its own digits, signed and grouped: a double
    /// would print other digits (`9007199254740993` as `...992`). `None`
    /// for any other value, a percentage or a power of ten.
    fn exact_int(&self, v: &Value) -> Option<String> {
        if !v.is_integer()
            || self.percent
            || !matches!(self.exponent, Exponent::Auto | Exponent::Fixed)
        {
            return None;
        }
        let i = i128::try_from(v.clone()).ok()?;
        if i.unsigned_abs() <= 1 << 53 {
            return None;
        }
        let digits = i.unsigned_abs().to_string();
        let body = match self.rounding() {
            Rounding::Places(0) | Rounding::Shortest => digits,
            Rounding::Places(p) => format!("{digits}.{}", "0".repeat(p as usize)),
            Rounding::Figures(f) => digits::int_figures(&digits, f as usize),
        };
        let body = self.grouped(&body);
        Some(if i < 0 {
            format!("{MINUS}{body}")
        } else {
            body
        })
    }

    fn rounding(&self) -> Rounding {
        match (self.places, self.figures) {
            (Some(p), _) => Rounding::Places(p),
            (None, Some(f)) => Rounding::Figures(f),
            (None, None) => Rounding::Shortest,
        }
    }

    /// `x` rounded as `r`, signed with the true minus, grouped, with its
    /// decimal marker and power of ten; no `+`, `%` or unit.
    fn number(&self, x: f64, r: Rounding) -> String {
        let d = digits(x, r, self.exponent);
        let sign = if d.negative {
            MINUS.to_string()
        } else {
            String::new()
        };
        let m = self.grouped(&d.mantissa);
        match d.exponent {
            None => format!("{sign}{m}"),
            Some(e) if self.drop_unity && d.mantissa == "1" => {
                format!("{sign}10{}", digits::superscript(e))
            }
            Some(e) => format!("{sign}{m}{NBSP}\u{d7}{NBSP}10{}", digits::superscript(e)),
        }
    }

    /// An unsigned `123456.5` grouped and with the decimal marker.
    fn grouped(&self, body: &str) -> String {
        let (int, frac) = match body.split_once('.') {
            Some((i, f)) => (i, Some(f)),
            None => (body, None),
        };
        let int = match &self.group {
            Some(sep) => group_digits(int, sep),
            None => int.to_string(),
        };
        match frac {
            Some(f) => format!("{int}{}{f}", self.decimal.as_deref().unwrap_or(".")),
            None => int,
        }
    }

    /// `body` followed by the unit, if any: after `number-unit-product`
    /// when given, else after a no-break space (so a line never breaks
    /// between a number and its unit, as siunitx's `\,` never does),
    /// except for the units that attach (`×`, `x`, `%`, `°`).
    fn with_unit(&self, body: String) -> String {
        match &self.unit {
            None => body,
            Some(u) => {
                let nbsp = NBSP.to_string();
                let sep = match &self.unit_product {
                    Some(p) => p.as_str(),
                    None if attaches(u) => "",
                    None => nbsp.as_str(),
                };
                format!("{body}{sep}{u}")
            }
        }
    }
}

/// Whether `interval = "bounds"` (an error at the key for another word
/// than `bounds` or `plus-minus`).
fn interval(spec: &LoadedSpec, f: &FormatSpec) -> Result<bool> {
    match f
        .interval
        .as_ref()
        .map(|s| (s.get_ref().as_str(), s.span()))
    {
        None | Some(("plus-minus", _)) => Ok(false),
        Some(("bounds", _)) => Ok(true),
        Some((other, span)) => Err(spec.error(
            span,
            format!("unknown interval style `{other}` (plus-minus or bounds)"),
        )),
    }
}

/// Whether `f` sets anything: a value that is not a number ignores its
/// format, so a format set where no value is a number is an error (a
/// `[numbers]` entry's, a results table column's).
pub fn has_format(f: &FormatSpec) -> bool {
    f.places.is_some()
        || f.figures.is_some()
        || f.sign.is_some()
        || f.percent
        || f.group_digits
        || f.group_separator.is_some()
        || f.unit.is_some()
        || f.exponent_mode.is_some()
        || f.print_unity_mantissa.is_some()
        || f.output_decimal_marker.is_some()
        || f.number_unit_product.is_some()
        || f.separate_uncertainty.is_some()
        || f.prefix.is_some()
        || f.percent_sign.is_some()
        || f.interval.is_some()
}

/// Whether a unit is written against the number by default: `4.0×`,
/// `12%`, `45°` (siunitx does the same for `\percent` and `\degree`).
pub fn attaches(unit: &str) -> bool {
    matches!(
        unit,
        "\u{d7}" | "x" | "%" | "\u{b0}" | "\u{2032}" | "\u{2033}"
    )
}

/// A separator or marker as written in the spec, LaTeX spellings read as
/// the character they print: `\,` and `\thinspace` a thin space
/// (U+2009), `~` a no-break space (U+00A0), `{,}` a comma; any other
/// backslash command is an error.
pub fn latex_spacing(s: &str) -> std::result::Result<String, String> {
    let s = s.trim_start_matches('{').trim_end_matches('}');
    let mut out = String::new();
    let mut rest = s;
    while let Some(c) = rest.chars().next() {
        if c == '\\' {
            let cmd: String = match rest[1..].chars().next() {
                Some(c) if c.is_ascii_alphabetic() => rest[1..]
                    .chars()
                    .take_while(|c| c.is_ascii_alphabetic())
                    .collect(),
                Some(c) => c.to_string(),
                None => String::new(),
            };
            match cmd.as_str() {
                "," | "thinspace" => out.push(THIN),
                " " => out.push(' '),
                "nobreakspace" => out.push(NBSP),
                _ => {
                    return Err(format!(
                        "unknown LaTeX command `\\{cmd}` (accepted: `\\,` or `\\thinspace` for a \
                         thin space, `~` for a no-break space, `{{,}}` for a comma, or the \
                         character itself)"
                    ));
                }
            }
            rest = &rest[1 + cmd.len().max(1)..];
            continue;
        }
        if c == '~' {
            out.push(NBSP);
        } else if c == '{' || c == '}' {
        } else if c.is_control() {
            return Err(format!("control character {}", crate::error::codepoint(c)));
        } else {
            out.push(c);
        }
        rest = &rest[c.len_utf8()..];
    }
    Ok(out)
}

fn group_digits(int: &str, sep: &str) -> String {
    if int.len() <= 4 {
        // siunitx does not group four-digit integers by default.
        return int.to_string();
    }
    let mut out = String::new();
    for (i, ch) in int.chars().enumerate() {
        if i > 0 && (int.len() - i).is_multiple_of(3) {
            out.push_str(sep);
        }
        out.push(ch);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fmt(f: Format, v: impl Into<Value>) -> String {
        f.apply(&v.into())
    }

    #[test]
    fn places_round_like_python_format() {
        let f = Format {
            places: Some(3),
            ..Format::default()
        };
        assert_eq!(fmt(f.clone(), 3.8594150000000003), "3.859");
        // Python: f"{2.675:.2f}" == "2.67" (binary value is below the half).
        let f2 = Format {
            places: Some(2),
            ..Format::default()
        };
        assert_eq!(fmt(f2, 2.675), "2.67");
    }

    #[test]
    fn sign_always_prints_a_plus() {
        let f = Format {
            places: Some(4),
            plus: true,
            ..Format::default()
        };
        assert_eq!(fmt(f.clone(), 0.01846305), "+0.0185");
        assert_eq!(fmt(f, -0.002), "\u{2212}0.0020");
    }

    #[test]
    fn integers_beyond_two_to_the_53_keep_their_digits_when_rounded() {
        let big = Value::from(123_456_789_012_345_678_901_234_567_890_i128);
        let f = |places, figures| Format::new(places, figures, false, false, None);
        assert_eq!(f(None, None).apply(&big), "123456789012345678901234567890");
        assert_eq!(
            f(Some(0), None).apply(&big),
            "123456789012345678901234567890"
        );
        assert_eq!(
            f(Some(2), None).apply(&big),
            "123456789012345678901234567890.00"
        );
        assert_eq!(
            f(None, Some(3)).apply(&big),
            "123000000000000000000000000000"
        );
        assert_eq!(
            f(Some(0), None).apply(&Value::from(9_007_199_254_740_993_i64)),
            "9007199254740993"
        );
        assert_eq!(
            f(Some(0), None).apply(&Value::from(-9_007_199_254_740_993_i64)),
            "\u{2212}9007199254740993"
        );
    }

    #[test]
    fn integers_print_plainly_and_floats_shortest() {
        assert_eq!(fmt(Format::default(), 250), "250");
        assert_eq!(fmt(Format::default(), 0.43), "0.43");
        assert_eq!(fmt(Format::default(), 2.0), "2.0");
    }

    #[test]
    fn significant_figures() {
        let f = Format {
            figures: Some(3),
            ..Format::default()
        };
        assert_eq!(fmt(f.clone(), 1258.675), "1260");
        assert_eq!(fmt(f.clone(), 0.0012345), "0.00123");
        assert_eq!(fmt(f, 41.1758), "41.2");
    }

    #[test]
    fn percent_unit_and_grouping() {
        let f = Format {
            places: Some(1),
            percent: true,
            ..Format::default()
        };
        assert_eq!(fmt(f, 0.1234), "12.3%");
        let g = Format {
            group: Some(",".into()),
            unit: Some("B".into()),
            ..Format::default()
        };
        assert_eq!(fmt(g.clone(), 137734656), "137,734,656\u{a0}B");
        assert_eq!(fmt(g, 1234), "1234\u{a0}B");
    }
}

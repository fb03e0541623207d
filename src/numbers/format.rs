//! Printing numbers, in siunitx's terms.
//!
//! - `places = N`: round to N decimal places (`round-mode = places`);
//! - `figures = N`: round to N significant figures (`round-mode = figures`);
//! - `sign = "always"`: a `+` on non-negative values (`print-implicit-plus`);
//! - `percent = true`: the value times 100, followed by `%`;
//! - `group-digits = true`: thousands separated by `group-separator` (`,`);
//! - `unit = "ms"`: appended after a space.
//!
//! Without `places` or `figures`, integers print as integers and other
//! values with the shortest text that reads back to the same float (Python's
//! `repr`). Rounding is correct rounding of the exact binary value, as
//! Python's `format()` does, so `{:.3f}` in the seed and `places = 3` here
//! print the same text.

use crate::error::Result;
use crate::spec::{FormatSpec, LoadedSpec};
use crate::value::{Value, as_number};

/// A validated number format.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Format {
    places: Option<u32>,
    figures: Option<u32>,
    plus: bool,
    percent: bool,
    group: Option<String>,
    unit: Option<String>,
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
            group: None,
            unit,
        }
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
        Ok(Format {
            places: crate::spec::value(&f.places),
            figures: crate::spec::value(&f.figures),
            plus,
            percent: f.percent,
            group: f
                .group_digits
                .then(|| f.group_separator.clone().unwrap_or_else(|| ",".into())),
            unit: f.unit.clone(),
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

    /// The printed text of `v`. Non-numbers print as themselves.
    pub fn apply(&self, v: &Value) -> String {
        let Some(x) = as_number(v) else {
            return match v.as_str() {
                Some(s) => s.to_string(),
                None => v.to_string(),
            };
        };
        let is_int = v.is_integer();
        let x = if self.percent { x * 100.0 } else { x };
        let mut body = match (self.places, self.figures) {
            (Some(p), _) => format!("{:.*}", p as usize, x),
            (None, Some(f)) => format_figures(x, f),
            (None, None) if is_int && !self.percent => v.to_string(),
            (None, None) => shortest(x),
        };
        if let Some(sep) = &self.group {
            body = group_digits(&body, sep);
        }
        if self.plus && !body.starts_with('-') {
            body.insert(0, '+');
        }
        if self.percent {
            body.push('%');
        }
        if let Some(u) = &self.unit {
            body.push(' ');
            body.push_str(u);
        }
        body
    }
}

/// Shortest round-trip text, written without an exponent for ordinary
/// magnitudes (`0.43`, `12.5`, `3.0`).
fn shortest(x: f64) -> String {
    if x.is_finite() && x == x.trunc() && x.abs() < 1e16 {
        format!("{x:.1}")
    } else {
        format!("{x}")
    }
}

fn format_figures(x: f64, figures: u32) -> String {
    if x == 0.0 {
        return format!("{:.*}", figures.saturating_sub(1) as usize, 0.0);
    }
    // Round in scientific notation (correctly rounded), then place the point.
    let sci = format!("{:.*e}", figures as usize - 1, x);
    let (mantissa, exp) = sci.split_once('e').expect("scientific format");
    let exp: i32 = exp.parse().expect("exponent");
    let decimals = (figures as i32 - 1 - exp).max(0) as usize;
    let rounded: f64 = format!("{mantissa}e{exp}").parse().expect("number");
    format!("{rounded:.decimals$}")
}

fn group_digits(body: &str, sep: &str) -> String {
    let (sign, rest) = match body.strip_prefix('-') {
        Some(r) => ("-", r),
        None => ("", body),
    };
    let (int, frac) = match rest.split_once('.') {
        Some((i, f)) => (i, Some(f)),
        None => (rest, None),
    };
    if int.len() <= 4 {
        // siunitx does not group four-digit integers by default.
        return body.to_string();
    }
    let mut out = String::new();
    for (i, ch) in int.chars().enumerate() {
        if i > 0 && (int.len() - i) % 3 == 0 {
            out.push_str(sep);
        }
        out.push(ch);
    }
    match frac {
        Some(f) => format!("{sign}{out}.{f}"),
        None => format!("{sign}{out}"),
    }
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
        assert_eq!(fmt(f, -0.002), "-0.0020");
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
        assert_eq!(fmt(g.clone(), 137734656), "137,734,656 B");
        assert_eq!(fmt(g, 1234), "1234 B");
    }
}

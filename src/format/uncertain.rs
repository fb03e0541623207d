//! A value printed with its uncertainty, as one text.
//!
//! - symmetric, `separate-uncertainty = true` (default): `1.234 ± 0.005`;
//!   `separate-uncertainty = false`: siunitx's compact `1.234(5)`, the
//!   uncertainty's digits in units of the value's last place;
//! - an interval (`low`, `high` around the value): `0.0185 +0.0035 / −0.0042`,
//!   the value, `+(high − value)`, `/`, `−(value − low)`; an interval
//!   whose two sides print the same is symmetric: `2.08 ± 0.05`;
//! - `interval = "bounds"`: the value with its unit, then the bounds in
//!   brackets, as papers print a confidence interval: `2.08× [2.03, 2.13]`.
//!
//! [`Format::parts`] gives the parts too: the value, the bounds and the
//! uncertainty alone (`\artnum[value]{k}` in the prose).
//!
//! The spaces are no-break spaces, so a line never breaks inside a number.
//! With a unit the number is parenthesised, as siunitx prints it:
//! `(1.234 ± 0.005) ms`; with `percent` both parts are times 100:
//! `(12.3 ± 0.5)%`.
//!
//! Rounding (siunitx `round-mode = uncertainty`): with `figures = N` the
//! uncertainty is rounded to N significant figures (for an interval, the
//! smaller of its two sides) and the value and every part to the same
//! decimal place; with `places = N` every part to N places; with neither,
//! each part prints its shortest text. An uncertainty of 0 has no figures:
//! the value is rounded to its own N figures and the 0 to the same place
//! (`1.24 ± 0` to three figures: `1.24 ± 0.00`; to one: `1 ± 0`). More
//! than 20 decimal places (an uncertainty of 1e-300) is an error.

use super::digits::{Exponent, Rounding};
use super::{Format, MINUS, NBSP};

/// An uncertainty around a value.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Uncertainty {
    /// `value ± u` (u ≥ 0).
    Symmetric(f64),
    /// The bounds of an interval around the value (low ≤ value ≤ high).
    Interval {
        /// The lower bound.
        low: f64,
        /// The upper bound.
        high: f64,
    },
}

/// A number with an uncertainty, printed whole and in parts, so the prose
/// can quote one (`\artnum[value]{k}`). Each part is a text as the whole
/// prints it (no-break spaces, true minus).
#[derive(Debug, Clone, PartialEq)]
pub struct Parts {
    /// The whole: `(2.08 ± 0.05)×`, `2.08× [2.03, 2.13]`.
    pub whole: String,
    /// The value alone, with its sign, `%` and unit: `2.08×`.
    pub value: String,
    /// The lower bound (value − u for a symmetric u), at the value's
    /// place, with its unit: `2.03×`.
    pub lo: String,
    /// The upper bound, as `lo`: `2.13×`.
    pub hi: String,
    /// The uncertainty alone, as the whole prints it: `± 0.05`,
    /// `+0.05 / −0.04`, `(5)` (compact), `[2.03, 2.13]` (bounds).
    pub pm: String,
}

impl Parts {
    /// The parts by name, in the order the docs list them: `value`, `lo`,
    /// `hi`, `pm`.
    pub fn named(&self) -> [(&'static str, &str); 4] {
        [
            ("value", &self.value),
            ("lo", &self.lo),
            ("hi", &self.hi),
            ("pm", &self.pm),
        ]
    }
}

/// The names of a number's parts (`\artnum[NAME]{key}`).
pub const PART_NAMES: [&str; 4] = ["value", "lo", "hi", "pm"];

impl Format {
    /// The text of `x` with uncertainty `u` (see the module doc). An error
    /// (a sentence) for what cannot be printed: a compact interval or a
    /// power of ten.
    pub fn apply_uncertain(&self, x: f64, u: Uncertainty) -> Result<String, String> {
        self.parts(x, u).map(|p| p.whole)
    }

    /// The text of `x` with uncertainty `u` and its parts (see [`Parts`]);
    /// errors as [`Format::apply_uncertain`].
    pub fn parts(&self, x: f64, u: Uncertainty) -> Result<Parts, String> {
        if let Some((f, x, u)) = self.unprefixed(x, u) {
            return f.parts(x, u);
        }
        if matches!(self.exponent, Exponent::Scientific | Exponent::Engineering) {
            return Err(
                "an uncertainty prints in fixed notation: `exponent-mode` does not go with it"
                    .into(),
            );
        }
        let scale = if self.percent { 100.0 } else { 1.0 };
        let x = x * scale;
        let f = self.fixed();
        // The place every part is rounded to: decimal places, or a power
        // of ten left of the point (`15267 ± 7189` to two figures is
        // `15300 ± 7200`, as siunitx prints it).
        // An uncertainty of 0 has no figures: the value's own `figures`
        // decide the place (`1.24 ± 0` to three figures is `1.24 ± 0.00`).
        let rounding = |smallest: f64| -> Result<Place, String> {
            Ok(match (self.places, self.figures) {
                (Some(p), _) => Place::Decimals(p),
                (None, Some(n)) => {
                    let of = if smallest == 0.0 { x.abs() } else { smallest };
                    match decimals_of(of, n) {
                        d if d > MAX_DECIMALS as i32 => {
                            return Err(format!(
                                "the uncertainty {:e} to {n} figure(s) needs {d} decimal places, more than {MAX_DECIMALS}: print the number in a larger unit (scale `value` and `uncertainty` and set `unit`) or give `places`",
                                smallest / scale
                            ));
                        }
                        d if d >= 0 => Place::Decimals(d as u32),
                        d => Place::Tens(-d),
                    }
                }
                (None, None) => Place::Shortest,
            })
        };
        let num = |v: f64, r: Place| match r {
            Place::Decimals(p) => f.number(v, Rounding::Places(p)),
            Place::Shortest => f.number(v, Rounding::Shortest),
            Place::Tens(k) => {
                let p = 10f64.powi(k);
                f.number((v / p).round_ties_even() * p, Rounding::Places(0))
            }
        };
        let signed = |mut t: String| {
            if self.plus && !t.starts_with(MINUS) {
                t.insert(0, '+');
            }
            t
        };
        // The sides of the interval (both u for a symmetric one) and the place.
        let (up, down, r) = match u {
            Uncertainty::Symmetric(s) => {
                let s = s * scale;
                (s, s, rounding(s)?)
            }
            Uncertainty::Interval { low, high } => {
                if self.compact {
                    return Err(
                        "`separate-uncertainty = false` needs a symmetric uncertainty, not an interval"
                            .into(),
                    );
                }
                let (up, down) = ((high * scale - x).max(0.0), (x - low * scale).max(0.0));
                let r = rounding(if up > 0.0 && down > 0.0 {
                    up.min(down)
                } else {
                    up.max(down)
                })?;
                (up, down, r)
            }
        };
        let value = signed(num(x, r));
        let (lo, hi) = (signed(num(x - down, r)), signed(num(x + up, r)));
        let pm = if self.bounds {
            format!("[{lo},{NBSP}{hi}]")
        } else if self.compact {
            let digits: String = num(up, r).chars().filter(char::is_ascii_digit).collect();
            let digits = digits.trim_start_matches('0');
            format!("({})", if digits.is_empty() { "0" } else { digits })
        } else if num(up, r) == num(down, r) {
            // Two sides that print the same are one: `± 0.05`.
            format!("\u{b1}{NBSP}{}", num(up, r))
        } else {
            format!("+{}{NBSP}/{NBSP}{MINUS}{}", num(up, r), num(down, r))
        };
        // A quantity: the number, its `%` and its unit.
        let quantity = |mut t: String| {
            if self.percent_sign() {
                t.push('%');
            }
            self.with_unit(t)
        };
        let whole = if self.bounds {
            format!("{}{NBSP}{pm}", quantity(value.clone()))
        } else if self.compact {
            quantity(format!("{value}{pm}"))
        } else if self.unit.is_some() || self.percent_sign() {
            // What follows the number belongs to both parts: `(1.2 ± 0.1) ms`.
            quantity(format!("({value}{NBSP}{pm})"))
        } else {
            format!("{value}{NBSP}{pm}")
        };
        Ok(Parts {
            whole,
            value: quantity(value),
            lo: quantity(lo),
            hi: quantity(hi),
            pm,
        })
    }
}

/// Most decimal places a number with an uncertainty prints (as `places`).
const MAX_DECIMALS: u32 = *crate::spec::bounds::PLACES.end();

/// Where the parts of a number with an uncertainty are rounded.
#[derive(Clone, Copy)]
enum Place {
    /// Each part's shortest text.
    Shortest,
    /// Decimal places.
    Decimals(u32),
    /// To a multiple of 10^k (k ≥ 1), left of the decimal point.
    Tens(i32),
}

/// The decimal places that leave `u` with `figures` significant figures;
/// negative for a place left of the point (`7189` to two figures: −2).
fn decimals_of(u: f64, figures: u32) -> i32 {
    if u == 0.0 || !u.is_finite() {
        return figures.saturating_sub(1) as i32;
    }
    let sci = format!("{:.*e}", figures as usize - 1, u);
    let e: i32 = sci
        .split_once('e')
        .and_then(|(_, e)| e.parse().ok())
        .unwrap_or(0);
    figures as i32 - 1 - e
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(places: Option<u32>, figures: Option<u32>) -> Format {
        Format::new(places, figures, false, false, None)
    }

    #[test]
    fn figures_round_the_uncertainty_and_the_value_to_its_place() {
        let s = Uncertainty::Symmetric(0.00523);
        assert_eq!(
            f(None, Some(1)).apply_uncertain(1.23456, s).unwrap(),
            "1.235\u{a0}±\u{a0}0.005"
        );
        assert_eq!(
            f(None, Some(2)).apply_uncertain(1.23456, s).unwrap(),
            "1.2346\u{a0}±\u{a0}0.0052"
        );
        let c = Format {
            compact: true,
            ..f(None, Some(1))
        };
        assert_eq!(c.apply_uncertain(1.23456, s).unwrap(), "1.235(5)");
    }

    #[test]
    fn an_interval_prints_plus_high_and_minus_low() {
        let i = Uncertainty::Interval {
            low: 0.0143,
            high: 0.0220,
        };
        assert_eq!(
            f(Some(4), None).apply_uncertain(0.0185, i).unwrap(),
            "0.0185\u{a0}+0.0035\u{a0}/\u{a0}−0.0042"
        );
    }

    #[test]
    fn uncertainty_needing_more_than_20_places_is_an_error_not_607_characters() {
        let e = f(None, Some(2))
            .apply_uncertain(1.24, Uncertainty::Symmetric(1e-300))
            .unwrap_err();
        assert_eq!(
            e,
            "the uncertainty 1e-300 to 2 figure(s) needs 301 decimal places, more than 20: print the number in a larger unit (scale `value` and `uncertainty` and set `unit`) or give `places`"
        );
        // 20 places is the limit, and prints.
        assert_eq!(
            f(None, Some(1))
                .apply_uncertain(1.24, Uncertainty::Symmetric(3e-20))
                .unwrap(),
            "1.23999999999999999112\u{a0}±\u{a0}0.00000000000000000003"
        );
    }

    #[test]
    fn zero_uncertainty_takes_the_values_own_figures() {
        let z = Uncertainty::Symmetric(0.0);
        assert_eq!(
            f(None, Some(3)).apply_uncertain(1.24, z).unwrap(),
            "1.24\u{a0}±\u{a0}0.00"
        );
        assert_eq!(
            f(None, Some(1)).apply_uncertain(1.24, z).unwrap(),
            "1\u{a0}±\u{a0}0"
        );
        assert_eq!(
            f(None, Some(2)).apply_uncertain(1234.5, z).unwrap(),
            "1200\u{a0}±\u{a0}0"
        );
        assert_eq!(
            f(None, Some(2)).apply_uncertain(0.0, z).unwrap(),
            "0.0\u{a0}±\u{a0}0.0"
        );
        let i = Uncertainty::Interval {
            low: 0.00123,
            high: 0.00123,
        };
        // Two sides that print the same: `±`.
        assert_eq!(
            f(None, Some(2)).apply_uncertain(0.00123, i).unwrap(),
            "0.0012\u{a0}±\u{a0}0.0000"
        );
    }

    /// Two figures of an uncertainty left of the point printed every digit
    /// (`15267 ± 7189`): the value and the uncertainty round to its place.
    #[test]
    fn figures_left_of_the_point_round_to_tens_and_hundreds() {
        let s = |u| Uncertainty::Symmetric(u);
        assert_eq!(
            f(None, Some(2))
                .apply_uncertain(15266.67, s(7189.4))
                .unwrap(),
            "15300\u{a0}±\u{a0}7200"
        );
        assert_eq!(
            f(None, Some(2)).apply_uncertain(213.33, s(163.7)).unwrap(),
            "210\u{a0}±\u{a0}160"
        );
        assert_eq!(
            f(None, Some(1)).apply_uncertain(213.33, s(163.7)).unwrap(),
            "200\u{a0}±\u{a0}200"
        );
        // Two figures at the units place: no change.
        assert_eq!(
            f(None, Some(2)).apply_uncertain(1234.4, s(56.0)).unwrap(),
            "1234\u{a0}±\u{a0}56"
        );
        let i = Uncertainty::Interval {
            low: 900.0,
            high: 2600.0,
        };
        assert_eq!(
            f(None, Some(1)).apply_uncertain(1234.0, i).unwrap(),
            "1200\u{a0}+1400\u{a0}/\u{a0}−300"
        );
    }

    /// `(2.08 +0.05 / −0.05)×` printed the same side twice: a symmetric
    /// interval is `±`.
    #[test]
    fn an_interval_whose_sides_print_the_same_is_plus_minus() {
        let i = Uncertainty::Interval {
            low: 2.031,
            high: 2.129,
        };
        let x = Format::new(Some(2), None, false, false, Some("\u{d7}".into()));
        assert_eq!(
            x.apply_uncertain(2.08, i).unwrap(),
            "(2.08\u{a0}±\u{a0}0.05)\u{d7}"
        );
    }

    /// The prose could quote only the whole `(2.08 +0.12 / −0.08)×`.
    #[test]
    fn parts_are_the_value_the_bounds_and_the_uncertainty_alone() {
        let i = Uncertainty::Interval {
            low: 2.0,
            high: 2.2,
        };
        let x = Format::new(Some(2), None, false, false, Some("\u{d7}".into()));
        let p = x.parts(2.08, i).unwrap();
        assert_eq!(p.whole, "(2.08\u{a0}+0.12\u{a0}/\u{a0}−0.08)\u{d7}");
        assert_eq!(
            [p.value, p.lo, p.hi, p.pm],
            [
                "2.08\u{d7}",
                "2.00\u{d7}",
                "2.20\u{d7}",
                "+0.12\u{a0}/\u{a0}−0.08"
            ]
        );
        // A symmetric u: the bounds are v ± u, at the value's place.
        let ms = Format::new(None, Some(1), false, false, Some("ms".into()));
        let p = ms.parts(5.9012, Uncertainty::Symmetric(0.0432)).unwrap();
        assert_eq!(
            [p.whole, p.value, p.lo, p.hi, p.pm],
            [
                "(5.90\u{a0}±\u{a0}0.04)\u{a0}ms",
                "5.90\u{a0}ms",
                "5.86\u{a0}ms",
                "5.94\u{a0}ms",
                "±\u{a0}0.04"
            ]
        );
    }

    #[test]
    fn bounds_style_prints_the_value_then_the_interval_in_brackets() {
        let b = Format {
            bounds: true,
            ..Format::new(Some(2), None, false, false, Some("\u{d7}".into()))
        };
        let i = Uncertainty::Interval {
            low: 2.03,
            high: 2.13,
        };
        let p = b.parts(2.08, i).unwrap();
        assert_eq!(p.whole, "2.08\u{d7}\u{a0}[2.03,\u{a0}2.13]");
        assert_eq!(p.pm, "[2.03,\u{a0}2.13]");
        let pct = Format {
            bounds: true,
            ..Format::new(Some(1), None, false, true, None)
        };
        assert_eq!(
            pct.apply_uncertain(0.123, Uncertainty::Symmetric(0.005))
                .unwrap(),
            "12.3%\u{a0}[11.8,\u{a0}12.8]"
        );
    }

    /// `percent` appended `%` even under a column headed "(%)".
    #[test]
    fn percent_sign_false_drops_the_sign_and_the_parentheses() {
        let bare = Format {
            bare_percent: true,
            ..Format::new(Some(1), None, false, true, None)
        };
        assert_eq!(bare.apply(&0.1234.into()), "12.3");
        assert_eq!(
            bare.apply_uncertain(0.1234, Uncertainty::Symmetric(0.005))
                .unwrap(),
            "12.3\u{a0}±\u{a0}0.5"
        );
        let signed = Format::new(Some(1), None, false, true, None);
        assert_eq!(
            signed
                .apply_uncertain(0.1234, Uncertainty::Symmetric(0.005))
                .unwrap(),
            "(12.3\u{a0}±\u{a0}0.5)%"
        );
    }
}

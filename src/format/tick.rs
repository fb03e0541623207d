//! Tick label formats: an axis's `format`, in siunitx's words (`places`,
//! `figures`, `sign`, `percent`, `group-digits`, `unit`) plus SI prefixes
//! (`prefix = "si"`, matplotlib's `EngFormatter`; `"binary"`, powers of
//! 1024 for bytes) and scientific notation
//! (`exponent-mode = "scientific"`, drawn as `2.5×10⁶` with superscript
//! digits the bundled font has).
//!
//! Without `places` or `figures`, the labels of one axis share the fewest
//! decimals that tell every tick exactly (as the default labels do); a
//! negative label takes the typographic minus, as matplotlib's do.

use toml::Spanned;

use crate::error::Result;
use crate::format::Format;
use crate::format::prefix::{self, Prefixes};
use crate::spec::{LoadedSpec, TickFormatSpec};
use crate::ticks;
use crate::value::Value;

/// How the labels of one axis are written.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct TickFormat {
    number: Format,
    unit: Option<String>,
    /// `prefix = "si"` or `"binary"`.
    prefix: Option<Prefixes>,
    scientific: bool,
}

impl TickFormat {
    /// Validates an axis's `format` (errors at the spec's line and column).
    pub fn compile(spec: &LoadedSpec, f: &Spanned<TickFormatSpec>) -> Result<TickFormat> {
        let t = f.get_ref();
        let number = Format::compile(spec, &t.number_format(), f.span())?.fixed();
        let prefix = match t.prefix.as_ref().map(|p| (p.get_ref().as_str(), p.span())) {
            None => None,
            Some(("si", _)) => Some(Prefixes::Si),
            Some(("binary", _)) => Some(Prefixes::Binary),
            Some((other, span)) => {
                return Err(spec.error(span, format!("unknown prefix `{other}` (si or binary)")));
            }
        };
        let si = prefix.is_some();
        let scientific = match t
            .exponent_mode
            .as_ref()
            .map(|p| (p.get_ref().as_str(), p.span()))
        {
            None | Some(("fixed", _)) => false,
            Some(("scientific", _)) => true,
            Some((other, span)) => {
                return Err(spec.error(
                    span,
                    format!("unknown exponent-mode `{other}` (fixed or scientific)"),
                ));
            }
        };
        if si && scientific {
            return Err(spec.error(
                f.span(),
                "a tick format has `prefix` or `exponent-mode = \"scientific\"`, not both",
            ));
        }
        if (si || scientific) && t.percent {
            return Err(spec.error(
                f.span(),
                "`percent` does not go with `prefix` or `exponent-mode = \"scientific\"`",
            ));
        }
        Ok(TickFormat {
            number,
            unit: t.unit.clone(),
            prefix,
            scientific,
        })
    }

    /// The labels of ticks `values`, in order.
    pub fn labels(&self, values: &[f64]) -> Vec<String> {
        let body: Vec<String> = if let Some(p) = self.prefix {
            values.iter().map(|v| self.si_label(*v, p)).collect()
        } else if self.scientific {
            // `10⁶` alone only when every tick is a power of ten (a log
            // axis's decades); else `1×10⁶` beside `2.5×10⁶`.
            let parts: Vec<(String, String)> = values.iter().map(|v| self.sci_label(*v)).collect();
            let decades = parts
                .iter()
                .all(|(m, e)| e.is_empty() || m == "1" || m == "\u{2212}1");
            parts
                .into_iter()
                .map(
                    |(m, e)| match (e.is_empty(), decades && !self.number.rounds()) {
                        (true, _) => m,
                        (false, true) => format!("{}10{e}", m.trim_end_matches('1')),
                        (false, false) => format!("{m}\u{d7}10{e}"),
                    },
                )
                .collect()
        } else {
            let f = if self.number.rounds() {
                self.number.clone()
            } else {
                let scale = if self.number.percent() { 100.0 } else { 1.0 };
                let scaled: Vec<f64> = values.iter().map(|v| v * scale).collect();
                self.number.with_places(shared_decimals(&scaled))
            };
            values
                .iter()
                .map(|v| minus(f.apply(&Value::from(*v))))
                .collect()
        };
        match &self.unit {
            Some(u) if self.prefix.is_none() => {
                body.into_iter().map(|b| format!("{b} {u}")).collect()
            }
            _ => body,
        }
    }

    /// Whether the labels are scientific (`exponent-mode = "scientific"`).
    pub fn scientific(&self) -> bool {
        self.scientific
    }

    /// A linear axis's scientific labels with the power of ten factored
    /// out once (matplotlib's `ScalarFormatter` offset text): the
    /// mantissas (the format's rounding, else the fewest shared decimals;
    /// the unit after each) and the factor `×10ⁿ`, n the power of the
    /// largest |tick|. `None` unless the format is scientific, or when n
    /// is 0 or every tick is 0.
    pub fn factored(&self, values: &[f64]) -> Option<(Vec<String>, String)> {
        let top = values
            .iter()
            .map(|v| v.abs())
            .filter(|v| v.is_finite())
            .fold(0.0, f64::max);
        if !self.scientific || top == 0.0 {
            return None;
        }
        let k = (top.log10() + 1e-9).floor() as i32;
        if k == 0 {
            return None;
        }
        let scaled: Vec<f64> = values.iter().map(|v| v / 10f64.powi(k)).collect();
        let f = if self.number.rounds() {
            self.number.clone()
        } else {
            self.number.with_places(shared_decimals(&scaled))
        };
        let labels = scaled
            .iter()
            .map(|m| {
                let body = minus(f.apply(&Value::from(*m)));
                match &self.unit {
                    Some(u) => format!("{body} {u}"),
                    None => body,
                }
            })
            .collect();
        Some((labels, format!("\u{d7}10{}", ticks::superscript(k))))
    }

    /// `2.5k`, or `2.5 kB/s` with a unit (`1.5 GiB` with binary prefixes).
    fn si_label(&self, v: f64, p: Prefixes) -> String {
        let (k, m) = prefix::split(v, p, |m, top| self.mantissa(m) == self.mantissa(top));
        let Some(p) = prefix::name(k, p) else {
            let (m, e) = self.sci_label(v);
            let num = format!("{m}\u{d7}10{e}");
            return match &self.unit {
                Some(u) => format!("{num} {u}"),
                None => num,
            };
        };
        let num = self.mantissa(m);
        match &self.unit {
            Some(u) => format!("{num} {p}{u}"),
            None => format!("{num}{p}"),
        }
    }

    /// The signed mantissa and the superscript exponent (empty for 0).
    fn sci_label(&self, v: f64) -> (String, String) {
        if v == 0.0 || !v.is_finite() {
            return (self.mantissa(v), String::new());
        }
        let mut k = (v.abs().log10() + 1e-9).floor() as i32;
        let mut m = v / 10f64.powi(k);
        // Rounding may carry the mantissa to 10 (9.99 -> 10.0).
        if self.mantissa(m.abs()) == self.mantissa(10.0) {
            k += 1;
            m /= 10.0;
        }
        let sign = if m < 0.0 { "\u{2212}" } else { "" };
        (
            format!("{sign}{}", self.mantissa(m.abs())),
            ticks::superscript(k),
        )
    }

    /// A mantissa with the format's rounding, or the fewest decimals that
    /// show it (at most 3).
    fn mantissa(&self, m: f64) -> String {
        let f = if self.number.rounds() {
            self.number.clone()
        } else {
            let r = (m * 1000.0).round() / 1000.0;
            self.number.with_places(shared_decimals(&[r]).min(3))
        };
        minus(f.apply(&Value::from(m)))
    }
}

/// The fewest decimals (0 to 10) that show every value exactly.
fn shared_decimals(values: &[f64]) -> u32 {
    (0..=10)
        .find(|d| {
            let f = 10f64.powi(*d);
            values.iter().all(|t| {
                let s = t * f;
                (s - s.round()).abs() < 1e-7 * s.abs().max(1.0)
            })
        })
        .unwrap_or(6) as u32
}

/// A leading `-` as the typographic minus; `-0` as `0`.
fn minus(s: String) -> String {
    match s.strip_prefix('-') {
        Some(rest) if rest.chars().any(|c| c.is_ascii_digit() && c != '0') => {
            format!("\u{2212}{rest}")
        }
        Some(rest) => rest.to_string(),
        None => s,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tf(si: bool, scientific: bool) -> TickFormat {
        TickFormat {
            prefix: si.then_some(Prefixes::Si),
            scientific,
            ..TickFormat::default()
        }
    }

    #[test]
    fn si_prefixes_scale_by_thousands() {
        let f = tf(true, false);
        assert_eq!(
            f.labels(&[0.0, 2500.0, 1e4, 1e6, 2.5e9, 0.001]),
            ["0", "2.5k", "10k", "1M", "2.5G", "1m"]
        );
        let with_unit = TickFormat {
            unit: Some("B/s".into()),
            ..tf(true, false)
        };
        assert_eq!(with_unit.labels(&[1e7]), ["10 MB/s"]);
    }

    #[test]
    fn si_prefixes_stop_at_t_and_p() {
        let b = TickFormat {
            unit: Some("B".into()),
            ..tf(true, false)
        };
        assert_eq!(b.labels(&[5e15]), ["5 PB"]);
        let f = tf(true, false);
        assert_eq!(
            f.labels(&[1e-30, 2e-27, 3e-24, 4e-21, 5e-18, 6e-15, 7e-12]),
            ["1q", "2r", "3y", "4z", "5a", "6f", "7p"]
        );
        assert_eq!(
            f.labels(&[1e15, 2e18, 3e21, 4e24, 5e27, 1e30, 999.9996]),
            ["1P", "2E", "3Z", "4Y", "5R", "1Q", "1k"]
        );
        // Beyond quetta and quecto: scientific, with the unit.
        let bs = TickFormat {
            unit: Some("B/s".into()),
            ..tf(true, false)
        };
        assert_eq!(bs.labels(&[2e33, -5e-33]), ["2×10³³ B/s", "−5×10⁻³³ B/s"]);
    }

    #[test]
    fn binary_prefix_ticks_scale_by_1024() {
        let b = TickFormat {
            unit: Some("B".into()),
            prefix: Some(Prefixes::Binary),
            ..TickFormat::default()
        };
        assert_eq!(
            b.labels(&[0.0, 512.0, 1536.0, 536870912.0, 1610612736.0]),
            ["0 B", "512 B", "1.5 KiB", "512 MiB", "1.5 GiB"]
        );
    }

    #[test]
    fn scientific_writes_powers_of_ten() {
        let f = tf(false, true);
        assert_eq!(
            f.labels(&[0.0, 1e6, 2.5e6, -3e-4]),
            ["0", "1×10⁶", "2.5×10⁶", "−3×10⁻⁴"]
        );
        assert_eq!(f.labels(&[1e3, 1e4, -1e5]), ["10³", "10⁴", "−10⁵"]);
    }

    #[test]
    fn scientific_axis_factors_its_power_of_ten_once() {
        let f = tf(false, true);
        let (labels, offset) = f.factored(&[0.0, 5e5, 1e6, 1.5e6, 2e6]).expect("factored");
        assert_eq!(labels, ["0.0", "0.5", "1.0", "1.5", "2.0"]);
        assert_eq!(offset, "×10⁶");
        let (labels, offset) = f.factored(&[-2e-4, 0.0, 4e-4]).expect("factored");
        assert_eq!(labels, ["−2", "0", "4"]);
        assert_eq!(offset, "×10⁻⁴");
        // Nothing to factor: 10⁰, all zeros, or a plain format.
        assert_eq!(f.factored(&[1.0, 2.0, 5.0]), None);
        assert_eq!(f.factored(&[0.0]), None);
        assert_eq!(TickFormat::default().factored(&[1e6, 2e6]), None);
    }

    #[test]
    fn plain_labels_share_decimals_and_use_the_minus() {
        let f = TickFormat::default();
        assert_eq!(
            f.labels(&[-0.5, 0.0, 0.5, 1.0]),
            ["−0.5", "0.0", "0.5", "1.0"]
        );
    }
}

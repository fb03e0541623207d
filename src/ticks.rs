//! Tick positions and labels, as matplotlib's default locators make them:
//! `MaxNLocator` steps of 1, 2, 2.5, 5 × 10ⁿ with at most one tick per three
//! font sizes of axis length (two on a vertical axis), at most 9 intervals;
//! decades on a log axis. Labels share one number of decimals; negative
//! values use the typographic minus, as matplotlib does.

/// Ticks inside [lo, hi] for an axis allowing `max_bins` intervals.
pub fn linear(lo: f64, hi: f64, max_bins: usize) -> Vec<f64> {
    linear_steps(lo, hi, max_bins, false)
}

/// [`linear`], with whole-number steps when `integer` (matplotlib's
/// `MaxNLocator(integer=True)`: of 1, 2, 2.5, 5 × 10ⁿ only the whole steps
/// of at least 1, so integer data never gets a tick at 2.5).
pub fn linear_steps(lo: f64, hi: f64, max_bins: usize, integer: bool) -> Vec<f64> {
    let (lo, hi) = if lo <= hi { (lo, hi) } else { (hi, lo) };
    let nbins = max_bins.clamp(1, 9) as f64;
    let span = hi - lo;
    if span.is_nan() || span <= 0.0 || !span.is_finite() {
        return vec![lo];
    }
    let raw = span / nbins;
    let scale = 10f64.powf(raw.log10().floor());
    let whole = |s: &f64| !integer || (*s >= 1.0 - 1e-9 && (s - s.round()).abs() < 1e-9);
    let step = [1.0, 2.0, 2.5, 5.0, 10.0, 20.0]
        .iter()
        .map(|s| s * scale)
        .filter(whole)
        .find(|s| *s >= raw * (1.0 - 1e-10))
        .unwrap_or(10.0 * scale)
        .max(if integer { 1.0 } else { 0.0 });
    let eps = step * 1e-10;
    let first = (lo / step).floor() as i64;
    let last = (hi / step).ceil() as i64;
    (first..=last)
        .map(|i| i as f64 * step)
        .map(|t| if t.abs() < eps { 0.0 } else { t })
        .filter(|t| *t >= lo - eps && *t <= hi + eps)
        .collect()
}

/// Labels with the fewest decimals that show every tick exactly.
pub fn format_linear(ticks: &[f64]) -> Vec<String> {
    let decimals = (0..=10)
        .find(|d| {
            let f = 10f64.powi(*d);
            ticks.iter().all(|t| {
                let s = t * f;
                (s - s.round()).abs() < 1e-7 * s.abs().max(1.0)
            })
        })
        .unwrap_or(6) as usize;
    ticks
        .iter()
        .map(|t| {
            let s = format!("{t:.decimals$}");
            match s.strip_prefix('-') {
                Some(rest) if rest.chars().any(|c| c != '0' && c != '.') => {
                    format!("\u{2212}{rest}")
                }
                Some(rest) => rest.to_string(),
                None => s,
            }
        })
        .collect()
}

/// The default labels of a linear axis with the power of ten of its
/// largest tick factored out, when that power is 6 or more or -5 or less;
/// `None` otherwise.
pub fn factored_linear(vals: &[f64]) -> Option<(Vec<String>, String)> {
    factored_by(vals, vals)
}

/// [`factored_linear`] of `vals`, the power decided by the largest of
/// `tops` (a colour bar's domain, so the decision does not depend on how
/// many ticks fit).
pub fn factored_by(vals: &[f64], tops: &[f64]) -> Option<(Vec<String>, String)> {
    let top = tops
        .iter()
        .map(|v| v.abs())
        .filter(|v| v.is_finite())
        .fold(0.0, f64::max);
    if top == 0.0 {
        return None;
    }
    let k = (top.log10() + 1e-9).floor() as i32;
    if (-4..6).contains(&k) {
        return None;
    }
    let scaled: Vec<f64> = vals.iter().map(|v| v / 10f64.powi(k)).collect();
    let labels = format_linear(&scaled);
    // Ticks close together far from 0 (Unix times: 1.7000, 1.7005 ×10⁹)
    // read better whole; matplotlib would give them an offset.
    let decimals = |l: &String| l.split_once('.').map_or(0, |(_, d)| d.len());
    if labels.iter().map(decimals).max().unwrap_or(0) > 3 {
        return None;
    }
    Some((labels, format!("\u{d7}10{}", superscript(k))))
}

/// The ends of the largest 1-2-5 × 10ⁿ step with at least two multiples
/// inside [lo, hi] (the fewest ticks an axis labels); `[lo]` when the
/// range is empty or not finite.
pub fn two_ticks(lo: f64, hi: f64) -> Vec<f64> {
    let (lo, hi) = if lo <= hi { (lo, hi) } else { (hi, lo) };
    let span = hi - lo;
    if span.is_nan() || span <= 0.0 || !span.is_finite() {
        return vec![lo];
    }
    let top = span.log10().floor() as i32;
    for k in (top - 2..=top).rev() {
        for m in [5.0, 2.0, 1.0] {
            let step = m * 10f64.powi(k);
            let eps = step * 1e-10;
            let first = ((lo - eps) / step).ceil();
            let last = ((hi + eps) / step).floor();
            if last - first >= 1.0 {
                let clean = |t: f64| if t.abs() < eps { 0.0 } else { t };
                return vec![clean(first * step), clean(last * step)];
            }
        }
    }
    vec![lo, hi]
}

/// m × 10ⁿ inside [lo, hi] for each m of `subs` (1, 2, 5), ascending.
pub fn log_subs(lo: f64, hi: f64, subs: &[f64]) -> Vec<f64> {
    let (a, b) = (lo.log10().floor() as i32, hi.log10().ceil() as i32);
    let mut out: Vec<f64> = (a..=b)
        .flat_map(|k| subs.iter().map(move |m| m * 10f64.powi(k)))
        .filter(|v| *v >= lo * (1.0 - 1e-12) && *v <= hi * (1.0 + 1e-12))
        .collect();
    out.sort_by(f64::total_cmp);
    out
}

/// Labels of 1, 2, 5 × 10ⁿ ticks: plain numbers from 0.001 to 99999,
/// else `10ⁿ` and `2×10ⁿ`.
pub fn format_log_subs(vals: &[f64]) -> Vec<String> {
    let plain = vals.iter().all(|v| *v >= 1e-3 && *v < 1e5);
    vals.iter()
        .map(|v| {
            if plain {
                return format_linear(&[*v]).remove(0);
            }
            let k = v.log10().floor() as i32;
            let m = (v / 10f64.powi(k)).round();
            if m == 1.0 {
                format_log(*v)
            } else {
                format!("{m}\u{d7}10{}", superscript(k))
            }
        })
        .collect()
}

/// Labels of ticks inside one decade at a 1-2-5 step (a log axis of less
/// than a decade: 150, 200, 250): plain numbers from 0.001 to 99999, else
/// mantissas sharing the power of the low tick (`1.5×10⁸`, `2×10⁸`).
pub fn format_log_linear(vals: &[f64]) -> Vec<String> {
    let plain = vals.iter().all(|v| *v >= 1e-3 && *v < 1e5);
    let Some(first) = vals.first().filter(|_| !plain) else {
        return format_linear(vals);
    };
    let k = first.abs().log10().floor() as i32;
    let scaled: Vec<f64> = vals.iter().map(|v| v / 10f64.powi(k)).collect();
    format_linear(&scaled)
        .into_iter()
        .map(|m| format!("{m}\u{d7}10{}", superscript(k)))
        .collect()
}

/// Decades 10ⁿ inside [lo, hi].
pub fn log_major(lo: f64, hi: f64) -> Vec<f64> {
    let (a, b) = (lo.log10().ceil() as i32, hi.log10().floor() as i32);
    (a..=b).map(|k| 10f64.powi(k)).collect()
}

/// 2..9 × 10ⁿ inside [lo, hi].
pub fn log_minor(lo: f64, hi: f64) -> Vec<f64> {
    let (a, b) = (lo.log10().floor() as i32, hi.log10().ceil() as i32);
    (a..=b)
        .flat_map(|k| (2..=9).map(move |m| m as f64 * 10f64.powi(k)))
        .filter(|v| *v >= lo && *v <= hi)
        .collect()
}

/// `10ⁿ` with superscript digits.
pub fn format_log(v: f64) -> String {
    format!("10{}", superscript(v.log10().round() as i32))
}

/// `k` in superscript digits (`⁻²`), which the bundled font draws.
pub fn superscript(k: i32) -> String {
    k.to_string()
        .chars()
        .map(|c| match c {
            '-' => '\u{207b}',
            '0' => '\u{2070}',
            '1' => '\u{00b9}',
            '2' => '\u{00b2}',
            '3' => '\u{00b3}',
            d => char::from_u32(0x2070 + d.to_digit(10).unwrap_or(0)).unwrap_or(d),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_match_matplotlib_on_the_seed_axes() {
        // fig2 top panel: 1.40..1.55 -> 1.40, 1.42, ..., 1.54
        let t = linear(1.40, 1.55, 9);
        assert_eq!(
            format_linear(&t),
            [
                "1.40", "1.42", "1.44", "1.46", "1.48", "1.50", "1.52", "1.54"
            ]
        );
        // fig3 x: 3.80..4.02 -> step 0.025
        let t = linear(3.80, 4.02, 9);
        assert_eq!(format_linear(&t)[..3], ["3.800", "3.825", "3.850"]);
        // fig4 x: step 0.2 with a typographic minus
        let t = linear(-0.13808518, 1.00454158, 9);
        assert_eq!(
            format_linear(&t),
            ["0.0", "0.2", "0.4", "0.6", "0.8", "1.0"]
        );
        let t = linear(-0.3, 0.5, 9);
        assert_eq!(format_linear(&t)[0], "\u{2212}0.3");
        // fig1 y: 0..17 -> step 2
        assert_eq!(linear(0.0, 17.0, 9).len(), 9);
    }

    #[test]
    fn narrow_axes_keep_the_ends_of_a_1_2_5_step() {
        assert_eq!(two_ticks(0.0, 3.5), vec![0.0, 2.0]);
        assert_eq!(two_ticks(0.5, 3.5), vec![1.0, 3.0]);
        assert_eq!(two_ticks(-0.3, 0.5), vec![0.0, 0.5]);
    }

    #[test]
    fn short_log_axes_get_2_and_5_subs() {
        let v = log_subs(171e6, 3.8e9, &[1.0, 2.0, 5.0]);
        assert_eq!(v, vec![2e8, 5e8, 1e9, 2e9]);
        assert_eq!(
            format_log_subs(&[0.2, 0.5, 1.0, 2.0]),
            ["0.2", "0.5", "1", "2"]
        );
        assert_eq!(format_log_subs(&v), ["2×10⁸", "5×10⁸", "10⁹", "2×10⁹"]);
    }

    #[test]
    fn integer_data_never_gets_a_tick_at_2_5() {
        // 0..10 in 4 bins: 2.5 for real numbers, 5 for whole ones.
        assert_eq!(linear(0.0, 10.0, 4), vec![0.0, 2.5, 5.0, 7.5, 10.0]);
        assert_eq!(linear_steps(0.0, 10.0, 4, true), vec![0.0, 5.0, 10.0]);
        assert_eq!(
            linear_steps(0.0, 10.0, 5, true),
            vec![0.0, 2.0, 4.0, 6.0, 8.0, 10.0]
        );
        // Never a step below 1, however many bins there is room for.
        assert_eq!(linear_steps(0.0, 3.0, 9, true), vec![0.0, 1.0, 2.0, 3.0]);
        // 25 is whole: kept.
        assert_eq!(
            linear_steps(0.0, 100.0, 4, true),
            vec![0.0, 25.0, 50.0, 75.0, 100.0]
        );
    }

    #[test]
    fn log_linear_labels_share_the_power_of_the_low_tick() {
        assert_eq!(
            format_log_linear(&[150.0, 200.0, 250.0]),
            ["150", "200", "250"]
        );
        assert_eq!(
            format_log_linear(&[1.5e8, 2e8, 2.5e8]),
            ["1.5×10⁸", "2.0×10⁸", "2.5×10⁸"]
        );
    }

    #[test]
    fn big_ticks_factor_their_power_unless_they_are_close_together() {
        let f = factored_linear(&[0.0, 2.5e8, 5e8, 7.5e8, 1e9]).unwrap();
        assert_eq!(f.0, ["0.00", "0.25", "0.50", "0.75", "1.00"]);
        assert_eq!(f.1, "\u{d7}10\u{2079}");
        let f = factored_linear(&[2e-5, 4e-5, 6e-5]).unwrap();
        assert_eq!(
            (f.0, f.1.as_str()),
            (
                vec!["2".to_string(), "4".into(), "6".into()],
                "\u{d7}10\u{207b}\u{2075}"
            )
        );
        // Unix times a day apart stay whole; below 10⁶ nothing is factored.
        assert_eq!(factored_linear(&[1.7e9, 1.7000864e9]), None);
        assert_eq!(factored_linear(&[0.0, 5e5, 9e5]), None);
        assert_eq!(factored_linear(&[0.0]), None);
    }

    #[test]
    fn log_ticks_are_decades() {
        assert_eq!(log_major(17.4, 2280.0), vec![100.0, 1000.0]);
        assert_eq!(format_log(1000.0), "10³");
        assert_eq!(format_log(0.01), "10⁻²");
        assert_eq!(log_minor(17.4, 60.0), vec![20.0, 30.0, 40.0, 50.0, 60.0]);
    }
}

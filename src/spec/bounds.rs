//! The range of every numeric setting of the spec, checked by validation
//! before anything is read or drawn, with the setting's line and column.
//!
//! The bounds are far beyond what a paper's figure uses; they are there so
//! that a typo (`bins = 10000000`, `font_size = 1e9`) is an error at once
//! instead of gigabytes of marks or a figure no viewer opens. Expressions
//! (a figure's size over `v`, a channel per row) are checked where they are
//! evaluated.

use std::ops::RangeInclusive;

use toml::Spanned;

use crate::error::Result;
use crate::spec::{AxisSpec, FigureSpec, FormatSpec, LayerSpec, LegendSpec, LoadedSpec, Raw};

/// Font sizes (`font_size`, `title_size`, `tick_font_size`, a legend's or a
/// text layer's `font_size`), in points.
pub const FONT_SIZE: RangeInclusive<f64> = 1.0..=200.0;
/// A figure's width and height (`size`), in inches (below 0.5 in there is
/// no room for an axis; the SVG reader refused 1e-5).
pub const FIGURE_INCHES: RangeInclusive<f64> = 0.5..=100.0;
/// Panels of a figure: its `panels`, and its `layout` (rows x columns, each
/// at least 1).
pub const MAX_PANELS: usize = 1000;
/// A legend's `columns`.
pub const LEGEND_COLUMNS: RangeInclusive<usize> = 1..=100;
/// A histogram's `bins` (more bins than a figure has pixels is a typo).
pub const BINS: RangeInclusive<usize> = 1..=10_000;
/// A line's `marker_size` (diameter) and a constant `stroke_width`, in points.
pub const LINE_POINTS: RangeInclusive<f64> = 0.0..=100.0;
/// A constant point `size` (area, as matplotlib's `s`), in pt².
pub const POINT_AREA: RangeInclusive<f64> = 0.0..=10_000.0;
/// A constant `opacity`.
pub const OPACITY: RangeInclusive<f64> = 0.0..=1.0;
/// A text layer's offsets `dx`, `dy`, in points (the largest figure's width).
pub const OFFSET: RangeInclusive<f64> = -7200.0..=7200.0;
/// An arc's `innerRadius` and `outerRadius`, in points (the largest
/// figure's width).
pub const RADIUS: RangeInclusive<f64> = 0.0..=7200.0;
/// A layer's drawing order `z`.
pub const Z: RangeInclusive<f64> = -1e6..=1e6;
/// A bootstrap's `resamples` (`ci95` with `method = "bootstrap"`).
pub const RESAMPLES: RangeInclusive<usize> = 1..=1_000_000;
/// A number format's `places` (decimal places).
pub const PLACES: RangeInclusive<u32> = 0..=20;
/// A number format's `figures` (an f64 holds 17 significant digits).
pub const FIGURES: RangeInclusive<u32> = 1..=17;

/// The largest bootstrap `seed`: every whole number up to it is exact in
/// the f64 a TOML number is read as.
pub const MAX_SEED: f64 = 9_007_199_254_740_992.0;

/// A `ci95`'s confidence `level` if it is above 0 and below 1, else the
/// message.
pub fn level(level: f64) -> std::result::Result<f64, String> {
    if level > 0.0 && level < 1.0 {
        Ok(level)
    } else {
        Err(format!("`level` must be above 0 and below 1, got {level}"))
    }
}

/// A bootstrap's `resamples` (whole, in [`RESAMPLES`]) and `seed` (whole,
/// 0 to [`MAX_SEED`]) as integers, else the message.
pub fn bootstrap(resamples: f64, seed: f64) -> std::result::Result<(usize, u64), String> {
    if !(seed >= 0.0 && seed.fract() == 0.0 && seed <= MAX_SEED) {
        return Err(format!(
            "`seed` must be a whole number from 0 to 2^53, got {seed}"
        ));
    }
    if !(resamples.fract() == 0.0 && resamples >= 0.0 && RESAMPLES.contains(&(resamples as usize)))
    {
        return Err(format!(
            "`resamples` must be a whole number between {} and {}, got {resamples}",
            RESAMPLES.start(),
            RESAMPLES.end()
        ));
    }
    Ok((resamples as usize, seed as u64))
}

/// The error for `value` of setting `what` outside `range` (in `unit`).
fn outside<T: std::fmt::Display>(
    spec: &LoadedSpec,
    span: std::ops::Range<usize>,
    what: &str,
    range: &RangeInclusive<T>,
    unit: &str,
    value: T,
) -> crate::Error {
    spec.error(
        span,
        format!(
            "`{what}` must be between {} and {}{unit}, got {value}",
            range.start(),
            range.end()
        ),
    )
}

/// Checks an optional setting against `range`; NaN is outside every range.
pub fn within<T: PartialOrd + Copy + std::fmt::Display>(
    spec: &LoadedSpec,
    v: &Option<Spanned<T>>,
    what: &str,
    range: &RangeInclusive<T>,
    unit: &str,
) -> Result<()> {
    match v {
        Some(s) if !range.contains(s.get_ref()) => {
            Err(outside(spec, s.span(), what, range, unit, *s.get_ref()))
        }
        _ => Ok(()),
    }
}

/// Checks a setting that is a number or an expression: a number against
/// `range` now, an expression where it is evaluated.
fn constant(
    spec: &LoadedSpec,
    v: &Option<Raw>,
    what: &str,
    range: &RangeInclusive<f64>,
    unit: &str,
) -> Result<()> {
    let Some(raw) = v else { return Ok(()) };
    let x = match raw.get_ref() {
        toml::Value::Integer(i) => *i as f64,
        toml::Value::Float(f) => *f,
        _ => return Ok(()),
    };
    if range.contains(&x) {
        return Ok(());
    }
    Err(outside(spec, raw.span(), what, range, unit, x))
}

/// Checks a figure's width or height in inches, given or evaluated.
pub fn figure_inches(
    spec: &LoadedSpec,
    span: std::ops::Range<usize>,
    what: &str,
    inches: f64,
) -> Result<()> {
    if FIGURE_INCHES.contains(&inches) {
        return Ok(());
    }
    Err(spec.error(
        span,
        format!(
            "the figure's {what} must be from {} to {} inches, got {inches}",
            FIGURE_INCHES.start(),
            FIGURE_INCHES.end()
        ),
    ))
}

/// Checks a number format's settings.
pub fn format(spec: &LoadedSpec, f: &FormatSpec) -> Result<()> {
    within(spec, &f.places, "places", &PLACES, "")?;
    within(spec, &f.figures, "figures", &FIGURES, "")
}

/// The most histogram bins one figure draws, all panels together: each
/// setting within its bound multiplied to ten million bars (13 GB).
pub const FIGURE_BINS: usize = 20_000;

/// The most ticks an axis lists.
pub const MAX_TICKS: usize = 1_000;

fn axis(spec: &LoadedSpec, a: &AxisSpec) -> Result<()> {
    if let Some(t) = &a.ticks
        && let toml::Value::Array(list) = t.get_ref()
        && list.len() > MAX_TICKS
    {
        return Err(spec.error(
            t.span(),
            format!(
                "an axis lists at most {MAX_TICKS} ticks, got {}",
                list.len()
            ),
        ));
    }
    within(
        spec,
        &a.tick_font_size,
        "tick_font_size",
        &FONT_SIZE,
        " points",
    )
}

fn legend(spec: &LoadedSpec, l: &LegendSpec) -> Result<()> {
    within(spec, &l.columns, "columns", &LEGEND_COLUMNS, "")?;
    within(spec, &l.font_size, "font_size", &FONT_SIZE, " points")
}

fn layer(spec: &LoadedSpec, l: &LayerSpec) -> Result<()> {
    within(spec, &l.bins, "bins", &BINS, "")?;
    within(spec, &l.marker_size, "marker_size", &LINE_POINTS, " points")?;
    within(spec, &l.font_size, "font_size", &FONT_SIZE, " points")?;
    within(spec, &l.dx, "dx", &OFFSET, " points")?;
    within(spec, &l.dy, "dy", &OFFSET, " points")?;
    within(spec, &l.z, "z", &Z, "")?;
    within(spec, &l.inner_radius, "innerRadius", &RADIUS, " points")?;
    within(spec, &l.outer_radius, "outerRadius", &RADIUS, " points")?;
    if let Some(b) = &l.band
        && !(b.get_ref().is_finite() && *b.get_ref() > 0.0)
    {
        return Err(spec.error(
            b.span(),
            format!(
                "`band` must be a finite number above 0, got {}",
                b.get_ref()
            ),
        ));
    }
    constant(spec, &l.size, "size", &POINT_AREA, " pt²")?;
    constant(
        spec,
        &l.stroke_width,
        "stroke_width",
        &LINE_POINTS,
        " points",
    )?;
    constant(spec, &l.opacity, "opacity", &OPACITY, "")
}

/// Checks every numeric setting of figure `f` (its layers, panels, axes
/// and legends included).
pub fn figure(spec: &LoadedSpec, f: &FigureSpec) -> Result<()> {
    within(spec, &f.font_size, "font_size", &FONT_SIZE, " points")?;
    within(spec, &f.title_size, "title_size", &FONT_SIZE, " points")?;
    for (raw, what) in f.size.iter().flatten().zip(["width", "height"]) {
        let x = match raw.get_ref() {
            toml::Value::Integer(i) => *i as f64,
            toml::Value::Float(x) => *x,
            _ => continue,
        };
        figure_inches(spec, raw.span(), what, x)?;
    }
    if let Some(l) = &f.layout {
        let [rows, cols] = *l.get_ref();
        if rows == 0 || cols == 0 || rows.saturating_mul(cols) > MAX_PANELS {
            return Err(spec.error(
                l.span(),
                format!(
                    "`layout` must have at least 1 row and 1 column and at most {MAX_PANELS} panels, got {rows} x {cols}"
                ),
            ));
        }
    }
    if let Some(p) = f.panels.as_ref().and_then(|p| p.get(MAX_PANELS)) {
        return Err(spec.error(
            p.span(),
            format!(
                "a figure has at most {MAX_PANELS} panels; this is panel {}",
                MAX_PANELS + 1
            ),
        ));
    }
    for a in [&f.x, &f.y].into_iter().flatten() {
        axis(spec, a)?;
    }
    if let Some(l) = &f.legend {
        legend(spec, l)?;
    }
    for l in f.layers.iter().flatten() {
        layer(spec, l.get_ref())?;
    }
    for p in f.panels.iter().flatten() {
        let p = p.get_ref();
        axis(spec, &p.x)?;
        axis(spec, &p.y)?;
        if let Some(l) = &p.legend {
            legend(spec, l)?;
        }
        for l in &p.layers {
            layer(spec, l.get_ref())?;
        }
    }
    // Bins of every panel together (a hist without `bins` draws numpy's 10).
    let mut bins = 0usize;
    let layers = f.layers.iter().flatten().chain(
        f.panels
            .iter()
            .flatten()
            .flat_map(|p| p.get_ref().layers.iter()),
    );
    for l in layers {
        let l = l.get_ref();
        if l.mark.get_ref() != "hist" {
            continue;
        }
        bins += l.bins.as_ref().map_or(10, |b| *b.get_ref());
        if bins > FIGURE_BINS {
            let span = l.bins.as_ref().map_or(l.mark.span(), |b| b.span());
            return Err(spec.error(
                span,
                format!("the figure's histograms draw {bins} bins so far, more than the {FIGURE_BINS} a figure may draw (all panels together)"),
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bootstrap_settings_are_whole_and_bounded() {
        assert_eq!(bootstrap(10_000.0, 7.0), Ok((10_000, 7)));
        assert_eq!(
            bootstrap(10_000.0, 1.5),
            Err("`seed` must be a whole number from 0 to 2^53, got 1.5".into())
        );
        assert_eq!(
            bootstrap(0.0, 1.0),
            Err("`resamples` must be a whole number between 1 and 1000000, got 0".into())
        );
        assert_eq!(
            bootstrap(f64::NAN, 1.0),
            Err("`resamples` must be a whole number between 1 and 1000000, got NaN".into())
        );
        assert_eq!(level(0.9), Ok(0.9));
        assert_eq!(
            level(1.0),
            Err("`level` must be above 0 and below 1, got 1".into())
        );
    }
}

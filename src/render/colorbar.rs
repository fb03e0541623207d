//! The colour bar of a quantitative colour scale: its title above a
//! vertical gradient right of the plot, ticks and labels right of the bar
//! (Vega-Lite's gradient legend). The gradient is painted as one thin band
//! per sample of the model's colours, each overlapping the next a little
//! so no seam shows: the same in SVG and PDF, byte for byte across runs.

use super::layout::push_text;
use super::scene::{Prim, Stroke};
use crate::color::Color;
use crate::figures::model::{Align, ColorBar};
use crate::font as text;
use crate::ticks;

/// The bar's width, in points.
pub const BAR_WIDTH: f64 = 10.0;
const TICK: f64 = 3.0;
const PAD: f64 = 2.0;
const TITLE_GAP: f64 = 4.0;

/// Ticks and labels for a bar `length` points long, and the power of ten
/// factored out of the labels (`×10⁹`, drawn once above the labels) when
/// the domain's largest end is 10⁶ or more or below 10⁻⁴, as on a linear
/// axis.
pub fn ticks_of(cb: &ColorBar, length: f64, size: f64) -> (Vec<(f64, String)>, Option<String>) {
    let bins = (length / (2.0 * size)).floor().max(1.0) as usize;
    let t = ticks::linear(cb.domain.0, cb.domain.1, bins);
    let (labels, factor) = match ticks::factored_by(&t, &[cb.domain.0, cb.domain.1]) {
        Some((labels, factor)) => (labels, Some(factor)),
        None => (ticks::format_linear(&t), None),
    };
    (t.into_iter().zip(labels).collect(), factor)
}

/// Width of the whole colour bar (title, bar, ticks, labels) in points,
/// for a bar `length` points long.
pub fn width(cb: &ColorBar, length: f64, size: f64) -> f64 {
    let (ticks, factor) = ticks_of(cb, length, size);
    let labels = ticks
        .iter()
        .map(|(_, l)| l.as_str())
        .chain(factor.as_deref())
        .map(|l| text::width(l, size))
        .fold(0.0, f64::max);
    let title = text::block(&cb.title, size).0;
    title.max(BAR_WIDTH + TICK + PAD + labels)
}

/// Height of the title block above the bar, in points (a line more for
/// the labels' power of ten, when they have one: whether they do depends
/// only on the domain, not on the bar's length).
pub fn title_height(cb: &ColorBar, size: f64) -> f64 {
    let factor = ticks::factored_by(&[], &[cb.domain.0, cb.domain.1]).is_some();
    text::block(&cb.title, size).1 + TITLE_GAP + if factor { size * 1.2 } else { 0.0 }
}

/// Draws the colour bar with its left edge at `x0`, its title's top at
/// `top` and the bar's bottom at `bottom`.
pub fn draw(out: &mut Vec<Prim>, cb: &ColorBar, x0: f64, top: f64, bottom: f64, size: f64) {
    push_text(out, x0, top, &cb.title, size, Color::BLACK, Align::Left);
    let y0 = top + title_height(cb, size);
    let len = bottom - y0;
    let n = cb.colors.len();
    if len <= 0.0 || n == 0 {
        return;
    }
    let step = len / n as f64;
    // Low values at the bottom; each band reaches a little into the next.
    for (i, c) in cb.colors.iter().enumerate() {
        let y1 = bottom - i as f64 * step;
        let h = if i + 1 == n { step } else { step + 0.25 };
        out.push(Prim::Rect {
            x: x0,
            y: y1 - h,
            w: BAR_WIDTH,
            h,
            fill: Some(*c),
            stroke: None,
        });
    }
    let (lo, hi) = cb.domain;
    let at = |v: f64| {
        if hi > lo {
            bottom - (v - lo) / (hi - lo) * len
        } else {
            bottom - len / 2.0
        }
    };
    let tick = Stroke {
        color: Color::BLACK,
        width: super::layout::look().axis_width,
        dash: None,
    };
    let (ticks, factor) = ticks_of(cb, len, size);
    if let Some(f) = &factor {
        let y = y0 - size * 1.2 - TITLE_GAP / 2.0;
        push_text(
            out,
            x0 + BAR_WIDTH + TICK + PAD,
            y,
            f,
            size,
            Color::BLACK,
            Align::Left,
        );
    }
    for (v, label) in ticks {
        let y = at(v);
        out.push(Prim::Path {
            pts: vec![(x0 + BAR_WIDTH, y), (x0 + BAR_WIDTH + TICK, y)],
            closed: false,
            fill: None,
            stroke: Some(tick.clone()),
        });
        push_text(
            out,
            x0 + BAR_WIDTH + TICK + PAD,
            y - 0.73 * size / 2.0,
            &label,
            size,
            Color::BLACK,
            Align::Left,
        );
    }
}

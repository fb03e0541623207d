//! Text on marks: value labels on bars and labels at the ends of lines.
//!
//! A bar's label sits at the bar's own end (its built rectangle, so a
//! dodged bar's label follows it): `outside` just beyond the end (above a
//! positive vertical bar, below a negative one, right of a positive
//! horizontal one), `inside` within the bar near its end in black or white,
//! whichever contrasts with the fill. Layout grows the value axis so an
//! outside label is never clipped. Line end labels start right of each
//! series' last point; layout moves them apart vertically.

use super::model::*;
use crate::color::Color;

/// Gap between a bar's end and its label, in points.
const GAP: f64 = 2.5;

/// Where a bar's value label sits (`text_position`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BarTextPos {
    /// Just beyond the bar's end.
    Outside,
    /// Within the bar, near its end.
    Inside,
}

impl BarTextPos {
    /// Parses `outside` / `inside`.
    pub fn parse(s: &str) -> Option<BarTextPos> {
        match s {
            "outside" => Some(BarTextPos::Outside),
            "inside" => Some(BarTextPos::Inside),
            _ => None,
        }
    }
}

/// Black or white, whichever reads better on `fill` (WCAG relative
/// luminance of the fill composited over white; the threshold 0.179 is where
/// both contrasts are equal).
pub fn contrast(fill: Option<Color>) -> Color {
    let Some(c) = fill else {
        return Color::BLACK;
    };
    let lin = |v: u8| {
        let s = v as f64 / 255.0;
        let s = c.a * s + (1.0 - c.a);
        if s <= 0.04045 {
            s / 12.92
        } else {
            ((s + 0.055) / 1.055).powf(2.4)
        }
    };
    let l = 0.2126 * lin(c.r) + 0.7152 * lin(c.g) + 0.0722 * lin(c.b);
    if l > 0.179 {
        Color::BLACK
    } else {
        Color::WHITE
    }
}

/// One label per bar: `texts[i]` for `bars[i]`, at `size` points.
pub fn bar_labels(
    bars: &[RectItem],
    texts: &[String],
    horizontal: bool,
    pos: BarTextPos,
    size: f64,
) -> Vec<TextItem> {
    let mut out = Vec::with_capacity(bars.len());
    for (r, text) in bars.iter().zip(texts) {
        let (Some(x), Some(y)) = (r.x, r.y) else {
            continue;
        };
        // (base, end) on the value axis, the bar's centre on the other.
        let ((base, end), centre) = if horizontal {
            (x, (y.0 + y.1) / 2.0)
        } else {
            (y, (x.0 + x.1) / 2.0)
        };
        let up = end >= base;
        let outward = match pos {
            BarTextPos::Outside => up,
            BarTextPos::Inside => !up,
        };
        let color = match pos {
            BarTextPos::Outside => Color::BLACK,
            BarTextPos::Inside => contrast(r.style.fill),
        };
        let item = if horizontal {
            TextItem {
                x: end,
                y: centre,
                text: text.clone(),
                dx: if outward { GAP } else { -GAP },
                dy: 0.0,
                align: if outward { Align::Left } else { Align::Right },
                baseline: Baseline::Middle,
                size,
                color,
            }
        } else {
            TextItem {
                x: centre,
                y: end,
                text: text.clone(),
                dx: 0.0,
                dy: if outward { GAP } else { -GAP },
                align: Align::Center,
                baseline: if outward {
                    Baseline::Bottom
                } else {
                    Baseline::Top
                },
                size,
                color,
            }
        };
        out.push(item);
    }
    out
}

/// A label right of each labelled series' last point, in its colour.
pub fn end_labels(series: &[Series], size: f64) -> Vec<TextItem> {
    series
        .iter()
        .filter_map(|s| {
            let text = s.label.clone().filter(|t| !t.is_empty())?;
            let &(x, y) = s.points.last()?;
            Some(TextItem {
                x,
                y,
                text,
                dx: 4.0,
                dy: 0.0,
                align: Align::Left,
                baseline: Baseline::Middle,
                size,
                color: s.style.stroke.unwrap_or(Color::BLACK).with_alpha(1.0),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn contrast_is_white_on_dark_and_black_on_light() {
        assert_eq!(contrast(Some(Color::rgb(0x1f, 0x77, 0xb4))), Color::WHITE);
        assert_eq!(contrast(Some(Color::rgb(0xff, 0x7f, 0x0e))), Color::BLACK);
        assert_eq!(
            contrast(Some(Color::rgb(0x1f, 0x77, 0xb4).with_alpha(0.2))),
            Color::BLACK
        );
        assert_eq!(contrast(None), Color::BLACK);
    }
}

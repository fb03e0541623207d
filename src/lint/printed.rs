//! The size a figure's text prints at: a figure drawn `w` wide with text of
//! `s` points and included at width `W` prints its text at `s * W / w`.
//! A figure given an absolute `size` and included at `0.7\linewidth`
//! prints smaller than the figures beside it; lint says by how much
//! (warning `figure-text-size`), against the body's size.
//!
//! Widths are read from `\includegraphics[width=...]` and typst
//! `image(..., width: ...)`: a fraction of `\linewidth`, `\columnwidth`,
//! `\textwidth` or `%` (the column width when `[style]` gives one, else the
//! text width), or a length (`pt`, `bp`, `in`, `cm`, `mm`). A width lint
//! cannot read (a macro, `\linewidth` with no `[style]` width) is skipped.

use crate::plan::sizing::{self, BP_PER_TEX_PT, Style};
use crate::spec::{FigureSpec, LoadedSpec};

/// Text printing under this fraction of the body's size is reported (7 pt
/// in a 10 pt paper: LaTeX's `\scriptsize`).
pub(super) const SMALLEST: f64 = 0.7;

/// A figure's drawn width and base font size, in PostScript points, from
/// the spec: `width` (in `[style]`'s terms) or a `size` whose width is a
/// number; none for a width computed from the numbers.
pub(super) fn drawn(
    spec: &LoadedSpec,
    name: &str,
    fig: &toml::Spanned<FigureSpec>,
) -> Option<(f64, f64)> {
    let f = fig.get_ref();
    let (width, doc_font) = match sizing::figure_size(spec, name, fig).ok()? {
        Some((w, _, font)) => (w, font),
        None => {
            let w = match f.size.as_ref()?.first()?.get_ref() {
                toml::Value::Integer(i) => *i as f64,
                toml::Value::Float(x) => *x,
                _ => return None,
            };
            (w * 72.0, None)
        }
    };
    let font = crate::spec::value(&f.font_size)
        .or(doc_font)
        .unwrap_or(10.0);
    Some((width, font))
}

/// The width `written` in an include, in PostScript points: `0.7\linewidth`,
/// `\columnwidth`, `.5\textwidth`, `70%` (typst), `3in`, `8cm`; a line is
/// a column's width, or the text's in a `wide` float (`figure*`). None when
/// it is none of them or names a width `[style]` does not give.
pub(super) fn include_width(style: &Style, written: &str, wide: bool) -> Option<f64> {
    let w = written.trim();
    let line = if wide {
        style.text
    } else {
        style.column.or(style.text)
    };
    if let Some(pct) = w.strip_suffix('%') {
        return Some(pct.trim().parse::<f64>().ok()? / 100.0 * line?);
    }
    for (name, full) in [
        ("\\linewidth", line),
        ("\\columnwidth", style.column.or(style.text)),
        ("\\textwidth", style.text),
        ("\\hsize", line),
    ] {
        if let Some(frac) = w.strip_suffix(name) {
            let frac = frac.trim();
            let f = if frac.is_empty() {
                1.0
            } else {
                frac.parse::<f64>().ok()?
            };
            return Some(f * full?);
        }
    }
    sizing::length(&toml::Value::String(w.to_string())).ok()
}

/// The message for a figure drawn `drawn_w` wide with `font` point text
/// (both PostScript points), included at `included` points (written
/// `written`), in a body of `body` TeX points and a text block `text`
/// points wide: `Some` when its text prints under [`SMALLEST`] of the
/// body's size, saying what `width` would print it at the body's size.
pub(super) fn message(
    name: &str,
    (drawn_w, font): (f64, f64),
    (included, written): (f64, &str),
    body: f64,
    text: Option<f64>,
) -> Option<String> {
    let printed = font * included / drawn_w / BP_PER_TEX_PT;
    if printed >= SMALLEST * body {
        return None;
    }
    let fix = match text {
        Some(t) if included <= t * 1.0001 => format!(
            "draw it at the width it is included at: `width = \"{} text\"`",
            fmt(included / t, 100.0)
        ),
        _ => "draw it narrower or include it wider".to_string(),
    };
    Some(format!(
        "figure `{name}` prints at {} pt; body is {} pt (drawn {} in wide, included at {} = {} in): {fix}",
        fmt(printed, 10.0),
        fmt(body, 10.0),
        fmt(drawn_w / 72.0, 100.0),
        crate::error::shown(written),
        fmt(included / 72.0, 100.0),
    ))
}

/// `x` rounded to `1 / per`, without trailing zeros.
fn fmt(x: f64, per: f64) -> String {
    let r = (x * per).round() / per;
    format!("{r}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn style(text_mm: f64) -> Style {
        Style {
            column: None,
            text: Some(text_mm * 72.0 / 25.4),
            font_size: Some(10.0 * BP_PER_TEX_PT),
            face: crate::font::Face::LatinModern,
        }
    }

    #[test]
    fn include_widths_in_each_form() {
        let st = style(175.9);
        let text = 175.9 * 72.0 / 25.4;
        let w = |s: &str| include_width(&st, s, false).unwrap();
        assert!((w("0.7\\linewidth") - 0.7 * text).abs() < 1e-9);
        assert!((w(".5\\textwidth") - 0.5 * text).abs() < 1e-9);
        assert!((w("\\columnwidth") - text).abs() < 1e-9);
        assert!((w("70%") - 0.7 * text).abs() < 1e-9);
        assert!((w("3in") - 216.0).abs() < 1e-9);
        assert!((w("72.27pt") - 72.0).abs() < 1e-9);
        assert_eq!(include_width(&st, "\\figwidth", false), None);
        let two = Style {
            column: Some(240.0),
            ..st
        };
        assert_eq!(include_width(&two, "\\linewidth", false), Some(240.0));
        assert_eq!(include_width(&two, "\\linewidth", true), two.text);
        let none = Style {
            column: None,
            text: None,
            font_size: None,
            face: crate::font::Face::DejaVuSans,
        };
        assert_eq!(include_width(&none, "0.7\\linewidth", false), None);
    }

    #[test]
    fn fig2_drawn_8in_wide_and_included_at_0_7_linewidth_prints_at_6_1_pt() {
        let text = 175.9 * 72.0 / 25.4;
        assert_eq!(
            message(
                "fig2",
                (576.0, 10.0),
                (0.7 * text, "0.7\\linewidth"),
                10.0,
                Some(text)
            )
            .unwrap(),
            "figure `fig2` prints at 6.1 pt; body is 10 pt (drawn 8 in wide, included at 0.7\\linewidth = 4.85 in): draw it at the width it is included at: `width = \"0.7 text\"`"
        );
        // 7.8 pt in a 10 pt body is not under 7 pt.
        assert_eq!(
            message(
                "f",
                (518.4, 9.0),
                (0.9 * text, "0.9\\linewidth"),
                10.0,
                Some(text)
            ),
            None
        );
    }
}

//! Text measurement with the bundled DejaVu Sans (matplotlib's default
//! font), so layout is the same on every machine: no system fonts are read.

use std::sync::OnceLock;

use ab_glyph::{Font, FontRef};

/// The bundled font's bytes (DejaVu Sans 2.37, from the `dejavu` crate).
pub fn font_bytes() -> &'static [u8] {
    dejavu::sans::regular()
}

/// The font family name written into SVG and looked up by usvg.
pub const FAMILY: &str = "DejaVu Sans";

fn font() -> &'static FontRef<'static> {
    static FONT: OnceLock<FontRef<'static>> = OnceLock::new();
    FONT.get_or_init(|| FontRef::try_from_slice(font_bytes()).expect("the bundled font parses"))
}

/// Width in points of one line of `text` at `size` points (advances plus
/// kerning, as a PDF or SVG renderer lays the glyphs out).
pub fn width(text: &str, size: f64) -> f64 {
    let f = font();
    let upem = f.units_per_em().unwrap_or(2048.0) as f64;
    let mut w = 0.0;
    let mut prev = None;
    for ch in text.chars() {
        let id = f.glyph_id(ch);
        if let Some(p) = prev {
            w += f.kern_unscaled(p, id) as f64;
        }
        w += f.h_advance_unscaled(id) as f64;
        prev = Some(id);
    }
    w / upem * size
}

/// Size of a possibly multi-line text block: (widest line, height), where a
/// line is `size` tall and lines are `LINE_SPACING * size` apart.
pub fn block(text: &str, size: f64) -> (f64, f64) {
    let lines: Vec<&str> = lines(text).collect();
    let w = lines.iter().map(|l| width(l, size)).fold(0.0, f64::max);
    (w, block_height(lines.len(), size))
}

/// The lines of a label: it breaks at LF, CRLF and a lone CR, as a text
/// file does (a CSV cell or a JSON string may hold any of them), so a label
/// of `n` breaks has `n + 1` lines, the same on every path that draws it.
pub fn lines(text: &str) -> impl Iterator<Item = &str> {
    let mut rest = Some(text);
    std::iter::from_fn(move || {
        let s = rest?;
        match s.find(['\n', '\r']) {
            None => {
                rest = None;
                Some(s)
            }
            Some(i) => {
                let next = if s[i..].starts_with("\r\n") {
                    i + 2
                } else {
                    i + 1
                };
                rest = Some(&s[next..]);
                Some(&s[..i])
            }
        }
    })
}

/// Height of `lines` lines of text at `size`.
pub fn block_height(lines: usize, size: f64) -> f64 {
    if lines == 0 {
        0.0
    } else {
        size + (lines - 1) as f64 * LINE_SPACING * size
    }
}

/// Distance between baselines of consecutive lines, in units of the size.
pub const LINE_SPACING: f64 = 1.2;

/// Whether the font has a glyph for every character of `text`.
pub fn covers(text: &str) -> bool {
    let f = font();
    text.chars()
        .all(|c| c.is_whitespace() || f.glyph_id(c).0 != 0)
}

/// The first character of `text` a figure cannot draw: a control
/// character other than `\n` and `\r` (which break the line, see
/// [`lines`]), or U+FFFE / U+FFFF. XML 1.0 forbids most of them (the SVG
/// would not parse) and the others (tab, DEL, the C1 controls) have no
/// glyph; such a label is refused rather than changed, so what is drawn is
/// what the data says.
pub fn undrawable(text: &str) -> Option<char> {
    text.chars()
        .find(|&c| (c.is_control() && c != '\n' && c != '\r') || c == '\u{FFFE}' || c == '\u{FFFF}')
}

/// The message for a label holding `c` (see [`undrawable`]).
pub fn undrawable_message(c: char) -> String {
    format!("control character U+{:04X} in a label", c as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn widths_scale_with_size_and_length() {
        let a = width("median", 10.0);
        assert!(a > 25.0 && a < 45.0, "{a}");
        assert!((width("median", 20.0) - 2.0 * a).abs() < 1e-9);
        assert!(width("mm", 10.0) > width("m", 10.0));
    }

    #[test]
    fn multi_line_blocks_are_as_wide_as_their_widest_line() {
        let (w, h) = block("C=16\nodd_remote", 7.0);
        assert_eq!(w, width("odd_remote", 7.0));
        assert!((h - (7.0 + 8.4)).abs() < 1e-9);
    }

    #[test]
    fn labels_may_break_lines_but_hold_no_other_control() {
        assert_eq!(undrawable("C=16\nodd_remote"), None);
        assert_eq!(undrawable("C=16\r\nodd\rremote"), None);
        assert_eq!(undrawable("a\u{1b}[31m"), Some('\u{1b}'));
        assert_eq!(undrawable("tab\there"), Some('\t'));
        assert_eq!(undrawable("x\u{85}"), Some('\u{85}'));
        assert_eq!(undrawable("x\u{FFFF}"), Some('\u{FFFF}'));
        assert_eq!(
            undrawable_message('\u{1b}'),
            "control character U+001B in a label"
        );
    }

    #[test]
    fn lf_crlf_and_a_lone_cr_break_lines() {
        let all: Vec<&str> = lines("a\nb\r\nc\rd\r").collect();
        assert_eq!(all, ["a", "b", "c", "d", ""]);
        assert_eq!(lines("one").collect::<Vec<_>>(), ["one"]);
        assert_eq!(block("a\r\nb", 7.0), block("a\nb", 7.0));
    }

    #[test]
    fn the_font_covers_minus_and_superscripts() {
        assert!(covers("−0.2 10³ ≤ µ"));
    }
}

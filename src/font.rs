//! Text measurement with the bundled fonts, so layout is the same on every
//! machine: no system fonts are read. A figure's text is set in one
//! [`Face`]: DejaVu Sans (matplotlib's default) unless `[style]` names the
//! paper's typeface (or a `preset` implies it). A character the face lacks
//! is measured (and drawn, see `render::pdf`) in DejaVu Sans.
//!
//! The face of the figure being laid out is [`current`], set for the
//! duration of one figure by [`with_face`] (each figure is laid out on one
//! thread), so the many measuring calls of layout need no extra argument.

use std::cell::Cell;
use std::sync::OnceLock;

use ab_glyph::{Font, FontRef, GlyphId};

/// A bundled typeface (the regular weight only: figures set no bold or
/// italic text).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub enum Face {
    /// DejaVu Sans 2.37 (the `dejavu` crate): matplotlib's default.
    #[default]
    DejaVuSans,
    /// TeX Gyre Termes 2.004, the Times of IEEEtran, NeurIPS, ICML and
    /// USENIX papers (GUST Font License).
    Termes,
    /// Linux Libertine O 5.3.0, acmart's serif (SIL Open Font License).
    Libertine,
    /// Latin Modern Roman 10 2.004, LaTeX's default (`article`, `llncs`)
    /// (GUST Font License).
    LatinModern,
}

impl Face {
    /// Every face, in the order their names are listed.
    pub const ALL: [Face; 4] = [
        Face::DejaVuSans,
        Face::Termes,
        Face::Libertine,
        Face::LatinModern,
    ];

    /// The name `[style] font` takes.
    pub fn name(self) -> &'static str {
        match self {
            Face::DejaVuSans => "sans",
            Face::Termes => "times",
            Face::Libertine => "libertine",
            Face::LatinModern => "latin-modern",
        }
    }

    /// The face named `name` in `[style] font` (see [`Face::name`]).
    pub fn named(name: &str) -> Option<Face> {
        Face::ALL.into_iter().find(|f| f.name() == name)
    }

    /// The font's family name (what a system with it installed knows it as).
    pub fn family(self) -> &'static str {
        match self {
            Face::DejaVuSans => "DejaVu Sans",
            Face::Termes => "TeX Gyre Termes",
            Face::Libertine => "Linux Libertine O",
            Face::LatinModern => "Latin Modern Roman",
        }
    }

    /// The SVG `font-family` list: the family, the usual names of the same
    /// design, then the generic family, so a viewer without the font still
    /// draws text of the same kind.
    pub fn css(self) -> &'static str {
        match self {
            Face::DejaVuSans => "DejaVu Sans, sans-serif",
            Face::Termes => "TeX Gyre Termes, Times, serif",
            Face::Libertine => "Linux Libertine O, Linux Libertine, Libertinus Serif, serif",
            Face::LatinModern => "Latin Modern Roman, LM Roman 10, Computer Modern, serif",
        }
    }

    /// Whether the family is serif (else sans-serif).
    pub fn serif(self) -> bool {
        self != Face::DejaVuSans
    }

    /// The font file's bytes (OpenType; the serif faces are CFF-flavoured).
    pub fn bytes(self) -> &'static [u8] {
        match self {
            Face::DejaVuSans => dejavu::sans::regular(),
            Face::Termes => include_bytes!("../fonts/tex-gyre-termes/texgyretermes-regular.otf"),
            Face::Libertine => include_bytes!("../fonts/linux-libertine/LinLibertine_R.otf"),
            Face::LatinModern => include_bytes!("../fonts/latin-modern/lmroman10-regular.otf"),
        }
    }

    fn font(self) -> &'static FontRef<'static> {
        static FONTS: [OnceLock<FontRef<'static>>; 4] = [
            OnceLock::new(),
            OnceLock::new(),
            OnceLock::new(),
            OnceLock::new(),
        ];
        FONTS[self as usize]
            .get_or_init(|| FontRef::try_from_slice(self.bytes()).expect("the bundled font parses"))
    }
}

thread_local! {
    static CURRENT: Cell<Face> = const { Cell::new(Face::DejaVuSans) };
}

/// The face text is measured in on this thread (DejaVu Sans outside
/// [`with_face`]).
pub fn current() -> Face {
    CURRENT.with(Cell::get)
}

/// Runs `f` with [`current`] set to `face` on this thread, and sets it back
/// afterwards (also when `f` unwinds).
pub fn with_face<R>(face: Face, f: impl FnOnce() -> R) -> R {
    struct Restore(Face);
    impl Drop for Restore {
        fn drop(&mut self) {
            CURRENT.with(|c| c.set(self.0));
        }
    }
    let _restore = Restore(CURRENT.with(|c| c.replace(face)));
    f()
}

/// The font that draws `ch` in `face` with its glyph: the face's own, else
/// DejaVu Sans's (what usvg falls back to, as the font database holds only
/// those two), else the face's missing glyph.
fn glyph(face: Face, ch: char) -> (&'static FontRef<'static>, GlyphId) {
    let f = face.font();
    let id = f.glyph_id(ch);
    if id.0 != 0 || face == Face::DejaVuSans {
        return (f, id);
    }
    let d = Face::DejaVuSans.font();
    match d.glyph_id(ch) {
        GlyphId(0) => (f, id),
        g => (d, g),
    }
}

/// Width in points of one line of `text` at `size` points in the
/// [`current`] face (advances plus kerning between glyphs of one font, as a
/// PDF or SVG renderer lays the glyphs out).
pub fn width(text: &str, size: f64) -> f64 {
    width_in(current(), text, size)
}

/// Width in points of one line of `text` at `size` points in `face`.
pub fn width_in(face: Face, text: &str, size: f64) -> f64 {
    let mut w = 0.0;
    let mut prev: Option<(&FontRef<'static>, GlyphId)> = None;
    for ch in text.chars() {
        let (f, id) = glyph(face, ch);
        let upem = f64::from(f.units_per_em().unwrap_or(1000.0));
        if let Some((pf, p)) = prev
            && std::ptr::eq(pf, f)
        {
            w += f64::from(f.kern_unscaled(p, id)) / upem;
        }
        w += f64::from(f.h_advance_unscaled(id)) / upem;
        prev = Some((f, id));
    }
    w * size
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

/// Whether the [`current`] face (or its DejaVu Sans fallback) has a glyph
/// for every character of `text`.
pub fn covers(text: &str) -> bool {
    let face = current();
    text.chars()
        .all(|c| c.is_whitespace() || glyph(face, c).1.0 != 0)
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

#[cfg(test)]
mod face_tests {
    use super::*;

    /// The height of `x` over the em.
    fn x_height(face: Face) -> f64 {
        let f = face.font();
        let b = f.outline(f.glyph_id('x')).expect("x has an outline").bounds;
        f64::from(b.min.y - b.max.y).abs() / f64::from(f.units_per_em().unwrap())
    }

    #[test]
    fn dejavu_sans_is_a_quarter_taller_than_latin_modern_and_termes() {
        // The issue's numbers: 0.547 em against 0.431 (Computer Modern)
        // and 0.450 (Times).
        let x: Vec<String> = Face::ALL
            .iter()
            .map(|f| format!("{:.3}", x_height(*f)))
            .collect();
        assert_eq!(x, ["0.547", "0.450", "0.433", "0.431"]);
    }

    #[test]
    fn each_face_parses_and_measures_text_its_own_way() {
        let w: Vec<String> = Face::ALL
            .iter()
            .map(|f| format!("{:.2}", width_in(*f, "median", 10.0)))
            .collect();
        assert_eq!(w, ["37.49", "29.44", "30.13", "31.67"]);
    }

    #[test]
    fn a_character_the_face_lacks_is_measured_in_dejavu_sans() {
        // TeX Gyre Termes has no superscript four; DejaVu Sans draws it.
        assert_eq!(Face::Termes.font().glyph_id('⁴').0, 0);
        assert_eq!(
            width_in(Face::Termes, "⁴", 10.0),
            width_in(Face::DejaVuSans, "⁴", 10.0)
        );
        for f in Face::ALL {
            assert!(with_face(f, || covers("−0.2 10³ ≤ µ 10⁻⁴")), "{f:?}");
        }
    }

    #[test]
    fn with_face_sets_the_face_for_its_call_only() {
        assert_eq!(current(), Face::DejaVuSans);
        let w = with_face(Face::LatinModern, || width("median", 10.0));
        assert_eq!(w, width_in(Face::LatinModern, "median", 10.0));
        assert_eq!(current(), Face::DejaVuSans);
    }

    #[test]
    fn font_names_round_trip_and_svg_lists_end_in_a_generic_family() {
        for f in Face::ALL {
            assert_eq!(Face::named(f.name()), Some(f));
            let generic = if f.serif() { ", serif" } else { ", sans-serif" };
            assert!(f.css().starts_with(f.family()) && f.css().ends_with(generic));
        }
        assert_eq!(Face::Termes.css(), "TeX Gyre Termes, Times, serif");
    }
}

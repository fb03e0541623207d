//! Colour schemes (Vega-Lite's `scale.scheme`): categorical palettes for a
//! field's keys, and continuous gradients for a quantitative field.
//!
//! Which kind a colour scale is:
//! - `type = "quantitative"` makes it continuous (default scheme viridis);
//!   `type = "nominal"` or `"ordinal"` makes it categorical;
//! - else a continuous scheme (`viridis`, `redblue`, ...) makes it
//!   continuous, and anything else (a categorical scheme, a `range`, or
//!   nothing) makes it categorical, as before schemes existed.
//!
//! `greys` names both a categorical scheme (grey fills with hatch patterns,
//! for print) and a sequential gradient: it is categorical unless the scale
//! says `type = "quantitative"`.
//!
//! Continuous gradients come from the `colorous` crate (d3-scale-chromatic's
//! tables). A continuous scale is linear from `domain = [lo, hi]` (default:
//! the data's range) to the gradient's 0..1; with `domainMid`, the low half
//! of the gradient is spread over `lo..mid` and the high half over
//! `mid..hi` (Vega-Lite's piecewise scale), so `mid` gets the gradient's
//! centre colour.

use super::{Color, TAB10};

/// Okabe & Ito (2008), "Color Universal Design": 8 colours told apart
/// under the common colour-vision deficiencies (protanopia, deuteranopia,
/// tritanopia), and the default categorical scheme. Published black
/// first; here blue, orange and green come first (the strongest on white
/// and against each other), yellow (contrast 1.2:1 on white, faint as a
/// line) and black (read as an annotation) last.
pub const OKABE_ITO: [&str; 8] = [
    "#0072b2", "#e69f00", "#009e73", "#d55e00", "#56b4e9", "#cc79a7", "#f0e442", "#000000",
];

/// The categorical scheme of a colour scale without a `range` or
/// `scheme`, of a figure without `scheme`, and of groups that take their
/// colour from a `series` or an offset: Okabe–Ito, colour-blind safe, and
/// with 8 colours the largest such set in common use (Paul Tol's bright
/// has 7 with its grey).
pub const DEFAULT_SCHEME: &str = "okabe-ito";

/// The default scheme's colours ([`DEFAULT_SCHEME`]).
pub const DEFAULT: [&str; 8] = OKABE_ITO;

/// matplotlib's `tab20`: the tab10 colours, each followed by its light tint.
pub const TAB20: [&str; 20] = [
    "#1f77b4", "#aec7e8", "#ff7f0e", "#ffbb78", "#2ca02c", "#98df8a", "#d62728", "#ff9896",
    "#9467bd", "#c5b0d5", "#8c564b", "#c49c94", "#e377c2", "#f7b6d2", "#7f7f7f", "#c7c7c7",
    "#bcbd22", "#dbdb8d", "#17becf", "#9edae5",
];

/// Hatch patterns cycled per category by the `greys` scheme, in
/// matplotlib's letters: `/` and `\` diagonals, `x` both, `.` dots, `-`
/// horizontal, `|` vertical, `+` both, `o` small circles.
pub const HATCHES: [char; 8] = ['/', '\\', 'x', '.', '-', '|', '+', 'o'];

/// A hatch pattern's name as the figure's CSV writes it (a CSV cell
/// starting with `-` or `+` would be guarded against spreadsheet formulas).
pub fn hatch_name(h: char) -> &'static str {
    match h {
        '/' => "diagonal",
        '\\' => "back-diagonal",
        'x' => "crossed-diagonal",
        '.' => "dots",
        '-' => "horizontal",
        '|' => "vertical",
        '+' => "grid",
        'o' => "circles",
        _ => "none",
    }
}

/// Categorical scheme names, for messages and the spec's docs.
pub const CATEGORICAL: &[&str] = &[
    "tab10",
    "category10",
    "tab20",
    "category20",
    "tableau10",
    "okabe-ito",
    "greys",
    "set1",
    "set2",
    "set3",
    "dark2",
    "paired",
    "accent",
    "pastel1",
    "pastel2",
];

/// Continuous scheme names (sequential, then diverging).
pub const CONTINUOUS: &[&str] = &[
    "viridis",
    "magma",
    "inferno",
    "plasma",
    "cividis",
    "turbo",
    "blues",
    "greens",
    "greys",
    "oranges",
    "purples",
    "reds",
    "redblue",
    "redgrey",
    "purpleorange",
    "brownbluegreen",
    "purplegreen",
    "pinkyellowgreen",
    "redyellowblue",
    "redyellowgreen",
    "spectral",
];

/// `#rrggbb` of a `colorous` colour.
pub fn hex(c: colorous::Color) -> String {
    format!("#{:02x}{:02x}{:02x}", c.r, c.g, c.b)
}

fn palette(cs: &[colorous::Color]) -> Vec<String> {
    cs.iter().map(|c| hex(*c)).collect()
}

/// The colours of a categorical scheme, and whether its categories also
/// get hatch patterns; `None` for an unknown name.
pub fn categorical(name: &str) -> Option<(Vec<String>, bool)> {
    let own = |a: &[&str]| a.iter().map(|s| s.to_string()).collect();
    Some(match name {
        "tab10" | "category10" => (own(&TAB10), false),
        "tab20" | "category20" => (own(&TAB20), false),
        "tableau10" => (palette(&colorous::TABLEAU10), false),
        "okabe-ito" => (own(&OKABE_ITO), false),
        // Light to middle greys, so black hatch lines stay visible.
        "greys" => (
            [0.05, 0.2, 0.35, 0.5]
                .iter()
                .map(|t| hex(colorous::GREYS.eval_continuous(*t)))
                .collect(),
            true,
        ),
        "set1" => (palette(&colorous::SET1), false),
        "set2" => (palette(&colorous::SET2), false),
        "set3" => (palette(&colorous::SET3), false),
        "dark2" => (palette(&colorous::DARK2), false),
        "paired" => (palette(&colorous::PAIRED), false),
        "accent" => (palette(&colorous::ACCENT), false),
        "pastel1" => (palette(&colorous::PASTEL1), false),
        "pastel2" => (palette(&colorous::PASTEL2), false),
        _ => return None,
    })
}

/// The gradient of a continuous scheme; `None` for an unknown name.
pub fn gradient(name: &str) -> Option<colorous::Gradient> {
    use colorous as c;
    Some(match name {
        "viridis" => c::VIRIDIS,
        "magma" => c::MAGMA,
        "inferno" => c::INFERNO,
        "plasma" => c::PLASMA,
        "cividis" => c::CIVIDIS,
        "turbo" => c::TURBO,
        "blues" => c::BLUES,
        "greens" => c::GREENS,
        "greys" => c::GREYS,
        "oranges" => c::ORANGES,
        "purples" => c::PURPLES,
        "reds" => c::REDS,
        "redblue" => c::RED_BLUE,
        "redgrey" => c::RED_GREY,
        "purpleorange" => c::PURPLE_ORANGE,
        "brownbluegreen" => c::BROWN_GREEN,
        "purplegreen" => c::PURPLE_GREEN,
        "pinkyellowgreen" => c::PINK_GREEN,
        "redyellowblue" => c::RED_YELLOW_BLUE,
        "redyellowgreen" => c::RED_YELLOW_GREEN,
        "spectral" => c::SPECTRAL,
        _ => return None,
    })
}

/// The nearest scheme name to a misspelt one, for "did you mean".
pub fn nearest(name: &str) -> Option<&'static str> {
    CATEGORICAL
        .iter()
        .chain(CONTINUOUS)
        .map(|n| (strsim::jaro_winkler(name, n), *n))
        .filter(|(s, _)| *s > 0.8)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, n)| n)
}

/// A continuous colour scale: numbers to colours.
#[derive(Clone, Copy)]
pub struct Continuous {
    /// The scheme's name (for the CSV and messages).
    pub scheme: &'static str,
    gradient: colorous::Gradient,
    /// `[lo, hi]` as written, or `None` to take the data's range.
    pub fixed: Option<(f64, f64)>,
    /// Vega-Lite's `domainMid`: the value given the gradient's centre.
    pub mid: Option<f64>,
}

impl std::fmt::Debug for Continuous {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Continuous")
            .field("scheme", &self.scheme)
            .field("fixed", &self.fixed)
            .field("mid", &self.mid)
            .finish()
    }
}

impl Continuous {
    /// A scale of scheme `name` (a name from [`CONTINUOUS`]).
    pub fn new(name: &str, fixed: Option<(f64, f64)>, mid: Option<f64>) -> Option<Continuous> {
        let scheme = *CONTINUOUS.iter().find(|n| **n == name)?;
        Some(Continuous {
            scheme,
            gradient: gradient(name)?,
            fixed,
            mid,
        })
    }

    /// The position of `v` on the gradient, 0 to 1 (clamped), for the
    /// domain `(lo, hi)`: linear, or piecewise linear through `mid` = 0.5.
    pub fn normalize(&self, (lo, hi): (f64, f64), v: f64) -> f64 {
        let t = match self.mid {
            Some(m) if v < m => {
                if m > lo {
                    0.5 * (v - lo) / (m - lo)
                } else {
                    0.0
                }
            }
            Some(m) => {
                if hi > m {
                    0.5 + 0.5 * (v - m) / (hi - m)
                } else {
                    1.0
                }
            }
            None if hi > lo => (v - lo) / (hi - lo),
            None => 0.5,
        };
        t.clamp(0.0, 1.0)
    }

    /// The colour at gradient position `t` (0 to 1).
    pub fn at(&self, t: f64) -> Color {
        let c = self.gradient.eval_continuous(t.clamp(0.0, 1.0));
        Color::rgb(c.r, c.g, c.b)
    }

    /// The colour of `v` for the domain `(lo, hi)`.
    pub fn color(&self, domain: (f64, f64), v: f64) -> Color {
        self.at(self.normalize(domain, v))
    }
}

/// WCAG 2 relative luminance of an sRGB colour (0 black to 1 white).
pub fn luminance(c: Color) -> f64 {
    let lin = super::linear;
    0.2126 * lin(c.r) + 0.7152 * lin(c.g) + 0.0722 * lin(c.b)
}

/// WCAG 2 contrast ratio of two colours (1 to 21).
pub fn contrast(a: Color, b: Color) -> f64 {
    let (la, lb) = (luminance(a), luminance(b));
    (la.max(lb) + 0.05) / (la.min(lb) + 0.05)
}

/// Black or white, whichever contrasts more with `fill` (text on a cell).
pub fn text_on(fill: Color) -> Color {
    if contrast(Color::BLACK, fill) >= contrast(Color::WHITE, fill) {
        Color::BLACK
    } else {
        Color::WHITE
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn diverging_mid_maps_to_the_centre() {
        let s = Continuous::new("redblue", None, Some(0.0)).unwrap();
        assert_eq!(s.normalize((-0.2, 0.6), 0.0), 0.5);
        assert_eq!(s.normalize((-0.2, 0.6), -0.2), 0.0);
        assert_eq!(s.normalize((-0.2, 0.6), 0.6), 1.0);
        assert_eq!(s.normalize((-0.2, 0.6), 0.3), 0.75);
    }

    #[test]
    fn text_colour_follows_contrast() {
        assert_eq!(text_on(Color::rgb(0x44, 0x01, 0x54)), Color::WHITE);
        assert_eq!(text_on(Color::rgb(0xfd, 0xe7, 0x25)), Color::BLACK);
        assert!((contrast(Color::BLACK, Color::WHITE) - 21.0).abs() < 1e-9);
    }

    #[test]
    fn every_scheme_resolves() {
        for n in CONTINUOUS {
            assert!(Continuous::new(n, None, None).is_some(), "{n}");
        }
        for n in CATEGORICAL {
            assert!(categorical(n).is_some(), "{n}");
        }
    }
}

//! Colours: `#rrggbb`, `#rgb`, the 148 CSS Color 4 names (any case, from
//! the `csscolorparser` crate's table), matplotlib's one-letter names,
//! `tab:blue` ... `tab:cyan` and `C0` ... `C9` (its default cycle, tab10).

pub mod assign;
pub mod cvd;
pub mod scheme;

/// An sRGB channel (0..=255) as linear light (0..1), the sRGB transfer
/// function inverted (IEC 61966-2-1).
pub fn linear(u: u8) -> f64 {
    let s = u as f64 / 255.0;
    if s <= 0.04045 {
        s / 12.92
    } else {
        ((s + 0.055) / 1.055).powf(2.4)
    }
}

/// An sRGB colour with opacity.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Color {
    /// Red, 0-255.
    pub r: u8,
    /// Green, 0-255.
    pub g: u8,
    /// Blue, 0-255.
    pub b: u8,
    /// Opacity, 0-1.
    pub a: f64,
}

impl Color {
    /// An opaque colour.
    pub const fn rgb(r: u8, g: u8, b: u8) -> Color {
        Color { r, g, b, a: 1.0 }
    }

    /// Black.
    pub const BLACK: Color = Color::rgb(0, 0, 0);
    /// White.
    pub const WHITE: Color = Color::rgb(255, 255, 255);

    /// The same colour with opacity `a` multiplied in.
    pub fn with_alpha(self, a: f64) -> Color {
        Color {
            a: (self.a * a).clamp(0.0, 1.0),
            ..self
        }
    }

    /// `#rrggbb` (opacity is not included).
    pub fn hex(&self) -> String {
        format!("#{:02x}{:02x}{:02x}", self.r, self.g, self.b)
    }
}

/// matplotlib's default colour cycle (tab10): what `C0` ... `C9` and
/// `tab:blue` ... name, and the `tab10` scheme (the default scheme is
/// [`scheme::DEFAULT`]).
pub const TAB10: [&str; 10] = [
    "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
    "#bcbd22", "#17becf",
];

/// Parses a colour; `Ok(None)` for `none` (nothing drawn).
pub fn parse(s: &str) -> Result<Option<Color>, String> {
    let t = s.trim();
    if t.eq_ignore_ascii_case("none") || t.eq_ignore_ascii_case("transparent") {
        return Ok(None);
    }
    if let Some(hex) = t.strip_prefix('#') {
        let digits: Vec<u8> = hex
            .chars()
            .map(|c| c.to_digit(16).map(|d| d as u8))
            .collect::<Option<_>>()
            .ok_or_else(|| format!("invalid colour `{s}`"))?;
        return match digits.len() {
            3 => Ok(Some(Color::rgb(
                digits[0] * 17,
                digits[1] * 17,
                digits[2] * 17,
            ))),
            6 => Ok(Some(Color::rgb(
                digits[0] * 16 + digits[1],
                digits[2] * 16 + digits[3],
                digits[4] * 16 + digits[5],
            ))),
            _ => Err(format!("invalid colour `{s}` (use #rgb or #rrggbb)")),
        };
    }
    let lower = t.to_ascii_lowercase();
    // matplotlib's one-letter names (its `c`, `m`, `y` are darker than the
    // CSS `cyan`, `magenta`, `yellow`).
    let letter = match lower.as_str() {
        "k" => Some("#000000"),
        "w" => Some("#ffffff"),
        "r" => Some("#ff0000"),
        "g" => Some("#008000"),
        "b" => Some("#0000ff"),
        "c" => Some("#00bfbf"),
        "m" => Some("#bf00bf"),
        "y" => Some("#bfbf00"),
        _ => None,
    };
    if let Some(hex) = letter {
        return parse(hex);
    }
    if let Some(i) = lower
        .strip_prefix('c')
        .and_then(|d| d.parse::<usize>().ok())
        .filter(|i| *i < 10 && lower.len() == 2)
    {
        return parse(TAB10[i]);
    }
    if let Some(name) = lower.strip_prefix("tab:") {
        let name = if name == "grey" { "gray" } else { name };
        if let Some(i) = TAB_NAMES.iter().position(|n| *n == name) {
            return parse(TAB10[i]);
        }
    }
    if let Some((_, [r, g, b])) = csscolorparser::NAMED_COLORS
        .entries()
        .find(|(n, _)| n.as_str().eq_ignore_ascii_case(t))
    {
        return Ok(Some(Color::rgb(*r, *g, *b)));
    }
    let names = csscolorparser::NAMED_COLORS
        .keys()
        .map(|n| n.as_str().to_string())
        .chain(TAB_NAMES.iter().map(|n| format!("tab:{n}")))
        .collect::<Vec<_>>();
    let close = crate::error::did_you_mean(t, names.iter().map(String::as_str))
        .map(|c| format!("; did you mean `{c}`?"))
        .unwrap_or_default();
    Err(format!(
        "unknown colour `{s}` (use #rrggbb, a CSS name, tab:blue ... tab:cyan or C0 ... C9){close}"
    ))
}

/// The names of the tab10 colours, in order (`tab:blue` is [`TAB10`]`[0]`).
const TAB_NAMES: [&str; 10] = [
    "blue", "orange", "green", "red", "purple", "brown", "pink", "gray", "olive", "cyan",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_hex_names_and_none() {
        assert_eq!(
            parse("#1f77b4").unwrap(),
            Some(Color::rgb(0x1f, 0x77, 0xb4))
        );
        assert_eq!(parse("#fff").unwrap(), Some(Color::WHITE));
        assert_eq!(parse("r").unwrap(), Some(Color::rgb(255, 0, 0)));
        assert_eq!(parse("none").unwrap(), None);
        assert!(parse("#12").is_err());
        assert!(parse("blurple").is_err());
    }

    fn hex(s: &str) -> String {
        parse(s).unwrap().unwrap().hex()
    }

    #[test]
    fn every_css_name_in_any_case() {
        assert_eq!(csscolorparser::NAMED_COLORS.len(), 148);
        assert_eq!(hex("lightblue"), "#add8e6");
        assert_eq!(hex("LightBlue"), "#add8e6");
        assert_eq!(hex("rebeccapurple"), "#663399");
        assert_eq!(hex("cyan"), "#00ffff");
        assert_eq!(hex("grey"), "#808080");
        assert_eq!(hex("c"), "#00bfbf");
        for (name, [r, g, b]) in csscolorparser::NAMED_COLORS.entries() {
            assert_eq!(
                parse(&name.as_str().to_uppercase()).unwrap(),
                Some(Color::rgb(*r, *g, *b))
            );
        }
    }

    #[test]
    fn matplotlib_tab_names_and_cycle() {
        let tab = [
            "blue", "orange", "green", "red", "purple", "brown", "pink", "gray", "olive", "cyan",
        ];
        for (i, name) in tab.iter().enumerate() {
            assert_eq!(hex(&format!("tab:{name}")), TAB10[i]);
            assert_eq!(hex(&format!("C{i}")), TAB10[i]);
        }
        assert_eq!(hex("C0"), "#1f77b4");
        assert_eq!(hex("C9"), "#17becf");
        assert_eq!(hex("tab:grey"), "#7f7f7f");
    }

    #[test]
    fn an_unknown_colour_suggests_the_closest() {
        assert_eq!(
            parse("lightbleu").unwrap_err(),
            "unknown colour `lightbleu` (use #rrggbb, a CSS name, tab:blue ... tab:cyan or C0 ... C9); did you mean `lightblue`?"
        );
        assert_eq!(
            parse("tab:blu").unwrap_err(),
            "unknown colour `tab:blu` (use #rrggbb, a CSS name, tab:blue ... tab:cyan or C0 ... C9); did you mean `tab:blue`?"
        );
        assert_eq!(
            parse("C10").unwrap_err(),
            "unknown colour `C10` (use #rrggbb, a CSS name, tab:blue ... tab:cyan or C0 ... C9)"
        );
        assert_eq!(
            parse("qqq").unwrap_err(),
            "unknown colour `qqq` (use #rrggbb, a CSS name, tab:blue ... tab:cyan or C0 ... C9)"
        );
    }
}

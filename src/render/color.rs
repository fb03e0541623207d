//! Colours: `#rrggbb`, `#rgb`, matplotlib's one-letter and `tab:` names,
//! and the common CSS names.

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

/// matplotlib's default colour cycle (tab10), used for unmapped categories.
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
    let hex = match t.to_ascii_lowercase().as_str() {
        "k" | "black" => "#000000",
        "w" | "white" => "#ffffff",
        "r" | "red" => "#ff0000",
        "g" => "#008000",
        "green" => "#008000",
        "b" | "blue" => "#0000ff",
        "c" | "cyan" => "#00bfbf",
        "m" | "magenta" => "#bf00bf",
        "y" | "yellow" => "#bfbf00",
        "gray" | "grey" => "#808080",
        "lightgray" | "lightgrey" => "#d3d3d3",
        "darkgray" | "darkgrey" => "#a9a9a9",
        "orange" => "#ffa500",
        "purple" => "#800080",
        "brown" => "#a52a2a",
        "pink" => "#ffc0cb",
        "tab:blue" => TAB10[0],
        "tab:orange" => TAB10[1],
        "tab:green" => TAB10[2],
        "tab:red" => TAB10[3],
        "tab:purple" => TAB10[4],
        "tab:brown" => TAB10[5],
        "tab:pink" => TAB10[6],
        "tab:gray" | "tab:grey" => TAB10[7],
        "tab:olive" => TAB10[8],
        "tab:cyan" => TAB10[9],
        _ => {
            return Err(format!(
                "unknown colour `{s}` (use #rrggbb, a CSS name or tab:blue ...)"
            ));
        }
    };
    parse(hex)
}

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
}

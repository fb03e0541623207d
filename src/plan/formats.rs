//! Which files a figure writes (`[output] formats`: SVG, PDF, PNG, and
//! always its CSV), the PNG's resolution (`dpi`) and the colour painted
//! under the figure (`background`, `[output]`'s or the figure's own).

use std::ops::RangeInclusive;

use crate::color::Color;
use crate::error::Result;
use crate::spec::{FigureSpec, LoadedSpec};

/// The image formats, in the order their files are listed.
pub const KNOWN: [&str; 3] = ["svg", "pdf", "png"];
/// The formats written when `[output] formats` is absent.
pub const DEFAULT: [&str; 2] = ["svg", "pdf"];
/// The PNG resolution when `dpi` is absent.
pub const DEFAULT_DPI: f64 = 300.0;
/// The range of `dpi`.
pub const DPI: RangeInclusive<f64> = 10.0..=2400.0;
/// The most pixels a PNG has (a 100 in square at 100 dpi): 400 MB of RGBA
/// at most, so a typo in `dpi` or `size` cannot exhaust memory.
pub const MAX_PIXELS: f64 = 100_000_000.0;

/// The files each figure writes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Formats {
    /// `NAME.svg`.
    pub svg: bool,
    /// `NAME.pdf`.
    pub pdf: bool,
    /// `NAME.png`.
    pub png: bool,
    /// The PNG's dots per inch.
    pub dpi: f64,
}

impl Default for Formats {
    fn default() -> Self {
        Formats {
            svg: true,
            pdf: true,
            png: false,
            dpi: DEFAULT_DPI,
        }
    }
}

impl Formats {
    /// `[output]`'s `formats` and `dpi`, checked: an unknown format (with
    /// the nearest), one listed twice, an empty list, `dpi` outside 10 to
    /// 2,400, or `dpi` without `png` are errors at their place.
    pub fn of(spec: &LoadedSpec) -> Result<Formats> {
        let out = &spec.spec.output;
        let mut f = Formats::default();
        if let Some(list) = &out.formats {
            if list.get_ref().is_empty() {
                return Err(spec.error(
                    list.span(),
                    "`formats` is empty: list at least one of svg, pdf, png",
                ));
            }
            f.svg = false;
            f.pdf = false;
            for (i, fmt) in list.get_ref().iter().enumerate() {
                let word = fmt.get_ref().as_str();
                if !KNOWN.contains(&word) {
                    let near = crate::spec::keys::nearest(&word.to_ascii_lowercase(), &KNOWN)
                        .map(|n| format!("; did you mean `{n}`?"))
                        .unwrap_or_default();
                    return Err(spec.error(
                        fmt.span(),
                        format!(
                            "unknown format `{}` (svg, pdf, png){near}",
                            crate::error::shown(word)
                        ),
                    ));
                }
                if list.get_ref()[..i].iter().any(|o| o.get_ref() == word) {
                    return Err(spec.error(fmt.span(), format!("`{word}` is listed twice")));
                }
                match word {
                    "svg" => f.svg = true,
                    "pdf" => f.pdf = true,
                    _ => f.png = true,
                }
            }
        }
        if let Some(d) = &out.dpi {
            let dpi = *d.get_ref();
            if !DPI.contains(&dpi) {
                return Err(spec.error(
                    d.span(),
                    format!(
                        "`dpi` must be from {} to {}, got {dpi}",
                        DPI.start(),
                        DPI.end()
                    ),
                ));
            }
            if !f.png {
                return Err(spec.error(
                    d.span(),
                    "`dpi` does nothing without `png` in `formats` (formats = [\"svg\", \"pdf\", \"png\"])",
                ));
            }
            f.dpi = dpi;
        }
        Ok(f)
    }

    /// The extensions of a figure's files, CSV last (lenient: the formats
    /// as [`Formats::of`] reads them, or the default when they are wrong,
    /// which validation reports).
    pub fn extensions(spec: &LoadedSpec) -> Vec<&'static str> {
        let f = Formats::of(spec).unwrap_or_default();
        let mut v: Vec<&'static str> = [(f.svg, "svg"), (f.pdf, "pdf"), (f.png, "png")]
            .into_iter()
            .filter(|(on, _)| *on)
            .map(|(_, e)| e)
            .collect();
        v.push("csv");
        v
    }
}

/// The colour painted under figure `f`: its own `background`, else
/// `[output] background`, else none (transparent); `"none"` is
/// transparent. An unknown colour is an error at its place.
pub fn background(spec: &LoadedSpec, f: &FigureSpec) -> Result<Option<Color>> {
    let Some(b) = f
        .background
        .as_ref()
        .or(spec.spec.output.background.as_ref())
    else {
        return Ok(None);
    };
    crate::color::parse(b.get_ref()).map_err(|m| spec.error(b.span(), format!("background: {m}")))
}

/// The colour under figure `f`'s PNG: its `background` when one is written
/// (its own or `[output]`'s; `"none"` keeps the PNG transparent), else
/// opaque white, as matplotlib saves a PNG (a transparent one shows black
/// or a checkerboard in many viewers and slide tools).
pub fn png_background(spec: &LoadedSpec, f: &FigureSpec) -> Result<Option<Color>> {
    if f.background.is_none() && spec.spec.output.background.is_none() {
        return Ok(Some(Color::WHITE));
    }
    background(spec, f)
}

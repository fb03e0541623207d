//! Figures sized in the paper's terms: `[style]` gives the document's
//! column and text widths and font size (or a `preset` class), and a figure
//! says `width = "column"`, `"text"`, `"0.5 text"` or a length, with an
//! `aspect` (width / height, default the golden ratio) or a `height`.
//!
//! The idea is tueplots' (for matplotlib): a figure drawn at the width it is
//! included at (`\includegraphics[width=\columnwidth]`) prints its text at
//! the size it was drawn, so its base font size is the document's; tick
//! labels and the legend are 2 pt smaller (tueplots' `small_offset`).
//!
//! Units: `[style]` lengths and font size are TeX points (1/72.27 in, what
//! `\the\columnwidth` prints); figures are drawn in PostScript points
//! (1/72 in, SVG's and PDF's `pt`), so 241.14749 TeX pt is 240.246 pt of
//! SVG, and a 10 pt document font is 9.963 pt of SVG: at 100% scale both
//! print at the document's sizes.

use toml::Spanned;

use crate::error::Result;
use crate::font::Face;
use crate::spec::{FigureSpec, LoadedSpec, Raw, StyleSpec, value};

/// TeX points per inch (`\the\columnwidth` is in these).
pub const TEX_PT_PER_IN: f64 = 72.27;
/// PostScript points (SVG and PDF `pt`) per TeX point.
pub const BP_PER_TEX_PT: f64 = 72.0 / TEX_PT_PER_IN;
/// The default aspect (width / height): the golden ratio, as tueplots.
pub const GOLDEN_RATIO: f64 = 1.618_033_988_749_895;
/// How much smaller than the base font tick labels and the legend are
/// (TeX points), as tueplots' `fontsizes._from_base(small_offset=2)`.
pub const SMALL_OFFSET: f64 = 2.0;
/// The range of `aspect`.
pub const ASPECT: std::ops::RangeInclusive<f64> = 0.1..=10.0;

/// A document class's widths and font size, in TeX points.
#[derive(Debug, Clone, Copy)]
pub struct Preset {
    /// The name written in `preset`.
    pub name: &'static str,
    /// `\columnwidth` (equal to `text` for single-column classes).
    pub column: f64,
    /// `\textwidth`.
    pub text: f64,
    /// The body font size.
    pub font_size: f64,
    /// The body typeface (or the nearest bundled one).
    pub face: Face,
}

/// The presets. Widths as `\the\columnwidth` / `\the\textwidth` print them
/// in each class's template (the values tueplots' `figsizes` uses where it
/// has the class).
pub const PRESETS: &[Preset] = &[
    // acmart, `sigconf` (ACM conference proceedings): two columns of
    // 241.14749pt in 506.295pt, 9pt body text (acmart.dtx's sigconf size).
    Preset {
        name: "acmart",
        column: 241.147_49,
        text: 506.295,
        font_size: 9.0,
        face: Face::Libertine,
    },
    // IEEEtran `conference`: two 252pt columns in 516pt, 10pt body.
    Preset {
        name: "ieeetran",
        column: 252.0,
        text: 516.0,
        font_size: 10.0,
        face: Face::Termes,
    },
    // neurips_20xx.sty: one 5.5in column (397.48499pt), 10pt body
    // (tueplots figsizes._neurips_and_iclr_common: base_width_in=5.5).
    Preset {
        name: "neurips",
        column: 397.484_99,
        text: 397.484_99,
        font_size: 10.0,
        face: Face::Termes,
    },
    // icml20xx.sty: two 3.25in columns (234.8775pt) in 6.75in
    // (487.8225pt), 10pt body (tueplots figsizes.icml2022_half / _full).
    Preset {
        name: "icml",
        column: 234.877_5,
        text: 487.822_5,
        font_size: 10.0,
        face: Face::Termes,
    },
    // usenix2019_v3.sty: a 7in text block (505.89pt) of two columns with a
    // 0.33in gutter, each 3.335in (241.02045pt); 10pt Times.
    Preset {
        name: "usenix",
        column: 241.020_45,
        text: 505.89,
        font_size: 10.0,
        face: Face::Termes,
    },
    // llncs (Springer LNCS): one 12.2cm column (347.12354pt), 10pt body.
    Preset {
        name: "lncs",
        column: 347.123_54,
        text: 347.123_54,
        font_size: 10.0,
        face: Face::LatinModern,
    },
    // LaTeX's `article` at 10pt on letter or A4 paper: `\textwidth`
    // 345pt, one column; Computer Modern, drawn in Latin Modern.
    Preset {
        name: "article",
        column: 345.0,
        text: 345.0,
        font_size: 10.0,
        face: Face::LatinModern,
    },
];

/// The document, resolved: widths and font size in PostScript points.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Style {
    /// The column width (pt).
    pub column: Option<f64>,
    /// The text width (pt).
    pub text: Option<f64>,
    /// The body font size (pt).
    pub font_size: Option<f64>,
    /// Every figure's typeface: `font`, else the preset's, else DejaVu Sans.
    pub face: Face,
}

/// A length in TeX points: a number (TeX points) or a string with a unit
/// (`pt` TeX points, `bp` PostScript points, `in`, `cm`, `mm`); the result
/// is in PostScript points. The message says what is wrong.
pub fn length(v: &toml::Value) -> std::result::Result<f64, String> {
    let bp = match v {
        toml::Value::Integer(i) => *i as f64 * BP_PER_TEX_PT,
        toml::Value::Float(f) => *f * BP_PER_TEX_PT,
        toml::Value::String(s) => {
            let t = s.trim();
            // The unit follows the number's last digit or point (so the
            // `e` of `1e10pt` belongs to the number).
            let split = t
                .rfind(|c: char| c.is_ascii_digit() || c == '.')
                .map_or(0, |i| i + 1);
            if t[split..].trim().is_empty() {
                return Err(format!("`{t}` has no unit (pt, bp, in, cm, mm)"));
            }
            let (num, unit) = t.split_at(split);
            let x: f64 = num
                .trim()
                .parse()
                .map_err(|_| format!("`{t}` is not a length such as \"3.33in\" or \"241pt\""))?;
            let per = match unit.trim() {
                "pt" => BP_PER_TEX_PT,
                "bp" => 1.0,
                "in" => 72.0,
                "cm" => 72.0 / 2.54,
                "mm" => 72.0 / 25.4,
                u => return Err(format!("unknown unit `{u}` in `{t}` (pt, bp, in, cm, mm)")),
            };
            x * per
        }
        _ => return Err("a length is a number of points or a string such as \"3.33in\"".into()),
    };
    // Within a figure's bounds (0.5 to 100 in), checked where it is used;
    // here only a number that is one.
    if bp.is_finite() && bp > 0.0 {
        Ok(bp)
    } else {
        Err(format!("a length must be above 0, got {v}"))
    }
}

fn raw_length(spec: &LoadedSpec, raw: &Raw) -> Result<f64> {
    length(raw.get_ref()).map_err(|m| spec.error(raw.span(), m))
}

/// `[style]` resolved: the preset's values, overridden by the keys given.
/// Errors: an unknown preset or font (with the nearest), a bad length, a
/// font size out of 1 to 200 points.
pub fn style(spec: &LoadedSpec) -> Result<Style> {
    let s: &StyleSpec = &spec.spec.style;
    let preset = match &s.preset {
        None => None,
        Some(p) => Some(
            PRESETS
                .iter()
                .find(|x| x.name == p.get_ref().to_ascii_lowercase())
                .ok_or_else(|| {
                    let names: Vec<&str> = PRESETS.iter().map(|x| x.name).collect();
                    let near =
                        crate::spec::keys::nearest(&p.get_ref().to_ascii_lowercase(), &names)
                            .map(|n| format!("; did you mean `{n}`?"))
                            .unwrap_or_default();
                    spec.error(
                        p.span(),
                        format!(
                            "unknown preset `{}` ({}){near}",
                            crate::error::shown(p.get_ref()),
                            names.join(", ")
                        ),
                    )
                })?,
        ),
    };
    let column = match &s.column_width {
        Some(r) => Some(raw_length(spec, r)?),
        None => preset.map(|p| p.column * BP_PER_TEX_PT),
    };
    let text = match &s.text_width {
        Some(r) => Some(raw_length(spec, r)?),
        None => preset.map(|p| p.text * BP_PER_TEX_PT),
    };
    if let Some(f) = &s.font_size
        && !crate::spec::bounds::FONT_SIZE.contains(f.get_ref())
    {
        return Err(spec.error(
            f.span(),
            format!(
                "`font_size` must be from 1 to 200 points, got {}",
                f.get_ref()
            ),
        ));
    }
    let font_size = value(&s.font_size)
        .or(preset.map(|p| p.font_size))
        .map(|f| f * BP_PER_TEX_PT);
    let face = match &s.font {
        Some(f) => Face::named(f.get_ref()).ok_or_else(|| {
            let names: Vec<&str> = Face::ALL.iter().map(|f| f.name()).collect();
            let near = crate::spec::keys::nearest(f.get_ref(), &names)
                .map(|n| format!("; did you mean `{n}`?"))
                .unwrap_or_default();
            spec.error(
                f.span(),
                format!(
                    "unknown font `{}` ({}){near}",
                    crate::error::shown(f.get_ref()),
                    names.join(", ")
                ),
            )
        })?,
        None => preset.map_or(Face::DejaVuSans, |p| p.face),
    };
    Ok(Style {
        column,
        text,
        font_size,
        face,
    })
}

/// A `[style]` no figure reads is an error at its first key: it would do
/// nothing. Every figure reads `font` (else the preset's typeface); only
/// one with `width` reads the widths and `font_size`.
pub fn check_read(spec: &LoadedSpec) -> Result<()> {
    let s = &spec.spec.style;
    let any = !spec.spec.figures.is_empty();
    if let Some(f) = s.font.as_ref().filter(|_| !any) {
        return Err(spec.error(f.span(), "`[style]` does nothing: there is no figure"));
    }
    // Without `font`, the preset gives every figure its typeface.
    let preset = s.preset.as_ref().filter(|_| !any || s.font.is_some());
    let first = [
        preset.map(|p| p.span()),
        s.column_width.as_ref().map(|r| r.span()),
        s.text_width.as_ref().map(|r| r.span()),
        s.font_size.as_ref().map(|f| f.span()),
    ]
    .into_iter()
    .flatten()
    .min_by_key(|r| r.start);
    match first {
        Some(span) if !spec.spec.figures.values().any(|f| f.get_ref().width.is_some()) => {
            Err(spec.error(
                span,
                "`[style]` does nothing: no figure has `width` (\"column\", \"text\", \"0.5 text\")",
            ))
        }
        _ => Ok(()),
    }
}

/// What a figure's `width` gives: its width in points, and whether it was
/// sized in the document's terms (then its text defaults to the document's
/// font size).
fn width(spec: &LoadedSpec, st: &Style, w: &Spanned<String>) -> Result<f64> {
    let t = w.get_ref().trim();
    let (frac, word) = match t.rsplit_once(char::is_whitespace) {
        Some((f, word)) if word == "column" || word == "text" => {
            let f: f64 = f.trim().parse().map_err(|_| {
                spec.error(
                    w.span(),
                    format!("`{f}` is not a fraction: write e.g. \"0.5 {word}\""),
                )
            })?;
            if !(f > 0.0 && f <= 1.0) {
                return Err(spec.error(
                    w.span(),
                    format!(
                        "the fraction of the {word} width must be above 0 and at most 1, got {f}"
                    ),
                ));
            }
            (f, word)
        }
        _ if t == "column" || t == "text" => (1.0, t),
        _ => {
            return length(&toml::Value::String(t.to_string())).map_err(|m| {
                spec.error(
                    w.span(),
                    format!("{m}; `width` is \"column\", \"text\", a fraction of either (\"0.5 text\") or a length (\"3in\")"),
                )
            });
        }
    };
    let (have, key) = if word == "column" {
        (st.column, "column_width")
    } else {
        (st.text, "text_width")
    };
    let full = have.ok_or_else(|| {
        spec.error(
            w.span(),
            format!(
                "`width = \"{t}\"` needs the document's {word} width: add `[style]` with `preset` ({}) or `{key}`",
                PRESETS.iter().map(|p| p.name).collect::<Vec<_>>().join(", ")
            ),
        )
    })?;
    Ok(frac * full)
}

/// A figure's size from `width` and `aspect` or `height`, in points, with
/// the document's font size: `None` when the figure gives `size` instead
/// (evaluated by the caller, as it may read numbers). Errors: neither
/// `size` nor `width`, a width word without `[style]`'s width, an aspect out
/// of 0.1 to 10, a size outside 0.5 to 100 inches.
pub fn figure_size(
    spec: &LoadedSpec,
    name: &str,
    fig: &Spanned<FigureSpec>,
) -> Result<Option<(f64, f64, Option<f64>)>> {
    let f = fig.get_ref();
    let Some(w) = &f.width else {
        if f.size.is_none() {
            return Err(spec.error(
                crate::spec::paths::key_span(spec, "figures", name, fig.span()),
                "a figure needs `size = [width, height]` in inches or `width` (\"column\", \"text\", \"0.5 text\", or a length)",
            ));
        }
        return Ok(None);
    };
    let st = style(spec)?;
    let width = width(spec, &st, w)?;
    crate::spec::bounds::figure_inches(spec, w.span(), "width", width / 72.0)?;
    let height = match (&f.height, &f.aspect) {
        (Some(h), _) => {
            let h_pt = raw_length(spec, h)?;
            crate::spec::bounds::figure_inches(spec, h.span(), "height", h_pt / 72.0)?;
            h_pt
        }
        (None, Some(a)) => {
            if !ASPECT.contains(a.get_ref()) {
                return Err(spec.error(
                    a.span(),
                    format!(
                        "`aspect` (width / height) must be from 0.1 to 10, got {}",
                        a.get_ref()
                    ),
                ));
            }
            let h = width / a.get_ref();
            crate::spec::bounds::figure_inches(spec, a.span(), "height", h / 72.0)?;
            h
        }
        (None, None) => {
            let h = width / GOLDEN_RATIO;
            crate::spec::bounds::figure_inches(spec, w.span(), "height", h / 72.0)?;
            h
        }
    };
    Ok(Some((width, height, st.font_size)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> LoadedSpec {
        crate::spec::parse(text, std::path::Path::new("artifact.toml")).unwrap()
    }

    fn size(text: &str) -> std::result::Result<Option<(f64, f64, Option<f64>)>, String> {
        let s = parse(text);
        let (name, f) = s.spec.figures.first().unwrap();
        figure_size(&s, name, f).map_err(|e| e.to_string())
    }

    #[test]
    fn lengths_in_each_unit() {
        let l = |s: &str| length(&toml::Value::String(s.into())).unwrap();
        assert!((l("72.27pt") - 72.0).abs() < 1e-9);
        assert!((l("1in") - 72.0).abs() < 1e-9);
        assert!((l("2.54cm") - 72.0).abs() < 1e-9);
        assert!((l("25.4 mm") - 72.0).abs() < 1e-9);
        assert!((l("10bp") - 10.0).abs() < 1e-9);
        assert!((length(&toml::Value::Integer(7227)).unwrap() - 7200.0).abs() < 1e-9);
        assert_eq!(
            length(&toml::Value::String("3 furlongs".into())).unwrap_err(),
            "unknown unit `furlongs` in `3 furlongs` (pt, bp, in, cm, mm)"
        );
        assert_eq!(
            length(&toml::Value::String("241".into())).unwrap_err(),
            "`241` has no unit (pt, bp, in, cm, mm)"
        );
    }

    #[test]
    fn height_1e10pt_says_unknown_unit_e10pt() {
        assert_eq!(
            length(&toml::Value::String("1e10pt".into())),
            Ok(1e10 * BP_PER_TEX_PT)
        );
        assert_eq!(length(&toml::Value::String("1e1 in".into())), Ok(720.0));
        assert_eq!(
            length(&toml::Value::String("1e10".into())),
            Err("`1e10` has no unit (pt, bp, in, cm, mm)".to_string())
        );
    }

    #[test]
    fn a_column_figure_takes_the_presets_width_and_the_golden_ratio() {
        let (w, h, fs) = size("[style]\npreset = \"ieeetran\"\n[figures.f]\nwidth = \"column\"\n")
            .unwrap()
            .unwrap();
        assert!((w - 252.0 * 72.0 / 72.27).abs() < 1e-9, "{w}");
        assert!((h - w / GOLDEN_RATIO).abs() < 1e-9, "{h}");
        assert!((fs.unwrap() - 10.0 * 72.0 / 72.27).abs() < 1e-9);
        let (w, h, _) = size(
            "[style]\npreset = \"acmart\"\ntext_width = \"7in\"\n[figures.f]\nwidth = \"0.5 text\"\naspect = 2\n",
        )
        .unwrap()
        .unwrap();
        assert!(
            (w - 252.0).abs() < 1e-9 && (h - 126.0).abs() < 1e-9,
            "{w} {h}"
        );
    }

    #[test]
    fn a_style_no_figure_reads_is_an_error() {
        let s = parse("[style]\ncolumn_width = 300\n[figures.f]\nsize = [3, 2]\n");
        assert_eq!(
            check_read(&s)
                .unwrap_err()
                .to_string()
                .lines()
                .next()
                .unwrap(),
            "artifact.toml:2:16: `[style]` does nothing: no figure has `width` (\"column\", \"text\", \"0.5 text\")"
        );
        // A preset gives every figure its typeface; with `font`, only
        // figures with `width` read it.
        let s = parse("[style]\npreset = \"lncs\"\n[figures.f]\nsize = [3, 2]\n");
        assert!(check_read(&s).is_ok());
        let s = parse("[style]\npreset = \"lncs\"\nfont = \"times\"\n[figures.f]\nsize = [3, 2]\n");
        assert_eq!(
            check_read(&s)
                .unwrap_err()
                .to_string()
                .lines()
                .next()
                .unwrap(),
            "artifact.toml:2:10: `[style]` does nothing: no figure has `width` (\"column\", \"text\", \"0.5 text\")"
        );
        let s = parse("[style]\nfont = \"times\"\n");
        assert_eq!(
            check_read(&s)
                .unwrap_err()
                .to_string()
                .lines()
                .next()
                .unwrap(),
            "artifact.toml:2:8: `[style]` does nothing: there is no figure"
        );
        let s = parse("[style]\npreset = \"lncs\"\n[figures.f]\nwidth = \"text\"\n");
        assert!(check_read(&s).is_ok());
    }

    #[test]
    fn each_preset_sets_its_typeface_and_font_overrides_it() {
        let face = |t: &str| style(&parse(t)).map(|s| s.face).map_err(|e| e.to_string());
        assert_eq!(face("[style]\npreset = \"acmart\"\n"), Ok(Face::Libertine));
        assert_eq!(face("[style]\npreset = \"ieeetran\"\n"), Ok(Face::Termes));
        assert_eq!(face("[style]\npreset = \"neurips\"\n"), Ok(Face::Termes));
        assert_eq!(face("[style]\npreset = \"icml\"\n"), Ok(Face::Termes));
        assert_eq!(face("[style]\npreset = \"lncs\"\n"), Ok(Face::LatinModern));
        assert_eq!(
            face("[style]\npreset = \"article\"\n"),
            Ok(Face::LatinModern)
        );
        assert_eq!(face("[style]\ncolumn_width = 300\n"), Ok(Face::DejaVuSans));
        assert_eq!(
            face("[style]\npreset = \"acmart\"\nfont = \"sans\"\n"),
            Ok(Face::DejaVuSans)
        );
        assert_eq!(
            face("[style]\nfont = \"latin-modren\"\n")
                .unwrap_err()
                .lines()
                .next()
                .unwrap(),
            "artifact.toml:2:8: unknown font `latin-modren` (sans, times, libertine, latin-modern); did you mean `latin-modern`?"
        );
        let st = style(&parse("[style]\npreset = \"article\"\n")).unwrap();
        assert!((st.text.unwrap() - 345.0 * BP_PER_TEX_PT).abs() < 1e-9);
        assert_eq!(st.column, st.text);
    }

    #[test]
    fn width_errors_say_what_to_write() {
        assert_eq!(
            size("[figures.f]\nwidth = \"column\"\n")
                .unwrap_err()
                .lines()
                .next()
                .unwrap(),
            "artifact.toml:2:9: `width = \"column\"` needs the document's column width: add `[style]` with `preset` (acmart, ieeetran, neurips, icml, usenix, lncs, article) or `column_width`"
        );
        assert_eq!(
            size("[style]\npreset = \"acmrt\"\n[figures.f]\nwidth = \"column\"\n")
                .unwrap_err()
                .lines()
                .next()
                .unwrap(),
            "artifact.toml:2:10: unknown preset `acmrt` (acmart, ieeetran, neurips, icml, usenix, lncs, article); did you mean `acmart`?"
        );
        assert_eq!(
            size("[style]\npreset = \"icml\"\n[figures.f]\nwidth = \"1.5 text\"\n")
                .unwrap_err()
                .lines()
                .next()
                .unwrap(),
            "artifact.toml:4:9: the fraction of the text width must be above 0 and at most 1, got 1.5"
        );
        assert_eq!(
            size("[figures.f]\ntitle = \"t\"\n")
                .unwrap_err()
                .lines()
                .next()
                .unwrap(),
            "artifact.toml:1:10: a figure needs `size = [width, height]` in inches or `width` (\"column\", \"text\", \"0.5 text\", or a length)"
        );
    }
}

//! SVG output through plotters' SVG backend.
//!
//! plotters rounds coordinates to whole units, so the scene is drawn at
//! [`UNITS_PER_PT`] units per point and the SVG's `width`/`height` are then
//! given in points (the `viewBox` keeps the units): positions keep 0.1 pt
//! precision and the SVG has the figure's physical size. Dashes are drawn as
//! separate segments (the backend has no dash attribute).

use plotters::backend::SVGBackend;
use plotters_backend::text_anchor::{HPos, Pos, VPos};
use plotters_backend::{
    BackendColor, BackendStyle, BackendTextStyle, DrawingBackend, FontFamily, FontTransform,
};

use super::scene::{Prim, Scene, Stroke};
use crate::color::Color;
use crate::error::{Error, Result};
use crate::figures::model::Align;
use crate::font as text;

/// Drawing units per point.
pub const UNITS_PER_PT: f64 = 10.0;

struct Paint {
    color: BackendColor,
    width: u32,
}

impl BackendStyle for Paint {
    fn color(&self) -> BackendColor {
        self.color
    }
    fn stroke_width(&self) -> u32 {
        self.width
    }
}

fn paint(c: Color, width_pt: f64) -> Paint {
    Paint {
        color: BackendColor {
            alpha: c.a,
            rgb: (c.r, c.g, c.b),
        },
        width: (width_pt * UNITS_PER_PT).round().max(1.0) as u32,
    }
}

struct Font {
    face: text::Face,
    size: f64,
    color: BackendColor,
    anchor: Pos,
    transform: FontTransform,
}

impl BackendTextStyle for Font {
    type FontError = std::io::Error;

    fn color(&self) -> BackendColor {
        self.color
    }
    fn size(&self) -> f64 {
        self.size
    }
    fn transform(&self) -> FontTransform {
        self.transform.clone()
    }
    fn anchor(&self) -> Pos {
        self.anchor
    }
    fn family(&self) -> FontFamily<'_> {
        FontFamily::Name(self.face.css())
    }
    fn layout_box(
        &self,
        s: &str,
    ) -> std::result::Result<((i32, i32), (i32, i32)), Self::FontError> {
        let w = text::width_in(self.face, s, self.size / 1.24);
        Ok((
            (0, 0),
            (w.round() as i32, (self.size / 1.24).round() as i32),
        ))
    }
    fn draw<E, F: FnMut(i32, i32, BackendColor) -> std::result::Result<(), E>>(
        &self,
        _: &str,
        _: (i32, i32),
        _: F,
    ) -> std::result::Result<std::result::Result<(), E>, Self::FontError> {
        Ok(Ok(()))
    }
}

fn u(v: f64) -> i32 {
    (v * UNITS_PER_PT).round() as i32
}

fn pt(p: (f64, f64)) -> (i32, i32) {
    (u(p.0), u(p.1))
}

/// Splits a polyline into dash segments (on/off lengths in points).
fn dashes(pts: &[(f64, f64)], pattern: &[f64]) -> Vec<Vec<(f64, f64)>> {
    let mut out = Vec::new();
    let mut cur: Vec<(f64, f64)> = Vec::new();
    let (mut idx, mut left, mut on) = (0usize, pattern[0], true);
    for w in pts.windows(2) {
        let (a, b) = (w[0], w[1]);
        let len = ((b.0 - a.0).powi(2) + (b.1 - a.1).powi(2)).sqrt();
        let mut t = 0.0;
        if on && cur.is_empty() {
            cur.push(a);
        }
        while len - t > left {
            t += left;
            let p = (a.0 + (b.0 - a.0) * t / len, a.1 + (b.1 - a.1) * t / len);
            if on {
                cur.push(p);
                out.push(std::mem::take(&mut cur));
            } else {
                cur = vec![p];
            }
            on = !on;
            idx = (idx + 1) % pattern.len();
            left = pattern[idx];
        }
        left -= len - t;
        if on {
            cur.push(b);
        }
    }
    if on && cur.len() > 1 {
        out.push(cur);
    }
    out
}

fn draw_stroke(b: &mut SVGBackend, pts: &[(f64, f64)], s: &Stroke) -> Result<()> {
    let p = paint(s.color, s.width);
    let runs = match &s.dash {
        Some(pattern) if pattern.iter().all(|x| *x > 0.0) => dashes(pts, pattern),
        _ => vec![pts.to_vec()],
    };
    for run in runs {
        b.draw_path(run.into_iter().map(pt), &p).map_err(err)?;
    }
    Ok(())
}

fn err<E: std::fmt::Debug>(e: E) -> Error {
    Error::msg(format!("svg: {e:?}"))
}

/// Renders the scene as SVG text.
pub fn render(scene: &Scene) -> Result<String> {
    let mut buf = String::new();
    let mut angles: Vec<f64> = Vec::new();
    let (w, h) = (u(scene.width) as u32, u(scene.height) as u32);
    {
        let mut b = SVGBackend::with_string(&mut buf, (w, h));
        for prim in &scene.prims {
            draw_prim(&mut b, prim, scene.face, &mut angles)?;
        }
        b.present().map_err(err)?;
    }
    // Physical size in points; the viewBox keeps the drawing units.
    let header_old = format!("width=\"{w}\" height=\"{h}\"");
    let header_new = format!(
        "width=\"{}pt\" height=\"{}pt\"",
        fmt_pt(scene.width),
        fmt_pt(scene.height)
    );
    let buf = turn_texts(&buf.replacen(&header_old, &header_new, 1), &angles);
    Ok(paint_opacity(&buf))
}

/// Draws one primitive; a turned text's angle goes to `angles` (written
/// into the SVG afterwards).
fn draw_prim(
    b: &mut SVGBackend,
    prim: &Prim,
    face: text::Face,
    angles: &mut Vec<f64>,
) -> Result<()> {
    match prim {
        Prim::Rect {
            x,
            y,
            w,
            h,
            fill,
            stroke,
        } => {
            if let Some(f) = fill {
                b.draw_rect(pt((*x, *y)), pt((x + w, y + h)), &paint(*f, 1.0), true)
                    .map_err(err)?;
            }
            if let Some(s) = stroke {
                let pts = [(*x, *y), (x + w, *y), (x + w, y + h), (*x, y + h), (*x, *y)];
                draw_stroke(b, &pts, s)?;
            }
        }
        Prim::Path {
            pts,
            closed,
            fill,
            stroke,
        } => {
            if let Some(f) = fill {
                b.fill_polygon(pts.iter().copied().map(pt), &paint(*f, 1.0))
                    .map_err(err)?;
            }
            if let Some(s) = stroke {
                let mut p = pts.clone();
                if *closed && let Some(first) = pts.first() {
                    p.push(*first);
                }
                draw_stroke(b, &p, s)?;
            }
        }
        Prim::Circle {
            cx,
            cy,
            r,
            fill,
            stroke,
        } => {
            let radius = (r * UNITS_PER_PT).round().max(1.0) as u32;
            if let Some(f) = fill {
                b.draw_circle(pt((*cx, *cy)), radius, &paint(*f, 1.0), true)
                    .map_err(err)?;
            }
            if let Some(s) = stroke {
                b.draw_circle(pt((*cx, *cy)), radius, &paint(s.color, s.width), false)
                    .map_err(err)?;
            }
        }
        Prim::Text {
            x,
            y,
            text: t,
            size,
            color,
            align,
            vertical,
        } => {
            // Labels are checked where they are made, with their
            // origin; this keeps any other path from writing an SVG
            // that no XML reader accepts.
            drawable(t)?;
            let transform = if *vertical {
                FontTransform::Rotate270
            } else {
                FontTransform::None
            };
            let font = font(face, *size, *color, *align, transform);
            b.draw_text(t, &font, pt((*x, *y))).map_err(err)?;
        }
        Prim::TextRotated {
            x,
            y,
            text: t,
            size,
            color,
            align,
            angle,
        } => {
            drawable(t)?;
            // The top of the line, half a size from the anchor
            // across the turned text; the backend turns about it.
            let r = angle.to_radians();
            let top = (x + r.sin() * size / 2.0, y - r.cos() * size / 2.0);
            // Rewritten to the angle later (the backend knows only
            // quarter turns; nothing else uses this one).
            let font = font(face, *size, *color, *align, FontTransform::Rotate90);
            angles.push(*angle);
            b.draw_text(t, &font, pt(top)).map_err(err)?;
        }
    }
    Ok(())
}

/// An error for a text no XML reader would accept.
fn drawable(t: &str) -> Result<()> {
    match text::undrawable(t) {
        Some(c) => Err(Error::msg(format!(
            "{}: \"{}\"",
            text::undrawable_message(c),
            t.escape_debug()
        ))),
        None => Ok(()),
    }
}

/// The backend's font for a text of `size` points in `face`, anchored at
/// its top.
fn font(
    face: text::Face,
    size: f64,
    color: Color,
    align: Align,
    transform: FontTransform,
) -> Font {
    let h = match align {
        Align::Left => HPos::Left,
        Align::Center => HPos::Center,
        Align::Right => HPos::Right,
    };
    Font {
        face,
        // The backend writes font-size = size / 1.24.
        size: size * UNITS_PER_PT * 1.24,
        color: BackendColor {
            alpha: color.a,
            rgb: (color.r, color.g, color.b),
        },
        anchor: Pos::new(h, VPos::Top),
        transform,
    }
}

/// Writes each turned text's angle into the `rotate(90, ..)` the backend
/// wrote for it, in drawing order.
fn turn_texts(svg: &str, angles: &[f64]) -> String {
    if angles.is_empty() {
        return svg.to_string();
    }
    let mut out = String::with_capacity(svg.len());
    let mut rest = svg;
    for a in angles {
        let Some(i) = rest.find("transform=\"rotate(90, ") else {
            break;
        };
        let cut = i + "transform=\"rotate(".len();
        out.push_str(&rest[..cut]);
        out.push_str(&fmt_pt(*a));
        rest = &rest[cut + 2..];
    }
    out.push_str(rest);
    out
}

/// plotters writes transparency as `opacity`, which SVG defines as group
/// opacity: usvg then makes a transparency group per element and the PDF
/// grows by ~650 bytes per translucent mark (fig2: 4.6 MB). Each element
/// here is either filled or stroked, so `fill-opacity` / `stroke-opacity`
/// paint the same pixels; opaque elements lose the attribute.
fn paint_opacity(svg: &str) -> String {
    let mut out = String::with_capacity(svg.len());
    for line in svg.split_inclusive('\n') {
        let Some(start) = line.find(" opacity=\"") else {
            out.push_str(line);
            continue;
        };
        let rest = &line[start + 10..];
        let end = rest.find('"').map_or(0, |e| e + 1);
        let value = &rest[..end.saturating_sub(1)];
        let stroked = line.starts_with("<polyline")
            || line.starts_with("<line")
            || line.contains("fill=\"none\"");
        out.push_str(&line[..start]);
        if value != "1" {
            let attr = if stroked {
                "stroke-opacity"
            } else {
                "fill-opacity"
            };
            out.push_str(&format!(" {attr}=\"{value}\""));
        }
        out.push_str(&rest[end..]);
    }
    out
}

fn fmt_pt(v: f64) -> String {
    let r = (v * 100.0).round() / 100.0;
    format!("{r}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn group_opacity_becomes_paint_opacity() {
        let svg = "<circle cx=\"1\" opacity=\"0.55\" fill=\"#1F77B4\"/>\n<polyline opacity=\"1\" stroke=\"#000\"/>\n";
        assert_eq!(
            paint_opacity(svg),
            "<circle cx=\"1\" fill-opacity=\"0.55\" fill=\"#1F77B4\"/>\n<polyline stroke=\"#000\"/>\n"
        );
    }

    #[test]
    fn dashes_follow_the_pattern() {
        let d = dashes(&[(0.0, 0.0), (10.0, 0.0)], &[3.0, 2.0]);
        assert_eq!(
            d,
            vec![vec![(0.0, 0.0), (3.0, 0.0)], vec![(5.0, 0.0), (8.0, 0.0)]]
        );
    }

    #[test]
    fn a_label_with_a_control_character_is_refused_not_written() {
        let s = Scene {
            width: 10.0,
            height: 10.0,
            prims: vec![Prim::Text {
                x: 1.0,
                y: 1.0,
                text: "a\u{1b}b".into(),
                size: 10.0,
                color: Color::BLACK,
                align: Align::Left,
                vertical: false,
            }],
            ..Scene::default()
        };
        assert_eq!(
            render(&s).unwrap_err().to_string(),
            "control character U+001B in a label: \"a\\u{1b}b\""
        );
    }

    #[test]
    fn svg_has_the_physical_size_in_points() {
        let s = Scene {
            width: 518.4,
            height: 201.6,
            prims: vec![],
            ..Scene::default()
        };
        let svg = render(&s).unwrap();
        assert!(
            svg.contains("width=\"518.4pt\" height=\"201.6pt\""),
            "{svg}"
        );
        assert!(svg.contains("viewBox=\"0 0 5184 2016\""), "{svg}");
    }
}

//! SVG output through plotters' SVG backend.
//!
//! plotters rounds coordinates to whole units, so the scene is drawn at
//! [`UNITS_PER_PT`] units per point and the SVG's `width`/`height` are then
//! given in points (the `viewBox` keeps the units): positions keep 0.1 pt
//! precision and the SVG has the figure's physical size. The backend has no
//! dash attribute and no arcs: a dashed outline is written here as one
//! `<polyline>` with `stroke-dasharray`, and a wedge (an `arc` mark) as a
//! `<path>` with elliptical arcs, between the backend's runs of elements.

use plotters::backend::SVGBackend;
use plotters_backend::text_anchor::{HPos, Pos, VPos};
use plotters_backend::{
    BackendColor, BackendStyle, BackendTextStyle, DrawingBackend, FontFamily, FontTransform,
};

use super::scene::{Prim, Scene, Stroke};
use super::svg_own::split_own;
use crate::color::Color;
use crate::error::{Error, Result};
use crate::figures::model::Align;
use crate::font as text;

/// Drawing units per point.
pub const UNITS_PER_PT: f64 = 10.0;

pub(super) struct Paint {
    color: BackendColor,
    pub(super) width: u32,
}

impl BackendStyle for Paint {
    fn color(&self) -> BackendColor {
        self.color
    }
    fn stroke_width(&self) -> u32 {
        self.width
    }
}

pub(super) fn paint(c: Color, width_pt: f64) -> Paint {
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

pub(super) fn pt(p: (f64, f64)) -> (i32, i32) {
    (u(p.0), u(p.1))
}

/// The dash pattern of `s` when it has one that SVG can draw.
pub(super) fn dash_of(s: &Stroke) -> Option<&[f64]> {
    s.dash
        .as_deref()
        .filter(|p| !p.is_empty() && p.iter().all(|x| x.is_finite() && *x > 0.0))
}

fn draw_stroke(b: &mut SVGBackend, pts: &[(f64, f64)], s: &Stroke) -> Result<()> {
    b.draw_path(pts.iter().copied().map(pt), &paint(s.color, s.width))
        .map_err(err)
}

fn err<E: std::fmt::Debug>(e: E) -> Error {
    Error::msg(format!("svg: {e:?}"))
}

/// Renders the scene as SVG text.
pub fn render(scene: &Scene) -> Result<String> {
    let mut angles: Vec<f64> = Vec::new();
    let (w, h) = (u(scene.width) as u32, u(scene.height) as u32);
    // The backend's own header and closing tag, around the elements.
    let mut buf = backend_run(&[], (w, h), scene.face, &mut angles)?;
    let close = buf.rfind("</svg>").unwrap_or(buf.len());
    let tail = buf.split_off(close);
    let mut run: Vec<Prim> = Vec::new();
    // A raster `super::render_with` did not make an image of is drawn as
    // vectors (the SVG the PNG is drawn from).
    let prims = scene.prims.iter().flat_map(|p| match p {
        Prim::Raster(inner) => inner.iter().collect::<Vec<_>>(),
        p => vec![p],
    });
    let merge = circles(&scene.prims) > super::svg_own::MERGE_CIRCLES;
    let mut circle_run: Option<super::svg_own::CircleRun> = None;
    for prim in prims {
        if merge
            && let Prim::Circle {
                cx,
                cy,
                r,
                fill,
                stroke,
            } = prim
        {
            if !circle_run
                .as_ref()
                .is_some_and(|c| c.holds(*r, fill, stroke))
            {
                if let Some(c) = circle_run.take() {
                    buf.push_str(&c.svg());
                }
                buf.push_str(&body(&backend_run(&run, (w, h), scene.face, &mut angles)?));
                run.clear();
                circle_run = Some(super::svg_own::CircleRun::new(*r, *fill, stroke.clone()));
            }
            if let Some(c) = circle_run.as_mut() {
                c.push((*cx, *cy));
            }
            continue;
        }
        if let Some(c) = circle_run.take() {
            buf.push_str(&c.svg());
        }
        let (plain, own) = split_own(prim);
        if let Some(p) = plain {
            run.push(p);
        }
        if !own.is_empty() {
            buf.push_str(&body(&backend_run(&run, (w, h), scene.face, &mut angles)?));
            run.clear();
            for e in own {
                buf.push_str(&e);
            }
        }
    }
    if let Some(c) = circle_run.take() {
        buf.push_str(&c.svg());
    }
    buf.push_str(&body(&backend_run(&run, (w, h), scene.face, &mut angles)?));
    buf.push_str(&tail);
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

/// The circles of `prims`, those of rasterized layers included.
fn circles(prims: &[Prim]) -> usize {
    prims
        .iter()
        .map(|p| match p {
            Prim::Circle { .. } => 1,
            Prim::Raster(inner) => circles(inner),
            _ => 0,
        })
        .sum()
}

/// `prims` drawn by plotters' backend: a whole SVG document.
fn backend_run(
    prims: &[Prim],
    size: (u32, u32),
    face: text::Face,
    angles: &mut Vec<f64>,
) -> Result<String> {
    let mut buf = String::new();
    {
        let mut b = SVGBackend::with_string(&mut buf, size);
        for prim in prims {
            draw_prim(&mut b, prim, face, angles)?;
        }
        b.present().map_err(err)?;
    }
    Ok(buf)
}

/// The elements of a document [`backend_run`] wrote: its lines between
/// the `<svg>` line and the closing tag.
fn body(doc: &str) -> String {
    let start = doc.find('\n').map_or(doc.len(), |i| i + 1);
    let end = doc.rfind("</svg>").unwrap_or(doc.len()).max(start);
    doc[start..end].to_string()
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
        // Written by `split_own` (an image) or flattened by `render`.
        Prim::Raster(_) | Prim::Image { .. } => {}
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
        // Written by `split_own`, never handed to the backend.
        Prim::Wedge { .. } => {}
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
fn font(face: text::Face, size: f64, color: Color, align: Align, transform: FontTransform) -> Font {
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

pub(super) fn fmt_pt(v: f64) -> String {
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
    fn a_dashed_line_is_one_polyline_with_a_dasharray_not_one_per_dash() {
        let s = Scene {
            width: 20.0,
            height: 10.0,
            prims: vec![Prim::Path {
                pts: vec![(0.0, 5.0), (20.0, 5.0)],
                closed: false,
                fill: None,
                stroke: Some(Stroke {
                    color: Color::BLACK,
                    width: 1.0,
                    dash: Some(vec![3.7, 1.6]),
                }),
            }],
            ..Scene::default()
        };
        let svg = render(&s).unwrap();
        assert_eq!(svg.matches("<polyline").count(), 1, "{svg}");
        assert!(
            svg.contains("<polyline fill=\"none\" stroke=\"#000000\" stroke-width=\"10\" stroke-dasharray=\"37,16\" points=\"0,50 200,50 \"/>"),
            "{svg}"
        );
        assert!(svg.ends_with("</svg>\n"), "{svg}");
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

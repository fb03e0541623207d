//! A rasterized layer's primitives painted straight onto a pixmap
//! (tiny-skia, as resvg paints), without an SVG in between.
//!
//! The SVG route held every mark as an XML element: a layer of 10⁶ points
//! was over usvg's limit of 10⁶ elements (the figure failed), and a
//! polyline of 10⁶ vertices was filled as one path whose every scanline
//! crossed most of its edges (minutes). Here a circle is one shared path
//! moved into place, and a long polyline is stroked in runs of
//! [`RUN_POINTS`] vertices, each sharing its first vertex with the
//! previous run's last: the pixels are the same but where two runs meet,
//! which gets two butt ends instead of one join (a translucent line is a
//! shade darker on that one vertex).

use std::collections::HashMap;

use resvg::tiny_skia::{
    FillRule, LineCap, LineJoin, Paint, Path, PathBuilder, Pixmap, Rect, Stroke as SkStroke,
    StrokeDash, Transform,
};

use super::scene::{Prim, Stroke};
use crate::color::Color;
use crate::error::{Error, Result};

/// Vertices of a polyline stroked as one path.
pub const RUN_POINTS: usize = 256;

/// The PNG of `prims` drawn alone on a transparent canvas of `width` x
/// `height` points at `dpi`, or `None` when one of them is not a
/// rectangle, polyline, polygon or circle (a wedge, a text: the caller
/// draws those through the SVG). Errors as [`super::png::render`] does for
/// an image over [`crate::plan::formats::MAX_PIXELS`].
pub fn paint_png(prims: &[Prim], (width, height): (f64, f64), dpi: f64) -> Result<Option<Vec<u8>>> {
    let plain = |p: &Prim| {
        matches!(
            p,
            Prim::Rect { .. } | Prim::Path { .. } | Prim::Circle { .. }
        )
    };
    if !prims.iter().all(plain) {
        return Ok(None);
    }
    let (w, h) = super::png::pixels(width, height, dpi);
    super::png::check_pixels(w, h)?;
    let mut pixmap = Pixmap::new(w, h)
        .ok_or_else(|| Error::msg(format!("cannot make a {w} x {h} pixel image")))?;
    let scale = Transform::from_scale(w as f32 / width as f32, h as f32 / height as f32);
    let mut circles: HashMap<u64, Option<Path>> = HashMap::new();
    let mut sprites = Sprites::new();
    for prim in prims {
        paint_prim(&mut pixmap, prim, scale, &mut circles, &mut sprites);
    }
    super::png::encode(&pixmap, dpi)
        .map(Some)
        .map_err(|e| Error::msg(format!("cannot write the PNG: {e}")))
}

/// A solid paint of `c`, anti-aliased.
fn solid(c: Color) -> Paint<'static> {
    let mut p = Paint::default();
    let a = (c.a.clamp(0.0, 1.0) * 255.0).round() as u8;
    p.set_color_rgba8(c.r, c.g, c.b, a);
    p.anti_alias = true;
    p
}

/// tiny-skia's stroke for `s`: butt ends and miter joins, as the SVG's
/// default; its dash pattern when it has one SVG could draw.
fn sk_stroke(s: &Stroke) -> SkStroke {
    SkStroke {
        width: s.width.max(0.0) as f32,
        line_cap: LineCap::Butt,
        line_join: LineJoin::Miter,
        dash: super::svg::dash_of(s)
            .and_then(|d| StrokeDash::new(d.iter().map(|x| *x as f32).collect(), 0.0)),
        ..SkStroke::default()
    }
}

/// A path through `pts` (closed: back to the first), `None` for fewer
/// than two points or a non-finite one.
fn polyline(pts: &[(f64, f64)], closed: bool) -> Option<Path> {
    let mut b = PathBuilder::with_capacity(pts.len() + 1, pts.len());
    let (first, rest) = pts.split_first()?;
    b.move_to(first.0 as f32, first.1 as f32);
    for p in rest {
        b.line_to(p.0 as f32, p.1 as f32);
    }
    if closed {
        b.close();
    }
    b.finish()
}

fn paint_prim(
    pixmap: &mut Pixmap,
    prim: &Prim,
    scale: Transform,
    circles: &mut HashMap<u64, Option<Path>>,
    sprites: &mut Sprites,
) {
    match prim {
        Prim::Rect {
            x,
            y,
            w,
            h,
            fill,
            stroke,
        } => {
            let Some(path) = Rect::from_xywh(*x as f32, *y as f32, *w as f32, *h as f32)
                .map(PathBuilder::from_rect)
            else {
                return;
            };
            if let Some(f) = fill {
                pixmap.fill_path(&path, &solid(*f), FillRule::Winding, scale, None);
            }
            if let Some(s) = stroke
                && let Some(outline) = polyline_of(&path)
            {
                pixmap.stroke_path(&outline, &solid(s.color), &sk_stroke(s), scale, None);
            }
        }
        Prim::Path {
            pts,
            closed,
            fill,
            stroke,
        } => {
            if let Some(f) = fill
                && let Some(path) = polyline(pts, true)
            {
                pixmap.fill_path(&path, &solid(*f), FillRule::Winding, scale, None);
            }
            if let Some(s) = stroke {
                let (paint, sk) = (solid(s.color), sk_stroke(s));
                // A dash pattern runs on across the whole line: one path.
                let run = match *closed || sk.dash.is_some() {
                    true => usize::MAX,
                    false => RUN_POINTS,
                };
                let mut start = 0;
                while start + 1 < pts.len() {
                    let end = start.saturating_add(run).min(pts.len() - 1);
                    if let Some(path) = polyline(&pts[start..=end], *closed) {
                        pixmap.stroke_path(&path, &paint, &sk, scale, None);
                    }
                    start = end;
                }
            }
        }
        Prim::Circle {
            cx,
            cy,
            r,
            fill,
            stroke,
        } => {
            if stroke.as_ref().is_none_or(|s| s.dash.is_none()) {
                stamp(pixmap, sprites, (*cx, *cy, *r), fill, stroke, scale);
                return;
            }
            // One path per radius, at the origin, moved to each centre.
            let Some(path) = circles
                .entry(r.to_bits())
                .or_insert_with(|| PathBuilder::from_circle(0.0, 0.0, r.max(0.0) as f32))
                .as_ref()
            else {
                return;
            };
            let at = scale.pre_translate(*cx as f32, *cy as f32);
            if let Some(f) = fill {
                pixmap.fill_path(path, &solid(*f), FillRule::Winding, at, None);
            }
            if let Some(s) = stroke {
                pixmap.stroke_path(path, &solid(s.color), &sk_stroke(s), at, None);
            }
        }
        _ => {}
    }
}

/// Positions within a pixel a circle's image is drawn at, each way.
const PHASES: usize = 4;

/// The images of circles, by radius, fill and outline, each drawn once
/// at every [`PHASES`]² offset within a pixel (a circle is then copied,
/// not filled again: a fill costs about 12 µs, a copy of its pixels a
/// fraction of that) with the offset from the pixel grid nearest its own.
type Sprites = HashMap<SpriteKey, Vec<Option<Pixmap>>>;

/// A circle's radius, fill and outline (colour and width), by their bits.
type SpriteKey = (
    u64,
    Option<(u8, u8, u8, u64)>,
    Option<(u8, u8, u8, u64, u64)>,
);

/// A circle's colour and outline as a key of [`Sprites`].
fn sprite_key(r: f64, fill: &Option<Color>, stroke: &Option<Stroke>) -> SpriteKey {
    (
        r.to_bits(),
        fill.map(|c| (c.r, c.g, c.b, c.a.to_bits())),
        stroke.as_ref().map(|s| {
            (
                s.color.r,
                s.color.g,
                s.color.b,
                s.color.a.to_bits(),
                s.width.to_bits(),
            )
        }),
    )
}

/// Paints the circle of radius `r` at (`cx`, `cy`) points as a copy of its
/// image at the nearest offset within a pixel, composited source-over,
/// as a fill and then an outline painted on the canvas would be.
fn stamp(
    pixmap: &mut Pixmap,
    sprites: &mut Sprites,
    (cx, cy, r): (f64, f64, f64),
    fill: &Option<Color>,
    stroke: &Option<Stroke>,
    scale: Transform,
) {
    let (x, y) = (f64::from(scale.sx) * cx, f64::from(scale.sy) * cy);
    if !(x.is_finite() && y.is_finite() && r.is_finite()) {
        return;
    }
    let half_stroke = stroke.as_ref().map_or(0.0, |s| s.width.max(0.0) / 2.0);
    // The image's margin around the centre, in whole pixels.
    let reach = ((r.max(0.0) + half_stroke) * f64::from(scale.sx.max(scale.sy))).ceil() + 1.0;
    if reach > 256.0 {
        return;
    }
    let m = reach as i64;
    let (fx, fy) = (x.floor(), y.floor());
    let phase = |f: f64| ((f * PHASES as f64).round() as usize).min(PHASES - 1);
    let (px, py) = (phase(x - fx), phase(y - fy));
    let images = sprites
        .entry(sprite_key(r, fill, stroke))
        .or_insert_with(|| vec![None; PHASES * PHASES]);
    let image = &mut images[py * PHASES + px];
    if image.is_none() {
        *image = sprite(m, (px, py), r, fill, stroke, scale);
    }
    let Some(image) = image.as_ref() else {
        return;
    };
    blend(pixmap, image, (fx as i64 - m, fy as i64 - m));
}

/// The image of one circle centred at pixel (`m`, `m`) plus the phase's
/// offset, on a transparent square of side `2m + 1`.
fn sprite(
    m: i64,
    (px, py): (usize, usize),
    r: f64,
    fill: &Option<Color>,
    stroke: &Option<Stroke>,
    scale: Transform,
) -> Option<Pixmap> {
    let side = (2 * m + 1) as u32;
    let mut img = Pixmap::new(side, side)?;
    let path = PathBuilder::from_circle(0.0, 0.0, r.max(0.0) as f32)?;
    let at = Transform::from_translate(
        m as f32 + px as f32 / PHASES as f32,
        m as f32 + py as f32 / PHASES as f32,
    )
    .pre_scale(scale.sx, scale.sy);
    if let Some(f) = fill {
        img.fill_path(&path, &solid(*f), FillRule::Winding, at, None);
    }
    if let Some(s) = stroke {
        img.stroke_path(&path, &solid(s.color), &sk_stroke(s), at, None);
    }
    Some(img)
}

/// `image` composited source-over onto `pixmap` with its top left at
/// pixel `at` (premultiplied RGBA; what falls outside is cut).
fn blend(pixmap: &mut Pixmap, image: &Pixmap, at: (i64, i64)) {
    let (w, h) = (i64::from(pixmap.width()), i64::from(pixmap.height()));
    let side = i64::from(image.width());
    let src = image.data();
    let dst = pixmap.data_mut();
    for row in 0..side {
        let y = at.1 + row;
        if y < 0 || y >= h {
            continue;
        }
        for col in 0..side {
            let x = at.0 + col;
            if x < 0 || x >= w {
                continue;
            }
            let s = ((row * side + col) * 4) as usize;
            let a = u32::from(src[s + 3]);
            if a == 0 {
                continue;
            }
            let d = ((y * w + x) * 4) as usize;
            for k in 0..4 {
                let under = u32::from(dst[d + k]) * (255 - a);
                dst[d + k] = (u32::from(src[s + k]) + (under + 127) / 255).min(255) as u8;
            }
        }
    }
}

/// A rectangle's path closed explicitly (its four corners and back), so a
/// stroke has a join at every corner.
fn polyline_of(rect: &Path) -> Option<Path> {
    let b = rect.bounds();
    let (l, t, r, bo) = (b.left(), b.top(), b.right(), b.bottom());
    let pts = [(l, t), (r, t), (r, bo), (l, bo)];
    let mut pb = PathBuilder::new();
    pb.move_to(pts[0].0, pts[0].1);
    for p in &pts[1..] {
        pb.line_to(p.0, p.1);
    }
    pb.close();
    pb.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decode(png: &[u8]) -> (u32, u32, Vec<u8>) {
        let dec = ::png::Decoder::new(std::io::Cursor::new(png));
        let mut reader = dec.read_info().expect("a png");
        let mut buf = vec![0; reader.output_buffer_size().expect("a size")];
        let info = reader.next_frame(&mut buf).expect("a frame");
        buf.truncate(info.buffer_size());
        (info.width, info.height, buf)
    }

    fn alpha_at(img: &(u32, u32, Vec<u8>), x: u32, y: u32) -> u8 {
        img.2[((y * img.0 + x) * 4 + 3) as usize]
    }

    #[test]
    fn a_circle_is_painted_where_it_is_and_nowhere_else() {
        let prims = vec![Prim::Circle {
            cx: 18.0,
            cy: 18.0,
            r: 4.0,
            fill: Some(Color::rgb(255, 0, 0)),
            stroke: None,
        }];
        // 72 points at 72 dpi: one pixel a point.
        let png = paint_png(&prims, (72.0, 36.0), 72.0).unwrap().unwrap();
        let img = decode(&png);
        assert_eq!((img.0, img.1), (72, 36));
        assert_eq!(alpha_at(&img, 18, 18), 255);
        assert_eq!(
            &img.2[(18 * 72 + 18) * 4..(18 * 72 + 18) * 4 + 3],
            &[255, 0, 0]
        );
        assert_eq!(alpha_at(&img, 40, 18), 0);
    }

    #[test]
    fn a_long_polyline_is_stroked_in_runs_that_meet() {
        // A zigzag of 1,000 vertices across the width: every run drawn.
        let pts: Vec<(f64, f64)> = (0..1000)
            .map(|i| (i as f64 * 0.1, if i % 2 == 0 { 10.0 } else { 30.0 }))
            .collect();
        let prims = vec![Prim::Path {
            pts,
            closed: false,
            fill: None,
            stroke: Some(Stroke {
                color: Color::rgb(0, 0, 0),
                width: 1.0,
                dash: None,
            }),
        }];
        let img = decode(&paint_png(&prims, (100.0, 40.0), 72.0).unwrap().unwrap());
        // Columns near the start, middle and end (runs 1, 2 and 4) are inked.
        for x in [5, 50, 95] {
            assert!((10..30).any(|y| alpha_at(&img, x, y) > 0), "column {x}");
        }
    }

    #[test]
    fn a_text_is_left_to_the_svg_route() {
        let prims = vec![Prim::Text {
            x: 1.0,
            y: 1.0,
            text: "a".into(),
            size: 8.0,
            color: Color::rgb(0, 0, 0),
            align: crate::figures::model::Align::Left,
            vertical: false,
        }];
        assert_eq!(paint_png(&prims, (10.0, 10.0), 72.0).unwrap(), None);
    }
}

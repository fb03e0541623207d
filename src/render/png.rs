//! PNG output: the figure's SVG rasterised by resvg (tiny-skia) at the
//! chosen dpi, with the bundled fonts only (the same tree the PDF is drawn
//! from). The PNG encoder writes no time or other varying chunk, so the
//! bytes are the same on every run.

use crate::color::Color;
use crate::error::{Error, Result};
use crate::font::Face;
use crate::plan::formats::MAX_PIXELS;

/// The pixel size of a `width` x `height` points figure at `dpi`, each side
/// rounded to whole pixels (at least 1).
pub fn pixels(width: f64, height: f64, dpi: f64) -> (u32, u32) {
    let px = |pt: f64| (pt / 72.0 * dpi).round().max(1.0) as u32;
    (px(width), px(height))
}

/// A PNG of `svg`, `width` x `height` points, at `dpi`, drawn over
/// `background` (none: transparent), its text set in `face` (see
/// [`super::pdf::parse_svg`]). Errors when the image would exceed
/// [`MAX_PIXELS`] (naming the size and what to lower).
pub fn render(
    svg: &str,
    (width, height): (f64, f64),
    dpi: f64,
    background: Option<Color>,
    face: Face,
) -> Result<Vec<u8>> {
    let (w, h) = pixels(width, height, dpi);
    check_pixels(w, h)?;
    let tree = super::pdf::parse_svg(svg, face)?;
    let mut pixmap = resvg::tiny_skia::Pixmap::new(w, h)
        .ok_or_else(|| Error::msg(format!("cannot make a {w} x {h} pixel image")))?;
    if let Some(c) = background {
        let a = (c.a.clamp(0.0, 1.0) * 255.0).round() as u8;
        pixmap.fill(resvg::tiny_skia::Color::from_rgba8(c.r, c.g, c.b, a));
    }
    let size = tree.size();
    let transform =
        resvg::tiny_skia::Transform::from_scale(w as f32 / size.width(), h as f32 / size.height());
    resvg::render(&tree, transform, &mut pixmap.as_mut());
    encode(&pixmap, dpi).map_err(|e| Error::msg(format!("cannot write the PNG: {e}")))
}

/// An error when a `w` x `h` pixel image exceeds [`MAX_PIXELS`], naming
/// the size and what to lower.
pub fn check_pixels(w: u32, h: u32) -> Result<()> {
    if f64::from(w) * f64::from(h) > MAX_PIXELS {
        return Err(Error::msg(format!(
            "the PNG would be {w} x {h} pixels, more than {} million: lower `dpi` in [output] or the figure's size",
            MAX_PIXELS / 1e6
        )));
    }
    Ok(())
}

/// Pixels per metre at `dpi` (rounded, as Pillow writes matplotlib's).
fn per_metre(dpi: f64) -> u32 {
    (dpi / 0.0254).round().clamp(1.0, f64::from(u32::MAX)) as u32
}

/// 8-bit RGBA with straight alpha and a pHYs chunk giving the dpi, so a
/// word processor or LaTeX sizes the image as the figure (tiny-skia's own
/// encoder writes no pHYs: the image came out at 72 or 96 dpi).
pub(super) fn encode(
    pixmap: &resvg::tiny_skia::Pixmap,
    dpi: f64,
) -> std::result::Result<Vec<u8>, png::EncodingError> {
    let mut rgba = Vec::with_capacity(pixmap.data().len());
    for p in pixmap.pixels() {
        let c = p.demultiply();
        rgba.extend_from_slice(&[c.red(), c.green(), c.blue(), c.alpha()]);
    }
    let mut out = Vec::new();
    {
        let mut enc = png::Encoder::new(&mut out, pixmap.width(), pixmap.height());
        enc.set_color(png::ColorType::Rgba);
        enc.set_depth(png::BitDepth::Eight);
        let ppm = per_metre(dpi);
        enc.set_pixel_dims(Some(png::PixelDimensions {
            xppu: ppm,
            yppu: ppm,
            unit: png::Unit::Meter,
        }));
        let mut w = enc.write_header()?;
        w.write_image_data(&rgba)?;
        w.finish()?;
    }
    Ok(out)
}

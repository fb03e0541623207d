//! Rendering: a resolved figure laid out ([`layout`]) into a [`scene`],
//! written as SVG through plotters ([`svg`]), as vector PDF through krilla
//! ([`pdf`]) and as PNG through resvg ([`png`]), as `[output] formats`
//! says ([`crate::plan::formats`]).

pub mod axis;

pub mod colorbar;
pub mod geometry;
pub mod grid;
pub mod hatch;
pub mod labels;
pub mod layout;
pub mod lint;
mod margins;
pub mod pdf;
pub mod place;
pub mod png;
mod raster;
pub mod scene;
pub mod svg;
mod svg_own;

use crate::color::Color;
use crate::error::Result;
use crate::figures::model::Plot;
use crate::plan::formats::Formats;

/// How a figure is written: which files, and what lies under it.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// The files to write and the PNG's dpi.
    pub formats: Formats,
    /// A colour painted over the whole canvas first (none: transparent).
    pub background: Option<Color>,
    /// The colour a PNG is rasterised onto (none: transparent); the
    /// `background`, when one is painted, covers it.
    pub png_background: Option<Color>,
    /// The PDF's document title (the figure's title, else its name).
    pub title: String,
}

/// The rendered files of one figure.
#[derive(Debug, Clone)]
pub struct Rendered {
    /// `NAME.svg`.
    pub svg: Vec<u8>,
    /// `NAME.pdf`.
    pub pdf: Vec<u8>,
    /// What layout could not do cleanly, for notes: labels that still
    /// overlap, and what [`lint::problems`] finds (text off the canvas,
    /// texts on each other).
    pub notes: Vec<String>,
}

/// Lays out and renders a figure to SVG and PDF.
pub fn render(plot: &Plot) -> Result<Rendered> {
    let opts = Options {
        title: plot.title.clone().unwrap_or_default(),
        ..Options::default()
    };
    let (files, notes) = render_with(plot, &opts)?;
    let mut files = files.into_iter();
    let (_, svg) = files.next().expect("svg is on");
    let (_, pdf) = files.next().expect("pdf is on");
    Ok(Rendered { svg, pdf, notes })
}

/// The files of a figure as (extension, bytes), with its notes.
pub type Files = (Vec<(&'static str, Vec<u8>)>, Vec<String>);

/// Lays out and renders a figure to the files `opts` asks for, as
/// (extension, bytes) in [`crate::plan::formats::KNOWN`]'s order, with what layout could
/// not do cleanly as notes (see [`Rendered::notes`]). The SVG is made even
/// when not written: the PDF and the PNG are drawn from it.
pub fn render_with(plot: &Plot, opts: &Options) -> Result<Files> {
    let (mut scene, mut notes) = layout::layout_notes(plot);
    notes.extend(lint::problems(&scene));
    if let Some(bg) = opts.background {
        scene.prims.insert(
            0,
            scene::Prim::Rect {
                x: 0.0,
                y: 0.0,
                w: scene.width,
                h: scene.height,
                fill: Some(bg),
                stroke: None,
            },
        );
    }
    let f = &opts.formats;
    // The PNG is drawn from the vectors; the SVG and PDF hold each
    // rasterized layer as an image at the PNG's dpi.
    let rasters = scene
        .prims
        .iter()
        .any(|p| matches!(p, scene::Prim::Raster(_)));
    let vector_svg = match rasters && f.png {
        true => Some(svg::render(&scene)?),
        false => None,
    };
    if rasters {
        rasterize(&mut scene, f.dpi)?;
    }
    let svg = svg::render(&scene)?;
    let mut out = Vec::new();
    if f.pdf {
        out.push((
            "pdf",
            pdf::render(&svg, plot.width, plot.height, &opts.title, plot.face)?,
        ));
    }
    if f.png {
        out.push((
            "png",
            png::render(
                vector_svg.as_deref().unwrap_or(&svg),
                (plot.width, plot.height),
                f.dpi,
                opts.png_background,
                plot.face,
            )?,
        ));
    }
    if f.svg {
        out.insert(0, ("svg", svg.into_bytes()));
    }
    Ok((out, notes))
}

/// Each [`scene::Prim::Raster`] of `scene` made an image at `dpi`: its
/// primitives drawn alone on a transparent canvas of the figure's size
/// (painted directly, [`raster`]; through an SVG of them when they hold a
/// wedge or a text).
fn rasterize(scene: &mut scene::Scene, dpi: f64) -> Result<()> {
    for prim in scene.prims.iter_mut() {
        let scene::Prim::Raster(inner) = prim else {
            continue;
        };
        if let Some(png) = raster::paint_png(inner, (scene.width, scene.height), dpi)? {
            *prim = scene::Prim::Image {
                w: scene.width,
                h: scene.height,
                png: std::sync::Arc::new(png),
            };
            continue;
        }
        let alone = scene::Scene {
            width: scene.width,
            height: scene.height,
            prims: std::mem::take(inner),
            legends: Vec::new(),
            marks: Vec::new(),
            face: scene.face,
        };
        let svg = svg::render(&alone)?;
        let png = png::render(&svg, (scene.width, scene.height), dpi, None, scene.face)?;
        *prim = scene::Prim::Image {
            w: scene.width,
            h: scene.height,
            png: std::sync::Arc::new(png),
        };
    }
    Ok(())
}

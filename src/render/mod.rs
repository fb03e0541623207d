//! Rendering: a resolved figure laid out ([`layout`]) into a [`scene`],
//! written as SVG through plotters ([`svg`]) and as vector PDF through
//! krilla ([`pdf`]).

pub mod axis;
pub mod color;
pub mod colorbar;
pub mod geometry;
pub mod hatch;
pub mod labels;
pub mod layout;
pub mod lint;
mod margins;
pub mod pdf;
pub mod place;
pub mod scene;
pub mod svg;
pub mod text;
pub mod tickfmt;
pub mod ticks;

use crate::error::Result;
use crate::figures::model::Plot;

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
    let (scene, mut notes) = layout::layout_notes(plot);
    notes.extend(lint::problems(&scene));
    let svg = svg::render(&scene)?;
    let pdf = pdf::render(&svg, plot.width, plot.height)?;
    Ok(Rendered {
        svg: svg.into_bytes(),
        pdf,
        notes,
    })
}

//! Vector PDF from the SVG, through usvg and krilla-svg.
//!
//! krilla writes identical bytes on every run (svg2pdf, its predecessor,
//! wrote fonts in HashMap order). Text stays text: the figure's bundled
//! face (`crate::font::Face`) is subset and embedded. The font database
//! holds only that face and DejaVu Sans, with every generic family mapped
//! to the face, so no system font can change the output on another
//! machine.
//!
//! The file says PDF 1.5 (krilla's `PdfVersion::Pdf15`): pdflatex includes
//! PDFs up to 1.5 without a warning (its default `\pdfminorversion` is 5),
//! and a figure uses nothing newer. Its metadata holds a Title and nothing
//! that varies: no dates, and the document ID is a hash of the content.

use std::sync::{Arc, OnceLock};

use krilla::SerializeSettings;
use krilla::configure::{ConfigurationBuilder, PdfVersion};
use krilla::geom::Size;
use krilla::metadata::Metadata;
use krilla::page::PageSettings;
use krilla_svg::{SurfaceExt, SvgSettings};
use usvg::fontdb;

use crate::error::{Error, Result};
use crate::font::Face;

/// The font database of `face`: the face and DejaVu Sans (the fallback for
/// a character the face lacks), every generic family mapped to the face, so
/// an SVG's `serif` or `sans-serif` finds it and no system font is read.
fn font_db(face: Face) -> Arc<fontdb::Database> {
    static DBS: [OnceLock<Arc<fontdb::Database>>; 4] = [
        OnceLock::new(),
        OnceLock::new(),
        OnceLock::new(),
        OnceLock::new(),
    ];
    DBS[face as usize]
        .get_or_init(|| {
            let mut db = fontdb::Database::new();
            db.load_font_data(face.bytes().to_vec());
            // The family as the font's name table gives it (what usvg
            // matches the SVG's first name against).
            let family = db
                .faces()
                .next()
                .and_then(|f| f.families.first())
                .map_or_else(|| face.family().to_string(), |f| f.0.clone());
            if face != Face::DejaVuSans {
                db.load_font_data(Face::DejaVuSans.bytes().to_vec());
            }
            db.set_sans_serif_family(family.clone());
            db.set_serif_family(family.clone());
            db.set_monospace_family(family.clone());
            db.set_cursive_family(family.clone());
            db.set_fantasy_family(family);
            Arc::new(db)
        })
        .clone()
}

/// Parses SVG text with the bundled fonts only, `face` the default.
pub fn parse_svg(svg: &str, face: Face) -> Result<usvg::Tree> {
    let opt = usvg::Options {
        font_family: face.family().to_string(),
        fontdb: font_db(face),
        ..usvg::Options::default()
    };
    usvg::Tree::from_str(svg, &opt).map_err(|e| match e {
        // usvg reads at most 10⁶ elements: one a vector point.
        usvg::Error::ElementsLimitReached | usvg::Error::ParsingFailed(_)
            if svg.len() > 10_000_000 && e.to_string().contains("limit") =>
        {
            Error::msg(
                "the figure draws more than 1,000,000 vector marks, more than a PDF or PNG \
                 is made from: `rasterize = true` on the layer with the most marks draws \
                 them as one image",
            )
        }
        e => Error::msg(format!("cannot read the SVG: {e}")),
    })
}

/// A one-page PDF 1.5 of `svg`, `width` x `height` points, its text in
/// `face`, with document title `title` (none when empty).
pub fn render(svg: &str, width: f64, height: f64, title: &str, face: Face) -> Result<Vec<u8>> {
    let tree = parse_svg(svg, face)?;
    let size = Size::from_wh(width as f32, height as f32)
        .ok_or_else(|| Error::msg(format!("invalid page size {width} x {height}")))?;
    let settings = SerializeSettings {
        configuration: ConfigurationBuilder::new()
            .with_version(PdfVersion::Pdf15)
            .finish()
            .map_err(|e| Error::msg(format!("krilla refused PDF 1.5: {e:?}")))?,
        ..SerializeSettings::default()
    };
    let mut doc = krilla::Document::new_with(settings);
    if !title.is_empty() {
        doc.set_metadata(Metadata::new().title(title.to_string()));
    }
    {
        let mut page = doc.start_page_with(PageSettings::new(size));
        let mut surface = page.surface();
        surface
            .draw_svg(&tree, size, SvgSettings::default())
            .ok_or_else(|| Error::msg("krilla could not draw the SVG"))?;
        surface.finish();
        page.finish();
    }
    doc.finish()
        .map_err(|e| Error::msg(format!("cannot write the PDF: {e:?}")))
}

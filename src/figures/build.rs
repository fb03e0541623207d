//! One figure built: its sizes, its layers' rows, every panel's marks,
//! then each panel's axes and legend around them.

use super::rows::LayerRows;
use std::collections::BTreeSet;
use std::sync::Arc;

use super::layers::CsvRecord;
use super::model::*;
use super::panels::Panels;
use super::{Figure, Outcome, PT_PER_IN, colorscale, data_csv, eval_number, facet, label};
use crate::error::Result;
use crate::expr::Globals;
use crate::plan::channels::takes_figure_scheme;
use crate::plan::{FigurePlan, sizing};
use crate::spec::{FigureSpec, LoadedSpec, PanelSpec, value};
use crate::tables::Catalog;

/// One figure being built: its plan, the tables and the numbers.
pub(super) struct Build<'a, 's> {
    pub(super) fp: &'a FigurePlan<'s>,
    pub(super) spec: &'s LoadedSpec,
    pub(super) f: &'s FigureSpec,
    pub(super) cat: &'a Catalog<'a>,
    pub(super) globals: &'a Arc<Globals>,
    pub(super) palette: &'a super::palette::Palette<'a, 's>,
}

/// A figure's sizes in points: width, height, base font, small font (tick
/// labels, legend) and title font.
pub(super) struct Sizes {
    pub(super) width: f64,
    pub(super) height: f64,
    pub(super) font: f64,
    pub(super) small: f64,
    pub(super) title: f64,
}

/// The rows of every layer of every panel (`None`: skipped), the sources
/// read, the notes of skipped layers, and how many data layers have rows.
struct Resolved {
    rows: Vec<Vec<Option<LayerRows>>>,
    sources: BTreeSet<String>,
    notes: Vec<String>,
    drawn: usize,
}

impl<'a, 's> Build<'a, 's> {
    pub(super) fn run(&self) -> Result<Outcome> {
        let (spec, f) = (self.spec, self.f);
        let sizes = self.sizes()?;
        let title = self
            .fp
            .title
            .as_ref()
            .map(|t| label(spec, t, self.globals))
            .transpose()?;
        let spines = super::spines(spec, f)?;
        let scheme = self.scheme()?;
        let single;
        let mut panel_specs: Vec<(&PanelSpec, std::ops::Range<usize>)> = match &f.panels {
            Some(ps) => {
                if f.layers.is_some()
                    || f.x.is_some()
                    || f.y.is_some()
                    || f.legend.is_some()
                    || f.grid.is_some()
                {
                    return Err(spec.error(self.fp.figure.span(), "a figure with `panels` puts `x`, `y`, `layers`, `legend` and `grid` inside each panel"));
                }
                ps.iter().map(|p| (p.get_ref(), p.span())).collect()
            }
            None => {
                single = PanelSpec {
                    title: None,
                    x: f.x.clone().unwrap_or_default(),
                    y: f.y.clone().unwrap_or_default(),
                    layers: Vec::new(),
                    legend: f.legend.clone(),
                    grid: f.grid.clone(),
                };
                vec![(&single, self.fp.figure.span())]
            }
        };
        let mut layout = self.layout(panel_specs.len())?;
        let Resolved {
            rows: mut resolved,
            sources,
            mut notes,
            drawn,
        } = self.resolve_rows(panel_specs.len())?;
        let has_data_layers = (0..panel_specs.len()).any(|pi| {
            self.fp
                .panel_layers(pi)
                .iter()
                .any(|l| l.spec.data.is_some())
        });
        if has_data_layers && drawn == 0 {
            let why = if notes.is_empty() {
                "no layer has data".to_string()
            } else {
                notes.join("; ")
            };
            return Ok(Outcome::Skipped(format!(
                "figure `{}` has nothing to draw: {why}",
                self.fp.name
            )));
        }
        // A faceted figure: the one panel's rows split into one panel per value.
        let mut facets = None;
        let mut all_rows: Vec<Option<LayerRows>> = Vec::new();
        if let (Some(fc), None) = (&f.facet, &f.panels) {
            let layer_list = f.layers.as_deref().unwrap_or(&[]);
            let mut plan = facet::plan(
                spec,
                self.globals,
                f,
                (
                    fc,
                    self.fp.facet.as_ref().expect("compiled with the figure"),
                ),
                f.resolve.as_ref(),
                layer_list,
                &resolved[0],
            )?;
            all_rows = resolved.pop().expect("one panel");
            resolved = plan
                .cells
                .iter_mut()
                .map(|c| std::mem::take(&mut c.rows))
                .collect();
            let one = panel_specs[0].clone();
            panel_specs = vec![one; plan.cells.len()];
            layout = plan.layout;
            facets = Some(plan);
        }
        let ctx = Panels {
            sizes: &sizes,
            scheme: scheme.as_deref(),
            facets: facets.as_ref(),
            all_rows: &all_rows,
        };
        let mut csv_rows: Vec<CsvRecord> = Vec::new();
        let built = self.build_panels(&ctx, &panel_specs, resolved, &mut csv_rows)?;
        let mut dense = Vec::new();
        let (panels, legend) =
            self.finish_panels(&ctx, &panel_specs, built, &mut notes, &mut dense)?;
        Ok(Outcome::Drawn(Box::new(Figure {
            plot: Plot {
                width: sizes.width,
                height: sizes.height,
                title,
                font_size: sizes.font,
                title_size: sizes.title,
                spines,
                layout,
                panels,
                legend,
                face: self.fp.face,
                // tueplots' thinner lines go with its sizing: a figure
                // drawn at the width it prints at.
                look: match self.fp.sized {
                    Some(_) => Look::TUEPLOTS,
                    None => Look::MATPLOTLIB,
                },
            },
            csv: data_csv::write_csv(&csv_rows)?,
            sources,
            notes,
            dense,
        })))
    }

    /// Sized in the document's terms, text defaults to the document's size
    /// and tick labels and legend to 2 pt less (see `sizing`); a `size` in
    /// inches is evaluated over the numbers.
    fn sizes(&self) -> Result<Sizes> {
        let (spec, f) = (self.spec, self.f);
        let (width, height, doc_font) = match self.fp.sized {
            Some(sized) => sized,
            None => {
                let size = f.size.as_ref().expect("figure_size checked it");
                let ends = self.fp.size.as_ref().expect("compiled with the size");
                let ctx = self.globals.context();
                let width = eval_number(spec, &size[0], &ends[0], ctx.clone(), "the width")?;
                crate::spec::bounds::figure_inches(spec, size[0].span(), "width", width)?;
                let height = eval_number(spec, &size[1], &ends[1], ctx, "the height")?;
                crate::spec::bounds::figure_inches(spec, size[1].span(), "height", height)?;
                (width * PT_PER_IN, height * PT_PER_IN, None)
            }
        };
        let font = value(&f.font_size).or(doc_font).unwrap_or(10.0);
        let small = match doc_font {
            Some(_) => (font - sizing::SMALL_OFFSET * sizing::BP_PER_TEX_PT).max(1.0),
            None => font,
        };
        let title = value(&f.title_size).unwrap_or(match doc_font {
            Some(_) => font,
            None => 1.2 * font,
        });
        Ok(Sizes {
            width,
            height,
            font,
            small,
            title,
        })
    }

    /// The figure's `scheme`: a categorical scheme that some layer's colour
    /// scale takes.
    fn scheme(&self) -> Result<Option<String>> {
        let (spec, f) = (self.spec, self.f);
        let Some(s) = &f.scheme else { return Ok(None) };
        if colorscale::categorical(s.get_ref()).is_none() {
            return Err(spec.error(
                s.span(),
                format!(
                    "a figure's `scheme` is a categorical scheme ({}){}; a quantitative scale names its own (`color = {{ field = \"...\", scale = {{ scheme = \"viridis\" }} }}`)",
                    colorscale::CATEGORICAL.join(", "),
                    colorscale::nearest(s.get_ref())
                        .map_or(String::new(), |n| format!("; did you mean `{n}`?"))
                ),
            ));
        }
        let layers = f
            .layers
            .iter()
            .flatten()
            .chain(f.panels.iter().flatten().flat_map(|p| &p.get_ref().layers));
        if !layers
            .filter_map(|l| l.get_ref().color.as_ref())
            .any(|c| takes_figure_scheme(c.get_ref()))
        {
            return Err(spec.error(
                s.span(),
                "the figure's `scheme` colours nothing: no layer has `color = { field = ... }` without its own `range` or `scheme`",
            ));
        }
        Ok(Some(s.get_ref().clone()))
    }

    /// The grid of panels: `layout` or one column, with room for `panels`.
    fn layout(&self, panels: usize) -> Result<(usize, usize)> {
        let layout = self
            .f
            .layout
            .as_ref()
            .map(|l| (l.get_ref()[0], l.get_ref()[1]))
            .unwrap_or((panels, 1));
        if layout.0 * layout.1 < panels || layout.0 == 0 || layout.1 == 0 {
            return Err(self.spec.error(
                self.fp.figure.span(),
                format!(
                    "layout {}x{} has no room for {} panels",
                    layout.0, layout.1, panels
                ),
            ));
        }
        Ok(layout)
    }

    /// First the rows of every layer: a figure whose data layers all come
    /// out empty (or unavailable) is skipped before anything is rendered.
    fn resolve_rows(&self, panels: usize) -> Result<Resolved> {
        let mut out = Resolved {
            rows: Vec::new(),
            sources: BTreeSet::new(),
            notes: Vec::new(),
            drawn: 0,
        };
        for pi in 0..panels {
            let mut per_layer = Vec::new();
            for (li, lp) in self.fp.panel_layers(pi).iter().enumerate() {
                let l = lp.spec;
                let Some(d) = &l.data else {
                    per_layer.push(Some(LayerRows::Own(Vec::new())));
                    continue;
                };
                let table = self.cat.lookup(d.get_ref(), d.span())?;
                out.sources.extend(table.sources.iter().cloned());
                if let Some(reason) = &table.unavailable {
                    out.notes.push(format!(
                        "layer {} ({}) skipped: {reason}",
                        li + 1,
                        l.mark.get_ref()
                    ));
                    per_layer.push(None);
                    continue;
                }
                let rows = match &lp.where_ {
                    Some(w) => LayerRows::Own(w.keep(self.globals, table.rows.clone())?),
                    None => LayerRows::Table(table.clone()),
                };
                if rows.is_empty() {
                    out.notes.push(format!(
                        "layer {} ({}) skipped: table `{}` has no rows{}",
                        li + 1,
                        l.mark.get_ref(),
                        d.get_ref(),
                        if l.where_.is_some() {
                            " where the layer's `where` holds"
                        } else {
                            ""
                        }
                    ));
                    per_layer.push(None);
                    continue;
                }
                out.drawn += 1;
                per_layer.push(Some(rows));
            }
            out.rows.push(per_layer);
        }
        Ok(out)
    }
}

//! One figure built: its sizes, its layers' rows, every panel's marks,
//! then each panel's axes and legend around them.

use std::collections::BTreeSet;
use std::sync::Arc;

use super::layers::{Categories, CsvRecord, Extent, LayerCtx, PanelState};
use super::model::*;
use super::{
    Figure, Outcome, PT_PER_IN, colorscale, data_csv, eval_number, facet, grouped, label,
    resolve_axis, resolve_legend, scales,
};
use crate::error::Result;
use crate::expr::Globals;
use crate::plan::channels::takes_figure_scheme;
use crate::plan::layers::LayerPlan;
use crate::plan::{FigurePlan, sizing};
use crate::spec::{FigureSpec, LoadedSpec, PanelSpec, value};
use crate::tables::Catalog;
use crate::value::Row;

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
struct Sizes {
    width: f64,
    height: f64,
    font: f64,
    small: f64,
    title: f64,
}

/// The rows of every layer of every panel (`None`: skipped), the sources
/// read, the notes of skipped layers, and how many data layers have rows.
struct Resolved {
    rows: Vec<Vec<Option<Vec<Row>>>>,
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
        let mut all_rows: Vec<Option<Vec<Row>>> = Vec::new();
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
        let (panels, legend) = self.finish_panels(&ctx, &panel_specs, built, &mut notes)?;
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
                    per_layer.push(Some(Vec::new()));
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
                let mut rows = table.rows.clone();
                if let Some(w) = &lp.where_ {
                    rows = w.keep(self.globals, rows)?;
                }
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

/// What every panel of a figure shares while its layers are built.
struct Panels<'x> {
    sizes: &'x Sizes,
    scheme: Option<&'x str>,
    facets: Option<&'x facet::Plan>,
    /// A faceted figure's rows of every layer before the split.
    all_rows: &'x [Option<Vec<Row>>],
}

/// A panel's marks (with their `z`) and what it collected.
type Built = (Vec<(f64, Mark)>, PanelState);

impl<'a, 's> Build<'a, 's> {
    /// Every panel's marks first: shared facet scales need all their extents.
    fn build_panels(
        &self,
        ctx: &Panels,
        panel_specs: &[(&PanelSpec, std::ops::Range<usize>)],
        mut resolved: Vec<Vec<Option<Vec<Row>>>>,
        csv_rows: &mut Vec<CsvRecord>,
    ) -> Result<(Vec<Built>, [Categories; 2])> {
        let mut built = Vec::with_capacity(panel_specs.len());
        let mut carry: [Categories; 2] = Default::default();
        for (pi, (ps, _)) in panel_specs.iter().enumerate() {
            let layer_list = self.fp.panel_layers(pi);
            let mut st = PanelState::default();
            // Shared categorical scales: one category list across panels.
            if ctx.facets.is_some_and(|p| p.share_x) {
                st.xcats = std::mem::take(&mut carry[0]);
            }
            if ctx.facets.is_some_and(|p| p.share_y) {
                st.ycats = std::mem::take(&mut carry[1]);
            }
            let first_csv = csv_rows.len();
            // Offset values first: all layers split their bands alike.
            for (li, lp) in layer_list.iter().enumerate() {
                if let Some(rows) = &resolved[pi][li] {
                    self.layer_ctx(ctx, lp, (pi, li), None)?
                        .register_offsets(rows, &mut st)?;
                }
            }
            let mut marks = Vec::new();
            let kinds = (
                scales::ScaleKind::of(self.spec, &ps.x)?,
                scales::ScaleKind::of(self.spec, &ps.y)?,
            );
            st.log = scales::logs(kinds);
            for (li, lp) in layer_list.iter().enumerate() {
                let Some(rows) = resolved[pi][li].take() else {
                    continue;
                };
                let scale_rows = ctx.all_rows.get(li).and_then(|r| r.as_deref());
                let lctx = self.layer_ctx(ctx, lp, (pi, li), scale_rows)?;
                self.build_layer(&lctx, ps, kinds, &rows, &mut st, &mut marks, csv_rows)?;
            }
            if let Some(p) = ctx.facets {
                p.tag(pi, &mut csv_rows[first_csv..]);
                if p.share_x {
                    carry[0] = std::mem::take(&mut st.xcats);
                }
                if p.share_y {
                    carry[1] = std::mem::take(&mut st.ycats);
                }
            }
            built.push((marks, st));
        }
        Ok((built, carry))
    }

    fn layer_ctx<'c>(
        &'c self,
        ctx: &'c Panels,
        lp: &'c LayerPlan<'s>,
        index: (usize, usize),
        scale_rows: Option<&'c [Row]>,
    ) -> Result<LayerCtx<'c, 's>> {
        let shared = super::palette::shared_for(self.palette, (self.fp.name, ctx.scheme), lp)?;
        Ok(LayerCtx {
            spec: self.spec,
            globals: self.globals,
            layer: lp.spec,
            plan: lp,
            span: lp.span.clone(),
            font_size: ctx.sizes.font,
            index,
            scale_rows,
            scheme: ctx.scheme,
            shared,
        })
    }

    /// One layer's marks into `marks`, then the checks of what it drew
    /// against the panel's scales.
    #[allow(clippy::too_many_arguments)]
    fn build_layer(
        &self,
        ctx: &LayerCtx,
        ps: &PanelSpec,
        kinds: (scales::ScaleKind, scales::ScaleKind),
        rows: &[Row],
        st: &mut PanelState,
        marks: &mut Vec<(f64, Mark)>,
        csv_rows: &mut Vec<CsvRecord>,
    ) -> Result<()> {
        let spec = self.spec;
        let (l, li) = (ctx.layer, ctx.index.1);
        let before = (st.xext.data, st.yext.data, csv_rows.len());
        let z = value(&l.z).unwrap_or(li as f64);
        super::outside::record(ctx, ps, rows, st)?;
        if let Some(m) = ctx.build(rows, st, csv_rows)? {
            marks.extend(m.flatten().into_iter().map(|m| (z, m)));
            // Hatches and cell texts right above their layer (the sort is stable).
            for extra in std::mem::take(&mut st.extra) {
                marks.push((z, extra));
            }
        }
        let mark = l.mark.get_ref().as_str();
        if let Some(msg) = scales::nonfinite_violation((li, mark), &csv_rows[before.2..], rows) {
            return Err(spec.error(ctx.span.clone(), msg));
        }
        scales::check_kinds(spec, (&ps.x, &ps.y), kinds, (&st.xcats, &st.ycats))?;
        grouped::offset_on_numbers(spec, l, (&st.xcats, &st.ycats), &csv_rows[before.2..])?;
        for (name, kind, b, a) in [
            ("x", kinds.0, before.0, st.xext.data),
            ("y", kinds.1, before.1, st.yext.data),
        ] {
            if kind == scales::ScaleKind::Log
                && let Some(msg) =
                    scales::log_violation(name, (li, mark), b, a, &csv_rows[before.2..], rows, {
                        let second = if name == "x" { &l.x2 } else { &l.y2 };
                        mark == "area" && second.is_none()
                    })
            {
                return Err(spec.error(ctx.span.clone(), msg));
            }
        }
        // Texts a layer puts on its marks (bar values, line ends).
        for m in st.extra.drain(..) {
            marks.push((z, m));
        }
        Ok(())
    }

    /// Each panel's title, axes, legend and grid around its marks, and the
    /// figure's legend (a facet's legend outside the grid).
    fn finish_panels(
        &self,
        ctx: &Panels,
        panel_specs: &[(&PanelSpec, std::ops::Range<usize>)],
        (mut built, carry): (Vec<Built>, [Categories; 2]),
        notes: &mut Vec<String>,
    ) -> Result<(Vec<Panel>, Option<Legend>)> {
        let spec = self.spec;
        let facets = ctx.facets;
        let small = ctx.sizes.small;
        let (all_x, all_y) = (shared(&built, |s| &s.xext), shared(&built, |s| &s.yext));
        let mut merged = match facets {
            Some(_) => merged_legend(&mut built),
            None => Vec::new(),
        };
        // A facet's legend outside (`right`, `bottom`) is the figure's: beside
        // or below the whole grid; inside, it is drawn in the top-right panel.
        let outside = facets.is_some()
            && matches!(
                self.f
                    .legend
                    .as_ref()
                    .and_then(|l| l.position.as_ref())
                    .map(|p| p.get_ref().as_str()),
                Some("right" | "bottom")
            );
        let figure_legend = if outside {
            Some(resolve_legend(
                spec,
                self.f.legend.as_ref(),
                std::mem::take(&mut merged),
                small,
            )?)
        } else {
            None
        };
        let mut panels = Vec::new();
        for (pi, ((ps, pspan), (mut marks, st))) in panel_specs.iter().zip(built).enumerate() {
            let title = match facets {
                Some(p) => Some(p.cells[pi].title.clone()),
                None => self
                    .fp
                    .panels
                    .get(pi)
                    .and_then(|p| p.title.as_ref())
                    .map(|t| label(spec, t, self.globals))
                    .transpose()?,
            };
            let (share_x, share_y) = facets.map_or((false, false), |p| (p.share_x, p.share_y));
            let axes = self.fp.panel_axes(pi);
            let mut x = resolve_axis(
                self,
                (&ps.x, &axes[0]),
                if share_x { &all_x } else { &st.xext },
                if share_x {
                    &carry[0].names
                } else {
                    &st.xcats.names
                },
                false,
                small,
                pspan.clone(),
            )?;
            let mut y = resolve_axis(
                self,
                (&ps.y, &axes[1]),
                if share_y { &all_y } else { &st.yext },
                if share_y {
                    &carry[1].names
                } else {
                    &st.ycats.names
                },
                true,
                small,
                pspan.clone(),
            )?;
            let many = (panel_specs.len() > 1).then_some(pi + 1);
            notes.extend(super::outside::notes(&st.outside, [&x, &y], many));
            let entries = match facets {
                Some(p) if pi == p.legend_panel() && !outside => std::mem::take(&mut merged),
                _ => st.legend,
            };
            if let Some(p) = facets {
                x.labels = p.x_labels(pi);
                y.labels = p.y_labels(pi);
                if !p.x_title(pi) {
                    x.title = None;
                }
                if !p.y_title(pi) {
                    y.title = None;
                }
            }
            let legend = if outside {
                Legend {
                    position: LegendPos::Hidden,
                    ..resolve_legend(spec, None, entries, small)?
                }
            } else {
                resolve_legend(spec, ps.legend.as_ref(), entries, small)?
            };
            let arcs = marks.iter().any(|(_, m)| matches!(m, Mark::Arcs(_)));
            let kinds = self
                .fp
                .panel_layers(pi)
                .iter()
                .map(|l| (l.spec, l.span.clone()));
            super::marks::arc::no_axes(spec, ps, (arcs, kinds), (&mut x, &mut y))?;
            let grid = super::grid(spec, ps)?;
            marks.sort_by(|a, b| a.0.total_cmp(&b.0));
            let layers = marks.into_iter().map(|(_, m)| m).collect();
            panels.push(Panel {
                title,
                x,
                y,
                layers,
                legend,
                grid,
                colorbar: st.colorbar,
            });
        }
        Ok((panels, figure_legend))
    }
}

/// One legend for a faceted figure: every panel's entries, once each.
fn merged_legend(built: &mut [Built]) -> Vec<LegendEntry> {
    let mut merged: Vec<LegendEntry> = Vec::new();
    for (_, st) in built.iter_mut() {
        for e in std::mem::take(&mut st.legend) {
            if !merged.contains(&e) {
                merged.push(e);
            }
        }
    }
    merged
}

/// The extent of every panel's axis together (a facet's shared scale).
fn shared(built: &[Built], pick: fn(&PanelState) -> &Extent) -> Extent {
    let mut e = Extent::default();
    for (_, st) in built {
        let x = pick(st);
        // The union of both ranges: with implicit bases (a bar's 0, for
        // linear axes) and without (what a log axis shows).
        let union = |r: Option<(f64, f64)>, o: Option<(f64, f64)>| match (r, o) {
            (Some((a, b)), Some((c, d))) => Some((a.min(c), b.max(d))),
            (r, o) => r.or(o),
        };
        e.range = union(e.range, x.range);
        e.data = union(e.data, x.data);
        e.fractional |= x.fractional;
        for v in &x.sticky {
            if !e.sticky.contains(v) {
                e.sticky.push(*v);
            }
        }
    }
    e
}

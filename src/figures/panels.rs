//! A figure's panels built: each layer's marks per panel, then (once every
//! extent is known, for shared facet scales) each panel's axes and legend.

use super::build::{Build, Sizes};
use super::layers::{Categories, CsvRecord, Extent, LayerCtx, PanelState};
use super::model::*;
use super::rows::LayerRows;
use super::{facet, grouped, label, resolve_axis, resolve_legend, scales};
use crate::error::Result;
use crate::plan::layers::LayerPlan;
use crate::spec::{PanelSpec, value};
use crate::value::Row;

/// What every panel of a figure shares while its layers are built.
pub(super) struct Panels<'x> {
    pub(super) sizes: &'x Sizes,
    pub(super) scheme: Option<&'x str>,
    pub(super) facets: Option<&'x facet::Plan>,
    /// A faceted figure's rows of every layer before the split.
    pub(super) all_rows: &'x [Option<LayerRows>],
}

/// A panel's marks (with their `z`) and what it collected.
pub(super) type Built = (Vec<(f64, Mark)>, PanelState);

impl<'a, 's> Build<'a, 's> {
    /// Every panel's marks first: shared facet scales need all their extents.
    pub(super) fn build_panels(
        &self,
        ctx: &Panels,
        panel_specs: &[(&PanelSpec, std::ops::Range<usize>)],
        mut resolved: Vec<Vec<Option<LayerRows>>>,
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
            let m = match l.rasterize.as_ref().is_some_and(|r| *r.get_ref()) {
                true => Mark::Raster(Box::new(m)),
                false => {
                    vector_note(ctx, &m, st);
                    m
                }
            };
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
    pub(super) fn finish_panels(
        &self,
        ctx: &Panels,
        panel_specs: &[(&PanelSpec, std::ops::Range<usize>)],
        (mut built, carry): (Vec<Built>, [Categories; 2]),
        notes: &mut Vec<String>,
        dense: &mut Vec<String>,
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
        for (pi, ((ps, pspan), (mut marks, mut st))) in panel_specs.iter().zip(built).enumerate() {
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
            let in_panel = |n: String| match many {
                Some(i) => format!("panel {i}, {n}"),
                None => n,
            };
            notes.extend(st.notes.drain(..).map(in_panel));
            dense.extend(st.dense.drain(..).map(in_panel));
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

/// A vector layer of this many marks or more makes a PDF slow to open.
pub const MANY_MARKS: usize = 10_000;

/// Records a vector layer of [`MANY_MARKS`] or more: once the figure is
/// rendered, a note gives its marks and the PDF's size, suggesting
/// `rasterize`.
fn vector_note(ctx: &LayerCtx, m: &Mark, st: &mut PanelState) {
    let n = m.count();
    if n >= MANY_MARKS {
        st.dense.push(format!(
            "layer {} ({}) draws {n} marks as vectors",
            ctx.index.1 + 1,
            ctx.layer.mark.get_ref()
        ));
    }
}

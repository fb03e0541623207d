//! Layout: a [`Plot`] in data units to a [`Scene`] in points.
//!
//! Margins are sized from the text they hold (tick labels, axis titles,
//! panel titles, an outside legend), like matplotlib's `bbox_inches="tight"`
//! but inside a fixed figure size, so the PDF is exactly the size the spec
//! asks for. Everything is clipped to the plot area: a value outside the
//! axis is not drawn (plotters would clamp it to the edge).

use super::axis;
use super::geometry::stroke_of;
pub use super::geometry::{Area, clip_polygon, clip_polyline, clip_segment, marker};
use super::grid;
use super::labels;
use super::margins::{
    Margins, Titles, axis_ticks, fewer_columns, fitted_legend, margins, x_label_depth,
    y_label_width,
};
use super::place;
use super::scene::{Prim, Scene, Stroke};
use crate::color::Color;
use crate::figures::model::*;
use crate::font as text;

/// Tick mark length and label padding, in points (matplotlib's defaults).
pub(super) const TICK: f64 = 3.5;
pub(super) const TICK_PAD: f64 = 3.5;
pub(super) const LABEL_PAD: f64 = 4.0;
pub(super) const TITLE_PAD: f64 = 6.0;
const EDGE_PAD: f64 = 6.0;
const AXIS_WIDTH: f64 = 0.8;
/// A plot area smaller than this (points) on a side gets a note.
const MIN_PLOT: f64 = 30.0;

/// Maps data values on one axis to points.
#[derive(Debug, Clone, Copy)]
pub struct Scale {
    d0: f64,
    d1: f64,
    p0: f64,
    p1: f64,
    log: bool,
    symlog: Option<f64>,
}

impl Scale {
    /// The scale of `axis` drawn from `p0` (domain low) to `p1` points.
    pub fn new(axis: &Axis, p0: f64, p1: f64) -> Scale {
        let symlog = axis.symlog;
        let f = |v: f64| match symlog {
            Some(c) => crate::figures::scales::symlog(v, c),
            None if axis.log => v.log10(),
            None => v,
        };
        let (p0, p1) = if axis.reverse { (p1, p0) } else { (p0, p1) };
        Scale {
            d0: f(axis.domain.0),
            d1: f(axis.domain.1),
            p0,
            p1,
            log: axis.log,
            symlog,
        }
    }

    /// The position of `v` (may lie outside the plot). On a log axis a
    /// value at or below 0 lies infinitely far below the low end: a bar
    /// from 0 is drawn from the axis's edge.
    pub fn map(&self, v: f64) -> f64 {
        let t = if self.log {
            if v <= 0.0 {
                f64::NEG_INFINITY
            } else {
                v.log10()
            }
        } else if let Some(c) = self.symlog {
            crate::figures::scales::symlog(v, c)
        } else {
            v
        };
        if t == f64::NEG_INFINITY {
            return if self.p1 > self.p0 {
                f64::NEG_INFINITY
            } else {
                f64::INFINITY
            };
        }
        self.p0 + (t - self.d0) / (self.d1 - self.d0) * (self.p1 - self.p0)
    }
}

/// Height of a text block measured to the bottom of its last line.
fn lines_of(s: &str) -> usize {
    text::lines(s).count()
}

/// Pushes a (possibly multi-line) text whose block top is `top`.
pub fn push_text(
    out: &mut Vec<Prim>,
    x: f64,
    top: f64,
    s: &str,
    size: f64,
    color: Color,
    align: Align,
) {
    for (i, line) in text::lines(s).enumerate() {
        out.push(Prim::Text {
            x,
            y: top + i as f64 * text::LINE_SPACING * size,
            text: line.to_string(),
            size,
            color,
            align,
            vertical: false,
        });
    }
}

/// The top of a block of `n` lines whose capitals are centred on `y`.
fn top_centered(y: f64, n: usize, size: f64) -> f64 {
    y - ((n as f64 - 1.0) * text::LINE_SPACING * size + 0.73 * size) / 2.0
}

/// Lays out the whole figure.
pub fn layout(plot: &Plot) -> Scene {
    layout_full(plot).0
}

/// Each panel's plot area (the rectangle inside its axes), in points, in
/// panel order: what tests compare to check that a grid's panels align.
pub fn plot_areas(plot: &Plot) -> Vec<Area> {
    layout_full(plot).1
}

/// Lays out the whole figure; also returns what could not be laid out
/// cleanly (point labels that still overlap something), as notes.
pub fn layout_notes(plot: &Plot) -> (Scene, Vec<String>) {
    let (scene, _, notes) = layout_full(plot);
    (scene, notes)
}

fn layout_full(plot: &Plot) -> (Scene, Vec<Area>, Vec<String>) {
    let mut notes = Vec::new();
    let shortened = axis::shorten_long_labels(plot, &mut notes);
    let plot = shortened.as_ref().unwrap_or(plot);
    let mut prims = Vec::new();
    let (w, h) = (plot.width, plot.height);
    let fs = plot.font_size;
    let title_size = plot.title_size;
    let mut top = EDGE_PAD;
    let single = plot.panels.len() == 1;
    // A title wider than the figure is wrapped at spaces.
    let title = plot
        .title
        .as_ref()
        .map(|t| axis::wrap(t, title_size, w - 2.0 * EDGE_PAD, &[' ']));
    if let Some(t) = &title {
        top += text::block(t, title_size).1 + if single { TITLE_PAD } else { 2.0 * TITLE_PAD };
    }
    let (rows, cols) = plot.layout;
    // A figure-wide legend (a facet's) takes a strip right of or below the grid.
    // It is fitted first (columns) so its room is what will be drawn.
    let fig_legend = plot
        .legend
        .as_ref()
        .map(|l| match l.position {
            LegendPos::Right => fewer_columns(l, 0.5 * w, h - top - EDGE_PAD),
            // Below the grid: in rows (at most a fifth of the height).
            _ => fewer_columns(l, w - 2.0 * EDGE_PAD, 0.2 * h),
        })
        .map(|l| {
            let s = place::legend_size(&l);
            (l, s)
        })
        .filter(|(_, s)| s.0 > 0.0);
    let (grid_w, grid_h) = match &fig_legend {
        Some((l, s)) if l.position == LegendPos::Right => (w - s.0 - 2.0 * LABEL_PAD, h),
        Some((_, s)) => (w, h - s.1 - 2.0 * LABEL_PAD),
        None => (w, h),
    };
    // Cells are separated by a gap so one panel's axis title never touches
    // the next panel's title.
    let gap = 1.5 * fs;
    // Rows of titled panels whose x labels only the last row shows (a
    // facet's) are kept apart by the titles' own padding.
    let inner_bare = plot
        .panels
        .iter()
        .enumerate()
        .all(|(i, p)| p.title.is_some() && (i / cols + 1 == rows || !p.x.labels));
    let row_gap = if inner_bare { 0.5 * fs } else { gap };
    let cell_w = (grid_w - 2.0 * EDGE_PAD - gap * (cols - 1) as f64) / cols as f64;
    let cell_h = (grid_h - top - EDGE_PAD - gap * (rows - 1) as f64) / rows as f64;
    let cell_of = |i: usize| {
        let (r, c) = (i / cols, i % cols);
        let x0 = EDGE_PAD + c as f64 * (cell_w + gap);
        let y0 = top + r as f64 * (cell_h + gap);
        Area {
            x0,
            y0,
            x1: x0 + cell_w,
            y1: y0 + cell_h,
        }
    };
    let titles = |p: &Panel, cell_w: f64| Titles {
        panel: p
            .title
            .as_ref()
            .map(|t| axis::wrap(t, title_size, cell_w, &[' '])),
        x: p.x
            .title
            .as_ref()
            .map(|t| axis::wrap(t, fs, cell_w, &[' '])),
        legend: fitted_legend(&p.legend, cell_w),
    };
    let mut found = Vec::new();
    for (i, p) in plot.panels.iter().enumerate() {
        let cell = cell_of(i);
        let tt = titles(p, cell.w());
        let legend_size = place::legend_size(&tt.legend);
        // Two passes: the tick labels depend on the plot size and the
        // margins on the tick labels.
        let mut m = margins(p, plot, &tt, cell.w() * 0.8, cell.h() * 0.75, legend_size);
        for _ in 0..2 {
            let (pw, ph) = (cell.w() - m.left - m.right, cell.h() - m.top - m.bottom);
            m = margins(p, plot, &tt, pw.max(10.0), ph.max(10.0), legend_size);
        }
        found.push((m, tt, legend_size));
    }
    // Panels in one column share their plot's left and right edges, panels
    // in one row its top and bottom, and all plots one size: each column
    // and row is as wide as its panels' margins need (constrained layout).
    let n = plot.panels.len();
    let place_grid = |found: &[(Margins, Titles, (f64, f64))]| {
        let pick = |track: &dyn Fn(usize) -> bool, side: fn(&Margins) -> f64| {
            (0..n)
                .filter(|j| track(*j))
                .map(|j| side(&found[j].0))
                .fold(0.0, f64::max)
        };
        let col = |c: usize, side: fn(&Margins) -> f64| pick(&|j| j % cols == c, side);
        let row = |r: usize, side: fn(&Margins) -> f64| pick(&|j| j / cols == r, side);
        let xs = grid::tracks(
            &(0..cols).map(|c| col(c, |m| m.left)).collect::<Vec<_>>(),
            &(0..cols).map(|c| col(c, |m| m.right)).collect::<Vec<_>>(),
            EDGE_PAD,
            grid_w - 2.0 * EDGE_PAD,
            gap,
        );
        let ys = grid::tracks(
            &(0..rows).map(|r| row(r, |m| m.top)).collect::<Vec<_>>(),
            &(0..rows).map(|r| row(r, |m| m.bottom)).collect::<Vec<_>>(),
            top,
            grid_h - top - EDGE_PAD,
            row_gap,
        );
        (0..n)
            .map(|i| {
                let (x, y) = (xs[i % cols], ys[i / cols]);
                let cell = Area {
                    x0: x.cell0,
                    y0: y.cell0,
                    x1: x.cell1,
                    y1: y.cell1,
                };
                let area = Area {
                    x0: x.plot0,
                    y0: y.plot0,
                    x1: x.plot1,
                    y1: y.plot1,
                };
                (cell, area)
            })
            .collect::<Vec<_>>()
    };
    // Once more with each panel's own cell and plot size: titles wrap to
    // the cell, tick labels thin to the plot.
    let placed = place_grid(&found);
    if n > 1 {
        found = plot
            .panels
            .iter()
            .zip(&placed)
            .map(|(p, (cell, area))| {
                let tt = titles(p, cell.w());
                let legend_size = place::legend_size(&tt.legend);
                let m = margins(p, plot, &tt, area.w(), area.h(), legend_size);
                (m, tt, legend_size)
            })
            .collect();
    }
    let placed = place_grid(&found);
    let mut plot_areas = Vec::new();
    let mut legends = Vec::new();
    let mut cramped = Vec::new();
    for (i, p) in plot.panels.iter().enumerate() {
        let (cell, area) = placed[i];
        plot_areas.push(area);
        if area.h() < MIN_PLOT || area.w() < MIN_PLOT {
            cramped.push(i + 1);
        }
        let (_, tt, legend_size) = &found[i];
        legends.extend(draw_panel(
            &mut prims,
            &mut notes,
            plot,
            p,
            tt,
            (area, cell),
            *legend_size,
        ));
    }
    if let Some(&first) = cramped.first() {
        let a = plot_areas[first - 1];
        let which = match cramped.len() {
            1 => format!("panel {first}"),
            k => format!("{k} panels (from panel {first})"),
        };
        notes.push(format!(
            "{which}: the plot area is only {:.0} x {:.0} pt, as its texts take the rest; \
             make the figure taller (`aspect`, `height`) or wider, or use fewer panels per column or row",
            a.w(),
            a.h()
        ));
    }
    if let (Some((l, s)), Some(first)) = (&fig_legend, plot_areas.first()) {
        let (l, s) = (l, *s);
        let (x0, y0) = if l.position == LegendPos::Right {
            // Beside the first row, but never past the canvas's bottom.
            let y0 = first.y0.min(h - EDGE_PAD - s.1).max(top.min(first.y0));
            (grid_w - EDGE_PAD + 2.0 * LABEL_PAD, y0)
        } else {
            let right = plot_areas.iter().map(|a| a.x1).fold(first.x1, f64::max);
            (
                (first.x0 + right - s.0) / 2.0,
                grid_h - EDGE_PAD + 2.0 * LABEL_PAD,
            )
        };
        let at = Area {
            x0,
            y0,
            x1: x0 + s.0,
            y1: y0 + s.1,
        };
        place::draw_legend(&mut prims, l, at);
        legends.push(at);
    }
    if let Some(t) = &title {
        let cx = match (single, plot_areas.first()) {
            (true, Some(a)) => (a.x0 + a.x1) / 2.0,
            _ => w / 2.0,
        };
        // Centred over the plot, but never past the figure's edges (an
        // outside legend pulls the plot's centre left).
        let half = text::block(t, title_size).0 / 2.0;
        let cx = cx.min(w - EDGE_PAD - half).max(EDGE_PAD + half);
        push_text(
            &mut prims,
            cx,
            EDGE_PAD,
            t,
            title_size,
            Color::BLACK,
            Align::Center,
        );
    }
    (
        Scene {
            width: w,
            height: h,
            prims,
            legends,
        },
        plot_areas,
        notes,
    )
}

fn draw_panel(
    out: &mut Vec<Prim>,
    notes: &mut Vec<String>,
    plot: &Plot,
    p: &Panel,
    tt: &Titles,
    (area, cell): (Area, Area),
    legend_size: (f64, f64),
) -> Option<Area> {
    // Fixed texts on marks (bar values, line ends) must not be clipped.
    let grown = labels::fit_texts(p, &area);
    let p = grown.as_ref().unwrap_or(p);
    let fs = plot.font_size;
    let sx = Scale::new(&p.x, area.x0, area.x1);
    let sy = Scale::new(&p.y, area.y1, area.y0);
    let xset = axis_ticks(&p.x, area.w(), false);
    let yset = axis_ticks(&p.y, area.h(), true);
    let (xt, xminor) = (&xset.major, &xset.minor);
    let (yt, yminor) = (&yset.major, &yset.minor);
    let black = Color::BLACK;
    let axis_stroke = Stroke {
        color: black,
        width: AXIS_WIDTH,
        dash: None,
    };

    // Grid below everything.
    if p.grid != Grid::Off {
        // Solid light lines: as quiet as matplotlib's dotted ones, and one
        // element each (a dotted line is drawn as hundreds of segments).
        let grid = Stroke {
            color: Color::rgb(0xe3, 0xe3, 0xe3),
            width: 0.6,
            dash: None,
        };
        let minor = p.grid == Grid::Both;
        let xs = xt
            .iter()
            .map(|(v, _)| *v)
            .chain(xminor.iter().copied().filter(|_| minor));
        for v in xs {
            let px = sx.map(v);
            out.push(Prim::Path {
                pts: vec![(px, area.y0), (px, area.y1)],
                closed: false,
                fill: None,
                stroke: Some(grid.clone()),
            });
        }
        let ys = yt
            .iter()
            .map(|(v, _)| *v)
            .chain(yminor.iter().copied().filter(|_| minor));
        for v in ys {
            let py = sy.map(v);
            out.push(Prim::Path {
                pts: vec![(area.x0, py), (area.x1, py)],
                closed: false,
                fill: None,
                stroke: Some(grid.clone()),
            });
        }
    }

    // Layers, with obstacles remembered for the legend and label placement.
    let mut obstacles: Vec<Area> = Vec::new();
    let mut avoid = labels::Obstacles::default();
    let mut texts: Vec<(usize, &TextItem)> = Vec::new();
    let mut deferred_text_layers = Vec::new();
    let mut end_texts: Vec<&TextItem> = Vec::new();
    for (li, mark) in p.layers.iter().enumerate() {
        match mark {
            Mark::Rects(items) => {
                for r in items {
                    let (x0, x1) =
                        r.x.map_or((area.x0, area.x1), |(a, b)| (sx.map(a), sx.map(b)));
                    let (y0, y1) =
                        r.y.map_or((area.y0, area.y1), |(a, b)| (sy.map(a), sy.map(b)));
                    let rect = Area {
                        x0: x0.min(x1).max(area.x0),
                        x1: x0.max(x1).min(area.x1),
                        y0: y0.min(y1).max(area.y0),
                        y1: y0.max(y1).min(area.y1),
                    };
                    if !(rect.x1 > rect.x0 || rect.y1 > rect.y0)
                        || rect.x1 < rect.x0
                        || rect.y1 < rect.y0
                    {
                        continue;
                    }
                    if r.x.is_some() && r.y.is_some() {
                        obstacles.push(rect);
                        avoid.boxes.push(rect);
                        avoid.box_names.push("a bar".into());
                    }
                    out.push(Prim::Rect {
                        x: rect.x0,
                        y: rect.y0,
                        w: rect.w(),
                        h: rect.h(),
                        fill: r.style.fill,
                        stroke: stroke_of(&r.style),
                    });
                }
            }
            Mark::Points(items) => {
                for pt in items {
                    let (cx, cy) = (sx.map(pt.x), sy.map(pt.y));
                    if !(cx >= area.x0 && cx <= area.x1 && cy >= area.y0 && cy <= area.y1) {
                        continue;
                    }
                    let r = pt.diameter / 2.0;
                    let m = Area {
                        x0: cx - r,
                        y0: cy - r,
                        x1: cx + r,
                        y1: cy + r,
                    };
                    obstacles.push(m);
                    avoid.markers.push(m);
                    out.push(marker(pt.shape, cx, cy, pt.diameter, &pt.style));
                }
            }
            Mark::Lines(series) => {
                for s in series {
                    let pts: Vec<(f64, f64)> = s
                        .points
                        .iter()
                        .map(|(x, y)| (sx.map(*x), sy.map(*y)))
                        .collect();
                    for run in clip_polyline(&pts, &area) {
                        avoid.lines.push(run.clone());
                        out.push(Prim::Path {
                            pts: run,
                            closed: false,
                            fill: None,
                            stroke: stroke_of(&s.style),
                        });
                    }
                    for &(cx, cy) in &pts {
                        obstacles.push(Area {
                            x0: cx - 2.0,
                            y0: cy - 2.0,
                            x1: cx + 2.0,
                            y1: cy + 2.0,
                        });
                        if let Some((shape, d)) = s.marker
                            && cx >= area.x0
                            && cx <= area.x1
                            && cy >= area.y0
                            && cy <= area.y1
                        {
                            avoid.markers.push(Area {
                                x0: cx - d / 2.0,
                                y0: cy - d / 2.0,
                                x1: cx + d / 2.0,
                                y1: cy + d / 2.0,
                            });
                            let st = Style {
                                fill: s.style.stroke,
                                stroke: None,
                                stroke_width: 0.0,
                                dash: Dash::Solid,
                            };
                            out.push(marker(shape, cx, cy, d, &st));
                        }
                    }
                }
            }
            Mark::Rules(items) => {
                for r in items {
                    let seg = match r.kind {
                        RuleKind::X(x) => ((sx.map(x), area.y0), (sx.map(x), area.y1)),
                        RuleKind::Y(y) => ((area.x0, sy.map(y)), (area.x1, sy.map(y))),
                        RuleKind::Diagonal => {
                            let lo = p.x.domain.0.max(p.y.domain.0);
                            let hi = p.x.domain.1.min(p.y.domain.1);
                            ((sx.map(lo), sy.map(lo)), (sx.map(hi), sy.map(hi)))
                        }
                    };
                    if let Some((a, b)) = clip_segment(
                        seg.0,
                        seg.1,
                        &Area {
                            x0: area.x0 - 1e-6,
                            y0: area.y0 - 1e-6,
                            x1: area.x1 + 1e-6,
                            y1: area.y1 + 1e-6,
                        },
                    ) {
                        avoid.lines.push(vec![a, b]);
                        out.push(Prim::Path {
                            pts: vec![a, b],
                            closed: false,
                            fill: None,
                            stroke: stroke_of(&r.style),
                        });
                    }
                }
            }
            Mark::Segments(items) => {
                for s in items {
                    let (a, b) = (
                        (sx.map(s.from.0), sy.map(s.from.1)),
                        (sx.map(s.to.0), sy.map(s.to.1)),
                    );
                    if let Some((a, b)) = clip_segment(a, b, &area) {
                        avoid.lines.push(vec![a, b]);
                        out.push(Prim::Path {
                            pts: vec![a, b],
                            closed: false,
                            fill: None,
                            stroke: stroke_of(&s.style),
                        });
                    }
                }
            }
            Mark::Areas(items) => {
                for a in items {
                    let pts: Vec<(f64, f64)> = a
                        .points
                        .iter()
                        .map(|(x, y)| (sx.map(*x), sy.map(*y)))
                        .filter(|(x, y)| x.is_finite() && y.is_finite())
                        .collect();
                    let pts = clip_polygon(&pts, &area);
                    if pts.len() < 3 {
                        continue;
                    }
                    for &(cx, cy) in &pts {
                        obstacles.push(Area {
                            x0: cx - 2.0,
                            y0: cy - 2.0,
                            x1: cx + 2.0,
                            y1: cy + 2.0,
                        });
                    }
                    out.push(Prim::Path {
                        pts,
                        closed: true,
                        fill: a.style.fill,
                        stroke: stroke_of(&a.style),
                    });
                }
            }
            // `compile` flattens groups; a hand-built Plot may still hold one.
            Mark::Group(_) => {}
            Mark::Hatches(items) => {
                for hi in items {
                    let (x0, x1) = (sx.map(hi.x.0), sx.map(hi.x.1));
                    let (y0, y1) = (sy.map(hi.y.0), sy.map(hi.y.1));
                    let r = Area {
                        x0: x0.min(x1).max(area.x0),
                        x1: x0.max(x1).min(area.x1),
                        y0: y0.min(y1).max(area.y0),
                        y1: y0.max(y1).min(area.y1),
                    };
                    super::hatch::hatch(out, &r, hi.pattern);
                }
            }
            Mark::EndLabels(items) => end_texts.extend(items),
            Mark::Texts {
                items,
                avoid_overlap,
            } => {
                if *avoid_overlap {
                    deferred_text_layers.push(li);
                }
                for t in items {
                    texts.push((li, t));
                }
            }
        }
    }

    // Fixed texts' boxes and the line end labels (drawn below, after the
    // legend's placement): `best` keeps the legend off them and the markers.
    let in_plot = |(ax, ay): (f64, f64)| {
        ax >= area.x0 - 0.5 && ax <= area.x1 + 0.5 && ay >= area.y0 - 0.5 && ay <= area.y1 + 0.5
    };
    let mut fixed: Vec<Area> = texts
        .iter()
        .filter(|(li, _)| !deferred_text_layers.contains(li))
        .filter(|(_, t)| in_plot((sx.map(t.x), sy.map(t.y))))
        .map(|(_, t)| {
            let (x, top, align) = place::text_anchor(t, (sx.map(t.x), sy.map(t.y)));
            place::text_area(&t.text, t.size, x, top, align)
        })
        .collect();
    let ends: Vec<(&TextItem, (f64, f64))> = end_texts
        .into_iter()
        .map(|t| (t, (sx.map(t.x), sy.map(t.y))))
        .filter(|(_, (x, y))| x.is_finite() && y.is_finite())
        .collect();
    let mut end_prims = Vec::new();
    let end_boxes = labels::draw_end_labels(&mut end_prims, &ends, &area);
    fixed.extend(end_boxes.iter().copied());
    fixed.extend(avoid.markers.iter().copied());
    // Legend (placed before movable labels so they can avoid it).
    let mut legend_area = place::place_legend(&tt.legend, legend_size, &area, &obstacles, &fixed);
    if let (Some(la), LegendPos::Bottom) = (legend_area.as_mut(), tt.legend.position) {
        // Below the x axis's labels and title, in the room margins keep.
        let mut below = TICK + TICK_PAD;
        if p.x.labels {
            below += x_label_depth(&xset, p.x.tick_font_size).0;
            if let Some(t) = &tt.x {
                below += text::block(t, fs).1 + LABEL_PAD;
            }
        }
        let y0 = area.y1 + below + 1.5 * LABEL_PAD;
        *la = Area {
            y0,
            y1: y0 + legend_size.1,
            ..*la
        };
    }
    // Texts: fixed ones where asked, then movable ones by their markers.
    if let Some(la) = legend_area {
        avoid.boxes.push(la);
        avoid.box_names.push("the legend".into());
    }
    let mut movable = Vec::new();
    for (li, t) in texts {
        let (ax, ay) = (sx.map(t.x), sy.map(t.y));
        if !in_plot((ax, ay)) {
            continue;
        }
        if deferred_text_layers.contains(&li) {
            movable.push(labels::Label {
                item: t,
                anchor: (ax, ay),
            });
            continue;
        }
        let (x, top, align) = place::text_anchor(t, (ax, ay));
        avoid
            .boxes
            .push(place::text_area(&t.text, t.size, x, top, align));
        avoid.box_names.push(t.text.clone());
        push_text(out, x, top, &t.text, t.size, t.color, align);
    }
    out.extend(end_prims);
    for b in end_boxes {
        avoid.boxes.push(b);
        avoid.box_names.push("a line's end label".into());
    }
    let placed = labels::place_labels(&movable, &area, &avoid);
    labels::draw(out, notes, &movable, &placed);

    // Frame, ticks and tick labels.
    let s = plot.spines;
    for (on, a, b) in [
        (s.left, (area.x0, area.y0), (area.x0, area.y1)),
        (s.right, (area.x1, area.y0), (area.x1, area.y1)),
        (s.top, (area.x0, area.y0), (area.x1, area.y0)),
        (s.bottom, (area.x0, area.y1), (area.x1, area.y1)),
    ] {
        if on {
            out.push(Prim::Path {
                pts: vec![a, b],
                closed: false,
                fill: None,
                stroke: Some(axis_stroke.clone()),
            });
        }
    }
    let minor_stroke = Stroke {
        color: black,
        width: 0.6,
        dash: None,
    };
    for v in xminor {
        let px = sx.map(*v);
        out.push(Prim::Path {
            pts: vec![(px, area.y1), (px, area.y1 + 2.0)],
            closed: false,
            fill: None,
            stroke: Some(minor_stroke.clone()),
        });
    }
    let (xdepth, lift) = x_label_depth(&xset, p.x.tick_font_size);
    for (v, label) in xt {
        let px = sx.map(*v);
        out.push(Prim::Path {
            pts: vec![(px, area.y1), (px, area.y1 + TICK)],
            closed: false,
            fill: None,
            stroke: Some(axis_stroke.clone()),
        });
        if !p.x.labels {
            continue;
        }
        let base = area.y1 + TICK + TICK_PAD;
        if xset.angle == 0.0 {
            push_text(
                out,
                px,
                base,
                label,
                p.x.tick_font_size,
                black,
                Align::Center,
            );
        } else {
            out.push(Prim::TextRotated {
                x: px,
                y: base + lift,
                text: label.replace(['\n', '\r'], " "),
                size: p.x.tick_font_size,
                color: black,
                align: axis::label_align(xset.angle, false),
                angle: xset.angle,
            });
        }
    }
    for v in yminor {
        let py = sy.map(*v);
        out.push(Prim::Path {
            pts: vec![(area.x0 - 2.0, py), (area.x0, py)],
            closed: false,
            fill: None,
            stroke: Some(minor_stroke.clone()),
        });
    }
    let (ylab_w, shift) = y_label_width(&yset, p.y.tick_font_size);
    for (v, label) in yt {
        let py = sy.map(*v);
        out.push(Prim::Path {
            pts: vec![(area.x0 - TICK, py), (area.x0, py)],
            closed: false,
            fill: None,
            stroke: Some(axis_stroke.clone()),
        });
        let n = lines_of(label);
        if !p.y.labels {
            continue;
        }
        if yset.angle == 0.0 {
            push_text(
                out,
                area.x0 - TICK - TICK_PAD,
                top_centered(py, n, p.y.tick_font_size),
                label,
                p.y.tick_font_size,
                black,
                Align::Right,
            );
        } else {
            out.push(Prim::TextRotated {
                x: area.x0 - TICK - TICK_PAD - shift,
                y: py,
                text: label.replace(['\n', '\r'], " "),
                size: p.y.tick_font_size,
                color: black,
                align: Align::Right,
                angle: yset.angle,
            });
        }
    }

    // Axis titles and the panel title.
    if let Some(t) = tt.x.as_ref().filter(|_| p.x.labels) {
        let top = area.y1 + TICK + TICK_PAD + xdepth + LABEL_PAD;
        push_text(
            out,
            (area.x0 + area.x1) / 2.0,
            top,
            t,
            fs,
            black,
            Align::Center,
        );
    }
    if let Some(t) = p.y.title.as_ref().filter(|_| p.y.labels) {
        let x = area.x0 - TICK - TICK_PAD - ylab_w - LABEL_PAD - fs;
        // Centred on the plot, but kept on the canvas when the plot is
        // shorter than the title.
        let half = text::width(t, fs) / 2.0;
        let cy = ((area.y0 + area.y1) / 2.0)
            .min(plot.height - EDGE_PAD - half)
            .max(EDGE_PAD + half);
        out.push(Prim::Text {
            x,
            y: cy,
            text: t.clone(),
            size: fs,
            color: black,
            align: Align::Center,
            vertical: true,
        });
    }
    if let Some(t) = &tt.panel {
        let size = plot.title_size;
        let top = area.y0 - TITLE_PAD - text::block(t, size).1;
        // Centred over the plot, but inside its cell (titles are wrapped
        // to the cell's width): never over a neighbour's or the edge.
        let half = text::block(t, size).0 / 2.0;
        let cx = ((area.x0 + area.x1) / 2.0)
            .min(cell.x1 - half)
            .max(cell.x0 + half);
        push_text(out, cx, top, t, size, black, Align::Center);
    }
    if let Some(la) = legend_area {
        place::draw_legend(out, &tt.legend, la);
    }
    if let Some(cb) = &p.colorbar {
        // Right of the plot, after a legend placed there.
        let mut x0 = area.x1 + 2.0 * LABEL_PAD;
        if p.legend.position == LegendPos::Right && !p.legend.entries.is_empty() {
            x0 += legend_size.0 + 2.0 * LABEL_PAD;
        }
        super::colorbar::draw(out, cb, x0, area.y0, area.y1, p.legend.font_size);
    }
    legend_area
}

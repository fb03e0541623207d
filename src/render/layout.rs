//! Layout: a [`Plot`] in data units to a [`Scene`] in points.
//!
//! Margins are sized from the text they hold (tick labels, axis titles,
//! panel titles, an outside legend), like matplotlib's `bbox_inches="tight"`
//! but inside a fixed figure size, so the PDF is exactly the size the spec
//! asks for. Everything is clipped to the plot area: a value outside the
//! axis is not drawn (plotters would clamp it to the edge).

mod arcs;
mod marks;
mod panel;

use super::axis;
pub use super::geometry::{Area, clip_polygon, clip_polyline, clip_segment, marker};
use super::grid;
use super::margins::{Margins, Titles, fewer_columns, fitted_legend, margins};
use super::place;
use super::scene::{Prim, Scene};
use crate::color::Color;
use crate::figures::model::*;
use crate::font as text;
use panel::draw_panel;

/// Tick label, axis title and title padding, in points (matplotlib's
/// defaults, which tueplots keeps); the lines, tick lengths and the edge's
/// padding are the figure's [`Look`], see [`look`].
pub(super) const TICK_PAD: f64 = 3.5;
pub(super) const LABEL_PAD: f64 = 4.0;
pub(super) const TITLE_PAD: f64 = 6.0;

thread_local! {
    static LOOK: std::cell::Cell<Look> = const { std::cell::Cell::new(Look::MATPLOTLIB) };
}

/// The [`Look`] of the figure being laid out on this thread (set by
/// [`layout_full`] for its duration, as the face of its text is: the many
/// helpers that size margins and draw ticks need no extra argument).
pub(super) fn look() -> Look {
    LOOK.with(std::cell::Cell::get)
}

/// Runs `f` with [`look`] set to `l`, and sets it back afterwards.
fn with_look<R>(l: Look, f: impl FnOnce() -> R) -> R {
    struct Restore(Look);
    impl Drop for Restore {
        fn drop(&mut self) {
            LOOK.with(|c| c.set(self.0));
        }
    }
    let _restore = Restore(LOOK.with(|c| c.replace(l)));
    f()
}
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

/// A panel's margins, titles and legend size, as fitted to its cell.
type Fitted = (Margins, Titles, (f64, f64));

/// Lays out the whole figure: the title, the panels' grid (sized to their
/// margins), each panel, a figure-wide legend. Returns the scene, each
/// panel's plot area, and notes. Text is measured in the plot's face and
/// lines drawn in its look.
fn layout_full(plot: &Plot) -> (Scene, Vec<Area>, Vec<String>) {
    text::with_face(plot.face, || with_look(plot.look, || layout_scoped(plot)))
}

fn layout_scoped(asked: &Plot) -> (Scene, Vec<Area>, Vec<String>) {
    let mut notes = Vec::new();
    let shortened = axis::shorten_long_labels(asked, &mut notes);
    let plot = shortened.as_ref().unwrap_or(asked);
    let mut prims = Vec::new();
    let (w, h) = (plot.width, plot.height);
    let title_size = plot.title_size;
    let mut top = look().edge_pad;
    let single = plot.panels.len() == 1;
    // A title wider than the figure is wrapped at spaces.
    let title = plot
        .title
        .as_ref()
        .map(|t| axis::wrap(t, title_size, w - 2.0 * look().edge_pad, &[' ']));
    if let Some(t) = &title {
        top += text::block(t, title_size).1 + if single { TITLE_PAD } else { 2.0 * TITLE_PAD };
    }
    let fig_legend = figure_legend(plot, top);
    let cells = Cells::new(plot, top, &fig_legend);
    let placed = cells.fit(plot);
    let mut plot_areas = Vec::new();
    let mut legends = Vec::new();
    let mut marks = Vec::new();
    let mut cramped = Vec::new();
    let mut outside = Vec::new();
    for (i, (p, ((cell, area), (_, tt, legend_size)))) in
        plot.panels.iter().zip(&placed).enumerate()
    {
        plot_areas.push(*area);
        if area.h() < MIN_PLOT || area.w() < MIN_PLOT {
            cramped.push(i + 1);
        }
        let legend = draw_panel(
            &mut prims,
            &mut notes,
            &mut marks,
            plot,
            p,
            tt,
            (*area, *cell),
            *legend_size,
        );
        if legend.is_none() && tt.legend.position == LegendPos::Best && legend_size.0 > 0.0 {
            outside.push((i, outside_side(&tt.legend, cell, area)));
        }
        legends.extend(legend);
    }
    if !outside.is_empty() {
        // No free place inside: once more with those legends outside.
        let mut moved = asked.clone();
        for (i, (pos, columns)) in outside {
            moved.panels[i].legend.position = pos;
            moved.panels[i].legend.columns = columns;
        }
        return layout_scoped(&moved);
    }
    notes.extend(cramped_note(&cramped, &plot_areas));
    if let (Some((l, s)), Some(first)) = (&fig_legend, plot_areas.first()) {
        let at = figure_legend_area(plot, &cells, *s, l.position, first, &plot_areas);
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
        let cx = cx
            .min(w - look().edge_pad - half)
            .max(look().edge_pad + half);
        push_text(
            &mut prims,
            cx,
            look().edge_pad,
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
            marks,
            face: plot.face,
        },
        plot_areas,
        notes,
    )
}

/// Where a `best` legend with no free place inside goes: right of the
/// plot or below it, whichever leaves the larger plot area, with its
/// columns there (below: in one row, fewer if too wide for the cell).
fn outside_side(l: &Legend, cell: &Area, area: &Area) -> (LegendPos, usize) {
    let right = fitted_legend(
        &Legend {
            position: LegendPos::Right,
            ..l.clone()
        },
        cell.w(),
    );
    let below = fewer_columns(
        &Legend {
            position: LegendPos::Bottom,
            columns: l.entries.len().max(1),
            ..l.clone()
        },
        cell.w(),
        f64::INFINITY,
    );
    let rw = place::legend_size(&right).0 + 2.0 * LABEL_PAD;
    let bh = place::legend_size(&below).1 + 2.0 * LABEL_PAD;
    if (area.w() - rw) * area.h() >= area.w() * (area.h() - bh) {
        (LegendPos::Right, l.columns)
    } else {
        (LegendPos::Bottom, below.columns)
    }
}

/// A figure-wide legend (a facet's), fitted (in columns) to the strip it
/// takes right of or below the grid, with its size; none when empty.
fn figure_legend(plot: &Plot, top: f64) -> Option<(Legend, (f64, f64))> {
    let (w, h) = (plot.width, plot.height);
    plot.legend
        .as_ref()
        .map(|l| match l.position {
            LegendPos::Right => fewer_columns(l, 0.5 * w, h - top - look().edge_pad),
            // Below the grid: in rows (at most a fifth of the height).
            _ => fewer_columns(l, w - 2.0 * look().edge_pad, 0.2 * h),
        })
        .map(|l| {
            let s = place::legend_size(&l);
            (l, s)
        })
        .filter(|(_, s)| s.0 > 0.0)
}

/// Where the figure-wide legend of size `s` goes: beside the first row of
/// plots, or centred below the grid.
fn figure_legend_area(
    plot: &Plot,
    cells: &Cells,
    s: (f64, f64),
    position: LegendPos,
    first: &Area,
    plot_areas: &[Area],
) -> Area {
    let (x0, y0) = if position == LegendPos::Right {
        // Beside the first row, but never past the canvas's bottom.
        let y0 = first
            .y0
            .min(plot.height - look().edge_pad - s.1)
            .max(cells.top.min(first.y0));
        (cells.w - look().edge_pad + 2.0 * LABEL_PAD, y0)
    } else {
        let right = plot_areas.iter().map(|a| a.x1).fold(first.x1, f64::max);
        (
            (first.x0 + right - s.0) / 2.0,
            cells.h - look().edge_pad + 2.0 * LABEL_PAD,
        )
    };
    Area {
        x0,
        y0,
        x1: x0 + s.0,
        y1: y0 + s.1,
    }
}

/// The note for panels (numbered from 1) whose plot area is too small.
fn cramped_note(cramped: &[usize], plot_areas: &[Area]) -> Option<String> {
    let &first = cramped.first()?;
    let a = plot_areas[first - 1];
    let which = match cramped.len() {
        1 => format!("panel {first}"),
        k => format!("{k} panels (from panel {first})"),
    };
    Some(format!(
        "{which}: the plot area is only {:.0} x {:.0} pt, as its texts take the rest; \
         make the figure taller (`aspect`, `height`) or wider, or use fewer panels per column or row",
        a.w(),
        a.h()
    ))
}

/// The grid of panel cells: the room it has (the figure less its title
/// and a figure-wide legend) and the gaps between its cells.
struct Cells {
    rows: usize,
    cols: usize,
    /// The grid's width and height.
    w: f64,
    h: f64,
    /// Where the grid's first row starts (below the figure's title).
    top: f64,
    /// Between columns, and between rows that show x labels.
    gap: f64,
    row_gap: f64,
}

impl Cells {
    fn new(plot: &Plot, top: f64, fig_legend: &Option<(Legend, (f64, f64))>) -> Cells {
        let (w, h) = (plot.width, plot.height);
        let fs = plot.font_size;
        let (rows, cols) = plot.layout;
        let (grid_w, grid_h) = match fig_legend {
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
        Cells {
            rows,
            cols,
            w: grid_w,
            h: grid_h,
            top,
            gap,
            row_gap,
        }
    }

    /// Panel `i`'s cell in an even split of the grid (before margins).
    fn even(&self, i: usize) -> Area {
        let (rows, cols, gap) = (self.rows, self.cols, self.gap);
        let cell_w = (self.w - 2.0 * look().edge_pad - gap * (cols - 1) as f64) / cols as f64;
        let cell_h = (self.h - self.top - look().edge_pad - gap * (rows - 1) as f64) / rows as f64;
        let (r, c) = (i / cols, i % cols);
        let x0 = look().edge_pad + c as f64 * (cell_w + gap);
        let y0 = self.top + r as f64 * (cell_h + gap);
        Area {
            x0,
            y0,
            x1: x0 + cell_w,
            y1: y0 + cell_h,
        }
    }

    /// Each panel's cell and plot area, and its margins and titles, fitted
    /// to each other.
    fn fit(&self, plot: &Plot) -> Vec<((Area, Area), Fitted)> {
        let mut found = Vec::new();
        for (i, p) in plot.panels.iter().enumerate() {
            let cell = self.even(i);
            let tt = titles(plot, p, cell.w());
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
        // Once more with each panel's own cell and plot size: titles wrap to
        // the cell, tick labels thin to the plot.
        let placed = self.place(&found);
        if plot.panels.len() > 1 {
            found = plot
                .panels
                .iter()
                .zip(&placed)
                .map(|(p, (cell, area))| {
                    let tt = titles(plot, p, cell.w());
                    let legend_size = place::legend_size(&tt.legend);
                    let m = margins(p, plot, &tt, area.w(), area.h(), legend_size);
                    (m, tt, legend_size)
                })
                .collect();
        }
        self.place(&found).into_iter().zip(found).collect()
    }

    /// Each panel's cell and plot area. Panels in one column share their
    /// plot's left and right edges, panels in one row its top and bottom,
    /// and all plots one size: each column and row is as wide as its
    /// panels' margins need (constrained layout).
    fn place(&self, found: &[Fitted]) -> Vec<(Area, Area)> {
        let (rows, cols) = (self.rows, self.cols);
        let n = found.len();
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
            look().edge_pad,
            self.w - 2.0 * look().edge_pad,
            self.gap,
        );
        let ys = grid::tracks(
            &(0..rows).map(|r| row(r, |m| m.top)).collect::<Vec<_>>(),
            &(0..rows).map(|r| row(r, |m| m.bottom)).collect::<Vec<_>>(),
            self.top,
            self.h - self.top - look().edge_pad,
            self.row_gap,
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
    }
}

/// Panel `p`'s titles wrapped to its cell's width, and its legend fitted.
fn titles(plot: &Plot, p: &Panel, cell_w: f64) -> Titles {
    Titles {
        panel: p
            .title
            .as_ref()
            .map(|t| axis::wrap(t, plot.title_size, cell_w, &[' '])),
        x: p.x
            .title
            .as_ref()
            .map(|t| axis::wrap(t, plot.font_size, cell_w, &[' '])),
        legend: fitted_legend(&p.legend, cell_w),
    }
}

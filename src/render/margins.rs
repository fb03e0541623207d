//! Margins of a panel: room for its tick labels (level, wrapped or
//! turned), axis titles, panel title and an outside legend, and the
//! wrapping of titles and legend labels to the room they have.

use super::axis::{self, TickSet};
use super::layout::{LABEL_PAD, Scale, TICK_PAD, TITLE_PAD, look};
use super::place;
use crate::figures::model::*;
use crate::font as text;

/// Tick positions and labels of an axis (see [`axis::ticks_for`]).
pub(super) fn axis_ticks(axis: &Axis, length: f64, vertical: bool) -> TickSet {
    axis::ticks_for(axis, length, vertical)
}

/// The height a factored power of ten (`×10⁶`) takes at an axis's end,
/// with its gap to the tick labels (y: to the plot); 0 without one.
pub(super) fn offset_height(t: &TickSet, size: f64) -> f64 {
    t.offset
        .as_ref()
        .map_or(0.0, |o| text::block(o, size).1 + TICK_PAD)
}

/// How far turned or level x tick labels (and a factored power below
/// them) reach below their base line, and how far their anchors sit
/// below it.
pub(super) fn x_label_depth(t: &TickSet, size: f64) -> (f64, f64) {
    let (depth, lift) = x_labels_only_depth(t, size);
    (depth + offset_height(t, size), lift)
}

/// [`x_label_depth`] of the tick labels alone.
pub(super) fn x_labels_only_depth(t: &TickSet, size: f64) -> (f64, f64) {
    let boxes: Vec<_> = t
        .major
        .iter()
        .map(|(_, l)| axis::label_box(l, size, t.angle, false))
        .collect();
    let lift = boxes.iter().map(|b| -b.1.min(0.0)).fold(0.0, f64::max);
    let depth = boxes.iter().map(|b| b.3 + lift).fold(0.0, f64::max);
    (depth.max(if boxes.is_empty() { size } else { 0.0 }), lift)
}

/// How far y tick labels reach left of their base line, and how far
/// their anchors sit left of it.
pub(super) fn y_label_width(t: &TickSet, size: f64) -> (f64, f64) {
    let boxes: Vec<_> = t
        .major
        .iter()
        .map(|(_, l)| axis::label_box(l, size, t.angle, true))
        .collect();
    let shift = boxes.iter().map(|b| b.2.max(0.0)).fold(0.0, f64::max);
    let width = boxes.iter().map(|b| shift - b.0).fold(0.0, f64::max);
    (width, shift)
}

/// How far x tick labels stick out before the axis's start and past its
/// end, for a plot `w` points wide.
pub(super) fn x_label_overhang(ax: &Axis, t: &TickSet, w: f64) -> (f64, f64) {
    let sc = Scale::new(ax, 0.0, w);
    let (mut before, mut after) = (0.0f64, 0.0f64);
    for (v, l) in &t.major {
        let b = axis::label_box(l, ax.tick_font_size, t.angle, false);
        let p = sc.map(*v);
        before = before.max(-(p + b.0));
        after = after.max(p + b.2 - w);
    }
    (before, after)
}

pub(super) struct Margins {
    pub(super) left: f64,
    pub(super) right: f64,
    pub(super) top: f64,
    pub(super) bottom: f64,
}

/// A panel's title, x axis title and legend, wrapped to the room they have.
pub(super) struct Titles {
    pub(super) panel: Option<String>,
    pub(super) x: Option<String>,
    pub(super) legend: Legend,
}

/// The legend, its labels wrapped (at spaces and after underscores) when
/// an outside legend on the right would take more than 40% of the cell.
///
/// A legend below the plot wider than `cell_w` takes fewer columns (more
/// rows) until it fits: its room is reserved as it will be drawn.
pub(super) fn fitted_legend(l: &Legend, cell_w: f64) -> Legend {
    let (w, _) = place::legend_size(l);
    if l.position == LegendPos::Bottom {
        return fewer_columns(l, cell_w, f64::INFINITY);
    }
    if l.position != LegendPos::Right || w <= 0.4 * cell_w {
        return l.clone();
    }
    let widest = l
        .entries
        .iter()
        .map(|e| text::block(&e.label, l.font_size).0)
        .fold(0.0, f64::max);
    let room = (widest - (w - 0.4 * cell_w) / l.columns.max(1) as f64).max(3.0 * l.font_size);
    let mut out = l.clone();
    for e in &mut out.entries {
        e.label = axis::wrap(&e.label, l.font_size, room, &[' ', '_']);
    }
    out
}

pub(super) fn margins(
    p: &Panel,
    plot: &Plot,
    tt: &Titles,
    w: f64,
    h: f64,
    legend: (f64, f64),
) -> Margins {
    let fs = plot.font_size;
    let yt = axis_ticks(&p.y, h, true);
    let xt = axis_ticks(&p.x, w, false);
    // Hidden labels and titles (inner panels of a shared-scale facet) take
    // no room: the grid's alignment takes each column's and row's widest.
    let (ylab_w, ytitle) = if p.y.labels {
        let t = p.y.title.as_ref().map_or(0.0, |_| fs + LABEL_PAD);
        (y_label_width(&yt, p.y.tick_font_size).0, t)
    } else {
        (0.0, 0.0)
    };
    let (xlab_h, xtitle, (before, after)) = if p.x.labels {
        let t =
            tt.x.as_ref()
                .map_or(0.0, |t| text::block(t, fs).1 + LABEL_PAD);
        (
            x_label_depth(&xt, p.x.tick_font_size).0,
            t,
            x_label_overhang(&p.x, &xt, w),
        )
    } else {
        (0.0, 0.0, (0.0, 0.0))
    };
    let mut m = Margins {
        left: ylab_w + look().tick_size + TICK_PAD + ytitle,
        bottom: xlab_h + look().tick_size + TICK_PAD + xtitle,
        // A factored power above the y axis: below the panel title.
        top: tt.panel.as_ref().map_or(0.5 * p.y.tick_font_size, |t| {
            text::block(t, plot.title_size).1 + TITLE_PAD
        }) + offset_height(&yt, p.y.tick_font_size),
        right: 0.5 * p.x.tick_font_size,
    };
    // x tick labels may stick out beyond the plot's edges (a third into
    // the figure's edge padding on the right: 2 pt of matplotlib's 6).
    m.right = m.right.max(after - look().edge_pad / 3.0);
    m.left = m.left.max(before);
    match tt.legend.position {
        LegendPos::Right if !tt.legend.entries.is_empty() => m.right += legend.0 + 2.0 * LABEL_PAD,
        LegendPos::Bottom if !tt.legend.entries.is_empty() => {
            m.bottom += legend.1 + 2.0 * LABEL_PAD
        }
        _ => {}
    }
    if let Some(cb) = &p.colorbar {
        m.right += colorbar_room(p, cb, h);
    }
    m
}

/// The room a colour bar takes right of the plot (the legend's font size).
fn colorbar_room(p: &Panel, cb: &crate::figures::model::ColorBar, plot_h: f64) -> f64 {
    let size = p.legend.font_size;
    let len = plot_h - super::colorbar::title_height(cb, size);
    super::colorbar::width(cb, len.max(10.0), size) + 2.0 * LABEL_PAD
}

/// The legend with as many of its columns as fit `max_w` points wide and,
/// when it is taller than `max_h`, with more columns while they fit.
pub(super) fn fewer_columns(l: &Legend, max_w: f64, max_h: f64) -> Legend {
    let mut out = l.clone();
    while out.columns > 1 && place::legend_size(&out).0 > max_w {
        out.columns -= 1;
    }
    while out.columns < out.entries.len() && place::legend_size(&out).1 > max_h {
        let mut more = out.clone();
        more.columns += 1;
        if place::legend_size(&more).0 > max_w {
            break;
        }
        out = more;
    }
    out
}

//! One panel drawn in its plot area: the grid, the layers, the texts and
//! the legend, the frame and ticks, the titles, a colour bar. Each step is
//! its own function; their order is the painting order.

use super::super::axis::{self, TickSet};
use super::super::labels;
use super::super::lint;
use super::super::margins::{
    Titles, axis_ticks, offset_height, x_label_depth, x_labels_only_depth, y_label_width,
};
use super::super::place;
use super::super::scene::{MarkShape, Prim, Stroke};
use super::marks::{Drawn, draw_layers};
use super::{Area, LABEL_PAD, Scale, TICK_PAD, TITLE_PAD, lines_of, look, push_text, top_centered};
use crate::color::Color;
use crate::figures::model::*;
use crate::font as text;

/// A panel's plot area and the scales that map data into it.
#[derive(Clone, Copy)]
pub(super) struct Frame {
    pub area: Area,
    pub sx: Scale,
    pub sy: Scale,
}

/// Draws panel `p` in `area` (its cell is `cell`), adding its marks'
/// geometry to `marks`; returns where its legend went, if it has one
/// (none for a `best` legend that found no free place inside).
#[allow(clippy::too_many_arguments)]
pub(super) fn draw_panel(
    out: &mut Vec<Prim>,
    notes: &mut Vec<String>,
    marks: &mut Vec<MarkShape>,
    plot: &Plot,
    p: &Panel,
    tt: &Titles,
    (area, cell): (Area, Area),
    legend_size: (f64, f64),
) -> Option<Area> {
    // Fixed texts on marks (bar values, line ends) must not be clipped.
    let grown = labels::fit_texts(p, &area);
    let p = grown.as_ref().unwrap_or(p);
    let f = Frame {
        area,
        sx: Scale::new(&p.x, area.x0, area.x1),
        sy: Scale::new(&p.y, area.y1, area.y0),
    };
    let xset = axis_ticks(&p.x, area.w(), false);
    let yset = axis_ticks(&p.y, area.h(), true);

    // Grid below everything.
    if p.grid != Grid::Off {
        draw_grid(out, p.grid, &f, &xset, &yset);
    }
    // Layers, with obstacles remembered for the legend and label placement.
    let mut drawn = draw_layers(out, p, &f);
    let panel_marks = std::mem::take(&mut drawn.marks);
    let legend_area = draw_texts(
        out,
        notes,
        plot,
        p,
        tt,
        &f,
        &xset,
        legend_size,
        (drawn, &panel_marks),
    );
    marks.extend(panel_marks);

    // Frame, ticks and tick labels (a pie has none: its axes have no
    // ticks, and its frame is not drawn).
    let pie = p.layers.iter().any(|m| matches!(m, Mark::Arcs(_)));
    if !pie {
        draw_spines(out, plot.spines, &area);
    }
    let xdepth = draw_x_ticks(out, p, &f, &xset);
    let ylab_w = draw_y_ticks(out, p, &f, &yset);

    // Axis titles and the panel title.
    let y_off = offset_height(&yset, p.y.tick_font_size);
    draw_titles(out, plot, p, tt, (area, cell), (xdepth, ylab_w, y_off));
    if let Some(la) = legend_area {
        place::draw_legend(out, &tt.legend, la);
    }
    if let Some(cb) = &p.colorbar {
        // Right of the plot, after a legend placed there.
        let mut x0 = area.x1 + 2.0 * LABEL_PAD;
        if p.legend.position == LegendPos::Right && !p.legend.entries.is_empty() {
            x0 += legend_size.0 + 2.0 * LABEL_PAD;
        }
        super::super::colorbar::draw(out, cb, x0, area.y0, area.y1, p.legend.font_size);
    }
    legend_area
}

/// The grid lines at the major ticks (and the minor ones with
/// [`Grid::Both`]), of both axes or of the one [`Grid::X`] or [`Grid::Y`]
/// names.
fn draw_grid(out: &mut Vec<Prim>, grid: Grid, f: &Frame, xset: &TickSet, yset: &TickSet) {
    let area = f.area;
    let minor = grid == Grid::Both;
    let (on_x, on_y) = (grid != Grid::Y, grid != Grid::X);
    // Solid light lines: as quiet as matplotlib's dotted ones, and one
    // element each (a dotted line is drawn as hundreds of segments).
    let grid = Stroke {
        color: Color::rgb(0xe3, 0xe3, 0xe3),
        width: look().grid_width,
        dash: None,
    };
    let xs = xset
        .major
        .iter()
        .map(|(v, _)| *v)
        .chain(xset.minor.iter().copied().filter(|_| minor))
        .filter(|_| on_x);
    for v in xs {
        let px = f.sx.map(v);
        out.push(Prim::Path {
            pts: vec![(px, area.y0), (px, area.y1)],
            closed: false,
            fill: None,
            stroke: Some(grid.clone()),
        });
    }
    let ys = yset
        .major
        .iter()
        .map(|(v, _)| *v)
        .chain(yset.minor.iter().copied().filter(|_| minor))
        .filter(|_| on_y);
    for v in ys {
        let py = f.sy.map(v);
        out.push(Prim::Path {
            pts: vec![(area.x0, py), (area.x1, py)],
            closed: false,
            fill: None,
            stroke: Some(grid.clone()),
        });
    }
}

/// Places the legend, then draws the fixed texts, the line end labels and
/// the movable labels (which avoid all of those); returns the legend's
/// place (drawn later, above the frame).
#[allow(clippy::too_many_arguments)]
fn draw_texts(
    out: &mut Vec<Prim>,
    notes: &mut Vec<String>,
    plot: &Plot,
    p: &Panel,
    tt: &Titles,
    f: &Frame,
    xset: &TickSet,
    legend_size: (f64, f64),
    (drawn, marks): (Drawn, &[MarkShape]),
) -> Option<Area> {
    let Drawn {
        marks: _,
        mut avoid,
        texts,
        deferred_text_layers,
        end_texts,
    } = drawn;
    let (area, sx, sy) = (f.area, f.sx, f.sy);
    let index = lint::MarkIndex::new(marks);
    // Fixed texts where they go (moved off the marks they would lie on),
    // and the line end labels (drawn below, after the legend's placement):
    // `best` keeps the legend off them.
    let in_plot = |(ax, ay): (f64, f64)| {
        ax >= area.x0 - 0.5 && ax <= area.x1 + 0.5 && ay >= area.y0 - 0.5 && ay <= area.y1 + 0.5
    };
    let at: Vec<Option<(f64, f64, Align)>> = texts
        .iter()
        .map(|(li, t)| {
            let anchor = (sx.map(t.x), sy.map(t.y));
            (in_plot(anchor) && !deferred_text_layers.contains(li))
                .then(|| place::fixed_anchor(t, anchor, &area, &index))
        })
        .collect();
    let mut fixed: Vec<Area> = texts
        .iter()
        .zip(&at)
        .filter_map(|((_, t), at)| {
            at.map(|(x, top, align)| place::text_area(&t.text, t.size, x, top, align))
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
    // Legend (placed before movable labels so they can avoid it).
    index.reset();
    let legend_area =
        place_panel_legend(notes, plot, p, tt, f, xset, legend_size, (&index, &fixed));
    // Texts: fixed ones where asked, then movable ones by their markers.
    if let Some(la) = legend_area {
        avoid.boxes.push(la);
        avoid.box_names.push("the legend".into());
    }
    let mut movable = Vec::new();
    for ((li, t), at) in texts.into_iter().zip(at) {
        let (ax, ay) = (sx.map(t.x), sy.map(t.y));
        if !in_plot((ax, ay)) {
            continue;
        }
        let Some((x, top, align)) = at else {
            if deferred_text_layers.contains(&li) {
                movable.push(labels::Label {
                    item: t,
                    anchor: (ax, ay),
                });
            }
            continue;
        };
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
    legend_area
}

/// Places panel `p`'s legend clear of its marks (`index`) and its `fixed`
/// texts; a legend asked inside the plot that covers marks stays and is a
/// note naming them, one below the plot goes under the x axis's labels.
#[allow(clippy::too_many_arguments)]
fn place_panel_legend(
    notes: &mut Vec<String>,
    plot: &Plot,
    p: &Panel,
    tt: &Titles,
    f: &Frame,
    xset: &TickSet,
    legend_size: (f64, f64),
    (index, fixed): (&lint::MarkIndex, &[Area]),
) -> Option<Area> {
    let area = f.area;
    let mut legend_area = place::place_legend(&tt.legend, legend_size, &area, index, fixed);
    if let (Some(la), LegendPos::Inside(fx, fy)) = (legend_area, tt.legend.position) {
        // Kept where the spec asks, but said.
        let covered = index.covered(&la, lint::TOUCH, lint::Over::Legend);
        if !covered.is_empty() {
            notes.push(format!(
                "the legend at {} covers {}; `best` (the default) keeps it off the marks",
                place::inside_name(fx, fy),
                lint::describe(&covered)
            ));
        }
    }
    if let (Some(la), LegendPos::Bottom) = (legend_area.as_mut(), tt.legend.position) {
        // Below the x axis's labels and title, in the room margins keep.
        let mut below = look().tick_size + TICK_PAD;
        if p.x.labels {
            below += x_label_depth(xset, p.x.tick_font_size).0;
            if let Some(t) = &tt.x {
                below += text::block(t, plot.font_size).1 + LABEL_PAD;
            }
        }
        let y0 = area.y1 + below + 1.5 * LABEL_PAD;
        // Centred below the plot, but on the canvas.
        let x0 = la
            .x0
            .min(plot.width - look().edge_pad - legend_size.0)
            .max(look().edge_pad);
        *la = Area {
            x0,
            y0,
            x1: x0 + legend_size.0,
            y1: y0 + legend_size.1,
        };
    }
    legend_area
}

/// The stroke of the frame and the major ticks.
fn axis_stroke() -> Stroke {
    Stroke {
        color: Color::BLACK,
        width: look().axis_width,
        dash: None,
    }
}

/// The stroke of the minor ticks.
fn minor_stroke() -> Stroke {
    Stroke {
        color: Color::BLACK,
        width: look().minor_width,
        dash: None,
    }
}

/// The frame's sides that `s` turns on.
fn draw_spines(out: &mut Vec<Prim>, s: Spines, area: &Area) {
    let axis_stroke = axis_stroke();
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
}

/// The x axis's minor and major ticks and its tick labels; returns the
/// labels' depth (where the axis title goes).
fn draw_x_ticks(out: &mut Vec<Prim>, p: &Panel, f: &Frame, xset: &TickSet) -> f64 {
    let (area, black) = (f.area, Color::BLACK);
    let (axis_stroke, minor_stroke) = (axis_stroke(), minor_stroke());
    for v in &xset.minor {
        let px = f.sx.map(*v);
        out.push(Prim::Path {
            pts: vec![(px, area.y1), (px, area.y1 + look().minor_size)],
            closed: false,
            fill: None,
            stroke: Some(minor_stroke.clone()),
        });
    }
    let (xdepth, lift) = x_label_depth(xset, p.x.tick_font_size);
    for (v, label) in &xset.major {
        let px = f.sx.map(*v);
        out.push(Prim::Path {
            pts: vec![(px, area.y1), (px, area.y1 + look().tick_size)],
            closed: false,
            fill: None,
            stroke: Some(axis_stroke.clone()),
        });
        if !p.x.labels {
            continue;
        }
        let base = area.y1 + look().tick_size + TICK_PAD;
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
    // A factored power of ten: once, right-aligned at the axis's end,
    // below the tick labels (matplotlib's offset text).
    if let Some(o) = xset.offset.as_ref().filter(|_| p.x.labels) {
        let top =
            area.y1 + look().tick_size + TICK_PAD + x_labels_only_depth(xset, p.x.tick_font_size).0;
        push_text(
            out,
            area.x1,
            top + TICK_PAD,
            o,
            p.x.tick_font_size,
            black,
            Align::Right,
        );
    }
    xdepth
}

/// The y axis's minor and major ticks and its tick labels; returns the
/// labels' width (where the axis title goes).
fn draw_y_ticks(out: &mut Vec<Prim>, p: &Panel, f: &Frame, yset: &TickSet) -> f64 {
    let (area, black) = (f.area, Color::BLACK);
    let (axis_stroke, minor_stroke) = (axis_stroke(), minor_stroke());
    for v in &yset.minor {
        let py = f.sy.map(*v);
        out.push(Prim::Path {
            pts: vec![(area.x0 - look().minor_size, py), (area.x0, py)],
            closed: false,
            fill: None,
            stroke: Some(minor_stroke.clone()),
        });
    }
    let (ylab_w, shift) = y_label_width(yset, p.y.tick_font_size);
    for (v, label) in &yset.major {
        let py = f.sy.map(*v);
        out.push(Prim::Path {
            pts: vec![(area.x0 - look().tick_size, py), (area.x0, py)],
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
                area.x0 - look().tick_size - TICK_PAD,
                top_centered(py, n, p.y.tick_font_size),
                label,
                p.y.tick_font_size,
                black,
                Align::Right,
            );
        } else {
            out.push(Prim::TextRotated {
                x: area.x0 - look().tick_size - TICK_PAD - shift,
                y: py,
                text: label.replace(['\n', '\r'], " "),
                size: p.y.tick_font_size,
                color: black,
                align: Align::Right,
                angle: yset.angle,
            });
        }
    }
    // A factored power of ten: once, above the axis's top end, starting at
    // the axis (matplotlib's offset text).
    if let Some(o) = yset.offset.as_ref().filter(|_| p.y.labels) {
        let size = p.y.tick_font_size;
        let top = area.y0 - offset_height(yset, size);
        push_text(out, area.x0, top, o, size, black, Align::Left);
    }
    ylab_w
}

/// The x and y axis titles (beyond the tick labels) and the panel title.
fn draw_titles(
    out: &mut Vec<Prim>,
    plot: &Plot,
    p: &Panel,
    tt: &Titles,
    (area, cell): (Area, Area),
    (xdepth, ylab_w, y_off): (f64, f64, f64),
) {
    let (fs, black) = (plot.font_size, Color::BLACK);
    if let Some(t) = tt.x.as_ref().filter(|_| p.x.labels) {
        let top = area.y1 + look().tick_size + TICK_PAD + xdepth + LABEL_PAD;
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
        let x = area.x0 - look().tick_size - TICK_PAD - ylab_w - LABEL_PAD - fs;
        // Centred on the plot, but kept on the canvas when the plot is
        // shorter than the title.
        let half = text::width(t, fs) / 2.0;
        let cy = ((area.y0 + area.y1) / 2.0)
            .min(plot.height - look().edge_pad - half)
            .max(look().edge_pad + half);
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
        let top = area.y0 - TITLE_PAD - y_off - text::block(t, size).1;
        // Centred over the plot, but inside its cell (titles are wrapped
        // to the cell's width): never over a neighbour's or the edge.
        let half = text::block(t, size).0 / 2.0;
        let cx = ((area.x0 + area.x1) / 2.0)
            .min(cell.x1 - half)
            .max(cell.x0 + half);
        push_text(out, cx, top, t, size, black, Align::Center);
    }
}

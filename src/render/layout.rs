//! Layout: a [`Plot`] in data units to a [`Scene`] in points.
//!
//! Margins are sized from the text they hold (tick labels, axis titles,
//! panel titles, an outside legend), like matplotlib's `bbox_inches="tight"`
//! but inside a fixed figure size, so the PDF is exactly the size the spec
//! asks for. Everything is clipped to the plot area: a value outside the
//! axis is not drawn (plotters would clamp it to the edge).

use super::color::Color;
use super::geometry::stroke_of;
pub use super::geometry::{Area, clip_polyline, clip_segment, marker};
use super::labels;
use super::place;
use super::scene::{Prim, Scene, Stroke};
use super::text;
use super::ticks;
use crate::figures::model::*;

/// Tick mark length and label padding, in points (matplotlib's defaults).
const TICK: f64 = 3.5;
const TICK_PAD: f64 = 3.5;
const LABEL_PAD: f64 = 4.0;
const TITLE_PAD: f64 = 6.0;
const EDGE_PAD: f64 = 6.0;
const AXIS_WIDTH: f64 = 0.8;

/// Maps data values on one axis to points.
#[derive(Debug, Clone, Copy)]
pub struct Scale {
    d0: f64,
    d1: f64,
    p0: f64,
    p1: f64,
    log: bool,
}

impl Scale {
    fn new(axis: &Axis, p0: f64, p1: f64) -> Scale {
        let f = |v: f64| if axis.log { v.log10() } else { v };
        let (p0, p1) = if axis.reverse { (p1, p0) } else { (p0, p1) };
        Scale {
            d0: f(axis.domain.0),
            d1: f(axis.domain.1),
            p0,
            p1,
            log: axis.log,
        }
    }

    /// The position of `v` (may lie outside the plot).
    pub fn map(&self, v: f64) -> f64 {
        let t = if self.log {
            if v <= 0.0 {
                return f64::NAN;
            }
            v.log10()
        } else {
            v
        };
        self.p0 + (t - self.d0) / (self.d1 - self.d0) * (self.p1 - self.p0)
    }
}

/// Tick positions and labels of an axis.
fn axis_ticks(axis: &Axis, length: f64, vertical: bool) -> (Vec<(f64, String)>, Vec<f64>) {
    if let Some(t) = &axis.ticks {
        let inside: Vec<(f64, String)> = t
            .iter()
            .filter(|(v, _)| {
                *v >= axis.domain.0.min(axis.domain.1) - 1e-9
                    && *v <= axis.domain.1.max(axis.domain.0) + 1e-9
            })
            .cloned()
            .collect();
        return (inside, Vec::new());
    }
    if axis.log {
        let major = ticks::log_major(axis.domain.0, axis.domain.1);
        let labels = major.iter().map(|v| (*v, ticks::format_log(*v))).collect();
        return (labels, ticks::log_minor(axis.domain.0, axis.domain.1));
    }
    let per = axis.tick_font_size * if vertical { 2.0 } else { 3.0 };
    let bins = (length / per).floor().max(1.0) as usize;
    let t = ticks::linear(axis.domain.0, axis.domain.1, bins);
    let labels = ticks::format_linear(&t);
    (t.into_iter().zip(labels).collect(), Vec::new())
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

struct Margins {
    left: f64,
    right: f64,
    top: f64,
    bottom: f64,
}

fn margins(p: &Panel, plot: &Plot, w: f64, h: f64, legend: (f64, f64)) -> Margins {
    let fs = plot.font_size;
    let (yt, _) = axis_ticks(&p.y, h, true);
    let (xt, _) = axis_ticks(&p.x, w, false);
    let ylab_w = yt
        .iter()
        .map(|(_, l)| text::block(l, p.y.tick_font_size).0)
        .fold(0.0, f64::max);
    let xlab_lines = xt.iter().map(|(_, l)| lines_of(l)).max().unwrap_or(1);
    let xlab_h = text::block_height(xlab_lines, p.x.tick_font_size);
    let mut m = Margins {
        left: ylab_w + TICK + TICK_PAD + p.y.title.as_ref().map_or(0.0, |_| fs + LABEL_PAD),
        bottom: xlab_h + TICK + TICK_PAD + p.x.title.as_ref().map_or(0.0, |_| fs + LABEL_PAD),
        top: p.title.as_ref().map_or(0.5 * p.y.tick_font_size, |t| {
            text::block(t, plot.title_size).1 + TITLE_PAD
        }),
        right: 0.5 * p.x.tick_font_size,
    };
    // The last x tick label may stick out beyond the plot's right edge.
    if let Some((_, l)) = xt.last() {
        m.right = m
            .right
            .max(text::block(l, p.x.tick_font_size).0 / 2.0 - 2.0);
    }
    match p.legend.position {
        LegendPos::Right if !p.legend.entries.is_empty() => m.right += legend.0 + 2.0 * LABEL_PAD,
        LegendPos::Bottom if !p.legend.entries.is_empty() => m.bottom += legend.1 + 2.0 * LABEL_PAD,
        _ => {}
    }
    m
}

/// Lays out the whole figure.
pub fn layout(plot: &Plot) -> Scene {
    layout_notes(plot).0
}

/// Lays out the whole figure; also returns what could not be laid out
/// cleanly (point labels that still overlap something), as notes.
pub fn layout_notes(plot: &Plot) -> (Scene, Vec<String>) {
    let mut notes = Vec::new();
    let mut prims = Vec::new();
    let (w, h) = (plot.width, plot.height);
    let fs = plot.font_size;
    let title_size = plot.title_size;
    let mut top = EDGE_PAD;
    let single = plot.panels.len() == 1;
    if let Some(t) = &plot.title {
        top += text::block(t, title_size).1 + if single { TITLE_PAD } else { 2.0 * TITLE_PAD };
    }
    let (rows, cols) = plot.layout;
    // Cells are separated by a gap so one panel's axis title never touches
    // the next panel's title.
    let gap = 1.5 * fs;
    let cell_w = (w - 2.0 * EDGE_PAD - gap * (cols - 1) as f64) / cols as f64;
    let cell_h = (h - top - EDGE_PAD - gap * (rows - 1) as f64) / rows as f64;
    let mut plot_areas = Vec::new();
    for (i, p) in plot.panels.iter().enumerate() {
        let (r, c) = (i / cols, i % cols);
        let x0 = EDGE_PAD + c as f64 * (cell_w + gap);
        let y0 = top + r as f64 * (cell_h + gap);
        let cell = Area {
            x0,
            y0,
            x1: x0 + cell_w,
            y1: y0 + cell_h,
        };
        let legend_size = place::legend_size(&p.legend);
        // Two passes: the tick labels depend on the plot size and the
        // margins on the tick labels.
        let mut m = margins(p, plot, cell.w() * 0.8, cell.h() * 0.75, legend_size);
        for _ in 0..2 {
            let (pw, ph) = (cell.w() - m.left - m.right, cell.h() - m.top - m.bottom);
            m = margins(p, plot, pw.max(10.0), ph.max(10.0), legend_size);
        }
        let area = Area {
            x0: cell.x0 + m.left,
            y0: cell.y0 + m.top,
            x1: (cell.x1 - m.right).max(cell.x0 + m.left + 10.0),
            y1: (cell.y1 - m.bottom).max(cell.y0 + m.top + 10.0),
        };
        plot_areas.push(area);
        draw_panel(&mut prims, &mut notes, plot, p, area, legend_size);
    }
    if let Some(t) = &plot.title {
        let cx = match (single, plot_areas.first()) {
            (true, Some(a)) => (a.x0 + a.x1) / 2.0,
            _ => w / 2.0,
        };
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
    let scene = Scene {
        width: w,
        height: h,
        prims,
    };
    (scene, notes)
}

fn draw_panel(
    out: &mut Vec<Prim>,
    notes: &mut Vec<String>,
    plot: &Plot,
    p: &Panel,
    area: Area,
    legend_size: (f64, f64),
) {
    // Fixed texts on marks (bar values, line ends) must not be clipped.
    let grown = labels::fit_texts(p, &area);
    let p = grown.as_ref().unwrap_or(p);
    let fs = plot.font_size;
    let sx = Scale::new(&p.x, area.x0, area.x1);
    let sy = Scale::new(&p.y, area.y1, area.y0);
    let (xt, xminor) = axis_ticks(&p.x, area.w(), false);
    let (yt, yminor) = axis_ticks(&p.y, area.h(), true);
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

    // Legend (placed before movable labels so they can avoid it).
    let legend_area = place::place_legend(&p.legend, legend_size, &area, &obstacles);
    // Texts: fixed ones where asked, then movable ones by their markers.
    if let Some(la) = legend_area {
        avoid.boxes.push(la);
        avoid.box_names.push("the legend".into());
    }
    let mut movable = Vec::new();
    for (li, t) in texts {
        let (ax, ay) = (sx.map(t.x), sy.map(t.y));
        if !(ax >= area.x0 - 0.5
            && ax <= area.x1 + 0.5
            && ay >= area.y0 - 0.5
            && ay <= area.y1 + 0.5)
        {
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
    let ends: Vec<(&TextItem, (f64, f64))> = end_texts
        .into_iter()
        .map(|t| (t, (sx.map(t.x), sy.map(t.y))))
        .filter(|(_, (x, y))| x.is_finite() && y.is_finite())
        .collect();
    for b in labels::draw_end_labels(out, &ends, &area) {
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
    for v in &xminor {
        let px = sx.map(*v);
        out.push(Prim::Path {
            pts: vec![(px, area.y1), (px, area.y1 + 2.0)],
            closed: false,
            fill: None,
            stroke: Some(minor_stroke.clone()),
        });
    }
    for (v, label) in &xt {
        let px = sx.map(*v);
        out.push(Prim::Path {
            pts: vec![(px, area.y1), (px, area.y1 + TICK)],
            closed: false,
            fill: None,
            stroke: Some(axis_stroke.clone()),
        });
        push_text(
            out,
            px,
            area.y1 + TICK + TICK_PAD,
            label,
            p.x.tick_font_size,
            black,
            Align::Center,
        );
    }
    for v in &yminor {
        let py = sy.map(*v);
        out.push(Prim::Path {
            pts: vec![(area.x0 - 2.0, py), (area.x0, py)],
            closed: false,
            fill: None,
            stroke: Some(minor_stroke.clone()),
        });
    }
    let mut ylab_w: f64 = 0.0;
    for (v, label) in &yt {
        let py = sy.map(*v);
        out.push(Prim::Path {
            pts: vec![(area.x0 - TICK, py), (area.x0, py)],
            closed: false,
            fill: None,
            stroke: Some(axis_stroke.clone()),
        });
        let n = lines_of(label);
        ylab_w = ylab_w.max(text::block(label, p.y.tick_font_size).0);
        push_text(
            out,
            area.x0 - TICK - TICK_PAD,
            top_centered(py, n, p.y.tick_font_size),
            label,
            p.y.tick_font_size,
            black,
            Align::Right,
        );
    }

    // Axis titles and the panel title.
    if let Some(t) = &p.x.title {
        let xlab_lines = xt.iter().map(|(_, l)| lines_of(l)).max().unwrap_or(1);
        let top = area.y1
            + TICK
            + TICK_PAD
            + text::block_height(xlab_lines, p.x.tick_font_size)
            + LABEL_PAD;
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
    if let Some(t) = &p.y.title {
        let x = area.x0 - TICK - TICK_PAD - ylab_w - LABEL_PAD - fs;
        out.push(Prim::Text {
            x,
            y: (area.y0 + area.y1) / 2.0,
            text: t.clone(),
            size: fs,
            color: black,
            align: Align::Center,
            vertical: true,
        });
    }
    if let Some(t) = &p.title {
        let size = plot.title_size;
        let top = area.y0 - TITLE_PAD - text::block(t, size).1;
        push_text(
            out,
            (area.x0 + area.x1) / 2.0,
            top,
            t,
            size,
            black,
            Align::Center,
        );
    }
    if let Some(la) = legend_area {
        place::draw_legend(out, &p.legend, la);
    }
}

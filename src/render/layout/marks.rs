//! A panel's layers drawn in points and clipped to its plot area, with
//! what they leave for the legend and the labels to avoid.

use super::super::geometry::stroke_of;
use super::super::labels;
use super::super::scene::{MarkShape, Prim, Shape};
use super::panel::Frame;
use super::{Area, clip_polygon, clip_polyline, clip_segment, marker};
use crate::figures::model::*;

/// What drawing the layers leaves behind: what the legend and the labels
/// must avoid, and the texts, which are drawn after the legend is placed.
#[derive(Default)]
pub(super) struct Drawn<'a> {
    /// Every mark's geometry: what the legend's `best` placement and the
    /// fixed texts keep off, and what the scene's lint checks texts against.
    pub marks: Vec<MarkShape>,
    /// What movable labels keep off.
    pub avoid: labels::Obstacles,
    /// Each text with its layer's index.
    pub texts: Vec<(usize, &'a TextItem)>,
    /// The layers whose texts move to avoid overlaps.
    pub deferred_text_layers: Vec<usize>,
    /// Labels at the ends of lines.
    pub end_texts: Vec<&'a TextItem>,
}

/// Draws `p`'s layers in painting order.
pub(super) fn draw_layers<'a>(out: &mut Vec<Prim>, p: &'a Panel, f: &Frame) -> Drawn<'a> {
    let mut d = Drawn::default();
    for (li, mark) in p.layers.iter().enumerate() {
        draw_one(out, &mut d, li, mark, p, f);
    }
    d
}

/// Draws layer `li`'s `mark`: its primitives, its geometry and its texts
/// into `d`. A rasterized mark's primitives become one [`Prim::Raster`].
fn draw_one<'a>(
    out: &mut Vec<Prim>,
    d: &mut Drawn<'a>,
    li: usize,
    mark: &'a Mark,
    p: &'a Panel,
    f: &Frame,
) {
    match mark {
        Mark::Raster(inner) => {
            let start = out.len();
            draw_one(out, d, li, inner, p, f);
            let prims = out.split_off(start);
            if !prims.is_empty() {
                out.push(Prim::Raster(prims));
            }
        }
        Mark::Rects(items) => rects(out, d, items, f),
        Mark::Points(items) => points(out, d, items, f),
        Mark::Lines(series) => lines(out, d, series, f),
        Mark::Rules(items) => rules(out, d, items, p, f),
        Mark::Segments(items) => segments(out, d, items, f),
        Mark::Areas(items) => areas(out, d, items, f),
        Mark::Arcs(items) => super::arcs::arcs(out, d, items, f),
        // `compile` flattens groups; a hand-built Plot may still hold one.
        Mark::Group(_) => {}
        Mark::Hatches(items) => hatches(out, items, f),
        Mark::EndLabels(items) => d.end_texts.extend(items),
        Mark::Texts {
            items,
            avoid_overlap,
        } => {
            if *avoid_overlap {
                d.deferred_text_layers.push(li);
            }
            for t in items {
                d.texts.push((li, t));
            }
        }
    }
}

fn rects(out: &mut Vec<Prim>, d: &mut Drawn, items: &[RectItem], f: &Frame) {
    let (area, sx, sy) = (f.area, f.sx, f.sy);
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
        if !(rect.x1 > rect.x0 || rect.y1 > rect.y0) || rect.x1 < rect.x0 || rect.y1 < rect.y0 {
            continue;
        }
        // A rect spanning the plot on one side is a band (a shaded range).
        d.marks.push(MarkShape {
            kind: if r.x.is_some() && r.y.is_some() {
                "bar"
            } else {
                "band"
            },
            shape: Shape::Box(rect),
        });
        if r.x.is_some() && r.y.is_some() {
            d.avoid.boxes.push(rect);
            d.avoid.box_names.push("a bar".into());
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

fn points(out: &mut Vec<Prim>, d: &mut Drawn, items: &[PointItem], f: &Frame) {
    let area = f.area;
    for pt in items {
        let (cx, cy) = (f.sx.map(pt.x), f.sy.map(pt.y));
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
        d.marks.push(MarkShape {
            kind: "point",
            shape: Shape::Box(m),
        });
        d.avoid.markers.push(m);
        out.push(marker(pt.shape, cx, cy, pt.diameter, &pt.style));
    }
}

/// Half a stroke's width (points), 0 without a stroke.
fn half_stroke(style: &Style) -> f64 {
    if style.stroke.is_some() {
        style.stroke_width.max(0.0) / 2.0
    } else {
        0.0
    }
}

fn lines(out: &mut Vec<Prim>, d: &mut Drawn, series: &[Series], f: &Frame) {
    let area = f.area;
    for s in series {
        let pts: Vec<(f64, f64)> = s
            .points
            .iter()
            .map(|(x, y)| (f.sx.map(*x), f.sy.map(*y)))
            .collect();
        for run in clip_polyline(&pts, &area) {
            d.avoid.lines.push(run.clone());
            d.marks.push(MarkShape {
                kind: "line",
                shape: Shape::Polyline(run.clone(), half_stroke(&s.style)),
            });
            out.push(Prim::Path {
                pts: run,
                closed: false,
                fill: None,
                stroke: stroke_of(&s.style),
            });
        }
        for &(cx, cy) in &pts {
            if let Some((shape, dia)) = s.marker
                && cx >= area.x0
                && cx <= area.x1
                && cy >= area.y0
                && cy <= area.y1
            {
                let m = Area {
                    x0: cx - dia / 2.0,
                    y0: cy - dia / 2.0,
                    x1: cx + dia / 2.0,
                    y1: cy + dia / 2.0,
                };
                d.avoid.markers.push(m);
                d.marks.push(MarkShape {
                    kind: "point",
                    shape: Shape::Box(m),
                });
                let st = Style {
                    fill: s.style.stroke,
                    stroke: None,
                    stroke_width: 0.0,
                    dash: Dash::Solid,
                };
                out.push(marker(shape, cx, cy, dia, &st));
            }
        }
    }
}

fn rules(out: &mut Vec<Prim>, d: &mut Drawn, items: &[RuleItem], p: &Panel, f: &Frame) {
    let (area, sx, sy) = (f.area, f.sx, f.sy);
    for r in items {
        let seg = match r.kind {
            RuleKind::X(x) => ((sx.map(x), area.y0), (sx.map(x), area.y1)),
            RuleKind::Y(y) => ((area.x0, sy.map(y)), (area.x1, sy.map(y))),
            RuleKind::Diagonal => {
                let lo = p.x.domain.0.max(p.y.domain.0);
                let hi = p.x.domain.1.min(p.y.domain.1);
                ((sx.map(lo), sy.map(lo)), (sx.map(hi), sy.map(hi)))
            }
            RuleKind::Segment(a, b) => ((sx.map(a.0), sy.map(a.1)), (sx.map(b.0), sy.map(b.1))),
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
            d.avoid.lines.push(vec![a, b]);
            d.marks.push(MarkShape {
                kind: "rule",
                shape: Shape::Polyline(vec![a, b], half_stroke(&r.style)),
            });
            out.push(Prim::Path {
                pts: vec![a, b],
                closed: false,
                fill: None,
                stroke: stroke_of(&r.style),
            });
        }
    }
}

fn segments(out: &mut Vec<Prim>, d: &mut Drawn, items: &[Segment], f: &Frame) {
    let (sx, sy) = (f.sx, f.sy);
    for s in items {
        let (a, b) = (
            (sx.map(s.from.0), sy.map(s.from.1)),
            (sx.map(s.to.0), sy.map(s.to.1)),
        );
        if let Some((a, b)) = clip_segment(a, b, &f.area) {
            d.avoid.lines.push(vec![a, b]);
            d.marks.push(MarkShape {
                kind: "error bar",
                shape: Shape::Polyline(vec![a, b], half_stroke(&s.style)),
            });
            out.push(Prim::Path {
                pts: vec![a, b],
                closed: false,
                fill: None,
                stroke: stroke_of(&s.style),
            });
        }
    }
}

fn areas(out: &mut Vec<Prim>, d: &mut Drawn, items: &[AreaItem], f: &Frame) {
    for a in items {
        let pts: Vec<(f64, f64)> = a
            .points
            .iter()
            .map(|(x, y)| (f.sx.map(*x), f.sy.map(*y)))
            .filter(|(x, y)| x.is_finite() && y.is_finite())
            .collect();
        let pts = clip_polygon(&pts, &f.area);
        if pts.len() < 3 {
            continue;
        }
        d.marks.push(MarkShape {
            kind: "area",
            shape: Shape::Polygon(pts.clone()),
        });
        out.push(Prim::Path {
            pts,
            closed: true,
            fill: a.style.fill,
            stroke: stroke_of(&a.style),
        });
    }
}

fn hatches(out: &mut Vec<Prim>, items: &[HatchItem], f: &Frame) {
    let area = f.area;
    for hi in items {
        let (x0, x1) = (f.sx.map(hi.x.0), f.sx.map(hi.x.1));
        let (y0, y1) = (f.sy.map(hi.y.0), f.sy.map(hi.y.1));
        let r = Area {
            x0: x0.min(x1).max(area.x0),
            x1: x0.max(x1).min(area.x1),
            y0: y0.min(y1).max(area.y0),
            y1: y0.max(y1).min(area.y1),
        };
        super::super::hatch::hatch(out, &r, hi.pattern);
    }
}

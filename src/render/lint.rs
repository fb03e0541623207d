//! A check over a laid-out [`Scene`]: text that leaves the canvas, texts
//! that cover each other and texts under a legend, which a reader could not
//! read. `artifact gen`
//! prints what it finds as notes naming the figure; tests assert it finds
//! nothing (`assert!(lint::problems(&scene).is_empty())`).

use super::geometry::Area;
use super::scene::{Prim, Scene};
use super::text;
use crate::figures::model::Align;

/// How far (points) a text may cross the canvas edge or another text
/// before it counts: glyph boxes are font boxes, wider than the ink.
const SLACK: f64 = 0.5;

/// The most overlapping pairs [`problems`] names one by one.
pub const MAX_PAIRS: usize = 10;

/// The four corners of a text `w` wide, `size` tall, turned `angle`
/// degrees clockwise about an anchor at (x, y) on the middle of the line
/// at the end `align` names (as [`Prim::TextRotated`] is drawn).
pub fn turned_corners(
    x: f64,
    y: f64,
    w: f64,
    size: f64,
    align: Align,
    angle: f64,
) -> [(f64, f64); 4] {
    let (x0, x1) = match align {
        Align::Left => (0.0, w),
        Align::Center => (-w / 2.0, w / 2.0),
        Align::Right => (-w, 0.0),
    };
    let (s, c) = angle.to_radians().sin_cos();
    let turn = |(px, py): (f64, f64)| (x + px * c - py * s, y + px * s + py * c);
    let h = size / 2.0;
    [turn((x0, -h)), turn((x1, -h)), turn((x1, h)), turn((x0, h))]
}

/// The box around a set of points.
pub fn bounds(pts: &[(f64, f64)]) -> Area {
    let mut a = Area {
        x0: f64::INFINITY,
        y0: f64::INFINITY,
        x1: f64::NEG_INFINITY,
        y1: f64::NEG_INFINITY,
    };
    for &(x, y) in pts {
        a.x0 = a.x0.min(x);
        a.x1 = a.x1.max(x);
        a.y0 = a.y0.min(y);
        a.y1 = a.y1.max(y);
    }
    a
}

/// Each text of the scene with its four corners (a turned text's are
/// turned).
pub fn text_quads(scene: &Scene) -> Vec<(&str, [(f64, f64); 4])> {
    let mut out = Vec::new();
    for p in &scene.prims {
        match p {
            Prim::TextRotated {
                x,
                y,
                text: t,
                size,
                align,
                angle,
                ..
            } => {
                let w = text::width(t, *size);
                out.push((t.as_str(), turned_corners(*x, *y, w, *size, *align, *angle)));
            }
            Prim::Text { .. } => {
                if let Some((t, a)) = text_boxes_of(std::slice::from_ref(p)).pop() {
                    out.push((t, [(a.x0, a.y0), (a.x1, a.y0), (a.x1, a.y1), (a.x0, a.y1)]));
                }
            }
            _ => {}
        }
    }
    out
}

/// Whether two convex quadrilaterals overlap by more than `slack` points
/// (separating axes: the edges' normals of both).
fn quads_overlap(a: &[(f64, f64); 4], b: &[(f64, f64); 4], slack: f64) -> bool {
    for q in [a, b] {
        for i in 0..4 {
            let (p0, p1) = (q[i], q[(i + 1) % 4]);
            let (nx, ny) = (p0.1 - p1.1, p1.0 - p0.0);
            let len = (nx * nx + ny * ny).sqrt();
            if len == 0.0 {
                continue;
            }
            let proj = |r: &[(f64, f64); 4]| {
                r.iter()
                    .map(|(x, y)| (x * nx + y * ny) / len)
                    .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
                        (lo.min(v), hi.max(v))
                    })
            };
            let (a0, a1) = proj(a);
            let (b0, b1) = proj(b);
            if a1.min(b1) - a0.max(b0) <= slack {
                return false;
            }
        }
    }
    true
}

/// Each text of the scene with the box it covers (axis-aligned; a turned
/// text's box is its corners' box).
pub fn text_boxes(scene: &Scene) -> Vec<(&str, Area)> {
    text_boxes_of(&scene.prims)
}

fn text_boxes_of(prims: &[Prim]) -> Vec<(&str, Area)> {
    let mut out = Vec::new();
    for p in prims {
        match p {
            Prim::Text {
                x,
                y,
                text: t,
                size,
                align,
                vertical,
                ..
            } => {
                let w = text::width(t, *size);
                let a = if *vertical {
                    // Reads upwards: `x` is its left edge, `y` its centre
                    // along the line (as drawn by svg.rs: Rotate270).
                    let (y0, y1) = match align {
                        Align::Left => (y - w, *y),
                        Align::Center => (y - w / 2.0, y + w / 2.0),
                        Align::Right => (*y, y + w),
                    };
                    Area {
                        x0: *x,
                        y0,
                        x1: x + size,
                        y1,
                    }
                } else {
                    let x0 = match align {
                        Align::Left => *x,
                        Align::Center => x - w / 2.0,
                        Align::Right => x - w,
                    };
                    Area {
                        x0,
                        y0: *y,
                        x1: x0 + w,
                        y1: y + size,
                    }
                };
                out.push((t.as_str(), a));
            }
            Prim::TextRotated {
                x,
                y,
                text: t,
                size,
                align,
                angle,
                ..
            } => {
                let w = text::width(t, *size);
                let c = turned_corners(*x, *y, w, *size, *align, *angle);
                out.push((t.as_str(), bounds(&c)));
            }
            _ => {}
        }
    }
    out
}

/// What a reader would trip over in `scene`, one sentence each, in
/// drawing order: a text (partly) outside the canvas, two texts that
/// overlap (tick labels on each other, a title on the legend), and a text
/// (partly) under a legend's box (a bar's value label). Empty when
/// the figure is clean. Turned texts are checked by their boxes, so two
/// neighbouring turned labels may be reported though their ink does not
/// touch only when they are closer than a line height.
pub fn problems(scene: &Scene) -> Vec<String> {
    let boxes = text_boxes(scene);
    let quads = text_quads(scene);
    let mut out = Vec::new();
    for (t, a) in &boxes {
        if t.trim().is_empty() {
            continue;
        }
        let sides: Vec<String> = [
            ("left", -a.x0),
            ("top", -a.y0),
            ("right", a.x1 - scene.width),
            ("bottom", a.y1 - scene.height),
        ]
        .into_iter()
        .filter(|(_, by)| *by > SLACK)
        .map(|(side, by)| format!("{side} by {by:.1} pt"))
        .collect();
        if !sides.is_empty() {
            out.push(format!(
                "text \"{}\" crosses the canvas edge ({})",
                t.escape_debug(),
                sides.join(", ")
            ));
        }
    }
    // Pairs by a sweep along x: texts are few, but a scatter's labels may
    // number thousands.
    let mut order: Vec<usize> = (0..boxes.len())
        .filter(|i| !boxes[*i].0.trim().is_empty())
        .collect();
    order.sort_by(|a, b| boxes[*a].1.x0.total_cmp(&boxes[*b].1.x0).then(a.cmp(b)));
    let mut pairs = Vec::new();
    for (k, &i) in order.iter().enumerate() {
        let a = &boxes[i].1;
        for &j in &order[k + 1..] {
            let b = &boxes[j].1;
            if b.x0 > a.x1 - SLACK {
                break;
            }
            let dx = a.x1.min(b.x1) - a.x0.max(b.x0);
            let dy = a.y1.min(b.y1) - a.y0.max(b.y0);
            if dx > SLACK && dy > SLACK && quads_overlap(&quads[i].1, &quads[j].1, SLACK) {
                pairs.push((i.min(j), i.max(j)));
            }
        }
    }
    pairs.sort();
    // A crowded scatter's labels could give thousands: the first few say
    // what is wrong.
    let more = pairs.len().saturating_sub(MAX_PAIRS);
    pairs.truncate(MAX_PAIRS);
    for (i, j) in pairs {
        out.push(format!(
            "texts \"{}\" and \"{}\" overlap",
            boxes[i].0.escape_debug(),
            boxes[j].0.escape_debug()
        ));
    }
    if more > 0 {
        out.push(format!("and {more} more overlapping pairs of texts"));
    }
    // A legend's box hides what lies under it (its own texts lie inside).
    for l in &scene.legends {
        for (t, a) in &boxes {
            let inside = a.x0 >= l.x0 - SLACK
                && a.x1 <= l.x1 + SLACK
                && a.y0 >= l.y0 - SLACK
                && a.y1 <= l.y1 + SLACK;
            let dx = a.x1.min(l.x1) - a.x0.max(l.x0);
            let dy = a.y1.min(l.y1) - a.y0.max(l.y0);
            if !t.trim().is_empty() && !inside && dx > SLACK && dy > SLACK {
                out.push(format!("the legend covers text \"{}\"", t.escape_debug()));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::color::Color;

    fn text(x: f64, y: f64, s: &str) -> Prim {
        Prim::Text {
            x,
            y,
            text: s.into(),
            size: 10.0,
            color: Color::BLACK,
            align: Align::Left,
            vertical: false,
        }
    }

    #[test]
    fn finds_text_off_the_canvas_and_texts_on_each_other() {
        let scene = Scene {
            width: 100.0,
            height: 50.0,
            prims: vec![
                text(-5.0, 2.0, "cut"),
                text(20.0, 20.0, "one"),
                text(30.0, 25.0, "two"),
            ],
            ..Scene::default()
        };
        assert_eq!(
            problems(&scene),
            [
                "text \"cut\" crosses the canvas edge (left by 5.0 pt)",
                "texts \"one\" and \"two\" overlap"
            ]
        );
    }

    #[test]
    fn a_text_under_a_legend_is_found_but_not_the_legends_own() {
        let scene = Scene {
            width: 100.0,
            height: 50.0,
            prims: vec![text(12.0, 12.0, "base"), text(25.0, 30.0, "10.1")],
            legends: vec![Area {
                x0: 10.0,
                y0: 10.0,
                x1: 40.0,
                y1: 35.0,
            }],
        };
        assert_eq!(problems(&scene), ["the legend covers text \"10.1\""]);
    }

    #[test]
    fn a_text_turned_minus_90_hangs_below_its_anchor() {
        let c = turned_corners(10.0, 0.0, 30.0, 10.0, Align::Right, -90.0);
        let b = bounds(&c);
        assert!((b.x0 - 5.0).abs() < 1e-9 && (b.x1 - 15.0).abs() < 1e-9);
        assert!(b.y0.abs() < 1e-9 && (b.y1 - 30.0).abs() < 1e-9);
    }
}

//! A check over a laid-out [`Scene`]: text that leaves the canvas, texts
//! that cover each other, texts under a legend and texts on marks
//! ([`text_on_marks`]), which a reader could not read. `artifact gen`
//! prints what it finds as notes naming the figure; tests assert it finds
//! nothing (`assert!(lint::problems(&scene).is_empty())`).

mod on_marks;

pub use on_marks::{MAX_WORK, MarkIndex, OnMarks, Over, TOUCH, covered, describe, text_on_marks};

use super::geometry::Area;
use super::scene::{Prim, Scene};
use crate::figures::model::Align;
use crate::font as text;

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
    text::with_face(scene.face, || quads_of(&scene.prims))
}

fn quads_of(prims: &[Prim]) -> Vec<(&str, [(f64, f64); 4])> {
    let mut out = Vec::new();
    for p in prims {
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

/// The first [`MAX_PAIRS`] overlapping pairs of texts (by drawing order of
/// the first, then the second), and a last line when there are more. Texts go into
/// grid cells about a typical text's size, and each is compared only with
/// the later texts of its cells; the search stops at the first pair past
/// the cap, or once it has compared [`MAX_COMPARISONS`] pairs (say, tens of
/// thousands of tick labels crushed onto one spot), so time and memory stay
/// about linear in the texts, where all pairs of 100,000 bar labels took
/// gigabytes.
fn overlapping_pairs(
    boxes: &[(&str, Area)],
    quads: &[(&str, [(f64, f64); 4])],
) -> (Vec<(usize, usize)>, Option<&'static str>) {
    let live: Vec<usize> = (0..boxes.len())
        .filter(|&i| {
            !boxes[i].0.trim().is_empty()
                && boxes[i].1.x0.is_finite()
                && boxes[i].1.y0.is_finite()
                && boxes[i].1.x1.is_finite()
                && boxes[i].1.y1.is_finite()
        })
        .collect();
    if live.len() < 2 {
        return (Vec::new(), None);
    }
    // Cell size: the median text's box, so a cell holds few texts that do
    // not overlap each other.
    let median = |f: &dyn Fn(&Area) -> f64| {
        let mut v: Vec<f64> = live.iter().map(|&i| f(&boxes[i].1)).collect();
        v.sort_by(f64::total_cmp);
        v[v.len() / 2].max(1.0)
    };
    let cw = median(&|a: &Area| a.x1 - a.x0);
    let ch = median(&|a: &Area| a.y1 - a.y0);
    // A text wider than this many cells (a title) is compared with all.
    const MAX_CELLS: i64 = 64;
    let cells_of = |a: &Area| {
        let c = |v: f64, d: f64| (v / d).floor().clamp(-1e12, 1e12) as i64;
        (c(a.x0, cw), c(a.x1, cw), c(a.y0, ch), c(a.y1, ch))
    };
    let mut grid: std::collections::HashMap<(i64, i64), Vec<usize>> = Default::default();
    let mut big = Vec::new();
    for &i in &live {
        let (cx0, cx1, cy0, cy1) = cells_of(&boxes[i].1);
        if (cx1 - cx0 + 1).saturating_mul(cy1 - cy0 + 1) > MAX_CELLS {
            big.push(i);
            continue;
        }
        for cx in cx0..=cx1 {
            for cy in cy0..=cy1 {
                grid.entry((cx, cy)).or_default().push(i);
            }
        }
    }
    let mut pairs = Vec::new();
    let mut compared = 0usize;
    let mut cand = Vec::new();
    for &i in &live {
        cand.clear();
        let (cx0, cx1, cy0, cy1) = cells_of(&boxes[i].1);
        if big.binary_search(&i).is_ok() {
            cand.extend(live.iter().copied().filter(|&j| j > i));
        } else {
            for cx in cx0..=cx1 {
                for cy in cy0..=cy1 {
                    if let Some(v) = grid.get(&(cx, cy)) {
                        // Cells list texts in drawing order.
                        let from = v.partition_point(|&j| j <= i);
                        cand.extend_from_slice(&v[from..]);
                    }
                }
            }
            cand.extend(big.iter().copied().filter(|&j| j > i));
        }
        cand.sort_unstable();
        cand.dedup();
        let mut found = Vec::new();
        for &j in &cand {
            compared += 1;
            let (a, b) = (&boxes[i].1, &boxes[j].1);
            let dx = a.x1.min(b.x1) - a.x0.max(b.x0);
            let dy = a.y1.min(b.y1) - a.y0.max(b.y0);
            if dx > SLACK && dy > SLACK && quads_overlap(&quads[i].1, &quads[j].1, SLACK) {
                found.push((i, j));
            }
        }
        pairs.extend(found);
        if pairs.len() > MAX_PAIRS {
            pairs.truncate(MAX_PAIRS);
            return (pairs, Some("and more overlapping pairs of texts"));
        }
        if compared > MAX_COMPARISONS {
            // Not all pairs were looked at: there may be more.
            return (
                pairs,
                Some("and maybe more overlapping pairs of texts (too many texts to compare all)"),
            );
        }
    }
    (pairs, None)
}

/// Past this many comparisons [`problems`] stops looking for overlaps.
pub const MAX_COMPARISONS: usize = 5_000_000;

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
    text::with_face(scene.face, || text_boxes_of(&scene.prims))
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
/// (partly) under a legend's box (a bar's value label), and a text on a
/// mark (a rule through a value label; a legend on marks is layout's note,
/// which names its position). Empty when
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
    let (pairs, more) = overlapping_pairs(&boxes, &quads);
    for (i, j) in pairs {
        out.push(format!(
            "texts \"{}\" and \"{}\" overlap",
            boxes[i].0.escape_debug(),
            boxes[j].0.escape_debug()
        ));
    }
    if let Some(m) = more {
        out.push(m.to_string());
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
    let (on, stopped) = text_on_marks(scene);
    let on: Vec<OnMarks> = on.into_iter().filter(|o| !o.legend).collect();
    for o in on.iter().take(MAX_PAIRS) {
        out.push(format!(
            "text \"{}\" lies on {}",
            o.text.escape_debug(),
            describe(&o.covered)
        ));
    }
    if on.len() > MAX_PAIRS {
        out.push(format!("and {} more texts on marks", on.len() - MAX_PAIRS));
    }
    if stopped {
        out.push("and maybe more texts on marks (too many to compare all)".into());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::color::Color;

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
            ..Scene::default()
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

    /// 100,000 labels on one spot (a stacked bar's) once took gigabytes
    /// and minutes: every pair was collected before the first ten were named.
    #[test]
    fn lint_problems_of_100k_overlapping_texts_is_bounded() {
        let prims = (0..100_000)
            .map(|i| text(10.0 + (i % 7) as f64, 10.0, "label"))
            .collect();
        let scene = Scene {
            width: 100.0,
            height: 50.0,
            prims,
            ..Scene::default()
        };
        let p = problems(&scene);
        assert_eq!(p.len(), MAX_PAIRS + 1);
        assert_eq!(p[0], "texts \"label\" and \"label\" overlap");
        assert_eq!(p[MAX_PAIRS], "and more overlapping pairs of texts");
    }

    /// 30,000 tick labels side by side along one row (a categorical axis)
    /// compare each only with its neighbours.
    #[test]
    fn lint_problems_of_a_long_row_of_texts_names_first_pairs_in_order() {
        let prims = (0..30_000)
            .map(|i| text(i as f64 * 10.0, 10.0, &format!("c{i}")))
            .collect();
        let scene = Scene {
            width: 1e6,
            height: 50.0,
            prims,
            ..Scene::default()
        };
        let p = problems(&scene);
        assert_eq!(p.len(), MAX_PAIRS + 1);
        assert_eq!(p[0], "texts \"c0\" and \"c1\" overlap");
        assert_eq!(p[9], "texts \"c9\" and \"c10\" overlap");
    }
}

//! An `arc` layer's wedges in points: a pie (or donut) centred in the
//! plot, with each wedge's label inside it when it fits there, else just
//! outside the pie, moved off the outside labels before it.

use super::super::geometry::stroke_of;
use super::super::lint;
use super::super::place;
use super::super::scene::{MarkShape, Prim, Shape};
use super::marks::Drawn;
use super::panel::Frame;
use super::{Area, push_text};
use crate::color::Color;
use crate::figures::model::*;
use crate::font as text;

/// Room between the pie and a label outside it, in points.
const OUTSIDE_PAD: f64 = 4.0;

/// The centre and default radius of a panel's pie: the plot's centre and
/// half its smaller side.
pub fn pie_frame(area: &Area) -> ((f64, f64), f64) {
    (
        ((area.x0 + area.x1) / 2.0, (area.y0 + area.y1) / 2.0),
        area.w().min(area.h()) / 2.0,
    )
}

/// Where a wedge's label sits: its block's top-left anchor, alignment and
/// box.
struct Placed {
    x: f64,
    top: f64,
    align: Align,
    bx: Area,
}

/// Draws the wedges, then their labels: centred at each wedge's middle
/// angle, halfway across a donut's ring or at 0.6 of a pie's radius
/// (matplotlib's `pctdistance`) when the text fits in the wedge there;
/// else outside the pie on that angle, aligned away from it. Each wedge's
/// outline is what the legend and texts keep off.
pub(super) fn arcs(out: &mut Vec<Prim>, d: &mut Drawn, items: &[ArcItem], f: &Frame) {
    let (c, mut fit) = pie_frame(&f.area);
    // Labels outside a pie of the default size need room above and below
    // it: the pie shrinks by the tallest of them (matplotlib keeps the size
    // and lets such labels leave the figure).
    let room = items
        .iter()
        .filter(|a| a.outer.is_none())
        .filter_map(|a| {
            let (t, size, _) = a.label.as_ref()?;
            let inner = a.inner.clamp(0.0, fit);
            (!fits(a, (inner, fit), t, *size)).then(|| text::block(t, *size).1)
        })
        .fold(0.0, f64::max);
    if room > 0.0 {
        fit = (fit - room - OUTSIDE_PAD).max(fit / 2.0);
    }
    let mut labels: Vec<(Placed, &str, f64, Color)> = Vec::new();
    let mut outside: Vec<Area> = Vec::new();
    for a in items {
        let outer = a.outer.unwrap_or(fit).max(0.0);
        let inner = a.inner.clamp(0.0, outer);
        d.marks.push(MarkShape {
            kind: "wedge",
            shape: Shape::Polygon(wedge_outline(c, (inner, outer), (a.start, a.end))),
        });
        out.push(Prim::Wedge {
            cx: c.0,
            cy: c.1,
            inner,
            outer,
            start: a.start,
            end: a.end,
            fill: a.style.fill,
            stroke: stroke_of(&a.style),
        });
        if let Some((t, size, color)) = &a.label {
            let (p, inside) = place_label(a, c, (inner, outer), t, *size, &mut outside);
            let color = if inside { *color } else { Color::BLACK };
            d.avoid.boxes.push(p.bx);
            d.avoid.box_names.push(t.clone());
            labels.push((p, t, *size, color));
        }
    }
    for (p, t, size, color) in labels {
        push_text(out, p.x, p.top, t, size, color, p.align);
    }
}

/// A wedge's outline in points: its outer arc, then its inner arc back (or
/// the centre), every 5 degrees or finer; angles in degrees clockwise
/// from 12 o'clock, as [`Prim::Wedge`] draws them.
fn wedge_outline(
    c: (f64, f64),
    (inner, outer): (f64, f64),
    (a0, a1): (f64, f64),
) -> Vec<(f64, f64)> {
    let span = (a1 - a0).clamp(0.0, 360.0);
    let steps = ((span / 5.0).ceil() as usize).clamp(1, 72);
    let at = |r: f64, deg: f64| {
        let (s, k) = deg.to_radians().sin_cos();
        (c.0 + r * s, c.1 - r * k)
    };
    let mut pts: Vec<(f64, f64)> = (0..=steps)
        .map(|i| at(outer, a0 + span * i as f64 / steps as f64))
        .collect();
    if inner > 0.0 {
        pts.extend(
            (0..=steps)
                .rev()
                .map(|i| at(inner, a0 + span * i as f64 / steps as f64)),
        );
    } else {
        pts.push(c);
    }
    pts
}

/// Where an inside label's centre sits from the pie's centre: halfway
/// across a donut's ring, at 0.6 of a pie's radius.
fn label_radius(inner: f64, outer: f64) -> f64 {
    if inner > 0.0 {
        (inner + outer) / 2.0
    } else {
        0.6 * outer
    }
}

/// Whether label `t` at `size` fits inside wedge `a`: its block, centred
/// at the label's radius and half a point larger all round (what the
/// scene's lint counts as touching), inside the wedge's outline.
fn fits(a: &ArcItem, (inner, outer): (f64, f64), t: &str, size: f64) -> bool {
    let (w, h) = text::block(t, size);
    let mid = ((a.start + a.end) / 2.0).to_radians();
    let r = label_radius(inner, outer);
    let (x, y) = (r * mid.sin(), -r * mid.cos());
    let b = place::block_area((w, h), x, y - h / 2.0, Align::Center);
    let t = lint::TOUCH;
    let grown = Area {
        x0: b.x0 - t,
        y0: b.y0 - t,
        x1: b.x1 + t,
        y1: b.y1 + t,
    };
    Shape::Polygon(wedge_outline((0.0, 0.0), (inner, outer), (a.start, a.end))).holds(&grown)
}

/// A wedge's label: inside when its box fits the chord of the wedge at the
/// label's radius (and a donut's ring), else outside (returned `false`),
/// moved away from the pie's centre line past the outside labels `taken`.
fn place_label(
    a: &ArcItem,
    c: (f64, f64),
    (inner, outer): (f64, f64),
    t: &str,
    size: f64,
    taken: &mut Vec<Area>,
) -> (Placed, bool) {
    let (w, h) = text::block(t, size);
    let mid = ((a.start + a.end) / 2.0).to_radians();
    let r = label_radius(inner, outer);
    let at = |r: f64| (c.0 + r * mid.sin(), c.1 - r * mid.cos());
    if fits(a, (inner, outer), t, size) {
        let (x, y) = at(r);
        let top = y - h / 2.0;
        let bx = place::block_area((w, h), x, top, Align::Center);
        return (
            Placed {
                x,
                top,
                align: Align::Center,
                bx,
            },
            true,
        );
    }
    let align = if mid.sin() >= 0.0 {
        Align::Left
    } else {
        Align::Right
    };
    // On the wedge's angle, far enough out that no corner of the block
    // reaches into the pie (a block beside the top reaches back towards
    // the centre by half its height).
    let (mut x, mut y) = at(outer + OUTSIDE_PAD);
    for k in 1..=100 {
        let bx = place::block_area((w, h), x, y - h / 2.0, align);
        if distance(&bx, c) >= outer + OUTSIDE_PAD / 2.0 {
            break;
        }
        (x, y) = at(outer + OUTSIDE_PAD + k as f64);
    }
    // Centred on the angle's height; above the centre, moved up past
    // earlier outside labels, below it, down.
    let mut top = y - h / 2.0;
    let up = y < c.1;
    let mut bx = place::block_area((w, h), x, top, align);
    for _ in 0..taken.len() {
        let Some(hit) = taken.iter().find(|o| o.overlap(&bx) > 0.0) else {
            break;
        };
        top = if up { hit.y0 - h - 1.0 } else { hit.y1 + 1.0 };
        bx = place::block_area((w, h), x, top, align);
    }
    taken.push(bx);
    (Placed { x, top, align, bx }, false)
}

/// The distance from point `p` to box `b` (0 inside it).
fn distance(b: &Area, p: (f64, f64)) -> f64 {
    let dx = (b.x0 - p.0).max(0.0).max(p.0 - b.x1);
    let dy = (b.y0 - p.1).max(0.0).max(p.1 - b.y1);
    dx.hypot(dy)
}

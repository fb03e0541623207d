//! An `arc` layer's wedges in points: a pie (or donut) centred in the
//! plot, with each wedge's label inside it when it fits there, else just
//! outside the pie, moved off the outside labels before it.

use super::super::geometry::stroke_of;
use super::super::place;
use super::super::scene::Prim;
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
/// else outside the pie on that angle, aligned away from it. The pie's
/// square is what the legend keeps off.
pub(super) fn arcs(out: &mut Vec<Prim>, d: &mut Drawn, items: &[ArcItem], f: &Frame) {
    let (c, fit) = pie_frame(&f.area);
    let mut labels: Vec<(Placed, &str, f64, Color)> = Vec::new();
    let mut outside: Vec<Area> = Vec::new();
    for a in items {
        let outer = a.outer.unwrap_or(fit).max(0.0);
        let inner = a.inner.clamp(0.0, outer);
        let bx = Area {
            x0: c.0 - outer,
            y0: c.1 - outer,
            x1: c.0 + outer,
            y1: c.1 + outer,
        };
        d.obstacles.push(bx);
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
    let sweep = (a.end - a.start).to_radians().min(std::f64::consts::PI);
    let r = if inner > 0.0 {
        (inner + outer) / 2.0
    } else {
        0.6 * outer
    };
    let chord = 2.0 * r * (sweep / 2.0).sin();
    let ring = outer - inner;
    let at = |r: f64| (c.0 + r * mid.sin(), c.1 - r * mid.cos());
    if w <= chord && h <= ring && h <= chord {
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
    let (x, y) = at(outer + OUTSIDE_PAD);
    let align = if mid.sin() >= 0.0 {
        Align::Left
    } else {
        Align::Right
    };
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

//! Room for the fixed texts (bar values, line end labels): a panel's axes
//! grown so that none sticks out of the plot.

use super::super::place::{text_anchor, text_area};
use super::Area;

/// The axis's scale (linear, log or symlog), whose forward map places a
/// value as layout's `Scale` does.
fn scale_kind(axis: &crate::figures::model::Axis) -> crate::figures::scales::ScaleKind {
    use crate::figures::scales::ScaleKind;
    match (axis.log, axis.symlog) {
        (true, _) => ScaleKind::Log,
        (false, Some(c)) => ScaleKind::Symlog(c),
        (false, None) => ScaleKind::Linear,
    }
}

/// Grows an axis's domain so that `lo` points at its low end and `hi` at
/// its high end are added inside a `len`-point axis (in log10 space for a
/// log axis).
fn grow_axis(axis: &mut crate::figures::model::Axis, len: f64, lo: f64, hi: f64) {
    let (lo, hi) = (lo.max(0.0), hi.max(0.0));
    if lo + hi <= 0.01 || lo + hi > 0.5 * len {
        return;
    }
    let k = scale_kind(axis);
    let (f, g) = (|v: f64| k.forward(v), |t: f64| k.inverse(t));
    let (t0, t1) = (f(axis.domain.0), f(axis.domain.1));
    let span = (t1 - t0) * len / (len - lo - hi);
    axis.domain = (g(t0 - lo * span / len), g(t1 + hi * span / len));
}

/// A copy of the panel whose axes leave room for its fixed texts (bar value
/// labels, line end labels) that would otherwise stick out of the plot, or
/// `None` when all fit.
pub fn fit_texts(
    p: &crate::figures::model::Panel,
    area: &Area,
) -> Option<crate::figures::model::Panel> {
    use crate::figures::model::Mark;
    let mut q = p.clone();
    let mut changed = false;
    for _ in 0..3 {
        let map = |axis: &crate::figures::model::Axis, v: f64, p0: f64, p1: f64| {
            let k = scale_kind(axis);
            let f = |v: f64| k.forward(v);
            let (p0, p1) = if axis.reverse { (p1, p0) } else { (p0, p1) };
            let (d0, d1) = (f(axis.domain.0), f(axis.domain.1));
            p0 + (f(v) - d0) / (d1 - d0) * (p1 - p0)
        };
        // Overflow in points beyond each edge.
        let (mut left, mut right, mut top, mut bottom) = (0f64, 0f64, 0f64, 0f64);
        for m in &q.layers {
            let items = match m {
                Mark::Texts {
                    items,
                    avoid_overlap: false,
                } => items,
                Mark::EndLabels(items) => items,
                _ => continue,
            };
            for t in items {
                let ax = map(&q.x, t.x, area.x0, area.x1);
                let ay = map(&q.y, t.y, area.y1, area.y0);
                if !(ax >= area.x0 - 0.5
                    && ax <= area.x1 + 0.5
                    && ay >= area.y0 - 0.5
                    && ay <= area.y1 + 0.5)
                {
                    continue;
                }
                let (x, y, al) = text_anchor(t, (ax, ay));
                let b = text_area(&t.text, t.size, x, y, al);
                // Sticking out by any amount: make room for it and 1 pt more.
                let over = |d: f64| if d > 1e-9 { d + 1.0 } else { 0.0 };
                left = left.max(over(area.x0 - b.x0));
                right = right.max(over(b.x1 - area.x1));
                top = top.max(over(area.y0 - b.y0));
                bottom = bottom.max(over(b.y1 - area.y1));
            }
        }
        if left.max(right).max(top).max(bottom) <= 0.01 {
            break;
        }
        // The low end of x is at the left unless reversed; of y at the bottom.
        let (xl, xh) = if q.x.reverse {
            (right, left)
        } else {
            (left, right)
        };
        let (yl, yh) = if q.y.reverse {
            (top, bottom)
        } else {
            (bottom, top)
        };
        grow_axis(&mut q.x, area.w(), xl, xh);
        grow_axis(&mut q.y, area.h(), yl, yh);
        changed = true;
    }
    changed.then_some(q)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::figures::model::Axis;

    #[test]
    fn grow_axis_adds_exactly_the_asked_points() {
        let mut a = Axis {
            title: None,
            log: false,
            domain: (0.0, 10.0),
            ticks: None,
            reverse: false,
            tick_font_size: 10.0,
            labels: true,
            symlog: None,
            format: None,
            label_angle: None,
            integer: false,
        };
        // 100 points long, 10 more at the top: the old span takes 90.
        grow_axis(&mut a, 100.0, 0.0, 10.0);
        assert!((a.domain.0 - 0.0).abs() < 1e-12);
        assert!((a.domain.1 - 100.0 / 9.0).abs() < 1e-12);
    }
}

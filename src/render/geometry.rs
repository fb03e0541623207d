//! Geometry in points: rectangles, clipping (Liang-Barsky), markers.
//! Values outside an axis are clipped, never clamped to its edge.

use super::scene::{Prim, Stroke};
use crate::figures::model::{Shape, Style};

/// A rectangle in points (y down).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Area {
    /// Left.
    pub x0: f64,
    /// Top.
    pub y0: f64,
    /// Right.
    pub x1: f64,
    /// Bottom.
    pub y1: f64,
}

impl Area {
    /// Width.
    pub fn w(&self) -> f64 {
        self.x1 - self.x0
    }
    /// Height.
    pub fn h(&self) -> f64 {
        self.y1 - self.y0
    }
    /// Overlapping area with `o`.
    pub fn overlap(&self, o: &Area) -> f64 {
        let w = (self.x1.min(o.x1) - self.x0.max(o.x0)).max(0.0);
        let h = (self.y1.min(o.y1) - self.y0.max(o.y0)).max(0.0);
        w * h
    }
    /// Whether `o` lies entirely inside.
    pub fn contains(&self, o: &Area) -> bool {
        o.x0 >= self.x0 - 1e-6
            && o.x1 <= self.x1 + 1e-6
            && o.y0 >= self.y0 - 1e-6
            && o.y1 <= self.y1 + 1e-6
    }
}

/// The outline of a style, if it has one of positive width.
pub fn stroke_of(style: &Style) -> Option<Stroke> {
    style
        .stroke
        .filter(|_| style.stroke_width > 0.0)
        .map(|c| Stroke {
            color: c,
            width: style.stroke_width,
            dash: style.dash.pattern(style.stroke_width),
        })
}

/// A marker of `shape` with diameter `d` centred at (cx, cy).
pub fn marker(shape: Shape, cx: f64, cy: f64, d: f64, style: &Style) -> Prim {
    let r = d / 2.0;
    let fill = style.fill;
    let stroke = stroke_of(style);
    let poly = |pts: Vec<(f64, f64)>| Prim::Path {
        pts,
        closed: true,
        fill,
        stroke: stroke.clone(),
    };
    match shape {
        Shape::Circle => Prim::Circle {
            cx,
            cy,
            r,
            fill,
            stroke,
        },
        Shape::Square => poly(vec![
            (cx - r, cy - r),
            (cx + r, cy - r),
            (cx + r, cy + r),
            (cx - r, cy + r),
        ]),
        Shape::Triangle => poly(vec![(cx, cy - r), (cx + r, cy + r), (cx - r, cy + r)]),
        Shape::Diamond => {
            let q = r * 0.75 * std::f64::consts::SQRT_2;
            poly(vec![
                (cx, cy - q),
                (cx + q * 0.85, cy),
                (cx, cy + q),
                (cx - q * 0.85, cy),
            ])
        }
    }
}

/// Clips segment a-b to `area` (Liang-Barsky); `None` when outside.
pub fn clip_segment(a: (f64, f64), b: (f64, f64), area: &Area) -> Option<((f64, f64), (f64, f64))> {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let (mut t0, mut t1) = (0.0f64, 1.0f64);
    for (p, q) in [
        (-dx, a.0 - area.x0),
        (dx, area.x1 - a.0),
        (-dy, a.1 - area.y0),
        (dy, area.y1 - a.1),
    ] {
        if p == 0.0 {
            if q < 0.0 {
                return None;
            }
        } else {
            let r = q / p;
            if p < 0.0 {
                t0 = t0.max(r);
            } else {
                t1 = t1.min(r);
            }
        }
    }
    if !(t0.is_finite() && t1.is_finite()) || t0 > t1 {
        return None;
    }
    Some((
        (a.0 + t0 * dx, a.1 + t0 * dy),
        (a.0 + t1 * dx, a.1 + t1 * dy),
    ))
}

/// A polyline clipped to `area`, as connected runs.
pub fn clip_polyline(pts: &[(f64, f64)], area: &Area) -> Vec<Vec<(f64, f64)>> {
    let mut runs: Vec<Vec<(f64, f64)>> = Vec::new();
    let mut cur: Vec<(f64, f64)> = Vec::new();
    for win in pts.windows(2) {
        match clip_segment(win[0], win[1], area) {
            Some((a, b)) => {
                if cur
                    .last()
                    .is_none_or(|l| (l.0 - a.0).abs() > 1e-9 || (l.1 - a.1).abs() > 1e-9)
                {
                    if cur.len() > 1 {
                        runs.push(std::mem::take(&mut cur));
                    }
                    cur = vec![a];
                }
                cur.push(b);
            }
            None => {
                if cur.len() > 1 {
                    runs.push(std::mem::take(&mut cur));
                }
                cur.clear();
            }
        }
    }
    if cur.len() > 1 {
        runs.push(cur);
    }
    runs
}

/// Clips a polygon to `area` (Sutherland-Hodgman against each edge in
/// turn); fewer than 3 vertices when nothing is left.
pub fn clip_polygon(pts: &[(f64, f64)], area: &Area) -> Vec<(f64, f64)> {
    type Edge = (fn(&(f64, f64), f64) -> f64, f64);
    // Each edge as (signed distance inside, the bound): inside when >= 0.
    let edges: [Edge; 4] = [
        (|p, b| p.0 - b, area.x0),
        (|p, b| b - p.0, area.x1),
        (|p, b| p.1 - b, area.y0),
        (|p, b| b - p.1, area.y1),
    ];
    let mut poly = pts.to_vec();
    for (dist, bound) in edges {
        if poly.is_empty() {
            break;
        }
        let mut out = Vec::with_capacity(poly.len() + 4);
        for i in 0..poly.len() {
            let a = poly[i];
            let b = poly[(i + 1) % poly.len()];
            let (da, db) = (dist(&a, bound), dist(&b, bound));
            if da >= 0.0 {
                out.push(a);
            }
            if (da >= 0.0) != (db >= 0.0) {
                let t = da / (da - db);
                out.push((a.0 + t * (b.0 - a.0), a.1 + t * (b.1 - a.1)));
            }
        }
        poly = out;
    }
    poly
}

#[cfg(test)]
mod polygon_tests {
    use super::*;

    #[test]
    fn a_polygon_is_cut_at_the_plot_edge() {
        let area = Area {
            x0: 0.0,
            y0: 0.0,
            x1: 10.0,
            y1: 10.0,
        };
        // A square half outside on the right: the inside half is left.
        let sq = [(5.0, 2.0), (15.0, 2.0), (15.0, 8.0), (5.0, 8.0)];
        assert_eq!(
            clip_polygon(&sq, &area),
            [(5.0, 2.0), (10.0, 2.0), (10.0, 8.0), (5.0, 8.0)]
        );
        // Wholly outside: nothing.
        let out = [(20.0, 2.0), (30.0, 2.0), (30.0, 8.0)];
        assert!(clip_polygon(&out, &area).len() < 3);
    }
}

//! The SVG elements written here rather than by plotters' backend, which
//! has no dash attribute and no arcs: a dashed outline as one `<polyline>`
//! with `stroke-dasharray`, a wedge as a `<path>` with elliptical arcs.

use super::scene::{Prim, Stroke};
use super::svg::{UNITS_PER_PT, dash_of, fmt_pt, paint, pt};
use crate::color::Color;

/// What of `prim` the backend draws, and the elements written here (a
/// dashed outline, a wedge), in painting order after it.
pub(super) fn split_own(prim: &Prim) -> (Option<Prim>, Vec<String>) {
    match prim {
        Prim::Rect {
            x,
            y,
            w,
            h,
            fill,
            stroke: Some(s),
        } if dash_of(s).is_some() => {
            let pts = [(*x, *y), (x + w, *y), (x + w, y + h), (*x, y + h), (*x, *y)];
            let plain = fill.map(|f| Prim::Rect {
                x: *x,
                y: *y,
                w: *w,
                h: *h,
                fill: Some(f),
                stroke: None,
            });
            (plain, dashed_polyline(&pts, s))
        }
        Prim::Path {
            pts,
            closed,
            fill,
            stroke: Some(s),
        } if dash_of(s).is_some() => {
            let mut line = pts.clone();
            if *closed && let Some(first) = pts.first() {
                line.push(*first);
            }
            let plain = fill.map(|f| Prim::Path {
                pts: pts.clone(),
                closed: *closed,
                fill: Some(f),
                stroke: None,
            });
            (plain, dashed_polyline(&line, s))
        }
        Prim::Wedge {
            cx,
            cy,
            inner,
            outer,
            start,
            end,
            fill,
            stroke,
        } => {
            let d = wedge_path((*cx, *cy), (*inner, *outer), (*start, *end));
            let mut own = Vec::new();
            if let Some(f) = fill.filter(|f| f.a > 0.0) {
                own.push(format!(
                    "<path d=\"{d}\" fill-rule=\"evenodd\" opacity=\"{}\" fill=\"{}\" stroke=\"none\"/>\n",
                    f.a,
                    svg_color(f)
                ));
            }
            if let Some(s) = stroke.as_ref().filter(|s| s.color.a > 0.0) {
                own.push(format!(
                    "<path d=\"{d}\" fill=\"none\" opacity=\"{}\" stroke=\"{}\" stroke-width=\"{}\"{}/>\n",
                    s.color.a,
                    svg_color(s.color),
                    paint(s.color, s.width).width,
                    dasharray(s)
                ));
            }
            (None, own)
        }
        Prim::Image { w, h, png } => {
            use base64::Engine as _;
            let data = base64::engine::general_purpose::STANDARD.encode(png.as_slice());
            let image = format!(
                "<image x=\"0\" y=\"0\" width=\"{}\" height=\"{}\" preserveAspectRatio=\"none\" href=\"data:image/png;base64,{data}\"/>\n",
                fmt_pt(w * UNITS_PER_PT),
                fmt_pt(h * UNITS_PER_PT)
            );
            (None, vec![image])
        }
        other => (Some(other.clone()), Vec::new()),
    }
}

/// More circles than this in a figure and each run of circles of one
/// radius, fill and outline is written as one `<path>`: usvg reads at most
/// 10⁶ elements (a vector scatter of 10⁶ points failed), and one path of
/// many circles is one PDF path, not 10⁶ drawing operations with their
/// own state. Below it, every circle is its own `<circle>`, as plotters
/// writes it.
pub(super) const MERGE_CIRCLES: usize = 100_000;

/// Consecutive circles of one radius, fill and outline (see
/// [`MERGE_CIRCLES`]).
pub(super) struct CircleRun {
    r: f64,
    fill: Option<Color>,
    stroke: Option<Stroke>,
    centres: Vec<(f64, f64)>,
}

impl CircleRun {
    /// A run of circles like the one given, holding none yet.
    pub(super) fn new(r: f64, fill: Option<Color>, stroke: Option<Stroke>) -> CircleRun {
        CircleRun {
            r,
            fill,
            stroke,
            centres: Vec::new(),
        }
    }

    /// Whether a circle of radius `r`, `fill` and `stroke` belongs to it.
    pub(super) fn holds(&self, r: f64, fill: &Option<Color>, stroke: &Option<Stroke>) -> bool {
        self.r.to_bits() == r.to_bits() && self.fill == *fill && self.stroke == *stroke
    }

    /// Adds a circle's centre.
    pub(super) fn push(&mut self, c: (f64, f64)) {
        self.centres.push(c);
    }

    /// The run as SVG: one `<path>` for the fills, one for the outlines,
    /// each circle two arcs from its leftmost point, in drawing units
    /// rounded as the backend rounds a `<circle>`'s.
    pub(super) fn svg(&self) -> String {
        use std::fmt::Write as _;
        let radius = (self.r * UNITS_PER_PT).round().max(1.0) as i64;
        let mut d = String::with_capacity(self.centres.len() * 40);
        for c in &self.centres {
            let (x, y) = pt(*c);
            let _ = write!(
                d,
                "M{},{y}a{radius},{radius} 0 1 0 {},0a{radius},{radius} 0 1 0 {},0",
                i64::from(x) - radius,
                2 * radius,
                -2 * radius
            );
        }
        let mut out = String::new();
        if let Some(f) = self.fill.filter(|f| f.a > 0.0) {
            let _ = writeln!(
                out,
                "<path d=\"{d}\" opacity=\"{}\" fill=\"{}\" stroke=\"none\"/>",
                f.a,
                svg_color(f)
            );
        }
        if let Some(s) = self.stroke.as_ref().filter(|s| s.color.a > 0.0) {
            let _ = writeln!(
                out,
                "<path d=\"{d}\" fill=\"none\" opacity=\"{}\" stroke=\"{}\" stroke-width=\"{}\"/>",
                s.color.a,
                svg_color(s.color),
                paint(s.color, s.width).width,
            );
        }
        out
    }
}

/// A colour as the backend writes it (`#RRGGBB`).
pub(super) fn svg_color(c: Color) -> String {
    format!("#{:02X}{:02X}{:02X}", c.r, c.g, c.b)
}

/// ` stroke-dasharray="on,off,..."` in drawing units, or nothing.
fn dasharray(s: &Stroke) -> String {
    match dash_of(s) {
        Some(p) => {
            let parts: Vec<String> = p.iter().map(|v| fmt_pt(v * UNITS_PER_PT)).collect();
            format!(" stroke-dasharray=\"{}\"", parts.join(","))
        }
        None => String::new(),
    }
}

/// A dashed outline: one `<polyline>` with `stroke-dasharray`, written as
/// the backend writes a solid one.
fn dashed_polyline(pts: &[(f64, f64)], s: &Stroke) -> Vec<String> {
    if s.color.a <= 0.0 || pts.len() < 2 {
        return Vec::new();
    }
    let points: String = pts
        .iter()
        .map(|p| pt(*p))
        .fold(String::new(), |mut a, (x, y)| {
            a.push_str(&format!("{x},{y} "));
            a
        });
    vec![format!(
        "<polyline fill=\"none\" opacity=\"{}\" stroke=\"{}\" stroke-width=\"{}\"{} points=\"{points}\"/>\n",
        s.color.a,
        svg_color(s.color),
        paint(s.color, s.width).width,
        dasharray(s)
    )]
}

/// A wedge's path data in drawing units: the outer arc clockwise, then
/// the inner one back (or the centre, for a pie slice); a whole ring is
/// two circles (the fill rule leaves the hole).
fn wedge_path(c: (f64, f64), (inner, outer): (f64, f64), (a0, a1): (f64, f64)) -> String {
    let at = |r: f64, deg: f64| {
        let t = deg.to_radians();
        (
            fmt_pt((c.0 + r * t.sin()) * UNITS_PER_PT),
            fmt_pt((c.1 - r * t.cos()) * UNITS_PER_PT),
        )
    };
    let ru = |r: f64| fmt_pt(r * UNITS_PER_PT);
    let sweep = (a1 - a0).clamp(0.0, 360.0);
    if sweep >= 360.0 - 1e-9 {
        let circle = |r: f64| {
            let ((tx, ty), (bx, by)) = (at(r, 0.0), at(r, 180.0));
            let r = ru(r);
            format!("M{tx},{ty} A{r},{r} 0 1 1 {bx},{by} A{r},{r} 0 1 1 {tx},{ty} Z")
        };
        return if inner > 0.0 {
            format!("{} {}", circle(outer), circle(inner))
        } else {
            circle(outer)
        };
    }
    let large = if sweep > 180.0 { 1 } else { 0 };
    let ((sx, sy), (ex, ey)) = (at(outer, a0), at(outer, a0 + sweep));
    let ro = ru(outer);
    let mut d = format!("M{sx},{sy} A{ro},{ro} 0 {large} 1 {ex},{ey}");
    if inner > 0.0 {
        let ((ix, iy), (jx, jy)) = (at(inner, a0 + sweep), at(inner, a0));
        let ri = ru(inner);
        d.push_str(&format!(" L{ix},{iy} A{ri},{ri} 0 {large} 0 {jx},{jy} Z"));
    } else {
        let (cx, cy) = (fmt_pt(c.0 * UNITS_PER_PT), fmt_pt(c.1 * UNITS_PER_PT));
        d.push_str(&format!(" L{cx},{cy} Z"));
    }
    d
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_of_circles_is_one_path_of_two_arcs_each() {
        let mut run = CircleRun::new(0.5, Some(Color::rgb(31, 119, 180)), None);
        assert!(run.holds(0.5, &Some(Color::rgb(31, 119, 180)), &None));
        assert!(!run.holds(0.6, &Some(Color::rgb(31, 119, 180)), &None));
        run.push((1.0, 2.0));
        run.push((3.0, 4.0));
        assert_eq!(
            run.svg(),
            "<path d=\"M5,20a5,5 0 1 0 10,0a5,5 0 1 0 -10,0M25,40a5,5 0 1 0 10,0a5,5 0 1 0 -10,0\" \
             opacity=\"1\" fill=\"#1F77B4\" stroke=\"none\"/>\n"
        );
    }

    #[test]
    fn a_quarter_wedge_runs_clockwise_from_twelve_o_clock() {
        // Centre (10, 10), radius 10: from the top (10, 0) to the right (20, 10).
        assert_eq!(
            wedge_path((10.0, 10.0), (0.0, 10.0), (0.0, 90.0)),
            "M100,0 A100,100 0 0 1 200,100 L100,100 Z"
        );
        // A donut's quarter comes back along the inner radius.
        assert_eq!(
            wedge_path((10.0, 10.0), (5.0, 10.0), (0.0, 90.0)),
            "M100,0 A100,100 0 0 1 200,100 L150,100 A50,50 0 0 0 100,50 Z"
        );
    }
}

//! A laid-out figure: drawing primitives in points (origin top left, y
//! down), independent of the output format.

use crate::color::Color;
use crate::figures::model::Align;

/// An outline: colour, width in points, optional dash pattern in points.
#[derive(Debug, Clone, PartialEq)]
pub struct Stroke {
    /// Colour (with opacity).
    pub color: Color,
    /// Width in points.
    pub width: f64,
    /// On/off lengths in points.
    pub dash: Option<Vec<f64>>,
}

/// One drawing primitive.
#[derive(Debug, Clone, PartialEq)]
pub enum Prim {
    /// Primitives drawn as one image at the PNG's dpi in the SVG and PDF
    /// (a rasterized layer); `render` turns it into an [`Prim::Image`].
    Raster(Vec<Prim>),
    /// A PNG over the whole figure, `w` x `h` points from the top left.
    Image {
        /// Width.
        w: f64,
        /// Height.
        h: f64,
        /// The PNG's bytes.
        png: std::sync::Arc<Vec<u8>>,
    },
    /// An axis-aligned rectangle.
    Rect {
        /// Left.
        x: f64,
        /// Top.
        y: f64,
        /// Width.
        w: f64,
        /// Height.
        h: f64,
        /// Fill.
        fill: Option<Color>,
        /// Outline.
        stroke: Option<Stroke>,
    },
    /// A polyline or polygon.
    Path {
        /// Vertices.
        pts: Vec<(f64, f64)>,
        /// Closed (a polygon).
        closed: bool,
        /// Fill (polygons).
        fill: Option<Color>,
        /// Outline.
        stroke: Option<Stroke>,
    },
    /// A circle.
    Circle {
        /// Centre.
        cx: f64,
        /// Centre.
        cy: f64,
        /// Radius.
        r: f64,
        /// Fill.
        fill: Option<Color>,
        /// Outline.
        stroke: Option<Stroke>,
    },
    /// A pie or donut wedge (an `arc` mark): the ring between radii `inner`
    /// and `outer` around (cx, cy), from angle `start` to `end` in degrees,
    /// clockwise from 12 o'clock (Vega-Lite's `theta`); `end - start` of
    /// 360 is the whole ring.
    Wedge {
        /// Centre.
        cx: f64,
        /// Centre.
        cy: f64,
        /// Inner radius in points (0: a pie slice).
        inner: f64,
        /// Outer radius in points.
        outer: f64,
        /// Start angle, degrees clockwise from 12 o'clock.
        start: f64,
        /// End angle, degrees clockwise from 12 o'clock (at least `start`).
        end: f64,
        /// Fill.
        fill: Option<Color>,
        /// Outline.
        stroke: Option<Stroke>,
    },
    /// One line of text; `y` is the top of the capitals.
    Text {
        /// Anchor x.
        x: f64,
        /// Top of the line.
        y: f64,
        /// The text (no newlines).
        text: String,
        /// Font size in points.
        size: f64,
        /// Colour.
        color: Color,
        /// Horizontal alignment at `x`.
        align: Align,
        /// Rotated 90° counter-clockwise (reads upwards); then `x` is the
        /// left edge of the rotated text and `y` its centre line position.
        vertical: bool,
    },
    /// One line of text turned `angle` degrees clockwise about its anchor
    /// (tick labels with `labelAngle`): before turning, the anchor is on
    /// the line's middle (`size / 2` below the top of the line) at the end
    /// `align` names.
    TextRotated {
        /// Anchor x.
        x: f64,
        /// Anchor y.
        y: f64,
        /// The text (no newlines).
        text: String,
        /// Font size in points.
        size: f64,
        /// Colour.
        color: Color,
        /// Which end of the text is at the anchor.
        align: Align,
        /// Degrees, clockwise (SVG's and Vega-Lite's sense).
        angle: f64,
    },
}

/// A figure as primitives.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Scene {
    /// Width in points.
    pub width: f64,
    /// Height in points.
    pub height: f64,
    /// Primitives in painting order.
    pub prims: Vec<Prim>,
    /// The legends' boxes, in points (for the lint: a text under a legend
    /// is hidden by it).
    pub legends: Vec<super::geometry::Area>,
    /// Every data mark's geometry as drawn (clipped to its plot area), in
    /// painting order: what texts and legends must keep off.
    pub marks: Vec<MarkShape>,
    /// The typeface of its texts.
    pub face: crate::font::Face,
}

/// One mark's geometry in points, named for notes ("the legend covers 45
/// bars").
#[derive(Debug, Clone, PartialEq)]
pub struct MarkShape {
    /// The mark's kind, singular (`bar`, `band`, `error bar`, `line`,
    /// `rule`, `area`, `point`).
    pub kind: &'static str,
    /// What it covers.
    pub shape: Shape,
}

/// The ground a mark covers, in points.
#[derive(Debug, Clone, PartialEq)]
pub enum Shape {
    /// A filled rectangle (a bar, a bin, a cell) or a marker's box.
    Box(super::geometry::Area),
    /// A stroked polyline (a line, a rule, an error bar and its caps)
    /// and half its stroke width.
    Polyline(Vec<(f64, f64)>, f64),
    /// A filled polygon (an area, a band, a violin), by its outline.
    Polygon(Vec<(f64, f64)>),
}

impl Shape {
    /// Whether the shape comes within `clear` points of the box `a`
    /// (touching counts once `clear` is positive): a polyline by its
    /// segments widened by half its stroke, a polygon by its filled
    /// outline (a box above a low area is clear of it), a box by its box.
    pub fn hits(&self, a: &super::geometry::Area, clear: f64) -> bool {
        match self {
            Shape::Box(b) => {
                let g = grown(a, clear);
                g.x0 < b.x1 && b.x0 < g.x1 && g.y0 < b.y1 && b.y0 < g.y1
            }
            Shape::Polyline(pts, half) => polyline_hits(pts, *half, a, clear),
            Shape::Polygon(pts) => {
                let g = grown(a, clear);
                if pts.len() < 3 {
                    return false;
                }
                let edge = (0..pts.len()).any(|i| crosses(pts[i], pts[(i + 1) % pts.len()], &g));
                edge || inside(pts, ((g.x0 + g.x1) / 2.0, (g.y0 + g.y1) / 2.0))
            }
        }
    }
}

/// The box `a` grown by `d` points on every side.
fn grown(a: &super::geometry::Area, d: f64) -> super::geometry::Area {
    super::geometry::Area {
        x0: a.x0 - d,
        y0: a.y0 - d,
        x1: a.x1 + d,
        y1: a.y1 + d,
    }
}

/// Whether segment p-q passes through box g (a cheap side test first).
fn crosses(p: (f64, f64), q: (f64, f64), g: &super::geometry::Area) -> bool {
    !(p.0.max(q.0) < g.x0 || p.0.min(q.0) > g.x1 || p.1.max(q.1) < g.y0 || p.1.min(q.1) > g.y1)
        && super::geometry::clip_segment(p, q, g).is_some()
}

/// [`Shape::hits`] of `Shape::Polyline(pts, half)`, on a borrowed run of
/// vertices (one segment of a long line, for the lint's index).
pub fn polyline_hits(pts: &[(f64, f64)], half: f64, a: &super::geometry::Area, clear: f64) -> bool {
    let g = grown(a, clear + half);
    match pts {
        [p] => crosses(*p, *p, &g),
        _ => pts.windows(2).any(|w| crosses(w[0], w[1], &g)),
    }
}

impl Shape {
    /// Whether the shape's fill wholly holds the box `a` (a box inside a
    /// bar, a polygon's outline around it and crossing none of it); a
    /// polyline holds nothing.
    pub fn holds(&self, a: &super::geometry::Area) -> bool {
        use super::geometry::{Area, clip_segment};
        match self {
            Shape::Box(b) => b.contains(a),
            Shape::Polyline(..) => false,
            Shape::Polygon(pts) if pts.len() >= 3 => {
                let corners = [(a.x0, a.y0), (a.x1, a.y0), (a.x1, a.y1), (a.x0, a.y1)];
                let core = Area {
                    x0: a.x0 + 1e-6,
                    y0: a.y0 + 1e-6,
                    x1: a.x1 - 1e-6,
                    y1: a.y1 - 1e-6,
                };
                corners.iter().all(|c| inside(pts, *c))
                    && !(0..pts.len())
                        .any(|i| clip_segment(pts[i], pts[(i + 1) % pts.len()], &core).is_some())
            }
            Shape::Polygon(_) => false,
        }
    }
}

/// Whether `p` lies inside the polygon (even-odd rule).
fn inside(poly: &[(f64, f64)], p: (f64, f64)) -> bool {
    let mut odd = false;
    let mut j = poly.len() - 1;
    for i in 0..poly.len() {
        let (a, b) = (poly[i], poly[j]);
        if (a.1 > p.1) != (b.1 > p.1) && p.0 < (b.0 - a.0) * (p.1 - a.1) / (b.1 - a.1) + a.0 {
            odd = !odd;
        }
        j = i;
    }
    odd
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::geometry::Area;

    fn bx(x0: f64, y0: f64, x1: f64, y1: f64) -> Area {
        Area { x0, y0, x1, y1 }
    }

    /// A legend above a low area is clear of it, though the area's
    /// bounding box reaches the plot's top.
    #[test]
    fn an_area_counts_by_its_polygon_not_its_box() {
        // A triangle rising to the right: high at x = 100 only.
        let area = Shape::Polygon(vec![(0.0, 100.0), (100.0, 0.0), (100.0, 100.0)]);
        assert!(!area.hits(&bx(5.0, 5.0, 40.0, 30.0), 2.0));
        assert!(area.hits(&bx(60.0, 60.0, 70.0, 70.0), 2.0));
        // Wholly inside the fill, no edge crossed.
        assert!(area.hits(&bx(80.0, 80.0, 85.0, 85.0), 0.0));
    }

    /// Zero clearance counts as touching once `clear` is positive.
    #[test]
    fn a_box_at_zero_clearance_touches_a_stroke() {
        let bar = Shape::Polyline(vec![(50.0, 20.0), (50.0, 60.0)], 0.5);
        // The error bar's top end is at the box's bottom edge.
        assert!(bar.hits(&bx(30.0, 0.0, 70.0, 20.0), 0.5));
        assert!(!bar.hits(&bx(30.0, 0.0, 70.0, 17.0), 2.0));
        assert!(bar.hits(&bx(30.0, 0.0, 70.0, 17.5), 2.0));
    }
}

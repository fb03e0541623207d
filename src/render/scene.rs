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
    /// The typeface of its texts.
    pub face: crate::font::Face,
}

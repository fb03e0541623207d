//! A figure resolved to marks in data units: what gets drawn, before any
//! layout. Built by [`super::compile`], drawn by the `render` module.

use crate::color::Color;

/// Line dash patterns, named as matplotlib names them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Dash {
    /// A continuous line.
    #[default]
    Solid,
    /// `--`
    Dashed,
    /// `:`
    Dotted,
    /// `-.`
    DashDot,
}

impl Dash {
    /// Parses `solid`, `dashed`, `dotted`, `dashdot` (or `-`, `--`, `:`, `-.`).
    pub fn parse(s: &str) -> Option<Dash> {
        Some(match s {
            "solid" | "-" => Dash::Solid,
            "dashed" | "--" => Dash::Dashed,
            "dotted" | ":" => Dash::Dotted,
            "dashdot" | "-." => Dash::DashDot,
            _ => return None,
        })
    }

    /// On/off lengths in points for a line `width` points wide (matplotlib's
    /// patterns, which scale with the line width).
    pub fn pattern(self, width: f64) -> Option<Vec<f64>> {
        let w = width.max(0.5);
        match self {
            Dash::Solid => None,
            Dash::Dashed => Some(vec![3.7 * w, 1.6 * w]),
            Dash::Dotted => Some(vec![1.0 * w, 1.65 * w]),
            Dash::DashDot => Some(vec![6.4 * w, 1.6 * w, 1.0 * w, 1.6 * w]),
        }
    }
}

/// Marker shapes (the plan reads their names in a `shape` scale's range).
pub use crate::plan::channels::Shape;

/// How a mark is painted.
#[derive(Debug, Clone, PartialEq)]
pub struct Style {
    /// Fill colour (with opacity), `None` for no fill.
    pub fill: Option<Color>,
    /// Outline / line colour, `None` for no outline.
    pub stroke: Option<Color>,
    /// Outline / line width in points.
    pub stroke_width: f64,
    /// Dash pattern of the outline / line.
    pub dash: Dash,
}

/// A rectangle; a `None` range spans the whole axis (axvspan / axhspan).
#[derive(Debug, Clone, PartialEq)]
pub struct RectItem {
    /// x range in data units.
    pub x: Option<(f64, f64)>,
    /// y range in data units.
    pub y: Option<(f64, f64)>,
    /// Paint.
    pub style: Style,
}

/// A point marker.
#[derive(Debug, Clone, PartialEq)]
pub struct PointItem {
    /// Position in data units.
    pub x: f64,
    /// Position in data units.
    pub y: f64,
    /// Shape.
    pub shape: Shape,
    /// Diameter in points (√ of matplotlib's area `s`).
    pub diameter: f64,
    /// Paint.
    pub style: Style,
}

/// A polyline (one series), optionally with markers.
#[derive(Debug, Clone, PartialEq)]
pub struct Series {
    /// Vertices in data units.
    pub points: Vec<(f64, f64)>,
    /// Paint (stroke).
    pub style: Style,
    /// Marker at each vertex: shape and diameter in points.
    pub marker: Option<(Shape, f64)>,
    /// Legend text.
    pub label: Option<String>,
}

/// A reference line across the plot.
#[derive(Debug, Clone, PartialEq)]
pub enum RuleKind {
    /// Vertical line at x.
    X(f64),
    /// Horizontal line at y.
    Y(f64),
    /// The diagonal y = x across the plot.
    Diagonal,
    /// A segment between two points in data units (a rule with `x2` or
    /// `y2`: a lollipop's stem).
    Segment((f64, f64), (f64, f64)),
}

/// A reference line with its paint.
#[derive(Debug, Clone, PartialEq)]
pub struct RuleItem {
    /// Where.
    pub kind: RuleKind,
    /// Paint (stroke).
    pub style: Style,
}

/// Horizontal alignment of a text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Align {
    /// Starts at the anchor.
    Left,
    /// Centred on the anchor.
    Center,
    /// Ends at the anchor.
    Right,
}

/// Vertical placement of a text relative to its anchor.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Baseline {
    /// The text sits above the anchor.
    Bottom,
    /// Centred on the anchor.
    Middle,
    /// The text hangs below the anchor.
    Top,
}

/// A text placed in data units, with an offset in points.
#[derive(Debug, Clone, PartialEq)]
pub struct TextItem {
    /// Anchor in data units.
    pub x: f64,
    /// Anchor in data units.
    pub y: f64,
    /// The text (may hold `\n`).
    pub text: String,
    /// Offset right, in points.
    pub dx: f64,
    /// Offset up, in points.
    pub dy: f64,
    /// Horizontal alignment.
    pub align: Align,
    /// Vertical placement.
    pub baseline: Baseline,
    /// Font size in points.
    pub size: f64,
    /// Colour.
    pub color: Color,
}

/// A straight segment in data units (error bars).
#[derive(Debug, Clone, PartialEq)]
pub struct Segment {
    /// Start.
    pub from: (f64, f64),
    /// End.
    pub to: (f64, f64),
    /// Paint (stroke).
    pub style: Style,
}

/// A filled polygon in data units (an area, a band, a violin).
#[derive(Debug, Clone, PartialEq)]
pub struct AreaItem {
    /// Vertices in data units, in drawing order; the path is closed.
    pub points: Vec<(f64, f64)>,
    /// Paint: fill (with opacity) and an optional outline.
    pub style: Style,
}

/// A wedge of a pie or donut (an `arc` layer's row): angles in degrees
/// clockwise from 12 o'clock, radii in points, centred in the plot.
#[derive(Debug, Clone, PartialEq)]
pub struct ArcItem {
    /// Start angle, degrees clockwise from 12 o'clock, 0 to 360.
    pub start: f64,
    /// End angle, degrees clockwise from 12 o'clock, `start` to 360.
    pub end: f64,
    /// The hole's radius in points (0: a pie).
    pub inner: f64,
    /// The radius in points; `None`: half the plot's smaller side.
    pub outer: Option<f64>,
    /// Paint: the fill, and the outline between wedges.
    pub style: Style,
    /// The wedge's label, drawn centred at its middle angle, halfway
    /// across the ring (a pie's at 0.6 of the radius, matplotlib's
    /// `pctdistance`): text, size in points, colour.
    pub label: Option<(String, f64, Color)>,
}

/// What a layer draws.
#[derive(Debug, Clone, PartialEq)]
pub enum Mark {
    /// Bars, histogram bins and bands.
    Rects(Vec<RectItem>),
    /// Scatter points.
    Points(Vec<PointItem>),
    /// Lines.
    Lines(Vec<Series>),
    /// Reference lines.
    Rules(Vec<RuleItem>),
    /// Texts; `avoid_overlap` moves them apart.
    Texts {
        /// The texts.
        items: Vec<TextItem>,
        /// Move labels off each other, points and the legend.
        avoid_overlap: bool,
    },
    /// Error bars.
    Segments(Vec<Segment>),
    /// Filled polygons (areas, error bands, violins).
    Areas(Vec<AreaItem>),
    /// A mark drawn as several (a boxplot: boxes, whiskers, medians,
    /// outliers), in painting order. [`crate::figures::compile`] flattens
    /// it, so a [`Panel`]'s layers never hold one.
    Group(Vec<Mark>),
    /// Labels at the ends of lines, moved apart vertically by layout.
    EndLabels(Vec<TextItem>),
    /// Hatch patterns over filled areas (the `greys` scheme), drawn above
    /// the layer that made them.
    Hatches(Vec<HatchItem>),
    /// Wedges of a pie or donut (`arc`): the panel has no x or y axis.
    Arcs(Vec<ArcItem>),
    /// A mark drawn as an image at the PNG's dpi inside the vector outputs
    /// (a layer's `rasterize = true`, matplotlib's `rasterized=True`).
    Raster(Box<Mark>),
}

impl Mark {
    /// The mark itself, or the marks of a group (recursively), in order;
    /// a rasterized group is each of its marks rasterized.
    pub fn flatten(self) -> Vec<Mark> {
        match self {
            Mark::Group(ms) => ms.into_iter().flat_map(Mark::flatten).collect(),
            Mark::Raster(m) => m
                .flatten()
                .into_iter()
                .map(|m| Mark::Raster(Box::new(m)))
                .collect(),
            m => vec![m],
        }
    }

    /// How many marks it draws (bars, points, line vertices, ...).
    pub fn count(&self) -> usize {
        match self {
            Mark::Rects(v) => v.len(),
            Mark::Points(v) => v.len(),
            Mark::Lines(v) => v.iter().map(|s| s.points.len()).sum(),
            Mark::Rules(v) => v.len(),
            Mark::Texts { items, .. } => items.len(),
            Mark::Segments(v) => v.len(),
            Mark::Areas(v) => v.len(),
            Mark::Group(v) => v.iter().map(Mark::count).sum(),
            Mark::EndLabels(v) => v.len(),
            Mark::Hatches(v) => v.len(),
            Mark::Arcs(v) => v.len(),
            Mark::Raster(m) => m.count(),
        }
    }
}

/// A hatch pattern filling a rectangle in data units.
#[derive(Debug, Clone, PartialEq)]
pub struct HatchItem {
    /// x range in data units.
    pub x: (f64, f64),
    /// y range in data units.
    pub y: (f64, f64),
    /// The pattern, in matplotlib's letters (`/`, `\`, `x`, `.`, `-`, `|`, `+`, `o`).
    pub pattern: char,
}

/// A continuous colour scale's legend: a gradient bar with ticks.
#[derive(Debug, Clone, PartialEq)]
pub struct ColorBar {
    /// Title above the bar (the field, or the channel's `title`).
    pub title: String,
    /// The scale's domain, low to high.
    pub domain: (f64, f64),
    /// Colours sampled at evenly spaced values from low to high (at least
    /// two); the bar is painted as one band per sample.
    pub colors: Vec<Color>,
}

/// The little picture beside a legend entry.
#[derive(Debug, Clone, PartialEq)]
pub enum Swatch {
    /// A filled box (bars, bands).
    Patch(Style),
    /// A line, with an optional marker on it.
    Line(Style, Option<(Shape, f64)>),
    /// A point marker.
    Marker(Shape, f64, Style),
    /// A filled box with a hatch pattern (the `greys` scheme).
    Hatched(Style, char),
}

/// One legend entry.
#[derive(Debug, Clone, PartialEq)]
pub struct LegendEntry {
    /// Text.
    pub label: String,
    /// Picture.
    pub swatch: Swatch,
}

/// Where the legend goes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum LegendPos {
    /// Inside the plot at (fx, fy) in 0..1 (0,0 = lower left).
    Inside(f64, f64),
    /// Inside, wherever it covers the fewest marks (matplotlib's `best`).
    Best,
    /// Outside, right of the plot.
    Right,
    /// Outside, below the plot.
    Bottom,
    /// Not drawn.
    Hidden,
}

/// A legend.
#[derive(Debug, Clone, PartialEq)]
pub struct Legend {
    /// Placement.
    pub position: LegendPos,
    /// Entry columns.
    pub columns: usize,
    /// Framed box.
    pub frame: bool,
    /// Font size in points.
    pub font_size: f64,
    /// Entries in order.
    pub entries: Vec<LegendEntry>,
}

/// Grid lines.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Grid {
    /// None.
    #[default]
    Off,
    /// At major ticks.
    Major,
    /// At major and minor ticks.
    Both,
    /// At the x axis's major ticks only: vertical lines (matplotlib's
    /// `ax.grid(axis="x")`).
    X,
    /// At the y axis's major ticks only: horizontal lines.
    Y,
}

/// An axis after data has been seen.
#[derive(Debug, Clone, PartialEq)]
pub struct Axis {
    /// Title.
    pub title: Option<String>,
    /// Logarithmic scale.
    pub log: bool,
    /// The visible range, low to high in data units.
    pub domain: (f64, f64),
    /// Explicit ticks (position, label); automatic when `None`.
    pub ticks: Option<Vec<(f64, String)>>,
    /// Draw the scale from high to low.
    pub reverse: bool,
    /// Tick label size in points.
    pub tick_font_size: f64,
    /// Draw the tick labels and the title (false on the inner panels of a
    /// facet with a shared scale; the ticks stay, and the labels' room is
    /// kept so every panel's plot area has the same size).
    pub labels: bool,
    /// Symmetric log scale with this constant C: sign(x)·log10(1 + |x|/C)
    /// (Vega-Lite's `symlog`); `None` for linear or log.
    pub symlog: Option<f64>,
    /// How automatic and numeric tick labels are written (default: the
    /// fewest shared decimals; 10ᵏ on a log axis).
    pub format: Option<crate::format::tick::TickFormat>,
    /// Tick label rotation in degrees, clockwise; `None` lets layout turn
    /// colliding categorical labels.
    pub label_angle: Option<f64>,
    /// Every value drawn on this (linear) axis is a whole number: its
    /// automatic ticks step by whole numbers (matplotlib's
    /// `MaxNLocator(integer=True)`).
    pub integer: bool,
}

/// One panel (matplotlib's axes).
#[derive(Debug, Clone, PartialEq)]
pub struct Panel {
    /// Title above the panel.
    pub title: Option<String>,
    /// Horizontal axis.
    pub x: Axis,
    /// Vertical axis.
    pub y: Axis,
    /// Layers in drawing order.
    pub layers: Vec<Mark>,
    /// The legend.
    pub legend: Legend,
    /// Grid lines.
    pub grid: Grid,
    /// The colour bar of a quantitative colour scale, right of the plot.
    pub colorbar: Option<ColorBar>,
}

/// Which frame lines to draw.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Spines {
    /// Left.
    pub left: bool,
    /// Right.
    pub right: bool,
    /// Top.
    pub top: bool,
    /// Bottom.
    pub bottom: bool,
}

/// A whole figure, ready for layout.
#[derive(Debug, Clone, PartialEq)]
pub struct Plot {
    /// Width in points.
    pub width: f64,
    /// Height in points.
    pub height: f64,
    /// Title over the whole figure.
    pub title: Option<String>,
    /// Base font size in points.
    pub font_size: f64,
    /// Figure and panel title size in points.
    pub title_size: f64,
    /// Frame lines.
    pub spines: Spines,
    /// Panels as (rows, columns).
    pub layout: (usize, usize),
    /// Panels, row by row.
    pub panels: Vec<Panel>,
    /// One legend for the whole figure, right of or below the panel grid
    /// (a faceted figure's outside legend); `None`: each panel has its own.
    pub legend: Option<Legend>,
    /// The typeface of every text.
    pub face: crate::font::Face,
    /// The widths of the frame, ticks and grid, the tick lengths and the
    /// paddings.
    pub look: Look,
}

/// A figure's frame, tick and grid lines and paddings, in points (the
/// names are matplotlib's rcParams they stand for).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Look {
    /// `axes.linewidth` and `xtick.major.width`: the frame and major ticks.
    pub axis_width: f64,
    /// `xtick.minor.width`.
    pub minor_width: f64,
    /// `xtick.major.size`: a major tick's length.
    pub tick_size: f64,
    /// `xtick.minor.size`.
    pub minor_size: f64,
    /// `grid.linewidth`.
    pub grid_width: f64,
    /// `savefig.pad_inches` (in points): blank space at the figure's edge.
    pub edge_pad: f64,
}

impl Look {
    /// matplotlib's defaults (a figure given a `size` in inches), except
    /// the grid, drawn solid and light (0.6 pt) instead of dotted.
    pub const MATPLOTLIB: Look = Look {
        axis_width: 0.8,
        minor_width: 0.6,
        tick_size: 3.5,
        minor_size: 2.0,
        grid_width: 0.6,
        edge_pad: 6.0,
    };

    /// tueplots' for a figure sized in the document's terms: `axes.lines()`
    /// (base_width 0.5: frame, major ticks and grid 0.5 pt, minor ticks
    /// 0.25 pt, major ticks max(3.0, 3 x 0.5) = 3 pt long, minor 2 pt) and
    /// `figsizes`' `pad_inches = 0.015` (1.08 pt) round the figure.
    pub const TUEPLOTS: Look = Look {
        axis_width: 0.5,
        minor_width: 0.25,
        tick_size: 3.0,
        minor_size: 2.0,
        grid_width: 0.5,
        edge_pad: 0.015 * 72.0,
    };
}

impl Default for Look {
    fn default() -> Look {
        Look::MATPLOTLIB
    }
}

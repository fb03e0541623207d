//! `[figures.NAME]` as written: the figure, its panels, axes, legend and
//! layers of marks (apart from the rest of the spec, which is mostly about
//! data).

use serde::Deserialize;
use toml::Spanned;

use super::{FormatSpec, Raw, SpannedStr};

/// `[figures.NAME]`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FigureSpec {
    /// Width and height in inches (as matplotlib's `figsize`), each above 0
    /// and at most 100; each a number or an expression over `v` (numbers'
    /// values), e.g. `"0.22 * v['sweep-bars'] + 1.2"`. Either `size` or
    /// `width` is required.
    pub size: Option<[Raw; 2]>,
    /// The width in the document's terms (`[style]`): `"column"`, `"text"`,
    /// a fraction of either (`"0.5 text"`), or a length (`"3in"`).
    pub width: Option<SpannedStr>,
    /// With `width`: width / height (default the golden ratio, 1.618).
    pub aspect: Option<Spanned<f64>>,
    /// With `width`: the height, a length (points, or a string with a unit).
    pub height: Option<Raw>,
    /// A colour painted under the figure; overrides `[output] background`
    /// (`"none"`: transparent).
    pub background: Option<SpannedStr>,
    /// Figure title (a template over `n`, `v`, `meta`).
    pub title: Option<SpannedStr>,
    /// Base font size in points (default 10, as matplotlib; 1 to 200).
    pub font_size: Option<Spanned<f64>>,
    /// Title font size in points (default 1.2 x `font_size`, matplotlib's
    /// "large"; 1 to 200).
    pub title_size: Option<Spanned<f64>>,
    /// Which axis lines to draw: any of `left`, `right`, `top`, `bottom` (default all).
    pub spines: Option<Vec<SpannedStr>>,
    /// Panels as `[rows, columns]` (default one column); each at least 1,
    /// at most 1000 panels.
    pub layout: Option<Spanned<[usize; 2]>>,
    /// Several panels; without it, the figure-level `x`, `y`, `layers`, `legend` and `grid` form one.
    pub panels: Option<Vec<Spanned<PanelSpec>>>,
    /// Single-panel shorthand: the x axis.
    pub x: Option<AxisSpec>,
    /// Single-panel shorthand: the y axis.
    pub y: Option<AxisSpec>,
    /// Single-panel shorthand: the layers.
    pub layers: Option<Vec<Spanned<LayerSpec>>>,
    /// Single-panel shorthand: the legend.
    pub legend: Option<LegendSpec>,
    /// Single-panel shorthand: grid lines (`true`, `"major"`, `"both"`).
    pub grid: Option<Raw>,
    /// The categorical colour scheme of every colour scale in the figure
    /// without its own `range` or `scheme` (`"okabe-ito"`, `"greys"`, ...).
    pub scheme: Option<SpannedStr>,
    /// Small multiples of the one panel: one panel per value (Vega-Lite's
    /// facet); see [`FacetSpec`].
    pub facet: Option<Spanned<FacetSpec>>,
    /// With `facet`: which scales each panel gets on its own (Vega-Lite's
    /// `resolve`; shared by default).
    pub resolve: Option<ResolveSpec>,
}

/// `facet`: `{ field, columns }` wraps one panel per value into
/// `columns` columns; `{ row, column }` makes a grid (Vega-Lite's facet
/// channels). Each is an expression per row.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FacetSpec {
    /// One panel per value of this expression, wrapped into `columns`.
    pub field: Option<SpannedStr>,
    /// Grid rows: one per value of this expression.
    pub row: Option<SpannedStr>,
    /// Grid columns: one per value of this expression.
    pub column: Option<SpannedStr>,
    /// With `field`: panels per row (default: all in one row, at most 100).
    pub columns: Option<Spanned<usize>>,
    /// Panel order: `"ascending"` (default), `"descending"`, `"none"` (the
    /// data's order), or a list of values that come first, in that order.
    pub sort: Option<Raw>,
    /// Each panel's title, a template over `value` (or `row` and `column`),
    /// `n`, `v` and `meta` (default: the value; `row, column` for a grid).
    pub title: Option<SpannedStr>,
}

/// `resolve`: Vega-Lite's scale resolution of a faceted figure.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ResolveSpec {
    /// Per axis: `shared` (default) or `independent`.
    pub scale: Option<ResolveScaleSpec>,
}

/// `resolve.scale`.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ResolveScaleSpec {
    /// `shared` (default) or `independent`.
    pub x: Option<SpannedStr>,
    /// `shared` (default) or `independent`.
    pub y: Option<SpannedStr>,
}

/// One panel (matplotlib's axes).
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PanelSpec {
    /// Panel title (a template).
    pub title: Option<SpannedStr>,
    /// The x axis.
    #[serde(default)]
    pub x: AxisSpec,
    /// The y axis.
    #[serde(default)]
    pub y: AxisSpec,
    /// Layers, drawn in order.
    #[serde(default)]
    pub layers: Vec<Spanned<LayerSpec>>,
    /// The legend (none unless some layer has a label or a mapped colour).
    pub legend: Option<LegendSpec>,
    /// Grid lines: `true` / `"major"` at major ticks, `"both"` adds minor ticks.
    pub grid: Option<Raw>,
}

/// An axis: title, scale, domain and ticks.
#[derive(Debug, Default, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AxisSpec {
    /// Axis title (a template).
    pub title: Option<SpannedStr>,
    /// `linear` (default) or `log`.
    pub scale: Option<SpannedStr>,
    /// `[low, high]`: numbers or expressions over `data_min`, `data_max`, `v`.
    pub domain: Option<[Raw; 2]>,
    /// Explicit ticks: a list of numbers, or `{ data, value, label }` from a table.
    pub ticks: Option<Raw>,
    /// Tick label font size in points (1 to 200).
    pub tick_font_size: Option<Spanned<f64>>,
    /// Put the first category at the far end (categorical axes) or flip the scale.
    #[serde(default)]
    pub reverse: bool,
    /// `symlog`'s constant C in sign(x)·log1p(|x|/C) (Vega-Lite's `constant`; default 1).
    pub constant: Option<Spanned<f64>>,
    /// How tick labels are printed.
    pub format: Option<Spanned<TickFormatSpec>>,
    /// Tick label rotation in degrees, clockwise (Vega-Lite's `labelAngle`), -90 to 90.
    #[serde(rename = "labelAngle")]
    pub label_angle: Option<Spanned<f64>>,
}

/// Tick label format: a number's format plus SI prefixes and scientific notation.
#[derive(Debug, Default, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct TickFormatSpec {
    /// Fixed decimal places, 0 to 20.
    pub places: Option<Spanned<u32>>,
    /// Significant figures, 1 to 17.
    pub figures: Option<Spanned<u32>>,
    /// `always` prints `+` for non-negative values.
    pub sign: Option<SpannedStr>,
    /// Multiply by 100 and append `%`.
    #[serde(default)]
    pub percent: bool,
    /// `false` with `percent`: times 100 without the `%`.
    pub percent_sign: Option<bool>,
    /// Group thousands in the integer part.
    #[serde(default)]
    pub group_digits: bool,
    /// The separator for `group-digits` (default `,`).
    pub group_separator: Option<SpannedStr>,
    /// A unit printed after the number (and prefix) and a space.
    pub unit: Option<String>,
    /// `si`: scale each label by a power of 1000 and write its SI prefix
    /// (`2.5k`, `10 MB/s`); `binary`: by a power of 1024 (`1.5 GiB`).
    pub prefix: Option<SpannedStr>,
    /// `scientific`: `2.5×10⁶` (siunitx's `exponent-mode`); default `fixed`.
    pub exponent_mode: Option<SpannedStr>,
}

impl TickFormatSpec {
    /// The number-format part.
    pub fn number_format(&self) -> FormatSpec {
        FormatSpec {
            places: self.places.clone(),
            figures: self.figures.clone(),
            sign: self.sign.clone(),
            percent: self.percent,
            percent_sign: self.percent_sign,
            group_digits: self.group_digits,
            group_separator: self.group_separator.clone(),
            ..FormatSpec::default()
        }
    }
}

/// Legend placement and style.
#[derive(Debug, Default, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LegendSpec {
    /// `upper left`, `upper right`, `lower left`, `lower right`, `center
    /// right`, `center left`, `upper center`, `lower center`, or outside the
    /// plot: `right`, `bottom`. `none` hides it.
    pub position: Option<SpannedStr>,
    /// Columns of entries (default 1; at most 100).
    pub columns: Option<Spanned<usize>>,
    /// Draw a frame (default true).
    pub frame: Option<bool>,
    /// Font size in points (1 to 200).
    pub font_size: Option<Spanned<f64>>,
}

/// One layer: a mark, its data and its encoding.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LayerSpec {
    /// `bar`, `point`, `line`, `rule`, `rect`, `text`, `errorbar`, `hist`,
    /// `boxplot`, `ecdf`, `area`, `errorband`, `violin`, `arc`.
    pub mark: SpannedStr,
    /// The table drawn (absent for marks placed by constants, e.g. a rule).
    pub data: Option<SpannedStr>,
    /// Only rows where this expression is true.
    #[serde(rename = "where")]
    pub where_: Option<SpannedStr>,
    /// Position channels: a number, or an expression per row.
    pub x: Option<Raw>,
    /// See `x`.
    pub y: Option<Raw>,
    /// Second x position (bar/rect end, errorbar high).
    pub x2: Option<Raw>,
    /// Second y position (bar base, rect end, errorbar high).
    pub y2: Option<Raw>,
    /// Fill colour: `"#1f77b4"` / a name, `{ expr = ... }`, or `{ field, scale = { domain, range } }`.
    pub color: Option<Raw>,
    /// Outline colour; same forms as `color`.
    pub stroke: Option<Raw>,
    /// Point shape: `circle`, `square`, `triangle`, `diamond`; same forms as `color`.
    pub shape: Option<Raw>,
    /// Point area in pt² (matplotlib's `s`): a number (0 to 10,000) or an expression.
    pub size: Option<Raw>,
    /// Opacity 0..1: a number or an expression.
    pub opacity: Option<Raw>,
    /// Line width / outline width in points: a number (0 to 100) or an expression.
    pub stroke_width: Option<Raw>,
    /// `solid`, `dashed`, `dotted`, `dashdot`.
    pub dash: Option<SpannedStr>,
    /// One line per value of this expression (line marks).
    pub series: Option<SpannedStr>,
    /// Text of a text mark or a bar's value label: a template over the row
    /// (`n`, `v`), or `{ field, format }` (see `plan::text`).
    pub text: Option<Raw>,
    /// Legend entry text (a template over `n`, `v`, `meta`).
    pub label: Option<SpannedStr>,
    /// Show this layer in the legend (default true).
    pub legend: Option<bool>,
    /// hist: number of equal-width bins over the data range (numpy's default
    /// range); 1 to 10,000.
    pub bins: Option<Spanned<usize>>,
    /// bar: `vertical` (default) or `horizontal`.
    pub orient: Option<SpannedStr>,
    /// bar: thickness as a fraction of a category slot or in data units
    /// (default 0.8; finite, above 0).
    pub band: Option<Spanned<f64>>,
    /// line: marker shape drawn at each point.
    pub marker: Option<String>,
    /// line: marker diameter in points (0 to 100).
    pub marker_size: Option<Spanned<f64>>,
    /// text: `left`, `center` (default), `right`.
    pub align: Option<String>,
    /// text: `bottom` (default; text sits above its point), `middle`, `top`.
    pub baseline: Option<String>,
    /// text: offset in points (right, up), -7200 to 7200.
    pub dx: Option<Spanned<f64>>,
    /// See `dx`.
    pub dy: Option<Spanned<f64>>,
    /// text: font size in points (1 to 200).
    pub font_size: Option<Spanned<f64>>,
    /// text: move labels so they overlap neither each other, nor points, nor the legend.
    pub avoid_overlap: Option<Spanned<bool>>,
    /// bar: where the value label (`text`) sits: `outside` (default), `inside`.
    pub text_position: Option<SpannedStr>,
    /// line: label each series at its last point.
    pub end_labels: Option<Spanned<bool>>,
    /// Extra row fields written to the figure's CSV.
    pub detail: Option<Vec<String>>,
    /// boxplot: whiskers at `k` IQRs (a number, default 1.5) or `"min-max"`;
    /// errorband / errorbar from raw rows: `"ci"`, `"stderr"`, `"stdev"`,
    /// `"iqr"` or `"min-max"` (Vega-Lite's words). Checked where used.
    pub extent: Option<Raw>,
    /// ecdf: draw 1 - F, the complementary CDF (tail plots).
    pub complementary: Option<bool>,
    /// Drawing order, as matplotlib's `zorder`: lower is drawn first (default:
    /// the layer's position; -1e6 to 1e6). The legend keeps the layers'
    /// written order.
    pub z: Option<Spanned<f64>>,
    /// Draw the layer as an image at the PNG's dpi inside the SVG and PDF
    /// (matplotlib's `rasterized=True`): a layer of 10⁵ points stays a
    /// small file that opens fast.
    pub rasterize: Option<Spanned<bool>>,
    /// Dodges within a category (Vega-Lite's `xOffset`): one sub-band of the
    /// category's band per value of this expression or `{ field, scale = {
    /// domain } }` (bar, point, errorbar, text, hist).
    #[serde(rename = "xOffset")]
    pub x_offset: Option<Raw>,
    /// See `x_offset`, on y (horizontal bars and errorbars).
    #[serde(rename = "yOffset")]
    pub y_offset: Option<Raw>,
    /// bar, hist: `true` / `"zero"` stacks from 0, `"normalize"` stacks
    /// shares summing to 1, `false` draws each from its base.
    pub stack: Option<Raw>,
    /// With an offset: the fraction of each sub-band left empty (Vega-Lite's
    /// `paddingInner`; 0 to below 1; default 0.1 for bars, 0 for hist).
    pub padding: Option<Spanned<f64>>,
    /// arc: each row's angle, as a share of the rows' total (Vega-Lite's
    /// `theta`): a number or an expression, at least 0.
    pub theta: Option<Raw>,
    /// arc: the hole's radius in points (a donut; default 0, a pie).
    #[serde(rename = "innerRadius")]
    pub inner_radius: Option<Spanned<f64>>,
    /// arc: the radius in points (default half the plot's smaller side).
    #[serde(rename = "outerRadius")]
    pub outer_radius: Option<Spanned<f64>>,
}

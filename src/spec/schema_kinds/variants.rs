//! The variants of the kinds that have them (marks, step verbs, window
//! operations, aggregate operations), each with its one-line doc: apart
//! from `KINDS` so each list reads whole.

use crate::spec::schema::Variant;

pub(super) const MARKS: &[Variant] = &[
    Variant {
        name: "bar",
        doc: "bars from a base (`y2`, default 0) to `y`; `orient = \"horizontal\"` swaps the axes",
    },
    Variant {
        name: "hist",
        doc: "a histogram of `x` in `bins` equal bins (numpy's edges); with `series`, a `color` field or `xOffset`, one per group over shared edges: overlaid (opacity 0.5), `stack`ed, or side by side",
    },
    Variant {
        name: "point",
        doc: "one marker per row",
    },
    Variant {
        name: "line",
        doc: "lines through the rows in x order, one per `series`",
    },
    Variant {
        name: "rule",
        doc: "a vertical line at `x`, a horizontal one at `y`, or the diagonal; with `y2` a segment from `y` to `y2` at `x` (a lollipop's stem), with `x2` one from `x` to `x2` at `y`, with both one from (`x`, `y`) to (`x2`, `y2`)",
    },
    Variant {
        name: "rect",
        doc: "a band from `x` to `x2` and/or `y` to `y2` (a missing pair spans the axis); a category `x` or `y` without its pair fills the category's slot (a heatmap cell)",
    },
    Variant {
        name: "text",
        doc: "a text per row at (`x`, `y`)",
    },
    Variant {
        name: "errorbar",
        doc: "a segment from `y` to `y2` at `x` (`orient = \"horizontal\"`: `x` to `x2` at `y`); with `extent` and no `y2`, computed from the rows at each `x`",
    },
    Variant {
        name: "boxplot",
        doc: "a Tukey box per `x` category (and colour) of the raw values `y`: quartiles (numpy's linear), whiskers to the furthest value within `extent` IQRs, outliers as points; boxes of several colours at one category stand side by side (seaborn's hue)",
    },
    Variant {
        name: "ecdf",
        doc: "the empirical CDF of `x` (fraction of values <= x) as a step line per `series`; `complementary = true`: 1 - F",
    },
    Variant {
        name: "area",
        doc: "a filled area from `y2` (default 0) to `y` along `x`, one per `series`",
    },
    Variant {
        name: "errorband",
        doc: "a band from `y` to `y2` along `x`, or with `extent` computed from the rows at each `x` (mean ± ci, stderr, stdev; iqr; min-max), one per `series`",
    },
    Variant {
        name: "violin",
        doc: "a mirrored Gaussian KDE (Scott's bandwidth, as scipy) of the raw values `y` per `x` category, with the median marked; several colours at one category stand side by side",
    },
    Variant {
        name: "arc",
        doc: "a pie (or with `innerRadius` a donut; Vega-Lite's arc): one wedge per row, its angle the row's `theta` as a share of the total, starting at 12 o'clock and running clockwise in row order, filled by `color` (a scale: a legend of its values); `text` labels each wedge at its middle, with the row's `share` (0 to 1) to print (`{ field = \"share\", format = { places = 0, percent = true } }`); no x or y axis",
    },
];

/// Marks drawn on x and y axes (every mark but `arc`).
pub(super) const XY_MARKS: &[&str] = &[
    "bar",
    "hist",
    "point",
    "line",
    "rule",
    "rect",
    "text",
    "errorbar",
    "boxplot",
    "ecdf",
    "area",
    "errorband",
    "violin",
];

/// Marks with a legend entry (a label, or the keys of a colour scale).
pub(super) const LEGEND_MARKS: &[&str] = &[
    "bar",
    "hist",
    "point",
    "line",
    "rule",
    "rect",
    "boxplot",
    "ecdf",
    "area",
    "errorband",
    "violin",
    "arc",
];

pub(super) const VERBS: &[Variant] = &[
    Variant {
        name: "filter",
        doc: "keep the rows where the expression is true (rows dropped while a field it reads is null, NaN, infinite or 0 are reported; in `a and b`, only the fields of the first false term count, and the note names that term)",
    },
    Variant {
        name: "require",
        doc: "fail, naming the row and the values, where the expression is false",
    },
    Variant {
        name: "derive",
        doc: "add fields from expressions, in order",
    },
    Variant {
        name: "explode",
        doc: "one row per entry of a map or list field",
    },
    Variant {
        name: "lookup",
        doc: "add the fields of the row of another table with the same key",
    },
    Variant {
        name: "union",
        doc: "append the rows of other tables",
    },
    Variant {
        name: "group",
        doc: "one row per group of these fields, with `aggregate`s",
    },
    Variant {
        name: "sort",
        doc: "a stable sort by keys",
    },
    Variant {
        name: "limit",
        doc: "keep the first N rows (per group with `per`)",
    },
    Variant {
        name: "pareto",
        doc: "flag the non-dominated rows; these fields are maximized (one front per group with `per`)",
    },
    Variant {
        name: "unique",
        doc: "fail (or keep one) when these key fields repeat",
    },
    Variant {
        name: "row_number",
        doc: "number the rows 0, 1, 2, ... into this field",
    },
    Variant {
        name: "aggregate",
        doc: "without `group`: one row of aggregates over the whole table",
    },
    Variant {
        name: "window",
        doc: "add ranks, lags, running totals and block ids per group, in `sort` order; row order is kept",
    },
    Variant {
        name: "joinaggregate",
        doc: "add each group's aggregates to every row of the group",
    },
    Variant {
        name: "fold",
        doc: "wide to long: one row per listed field, its name in `key` and its value in `value`",
    },
    Variant {
        name: "pivot",
        doc: "long to wide: one row per `per` group, one new field per value of this field",
    },
    Variant {
        name: "bin",
        doc: "the equal-width bin (numpy's edges) of this numeric field: its start in `as`, its end in `as` + `_end`",
    },
];

/// Step keys that are verbs alone and options beside another verb:
/// (verb, option). `{ group, aggregate }` is a group step; `{ window, sort }`
/// a window step.
pub const STEP_COMPANIONS: &[(&str, &str)] = &[("group", "aggregate"), ("window", "sort")];

pub(super) const WINDOW_OPS: &[Variant] = &[
    Variant {
        name: "lag",
        doc: "the field's value `offset` rows before (null, or `default`, before the first; null from a row without the field)",
    },
    Variant {
        name: "lead",
        doc: "the field's value `offset` rows after (null, or `default`, after the last; null from a row without the field)",
    },
    Variant {
        name: "sum",
        doc: "the running sum up to this row (an integer while every value is one)",
    },
    Variant {
        name: "mean",
        doc: "the running mean up to this row",
    },
    Variant {
        name: "count",
        doc: "the running count of non-null values up to this row",
    },
    Variant {
        name: "min",
        doc: "the running minimum",
    },
    Variant {
        name: "max",
        doc: "the running maximum",
    },
    Variant {
        name: "block",
        doc: "a counter from 0 that starts a new block whenever the field(s) differ from the previous row's (A A B B A A: 0 0 1 1 2 2)",
    },
];

pub(super) const OPS: &[Variant] = &[
    Variant {
        name: "count",
        doc: "the rows where the expression is not null (`\"count\"` alone: all rows)",
    },
    Variant {
        name: "sum",
        doc: "the sum (exact while every value is an integer)",
    },
    Variant {
        name: "mean",
        doc: "the arithmetic mean",
    },
    Variant {
        name: "weighted_mean",
        doc: "Σ x·w / Σ w with `weight`",
    },
    Variant {
        name: "median",
        doc: "numpy's median (even count: mean of the middle two)",
    },
    Variant {
        name: "quantile",
        doc: "numpy's linear quantile at `q`",
    },
    Variant {
        name: "min",
        doc: "the smallest value",
    },
    Variant {
        name: "max",
        doc: "the largest value",
    },
    Variant {
        name: "std",
        doc: "the sample standard deviation (ddof 1)",
    },
    Variant {
        name: "gmean",
        doc: "the geometric mean, `exp(mean(log x))` (scipy.stats.gmean); a value of 0 or less is an error",
    },
    Variant {
        name: "hmean",
        doc: "the harmonic mean, `1 / mean(1 / x)` (scipy.stats.hmean); a value of 0 or less is an error",
    },
    Variant {
        name: "mad",
        doc: "the median absolute deviation, `median(|x - median(x)|)` (scipy.stats.median_abs_deviation), raw or with `scale = \"normal\"`",
    },
    Variant {
        name: "argmax",
        doc: "on the row where the expression is largest (the first of ties, as numpy.argmax): `field`'s value, or the row's 0-based index",
    },
    Variant {
        name: "argmin",
        doc: "on the row where the expression is smallest (the first of ties, as numpy.argmin): `field`'s value, or the row's 0-based index",
    },
    Variant {
        name: "ttest_ind",
        doc: "the two-sided p-value of Welch's t-test between the rows of the two `groups` (scipy.stats.ttest_ind with equal_var=False)",
    },
    Variant {
        name: "mannwhitneyu",
        doc: "the two-sided p-value of the Mann–Whitney U test between the rows of the two `groups` (scipy.stats.mannwhitneyu, method \"auto\": exact below 9 values in a group without ties, else normal with tie and continuity corrections)",
    },
    Variant {
        name: "ci95",
        doc: "a bound of the mean's confidence interval (Student t, or a bootstrap)",
    },
    Variant {
        name: "first",
        doc: "the value in the first row (any type)",
    },
    Variant {
        name: "last",
        doc: "the value in the last row (any type)",
    },
    Variant {
        name: "cell",
        doc: "numbers only: the value in the one row left (an error unless exactly one)",
    },
    Variant {
        name: "expr",
        doc: "numbers only: an expression over `meta`, `v` and `n`, without a table",
    },
];

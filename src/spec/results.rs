//! `[results_tables.NAME]`: a paper's table of results, as written (see
//! the `results` module for what it becomes).

use indexmap::IndexMap;
use serde::Deserialize;
use toml::Spanned;

use super::{FormatSpec, Raw, SpannedStr};

/// The extensions of a results table's files (`generated/NAME.tex`,
/// `.typ`, `.csv`, `.md`), in the order the results writers make them.
pub const RESULTS_EXTENSIONS: [&str; 4] = ["tex", "typ", "csv", "md"];

/// `[results_tables.NAME]`: rows of a table printed as a LaTeX booktabs
/// tabular, a typst `table`, CSV and Markdown (`generated/NAME.tex`,
/// `.typ`, `.csv`, `.md`).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ResultsTableSpec {
    /// The table or source the rows come from.
    pub from: SpannedStr,
    /// Only the rows where this expression is true.
    #[serde(rename = "where")]
    pub where_: Option<SpannedStr>,
    /// A field whose values split the rows into groups (first-seen order),
    /// each under a header row.
    pub group: Option<SpannedStr>,
    /// The columns, left to right (1 to 100).
    pub columns: Spanned<Vec<Spanned<ResultsColumnSpec>>>,
    /// Where `highlight` picks the best: `column`, `group` or `row`.
    pub highlight_per: Option<SpannedStr>,
    /// The rows' order: sort keys as a `sort` step takes them.
    pub sort: Option<Raw>,
    /// A table that breaks across pages (LaTeX `longtable`).
    pub long: Option<Spanned<bool>>,
}

/// One column of a results table: a field (printed with `format`, with
/// an optional `uncertainty`) or a `text` template.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ResultsColumnSpec {
    /// The field printed in this column.
    pub field: Option<SpannedStr>,
    /// A template over the row, instead of `field`.
    pub text: Option<SpannedStr>,
    /// The column's header (default: the field's name).
    pub header: Option<SpannedStr>,
    /// How the field's numbers are printed (the numbers' format).
    pub format: Option<Spanned<FormatSpec>>,
    /// A field printed after the value as `± u` in the same format.
    pub uncertainty: Option<SpannedStr>,
    /// Bold the best value: `max` or `min`.
    pub highlight: Option<SpannedStr>,
    /// A field whose value picks each row's format from `formats`.
    pub format_by: Option<SpannedStr>,
    /// Formats by the value of `format_by` (others use `format`).
    pub formats: Option<Spanned<IndexMap<String, Spanned<FormatSpec>>>>,
}

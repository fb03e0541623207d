//! `artifact.toml`: the declarative spec, as written by the user.
//!
//! This module reads and locates the spec, and checks every key against
//! what its kind and variant read (`schema` declares it, `keys` checks it,
//! `schema_out` prints it as a JSON Schema and as `docs/spec.md`'s tables);
//! each later stage (tables, numbers, figures) compiles its part and
//! reports problems with the span of the offending text, so errors point at
//! a line and column of the spec.
//!
//! Layout of the file (`docs/spec.md` is the full reference):
//! - `[output]`: where outputs go (`figures`, `generated`, relative to the
//!   spec), which files a figure writes (`formats`, `dpi`, `background`).
//! - `[style]`: the document's column and text widths and font size (or a
//!   `preset` class), for figures sized in the paper's terms.
//! - `[templates]`: optional paths of the user's own minijinja templates.
//! - `[sources.NAME]`: data files (`path`, `format`, `records`, `optional`, `rows`).
//! - `[tables.NAME]`: `from` a source or table, ordered `steps`.
//! - `[numbers.KEY]`: a value from a table (`table`, `where`, `value`, `format`).
//! - `[figures.NAME]`: `size`, `title`, panels of layered marks.
//! - `[results_tables.NAME]`: a table of results for the prose (`spec::results`).

use std::path::{Path, PathBuf};

use indexmap::IndexMap;
use serde::Deserialize;
use toml::Spanned;

use crate::error::{Error, Result};

pub mod bounds;
mod figure;
pub mod keys;
pub mod parts;
pub mod paths;
mod results;
pub mod schema;
mod schema_kinds;
pub mod schema_out;

pub use figure::{
    AxisSpec, FacetSpec, FigureSpec, LayerSpec, LegendSpec, PanelSpec, ResolveScaleSpec,
    ResolveSpec, TickFormatSpec,
};
pub use results::{RESULTS_EXTENSIONS, ResultsColumnSpec, ResultsTableSpec};

/// The spec's file name, searched for from the working folder upwards.
pub const SPEC_FILE: &str = "artifact.toml";

/// The lock file's name, beside `artifact.toml`.
pub const LOCK_FILE: &str = "artifact.lock";

/// A string with its byte span in the spec (expressions, names, templates).
pub type SpannedStr = Spanned<String>;

/// A value whose shape depends on what the user wrote (number, string or
/// table); interpreted by the stage that uses it, with its span for errors.
pub type Raw = Spanned<toml::Value>;

/// The whole spec.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Spec {
    /// Output folders.
    #[serde(default)]
    pub output: OutputSpec,
    /// The document figures are sized for (`width = "column"`).
    #[serde(default)]
    pub style: StyleSpec,
    /// User templates for the emitted macro files.
    #[serde(default)]
    pub templates: TemplatesSpec,
    /// Data files, by name.
    #[serde(default)]
    pub sources: IndexMap<String, Spanned<SourceSpec>>,
    /// Derived tables, by name, in dependency-free order of declaration.
    #[serde(default)]
    pub tables: IndexMap<String, Spanned<TableSpec>>,
    /// Numbers quoted by the paper, by key (free-form, e.g. `fig3-median`).
    #[serde(default)]
    pub numbers: IndexMap<String, Spanned<NumberSpec>>,
    /// Figures, by name (the output file stem).
    #[serde(default)]
    pub figures: IndexMap<String, Spanned<FigureSpec>>,
    /// Results tables for the paper, by name (the stem of their files).
    #[serde(default)]
    pub results_tables: IndexMap<String, Spanned<ResultsTableSpec>>,
}

/// `[output]`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OutputSpec {
    /// Folder for `NAME.svg`, `NAME.pdf`, `NAME.png`, `NAME.csv` (default `figures`).
    #[serde(default = "default_figures_dir")]
    pub figures: SpannedStr,
    /// Folder for `macros.tex`, `macros.typ`, `numbers.json` (default `generated`).
    #[serde(default = "default_generated_dir")]
    pub generated: SpannedStr,
    /// Files each figure writes besides `NAME.csv`: any of `svg`, `pdf`,
    /// `png` (default `["svg", "pdf"]`).
    pub formats: Option<Spanned<Vec<SpannedStr>>>,
    /// PNG resolution in dots per inch (default 300; see
    /// `render::options::DPI`).
    pub dpi: Option<Spanned<f64>>,
    /// A colour painted under every figure (default none: transparent).
    pub background: Option<SpannedStr>,
}

/// `[style]`: the document the figures are printed in. Lengths are TeX
/// points (what `\the\columnwidth` prints) or strings with a unit.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StyleSpec {
    /// A document class whose widths, font size and typeface are the
    /// defaults: `acmart`, `ieeetran`, `neurips`, `icml`, `usenix`, `lncs`,
    /// `article`.
    pub preset: Option<SpannedStr>,
    /// The typeface of every figure's text: `sans`, `times`, `libertine`,
    /// `latin-modern` (default the preset's, else `sans`).
    pub font: Option<SpannedStr>,
    /// `\columnwidth`: a number of points or a length string (`"3.33in"`).
    pub column_width: Option<Raw>,
    /// `\textwidth`; see `column_width`.
    pub text_width: Option<Raw>,
    /// The body text's size in points (1 to 200).
    pub font_size: Option<Spanned<f64>>,
    /// One colour per value, for every figure: `{ Baseline = "#4477aa" }`
    /// (checked by `plan::palette`).
    pub colors: Option<Raw>,
}

fn default_figures_dir() -> SpannedStr {
    Spanned::new(0..0, "figures".into())
}
fn default_generated_dir() -> SpannedStr {
    Spanned::new(0..0, "generated".into())
}

impl Default for OutputSpec {
    fn default() -> Self {
        OutputSpec {
            figures: default_figures_dir(),
            generated: default_generated_dir(),
            formats: None,
            dpi: None,
            background: None,
        }
    }
}

/// `[templates]`: each a path relative to the spec; the built-in template is
/// used for any that is not given.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TemplatesSpec {
    /// Template for `macros.tex`.
    pub tex: Option<SpannedStr>,
    /// Template for `macros.typ`.
    pub typ: Option<SpannedStr>,
    /// Template for `numbers.json`.
    pub json: Option<SpannedStr>,
}

/// `[sources.NAME]`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SourceSpec {
    /// A path, a glob, or a list of them (relative to the spec's folder).
    pub path: Option<Raw>,
    /// `jsonl`, `json`, `csv`, `tsv` (CSV with a tab delimiter) or `parquet`;
    /// inferred from the extension when absent (`.zst` or `.gz` on a text
    /// format means compressed, as do zstd's or gzip's magic bytes; on a
    /// `.parquet` file it is an error).
    pub format: Option<SpannedStr>,
    /// For JSON documents: a JSON pointer to the records array (`/results`);
    /// the rest of each document is its rows' `_source.meta` (and
    /// `meta.NAME` when the source reads one document).
    pub records: Option<SpannedStr>,
    /// For JSON documents whose records are a mapping (`{"3f2a9c1": {...},
    /// ...}`, one entry per commit, say): each entry is a row, its key in
    /// this field (pandas' `from_dict(orient="index")`).
    pub records_key: Option<SpannedStr>,
    /// A missing file is a reported skip instead of an error.
    #[serde(default)]
    pub optional: bool,
    /// Inline rows (instead of `path`), e.g. a category-to-class table.
    pub rows: Option<Vec<toml::Table>>,
    /// The longest line (JSONL), record (CSV) or document (JSON) read, as
    /// a byte count or a size (`"256 MiB"`); default 64 MiB. See
    /// `sources::limit`. An error on a Parquet source (it has no lines).
    pub max_line: Option<Raw>,
    /// CSV: the text between cells, 1 to 16 bytes (default `,`; a tab for
    /// `.tsv` and `format = "tsv"`), e.g. `", "` as cloc and hand-written
    /// files have it. See `sources::csvfile`.
    pub delimiter: Option<SpannedStr>,
    /// CSV: strip spaces and tabs around header names and cells (default false).
    pub trim: Option<Spanned<bool>>,
    /// CSV: lines starting with this text are skipped (e.g. `#`).
    pub comment: Option<SpannedStr>,
    /// CSV: the number of lines before the header, skipped (default 0).
    pub skip: Option<Spanned<i64>>,
    /// CSV: the column names, for a file without a header row (every
    /// line after `skip` is a row).
    pub header: Option<Spanned<Vec<String>>>,
}

/// `[tables.NAME]`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TableSpec {
    /// The source or table the rows come from.
    pub from: SpannedStr,
    /// Transforms, applied in order.
    #[serde(default)]
    pub steps: Vec<Spanned<StepSpec>>,
}

/// One transform step, as written: exactly one verb (`filter`, `require`, `derive`,
/// `explode`, `lookup`, `union`, `group`, `aggregate`, `sort`, `limit`, `pareto`,
/// `unique`, `row_number`, `window`, `joinaggregate`, `fold`, `pivot`, `bin`)
/// plus that verb's options.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StepSpec {
    /// Keep rows where the expression is true.
    pub filter: Option<SpannedStr>,
    /// Fail, naming the row and the values, where the expression is false.
    pub require: Option<SpannedStr>,
    /// New fields from expressions, evaluated in order.
    pub derive: Option<IndexMap<String, SpannedStr>>,
    /// A map or list field to turn into one row per entry.
    pub explode: Option<SpannedStr>,
    /// explode / fold: name of the new key field (default `key`).
    pub key: Option<String>,
    /// explode / fold: name of the new value field (default `value`); pivot:
    /// the field whose values fill the new fields.
    pub value: Option<String>,
    /// A table to look rows up in, by key.
    pub lookup: Option<SpannedStr>,
    /// lookup: key field(s), or `{ left, right }` when named differently.
    pub on: Option<Raw>,
    /// lookup: nest the matched row under this field; pareto, bin: output field.
    #[serde(rename = "as")]
    pub as_: Option<String>,
    /// lookup: copy only these fields of the matched row.
    pub fields: Option<Vec<String>>,
    /// lookup: `drop` (default, reported), `keep` (field is null) or `error`.
    pub unmatched: Option<SpannedStr>,
    /// Append the rows of other tables.
    pub union: Option<Raw>,
    /// union: only add rows whose key is not yet present.
    pub only_new: Option<Raw>,
    /// Group by these fields.
    pub group: Option<Raw>,
    /// group: output fields, each an aggregate; alone, one row over the table.
    pub aggregate: Option<IndexMap<String, Raw>>,
    /// Sort keys: a field/expression, or `{ by, descending, order }`; with
    /// `window`, the order the window runs in.
    pub sort: Option<Raw>,
    /// Keep the first N rows (per group with `per`).
    pub limit: Option<Spanned<i64>>,
    /// limit / row_number / pareto / window / joinaggregate / pivot: per
    /// group of these fields.
    pub per: Option<Raw>,
    /// Mark the non-dominated rows; fields to maximize.
    pub pareto: Option<Raw>,
    /// pareto: fields to minimize.
    pub minimize: Option<Raw>,
    /// Fail (or keep one) when the key fields repeat.
    pub unique: Option<Raw>,
    /// unique: `error` (default), `first` or `last`.
    pub keep: Option<SpannedStr>,
    /// Number the rows 0, 1, 2, ... into this field.
    pub row_number: Option<String>,
    /// Window operations by output field (`"rank"` or `{ lag = "x" }`).
    pub window: Option<IndexMap<String, Raw>>,
    /// Per-group aggregates added to every row of the group.
    pub joinaggregate: Option<IndexMap<String, Raw>>,
    /// Fields turned into key/value rows (wide to long).
    pub fold: Option<Raw>,
    /// The field whose values become new fields (long to wide).
    pub pivot: Option<SpannedStr>,
    /// pivot: how repeated cells combine (default: a repeat is an error).
    pub op: Option<SpannedStr>,
    /// The numeric field to bin.
    pub bin: Option<SpannedStr>,
    /// bin: how many equal bins (numpy's `bins`).
    pub bins: Option<Spanned<i64>>,
    /// bin: the bin width, edges at multiples of it.
    pub step: Option<Spanned<f64>>,
    /// bin: the range binned (default: the values' min and max).
    pub extent: Option<Spanned<Vec<f64>>>,
}

/// `[numbers.KEY]`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NumberSpec {
    /// The table the value is computed from (absent for `expr` values).
    pub table: Option<SpannedStr>,
    /// Only rows where this expression is true.
    #[serde(rename = "where")]
    pub where_: Option<SpannedStr>,
    /// `"count"`, an aggregate (`{ median = "x" }`), `{ cell = "x" }` (the
    /// one row left) or `{ expr = "..." }` (over `meta`, `v`, `n`).
    pub value: Raw,
    /// A symmetric uncertainty (an aggregate, `{ stdev = "x" }`) or an
    /// interval (`{ low = AGG, high = AGG }`), printed with the value.
    pub uncertainty: Option<Raw>,
    /// How the number is printed (siunitx terms).
    #[serde(default)]
    pub format: FormatSpec,
    /// What the number is, for the comment beside its macro (a template
    /// over the row or group's fields in a family).
    pub description: Option<String>,
    /// A family: one number per row (or `per` group) of `table`, its key
    /// this template over the row's fields (`"{{ benchmark }}-mean"`).
    pub each: Option<SpannedStr>,
    /// A family: one number per group of rows with equal values of these
    /// fields (a string or a list of strings).
    pub per: Option<Raw>,
}

/// Number formatting, named after siunitx options.
#[derive(Debug, Default, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct FormatSpec {
    /// Fixed decimal places (siunitx `round-mode = places`), 0 to 20.
    pub places: Option<Spanned<u32>>,
    /// Significant figures (siunitx `round-mode = figures`), 1 to 17.
    pub figures: Option<Spanned<u32>>,
    /// `always` prints `+` for non-negative values (siunitx `print-implicit-plus`).
    pub sign: Option<SpannedStr>,
    /// Multiply by 100 and append `%`.
    #[serde(default)]
    pub percent: bool,
    /// Group thousands in the integer part (siunitx `group-digits = integer`).
    #[serde(default)]
    pub group_digits: bool,
    /// The separator for `group-digits` (default `,`); LaTeX spellings
    /// `\,`, `~` and `{,}` are read as the character they print.
    pub group_separator: Option<SpannedStr>,
    /// A unit printed after the number and a space (`ms`); `×`, `x`, `%`
    /// and `°` attach without one.
    pub unit: Option<String>,
    /// `fixed`, `scientific` or `engineering` (default: fixed, scientific
    /// below 10⁻⁴ when no `places` is given).
    pub exponent_mode: Option<SpannedStr>,
    /// `false` prints `10⁻¹⁴` for a mantissa of 1 (default true).
    pub print_unity_mantissa: Option<bool>,
    /// The decimal marker (default `.`), e.g. `,`.
    pub output_decimal_marker: Option<SpannedStr>,
    /// The text between a number and its unit (default one space).
    pub number_unit_product: Option<SpannedStr>,
    /// `false` prints an uncertainty in siunitx's compact form `1.234(5)`.
    pub separate_uncertainty: Option<bool>,
    /// `false` with `percent`: the value times 100 without `%`.
    pub percent_sign: Option<bool>,
    /// How an uncertainty prints: `plus-minus` (`2.08 ± 0.05`,
    /// `2.08 +0.05 / −0.04`) or `bounds` (`2.08 [2.03, 2.13]`).
    pub interval: Option<SpannedStr>,
    /// `si`: a power of 1000 per value, written as its SI prefix before
    /// the unit (`10.309 µs`); `binary`: a power of 1024 (`1.2 GiB`).
    pub prefix: Option<SpannedStr>,
}

/// The value of an optional spanned setting (`font_size`, `bins`, ...).
pub fn value<T: Copy>(v: &Option<Spanned<T>>) -> Option<T> {
    v.as_ref().map(|s| *s.get_ref())
}

/// The spec text, its parsed form and where it lives.
#[derive(Debug)]
pub struct LoadedSpec {
    /// The parsed spec.
    pub spec: Spec,
    /// The spec's text (for error carets and hashing).
    pub text: String,
    /// The spec file's path.
    pub path: PathBuf,
    /// The folder all spec paths are relative to.
    pub root: PathBuf,
    /// The text as an untyped TOML table, parsed on first use by
    /// [`LoadedSpec::doc`] (read by the demand analysis, fingerprints and
    /// number order: once per run, not once per table, figure or number).
    doc: std::sync::OnceLock<Option<toml::Table>>,
    /// Its parts in canonical form, found on first use by
    /// [`LoadedSpec::parts`].
    parts: std::sync::OnceLock<parts::Parts>,
    /// The span of each key of each top-level table, found on first use
    /// by [`paths::key_span`].
    key_spans: std::sync::OnceLock<paths::KeySpans>,
    /// The byte offset of each line's start, found on first use by
    /// [`LoadedSpec::line_col`].
    line_starts: std::sync::OnceLock<Vec<usize>>,
    /// The numbers' order (`plan::order::order`), found on first use by
    /// [`LoadedSpec::numbers_order`]; `None` when it is an error.
    numbers_order: std::sync::OnceLock<Option<NumbersOrder>>,
    /// The families' places in `spec.numbers`, found on first use by
    /// [`LoadedSpec::families`].
    families: std::sync::OnceLock<Vec<usize>>,
}

/// The number declarations in the order they are computed, with each
/// one's place in it.
#[derive(Debug, Clone, Default)]
pub struct NumbersOrder {
    /// The declarations (keys and family names), in the order computed.
    pub keys: Vec<String>,
    place: std::collections::HashMap<String, usize>,
}

impl NumbersOrder {
    /// `keys` with each one's place.
    pub fn new(keys: Vec<String>) -> NumbersOrder {
        let place = keys
            .iter()
            .enumerate()
            .map(|(i, k)| (k.clone(), i))
            .collect();
        NumbersOrder { keys, place }
    }

    /// The place of declaration `key` in the order, if it is one.
    pub fn place(&self, key: &str) -> Option<usize> {
        self.place.get(key).copied()
    }
}

impl LoadedSpec {
    /// The spec's text as an untyped TOML table (`None` if it does not
    /// parse as one, which a loaded spec always does).
    pub fn doc(&self) -> Option<&toml::Table> {
        self.doc
            .get_or_init(|| toml::from_str(&self.text).ok())
            .as_ref()
    }

    /// The spec's parts: each one's canonical text and the numbers it
    /// quotes (see [`parts`]), found once.
    pub fn parts(&self) -> &parts::Parts {
        self.parts.get_or_init(|| {
            let empty = toml::Table::new();
            parts::Parts::of(self.doc().unwrap_or(&empty))
        })
    }

    /// The span of each key of each top-level table, found once (see
    /// [`paths::key_span`]).
    pub fn key_spans(&self) -> &paths::KeySpans {
        self.key_spans.get_or_init(|| paths::key_spans(&self.text))
    }

    /// The 1-based line and column (in characters) of byte offset `pos` of
    /// the spec, as [`crate::error::line_col`] gives them, in O(log lines)
    /// (a line per table, number or figure would otherwise read the text
    /// from its start each time).
    pub fn line_col(&self, pos: usize) -> (usize, usize) {
        let starts = self.line_starts.get_or_init(|| {
            std::iter::once(0)
                .chain(memchr::memchr_iter(b'\n', self.text.as_bytes()).map(|i| i + 1))
                .collect()
        });
        let pos = pos.min(self.text.len());
        let line = starts.partition_point(|s| *s <= pos);
        let start = starts[line - 1];
        let col = self.text.get(start..pos).map_or(0, |t| t.chars().count()) + 1;
        (line, col)
    }

    /// The numbers' order, found once by `compute` (the first caller's;
    /// `plan::order::placed` is the one caller): `None` when it is an
    /// error. Every number's report reads it, so it is not found again
    /// for each.
    pub fn numbers_order(
        &self,
        compute: impl FnOnce() -> Option<Vec<String>>,
    ) -> Option<&NumbersOrder> {
        self.numbers_order
            .get_or_init(|| compute().map(NumbersOrder::new))
            .as_ref()
    }

    /// The number families (`[numbers.NAME]` with `each`), as places in
    /// `spec.numbers`, in spec order: what a quoted key that no number
    /// declares may be, looked up for each without reading every number.
    pub fn families(&self) -> &[usize] {
        self.families.get_or_init(|| {
            (self.spec.numbers.values().enumerate())
                .filter(|(_, n)| n.get_ref().each.is_some())
                .map(|(i, _)| i)
                .collect()
        })
    }

    /// An error pointing at `span` of the spec.
    pub fn error(&self, span: std::ops::Range<usize>, message: impl Into<String>) -> Error {
        Error::Spec {
            path: SPEC_FILE.to_string(),
            source_text: self.text.clone(),
            span,
            message: message.into(),
        }
    }
}

/// Finds `artifact.toml` in `start` or the nearest parent folder that has one.
pub fn locate(start: &Path) -> Result<PathBuf> {
    let start = start.canonicalize().map_err(|e| Error::io(start, e))?;
    for dir in start.ancestors() {
        let candidate = dir.join(SPEC_FILE);
        if candidate.is_file() {
            return Ok(candidate);
        }
    }
    Err(Error::msg(format!(
        "no {SPEC_FILE} in {} or any parent folder (use -C DIR to point at the paper's folder)",
        crate::error::shown(&start.display().to_string())
    )))
}

/// Reads and parses the spec at `path`.
pub fn load(path: &Path) -> Result<LoadedSpec> {
    let text = std::fs::read_to_string(path).map_err(|e| Error::io(path, e))?;
    parse(&text, path)
}

/// Parses spec `text` that lives at `path`.
pub fn parse(text: &str, path: &Path) -> Result<LoadedSpec> {
    // Every key first: serde would report an unknown one in its own words
    // and pass a key its variant never reads.
    keys::check(text).map_err(|p| Error::Spec {
        path: SPEC_FILE.to_string(),
        source_text: text.to_string(),
        span: p.span,
        message: p.message,
    })?;
    let spec: Spec = toml::from_str(text).map_err(|e| {
        let span = e.span().unwrap_or(0..0);
        Error::Spec {
            path: SPEC_FILE.to_string(),
            source_text: text.to_string(),
            span,
            message: keys::reword(e.message().trim_end()),
        }
    })?;
    let root = path
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_else(|| PathBuf::from("."));
    Ok(LoadedSpec {
        spec,
        text: text.to_string(),
        path: path.to_path_buf(),
        root,
        doc: Default::default(),
        parts: Default::default(),
        key_spans: Default::default(),
        line_starts: Default::default(),
        numbers_order: Default::default(),
        families: Default::default(),
    })
}

/// "no source or table named `X`", with the nearest name the spec has.
pub fn no_table(spec: &LoadedSpec, name: &str) -> String {
    let names = spec
        .spec
        .sources
        .keys()
        .chain(spec.spec.tables.keys())
        .map(String::as_str);
    let close = crate::error::did_you_mean(name, names)
        .map(|c| format!("; did you mean `{}`?", crate::error::shown(c)))
        .unwrap_or_default();
    format!(
        "no source or table named `{}`{close}",
        crate::error::shown(name)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_key_points_at_its_line_and_column() {
        let text = "[sources.a]\npath = \"a.jsonl\"\nformt = \"csv\"\n";
        let e = parse(text, Path::new("artifact.toml"))
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("artifact.toml:3:1: unknown key `formt` in a source with `path`; did you mean `format`?"),
            "{e}"
        );
        assert!(e.contains("3 | formt = \"csv\"\n  | ^^^^^"), "{e}");
    }

    #[test]
    fn line_col_agrees_with_scanning_the_text() {
        let text = "# é\n[sources.a]\n\nrows = [{ a = \"ü\" }]\n";
        let s = parse(text, Path::new("artifact.toml")).unwrap();
        for pos in (0..=text.len()).filter(|p| text.is_char_boundary(*p)) {
            let (line, col, _) = crate::error::line_col(text, pos);
            assert_eq!(s.line_col(pos), (line, col), "at byte {pos}");
        }
        assert_eq!(s.line_col(text.len() + 5), (5, 1));
    }

    #[test]
    fn tables_keep_declaration_order() {
        let text = "[tables.z]\nfrom = \"a\"\n[tables.a]\nfrom = \"b\"\n";
        let s = parse(text, Path::new("artifact.toml")).unwrap();
        assert_eq!(s.spec.tables.keys().collect::<Vec<_>>(), ["z", "a"]);
    }
}

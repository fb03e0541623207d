//! The results tables of the spec (`[results_tables.NAME]`), compiled:
//! each table's `where`, its columns (a field printed with a compiled
//! format, or a compiled template), where its best values are chosen,
//! its rows' order (`sort`, compiled as a `sort` step's keys) and whether
//! it breaks across pages (`long`).
//! Everything that needs no rows is checked here; what needs the rows (a
//! field the table lacks, a format on a column with no number) is checked
//! by the `results` stage as it prints them.

use std::ops::Range;

use indexmap::IndexMap;
use toml::Spanned;

use crate::error::Result;
use crate::expr::{Expr, Template};
use crate::format::{Format, has_format};
use crate::plan::steps::{SortKey, compile_sort};
use crate::spec::{LoadedSpec, ResultsColumnSpec, ResultsTableSpec, SpannedStr, no_table};

/// The most columns a results table has.
pub const MAX_COLUMNS: usize = 100;

/// Which value of a highlighted column is best (`highlight`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Best {
    /// The largest.
    Max,
    /// The smallest.
    Min,
}

/// Where the best is chosen (`highlight_per`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Per {
    /// Over each column's rows.
    Column,
    /// Over each column's rows within a group.
    Group,
    /// Over the highlighted columns of each row.
    Row,
}

/// A results table as the `results` stage prints it.
#[derive(Debug)]
pub struct ResultsPlan<'s> {
    /// The table or source its rows come from (`from`), with its span.
    pub from: &'s SpannedStr,
    /// The rows kept (`where`), compiled and named after `from`.
    pub where_: Option<Expr<'s>>,
    /// The field splitting the rows into groups (`group`).
    pub group: Option<&'s SpannedStr>,
    /// Its columns, left to right (1 to [`MAX_COLUMNS`]).
    pub columns: Vec<ResultsColumn<'s>>,
    /// Where `highlight` picks the best (`highlight_per`, by default
    /// [`Per::Group`] with a `group`, else [`Per::Column`]).
    pub per: Per,
    /// The rows' order (`sort`; empty: as the table has them).
    pub sort: Vec<SortKey<'s>>,
    /// The span of `sort`, for an error about one of its keys.
    pub sort_span: Option<Range<usize>>,
    /// Whether the table breaks across pages (`long`).
    pub long: bool,
    /// The span of the table's declaration (errors about the whole table
    /// point at its name, found through `spec::paths::key_span`).
    pub span: Range<usize>,
}

/// One column of a results table.
#[derive(Debug)]
pub struct ResultsColumn<'s> {
    /// Its header (`header`; by default a field column's field, a text
    /// column's none).
    pub header: String,
    /// What its cells print.
    pub kind: ColumnKind<'s>,
}

/// What a column's cells print.
#[derive(Debug)]
pub enum ColumnKind<'s> {
    /// A field printed with a format (and `value ± uncertainty`).
    Field {
        /// The field printed.
        field: &'s SpannedStr,
        /// Its number format (the default when none is written).
        format: Format,
        /// The span of `format` when it sets anything: an error on a
        /// column with no number (where it does nothing).
        format_set: Option<Range<usize>>,
        /// The field holding each value's uncertainty.
        uncertainty: Option<&'s SpannedStr>,
        /// Whether the column's best values are bold, and which is best.
        highlight: Option<Best>,
        /// Formats picked per row by a field's value (`format_by`).
        by: Option<FormatBy<'s>>,
    },
    /// A template over the row, named after the table it renders.
    Text(Template<'s>),
}

/// A column's formats picked per row (`format_by`, `formats`): a row
/// whose field's value is one of `formats`' keys prints with that format.
#[derive(Debug)]
pub struct FormatBy<'s> {
    /// The field whose value picks the format.
    pub field: &'s SpannedStr,
    /// (value as the CSV holds it, its format, the format's span), in
    /// the spec's order.
    pub formats: Vec<(String, Format, Range<usize>)>,
}

impl FormatBy<'_> {
    /// The format of a row whose `field` holds `key` (the value as the
    /// CSV holds it), if one is listed.
    pub fn get(&self, key: &str) -> Option<(usize, &Format)> {
        self.formats
            .iter()
            .position(|(k, _, _)| k == key)
            .map(|i| (i, &self.formats[i].1))
    }
}

impl ResultsPlan<'_> {
    /// The highlight rules of the highlighted columns, left to right.
    pub fn rules(&self) -> Vec<Best> {
        self.columns
            .iter()
            .filter_map(|c| match c.kind {
                ColumnKind::Field { highlight, .. } => highlight,
                ColumnKind::Text(_) => None,
            })
            .collect()
    }
}

/// Compiles every results table of the spec, in declaration order.
/// Errors: the first problem, at its line and column: a `from` naming no
/// table or source, a `where` or a column that does not compile, a count
/// of columns out of bounds, an unknown or pointless `highlight_per`.
pub fn compile(spec: &LoadedSpec) -> Result<IndexMap<String, ResultsPlan<'_>>> {
    let mut plans = IndexMap::with_capacity(spec.spec.results_tables.len());
    for (name, raw) in &spec.spec.results_tables {
        plans.insert(name.clone(), table(spec, name, raw)?);
    }
    Ok(plans)
}

/// Compiles results table `name`.
fn table<'s>(
    spec: &LoadedSpec,
    name: &str,
    raw: &'s Spanned<ResultsTableSpec>,
) -> Result<ResultsPlan<'s>> {
    let t = raw.get_ref();
    let from = t.from.get_ref();
    if !spec.spec.tables.contains_key(from) && !spec.spec.sources.contains_key(from) {
        return Err(spec.error(t.from.span(), no_table(spec, from)));
    }
    let where_ = match &t.where_ {
        Some(w) => Some(Expr::compile(spec, w)?.in_table(from)),
        None => None,
    };
    let cols = t.columns.get_ref();
    if cols.is_empty() || cols.len() > MAX_COLUMNS {
        return Err(spec.error(
            t.columns.span(),
            format!(
                "results table `{name}` has {} columns; a results table has 1 to {MAX_COLUMNS}",
                cols.len()
            ),
        ));
    }
    let columns = cols
        .iter()
        .map(|c| column(spec, c, from))
        .collect::<Result<Vec<_>>>()?;
    let mut sort = match &t.sort {
        Some(raw) => compile_sort(spec, raw)?,
        None => Vec::new(),
    };
    sort.iter_mut().for_each(|k| k.expr.set_table(from));
    let mut plan = ResultsPlan {
        from: &t.from,
        where_,
        group: t.group.as_ref(),
        columns,
        per: Per::Column,
        sort,
        sort_span: t.sort.as_ref().map(|s| s.span()),
        long: t.long.as_ref().is_some_and(|l| *l.get_ref()),
        span: raw.span(),
    };
    plan.per = highlight_per(spec, t, &plan.rules())?;
    Ok(plan)
}

/// `highlight_per` checked against the table's groups and the rules of
/// its highlighted columns `rules`.
fn highlight_per(spec: &LoadedSpec, t: &ResultsTableSpec, rules: &[Best]) -> Result<Per> {
    let Some(p) = t.highlight_per.as_ref() else {
        return Ok(if t.group.is_some() {
            Per::Group
        } else {
            Per::Column
        });
    };
    let err = |m: &str| Err(spec.error(p.span(), m.to_string()));
    if rules.is_empty() {
        return err("`highlight_per` does nothing: no column has `highlight`");
    }
    match p.get_ref().as_str() {
        "column" => Ok(Per::Column),
        "group" if t.group.is_none() => {
            err("`highlight_per = \"group\"` needs `group`: the table has no groups")
        }
        "group" => Ok(Per::Group),
        // Comparing a `max` column with a `min` one has no best.
        "row" if rules.iter().any(|r| *r != rules[0]) => err(
            "`highlight_per = \"row\"` compares the highlighted columns of each row, so they must all be `max` or all `min`",
        ),
        "row" => Ok(Per::Row),
        other => err(&format!(
            "unknown highlight_per `{other}` (column, group, row)"
        )),
    }
}

/// Compiles one column of a table reading `from`.
fn column<'s>(
    spec: &LoadedSpec,
    c: &'s Spanned<ResultsColumnSpec>,
    from: &str,
) -> Result<ResultsColumn<'s>> {
    let col = c.get_ref();
    let header = col.header.as_ref().map(|h| h.get_ref().clone());
    match (&col.field, &col.text) {
        (Some(field), None) => Ok(ResultsColumn {
            header: header.unwrap_or_else(|| field.get_ref().clone()),
            kind: field_column(spec, c, field)?,
        }),
        (None, Some(text)) => Ok(ResultsColumn {
            header: header.unwrap_or_default(),
            kind: ColumnKind::Text(Template::compile(spec, text)?.in_table(from)),
        }),
        _ => Err(spec.error(
            c.span(),
            "a column has `field` (a field of the rows) or `text` (a template)",
        )),
    }
}

/// A `field` column's format, uncertainty and highlight, checked.
fn field_column<'s>(
    spec: &LoadedSpec,
    c: &'s Spanned<ResultsColumnSpec>,
    field: &'s SpannedStr,
) -> Result<ColumnKind<'s>> {
    let col = c.get_ref();
    let fspec = col
        .format
        .as_ref()
        .map(|f| f.get_ref().clone())
        .unwrap_or_default();
    let span = col.format.as_ref().map_or(c.span(), |f| f.span());
    let format = Format::compile(spec, &fspec, span.clone())?;
    for (given, word) in [
        (fspec.separate_uncertainty.is_some(), "separate-uncertainty"),
        (fspec.interval.is_some(), "interval"),
    ] {
        if given && col.uncertainty.is_none() {
            return Err(spec.error(
                span,
                format!("`{word}` does nothing without an `uncertainty`"),
            ));
        }
    }
    let highlight = match col.highlight.as_ref() {
        None => None,
        Some(h) => Some(match h.get_ref().as_str() {
            "max" => Best::Max,
            "min" => Best::Min,
            other => {
                return Err(spec.error(h.span(), format!("unknown highlight `{other}` (max, min)")));
            }
        }),
    };
    let by = match (&col.format_by, &col.formats) {
        (Some(by), Some(formats)) => Some(FormatBy {
            field: by,
            formats: formats
                .get_ref()
                .iter()
                .map(|(k, f)| {
                    if f.get_ref().separate_uncertainty.is_some() && col.uncertainty.is_none() {
                        return Err(spec.error(
                            f.span(),
                            "`separate-uncertainty` does nothing without an `uncertainty`",
                        ));
                    }
                    Ok((
                        k.clone(),
                        Format::compile(spec, f.get_ref(), f.span())?,
                        f.span(),
                    ))
                })
                .collect::<Result<Vec<_>>>()?,
        }),
        // The schema's `needs` makes one without the other an error.
        _ => None,
    };
    Ok(ColumnKind::Field {
        field,
        format,
        by,
        format_set: col
            .format
            .as_ref()
            .filter(|f| has_format(f.get_ref()))
            .map(|f| f.span()),
        uncertainty: col.uncertainty.as_ref(),
        highlight,
    })
}

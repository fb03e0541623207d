//! The plan: what the spec asks for, compiled from the spec alone before
//! any data is read. Each table's steps as typed steps holding compiled
//! expressions (`steps`, with `aggregate`, `window`, `bin`, `reshape`);
//! each number's value, `where`, format and uncertainty (`numbers`); each
//! figure's panels and layers with their compiled channels, expressions,
//! templates and tick formats (`figures`, with `layers`, `channels`,
//! `text`, `axes`, `facet`; its size by `sizing`, the output formats by
//! `formats`); each results table's columns (`results`); which part reads
//! which (`deps`, `demand`), the order the numbers are computed in
//! (`order`), and the names a number key may take in LaTeX and typst
//! (`keys`). [`validate::validate`] is the compile step `gen` and `check`
//! run first. The stages run what is compiled here; they compile nothing.

pub mod aggregate;
pub mod axes;
pub mod bin;
pub mod channels;
pub mod demand;
pub mod deps;
pub mod facet;
pub mod figures;
pub mod fold;
pub mod formats;
pub mod keys;
mod later;
pub mod layers;
pub mod numbers;
pub mod order;
pub mod palette;
pub mod reshape;
pub mod results;
pub mod sizing;
pub mod steps;
pub mod tables;
pub mod text;
pub mod validate;
pub mod window;

use indexmap::IndexMap;

use crate::error::{Error, Result};
use crate::spec::LoadedSpec;
pub use figures::FigurePlan;
pub use later::Later;
pub use numbers::NumberPlan;
pub use results::ResultsPlan;
pub use tables::TablePlan;

/// The spec compiled: built once per run by [`Plan::compile`] (through
/// [`validate::validate`]), then read by every stage.
#[derive(Debug)]
pub struct Plan<'s> {
    /// The spec it was compiled from (spans for errors, paths, sources).
    pub spec: &'s LoadedSpec,
    /// Every `[tables.NAME]`, compiled, in declaration order.
    pub tables: IndexMap<String, TablePlan<'s>>,
    /// Every `[numbers.KEY]`, compiled, in declaration order (empty in a
    /// plan of the tables alone).
    pub numbers: IndexMap<String, NumberPlan<'s>>,
    /// The number declarations in the order they are computed (each after
    /// what it reads; `order`).
    pub order: Vec<String>,
    /// The folds of several numbers each (`fold::merge`).
    pub merged: Vec<fold::Fold<'s>>,
    /// The merged fold, in `merged`, of each number in one.
    pub merged_of: IndexMap<String, usize>,
    /// Every `[figures.NAME]`, compiled, in declaration order (empty in a
    /// plan of the tables and numbers alone).
    pub figures: IndexMap<String, FigurePlan<'s>>,
    /// Every `[results_tables.NAME]`, compiled, in declaration order
    /// (empty in a plan of the tables and numbers alone).
    pub results: IndexMap<String, ResultsPlan<'s>>,
}

impl<'s> Plan<'s> {
    /// Compiles `spec`: its tables, numbers, figures and results tables.
    /// Errors: every spec error found, each part's first, with its line
    /// and column ([`Error::Many`] when there are several).
    pub fn compile(spec: &'s LoadedSpec) -> Result<Plan<'s>> {
        let mut errors = Vec::new();
        let mut plan = Self::parts(spec, &mut errors, true);
        plan.figures = figures::compile(spec).unwrap_or_else(|e| {
            errors.push(e);
            IndexMap::new()
        });
        plan.results = results::compile(spec).unwrap_or_else(|e| {
            errors.push(e);
            IndexMap::new()
        });
        settle(plan, errors)
    }

    /// Compiles `spec`'s tables and numbers: for the commands that compute
    /// a number (`explain`, `show` of a table whose steps read numbers),
    /// which a broken figure or results table does not stop.
    pub fn tables_and_numbers(spec: &'s LoadedSpec) -> Result<Plan<'s>> {
        let mut errors = Vec::new();
        let plan = Self::parts(spec, &mut errors, true);
        settle(plan, errors)
    }

    /// Compiles `spec`'s tables alone: for the commands that build a table
    /// and never draw (`show`, `init`'s survey), which a broken number,
    /// figure or results table does not stop.
    pub fn tables_only(spec: &'s LoadedSpec) -> Result<Plan<'s>> {
        let mut errors = Vec::new();
        let plan = Self::parts(spec, &mut errors, false);
        settle(plan, errors)
    }

    /// The tables and, with `numbers`, the numbers of `spec`, their errors
    /// pushed to `errors`.
    fn parts(spec: &'s LoadedSpec, errors: &mut Vec<Error>, with_numbers: bool) -> Plan<'s> {
        let tables = tables::compile(spec, errors);
        let (numbers, order) = match with_numbers {
            true => numbers::compile(spec, errors),
            false => (IndexMap::new(), Vec::new()),
        };
        let (merged, merged_of) = fold::merge(spec, &numbers);
        Plan {
            spec,
            tables,
            numbers,
            order,
            merged,
            merged_of,
            figures: IndexMap::new(),
            results: IndexMap::new(),
        }
    }

    /// Figure `name`'s plan, if the spec declares such a figure.
    pub fn figure(&self, name: &str) -> Option<&FigurePlan<'s>> {
        self.figures.get(name)
    }

    /// Table `name`'s plan, if the spec declares such a table.
    pub fn table(&self, name: &str) -> Option<&TablePlan<'s>> {
        self.tables.get(name)
    }
}

/// The most spec errors one compile reports: past a screenful, the rest
/// are usually the same mistake again.
pub const MAX_ERRORS: usize = 20;

/// `plan`, or the errors found compiling it: one as itself, several as
/// [`Error::Many`] (at most [`MAX_ERRORS`], then how many more).
fn settle(plan: Plan<'_>, mut errors: Vec<Error>) -> Result<Plan<'_>> {
    match errors.len() {
        0 => Ok(plan),
        1 => Err(errors.remove(0)),
        n => {
            if n > MAX_ERRORS {
                errors.truncate(MAX_ERRORS);
                errors.push(Error::msg(format!(
                    "and {} more spec error(s)",
                    n - MAX_ERRORS
                )));
            }
            Err(Error::Many(errors))
        }
    }
}

//! The plan: what the spec asks for, compiled from the spec alone before
//! any data is read. Each table's steps as typed steps holding compiled
//! expressions (`steps`, with `aggregate`, `window`, `bin`, `reshape`),
//! each results table's columns (`results`), which part reads which
//! (`deps`), the order the numbers are computed in (`order`), and the
//! names a number key may take in LaTeX and typst (`keys`). The stages run
//! what is compiled here; they compile nothing.

pub mod aggregate;
pub mod bin;
pub mod deps;
pub mod keys;
pub mod order;
pub mod reshape;
pub mod steps;
pub mod window;

pub mod results;
pub mod tables;

use indexmap::IndexMap;

use crate::error::Result;
use crate::spec::LoadedSpec;
pub use results::ResultsPlan;
pub use tables::TablePlan;

/// The spec compiled: built once per run (`validate` builds it through
/// [`Plan::compile_checking`]), then read by every stage.
#[derive(Debug)]
pub struct Plan<'s> {
    /// The spec it was compiled from (spans for errors, paths, sources).
    pub spec: &'s LoadedSpec,
    /// Every `[tables.NAME]`, compiled, in declaration order.
    pub tables: IndexMap<String, TablePlan<'s>>,
    /// Every `[results_tables.NAME]`, compiled, in declaration order
    /// (empty in a plan of [`Plan::tables_only`]).
    pub results: IndexMap<String, ResultsPlan<'s>>,
}

impl<'s> Plan<'s> {
    /// Compiles `spec`'s tables, then its results tables. Errors: the
    /// first spec error found, with its line and column.
    pub fn compile(spec: &'s LoadedSpec) -> Result<Plan<'s>> {
        Plan::compile_checking(spec, || Ok(()))
    }

    /// As [`Plan::compile`], running `between` after the tables and before
    /// the results tables: `validate` checks the numbers and figures there
    /// (not yet part of the plan), so a spec with several errors reports
    /// the same first one as before the results tables moved here.
    pub fn compile_checking(
        spec: &'s LoadedSpec,
        between: impl FnOnce() -> Result<()>,
    ) -> Result<Plan<'s>> {
        let mut plan = Plan::tables_only(spec)?;
        between()?;
        plan.results = results::compile(spec)?;
        Ok(plan)
    }

    /// The plan of `spec`'s tables alone, no results tables: for the
    /// commands that build a table or a number (`show`, `explain`, `init`),
    /// which a broken results table does not stop.
    pub fn tables_only(spec: &'s LoadedSpec) -> Result<Plan<'s>> {
        Ok(Plan {
            spec,
            tables: tables::compile(spec)?,
            results: IndexMap::new(),
        })
    }

    /// Table `name`'s plan, if the spec declares such a table.
    pub fn table(&self, name: &str) -> Option<&TablePlan<'s>> {
        self.tables.get(name)
    }
}

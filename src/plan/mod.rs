//! The plan: what the spec asks for, compiled from the spec alone before
//! any data is read. Each table's steps as typed steps holding compiled
//! expressions (`steps`, with `aggregate`, `window`, `bin`, `reshape`);
//! each figure's panels and layers with their compiled channels,
//! expressions, templates and tick formats (`figures`, with `layers`,
//! `channels`, `text`, `axes`, `facet`; its size by `sizing`, the output
//! formats by `formats`); which part reads which (`deps`), the order the numbers are computed in
//! (`order`), and the names a number key may take in LaTeX and typst
//! (`keys`). The stages run what is compiled here; they compile nothing.

pub mod aggregate;
pub mod axes;
pub mod bin;
pub mod channels;
pub mod deps;
pub mod facet;
pub mod figures;
pub mod formats;
pub mod keys;
mod later;
pub mod layers;
pub mod order;
pub mod reshape;
pub mod sizing;
pub mod steps;
pub mod text;
pub mod window;

pub mod tables;

use indexmap::IndexMap;

use crate::error::Result;
use crate::spec::LoadedSpec;
pub use figures::FigurePlan;
pub use later::Later;
pub use tables::TablePlan;

/// The spec compiled: built once per run by [`Plan::compile`] (which
/// `validate` calls first), then read by every stage.
#[derive(Debug)]
pub struct Plan<'s> {
    /// The spec it was compiled from (spans for errors, paths, sources).
    pub spec: &'s LoadedSpec,
    /// Every `[tables.NAME]`, compiled, in declaration order.
    pub tables: IndexMap<String, TablePlan<'s>>,
    /// Every `[figures.NAME]`, compiled, in declaration order (empty in a
    /// plan of [`Plan::compile_tables`]).
    pub figures: IndexMap<String, FigurePlan<'s>>,
}

impl<'s> Plan<'s> {
    /// Compiles `spec`'s tables, then its figures. Errors: the first spec
    /// error found, with its line and column.
    pub fn compile(spec: &'s LoadedSpec) -> Result<Plan<'s>> {
        let mut plan = Self::compile_tables(spec)?;
        plan.compile_figures()?;
        Ok(plan)
    }

    /// Compiles `spec`'s tables alone, for what reads tables and never
    /// draws (`show`, `explain`, `init`'s survey): a mistake in a figure
    /// does not stop them.
    pub fn compile_tables(spec: &'s LoadedSpec) -> Result<Plan<'s>> {
        Ok(Plan {
            spec,
            tables: tables::compile(spec)?,
            figures: IndexMap::new(),
        })
    }

    /// Compiles the figures into a plan of [`Plan::compile_tables`].
    pub fn compile_figures(&mut self) -> Result<()> {
        self.figures = figures::compile(self.spec)?;
        Ok(())
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

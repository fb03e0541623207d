//! Tables: sources transformed by the spec's steps.
//!
//! A table is built from its `from` (a source or another table) by applying
//! its steps in order. Tables are built on demand in dependency order; a
//! cycle is a spec error. A table whose source is an optional, missing file
//! is *unavailable*: it has no rows and carries the reason, so the figures
//! and numbers that need it are skipped with that reason, never silently.

pub mod aggregate;
pub mod steps;

use std::cell::RefCell;
use std::collections::BTreeSet;
use std::sync::Arc;

use indexmap::IndexMap;

use crate::error::{Error, Result};
use crate::expr::Globals;
use crate::sources::{self, SourceFile};
use crate::spec::LoadedSpec;
use crate::value::Row;

/// A built table.
#[derive(Debug, Default)]
pub struct Table {
    /// The rows, in order.
    pub rows: Vec<Row>,
    /// Why the table has no data (an optional source is missing).
    pub unavailable: Option<String>,
    /// The names of the sources the table's rows depend on.
    pub sources: BTreeSet<String>,
}

/// All sources and tables of a spec, built.
#[derive(Debug, Default)]
pub struct Catalog {
    /// Tables and sources (a source is a table without steps), by name.
    pub tables: IndexMap<String, Arc<Table>>,
    /// Globals: the `meta` of JSON-document sources.
    pub globals: Arc<Globals>,
    /// Every input file read, by source.
    pub files: IndexMap<String, Vec<SourceFile>>,
    /// Reports for the user (skips, dropped rows, empty files).
    pub notes: Vec<String>,
}

impl Catalog {
    /// The table or source `name`.
    pub fn get(&self, name: &str) -> Option<Arc<Table>> {
        self.tables.get(name).cloned()
    }
}

/// Loads every source and builds every table of the spec.
pub fn build(spec: &LoadedSpec) -> Result<Catalog> {
    let mut cat = Catalog::default();
    let mut globals = Globals::default();
    for (name, src) in &spec.spec.sources {
        if spec.spec.tables.contains_key(name) {
            return Err(spec.error(src.span(), format!("`{name}` is both a source and a table")));
        }
        let loaded =
            sources::load(spec, name, src).map_err(|e| e.context(format!("source `{name}`")))?;
        if let Some(reason) = &loaded.missing {
            cat.notes.push(format!("skip: {reason}"));
        }
        for note in &loaded.notes {
            cat.notes.push(format!("source `{name}`: {note}"));
        }
        if let Some(meta) = loaded.meta {
            globals.meta.insert(name.as_str(), meta);
        }
        cat.files.insert(name.clone(), loaded.files);
        let unavailable = if loaded.rows.is_empty() {
            loaded.missing
        } else {
            None
        };
        cat.tables.insert(
            name.clone(),
            Arc::new(Table {
                rows: loaded.rows,
                unavailable,
                sources: BTreeSet::from([name.clone()]),
            }),
        );
    }
    cat.globals = Arc::new(globals);
    let built = RefCell::new(cat);
    let mut visiting = Vec::new();
    for name in spec.spec.tables.keys() {
        build_table(spec, name, &built, &mut visiting)?;
    }
    Ok(built.into_inner())
}

fn build_table(
    spec: &LoadedSpec,
    name: &str,
    cat: &RefCell<Catalog>,
    visiting: &mut Vec<String>,
) -> Result<Arc<Table>> {
    if let Some(t) = cat.borrow().get(name) {
        return Ok(t);
    }
    let Some(tspec) = spec.spec.tables.get(name) else {
        return Err(Error::msg(format!("no source or table `{name}`")));
    };
    if visiting.iter().any(|v| v == name) {
        return Err(spec.error(
            tspec.span(),
            format!(
                "tables depend on each other in a cycle: {} -> {name}",
                visiting.join(" -> ")
            ),
        ));
    }
    visiting.push(name.to_string());
    let t = tspec.get_ref();
    let from = t.from.get_ref();
    if !spec.spec.tables.contains_key(from) && !spec.spec.sources.contains_key(from) {
        return Err(spec.error(t.from.span(), format!("no source or table named `{from}`")));
    }
    let steps = t
        .steps
        .iter()
        .map(|s| steps::compile(spec, s))
        .collect::<Result<Vec<_>>>()?;
    // Build what the steps read first (checking names against the spec).
    for (step, raw) in steps.iter().zip(&t.steps) {
        for dep in step.dependencies() {
            if !spec.spec.tables.contains_key(dep) && !spec.spec.sources.contains_key(dep) {
                return Err(spec.error(raw.span(), format!("no source or table named `{dep}`")));
            }
            build_table(spec, dep, cat, visiting)?;
        }
    }
    let input = build_table(spec, from, cat, visiting)?;
    visiting.pop();

    let globals = cat.borrow().globals.clone();
    let mut sources = input.sources.clone();
    let mut unavailable = input.unavailable.clone();
    let mut notes = Vec::new();
    let mut rows = input.rows.clone();
    for (i, (step, raw)) in steps.iter().zip(&t.steps).enumerate() {
        for dep in step.dependencies() {
            let dep_t = cat.borrow().get(dep).expect("built above");
            sources.extend(dep_t.sources.iter().cloned());
            if let (steps::Step::Lookup { .. }, Some(reason)) = (step, &dep_t.unavailable) {
                unavailable.get_or_insert_with(|| reason.clone());
            }
        }
        let lookup = |n: &str| cat.borrow().get(n);
        let mut env = steps::StepEnv {
            globals: &globals,
            tables: &lookup,
            notes: &mut notes,
        };
        rows = steps::apply(step, rows, &mut env).map_err(|e| {
            let (line, _, _) = crate::error::line_col(&spec.text, raw.span().start);
            e.context(format!(
                "table `{name}`, step {} ({}, artifact.toml line {line})",
                i + 1,
                step.verb()
            ))
        })?;
    }
    let table = Arc::new(Table {
        rows,
        unavailable,
        sources,
    });
    let mut c = cat.borrow_mut();
    for n in notes {
        c.notes.push(format!("table `{name}`: {n}"));
    }
    c.tables.insert(name.to_string(), table.clone());
    Ok(table)
}

//! Numbers folded on a stream ([`crate::plan::fold`]): a number reading a
//! source, or a table of row-wise steps over one, is computed as a group
//! step without keys on the source's stream, so its table is never held.
//! Every number folding on one source is computed in the same pass (with
//! the tables streaming it), unless it reads other numbers, which it must
//! wait for.

use std::collections::BTreeSet;

use super::{Catalog, stream};
use crate::error::{Error, Result, shown};
use crate::plan::fold::Fold;
use crate::spec::LoadedSpec;
use crate::value::Row;

/// What a fold gave one number.
#[derive(Debug)]
pub struct Folded {
    /// The group step's one row: [`crate::plan::fold::VALUE`],
    /// [`crate::plan::fold::ROWS`] and the uncertainty's aggregates.
    pub row: Row,
    /// The sources the table's rows depend on.
    pub sources: BTreeSet<String>,
    /// Why the table has no data (an optional source is missing), if so.
    pub unavailable: Option<String>,
}

/// Whether number `key`'s part of the spec, or the steps of its table
/// `table` (and the tables those read), quote a number (`v['k']`, `n.k`).
fn quotes_numbers(spec: &LoadedSpec, key: &str, table: &str) -> bool {
    let parts = spec.parts();
    let quotes = |p: Option<&crate::spec::parts::Part>| {
        p.is_some_and(|p| p.quoted.all || !p.quoted.keys.is_empty())
    };
    quotes(parts.get("number", key))
        || crate::plan::deps::closure(spec, [table.to_string()])
            .iter()
            .any(|t| quotes(parts.get("table", t)))
}

impl Catalog<'_> {
    /// Number `key` computed on its table's stream, or `None` when it is
    /// not computed so: it is no fold, or its table is held anyway (built
    /// already, or read by a figure, a results table or another table; its
    /// source loaded whole). A fold's error is the number's.
    pub fn fold(&self, key: &str) -> Option<Result<Folded>> {
        if let Some(done) = self.folds.borrow_mut().get_mut(key) {
            return done.take();
        }
        let fold = self.plan.numbers.get(key)?.fold.as_ref()?;
        if !self.folds_now(fold) {
            return None;
        }
        let spec = self.spec;
        // The other numbers folding on the same source and reading no
        // number, in the same pass.
        let mut batch: Vec<(&str, &Fold)> = vec![(key, fold)];
        for (k, n) in &self.plan.numbers {
            let Some(f) = &n.fold else { continue };
            if k != key
                && f.from == fold.from
                && !self.folds.borrow().contains_key(k)
                && self.folds_now(f)
                && !quotes_numbers(spec, k, f.table)
                && self.dependencies_built(f)
            {
                batch.push((k, f));
            }
        }
        if let Err(e) = self.dependencies(fold) {
            return Some(Err(e));
        }
        let contexts: Vec<_> = batch.iter().map(|(_, f)| self.fold_context(f)).collect();
        let consumers: Vec<stream::Consumer> = batch
            .iter()
            .zip(&contexts)
            .map(|((k, f), context)| {
                let st = stream::stages(&f.steps);
                stream::Consumer {
                    name: format!("number `{k}`"),
                    steps: &f.steps,
                    par: st.par,
                    ser: st.ser,
                    sink: st.sink,
                    top: st.top,
                    keep: None,
                    context: Box::new(context),
                }
            })
            .collect();
        let fed = self.stream_all(fold.from, consumers);
        let mut folds = self.folds.borrow_mut();
        match fed {
            Err(e) => {
                // The source's own error: every number of the batch fails
                // with it, as each would reading it alone.
                let msg = e.to_string();
                for (k, _) in &batch[1..] {
                    folds.insert(k.to_string(), Some(Err(Error::msg(msg.clone()))));
                }
                folds.insert(key.to_string(), None);
                Some(Err(e))
            }
            Ok((fed, unavailable)) => {
                for ((k, f), result) in batch.iter().zip(fed) {
                    let done = result.and_then(|(rows, notes)| {
                        self.fold_notes(f, notes);
                        self.folded(f, rows, unavailable.clone())
                    });
                    folds.insert(k.to_string(), Some(done));
                }
                folds.get_mut(key).and_then(Option::take)
            }
        }
    }

    /// Tells the notes of fold `f`'s table steps as the table's, once
    /// however many numbers fold on it. A number's `where` is silent, as
    /// on held rows: its filter's notes are left out.
    fn fold_notes(&self, f: &Fold, notes: Vec<String>) {
        use crate::plan::steps::Step;
        fn filter_text<'x>(s: &Step<'x>) -> Option<&'x str> {
            match s {
                Step::Filter(e, _) => Some(e.text),
                _ => None,
            }
        }
        let own = f.steps[f.table_steps..].iter().find_map(|s| filter_text(s));
        // (A table filter of the same text keeps its notes.)
        let own = own.filter(|w| {
            !f.steps[..f.table_steps]
                .iter()
                .any(|s| filter_text(s) == Some(w))
        });
        let mut told = self.notes.borrow_mut();
        for n in notes {
            if own.is_some_and(|w| n.starts_with(&format!("filter `{w}` dropped"))) {
                continue;
            }
            let n = format!("table `{}`: {n}", shown(f.table));
            if !told.contains(&n) {
                told.push(n);
            }
        }
    }

    /// The fold's result from the rows its group step gave (one).
    fn folded(&self, f: &Fold, rows: Vec<Row>, mut unavailable: Option<String>) -> Result<Folded> {
        let mut sources = BTreeSet::from([f.from.to_string()]);
        for step in &f.steps {
            for dep in step.dependencies() {
                let t = self.table(dep)?;
                sources.extend(t.sources.iter().cloned());
                if let (crate::plan::steps::Step::Lookup { .. }, Some(reason)) =
                    (step, &t.unavailable)
                {
                    unavailable.get_or_insert_with(|| reason.clone());
                }
            }
        }
        let row = rows
            .into_iter()
            .next()
            .ok_or_else(|| Error::msg("a group step without keys gave no row"))?;
        Ok(Folded {
            row,
            sources,
            unavailable,
        })
    }

    /// Builds the tables the fold's steps read (its lookups' tables).
    fn dependencies(&self, f: &Fold) -> Result<()> {
        for step in &f.steps {
            for dep in step.dependencies() {
                self.table(dep)?;
            }
        }
        Ok(())
    }

    /// Whether the tables the fold's steps read build without error (a
    /// number whose lookup fails is not folded along with others).
    fn dependencies_built(&self, f: &Fold) -> bool {
        self.dependencies(f).is_ok()
    }

    /// Names a fold's error: a step of its table as the table's step,
    /// the number's own `where` and aggregates as they are.
    fn fold_context(&self, f: &Fold) -> impl Fn(usize, Error) -> Error + Sync + use<> {
        let table_steps = f.table_steps;
        let own = self
            .plan
            .table(f.table)
            .map(|t| super::step_context(self.spec, f.table, &t.steps));
        move |i: usize, e: Error| match &own {
            Some(context) if i < table_steps => context(i, e),
            _ => e,
        }
    }

    /// Whether fold `f` is computed on a stream now: its source streams (not
    /// loaded whole yet), its table is not built and only numbers read it
    /// (a source: no figure or results table reads it directly), and every
    /// step before the group runs on the stream.
    pub(super) fn folds_now(&self, f: &Fold) -> bool {
        let readers = self.readers();
        let held_anyway = if f.table == f.from {
            !readers.read_only_by(f.table, &["numbers", "tables"])
        } else {
            self.built.borrow().contains_key(f.table)
                || !readers.read_only_by(f.table, &["numbers"])
        };
        let st = stream::stages(&f.steps);
        self.streams(f.from) && !held_anyway && st.sink && st.ser + 1 == f.steps.len()
    }

    /// Whether table `name` is read only by numbers that fold on its
    /// stream: a pass over its source does not build it.
    pub(super) fn folded_away(&self, name: &str) -> bool {
        self.readers().read_only_by(name, &["numbers"])
            && self
                .plan
                .numbers
                .values()
                .any(|n| n.fold.as_ref().is_some_and(|f| f.table == name))
    }
}

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
use crate::value::Row;

/// What a fold gave one number.
#[derive(Debug, Clone)]
pub struct Folded {
    /// The group step's rows: one for a number (a group step without
    /// keys), one per group for a family, in the order of the groups'
    /// first rows; each with [`crate::plan::fold::VALUE`],
    /// [`crate::plan::fold::ROWS`] and the uncertainty's aggregates, each
    /// after `prefix` (and a family's key fields).
    pub rows: Vec<Row>,
    /// What the number's aggregates are named after in `row` (a merged
    /// fold's: [`crate::plan::fold::prefix`]; else empty).
    pub prefix: String,
    /// The sources the table's rows depend on.
    pub sources: BTreeSet<String>,
    /// Why the table has no data (an optional source is missing), if so.
    pub unavailable: Option<String>,
}

/// One consumer of a pass: a number's own fold, or a merged fold of
/// several ([`crate::plan::fold::merge`]).
#[derive(Clone, Copy, PartialEq)]
enum Unit<'k> {
    Single(&'k str),
    Merged(usize),
}

impl Catalog<'_> {
    /// Number `key` computed on its table's stream, or `None` when it is
    /// not computed so: it is no fold, or its table is held anyway (built
    /// already, or read by a figure, a results table or another table; its
    /// source loaded whole). A fold's error is the number's.
    pub fn fold(&self, key: &str) -> Option<Result<Folded>> {
        // In a merged fold: its row, once it has run, unless it failed (then
        // the number is folded alone, and fails or not on its own).
        if let Some(&m) = self.plan.merged_of.get(key) {
            let done = self.merged_done.borrow().get(&m).cloned();
            match done {
                Some(Ok(f)) => {
                    return Some(Ok(Folded {
                        prefix: crate::plan::fold::prefix(key),
                        ..(*f).clone()
                    }));
                }
                Some(Err(_)) => {}
                None if self.folds_now(&self.plan.merged[m]) => {
                    self.run_folds(Unit::Merged(m));
                    return self.fold(key);
                }
                None => return None,
            }
        }
        if let Some(done) = self.folds.borrow_mut().get_mut(key) {
            return done.take();
        }
        let fold = self.plan.numbers.get(key)?.fold.as_ref()?;
        if !self.folds_now(fold) {
            return None;
        }
        self.run_folds(Unit::Single(key));
        self.folds.borrow_mut().get_mut(key).and_then(Option::take)
    }

    /// The fold of `unit`.
    fn unit_fold<'a>(&'a self, unit: Unit<'_>) -> Option<&'a Fold<'a>> {
        match unit {
            Unit::Single(k) => self.plan.numbers.get(k)?.fold.as_ref(),
            Unit::Merged(m) => self.plan.merged.get(m),
        }
    }

    /// Runs `first`, and every other fold on its source that can run now
    /// and reads no number (merged folds, and the numbers in none), in one
    /// pass; keeps what each gave.
    fn run_folds(&self, first: Unit<'_>) {
        let spec = self.spec;
        let Some(fold) = self.unit_fold(first) else {
            return;
        };
        let mut batch: Vec<(Unit, &Fold)> = vec![(first, fold)];
        for (m, f) in self.plan.merged.iter().enumerate() {
            if first != Unit::Merged(m)
                && f.from == fold.from
                && !self.merged_done.borrow().contains_key(&m)
                && self.folds_now(f)
                && self.dependencies(f).is_ok()
            {
                batch.push((Unit::Merged(m), f));
            }
        }
        for (k, n) in &self.plan.numbers {
            let Some(f) = &n.fold else { continue };
            let in_merged = self
                .plan
                .merged_of
                .get(k)
                .is_some_and(|m| !matches!(self.merged_done.borrow().get(m), Some(Err(_))));
            if first != Unit::Single(k)
                && !in_merged
                && f.from == fold.from
                && !self.folds.borrow().contains_key(k)
                && self.folds_now(f)
                && !crate::plan::fold::quotes_numbers(spec, k, f.table)
                && self.dependencies(f).is_ok()
            {
                batch.push((Unit::Single(k), f));
            }
        }
        if let Err(e) = self.dependencies(fold) {
            self.keep(first, Err(e));
            return;
        }
        let contexts: Vec<_> = batch.iter().map(|(_, f)| self.fold_context(f)).collect();
        let consumers: Vec<stream::Consumer> = batch
            .iter()
            .zip(&contexts)
            .map(|((unit, f), context)| {
                let st = stream::stages(&f.steps);
                stream::Consumer {
                    name: match unit {
                        Unit::Single(k) => format!("number `{k}`"),
                        Unit::Merged(m) => format!("numbers of fold {m}"),
                    },
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
        match self.stream_all(fold.from, consumers) {
            // The source's own error: every fold of the pass fails with it,
            // as each would reading it alone.
            Err(e) => {
                let msg = e.to_string();
                for (unit, _) in &batch[1..] {
                    self.keep(*unit, Err(Error::msg(msg.clone())));
                }
                self.keep(first, Err(e));
            }
            Ok((fed, unavailable)) => {
                for ((unit, f), result) in batch.iter().zip(fed) {
                    let done = result.and_then(|(rows, notes)| {
                        self.fold_notes(f, notes);
                        self.folded(f, rows, unavailable.clone())
                    });
                    self.keep(*unit, done);
                }
            }
        }
    }

    /// Tells a table's `notes`, each once: a table whose fold's pass told
    /// its steps' notes ([`Catalog::fold_notes`]) may be built after all
    /// (a number or family whose fold is left to the held rows).
    pub(super) fn tell(&self, notes: impl IntoIterator<Item = String>) {
        let mut told = self.notes.borrow_mut();
        for n in notes {
            if !told.contains(&n) {
                told.push(n);
            }
        }
    }

    /// Keeps what a pass gave `unit`.
    fn keep(&self, unit: Unit<'_>, done: Result<Folded>) {
        match unit {
            Unit::Single(k) => {
                self.folds.borrow_mut().insert(k.to_string(), Some(done));
            }
            Unit::Merged(m) => {
                let done = done.map(std::sync::Arc::new).map_err(|e| e.to_string());
                self.merged_done.borrow_mut().insert(m, done);
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

    /// The fold's result from the rows its group step gave (one without
    /// keys).
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
        let keyed = matches!(f.steps.last(), Some(crate::plan::steps::Step::Group { keys, .. }) if !keys.is_empty());
        if !keyed && rows.len() != 1 {
            return Err(Error::msg("a group step without keys gave no row"));
        }
        Ok(Folded {
            rows,
            prefix: String::new(),
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

    /// Names a fold's error: a step of its table as the table's step,
    /// the number's own `where` and aggregates as they are.
    fn fold_context(&self, f: &Fold) -> impl Fn(usize, Error) -> Error + Sync + use<> {
        let table_steps = f.table_steps;
        let own = self
            .plan
            .table(f.table)
            .map(|t| super::step_context(self.spec, f.table, &t.steps));
        move |i: usize, e: Error| match (&own, e) {
            (Some(context), e) if i < table_steps => context(i, e),
            // The group step's naming of its aggregate (`aggregate
            // `value` of group ()`) is no name of the user's: the error
            // is the number's.
            (_, Error::Context { what, inner }) if what.starts_with("aggregate `") => *inner,
            (_, e) => e,
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

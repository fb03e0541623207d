//! Tables: sources transformed by the spec's steps.
//!
//! The [`Catalog`] builds a table the first time something asks for it
//! (a number, a figure, another table), in dependency order; a cycle is a
//! spec error. So a run reads only the sources that the outputs it builds
//! need, and a broken source fails only what depends on it.
//!
//! A table whose source is an optional, missing file is *unavailable*: it
//! has no rows and carries the reason, so the figures and numbers that need
//! it are skipped with that reason, never silently.

pub mod aggregate;
pub mod apply;
pub mod bin;

pub mod differential;
pub mod fast;
pub mod fold;
pub mod pareto;
pub mod projection;
pub mod prune;
pub mod reshape;
pub mod seen;
pub mod serial;

pub mod stream;
mod trimmed;
pub mod values;
pub mod window;

use std::cell::RefCell;
use std::collections::BTreeSet;
use std::sync::Arc;

use indexmap::IndexMap;

use crate::error::{Error, Result, shown};
use crate::expr::Globals;
use crate::plan::deps::is_document;
use crate::plan::{Plan, demand, steps};
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

/// Sources and tables of a spec, built on demand and kept.
pub struct Catalog<'s> {
    spec: &'s LoadedSpec,
    /// The compiled tables.
    plan: &'s Plan<'s>,
    built: RefCell<IndexMap<String, std::result::Result<Arc<Table>, String>>>,
    visiting: RefCell<Vec<String>>,
    files: RefCell<IndexMap<String, Vec<SourceFile>>>,
    notes: RefCell<Vec<String>>,
    /// The notes of tables built in a pass over their source before
    /// anything asked for them: told when something does.
    pending: RefCell<IndexMap<String, Vec<String>>>,
    /// Whether streamed rows keep only the fields read after them (for a
    /// run and `explain`; `show` prints whole rows).
    trim: bool,
    /// Globals: the `meta` of every JSON-document source.
    pub globals: Arc<Globals>,
    /// What a table's steps see: the `meta` above plus the numbers computed
    /// so far (`v['total']` in a derive), set by [`Catalog::set_globals`].
    step_globals: RefCell<Option<Arc<Globals>>>,
    /// Which parts of the spec read which table, found on first use.
    readers: std::cell::OnceCell<demand::Readers>,
    /// Numbers folded on a stream ([`Catalog::fold`]) before they were
    /// asked for, by key.
    folds: RefCell<IndexMap<String, Option<Result<fold::Folded>>>>,
    /// What each merged fold (`Plan::merged`) gave, by its index.
    merged_done: RefCell<IndexMap<usize, std::result::Result<Arc<fold::Folded>, String>>>,
}

impl std::fmt::Debug for Catalog<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Catalog({} built)", self.built.borrow().len())
    }
}

/// Names a step's error: its table, number, verb and line in the spec.
fn step_context(
    spec: &LoadedSpec,
    name: &str,
    steps: &[steps::Step<'_>],
) -> impl Fn(usize, Error) -> Error + Sync + use<> {
    let t = spec.spec.tables[name].get_ref();
    let at: Vec<(usize, &'static str)> = t
        .steps
        .iter()
        .zip(steps)
        .map(|(raw, s)| (spec.line_col(raw.span().start).0, s.verb()))
        .collect();
    let name = name.to_string();
    move |i: usize, e: Error| {
        let (line, verb) = at[i];
        e.context(format!(
            "table `{name}`, step {} ({verb}, artifact.toml line {line})",
            i + 1
        ))
    }
}

impl<'s> Catalog<'s> {
    /// A catalog running `plan`'s tables; loads JSON documents' `meta`.
    pub fn new(plan: &'s Plan<'s>) -> Result<Catalog<'s>> {
        let spec = plan.spec;
        let mut cat = Catalog {
            spec,
            plan,
            built: RefCell::new(IndexMap::new()),
            visiting: RefCell::new(Vec::new()),
            files: RefCell::new(IndexMap::new()),
            notes: RefCell::new(Vec::new()),
            pending: RefCell::new(IndexMap::new()),
            trim: false,
            globals: Arc::new(Globals::default()),
            step_globals: RefCell::new(None),
            readers: Default::default(),
            folds: RefCell::new(IndexMap::new()),
            merged_done: RefCell::new(IndexMap::new()),
        };
        crate::value::held::reset();
        let mut globals = Globals::default();
        for name in spec.spec.sources.keys().filter(|n| is_document(spec, n)) {
            // A broken source fails only what reads it: its `meta` is a
            // value that fails with the error, and its table, not cached,
            // fails with it again when something reads it.
            let loaded = cat
                .load_source(name)
                .unwrap_or_else(|e| Some(crate::expr::broken_meta(&e.to_string())));
            if let Some(meta) = loaded {
                Arc::make_mut(&mut globals.meta).insert(name.as_str(), meta);
                let first = cat.files.borrow().get(name.as_str()).and_then(|files| {
                    files
                        .iter()
                        .find(|f| f.format == sources::Format::Json)
                        .map(|f| f.rel.clone())
                });
                Arc::make_mut(&mut globals.meta_files).extend(first.map(|f| (name.clone(), f)));
            }
        }
        cat.globals = Arc::new(globals);
        Ok(cat)
    }

    /// The plan whose tables it builds.
    pub fn plan(&self) -> &'s Plan<'s> {
        self.plan
    }

    /// The catalog, its streamed rows keeping only the fields something
    /// after them reads ([`demand`]).
    pub fn trimming(mut self) -> Self {
        self.trim = true;
        self
    }

    /// Sets the globals (numbers and `meta`) the steps of tables built from
    /// now on read. Numbers are computed in the order of what they read
    /// (`numbers::order`), so a table is built only after the numbers its
    /// steps quote; a table already built keeps its rows.
    pub fn set_globals(&self, globals: Arc<Globals>) {
        *self.step_globals.borrow_mut() = Some(globals);
    }

    /// Which parts of the spec read which table ([`demand::Readers`]).
    fn readers(&self) -> &demand::Readers {
        self.readers.get_or_init(|| demand::Readers::of(self.spec))
    }

    /// The globals a table's steps read: the last [`Catalog::set_globals`],
    /// else `meta` alone.
    fn step_globals(&self) -> Arc<Globals> {
        self.step_globals
            .borrow()
            .clone()
            .unwrap_or_else(|| self.globals.clone())
    }

    /// The table or source `name`, built if needed.
    pub fn table(&self, name: &str) -> Result<Arc<Table>> {
        if let Some(notes) = self.pending.borrow_mut().shift_remove(name) {
            self.tell(notes);
        }
        if let Some(done) = self.built.borrow().get(name) {
            return done.clone().map_err(Error::msg);
        }
        let result = if self.spec.spec.sources.contains_key(name) {
            self.load_trimmed(name)
                .unwrap_or_else(|| self.load_source(name).map(|_| ()))
        } else {
            self.build_table(name).map(|_| ())
        };
        if let Err(e) = result {
            let msg = e.to_string();
            self.built
                .borrow_mut()
                .entry(name.to_string())
                .or_insert(Err(msg));
            return Err(e);
        }
        self.built
            .borrow()
            .get(name)
            .expect("built")
            .clone()
            .map_err(Error::msg)
    }

    /// Lets go of every held table, once every part that reads rows
    /// (numbers, figures, results tables) is built: the figures are then
    /// rendered without their rows held too (the 10⁶ rows behind a dense
    /// figure are about 350 MB). A table asked for after this is built
    /// again.
    pub fn release(&self) {
        self.built.borrow_mut().clear();
    }

    /// Whether table or source `name` has been built (its rows held).
    pub fn is_built(&self, name: &str) -> bool {
        self.built.borrow().contains_key(name)
    }

    /// The table or source `name` named at `span` of the spec: a spec error
    /// when there is no such name.
    pub fn lookup(&self, name: &str, span: std::ops::Range<usize>) -> Result<Arc<Table>> {
        if !self.spec.spec.tables.contains_key(name) && !self.spec.spec.sources.contains_key(name) {
            return Err(self
                .spec
                .error(span, crate::spec::no_table(self.spec, name)));
        }
        self.table(name)
    }

    /// Reports for the user (skips, dropped rows, empty files).
    pub fn notes(&self) -> Vec<String> {
        self.notes.borrow().clone()
    }

    /// The files each loaded source read.
    pub fn files(&self) -> IndexMap<String, Vec<SourceFile>> {
        self.files.borrow().clone()
    }

    fn load_source(&self, name: &str) -> Result<Option<crate::value::Value>> {
        let src = &self.spec.spec.sources[name];
        let loaded = sources::load(self.spec, name, src)
            .map_err(|e| e.context(format!("source `{name}`")))?;
        let documents: Vec<&str> = loaded
            .files
            .iter()
            .filter(|f| f.format == sources::Format::Json)
            .map(|f| f.rel.as_str())
            .collect();
        // Which file's would `meta.NAME` be of several? None: reading it is
        // an error naming them.
        let meta = match documents.len() {
            0 | 1 => loaded.meta,
            _ => Some(crate::expr::several_documents(self.spec, name, &documents)),
        };
        let mut notes = self.notes.borrow_mut();
        if let Some(reason) = &loaded.missing {
            notes.push(format!("skip: {reason}"));
        }
        for note in &loaded.notes {
            notes.push(format!("source `{}`: {note}", shown(name)));
        }
        self.files
            .borrow_mut()
            .insert(name.to_string(), loaded.files);
        let unavailable = if loaded.rows.is_empty() {
            loaded.missing
        } else {
            None
        };
        self.built.borrow_mut().insert(
            name.to_string(),
            Ok(Arc::new(Table {
                rows: loaded.rows,
                unavailable,
                sources: BTreeSet::from([name.to_string()]),
            })),
        );
        Ok(meta)
    }

    fn build_table(&self, name: &str) -> Result<Arc<Table>> {
        let spec = self.spec;
        let Some(tspec) = spec.spec.tables.get(name) else {
            return Err(Error::msg(format!("no source or table `{name}`")));
        };
        if self.visiting.borrow().iter().any(|v| v == name) {
            return Err(spec.error(
                tspec.span(),
                format!(
                    "tables depend on each other in a cycle: {} -> {name}",
                    self.visiting.borrow().join(" -> ")
                ),
            ));
        }
        // The plan has every table the spec declares, each name it reads
        // checked.
        let Some(plan) = self.plan.table(name) else {
            return Err(Error::msg(format!("no source or table `{name}`")));
        };
        let from = plan.from;
        let steps: &'s [steps::Step<'s>] = &plan.steps;
        self.visiting.borrow_mut().push(name.to_string());
        let deps = (|| -> Result<()> {
            // Build what the steps read first.
            for step in steps {
                for dep in step.dependencies() {
                    self.table(dep)?;
                }
            }
            Ok(())
        })();
        self.visiting.borrow_mut().pop();
        deps?;
        let step_context = step_context(spec, name, steps);

        let mut notes = Vec::new();
        let (rows, sources, unavailable, start) =
            if self.streams(from) && stream::stages(steps).streams() {
                let consumer = self.consumer(name, steps, &step_context);
                let start = consumer.rest();
                let (rows, unavailable) = self.stream(from, consumer, &mut notes)?;
                (rows, BTreeSet::from([from.to_string()]), unavailable, start)
            } else {
                let input = self.table(from)?;
                (
                    input.rows.clone(),
                    input.sources.clone(),
                    input.unavailable.clone(),
                    0,
                )
            };
        let table = self.finish(
            steps,
            &step_context,
            rows,
            sources,
            unavailable,
            start,
            &mut notes,
        )?;
        self.tell(
            notes
                .into_iter()
                .map(|n| format!("table `{}`: {n}", shown(name))),
        );
        self.built
            .borrow_mut()
            .insert(name.to_string(), Ok(table.clone()));
        Ok(table)
    }

    /// The other tables that one pass over source `from` can feed along
    /// with table `name` (compiled): those something reads, which read no
    /// numbers (those wait for them), whose first steps stream, and whose
    /// lookups and unions do not read `from` themselves (those are built,
    /// here, first).
    fn companions(&self, from: &str, names: &[&str]) -> Vec<(String, &'s [steps::Step<'s>])> {
        let spec = self.spec;
        let mut out = Vec::new();
        for (other, t) in &self.plan.tables {
            if names.contains(&other.as_str())
                || self.folded_away(other)
                || t.from != from
                || self.built.borrow().contains_key(other)
                || self.visiting.borrow().contains(other)
                || !self.readers().is_read(other)
            {
                continue;
            }
            let q = spec
                .parts()
                .get("table", other)
                .map(|p| p.quoted.clone())
                .unwrap_or_default();
            if q.all || !q.keys.is_empty() {
                continue;
            }
            let steps: &'s [steps::Step<'s>] = &t.steps;
            let deps: Vec<String> = steps
                .iter()
                .flat_map(|s| s.dependencies())
                .map(String::from)
                .collect();
            if !stream::stages(steps).streams()
                || crate::plan::deps::closure(spec, deps.clone()).contains(from)
                || deps.iter().any(|d| self.table(d).is_err())
            {
                continue;
            }
            out.push((other.clone(), steps));
        }
        out
    }

    /// Streams `from` once for table `name` (fed by `me`) and its
    /// [`Catalog::companions`], which are built and kept (their notes told
    /// when something asks for them). Returns `name`'s rows and why the
    /// source is unavailable, if it is.
    fn stream(
        &self,
        from: &str,
        me: stream::Consumer<'_, '_>,
        notes: &mut Vec<String>,
    ) -> Result<(Vec<crate::value::Row>, Option<String>)> {
        let (mut fed, unavailable) = self.stream_all(from, vec![me])?;
        let (rows, n) = fed.remove(0)?;
        notes.extend(n);
        Ok((rows, unavailable))
    }

    /// Streams `from` once for the consumers `mine` and the tables that
    /// are its [`Catalog::companions`], which are built and kept (their
    /// notes told when something asks for them). Returns what the stream
    /// fed each of `mine`, and why the source is unavailable, if it is.
    fn stream_all(
        &self,
        from: &str,
        mine: Vec<stream::Consumer<'_, '_>>,
    ) -> Result<(Vec<stream::Fed>, Option<String>)> {
        let spec = self.spec;
        let names: Vec<String> = mine.iter().map(|c| c.name.clone()).collect();
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        let others = self.companions(from, &names);
        let contexts: Vec<_> = others
            .iter()
            .map(|(n, steps)| step_context(spec, n, steps))
            .collect();
        let count = mine.len();
        let mut consumers = mine;
        for ((n, steps), context) in others.iter().zip(&contexts) {
            consumers.push(self.consumer(n, steps, context));
        }
        let g = self.step_globals();
        let (fed, loaded) = stream::run(spec, from, &consumers, &g, &|n| self.table(n))?;
        {
            let mut own = self.notes.borrow_mut();
            if let Some(reason) = &loaded.missing {
                own.push(format!("skip: {reason}"));
            }
            for note in &loaded.notes {
                own.push(format!("source `{from}`: {note}"));
            }
        }
        self.files
            .borrow_mut()
            .insert(from.to_string(), loaded.files);
        let unavailable = match loaded.files_read {
            0 => loaded.missing,
            _ => None,
        };
        let mut fed = fed.into_iter();
        let mine: Vec<stream::Fed> = fed.by_ref().take(count).collect();
        for (c, result) in consumers.iter().skip(count).zip(fed) {
            let mut told = Vec::new();
            let built = result.and_then(|(rows, mut n)| {
                let sources = BTreeSet::from([from.to_string()]);
                let t = self.finish(
                    c.steps,
                    &*c.context,
                    rows,
                    sources,
                    unavailable.clone(),
                    c.rest(),
                    &mut n,
                )?;
                told = n;
                Ok(t)
            });
            if built.is_ok() {
                let name = &c.name;
                self.pending.borrow_mut().insert(
                    c.name.clone(),
                    told.into_iter()
                        .map(|n| format!("table `{}`: {n}", shown(name)))
                        .collect(),
                );
            }
            self.built
                .borrow_mut()
                .insert(c.name.clone(), built.map_err(|e| e.to_string()));
        }
        Ok((mine, unavailable))
    }

    /// Whether source `from` is read as a stream (not yet loaded whole, not
    /// a JSON document, not inline rows).
    fn streams(&self, from: &str) -> bool {
        let spec = self.spec;
        spec.spec.sources.contains_key(from)
            && !self.built.borrow().contains_key(from)
            && !is_document(spec, from)
            && spec.spec.sources[from].get_ref().rows.is_none()
    }

    /// Table `name` (its compiled `steps`) as fed by a stream.
    fn consumer<'a, 'x>(
        &self,
        name: &str,
        steps: &'a [steps::Step<'x>],
        context: &'a (dyn Fn(usize, Error) -> Error + Sync),
    ) -> stream::Consumer<'a, 'x> {
        let stream::Stages {
            par,
            ser,
            sink,
            top,
        } = stream::stages(steps);
        // Rows keep only what is read after the parallel stage; straight
        // into a group step they are not held, so need no trimming.
        // Only JSONL rows are trimmed here: a message listing a row's
        // fields reads its JSONL record whole again, and would not have
        // the fields a step made that nothing read (a CSV or Parquet
        // source is trimmed only when held for what reads it whole:
        // `Catalog::load_trimmed`).
        let jsonl = || self.jsonl(self.spec.spec.tables[name].get_ref().from.get_ref());
        let keep = match sink && par == ser || !self.trim || !jsonl() {
            true => None,
            false => self.readers().keep(self.spec, name, par),
        };
        stream::Consumer {
            name: name.to_string(),
            steps,
            par,
            ser,
            sink,
            top,
            keep,
            context: Box::new(context),
        }
    }

    /// Applies `steps[start..]` to the rows a source or stream gave.
    #[allow(clippy::too_many_arguments)]
    fn finish(
        &self,
        steps: &[steps::Step<'_>],
        step_context: &dyn Fn(usize, Error) -> Error,
        mut rows: Vec<crate::value::Row>,
        mut sources: BTreeSet<String>,
        mut unavailable: Option<String>,
        start: usize,
        notes: &mut Vec<String>,
    ) -> Result<Arc<Table>> {
        let step_globals = self.step_globals();
        for (i, step) in steps.iter().enumerate() {
            // (Steps before `start` ran on the stream: their tables count.)
            for dep in step.dependencies() {
                let dep_t = self.table(dep)?;
                sources.extend(dep_t.sources.iter().cloned());
                if let (steps::Step::Lookup { .. }, Some(reason)) = (step, &dep_t.unavailable) {
                    unavailable.get_or_insert_with(|| reason.clone());
                }
            }
            if i < start {
                continue;
            }
            let lookup = |n: &str| self.table(n).ok();
            let mut env = apply::StepEnv {
                globals: &step_globals,
                tables: &lookup,
                notes,
            };
            rows = apply::apply(step, rows, &mut env).map_err(|e| step_context(i, e))?;
        }
        Ok(Arc::new(Table {
            rows,
            unavailable,
            sources,
        }))
    }
}

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
pub mod fast;
pub mod pareto;
pub mod projection;
pub mod reshape;
pub mod steps;
pub mod values;
pub mod window;

use std::cell::RefCell;
use std::collections::BTreeSet;
use std::sync::Arc;

use indexmap::IndexMap;

use crate::error::{Error, Result};
use crate::expr::Globals;
use crate::sources::{self, SourceFile};
use crate::spec::LoadedSpec;
use crate::value::Row;

/// The step that consumes a streamed source's rows: a group or a pivot,
/// each holding one accumulator per group.
enum Sink<'a, 's> {
    Group(steps::Grouper<'a, 's>),
    Pivot(reshape::Pivoter<'a>),
}

impl<'a, 's> Sink<'a, 's> {
    fn new(step: &'a steps::Step<'s>) -> Sink<'a, 's> {
        match step {
            steps::Step::Pivot(p) => Sink::Pivot(reshape::Pivoter::new(p)),
            step => Sink::Group(steps::Grouper::new(step)),
        }
    }

    fn push(&mut self, g: &Arc<Globals>, row: Row) -> Result<()> {
        match self {
            Sink::Group(gr) => gr.push(g, row),
            Sink::Pivot(p) => p.push(row),
        }
    }

    fn finish(self) -> Result<Vec<Row>> {
        match self {
            Sink::Group(gr) => gr.finish(),
            Sink::Pivot(p) => p.finish(),
        }
    }
}

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
    built: RefCell<IndexMap<String, std::result::Result<Arc<Table>, String>>>,
    visiting: RefCell<Vec<String>>,
    files: RefCell<IndexMap<String, Vec<SourceFile>>>,
    notes: RefCell<Vec<String>>,
    /// Globals: the `meta` of every JSON-document source.
    pub globals: Arc<Globals>,
    /// What a table's steps see: the `meta` above plus the numbers computed
    /// so far (`v['total']` in a derive), set by [`Catalog::set_globals`].
    step_globals: RefCell<Option<Arc<Globals>>>,
}

impl std::fmt::Debug for Catalog<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Catalog({} built)", self.built.borrow().len())
    }
}

/// Marks an error raised by a table's step inside a batch worker, so it is
/// not mistaken for an error of the source.
const STEP_FAILED: &str = "\u{0}step";

/// Whether a source reads JSON documents (`records`, `format = "json"`, or
/// a path or one of a list of paths ending in `.json`): its `meta` is
/// loaded up front, because any template may read it.
pub(crate) fn is_document(spec: &LoadedSpec, name: &str) -> bool {
    let Some(src) = spec.spec.sources.get(name) else {
        return false;
    };
    let s = src.get_ref();
    let document = |p: &toml::Value| {
        p.as_str().is_some_and(|p| {
            p.ends_with(".json") || p.ends_with(".json.zst") || p.ends_with(".json.gz")
        })
    };
    s.records.is_some()
        || s.format.as_ref().is_some_and(|f| f.get_ref() == "json")
        || s.path.as_ref().is_some_and(|p| match p.get_ref() {
            toml::Value::Array(list) => list.iter().any(document),
            one => document(one),
        })
}

impl<'s> Catalog<'s> {
    /// A catalog over `spec`; checks names and loads JSON documents' `meta`.
    pub fn new(spec: &'s LoadedSpec) -> Result<Catalog<'s>> {
        for (name, src) in &spec.spec.sources {
            if spec.spec.tables.contains_key(name) {
                return Err(
                    spec.error(src.span(), format!("`{name}` is both a source and a table"))
                );
            }
        }
        let mut cat = Catalog {
            spec,
            built: RefCell::new(IndexMap::new()),
            visiting: RefCell::new(Vec::new()),
            files: RefCell::new(IndexMap::new()),
            notes: RefCell::new(Vec::new()),
            globals: Arc::new(Globals::default()),
            step_globals: RefCell::new(None),
        };
        let mut globals = Globals::default();
        for name in spec.spec.sources.keys().filter(|n| is_document(spec, n)) {
            // A broken source fails only what reads it: its `meta` is a
            // value that fails with the error, and its table, not cached,
            // fails with it again when something reads it.
            let loaded = cat
                .load_source(name)
                .unwrap_or_else(|e| Some(crate::expr::broken_meta(&e.to_string())));
            if let Some(meta) = loaded {
                globals.meta.insert(name.as_str(), meta);
                let first = cat.files.borrow().get(name.as_str()).and_then(|files| {
                    files
                        .iter()
                        .find(|f| f.format == sources::Format::Json)
                        .map(|f| f.rel.clone())
                });
                globals.meta_files.extend(first.map(|f| (name.clone(), f)));
            }
        }
        cat.globals = Arc::new(globals);
        Ok(cat)
    }

    /// Sets the globals (numbers and `meta`) the steps of tables built from
    /// now on read. Numbers are computed in the order of what they read
    /// (`numbers::order`), so a table is built only after the numbers its
    /// steps quote; a table already built keeps its rows.
    pub fn set_globals(&self, globals: Arc<Globals>) {
        *self.step_globals.borrow_mut() = Some(globals);
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
        if let Some(done) = self.built.borrow().get(name) {
            return done.clone().map_err(Error::msg);
        }
        let result = if self.spec.spec.sources.contains_key(name) {
            self.load_source(name).map(|_| ())
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

    /// The table or source `name` named at `span` of the spec: a spec error
    /// when there is no such name.
    pub fn lookup(&self, name: &str, span: std::ops::Range<usize>) -> Result<Arc<Table>> {
        if !self.spec.spec.tables.contains_key(name) && !self.spec.spec.sources.contains_key(name) {
            return Err(self
                .spec
                .error(span, crate::validate::no_table(self.spec, name)));
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
            notes.push(format!("source `{name}`: {note}"));
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

    /// Streams source `from` through the row-wise `steps[..prefix]` (and a
    /// group step after them); returns the rows and why the source is
    /// unavailable, if it is.
    fn stream_prefix(
        &self,
        from: &str,
        steps: &[steps::Step<'_>],
        prefix: usize,
        group_next: bool,
        notes: &mut Vec<String>,
        step_context: &(dyn Fn(usize, Error) -> Error + Sync),
    ) -> Result<(Vec<crate::value::Row>, Option<String>)> {
        let g = &self.step_globals();
        let mut drops = steps::DropLog::new();
        let mut grouper = group_next.then(|| Sink::new(&steps[prefix]));
        let mut kept = Vec::new();
        let step_failed = std::cell::Cell::new(false);
        let projection = steps::projection(steps);
        // The row-wise steps run on batches in parallel; the group step
        // consumes their output in file order.
        // Each row goes through every step before the next row (an
        // exploded entry too, before its sibling), as on the fast path, so
        // reports and errors come in the same order on both.
        fn depth_first(
            steps: &[steps::Step<'_>],
            i: usize,
            row: crate::value::Row,
            g: &Arc<crate::expr::Globals>,
            out: &mut fast::Out,
            step_context: &(dyn Fn(usize, Error) -> Error + Sync),
        ) -> Result<()> {
            let Some(step) = steps.get(i) else {
                out.items.push(fast::Item::Row(Box::new(row)));
                return Ok(());
            };
            let mut next = Vec::new();
            steps::apply_row(step, row, g, &mut out.drops, &mut next)
                .map_err(|e| step_context(i, e).context(STEP_FAILED))?;
            for r in next {
                depth_first(steps, i + 1, r, g, out, step_context)?;
            }
            Ok(())
        }
        let work = |rows: Vec<crate::value::Row>| -> Result<fast::Out> {
            let mut out = fast::Out::default();
            for r in rows {
                depth_first(&steps[..prefix], 0, r, g, &mut out, step_context)?;
            }
            Ok(out)
        };
        // A JSONL source read for a group step takes the fast path when
        // every expression allows it (see `fast`).
        let is_group = matches!(steps.get(prefix), Some(steps::Step::Group { .. }));
        let plan = match (&projection, group_next) {
            (Some(p), true) if fast::enabled() && is_group => fast::Plan::compile(steps, prefix, p),
            _ => None,
        };
        // Batch outputs the group step is done with, for the workers to fill
        // again: their vectors keep their pages (no fresh memory per batch).
        let spare = std::sync::Mutex::new(Vec::<fast::Out>::new());
        // JSONL lines are taken one at a time, through every step, so the
        // first error in file order is the one reported (whichever path).
        let lines = |file: &SourceFile, bytes: &[u8], first: u64| -> Result<(u64, fast::Out)> {
            let path: Arc<str> = Arc::from(file.rel.as_str());
            let generic = |line_no: u64, line: &[u8]| {
                let row =
                    sources::batches::parse_row(file, &path, line_no, line, projection.as_ref())?;
                work(vec![row])
            };
            let mut out = spare
                .lock()
                .ok()
                .and_then(|mut s| s.pop())
                .unwrap_or_default();
            match &plan {
                Some(plan) => plan.run_batch(&path, bytes, first, out, &generic),
                None => {
                    let mut records = 0;
                    for (line_no, line) in sources::batches::lines(bytes, first) {
                        records += 1;
                        let g = generic(line_no, line)?;
                        for (k, v) in g.drops {
                            out.drops.entry(k).or_default().merge(v);
                        }
                        out.items.extend(g.items);
                    }
                    Ok((records, out))
                }
            }
        };
        let per_item = plan.as_ref().map_or(0, fast::Plan::aggs);
        let loaded = sources::stream_with(
            self.spec,
            from,
            &self.spec.spec.sources[from],
            projection.as_ref(),
            &work,
            Some(&lines as &sources::LinesFn<'_, fast::Out>),
            &mut |mut out: fast::Out| {
                for (k, v) in out.drops.drain(..) {
                    drops.entry(k).or_default().merge(v);
                }
                let mut global: Vec<Option<usize>> = vec![None; out.keys.len()];
                let mut inputs = out.inputs.chunks_exact(per_item.max(1));
                for item in out.items.drain(..) {
                    let r = match (item, grouper.as_mut()) {
                        (fast::Item::Row(r), Some(gr)) => gr.push(g, *r),
                        (fast::Item::Row(r), None) => {
                            kept.push(*r);
                            Ok(())
                        }
                        (fast::Item::Fast(k), Some(Sink::Group(gr))) => {
                            let k = k as usize;
                            let index = *global[k]
                                .get_or_insert_with(|| gr.group_of(&out.keys[k].0, &out.keys[k].1));
                            // (No aggregates: no chunks, an empty slice.)
                            gr.add(index, inputs.next().unwrap_or_default());
                            Ok(())
                        }
                        (fast::Item::Fast(_), _) => unreachable!("fast items need a group step"),
                    };
                    r.map_err(|e| {
                        step_failed.set(true);
                        step_context(prefix, e)
                    })?;
                }
                if let Some(Sink::Group(gr)) = grouper.as_mut() {
                    gr.spill_if_full().map_err(|e| {
                        step_failed.set(true);
                        step_context(prefix, e)
                    })?;
                }
                out.inputs.clear();
                out.keys.clear();
                if let Ok(mut s) = spare.lock()
                    && s.len() < 8
                {
                    s.push(out);
                }
                Ok(())
            },
        )
        .map_err(|e| match e {
            // A step's error, passed through the batch workers: unwrap the marker.
            Error::Context { what, inner } if what == STEP_FAILED => *inner,
            e if step_failed.get() => e,
            e => e.context(format!("source `{from}`")),
        })?;
        steps::flush_drops(&mut drops, notes);
        if let Some(gr) = grouper {
            kept = gr.finish().map_err(|e| step_context(prefix, e))?;
        }
        let mut own = self.notes.borrow_mut();
        if let Some(reason) = &loaded.missing {
            own.push(format!("skip: {reason}"));
        }
        for note in &loaded.notes {
            own.push(format!("source `{from}`: {note}"));
        }
        self.files
            .borrow_mut()
            .insert(from.to_string(), loaded.files);
        let unavailable = if loaded.files_read == 0 {
            loaded.missing
        } else {
            None
        };
        Ok((kept, unavailable))
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
        let t = tspec.get_ref();
        let from = t.from.get_ref();
        if !spec.spec.tables.contains_key(from) && !spec.spec.sources.contains_key(from) {
            return Err(spec.error(t.from.span(), crate::validate::no_table(spec, from)));
        }
        let steps = t
            .steps
            .iter()
            .map(|s| {
                let mut step = steps::compile(spec, s)?;
                step.set_table(name);
                Ok(step)
            })
            .collect::<Result<Vec<_>>>()?;
        self.visiting.borrow_mut().push(name.to_string());
        let deps = (|| -> Result<()> {
            // Build what the steps read first (checking names against the spec).
            for (step, raw) in steps.iter().zip(&t.steps) {
                for dep in step.dependencies() {
                    if !spec.spec.tables.contains_key(dep) && !spec.spec.sources.contains_key(dep) {
                        return Err(spec.error(raw.span(), crate::validate::no_table(spec, dep)));
                    }
                    self.table(dep)?;
                }
            }
            Ok(())
        })();
        self.visiting.borrow_mut().pop();
        deps?;
        let step_context = |i: usize, e: Error| {
            let (line, _, _) = crate::error::line_col(&spec.text, t.steps[i].span().start);
            e.context(format!(
                "table `{name}`, step {} ({}, artifact.toml line {line})",
                i + 1,
                steps[i].verb()
            ))
        };

        // A table whose first steps work row by row reads its source as a
        // stream: only the rows that survive those steps (or, when a group
        // step follows, only the groups' accumulators) are kept.
        let prefix = steps.iter().take_while(|s| s.is_row_wise()).count();
        // A pivot consumes the stream as a group does: one row per group.
        let group_next = matches!(
            steps.get(prefix),
            Some(steps::Step::Group { .. } | steps::Step::Pivot(_))
        );
        let streamed = spec.spec.sources.contains_key(from)
            && !self.built.borrow().contains_key(from)
            && !is_document(spec, from)
            && spec.spec.sources[from].get_ref().rows.is_none()
            && (prefix > 0 || group_next);
        let mut notes = Vec::new();
        let (mut rows, mut sources, mut unavailable, start) = if streamed {
            let (rows, unavailable) =
                self.stream_prefix(from, &steps, prefix, group_next, &mut notes, &step_context)?;
            (
                rows,
                BTreeSet::from([from.to_string()]),
                unavailable,
                prefix + group_next as usize,
            )
        } else {
            let input = self.table(from)?;
            (
                input.rows.clone(),
                input.sources.clone(),
                input.unavailable.clone(),
                0,
            )
        };
        let step_globals = self.step_globals();
        for (i, (step, raw)) in steps.iter().zip(&t.steps).enumerate().skip(start) {
            let _ = raw;
            for dep in step.dependencies() {
                let dep_t = self.table(dep)?;
                sources.extend(dep_t.sources.iter().cloned());
                if let (steps::Step::Lookup { .. }, Some(reason)) = (step, &dep_t.unavailable) {
                    unavailable.get_or_insert_with(|| reason.clone());
                }
            }
            let lookup = |n: &str| self.table(n).ok();
            let mut env = steps::StepEnv {
                globals: &step_globals,
                tables: &lookup,
                notes: &mut notes,
            };
            rows = steps::apply(step, rows, &mut env).map_err(|e| step_context(i, e))?;
        }
        let table = Arc::new(Table {
            rows,
            unavailable,
            sources,
        });
        self.notes
            .borrow_mut()
            .extend(notes.into_iter().map(|n| format!("table `{name}`: {n}")));
        self.built
            .borrow_mut()
            .insert(name.to_string(), Ok(table.clone()));
        Ok(table)
    }
}

//! One pass over a source feeds every table that streams it.
//!
//! A table whose steps start with steps that [`Step::streams`] reads its
//! source as a stream and never holds it. Its steps fall in three stages:
//! the *parallel* stage (filter, require, derive, explode: row by row, on
//! batches, on both cores), the *serial* stage (`unique`, `lookup`,
//! `limit`, `row_number` and the row-wise steps after them: in file order,
//! remembering only what they must) and a *sink* (a group or pivot step,
//! holding one accumulator per group). Only the rows that come out (or the
//! groups) are held, and only with the fields that something after the
//! parallel stage reads ([`crate::plan::demand`]). The steps after that work on
//! the held rows as usual.
//!
//! All the tables streaming one source are fed from one read of it: one
//! decompression, one scan of each line (the fast path's tape, shared), then
//! each table's steps. A step error fails only its table; the source's own
//! errors (a syntax error, a missing file) fail every table reading it,
//! even one whose step failed earlier in the file (the read goes on to the
//! end, as loading the source whole would).

use std::collections::BTreeSet;
use std::sync::{Arc, Mutex};

use super::apply::{DropLog, apply_row, flush_drops};
use super::fast::{self, Item, Out};
use super::serial::Stage;
use super::{Table, reshape};
use crate::error::{Error, Result};
use crate::expr::Globals;
use crate::plan::steps::{self, Step};
use crate::sources::{self, SourceFile, json::Projection};
use crate::spec::LoadedSpec;
use crate::value::{Record, Row};

/// The steps that consume a stream's rows: a group or a pivot, each
/// holding one accumulator per group, or a sort followed by a limit,
/// holding the first rows of each group in sorted order ([`TopK`]).
enum Sink<'a, 's> {
    Group(Box<super::apply::Grouper<'a, 's>>),
    Pivot(reshape::Pivoter<'a>),
    Top(TopK<'a, 's>),
}

impl<'a, 's> Sink<'a, 's> {
    /// The sink of `steps` (a group, a pivot, or a sort and a limit).
    fn new(steps: &'a [Step<'s>]) -> Sink<'a, 's> {
        match steps {
            [Step::Pivot(p), ..] => Sink::Pivot(reshape::Pivoter::new(p)),
            [Step::Sort(keys), Step::Limit { n, per }, ..] => Sink::Top(TopK {
                keys,
                n: *n,
                per,
                groups: indexmap::IndexMap::new(),
                seen: 0,
            }),
            [step, ..] => Sink::Group(Box::new(super::apply::Grouper::new(step))),
            [] => unreachable!("a sink has a step"),
        }
    }

    fn push(&mut self, g: &Arc<Globals>, row: Row) -> Result<()> {
        match self {
            Sink::Group(gr) => gr.push(g, row),
            Sink::Pivot(p) => p.push(row),
            Sink::Top(t) => t.push(g, row),
        }
    }

    fn finish(self) -> Result<Vec<Row>> {
        match self {
            Sink::Group(gr) => gr.finish(),
            Sink::Pivot(p) => p.finish(),
            Sink::Top(t) => Ok(t.finish()),
        }
    }
}

/// `sort` then `limit` (per group) on a stream: each group keeps only its
/// first `n` rows in sorted order (ties in arrival order, as the stable
/// sort keeps them), so memory is `n` rows a group, not the stream.
struct TopK<'a, 's> {
    keys: &'a [steps::SortKey<'s>],
    n: usize,
    per: &'a [String],
    /// Per group: (sort key values, arrival, row), sorted.
    groups: indexmap::IndexMap<crate::value::Key, Vec<(Vec<crate::value::Value>, u64, Row)>>,
    seen: u64,
}

impl TopK<'_, '_> {
    fn push(&mut self, g: &Arc<Globals>, row: Row) -> Result<()> {
        let values = self
            .keys
            .iter()
            .map(|k| k.expr.eval_row(g, &row))
            .collect::<Result<Vec<_>>>()?;
        let at = self.seen;
        self.seen += 1;
        let group = self
            .groups
            .entry(super::apply::row_key(&row, self.per))
            .or_default();
        // After every row that sorts before it or equal (arrival breaks ties).
        let i = group
            .partition_point(|(v, _, _)| super::apply::compare_keys(self.keys, v, &values).is_le());
        if i < self.n {
            group.insert(i, (values, at, row));
            group.truncate(self.n);
        }
        Ok(())
    }

    fn finish(self) -> Vec<Row> {
        let keys = self.keys;
        let mut all: Vec<(Vec<crate::value::Value>, u64, Row)> =
            self.groups.into_values().flatten().collect();
        all.sort_by(|a, b| super::apply::compare_keys(keys, &a.0, &b.0).then(a.1.cmp(&b.1)));
        all.into_iter().map(|(_, _, r)| r).collect()
    }
}

/// A table fed by a stream: its steps and where its stages end.
pub struct Consumer<'a, 's> {
    /// The table's name.
    pub name: String,
    /// Its compiled steps.
    pub steps: &'a [Step<'s>],
    /// `steps[..par]` run in parallel.
    pub par: usize,
    /// `steps[par..ser]` run in file order.
    pub ser: usize,
    /// Whether `steps[ser]` is a group or pivot consuming the stream.
    pub sink: bool,
    /// Whether `steps[ser]` and `steps[ser + 1]` are a sort and a limit
    /// consuming the stream ([`TopK`]).
    pub top: bool,
    /// The fields rows keep after the parallel stage (`None`: all), when
    /// there is no sink.
    pub keep: Option<BTreeSet<String>>,
    /// Names a step's error: (step index, error) -> error.
    pub context: Box<dyn Fn(usize, Error) -> Error + Sync + 'a>,
}

impl Consumer<'_, '_> {
    /// The index of the first step applied to the held rows.
    pub fn rest(&self) -> usize {
        self.ser + self.sink as usize + 2 * self.top as usize
    }
}

/// What a stream gave one table: its rows (after the sink, if any) and its
/// notes, or its error.
pub type Fed = std::result::Result<(Vec<Row>, Vec<String>), Error>;

/// Where the stages of a table's steps end.
#[derive(Debug, Clone, Copy)]
pub struct Stages {
    /// `steps[..par]` run in parallel.
    pub par: usize,
    /// `steps[par..ser]` run in file order.
    pub ser: usize,
    /// `steps[ser]` is a group or pivot.
    pub sink: bool,
    /// `steps[ser..ser + 2]` are a sort and a limit.
    pub top: bool,
}

impl Stages {
    /// Whether any step runs on the stream (else the source is loaded
    /// whole and every step applied to it).
    pub fn streams(&self) -> bool {
        self.ser > 0 || self.sink || self.top
    }
}

/// The stages of `steps`.
pub fn stages(steps: &[Step]) -> Stages {
    let par = steps.iter().take_while(|s| s.is_row_wise()).count();
    let ser = par + steps[par..].iter().take_while(|s| s.streams()).count();
    let sink = matches!(steps.get(ser), Some(Step::Group { .. } | Step::Pivot(_)));
    let top = matches!(
        steps.get(ser..ser + 2),
        Some([Step::Sort(_), Step::Limit { .. }])
    );
    Stages {
        par,
        ser,
        sink,
        top,
    }
}

/// The projection that reads, in one pass, what every consumer needs:
/// `None` when one needs whole records.
pub fn union_projection(consumers: &[Consumer], own: &[Option<Projection>]) -> Option<Projection> {
    let mut p = Projection::default();
    // A field keeps only the attributes read when every consumer reading it
    // reads only attributes of it.
    let mut whole = rustc_hash::FxHashSet::default();
    for (c, o) in consumers.iter().zip(own) {
        let o = o.as_ref()?;
        for field in o.fields.keys() {
            match o.attrs.get(field) {
                Some(a) => p
                    .attrs
                    .entry(field.clone())
                    .or_default()
                    .extend(a.iter().cloned()),
                None => {
                    whole.insert(field.clone());
                }
            }
        }
        whole.extend(c.keep.iter().flatten().cloned());
        for (field, keys) in &o.fields {
            match (p.fields.get_mut(field), keys) {
                (None, k) => {
                    p.fields.insert(field.clone(), k.clone());
                }
                (Some(slot @ Some(_)), None) => *slot = None,
                (Some(Some(have)), Some(k)) => have.extend(k.iter().cloned()),
                (Some(None), _) => {}
            }
        }
        if let Some(keep) = &c.keep {
            for f in keep {
                p.fields.insert(f.clone(), None);
            }
        }
    }
    p.attrs.retain(|f, _| !whole.contains(f));
    Some(p)
}

/// A row with only the fields in `keep`, in the order of their names (as
/// the fast path builds it).
pub fn trim(row: Row, keep: &BTreeSet<String>) -> Row {
    let flat = row.flat_fields();
    let mut fields: Vec<(&Arc<str>, &crate::value::Value)> = flat
        .0
        .iter()
        .filter(|(k, v)| keep.contains(&***k) && !v.is_undefined())
        .collect();
    fields.sort_by(|a, b| a.0.cmp(b.0));
    let mut rec = Record::with_capacity(fields.len());
    for (k, v) in fields {
        rec.insert(k.clone(), v.clone());
    }
    let mut origin = row.origin.clone();
    origin.partial = true;
    Row {
        extra: Default::default(),
        fields: Arc::new(rec),
        origin,
    }
}

/// Runs `row` through consumer `c`'s parallel stage into `out` (its items
/// in order; its first error in `out.failed`).
fn parallel(c: &Consumer, row: Row, g: &Arc<Globals>, out: &mut Out) {
    fn go(
        c: &Consumer,
        i: usize,
        row: Row,
        g: &Arc<Globals>,
        out: &mut Out,
    ) -> std::result::Result<(), Error> {
        if i == c.par {
            let row = match &c.keep {
                Some(keep) => trim(row, keep),
                None => row,
            };
            out.items.push(Item::Row(Box::new(row)));
            return Ok(());
        }
        let mut next = Vec::new();
        apply_row(&c.steps[i], row, g, &mut out.drops, &mut next).map_err(|e| (c.context)(i, e))?;
        for r in next {
            go(c, i + 1, r, g, out)?;
        }
        Ok(())
    }
    if out.failed.is_none()
        && let Err(e) = go(c, 0, row, g, out)
    {
        out.failed = Some(e);
    }
}

/// A consumer's state in the file-order stage.
struct State<'a, 's> {
    stage: Stage<'a, 's>,
    sink: Option<Sink<'a, 's>>,
    kept: Vec<Row>,
    drops: DropLog,
    error: Option<Error>,
    buf: Vec<Row>,
    /// The rows `kept`, counted against the memory cap.
    held: crate::value::held::Held,
}

impl<'a, 's> State<'a, 's> {
    /// The state of consumer `c`: its file-order stage (empty, with the
    /// error, when a step cannot be set up) and its sink.
    fn new(c: &'a Consumer<'a, 's>, table: &dyn Fn(&str) -> Result<Arc<Table>>) -> Result<Self> {
        let stage = Stage::new(&c.steps[c.par..c.ser], table);
        let (stage, error) = match stage {
            Ok(s) => (s, None),
            Err((i, e)) => (
                Stage::new(&[], table).map_err(|(_, e)| e)?,
                Some((c.context)(c.par + i, e)),
            ),
        };
        Ok(State {
            stage,
            sink: (c.sink || c.top).then(|| Sink::new(&c.steps[c.ser..])),
            kept: Vec::new(),
            drops: DropLog::new(),
            error,
            buf: Vec::new(),
            held: crate::value::held::Held::new(format!(
                "table `{}`",
                crate::error::shown(&c.name)
            )),
        })
    }
}

impl State<'_, '_> {
    /// Takes one batch's output of consumer `c` (whose fast plan has `aggs`
    /// aggregates) in file order: its rows through the file-order stage,
    /// its fast items into the group, its missed keys to the `unique` set.
    /// The first error is kept and fails the consumer.
    fn absorb(&mut self, c: &Consumer, g: &Arc<Globals>, out: &mut Out, aggs: usize) {
        if self.error.is_some() {
            out.clear();
            return;
        }
        for (k, v) in out.drops.drain(..) {
            self.drops.entry(k).or_default().merge(v);
        }
        let mut global: Vec<Option<usize>> = vec![None; out.keys.len()];
        let mut inputs = out.inputs.chunks_exact(aggs.max(1));
        // (Taken for the loop, which reads the rest of `out`; put
        // back after it, its memory kept.)
        let mut items = std::mem::take(&mut out.items);
        // The place of a missed key: one per batch, its line set at
        // each (a clone of the file's name per key was an atomic
        // count on a cache line the workers share).
        let mut missed_at: Option<crate::value::Origin> = None;
        // The `unique` set's places of missed keys are fetched this
        // many keys ahead (the set is far larger than the caches).
        const AHEAD: usize = 8;
        for m in out.missed.iter().take(AHEAD) {
            self.stage.prefetch(&m.hash);
        }
        for item in items.drain(..) {
            let r = match (item, self.sink.as_mut()) {
                (Item::Row(r), _) => self.feed(c, g, *r),
                (Item::Fast(k), Some(Sink::Group(gr))) => {
                    let k = k as usize;
                    let index = *global[k]
                        .get_or_insert_with(|| gr.group_of(&out.keys[k].0, &out.keys[k].1));
                    // (No aggregates: no chunks, an empty slice.)
                    gr.add(index, inputs.next().unwrap_or_default());
                    Ok(())
                }
                (Item::Fast(_), _) => unreachable!("fast items need a group step"),
                (Item::Missed(m), _) => {
                    if let Some(later) = out.missed.get(m as usize + AHEAD) {
                        self.stage.prefetch(&later.hash);
                    }
                    let m = out.missed[m as usize];
                    let at = missed_at.get_or_insert_with(|| crate::value::Origin {
                        partial: true,
                        ..crate::value::Origin::line(
                            out.path.clone().unwrap_or_else(|| Arc::from("")),
                            0,
                        )
                    });
                    at.line = m.line;
                    self.stage
                        .missed(m.hash, &|| out.missed_key(&m), at)
                        .map_err(|(i, e)| (c.context)(c.par + i, e))
                }
            };
            if let Err(e) = r {
                self.error = Some(e);
                break;
            }
        }
        out.items = items;
        if self.error.is_none() {
            self.error = out.failed.take();
        }
        if self.error.is_none()
            && let Some(Sink::Group(gr)) = self.sink.as_mut()
            && let Err(e) = gr.spill_if_full()
        {
            self.error = Some((c.context)(c.ser, e));
        }
        out.clear();
    }

    /// What the stream gave the consumer `c`: its held rows (or the sink's)
    /// and notes, or its error.
    fn finish(mut self, c: &Consumer) -> Fed {
        if let Some(e) = self.error {
            return Err(e);
        }
        let mut notes = Vec::new();
        flush_drops(&mut self.drops, &mut notes);
        self.stage.finish(&mut notes);
        let rows = match self.sink {
            Some(s) => s.finish().map_err(|e| (c.context)(c.ser, e))?,
            None => self.kept,
        };
        // A held table lives as long as the run: give back the doubling's
        // slack (up to half its size, 48 MB on 10⁶ rows).
        let mut rows = rows;
        rows.shrink_to_fit();
        Ok((rows, notes))
    }

    /// One row out of the parallel stage.
    fn feed(&mut self, c: &Consumer, g: &Arc<Globals>, row: Row) -> Result<()> {
        let mut rows = std::mem::take(&mut self.buf);
        if self.stage.is_empty() {
            rows.push(row);
        } else {
            self.stage
                .push(row, g, &mut rows)
                .map_err(|(i, e)| (c.context)(c.par + i, e))?;
        }
        for r in rows.drain(..) {
            match self.sink.as_mut() {
                Some(s) => s.push(g, r).map_err(|e| (c.context)(c.ser, e))?,
                None => {
                    self.held.add(&r)?;
                    self.kept.push(r)
                }
            }
        }
        self.buf = rows;
        Ok(())
    }
}

/// The batch outputs (one [`Out`] per consumer) that the file-order
/// stage is done with, for the workers to fill again (their vectors keep
/// their pages), and the consumers that failed in an earlier batch: their
/// steps are not run again, but the source is still read to its end (a
/// later syntax error is the source's, and fails every table reading it:
/// as when the table is held whole, whatever the batches and the other
/// tables).
struct Spare {
    outs: Mutex<Vec<Vec<Out>>>,
    dead: Vec<std::sync::atomic::AtomicBool>,
}

impl Spare {
    fn new(consumers: usize) -> Spare {
        Spare {
            outs: Mutex::new(Vec::new()),
            dead: (0..consumers)
                .map(|_| std::sync::atomic::AtomicBool::new(false))
                .collect(),
        }
    }

    /// Outputs for a batch: a spare set or a fresh one, a dead consumer's
    /// marked failed.
    fn take(&self) -> Vec<Out> {
        let mut outs = self
            .outs
            .lock()
            .ok()
            .and_then(|mut s| s.pop())
            .unwrap_or_else(|| self.dead.iter().map(|_| Out::default()).collect());
        for (out, dead) in outs.iter_mut().zip(&self.dead) {
            if dead.load(std::sync::atomic::Ordering::Relaxed) {
                out.failed = Some(Error::msg("the table failed in an earlier batch"));
            }
        }
        outs
    }

    /// Takes back a batch's outputs (cleared), and notes the consumers that
    /// have failed.
    fn give_back(&self, outs: Vec<Out>, states: &[State]) {
        for (st, dead) in states.iter().zip(&self.dead) {
            if st.error.is_some() {
                dead.store(true, std::sync::atomic::Ordering::Relaxed);
            }
        }
        if let Ok(mut s) = self.outs.lock()
            && s.len() < 16
        {
            s.push(outs);
        }
    }
}

/// Streams source `from` once through every consumer. `Err` is the
/// source's own error (every consumer fails with it); otherwise one
/// [`Fed`] per consumer and the source as loaded (its files and notes).
pub fn run(
    spec: &LoadedSpec,
    from: &str,
    consumers: &[Consumer],
    g: &Arc<Globals>,
    table: &dyn Fn(&str) -> Result<Arc<Table>>,
) -> Result<(Vec<Fed>, sources::Loaded)> {
    let own: Vec<Option<Projection>> = consumers
        .iter()
        .map(|c| super::projection::projection_until(c.steps, c.ser, c.sink, c.keep.as_ref()))
        .collect();
    let mut projection = union_projection(consumers, &own);
    if let Some(p) = projection.as_mut() {
        p.prune = super::prune::prune(consumers.iter().map(|c| c.steps)).map(Arc::new);
    }
    let mut states = Vec::with_capacity(consumers.len());
    for c in consumers {
        states.push(State::new(c, table)?);
    }
    let probes: Vec<_> = states.iter().map(|s| s.stage.probe()).collect();
    let plans = match (&projection, fast::enabled()) {
        (Some(p), true) => fast::Shared::compile(consumers, p, probes),
        _ => None,
    };
    let spare = Spare::new(consumers.len());
    let all: Vec<usize> = (0..consumers.len()).collect();
    let work = |rows: Vec<Row>| -> Result<Vec<Out>> {
        let mut outs = spare.take();
        for r in rows {
            for (c, out) in consumers.iter().zip(outs.iter_mut()) {
                parallel(c, r.clone(), g, out);
            }
        }
        Ok(outs)
    };
    let lines = |file: &SourceFile, bytes: &[u8], first: u64| -> Result<(u64, Vec<Out>)> {
        let path: Arc<str> = Arc::from(file.rel.as_str());
        // A line through the generic path, for the consumers in `which`.
        let generic = |line_no: u64, line: &[u8], which: &[usize], outs: &mut [Out]| {
            // (Parsed even when every table has failed: the source's own
            // errors come first.)
            let row = sources::batches::parse_row(file, &path, line_no, line, projection.as_ref())?;
            // A table that failed in this batch reads no further: its error
            // is the first in file order, before any later line's.
            if which.iter().all(|&c| outs[c].failed.is_some()) {
                return Ok(());
            }
            for &c in which {
                parallel(&consumers[c], row.clone(), g, &mut outs[c]);
            }
            Ok(())
        };
        let mut outs = spare.take();
        for out in outs.iter_mut() {
            out.path = Some(path.clone());
        }
        match &plans {
            Some(plans) => plans
                .run_batch(&path, bytes, first, &mut outs, &generic)
                .map(|n| (n, outs)),
            None => {
                let mut records = 0;
                for (line_no, line) in sources::batches::lines(bytes, first) {
                    records += 1;
                    generic(line_no, line, &all, &mut outs)?;
                }
                Ok((records, outs))
            }
        }
    };
    let aggs: Vec<usize> = (0..consumers.len())
        .map(|c| plans.as_ref().map_or(0, |p| p.aggs(c)))
        .collect();
    let result = sources::stream_with(
        spec,
        from,
        &spec.spec.sources[from],
        projection.as_ref(),
        &work,
        Some(&lines as &sources::LinesFn<'_, Vec<Out>>),
        &mut |mut outs: Vec<Out>| {
            for (i, out) in outs.iter_mut().enumerate() {
                states[i].absorb(&consumers[i], g, out, aggs[i]);
            }
            spare.give_back(outs, &states);
            Ok(())
        },
    );
    let loaded = result.map_err(|e| e.context(format!("source `{from}`")))?;
    let fed = consumers
        .iter()
        .zip(states)
        .map(|(c, st)| st.finish(c))
        .collect();
    Ok((fed, loaded))
}

//! The fast path of a streamed table: JSONL lines read by the tape
//! (`sources::tape`) straight into typed cells, the row-wise steps and the
//! group step's keys and aggregate inputs evaluated on those cells, no
//! per-row values built. This is what makes a gigabyte log cost little more
//! than its decompression.
//!
//! The generic path (values, minijinja) stays the definition: a [`Plan`]
//! exists only when every expression is in the fast subset, and any line
//! the fast path is unsure of (a syntax error, a missing field, a type
//! mismatch, a failed `require`, an oddity of the JSON) is run through the
//! generic path instead, which gives the same rows or the canonical error.
//! Items from both paths reach the group step in file order.

mod eval;
mod pred;
mod shared;

pub use shared::Shared;

use std::sync::Arc;

use std::cell::RefCell;

use rustc_hash::FxHashMap;

use super::aggregate::Input;
use super::apply::{DropLog, note_drop};
use crate::error::Result;
use crate::plan::aggregate::Op;
use crate::plan::steps::Step;
use crate::sources::json::Projection;
use crate::sources::tape::{Cell, Fields, Keep, Tape};
use crate::value::{Key, Origin, PartRef, PartsRef, Record, Row, Value};
use eval::{FNode, Fallback, attr};
use pred::Pred;

/// Whether the fast path is on: it is, unless `ARTIFACT_GENERIC_ONLY` is set
/// (for tests that compare both paths, and to rule it out when in doubt).
pub fn enabled() -> bool {
    std::env::var_os("ARTIFACT_GENERIC_ONLY").is_none()
}

/// What one batch of lines gives the group step, in file order.
#[derive(Debug, Default)]
pub struct Out {
    /// Rows (from the generic path) and fast items, in file order.
    pub items: Vec<Item>,
    /// The aggregate inputs of the fast items, `aggs` per item.
    pub inputs: Vec<Input>,
    /// The group keys the fast items name: key cells and a first row.
    pub keys: Vec<(Vec<Value>, Row)>,
    /// Rows the filters dropped.
    pub drops: DropLog,
    /// The first error of the table's steps in this batch (the items
    /// before it stand; nothing after it is run).
    pub failed: Option<crate::error::Error>,
    /// The keys of the rows the serial stage's lookup would drop
    /// ([`Item::Missed`]; see [`crate::tables::serial::Probe`]).
    pub missed: Vec<Missed>,
    /// Their key parts, `Missed::parts` indexing them (no value is made
    /// of a missed key unless a message names it).
    pub missed_parts: Vec<Stored>,
    /// The text of their string parts, [`Stored::Str`] indexing it.
    pub missed_text: String,
    /// The batch's file, for the places of missed keys.
    pub path: Option<Arc<str>>,
}

/// A row not built: its lookup key is not in the lookup's index.
#[derive(Debug, Clone, Copy)]
pub struct Missed {
    /// The key's hash, for the `unique` before the lookup (if any).
    pub hash: [u32; 3],
    /// Where its parts are in [`Out::missed_parts`].
    pub parts: (u32, u32),
    /// Its line.
    pub line: u64,
}

/// A part of a missed key ([`crate::value::PartRef`] owned by the batch):
/// a string is a range of [`Out::missed_text`].
#[derive(Debug, Clone, Copy)]
pub enum Stored {
    /// null.
    None,
    /// A boolean.
    Bool(bool),
    /// An integer (or a whole float, as keys compare).
    Int(i64),
    /// Any other float, by its bits.
    Float(u64),
    /// A string: its byte range in [`Out::missed_text`].
    Str(u32, u32),
}

/// A cell as a key part: as [`crate::value::PartRef`] of the cell's value
/// (`tape.to_value`), `None` for a missing field or a container.
fn cell_part(c: Cell<'_>) -> Option<PartRef<'_>> {
    Some(match c {
        Cell::Undef | Cell::Map(..) | Cell::List(..) => return None,
        Cell::Null => PartRef::None,
        Cell::Bool(b) => PartRef::Bool(b),
        Cell::Int(i) => PartRef::Int(i),
        Cell::Float(x) => match crate::value::integral(x) {
            Some(i) => PartRef::Int(i),
            // (Cells are never NaN.)
            None => PartRef::Float(x.to_bits()),
        },
        Cell::Str(s) => PartRef::Str(s),
    })
}

impl Out {
    /// The key of a missed row (for a message naming it).
    pub fn missed_key(&self, m: &Missed) -> Key {
        let (from, n) = (m.parts.0 as usize, m.parts.1 as usize);
        let parts: Vec<PartRef> = self.missed_parts[from..from + n]
            .iter()
            .map(|p| match *p {
                Stored::None => PartRef::None,
                Stored::Bool(b) => PartRef::Bool(b),
                Stored::Int(i) => PartRef::Int(i),
                Stored::Float(f) => PartRef::Float(f),
                Stored::Str(a, b) => PartRef::Str(&self.missed_text[a as usize..b as usize]),
            })
            .collect();
        PartsRef(&parts).to_key()
    }
}

impl Out {
    /// Where the current line's items and inputs start: what [`Out::settle`]
    /// undoes when the line falls back.
    fn mark(&self) -> Mark {
        Mark(
            self.items.len(),
            self.inputs.len(),
            self.missed.len(),
            self.missed_parts.len(),
            self.missed_text.len(),
        )
    }

    /// Ends one line's fast run: kept, its drop reports (from `drops`) are
    /// noted at `path:line_no`; fallen back, what it added since `mark` is
    /// undone (the generic path reads the line instead). Returns whether
    /// it fell back.
    fn settle(
        &mut self,
        run: Result<(), Fallback>,
        mark: Mark,
        drops: &mut Vec<(&str, &str, &'static str)>,
        path: &str,
        line_no: u64,
    ) -> bool {
        match run {
            Ok(()) => {
                for k in drops.drain(..) {
                    note_drop(&mut self.drops, k, || format!("{path}:{line_no}"));
                }
                false
            }
            Err(Fallback) => {
                self.items.truncate(mark.0);
                self.inputs.truncate(mark.1);
                self.missed.truncate(mark.2);
                self.missed_parts.truncate(mark.3);
                self.missed_text.truncate(mark.4);
                true
            }
        }
    }

    /// Empties the batch, keeping the vectors' memory.
    pub fn clear(&mut self) {
        self.items.clear();
        self.inputs.clear();
        self.missed.clear();
        self.missed_parts.clear();
        self.missed_text.clear();
        self.path = None;
        self.keys.clear();
        self.drops.clear();
        self.failed = None;
    }
}

/// One row reaching the group step.
#[derive(Debug)]
pub enum Item {
    /// A row of the generic path (boxed: the common item, `Fast`, stays
    /// two words).
    Row(Box<Row>),
    /// A fast row: the index of its key in [`Out::keys`].
    Fast(u32),
    /// A row the serial stage's lookup would drop: its index in
    /// [`Out::missed`].
    Missed(u32),
}

/// Where a line's output starts in an [`Out`] (items, inputs, missed keys,
/// their parts and text).
#[derive(Debug, Clone, Copy)]
struct Mark(usize, usize, usize, usize, usize);

#[derive(Debug)]
enum FStep {
    Filter {
        e: Pred,
        text: String,
        /// The paths the filter reads (slot, attributes), for drop reports.
        paths: Vec<(String, usize, Vec<String>)>,
    },
    Require(Pred),
    Derive(Vec<(usize, FNode)>),
    Explode {
        field: usize,
        key: usize,
        value: usize,
        /// Index in [`Plan::explode_attrs`].
        attrs: usize,
        /// The slots later steps write (derives): put back before each
        /// entry, instead of copying every slot.
        dirty: Vec<usize>,
    },
}

#[derive(Debug)]
struct FAgg {
    op: Op,
    expr: Option<FNode>,
    weight: Option<FNode>,
}

/// An attribute of an exploded entry read by later steps: its name, its id
/// (see `tape::Fields::attrs`) and the slot it is looked up into.
type EntryAttr = (String, Option<u32>, usize);

/// A table's row-wise steps and group step, compiled for cells.
#[derive(Debug)]
pub struct Plan {
    fields: Fields,
    slots: usize,
    /// Per explode: the attributes of its entries that later steps read
    /// (name, id, slot), looked up once per entry instead of at every use.
    explode_attrs: Vec<Vec<EntryAttr>>,
    steps: Vec<FStep>,
    keys: Vec<usize>,
    key_names: Vec<String>,
    aggs: Vec<FAgg>,
    /// The line's fields the steps read or write (slots below
    /// `fields.fields.len()`): copied from the shared read of the line.
    copy: Vec<usize>,
    /// Without a group step: the fields of each row that comes out (name,
    /// slot, whether read from the shared line rather than the steps'
    /// slots), by name.
    emit: Option<Vec<(Arc<str>, usize, bool)>>,
    /// With `emit`: the key a row's lookup reads, checked before the row is
    /// built (the key fields' slots, shared or not; the stage's probe).
    probe: Option<(Vec<(usize, bool)>, crate::tables::serial::Probe)>,
}

impl Plan {
    /// Compiles `steps[..prefix]` (row-wise) and the group step at
    /// `prefix`; `None` when any part is outside the fast subset.
    pub fn compile(steps: &[Step], prefix: usize, projection: &Projection) -> Option<Plan> {
        Plan::compile_tail(steps, prefix, projection, None)
    }

    /// As [`Plan::compile`]; with `keep`, `steps[..prefix]` are followed by
    /// no group step: each row that comes out is built with the fields in
    /// `keep` (as [`super::stream::trim`] keeps them).
    pub fn compile_tail(
        steps: &[Step],
        prefix: usize,
        projection: &Projection,
        keep: Option<&std::collections::BTreeSet<String>>,
    ) -> Option<Plan> {
        static NONE: (Vec<String>, Vec<(String, crate::plan::aggregate::Agg)>) =
            (Vec::new(), Vec::new());
        let (keys, aggs) = match (steps.get(prefix), keep) {
            (_, Some(_)) => (&NONE.0, &NONE.1),
            (Some(Step::Group { keys, aggs }), None) => (keys, aggs),
            _ => return None,
        };
        // Slots: the projected fields (sorted: the order is not the
        // line's), then every field a step makes.
        let mut names: Vec<String> = projection.fields.keys().cloned().collect();
        names.sort();
        let mut attrs: Vec<String> = projection
            .fields
            .values()
            .flatten()
            .flatten()
            .cloned()
            .collect();
        attrs.sort();
        attrs.dedup();
        let id = |a: &str| attrs.iter().position(|x| x == a).map(|i| i as u32);
        let fields = Fields::new(
            names
                .iter()
                .map(|n| {
                    let keep = match &projection.fields[n] {
                        None => Keep::Whole,
                        Some(keys) => {
                            let mut keys: Vec<(String, u32)> = keys
                                .iter()
                                .map(|k| (k.clone(), id(k).expect("an attr")))
                                .collect();
                            keys.sort();
                            Keep::Entries(keys)
                        }
                    };
                    (n.clone(), keep)
                })
                .collect(),
            attrs.clone(),
        );
        // Slot names grow as steps make fields (and entry attributes get
        // slots of their own, see `Explode::attrs`).
        let names = RefCell::new(names);
        let slot_for = |name: &str| {
            let mut names = names.borrow_mut();
            match names.iter().position(|n| n == name) {
                Some(i) => i,
                None => {
                    names.push(name.to_string());
                    names.len() - 1
                }
            }
        };
        let touched: RefCell<std::collections::BTreeSet<usize>> = RefCell::default();
        let position = |name: &str| {
            let i = names.borrow().iter().position(|n| n == name);
            touched.borrow_mut().extend(i);
            i
        };
        // The value slot of each explode whose entries' attributes are read
        // later (and not overwritten by a derive first) -> that explode's
        // attribute slots.
        let owners: RefCell<FxHashMap<usize, usize>> = RefCell::default();
        let explode_attrs: RefCell<Vec<Vec<EntryAttr>>> = RefCell::default();
        let attr_slot = |base: usize, name: &str, id: Option<u32>| {
            let owner = *owners.borrow().get(&base)?;
            let mut lists = explode_attrs.borrow_mut();
            if let Some((_, _, k)) = lists[owner].iter().find(|(n, _, _)| n == name) {
                return Some(*k);
            }
            // A slot name no field can have (fields never hold a NUL).
            let k = slot_for(&format!("\u{0}{base}.{name}"));
            lists[owner].push((name.to_string(), id, k));
            Some(k)
        };
        let compile = |e: &crate::expr::Expr| {
            FNode::compile(e.fast()?, &position, &|a| fields.attr_id(a), &attr_slot)
        };
        let mut fsteps = Vec::new();
        for step in &steps[..prefix] {
            fsteps.push(match step {
                Step::Filter(e) => {
                    let mut paths = Vec::new();
                    for p in e.paths() {
                        let mut parts = p.split('.');
                        let head = parts.next().unwrap_or("");
                        if let Some(i) = position(head) {
                            paths.push((p.clone(), i, parts.map(String::from).collect()));
                        }
                    }
                    FStep::Filter {
                        e: Pred::of(compile(e)?),
                        text: e.text.to_string(),
                        paths,
                    }
                }
                Step::Require(e) => FStep::Require(Pred::of(compile(e)?)),
                Step::Derive(fields) => {
                    let mut out = Vec::new();
                    for (name, e) in fields {
                        let node = compile(e)?;
                        let slot = slot_for(name);
                        // Its entries' attribute slots no longer describe it.
                        owners.borrow_mut().remove(&slot);
                        out.push((slot, node));
                    }
                    FStep::Derive(out)
                }
                Step::Explode { field, key, value } => {
                    let value = slot_for(value);
                    let index = explode_attrs.borrow().len();
                    explode_attrs.borrow_mut().push(Vec::new());
                    owners.borrow_mut().insert(value, index);
                    FStep::Explode {
                        field: slot_for(field),
                        key: slot_for(key),
                        value,
                        attrs: index,
                        dirty: Vec::new(),
                    }
                }
                _ => return None,
            });
        }
        for i in 0..fsteps.len() {
            let written: Vec<usize> = fsteps[i + 1..]
                .iter()
                .flat_map(|s| match s {
                    FStep::Derive(fields) => fields.iter().map(|(slot, _)| *slot).collect(),
                    _ => Vec::new(),
                })
                .collect();
            if let FStep::Explode { dirty, .. } = &mut fsteps[i] {
                *dirty = written;
            }
        }
        let key_slots = keys
            .iter()
            .map(|k| position(k))
            .collect::<Option<Vec<_>>>()?;
        let mut faggs = Vec::new();
        for (_, a) in aggs {
            if matches!(a.op, Op::Cell | Op::Expr) {
                return None;
            }
            let c = |e: &Option<crate::expr::Expr>| match e {
                Some(e) => compile(e).map(Some),
                None => Some(None),
            };
            faggs.push(FAgg {
                op: a.op,
                expr: c(&a.expr)?,
                weight: c(&a.weight)?,
            });
        }
        let explode_attrs = explode_attrs.into_inner();
        let names = names.into_inner();
        let base = fields.fields.len();
        let mut touched = touched.into_inner();
        // Every slot a step writes is the steps' own (an explode hides its
        // field in each entry).
        for s in &fsteps {
            match s {
                FStep::Derive(fs) => touched.extend(fs.iter().map(|(slot, _)| *slot)),
                FStep::Explode {
                    field, key, value, ..
                } => touched.extend([*field, *key, *value]),
                _ => {}
            }
        }
        let emit = keep.map(|keep| {
            let mut out: Vec<(Arc<str>, usize, bool)> = names
                .iter()
                .enumerate()
                .filter(|(_, n)| keep.contains(*n))
                .map(|(i, n)| (Arc::from(n.as_str()), i, i < base && !touched.contains(&i)))
                .collect();
            out.sort_by(|a, b| a.0.cmp(&b.0));
            out
        });
        let copy = touched.iter().copied().filter(|&i| i < base).collect();
        Some(Plan {
            probe: None,
            copy,
            emit,
            fields,
            slots: names.len(),
            explode_attrs,
            steps: fsteps,
            keys: key_slots,
            key_names: keys.clone(),
            aggs: faggs,
        })
    }

    /// Runs a batch of lines (`bytes`, first line `first_line`, of file
    /// `path`). A line the fast path is unsure of goes to `generic`, which
    /// parses it and runs the steps on its row (and raises its errors).
    /// Returns the number of records and the batch's items, in `out` (an
    /// empty [`Out`], whose vectors may be reused from an earlier batch).
    pub fn run_batch(
        &self,
        path: &Arc<str>,
        bytes: &[u8],
        first_line: u64,
        mut out: Out,
        generic: &dyn Fn(u64, &[u8]) -> Result<Out>,
    ) -> Result<(u64, Out)> {
        // Room for about one item per 128 bytes, so the vectors rarely grow
        // (each growth copies them).
        let room = bytes.len() / 128;
        out.items.reserve(room);
        out.inputs.reserve(room * self.aggs.len());
        let mut tape = Tape::default();
        let mut st = self.state();
        let mut slots = vec![Cell::Undef; self.slots];
        let mut base = vec![Cell::Undef; self.fields.fields.len()];
        let mut records = 0;
        for (line_no, line) in crate::sources::batches::lines(bytes, first_line) {
            records += 1;
            let mark = out.mark();
            st.drops.clear();
            let fast = tape
                .read(line, &self.fields, &mut base)
                .ok_or(Fallback)
                .and_then(|()| {
                    let at = Line {
                        tape: &tape,
                        path,
                        line_no,
                    };
                    self.run_line(&base, &mut slots, &at, &mut st, &mut out)
                });
            if out.settle(fast, mark, &mut st.drops, path, line_no) {
                let g = generic(line_no, line)?;
                for (k, v) in g.drops {
                    out.drops.entry(k).or_default().merge(v);
                }
                out.items.extend(g.items);
            }
        }
        Ok((records, out))
    }

    /// Runs the steps on one line read into `base` (the shared fields),
    /// with `slots` as the steps' own.
    fn run_line<'a>(
        &'a self,
        base: &[Cell<'a>],
        slots: &mut [Cell<'a>],
        at: &Line<'a, '_>,
        st: &mut State<'a>,
        out: &mut Out,
    ) -> std::result::Result<(), Fallback> {
        for &i in &self.copy {
            slots[i] = base[i];
        }
        for s in &mut slots[base.len()..] {
            *s = Cell::Undef;
        }
        self.steps_from(0, slots, base, at, st, out)
    }

    #[allow(clippy::too_many_arguments)]
    fn steps_from<'a>(
        &'a self,
        from: usize,
        slots: &mut [Cell<'a>],
        base: &[Cell<'a>],
        at: &Line<'a, '_>,
        st: &mut State<'a>,
        out: &mut Out,
    ) -> std::result::Result<(), Fallback> {
        let tape = at.tape;
        for (i, step) in self.steps.iter().enumerate().skip(from) {
            match step {
                FStep::Filter { e, text, paths } => {
                    if e.test(tape, slots)? {
                        continue;
                    }
                    // As the generic path: say so when a field read was
                    // null or 0 (cells are never NaN or infinite).
                    for (p, slot, attrs) in paths {
                        let mut c = slots[*slot];
                        for a in attrs {
                            match attr(tape, c, a, None) {
                                Some(x) => c = x,
                                None => c = Cell::Undef,
                            }
                        }
                        let why = match c {
                            Cell::Null => "null",
                            Cell::Int(0) => "0",
                            Cell::Float(0.0) => "0",
                            _ => continue,
                        };
                        st.drops.push((text, p, why));
                        break;
                    }
                    return Ok(());
                }
                FStep::Require(e) => {
                    if !e.test(tape, slots)? {
                        return Err(Fallback);
                    }
                }
                FStep::Derive(fields) => {
                    for (slot, e) in fields {
                        let v = e.eval(tape, slots)?;
                        // Nothing to derive is reported by the generic path.
                        if v == Cell::Undef {
                            return Err(Fallback);
                        }
                        slots[*slot] = v;
                    }
                }
                FStep::Explode {
                    field,
                    key,
                    value,
                    attrs,
                    dirty,
                } => {
                    let coll = slots[*field];
                    if !matches!(coll, Cell::Map(..) | Cell::List(..)) {
                        return Err(Fallback);
                    }
                    let mut sub = st.spare.pop().unwrap_or_default();
                    sub.clear();
                    sub.extend_from_slice(slots);
                    sub[*field] = Cell::Undef;
                    for (n, entry) in tape.items(coll).iter().enumerate() {
                        // (The exploded field stays missing in every entry.)
                        for &d in dirty {
                            sub[d] = if d == *field { Cell::Undef } else { slots[d] };
                        }
                        sub[*key] = match coll {
                            Cell::Map(..) => Cell::Str(entry.key),
                            _ => Cell::Int(n as i64),
                        };
                        sub[*value] = entry.cell;
                        let is_map = matches!(entry.cell, Cell::Map(..));
                        for (name, id, k) in &self.explode_attrs[*attrs] {
                            sub[*k] = match is_map {
                                true => attr(tape, entry.cell, name, *id).unwrap_or(Cell::Undef),
                                false => slots[*k],
                            };
                        }
                        st.pos = n;
                        self.steps_from(i + 1, &mut sub, base, at, st, out)?;
                    }
                    st.pos = 0;
                    st.spare.push(sub);
                    return Ok(());
                }
            }
        }
        match &self.emit {
            Some(fields) => {
                let tape = at.tape;
                if self.missed(slots, base, at, st, out) {
                    return Ok(());
                }
                let cell = |(_, slot, shared): &(Arc<str>, usize, bool)| match shared {
                    true => base[*slot],
                    false => slots[*slot],
                };
                // (Room for the fields the line has, not every name kept:
                // most are words of the spec that no line holds.)
                let present = fields.iter().filter(|f| cell(f) != Cell::Undef).count();
                let mut rec = Record::with_capacity(present);
                for (f, name) in fields.iter().zip(&st.names) {
                    let c = cell(f);
                    if c != Cell::Undef {
                        rec.insert(name.clone(), tape.to_value(c));
                    }
                }
                out.items.push(Item::Row(Box::new(Row {
                    extra: Default::default(),
                    fields: Arc::new(rec),
                    origin: Origin {
                        partial: true,
                        ..Origin::line(at.path.clone(), at.line_no)
                    },
                })));
                Ok(())
            }
            None => self.group(slots, at, st, out),
        }
    }

    /// Sets the serial stage's probe (a plan with rows to emit whose kept
    /// fields hold the probe's key; otherwise there is nothing to check).
    pub fn set_probe(&mut self, probe: crate::tables::serial::Probe) {
        let Some(fields) = &self.emit else { return };
        let slots: Option<Vec<(usize, bool)>> = probe
            .on
            .iter()
            .map(|f| {
                fields
                    .iter()
                    .find(|(n, _, _)| **n == **f)
                    .map(|(_, slot, shared)| (*slot, *shared))
            })
            .collect();
        self.probe = slots.map(|s| (s, probe));
    }

    /// Whether the row's lookup key (scalars, all present) is missing from
    /// the lookup's index: then only the key is sent ([`Item::Missed`]).
    fn missed<'a>(
        &'a self,
        slots: &[Cell<'a>],
        base: &[Cell<'a>],
        at: &Line<'a, '_>,
        st: &mut State<'a>,
        out: &mut Out,
    ) -> bool {
        let Some((keys, probe)) = &self.probe else {
            return false;
        };
        let parts = &mut st.key;
        parts.clear();
        for &(slot, shared) in keys {
            let c = if shared { base[slot] } else { slots[slot] };
            // (A missing key is the serial stage's error to raise.)
            let Some(p) = cell_part(c) else {
                return false;
            };
            parts.push(p);
        }
        let key = PartsRef(parts);
        if probe.index.contains_key(&key) {
            return false;
        }
        let hash = match probe.unique {
            true => crate::tables::serial::key_hash(&key),
            false => [0; 3],
        };
        if out.missed_text.len()
            + parts
                .iter()
                .map(|p| match p {
                    PartRef::Str(s) => s.len(),
                    _ => 0,
                })
                .sum::<usize>()
            > u32::MAX as usize
        {
            return false;
        }
        let start = out.missed_parts.len();
        for p in parts.iter() {
            out.missed_parts.push(match *p {
                PartRef::Bool(b) => Stored::Bool(b),
                PartRef::Int(i) => Stored::Int(i),
                PartRef::Float(f) => Stored::Float(f),
                PartRef::Str(s) => {
                    // (Offsets are u32: a batch's text past 4 GiB, from
                    // lines that long, takes the row's way.)
                    let a = out.missed_text.len();
                    out.missed_text.push_str(s);
                    Stored::Str(a as u32, out.missed_text.len() as u32)
                }
                _ => Stored::None,
            });
        }
        out.missed.push(Missed {
            hash,
            parts: (start as u32, (out.missed_parts.len() - start) as u32),
            line: at.line_no,
        });
        out.items.push(Item::Missed((out.missed.len() - 1) as u32));
        true
    }

    /// The group step: the row's key and what it gives each aggregate.
    fn group<'a>(
        &'a self,
        slots: &[Cell<'a>],
        at: &Line<'a, '_>,
        st: &mut State<'a>,
        out: &mut Out,
    ) -> std::result::Result<(), Fallback> {
        let tape = at.tape;
        st.parts.clear();
        for &k in &self.keys {
            st.parts.push(match slots[k] {
                // A missing key field is the generic path's error.
                Cell::Undef | Cell::Map(..) | Cell::List(..) => return Err(Fallback),
                Cell::Null => Part::Null,
                Cell::Bool(b) => Part::Bool(b),
                Cell::Int(i) => Part::Int(i),
                // As `value::Key`: 1.0 and 1 are one key.
                Cell::Float(x) if let Some(i) = crate::value::integral(x) => Part::Int(i),
                Cell::Float(x) => Part::Float(x.to_bits()),
                Cell::Str(s) => Part::Str(s),
            });
        }
        // Each arm pushes its own variant: a variant chosen first and pushed
        // after was built on the stack and reloaded by a wider load than
        // its stores (a store-forwarding stall at every input).
        let inputs = &mut out.inputs;
        for a in &self.aggs {
            let num = |e: &'a FNode| {
                e.with_operand(tape, slots, |c| match c {
                    Cell::Int(i) => Ok(*i as f64),
                    Cell::Float(x) => Ok(*x),
                    _ => Err(Fallback),
                })
            };
            let Some(e) = &a.expr else {
                inputs.push(Input::Nothing);
                continue;
            };
            match a.op {
                Op::Count | Op::Expr | Op::Cell => inputs.push(Input::Nothing),
                Op::CountOf => {
                    inputs.push(Input::Present(e.with_operand(tape, slots, |c| {
                        Ok(!matches!(c, Cell::Null | Cell::Undef))
                    })?))
                }
                Op::Sum => e.with_operand(tape, slots, |c| {
                    match c {
                        Cell::Int(i) => inputs.push(Input::Int(*i)),
                        Cell::Float(x) => inputs.push(Input::Num(*x)),
                        _ => return Err(Fallback),
                    }
                    Ok(())
                })?,
                Op::WeightedMean => {
                    let x = num(e)?;
                    let w = num(a.weight.as_ref().ok_or(Fallback)?)?;
                    if w < 0.0 {
                        return Err(Fallback);
                    }
                    inputs.push(Input::Weighted(x, w));
                }
                Op::Mean | Op::Median | Op::Quantile(_) | Op::Std | Op::Ci { .. } => {
                    inputs.push(Input::Num(num(e)?))
                }
                Op::Min | Op::Max => {
                    num(e)?;
                    inputs.push(Input::Value(tape.to_value(e.eval(tape, slots)?)));
                }
                Op::First | Op::Last => {
                    inputs.push(Input::Value(tape.to_value(e.eval(tape, slots)?)))
                }
            }
        }
        // The key at this place of the last line, first: the entries of an
        // exploded map mostly come in the same order on every line, so the
        // key is found with a comparison, not a hash and a probe.
        let memo = st.pos.min(MEMO - 1);
        if let Some(ways) = st.memo.get_mut(memo) {
            // (Two keys a place: lines of two kinds, interleaved, each
            // with its own order of entries.)
            if let Some(w) = ways.iter().position(|(p, _)| *p == st.parts) {
                ways.swap(0, w);
                out.items.push(Item::Fast(ways[0].1));
                return Ok(());
            }
        }
        let n = st.local.len() as u32;
        let index = match st.local.get(st.parts.as_slice()) {
            Some(&i) => i,
            None => {
                st.local.insert(st.parts.clone(), n);
                let vals: Vec<Value> = self.keys.iter().map(|&k| tape.to_value(slots[k])).collect();
                let mut rec = Record::with_capacity(vals.len());
                for (name, v) in self.key_names.iter().zip(&vals) {
                    rec.insert(name.as_str(), v.clone());
                }
                let first = Row {
                    extra: Default::default(),
                    fields: Arc::new(rec),
                    origin: Origin::line(at.path.clone(), at.line_no),
                };
                out.keys.push((vals, first));
                n
            }
        };
        if st.memo.len() <= memo {
            st.memo.resize_with(memo + 1, Default::default);
        }
        let ways = &mut st.memo[memo];
        ways.swap(0, 1);
        ways[0].0.clone_from(&st.parts);
        ways[0].1 = index;
        out.items.push(Item::Fast(index));
        Ok(())
    }

    /// Aggregates per fast item.
    pub fn aggs(&self) -> usize {
        self.aggs.len()
    }
}

/// Places of an exploded map remembered by [`State::memo`].
const MEMO: usize = 64;

/// One part of a group key, borrowed from the batch (as `value::KeyPart`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Part<'a> {
    Null,
    Bool(bool),
    Int(i64),
    Float(u64),
    Str(&'a str),
}

/// The line being read.
struct Line<'a, 'p> {
    tape: &'p Tape<'a>,
    path: &'p Arc<str>,
    line_no: u64,
}

/// A worker's buffers for one batch.
#[derive(Default)]
struct State<'a> {
    /// Slot buffers for exploded entries, reused.
    spare: Vec<Vec<Cell<'a>>>,
    /// Group keys seen in this batch -> index in [`Out::keys`].
    local: FxHashMap<Vec<Part<'a>>, u32>,
    parts: Vec<Part<'a>>,
    /// The place of the current row in its exploded map (0 when none).
    pos: usize,
    /// By place ([`State::pos`], the last shared from [`MEMO`] on): the
    /// two group keys met there last (the latest first), each with its
    /// index in [`Out::keys`].
    memo: Vec<[(Vec<Part<'a>>, u32); 2]>,
    /// The current line's lookup key (see [`Plan::missed`]).
    key: Vec<PartRef<'a>>,
    /// The current line's drop reports (kept only if the line stays fast).
    drops: Vec<(&'a str, &'a str, &'static str)>,
    /// The names of the fields rows keep, this batch's own copies (as the
    /// file's name is, see `stream::run`): every row holds them, and
    /// counting the references of one copy shared by both workers and the
    /// file-order stage moved its cache line between the cores at each row.
    names: Vec<Arc<str>>,
}

impl Plan {
    /// A worker's buffers for one batch.
    fn state(&self) -> State<'_> {
        State {
            local: FxHashMap::default(),
            parts: Vec::new(),
            pos: 0,
            memo: Vec::new(),
            key: Vec::new(),
            drops: Vec::new(),
            spare: Vec::new(),
            names: self
                .emit
                .iter()
                .flatten()
                .map(|(n, _, _)| Arc::from(&**n))
                .collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SPEC: &str = r#"
[sources.results]
path = "results.jsonl"

[tables.points]
from = "results"
steps = [
  { filter = "_kind in ['bench_bf16_perfile', 'bench_7B'] and methods is mapping" },
  { derive = { corpus = "'Q4_K' if _kind == 'Q4_K_benchmark' else 'bf16'" } },
  { explode = "methods", key = "method", value = "m" },
  { filter = "m is mapping and m.ratio is not none and m.ratio > 0" },
  { group = ["corpus", "method"], aggregate = { n = "count", r = { weighted_mean = "m.ratio", weight = "input_bytes" }, s = { sum = "input_bytes" } } },
]
"#;

    const LINES: &str = concat!(
        r#"{"_kind": "bench_7B", "input_bytes": 4, "shape": [1, 2], "methods": {"zstd": {"ratio": 1.25, "x": "y"}, "xz": {"ratio": 0, "x": 1}}}"#,
        "\n\n",
        r#"{"_kind": "bench_bf16_perfile", "input_bytes": 2, "methods": {"zstd": {"ratio": 2}, "err": {"error": "no"}, "s": "n/a"}}"#,
        "\r\n",
        r#"{"_kind": "other", "input_bytes": 2, "methods": {}}"#,
        "\n",
    );

    fn batch(lines: &str) -> (u64, Out) {
        let spec = crate::spec::parse(SPEC, std::path::Path::new("artifact.toml")).unwrap();
        let table = spec.spec.tables["points"].get_ref();
        let steps: Vec<Step> = table
            .steps
            .iter()
            .map(|s| crate::plan::steps::compile(&spec, s).unwrap())
            .collect();
        let projection = super::super::projection::projection(&steps).unwrap();
        let plan = Plan::compile(&steps, 4, &projection).expect("a plan");
        let path: Arc<str> = Arc::from("results.jsonl");
        plan.run_batch(&path, lines.as_bytes(), 1, Out::default(), &|n, _| {
            panic!("line {n} left the fast path")
        })
        .unwrap()
    }

    #[test]
    fn plain_lines_stay_on_the_fast_path() {
        let (records, out) = batch(LINES);
        assert_eq!(records, 3, "the blank line is not a record");
        // zstd from line 1, zstd from line 3 (one key), nothing else.
        assert!(
            matches!(out.items[..], [Item::Fast(0), Item::Fast(0)]),
            "{:?}",
            out.items
        );
        assert_eq!(out.keys.len(), 1);
        assert_eq!(format!("{:?}", out.keys[0].0), "['bf16', 'zstd']");
        assert_eq!(out.keys[0].1.origin.to_string(), "results.jsonl:1");
        let inputs: Vec<String> = out.inputs.iter().map(|i| format!("{i:?}")).collect();
        assert_eq!(
            inputs,
            [
                "Nothing",
                "Weighted(1.25, 4.0)",
                "Int(4)",
                "Nothing",
                "Weighted(2.0, 2.0)",
                "Int(2)"
            ]
        );
        // The xz entry (ratio 0) is reported as the generic path reports it.
        let drops: Vec<String> = out
            .drops
            .iter()
            .map(|((_, p, why), d)| format!("{p} {why} {} {:?}", d.count, d.at))
            .collect();
        assert_eq!(drops, [r#"m.ratio 0 1 ["results.jsonl:1"]"#]);
    }

    #[test]
    #[should_panic(expected = "line 1 left the fast path")]
    fn a_string_where_a_number_is_compared_leaves_it() {
        batch(r#"{"_kind": "bench_7B", "input_bytes": 4, "methods": {"zstd": {"ratio": "1.25"}}}"#);
    }
}

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

mod compile;
mod eval;
mod filter;
mod inputs;
mod out;
mod pred;
mod shared;

pub use out::{Item, Missed, Out, Stored};
pub use shared::Shared;

use std::sync::Arc;

use rustc_hash::FxHashMap;

use crate::error::Result;
use crate::plan::aggregate::Op;
use crate::sources::tape::{Cell, Fields, Tape};
use crate::value::{Origin, PartRef, PartsRef, Record, Row, Value};
use eval::{FNode, Fallback, attr};
use pred::Pred;

/// Whether the fast path is on: it is, unless `ARTIFACT_GENERIC_ONLY` is set
/// (for tests that compare both paths, and to rule it out when in doubt).
pub fn enabled() -> bool {
    std::env::var_os("ARTIFACT_GENERIC_ONLY").is_none()
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

#[derive(Debug)]
enum FStep {
    Filter(filter::Filter),
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
    field: Option<FNode>,
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
                FStep::Filter(f) => {
                    if f.e.test(tape, slots)? {
                        continue;
                    }
                    // As the generic path: say so when a field the
                    // dropping term read was null or 0.
                    st.drops.extend(f.dropped(tape, slots)?);
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
            Some(fields) => self.emit(fields, slots, base, at, st, out),
            None => self.group(slots, at, st, out),
        }
    }

    /// Builds the row that comes out of the steps (a plan without a group
    /// step), with the fields it keeps, unless its lookup would drop it.
    #[inline]
    fn emit<'a>(
        &'a self,
        fields: &[(Arc<str>, usize, bool)],
        slots: &[Cell<'a>],
        base: &[Cell<'a>],
        at: &Line<'a, '_>,
        st: &mut State<'a>,
        out: &mut Out,
    ) -> std::result::Result<(), Fallback> {
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
                Cell::Float(x) => match crate::value::integral(x) {
                    Some(i) => Part::Int(i),
                    None => Part::Float(x.to_bits()),
                },
                Cell::Str(s) => Part::Str(s),
            });
        }
        // Each arm pushes its own variant: a variant chosen first and pushed
        // after was built on the stack and reloaded by a wider load than
        // its stores (a store-forwarding stall at every input).
        for a in &self.aggs {
            a.push_input(tape, slots, &mut out.inputs)?;
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
    drops: Vec<(&'a str, &'a str, &'a str, &'static str)>,
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
mod tests;

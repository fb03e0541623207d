//! Steps run on a stream in file order, one row at a time, remembering only
//! what they must: `unique` (a set of the keys seen, 24 bytes per key, not
//! the rows), `lookup` (the small table it reads, held; the stream is not),
//! `limit` and `row_number` (a count per group), and the row-wise steps
//! after them. Each gives the rows, errors and notes that applying it to
//! the whole table gives ([`super::apply::apply`], the definition).

use std::hash::Hash;
use std::sync::Arc;

use rustc_hash::FxHashMap;
use siphasher::sip128::{Hasher128, SipHasher13};

use super::Table;
use super::apply::{DropLog, apply_row, require_row_fields, row_key};
use super::steps::{Step, Unmatched};
use crate::error::{Error, Result};
use crate::expr::Globals;
use crate::value::{Key, KeyRef, Origin, Row, Value};

/// Whether `step` can run on a stream, row by row in file order, with
/// memory bounded by what it must remember (see the module docs).
pub fn streams(step: &Step) -> bool {
    match step {
        Step::Unique { keep, .. } => keep != "last",
        Step::Lookup { .. } | Step::Limit { .. } | Step::RowNumber { .. } => true,
        s => s.is_row_wise(),
    }
}

/// Where a remembered key's first row was: a file and line, packed in one
/// word (file index in the high 16 bits), or an index into `others`.
#[derive(Default)]
struct Places {
    files: Vec<Arc<str>>,
    others: Vec<Origin>,
}

const OTHER: u64 = 1 << 63;

impl Places {
    fn pack(&mut self, o: &Origin) -> u64 {
        let file = match self
            .files
            .iter()
            .rposition(|f| Arc::ptr_eq(f, &o.path) || **f == *o.path)
        {
            Some(i) => i,
            None => {
                self.files.push(o.path.clone());
                self.files.len() - 1
            }
        };
        if o.record.is_none() && o.meta.is_none() && file < 1 << 15 && o.line < 1 << 48 {
            return ((file as u64) << 48) | o.line;
        }
        self.others.push(o.clone());
        OTHER | (self.others.len() - 1) as u64
    }

    fn unpack(&self, p: u64) -> Origin {
        if p & OTHER != 0 {
            return self.others[(p & !OTHER) as usize].clone();
        }
        Origin::line(self.files[(p >> 48) as usize].clone(), p & ((1 << 48) - 1))
    }
}

/// The 128-bit SipHash of a key: two distinct keys share one with
/// probability about 2⁻¹²⁸ per pair (10⁻²¹ over 10⁹ keys), so the set
/// holds hashes, not the keys' texts.
fn key_hash(k: &KeyRef) -> u128 {
    let mut h = SipHasher13::new_with_keys(0x6172_7469_6661_6374, 0x756e_6971_7565_2121);
    k.hash(&mut h);
    h.finish128().as_u128()
}

/// The cells of `fields` in `row` (missing ones undefined), into `out`:
/// a key looked up without building it ([`KeyRef`]).
fn cells(row: &Row, fields: &[String], out: &mut Vec<Value>) {
    out.clear();
    out.extend(
        fields
            .iter()
            .map(|f| row.get(f).cloned().unwrap_or(Value::UNDEFINED)),
    );
}

/// One step of the serial stage and what it remembers.
enum Serial<'a, 's> {
    /// filter, require, derive, explode.
    Row(&'a Step<'s>),
    /// `unique` with `keep = "first"` or `"error"`.
    Unique {
        keys: &'a [String],
        first: bool,
        seen: FxHashMap<u128, u64>,
        places: Places,
        replaced: usize,
        vals: Vec<Value>,
    },
    /// `lookup` against a built table.
    Lookup {
        step: &'a Step<'s>,
        other: Arc<Table>,
        index: indexmap::IndexMap<Key, usize, rustc_hash::FxBuildHasher>,
        missed: usize,
        shown: Vec<String>,
        vals: Vec<Value>,
    },
    /// `limit` (per group).
    Limit {
        n: usize,
        per: &'a [String],
        counts: FxHashMap<Key, usize>,
    },
    /// `row_number` (per group).
    RowNumber {
        as_: &'a str,
        per: &'a [String],
        counts: FxHashMap<Key, i64>,
    },
}

impl<'a, 's> Serial<'a, 's> {
    /// The state for `step` (one that [`streams`]); `table` gives a
    /// lookup's table, built already.
    pub fn new(step: &'a Step<'s>, table: &dyn Fn(&str) -> Result<Arc<Table>>) -> Result<Self> {
        Ok(match step {
            Step::Unique { keys, keep } => Serial::Unique {
                keys,
                first: keep == "first",
                seen: FxHashMap::default(),
                places: Places::default(),
                replaced: 0,
                vals: Vec::new(),
            },
            Step::Lookup {
                table: name, right, ..
            } => {
                let other = table(name)?;
                let mut index = indexmap::IndexMap::default();
                index.reserve(other.rows.len());
                for (i, r) in other.rows.iter().enumerate() {
                    require_row_fields(r, right, "lookup")?;
                    if let Some(prev) = index.insert(row_key(r, right), i) {
                        return Err(Error::msg(format!(
                            "lookup: `{name}` has key ({}) twice: {} and {}; a lookup needs one row per key (add a `unique` step to choose)",
                            row_key(r, right),
                            other.rows[prev].origin,
                            r.origin
                        )));
                    }
                }
                Serial::Lookup {
                    step,
                    other,
                    index,
                    missed: 0,
                    shown: Vec::new(),
                    vals: Vec::new(),
                }
            }
            Step::Limit { n, per } => Serial::Limit {
                n: *n,
                per,
                counts: FxHashMap::default(),
            },
            Step::RowNumber { as_, per } => Serial::RowNumber {
                as_,
                per,
                counts: FxHashMap::default(),
            },
            step => Serial::Row(step),
        })
    }

    /// Runs `row` through this step, pushing what comes out to `out`.
    pub fn push(
        &mut self,
        row: Row,
        g: &Arc<Globals>,
        drops: &mut DropLog,
        out: &mut Vec<Row>,
    ) -> Result<()> {
        match self {
            Serial::Row(step) => apply_row(step, row, g, drops, out),
            Serial::Unique {
                keys,
                first,
                seen,
                places,
                replaced,
                vals,
            } => {
                require_row_fields(&row, keys, "unique")?;
                cells(&row, keys, vals);
                match seen.entry(key_hash(&KeyRef(vals))) {
                    std::collections::hash_map::Entry::Vacant(v) => {
                        v.insert(places.pack(&row.origin));
                        out.push(row);
                    }
                    std::collections::hash_map::Entry::Occupied(_) if *first => *replaced += 1,
                    std::collections::hash_map::Entry::Occupied(o) => {
                        return Err(super::apply::repeated_key(
                            &row,
                            keys,
                            &Key::of(vals),
                            &places.unpack(*o.get()),
                        ));
                    }
                }
                Ok(())
            }
            Serial::Lookup {
                step,
                other,
                index,
                missed,
                shown,
                vals,
            } => {
                let Step::Lookup {
                    table,
                    on,
                    as_,
                    fields,
                    unmatched,
                    ..
                } = step
                else {
                    unreachable!("a lookup's state")
                };
                require_row_fields(&row, on, "lookup")?;
                cells(&row, on, vals);
                let found = index.get(&KeyRef(vals)).map(|&i| &other.rows[i]);
                if found.is_none() {
                    if *unmatched == Unmatched::Error {
                        return Err(super::apply::no_match(&row, &Key::of(vals), table));
                    }
                    *missed += 1;
                    if shown.len() < super::apply::MISSED_SHOWN {
                        shown.push(format!("({}) at {}", Key::of(vals), row.origin));
                    }
                    if *unmatched == Unmatched::Drop {
                        return Ok(());
                    }
                }
                out.push(super::apply::joined(
                    row,
                    found,
                    as_.as_deref(),
                    fields.as_deref(),
                ));
                Ok(())
            }
            Serial::Limit { n, per, counts } => {
                let c = counts.entry(row_key(&row, per)).or_default();
                if *c < *n {
                    *c += 1;
                    out.push(row);
                }
                Ok(())
            }
            Serial::RowNumber { as_, per, counts } => {
                let c = counts.entry(row_key(&row, per)).or_default();
                out.push(row.with(as_, Value::from(*c)));
                *c += 1;
                Ok(())
            }
        }
    }

    /// The step's notes, once the stream has ended (as applying it to the
    /// whole table gives them).
    pub fn finish(self, notes: &mut Vec<String>) {
        match self {
            Serial::Unique {
                replaced, first, ..
            } if replaced > 0 => {
                let keep = if first { "first" } else { "error" };
                notes.push(format!(
                    "unique: {replaced} repeated row(s) dropped (keep = {keep})"
                ));
            }
            Serial::Lookup {
                step,
                missed,
                shown,
                ..
            } if missed > 0 => {
                if let Step::Lookup {
                    table,
                    on,
                    unmatched,
                    ..
                } = step
                {
                    notes.push(super::apply::missed_note(
                        missed, &shown, table, on, *unmatched,
                    ));
                }
            }
            _ => {}
        }
    }
}

/// A stream's serial stage: the steps from the first that is not row-wise
/// and parallel, up to the step that holds rows (if any).
pub struct Stage<'a, 's> {
    steps: Vec<Serial<'a, 's>>,
    drops: DropLog,
    /// One buffer per step for what it gives (kept: no allocation per row).
    bufs: Vec<Vec<Row>>,
}

impl<'a, 's> Stage<'a, 's> {
    /// The stage of `steps` (each one that [`streams`]).
    pub fn new(steps: &'a [Step<'s>], table: &dyn Fn(&str) -> Result<Arc<Table>>) -> Result<Self> {
        Ok(Stage {
            steps: steps
                .iter()
                .map(|s| Serial::new(s, table))
                .collect::<Result<_>>()?,
            drops: DropLog::new(),
            bufs: steps.iter().map(|_| Vec::new()).collect(),
        })
    }

    /// Whether the stage has no steps (rows pass as they are).
    pub fn is_empty(&self) -> bool {
        self.steps.is_empty()
    }

    /// Runs `row` through every step (depth first, as the parallel stage
    /// does), pushing what comes out to `out`; an error names the step
    /// by its index in the stage.
    pub fn push(
        &mut self,
        row: Row,
        g: &Arc<Globals>,
        out: &mut Vec<Row>,
    ) -> std::result::Result<(), (usize, Error)> {
        fn go(
            steps: &mut [Serial],
            bufs: &mut [Vec<Row>],
            i: usize,
            row: Row,
            g: &Arc<Globals>,
            drops: &mut DropLog,
            out: &mut Vec<Row>,
        ) -> std::result::Result<(), (usize, Error)> {
            let (Some((step, rest)), Some((next, later))) =
                (steps.split_first_mut(), bufs.split_first_mut())
            else {
                out.push(row);
                return Ok(());
            };
            next.clear();
            step.push(row, g, drops, next).map_err(|e| (i, e))?;
            // (An explode gives several rows; each goes on before the next.)
            let mut given = std::mem::take(next);
            for r in given.drain(..) {
                go(rest, later, i + 1, r, g, drops, out)?;
            }
            *next = given;
            Ok(())
        }
        go(
            &mut self.steps,
            &mut self.bufs,
            0,
            row,
            g,
            &mut self.drops,
            out,
        )
    }

    /// The notes of every step, in step order, then the filters' drops.
    pub fn finish(mut self, notes: &mut Vec<String>) {
        for s in self.steps {
            s.finish(notes);
        }
        super::apply::flush_drops(&mut self.drops, notes);
    }
}

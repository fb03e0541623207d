//! What the fast path gives for a batch of lines: items in file order,
//! their aggregate inputs and keys, and the keys of rows a lookup drops.

use std::sync::Arc;

use super::super::aggregate::Input;
use super::super::apply::{DropLog, note_drop};
use super::eval::Fallback;
use crate::value::{Key, PartRef, PartsRef, Row, Value};

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
    #[inline]
    pub(super) fn mark(&self) -> Mark {
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
    #[inline]
    pub(super) fn settle(
        &mut self,
        run: Result<(), Fallback>,
        mark: Mark,
        drops: &mut Vec<(&str, &str, &str, &'static str)>,
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
pub(super) struct Mark(usize, usize, usize, usize, usize);

//! Steps run on a stream in file order, one row at a time, remembering only
//! what they must: `unique` (a set of the keys seen, about 20 bytes a key, not
//! the rows), `lookup` (the small table it reads, held; the stream is not),
//! `limit` and `row_number` (a count per group), and the row-wise steps
//! after them. Each gives the rows, errors and notes that applying it to
//! the whole table gives ([`super::apply::apply`], the definition).

use std::sync::Arc;

use rustc_hash::FxHashMap;
use siphasher::sip128::{Hasher128, SipHasher13};

use super::Table;
use super::apply::{DropLog, apply_row, require_row_fields, row_key};
use crate::error::{Error, Result};
use crate::expr::Globals;
use crate::plan::steps::{Step, Unmatched};
use crate::value::{Key, KeyRef, Origin, Row, Value};

/// Where each remembered key's first row was, by the key's ordinal (the
/// order keys were first seen): its line (4 bytes a key), the file it is
/// in found from where each file's keys start (rows come in file order),
/// and any other origin (a record of a document, a line past 2³² − 2)
/// kept whole.
#[derive(Default)]
struct Places {
    lines: Vec<u32>,
    /// (first ordinal of the file's keys, the file)
    files: Vec<(u32, Arc<str>)>,
    others: FxHashMap<u32, Origin>,
}

impl Places {
    /// Remembers `o` as the place of key `ordinal` (the next one).
    fn push(&mut self, ordinal: u32, o: &Origin) {
        if self
            .files
            .last()
            .is_none_or(|(_, f)| !Arc::ptr_eq(f, &o.path) && **f != *o.path)
        {
            self.files.push((ordinal, o.path.clone()));
        }
        match u32::try_from(o.line) {
            Ok(line) if line != u32::MAX && o.record.is_none() && o.meta.is_none() => {
                self.lines.push(line)
            }
            _ => {
                self.lines.push(u32::MAX);
                self.others.insert(ordinal, o.clone());
            }
        }
    }

    fn get(&self, ordinal: u32) -> Origin {
        if let Some(o) = self.others.get(&ordinal) {
            return o.clone();
        }
        let at = self.files.partition_point(|(first, _)| *first <= ordinal);
        let file = self.files[at.saturating_sub(1)].1.clone();
        Origin::line(file, self.lines[ordinal as usize] as u64)
    }
}

/// 96 bits of the 128-bit SipHash of a key, as the set of keys a `unique`
/// has seen holds it (16 bytes a key with its ordinal, not the key's
/// text): two distinct keys share one with probability 2⁻⁹⁶ per pair
/// (6 × 10⁻¹⁴ over 10⁸ keys).
/// `k` is a [`KeyRef`] or a [`crate::value::PartsRef`] (they hash alike).
pub fn key_hash(k: &impl std::hash::Hash) -> [u32; 3] {
    let mut h = SipHasher13::new_with_keys(0x6172_7469_6661_6374, 0x756e_6971_7565_2121);
    k.hash(&mut h);
    let x = h.finish128().as_u128();
    [x as u32, (x >> 32) as u32, (x >> 64) as u32]
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

/// A lookup's index of the table it reads: key -> row. Shared with the
/// fast path ([`Probe`]).
pub type LookupIndex = indexmap::IndexMap<Key, usize, rustc_hash::FxBuildHasher>;

/// What the fast path checks of a line before building its row, when the
/// serial stage starts with a lookup that drops what it does not match
/// (after a `unique` on the same key, or alone): a key the index lacks
/// means the row would be remembered by the `unique` and dropped by the
/// lookup, so only the key is sent ([`Stage::missed`]), not a row. Most
/// rows of a big log joined to a small table take this way.
#[derive(Debug, Clone)]
pub struct Probe {
    /// The key fields (the lookup's `on`, the `unique`'s keys).
    pub on: Vec<String>,
    /// Whether a `unique` on `on` comes first.
    pub unique: bool,
    /// The lookup's index.
    pub index: Arc<LookupIndex>,
}

/// What a `unique` remembers: the keys seen (by [`key_hash`], with the
/// order each was first seen in) and where each was first seen.
#[derive(Default)]
struct KeySet {
    seen: super::seen::Seen,
    places: Places,
    /// Repeats dropped (keep = "first").
    replaced: usize,
}

impl KeySet {
    /// Whether the row with key `hash` (the key made by `key` when an
    /// error names it; fields `keys`) at `at` is kept: a new key is
    /// remembered; a repeat is dropped (and counted) with `first`, else it
    /// is the error naming both places.
    fn keep(
        &mut self,
        hash: [u32; 3],
        key: &dyn Fn() -> Key,
        at: &Origin,
        keys: &[String],
        first: bool,
    ) -> Result<bool> {
        match self.seen.insert(hash) {
            Some((ordinal, true)) => {
                self.places.push(ordinal, at);
                Ok(true)
            }
            Some(_) if first => {
                self.replaced += 1;
                Ok(false)
            }
            Some((ordinal, _)) => Err(super::apply::repeated_key(
                at,
                keys,
                &key(),
                &self.places.get(ordinal),
            )),
            None => Err(Error::msg(format!(
                "{at}: `unique` on {}: cannot remember more keys (at most 2^32 - 2, and no nine whose hashes share 80 bits)",
                keys.join(", ")
            ))),
        }
    }
}

/// Counts a row a lookup found no match for (its key made by `key`, at
/// `at`), naming the first few.
fn note_miss(missed: &mut usize, shown: &mut Vec<String>, key: &dyn Fn() -> Key, at: &Origin) {
    *missed += 1;
    if shown.len() < super::apply::MISSED_SHOWN {
        shown.push(format!("({}) at {}", key(), at));
    }
}

/// One step of the serial stage and what it remembers.
enum Serial<'a, 's> {
    /// filter, require, derive, explode.
    Row(&'a Step<'s>),
    /// `unique` with `keep = "first"` or `"error"`.
    Unique {
        keys: &'a [String],
        first: bool,
        set: KeySet,
        vals: Vec<Value>,
    },
    /// `lookup` against a built table.
    Lookup {
        step: &'a Step<'s>,
        other: Arc<Table>,
        index: Arc<LookupIndex>,
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
                set: KeySet::default(),
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
                    index: Arc::new(index),
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
                set,
                vals,
            } => {
                require_row_fields(&row, keys, "unique")?;
                cells(&row, keys, vals);
                let hash = key_hash(&KeyRef(vals));
                if set.keep(hash, &|| Key::of(vals), &row.origin, keys, *first)? {
                    out.push(row);
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
                    note_miss(missed, shown, &|| Key::of(vals), &row.origin);
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
                set: KeySet { replaced, .. },
                first,
                ..
            } if replaced > 0 => {
                let keep = if first { "first" } else { "error" };
                notes.push(format!(
                    "unique: {replaced} repeated row(s) dropped (keep = {keep})"
                ));
            }
            Serial::Lookup {
                step:
                    Step::Lookup {
                        table,
                        on,
                        unmatched,
                        ..
                    },
                missed,
                shown,
                ..
            } if missed > 0 => {
                notes.push(super::apply::missed_note(
                    missed, &shown, table, on, *unmatched,
                ));
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
    /// The stage of `steps` (each one that [`streams`]); an error (a
    /// lookup's table with a key twice) names the step by its index.
    pub fn new(
        steps: &'a [Step<'s>],
        table: &dyn Fn(&str) -> Result<Arc<Table>>,
    ) -> std::result::Result<Self, (usize, Error)> {
        Ok(Stage {
            steps: steps
                .iter()
                .enumerate()
                .map(|(i, s)| Serial::new(s, table).map_err(|e| (i, e)))
                .collect::<std::result::Result<_, _>>()?,
            drops: DropLog::new(),
            bufs: steps.iter().map(|_| Vec::new()).collect(),
        })
    }

    /// Whether the stage has no steps (rows pass as they are).
    pub fn is_empty(&self) -> bool {
        self.steps.is_empty()
    }

    /// What the fast path may check before building a row (see [`Probe`]).
    pub fn probe(&self) -> Option<Probe> {
        fn lookup<'x>(s: &'x Serial) -> Option<(&'x Vec<String>, &'x Arc<LookupIndex>)> {
            match s {
                Serial::Lookup {
                    step:
                        Step::Lookup {
                            on,
                            unmatched: Unmatched::Drop,
                            ..
                        },
                    index,
                    ..
                } => Some((on, index)),
                _ => None,
            }
        }
        match self.steps.as_slice() {
            [Serial::Unique { keys, .. }, second, ..] => {
                let (on, index) = lookup(second)?;
                (*keys == on.as_slice()).then(|| Probe {
                    on: on.clone(),
                    unique: true,
                    index: index.clone(),
                })
            }
            [first, ..] => {
                let (on, index) = lookup(first)?;
                Some(Probe {
                    on: on.clone(),
                    unique: false,
                    index: index.clone(),
                })
            }
            [] => None,
        }
    }

    /// Fetches ahead the place of a key that [`Stage::missed`] will be
    /// given (by its [`key_hash`]) in the first `unique`'s set.
    #[inline]
    pub fn prefetch(&self, hash: &[u32; 3]) {
        if let Some(Serial::Unique { set, .. }) = self.steps.first() {
            set.seen.prefetch(hash);
        }
    }

    /// A row whose key (for the stage's [`Probe`]; made by `key` only when
    /// a message names it) the lookup's index lacks, at `at`: what pushing
    /// the row gives, without the row.
    /// The `unique` first (given the key's [`key_hash`]) remembers the key
    /// or finds it again; a row it keeps counts as one the lookup missed.
    pub fn missed(
        &mut self,
        hash: [u32; 3],
        key: &dyn Fn() -> Key,
        at: &Origin,
    ) -> std::result::Result<(), (usize, Error)> {
        let mut i = 0;
        if let Some(Serial::Unique {
            keys, first, set, ..
        }) = self.steps.first_mut()
        {
            if !set.keep(hash, key, at, keys, *first).map_err(|e| (0, e))? {
                return Ok(());
            }
            i = 1;
        }
        match self.steps.get_mut(i) {
            Some(Serial::Lookup { missed, shown, .. }) => {
                note_miss(missed, shown, key, at);
                Ok(())
            }
            _ => Err((i, Error::msg("internal: a missed key without a lookup"))),
        }
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A `unique` key first seen in one file and repeated in the next names
    /// the first file's line (the places are packed per key: 4 bytes and
    /// where each file's keys start).
    #[test]
    fn a_key_repeated_in_a_later_file_names_the_first_files_line() {
        let mut p = Places::default();
        let a: Arc<str> = Arc::from("a.jsonl");
        let b: Arc<str> = Arc::from("b.jsonl");
        p.push(0, &Origin::line(a.clone(), 3));
        p.push(1, &Origin::line(a.clone(), 9));
        p.push(2, &Origin::line(b.clone(), 1));
        p.push(3, &Origin::line(b.clone(), u32::MAX as u64 + 5));
        p.push(4, &Origin::line(a.clone(), 2));
        let shown: Vec<String> = (0..5).map(|i| p.get(i).to_string()).collect();
        assert_eq!(
            shown,
            [
                "a.jsonl:3",
                "a.jsonl:9",
                "b.jsonl:1",
                "b.jsonl:4294967300",
                "a.jsonl:2"
            ]
        );
    }
}

//! A fast reader for one JSONL line: it validates the whole line and builds
//! only the projected fields, as typed cells borrowed from the line (no
//! allocation per line; the buffers are reused).
//!
//! It is an accelerator, not a second definition of JSON: whenever a line
//! holds anything it does not read exactly as [`super::json`] does (an
//! escape in a key or a kept string, a `NaN` token, an integer outside
//! `i64` (skipped: of 39 digits or more, which may be wider than `i128`),
//! `-0`, a syntax error, a repeated key, invalid UTF-8, deep nesting)
//! it answers `None`, and the caller parses that line with the full parser,
//! which gives the same value or the canonical error. The differential test
//! below checks that both agree wherever this reader answers.
//!
//! It validates what it skips as well (strings' UTF-8, syntax, repeated
//! keys in skipped objects; a key with an escape there, or nesting past
//! 100, is left to the full parser): a line it reads is a line every other
//! path reads too. Repeats are found with a 64-bit filter, and a hash set
//! past 32 keys of one object (linear time for a million keys).

mod bytes;
mod keys;
#[cfg(test)]
mod line_tests;
mod scanner;
mod shape;
#[cfg(test)]
mod string_tests;
#[cfg(test)]
mod tests;

use keys::Keys;
use scanner::{Level, Scanner};
use shape::Shape;

/// A cell read from a line: scalars by value, strings borrowed, maps and
/// lists as ranges of [`Tape::entries`].
// A word-sized tag keeps every payload word-aligned: cells are copied as
// whole words (a packed layout made each copy a store-forwarding stall).
#[derive(Debug, Clone, Copy, PartialEq)]
#[repr(u64)]
pub enum Cell<'a> {
    /// A missing field.
    Undef,
    /// `null`.
    Null,
    /// `true` / `false`.
    Bool(bool),
    /// An integer that fits `i64`.
    Int(i64),
    /// A finite float (a number with a fraction or an exponent).
    Float(f64),
    /// A string without escapes.
    Str(&'a str),
    /// An object: its entries are `entries[start..end]`, in the line's order.
    Map(u32, u32),
    /// An array: its items are `entries[start..end]` (with empty keys).
    List(u32, u32),
}

/// How a projected top-level field is read.
#[derive(Debug, Clone, PartialEq)]
pub enum Keep {
    /// The whole value.
    Whole,
    /// A map whose entries that are maps keep only these keys (a map of
    /// maps exploded and read as `m.ratio`); anything else whole. Each key
    /// comes with its id in [`Fields::attrs`].
    Entries(Vec<(String, u32)>),
}

/// The id of an entry whose key is not in [`Fields::attrs`].
pub const NO_ID: u32 = u32::MAX;

/// One entry of a map (or item of a list, with an empty key).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Entry<'a> {
    /// The key as written.
    pub key: &'a str,
    /// The key's id in [`Fields::attrs`], or [`NO_ID`]: comparing ids is
    /// cheaper than comparing strings, for the keys read on every entry.
    pub id: u32,
    /// The value.
    pub cell: Cell<'a>,
}

/// The fields a line is read for, in slot order.
#[derive(Debug, Clone, Default)]
pub struct Fields {
    /// Name and how it is kept; the index is the slot it is written to.
    pub fields: Vec<(String, Keep)>,
    /// The keys kept in entries (ids index this).
    pub attrs: Vec<String>,
    /// Bit `i` of `by_len[n]`: field `i` has `n` bytes (names of 64 bytes
    /// or more, and fields past 64, are in `by_len[0]`): most keys of a
    /// line are passed over without a comparison.
    by_len: Vec<u64>,
    /// Past 64 fields (a table whose rows keep many fields): the slot of
    /// each name, one hash per key instead of the bit masks.
    many: Option<rustc_hash::FxHashMap<String, usize>>,
}

impl Fields {
    /// Fields read whole or by entries, and the entry keys kept.
    pub fn new(fields: Vec<(String, Keep)>, attrs: Vec<String>) -> Fields {
        let mut by_len = vec![0u64; 64];
        for (i, (name, _)) in fields.iter().enumerate() {
            match (name.len() < 64 && i < 64, i < 64) {
                (true, _) => by_len[name.len()] |= 1 << i,
                (false, true) => by_len[0] |= 1 << i,
                _ => by_len[0] = u64::MAX,
            }
        }
        let many = (fields.len() > 64).then(|| {
            fields
                .iter()
                .enumerate()
                .map(|(i, (name, _))| (name.clone(), i))
                .collect()
        });
        Fields {
            fields,
            attrs,
            by_len,
            many,
        }
    }

    /// The slot of the field named `key`.
    #[inline]
    fn slot(&self, key: &str) -> Option<usize> {
        if let Some(many) = &self.many {
            return many.get(key).copied();
        }
        let mut mask = self.by_len.get(key.len()).copied().unwrap_or(0) | self.by_len[0];
        while mask != 0 {
            let i = mask.trailing_zeros() as usize;
            if let Some((name, _)) = self.fields.get(i)
                && name == key
            {
                return Some(i);
            }
            mask &= mask - 1;
        }
        None
    }

    /// The id of an entry key, if it is one of [`Fields::attrs`].
    pub fn attr_id(&self, name: &str) -> Option<u32> {
        self.attrs.iter().position(|a| a == name).map(|i| i as u32)
    }
}

/// Reused buffers: the cells of the last line read.
#[derive(Debug, Default)]
pub struct Tape<'a> {
    /// Entries of every map and list read (children before parents).
    pub entries: Vec<Entry<'a>>,
    stack: Vec<Entry<'a>>,
    seen: Vec<&'a str>,
    /// The keys of the kept map being read (for the repeat check).
    inner: Vec<&'a str>,
    /// The keys of the skipped objects being read (for the repeat check).
    skipped: Vec<&'a str>,
    /// The keys of the last line, with their slots.
    line_shape: Shape,
    /// The keys of the last kept map, with their ids.
    map_shape: Shape,
}

/// serde_json refuses nesting deeper than 128; leave such lines to it.
const MAX_DEPTH: usize = 100;

impl<'a> Tape<'a> {
    /// Reads `line` (a JSON object) into `slots` (one per field of
    /// `fields`; absent fields are [`Cell::Undef`]). `None` when the line
    /// must be left to the full parser.
    pub fn read(&mut self, line: &'a [u8], fields: &Fields, slots: &mut [Cell<'a>]) -> Option<()> {
        (self.object(line, false, fields, slots)? == line.len()).then_some(())
    }

    /// Reads the line that starts `rest` (a batch's bytes from the start of
    /// a line, which holds no BOM) as [`Tape::read`] reads it, and finds
    /// its end on the way: no search for the line's newline before the
    /// read. Returns the index of that newline (or `rest.len()`: the last
    /// line); the line is `rest[..end]`, a final `\r` included. `None`
    /// when the line must be left to the full parser (its end not found).
    pub fn read_line(
        &mut self,
        rest: &'a [u8],
        fields: &Fields,
        slots: &mut [Cell<'a>],
    ) -> Option<usize> {
        let end = self.object(rest, true, fields, slots)?;
        (end == rest.len() || rest[end] == b'\n').then_some(end)
    }

    /// Reads the object at the start of `b` (after blanks) into `slots`;
    /// where it ends, blanks after it skipped. `lines`: see
    /// [`Scanner::lines`].
    fn object(
        &mut self,
        b: &'a [u8],
        lines: bool,
        fields: &Fields,
        slots: &mut [Cell<'a>],
    ) -> Option<usize> {
        self.entries.clear();
        self.stack.clear();
        self.seen.clear();
        self.skipped.clear();
        for s in slots.iter_mut() {
            *s = Cell::Undef;
        }
        // No UTF-8 check of the whole line: outside strings any byte above
        // 0x7F is a syntax error anyway, and strings check their own.
        let mut sc = Scanner {
            b,
            i: 0,
            tape: self,
            lines,
        };
        sc.tape.line_shape.own(fields as *const Fields as usize);
        sc.ws();
        if !sc.open(b'{', b'}')? {
            let mut run = Keys::default();
            loop {
                let (_, slot) = sc.key(Level::Line, &mut run, |key| {
                    fields.slot(key).map_or(NO_ID, |k| k as u32)
                })?;
                sc.ws();
                match slot {
                    NO_ID => sc.skip(0)?,
                    k => {
                        let k = k as usize;
                        // A scalar read here, in registers, not returned
                        // through memory by `value` (see `Number`).
                        slots[k] = match (&fields.fields[k].1, sc.peek()?) {
                            (Keep::Whole, b'{' | b'[') => sc.value(0, None, false)?,
                            (Keep::Whole, _) => sc.scalar()?,
                            (Keep::Entries(keys), _) => sc.value(0, Some(keys), true)?,
                        }
                    }
                }
                if sc.next(b'}')? {
                    break;
                }
            }
        }
        sc.ws();
        Some(sc.i)
    }
}

impl<'a> Tape<'a> {
    /// The entries of a map or list cell.
    pub fn items(&self, cell: Cell<'a>) -> &[Entry<'a>] {
        match cell {
            Cell::Map(s, e) | Cell::List(s, e) => &self.entries[s as usize..e as usize],
            _ => &[],
        }
    }

    /// The cell as a value of the full parser's kind (for the differential
    /// test, and to hand group keys over to the generic machinery).
    pub fn to_value(&self, cell: Cell<'a>) -> crate::value::Value {
        use crate::value::{Record, Value};
        match cell {
            Cell::Undef => Value::UNDEFINED,
            Cell::Null => Value::from(()),
            Cell::Bool(b) => Value::from(b),
            Cell::Int(i) if i >= 0 => Value::from(i as u64),
            Cell::Int(i) => Value::from(i),
            Cell::Float(x) => Value::from(x),
            Cell::Str(s) => Value::from(s),
            Cell::Map(..) => {
                let items = self.items(cell);
                let mut rec = Record::with_capacity(items.len());
                for e in items {
                    rec.insert(e.key, self.to_value(e.cell));
                }
                rec.into_value()
            }
            Cell::List(..) => Value::from(
                self.items(cell)
                    .iter()
                    .map(|e| self.to_value(e.cell))
                    .collect::<Vec<_>>(),
            ),
        }
    }
}

//! A fast reader for one JSONL line: it validates the whole line and builds
//! only the projected fields, as typed cells borrowed from the line (no
//! allocation per line; the buffers are reused).
//!
//! It is an accelerator, not a second definition of JSON: whenever a line
//! holds anything it does not read exactly as [`super::json`] does (an
//! escape in a key or a kept string, a `NaN` token, an integer outside
//! `i64`, `-0`, a syntax error, a repeated key, invalid UTF-8, deep nesting)
//! it answers `None`, and the caller parses that line with the full parser,
//! which gives the same value or the canonical error. The differential test
//! below checks that both agree wherever this reader answers.

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
        Fields {
            fields,
            attrs,
            by_len,
        }
    }

    /// The slot of the field named `key`.
    #[inline]
    fn slot(&self, key: &str) -> Option<usize> {
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
        if self.by_len[0] == u64::MAX {
            return self.fields.iter().position(|(name, _)| name == key);
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
}

/// serde_json refuses nesting deeper than 128; leave such lines to it.
const MAX_DEPTH: usize = 100;

struct Scanner<'a, 't> {
    text: &'a str,
    b: &'a [u8],
    i: usize,
    tape: &'t mut Tape<'a>,
}

impl<'a> Tape<'a> {
    /// Reads `line` (a JSON object) into `slots` (one per field of
    /// `fields`; absent fields are [`Cell::Undef`]). `None` when the line
    /// must be left to the full parser.
    pub fn read(&mut self, line: &'a [u8], fields: &Fields, slots: &mut [Cell<'a>]) -> Option<()> {
        let text = std::str::from_utf8(line).ok()?;
        self.entries.clear();
        self.stack.clear();
        self.seen.clear();
        for s in slots.iter_mut() {
            *s = Cell::Undef;
        }
        let mut sc = Scanner {
            text,
            b: line,
            i: 0,
            tape: self,
        };
        let mut seen_bits = 0u64;
        sc.ws();
        if !sc.open(b'{', b'}')? {
            loop {
                let key = sc.string()?;
                // A repeated key: most keys are told apart by a 64-bit
                // filter on length and end bytes, without comparing.
                let bit = key_bit(key);
                if seen_bits & bit != 0 && sc.tape.seen.contains(&key) {
                    return None;
                }
                seen_bits |= bit;
                sc.tape.seen.push(key);
                sc.ws();
                sc.eat(b':')?;
                sc.ws();
                let at = fields.slot(key);
                match at {
                    None => sc.skip(0)?,
                    Some(k) => {
                        slots[k] = match &fields.fields[k].1 {
                            Keep::Whole => sc.value(0, None, false)?,
                            Keep::Entries(keys) => sc.value(0, Some(keys), true)?,
                        }
                    }
                }
                if sc.next(b'}')? {
                    break;
                }
            }
        }
        sc.ws();
        (sc.i == sc.b.len()).then_some(())
    }
}

impl<'a> Scanner<'a, '_> {
    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }

    fn eat(&mut self, c: u8) -> Option<()> {
        (self.peek()? == c).then(|| self.i += 1)
    }

    /// At a container's `open` byte: consumes it and the blanks after it;
    /// whether the container is empty (its `close` consumed too).
    #[inline(always)]
    fn open(&mut self, open: u8, close: u8) -> Option<bool> {
        self.eat(open)?;
        self.ws();
        if self.peek()? == close {
            self.i += 1;
            return Some(true);
        }
        Some(false)
    }

    /// After an item: a `,` (another item follows: `false`) or `close`
    /// (the container ends: `true`).
    #[inline(always)]
    fn next(&mut self, close: u8) -> Option<bool> {
        self.ws();
        match self.peek()? {
            b',' => {
                self.i += 1;
                self.ws();
                Some(false)
            }
            c if c == close => {
                self.i += 1;
                Some(true)
            }
            _ => None,
        }
    }

    fn ws(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.b.get(self.i) {
            self.i += 1;
        }
    }

    /// A string without escapes, at its opening quote.
    #[inline(always)]
    fn string(&mut self) -> Option<&'a str> {
        self.eat(b'"')?;
        let start = self.i;
        self.i = plain_run(self.b, self.i);
        if *self.b.get(self.i)? != b'"' {
            // An escape or a control character.
            return None;
        }
        let s = self.text.get(start..self.i)?;
        self.i += 1;
        Some(s)
    }

    /// Validates a string (escapes allowed), at its opening quote.
    fn skip_string(&mut self) -> Option<()> {
        self.eat(b'"')?;
        loop {
            self.i = plain_run(self.b, self.i);
            match *self.b.get(self.i)? {
                b'"' => {
                    self.i += 1;
                    return Some(());
                }
                b'\\' => {
                    self.i += 1;
                    match *self.b.get(self.i)? {
                        b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => self.i += 1,
                        b'u' => {
                            let hex = self.b.get(self.i + 1..self.i + 5)?;
                            if !hex.iter().all(u8::is_ascii_hexdigit) {
                                return None;
                            }
                            // Surrogates need pairing rules: the full parser decides.
                            if matches!(hex[0], b'd' | b'D') {
                                return None;
                            }
                            self.i += 5;
                        }
                        _ => return None,
                    }
                }
                // A control character.
                _ => return None,
            }
        }
    }

    /// A number; its cell when `keep`. The digits are read once: a plain
    /// decimal of at most 15 digits is exact from them (Clinger's fast path:
    /// the digits and the power of ten are exact doubles, so one IEEE
    /// division is the correctly rounded value that `str::parse` gives);
    /// anything else goes to the standard parsers.
    #[inline]
    fn number(&mut self, keep: bool) -> Option<Cell<'a>> {
        if !keep {
            return self.skip_number();
        }
        let b = self.b;
        let start = self.i;
        let mut i = start;
        let neg = b.get(i) == Some(&b'-');
        i += neg as usize;
        let mut mantissa = 0u64;
        let mut count = 0usize;
        match b.get(i)? {
            b'0' => {
                i += 1;
                count += 1;
            }
            b'1'..=b'9' => count += digits(b, &mut i, &mut mantissa),
            _ => return None,
        }
        let mut decimals = None;
        if b.get(i) == Some(&b'.') {
            i += 1;
            let n = digits(b, &mut i, &mut mantissa);
            if n == 0 {
                return None;
            }
            count += n;
            decimals = Some(n);
        }
        let mut exponent = false;
        if let Some(b'e' | b'E') = b.get(i) {
            i += 1;
            if let Some(b'+' | b'-') = b.get(i) {
                i += 1;
            }
            let from = i;
            while b.get(i).is_some_and(u8::is_ascii_digit) {
                i += 1;
            }
            if i == from {
                return None;
            }
            exponent = true;
        }
        self.i = i;
        let sign = if neg { -1.0 } else { 1.0 };
        match (decimals, exponent) {
            (Some(k), false) if count <= 15 && k <= 22 => {
                return Some(Cell::Float(sign * (mantissa as f64 / POW10[k])));
            }
            (None, false) if count <= 18 => {
                // "-0" is left to the full parser (a float there).
                return (!(neg && mantissa == 0)).then_some(Cell::Int(if neg {
                    -(mantissa as i64)
                } else {
                    mantissa as i64
                }));
            }
            _ => {}
        }
        let s = &self.text[start..i];
        if decimals.is_some() || exponent {
            let x: f64 = s.parse().ok()?;
            x.is_finite().then_some(Cell::Float(x))
        } else {
            s.parse().ok().map(Cell::Int)
        }
    }

    /// Validates a number without reading its value (digits 8 at a time).
    #[inline(always)]
    fn skip_number(&mut self) -> Option<Cell<'a>> {
        let b = self.b;
        let mut i = self.i;
        i += (b.get(i) == Some(&b'-')) as usize;
        match b.get(i)? {
            b'0' => i += 1,
            b'1'..=b'9' => i += digit_run(b, i),
            _ => return None,
        }
        if b.get(i) == Some(&b'.') {
            i += 1;
            let n = digit_run(b, i);
            if n == 0 {
                return None;
            }
            i += n;
        }
        if let Some(b'e' | b'E') = b.get(i) {
            i += 1;
            if let Some(b'+' | b'-') = b.get(i) {
                i += 1;
            }
            let n = digit_run(b, i);
            if n == 0 {
                return None;
            }
            i += n;
        }
        self.i = i;
        Some(Cell::Null)
    }

    fn literal(&mut self, word: &[u8]) -> Option<()> {
        (self.b.get(self.i..self.i + word.len())? == word).then(|| self.i += word.len())
    }

    /// A map (at its `{`) of which only `keys` are kept, each a scalar (a
    /// kept key holding a map or list leaves the line to the full parser):
    /// the kept entries go straight to the tape, every key is checked for
    /// repeats.
    fn kept_map(&mut self, depth: usize, keys: &[(String, u32)]) -> Option<Cell<'a>> {
        if depth > MAX_DEPTH {
            return None;
        }
        let start = self.tape.entries.len() as u32;
        self.tape.inner.clear();
        if self.open(b'{', b'}')? {
            return Some(Cell::Map(start, start));
        }
        loop {
            let key = self.string()?;
            if self.tape.inner.contains(&key) {
                return None;
            }
            self.tape.inner.push(key);
            self.ws();
            self.eat(b':')?;
            self.ws();
            let kb = key.as_bytes();
            match keys
                .iter()
                .find(|(n, _)| n.len() == kb.len() && n.as_bytes().last() == kb.last() && n == key)
            {
                Some((_, id)) => {
                    if matches!(self.peek()?, b'{' | b'[') {
                        return None;
                    }
                    let cell = self.value(depth + 1, None, false)?;
                    self.tape.entries.push(Entry { key, id: *id, cell });
                }
                None => self.skip(depth + 1)?,
            }
            if self.next(b'}')? {
                return Some(Cell::Map(start, self.tape.entries.len() as u32));
            }
        }
    }

    /// Validates a value without keeping it.
    fn skip(&mut self, depth: usize) -> Option<()> {
        if depth > MAX_DEPTH {
            return None;
        }
        match self.peek()? {
            b'"' => self.skip_string(),
            b'{' => {
                if self.open(b'{', b'}')? {
                    return Some(());
                }
                loop {
                    self.skip_string()?;
                    self.ws();
                    self.eat(b':')?;
                    self.ws();
                    self.skip(depth + 1)?;
                    if self.next(b'}')? {
                        return Some(());
                    }
                }
            }
            b'[' => {
                if self.open(b'[', b']')? {
                    return Some(());
                }
                loop {
                    self.skip(depth + 1)?;
                    if self.next(b']')? {
                        return Some(());
                    }
                }
            }
            b't' => self.literal(b"true"),
            b'f' => self.literal(b"false"),
            b'n' => self.literal(b"null"),
            _ => self.skip_number().map(|_| ()),
        }
    }

    /// Reads a value. `keys`: a map keeps only these keys of each of its
    /// entries that is a map (when `entries`), or only these keys (when
    /// not); `None` keeps everything.
    fn value(
        &mut self,
        depth: usize,
        keys: Option<&[(String, u32)]>,
        entries: bool,
    ) -> Option<Cell<'a>> {
        if depth > MAX_DEPTH {
            return None;
        }
        match self.peek()? {
            b'"' => self.string().map(Cell::Str),
            b'{' => {
                let base = self.tape.stack.len();
                if !self.open(b'{', b'}')? {
                    let mut bits = 0u64;
                    loop {
                        let key = self.string()?;
                        // Every key is checked, kept or not (as the full parser does).
                        let bit = key_bit(key);
                        if bits & bit != 0 && self.tape.stack[base..].iter().any(|e| e.key == key) {
                            return None;
                        }
                        bits |= bit;
                        self.ws();
                        self.eat(b':')?;
                        self.ws();
                        let (id, cell) = match (keys, entries) {
                            (None, _) => (NO_ID, Some(self.value(depth + 1, None, false)?)),
                            (Some(k), true) if self.peek()? == b'{' => {
                                (NO_ID, Some(self.kept_map(depth + 1, k)?))
                            }
                            (Some(k), true) => {
                                (NO_ID, Some(self.value(depth + 1, Some(k), false)?))
                            }
                            (Some(k), false) => match k.iter().find(|(n, _)| n == key) {
                                Some((_, id)) => (*id, Some(self.value(depth + 1, None, false)?)),
                                None => {
                                    self.skip(depth + 1)?;
                                    (NO_ID, None)
                                }
                            },
                        };
                        // A skipped key is held (as Undef) for the repeat check only.
                        self.tape.stack.push(Entry {
                            key,
                            id,
                            cell: cell.unwrap_or(Cell::Undef),
                        });
                        if self.next(b'}')? {
                            break;
                        }
                    }
                }
                let start = self.tape.entries.len() as u32;
                let kept = self
                    .tape
                    .stack
                    .drain(base..)
                    .filter(|e| e.cell != Cell::Undef);
                self.tape.entries.extend(kept);
                Some(Cell::Map(start, self.tape.entries.len() as u32))
            }
            b'[' => {
                let base = self.tape.stack.len();
                if !self.open(b'[', b']')? {
                    loop {
                        let cell = self.value(depth + 1, None, false)?;
                        self.tape.stack.push(Entry {
                            key: "",
                            id: NO_ID,
                            cell,
                        });
                        if self.next(b']')? {
                            break;
                        }
                    }
                }
                let start = self.tape.entries.len() as u32;
                let items = self.tape.stack.drain(base..);
                self.tape.entries.extend(items);
                Some(Cell::List(start, self.tape.entries.len() as u32))
            }
            b't' => self.literal(b"true").map(|_| Cell::Bool(true)),
            b'f' => self.literal(b"false").map(|_| Cell::Bool(false)),
            b'n' => self.literal(b"null").map(|_| Cell::Null),
            _ => self.number(true),
        }
    }
}

/// The end of the run of string bytes from `i` that are not `"`, `\\` or a
/// control character: 8 bytes at a time (SWAR: a byte-wise "is zero" and
/// "is less than" on one word; the lowest flagged byte is exact).
#[inline]
fn plain_run(b: &[u8], mut i: usize) -> usize {
    const LO: u64 = 0x0101_0101_0101_0101;
    const HI: u64 = 0x8080_8080_8080_8080;
    while let Some(chunk) = b.get(i..i + 8) {
        let v = u64::from_le_bytes(chunk.try_into().expect("8 bytes"));
        let q = v ^ (LO * u64::from(b'"'));
        let s = v ^ (LO * u64::from(b'\\'));
        let m = ((q.wrapping_sub(LO) & !q)
            | (s.wrapping_sub(LO) & !s)
            | (v.wrapping_sub(LO * 0x20) & !v))
            & HI;
        if m != 0 {
            return i + (m.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    while let Some(&c) = b.get(i) {
        if c == b'"' || c == b'\\' || c < 0x20 {
            break;
        }
        i += 1;
    }
    i
}

/// A bit of a 64-bit filter for repeated keys: keys with different bits
/// differ, so most keys are told apart without comparing them.
#[inline(always)]
fn key_bit(key: &str) -> u64 {
    let b = key.as_bytes();
    let h = b.len() * 7
        + b.first().map_or(0, |c| *c as usize) * 3
        + b.last().map_or(0, |c| *c as usize);
    1 << (h % 64)
}

/// The powers of ten that are exact doubles.
const POW10: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
];

/// How many ASCII digits start at `i`: 8 bytes at a time (SWAR: a byte is
/// a digit when its high nibble is 3 and its low nibble is at most 9).
#[inline]
fn digit_run(b: &[u8], from: usize) -> usize {
    const LO: u64 = 0x0101_0101_0101_0101;
    let mut i = from;
    while let Some(chunk) = b.get(i..i + 8) {
        let w = u64::from_le_bytes(chunk.try_into().expect("8 bytes"));
        // Per byte: nonzero when the byte is not a digit (no carries cross bytes).
        let not_digit =
            ((w & (0xF0 * LO)) ^ (0x30 * LO)) | (((w & (0x0F * LO)) + 0x06 * LO) & (0x10 * LO));
        let flagged = (((not_digit & (0x7F * LO)) + 0x7F * LO) | not_digit) & (0x80 * LO);
        if flagged != 0 {
            return i - from + (flagged.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    while b.get(i).is_some_and(u8::is_ascii_digit) {
        i += 1;
    }
    i - from
}

/// Reads the digits at `i` into `mantissa` (wrapping: the caller uses it
/// only for few digits); returns how many.
#[inline]
fn digits(b: &[u8], i: &mut usize, mantissa: &mut u64) -> usize {
    let from = *i;
    while let Some(&c) = b.get(*i) {
        if !c.is_ascii_digit() {
            break;
        }
        *mantissa = mantissa.wrapping_mul(10).wrapping_add(u64::from(c - b'0'));
        *i += 1;
    }
    *i - from
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sources::json::{Projection, parse_projected};
    use crate::value::as_record;

    fn fields() -> (Fields, Projection) {
        let keys: Vec<(String, u32)> = vec![("ratio".into(), 0), ("decompress_MBps".into(), 1)];
        let f = Fields::new(
            vec![
                ("_kind".into(), Keep::Whole),
                ("input_bytes".into(), Keep::Whole),
                ("methods".into(), Keep::Entries(keys.clone())),
                ("shape".into(), Keep::Whole),
            ],
            vec!["ratio".into(), "decompress_MBps".into()],
        );
        let mut p = Projection::default();
        p.fields.insert("_kind".into(), None);
        p.fields.insert("input_bytes".into(), None);
        p.fields.insert(
            "methods".into(),
            Some(keys.into_iter().map(|(k, _)| k).collect()),
        );
        p.fields.insert("shape".into(), None);
        (f, p)
    }

    const LINES: &[&str] = &[
        r#"{"_kind": "bench_7B", "input_bytes": 4194304, "methods": {"zstd3": {"ratio": 1.27, "compressed_bytes": 3, "decompress_MBps": 1339.76}, "x": {"error": "no", "ratio": null}}, "other": [1, {"a": "\u00e9\n"}, -0.5e-3]}"#,
        r#"{"_kind":"Q4_K","input_bytes":-7,"shape":[384,384],"methods":"n/a"}"#,
        r#"  { "methods" : { } , "shape" : [ ] , "_kind" : true }  "#,
        r#"{"input_bytes": 1.0, "_kind": false, "methods": {"a": 1, "b": [1, 2], "c": {"ratio": {"deep": [null]}}}}"#,
        r#"{}"#,
        r#"{"input_bytes": 18446744073709551615}"#,
        r#"{"input_bytes": 9223372036854775807, "_kind": "café"}"#,
        r#"{"input_bytes": -0}"#,
        r#"{"input_bytes": 1e400}"#,
        r#"{"input_bytes": NaN}"#,
        r#"{"_kind": "a\"b"}"#,
        r#"{"_kind": "a", "_kind": "b"}"#,
        r#"{"methods": {"m": {"ratio": 1, "ratio": 2}}}"#,
        r#"{"methods": {"m": {"zz": 1, "zz": 2}}}"#,
        r#"{"methods": {"m": 1, "m": 2}}"#,
        r#"{"other": {"q": 1, "q": 2}}"#,
        r#"{"_kind": "x",}"#,
        r#"{"_kind": "x"} trailing"#,
        r#"{"_kind": "x""#,
        r#"{"_kind": 01}"#,
        r#"{"_kind": 1.}"#,
        r#"{"_kind": .5}"#,
        r#"{"_kind": tru}"#,
        r#"["not", "an", "object"]"#,
        r#"{"input_bytes": 2.5E+3, "shape": [1.5, -2, true, null, "s"]}"#,
        r#"{"other": "\ud83d\ude00"}"#,
        r#"{"other": "\x"}"#,
        "{\"other\": \"tab\there\"}",
        r#"{"other": 01}"#,
        r#"{"other": 1.}"#,
        r#"{"other": -}"#,
        r#"{"other": 1e}"#,
        r#"{"other": 12345678901234567890.5e+3}"#,
        r#"{"other": [1.5e+10, -0, 0.25, 123456789012]}"#,
    ];

    #[test]
    fn agrees_with_the_full_parser_wherever_it_answers() {
        let (f, p) = fields();
        let mut answered = 0;
        for line in LINES {
            let mut tape = Tape::default();
            let mut slots = vec![Cell::Undef; f.fields.len()];
            let fast = tape.read(line.as_bytes(), &f, &mut slots);
            let full = parse_projected(line.as_bytes(), &p);
            let Some(()) = fast else { continue };
            answered += 1;
            let full = full.unwrap_or_else(|e| panic!("{line}: fast read it, full failed: {e:?}"));
            let rec = as_record(&full).expect("an object");
            for ((name, _), cell) in f.fields.iter().zip(&slots) {
                let got = tape.to_value(*cell);
                let want = rec
                    .get(name)
                    .cloned()
                    .unwrap_or(crate::value::Value::UNDEFINED);
                assert_eq!(format!("{got:?}"), format!("{want:?}"), "{line}: {name}");
            }
        }
        // (An entry's kept attribute holding a map, `"ratio": {"deep": ..}`,
        // is left to the full parser too.)
        assert_eq!(answered, 9, "the lines without oddities are read");
    }

    #[test]
    fn fields_are_found_by_name_whatever_their_length_or_number() {
        let long = "k".repeat(70);
        let mut names: Vec<String> = (0..70).map(|i| format!("f{i}")).collect();
        names.push(long.clone());
        names.push(String::new());
        let f = Fields::new(
            names.iter().map(|n| (n.clone(), Keep::Whole)).collect(),
            Vec::new(),
        );
        for (i, n) in names.iter().enumerate() {
            assert_eq!(f.slot(n), Some(i), "{n}");
        }
        assert_eq!(f.slot("f70"), None);
        let few = Fields::new(
            vec![("ab".into(), Keep::Whole), (long.clone(), Keep::Whole)],
            Vec::new(),
        );
        assert_eq!(few.slot(&long), Some(1));
        assert_eq!(few.slot("ab"), Some(0));
        assert_eq!(few.slot("ba"), None);
        assert_eq!(few.slot("abc"), None);
    }

    #[test]
    fn digit_runs_stop_where_a_byte_loop_stops() {
        let mut rng = 0xD1B5_4A32_D192_ED03u64;
        for _ in 0..20_000 {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            let len = (rng % 30) as usize;
            let bytes: Vec<u8> = (0..len)
                .map(|k| {
                    let r = rng.rotate_left(k as u32 * 7);
                    if r.is_multiple_of(7) {
                        (r >> 8) as u8
                    } else {
                        b'0' + (r >> 16) as u8 % 10
                    }
                })
                .collect();
            let start = (rng >> 50) as usize % (len + 1);
            let naive = bytes[start..]
                .iter()
                .take_while(|c| c.is_ascii_digit())
                .count();
            assert_eq!(digit_run(&bytes, start), naive, "{bytes:?} from {start}");
        }
    }

    #[test]
    fn plain_runs_stop_where_a_byte_loop_stops() {
        let alphabet = [
            b'a', b'"', b'\\', 0x1f, 0x20, 0x7f, 0x80, 0xc3, 0xa9, b'0', 0x00, 0xff,
        ];
        let mut rng = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..20_000 {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            let len = (rng % 40) as usize;
            let bytes: Vec<u8> = (0..len)
                .map(|k| {
                    let r = rng.rotate_left(k as u32 * 5);
                    if r.is_multiple_of(5) {
                        alphabet[(r >> 8) as usize % alphabet.len()]
                    } else {
                        b'x'
                    }
                })
                .collect();
            let start = (rng >> 50) as usize % (len + 1);
            let naive = (start..len)
                .find(|&i| bytes[i] == b'"' || bytes[i] == b'\\' || bytes[i] < 0x20)
                .unwrap_or(len);
            assert_eq!(plain_run(&bytes, start), naive, "{bytes:?} from {start}");
        }
    }

    /// A number as the tape reads it, or `None` when it leaves it.
    fn read_number(s: &str) -> Option<Cell<'_>> {
        let f = Fields::new(vec![("x".into(), Keep::Whole)], Vec::new());
        let line = format!("{{\"x\": {s}}}");
        let mut tape = Tape::default();
        let mut slots = [Cell::Undef];
        tape.read(line.as_bytes(), &f, &mut slots)?;
        Some(match slots[0] {
            Cell::Int(i) => Cell::Int(i),
            Cell::Float(x) => Cell::Float(x),
            other => panic!("{s}: {other:?}"),
        })
    }

    #[test]
    fn numbers_equal_the_standard_parse_bit_for_bit() {
        let mut rng = 0x2545_F491_4F6C_DD1Du64;
        for _ in 0..100_000 {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            let digits = 1 + (rng % 20) as usize;
            let point = (rng >> 8) as usize % (digits + 1);
            let mut s = String::new();
            if rng & (1 << 40) != 0 {
                s.push('-');
            }
            let mut x = rng >> 20;
            for i in 0..digits {
                if i == point && i > 0 {
                    s.push('.');
                }
                let d = if i == 0 && digits > 1 && point != 1 {
                    1 + x % 9
                } else {
                    x % 10
                };
                s.push(char::from(b'0' + d as u8));
                x = x / 10 + (rng >> (i % 40));
            }
            if rng & (1 << 41) != 0 {
                s.push_str(&format!("e{}", (rng >> 44) % 40));
            }
            match read_number(&s) {
                Some(Cell::Float(f)) => {
                    assert_eq!(f.to_bits(), s.parse::<f64>().unwrap().to_bits(), "{s}")
                }
                Some(Cell::Int(i)) => assert_eq!(Some(i), s.parse::<i64>().ok(), "{s}"),
                Some(_) => unreachable!(),
                None => assert!(
                    s == "-0" || s.parse::<i64>().is_err() && !s.contains(['.', 'e']),
                    "{s}"
                ),
            }
        }
        assert_eq!(read_number("0.1"), Some(Cell::Float(0.1)));
        assert_eq!(read_number("-0.0"), Some(Cell::Float(-0.0)));
        assert_eq!(read_number("-0"), None);
        assert_eq!(read_number("9223372036854775808"), None);
        assert_eq!(
            read_number("-9223372036854775808"),
            Some(Cell::Int(i64::MIN))
        );
        assert_eq!(read_number("1e400"), None);
    }

    #[test]
    fn leaves_every_line_the_full_parser_refuses_to_it() {
        let (f, p) = fields();
        let mut refused = 0;
        for line in LINES {
            if parse_projected(line.as_bytes(), &p).is_ok() {
                continue;
            }
            refused += 1;
            let mut tape = Tape::default();
            let mut slots = vec![Cell::Undef; f.fields.len()];
            assert_eq!(tape.read(line.as_bytes(), &f, &mut slots), None, "{line}");
        }
        assert!(refused >= 12, "{refused}");
    }
}

//! The scanner behind [`super::Tape::read`]: a JSON value at a time, kept
//! (as cells on the tape) or only validated.

use super::bytes::{POW10, digit_run, digits, known_str, plain_run, short_decimal, utf8_char};
use super::keys::{Keys, Repeats};
use super::shape::Shape;
use super::{Cell, Entry, MAX_DEPTH, NO_ID, Tape};

/// A number read.
#[derive(Debug, Clone, Copy)]
enum Num {
    Int(i64),
    Float(f64),
}

/// A number read, as two words (a pair of scalars comes back from a call
/// in registers; an enum of this size comes back through memory, and its
/// payload, reloaded at once by a wider load than the callee's stores,
/// stalled store-forwarding at every number): `kind` is 0 when the line is
/// the full parser's, 1 for an integer, 2 for a float; `bits` its bits.
#[derive(Debug, Clone, Copy)]
pub(super) struct Number {
    kind: u64,
    bits: u64,
}

impl Number {
    #[inline(always)]
    pub(super) fn cell<'a>(self) -> Option<Cell<'a>> {
        match self.kind {
            1 => Some(Cell::Int(self.bits as i64)),
            2 => Some(Cell::Float(f64::from_bits(self.bits))),
            _ => None,
        }
    }
}

/// Whose keys a [`Scanner::key`] reads: the line's or a kept map's (each
/// level has its own shape).
#[derive(Debug, Clone, Copy)]
pub(super) enum Level {
    Line,
    Map,
}

/// A position in a line, writing what it keeps to a tape.
pub(super) struct Scanner<'a, 't> {
    pub(super) b: &'a [u8],
    pub(super) i: usize,
    pub(super) tape: &'t mut Tape<'a>,
    /// Whether `b` is a batch of lines read from a line's start: a `\n` is
    /// then the end of the line, not a blank (every token but blanks
    /// stops at a control character anyway).
    pub(super) lines: bool,
}

impl<'a> Scanner<'a, '_> {
    pub(super) fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }

    pub(super) fn eat(&mut self, c: u8) -> Option<()> {
        (self.peek()? == c).then(|| self.i += 1)
    }

    /// At a container's `open` byte: consumes it and the blanks after it;
    /// whether the container is empty (its `close` consumed too).
    #[inline(always)]
    pub(super) fn open(&mut self, open: u8, close: u8) -> Option<bool> {
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
    pub(super) fn next(&mut self, close: u8) -> Option<bool> {
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

    /// Skips blanks. Logged JSON has none or one space after a `,` or a
    /// `:`: those cases take one or two comparisons, not the loop.
    #[inline(always)]
    pub(super) fn ws(&mut self) {
        match self.b.get(self.i) {
            Some(&c) if c > b' ' => return,
            Some(b' ') if self.b.get(self.i + 1).is_some_and(|&c| c > b' ') => {
                self.i += 1;
                return;
            }
            _ => {}
        }
        self.ws_run();
    }

    /// Blanks past the first (a `\n` ends the line when [`Scanner::lines`]).
    #[inline(never)]
    fn ws_run(&mut self) {
        while let Some(&c @ (b' ' | b'\t' | b'\n' | b'\r')) = self.b.get(self.i) {
            if c == b'\n' && self.lines {
                return;
            }
            self.i += 1;
        }
    }

    /// A string without escapes, at its opening quote.
    #[inline(always)]
    pub(super) fn string(&mut self) -> Option<&'a str> {
        self.eat(b'"')?;
        let start = self.i;
        self.i = plain_run(self.b, self.i);
        if *self.b.get(self.i)? != b'"' {
            return self.string_rest(start);
        }
        let bytes = &self.b[start..self.i];
        self.i += 1;
        // SAFETY: `plain_run` passed over these bytes, so each is ASCII
        // (below 0x80), and ASCII is valid UTF-8.
        Some(unsafe { known_str(bytes) })
    }

    /// The rest of a string (from `start`) that holds more than plain
    /// ASCII: multi-byte characters are checked one by one; an escape or a
    /// control character leaves the line to the full parser.
    #[inline(never)]
    fn string_rest(&mut self, start: usize) -> Option<&'a str> {
        loop {
            match *self.b.get(self.i)? {
                b'"' => break,
                c if c >= 0x80 => self.i += utf8_char(self.b, self.i)?,
                _ => return None,
            }
            self.i = plain_run(self.b, self.i);
        }
        let s = std::str::from_utf8(&self.b[start..self.i]).ok()?;
        self.i += 1;
        Some(s)
    }

    /// Validates a string (escapes allowed), at its opening quote.
    pub(super) fn skip_string(&mut self) -> Option<()> {
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
                c if c >= 0x80 => self.i += utf8_char(self.b, self.i)?,
                // A control character.
                _ => return None,
            }
        }
    }

    /// A number (`kind` 0: the full parser's). The digits are read once: a plain
    /// decimal of at most 15 digits is exact from them (Clinger's fast path:
    /// the digits and the power of ten are exact doubles, so one IEEE
    /// division is the correctly rounded value that `str::parse` gives);
    /// anything else goes to the standard parsers.
    #[inline(never)]
    pub(super) fn number(&mut self) -> Number {
        match self.read_number() {
            Some(Num::Int(i)) => Number {
                kind: 1,
                bits: i as u64,
            },
            Some(Num::Float(x)) => Number {
                kind: 2,
                bits: x.to_bits(),
            },
            None => Number { kind: 0, bits: 0 },
        }
    }

    #[inline(always)]
    fn read_number(&mut self) -> Option<Num> {
        let b = self.b;
        let start = self.i;
        let mut i = start;
        let neg = b.get(i) == Some(&b'-');
        i += neg as usize;
        let sign = if neg { -1.0 } else { 1.0 };
        // Most logged numbers are short: their digits are read 8 at a time,
        // to the same cell as below.
        match short_decimal(b, i) {
            Some((m, Some(k), end)) => {
                self.i = end;
                // (Below 10^14: converted as an i64, one instruction where
                // a u64 takes four.)
                return Some(Num::Float(sign * ((m as i64) as f64 / POW10[k])));
            }
            Some((m, None, end)) if !(neg && m == 0) => {
                self.i = end;
                return Some(Num::Int(if neg { -(m as i64) } else { m as i64 }));
            }
            _ => {}
        }
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
        match (decimals, exponent) {
            (Some(k), false) if count <= 15 && k <= 22 => {
                // (At most 15 digits: below 2^63, as above.)
                return Some(Num::Float(sign * ((mantissa as i64) as f64 / POW10[k])));
            }
            (None, false) if count <= 18 => {
                // "-0" is left to the full parser (a float there).
                return (!(neg && mantissa == 0)).then_some(Num::Int(if neg {
                    -(mantissa as i64)
                } else {
                    mantissa as i64
                }));
            }
            _ => {}
        }
        let s = std::str::from_utf8(&b[start..i]).ok()?;
        if decimals.is_some() || exponent {
            let x: f64 = s.parse().ok()?;
            x.is_finite().then_some(Num::Float(x))
        } else {
            s.parse().ok().map(Num::Int)
        }
    }

    /// Validates a number without reading its value (digits 8 at a time).
    #[inline(always)]
    pub(super) fn skip_number(&mut self) -> Option<()> {
        let b = self.b;
        let start = self.i;
        let mut i = start;
        i += (b.get(i) == Some(&b'-')) as usize;
        // Whether the number may be beyond f64: only one with an exponent
        // or over 300 digits can be.
        let mut big = false;
        // An integer of 39 digits or more may be wider than `i128`: an
        // error of the full parser, read or skipped (`json::wide`).
        let mut wide = false;
        match b.get(i)? {
            b'0' => i += 1,
            b'1'..=b'9' => {
                let n = digit_run(b, i);
                i += n;
                big = n > 300;
                wide = n > 38;
            }
            _ => return None,
        }
        if wide && !matches!(b.get(i), Some(b'.' | b'e' | b'E')) {
            return None;
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
            big = true;
        }
        if big {
            return self.finite(start, i);
        }
        self.i = i;
        Some(())
    }

    /// A skipped number `b[start..end]` that may be beyond f64: that is an
    /// error of the full parser ("number out of range"), read or skipped,
    /// so such a line is left to it.
    #[cold]
    #[inline(never)]
    fn finite(&mut self, start: usize, end: usize) -> Option<()> {
        let x: f64 = std::str::from_utf8(&self.b[start..end])
            .ok()?
            .parse()
            .ok()?;
        self.i = end;
        x.is_finite().then_some(())
    }

    pub(super) fn literal(&mut self, word: &[u8]) -> Option<()> {
        (self.b.get(self.i..self.i + word.len())? == word).then(|| self.i += word.len())
    }

    /// A map (at its `{`) of which only `keys` are kept, each a scalar (a
    /// kept key holding a map or list leaves the line to the full parser):
    /// the kept entries go straight to the tape, every key is checked for
    /// repeats. While the keys match the last map's ([`Shape`]), each is
    /// recognised by one comparison, and needs no repeat check (a shape's
    /// keys are distinct).
    /// Returns the entries' range, `start << 32 | end` (one word, in a
    /// register: see [`Number`]).
    pub(super) fn kept_map(&mut self, depth: usize, keys: &[(String, u32)]) -> Option<u64> {
        if depth > MAX_DEPTH {
            return None;
        }
        let start = self.tape.entries.len() as u32;
        if self.open(b'{', b'}')? {
            return Some(((start as u64) << 32) | start as u64);
        }
        self.tape.map_shape.own(keys.as_ptr() as usize);
        self.tape.inner.clear();
        let mut run = Keys::default();
        loop {
            let (key, id) = self.key(Level::Map, &mut run, |key| {
                let kb = key.as_bytes();
                keys.iter()
                    .find(|(n, _)| {
                        n.len() == kb.len() && n.as_bytes().last() == kb.last() && n == key
                    })
                    .map_or(NO_ID, |(_, id)| *id)
            })?;
            self.ws();
            if id == NO_ID {
                self.skip(depth + 1)?;
            } else {
                let cell = self.scalar()?;
                self.tape.entries.push(Entry { key, id, cell });
            }
            if self.next(b'}')? {
                return Some(((start as u64) << 32) | u64::from(self.tape.entries.len() as u32));
            }
        }
    }

    /// The lists of keys of `level`: its shape, and the keys of the
    /// object being read (for the repeat check).
    #[inline(always)]
    fn lists(&mut self, level: Level) -> (&mut Shape, &mut Vec<&'a str>) {
        match level {
            Level::Line => (&mut self.tape.line_shape, &mut self.tape.seen),
            Level::Map => (&mut self.tape.map_shape, &mut self.tape.inner),
        }
    }

    /// An object's key (at its opening quote) through its colon, and what
    /// it maps to: from the shape when the keys so far came in the order of
    /// the last object of this level (one comparison, no repeat check: a
    /// shape's keys are distinct), else from `lookup`, the object then
    /// becoming the shape. `None` for a repeated key, or anything the full
    /// parser must decide (an escape, a syntax error).
    #[inline(always)]
    pub(super) fn key(
        &mut self,
        level: Level,
        run: &mut Keys<'a>,
        lookup: impl FnOnce(&str) -> u32,
    ) -> Option<(&'a str, u32)> {
        let (b, at) = (self.b, self.i);
        let hit = match run.on_shape {
            true => self.lists(level).0.at(run.matched, b, at),
            false => None,
        };
        if let Some((written, len, value)) = hit {
            self.i += written;
            run.matched += 1;
            // SAFETY: the bytes equal the shape's key, read as a `str`.
            let key = unsafe { known_str(&b[at + 1..at + 1 + len]) };
            self.lists(level).1.push(key);
            return Some((key, value));
        }
        if run.on_shape {
            // The keys so far (distinct) join the repeat check.
            run.on_shape = false;
            let (shape, seen) = self.lists(level);
            run.rep.add(seen);
            shape.truncate(run.matched);
        }
        let key = self.string()?;
        // Most keys are told apart by a 64-bit filter on length and end
        // bytes, without comparing.
        let seen = self.lists(level).1;
        if run.rep.hit(key, seen, |k| *k) {
            return None;
        }
        seen.push(key);
        self.ws();
        self.eat(b':')?;
        let value = lookup(key);
        let end = self.i;
        self.lists(level).0.push(&b[at..end], key.len(), value);
        Some((key, value))
    }

    /// A scalar value (`None` for a map or a list too).
    #[inline(always)]
    pub(super) fn scalar(&mut self) -> Option<Cell<'a>> {
        match self.peek()? {
            b'"' => self.string().map(Cell::Str),
            b't' => self.literal(b"true").map(|_| Cell::Bool(true)),
            b'f' => self.literal(b"false").map(|_| Cell::Bool(false)),
            b'n' => self.literal(b"null").map(|_| Cell::Null),
            b'{' | b'[' => None,
            _ => self.number().cell(),
        }
    }

    /// Validates a value without keeping it.
    pub(super) fn skip(&mut self, depth: usize) -> Option<()> {
        if depth > MAX_DEPTH {
            return None;
        }
        match self.peek()? {
            b'"' => self.skip_string(),
            b'{' => {
                if self.open(b'{', b'}')? {
                    return Some(());
                }
                // A skipped object's keys are checked for repeats too (as
                // the full parser does); a key with an escape is left to it.
                let base = self.tape.skipped.len();
                let mut rep = Repeats::default();
                loop {
                    let key = self.string()?;
                    if rep.hit(key, &self.tape.skipped[base..], |k| *k) {
                        return None;
                    }
                    self.tape.skipped.push(key);
                    self.ws();
                    self.eat(b':')?;
                    self.ws();
                    self.skip(depth + 1)?;
                    if self.next(b'}')? {
                        self.tape.skipped.truncate(base);
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
            _ => self.skip_number(),
        }
    }

    /// Reads a value. `keys`: a map keeps only these keys of each of its
    /// entries that is a map (when `entries`), or only these keys (when
    /// not); `None` keeps everything.
    pub(super) fn value(
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
                    let mut rep = Repeats::default();
                    loop {
                        let key = self.string()?;
                        // Every key is checked, kept or not (as the full parser does).
                        if rep.hit(key, &self.tape.stack[base..], |e| e.key) {
                            return None;
                        }
                        self.ws();
                        self.eat(b':')?;
                        self.ws();
                        let (id, cell) = match (keys, entries) {
                            (None, _) => (NO_ID, Some(self.value(depth + 1, None, false)?)),
                            (Some(k), true) if self.peek()? == b'{' => {
                                let r = self.kept_map(depth + 1, k)?;
                                (NO_ID, Some(Cell::Map((r >> 32) as u32, r as u32)))
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
            _ => self.number().cell(),
        }
    }
}

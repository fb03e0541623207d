//! Byte-level helpers of the scanner: runs of string bytes and digits 8
//! bytes at a time (SWAR), the repeated-key filter, exact decimals.

/// The end of the run of string bytes from `i` that are plain ASCII: not
/// `"`, `\\`, a control character or a byte of a multi-byte character.
/// 8 bytes at a time (SWAR: a byte-wise "is zero" and "is less than" on
/// one word, and the high bits; the lowest flagged byte is exact).
#[inline]
pub(super) fn plain_run(b: &[u8], mut i: usize) -> usize {
    const LO: u64 = 0x0101_0101_0101_0101;
    const HI: u64 = 0x8080_8080_8080_8080;
    while let Some(chunk) = b.get(i..i + 8) {
        let v = u64::from_le_bytes(chunk.try_into().expect("8 bytes"));
        let q = v ^ (LO * u64::from(b'"'));
        let s = v ^ (LO * u64::from(b'\\'));
        let m = ((q.wrapping_sub(LO) & !q)
            | (s.wrapping_sub(LO) & !s)
            | (v.wrapping_sub(LO * 0x20) & !v)
            | v)
            & HI;
        if m != 0 {
            return i + (m.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    while let Some(&c) = b.get(i) {
        if c == b'"' || c == b'\\' || !(0x20..0x80).contains(&c) {
            break;
        }
        i += 1;
    }
    i
}

/// A bit of a 64-bit filter for repeated keys: keys with different bits
/// differ, so most keys are told apart without comparing them.
#[inline(always)]
pub(super) fn key_bit(key: &str) -> u64 {
    let b = key.as_bytes();
    let h = b.len() * 7
        + b.first().map_or(0, |c| *c as usize) * 3
        + b.last().map_or(0, |c| *c as usize);
    1 << (h % 64)
}

/// The powers of ten that are exact doubles.
pub(super) const POW10: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
];

/// How many ASCII digits start at `i`: 8 bytes at a time (SWAR: a byte is
/// a digit when its high nibble is 3 and its low nibble is at most 9).
#[inline(always)]
pub(super) fn digit_run(b: &[u8], from: usize) -> usize {
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
pub(super) fn digits(b: &[u8], i: &mut usize, mantissa: &mut u64) -> usize {
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

/// The length of the UTF-8 character at `b[i]` (a byte of 0x80 or more),
/// if it is a valid one.
#[inline(never)]
pub(super) fn utf8_char(b: &[u8], i: usize) -> Option<usize> {
    let width = match b[i] {
        0xC2..=0xDF => 2,
        0xE0..=0xEF => 3,
        0xF0..=0xF4 => 4,
        _ => return None,
    };
    // The standard check rejects overlong forms and surrogates.
    std::str::from_utf8(b.get(i..i + width)?).ok()?;
    Some(width)
}

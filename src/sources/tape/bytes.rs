//! Byte-level helpers of the scanner: runs of string bytes and digits 8
//! bytes at a time (SWAR), the repeated-key filter, exact decimals.

/// The end of the run of string bytes from `i` that are plain ASCII: not
/// `"`, `\\`, a control character or a byte of a multi-byte character.
/// 16 bytes at a time on x86-64 (SSE2, in every x86-64 CPU: two byte
/// compares for `"` and `\\`, and one signed compare with 0x20 that flags
/// both the control characters and the bytes of 0x80 and above, which are
/// negative), the rest as [`plain_run_swar`].
#[cfg(target_arch = "x86_64")]
#[inline]
pub(super) fn plain_run(b: &[u8], mut i: usize) -> usize {
    use std::arch::x86_64::{
        _mm_cmpeq_epi8, _mm_cmplt_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_or_si128,
        _mm_set1_epi8,
    };
    while i + 16 <= b.len() {
        // SAFETY: `b[i..i + 16]` is in bounds, `loadu` needs no alignment,
        // and SSE2 is part of the x86-64 baseline.
        let flagged = unsafe {
            let v = _mm_loadu_si128(b.as_ptr().add(i).cast());
            let quote = _mm_cmpeq_epi8(v, _mm_set1_epi8(b'"' as i8));
            let slash = _mm_cmpeq_epi8(v, _mm_set1_epi8(b'\\' as i8));
            let other = _mm_cmplt_epi8(v, _mm_set1_epi8(0x20));
            _mm_movemask_epi8(_mm_or_si128(_mm_or_si128(quote, slash), other))
        };
        if flagged != 0 {
            return i + flagged.trailing_zeros() as usize;
        }
        i += 16;
    }
    plain_run_swar(b, i)
}

/// [`plain_run`] elsewhere.
#[cfg(not(target_arch = "x86_64"))]
#[inline]
pub(super) fn plain_run(b: &[u8], i: usize) -> usize {
    plain_run_swar(b, i)
}

/// [`plain_run`] 8 bytes at a time (SWAR: a byte-wise "is zero" and "is
/// less than" on one word, and the high bits; the lowest flagged byte is
/// exact), then byte by byte.
#[inline]
pub(super) fn plain_run_swar(b: &[u8], mut i: usize) -> usize {
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

/// Per byte of `w`: the high bit set where the byte is not an ASCII digit.
#[inline(always)]
fn non_digits(w: u64) -> u64 {
    const LO: u64 = 0x0101_0101_0101_0101;
    let not_digit =
        ((w & (0xF0 * LO)) ^ (0x30 * LO)) | (((w & (0x0F * LO)) + 0x06 * LO) & (0x10 * LO));
    (((not_digit & (0x7F * LO)) + 0x7F * LO) | not_digit) & (0x80 * LO)
}

/// The value of the first `n` (1 to 7) ASCII digits of `w` (a little-endian
/// word: the first digit in the lowest byte). The digits are moved to the
/// top and '0's put below them, then reduced by Lemire's SWAR steps
/// (pairs, quads, halves).
#[inline(always)]
fn leading_digits(w: u64, n: usize) -> u64 {
    let w = (w << (8 * (8 - n))) | (0x3030_3030_3030_3030 >> (8 * n));
    let v = w.wrapping_sub(0x3030_3030_3030_3030);
    let v = v.wrapping_mul(10).wrapping_add(v >> 8);
    const MASK: u64 = 0x0000_00FF_0000_00FF;
    const MUL1: u64 = 100 + (1_000_000 << 32);
    const MUL2: u64 = 1 + (10_000 << 32);
    (((v & MASK).wrapping_mul(MUL1)).wrapping_add(((v >> 16) & MASK).wrapping_mul(MUL2)) >> 32)
        & 0xFFFF_FFFF
}

/// A short unsigned decimal at `i`, the common case of a logged number:
/// 1 to 7 integer digits, optionally a `.` and 1 to 7 fraction digits, no
/// exponent, no leading zero before more digits. Returns the digits as an
/// integer, the number of fraction digits (`None`: no `.`) and the end.
/// `None` for anything else (or fewer than 8 bytes left to load), which
/// the caller reads digit by digit.
#[inline(always)]
pub(super) fn short_decimal(b: &[u8], i: usize) -> Option<(u64, Option<usize>, usize)> {
    let w = u64::from_le_bytes(b.get(i..i + 8)?.try_into().expect("8 bytes"));
    let p1 = (non_digits(w).trailing_zeros() / 8) as usize;
    if p1 == 0 || p1 == 8 || (p1 > 1 && w & 0xFF == u64::from(b'0')) {
        return None;
    }
    let int = leading_digits(w, p1);
    let at = i + p1;
    match b.get(at) {
        Some(b'.') => {
            let w2 = u64::from_le_bytes(b.get(at + 1..at + 9)?.try_into().expect("8 bytes"));
            let p2 = (non_digits(w2).trailing_zeros() / 8) as usize;
            if p2 == 0 || p2 == 8 {
                return None;
            }
            let end = at + 1 + p2;
            if matches!(b[end], b'e' | b'E') {
                return None;
            }
            Some((int * POW10_INT[p2] + leading_digits(w2, p2), Some(p2), end))
        }
        Some(b'e' | b'E') => None,
        _ => Some((int, None, at)),
    }
}

/// 10^k for k < 8.
const POW10_INT: [u64; 8] = [1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000];

/// Whether `b[i..]` starts with `word` (of at least 2 bytes): words of up
/// to 16 bytes by two overlapping loads, not a call.
#[inline(always)]
pub(super) fn same(b: &[u8], i: usize, word: &[u8]) -> bool {
    let n = word.len();
    let Some(s) = b.get(i..i + n) else {
        return false;
    };
    let load8 =
        |x: &[u8], at: usize| u64::from_le_bytes(x[at..at + 8].try_into().expect("8 bytes"));
    let load2 =
        |x: &[u8], at: usize| u16::from_le_bytes(x[at..at + 2].try_into().expect("2 bytes"));
    match n {
        8..=16 => load8(s, 0) == load8(word, 0) && load8(s, n - 8) == load8(word, n - 8),
        2..=7 => {
            // Overlapping 2-byte loads cover 2 to 7 bytes.
            (0..n - 1).step_by(2).all(|k| load2(s, k) == load2(word, k))
                && load2(s, n - 2) == load2(word, n - 2)
        }
        _ => s == word,
    }
}

/// `bytes` as a `str` without a second check (debug builds check anyway).
///
/// # Safety
/// `bytes` must be valid UTF-8: the callers pass bytes that `plain_run`
/// found to be ASCII, or that equal the bytes of a `str`.
#[inline(always)]
pub(super) unsafe fn known_str(bytes: &[u8]) -> &str {
    debug_assert!(std::str::from_utf8(bytes).is_ok(), "{bytes:?}");
    // SAFETY: the caller's promise.
    unsafe { std::str::from_utf8_unchecked(bytes) }
}

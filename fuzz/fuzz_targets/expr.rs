//! Expressions and templates: any text compiles or fails with an error, and
//! evaluating a compiled one on a row gives a value or an error naming the
//! row, never a panic nor a stack overflow.
//!
//! An input starting with byte 0xFF is a recipe for a deep or long text, so
//! that tiny inputs reach the 100,000-level chains a mutator would never
//! type: two bytes of count (big-endian), then `head`, a 0 byte, `middle`,
//! a 0 byte, `tail`; the text is `head` x count, `middle`, `tail` x count
//! (`not ` x 70000 `x`; `(` x 300 `x` `)` x 300; `x` (` and x` x 9000)).
#![no_main]

use libfuzzer_sys::fuzz_target;

/// Longest text a recipe builds (the chains that overflowed were shorter).
const MAX_BUILT: usize = 1 << 20;

fn recipe(data: &[u8]) -> Option<Vec<u8>> {
    let count = u16::from_be_bytes([*data.get(1)?, *data.get(2)?]) as usize;
    let mut parts = data[3..].splitn(3, |b| *b == 0);
    let (head, middle, tail) = (parts.next()?, parts.next().unwrap_or(b""), parts.next().unwrap_or(b""));
    let len = (head.len() + tail.len()).checked_mul(count)? + middle.len();
    if len > MAX_BUILT {
        return None;
    }
    let mut out = Vec::with_capacity(len);
    for _ in 0..count {
        out.extend_from_slice(head);
    }
    out.extend_from_slice(middle);
    for _ in 0..count {
        out.extend_from_slice(tail);
    }
    Some(out)
}

fuzz_target!(|data: &[u8]| {
    // A stack overflow leaves libFuzzer no stack to save the input with:
    // with ARTIFACT_FUZZ_LAST set (a tmpfs path), each input is written
    // there first, so the one that crashed the process is kept.
    if let Some(path) = std::env::var_os("ARTIFACT_FUZZ_LAST") {
        let _ = std::fs::write(path, data);
    }
    let built;
    let data = if data.first() == Some(&0xFF) {
        match recipe(data) {
            Some(b) => {
                built = b;
                &built[..]
            }
            None => return,
        }
    } else {
        data
    };
    let Ok(text) = std::str::from_utf8(data) else { return };
    artifact::plan::validate::fuzz_expression(text);
});

//! Expressions and templates: any text compiles or fails with an error, and
//! evaluating a compiled one on a row gives a value or an error naming the
//! row, never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    artifact::validate::fuzz_expression(text);
});

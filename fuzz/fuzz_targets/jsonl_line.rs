//! The line reader: any bytes as one JSONL line (and as a whole file, CRLF
//! and BOM included) must give a record or an error, never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = artifact::sources::parse_line("fuzz.jsonl", 1, data);
    let _ = artifact::sources::json::parse(data);
});

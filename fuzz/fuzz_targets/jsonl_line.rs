//! The line reader: any bytes as one JSONL line, read whole and read with a
//! projection (only some fields built), must give a record or an error,
//! never a panic; both readings give the same answer (a line is valid or
//! not whatever a table reads of it: the same error, or records that agree
//! on every field they both build).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let whole = artifact::sources::parse_line("fuzz.jsonl", 1, data);
    let mut p = artifact::sources::json::Projection::default();
    p.fields.insert("_kind".into(), None);
    p.fields.insert("a".into(), None);
    p.fields.insert("methods".into(), Some(["ratio".to_string()].into_iter().collect()));
    let projected = artifact::sources::parse_line_projected("fuzz.jsonl", 1, data, &p);
    match (&whole, &projected) {
        (Ok(w), Ok(pr)) => {
            for f in ["_kind", "a"] {
                assert_eq!(
                    format!("{:?}", w.get(f)),
                    format!("{:?}", pr.get(f)),
                    "projection changed field {f}"
                );
            }
        }
        (Err(w), Err(pr)) => assert_eq!(w.to_string(), pr.to_string(), "different errors"),
        (w, pr) => panic!("whole: {w:?}, projected: {pr:?}"),
    }
    let _ = artifact::sources::json::parse(data);
});

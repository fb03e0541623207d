//! The fast line reader (`sources::tape`) against the full parser: any
//! bytes as JSONL lines, read in order by one tape (which remembers the
//! last line's and map's keys). The tape never panics; wherever it reads a
//! line (rather than leaving it to the full parser), the full projected
//! parser reads it too and builds the same value for every field; and the
//! projected parser refuses exactly the lines the whole parser refuses,
//! with the same error (defects in skipped parts included).
#![no_main]

use artifact::sources::json::{Projection, parse_projected};
use artifact::sources::tape::{Cell, Fields, Keep, Tape};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let keys = vec![("decompress_MBps".to_string(), 0), ("ratio".to_string(), 1)];
    let fields = Fields::new(
        vec![
            ("_kind".into(), Keep::Whole),
            ("a".into(), Keep::Whole),
            ("methods".into(), Keep::Entries(keys.clone())),
        ],
        keys.iter().map(|(k, _)| k.clone()).collect(),
    );
    let mut p = Projection::default();
    p.fields.insert("_kind".into(), None);
    p.fields.insert("a".into(), None);
    p.fields.insert(
        "methods".into(),
        Some(keys.iter().map(|(k, _)| k.clone()).collect()),
    );
    let mut tape = Tape::default();
    for line in data.split(|&b| b == b'\n') {
        let mut slots = [Cell::Undef; 3];
        let projected = parse_projected(line, &p);
        let whole = artifact::sources::json::parse(line);
        assert_eq!(
            projected.as_ref().err(),
            whole.as_ref().err(),
            "a projection changed whether the line is valid"
        );
        if tape.read(line, &fields, &mut slots).is_none() {
            continue;
        }
        let full = projected
            .unwrap_or_else(|e| panic!("the tape read a line the full parser refuses: {e:?}"));
        let rec = artifact::value::as_record(&full).expect("an object");
        for ((name, _), cell) in fields.fields.iter().zip(slots) {
            let want = rec
                .get(name)
                .cloned()
                .unwrap_or(artifact::value::Value::UNDEFINED);
            assert_eq!(
                format!("{:?}", tape.to_value(cell)),
                format!("{want:?}"),
                "field {name}"
            );
        }
    }
});

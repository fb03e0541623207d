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
    // Each line read from its start in the whole input (`read_line`, which
    // finds the line's end itself) agrees with reading the line as cut.
    let mut by_line = Tape::default();
    let mut at = 0;
    for line in data.split(|&b| b == b'\n') {
        let rest = &data[at..];
        at += line.len() + 1;
        let cut = line.strip_suffix(b"\r").unwrap_or(line);
        let shown = |tape: &Tape, cells: &[Cell]| -> Vec<String> {
            cells.iter().map(|c| format!("{:?}", tape.to_value(*c))).collect()
        };
        let mut cells = [Cell::Undef; 3];
        let ended = by_line
            .read_line(rest, &fields, &mut cells)
            .map(|end| (end, shown(&by_line, &cells)));
        let read = by_line
            .read(cut, &fields, &mut cells)
            .map(|()| shown(&by_line, &cells));
        match (ended, read) {
            (Some((end, a)), Some(b)) => {
                assert_eq!(end, line.len(), "read_line ended elsewhere than the line");
                assert_eq!(a, b, "read_line read other cells");
            }
            (Some(_), None) => panic!("read_line read a line that read refuses"),
            (None, Some(_)) => assert!(
                rest.first() != Some(&b'{'),
                "read_line refused a line that read reads"
            ),
            (None, None) => {}
        }
    }
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

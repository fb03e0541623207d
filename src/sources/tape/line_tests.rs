//! [`Tape::read_line`]: a line read from the start of a batch, its end
//! found by the read, against [`Tape::read`] of the line as cut by
//! `batches::lines`.

use super::*;

fn fields() -> Fields {
    Fields::new(
        vec![
            ("_kind".into(), Keep::Whole),
            ("input_bytes".into(), Keep::Whole),
            ("methods".into(), Keep::Entries(vec![("ratio".into(), 0)])),
        ],
        vec!["ratio".into()],
    )
}

/// `read_line` on `batch`: the end found and the cells shown.
fn read_line(batch: &str) -> Option<(usize, String)> {
    let f = fields();
    let mut tape = Tape::default();
    let mut slots = vec![Cell::Undef; f.fields.len()];
    let end = tape.read_line(batch.as_bytes(), &f, &mut slots)?;
    let shown: Vec<String> = slots
        .iter()
        .map(|c| tape.to_value(*c).to_string())
        .collect();
    Some((end, shown.join(" | ")))
}

/// `read` on `line`: the cells shown.
fn read(line: &str) -> Option<String> {
    let f = fields();
    let mut tape = Tape::default();
    let mut slots = vec![Cell::Undef; f.fields.len()];
    tape.read(line.as_bytes(), &f, &mut slots)?;
    let shown: Vec<String> = slots
        .iter()
        .map(|c| tape.to_value(*c).to_string())
        .collect();
    Some(shown.join(" | "))
}

#[test]
fn a_read_line_ends_at_its_newline_blanks_and_a_carriage_return_included() {
    let line = r#"{"_kind": "a", "input_bytes": 7, "methods": {"m": {"ratio": 1.5}}}"#;
    let n = line.len();
    let cells = "a | 7 | {'m': {'ratio': 1.5}}";
    assert_eq!(
        read_line(&format!("{line}\n{line}\n")),
        Some((n, cells.into()))
    );
    assert_eq!(
        read_line(&format!("{line}\r\n{line}")),
        Some((n + 1, cells.into()))
    );
    assert_eq!(
        read_line(&format!("{line}  \t\n")),
        Some((n + 3, cells.into()))
    );
    // The last line of a file, without a newline.
    assert_eq!(read_line(line), Some((n, cells.into())));
    assert_eq!(read_line("{}\n"), Some((2, " |  | ".into())));
}

#[test]
fn a_newline_inside_an_object_ends_the_line_and_leaves_it() {
    // A newline where a blank may be: two lines, neither an object. The
    // read must not run on into the next line.
    for batch in [
        "{\"_kind\":\n\"a\"}\n",
        "{\"_kind\": \"a\",\n\"input_bytes\": 1}\n",
        "{\"other\": [1,\n2]}\n",
        "{\"methods\": {\"m\": {\"ratio\": 1,\n\"x\": 2}}}\n",
        "{\n}\n",
        // In a string (kept or skipped): a control character.
        "{\"_kind\": \"a\nb\"}\n",
        "{\"other\": \"a\nb\"}\n",
        // Anything after the object on its line.
        "{\"_kind\": \"a\"} x\n{}\n",
        "{\"_kind\": \"a\"}{}\n",
        "{\"_kind\": \"a\"}\x0c\n",
        // Cut short.
        "{\"_kind\": \"a\"",
        "{\"_kind\": \"a\"\n}",
    ] {
        assert_eq!(read_line(batch), None, "{batch:?}");
        let first = batch.split('\n').next().unwrap();
        let first = first.strip_suffix('\r').unwrap_or(first);
        assert_eq!(read(first), None, "{batch:?}");
    }
}

#[test]
fn a_read_line_agrees_with_reading_the_cut_line() {
    // Each line (with `\n` or `\r\n` after it, and a next line) read both
    // ways: the same answer and cells, and the end where the line ends.
    let lines = [
        r#"{"_kind": "bench_7B", "input_bytes": 4, "methods": {"a": {"ratio": 1.27, "x": [1, {"y": null}]}, "b": 3}}"#,
        r#"{"_kind":"Q4_K","input_bytes":-7,"methods":"n/a"}"#,
        r#"{ "methods" : { } , "_kind" : true }  "#,
        r#"{"input_bytes": 1e400}"#,
        r#"{"_kind": "a\"b"}"#,
        r#"{"_kind": "a", "_kind": "b"}"#,
        r#"{"_kind": "x",}"#,
        r#"{"_kind": "café", "other": "\u00e9\t"}"#,
        r#"{"_kind": "x"} trailing"#,
        "{\"_kind\": \"tab\there\"}",
        r#"{"_kind": "x""#,
        r#"{"input_bytes": 12345678901234567890.5e+3}"#,
        "{\"_kind\":\t\"a\" ,\r\"input_bytes\" :  2 }\r",
    ];
    let mut answered = 0;
    for line in lines {
        for sep in ["\n", "\r\n"] {
            let batch = format!("{line}{sep}{{\"_kind\": \"next\"}}\n");
            let cut = line.strip_suffix('\r').unwrap_or(line);
            match (read_line(&batch), read(cut)) {
                (Some((end, got)), Some(want)) => {
                    answered += 1;
                    assert_eq!(got, want, "{batch:?}");
                    assert_eq!(&batch[end..end + 1], "\n", "{batch:?}");
                    assert_eq!(end, line.len() + sep.len() - 1, "{batch:?}");
                }
                (None, None) => {}
                (fast, cut) => panic!("{batch:?}: read_line {fast:?}, read {cut:?}"),
            }
        }
    }
    assert_eq!(answered, 2 * 6, "the lines without oddities are read");
}

#[test]
fn read_line_agrees_with_read_on_random_batches_of_json_pieces() {
    // Batches of lines made of JSON pieces (blanks, newlines and carriage
    // returns among them), read line by line from each line's start: the
    // same answer as reading the cut line, and the end at its newline.
    let pieces: &[&str] = &[
        "{",
        "}",
        "[",
        "]",
        ",",
        ":",
        " ",
        "\t",
        "\r",
        "\n",
        "\"_kind\"",
        "\"methods\"",
        "\"m\"",
        "\"ratio\"",
        "\"x\"",
        "1",
        "-2.5",
        "1e3",
        "true",
        "null",
        "\"a\\nb\"",
        "\"é\"",
        "{\"ratio\": 1.5}",
        "\"_kind\": \"a\"",
        "\"input_bytes\": 7",
    ];
    let f = fields();
    let mut rng = 0x51AF_D7ED_558C_CD1Bu64;
    let mut read_both = 0;
    for _ in 0..3000 {
        let mut batch = String::new();
        for _ in 0..(rng % 6 + 1) {
            super::tests::xorshift(&mut rng);
            // Mostly well-formed lines, some torn apart.
            batch.push_str("{\"_kind\": \"a\", ");
            for _ in 0..(rng % 5) {
                super::tests::xorshift(&mut rng);
                batch.push_str(pieces[(rng >> 33) as usize % pieces.len()]);
            }
            batch.push_str(match rng % 4 {
                0 => "\"methods\": {\"m\": {\"ratio\": 2}}}\n",
                1 => "\"input_bytes\": 3}\r\n",
                2 => "\"x\": [1, 2]} \n",
                _ => "\"x\": 1}",
            });
        }
        let bytes = batch.as_bytes();
        let mut at = 0;
        for line in bytes.split(|&b| b == b'\n') {
            let rest = &bytes[at..];
            at += line.len() + 1;
            let cut = line.strip_suffix(b"\r").unwrap_or(line);
            let (mut tape, mut slots) = (Tape::default(), vec![Cell::Undef; f.fields.len()]);
            let ended = tape.read_line(rest, &f, &mut slots).map(|end| {
                let shown: Vec<String> = slots
                    .iter()
                    .map(|c| tape.to_value(*c).to_string())
                    .collect();
                (end, shown)
            });
            let (mut tape, mut slots) = (Tape::default(), vec![Cell::Undef; f.fields.len()]);
            let read = tape.read(cut, &f, &mut slots).map(|()| {
                slots
                    .iter()
                    .map(|c| tape.to_value(*c).to_string())
                    .collect::<Vec<_>>()
            });
            match (ended, read) {
                (Some((end, a)), Some(b)) => {
                    read_both += 1;
                    assert_eq!(end, line.len(), "{batch:?}");
                    assert_eq!(a, b, "{batch:?}");
                }
                (None, None) => {}
                (None, Some(_)) if rest.first() != Some(&b'{') => {}
                (a, b) => panic!("{batch:?} at {line:?}: read_line {a:?}, read {b:?}"),
            }
        }
    }
    // (Seeded: 1,568 of its lines are objects read both ways.)
    assert!(read_both > 1000, "{read_both} lines read both ways");
}

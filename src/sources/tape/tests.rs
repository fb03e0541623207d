//! The tape against the full parser, and its byte-level helpers against
//! plain loops.

use super::bytes::{digit_run, plain_run};
use super::*;
use crate::sources::json::{Projection, parse_projected};
use crate::value::as_record;

pub(super) fn fields() -> (Fields, Projection) {
    let keys: Vec<(String, u32)> = vec![("ratio".into(), 0), ("decompress_MBps".into(), 1)];
    let f = Fields::new(
        vec![
            ("_kind".into(), Keep::Whole),
            ("input_bytes".into(), Keep::Whole),
            ("methods".into(), Keep::Entries(keys.clone())),
            ("shape".into(), Keep::Whole),
        ],
        vec!["ratio".into(), "decompress_MBps".into()],
    );
    let mut p = Projection::default();
    p.fields.insert("_kind".into(), None);
    p.fields.insert("input_bytes".into(), None);
    p.fields.insert(
        "methods".into(),
        Some(keys.into_iter().map(|(k, _)| k).collect()),
    );
    p.fields.insert("shape".into(), None);
    (f, p)
}

const LINES: &[&str] = &[
    r#"{"_kind": "bench_7B", "input_bytes": 4194304, "methods": {"zstd3": {"ratio": 1.27, "compressed_bytes": 3, "decompress_MBps": 1339.76}, "x": {"error": "no", "ratio": null}}, "other": [1, {"a": "\u00e9\n"}, -0.5e-3]}"#,
    r#"{"_kind":"Q4_K","input_bytes":-7,"shape":[384,384],"methods":"n/a"}"#,
    r#"  { "methods" : { } , "shape" : [ ] , "_kind" : true }  "#,
    r#"{"input_bytes": 1.0, "_kind": false, "methods": {"a": 1, "b": [1, 2], "c": {"ratio": {"deep": [null]}}}}"#,
    r#"{}"#,
    r#"{"input_bytes": 18446744073709551615}"#,
    r#"{"input_bytes": 9223372036854775807, "_kind": "café"}"#,
    r#"{"input_bytes": -0}"#,
    r#"{"input_bytes": 1e400}"#,
    r#"{"input_bytes": NaN}"#,
    r#"{"_kind": "a\"b"}"#,
    r#"{"_kind": "a", "_kind": "b"}"#,
    r#"{"methods": {"m": {"ratio": 1, "ratio": 2}}}"#,
    r#"{"methods": {"m": {"zz": 1, "zz": 2}}}"#,
    r#"{"methods": {"m": 1, "m": 2}}"#,
    r#"{"other": {"q": 1, "q": 2}}"#,
    r#"{"_kind": "x",}"#,
    r#"{"_kind": "x"} trailing"#,
    r#"{"_kind": "x""#,
    r#"{"_kind": 01}"#,
    r#"{"_kind": 1.}"#,
    r#"{"_kind": .5}"#,
    r#"{"_kind": tru}"#,
    r#"["not", "an", "object"]"#,
    r#"{"input_bytes": 2.5E+3, "shape": [1.5, -2, true, null, "s"]}"#,
    r#"{"other": "\ud83d\ude00"}"#,
    r#"{"other": "\x"}"#,
    "{\"other\": \"tab\there\"}",
    r#"{"other": 01}"#,
    r#"{"other": 1.}"#,
    r#"{"other": -}"#,
    r#"{"other": 1e}"#,
    r#"{"other": 12345678901234567890.5e+3}"#,
    r#"{"other": [1.5e+10, -0, 0.25, 123456789012]}"#,
    // Integers beyond u64: a kept one is the full parser's (exact, i128);
    // a skipped one within 128 bits is valid either way.
    r#"{"input_bytes": 123456789012345678901234567890}"#,
    r#"{"_kind": "w", "other": [123456789012345678901234567890, -99999999999999999999]}"#,
    // Blanks of every kind and count between tokens, and one at the end.
    "{\"_kind\":\t\"a\" ,\r\"input_bytes\" :  2,  \"methods\":{\"m\" :{ \"ratio\" : 1.5 ,\"decompress_MBps\":\t2}} } ",
    "{ \"_kind\": \"b\", \"shape\": [ 1 , 2 ,3 ],\n\"input_bytes\": 7 } ",
];

#[test]
fn agrees_with_the_full_parser_wherever_it_answers() {
    let (f, p) = fields();
    let mut answered = 0;
    for line in LINES {
        let mut tape = Tape::default();
        let mut slots = vec![Cell::Undef; f.fields.len()];
        let fast = tape.read(line.as_bytes(), &f, &mut slots);
        let full = parse_projected(line.as_bytes(), &p);
        let Some(()) = fast else { continue };
        answered += 1;
        let full = full.unwrap_or_else(|e| panic!("{line}: fast read it, full failed: {e:?}"));
        let rec = as_record(&full).expect("an object");
        for ((name, _), cell) in f.fields.iter().zip(&slots) {
            let got = tape.to_value(*cell);
            let want = rec
                .get(name)
                .cloned()
                .unwrap_or(crate::value::Value::UNDEFINED);
            assert_eq!(format!("{got:?}"), format!("{want:?}"), "{line}: {name}");
        }
    }
    // (An entry's kept attribute holding a map, `"ratio": {"deep": ..}`,
    // is left to the full parser too; a key repeated in a skipped object
    // is an error, as it is in a kept one.)
    assert_eq!(answered, 11, "the lines without oddities are read");
}

#[test]
fn fields_are_found_by_name_whatever_their_length_or_number() {
    let long = "k".repeat(70);
    let mut names: Vec<String> = (0..70).map(|i| format!("f{i}")).collect();
    names.push(long.clone());
    names.push(String::new());
    let f = Fields::new(
        names.iter().map(|n| (n.clone(), Keep::Whole)).collect(),
        Vec::new(),
    );
    for (i, n) in names.iter().enumerate() {
        assert_eq!(f.slot(n), Some(i), "{n}");
    }
    assert_eq!(f.slot("f70"), None);
    let few = Fields::new(
        vec![("ab".into(), Keep::Whole), (long.clone(), Keep::Whole)],
        Vec::new(),
    );
    assert_eq!(few.slot(&long), Some(1));
    assert_eq!(few.slot("ab"), Some(0));
    assert_eq!(few.slot("ba"), None);
    assert_eq!(few.slot("abc"), None);
}

/// The next state of a xorshift64 generator (seeded, the same everywhere).
pub(super) fn xorshift(rng: &mut u64) {
    *rng ^= *rng << 13;
    *rng ^= *rng >> 7;
    *rng ^= *rng << 17;
}

#[test]
fn digit_runs_stop_where_a_byte_loop_stops() {
    let mut rng = 0xD1B5_4A32_D192_ED03u64;
    for _ in 0..20_000 {
        xorshift(&mut rng);
        let len = (rng % 30) as usize;
        let bytes: Vec<u8> = (0..len)
            .map(|k| {
                let r = rng.rotate_left(k as u32 * 7);
                if r.is_multiple_of(7) {
                    (r >> 8) as u8
                } else {
                    b'0' + (r >> 16) as u8 % 10
                }
            })
            .collect();
        let start = (rng >> 50) as usize % (len + 1);
        let naive = bytes[start..]
            .iter()
            .take_while(|c| c.is_ascii_digit())
            .count();
        assert_eq!(digit_run(&bytes, start), naive, "{bytes:?} from {start}");
    }
}

/// A tape reading line after line remembers the keys of the last map (its
/// shape) and matches the next map's keys against them: that must never
/// change what a line reads as, whatever the next line's keys.
#[test]
fn remembered_key_order_never_changes_a_read() {
    let (f, _) = fields();
    let maps = [
        r#"{"ratio": 1.5, "compressed_bytes": 2, "decompress_MBps": 3.25}"#,
        r#"{"ratio": 1.5, "compressed_bytes": 2, "ratio": 3}"#,
        r#"{"ratio": 1.5, "compressed_bytes": 2, "decompress_MBps": 3.25, "ratio": 4}"#,
        r#"{"ratio": 1.5}"#,
        r#"{"ratio": 1.5, "ratio": 1.5}"#,
        r#"{"decompress_MBps": 7, "ratio": 1.5, "compressed_bytes": 2}"#,
        r#"{"ratio": 1.5, "compressed_bytes": 2, "decompress_MBps": 3.25, "x": 1, "x": 2}"#,
        r#"{"ratio" : 1.5 , "compressed_bytes":2,"decompress_MBps":3.25}"#,
        r#"{"ratios": 1, "ratio": 2}"#,
        r#"{"rati": 1, "ratio": 2, "ratio\u0000": 3}"#,
        r#"{"error": "no", "ratio": null}"#,
        r#"{"ratio": {"deep": 1}}"#,
        r#"{"compressed_bytes": 2, "decompress_MBps": 3.25, "compressed_bytes": 5}"#,
        r#"{"é": 1, "ratio": 2}"#,
        r#"{"é": 1, "é": 2}"#,
        r#"{}"#,
    ];
    let mut lines = Vec::new();
    for a in maps {
        for b in maps {
            lines.push(format!(
                r#"{{"methods": {{"m1": {a}, "m2": {b}, "m3": {a}}}}}"#
            ));
            lines.push(format!(r#"{{"methods": {{"m1": {b}}}, "_kind": "k"}}"#));
        }
    }
    // Top-level keys in changing orders, repeated after a matched prefix,
    // spaced differently.
    for top in [
        r#"{"_kind": "k", "input_bytes": 3, "methods": {}}"#,
        r#"{"_kind": "k", "input_bytes": 3, "methods": {}, "_kind": "j"}"#,
        r#"{"_kind": "k", "input_bytes": 3}"#,
        r#"{"_kind" : "k", "input_bytes": 3, "methods": {}}"#,
        r#"{"input_bytes": 3, "_kind": "k", "methods": {}}"#,
        r#"{"_kind": "k", "input_bytes": 3, "methods": {}, "extra": [1], "extra": 2}"#,
        r#"{"_kind": "k", "input_bytes": 3, "methods": {}, "input_bytes": 4}"#,
        r#"{"_kinds": "k", "_kind": 1}"#,
        r#"{}"#,
    ] {
        for _ in 0..2 {
            lines.push(top.to_string());
            lines.push(lines[7].clone());
        }
    }
    fn read<'a>(tape: &mut Tape<'a>, f: &Fields, line: &'a str) -> Option<String> {
        let mut slots = vec![Cell::Undef; f.fields.len()];
        tape.read(line.as_bytes(), f, &mut slots)?;
        Some(
            slots
                .iter()
                .map(|c| format!("{:?}", tape.to_value(*c)))
                .collect::<Vec<_>>()
                .join(" | "),
        )
    }
    // One tape reads every line (and may remember); a fresh one forgets.
    let mut tape = Tape::default();
    let mut checked = 0;
    for line in &lines {
        let fresh = read(&mut Tape::default(), &f, line);
        assert_eq!(read(&mut tape, &f, line), fresh, "{line}");
        checked += fresh.is_some() as usize;
    }
    assert!(checked > 100, "most lines are read ({checked})");
}

/// The line is not checked as UTF-8 as a whole: each string checks its own
/// multi-byte characters, kept or skipped, key or value.
#[test]
fn utf8_is_checked_in_every_string() {
    let (f, p) = fields();
    let read = |line: &[u8]| {
        let mut tape = Tape::default();
        let mut slots = vec![Cell::Undef; f.fields.len()];
        let fast = tape.read(line, &f, &mut slots);
        let full = parse_projected(line, &p);
        (fast, full.is_ok(), format!("{:?}", tape.to_value(slots[0])))
    };
    let good: &[u8] = "{\"_kind\": \"café € 😀\", \"other\": \"é\", \"mé\": {\"ü\": \"ß\"}, \"methods\": {\"né\": {\"ratio\": 1}}}".as_bytes();
    let (fast, full, kind) = read(good);
    assert_eq!((fast, full), (Some(()), true));
    assert_eq!(kind, "'café € 😀'");
    let bad: [&[u8]; 7] = [
        b"\xc0\x80",
        b"\x80",
        b"\xed\xa0\x80",
        b"\xe2\x82",
        b"\xf5\x80\x80\x80",
        b"\xff",
        b"\xc3",
    ];
    for seq in bad {
        let at = |template: &str| {
            let (a, b) = template.split_once('@').expect("a hole");
            [a.as_bytes(), seq, b.as_bytes()].concat()
        };
        for template in [
            "{\"_kind\": \"a@b\"}",
            "{\"other\": \"a@\"}",
            "{\"o@ther\": 1}",
            "{\"methods\": {\"m@\": {\"ratio\": 1}}}",
            "{\"methods\": {\"m\": {\"r@\": 1, \"ratio\": 2}}}",
            "{\"other\": [\"@\"]}",
            "{\"_kind\": 1@}",
        ] {
            // The full parser refuses it too, read or skipped: a line is
            // valid or not whatever the table reads of it.
            let line = at(template);
            assert_eq!(read(&line).0, None, "{line:?}");
            assert!(!read(&line).1, "{line:?}");
        }
    }
}

#[test]
fn plain_runs_stop_where_a_byte_loop_stops() {
    let alphabet = [
        b'a', b'"', b'\\', 0x1f, 0x20, 0x7f, 0x80, 0xc3, 0xa9, b'0', 0x00, 0xff,
    ];
    let mut rng = 0x9E37_79B9_7F4A_7C15u64;
    for _ in 0..20_000 {
        xorshift(&mut rng);
        let len = (rng % 40) as usize;
        let bytes: Vec<u8> = (0..len)
            .map(|k| {
                let r = rng.rotate_left(k as u32 * 5);
                if r.is_multiple_of(5) {
                    alphabet[(r >> 8) as usize % alphabet.len()]
                } else {
                    b'x'
                }
            })
            .collect();
        let start = (rng >> 50) as usize % (len + 1);
        let naive = (start..len)
            .find(|&i| bytes[i] == b'"' || bytes[i] == b'\\' || !(0x20..0x80).contains(&bytes[i]))
            .unwrap_or(len);
        assert_eq!(plain_run(&bytes, start), naive, "{bytes:?} from {start}");
    }
}

/// A number as the tape reads it, or `None` when it leaves it; at the end
/// of the line and with bytes after it (both ways of reading the digits),
/// which must agree.
fn read_number(s: &str) -> Option<Cell<'_>> {
    let f = Fields::new(vec![("x".into(), Keep::Whole)], Vec::new());
    let mut cells = Vec::new();
    for line in [
        format!("{{\"x\": {s}}}"),
        format!("{{\"x\": {s}, \"padding\": 12345678}}"),
    ] {
        let mut tape = Tape::default();
        let mut slots = [Cell::Undef];
        cells.push(
            tape.read(line.as_bytes(), &f, &mut slots)
                .map(|()| match slots[0] {
                    Cell::Int(i) => Cell::Int(i),
                    Cell::Float(x) => Cell::Float(x),
                    other => panic!("{s}: {other:?}"),
                }),
        );
    }
    assert_eq!(format!("{:?}", cells[0]), format!("{:?}", cells[1]), "{s}");
    cells[0]
}

#[test]
fn numbers_equal_the_standard_parse_bit_for_bit() {
    let mut rng = 0x2545_F491_4F6C_DD1Du64;
    for _ in 0..100_000 {
        xorshift(&mut rng);
        let digits = 1 + (rng % 20) as usize;
        let point = (rng >> 8) as usize % (digits + 1);
        let mut s = String::new();
        if rng & (1 << 40) != 0 {
            s.push('-');
        }
        let mut x = rng >> 20;
        for i in 0..digits {
            if i == point && i > 0 {
                s.push('.');
            }
            let d = if i == 0 && digits > 1 && point != 1 {
                1 + x % 9
            } else {
                x % 10
            };
            s.push(char::from(b'0' + d as u8));
            x = x / 10 + (rng >> (i % 40));
        }
        if rng & (1 << 41) != 0 {
            s.push_str(&format!("e{}", (rng >> 44) % 40));
        }
        match read_number(&s) {
            Some(Cell::Float(f)) => {
                assert_eq!(f.to_bits(), s.parse::<f64>().unwrap().to_bits(), "{s}")
            }
            Some(Cell::Int(i)) => assert_eq!(Some(i), s.parse::<i64>().ok(), "{s}"),
            Some(_) => unreachable!(),
            None => assert!(
                s == "-0" || s.parse::<i64>().is_err() && !s.contains(['.', 'e']),
                "{s}"
            ),
        }
    }
    assert_eq!(read_number("0.1"), Some(Cell::Float(0.1)));
    assert_eq!(read_number("-0.0"), Some(Cell::Float(-0.0)));
    assert_eq!(read_number("-0"), None);
    assert_eq!(read_number("9223372036854775808"), None);
    assert_eq!(
        read_number("-9223372036854775808"),
        Some(Cell::Int(i64::MIN))
    );
    assert_eq!(read_number("1e400"), None);
}

#[test]
fn leaves_every_line_the_full_parser_refuses_to_it() {
    let (f, p) = fields();
    let mut refused = 0;
    for line in LINES {
        if parse_projected(line.as_bytes(), &p).is_ok() {
            continue;
        }
        refused += 1;
        let mut tape = Tape::default();
        let mut slots = vec![Cell::Undef; f.fields.len()];
        assert_eq!(tape.read(line.as_bytes(), &f, &mut slots), None, "{line}");
    }
    assert!(refused >= 12, "{refused}");
}

/// Lines whose defect is in a part a projection skips: the projected parse
/// gives the whole parse's error (same message, same column), so a line's
/// validity does not depend on which fields a table reads; the tape leaves
/// each to it.
#[test]
fn projection_never_changes_whether_a_line_is_valid() {
    let (f, p) = fields();
    let deep = |n: usize| format!("{}{}", "[".repeat(n), "]".repeat(n));
    let mut lines: Vec<Vec<u8>> = LINES.iter().map(|l| l.as_bytes().to_vec()).collect();
    for text in [
        format!(r#"{{"_kind": "k", "other": {}}}"#, deep(127)),
        format!(r#"{{"_kind": "k", "other": {}}}"#, deep(128)),
        format!(r#"{{"_kind": "k", "other": {{"a": {}}}}}"#, deep(126)),
        format!(
            r#"{{"methods": {{"m": {{"ratio": 1, "x": {}}}}}}}"#,
            deep(125)
        ),
        format!(
            r#"{{"methods": {{"m": {{"ratio": 1, "x": {}}}}}}}"#,
            deep(126)
        ),
        r#"{"other": {"a": {"b": [{"c": 1, "c": 2}]}}}"#.to_string(),
        r#"{"methods": {"m": {"ratio": 1, "x": {"y": 1, "y": 2}}}}"#.to_string(),
        r#"{"other": {"\u0061": 1, "a": 2}}"#.to_string(),
        r#"{"other": {"a": "\ud800"}}"#.to_string(),
        r#"{"other": [1e400]}"#.to_string(),
        r#"{"other": -1.5E+309}"#.to_string(),
        r#"{"other": 1.7976931348623157e308, "x": 1e-400}"#.to_string(),
        r#"{"other": 0e999999999999999999999}"#.to_string(),
        format!(r#"{{"other": {}}}"#, "9".repeat(309)),
        format!(r#"{{"other": {}}}"#, "9".repeat(308)),
        // Wider than 128 bits: an error wherever it is, read or skipped.
        format!(r#"{{"_kind": "k", "other": {}}}"#, "9".repeat(39)),
        format!(
            r#"{{"methods": {{"m": {{"ratio": 1, "x": -{}}}}}}}"#,
            "1".repeat(45)
        ),
        format!(
            r#"{{"methods": {{"m": {{"ratio": 1, "x": {}.5}}}}}}"#,
            "9".repeat(400)
        ),
    ] {
        lines.push(text.into_bytes());
    }
    lines.push(b"{\"_kind\": \"k\", \"other\": {\"x\": \"\xff\"}}".to_vec());
    lines.push(b"{\"methods\": {\"m\": {\"x\": \"\xc3\", \"ratio\": 1}}}".to_vec());
    let mut refused = 0;
    for line in &lines {
        let whole = crate::sources::json::parse(line).map(|_| ());
        let projected = parse_projected(line, &p).map(|_| ());
        let shown = String::from_utf8_lossy(line);
        assert_eq!(projected, whole, "{shown}");
        if whole.is_err() {
            refused += 1;
            let mut tape = Tape::default();
            let mut slots = vec![Cell::Undef; f.fields.len()];
            assert_eq!(tape.read(line, &f, &mut slots), None, "{shown}");
        }
    }
    assert!(refused >= 20, "{refused}");
}

/// An object of many keys is checked for repeats with a hash set (the
/// 64-bit filter is full past a few dozen keys): a repeat far in is
/// still found, at the line's level, in a kept map and in a skipped one.
#[test]
fn repeats_are_found_among_many_keys() {
    let (f, p) = fields();
    let keys = |n: usize, again: Option<usize>| {
        let mut items: Vec<String> = (0..n).map(|i| format!(r#""k{i}": {i}"#)).collect();
        if let Some(k) = again {
            items.push(format!(r#""k{k}": 0"#));
        }
        items.join(", ")
    };
    for (n, again) in [
        (5000, None),
        (5000, Some(3)),
        (5000, Some(4000)),
        (40, Some(39)),
    ] {
        for text in [
            format!(r#"{{"_kind": "k", {}}}"#, keys(n, again)),
            format!(r#"{{"_kind": "k", "other": {{{}}}}}"#, keys(n, again)),
            format!(r#"{{"shape": {{{}}}}}"#, keys(n, again)),
            format!(r#"{{"methods": {{"m": {{{}}}}}}}"#, keys(n, again)),
        ] {
            let mut tape = Tape::default();
            let mut slots = vec![Cell::Undef; f.fields.len()];
            let fast = tape.read(text.as_bytes(), &f, &mut slots);
            let full = parse_projected(text.as_bytes(), &p);
            let head = &text[..40];
            assert_eq!(fast.is_some(), again.is_none(), "{head} {again:?}");
            assert_eq!(full.is_ok(), again.is_none(), "{head} {again:?}");
            if let Some(k) = again {
                let e = full.unwrap_err();
                assert!(e.message.contains(&format!("k{k}`")), "{}", e.message);
            }
        }
    }
}

//! String runs 16 bytes at a time (`bytes::plain_run`) against the word
//! and byte loops, and long strings around 16-byte blocks against the
//! full parser.

use super::bytes::{plain_run, plain_run_swar};
use super::tests::{fields, xorshift};
use super::*;
use crate::sources::json::parse_projected;
use crate::value::as_record;

/// Where a byte loop stops a plain run (the definition both ways agree with).
fn naive_plain_run(bytes: &[u8], start: usize) -> usize {
    (start..bytes.len())
        .find(|&i| bytes[i] == b'"' || bytes[i] == b'\\' || !(0x20..0x80).contains(&bytes[i]))
        .unwrap_or(bytes.len())
}

#[test]
fn plain_runs_stop_at_every_place_of_a_long_string_across_blocks() {
    // Each stopping byte (the ends of the ASCII ranges too) at each place
    // of a run longer than several 16-byte blocks, read from each start
    // near it: the block, the word and the byte loops must all stop there.
    let stops = [b'"', b'\\', 0x00, 0x1f, 0x80, 0xbf, 0xc3, 0xff];
    for &stop in &stops {
        for at in 0..70 {
            let mut bytes = vec![b'~'; 70];
            bytes[at] = stop;
            for start in 0..=at.min(40) {
                assert_eq!(
                    plain_run(&bytes, start),
                    at,
                    "{stop:#x} at {at} from {start}"
                );
                assert_eq!(
                    plain_run_swar(&bytes, start),
                    at,
                    "{stop:#x} at {at} from {start}"
                );
            }
        }
    }
    // The bytes that never stop a run, over every length up to four blocks
    // and a tail: the run goes to the end.
    let plain: Vec<u8> = (0x20u8..0x80)
        .filter(|&c| c != b'"' && c != b'\\')
        .collect();
    for len in 0..70 {
        let bytes: Vec<u8> = (0..len).map(|k| plain[(k * 7) % plain.len()]).collect();
        assert_eq!(plain_run(&bytes, 0), len);
        assert_eq!(plain_run(&bytes, len), len);
    }
}

#[test]
fn plain_runs_of_long_random_strings_stop_where_a_byte_loop_stops() {
    let alphabet = [b'"', b'\\', 0x01, 0x1f, 0x20, 0x7f, 0x80, 0xe2, 0xff];
    let mut rng = 0x2545_F491_4F6C_DD1Du64;
    for _ in 0..20_000 {
        xorshift(&mut rng);
        let len = (rng % 200) as usize;
        // Rare stopping bytes: most runs are long and cross blocks.
        let bytes: Vec<u8> = (0..len)
            .map(|k| {
                let r = rng.rotate_left(k as u32 * 3) ^ (k as u64).wrapping_mul(0x9E37);
                if r.is_multiple_of(61) {
                    alphabet[(r >> 8) as usize % alphabet.len()]
                } else {
                    b'a' + (r >> 20) as u8 % 26
                }
            })
            .collect();
        let start = (rng >> 40) as usize % (len + 1);
        let naive = naive_plain_run(&bytes, start);
        assert_eq!(plain_run(&bytes, start), naive, "{bytes:?} from {start}");
        assert_eq!(
            plain_run_swar(&bytes, start),
            naive,
            "{bytes:?} from {start}"
        );
    }
}

#[test]
fn long_strings_with_escapes_and_unicode_past_a_block_agree_with_the_full_parser() {
    // A kept and a skipped string whose escape, multi-byte character or
    // control character falls at each place around 16-byte blocks, and
    // the line cut inside it.
    let (f, p) = fields();
    let mut answered = 0;
    for odd in ["\\n", "\\\"", "\\u00e9", "é", "€", "😀", "\u{1}", "\u{7f}"] {
        for at in 0..50 {
            let body = format!("{}{odd}{}", "x".repeat(at), "y".repeat(50 - at));
            for line in [
                format!("{{\"_kind\": \"{body}\", \"input_bytes\": 1}}"),
                format!("{{\"other\": \"{body}\", \"input_bytes\": 2}}"),
                format!("{{\"_kind\": \"{body}"),
            ] {
                let mut tape = Tape::default();
                let mut slots = vec![Cell::Undef; f.fields.len()];
                let fast = tape.read(line.as_bytes(), &f, &mut slots);
                let full = parse_projected(line.as_bytes(), &p);
                let Some(()) = fast else { continue };
                answered += 1;
                let full = full.unwrap_or_else(|e| panic!("{line}: fast read it, full: {e:?}"));
                let rec = as_record(&full).expect("an object");
                for ((name, _), cell) in f.fields.iter().zip(&slots) {
                    let want = rec
                        .get(name)
                        .cloned()
                        .unwrap_or(crate::value::Value::UNDEFINED);
                    let got = tape.to_value(*cell);
                    assert_eq!(format!("{got:?}"), format!("{want:?}"), "{line}: {name}");
                }
            }
        }
    }
    // Read: a kept string with a multi-byte character or DEL (4 kinds), a
    // skipped one with anything but a control character (7); an escape in
    // a kept string, a control character and a cut line are left.
    assert_eq!(answered, 11 * 50);
}

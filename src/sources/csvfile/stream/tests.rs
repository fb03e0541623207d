//! Tests of [`super::CsvStream`].

use super::*;

/// What the `csv` crate gets from `text` and the lines queued.
fn run(text: &[u8], d: &Dialect, limit: u64) -> std::io::Result<(String, Vec<u64>)> {
    let starts = Starts::default();
    let mut out = Vec::new();
    CsvStream::new(text, d, limit, starts.clone()).read_to_end(&mut out)?;
    let lines = std::iter::from_fn(|| starts.pop()).collect();
    Ok((String::from_utf8_lossy(&out).into_owned(), lines))
}

fn plain(text: &[u8]) -> (String, Vec<u64>) {
    run(text, &Dialect::default(), 1 << 20).unwrap()
}

fn failing<E: std::error::Error + 'static, T>(
    text: &[u8],
    d: &Dialect,
    limit: u64,
    f: impl Fn(&E) -> T,
) -> T {
    let e = run(text, d, limit).unwrap_err();
    f(e.get_ref().unwrap().downcast_ref::<E>().unwrap())
}

#[test]
fn records_end_in_one_newline_and_keep_their_lines() {
    assert_eq!(
        plain(b"a,b\r\n1,x\r\n\r\n2,y"),
        ("a,b\n1,x\n2,y\n".into(), vec![1, 2, 4])
    );
    // A quoted newline stays in the field; a lone CR ends a record.
    assert_eq!(
        plain(b"a,b\n1,\"x\r\ny\"\n2,\"\"\"q\"\r3,z\n"),
        (
            "a,b\n1,\"x\r\ny\"\n2,\"\"\"q\"\n3,z\n".into(),
            vec![1, 2, 4, 4]
        )
    );
    assert_eq!(plain(b"\xEF\xBB\xBFa\n1\n"), ("a\n1\n".into(), vec![1, 2]));
}

#[test]
fn skip_comment_trim_and_a_long_delimiter() {
    let d = Dialect {
        written: Some(b", ".to_vec()),
        trim: true,
        comment: Some(b"#".to_vec()),
        skip: 2,
        ..Dialect::default()
    };
    let text = b"x, \"y\n# z\n# c\na,  \"b, c\"\n# c\n  \n1, 2,3\n\"#\n\", 4\n";
    let (out, lines) = run(text, &d, 1 << 20).unwrap();
    // Line 6 (two spaces) is blank.
    assert_eq!(out, "a\u{FFFD}\"b, c\"\n1\u{FFFD}2,3\n\"#\n\"\u{FFFD}4\n");
    assert_eq!(lines, vec![4, 7, 8]);
    // Byte 0xFF outside quotes cannot stand for itself.
    let d = Dialect {
        written: Some(b", ".to_vec()),
        ..Dialect::default()
    };
    let line = failing(b"a, b\n1, \xFF\n", &d, 1 << 20, |e: &NotUtf8| e.line);
    assert_eq!(line, 2);
    // Inside quotes it is the cell's (where the `csv` crate finds it).
    assert!(run(b"a, b\n1, \"\xFF\"\n", &d, 1 << 20).is_ok());
}

#[test]
fn a_quote_left_open_names_the_line_it_opened_on() {
    let d = Dialect::default();
    let line = |text: &[u8]| failing(text, &d, 1 << 20, |e: &Unclosed| e.line);
    assert_eq!(line(b"n,j\n1,\"x\n2,y\n3,z\n"), 2);
    assert_eq!(line(b"n,j\n1,x\"y\n2,\"y\"\"\n3,z\n"), 3);
}

#[test]
fn record_limit_counts_quoted_newlines_in_the_record() {
    let d = Dialect::default();
    let over = |text: &[u8], limit| failing(text, &d, limit, |e: &TooLong| (e.line, e.offset));
    // Records of 3 bytes pass a limit of 3.
    assert!(run(b"a,b\n1,2\r\n3,4", &d, 3).is_ok());
    // A quoted field with newlines is one record (of 9 bytes).
    assert!(run(b"a,b\n\"x\ny\nz\",1\n", &d, 9).is_ok());
    assert_eq!(over(b"a,b\n\"x\ny\nz\",1\n", 8), (2, 4));
    // A doubled quote stays inside the field; a quote mid-field is literal.
    assert!(run(b"a\"b,c\nd,e\n", &d, 5).is_ok());
    assert_eq!(over(b"x\n\"a\"\"\nb\"\n", 5), (2, 2));
    // Records are counted, not lines: a line of many records cut by
    // lone CRs is no longer than its records. Skipped and comment lines
    // are read through, never held, whatever their length.
    let many = b"a\r1\r".repeat(100_000);
    assert_eq!(run(&many, &d, 3).unwrap().1.len(), 200_000);
    let skip = Dialect {
        skip: 1,
        comment: Some(b"#".to_vec()),
        ..Dialect::default()
    };
    let long = [
        &b"x".repeat(200_000)[..],
        b"\n#",
        &b"y".repeat(200_000),
        b"\na\n1\n",
    ]
    .concat();
    assert_eq!(run(&long, &skip, 5).unwrap(), ("a\n1\n".into(), vec![3, 4]));
}

#[test]
fn a_long_delimiter_across_two_pieces_is_one_delimiter() {
    let d = Dialect {
        written: Some(b"<->".to_vec()),
        ..Dialect::default()
    };
    for at in PIECE as usize - 4..PIECE as usize + 1 {
        let text = [&b"a".repeat(at)[..], b"<->b\n1<->2\n"].concat();
        let (out, lines) = run(&text, &d, 1 << 20).unwrap();
        let want = [&b"a".repeat(at)[..], b"\xFFb\n1\xFF2\n"].concat();
        // (Not assert_eq: the texts are 64 KiB.)
        assert!(out == String::from_utf8_lossy(&want), "{at}");
        assert_eq!(lines, vec![1, 2]);
        // A comment mark across two pieces, on a line cut by a CR.
        let c = Dialect {
            comment: Some(b"//".to_vec()),
            ..Dialect::default()
        };
        let text = [&b"a".repeat(at)[..], b"\r// c\nb\n"].concat();
        let (out, lines) = run(&text, &c, 1 << 20).unwrap();
        assert!(out == format!("{}\nb\n", "a".repeat(at)), "{at}");
        assert_eq!(lines, vec![1, 2]);
    }
}

/// Records as the `csv` crate reads `bytes` with `delimiter`.
fn records(bytes: &[u8], delimiter: u8) -> Vec<Vec<Vec<u8>>> {
    let mut rdr = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .delimiter(delimiter)
        .from_reader(bytes);
    rdr.byte_records()
        .map(|r| r.unwrap().iter().map(<[u8]>::to_vec).collect())
        .collect()
}

#[test]
fn the_csv_crate_reads_the_same_records_from_the_stream() {
    // Pseudo-random texts of the bytes that matter (an LCG: the same
    // texts every run). Spaces are left out: a line of them is blank
    // here and a record of one cell to the `csv` crate.
    let alphabet = b"a,\"\n\r;";
    let mut seed = 7u64;
    let mut checked = 0;
    for _ in 0..3000 {
        let len = (seed >> 33) % 24;
        let mut text = Vec::new();
        for _ in 0..len {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            text.push(alphabet[((seed >> 33) % alphabet.len() as u64) as usize]);
        }
        for delimiter in [",", ";", ",;"] {
            let d = Dialect {
                written: Some(delimiter.as_bytes().to_vec()),
                ..Dialect::default()
            };
            let Ok((out, lines)) = run(&text, &d, 1 << 20) else {
                continue;
            };
            let ours = records(
                out.replace('\u{FFFD}', "\u{1}").as_bytes(),
                if delimiter.len() == 1 {
                    delimiter.as_bytes()[0]
                } else {
                    1
                },
            );
            if delimiter.len() == 1 {
                assert_eq!(ours, records(&text, delimiter.as_bytes()[0]), "{text:?}");
            }
            assert_eq!(ours.len(), lines.len(), "{text:?}");
            checked += 1;
        }
    }
    assert!(checked > 6000, "{checked}");
}

#[test]
fn a_last_line_of_blanks_without_a_line_end_is_blank() {
    assert_eq!(plain(b"x\n1\n2\n   "), ("x\n1\n2\n".into(), vec![1, 2, 3]));
    assert_eq!(plain(b"x\n1\n \t"), ("x\n1\n".into(), vec![1, 2]));
    assert_eq!(plain(b"x\n1\n \t\n"), ("x\n1\n".into(), vec![1, 2]));
}

#[test]
fn whitespace_lines_are_blank_unless_they_hold_the_delimiter() {
    // As pandas: in a TSV a line of spaces is blank, one holding a tab
    // is a record; so is a line of spaces when a space is the delimiter.
    let tsv = Dialect {
        tab: true,
        ..Dialect::default()
    };
    let text = b"x\ty\n1\t2\n   \n \t \n3\t4\n";
    assert_eq!(
        run(text, &tsv, 1 << 20).unwrap(),
        ("x\ty\n1\t2\n \t \n3\t4\n".into(), vec![1, 2, 4, 5])
    );
    let space = Dialect {
        written: Some(b" ".to_vec()),
        ..Dialect::default()
    };
    assert_eq!(
        run(b"x y\n  \n", &space, 1 << 20).unwrap(),
        ("x y\n  \n".into(), vec![1, 2])
    );
    // A delimiter of several bytes: every such line is blank (pandas'
    // Python reader).
    let two = Dialect {
        written: Some(b", ".to_vec()),
        ..Dialect::default()
    };
    assert_eq!(
        run(b"x, y\n \t \n1, 2", &two, 1 << 20).unwrap(),
        ("x\u{FFFD}y\n1\u{FFFD}2\n".into(), vec![1, 3])
    );
}

#[test]
fn a_whitespace_line_longer_than_a_piece_is_blank_whatever_the_limit() {
    let d = Dialect::default();
    let long = b" \t".repeat(PIECE as usize * 2);
    for end in [&b"\n2\n"[..], b"\r\n2\n", b""] {
        let text = [b"x\n1\n", &long[..], end].concat();
        let want = if end.is_empty() {
            "x\n1\n"
        } else {
            "x\n1\n2\n"
        };
        let lines = if end.is_empty() {
            vec![1, 2]
        } else {
            vec![1, 2, 4]
        };
        // A limit below the line's length: it is never held whole.
        assert_eq!(run(&text, &d, 5).unwrap(), (want.into(), lines));
    }
    // Followed by a cell, the blanks start the record (the cell's own).
    let text = [b"x\n1\n", &long[..], b"a\n"].concat();
    let (out, lines) = run(&text, &d, 1 << 20).unwrap();
    assert!(out == format!("x\n1\n{}a\n", " \t".repeat(PIECE as usize * 2)));
    assert_eq!(lines, vec![1, 2, 3]);
    let over = failing(&text, &d, 1000, |e: &TooLong| (e.line, e.offset));
    assert_eq!(over, (3, 4));
    // With `trim`, a long delimiter after the blanks still cuts cells.
    let t = Dialect {
        written: Some(b"<->".to_vec()),
        trim: true,
        ..Dialect::default()
    };
    let text = [&long[..], b"a<->b\n"].concat();
    assert_eq!(
        run(&text, &t, 1 << 20).unwrap(),
        ("a\u{FFFD}b\n".into(), vec![1])
    );
}

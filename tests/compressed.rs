//! Compressed sources: gzip as well as zstd on every format, told by the
//! extension or by the file's first bytes; truncated and empty files are
//! errors naming the file. Every run goes through the fast path and the
//! generic one alike.

mod common;

use std::io::Write;
use std::path::Path;

/// gzip of `bytes`, one member.
fn gz(bytes: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    e.write_all(bytes).unwrap();
    e.finish().unwrap()
}

fn zst(bytes: &[u8]) -> Vec<u8> {
    zstd::stream::encode_all(bytes, 1).unwrap()
}

/// `artifact gen` in a folder; with `generic`, the fast path is off.
use common::gen_on as run_gen;

/// A project with source `s` (its table's `lines`) and the file `name`
/// holding `bytes`, whose number `sum` is the sum of `x`.
fn project(source: &str, name: &str, bytes: &[u8]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let spec = format!(
        "[sources.s]\n{source}\n\n[tables.t]\nfrom = \"s\"\nsteps = [{{ filter = \"x > 0\" }}]\n\n[numbers.sum]\ntable = \"t\"\nvalue = {{ sum = \"x\" }}\n"
    );
    std::fs::write(dir.path().join("artifact.toml"), spec).unwrap();
    std::fs::write(dir.path().join(name), bytes).unwrap();
    dir
}

/// The number `sum` after a successful run, both paths.
fn sum(dir: &Path) -> f64 {
    common::numbers_on_both_paths(dir)["sum"]["value"]
        .as_f64()
        .unwrap()
}

/// The error of a failing run, the same on both paths.
fn error(dir: &Path) -> String {
    let mut got = Vec::new();
    for generic in [false, true] {
        let out = run_gen(dir, generic);
        assert_eq!(out.status.code(), Some(2));
        // The error, without the outputs a first run writes around it.
        let e = String::from_utf8_lossy(&out.stderr).into_owned();
        got.push(e[e.find("error: ").unwrap()..].to_string());
    }
    assert_eq!(got[0], got[1]);
    got.remove(0)
}

const JSONL: &[u8] = b"{\"k\": \"a\", \"x\": 1}\n{\"k\": \"b\", \"x\": 2.5}\n";
const MORE: &[u8] = b"{\"k\": \"c\", \"x\": 40}\n";

#[test]
fn gzip_jsonl_reads_every_member() {
    // `cat a.gz b.gz`: two members, one stream.
    let mut bytes = gz(JSONL);
    bytes.extend(gz(MORE));
    let dir = project("path = \"log.jsonl.gz\"", "log.jsonl.gz", &bytes);
    assert_eq!(sum(dir.path()), 43.5);
}

#[test]
fn gzip_json_csv_and_tsv_documents_are_read() {
    let doc = br#"{"rows": [{"x": 1}, {"x": 2}, {"x": 3}], "note": "n"}"#;
    let dir = project(
        "path = \"doc.json.gz\"\nrecords = \"/rows\"",
        "doc.json.gz",
        &gz(doc),
    );
    assert_eq!(sum(dir.path()), 6.0);
    let dir = project("path = \"d.csv.gz\"", "d.csv.gz", &gz(b"k,x\na,1.5\nb,2\n"));
    assert_eq!(sum(dir.path()), 3.5);
    let dir = project(
        "path = \"d.tsv.gz\"",
        "d.tsv.gz",
        &gz(b"k\tx\na\t1.5\nb\t7\n"),
    );
    assert_eq!(sum(dir.path()), 8.5);
    let dir = project(
        "path = \"d.tsv.zst\"",
        "d.tsv.zst",
        &zst(b"k\tx\na\t1\nb\t7\n"),
    );
    assert_eq!(sum(dir.path()), 8.0);
}

#[test]
fn compression_is_told_by_magic_bytes_when_the_name_does_not_say() {
    // results.jsonl that is really gzip; a .log of zstd read as JSONL; a
    // CSV that is gzip.
    let dir = project("path = \"results.jsonl\"", "results.jsonl", &gz(JSONL));
    assert_eq!(sum(dir.path()), 3.5);
    let dir = project(
        "path = \"run.log\"\nformat = \"jsonl\"",
        "run.log",
        &zst(JSONL),
    );
    assert_eq!(sum(dir.path()), 3.5);
    let dir = project("path = \"d.csv\"", "d.csv", &gz(b"x\n4\n5\n"));
    assert_eq!(sum(dir.path()), 9.0);
}

#[test]
fn truncated_gzip_is_an_error_naming_the_file() {
    let whole = gz(JSONL);
    let cut = &whole[..whole.len() - 12];
    let dir = project("path = \"log.jsonl.gz\"", "log.jsonl.gz", cut);
    assert_eq!(
        error(dir.path()),
        "error: number `sum`: source `s`: log.jsonl.gz: cannot decompress: the file is truncated or not gzip (incomplete deflate stream)\n1 part(s) failed; their previous outputs are left as they were\n"
    );
    let cut = &whole[..whole.len() - 4];
    let dir = project("path = \"d.csv.gz\"", "d.csv.gz", cut);
    assert!(
        error(dir.path()).starts_with(
            "error: number `sum`: source `s`: d.csv.gz: cannot decompress: the file is truncated or not gzip ("
        )
    );
}

#[test]
fn a_file_named_gz_that_is_not_gzip_is_an_error_naming_it() {
    let dir = project("path = \"log.jsonl.gz\"", "log.jsonl.gz", JSONL);
    assert_eq!(
        error(dir.path()),
        "error: number `sum`: source `s`: log.jsonl.gz: cannot decompress: the file is truncated or not gzip (invalid gzip header)\n1 part(s) failed; their previous outputs are left as they were\n"
    );
}

#[test]
fn empty_gzip_is_an_error_naming_the_file() {
    const FAILED: &str = "1 part(s) failed; their previous outputs are left as they were\n";
    // A JSON document's too: its `meta`, read up front, fails only what
    // reads the source.
    for (name, source) in [
        ("log.jsonl.gz", "path = \"log.jsonl.gz\""),
        ("d.csv.gz", "path = \"d.csv.gz\""),
        ("doc.json.gz", "path = \"doc.json.gz\"\nrecords = \"/rows\""),
    ] {
        let dir = project(source, name, b"");
        assert_eq!(
            error(dir.path()),
            format!(
                "error: number `sum`: source `s`: {name}: empty file (0 bytes): not a gzip stream\n{FAILED}"
            )
        );
    }
}

#[test]
fn a_gzip_line_over_max_line_names_the_decompressed_offset() {
    let long = format!(
        "{{\"x\": 1}}\n{{\"x\": 2, \"note\": \"{}\"}}\n",
        "n".repeat(200)
    );
    let dir = project(
        "path = \"log.jsonl.gz\"\nmax_line = 100",
        "log.jsonl.gz",
        &gz(long.as_bytes()),
    );
    assert_eq!(
        error(dir.path()),
        "error: number `sum`: source `s`: log.jsonl.gz:2: the line at byte offset 9 of the decompressed stream is longer than `max_line` (100 bytes); reading stopped there (raise `max_line` on the source if such lines are real)\n1 part(s) failed; their previous outputs are left as they were\n"
    );
}

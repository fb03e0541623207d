//! CSV as it comes: the shapes real papers' data has (cloc's CSV, files
//! written with `", "` between cells, `;`-separated European files, TSV,
//! preambles and comments, CRLF ends, spaced column names), read with the
//! source's `delimiter`, `trim`, `comment`, `skip` and `header`. Every row
//! and every error names the file's own line.

mod common;

use std::path::Path;

/// `artifact gen` in a folder; with `generic`, the fast path is off.
use common::gen_on as run_gen;

/// A project reading `file` (holding `bytes`) as source `s` with the
/// `options` lines, and the rest of the spec `rest`.
fn project(file: &str, bytes: &[u8], options: &str, rest: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let spec = format!("[sources.s]\npath = \"{file}\"\n{options}\n\n{rest}");
    std::fs::write(dir.path().join("artifact.toml"), spec).unwrap();
    std::fs::write(dir.path().join(file), bytes).unwrap();
    dir
}

/// The numbers of a successful run (the same on both paths).
fn numbers(dir: &Path) -> serde_json::Value {
    common::numbers_on_both_paths(dir)
}

fn value(n: &serde_json::Value, key: &str) -> f64 {
    n[key]["value"].as_f64().unwrap()
}

/// The error of a failing run (the same on both paths), from `error: ` on.
fn error(dir: &Path) -> String {
    let mut got = Vec::new();
    for generic in [false, true] {
        let out = run_gen(dir, generic);
        assert_eq!(out.status.code(), Some(2));
        let e = String::from_utf8_lossy(&out.stderr).into_owned();
        got.push(e[e.find("error: ").unwrap()..].to_string());
    }
    assert_eq!(got[0], got[1]);
    got.remove(0)
}

const FAILED: &str = "1 part(s) failed; their previous outputs are left as they were\n";

/// A table `t` failing on the row where `a` is 2, and a number over it.
const REQUIRE: &str = "[tables.t]\nfrom = \"s\"\nsteps = [{ require = \"a != 2\" }]\n\n[numbers.n]\ntable = \"t\"\nvalue = \"count\"\n";

/// The error of table `t` failing on line `line` of `file`, whose source
/// has `options` (lines of the spec).
fn fails_on_line(file: &str, line: u64, options: &str) -> String {
    let spec_line = 6 + options.lines().count().max(1);
    format!(
        "error: number `n`: table `t`, step 1 (require, artifact.toml line {spec_line}): {file}:{line}: field `a`: required `a != 2` does not hold (where a = 2)\n{FAILED}"
    )
}

/// Checks that table `t` fails on line `line` of `file` holding `bytes`.
fn require_fails_on(file: &str, bytes: &[u8], options: &str, line: u64) {
    let dir = project(file, bytes, options, REQUIRE);
    assert_eq!(error(dir.path()), fails_on_line(file, line, options));
}

#[test]
fn crlf_rows_name_their_own_line() {
    // The csv crate's own count named line 2 here.
    require_fails_on("d.csv", b"a,b\r\n1,x\r\n2,y\r\n", "", 3);
    require_fails_on("d.csv", b"a,b\n1,x\n2,y\n", "", 3);
    // A quoted newline (CRLF inside the quotes) and a blank line before it.
    require_fails_on("d.csv", b"a,b\r\n1,\"x\r\ny\"\r\n\r\n2,z\r\n", "", 5);
    // A BOM and no final line end; a lone CR ends a row as the csv crate has it.
    require_fails_on("d.csv", b"\xEF\xBB\xBFa,b\r\n1,x\r\n2,y", "", 3);
    require_fails_on("d.csv", b"a,b\n1,x\r2,y\n", "", 2);
}

#[test]
fn preamble_and_comment_lines_count_in_line_numbers() {
    let text = b"benchmark run 7\nhost: node12\n# columns: a = id, b = label\na,b\n1,x\n# warmup done\n\n2,y\n";
    require_fails_on("d.csv", text, "skip = 2\ncomment = \"#\"", 8);
    // A comment line inside a quoted field is the field's.
    let text = b"a,b\n1,\"x\n# not a comment\"\n2,y\n";
    require_fails_on("d.csv", text, "comment = \"#\"", 4);
    // `header` for a file without one: every line after `skip` is a row.
    let text = b"a run without a header\n1,x\n2,y\n";
    require_fails_on("d.csv", text, "skip = 1\nheader = [\"a\", \"b\"]", 3);
}

/// cloc's `--csv` output: the header has a sixth column (cloc's version and
/// timing, quoted), the rows five; the last row is the sum.
const CLOC: &[u8] = b"files,language,blank,comment,code,\"github.com/AlDanial/cloc v 1.98  T=0.05 s (340.0 files/s, 70360.0 lines/s)\"\n12,Rust,340,120,2890\n3,Python,40,25,310\n2,TOML,4,0,38\n17,SUM,384,145,3238\n";

const CLOC_NUMBERS: &str = "[tables.langs]\nfrom = \"s\"\nsteps = [{ filter = \"language != 'SUM'\" }]\n\n[numbers.code]\ntable = \"langs\"\nvalue = { sum = \"code\" }\n\n[numbers.langs]\ntable = \"langs\"\nvalue = \"count\"\n\n[numbers.total]\ntable = \"s\"\nwhere = \"language == 'SUM'\"\nvalue = { cell = \"code\" }\n";

#[test]
fn cloc_csv_is_read_with_its_header_named() {
    // As it comes, the short rows are an error naming the first one.
    let dir = project("cloc.csv", CLOC, "", CLOC_NUMBERS);
    assert_eq!(
        error(dir.path()),
        format!(
            "error: source `s`: cloc.csv:2: the row has 5 cells but the header has 6 columns\n  (this fails number `code`, number `langs`, number `total`)\n3 part(s) failed; their previous outputs are left as they were\n"
        )
    );
    let options = "skip = 1\nheader = [\"files\", \"language\", \"blank\", \"comment\", \"code\"]";
    let dir = project("cloc.csv", CLOC, options, CLOC_NUMBERS);
    let n = numbers(dir.path());
    assert_eq!(value(&n, "code"), 3238.0);
    assert_eq!(value(&n, "langs"), 3.0);
    assert_eq!(value(&n, "total"), 3238.0);
}

/// Cells written with `", "` between them (`f"{name}, {time}, {size}"`,
/// cloc's `--csv-delimiter`), a quoted cell holding the delimiter.
const SPACED: &[u8] = b"name, time, size\nfoo, 1.5, 10\n\"bar, baz\", 2.25, 20\nqux, 0.25, 12\n";

const SPACED_NUMBERS: &str = "[numbers.time]\ntable = \"s\"\nvalue = { sum = \"time\" }\n\n[numbers.size]\ntable = \"s\"\nvalue = { sum = \"size\" }\n\n[numbers.bar]\ntable = \"s\"\nwhere = \"name == 'bar, baz'\"\nvalue = { cell = \"size\" }\n";

#[test]
fn a_two_byte_delimiter_or_trim_reads_comma_space_files() {
    for options in [
        "delimiter = \", \"",
        "trim = true",
        "delimiter = \",\"\ntrim = true",
    ] {
        let dir = project("runs.csv", SPACED, options, SPACED_NUMBERS);
        let n = numbers(dir.path());
        assert_eq!(value(&n, "time"), 4.0, "{options}");
        assert_eq!(value(&n, "size"), 42.0, "{options}");
        assert_eq!(value(&n, "bar"), 20.0, "{options}");
    }
    // As it comes, the column is ` time`, so `time` is missing.
    let dir = project("runs.csv", SPACED, "", SPACED_NUMBERS);
    assert!(error(dir.path()).contains("time"));
}

#[test]
fn byte_ff_outside_quotes_with_a_long_delimiter_is_an_error_naming_its_line() {
    let dir = project(
        "runs.csv",
        b"name, time\nfoo, 1\nb\xFFr, 2\n",
        "delimiter = \", \"",
        "[numbers.time]\ntable = \"s\"\nvalue = { sum = \"time\" }\n",
    );
    assert_eq!(
        error(dir.path()),
        format!("error: number `time`: source `s`: runs.csv:3: invalid UTF-8: byte 0xFF\n{FAILED}")
    );
    let dir = project(
        "runs.csv",
        b"name,time\nfoo,1\nb\xFEr,2\n",
        "",
        "[numbers.time]\ntable = \"s\"\nvalue = { sum = \"time\" }\n",
    );
    assert_eq!(
        error(dir.path()),
        format!("error: number `time`: source `s`: runs.csv:3: invalid UTF-8 in cell 1\n{FAILED}")
    );
}

#[test]
fn spaced_column_names_and_crlf() {
    // `group` names fields as written: two groups only if the names match.
    let text = b"execution time,p50 (ms)\r\nA,1.5\r\nB,2.5\r\nA,3\r\n";
    let rest = "[tables.g]\nfrom = \"s\"\nsteps = [{ group = [\"execution time\"], aggregate = { n = \"count\" } }]\n\n[numbers.groups]\ntable = \"g\"\nvalue = \"count\"\n\n[numbers.a]\ntable = \"g\"\nwhere = \"n == 2\"\nvalue = \"count\"\n";
    let dir = project("lat.csv", text, "", rest);
    let n = numbers(dir.path());
    assert_eq!((value(&n, "groups"), value(&n, "a")), (2.0, 1.0));
    // With `trim`, ` execution time ` is `execution time`.
    let text = b" execution time , p50 (ms)\r\nA , 1.5\r\nB,2.5\r\n  A,3\r\n";
    let dir = project("lat.csv", text, "trim = true", rest);
    let n = numbers(dir.path());
    assert_eq!((value(&n, "groups"), value(&n, "a")), (2.0, 1.0));
    // `header` renames them; the file's own header is skipped.
    let rest = "[numbers.p50]\ntable = \"s\"\nvalue = { sum = \"p50\" }\n";
    let dir = project(
        "lat.csv",
        text,
        "skip = 1\nheader = [\"exec\", \"p50\"]\ntrim = true",
        rest,
    );
    assert_eq!(value(&numbers(dir.path()), "p50"), 7.0);
}

#[test]
fn semicolon_files_and_tsv() {
    let rest = "[numbers.wert]\ntable = \"s\"\nvalue = { sum = \"Wert\" }\n\n[numbers.zeit]\ntable = \"s\"\nwhere = \"Messung == 'b'\"\nvalue = { cell = \"Zeit\" }\n";
    // A decimal comma is not a number: the cell stays text.
    let text = b"Messung;Zeit;Wert\r\na;1,5;10\r\nb;2,25;20\r\n";
    let dir = project("messung.csv", text, "delimiter = \";\"", rest);
    let n = numbers(dir.path());
    assert_eq!(value(&n, "wert"), 30.0);
    assert_eq!(n["zeit"]["value"], "2,25");
    let text = b"Messung\tZeit\tWert\na\t1.5\t10\nb\t\"2,5\"\t20\n";
    for (file, options) in [("m.tsv", ""), ("m.TSV", ""), ("m.txt", "format = \"tsv\"")] {
        let dir = project(file, text, options, rest);
        let n = numbers(dir.path());
        assert_eq!(value(&n, "wert"), 30.0, "{file}");
        assert_eq!(n["zeit"]["value"], "2,5", "{file}");
    }
    // Read with `,`, a `;` file is one column: the error says which to set.
    let dir = project(
        "messung.csv",
        b"Messung;Zeit;Wert\r\na;1,5;10\r\n",
        "",
        rest,
    );
    assert_eq!(
        error(dir.path()),
        "error: source `s`: messung.csv:2: the row has 2 cells but the header has 1 column (the header holds `;`: set `delimiter = \";\"` on the source?)\n  (this fails number `wert`, number `zeit`)\n2 part(s) failed; their previous outputs are left as they were\n"
    );
    // `delimiter` wins over the extension.
    let dir = project(
        "m.tsv",
        b"Messung;Zeit;Wert\na;1;10\nb;2;20\n",
        "delimiter = \";\"",
        rest,
    );
    assert_eq!(value(&numbers(dir.path()), "wert"), 30.0);
}

#[test]
fn a_row_longer_or_shorter_than_the_header_names_its_line() {
    let rest = "[numbers.n]\ntable = \"s\"\nvalue = \"count\"\n";
    let dir = project("d.csv", b"a,b\r\n1,2\r\n3,4,\r\n", "", rest);
    assert_eq!(
        error(dir.path()),
        format!(
            "error: number `n`: source `s`: d.csv:3: the row has 3 cells but the header has 2 columns\n{FAILED}"
        )
    );
    let dir = project(
        "d.csv",
        b"# c\n1\n",
        "comment = \"#\"\nheader = [\"a\", \"b\"]",
        rest,
    );
    assert_eq!(
        error(dir.path()),
        format!(
            "error: number `n`: source `s`: d.csv:2: the row has 1 cell but the header has 2 columns\n{FAILED}"
        )
    );
    // A quote left open names the line where it opened, CRLF or not.
    let dir = project("d.csv", b"a,b\r\n1,2\r\n3,\"4\r\n5,6\r\n", "", rest);
    assert_eq!(
        error(dir.path()),
        format!(
            "error: number `n`: source `s`: d.csv:3: a quoted field opened on this line is not closed before the end of the file (every later row would be read into it)\n{FAILED}"
        )
    );
}

#[test]
fn the_header_repeating_a_column_names_its_own_line() {
    let rest = "[numbers.n]\ntable = \"s\"\nvalue = \"count\"\n";
    let dir = project(
        "d.csv",
        b"run 3\n\na, b ,b\n1,2,3\n",
        "skip = 1\ntrim = true",
        rest,
    );
    assert_eq!(
        error(dir.path()),
        format!(
            "error: number `n`: source `s`: d.csv:3: the header repeats column `b` (columns 2 and 3)\n{FAILED}"
        )
    );
}

/// The spec error of a run (exit 2), whole.
fn spec_error(file: &str, bytes: &[u8], source: &str) -> String {
    let dir = tempfile::tempdir().unwrap();
    let spec = format!("[sources.s]\n{source}\n\n[numbers.n]\ntable = \"s\"\nvalue = \"count\"\n");
    std::fs::write(dir.path().join("artifact.toml"), spec).unwrap();
    std::fs::write(dir.path().join(file), bytes).unwrap();
    let out = run_gen(dir.path(), false);
    assert_eq!(out.status.code(), Some(2));
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn csv_options_anywhere_else_are_errors_at_their_span() {
    assert_eq!(
        spec_error(
            "l.jsonl",
            b"{\"a\": 1}\n",
            "path = \"l.jsonl\"\ndelimiter = \";\""
        ),
        "error: artifact.toml:3:13: `delimiter` applies only to CSV files; `l.jsonl` is read as JSONL\n  |\n3 | delimiter = \";\"\n  |             ^^^\n"
    );
    assert_eq!(
        spec_error("d.json", b"[]", "path = \"d.json\"\nskip = 1\ntrim = true"),
        "error: artifact.toml:3:8: `skip` applies only to CSV files; `d.json` is read as JSON\n  |\n3 | skip = 1\n  |        ^\n"
    );
    // An optional source whose file is missing is no exception.
    assert_eq!(
        spec_error(
            "x",
            b"",
            "path = \"l.jsonl\"\noptional = true\ntrim = false"
        ),
        "error: artifact.toml:4:8: `trim` applies only to CSV files; `l.jsonl` is read as JSONL\n  |\n4 | trim = false\n  |        ^^^^^\n"
    );
    assert_eq!(
        spec_error("x", b"", "rows = [{ a = 1 }]\nheader = [\"a\"]"),
        // The declaration of source keys refuses it before the CSV check.
        "error: artifact.toml:3:1: `header` does not apply to a source with `rows` (only to `path`); a source with `rows` takes: rows\n  |\n3 | header = [\"a\"]\n  | ^^^^^^\n"
    );
    assert_eq!(
        spec_error(
            "d.csv",
            b"a\n1\n",
            "path = \"d.csv\"\nformat = \"json\"\ncomment = \"#\""
        ),
        "error: artifact.toml:4:11: `comment` applies only to CSV files; this source's format is `json`\n  |\n4 | comment = \"#\"\n  |           ^^^\n"
    );
}

#[test]
fn csv_option_values_are_checked_at_their_span() {
    let csv = |option: &str| spec_error("d.csv", b"a\n1\n", &format!("path = \"d.csv\"\n{option}"));
    assert_eq!(
        csv("delimiter = \"\""),
        "error: artifact.toml:3:13: `delimiter` must be 1 to 16 bytes, found \"\"\n  |\n3 | delimiter = \"\"\n  |             ^^\n"
    );
    assert!(csv("delimiter = \"|||||||||||||||||\"").starts_with(
        "error: artifact.toml:3:13: `delimiter` must be 1 to 16 bytes, found \"|||||||||||||||||\"\n"
    ));
    assert!(csv("delimiter = \"\\\"\"").starts_with(
        "error: artifact.toml:3:13: `delimiter` cannot hold a quote or a line break (`\"` quotes a cell, a line break ends a row)\n"
    ));
    assert!(csv("comment = \"\"").starts_with(
        "error: artifact.toml:3:11: `comment` must be the text that starts a comment line, such as \"#\", found \"\"\n"
    ));
    assert!(csv("skip = -1").starts_with(
        "error: artifact.toml:3:8: `skip` must be a number of lines (0 or more), found -1\n"
    ));
    assert!(
        csv("header = []")
            .starts_with("error: artifact.toml:3:10: `header` must name at least one column\n")
    );
    assert!(
        csv("header = [\"a\", \"b\", \"a\"]").starts_with(
            "error: artifact.toml:3:10: `header` repeats column `a` (columns 1 and 3)\n"
        )
    );
    assert!(csv("format = \"xlsx\"").starts_with(
        "error: artifact.toml:3:10: unknown format `xlsx` (expected jsonl, json, csv, tsv or parquet)\n"
    ));
}

#[test]
fn source_line_is_the_files_own() {
    let text =
        b"benchmark run 7\r\n# a = id\r\na,b\r\n1,\"x\r\ny\"\r\n# warmup done\r\n\r\n2,y\r\n";
    let rest = "[numbers.second]\ntable = \"s\"\nwhere = \"a == 2\"\nvalue = { cell = \"_source.line\" }\n\n[numbers.first]\ntable = \"s\"\nwhere = \"a == 1\"\nvalue = { cell = \"_source.line\" }\n";
    let dir = project("d.csv", text, "skip = 1\ncomment = \"#\"", rest);
    let n = numbers(dir.path());
    assert_eq!((value(&n, "first"), value(&n, "second")), (4.0, 8.0));
}

#[test]
fn whitespace_lines_are_blank_as_pandas_reads_them() {
    // pandas: `len(pd.read_csv(...))` is 2 for each (a last line of
    // spaces with no line end; a TSV line of spaces; one past 64 KiB).
    let rest = "[numbers.n]\ntable = \"s\"\nvalue = \"count\"\n";
    let long = [&b"x,y\n1,2\n"[..], &b" ".repeat(100_000), b"\n3,4\n"].concat();
    for (file, text) in [
        ("d.csv", &b"x\n1\n2\n   "[..]),
        ("d.csv", b"x,y\n1,2\n3,4\n   "),
        ("d.tsv", b"x\ty\n1\t2\n   \n3\t4\n"),
        ("d.csv", &long),
    ] {
        let dir = project(file, text, "", rest);
        assert_eq!(
            value(&numbers(dir.path()), "n"),
            2.0,
            "{file} {:?}",
            &text[..8]
        );
    }
}

#[test]
fn pandas_missing_value_spellings_are_null_cells() {
    // pandas: d.v.count() == 3, d.v.mean() == 3.0, d.v.isna().sum() == 6
    // (`"NA"` quoted is missing too). A mean reads its rows' values, so
    // it skips null ones with `where`, as with an empty cell.
    let text = b"name,v\na,1\nb,NA\nc,N/A\nd,3\ne,null\nf,NaN\ng,\"NA\"\nh,5\ni,-nan\n";
    let rest = "[numbers.count]\ntable = \"s\"\nvalue = { count = \"v\" }\n\n[numbers.mean]\ntable = \"s\"\nwhere = \"v is not none\"\nvalue = { mean = \"v\" }\n\n[numbers.missing]\ntable = \"s\"\nwhere = \"v is none\"\nvalue = \"count\"\n";
    let dir = project("d.csv", text, "", rest);
    let n = numbers(dir.path());
    assert_eq!(
        (value(&n, "count"), value(&n, "mean"), value(&n, "missing")),
        (3.0, 3.0, 6.0)
    );
}

//! The fast path (tape + cells) against the generic path (values +
//! minijinja): the same outputs, notes and errors, byte for byte, on the
//! demo paper, on every defective case, and on generated logs full of the
//! oddities the fast path hands over line by line. `ARTIFACT_GENERIC_ONLY`
//! turns the fast path off.

mod common;

use std::path::Path;

use assert_cmd::Command;
use common::*;

/// Exit code, stderr, and every output file (path, bytes) of a run.
type Run = (Option<i32>, String, Vec<(String, Vec<u8>)>);

/// Runs `artifact gen` in `dir`, the fast path on or off.
fn run(dir: &Path, generic: bool) -> Run {
    for sub in ["figures", "generated"] {
        let _ = std::fs::remove_dir_all(dir.join(sub));
    }
    let _ = std::fs::remove_file(dir.join("artifact.lock"));
    let mut cmd = Command::cargo_bin("artifact").unwrap();
    cmd.current_dir(dir).args(["gen"]);
    if generic {
        cmd.env("ARTIFACT_GENERIC_ONLY", "1");
    }
    let out = cmd.output().unwrap();
    let mut files = Vec::new();
    for sub in ["figures", "generated"] {
        if dir.join(sub).is_dir() {
            files.extend(snapshot(&dir.join(sub)));
        }
    }
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        files,
    )
}

fn assert_same_both_ways(dir: &Path, what: &str) -> String {
    let (code_g, err_g, files_g) = run(dir, true);
    let (code_f, err_f, files_f) = run(dir, false);
    assert_eq!(err_f, err_g, "{what}: stderr differs between the paths");
    assert_eq!(code_f, code_g, "{what}: exit code");
    assert_eq!(files_f.len(), files_g.len(), "{what}: output files");
    for ((pf, bf), (pg, bg)) in files_f.iter().zip(&files_g) {
        assert_eq!(pf, pg, "{what}");
        assert!(bf == bg, "{what}: {pf} differs between the paths");
    }
    err_f
}

#[test]
fn the_demo_paper_is_the_same_both_ways() {
    let dir = paper_copy();
    assert_same_both_ways(dir.path(), "demo paper");
}

#[test]
fn every_defective_case_is_the_same_both_ways() {
    let cases = root().join("tests/fixtures/dirty");
    let mut seen = 0;
    for entry in std::fs::read_dir(&cases).unwrap() {
        let case = entry.unwrap().path();
        if !case.is_dir() {
            continue;
        }
        let dir = paper_with_case(&case);
        assert_same_both_ways(dir.path(), &case.display().to_string());
        seen += 1;
    }
    assert!(seen >= 15, "{seen} cases");
}

/// SplitMix64, for the generated logs.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn pick<'a>(&mut self, from: &[&'a str]) -> &'a str {
        from[(self.next() % from.len() as u64) as usize]
    }
}

/// A log in the compression paper's shape where about one line in ten
/// holds something the fast path leaves to the generic one.
fn odd_log(rng: &mut Rng, lines: usize, odd: bool) -> String {
    let ratios: &[&str] = if odd {
        &[
            "1.26",
            "1.5e0",
            "2",
            "-0.0",
            "0",
            "null",
            "\"1.27\"",
            "NaN",
            "Infinity",
            "1.0",
            "123456789012345678901234",
            "1e-3",
            "3.14159265358979323846",
            "-7",
        ]
    } else {
        &[
            "1.26",
            "1.5e0",
            "2",
            "1.0",
            "1e-3",
            "3.14159265358979323846",
            "0.000017",
            "42",
        ]
    };
    let names: &[&str] = if odd {
        &[
            "zstd3",
            "xz9",
            "caf\\u00e9",
            "café",
            "quo\\\"te",
            "tab",
            "",
            "a b",
        ]
    } else {
        &["zstd3", "xz9", "café", "tab", "", "a b", "brotli", "lz4"]
    };
    let kinds: &[&str] = if odd {
        &["bench_bf16_perfile", "Q4_K_benchmark", "bench_7B", "other"]
    } else {
        &["bench_bf16_perfile", "Q4_K_benchmark", "bench_7B"]
    };
    let mut out = String::new();
    for i in 0..lines {
        let mut methods = Vec::new();
        // Distinct names, but now and then one repeated.
        let mut pool = names.to_vec();
        let mut chosen = Vec::new();
        for _ in 0..(rng.next() % 5 + u64::from(!odd)) {
            let k = (rng.next() % pool.len() as u64) as usize;
            chosen.push(pool.swap_remove(k));
        }
        if odd && !chosen.is_empty() && rng.next().is_multiple_of(30) {
            chosen.push(chosen[0]);
        }
        for name in chosen {
            let entry = match if odd { rng.next() % 12 } else { 99 } {
                0 => "\"not applicable\"".to_string(),
                1 => "{\"error\": \"x\", \"ratio\": null}".to_string(),
                2 => format!("[{}]", rng.pick(ratios)),
                _ => format!(
                    "{{\"ratio\": {}, \"extra\": {{\"deep\": [1, {{}}]}}, \"decompress_MBps\": {}}}",
                    rng.pick(ratios),
                    rng.pick(ratios)
                ),
            };
            methods.push(format!("\"{name}\": {entry}"));
        }
        let bytes = match if odd { rng.next() % 10 } else { 99 } {
            0 => "null".to_string(),
            1 => "-1".to_string(),
            2 => "0".to_string(),
            3 => "18446744073709551615".to_string(),
            _ => (1 + rng.next() % 5_000_000).to_string(),
        };
        let tail = match if odd { rng.next() % 25 } else { 99 } {
            0 => ", \"input_bytes\": 7",
            1 => ", \"skipped\": {\"a\": 1, \"a\": 2}",
            2 => ", \"skipped\": \"\\ud83d\\ude00\"",
            _ => "",
        };
        let line = format!(
            "{{\"_kind\": \"{}\", \"input_bytes\": {bytes}, \"skipped\": [\"x\\n\", 1.5, true], \"methods\": {{{}}}{tail}}}",
            rng.pick(kinds),
            methods.join(", ")
        );
        // A few lines cut short or blank, as logs end when a run dies.
        match i % 97 {
            13 if odd => out.push_str(&line[..line.len() / 2]),
            14 => out.push_str("   "),
            _ => out.push_str(&line),
        }
        out.push('\n');
    }
    out
}

const ODD_SPEC: &str = r#"
[sources.results]
path = "results.jsonl"

[tables.points]
from = "results"
steps = [
  { filter = "_kind in ['bench_bf16_perfile', 'bench_7B', 'Q4_K_benchmark'] and methods is mapping" },
  { derive = { corpus = "'Q4_K' if _kind == 'Q4_K_benchmark' else 'bf16'", big = "input_bytes is number and input_bytes > 1000000" } },
  { explode = "methods", key = "method", value = "m" },
  { filter = "m is mapping and m.ratio is not none and m.decompress_MBps is not none and m.ratio > 0 and m.decompress_MBps > 0" },
  { group = ["corpus", "method", "big"], aggregate = { n = "count", ratio = { weighted_mean = "m.ratio", weight = "input_bytes" }, mbps = { median = "m.decompress_MBps" }, total = { sum = "m.ratio" }, lo = { min = "m.ratio" }, first = { first = "method" } } },
]

[numbers.groups]
table = "points"
value = "count"

[numbers.rows]
table = "points"
value = { sum = "n" }

[numbers.mean-ratio]
table = "points"
value = { mean = "ratio" }
format = { places = 6 }
"#;

/// Writes the odd log (every line, or only those that parse) and the spec.
fn odd_paper(seed: u64, lines: usize, odd: bool, keep: &dyn Fn(&str) -> bool) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let log = odd_log(&mut Rng(seed), lines, odd);
    let kept: Vec<&str> = log.lines().filter(|l| keep(l)).collect();
    std::fs::write(dir.path().join("results.jsonl"), kept.join("\n") + "\n").unwrap();
    std::fs::write(dir.path().join("artifact.toml"), ODD_SPEC).unwrap();
    dir
}

#[test]
fn odd_logs_give_the_same_numbers_notes_and_errors_both_ways() {
    for seed in 1..=6 {
        // Whole: the first bad line is an error, the same one both ways.
        let dir = odd_paper(seed, 400, true, &|_| true);
        let err = assert_same_both_ways(dir.path(), &format!("seed {seed}, whole"));
        assert!(err.contains("results.jsonl:"), "{err}");
        // Only lines that parse as JSON: numbers, drop notes, or the first
        // type error, the same both ways.
        let dir = odd_paper(seed, 400, true, &|l| {
            serde_json::from_str::<serde_json::Value>(l).is_ok()
        });
        assert_same_both_ways(dir.path(), &format!("seed {seed}, parsed lines"));
    }
}

#[test]
fn plain_logs_take_the_fast_path_and_agree() {
    // Lines without oddities (and without the values the spec refuses):
    // numbers are computed, the same both ways.
    let dir = odd_paper(7, 3000, false, &|_| true);
    let err = assert_same_both_ways(dir.path(), "plain");
    let (code, stderr, files) = run(dir.path(), false);
    assert_eq!(code, Some(0), "{err}\n{stderr}");
    let numbers = files
        .iter()
        .find(|(p, _)| p == "numbers.json")
        .expect("numbers.json");
    let v: serde_json::Value = serde_json::from_slice(&numbers.1).unwrap();
    let groups: f64 = v["groups"]["value"].as_f64().unwrap();
    assert!(groups > 10.0, "{v}");
}

#[test]
fn a_line_longer_than_a_batch_is_read_whole() {
    let dir = tempfile::tempdir().unwrap();
    let long = "x".repeat(700_000);
    let log = format!(
        "{{\"_kind\": \"bench_7B\", \"input_bytes\": 1, \"methods\": {{\"a\": {{\"ratio\": 1.5, \"decompress_MBps\": 2}}}}}}\n\
         {{\"_kind\": \"bench_7B\", \"input_bytes\": 1, \"pad\": \"{long}\", \"methods\": {{\"a\": {{\"ratio\": 2.5, \"decompress_MBps\": 4}}}}}}\n\
         {{\"_kind\": \"bench_7B\", \"input_bytes\": 1, \"methods\": {{\"a\": {{\"ratio\": 3.5, \"decompress_MBps\": 6}}}}}}\n\
         {{\"_kind\": \"bench_7B\", \"input_bytes\": 1, \"methods\": {{\"a\": {{\"ratio\": \"4.5\", \"decompress_MBps\": 8}}}}}}\n"
    );
    std::fs::write(dir.path().join("results.jsonl"), log).unwrap();
    std::fs::write(dir.path().join("artifact.toml"), ODD_SPEC).unwrap();
    let (code, err, _) = run(dir.path(), false);
    assert_eq!(code, Some(2));
    // Line numbers count the long line once: the string is on line 4.
    assert!(
        err.contains("results.jsonl:4"),
        "the fourth line is named: {err}"
    );
    assert_same_both_ways(dir.path(), "long line");
}

/// Writes `spec` and `log` to a temporary folder.
fn small_paper(spec: &str, log: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("artifact.toml"), spec).unwrap();
    std::fs::write(dir.path().join("results.jsonl"), log).unwrap();
    dir
}

/// The `text` of number `key` in a run's numbers.json.
fn number_text(files: &[(String, Vec<u8>)], key: &str) -> String {
    let (_, bytes) = files
        .iter()
        .find(|(p, _)| p == "numbers.json")
        .expect("numbers.json");
    let v: serde_json::Value = serde_json::from_slice(bytes).unwrap();
    v[key]["text"].as_str().unwrap().to_string()
}

/// Runs `spec` on `log` both ways, checks they agree and succeed, and
/// returns the text of number `key`.
fn number_both_ways(spec: &str, log: &str, what: &str, key: &str) -> String {
    let dir = small_paper(spec, log);
    assert_same_both_ways(dir.path(), what);
    let (code, err, files) = run(dir.path(), false);
    assert_eq!(code, Some(0), "{what}: {err}");
    number_text(&files, key)
}

const ONE_TABLE: &str = r#"
[sources.results]
path = "results.jsonl"

[tables.points]
from = "results"
steps = STEPS

[numbers.groups]
table = "points"
value = "count"
"#;

#[test]
fn infinite_literal_goes_the_generic_way() {
    // `1e999` is a float literal that is not finite: cells never hold one,
    // so such an expression is the generic path's (which refuses it where a
    // number is aggregated, and names it where a filter drops a row).
    for steps in [
        r#"[ { group = ["k"], aggregate = { hi = { max = "1e999" } } } ]"#,
        r#"[ { derive = { y = "1e999" } }, { group = ["k"], aggregate = { s = { sum = "y" } } } ]"#,
        r#"[ { derive = { y = "1e999" } }, { filter = "y < 0" }, { group = ["k"], aggregate = { n = "count" } } ]"#,
    ] {
        let dir = small_paper(&ONE_TABLE.replace("STEPS", steps), "{\"k\": 1}\n");
        let err = assert_same_both_ways(dir.path(), steps);
        assert!(
            err.contains("inf is not a finite number") || err.contains("is infinite"),
            "{steps}: {err}"
        );
    }
}

#[test]
fn drop_notes_after_an_explode_keep_one_order() {
    let steps = r#"[ { explode = "methods", key = "method", value = "m" }, { filter = "m.ratio > 0" }, { filter = "m.x > 0" }, { group = ["method"], aggregate = { n = "count" } } ]"#;
    let dir = small_paper(
        &ONE_TABLE.replace("STEPS", steps),
        "{\"methods\": {\"A\": {\"ratio\": 1, \"x\": 0}, \"B\": {\"ratio\": 0, \"x\": 1}}}\n",
    );
    let err = assert_same_both_ways(dir.path(), "two filters");
    // Entry A goes through both filters before entry B.
    let x = err.find("`m.x > 0` dropped").expect("x note");
    let ratio = err.find("`m.ratio > 0` dropped").expect("ratio note");
    assert!(x < ratio, "{err}");
}

#[test]
fn nested_explode_sees_whole_entries() {
    // Exploding an exploded entry needs all its keys, not only the ones
    // expressions read as `m.attr` (the projection trimmed them: 0 groups).
    let log = "{\"methods\": {\"zstd\": {\"ratio\": 1.5, \"x\": 2}, \"xz\": {\"ratio\": 3}}}\n";
    for steps in [
        r#"[ { explode = "methods", key = "method", value = "m" }, { explode = "m", key = "attr", value = "v" }, { group = ["method", "attr"], aggregate = { n = "count" } } ]"#,
        r#"[ { explode = "methods", key = "method", value = "m" }, { filter = "m.ratio > 0" }, { explode = "m", key = "attr", value = "v" }, { group = ["method", "attr"], aggregate = { n = "count" } } ]"#,
    ] {
        let dir = small_paper(&ONE_TABLE.replace("STEPS", steps), log);
        assert_same_both_ways(dir.path(), steps);
        let (code, err, files) = run(dir.path(), false);
        assert_eq!(code, Some(0), "{err}");
        assert_eq!(number_text(&files, "groups"), "3", "{steps}");
    }
}

#[test]
fn a_filter_reading_the_exploded_field_sees_whole_entries() {
    // `methods.zstd.x` reads an entry's key that no `m.attr` names: the
    // entries must not be trimmed to `ratio`.
    let steps = r#"[ { filter = "methods.zstd.x > 1" }, { explode = "methods", key = "method", value = "m" }, { group = ["method"], aggregate = { r = { sum = "m.ratio" } } } ]"#;
    let log = "{\"methods\": {\"zstd\": {\"ratio\": 1.5, \"x\": 2}, \"xz\": {\"ratio\": 3}}}\n\
               {\"methods\": {\"zstd\": {\"ratio\": 1.5, \"x\": 0}}}\n";
    let spec = ONE_TABLE.replace("STEPS", steps);
    assert_eq!(
        number_both_ways(&spec, log, "field read whole", "groups"),
        "2"
    );
}

#[test]
fn a_derive_after_an_explode_reads_the_record_not_the_last_entry() {
    // Each entry starts from the record's fields: `x = x + 1` after an
    // explode gives every entry 2, not 2 then 3 (the fast path restores the
    // slots later steps write, rather than copying all of them per entry).
    let steps = r#"[ { explode = "methods", key = "method", value = "m" }, { derive = { x = "x + 1" } }, { group = ["method"], aggregate = { s = { sum = "x" } } } ]"#;
    let spec = ONE_TABLE.replace("STEPS", steps)
        + "\n[numbers.last]\ntable = \"points\"\nwhere = \"method == 'c'\"\nvalue = { cell = \"s\" }\n";
    let log = "{\"x\": 1, \"methods\": {\"a\": {\"ratio\": 1}, \"b\": {\"ratio\": 2}, \"c\": 7}}\n";
    assert_eq!(
        number_both_ways(&spec, log, "derive after explode", "last"),
        "2"
    );
}

#[test]
fn a_derive_after_an_explode_sees_the_exploded_field_missing() {
    // Found by a helper's differential run: the fast path put the record's
    // value back into the exploded field before each entry when a later
    // derive wrote it, where the generic path has it missing (s = 2, not 0;
    // and `methods.a` passed instead of failing).
    let log = "{\"methods\": {\"a\": 1, \"b\": 2}}\n";
    let derive = |e: &str| {
        format!(
            r#"[ {{ explode = "methods", key = "method", value = "m" }}, {{ derive = {{ methods = "{e}" }} }}, {{ group = [], aggregate = {{ s = {{ sum = "methods" }} }} }} ]"#
        )
    };
    let spec = ONE_TABLE.replace("STEPS", &derive("1 if methods is defined else 0"))
        + "\n[numbers.s]\ntable = \"points\"\nvalue = { cell = \"s\" }\n";
    assert_eq!(
        number_both_ways(&spec, log, "exploded field written later", "s"),
        "0"
    );
    // Read as a map after the explode: the generic path's error, both ways.
    let dir = small_paper(&ONE_TABLE.replace("STEPS", &derive("methods.a")), log);
    assert_same_both_ways(dir.path(), "exploded field read later");
    let (code, err, _) = run(dir.path(), false);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("cannot evaluate `methods.a`"), "{err}");
    // A nested explode's field too.
    let steps = r#"[ { explode = "methods", key = "method", value = "m" }, { explode = "m", key = "attr", value = "v2" }, { derive = { m = "m.c" } }, { group = [], aggregate = { s = { sum = "m" } } } ]"#;
    let log = "{\"methods\": {\"a\": {\"c\": 1}, \"b\": {\"c\": 2}}}\n";
    let dir = small_paper(&ONE_TABLE.replace("STEPS", steps), log);
    assert_same_both_ways(dir.path(), "nested exploded field read later");
}

/// The new steps (issue 13: aggregate without group, window, fold, pivot,
/// bin, joinaggregate, explode of a derived map) after a streamed prefix
/// give the same numbers both ways.
#[test]
fn new_steps_after_the_streamed_prefix_agree() {
    let spec = r#"
[sources.results]
path = "results.jsonl"

[tables.total]
from = "results"
steps = [ { derive = { m = "{'a': x, 'b': 2 * x}" } }, { explode = "m", key = "k2", value = "v" }, { aggregate = { s = { sum = "v" }, n = "count" } } ]

[tables.none]
from = "results"
steps = [ { filter = "x > 100" }, { aggregate = { n = "count", s = { sum = "x" } } } ]

[tables.wide]
from = "results"
steps = [ { group = ["k"], aggregate = { s = { sum = "x" } } }, { window = { r = "rank", c = { sum = "s" } }, sort = { by = "s", descending = true } }, { joinaggregate = { all = { sum = "s" } } }, { fold = ["r", "c"] }, { pivot = "key", per = "k" }, { bin = "c", bins = 2 } ]

[numbers.total]
table = "total"
value = { cell = "s" }

[numbers.empty-sum]
table = "none"
value = { cell = "s" }

[numbers.rank-of-b]
table = "wide"
where = "k == 'b'"
value = { cell = "r" }

[numbers.bin-of-b]
table = "wide"
where = "k == 'b'"
value = { cell = "bin_c" }
"#;
    let log = "{\"k\": \"a\", \"x\": 1}\n{\"k\": \"b\", \"x\": 5}\n{\"k\": \"a\", \"x\": 2}\n{\"k\": \"c\", \"x\": 4}\n";
    let dir = small_paper(spec, log);
    assert_same_both_ways(dir.path(), "new steps");
    let (code, err, files) = run(dir.path(), false);
    assert_eq!(code, Some(0), "{err}");
    // 3 · (1 + 5 + 2 + 4) = 36; no rows: sum 0; b (5) ranks first of a (3),
    // b (5), c (4); running sums 5, 9, 12 over [5, 12] in 2 bins: b's 5 in
    // [5, 8.5).
    assert_eq!(number_text(&files, "total"), "36");
    assert_eq!(number_text(&files, "empty-sum"), "0");
    assert_eq!(number_text(&files, "rank-of-b"), "1");
    assert_eq!(number_text(&files, "bin-of-b"), "5.0");
}

/// A log joined to a small table, where most rows miss: the fast path sends
/// only the key of a row its lookup would drop (no row built). The notes
/// (rows missed, the first places; repeats `unique` dropped), the numbers,
/// and the error of a repeated key must be those of the generic path and
/// of the same steps on the table held whole, across many batches.
#[test]
fn a_lookup_that_misses_sends_only_the_key_and_says_the_same() {
    let mut log = String::new();
    for i in 0..40_000u32 {
        // Keys repeat across batch boundaries (every 9,000 lines), one in 7
        // is in the small table, some lines lack `x`.
        let k = i % 9_000;
        let x = if i % 5 == 0 {
            "null".to_string()
        } else {
            format!("{}.5", i % 13)
        };
        log.push_str(&format!(
            "{{\"kind\": \"{}\", \"k\": \"t{k}\", \"x\": {x}, \"pad\": \"{}\"}}\n",
            if i % 3 == 0 { "other" } else { "run" },
            "p".repeat((i % 40) as usize)
        ));
    }
    let small: Vec<String> = (0..9_000)
        .step_by(7)
        .map(|k| format!("{{ k = \"t{k}\", w = {k} }}"))
        .collect();
    let spec = |keep: &str, from: &str| {
        format!(
            r#"[sources.log]
path = "log.jsonl"

[sources.small]
rows = [{}]

[tables.held]
from = "log"

[tables.joined]
from = "{from}"
steps = [
  {{ filter = "kind == 'run'" }},
  {{ unique = "k"{keep} }},
  {{ lookup = "small", on = "k", as = "s" }},
  {{ derive = {{ y = "(x or 0) * s.w" }} }},
]

[numbers.n]
table = "joined"
value = "count"

[numbers.sy]
table = "joined"
value = {{ sum = "y" }}
"#,
            small.join(", ")
        )
    };
    let mut errs = Vec::new();
    for (keep, from) in [
        (", keep = \"first\"", "log"),
        (", keep = \"first\"", "held"),
        ("", "log"),
        ("", "held"),
    ] {
        let dir = project(&spec(keep, from));
        std::fs::write(dir.path().join("log.jsonl"), &log).unwrap();
        errs.push(assert_same_both_ways(dir.path(), from));
    }
    // Streamed and held say the same, both with keep = "first" ...
    assert!(
        errs[0]
            .contains("row(s) had no match in `small` on k and were dropped: (t1) at log.jsonl:2;"),
        "{}",
        errs[0]
    );
    assert!(errs[0].contains("unique: "), "{}", errs[0]);
    assert_eq!(errs[0], errs[1]);
    // ... and with keep = "error", at the first repeat (a key that misses).
    assert!(errs[2].contains("log.jsonl:9002"), "{}", errs[2]);
    assert!(
        errs[2].contains("key (t1) repeats the row at log.jsonl:2"),
        "{}",
        errs[2]
    );
    assert_eq!(errs[2], errs[3]);
}

/// Regression (break-it review): a table whose step fails early in a log
/// (a repeated `unique` key on line 2) still reads the log to its end, so
/// a syntax error on a later line, in a later batch, is the error, as when
/// the table is held whole, alone or beside other tables reading the log.
#[test]
fn a_step_error_early_does_not_hide_a_later_syntax_error() {
    let mut log = String::from("{\"id\": 1}\n{\"id\": 1}\n");
    for _ in 0..5_000 {
        log.push_str(&format!(
            "{{\"id\": 2, \"pad\": \"{}\"}}\n",
            "p".repeat(100)
        ));
    }
    log.push_str("{\"id\": 2,,}\n");
    let spec = |from: &str, other: bool| {
        let mut s = format!(
            "[sources.s]\npath = \"s.jsonl\"\n[tables.raw]\nfrom = \"s\"\n[tables.u]\nfrom = \"{from}\"\nsteps = [{{ unique = \"id\" }}]\n[numbers.n-u]\ntable = \"u\"\nvalue = \"count\"\n"
        );
        if other {
            s.push_str("[tables.o]\nfrom = \"s\"\nsteps = [{ group = \"id\", aggregate = { n = \"count\" } }]\n[numbers.n-o]\ntable = \"o\"\nvalue = \"count\"\n");
        }
        s
    };
    let mut errs = Vec::new();
    for (from, other) in [("s", false), ("raw", false), ("s", true)] {
        let dir = project(&spec(from, other));
        std::fs::write(dir.path().join("s.jsonl"), &log).unwrap();
        let err = assert_same_both_ways(dir.path(), from);
        assert!(
            err.contains("s.jsonl:5003: invalid JSON at column 10"),
            "{from} {other}: {err}"
        );
        assert!(!err.contains("repeats the row"), "{from} {other}: {err}");
        errs.push(err);
    }
    assert_eq!(errs[0], errs[1], "streamed and held");
}

/// Regression (break-it review): group keys compare numbers as Python
/// does up to `i64`'s range, on both paths: 2⁵³ and 10¹⁶ written as an
/// integer and as a float are one key each (the cut-off was 9 × 10¹⁵);
/// 2⁵³ + 1 is not 2⁵³.
#[test]
fn whole_floats_beyond_2_53_are_the_integers_they_equal() {
    let spec = r#"[sources.s]
path = "s.jsonl"

[tables.g]
from = "s"
steps = [{ group = "k", aggregate = { n = "count" } }]

[numbers.groups]
table = "g"
value = "count"

[numbers.most]
table = "g"
value = { max = "n" }
"#;
    let dir = project(spec);
    let log = "{\"k\": 9007199254740992}\n{\"k\": 9007199254740992.0}\n{\"k\": 10000000000000000}\n{\"k\": 1e16}\n{\"k\": 9007199254740993}\n{\"k\": 1e300}\n";
    std::fs::write(dir.path().join("s.jsonl"), log).unwrap();
    assert_same_both_ways(dir.path(), "big whole numbers");
    let n = numbers(dir.path());
    assert_eq!(n["groups"]["value"], 4, "{n}");
    assert_eq!(n["most"]["value"], 2, "{n}");
}

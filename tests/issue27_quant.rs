//! Issue 27, part A: quantities with units. `quantity(text, unit)` reads
//! rebar's and criterion's texts (`6.08ms`, `10.309 us`, `1.2 GiB`) as
//! numbers in the unit, on the fast path and the generic one alike.

mod common;

use common::{numbers_on_both_paths, project, stderr};

/// rebar's medians (no space) and criterion's (a space, 5 figures).
const LOG: &str = r#"{"name": "a", "median": "6.08ms", "size": "1.2 GiB", "rate": "3.5k"}
{"name": "b", "median": "30.08us", "size": "4 KiB", "rate": "12", "mem": "4 KB"}
{"name": "c", "median": "4.51s", "size": "512 B", "rate": "2M"}
{"name": "d", "median": "669.75 ps", "size": null, "rate": "1.5 m"}
{"name": "e", "median": "10.309 µs", "size": "1 kB", "rate": "0"}
"#;

fn spec(name: &str, expr: &str) -> String {
    format!(
        r#"[sources.runs]
path = "data/runs.jsonl"

[numbers.q]
table = "runs"
where = "name == '{name}'"
value = {{ max = "{expr}" }}
"#
    )
}

/// The value of number `q` on both paths: `expr` on the row named `name`.
fn value(name: &str, expr: &str) -> f64 {
    let dir = project(&spec(name, expr));
    std::fs::create_dir_all(dir.path().join("data")).unwrap();
    std::fs::write(dir.path().join("data/runs.jsonl"), LOG).unwrap();
    let n = numbers_on_both_paths(dir.path());
    n["q"]["value"].as_f64().unwrap_or_else(|| panic!("{n}"))
}

#[test]
fn quantity_reads_rebar_medians_in_seconds() {
    assert_eq!(value("a", "quantity(median, 's')"), 0.00608);
    assert_eq!(value("b", "quantity(median, 's')"), 3.008e-05);
    assert_eq!(value("c", "quantity(median, 's')"), 4.51);
}

#[test]
fn quantity_reads_criterion_medians_with_a_space() {
    assert_eq!(value("d", "quantity(median, 's')"), 6.6975e-10);
    assert_eq!(value("e", "quantity(median, 's')"), 1.0309e-05);
}

#[test]
fn quantity_reads_binary_prefixes_of_bytes_and_no_unit() {
    assert_eq!(value("a", "quantity(size, 'B')"), 1288490188.8);
    assert_eq!(value("b", "quantity(size, 'B')"), 4096.0);
    assert_eq!(value("e", "quantity(size, 'B')"), 1000.0);
    assert_eq!(value("a", "quantity(rate, '')"), 3500.0);
    assert_eq!(value("c", "quantity(rate)"), 2e6);
    // `m` is milli, not mega.
    assert_eq!(value("d", "quantity(rate)"), 0.0015);
    // Arithmetic on it: milliseconds.
    assert_eq!(value("a", "quantity(median, 's') * 1000"), 6.08);
}

#[test]
fn quantity_of_null_is_null() {
    let dir = project(&spec("d", "1 if quantity(size, 'B') is none else 0"));
    std::fs::create_dir_all(dir.path().join("data")).unwrap();
    std::fs::write(dir.path().join("data/runs.jsonl"), LOG).unwrap();
    let n = numbers_on_both_paths(dir.path());
    assert_eq!(n["q"]["value"], serde_json::json!(1), "{n}");
}

/// The error of `gen` with `expr` over every row.
fn error(expr: &str) -> String {
    let dir = project(&format!(
        "[sources.runs]\npath = \"data/runs.jsonl\"\n\n[numbers.q]\ntable = \"runs\"\nvalue = {{ max = \"{expr}\" }}\n"
    ));
    std::fs::create_dir_all(dir.path().join("data")).unwrap();
    std::fs::write(dir.path().join("data/runs.jsonl"), LOG).unwrap();
    let out = common::artifact(dir.path(), &["gen"]);
    assert!(!out.status.success());
    let e = stderr(&out);
    e[e.find("error").unwrap()..]
        .lines()
        .next()
        .unwrap()
        .to_string()
}

#[test]
fn quantity_with_the_wrong_unit_names_the_row_and_the_text() {
    assert_eq!(
        error("quantity(median, 'B')"),
        "error: number `q`: over 5 row(s) of table `runs`: data/runs.jsonl:1: cannot evaluate `quantity(median, 'B')`: invalid operation: quantity: \"6.08ms\" ends in `ms`; expected a number, an optional SI or binary prefix and `B` (`2.5 kB`) (where median = \"6.08ms\")"
    );
}

#[test]
fn quantity_with_an_unknown_prefix_names_the_row_and_lists_the_prefixes() {
    assert_eq!(
        error("quantity(mem, 'B') if mem is defined else 0"),
        "error: number `q`: over 5 row(s) of table `runs`: data/runs.jsonl:2: cannot evaluate `quantity(mem, 'B') if mem is defined else 0`: invalid operation: quantity: \"4 KB\": `K` is no SI prefix (q r y z a f p n u µ m k M G T P E Z Y R Q) or binary prefix (Ki Mi Gi Ti Pi Ei Zi Yi) (kilo is `k`; `Ki` is kibi, 1024); expected a number, an optional SI or binary prefix and `B` (`2.5 kB`) (where mem = \"4 KB\")"
    );
}

#[test]
fn quantity_of_a_missing_field_names_the_field() {
    assert_eq!(
        error("quantity(medain, 's')"),
        "error: number `q`: over 5 row(s) of table `runs`: data/runs.jsonl:1: cannot evaluate `quantity(medain, 's')`: no field `medain` in table `runs` (fields: name, median, size, rate); did you mean `median`?"
    );
}

#[test]
fn quantity_of_a_number_or_a_list_is_the_number_or_an_error() {
    assert_eq!(value("a", "quantity(2.5, 's')"), 2.5);
    assert_eq!(
        error("quantity([1], 's')"),
        "error: number `q`: over 5 row(s) of table `runs`: data/runs.jsonl:1: cannot evaluate `quantity([1], 's')`: invalid operation: quantity needs a text such as \"6.08ms\", got a list"
    );
}

/// A project whose number `t` is `value` printed with `format`; the
/// numbers.json entry, or the error of `gen`.
fn printed(value: &str, format: &str) -> Result<serde_json::Value, String> {
    let dir = project(&format!(
        "[numbers.t]\nvalue = {{ expr = \"{value}\" }}\nformat = {format}\n"
    ));
    std::fs::create_dir_all(dir.path().join("data")).unwrap();
    std::fs::write(dir.path().join("data/runs.jsonl"), LOG).unwrap();
    let out = common::artifact(dir.path(), &["gen"]);
    if !out.status.success() {
        let e = stderr(&out);
        return Err(e[e.find("error").unwrap()..]
            .lines()
            .next()
            .unwrap()
            .to_string());
    }
    let n = common::numbers(dir.path());
    let tex = std::fs::read_to_string(dir.path().join("generated/macros.tex")).unwrap();
    Ok(
        serde_json::json!({ "text": n["t"]["text"], "tex": tex.lines().find(|l| l.contains("artnum@t}{")).unwrap() }),
    )
}

#[test]
fn prefix_si_with_five_figures_prints_criterion_times() {
    let got = printed(
        "1.0309e-5",
        "{ prefix = \"si\", unit = \"s\", figures = 5 }",
    )
    .unwrap();
    assert_eq!(got["text"], "10.309\u{a0}µs");
    assert_eq!(
        got["tex"],
        "\\@namedef{artnum@t}{10.309~\\ensuremath{\\mu}s}"
    );
    assert_eq!(
        printed(
            "6.6975e-10",
            "{ prefix = \"si\", unit = \"s\", figures = 5 }"
        )
        .unwrap()["text"],
        "669.75\u{a0}ps"
    );
    assert_eq!(
        printed("4.51", "{ prefix = \"si\", unit = \"s\", figures = 5 }").unwrap()["text"],
        "4.5100\u{a0}s"
    );
}

#[test]
fn prefix_binary_prints_bytes_in_gibibytes() {
    assert_eq!(
        printed(
            "1288490188.8",
            "{ prefix = \"binary\", unit = \"B\", places = 1 }"
        )
        .unwrap()["text"],
        "1.2\u{a0}GiB"
    );
}

#[test]
fn prefix_with_percent_or_scientific_is_an_error_at_its_column() {
    assert_eq!(
        printed("1", "{ prefix = \"si\", percent = true }").unwrap_err(),
        "error: artifact.toml:3:21: `prefix` does not go with `percent`"
    );
    assert_eq!(
        printed("1", "{ prefix = \"si\", exponent-mode = \"scientific\" }").unwrap_err(),
        "error: artifact.toml:3:12: `prefix` cannot be given with `exponent-mode` in a format"
    );
}

#[test]
fn fmt_filter_takes_a_prefix() {
    let dir = project(
        "[sources.s]\nrows = [{ x = 1, y = 1 }]\n\n[figures.f]\nsize = [3, 2]\ntitle = \"{{ 0.00608 | fmt(figures=3, unit='s', prefix='si') }}\"\nlayers = [ { mark = \"point\", data = \"s\", x = \"x\", y = \"y\" } ]\n",
    );
    let out = common::artifact(dir.path(), &["gen"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let svg = std::fs::read_to_string(dir.path().join("figures/f.svg")).unwrap();
    assert!(svg.contains("6.08\u{a0}ms"), "{svg}");
}

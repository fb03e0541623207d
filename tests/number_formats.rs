//! Number formats in siunitx's words, with exact texts: the one Unicode
//! text of numbers.json and macros.typ, and its LaTeX in macros.tex.

mod common;

use std::path::Path;

use common::*;

/// A project with `runs.csv` (x: -1.5, -0.5, -2; y: 1.2, 1.3, 1.25) and
/// the spec `numbers` (TOML after `[sources.runs]`).
fn project(numbers: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("runs.csv"),
        "x,y\n-1.5,1.2\n-0.5,1.3\n-2,1.25\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("artifact.toml"),
        format!("[sources.runs]\npath = \"runs.csv\"\n\n{numbers}"),
    )
    .unwrap();
    dir
}

/// The text of number `key` in numbers.json.
fn text(dir: &Path, key: &str) -> String {
    numbers(dir)[key]["text"].as_str().unwrap().to_string()
}

/// The LaTeX definition of number `key` in macros.tex.
fn tex(dir: &Path, key: &str) -> String {
    let t = std::fs::read_to_string(dir.join("generated/macros.tex")).unwrap();
    let prefix = format!("\\@namedef{{artnum@{key}}}{{");
    let line = t.lines().find(|l| l.starts_with(&prefix)).unwrap();
    line[prefix.len()..line.len() - 1].to_string()
}

/// `(text, LaTeX)` of `value = { expr = EXPR }` printed with `format`.
fn printed(expr: &str, format: &str) -> (String, String) {
    let dir = project(&format!(
        "[numbers.a]\nvalue = {{ expr = \"{expr}\" }}\nformat = {format}\n"
    ));
    gen_ok(dir.path());
    (text(dir.path(), "a"), tex(dir.path(), "a"))
}

fn gen_error(numbers: &str) -> String {
    let dir = project(numbers);
    let out = artifact(dir.path(), &["gen"]);
    assert_eq!(out.status.code(), Some(2));
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn negative_numbers_print_the_true_minus() {
    let dir = project(
        "[numbers.m]\ntable = \"runs\"\nvalue = { mean = \"x\" }\nformat = { places = 2 }\n",
    );
    gen_ok(dir.path());
    assert_eq!(text(dir.path(), "m"), "\u{2212}1.33");
    assert_eq!(tex(dir.path(), "m"), "\\ensuremath{-}1.33");
    let typ = std::fs::read_to_string(dir.path().join("generated/macros.typ")).unwrap();
    assert!(typ.contains("#let m = \"\u{2212}1.33\"\n"), "{typ}");
    // A value that rounds to zero has no sign.
    assert_eq!(printed("-0.001", "{ places = 2 }").0, "0.00");
    assert_eq!(printed("-3", "{}").0, "\u{2212}3");
}

#[test]
fn units_take_a_space_except_times_percent_and_degree() {
    assert_eq!(
        printed("4.0", "{ places = 1, unit = \"×\" }"),
        ("4.0×".into(), "4.0\\ensuremath{\\times}".into())
    );
    assert_eq!(
        printed("4.0", "{ places = 1, unit = \"ms\" }").0,
        "4.0\u{a0}ms"
    );
    assert_eq!(printed("4.0", "{ places = 1, unit = \"x\" }").0, "4.0x");
    assert_eq!(printed("45", "{ unit = \"°\" }").0, "45°");
    assert_eq!(
        printed(
            "4.0",
            "{ places = 1, unit = \"ms\", number-unit-product = \"\\\\,\" }"
        ),
        ("4.0\u{2009}ms".into(), "4.0\\,ms".into())
    );
    assert_eq!(
        printed(
            "4.0",
            "{ places = 1, unit = \"ms\", number-unit-product = \"~\" }"
        ),
        ("4.0\u{a0}ms".into(), "4.0~ms".into())
    );
}

#[test]
fn exponent_modes_print_powers_of_ten() {
    let sci = (
        "5.7\u{a0}×\u{a0}10⁻¹⁴".to_string(),
        "5.7\\ensuremath{\\times10^{-14}}".to_string(),
    );
    // `figures` alone: scientific below 10⁻⁴ (Python's `g`), fixed above.
    assert_eq!(printed("5.7e-14", "{ figures = 2 }"), sci);
    assert_eq!(
        printed("5.7e-14", "{ figures = 2, exponent-mode = \"scientific\" }"),
        sci
    );
    assert_eq!(printed("0.00123", "{ figures = 2 }").0, "0.0012");
    assert_eq!(printed("1258.675", "{ figures = 3 }").0, "1260");
    assert_eq!(
        printed("5.7e-14", "{ figures = 2, exponent-mode = \"fixed\" }").0,
        "0.000000000000057"
    );
    assert_eq!(
        printed(
            "5.7e-14",
            "{ figures = 2, exponent-mode = \"engineering\" }"
        )
        .0,
        "57\u{a0}×\u{a0}10⁻¹⁵"
    );
    assert_eq!(
        printed("123456", "{ places = 1, exponent-mode = \"engineering\" }").0,
        "123.5\u{a0}×\u{a0}10³"
    );
    assert_eq!(
        printed("-2.5e6", "{ places = 2, exponent-mode = \"scientific\" }"),
        (
            "\u{2212}2.50\u{a0}×\u{a0}10⁶".into(),
            "\\ensuremath{-}2.50\\ensuremath{\\times10^{6}}".into()
        )
    );
    assert_eq!(
        printed(
            "1e-14",
            "{ figures = 1, exponent-mode = \"scientific\", print-unity-mantissa = false }"
        ),
        ("10⁻¹⁴".into(), "10\\ensuremath{^{-14}}".into())
    );
}

#[test]
fn group_separator_in_latex_spellings_is_written_back_as_latex() {
    assert_eq!(
        printed(
            "1234567",
            "{ group-digits = true, group-separator = \"\\\\,\" }"
        ),
        ("1\u{2009}234\u{2009}567".into(), "1\\,234\\,567".into())
    );
    assert_eq!(
        printed(
            "1234567",
            "{ group-digits = true, group-separator = \"~\" }"
        ),
        ("1\u{a0}234\u{a0}567".into(), "1~234~567".into())
    );
    assert_eq!(
        printed(
            "1234567",
            "{ group-digits = true, group-separator = \"{,}\" }"
        )
        .0,
        "1,234,567"
    );
    assert_eq!(
        printed(
            "1234567.25",
            "{ places = 2, group-digits = true, group-separator = \"\\\\,\", output-decimal-marker = \",\" }"
        ),
        (
            "1\u{2009}234\u{2009}567,25".into(),
            "1\\,234\\,567,25".into()
        )
    );
    let e = gen_error(
        "[numbers.a]\nvalue = { expr = \"1\" }\nformat = { group-digits = true, group-separator = \"\\\\quad\" }\n",
    );
    assert_eq!(
        e,
        "error: artifact.toml:6:51: `group-separator`: unknown LaTeX command `\\quad` (accepted: `\\,` or `\\thinspace` for a thin space, `~` for a no-break space, `{,}` for a comma, or the character itself)\n  |\n6 | format = { group-digits = true, group-separator = \"\\\\quad\" }\n  |                                                   ^^^^^^^^\n"
    );
}

#[test]
fn uncertainty_prints_with_the_value_as_one_number() {
    let dir = project(concat!(
        "[numbers.ms]\ntable = \"runs\"\nvalue = { mean = \"y\" }\nuncertainty = { std = \"y\" }\nformat = { figures = 1, unit = \"ms\" }\n\n",
        "[numbers.c]\ntable = \"runs\"\nvalue = { mean = \"y\" }\nuncertainty = { std = \"y\" }\nformat = { figures = 1, separate-uncertainty = false }\n\n",
        "[numbers.med]\ntable = \"runs\"\nvalue = { median = \"y\" }\nuncertainty = { low = { min = \"y\" }, high = { max = \"y\" } }\nformat = { places = 3 }\n",
    ));
    gen_ok(dir.path());
    assert_eq!(text(dir.path(), "ms"), "(1.25\u{a0}±\u{a0}0.05)\u{a0}ms");
    assert_eq!(tex(dir.path(), "ms"), "(1.25~\\ensuremath{\\pm}~0.05)~ms");
    assert_eq!(text(dir.path(), "c"), "1.25(5)");
    assert_eq!(text(dir.path(), "med"), "1.250\u{a0}±\u{a0}0.050");
    assert_eq!(tex(dir.path(), "med"), "1.250~\\ensuremath{\\pm}~0.050");
    let n = numbers(dir.path());
    assert_eq!(
        n["med"]["uncertainty"],
        serde_json::json!({ "low": 1.2, "high": 1.3 })
    );
    assert!(close(f(&n["ms"]["uncertainty"]), 0.05));
    let lock = std::fs::read_to_string(dir.path().join("artifact.lock")).unwrap();
    assert!(
        lock.contains("uncertainty = '{\"high\":1.3,\"low\":1.2}'"),
        "{lock}"
    );
    // Unchanged inputs: check passes, with the uncertainty sealed.
    assert!(artifact(dir.path(), &["check"]).status.success());
}

#[test]
fn an_interval_that_does_not_hold_the_value_is_an_error() {
    let e = gen_error(
        "[numbers.a]\ntable = \"runs\"\nvalue = { max = \"y\" }\nuncertainty = { low = { min = \"y\" }, high = { mean = \"y\" } }\n",
    );
    assert!(
        e.contains("the interval [1.2, 1.25] does not hold the value 1.3: `low` must be at most the value and `high` at least"),
        "{e}"
    );
    let e = gen_error(
        "[numbers.a]\ntable = \"runs\"\nvalue = { max = \"y\" }\nuncertainty = { expr = \"-0.5\" }\n",
    );
    assert!(
        e.contains("the uncertainty is -0.5, below zero (the value is 1.3)"),
        "{e}"
    );
    let e = gen_error(
        "[numbers.a]\nvalue = { expr = \"1.5\" }\nformat = { separate-uncertainty = false }\n",
    );
    assert!(
        e.contains("`separate-uncertainty` does nothing without an `uncertainty`"),
        "{e}"
    );
}

#[test]
fn rounding_is_half_to_even_on_the_binary_value_as_pythons_format() {
    // Python: format(0.125, '.2f') == '0.12', format(0.375, '.2f') == '0.38',
    // format(2.5, '.0f') == '2', format(2.675, '.2f') == '2.67',
    // format(1.0000000000000002, '.15f') == '1.000000000000000',
    // format(0.0012345, '.3g') == '0.00123', format(1258.675, '.3g') == '1.26e+03'
    for (x, places, want) in [
        ("0.125", 2, "0.12"),
        ("0.375", 2, "0.38"),
        ("2.5", 0, "2"),
        ("3.5", 0, "4"),
        ("2.675", 2, "2.67"),
        ("1.0000000000000002", 15, "1.000000000000000"),
    ] {
        assert_eq!(
            printed(x, &format!("{{ places = {places} }}")).0,
            want,
            "{x}"
        );
    }
    assert_eq!(printed("0.0012345", "{ figures = 3 }").0, "0.00123");
    assert_eq!(printed("0.0625", "{ figures = 2 }").0, "0.062");
}

#[test]
fn figures_on_a_tiny_value_printed_fourteen_zeros() {
    // Issue 13: `figures = 2` printed 5.7e-14 as 0.000000000000057.
    assert_eq!(
        printed("5.7e-14", "{ figures = 2 }").0,
        "5.7\u{a0}×\u{a0}10⁻¹⁴"
    );
}

#[test]
fn group_separator_backslash_comma_was_escaped_to_textbackslash() {
    // Issue 13: `group-separator = "\\,"` came out as `\textbackslash{},`.
    let (_, tex) = printed(
        "1234567",
        "{ group-digits = true, group-separator = \"\\\\,\" }",
    );
    assert!(!tex.contains("textbackslash"), "{tex}");
}

#[test]
fn uncertainty_in_percent_scales_both_and_on_a_string_is_an_error() {
    assert_eq!(
        {
            let dir = project(
                "[numbers.p]\nvalue = { expr = \"0.1234\" }\nuncertainty = { expr = \"0.005\" }\nformat = { places = 1, percent = true }\n",
            );
            gen_ok(dir.path());
            text(dir.path(), "p")
        },
        "(12.3\u{a0}±\u{a0}0.5)%"
    );
    let e =
        gen_error("[numbers.s]\nvalue = { expr = \"'fast'\" }\nuncertainty = { expr = \"0.1\" }\n");
    assert!(
        e.contains("`uncertainty` needs a number, but the value is string \"fast\""),
        "{e}"
    );
}

#[test]
fn print_unity_mantissa_with_fixed_exponents_is_an_error() {
    let e = gen_error(
        "[numbers.a]\nvalue = { expr = \"1e-14\" }\nformat = { exponent-mode = \"fixed\", print-unity-mantissa = false }\n",
    );
    assert_eq!(
        e,
        "error: artifact.toml:6:28: `print-unity-mantissa` does nothing with `exponent-mode = \"fixed\"` (no power of ten is printed)\n  |\n6 | format = { exponent-mode = \"fixed\", print-unity-mantissa = false }\n  |                            ^^^^^^^\n"
    );
}

#[test]
fn print_unity_mantissa_with_places_and_no_exponent_mode_is_an_error() {
    let e = gen_error(
        "[numbers.a]\nvalue = { expr = \"1e-14\" }\nformat = { places = 2, print-unity-mantissa = false }\n",
    );
    assert!(
        e.contains("artifact.toml:6:24: `print-unity-mantissa` does nothing with `places` and no `exponent-mode` in a format (it always prints fixed); give `exponent-mode = \"scientific\"` or `\"engineering\"`, or leave it out"),
        "{e}"
    );
}

#[test]
fn group_separator_that_prints_nothing_is_an_error() {
    for sep in ["{", "}", "{}"] {
        let e = gen_error(&format!(
            "[numbers.a]\nvalue = {{ expr = \"1234567\" }}\nformat = {{ group-digits = true, group-separator = \"{sep}\" }}\n"
        ));
        assert!(
            e.contains(&format!("artifact.toml:6:51: `group-separator` \"{sep}\" prints no separator (braces are LaTeX grouping and print nothing); accepted: a character such as `,` or `'`, `\\,` or `\\thinspace` for a thin space, `~` for a no-break space, `{{,}}` for a comma; for no grouping leave out `group-digits`")),
            "{sep}: {e}"
        );
    }
}

#[test]
fn an_uncertainty_of_1e_300_with_figures_is_an_error_not_607_characters() {
    let e = gen_error(
        "[numbers.a]\nvalue = { expr = \"1.24\" }\nuncertainty = { expr = \"1e-300\" }\nformat = { figures = 2 }\n",
    );
    assert!(
        e.contains("error: number `a`: artifact.toml:4:1: the uncertainty 1e-300 to 2 figure(s) needs 301 decimal places, more than 20"),
        "{e}"
    );
}

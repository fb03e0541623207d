//! Text on marks: the spec's errors for value labels and end labels.

mod common;

fn gen_err(spec: &str) -> String {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("artifact.toml"), spec).unwrap();
    let out = common::artifact(dir.path(), &["gen"]);
    assert!(!out.status.success());
    String::from_utf8_lossy(&out.stderr).to_string()
}

const HEAD: &str =
    "[sources.s]\nrows = [{ b = \"x\", v = 1.5 }]\n\n[figures.f]\nsize = [3, 2]\nlayers = [\n";

#[test]
fn a_misspelt_key_in_text_field_form_is_an_error_at_the_text() {
    let e = gen_err(&format!(
        "{HEAD}  {{ mark = \"bar\", data = \"s\", x = \"b\", y = \"v\", text = {{ field = \"v\", fromat = {{ places = 1 }} }} }},\n]\n"
    ));
    assert!(
        e.contains("artifact.toml:7:56: unknown key `fromat` in `text` (it takes field, format)"),
        "{e}"
    );
}

#[test]
fn a_misspelt_key_in_text_format_is_an_error() {
    let e = gen_err(&format!(
        "{HEAD}  {{ mark = \"bar\", data = \"s\", x = \"b\", y = \"v\", text = {{ field = \"v\", format = {{ place = 1 }} }} }},\n]\n"
    ));
    assert!(
        e.contains("artifact.toml:7:82: `text`'s `format`: unknown field `place`, expected one of `places`, `figures`, `sign`, `percent`, `group-digits`, `group-separator`, `unit`, `exponent-mode`, `print-unity-mantissa`, `output-decimal-marker`, `number-unit-product`, `separate-uncertainty`"),
        "{e}"
    );
}

#[test]
fn text_position_without_text_does_nothing_so_it_is_an_error() {
    let e = gen_err(&format!(
        "{HEAD}  {{ mark = \"bar\", data = \"s\", x = \"b\", y = \"v\", text_position = \"inside\" }},\n]\n"
    ));
    assert!(
        e.contains(
            "artifact.toml:7:49: `text_position` does nothing without `text` in a `bar` layer"
        ),
        "{e}"
    );
}

#[test]
fn an_unknown_text_position_names_the_choices_at_its_value() {
    let e = gen_err(&format!(
        "{HEAD}  {{ mark = \"bar\", data = \"s\", x = \"b\", y = \"v\", text = \"{{{{ v }}}}\", text_position = \"middle\" }},\n]\n"
    ));
    assert!(
        e.contains("artifact.toml:7:83: unknown text_position `middle` (outside, inside)"),
        "{e}"
    );
}

#[test]
fn end_labels_without_series_or_label_is_an_error() {
    let e = gen_err(&format!(
        "{HEAD}  {{ mark = \"line\", data = \"s\", x = \"v\", y = \"v\", end_labels = true }},\n]\n"
    ));
    assert!(
        e.contains("`end_labels` prints each line's `series` (or the layer's `label`): give one"),
        "{e}"
    );
}

#[test]
fn text_field_form_prints_with_the_numbers_format_words() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("artifact.toml"),
        format!("{HEAD}  {{ mark = \"bar\", data = \"s\", x = \"b\", y = \"v\", text = {{ field = \"v * 2\", format = {{ places = 2, sign = \"always\", unit = \"ms\" }} }} }},\n]\n"),
    )
    .unwrap();
    common::gen_ok(dir.path());
    let csv = std::fs::read_to_string(dir.path().join("figures/f.csv")).unwrap();
    assert!(
        csv.lines().nth(1).unwrap().ends_with(",'+3.00\u{a0}ms"),
        "{csv}"
    );
}

/// A value label took only places, figures, sign, percent and unit: the
/// numbers' other words (`exponent-mode`, `group-digits`, ...) were refused.
#[test]
fn a_value_label_takes_every_word_of_a_numbers_format() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("artifact.toml"),
        "[sources.s]\nrows = [{ b = \"x\", v = 1234567.5 }, { b = \"y\", v = -0.00000123 }]\n\n[figures.f]\nsize = [3, 2]\nlayers = [\n  { mark = \"bar\", data = \"s\", x = \"b\", y = \"v\", text = { field = \"v\", format = { figures = 2, exponent-mode = \"scientific\" } } },\n  { mark = \"text\", data = \"s\", x = \"b\", y = 0, text = { field = \"v\", format = { places = 1, group-digits = true, group-separator = \"\\\\,\" } } },\n]\n",
    )
    .unwrap();
    common::gen_ok(dir.path());
    let texts: Vec<String> = common::csv(dir.path(), "f")
        .into_iter()
        .map(|r| r["text"].clone())
        .collect();
    assert_eq!(
        texts,
        [
            "1.2\u{a0}×\u{a0}10⁶",
            "−1.2\u{a0}×\u{a0}10⁻⁶",
            "1\u{2009}234\u{2009}567.5",
            "0.0"
        ]
    );
}

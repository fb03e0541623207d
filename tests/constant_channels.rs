//! Channels a mark draws once (a line's width and opacity, a histogram's
//! fill) must be constants, and a rule's opacity from the data is checked
//! like a point's: each used to be evaluated on no row or silently dropped
//! (a break-it review of issue 11). Also there: an unknown spine pointed at
//! the whole figure.

mod common;

use common::small::stderr;
use common::*;

const HEAD: &str = "[sources.s]\npath = \"d.csv\"\n\n[figures.f]\nsize = [4, 3]\nlayers = [";

fn gen_error(layer: &str) -> String {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("d.csv"), "a,b,cat\n1,2,x\n2,3,y\n3,5,x\n").unwrap();
    std::fs::write(
        dir.path().join("artifact.toml"),
        format!("{HEAD}{layer}]\n"),
    )
    .unwrap();
    let out = artifact(dir.path(), &["gen"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let e = stderr(&out);
    e[e.find("error: ").unwrap()..]
        .lines()
        .next()
        .unwrap()
        .to_string()
}

#[test]
fn rule_opacity_from_a_missing_field_is_an_error_not_opaque() {
    assert_eq!(
        gen_error(r#"{ mark = "rule", data = "s", x = "a", opacity = "nosuch" }"#),
        "error: figure `f`: d.csv:2: no field `nosuch` in table `s` (fields: a, b, cat)"
    );
}

#[test]
fn line_opacity_from_the_data_is_an_error_at_the_key() {
    assert_eq!(
        gen_error(r#"{ mark = "line", data = "s", x = "a", y = "b", opacity = "a / 10" }"#),
        "error: figure `f`: artifact.toml:6:68: `opacity` on a `line` layer is one value for each line: give a constant, not a field or an expression"
    );
}

#[test]
fn hist_stroke_by_field_is_an_error_at_the_key() {
    // `color` by a field now makes one histogram per group (issue 12); an
    // outline is still one value for all the bars.
    assert_eq!(
        gen_error(r#"{ mark = "hist", data = "s", x = "a", stroke = { field = "cat" } }"#),
        "error: figure `f`: artifact.toml:6:58: `stroke` on a `hist` layer is one value for all its bars: give a constant, not a field or an expression"
    );
}

#[test]
fn line_colour_changing_along_a_series_is_an_error() {
    assert_eq!(
        gen_error(
            r#"{ mark = "line", data = "s", x = "a", y = "b", color = { expr = "'red' if a > 1 else 'blue'" } }"#
        ),
        "error: figure `f`: d.csv:3: field `color`: a line has one colour per series: this row's is #ff0000 where its series began with #0000ff; give `series` the expression that picks the colour"
    );
}

#[test]
fn an_unknown_spine_is_an_error_at_its_entry() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("d.csv"), "a,b\n1,2\n").unwrap();
    std::fs::write(
        dir.path().join("artifact.toml"),
        "[sources.s]\npath = \"d.csv\"\n\n[figures.f]\nsize = [4, 3]\nspines = [\"left\", \"lft\"]\nlayers = [{ mark = \"point\", data = \"s\", x = \"a\", y = \"b\" }]\n",
    )
    .unwrap();
    let out = artifact(dir.path(), &["gen"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains(
            "artifact.toml:6:19: unknown spine `lft` (left, right, top, bottom)\n  |\n6 | spines = [\"left\", \"lft\"]\n  |                   ^^^^^\n"
        ),
        "{}",
        stderr(&out)
    );
}

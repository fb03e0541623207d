//! Bars of one layer never hide each other silently.

mod common;
use common::*;

fn spec_with(layer: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("d.csv"),
        "family,codec,ratio\nints,pco,4.1\nints,zstd,2.9\nfloats,pco,1.9\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("artifact.toml"),
        format!(
            "[sources.s]\npath = \"d.csv\"\n\n[figures.f]\nsize = [4, 3]\nlayers = [\n  {layer},\n]\n"
        ),
    )
    .unwrap();
    dir
}

/// Six bars per family were drawn on top of each other and only the last
/// showed (a new user's trial): two rows at one category are an error
/// naming both rows and the ways out.
#[test]
fn bars_of_one_category_drawn_over_each_other_are_an_error() {
    let dir = spec_with(r#"{ mark = "bar", data = "s", x = "family", y = "ratio" }"#);
    let out = artifact(dir.path(), &["gen"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("d.csv:3: field `x`: this row's bar at x = `ints` would be drawn over the bar of d.csv:2: one bar per x in a layer; stack them (`stack = true`), dodge them (`xOffset`), or group the table first"),
        "{err}"
    );
}

/// The same rows dodged or stacked draw every bar.
#[test]
fn dodged_or_stacked_bars_of_one_category_are_drawn() {
    for extra in [r#"xOffset = "codec""#, "stack = true"] {
        let dir = spec_with(&format!(
            r#"{{ mark = "bar", data = "s", x = "family", y = "ratio", {extra} }}"#
        ));
        let out = artifact(dir.path(), &["gen"]);
        assert!(
            out.status.success(),
            "{extra}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(csv(dir.path(), "f").len(), 3, "{extra}");
    }
}

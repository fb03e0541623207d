//! The `best` legend keeps off texts on marks (bar values) and markers,
//! and a legend that still covers a text is reported as a note.

mod common;
mod labels_util;

use artifact::render::layout::layout;
use artifact::render::lint::problems;
use labels_util::*;

/// Horizontal bars that fill the plot's width, each with its value right
/// of its end: every place `best` tries covers some bar.
const LONG_BARS: &str = r#"
[sources.s]
rows = [
  { bench = "a", system = "base", speedup = 7.5 },
  { bench = "b", system = "fast", speedup = 10.1 },
  { bench = "c", system = "fast", speedup = 9.6 },
  { bench = "d", system = "new", speedup = 7.9 },
]

[figures.bars]
size = [4, 2.5]
layers = [
  { mark = "bar", data = "s", y = "bench", x = "speedup", orient = "horizontal", color = { field = "system" }, text = "{{ speedup | fmt(places=1) }}", font_size = 8 },
]
"#;

/// A new user's report: the legend hid a bar's value label, with no note
/// (`best` weighed only the bars' area it covered, so it took the lower
/// right over "7.9" and "9.6").
#[test]
fn best_legend_does_not_hide_a_bar_value_label() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("artifact.toml"), LONG_BARS).unwrap();
    let out = common::gen_ok(dir.path());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("note: figure `bars`"), "{err}");
    let scene = layout(&plot_of(dir.path(), "bars"));
    assert_eq!(scene.legends.len(), 1);
    let legend = scene.legends[0];
    let values = texts(&scene, 8.0);
    let values: Vec<_> = values
        .iter()
        .filter(|t| ["7.5", "10.1", "9.6", "7.9"].contains(&t.text.as_str()))
        .collect();
    assert_eq!(values.len(), 4);
    for v in values {
        let hidden = v.bx.x0 < legend.x1
            && legend.x0 < v.bx.x1
            && v.bx.y0 < legend.y1
            && legend.y0 < v.bx.y1;
        assert!(!hidden, "the legend covers `{}`", v.text);
    }
    assert!(problems(&scene).is_empty(), "{:?}", problems(&scene));
}

/// A legend asked into a place over a value label (`lower right`) is a
/// note naming the text.
#[test]
fn a_legend_over_a_value_label_is_a_note() {
    let dir = tempfile::tempdir().unwrap();
    let spec = LONG_BARS.replace(
        "size = [4, 2.5]",
        "size = [4, 2.5]\nlegend = { position = \"lower right\" }",
    );
    std::fs::write(dir.path().join("artifact.toml"), spec).unwrap();
    let out = common::gen_ok(dir.path());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("note: figure `bars`: the legend covers text \"7.9\""),
        "{err}"
    );
}

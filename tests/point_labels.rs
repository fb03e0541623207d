//! Point labels (`avoid_overlap = true`) sit by their own markers: the demo
//! paper's fig5 and the rules of placement.

mod common;
mod labels_util;

use artifact::render::layout::layout;
use labels_util::*;

/// fig5 (issue 12): "whole_zstd3 (bf16)" started beside whole_zstd9's
/// marker, xz9 and whole_xz6 read as swapped, and the Pareto line struck
/// "whole_zstd9 (bf16)".
#[test]
fn fig5_labels_sit_by_their_own_markers_clear_of_markers_and_the_pareto_line() {
    let dir = common::paper_copy();
    let plot = plot_of(dir.path(), "fig5");
    let scene = layout(&plot);
    let labels = texts(&scene, 7.0);
    assert_eq!(labels.len(), 26);
    // The points layer's markers come first, in its rows' order, which is
    // the text layer's order (both draw `fig5_points`).
    let marks = markers(&scene);
    let marks = &marks[..labels.len()];
    let leaders = paths(&scene, 0.4);
    let pareto = paths(&scene, 0.9);
    assert!(!pareto.is_empty());
    assert_labels_by_markers(&labels, marks, &leaders, &pareto);
    for name in [
        "whole_zstd3 (bf16)",
        "whole_zstd9 (bf16)",
        "xz9 (bf16)",
        "whole_xz6 (bf16)",
    ] {
        assert!(labels.iter().any(|l| l.text == name), "{name} is drawn");
    }
}

/// Nothing is left overlapping in fig5, so gen prints no label note.
#[test]
fn fig5_gen_reports_no_label_overlap() {
    let dir = common::paper_copy();
    let out = common::gen_ok(dir.path());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("could not be placed"), "{err}");
}

/// Labels that cannot all fit are reported, naming the figure and texts.
#[test]
fn labels_that_cannot_fit_are_a_note_naming_figure_and_texts() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("artifact.toml"),
        r#"
[sources.p]
rows = [
  { x = 1.0, y = 1.0, name = "first label that is long" },
  { x = 1.001, y = 1.001, name = "second label that is long" },
  { x = 1.002, y = 1.0, name = "third label that is long" },
  { x = 0.999, y = 0.999, name = "fourth label that is long" },
]

[figures.crowd]
size = [1.2, 1]
layers = [
  { mark = "point", data = "p", x = "x", y = "y" },
  { mark = "text", data = "p", x = "x", y = "y", text = "{{ name }}", font_size = 9, avoid_overlap = true },
]
"#,
    )
    .unwrap();
    let out = common::gen_ok(dir.path());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("note: figure `crowd`: label `"), "{err}");
    assert!(err.contains("could not be placed clear of"), "{err}");
}
